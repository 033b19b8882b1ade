# warpsim_library(TARGET EXPORT_NAME NAME SOURCES ... [PUBLIC deps...] [PRIVATE deps...])
# One library of the simulator: a static library whose public headers live under include/warpsim/,
# with the alias warpsim::NAME and our warnings (build tree only). Not installed on its own: the
# installed libwarpsim holds it (api/CMakeLists.txt, cmake/Install.cmake).
function(warpsim_library target)
  cmake_parse_arguments(ARG "" "EXPORT_NAME" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  add_library(${target} STATIC ${ARG_SOURCES})
  warpsim_export_library(${target} ${ARG_EXPORT_NAME})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC} PRIVATE ${ARG_PRIVATE} $<BUILD_INTERFACE:warpsim_warnings>)
endfunction()

# Adds an existing library to the export set as warpsim::NAME.
function(warpsim_export_library target export_name)
  add_library(warpsim::${export_name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_property(GLOBAL APPEND PROPERTY WARPSIM_EXPORTED_TARGETS ${target})
endfunction()
