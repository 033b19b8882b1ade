# Install rules for the CMake package: headers under include/warpsim/, every library of the export
# set as warpsim::NAME (warpsim::warpsim is the facade, api/), the warpsim executable, and
# warpsimConfig.cmake with its version file so that find_package(warpsim) works from the prefix.
include(CMakePackageConfigHelpers)
set(WARPSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/warpsim)

get_property(warpsim_targets GLOBAL PROPERTY WARPSIM_EXPORTED_TARGETS)
install(TARGETS ${warpsim_targets} EXPORT warpsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS warpsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/warpsim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT warpsimTargets NAMESPACE warpsim:: DESTINATION ${WARPSIM_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/warpsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/warpsimConfig.cmake INSTALL_DESTINATION ${WARPSIM_CMAKE_DIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/warpsimConfig.cmake ${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake
        DESTINATION ${WARPSIM_CMAKE_DIR})
