# The layers of warpsim (docs/architecture.md): every library has a level, and a target may link
# only libraries of a lower level. warpsim_check_layering(), called at the end of the top-level
# CMakeLists.txt, stops the configuration when a link points the wrong way, so the order the
# folders show cannot drift from the order the build has.

# Level per target. A new library needs a row here (the check says so); moving a library up is a
# change of this table that a reviewer sees.
set(WARPSIM_LEVELS
  # L0: no warpsim dependency
  warpsim_isa=0 warpsim_expression=0 warpsim_gpus_data=0 warpsim_gpus_pipe_data=0 warpsim_workload_programs=0
  # L1
  warpsim_gpus=1 warpsim_ptx_syntax=1 warpsim_sass=1 warpsim_core=1 warpsim_report=1
  # L2
  warpsim_ptx=2 warpsim_occupancy=2 warpsim_grid=2 warpsim_timeline=2 warpsim_evaluate=2
  # L3..L6: what a point predicts, sweeps, their outputs, fitting
  warpsim_workload=3
  warpsim_driver=4
  warpsim_point_list=5 warpsim_sweep_report=5 warpsim_app=5
  warpsim_calibrate=6 warpsim_mpi_sweep=6  # the MPI sweep: on driver, for the facade's MpiJob
  # L7: the facade's code (api/), compiled once; L8: the facade as linked (warpsim::warpsim, static)
  # and as installed (the shared libwarpsim)
  warpsim_api_objects=7 warpsim_api_mpi=7
  warpsim_api=8 warpsim_shared=8 warpsim_api_without_mpi=8
  # L9: the CLI on the facade (tools/warpsim)
  warpsim_cli_commands=9
  warpsim=10 _warpsim=10 warpsim_bench=10)

# Compile settings, not code: any level may link them.
set(WARPSIM_LAYERING_IGNORED warpsim_warnings)

# The level of `name` (a target name or warpsim::alias) in `out`, or "" when it has none.
function(warpsim_level_of out name)
  set(level "")
  if(TARGET "${name}")
    get_target_property(aliased "${name}" ALIASED_TARGET)
    if(aliased)
      set(name "${aliased}")
    endif()
  endif()
  foreach(row IN LISTS WARPSIM_LEVELS)
    if(row MATCHES "^${name}=([0-9]+)$")
      set(level "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${level}" PARENT_SCOPE)
endfunction()

# The targets defined in `dir` and all its subdirectories, in `out`.
function(_warpsim_targets_under out dir)
  get_property(found DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _warpsim_targets_under(_warpsim_found_below "${sub}")
    list(APPEND found ${_warpsim_found_below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# Fails the configuration, naming every wrong-way link and every warpsim library without a level.
function(warpsim_check_layering)
  _warpsim_targets_under(targets "${CMAKE_CURRENT_SOURCE_DIR}")
  set(problems "")
  set(checked 0)
  foreach(target IN LISTS targets)
    if(target IN_LIST WARPSIM_LAYERING_IGNORED)
      continue()
    endif()
    get_target_property(type ${target} TYPE)
    warpsim_level_of(level ${target})
    if(level STREQUAL "")
      if(target MATCHES "^warpsim_" AND type MATCHES "LIBRARY$")
        string(APPEND problems "\n  ${target} has no level: give it one in WARPSIM_LEVELS (cmake/Layering.cmake)")
      endif()
      continue()  # tests and other executables may link anything
    endif()
    math(EXPR checked "${checked} + 1")
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
    else()
      get_target_property(links ${target} LINK_LIBRARIES)
    endif()
    foreach(link IN LISTS links)
      # $<BUILD_INTERFACE:x>, $<LINK_ONLY:x>: the target inside.
      string(REGEX REPLACE "^\\$<[A-Z_]+:(.*)>$" "\\1" link "${link}")
      warpsim_level_of(link_level "${link}")
      if(NOT link_level STREQUAL "" AND link_level GREATER_EQUAL level)
        string(APPEND problems "\n  ${target} (level ${level}) links ${link} (level ${link_level})")
      endif()
    endforeach()
  endforeach()
  if(problems)
    message(FATAL_ERROR "warpsim layering: a target may link only libraries of a lower level "
                        "(cmake/Layering.cmake, docs/architecture.md):${problems}")
  endif()
  message(STATUS "warpsim layering: ${checked} targets link only lower levels")
endfunction()
