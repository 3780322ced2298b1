# Tests of the command line itself (tools/gpumemsim/main.c), labelled `cli`: usage and exit
# statuses, the preset listing and its JSON round trip through --config, and the diagnostics of
# `run` for launch files that do not fit their kernel. Each test runs in tests/cli/, whose small
# launch files use the saxpy kernel of examples/saxpy/, through the driver tests/cli_check.cmake.

# gms_cli_test(NAME EXIT STDOUT_REGEX STDERR_REGEX ARGUMENT...): `gpumemsim ARGUMENT...` must
# exit with EXIT and its stdout and stderr must match the regular expressions ("" = anything).
# GMS_CLI_EXTRA_DEFINES passes more -D settings to the driver; GMS_CLI_DIR, when set, is the
# working directory instead of tests/cli.
function(gms_cli_test name exit stdout_regex stderr_regex)
  set(dir ${CMAKE_SOURCE_DIR}/tests/cli)
  if(GMS_CLI_DIR)
    set(dir ${GMS_CLI_DIR})
  endif()
  add_test(NAME cli.${name}
           COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=${exit} "-DGMS_STDOUT=${stdout_regex}"
                   "-DGMS_STDERR=${stderr_regex}" ${GMS_CLI_EXTRA_DEFINES}
                   -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:gpumemsim> ${ARGN}
           WORKING_DIRECTORY ${dir})
  set_tests_properties(cli.${name} PROPERTIES LABELS cli TIMEOUT 60)
endfunction()

gms_cli_test(no_arguments 2 "^$" "^usage: gpumemsim <command> \\[options\\]\n.*\ncommands:\n")
gms_cli_test(unknown_command 2 "^$"
             "^gpumemsim: unknown command 'frobnicate'\n\nusage: gpumemsim <command>" frobnicate)
gms_cli_test(help 0 "^usage: gpumemsim <command>.*exit status: 0 success" "^$" --help)
# Every command answers --help with its own usage on stdout and exit 0.
gms_cli_test(run_help 0 "^usage: gpumemsim run LAUNCH.json \\[options\\]\n.*\n  --gpu NAME .*exit status"
             "^$" run --help)
gms_cli_test(check_help 0 "^usage: gpumemsim check FILE... \\[options\\]\n.*\n  --list-ops .*\n  --list-rules .*\n  --dialect NAME "
             "^$" check --help)
gms_cli_test(presets_help 0 "^usage: gpumemsim presets \\[show NAME\\] \\[options\\]\n" "^$"
             presets --help)
# The usage is generated from the option table: every option of `run` is in it.
gms_cli_test(help_lists_every_option 0
             "\n      --gpu NAME [^\n]*\n      --config FILE.json [^\n]*\n      --max-instructions N [^\n]*\n      --quantum N [^\n]*\n      --threads N [^\n]*\n      --json FILE [^\n]*\n      --top N [^\n]*\n      --strip-hints [^\n]*\n      --poison-discard [^\n]*\n      --misaligned-errors [^\n]*\n      --strict-hazards [^\n]*\n      --no-timing [^\n]*\n      --scheduler gto\\|lrr [^\n]*\n      --quiet [^\n]*\n      --progress [^\n]*\n  check "
             "^$" --help)
# --strict-hazards checks the scoreboards of SASS control codes; PTX has none, so a PTX kernel
# runs as it does without the flag.
gms_cli_test(strict_hazards_without_scoreboards 0
             "warp instructions: 2,560 .*expectation y: 4096 elements match" ""
             run --strict-hazards good.json)
# The timing model's scheduler is gto or lrr; anything else is bad input.
gms_cli_test(scheduler_unknown 2 "^$" "^gpumemsim: --scheduler takes gto or lrr, not 'fifo'\n$"
             run --scheduler fifo good.json)
gms_cli_test(scheduler_lrr 0 "expectation y: 4096 elements match" "" run --scheduler lrr good.json)
# SMs on several host threads: any number from 1 to 1024, in the functional mode and under the
# timing model (docs/timing.md, "Host threads").
gms_cli_test(threads_functional 0 "warp instructions: 2,560 .*expectation y: 4096 elements match" ""
             run --no-timing --threads 4 good.json)
