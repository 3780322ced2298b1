# Kernel-level tests of the memory hierarchy, labelled `hier`: each runs
# `gpumemsim run --json` on a launch file with a GPU preset (tests/hier/run_check.sh; the run must
# exit 0, so the launch file's expectations hold) and asserts exact counters of the JSON report
# with tests/hier/hier_check.c. Every expected number below follows from the model's definitions
# (docs/statistics.md, docs/cache-model.md) and the preset values of docs/presets.md; the comment
# beside each derives it. Per-instruction counters are found by PTX line: `--select-ptx FILE TEXT
# N` picks the N-th line of the PTX holding TEXT.
#
#   hier.stream.*     stream_dram: n floats read once and written once: DRAM reads 4n, writes 4n
#   hier.stale.*      stale_l1: a stale L1 hit without a fence, a refetch after __threadfence()
#   hier.capacity.*   capacity: the second of two sweeps over half / twice the L1 or L2 capacity
#                     hits everything / nothing
#   hier.fence_charge.*  fence_charge: a membar's L1 write-back is charged to the membar

add_executable(hier_check ${CMAKE_SOURCE_DIR}/tests/hier/hier_check.c)
target_link_libraries(hier_check PRIVATE PkgConfig::JANSSON)

set(GMS_HIER_KERNELS ${CMAKE_SOURCE_DIR}/tests/kernels)

# gms_hier_test(NAME LAUNCH GPU CHECK...): one ctest, hier.NAME.
function(gms_hier_test name launch gpu)
  add_test(NAME hier.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/hier/run_check.sh $<TARGET_FILE:gpumemsim>
                   $<TARGET_FILE:hier_check> ${launch} ${gpu} ${ARGN})
  set_tests_properties(hier.${name} PROPERTIES LABELS hier TIMEOUT 300)
endfunction()

# ---- streaming: DRAM bytes equal the bytes read and written ----
# n = 65536 floats, 256 KiB per buffer, both 256-byte aligned: 2048 lines each.
#  - The load: 2048 warp requests of 4 sectors, all cold: 8192 L1 and 8192 L2 sector misses; each
#    L2 miss fetches its 64-byte block once, so DRAM reads 4n = 262144 bytes.
#  - The store: 2048 requests, 8192 sectors; it writes through to L2 without fetching (8192 L2
#    misses that allocate), so the load and the store charge no write and the store no read.
#  - The end of the run writes the 8192 dirty L2 sectors back: DRAM writes 4n = 262144 bytes,
#    charged to no instruction. The L2 (2 MiB on gtx980, the smallest) holds all 512 KiB, so no
#    line is evicted earlier.
# The same on every preset: gtx980 does not cache the load in L1, but a load that skips L1 still
# counts its sectors as L1 misses.
set(GMS_HIER_STREAM_CHECKS
    totals.dram.read_bytes=262144 totals.dram.write_bytes=262144
    totals.l1.requests=4096 totals.l1.sector_accesses=16384 totals.l1.sector_hits=0
    totals.l2.sector_accesses=16384 totals.l2.sector_misses=16384 totals.l2.evictions=0
    totals.l2.writeback_bytes=262144)
foreach(variant sm_80 sm_90)
  set(ptx ${GMS_HIER_KERNELS}/stream_dram/stream_dram.${variant}.ptx)
  set(launch ${GMS_HIER_KERNELS}/stream_dram/stream_dram.json)
  if(variant STREQUAL "sm_90")
    set(launch ${GMS_HIER_KERNELS}/stream_dram/stream_dram.sm_90.json)
  endif()
  foreach(gpu h100 a100 v100 t4 gtx980)
    gms_hier_test(stream.${gpu}.${variant} ${launch} ${gpu} ${GMS_HIER_STREAM_CHECKS}
                  --select-ptx ${ptx} ld.global.f32 1
                  insn.executions=2048 insn.l1.sector_misses=8192 insn.dram.read_bytes=262144
                  insn.dram.write_bytes=0
                  --select-ptx ${ptx} st.global.f32 1
                  insn.l2.sector_accesses=8192 insn.dram.read_bytes=0 insn.dram.write_bytes=0)
  endforeach()
endforeach()

