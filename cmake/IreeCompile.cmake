# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Functions that run the pinned upstream compiler at build time.
#
# iree_rt_compile_executable(<target> SRC <file.mlir> [FLAGS ...])
#   Compiles one hal.executable.source (--compile-mode=hal-executable) for llvm-cpu
#   and produces ${CMAKE_CURRENT_BINARY_DIR}/<target>.so. The custom target <target>
#   builds it; the variable <target>_PATH names the file.
# iree_rt_compile_module(<target> SRC <file.mlir> [FLAGS ...])
#   Compiles a whole program to <target>.vmfb for llvm-cpu.
#
# Every rule runs the compiler as ${IREE_RT_COMPILE_COMMAND} <args...>: iree_compile_cached.sh
# in front of it, with a cache shared by every build tree of this checkout (the programs do not
# depend on the sanitizer, so scripts/test.sh compiles each once for its four builds).

if(NOT EXISTS "${IREE_RT_COMPILER}")
  message(WARNING "iree-compile not found at ${IREE_RT_COMPILER}: tests that need compiled "
                  "executables are not built (run the README's commands to install it).")
endif()

set(IREE_RT_COMPILE_CACHE_DIR "${CMAKE_SOURCE_DIR}/build/iree-compile-cache" CACHE PATH
    "Cache of iree-compile outputs shared by build trees (empty: no cache)")
set(_rt_compiler_id "")
if(EXISTS "${IREE_RT_COMPILER}" AND IREE_RT_COMPILE_CACHE_DIR)
  execute_process(COMMAND "${IREE_RT_COMPILER}" --version OUTPUT_VARIABLE _rt_compiler_version
                  ERROR_QUIET RESULT_VARIABLE _rt_rc)
  if(_rt_rc EQUAL 0)
    string(SHA256 _rt_compiler_id "${IREE_RT_COMPILER}\n${_rt_compiler_version}")
  endif()
endif()
if(_rt_compiler_id)
  set(IREE_RT_COMPILE_COMMAND ${CMAKE_CURRENT_LIST_DIR}/iree_compile_cached.sh
      "${IREE_RT_COMPILE_CACHE_DIR}" ${_rt_compiler_id} "${IREE_RT_COMPILER}")
else()
  set(IREE_RT_COMPILE_COMMAND "${IREE_RT_COMPILER}")
endif()

set(IREE_RT_CPU_TARGET_FLAGS
    --iree-hal-target-device=local
    --iree-hal-local-target-device-backends=llvm-cpu
    --iree-llvmcpu-target-cpu=generic)

function(iree_rt_compile_executable target)
  cmake_parse_arguments(ARG "" "SRC" "FLAGS" ${ARGN})
  get_filename_component(src "${ARG_SRC}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.so")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${IREE_RT_COMPILE_COMMAND} --compile-mode=hal-executable ${IREE_RT_CPU_TARGET_FLAGS}
            ${ARG_FLAGS} "${src}" -o "${out}"
    DEPENDS "${src}" VERBATIM
    COMMENT "iree-compile (hal-executable) ${target}")
  add_custom_target(${target} DEPENDS "${out}")
  set(${target}_PATH "${out}" PARENT_SCOPE)
endfunction()

function(iree_rt_compile_module target)
  cmake_parse_arguments(ARG "" "SRC" "FLAGS" ${ARGN})
  get_filename_component(src "${ARG_SRC}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.vmfb")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${IREE_RT_COMPILE_COMMAND} ${IREE_RT_CPU_TARGET_FLAGS} ${ARG_FLAGS} "${src}" -o "${out}"
    DEPENDS "${src}" VERBATIM
    COMMENT "iree-compile ${target}")
  add_custom_target(${target} DEPENDS "${out}")
  set(${target}_PATH "${out}" PARENT_SCOPE)
endfunction()
