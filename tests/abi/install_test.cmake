# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# abi_install: what a user gets from `cmake --install`. Installs the build into a scratch prefix
# outside the source tree, then from there:
#   - builds tests/abi/consumer with find_package(iree_rt 1.0) and runs it (the sample model on
#     local-sync, the printed version = the package version); find_package(iree_rt 2.0) fails;
#   - builds the same program with just the flags of `pkg-config --cflags --libs iree_rt` (which
#     carry the run path), runs it, and checks `pkg-config --modversion iree_rt`;
#   - checks the installed library and tools carry no debug info (readelf -S: no .debug_info),
#     and that bin/iree-rt-run --version (and bin/iree-rt-trace --version) runs from the prefix
#     and names the package version;
#   - when the bindings are built: the versioned jar runs the Java sample from the prefix, and a
#     C# program run from a folder holding copies of IreeRt.dll and its natives (no MONO_PATH,
#     no LD_LIBRARY_PATH) calls the library.
# Usage: cmake -DBUILD_DIR=... -DCONSUMER_DIR=... -DGENERATOR=... -DC_COMPILER=... -DC_FLAGS=...
#              -DPACKAGE_VERSION=... -DMODEL=<sample_mlp.vmfb> -DREADELF=...
#              -DTOOLS=<the tools built, ','-separated>
#              [-DPKG_CONFIG=...] [-DJAVA=... -DJAVA_SAMPLE_CLASSES=...] [-DMCS=... -DMONO=...]
#              [-DWORK_DIR=...] -P install_test.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "," ";" TOOLS "${TOOLS}")
include("${CMAKE_CURRENT_LIST_DIR}/script_support.cmake")
rt_scratch_dir(install_test)
set(prefix "${WORK_DIR}/prefix")
# The environment a user would have: nothing that points into the build.
unset(ENV{LD_LIBRARY_PATH})
unset(ENV{MONO_PATH})
unset(ENV{PKG_CONFIG_PATH})

# expect_consumer_output(<what>): the consumer's output names the package version and the result.
function(expect_consumer_output what)
  if(NOT last_output MATCHES "iree_rt ([^ \n]+) \\(ABI ")
    message(FATAL_ERROR "${what}: no version line in:\n${last_output}")
  endif()
  if(NOT CMAKE_MATCH_1 STREQUAL PACKAGE_VERSION)
    message(FATAL_ERROR "${what}: the library says version ${CMAKE_MATCH_1}, the package is ${PACKAGE_VERSION}")
  endif()
  if(NOT last_output MATCHES "\nOK\n")
    message(FATAL_ERROR "${what}: the model did not run correctly:\n${last_output}")
  endif()
  message(STATUS "${what}: ${last_output}")
endfunction()

# expect_stripped(<file>): no DWARF left in the installed file.
function(expect_stripped file)
  run("${READELF}" -S --wide "${file}")
  if(last_output MATCHES "\\.debug_info")
    message(FATAL_ERROR "${file} is installed with its debug info (.debug_info)")
  endif()
endfunction()

# ---- Install ----------------------------------------------------------------------------------
run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
set(lib_dir "")
file(GLOB libraries "${prefix}/lib*/libiree_rt.so.${PACKAGE_VERSION}")
if(NOT libraries)
  message(FATAL_ERROR "not installed: lib/libiree_rt.so.${PACKAGE_VERSION}")
endif()
list(GET libraries 0 library)
get_filename_component(lib_dir "${library}" DIRECTORY)
set(files include/iree_rt.h)
foreach(tool IN LISTS TOOLS)
  list(APPEND files bin/${tool})
endforeach()
foreach(file IN LISTS files)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
file(GLOB_RECURSE config "${prefix}/*/iree_rtConfig.cmake")
file(GLOB_RECURSE pc_files "${prefix}/*/iree_rt.pc")
if(NOT config OR NOT pc_files)
  message(FATAL_ERROR "CMake package or iree_rt.pc not installed under ${prefix}")
endif()

# The check module's companion, dlopened by libiree_rt from its own directory.
set(tooling_library "${lib_dir}/libiree_rt_tooling.so.${PACKAGE_VERSION}")
if(NOT EXISTS "${tooling_library}" OR NOT EXISTS "${lib_dir}/libiree_rt_tooling.so.1")
  message(FATAL_ERROR "not installed: libiree_rt_tooling.so.${PACKAGE_VERSION} and its .so.1 link")
endif()

# ---- Stripped, and the tools run from the prefix ------------------------------------------------
expect_stripped("${library}")
expect_stripped("${tooling_library}")
foreach(tool IN LISTS TOOLS)
  expect_stripped("${prefix}/bin/${tool}")
endforeach()
run("${prefix}/bin/iree-rt-run" --version)
if(NOT last_output MATCHES "iree_rt ${PACKAGE_VERSION}")
  message(FATAL_ERROR "iree-rt-run --version does not name ${PACKAGE_VERSION}: ${last_output}")
endif()
message(STATUS "installed bin/iree-rt-run --version: ${last_output}")
if("iree-rt-trace" IN_LIST TOOLS)
  run("${prefix}/bin/iree-rt-trace" --version)
  if(NOT last_output MATCHES "iree-rt-trace \\(iree_rt ${PACKAGE_VERSION}\\)")
    message(FATAL_ERROR "iree-rt-trace --version does not name ${PACKAGE_VERSION}: ${last_output}")
  endif()
endif()