# ---- two SMs, one stale L1 ----
# Launch A (no fence) and launch B (__threadfence() before the second read) each run CTA 0 on SM 0
# and CTA 1 on SM 1. The value loads are the two `ld.global.u32` of the PTX:
#  - first read (CTA 1, once per launch): cold in L1 and L2: 2 executions, 2 L1 and 2 L2 misses,
#    2 * 64 DRAM bytes;
#  - second read: launch A hits the line the first read left in SM 1's L1 (1 L1 hit, no L2
#    access); launch B's fence dropped it, so an L1 miss and an L2 hit on CTA 0's write-through
#    store: 2 executions, 2 L1 sector accesses, 1 L1 hit, 1 L2 access, 1 L2 hit.
# Totals: DRAM reads one 64-byte fill for each buffer that is read (value and flags of both
# launches: 4 * 64 = 256); the final write-back moves one 32-byte sector for each buffer written
# (value, flags, seen of both launches: 6 * 32 = 192). Only presets whose L1 caches plain global
# loads can hold the stale copy (not gtx980).
foreach(variant sm_80 sm_90)
  set(ptx ${GMS_HIER_KERNELS}/stale_l1/stale_l1.${variant}.ptx)
  set(launch ${GMS_HIER_KERNELS}/stale_l1/stale_l1.json)
  if(variant STREQUAL "sm_90")
    set(launch ${GMS_HIER_KERNELS}/stale_l1/stale_l1.sm_90.json)
  endif()
  foreach(gpu h100 a100 v100 t4)
    gms_hier_test(stale.${gpu}.${variant} ${launch} ${gpu}
                  totals.dram.read_bytes=256 totals.dram.write_bytes=192
                  --select-ptx ${ptx} ld.global.u32 1
                  insn.executions=2 insn.l1.sector_misses=2 insn.l2.sector_misses=2
                  insn.dram.read_bytes=128
                  --select-ptx ${ptx} ld.global.u32 2
                  insn.executions=2 insn.l1.sector_accesses=2 insn.l1.sector_hits=1
                  insn.l2.sector_accesses=1 insn.l2.sector_hits=1 insn.dram.read_bytes=0)
  endforeach()
endforeach()

# ---- capacity steps ----
# Each case writes one launch file under the build folder: a zero-initialised int buffer of
# lines * 32 words (one word per 128-byte line is read), one launch of a capacity.cu sweep kernel,
# and the expectation that every thread's sum is 0. The checks look at the two load
# instructions of that kernel (pass 1 is the first in the PTX, pass 2 the second).
#
# L1 capacity per SM: unified_bytes minus the default carve-out (none of these kernels uses shared
# memory), from docs/presets.md:
#   h100 262144 - 16384 = 245760;  a100 196608 - 32768 = 163840;  v100 131072 - 8192 = 122880;
#   t4 98304 - 32768 = 65536;  gtx980 122880 - 98304 = 24576.
# L2 size: h100 52428800, a100 41943040, v100 6291456, t4 4194304, gtx980 2097152.
set(GMS_HIER_PRESETS h100 a100 v100 t4 gtx980)
set(GMS_HIER_L1_h100 245760)
set(GMS_HIER_L1_a100 163840)
set(GMS_HIER_L1_v100 122880)
set(GMS_HIER_L1_t4 65536)
set(GMS_HIER_L1_gtx980 24576)
set(GMS_HIER_L2_h100 52428800)
set(GMS_HIER_L2_a100 41943040)
set(GMS_HIER_L2_v100 6291456)
set(GMS_HIER_L2_t4 4194304)
set(GMS_HIER_L2_gtx980 2097152)

