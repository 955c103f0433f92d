# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The CPU drivers proper (included from CMakeLists.txt once the components exist).
add_library(iree_rt_driver_cpu STATIC
  ${CMAKE_CURRENT_LIST_DIR}/allocator.cc ${CMAKE_CURRENT_LIST_DIR}/command_runner.cc
  ${CMAKE_CURRENT_LIST_DIR}/device.cc ${CMAKE_CURRENT_LIST_DIR}/driver.cc
  ${CMAKE_CURRENT_LIST_DIR}/executable.cc ${CMAKE_CURRENT_LIST_DIR}/executable_cache.cc
  ${CMAKE_CURRENT_LIST_DIR}/registration.cc)
target_link_libraries(iree_rt_driver_cpu PUBLIC iree_rt_hal iree_rt_cpu_loader iree_rt_cpu_task iree_rt_cpu_vmvx)
# Without IREE_RT_COLLECTIVES the devices make no channels (UNAVAILABLE).
target_compile_definitions(iree_rt_driver_cpu PRIVATE IREE_RT_COLLECTIVES=$<BOOL:${IREE_RT_COLLECTIVES}>)
iree_rt_cold_sources(${CMAKE_CURRENT_LIST_DIR}/driver.cc ${CMAKE_CURRENT_LIST_DIR}/executable_cache.cc
                     ${CMAKE_CURRENT_LIST_DIR}/registration.cc)
