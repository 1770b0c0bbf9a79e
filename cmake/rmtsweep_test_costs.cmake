# The seconds the longest tests take on the project's 2-core machine, idle, at `ctest -j 4` (docs/testing.md,
# Measured times), as ctest's COST: on a build that has run no test yet (a fresh clone, CI) ctest has no
# timings of its own (Testing/Temporary/CTestCostData.txt) and starts the tests in the order they were
# added, so that the long MPI tests, which wait for two free cores, started last and ran alone at the end.
# With COST it starts the costliest first. Tests not listed cost 0 (a few seconds or less). Refresh from an
# idle run: sort -k3 -n -r build/Testing/Temporary/CTestCostData.txt.
set(RMTSWEEP_TEST_COSTS
  test_python_package 55
  test_python_figures 54
  test_status_checksums 45
  test_plot_cli 43
  test_sweep_shards 43
  test_gram_quadrature 37
  test_sweep_refine 33
  test_sweep_recover 33
  test_sweep_one_writer 32
  slurm_sbatch_runs_a_sweep_and_requeues_and_resumes_after_sigterm 31
  test_sweep_end_to_end 30
  test_cli_point 29
  test_simulate_finite_t_levels 28
  test_sweep_failure_messages 26
  test_sweep_resume 23
  test_docs_python_blocks 23
  test_run_plan_progress 21
  test_point_theory_agreement 20
  test_cli_style 18
  test_assemble_damaged 17
  test_assemble_running 17
  test_sweep_creation_window 16
  local_and_pbs_scripts_stop_on_a_signal_and_resume 14
  test_netcdf_cf 13
  venv_install_of_the_python_package_works_outside_the_repository 12
  test_sweep_mpirun_killed 12
  test_status_running 10
  test_sweep_damage 10
  test_run_config_file 9
  test_sweep_refusals 9
  test_sweep_rank_bound 8
  test_tutorial_notebook 8)

# Sets test `test`'s COST where RMTSWEEP_TEST_COSTS lists it.
function(rmtsweep_test_cost test)
  list(FIND RMTSWEEP_TEST_COSTS ${test} at)
  if(at GREATER_EQUAL 0)
    math(EXPR at "${at} + 1")
    list(GET RMTSWEEP_TEST_COSTS ${at} cost)
    set_tests_properties(${test} PROPERTIES COST ${cost})
  endif()
endfunction()