gms_cli_test(threads_timed_two 0 "expectation y: 4096 elements match" "" run --threads 2 good.json)
gms_cli_test(threads_timed_one 0 "expectation y: 4096 elements match" "" run --threads 1 good.json)
gms_cli_test(threads_zero 2 "^$" "threads" run --no-timing --threads 0 good.json)
gms_cli_test(version 0 "^gpumemsim [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit [0-9A-Za-z._-]+\\)\n$" "^$" --version)
# Numbers on the command line are whole decimal numbers in range; nothing else is taken.
gms_cli_test(top_negative 2 "^$" "^gpumemsim: --top needs a whole number from 0 to 1000000, not '-1'\n$"
             run --top -1 good.json)
gms_cli_test(quantum_too_large 2 "^$" "^gpumemsim: --quantum needs a whole number from 1 to 4294967295, not '4294967296'\n$"
             run --quantum 4294967296 good.json)
gms_cli_test(max_instructions_garbage 2 "^$" "^gpumemsim: --max-instructions needs a whole number from 1 to [0-9]+, not '1e9'\n$"
             run --max-instructions 1e9 good.json)
# An unknown preset named by --gpu is the command line's fault, not the launch file's.
gms_cli_test(gpu_unknown_flag 2 "^$"
             "^gpumemsim: error: --gpu nope: unknown GPU preset; `gpumemsim presets` lists them \\[SIM-GPU-001\\]\n$"
             run --gpu nope good.json)
gms_cli_test(run_without_launch_file 2 "^$" "expected exactly one launch file" run)
gms_cli_test(check_without_file 2 "^$" "expected one or more kernel files" check)

# The listings come from the dialect registry: one heading per dialect, then its table.
gms_cli_test(list_ops 0
             "^# dialect ptx: PTX files \\(\\.ptx\\), docs/ptx\\.md\n# mnemonic  ir-op  min-ptx  min-sm  \\[modifier groups\\]  types\nadd +add +1\\.0 sm_20 \\[rounding .*\n# modifiers: spelling group min-ptx min-sm\n"
             "^$" check --list-ops)
gms_cli_test(list_rules 0
             "^# dialect ptx: PTX files \\(\\.ptx\\), docs/ptx\\.md\nPTX-LEX-001 +a character that cannot start any PTX token \\(also preprocessor lines\\)\n.*\nPTX-LIMIT-002 +[^\n]+\n"
             "^$" check --list-rules --dialect ptx)
# The SASS table is listed after PTX's (docs/sass.md, "Instructions" and "Rules").
gms_cli_test(list_ops_sass 0
             "^# dialect sass: SASS files \\(\\.sass\\), docs/sass\\.md\n# mnemonic  ir-op  min-stall  control-fields  \\[modifier groups\\]  cache-operators\nMOV +mov +stall>=1 .*\nCCTL +cctl +stall>=1 +&req &rd \\?sched +\\[E cache cctl-op\\]\n.*SUATOM +suatom +stall>=1 +&req &rd &wr \\?sched +\\[atom-op atom-size surface-mode BA dim clamp channels\\]\nSULD +suld +stall>=1 +&req &rd &wr \\?sched +\\[size cache-op surface-mode BA dim clamp channels\\] \\.CA \\.CG \\.CS \\.LU \\.CI \\.CV\nSUST +sust +stall>=1 +&req &rd \\?sched +\\[[^]]*\\] \\.CG \\.CS \\.WB \\.WT\nSURED +sured +stall>=1 +&req &rd \\?sched +\\[[^]]*\\]\n.*# modifiers: spelling group\n"
             "^$" check --list-ops --dialect sass)
gms_cli_test(list_rules_sass 0
             "^# dialect sass: SASS files \\(\\.sass\\), docs/sass\\.md\nSASS-LEX-001 +a character that cannot start any token of the dialect\n.*\nSASS-CCTL-006 +the operations QRY1, PF1\\.5 and RSLB \\(illegal encodings\\)\n.*SASS-LIMIT-001 +out of memory\n$"
             "^$" check --list-rules --dialect sass)
# Every SASS module the project ships as good (tests/sass_good/, the effect kernels of tests/sass/
# and the twins' halves) checks clean through the CLI: exit 0, nothing printed.
file(GLOB GMS_CLI_SASS_GOOD CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/sass_good/*.sass
     ${CMAKE_SOURCE_DIR}/tests/sass/*.sass ${CMAKE_SOURCE_DIR}/tests/twins/*/*.sass)
