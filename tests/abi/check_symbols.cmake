# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# symbols_test: checks that libiree_rt exports exactly the functions of include/iree_rt.symbols
# and that the header declares exactly those functions with IREE_RT_EXPORT.
# Usage: cmake -DNM=<nm> -DLIBRARY=<libiree_rt.so> -DSYMBOLS=<iree_rt.symbols>
#              -DHEADER=<iree_rt.h> -P check_symbols.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var NM LIBRARY SYMBOLS HEADER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_symbols.cmake needs -D${var}=...")
  endif()
endforeach()

# The export list: one name per line; '#' comments and blank lines are ignored.
file(STRINGS "${SYMBOLS}" listed REGEX "^[^#]")
set(expected)
foreach(line IN LISTS listed)
  string(STRIP "${line}" line)
  if(NOT line MATCHES "^iree_rt_[a-z0-9_]+$")
    message(FATAL_ERROR "malformed line in ${SYMBOLS}: '${line}'")
  endif()
  if(line IN_LIST expected)
    message(FATAL_ERROR "${SYMBOLS} lists ${line} twice")
  endif()
  list(APPEND expected "${line}")
endforeach()

# What the library exports: every defined dynamic symbol, of any kind.
execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
                OUTPUT_VARIABLE nm_output RESULT_VARIABLE nm_result)
if(NOT nm_result EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed (${nm_result})")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_output}")
set(exported)
foreach(line IN LISTS nm_lines)
  if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] +([^ ]+)$")
    list(APPEND exported "${CMAKE_MATCH_1}")
  endif()
endforeach()

# What the header declares: every "IREE_RT_EXPORT <type> <name>(" declaration.
file(READ "${HEADER}" header)
string(REGEX MATCHALL "IREE_RT_EXPORT [^(;]*[ *\n](iree_rt_[a-z0-9_]+)\\(" declarations "${header}")
set(declared)
foreach(declaration IN LISTS declarations)
  string(REGEX REPLACE ".*[ *\n](iree_rt_[a-z0-9_]+)\\($" "\\1" name "${declaration}")
  list(APPEND declared "${name}")
endforeach()

set(errors "")
foreach(name IN LISTS exported)
  if(NOT name IN_LIST expected)
    string(APPEND errors "  exported but not in iree_rt.symbols: ${name}\n")
  endif()
endforeach()
foreach(name IN LISTS expected)
  if(NOT name IN_LIST exported)
    string(APPEND errors "  in iree_rt.symbols but not exported: ${name}\n")
  endif()
  if(NOT name IN_LIST declared)
    string(APPEND errors "  in iree_rt.symbols but not declared with IREE_RT_EXPORT in iree_rt.h: ${name}\n")
  endif()
endforeach()
foreach(name IN LISTS declared)
  if(NOT name IN_LIST expected)
    string(APPEND errors "  declared in iree_rt.h but not in iree_rt.symbols: ${name}\n")
  endif()
endforeach()

list(LENGTH expected expected_count)
list(LENGTH exported exported_count)
list(LENGTH declared declared_count)
if(errors)
  message(FATAL_ERROR "symbols_test failed:\n${errors}")
endif()
message(STATUS "symbols_test: ${expected_count} listed, ${exported_count} exported, "
               "${declared_count} declared: all match")
