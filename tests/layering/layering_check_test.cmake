# cmake -DSOURCE_DIR=<warpsim> -DWORK_DIR=<scratch> [-DGENERATOR=..] [-DCXX_COMPILER=..] -P layering_check_test.cmake
# Configures tests/layering/fixture once per case: the downward links pass with all four fixture
# libraries checked (nested folders included), and every wrong-way link (up, up through an alias
# in a generator expression, up from a nested folder, within one level) and every library without
# a level stops the configuration with the check's message.
cmake_minimum_required(VERSION 3.22)
set(cases
  "down|ok|warpsim layering: 4 targets link only lower levels"
  "upward|fail|warpsim_isa \\(level 0\\) links warpsim_report \\(level 1\\)"
  "upward_private_alias|fail|warpsim_isa \\(level 0\\) links warpsim::report \\(level 1\\)"
  "upward_in_subdirectory|fail|warpsim_grid \\(level 2\\) links warpsim_workload \\(level 3\\)"
  "same_level|fail|warpsim_isa \\(level 0\\) links warpsim_expression \\(level 0\\)"
  "unlisted|fail|warpsim_unlisted has no level")
set(generator "")
if(GENERATOR)
  set(generator -G "${GENERATOR}")
endif()
if(CXX_COMPILER)
  list(APPEND generator -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
set(failures "")
foreach(row IN LISTS cases)
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 case)
  list(GET fields 1 expect)
  list(LENGTH fields n)
  set(pattern "")
  if(n GREATER 2)
    list(GET fields 2 pattern)
  endif()
  set(build "${WORK_DIR}/${case}")
  file(REMOVE_RECURSE "${build}")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/layering/fixture" -B "${build}" ${generator}
                          -DWARPSIM_LAYERING_FILE=${SOURCE_DIR}/cmake/Layering.cmake -DCASE=${case}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect STREQUAL "ok" AND NOT status EQUAL 0)
    string(APPEND failures "\n${case}: the configuration failed:\n${err}")
  elseif(expect STREQUAL "ok" AND NOT out MATCHES "${pattern}")
    string(APPEND failures "\n${case}: passed without '${pattern}':\n${out}")
  elseif(expect STREQUAL "fail" AND status EQUAL 0)
    string(APPEND failures "\n${case}: the configuration passed; the check did not fire")
  elseif(expect STREQUAL "fail" AND NOT err MATCHES "warpsim layering: .*${pattern}")
    string(APPEND failures "\n${case}: failed without the expected message '${pattern}':\n${err}")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "layering check:${failures}")
endif()
message(STATUS "layering check: every case as expected")