foreach(sass ${GMS_CLI_SASS_GOOD})
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR}/tests ${sass})
  string(REGEX REPLACE "[/.]" "_" case_name ${rel})
  gms_cli_test(check_${case_name} 0 "^$" "^$" check ../${rel})
endforeach()
gms_cli_test(dialect_unknown_flag 2 "^$"
             "^gpumemsim: --dialect spirv: unknown kernel dialect; the dialects are: ptx, sass, visa\n$"
             check --dialect spirv good.json)

# The five presets, one per line, in this order, h100 the default.
gms_cli_test(presets 0
             "^h100 +[^\n]+\\(default\\)\na100 +[^\n]+\nv100 +[^\n]+\nt4 +[^\n]+\ngtx980 +[^\n]+\npvc +[^\n]+\npvc-2t +[^\n]+\nacm-g10 +[^\n]+\n$"
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
# --gpu beside a configuration would be ignored (the configuration's "base" names the GPU): an
# error at the flag, and nothing runs.
gms_cli_test(gpu_and_config 2 "^$"
             "^gpumemsim: error: --gpu a100: the GPU configuration [^\n]*h100.json chooses the GPU [^\n]*\\[SIM-GPU-002\\]\n$"
             run --gpu a100 --config ${CMAKE_BINARY_DIR}/cli/h100.json good.json)
set_tests_properties(cli.gpu_and_config PROPERTIES FIXTURES_REQUIRED cli_h100_json)

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
             "^missing_module.json:2:13: error: module: cannot open \"no_such_module.ptx\": No such file or directory \\[SIM-IO-001\\]\n$"
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

# ---- the file system: inputs are bounded regular files, outputs never replace inputs ----
# These run in a folder of the build tree that the fixture cli.files fills from tests/cli/files/
# (copies, so that a regression can only ever overwrite the copies) with special files.
add_test(NAME cli.files
         COMMAND ${CMAKE_COMMAND} -DGMS_SOURCE=${CMAKE_SOURCE_DIR}/tests/cli/files
                 -DGMS_OUT=${CMAKE_BINARY_DIR}/cli/files
                 -DGMS_MODULE=${CMAKE_SOURCE_DIR}/examples/saxpy/saxpy.ptx
                 -P ${CMAKE_SOURCE_DIR}/tests/cli_files_check.cmake)
set_tests_properties(cli.files PROPERTIES LABELS cli FIXTURES_SETUP cli_files)
set(GMS_CLI_DIR ${CMAKE_BINARY_DIR}/cli/files)
set(gms_files_tests "")

# A kernel file that is a link to /dev/zero, a FIFO, or larger than 256 MiB is refused at once,
# blamed on the launch file's "module" field; `check` refuses them the same way.
gms_cli_test(module_dev_zero 2 "^$"
             "^module_zero.json:2:13: error: module: cannot read \"zero.ptx\": not a regular file \\(a character device\\) \\[SIM-IO-002\\]\n$"
             run module_zero.json)
gms_cli_test(module_fifo 2 "^$"
             "^module_fifo.json:2:13: error: module: cannot read \"fifo.ptx\": not a regular file \\(a FIFO\\) \\[SIM-IO-002\\]\n$"
             run module_fifo.json)
gms_cli_test(module_too_large 2 "^$"
             "^module_big.json:2:13: error: module: cannot read \"big.ptx\": larger than the limit of 268435456 bytes \\[SIM-IO-003\\]\n$"
             run module_big.json)
gms_cli_test(module_dialect 2 "^$"
             "^module_dialect.json:2:13: error: module: \"saxpy.cu\": unknown kernel dialect: gpumemsim reads PTX files \\(.ptx\\), SASS files \\(.sass\\), vISA files \\(.visaasm\\) \\[SIM-DIALECT-001\\]\n$"
             run module_dialect.json)
# A kernel file whose suffix no dialect claims is read in the dialect named by the launch file's
# "dialect" or by `check --dialect`; a name no dialect has is an error at that name.
gms_cli_test(module_named_dialect 0 "\n  expectation y: 256 elements match\n$" "^$"
             run module_named_dialect.json)
gms_cli_test(module_unknown_dialect 2 "^$"
             "^module_unknown_dialect.json:3:14: error: dialect: unknown kernel dialect \"spirv\"; the dialects are: ptx, sass, visa \\[SIM-DIALECT-002\\]\n$"
             run module_unknown_dialect.json)
gms_cli_test(check_named_dialect 0 "^$" "^$" check --dialect ptx saxpy.kernel)
gms_cli_test(check_unknown_suffix 2 "^$"
             "^saxpy.kernel: error: unknown kernel dialect: gpumemsim reads PTX files \\(.ptx\\), SASS files \\(.sass\\), vISA files \\(.visaasm\\) \\[SIM-DIALECT-001\\]\n$"
             check saxpy.kernel)
gms_cli_test(check_dev_zero 2 "^$"
             "^zero.ptx: error: cannot read: not a regular file \\(a character device\\) \\[SIM-IO-002\\]\n$"
             check zero.ptx)
gms_cli_test(check_fifo 2 "^$"
             "^fifo.ptx: error: cannot read: not a regular file \\(a FIFO\\) \\[SIM-IO-002\\]\n$"
             check fifo.ptx)
gms_cli_test(launch_fifo 2 "^$"
             "^fifo_launch.json: error: the launch file is not a regular file \\(a FIFO\\) \\[LAUNCH-IO-001\\]\n$"
             run fifo_launch.json)
gms_cli_test(config_fifo 2 "^$"
             "^fifo_config.json: error: the file is not a regular file \\(a FIFO\\) \\[CONFIG-001\\]\n$"
             run config_fifo.json)
gms_cli_test(gpu_unknown_field 2 "^$"
             "^gpu_unknown.json:3:10: error: gpu: unknown GPU preset 'h101'; `gpumemsim presets` lists them \\[SIM-GPU-001\\]\n$"
             run gpu_unknown.json)

# An output that is an input under another spelling is refused before the run (no report).
gms_cli_test(output_is_launch_file_dot 2 "^$"
             "^self_dot.json:8:20: error: outputs.y: \"./self_dot.json\" is the same file as the launch file \"self_dot.json\"; an output never replaces an input \\[SIM-OUT-001\\]\n$"
             run self_dot.json)
gms_cli_test(output_is_launch_file_link 2 "^$"
             "^self_link.json:8:20: error: outputs.y: \"alias.json\" is the same file as the launch file \"self_link.json\"; an output never replaces an input \\[SIM-OUT-001\\]\n$"
             run self_link.json)
gms_cli_test(output_is_module 2 "^$"
             "^out_module.json:8:20: error: outputs.y: \"../files/saxpy.ptx\" is the same file as the module \"saxpy.ptx\"; an output never replaces an input \\[SIM-OUT-001\\]\n$"
             run out_module.json)
gms_cli_test(output_is_init_file 2 "^$"
             "^out_init.json:9:20: error: outputs.y: \"./x.bin\" is the same file as the init file of buffer x \"x.bin\"; an output never replaces an input \\[SIM-OUT-001\\]\n$"
             run out_init.json)
gms_cli_test(json_is_launch_file 2 "^$"
             "^gpumemsim: error: --json: \"./outputs.json\" is the same file as the launch file \"outputs.json\"; an output never replaces an input \\[SIM-OUT-001\\]\n$"
             run --json ./outputs.json outputs.json)
gms_cli_test(json_is_module 2 "^$"
             "^gpumemsim: error: --json: \"saxpy.ptx\" is the same file as the module \"saxpy.ptx\"; an output never replaces an input \\[SIM-OUT-001\\]\n$"
             run --json saxpy.ptx outputs.json)
gms_cli_test(outputs_same_file 2 "^$"
             "^out_twice.json:8:35: error: outputs.y: \"./xy.bin\" is the same file as outputs.x \"xy.bin\" \\[SIM-OUT-002\\]\n$"
             run out_twice.json)
gms_cli_test(json_same_as_output 2 "^$"
             "^gpumemsim: error: --json: \"./out_x.bin\" is the same file as outputs.x \"out_x.bin\" \\[SIM-OUT-002\\]\n$"
             run --json ./out_x.bin outputs.json)
# An output that is a FIFO or a device is refused (a rename would replace the device node; the
# case uses a FIFO of the build folder so that a regression cannot harm /dev).
gms_cli_test(output_is_fifo 2 "^$"
             "^out_fifo.json:8:20: error: outputs.y: \"fifo_out.bin\" exists and is not a regular file \\(a FIFO\\) \\[SIM-OUT-003\\]\n$"
             run out_fifo.json)
# A folder that cannot take an output is found before the run: no report, and nothing written,
# not even the outputs that could have been.
set(GMS_CLI_EXTRA_DEFINES "-DGMS_ABSENT=unwritable_x.bin|stats_unwritable.json|.gpumemsim-*")
gms_cli_test(output_folder_unwritable 2 "^$"
             "^unwritable.json:8:45: error: outputs.y: cannot create a file beside \"no_such_dir/y.bin\": No such file or directory \\[SIM-OUT-003\\]\n$"
             run --json stats_unwritable.json unwritable.json)
gms_cli_test(json_folder_unwritable 2 "^$"
             "^gpumemsim: error: --json: cannot create a file beside \"no_such_dir/stats.json\": No such file or directory \\[SIM-OUT-003\\]\n$"
             run --json no_such_dir/stats.json outputs.json)
# A kernel that faults in the second launch: no output at all, not even the first launch's, no
# JSON report and no temporary file.
set(GMS_CLI_EXTRA_DEFINES "-DGMS_ABSENT=fault_x.bin|fault_y.bin|stats_fault.json|.gpumemsim-*")
gms_cli_test(fault_writes_nothing 1 "^$"
             "^gpumemsim: kernel _Z5saxpyifPKfPf faulted \\(launch 2 of 2\\)\n.*  no outputs were written\n$"
             run --json stats_fault.json fault.json)
# A run that succeeds writes every output and the JSON report, and leaves no temporary file;
# rtol on an integer buffer is accepted (|0 - 100| <= 50 + 0.5 * 100).
set(GMS_CLI_EXTRA_DEFINES "-DGMS_PRESENT=out_x.bin|stats_ok.json" "-DGMS_ABSENT=.gpumemsim-*")
gms_cli_test(outputs_written 0
             "\n  expectation x: 256 elements match\n  expectation y: 256 elements match\n  wrote out_x.bin\n$"
             "^$" run --json stats_ok.json outputs.json)
set(GMS_CLI_EXTRA_DEFINES "")
set(GMS_CLI_DIR "")
foreach(t module_dev_zero module_fifo module_too_large module_dialect module_named_dialect
          module_unknown_dialect check_named_dialect check_unknown_suffix check_dev_zero check_fifo
          launch_fifo config_fifo gpu_unknown_field output_is_launch_file_dot
          output_is_launch_file_link output_is_module output_is_init_file json_is_launch_file
          json_is_module outputs_same_file json_same_as_output output_is_fifo
          output_folder_unwritable json_folder_unwritable fault_writes_nothing outputs_written)
  set_tests_properties(cli.${t} PROPERTIES FIXTURES_REQUIRED cli_files RESOURCE_LOCK cli_files)
endforeach()

# A call to a body-less function that the module's machine does not provide as a system call
# (PTX's provides vprintf, __assertfail, malloc and free) is refused when the module is prepared.
gms_cli_test(check_extern_call 2 "^$"
             "^extern_call.ptx:12:2: error: call to external function 'helper', which gpumemsim does not provide \\(its system calls are vprintf, __assertfail, malloc and free\\) \\[EXEC-EXTERN-001\\]\n$"
             check extern_call.ptx)

# Dynamic parallelism and CUDA graphs' device calls are refused by name, each with its own rule:
# nvcc 13's CDP2 calls and cudaGraphLaunch (device_runtime.cu), and CDP1's names.
gms_cli_test(check_device_launch_cdp2 2 "^$"
             "^device_runtime.ptx:86:2: error: call to '__cudaCDP2GetParameterBufferV2', a device runtime call of dynamic parallelism \\(kernels launching kernels\\), which gpumemsim does not model \\[EXEC-EXTERN-002\\]\ndevice_runtime.ptx:107:2: error: call to '__cudaCDP2LaunchDeviceV2', a device runtime call of dynamic parallelism \\(kernels launching kernels\\), which gpumemsim does not model \\[EXEC-EXTERN-002\\]\ndevice_runtime.ptx:124:2: error: call to 'cudaGraphLaunch', a device call of CUDA graphs, which gpumemsim does not model \\[EXEC-EXTERN-003\\]\n$"
             check device_runtime.ptx)
gms_cli_test(check_device_launch_cdp1 2 "^$"
             "^device_launch_cdp1.ptx:40:2: error: call to 'cudaGetParameterBuffer', a device runtime call of dynamic parallelism \\(kernels launching kernels\\), which gpumemsim does not model \\[EXEC-EXTERN-002\\]\ndevice_launch_cdp1.ptx:61:2: error: call to 'cudaLaunchDevice', [^\n]*\\[EXEC-EXTERN-002\\]\ndevice_launch_cdp1.ptx:66:2: error: call to 'cudaDeviceSynchronize', [^\n]*\\[EXEC-EXTERN-002\\]\n$"
             check device_launch_cdp1.ptx)

# cooperative_groups::this_grid().sync() needs a cooperative launch ("cooperative": true): launched
# without one, the %envreg workspace address reads 0 and the kernel traps as on the hardware; a
# cooperative launch with more CTAs than can be resident at once is refused (EXEC-LAUNCH-002).
gms_cli_test(run_grid_sync_not_cooperative 1 "^$"
             "^gpumemsim: kernel _Z9grid_syncPKiPiS1_ faulted \\(launch 1 of 1\\)\n  trap executed \\[EXEC-TRAP-001\\]\n.*grid_sync.cu:13\n  no outputs were written\n$"
             run --quiet grid_sync_plain.json)
gms_cli_test(run_grid_sync_too_large 1 "^$"
             "^gpumemsim: kernel _Z9grid_syncPKiPiS1_ faulted \\(launch 1 of 1\\)\n  cooperative launch of 217 CTAs, more than the 216 that can be resident at once \\(108 SMs x 2 CTAs\\) \\[EXEC-LAUNCH-002\\]\n"
             run --quiet grid_sync_too_large.json)

# The faults of cp.async (docs/faults.md, "Asynchronous copies"): a source size above the copy
# size, a destination not aligned to the copy size, and more pending copies than a warp holds.
gms_cli_test(cp_async_big_source 1 ""
             "faulted \\(launch 1 of 1\\)\n  cp.async source size 12 is larger than its copy size 8 \\[EXEC-ASYNC-001\\]\n  by thread \\(0,0,0\\) in block \\(0,0,0\\)\n  at cp_async_faults.ptx:16:2: "
             run cp_async_fault_big_source.json)
gms_cli_test(cp_async_misaligned 1 ""
             "  cp.async destination 0x8 of 16 bytes is not aligned to its size in the 512-byte shared memory of the CTA \\[EXEC-ASYNC-002\\]\n.*at cp_async_faults.ptx:28:2: "
             run cp_async_fault_misaligned.json)
gms_cli_test(cp_async_never_waits 1 ""
             "  more than 1024 cp.async instructions of one warp are pending: .* \\[EXEC-ASYNC-003\\]\n.*at cp_async_faults.ptx:44:2: "
             run cp_async_fault_never_waits.json)

# `gpumemsim exec` (docs/cuda-runtime.md, "gpumemsim exec"), without nvcc: a stand-in
# libcudart.so.13 (tests/cli/fake_cudart.c) in its own folder, and exec_probe, linked against it
# with no run path, which prints what it loaded, its arguments and the GPUMEMSIM_* environment,
# and exits with the status its first argument gives. The probe starts only if exec put the
# folder named by GPUMEMSIM_RUNTIME_DIR first on LD_LIBRARY_PATH.
set(GMS_FAKE_RUNTIME ${CMAKE_BINARY_DIR}/tests/fake_runtime)
add_library(gms_test_fake_cudart SHARED ${CMAKE_SOURCE_DIR}/tests/cli/fake_cudart.c)
set_target_properties(gms_test_fake_cudart PROPERTIES OUTPUT_NAME cudart SOVERSION 13
                      LIBRARY_OUTPUT_DIRECTORY ${GMS_FAKE_RUNTIME})
target_compile_definitions(gms_test_fake_cudart PRIVATE GMS_FAKE_CUDART_DIR="${GMS_FAKE_RUNTIME}")
add_executable(gms_test_exec_probe ${CMAKE_SOURCE_DIR}/tests/cli/exec_probe.c)
target_link_libraries(gms_test_exec_probe PRIVATE gms_test_fake_cudart)
set_target_properties(gms_test_exec_probe PROPERTIES SKIP_BUILD_RPATH ON)
set(probe $<TARGET_FILE:gms_test_exec_probe>)

gms_cli_test(exec_help 0
             "^usage: gpumemsim exec \\[options\\] \\[--\\] PROGRAM \\[ARG...\\]\n.*\n  --gpu NAME .*\n  --config FILE.json .*\n  --json FILE .*\n  --top N .*\n  --strip-hints .*\n  --quiet .*exit status: the program's own"
             "^$" exec --help)
gms_cli_test(exec_without_program 2 "^$" "^gpumemsim exec: expected a program to run\n$" exec --quiet)
gms_cli_test(exec_missing_program 127 "^$"
             "^gpumemsim: error: ./no-such-program: no such file \\[RT-EXEC-001\\]\n$"
             exec -- ./no-such-program)
gms_cli_test(exec_not_in_path 127 "^$"
             "^gpumemsim: error: no-such-program-anywhere: not found in any folder of \\$PATH \\[RT-EXEC-001\\]\n$"
             exec no-such-program-anywhere)
gms_cli_test(exec_not_executable 126 "^$"
             "^gpumemsim: error: ./good.json: not an executable file \\[RT-EXEC-002\\]\n$"
             exec -- ./good.json)
# A dynamically linked program without libcudart.so (gpumemsim itself here) carries its own
# CUDA runtime if it has one: nvcc's default, -cudart static.
gms_cli_test(exec_without_shared_cudart 126 "^$"
             "^gpumemsim: error: [^\n]*/gpumemsim: loads neither libcudart.so nor libcuda.so, so the simulated GPU's runtime cannot take the place of its own: nvcc links a copy of the CUDA runtime into each program by default \\(-cudart static\\); rebuild it with `nvcc -cudart shared` \\[RT-EXEC-004\\]\n$"
             exec -- $<TARGET_FILE:gpumemsim> --version)
# With --dlopen such a program runs (Python opens libcuda.so.1 itself): here gpumemsim --version
# prints its version and exits 0.
gms_cli_test(exec_dlopen 0 "^gpumemsim [0-9]"
             "^$"
             exec --dlopen -- $<TARGET_FILE:gpumemsim> --version)
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_LINK_OPTIONS -static)
check_c_source_compiles("int main(void) { return 0; }" GMS_HAVE_STATIC_LINKING)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
# (Sanitizer builds link every program with the sanitizers, which cannot be linked statically.)
if(GMS_HAVE_STATIC_LINKING AND NOT GMS_SANITIZE)
  add_executable(gms_test_exec_static ${CMAKE_SOURCE_DIR}/tests/cli/exec_static.c)
  target_link_options(gms_test_exec_static PRIVATE -static)
  gms_cli_test(exec_static 126 "^$"
               "^gpumemsim: error: [^\n]*/gms_test_exec_static: a statically linked program: it loads no shared library, so the simulated GPU's CUDA runtime cannot take the place of the one linked into it; link it dynamically, with `nvcc -cudart shared` \\[RT-EXEC-003\\]\n$"
               exec -- $<TARGET_FILE:gms_test_exec_static>)
