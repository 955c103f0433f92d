# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installed binaries without their debug info, which goes to a separate install component.
#
#   iree_rt_install_stripped(<target> <destination>)
#
# Call it after install(TARGETS <target> ...) put <target> in <destination> (relative to the
# prefix). At build time, <target>'s debug info is copied to <file>.debug next to it
# (objcopy --only-keep-debug); at install time the installed file is stripped of it
# (objcopy --strip-debug) and given a .gnu_debuglink to <file>.debug, and <file>.debug is
# installed to <destination>/.debug, where gdb looks for it, in the component `debug`, which a
# plain `cmake --install` leaves out:
#
#   cmake --install build --prefix P                       stripped binaries
#   cmake --install build --prefix P --component debug     and their debug info
#
# IREE_RT_INSTALL_STRIP=OFF installs the binaries as built (with their debug info).
option(IREE_RT_INSTALL_STRIP "Install binaries without debug info (split into the 'debug' component)" ON)
find_program(IREE_RT_OBJCOPY NAMES objcopy)

function(iree_rt_install_stripped target destination)
  if(NOT IREE_RT_INSTALL_STRIP OR NOT IREE_RT_OBJCOPY OR APPLE OR WIN32)
    return()
  endif()
  set(built $<TARGET_FILE:${target}>)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${IREE_RT_OBJCOPY} --only-keep-debug ${built} ${built}.debug
    COMMENT "objcopy --only-keep-debug $<TARGET_FILE_NAME:${target}>" VERBATIM)
  install(FILES ${built}.debug DESTINATION ${destination}/.debug COMPONENT debug EXCLUDE_FROM_ALL)
  # Escaped variables are read at install time, so --prefix and DESTDIR are honoured.
  install(CODE "
    set(_file \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${destination}/$<TARGET_FILE_NAME:${target}>\")
    execute_process(COMMAND \"${IREE_RT_OBJCOPY}\" --strip-debug
                            \"--add-gnu-debuglink=${built}.debug\" \"\${_file}\"
                    RESULT_VARIABLE _result ERROR_VARIABLE _error)
    if(NOT _result EQUAL 0)
      message(FATAL_ERROR \"objcopy --strip-debug \${_file} failed: \${_error}\")
    endif()
    message(STATUS \"Stripped: \${_file} (debug info: component 'debug')\")")
endfunction()
