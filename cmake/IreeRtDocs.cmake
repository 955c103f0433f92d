# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# API reference, one target per language plus `iree_rt_docs` for all of them (not part of ALL):
#   iree_rt_doxygen   C: build-dir/docs/c/html/index.html, Doxygen over include/iree_rt.h
#                     (when doxygen is installed; scripts/setup.sh installs it)
#   iree_rt_javadoc   Java: build-dir/bindings/java/javadoc/ and the Maven -javadoc.jar
#                     (bindings/java/maven.cmake)
#   iree_rt_csharp_assembly   C#: IreeRt.xml next to IreeRt.dll (mcs -doc, bindings/csharp)
# Included by the top-level CMakeLists.txt after the bindings.
find_program(IREE_RT_DOXYGEN NAMES doxygen)
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_docs_deps)
if(IREE_RT_DOXYGEN AND Python3_Interpreter_FOUND)
  set(IREE_RT_DOXYGEN_DIR ${CMAKE_BINARY_DIR}/docs/c)
  set(_doxyfile ${CMAKE_BINARY_DIR}/docs/Doxyfile)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/docs/Doxyfile.in ${_doxyfile} @ONLY)
  add_custom_command(
    OUTPUT ${IREE_RT_DOXYGEN_DIR}/html/index.html
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${IREE_RT_DOXYGEN_DIR}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${IREE_RT_DOXYGEN_DIR}
    COMMAND ${IREE_RT_DOXYGEN} ${_doxyfile}
    DEPENDS ${PROJECT_SOURCE_DIR}/include/iree_rt.h ${_doxyfile}
            ${CMAKE_CURRENT_LIST_DIR}/docs/doxygen_filter.py
    COMMENT "doxygen include/iree_rt.h" VERBATIM)
  add_custom_target(iree_rt_doxygen DEPENDS ${IREE_RT_DOXYGEN_DIR}/html/index.html)
  list(APPEND _docs_deps iree_rt_doxygen)
  # docs_c_api: the header still documents cleanly (Doxygen fails on any warning), into a
  # scratch folder so the test does not race the target. Once per CI run: not in sanitizer builds.
  if(IREE_RT_BUILD_TESTS AND IREE_RT_SANITIZER STREQUAL "")
    set(IREE_RT_DOXYGEN_DIR ${CMAKE_BINARY_DIR}/docs/c-test)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/docs/Doxyfile.in ${CMAKE_BINARY_DIR}/docs/Doxyfile.test @ONLY)
    add_test(NAME docs_c_api COMMAND ${IREE_RT_DOXYGEN} ${CMAKE_BINARY_DIR}/docs/Doxyfile.test)
    set_tests_properties(docs_c_api PROPERTIES LABELS "abi" TIMEOUT 120)
    set(IREE_RT_DOXYGEN_DIR ${CMAKE_BINARY_DIR}/docs/c)
  endif()
else()
  message(STATUS "docs: doxygen (or Python 3) not found, no C API reference (target iree_rt_doxygen)")
endif()
foreach(target iree_rt_javadoc iree_rt_csharp_assembly)
  if(TARGET ${target})
    list(APPEND _docs_deps ${target})
  endif()
endforeach()
add_custom_target(iree_rt_docs DEPENDS ${_docs_deps})