# ---- find_package -------------------------------------------------------------------------------
file(COPY "${CONSUMER_DIR}/" DESTINATION "${WORK_DIR}/consumer-src")
run("${CMAKE_COMMAND}" -G "${GENERATOR}" -S "${WORK_DIR}/consumer-src" -B "${WORK_DIR}/consumer"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_C_FLAGS=${C_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${C_FLAGS}")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer")
run("${WORK_DIR}/consumer/iree_rt_consumer" "${MODEL}" local-sync)
expect_consumer_output("find_package(iree_rt 1.0)")
# A major version the package is not: find_package must refuse it.
execute_process(COMMAND "${CMAKE_COMMAND}" -G "${GENERATOR}" -S "${WORK_DIR}/consumer-src"
                        -B "${WORK_DIR}/consumer-2" "-DCMAKE_PREFIX_PATH=${prefix}"
                        "-DCMAKE_C_COMPILER=${C_COMPILER}" -DIREE_RT_WANTED_VERSION=2.0
                RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE err)
if(result EQUAL 0 OR NOT err MATCHES "version")
  message(FATAL_ERROR "find_package(iree_rt 2.0) did not fail on the version (${result}): ${err}")
endif()

# ---- pkg-config ---------------------------------------------------------------------------------
if(PKG_CONFIG)
  list(GET pc_files 0 pc_file)
  get_filename_component(pc_dir "${pc_file}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  run("${PKG_CONFIG}" --modversion iree_rt)
  string(STRIP "${last_output}" modversion)
  if(NOT modversion STREQUAL PACKAGE_VERSION)
    message(FATAL_ERROR "pkg-config --modversion iree_rt says '${modversion}', the package is ${PACKAGE_VERSION}")
  endif()
  run("${PKG_CONFIG}" --cflags --libs iree_rt)
  if(NOT last_output MATCHES "-Wl,-rpath,")
    message(FATAL_ERROR "pkg-config --libs iree_rt gives no run path: ${last_output}")
  endif()
  separate_arguments(pc_flags UNIX_COMMAND "${last_output}")
  separate_arguments(c_flags UNIX_COMMAND "${C_FLAGS}")
  # What README's Install section tells a user to run (no LD_LIBRARY_PATH).
  run("${C_COMPILER}" ${c_flags} "${WORK_DIR}/consumer-src/main.c" -o "${WORK_DIR}/pc_consumer"
      ${pc_flags} -lm)
  run("${WORK_DIR}/pc_consumer" "${MODEL}" local-sync)
  expect_consumer_output("pkg-config")
endif()

# ---- Java: the installed jar carries its natives ------------------------------------------------
if(JAVA AND JAVA_SAMPLE_CLASSES)
  set(jar "${prefix}/share/java/iree_rt-${PACKAGE_VERSION}.jar")
  if(NOT EXISTS "${jar}" OR NOT EXISTS "${prefix}/share/java/iree_rt.jar")
    message(FATAL_ERROR "not installed: share/java/iree_rt-${PACKAGE_VERSION}.jar and iree_rt.jar")
  endif()
  run("${JAVA}" -cp "${prefix}/share/java/iree_rt.jar:${JAVA_SAMPLE_CLASSES}" ModelSample
      "${MODEL}" --device=local-sync)
  if(NOT last_output MATCHES "2x3xf32=\\[3 -4.15 -0.05\\]\\[0.4375 -0.15 -0.1125\\]")
    message(FATAL_ERROR "the Java sample on the installed jar printed:\n${last_output}")
  endif()
  message(STATUS "Java sample on share/java/iree_rt.jar: OK")
endif()

# ---- C#: IreeRt.dll and its natives copied into a program's folder ------------------------------
if(MCS AND MONO)
  file(GLOB cs_dirs "${prefix}/lib*/iree_rt/csharp")
  list(GET cs_dirs 0 cs_dir)
  foreach(file IreeRt.dll libiree_rt_csharp.so)
    if(NOT EXISTS "${cs_dir}/${file}")
      message(FATAL_ERROR "not installed: ${cs_dir}/${file}")
    endif()
  endforeach()
  expect_stripped("${cs_dir}/libiree_rt_csharp.so")
  set(app "${WORK_DIR}/csharp-app")
  file(MAKE_DIRECTORY "${app}")
  file(COPY "${cs_dir}/IreeRt.dll" "${cs_dir}/libiree_rt_csharp.so" DESTINATION "${app}")
  file(COPY "${lib_dir}/libiree_rt.so.1" DESTINATION "${app}" FOLLOW_SYMLINK_CHAIN)
  file(WRITE "${WORK_DIR}/Program.cs" "
public static class Program {
  public static int Main() {
    System.Console.WriteLine(\"iree_rt \" + IreeRt.Instance.Version);
    System.Console.WriteLine(\"glue: \" + IreeRt.NativeDiagnostics.NativeLibraryPath);
    return 0;
  }
}
")
  run("${MCS}" -nologo -target:exe "-out:${app}/Program.exe" "-r:${app}/IreeRt.dll"
      "${WORK_DIR}/Program.cs")
  # Run from another folder: only the program's own folder may be searched.
  run("${MONO}" "${app}/Program.exe")
  if(NOT last_output MATCHES "iree_rt ${PACKAGE_VERSION} \\(ABI" OR
     NOT last_output MATCHES "glue: ${app}/libiree_rt_csharp.so")
    message(FATAL_ERROR "the C# program next to a copied IreeRt.dll printed:\n${last_output}")
  endif()
  message(STATUS "C# from a copied IreeRt.dll: ${last_output}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "install test passed")