else()
  message(STATUS "cli.exec_static: no static linking in this build; the test is not registered")
endif()
# Every option reaches the runtime as its variable (paths made absolute); the runtime folder
# comes first on LD_LIBRARY_PATH; the program's arguments, options included, are its own; the
# exit status is the program's.
gms_cli_test(exec_environment 0
             "^fake libcudart.so.13 from [^\n]*/tests/fake_runtime\nargv\\[1\\]=0\nargv\\[2\\]=--gpu\nargv\\[3\\]=t4\nGPUMEMSIM_GPU unset\nGPUMEMSIM_CONFIG=/[^\n]*/tests/cli/../runtime/small_l2.json\nGPUMEMSIM_JSON=/[^\n]*/tests/cli/exec_env.json\nGPUMEMSIM_STRIP_HINTS=1\nGPUMEMSIM_TOP=3\nGPUMEMSIM_QUIET=1\nGPUMEMSIM_REPORT unset\nLD_LIBRARY_PATH=/[^\n]*/tests/fake_runtime:/old/lib\n$"
             "^$"
             exec --config ../runtime/small_l2.json --json exec_env.json --strip-hints --top 3
             --quiet -- ${probe} 0 --gpu t4)
gms_cli_test(exec_gpu 0 "\nGPUMEMSIM_GPU=a100\nGPUMEMSIM_CONFIG unset\n" "^$"
             exec --gpu a100 -- ${probe} 0)
