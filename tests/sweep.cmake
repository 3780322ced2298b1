# Tests of `gpumemsim sweep` (tools/gpumemsim/sweep*.c; docs/sweeps.md), labelled `sweep`.
#
# End to end (tests/sweep/sweep_test.sh, run in tests/sweep/): the grid of grid.json run by the
# local process pool, by GNU parallel from the emitted job list and by a real one-node Slurm
# cluster from the emitted job-array script (tests/sweep/slurm_cluster.sh starts munged,
# slurmctld and slurmd on localhost) must each give the table of expected/grid.csv and
# expected/grid.jsonl byte for byte; plot.json's plots (gnuplot SVG and PNG) and their data; a
# failed run, an unfinished run, a retried run and the refusal of a used folder. A case whose
# tool is missing (GNU parallel, gnuplot, Slurm, or root for slurmd) is skipped with the reason;
# `make deps` installs them (Makefile, OPTIONAL_PACKAGES).
set(GMS_SWEEP_WORK ${CMAKE_BINARY_DIR}/sweep-tests)
foreach(case local parallel slurm plot plot_without_gnuplot incomplete default_dir)
  add_test(NAME sweep.${case}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sweep/sweep_test.sh ${case}
                   $<TARGET_FILE:gpumemsim> ${GMS_SWEEP_WORK}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/sweep)
  set_tests_properties(sweep.${case} PROPERTIES LABELS sweep SKIP_RETURN_CODE 77 TIMEOUT 400)
endforeach()

# The diagnostics of a bad sweep file: exit status 2, the exact message with the file, line and
# column of the key concerned and the rule id, and no sweep folder created (the runs would go to
# tests/sweep/bad/never).
set(GMS_CLI_DIR ${CMAKE_SOURCE_DIR}/tests/sweep/bad)
function(gms_sweep_bad name stderr_regex)
  gms_cli_test(sweep_bad_${name} 2 "^$" "^${stderr_regex}\n$" sweep ${name}.json --dir never)
endfunction()
gms_sweep_bad(syntax "syntax\\.json:3:1: error: unexpected token near '}' \\[CLI-SWEEP-002\\]")
gms_sweep_bad(unknown_key
  "unknown_key\\.json:3:3: error: unknown key \"gpu\" \\(a sweep file has launch_files, gpus, parameters, flags, options, columns, plots, description\\) \\[CLI-SWEEP-003\\]")
gms_sweep_bad(no_launch_files
  "no_launch_files\\.json: error: the sweep file has no \"launch_files\" \\[CLI-SWEEP-003\\]")
gms_sweep_bad(launch_files_not_list
  "launch_files_not_list\\.json:2:3: error: \"launch_files\" must be a non-empty array of file names \\[CLI-SWEEP-004\\]")
gms_sweep_bad(launch_missing
  "launch_missing\\.json:2:3: error: launch_files\\[1\\]: cannot read \"\\.\\./nothing\\.json\": No such file or directory \\[CLI-SWEEP-005\\]")
gms_sweep_bad(gpu_unknown
  "gpu_unknown\\.json:3:3: error: gpus\\[1\\]: unknown GPU preset 'k80'; `gpumemsim presets` lists them \\[CLI-SWEEP-006\\]")
gms_sweep_bad(parameters_without_gpus
  "parameters_without_gpus\\.json:3:3: error: \"parameters\" need \"gpus\": each configuration starts from a named preset \\[CLI-SWEEP-007\\]")
gms_sweep_bad(parameter_inside
  "parameter_inside\\.json:4:3: error: parameters: 'l2\\.size_bytes' lies inside 'l2'; sweep one or the other \\[CLI-SWEEP-007\\]")
gms_sweep_bad(parameter_repeated
  "parameter_repeated\\.json:4:3: error: parameters: l2\\.size_bytes\\[1\\] repeats an earlier value \\[CLI-SWEEP-007\\]")
gms_sweep_bad(flag_not_sweepable
  "flag_not_sweepable\\.json:3:3: error: '--json' is not a run flag a sweep can set \\(--strip-hints, --no-timing, --poison-discard, --misaligned-errors, --strict-hazards, --scheduler, --quantum, --max-instructions\\) \\[CLI-SWEEP-008\\]")
gms_sweep_bad(flag_needs_value
  "flag_needs_value\\.json:3:3: error: '--scheduler' needs a value as the next element \\[CLI-SWEEP-008\\]")
gms_sweep_bad(plot_output
  "plot_output\\.json:5:3: error: plots\\[0\\]: output 'plot\\.pdf' must be a file name ending in \\.svg or \\.png \\(it is written in the sweep folder\\) \\[CLI-SWEEP-009\\]")
gms_sweep_bad(plot_x_not_swept
  "plot_x_not_swept\\.json:3:3: error: plots\\[0\\]: x 'warp_instructions' is not a swept column \\(they are \\[\"launch_file\",\"gpu\"\\]\\) \\[CLI-SWEEP-009\\]")
gms_sweep_bad(plot_no_output
  "plot_no_output\\.json:3:3: error: plots\\[0\\]: [^\n]*output[^\n]* \\[CLI-SWEEP-009\\]")
# The configuration of every run is built before anything runs: the simulator's own diagnostic
# (CONFIG-104), then which run and configuration it was.
gms_sweep_bad(config_refused
  "config_refused\\.json \\(configuration of run 0001\\):1:47: error: l2\\.size_bytes: 1000 is not a multiple of l2\\.line_bytes x l2\\.ways \\(2048\\) \\[CONFIG-104\\]\nconfig_refused\\.json:4:3: error: run 0001: the simulator refuses the configuration {\"base\":\"h100\",\"l2\":{\"persisting_max_bytes\":0,\"size_bytes\":1000}} \\[CLI-SWEEP-011\\]")

# The command line of `sweep` itself.
gms_cli_test(sweep_help 0 "^usage: gpumemsim sweep SWEEP\\.json \\[options\\]\n.*--emit parallel\\|slurm .*exit status: 0 "
             "^$" sweep --help)
gms_cli_test(sweep_no_file 2 "^$" "^gpumemsim sweep: expected exactly one sweep file\n$" sweep)
gms_cli_test(sweep_emit_unknown 2 "^$" "^gpumemsim: --emit takes parallel or slurm, not 'make'\n$"
             sweep --emit make ../grid.json)
gms_cli_test(sweep_jobs_zero 2 "^$" "^gpumemsim: --jobs needs a whole number from 1 to 4096, not '0'\n$"
             sweep -j 0 ../grid.json)
gms_cli_test(sweep_merge_not_a_sweep 2 "^$"
             "^\\./manifest\\.json: error: not a sweep folder's manifest: unable to open \\./manifest\\.json: No such file or directory \\[CLI-SWEEP-012\\]\n$"
             sweep --merge .)
gms_cli_test(sweep_merge_with_file 2 "^$"
             "^gpumemsim sweep: --merge DIR takes no sweep file, --dir or --emit\n$"
             sweep --merge . ../grid.json)
gms_cli_test(sweep_jobs_with_emit 2 "^$"
             "^gpumemsim sweep: -j sets the local pool's size; --emit, --merge and --job run no pool\n$"
             sweep -j 2 --emit parallel ../grid.json)
gms_cli_test(sweep_listed_in_usage 0 "\n  sweep SWEEP\\.json +run a grid of launch files" "^$" --help)
unset(GMS_CLI_DIR)
