# rmtsweep_add_test(<name> SOURCES <files...> [MPIRANKS <n>...] [TIER <tier>] [PROCESSORS <n>]
#                   [LIBRARIES <libs...>] [LABELS <labels...>] [TIMEOUT <s>] [RESOURCE_LOCK <names...>]
#                   [SIGNALS_MPIRUN] [RUN_SERIAL])
#
# Registers one GoogleTest executable with ctest, in one tier (its first label; docs/testing.md):
#   unit        a plain process testing the library or the program's parsing (the default without MPIRANKS)
#   mpi         the library under mpiexec (the default with MPIRANKS)
#   cli         the rmtsweep program itself, launched as a user would (TIER cli)
#   validation  statistics over many draws: slow, and checking the model rather than the code (TIER validation)
# - Without MPIRANKS the test links gtest_main and runs as a plain process. PROCESSORS says how many
#   cores it keeps busy on average (its CPU time over its wall time, rounded up; default 1): a test that
#   launches `mpiexec -n 2 rmtsweep ...` mostly waits on mpirun and keeps 0.3-1.0 of a core busy, so 1,
#   unless it times something (test_run_example_eta: 2). An MPI test below keeps its ranks busy.
# - With MPIRANKS n1 [n2 ...] it links the shared MPI test main (tests/mpi_main.cpp) and is registered once
#   per rank count, as `mpiexec -n <n> --oversubscribe <test>`: one executable, tests <name> (one count) or
#   <name>_ranks<n> (several), labels "ranks<n>", PROCESSORS n.
#   As root, Open MPI's run-as-root variables are set for the test.
# - SIGNALS_MPIRUN: the test signals mpirun (SIGTERM to it or its process group) and expects the ranks to
#   stop cleanly, so mpirun keeps Open MPI's default second between its SIGTERM and SIGKILL of the ranks.
#   Every other test sets that grace to 0: mpirun then ends at once when a rank exits non-zero, where it
#   would otherwise wait about 2 s on every refused launch (odls_base_sigkill_timeout; docs/testing.md).
# - RUN_SERIAL: the test times the program against the wall clock (test_run_example_eta), so ctest runs it
#   alone: beside other tests its rate changes under it.
# - Every test's COST (the order ctest starts them in on a build without timings) is in
#   cmake/rmtsweep_test_costs.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/rmtsweep_test_costs.cmake)
set(RMTSWEEP_MPIEXEC_EXTRA_FLAGS "--oversubscribe" CACHE STRING "Extra flags for mpiexec in MPI tests")

# The environment of every test: Open MPI as root and oversubscribed, one BLAS thread per process.
set(RMTSWEEP_TEST_ENVIRONMENT
    "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OPENBLAS_NUM_THREADS=1")
# What a test that does not signal mpirun adds to it (SIGNALS_MPIRUN above).
set(RMTSWEEP_TEST_NO_SIGNAL_ENVIRONMENT "OMPI_MCA_odls_base_sigkill_timeout=0")

# The environment of test `name`: every test's, and the grace of 0 unless `signals` (SIGNALS_MPIRUN).
function(rmtsweep_test_environment out signals)
  set(environment "${RMTSWEEP_TEST_ENVIRONMENT}")
  if(NOT signals)
    list(APPEND environment "${RMTSWEEP_TEST_NO_SIGNAL_ENVIRONMENT}")
  endif()
  set(${out} "${environment}" PARENT_SCOPE)
endfunction()

