# The agreements with a real H100 that docs/hardware.md reports, kept as tests: bench/hw/compare.py
# runs gpumemsim on launch files whose Nsight Compute measurement is committed (bench/hw/h100/)
# and fails when a modelled metric that agreed exactly no longer does. Skipped (status 77)
# without python3.
find_program(GMS_PYTHON3 python3)
set(GMS_HW_DIR ${CMAKE_SOURCE_DIR}/bench/hw)
# Global L1 load and store sectors: the coalescer, on every file whose compiled code makes the
# PTX's global accesses (all but cg_reduce and divergent_loops, docs/hardware.md).
set(GMS_HW_SECTORS
    bench/kernels/saxpy_1m.json bench/kernels/transpose_1k.json bench/kernels/stencil_512.json
    bench/kernels/matmul_256.json bench/kernels/twin_reduce_1m_ptx.json
    tests/kernels/smem_banks/smem_banks.json tests/kernels/strided_access/strided_access.json
    tests/kernels/transpose_naive/transpose_naive.json tests/kernels/stream_dram/stream_dram.json
    tests/kernels/capacity/capacity.json tests/kernels/ldmatrix_banks/ldmatrix_banks.json
    tests/kernels/local_sort/local_sort.json tests/kernels/gemm_cp_async/gemm_cp_async.json
    tests/kernels/bitonic_sort/bitonic_sort.json tests/kernels/histogram/histogram.json)
# Shared-memory bank conflicts, where the compiled code accesses shared memory as the PTX does.
set(GMS_HW_CONFLICTS
    bench/kernels/stencil_512.json tests/kernels/smem_banks/smem_banks.json
    tests/kernels/transpose_naive/transpose_naive.json tests/kernels/ldmatrix_banks/ldmatrix_banks.json
    tests/kernels/gemm_cp_async/gemm_cp_async.json)
# L1 hits where reuse is structural.
set(GMS_HW_HITS
    bench/kernels/stencil_512.json tests/kernels/capacity/capacity.json
    tests/kernels/local_sort/local_sort.json)
foreach(kind SECTORS CONFLICTS HITS)
    if(kind STREQUAL SECTORS)
        set(metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum)
    elseif(kind STREQUAL CONFLICTS)
        set(metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum)
    else()
        set(metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum)
    endif()
    string(TOLOWER ${kind} name)
    add_test(NAME hw.h100.${name}
             COMMAND sh -c "[ -n \"$0\" ] && [ \"$0\" != GMS_PYTHON3-NOTFOUND ] || { echo 'hw: python3 not found; skipped'; exit 77; }; cd \"$1\" && exec \"$0\" bench/hw/compare.py -g \"$2\" --gpu h100 --no-timing --check-exact \"$3\" bench/hw/h100 ${GMS_HW_${kind}}"
                     ${GMS_PYTHON3} ${CMAKE_SOURCE_DIR} $<TARGET_FILE:gpumemsim> ${metrics})
    set_tests_properties(hw.h100.${name} PROPERTIES LABELS "hw" SKIP_RETURN_CODE 77)
endforeach()
