# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Install rules for the public library (included from src/api/CMakeLists.txt):
#   include/iree_rt.h, lib/libiree_rt.so* and lib/libiree_rt_tooling.so.1* (stripped; no run
#   path), lib/cmake/iree_rt
#   (find_package(iree_rt 1.0) -> iree_rt::iree_rt) and lib/pkgconfig/iree_rt.pc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS iree_rt EXPORT iree_rtTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
iree_rt_install_stripped(iree_rt ${CMAKE_INSTALL_LIBDIR})
# The companion libiree_rt dlopens from its own directory for the check module
# (src/api/check_plugin.h); nothing links it, so no development link.
install(TARGETS iree_rt_tooling_library LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_SKIP)
iree_rt_install_stripped(iree_rt_tooling_library ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/iree_rt.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(_iree_rt_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/iree_rt)
install(EXPORT iree_rtTargets NAMESPACE iree_rt:: DESTINATION ${_iree_rt_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/iree_rtConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/iree_rtConfig.cmake INSTALL_DESTINATION ${_iree_rt_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/iree_rtConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/iree_rtConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/iree_rtConfigVersion.cmake
        DESTINATION ${_iree_rt_cmake_dir})

# Relocatable: the prefix is found from the .pc file's own location (cmake --install --prefix).
file(RELATIVE_PATH IREE_RT_PC_RELATIVE_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/iree_rt.pc.in ${CMAKE_CURRENT_BINARY_DIR}/iree_rt.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/iree_rt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