function(rmtsweep_add_test name)
  cmake_parse_arguments(arg "SIGNALS_MPIRUN;RUN_SERIAL" "TIER;PROCESSORS;TIMEOUT"
                        "SOURCES;LIBRARIES;LABELS;MPIRANKS;RESOURCE_LOCK" ${ARGN})
  rmtsweep_test_environment(environment "${arg_SIGNALS_MPIRUN}")
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE rmtsweep_lib nlohmann_json::nlohmann_json ${arg_LIBRARIES})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_compile_definitions(${name} PRIVATE
    RMTSWEEP_BINARY="$<TARGET_FILE:rmtsweep>"
    RMTSWEEP_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    RMTSWEEP_PYTHON="${Python3_EXECUTABLE}"
    RMTSWEEP_MPIEXEC="${MPIEXEC_EXECUTABLE}")
  rmtsweep_enable_warnings(${name})
  add_dependencies(${name} rmtsweep)
  set(timeout 300)
  if(arg_TIMEOUT)
    set(timeout ${arg_TIMEOUT})
  endif()
  if(arg_MPIRANKS)
    target_link_libraries(${name} PRIVATE rmtsweep_gtest_mpi_main)
    set(tier mpi)
    if(arg_TIER)
      set(tier ${arg_TIER})
    endif()
    list(LENGTH arg_MPIRANKS counts)
    foreach(ranks IN LISTS arg_MPIRANKS)
      set(test ${name})
      if(counts GREATER 1)
        set(test ${name}_ranks${ranks})
      endif()
      add_test(NAME ${test}
        COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${RMTSWEEP_MPIEXEC_EXTRA_FLAGS}
                $<TARGET_FILE:${name}>)
      set_tests_properties(${test} PROPERTIES LABELS "${tier};ranks${ranks};${arg_LABELS}" PROCESSORS ${ranks}
        ENVIRONMENT "${environment}" TIMEOUT ${timeout})
      rmtsweep_test_cost(${test})
      if(arg_RESOURCE_LOCK)
        set_tests_properties(${test} PROPERTIES RESOURCE_LOCK "${arg_RESOURCE_LOCK}")
      endif()
    endforeach()
  else()
    target_link_libraries(${name} PRIVATE GTest::gtest_main)
    set(tier unit)
    if(arg_TIER)
      set(tier ${arg_TIER})
    endif()
    add_test(NAME ${name} COMMAND $<TARGET_FILE:${name}>)
    set_tests_properties(${name} PROPERTIES LABELS "${tier};${arg_LABELS}" ENVIRONMENT "${environment}"
      TIMEOUT ${timeout})
    rmtsweep_test_cost(${name})
    if(arg_PROCESSORS)
      set_tests_properties(${name} PROPERTIES PROCESSORS ${arg_PROCESSORS})
    endif()
    if(arg_RESOURCE_LOCK)
      set_tests_properties(${name} PROPERTIES RESOURCE_LOCK "${arg_RESOURCE_LOCK}")
    endif()
    if(arg_RUN_SERIAL)
      set_tests_properties(${name} PROPERTIES RUN_SERIAL TRUE)
    endif()
  endif()
endfunction()

# rmtsweep_add_script_test(<name> TIER <tier> COMMAND <command...> [PROCESSORS <n>] [LABELS <labels...>]
#                          [TIMEOUT <s>] [ENVIRONMENT <vars...>] [SKIP_RETURN_CODE <code>] [RESOURCE_LOCK <names...>]
#                          [SIGNALS_MPIRUN])
#
# A test that is a script (Python, bash) or the program itself, in its tier as above, with the environment of
# every test (and ENVIRONMENT besides).
function(rmtsweep_add_script_test name)
  cmake_parse_arguments(arg "SIGNALS_MPIRUN" "TIER;PROCESSORS;TIMEOUT;SKIP_RETURN_CODE"
                        "COMMAND;LABELS;ENVIRONMENT;RESOURCE_LOCK" ${ARGN})
  rmtsweep_test_environment(environment "${arg_SIGNALS_MPIRUN}")
  if(NOT arg_TIER)
    message(FATAL_ERROR "rmtsweep_add_script_test(${name}): TIER unit, mpi, cli, validation or style")
  endif()
  set(timeout 300)
  if(arg_TIMEOUT)
    set(timeout ${arg_TIMEOUT})
  endif()
  add_test(NAME ${name} COMMAND ${arg_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "${arg_TIER};${arg_LABELS}"
    ENVIRONMENT "${environment};${arg_ENVIRONMENT}" TIMEOUT ${timeout})
  rmtsweep_test_cost(${name})
  if(arg_PROCESSORS)
    set_tests_properties(${name} PROPERTIES PROCESSORS ${arg_PROCESSORS})
  endif()
  if(arg_SKIP_RETURN_CODE)
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE ${arg_SKIP_RETURN_CODE})
  endif()
  if(arg_RESOURCE_LOCK)
    set_tests_properties(${name} PROPERTIES RESOURCE_LOCK "${arg_RESOURCE_LOCK}")
  endif()
endfunction()
