# rmtsweep_add_test(<name> SOURCES <files...> [MPIRANKS <n>] [LIBRARIES <libs...>] [LABELS <labels...>] [TIMEOUT <s>])
#
# Registers one GoogleTest executable with ctest.
# - Without MPIRANKS the test links gtest_main and runs as a plain process (label "unit").
# - With MPIRANKS n it links the shared MPI test main (tests/mpi_main.cpp) and runs as
#   `mpiexec -n n --oversubscribe <test>` with the label "mpi" and "ranks<n>".
#   As root, Open MPI's run-as-root variables are set for the test.
set(RMTSWEEP_MPIEXEC_EXTRA_FLAGS "--oversubscribe" CACHE STRING "Extra flags for mpiexec in MPI tests")

function(rmtsweep_add_test name)
  cmake_parse_arguments(arg "" "MPIRANKS;TIMEOUT" "SOURCES;LIBRARIES;LABELS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE rmtsweep_lib nlohmann_json::nlohmann_json ${arg_LIBRARIES})
  target_compile_definitions(${name} PRIVATE
    RMTSWEEP_BINARY="$<TARGET_FILE:rmtsweep>"
    RMTSWEEP_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    RMTSWEEP_PYTHON="/usr/bin/python3"
    RMTSWEEP_MPIEXEC="${MPIEXEC_EXECUTABLE}")
  rmtsweep_enable_warnings(${name})
  set(env "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OPENBLAS_NUM_THREADS=1")
  if(arg_MPIRANKS)
    target_link_libraries(${name} PRIVATE rmtsweep_gtest_mpi_main)
    add_test(NAME ${name}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${arg_MPIRANKS} ${RMTSWEEP_MPIEXEC_EXTRA_FLAGS}
              $<TARGET_FILE:${name}>)
    set(labels mpi ranks${arg_MPIRANKS} ${arg_LABELS})
    set_tests_properties(${name} PROPERTIES PROCESSORS ${arg_MPIRANKS})
  else()
    target_link_libraries(${name} PRIVATE GTest::gtest_main)
    add_test(NAME ${name} COMMAND $<TARGET_FILE:${name}>)
    set(labels unit ${arg_LABELS})
  endif()
  add_dependencies(${name} rmtsweep)
  set(timeout 300)
  if(arg_TIMEOUT)
    set(timeout ${arg_TIMEOUT})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" ENVIRONMENT "${env}" TIMEOUT ${timeout})
endfunction()