# Options not given remove their variables (a stale export cannot change the run);
# GPUMEMSIM_REPORT, which has no option, is left as it is. No `--` is needed: the options of
# exec end at the program.
gms_cli_test(exec_defaults 42
             "\nargv\\[1\\]=42\nargv\\[2\\]=--quiet\nGPUMEMSIM_GPU unset\nGPUMEMSIM_CONFIG unset\nGPUMEMSIM_JSON unset\nGPUMEMSIM_STRIP_HINTS unset\nGPUMEMSIM_TOP unset\nGPUMEMSIM_QUIET unset\nGPUMEMSIM_REPORT=report.txt\nLD_LIBRARY_PATH=/[^\n]*/tests/fake_runtime\n$"
             "^$" exec ${probe} 42 --quiet)
gms_cli_test(exec_runtime_dir_missing 2 "^$"
             "^gpumemsim: error: exec: no libcudart.so.13 in /no/such/folder \\(GPUMEMSIM_RUNTIME_DIR\\); build the runtime libraries \\(cmake --build\\) or set GPUMEMSIM_RUNTIME_DIR to the folder that holds them \\[RT-EXEC-005\\]\n$"
             exec -- ${probe} 0)
gms_cli_test(exec_gpu_unknown 2 "^$"
             "^gpumemsim: error: --gpu nope: unknown GPU preset; `gpumemsim presets` lists them \\[SIM-GPU-001\\]\n$"
             exec --gpu nope -- ${probe} 0)
