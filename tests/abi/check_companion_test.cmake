# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# abi_check_companion: iree_rt_module_create_check finds libiree_rt_tooling.so.1 next to
# libiree_rt, and without it returns UNIMPLEMENTED naming the file (README "Footprint").
# libiree_rt is copied to a scratch folder alone, then with its companion; the client dlopens
# that copy by path.
# Usage: cmake -DCLIENT=... -DLIBRARY=<libiree_rt.so.1> -DTOOLING=<libiree_rt_tooling.so.1>
#              -DWORK_DIR=... -P check_companion_test.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(COPY_FILE "${LIBRARY}" "${WORK_DIR}/libiree_rt.so.1")

function(run_client mode)
  execute_process(COMMAND "${CLIENT}" "${WORK_DIR}/libiree_rt.so.1" ${mode}
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${mode}: ${out}${err}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${mode} failed (${result}): ${out}${err}")
  endif()
endfunction()

run_client(expect-missing)
file(COPY_FILE "${TOOLING}" "${WORK_DIR}/libiree_rt_tooling.so.1")
run_client(expect-ok)
file(REMOVE_RECURSE "${WORK_DIR}")
