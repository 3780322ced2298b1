# The bulk copies' execution cases that need no CUDA source, labelled `bulk`: small PTX modules
# in tests/bulk/ (each NAME.ptx with its launch file NAME.json), run through
# tests/kernels/run_kernel.sh. "forms", "nan_fill" and "rank5" must succeed with their expectations (the
# values are derived in each module's header); every other case is a fault (exit status 1) or a launch file
# the runner refuses (exit status 2), with its rule id and message (docs/faults.md, "Bulk
# copies"; docs/launch-files.md, "Tensor maps").

# gms_bulk_case(NAME EXIT REGEX...): `gpumemsim run tests/bulk/NAME.json` exits with EXIT and
# each REGEX (extended, case-insensitive) matches its output.
function(gms_bulk_case name exit)
  add_test(NAME bulk.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/kernels/run_kernel.sh $<TARGET_FILE:gpumemsim>
                   ${name}.json "" ${exit} ${ARGN}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/bulk)
  set_tests_properties(bulk.${name} PROPERTIES LABELS bulk TIMEOUT 60)
endfunction()

gms_bulk_case(forms 0 "expectation out: 8 elements match" "expectation tensor: 72 elements match")
gms_bulk_case(nan_fill 0 "expectation out: 8 elements match")
gms_bulk_case(rank5 0 "expectation out: 64 elements match")
gms_bulk_case(misaligned 1 "bulk copy of 64 bytes from 0x7f0000000008 to 0x0: addresses and size must be multiples of 16 \\[EXEC-BULK-001\\]"
              "thread \\(0,0,0\\)")
gms_bulk_case(box_align 1 "tensor copy of a 64-byte box at shared offset 0x10: the box must start on a 128-byte boundary and fit the CTA's shared memory \\[EXEC-BULK-001\\]")
gms_bulk_case(not_a_map 1 "the tensor map at 0x7f0000000000: the 128 bytes are not a gpumemsim tensor map .* \\[EXEC-BULK-002\\]")
gms_bulk_case(rank 1 "the tensor map at 0x400000000000: its rank differs from the instruction's dimension \\[EXEC-BULK-002\\]")
gms_bulk_case(uninit 1 "mbarrier complete_tx on shared offset 0x100, which holds no initialized mbarrier \\[EXEC-MBAR-001\\]"
              "uninit\\.ptx:21")
gms_bulk_case(api_reject 2 "api_reject\\.json:7:15: error: launches\\[0\\]\\.args\\[0\\]\\.tensor_map: the box's inner dimension is not a multiple of 16 bytes \\[API-TMAP-001\\]")
gms_bulk_case(bad_swizzle 2 "bad_swizzle\\.json:8:[0-9]+: error: launches\\[0\\]\\.args\\[0\\]\\.tensor_map\\.swizzle: \"16B\" is not one of none, 32B, 64B, 128B \\[LAUNCH-TMAP-001\\]")
gms_bulk_case(map_to_u64 2 "map_to_u64\\.json:7:35: error: launches\\[0\\]\\.args\\[1\\] passes 128 bytes, but parameter 1 \\(buf\\) of kernel k has 8 bytes \\[SIM-ARGS-003\\]")
