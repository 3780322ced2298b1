# The mbarrier family's execution cases that need no CUDA source, labelled `mbarrier`: small PTX
# modules in tests/mbarrier/ (each NAME.ptx with its launch file NAME.json), run through
# tests/kernels/run_kernel.sh. "forms" must succeed with its expectation; every other case is a
# fault: exit status 1, the rule id, the message and the thread (docs/faults.md, "mbarrier").

# gms_mbarrier_case(NAME EXIT REGEX...): `gpumemsim run tests/mbarrier/NAME.json` exits with EXIT
# and each REGEX (extended, case-insensitive) matches its output.
function(gms_mbarrier_case name exit)
  add_test(NAME mbarrier.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/kernels/run_kernel.sh $<TARGET_FILE:gpumemsim>
                   ${name}.json "" ${exit} ${ARGN}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/mbarrier)
  set_tests_properties(mbarrier.${name} PROPERTIES LABELS mbarrier TIMEOUT 60)
endfunction()

gms_mbarrier_case(forms 0 "expectation out: 64 elements match")
gms_mbarrier_case(uninit 1 "mbarrier arrive on shared offset 0x0, which holds no initialized mbarrier \\[EXEC-MBAR-001\\]"
                  "thread \\(5,0,0\\) in block \\(0,0,0\\)")
gms_mbarrier_case(outside 1 "mbarrier address 0x7f[0-9a-f]+ is not in the CTA's 16 bytes of shared memory \\[EXEC-MBAR-002\\]"
                  "thread \\(0,0,0\\)")
gms_mbarrier_case(misaligned 1 "mbarrier at shared offset 0x4 is not 8-byte aligned \\[EXEC-MBAR-003\\]")
gms_mbarrier_case(count 1 "mbarrier init with a count of 0 at shared offset 0x0: counts are 1\\.\\.1048575 \\[EXEC-MBAR-004\\]")
gms_mbarrier_case(underflow 1 "mbarrier arrive\\.noComplete of 3 arrivals at shared offset 0x0, whose phase has 2 pending \\(and 2 expected\\) \\[EXEC-MBAR-005\\]")
gms_mbarrier_case(tx_range 1 "mbarrier expect_tx of 100000 bytes at shared offset 0x0 takes the tx-count \\(1000000\\) outside -1048575\\.\\.1048575 \\[EXEC-MBAR-006\\]")
gms_mbarrier_case(nocomplete 1 "mbarrier arrive\\.noComplete at shared offset 0x0 would complete the phase \\(1 pending, tx-count 0\\) \\[EXEC-MBAR-007\\]")
gms_mbarrier_case(deadlock 1 "deadlock: mbarrier try_wait on shared offset 0x0 can never complete its phase \\(parity 0, 1 arrivals pending of 33, tx-count 0\\) because no warp can run \\[EXEC-MBAR-008\\]"
                  "deadlock\\.ptx:21")
# The same barrier polled with test_wait on sm_80: the warps never sleep, and after 1,000 rounds
# in which every warp only polled, the launch stops with the same rule.
gms_mbarrier_case(poll_deadlock 1 "deadlock: mbarrier test_wait on shared offset 0x0 can never complete its phase \\(parity 0, 1 arrivals pending of 33, tx-count 0\\) because every warp that runs only polls open mbarrier phases \\[EXEC-MBAR-008\\]"
                  "poll_deadlock\\.ptx:21")
gms_mbarrier_case(token 1 "mbarrier test_wait with state 0x2a, which is not a token an arrive returned \\[EXEC-MBAR-009\\]")