# gms_hier_capacity(NAME GPU KERNEL LINES GRID BLOCK CHECK...): one launch file and one test.
function(gms_hier_capacity name gpu kernel lines grid block)
  set(variant sm_80)
  if(gpu STREQUAL "h100")
    set(variant sm_90) # h100 runs the sm_90 PTX, every other preset the sm_80 PTX
  endif()
  set(ptx ${GMS_HIER_KERNELS}/capacity/capacity.${variant}.ptx)
  math(EXPR words "${lines} * 32")
  math(EXPR threads "${grid} * ${block}")
  set(launch ${CMAKE_BINARY_DIR}/hier/capacity_${name}.json)
  file(CONFIGURE OUTPUT ${launch} CONTENT "{
  \"module\": \"${ptx}\",
  \"gpu\": \"${gpu}\",
  \"buffers\": {
    \"data\": {\"type\": \"i32\", \"count\": ${words}},
    \"out\": {\"type\": \"i32\", \"count\": ${threads}}
  },
  \"launches\": [
    {\"kernel\": \"${kernel}\", \"grid\": [${grid}], \"block\": [${block}],
     \"args\": [{\"buffer\": \"data\"}, {\"u32\": ${lines}}, {\"buffer\": \"out\"}]}
  ],
  \"expect\": {\"out\": {\"fill\": 0}}
}
")
  gms_hier_test(capacity.${name} ${launch} ${gpu} ${ARGN})
endfunction()

foreach(gpu ${GMS_HIER_PRESETS})
  set(variant sm_80)
  if(gpu STREQUAL "h100")
    set(variant sm_90)
  endif()
  set(ptx ${GMS_HIER_KERNELS}/capacity/capacity.${variant}.ptx)

  # L1: one CTA of one warp (one SM, one strictly ordered stream of requests); lane l of
  # iteration k reads line 32k + l, so each warp request touches 32 lines, one sector each, and
  # pass 2 makes lines / 32 requests. L1 sets = capacity / (128 * ways), 16 ways on h100 and 4 on
  # the others; a contiguous footprint of n lines puts n / sets lines in every set.
  #  - half the L1 (capacity / 256 lines, half the ways of every set): pass 1 misses everything,
  #    at L1, at L2 and in DRAM (one 64-byte fill per line); pass 2 hits every sector in L1 and
  #    sends nothing to L2.
  #  - twice the L1 (capacity / 64 lines, twice the ways): LRU in the same order evicts every line
  #    before its reuse, so pass 2 has no L1 hit; the L2 holds the whole footprint, so every one
  #    of its sectors hits there and DRAM reads nothing.
  # gtx980 does not cache plain global loads in L1, so its steps use ld.global.ca (__ldca), and a
  # third case shows plain loads missing L1 even at half its capacity (L2 serves them all).
  set(kernel _Z11sweep_plainPKijPi)
  set(text ld.global.u32)
  if(gpu STREQUAL "gtx980")
    set(kernel _Z8sweep_caPKijPi)
    set(text ld.global.ca)
  endif()
  math(EXPR half "${GMS_HIER_L1_${gpu}} / 256")
  math(EXPR twice "${GMS_HIER_L1_${gpu}} / 64")
  math(EXPR half_requests "${half} / 32")
  math(EXPR twice_requests "${twice} / 32")
  math(EXPR half_dram "${half} * 64")
  gms_hier_capacity(${gpu}.l1_half ${gpu} ${kernel} ${half} 1 32
                    --select-ptx ${ptx} ${text} 1
                    insn.l1.sector_accesses=${half} insn.l1.sector_misses=${half}
                    insn.l2.sector_misses=${half} insn.dram.read_bytes=${half_dram}
                    --select-ptx ${ptx} ${text} 2
                    insn.executions=${half_requests} insn.l1.requests=${half_requests}
                    insn.l1.sector_accesses=${half} insn.l1.sector_hits=${half}
                    insn.l1.sector_misses=0 insn.l2.sector_accesses=0 insn.dram.read_bytes=0)
  gms_hier_capacity(${gpu}.l1_twice ${gpu} ${kernel} ${twice} 1 32
                    --select-ptx ${ptx} ${text} 2
                    insn.executions=${twice_requests} insn.l1.requests=${twice_requests}
                    insn.l1.sector_accesses=${twice} insn.l1.sector_hits=0
                    insn.l1.sector_misses=${twice} insn.l2.sector_accesses=${twice}
                    insn.l2.sector_hits=${twice} insn.dram.read_bytes=0)
  if(gpu STREQUAL "gtx980")
    gms_hier_capacity(${gpu}.l1_half_plain ${gpu} _Z11sweep_plainPKijPi ${half} 1 32
                      --select-ptx ${ptx} ld.global.u32 2
                      insn.l1.sector_accesses=${half} insn.l1.sector_hits=0
                      insn.l2.sector_accesses=${half} insn.l2.sector_hits=${half})
  endif()

  # L2: ld.global.cg (__ldcg) skips L1, so every sector goes to the one shared L2; the grid is
  # L2 / 2 MiB CTAs of 128 threads (25 on h100, 1 on gtx980), so that the twice-L2 footprint
  # gives each thread 256 iterations per pass. The executor runs every resident warp for the
  # same quantum (256 warp instructions, about 32 iterations of the 8-instruction loop) in turn,
  # so both passes visit the lines in nearly the same order: each use of a line moves by at most
  # one quantum (an eighth of a pass, 4 of the 32 lines of its set), so at least 32 - 1 - 2 * 4 =
  # 23 other lines of its set come between its two uses, more than the 16 ways.
  #  - half the L2 (size / 256 lines; a contiguous footprint puts at most 9 of them in any
  #    16-way set): pass 2 hits every sector in L2, DRAM reads nothing; its sectors still count
  #    as L1 misses (a load that skips L1 misses it).
  #  - twice the L2 (size / 64 lines, 32 per set): no L2 hit in pass 2; every sector misses and
  #    refetches its 64-byte block.
  math(EXPR grid "${GMS_HIER_L2_${gpu}} / 2097152")
  math(EXPR half "${GMS_HIER_L2_${gpu}} / 256")
  math(EXPR twice "${GMS_HIER_L2_${gpu}} / 64")
  math(EXPR half_requests "${half} / 32")
  math(EXPR twice_requests "${twice} / 32")
  math(EXPR twice_dram "${twice} * 64")
  gms_hier_capacity(${gpu}.l2_half ${gpu} _Z8sweep_cgPKijPi ${half} ${grid} 128
                    --select-ptx ${ptx} ld.global.cg 1
                    insn.l2.sector_accesses=${half} insn.l2.sector_misses=${half}
                    --select-ptx ${ptx} ld.global.cg 2
                    insn.executions=${half_requests} insn.l1.sector_accesses=${half}
                    insn.l1.sector_hits=0 insn.l2.sector_accesses=${half}
                    insn.l2.sector_hits=${half} insn.dram.read_bytes=0)
  gms_hier_capacity(${gpu}.l2_twice ${gpu} _Z8sweep_cgPKijPi ${twice} ${grid} 128
                    --select-ptx ${ptx} ld.global.cg 2
                    insn.executions=${twice_requests} insn.l2.sector_accesses=${twice}
                    insn.l2.sector_hits=0 insn.l2.sector_misses=${twice}
                    insn.dram.read_bytes=${twice_dram})