gms_cli_test(exec_gpu_and_config 2 "^$"
             "^gpumemsim: error: --gpu a100: the GPU configuration good.json chooses the GPU \\(its \"base\" names the preset\\); give --gpu or the configuration, not both \\[SIM-GPU-002\\]\n$"
             exec --gpu a100 --config good.json -- ${probe} 0)
gms_cli_test(exec_config_missing 2 "^$"
             "^no-such-config.json: error: cannot open the file: No such file or directory \\[CONFIG-001\\]\n$"
             exec --config no-such-config.json -- ${probe} 0)
gms_cli_test(exec_json_folder_missing 2 "^$"
             "^gpumemsim: error: --json: cannot create a file beside \"no/such/folder/s.json\": No such file or directory \\[SIM-OUT-003\\]\n$"
             exec --json no/such/folder/s.json -- ${probe} 0)
gms_cli_test(exec_top_negative 2 "^$" "^gpumemsim: --top needs a whole number from 0 to 1000000, not '-1'\n$"
             exec --top -1 -- ${probe} 0)
set_tests_properties(cli.exec_environment cli.exec_gpu cli.exec_gpu_unknown cli.exec_config_missing
                     cli.exec_gpu_and_config
                     cli.exec_json_folder_missing cli.exec_top_negative PROPERTIES
                     ENVIRONMENT "GPUMEMSIM_RUNTIME_DIR=${GMS_FAKE_RUNTIME};LD_LIBRARY_PATH=/old/lib")
