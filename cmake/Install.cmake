# Install rules for the CMake package: the facade as one shared library, libwarpsim (the target
# warpsim::warpsim, with the simulator's static libraries inside), its header warpsim/warpsim.hpp
# with the one header that needs (the error type), the warpsim executable, and warpsimConfig.cmake
# with its version file so that find_package(warpsim) works from the prefix. The libraries below
# the facade are not installed: their headers are not an API we keep.
include(CMakePackageConfigHelpers)
set(WARPSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/warpsim)

install(TARGETS warpsim_shared EXPORT warpsimTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS warpsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/warpsim/warpsim.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/warpsim)
install(FILES ${PROJECT_SOURCE_DIR}/include/warpsim/isa/input_error.hpp ${PROJECT_SOURCE_DIR}/include/warpsim/isa/model.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/warpsim/isa)
install(EXPORT warpsimTargets NAMESPACE warpsim:: DESTINATION ${WARPSIM_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/warpsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/warpsimConfig.cmake INSTALL_DESTINATION ${WARPSIM_CMAKE_DIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/warpsimConfig.cmake ${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake
        DESTINATION ${WARPSIM_CMAKE_DIR})