endforeach()

# ---- a fence is charged for its own work ----
# fence_charge runs one warp on h100 with an L1 that keeps global stores (its launch file names
# tests/hier/write_back_l1.json: write-back, allocating; GPU "-" keeps that configuration, which
# --gpu would contradict, SIM-GPU-002). The st.global of 32 words allocates one
# line and leaves its 4 sectors dirty in L1. membar.gl at GPU scope drops the SM's L1 global lines, writing
# that line back first: 128 write-back bytes in L1, and at L2 4 sector accesses that miss (the
# write allocates without fetching), all in the membar's own record. The ld.shared just before
# it (the instruction that ran last) is charged with its shared-memory request only.
foreach(variant sm_80 sm_90)
  set(ptx ${GMS_HIER_KERNELS}/fence_charge/fence_charge.${variant}.ptx)
  set(launch ${GMS_HIER_KERNELS}/fence_charge/fence_charge.json)
  if(variant STREQUAL "sm_90")
    set(launch ${GMS_HIER_KERNELS}/fence_charge/fence_charge.sm_90.json)
  endif()
  gms_hier_test(fence_charge.${variant} ${launch} -
                --select-ptx ${ptx} membar.gl 1
                insn.executions=1 insn.l1.writeback_bytes=128 insn.l2.sector_accesses=4
                insn.l2.sector_misses=4 insn.dram.write_bytes=0
                --select-ptx ${ptx} ld.shared.u32 1
                insn.shared.requests=1 insn.l1.writeback_bytes=0 insn.l2.sector_accesses=0)
endforeach()
