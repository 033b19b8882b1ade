# Each cache key that copies a struct's fields (ModelSpec::fingerprint, lowering_key) must stop the
# build when the struct gains a field the key does not list, even one that fits in the struct's
# padding (design review 2026-11, 4.4). For each guarded struct this compiles the file holding the
# key against a copy of the struct's header with one small field added, and expects the
# structured binding that builds the key to refuse it.
#
# cmake -DSOURCE_DIR=<repository> -DWORK_DIR=<scratch folder> -DCOMPILE_COMMANDS=<compile_commands.json>
#       -P field_guard_test.cmake
cmake_minimum_required(VERSION 3.20)

file(READ "${COMPILE_COMMANDS}" commands)
string(JSON entries LENGTH "${commands}")

# compile_with_field(HEADER ANCHOR FIELD SOURCE): HEADER (under include/) with FIELD inserted after
# the line holding ANCHOR, then SOURCE (under the repository) compiled as the build compiles it.
function(compile_with_field header anchor field source)
  set(command "")
  math(EXPR last "${entries} - 1")
  foreach(i RANGE ${last})
    string(JSON file GET "${commands}" ${i} file)
    if(file STREQUAL "${SOURCE_DIR}/${source}")
      string(JSON command GET "${commands}" ${i} command)
      break()
    endif()
  endforeach()
  if(command STREQUAL "")
    message(FATAL_ERROR "${source} is not in ${COMPILE_COMMANDS}")
  endif()

  file(READ "${SOURCE_DIR}/include/${header}" text)
  string(FIND "${text}" "${anchor}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${header} no longer holds `${anchor}`: update this test")
  endif()
  string(SUBSTRING "${text}" ${at} -1 rest)
  string(FIND "${rest}" "\n" end)  # the end of the anchor's line
  math(EXPR end "${at} + ${end} + 1")
  string(SUBSTRING "${text}" 0 ${end} head)
  string(SUBSTRING "${text}" ${end} -1 tail)
  set(shadow "${WORK_DIR}/${source}.include")
  file(REMOVE_RECURSE "${shadow}")
  file(WRITE "${shadow}/${header}" "${head}  ${field}  // added by tests/guards/field_guard_test.cmake\n${tail}")

  # The build's command, syntax only, with the patched header's folder searched first.
  separate_arguments(args UNIX_COMMAND "${command}")
  list(POP_FRONT args compiler)
  list(FIND args "-o" o)
  list(REMOVE_AT args ${o})
  list(REMOVE_AT args ${o})
  execute_process(COMMAND ${compiler} -I${shadow} ${args} -fsyntax-only
                  WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(status EQUAL 0)
    message(SEND_ERROR "${source} still compiles with `${field}` added to ${header}: its key would miss the field")
  elseif(NOT out MATCHES "decomposes into")
    message(SEND_ERROR "${source} with `${field}` added to ${header} fails, but not at a structured binding:\n${out}")
  else()
    message(STATUS "${header} + `${field}`: ${source} refuses it")
  endif()
endfunction()

file(MAKE_DIRECTORY "${WORK_DIR}")
compile_with_field(warpsim/ptx/emulator.hpp "UnknownBranchPolicy unknown_branch =" "bool b = false;"
                   sim/workload/lowering_cache.cpp)
compile_with_field(warpsim/core/memory_timing.hpp "std::int32_t unknown_sectors =" "std::int32_t n = 0;"
                   sim/workload/model_spec.cpp)
compile_with_field(warpsim/core/memory_timing.hpp "std::int64_t package = 0;" "bool b = false;"
                   sim/workload/model_spec.cpp)
compile_with_field(warpsim/core/pipe_timing.hpp "isa::Millicycles issue =" "bool b = false;"
                   sim/workload/model_spec.cpp)
