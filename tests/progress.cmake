# The progress line of `gpumemsim run`, labelled `cli`: shown on stderr when it is a terminal or
# with --progress, never otherwise, and erased before anything else is printed. The runaway kernel
# of tests/kernels/runaway/ (one CTA that never finishes) runs for 300000 warp instructions: the
# executor reports progress every 2^18 = 262144 (exec.h), and the first report is drawn at once,
# so each run draws exactly one line.

string(ASCII 27 gms_esc)
set(gms_progress_line
    "\rlaunch 1 of 1: 0 of 1 CTAs done, [0-9]+\\.[0-9] M warp instructions \\(limit 0\\.3 M\\), [0-9]+\\.[0-9] M/s${gms_esc}\\[K")
set(gms_runaway_fault
    "gpumemsim: kernel _Z12spin_foreverPVKiPi faulted \\(launch 1 of 1\\)\n  instruction limit of 300000 warp instructions reached \\(runaway kernel\\?\\)[^\n]* raise it with \"max_instructions\" in the launch file or --max-instructions N \\[EXEC-LIMIT-001\\]\n")

# --progress draws it although stderr is not a terminal; the end erases it.
add_test(NAME cli.progress.forced
         COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=1 "-DGMS_STDOUT=^$"
                 "-DGMS_STDERR=^(${gms_progress_line})+\r${gms_esc}\\[K${gms_runaway_fault}"
                 -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:gpumemsim>
                 run --progress --max-instructions 300000 runaway.json
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/kernels/runaway)
# Without a terminal there is none: stderr is the fault report alone.
add_test(NAME cli.progress.not_a_terminal
         COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=1 "-DGMS_STDOUT=^$"
                 "-DGMS_STDERR=^${gms_runaway_fault}"
                 -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:gpumemsim>
                 run --max-instructions 300000 runaway.json
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/kernels/runaway)
# On a pseudo-terminal it is shown, and --quiet hides it (skipped without script(1)).
add_test(NAME cli.progress.terminal
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/progress/progress_tty.sh $<TARGET_FILE:gpumemsim>
                 runaway.json --max-instructions 300000
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/kernels/runaway)
set_tests_properties(cli.progress.forced cli.progress.not_a_terminal cli.progress.terminal
                     PROPERTIES LABELS cli TIMEOUT 120)
set_tests_properties(cli.progress.terminal PROPERTIES SKIP_RETURN_CODE 77)
