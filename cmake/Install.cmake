# Install and export: another CMake project finds the result with
#   find_package(trimm 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE trimm::trimm)
# Layout under the prefix:
#   include/trimm/*.hpp              public headers
#   lib/libtrimm.a                   the library (static unless BUILD_SHARED_LIBS)
#   bin/trimm                        the CLI (when TRIMM_BUILD_CLI)
#   lib/cmake/trimm/                 trimmConfig.cmake, trimmConfigVersion.cmake,
#                                    trimmTargets*.cmake, FindTrimmOpenBLAS.cmake
# tests/install/ builds a consumer against an installed copy (CTest: install_find_package).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TRIMM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/trimm"
    CACHE STRING "Where trimmConfig.cmake is installed, relative to the prefix")

# The installed CLI and (shared) library keep the RPATH to the libraries they link outside the
# system directories (CUDA's lib64, an OpenBLAS given by TRIMM_OPENBLAS_ROOT), so they run
# without LD_LIBRARY_PATH.
set_target_properties(trimm PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS trimm EXPORT trimmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The exported include directory comes from the target's $<INSTALL_INTERFACE:include>.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/trimm
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")

if(TARGET trimm_cli)
  set_target_properties(trimm_cli PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS trimm_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT trimmTargets
  NAMESPACE trimm::
  FILE trimmTargets.cmake
  DESTINATION ${TRIMM_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/trimmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/trimmConfig.cmake
  INSTALL_DESTINATION ${TRIMM_INSTALL_CMAKEDIR})
# Before 1.0 a minor version may break the API: 0.1 satisfies a request for 0.1.x only.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/trimmConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/trimmConfig.cmake
  ${PROJECT_BINARY_DIR}/trimmConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/FindTrimmOpenBLAS.cmake
  DESTINATION ${TRIMM_INSTALL_CMAKEDIR})