set_tests_properties(cli.exec_defaults PROPERTIES ENVIRONMENT
                     "GPUMEMSIM_RUNTIME_DIR=${GMS_FAKE_RUNTIME};GPUMEMSIM_GPU=v100;GPUMEMSIM_TOP=9;GPUMEMSIM_REPORT=report.txt;LD_LIBRARY_PATH=")
set_tests_properties(cli.exec_runtime_dir_missing PROPERTIES ENVIRONMENT
                     "GPUMEMSIM_RUNTIME_DIR=/no/such/folder")
# A script is run without the ELF check; it and its children get the environment.
gms_cli_test(exec_script 5 "^GPUMEMSIM_GPU=t4\n$" "^$" exec --gpu t4 -- ./exec_script.sh)
# The first 64 bytes of a program: a valid ELF header whose program headers lie past the end.
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/tests/truncated_elf
                   COMMAND sh -c "head -c 64 \"$1\" > truncated_elf" sh
                           $<TARGET_FILE:gms_test_exec_probe>
                   COMMAND chmod +x truncated_elf
                   DEPENDS gms_test_exec_probe WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/tests VERBATIM)
add_custom_target(gms_test_truncated_elf ALL DEPENDS ${CMAKE_BINARY_DIR}/tests/truncated_elf)
gms_cli_test(exec_truncated_elf 126 "^$"
             "^gpumemsim: error: [^\n]*/truncated_elf: a corrupt ELF file \\(program headers\\) \\[RT-EXEC-002\\]\n$"
             exec -- ${CMAKE_BINARY_DIR}/tests/truncated_elf)
set_tests_properties(cli.exec_script cli.exec_truncated_elf PROPERTIES ENVIRONMENT
                     "GPUMEMSIM_RUNTIME_DIR=${GMS_FAKE_RUNTIME}")
