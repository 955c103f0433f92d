# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# install_test: installs the build into a scratch prefix, then builds and runs a consumer that
# finds the library with find_package(iree_rt), and checks iree_rt.pc with pkg-config.
# Usage: cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... -DGENERATOR=...
#              -DC_COMPILER=... -DC_FLAGS=... [-DPKG_CONFIG=...] -P install_test.cmake
cmake_minimum_required(VERSION 3.20)
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "command failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(file include/iree_rt.h)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
file(GLOB_RECURSE config "${prefix}/*/iree_rtConfig.cmake")
file(GLOB_RECURSE pc_files "${prefix}/*/iree_rt.pc")
if(NOT config OR NOT pc_files)
  message(FATAL_ERROR "CMake package or iree_rt.pc not installed under ${prefix}")
endif()

run("${CMAKE_COMMAND}" -G "${GENERATOR}" -S "${CONSUMER_DIR}" -B "${WORK_DIR}/consumer"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_C_FLAGS=${C_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${C_FLAGS}")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer")
run("${WORK_DIR}/consumer/iree_rt_consumer")
message(STATUS "consumer: ${last_output}")

if(PKG_CONFIG)
  list(GET pc_files 0 pc_file)
  get_filename_component(pc_dir "${pc_file}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  run("${PKG_CONFIG}" --libs --cflags iree_rt)
  if(NOT last_output MATCHES "-liree_rt" OR NOT last_output MATCHES "-I")
    message(FATAL_ERROR "unexpected pkg-config output: ${last_output}")
  endif()
  string(REGEX MATCH "-I([^ \n]+)" include_flag "${last_output}")
  if(NOT EXISTS "${CMAKE_MATCH_1}/iree_rt.h")
    message(FATAL_ERROR "pkg-config include dir ${CMAKE_MATCH_1} has no iree_rt.h")
  endif()
endif()
