# Tests of the command line itself (tools/gpumemsim/main.c), labelled `cli`: usage and exit
# statuses, the preset listing and its JSON round trip through --config, and the diagnostics of
# `run` for launch files that do not fit their kernel. Each test runs in tests/cli/, whose small
# launch files use the saxpy kernel of examples/saxpy/, through the driver tests/cli_check.cmake.

# gms_cli_test(NAME EXIT STDOUT_REGEX STDERR_REGEX ARGUMENT...): `gpumemsim ARGUMENT...` must
# exit with EXIT and its stdout and stderr must match the regular expressions ("" = anything).
function(gms_cli_test name exit stdout_regex stderr_regex)
  add_test(NAME cli.${name}
           COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=${exit} "-DGMS_STDOUT=${stdout_regex}"
                   "-DGMS_STDERR=${stderr_regex}" ${GMS_CLI_EXTRA_DEFINES}
                   -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:gpumemsim> ${ARGN}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli.${name} PROPERTIES LABELS cli TIMEOUT 60)
endfunction()

gms_cli_test(no_arguments 2 "^$" "^usage: gpumemsim <command> \\[options\\]\n.*\ncommands:\n")
gms_cli_test(unknown_command 2 "^$"
             "^gpumemsim: unknown command 'frobnicate'\n\nusage: gpumemsim <command>" frobnicate)
gms_cli_test(help 0 "^usage: gpumemsim <command>.*exit status: 0 success" "^$" --help)
gms_cli_test(run_without_launch_file 2 "^$" "expected exactly one launch file" run)
gms_cli_test(check_without_file 2 "^$" "expected one or more kernel files" check)

# The five presets, one per line, in this order, h100 the default.
gms_cli_test(presets 0
             "^h100 +[^\n]+\\(default\\)\na100 +[^\n]+\nv100 +[^\n]+\nt4 +[^\n]+\ngtx980 +[^\n]+\n$"
             "^$" presets)
gms_cli_test(presets_show_unknown 2 "^$" "unknown preset 'h101'" presets show h101)

# `presets show h100` prints JSON that `run --config` loads back: the run then reports h100,
# although the launch file asks for a100.
set(GMS_CLI_EXTRA_DEFINES -DGMS_SAVE_STDOUT=${CMAKE_BINARY_DIR}/cli/h100.json)
gms_cli_test(presets_show_h100 0 "^{\n  \"base\": \"h100\",\n  \"constant\": {.*\n  \"name\": \"h100\",\n.*}\n$" "^$"
             presets show h100)
set(GMS_CLI_EXTRA_DEFINES "")
set_tests_properties(cli.presets_show_h100 PROPERTIES FIXTURES_SETUP cli_h100_json)
gms_cli_test(config_round_trip 0
             "^gpumemsim report [^\n]*h100, good.json\n.*\n  expectation y: 4096 elements match\n$"
             "^$"
             run --config ${CMAKE_BINARY_DIR}/cli/h100.json good.json)
set_tests_properties(cli.config_round_trip PROPERTIES FIXTURES_REQUIRED cli_h100_json)

# Launch files that do not fit the kernel: exit 2, the rule at the offending line and column.
gms_cli_test(run_bad_kernel 2 "^$"
             "^bad_kernel.json:5:5: error: [^\n]*'_Z5saxpyNoSuchKernel'[^\n]*\\[SIM-KERNEL-001\\]\n$"
             run bad_kernel.json)
gms_cli_test(run_bad_argument_count 2 "^$"
             "^bad_argument_count.json:5:5: error: [^\n]*3 arguments[^\n]*4 parameters[^\n]*\\[SIM-ARGS-001\\]\n$"
             run bad_argument_count.json)
gms_cli_test(run_bad_scalar_type 2 "^$"
             "^bad_scalar_type.json:6:15: error: [^\n]*is f32[^\n]*is u32[^\n]*\\[SIM-ARGS-003\\]\n$"
             run bad_scalar_type.json)
gms_cli_test(run_missing_module 2 "^$"
             "no_such_module.ptx: error: cannot open: No such file or directory \\[SIM-IO-001\\]\n$"
             run missing_module.json)
gms_cli_test(run_missing_launch_file 2 "^$" "^no_such_launch.json: error: [^\n]*\\[LAUNCH-IO-001\\]\n$"
             run no_such_launch.json)
gms_cli_test(check_missing_file 2 "^$" "^no_such_kernel.ptx: error: [^\n]*\\[SIM-IO-001\\]\n$"
             check no_such_kernel.ptx)

# A run whose result differs from the expectation: exit 1, the mismatch count and the first
# differing elements (saxpy computes 2 x 1 + 1 = 3 where 4 is expected).
gms_cli_test(run_expectation_mismatch 1 "^gpumemsim report [^\n]*expectation_mismatch.json\n"
             "^expectation failed: y: 256 of 256 elements differ\n  \\[0\\] got 3, expected 4\n"
             run expectation_mismatch.json)
