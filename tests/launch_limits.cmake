# Launches the modelled GPU could not start, labelled `cli`: each is bad input (exit 2) reported at
# the launch file's field, before any launch runs, with the preset's limit and a SIM-LAUNCH rule;
# a module whose .target the preset could not load runs with a SIM-TARGET-001 warning
# (docs/launch-files.md, "Checks against the kernel and the GPU"). The files are in
# tests/launch_limits/: limits.ptx has a kernel with 1024 bytes of static shared memory, one with
# .reqntid 64, 2 and one with .maxntid 128 (target sm_52, which every preset can load); the saxpy
# kernel of examples/saxpy/ targets sm_90. Runs through the driver tests/cli_check.cmake.

# gms_launch_limits_test(NAME EXIT STDOUT_REGEX STDERR_REGEX ARGUMENT...): as gms_cli_test.
function(gms_launch_limits_test name exit stdout_regex stderr_regex)
  add_test(NAME cli.launch_limits.${name}
           COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=${exit} "-DGMS_STDOUT=${stdout_regex}"
                   "-DGMS_STDERR=${stderr_regex}"
                   -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:gpumemsim> ${ARGN}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/launch_limits)
  set_tests_properties(cli.launch_limits.${name} PROPERTIES LABELS cli TIMEOUT 60)
endfunction()

set(saxpy_ptx "\\.\\./\\.\\./examples/saxpy/saxpy\\.ptx")
set(more_than "bytes per CTA, more than")

# Dynamic shared memory above the per-CTA limit but within what one SM holds (h100: 227 KiB =
# 232448 per CTA, 228 KiB per SM; gtx980: 48 KiB per CTA, 96 KiB per SM). Before the check these
# ran into a kernel fault with exit 1.
gms_launch_limits_test(shared_h100 2 "^$"
  "^shared_h100\\.json:7:22: error: launches\\[0\\]\\.shared_bytes: 232449 bytes of dynamic shared memory plus 0 static bytes of the module need 232449 ${more_than} h100 allows \\(232448\\) \\[SIM-LAUNCH-001\\]\n$"
  run shared_h100.json)
gms_launch_limits_test(shared_gtx980 2 "^$"
  "^${saxpy_ptx}:10:9: warning: [^\n]*\\[SIM-TARGET-001\\]\nshared_gtx980\\.json:7:22: error: launches\\[0\\]\\.shared_bytes: 50000 bytes of dynamic shared memory plus 0 static bytes of the module need 50000 ${more_than} gtx980 allows \\(49152\\) \\[SIM-LAUNCH-001\\]\n$"
  run shared_gtx980.json)
# Static shared memory counts: 48128 + 1024 is exactly gtx980's limit, one byte more is not.
gms_launch_limits_test(shared_static_fits 0 "^gpumemsim report" "^$"
  run shared_static_fits.json)
gms_launch_limits_test(shared_static 2 "^$"
  "^shared_static\\.json:5:75: error: launches\\[0\\]\\.shared_bytes: 48129 bytes of dynamic shared memory plus 1024 static bytes of the module need 49153 ${more_than} gtx980 allows \\(49152\\) \\[SIM-LAUNCH-001\\]\n$"
  run shared_static.json)

# Threads per CTA above a preset's sm.max_threads_per_cta (an override lowers it to 256).
gms_launch_limits_test(threads_per_cta 2 "^$"
  "^saxpy\\.json:5:57: error: launches\\[0\\]\\.block has 512 threads, more than h100-cta256 allows per CTA \\(256\\) \\[SIM-LAUNCH-002\\]\n$"
  run --config cta_256.config.json saxpy.json)

# .reqntid and .maxntid: the first launch of each file fits and the second does not; nothing
# runs (no report), the error is at the second launch's block, the note at the directive.
gms_launch_limits_test(reqntid 2 "^$"
  "^reqntid\\.json:5:52: error: launches\\[1\\]\\.block is \\[128, 1, 1\\], but kernel exact_64x2 requires exactly \\[64, 2, 1\\] \\(\\.reqntid\\) \\[SIM-LAUNCH-003\\]\nlimits\\.ptx:17:1: note: \\.reqntid is declared here\n$"
  run reqntid.json)
gms_launch_limits_test(maxntid 2 "^$"
  "^maxntid\\.json:5:53: error: launches\\[1\\]\\.block has 129 threads, but kernel at_most_128 allows at most 128 \\(\\.maxntid 128, 1, 1\\) \\[SIM-LAUNCH-004\\]\nlimits\\.ptx:23:1: note: \\.maxntid is declared here\n$"
  run maxntid.json)

# .target: an sm_90 module on gtx980 and v100 (and a100) runs, with a warning at the .target;
# on h100 and for an sm_52 module on gtx980 there is none. sm_90a loads on 9.0 only.
set(cc_gtx980 "5\\.2")
set(cc_v100 "7\\.0")
set(cc_a100 "8\\.0")
foreach(gpu gtx980 v100 a100)
  gms_launch_limits_test(target_${gpu} 0 "^$"
    "^${saxpy_ptx}:10:9: warning: \\.target sm_90 needs a GPU of compute capability at least 9\\.0, but preset ${gpu} is ${cc_${gpu}}: the GPU would refuse to load this module; gpumemsim runs it anyway \\[SIM-TARGET-001\\]\n$"
    run --quiet --gpu ${gpu} saxpy.json)
endforeach()
gms_launch_limits_test(target_h100 0 "^$" "^$" run --quiet --gpu h100 saxpy.json)
gms_launch_limits_test(target_sm52_gtx980 0 "^$" "^$" run --quiet --gpu gtx980 limits.json)
gms_launch_limits_test(target_sm90a_h100 0 "^$" "^$" run --quiet arch_specific.json)
gms_launch_limits_test(target_sm90a_cc100 0 "^$"
  "^arch_specific\\.ptx:4:9: warning: \\.target sm_90a needs a GPU of compute capability exactly 9\\.0, but preset h100-cc100 is 10\\.0: [^\n]*\\[SIM-TARGET-001\\]\n$"
  run --quiet --config cc100.config.json arch_specific.json)
gms_launch_limits_test(target_sm90_cc100 0 "^$" "^$"
  run --quiet --config cc100.config.json saxpy.json)
