#!/bin/sh
# Writes the launch files of the timing-validation cases that `make test` runs (label fidelity,
# tests/timing_fidelity.cmake) and tests/fidelity/cases.txt, the table the tests read: per case
# the launches whose cycles give the model's figure, the published hardware figure and its
# tolerance, and where the figure comes from (../shared/reference/gpu-figures.md sections). The
# sizes are the small end of the sweeps of bench/fidelity/ (one footprint per plateau, just below
# and just above the L1 capacity). Deterministic; rerun after changing this file.
# Usage: tests/fidelity/gen_cases.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
. ./fidelity_lib.sh

cases=cases.txt
cat >"$cases" <<'HEAD'
# Timing-validation cases (written by gen_cases.sh; format in fidelity_figure.c). Cycles are SM
# cycles; GB/s at the preset's clock. Sources: ../shared/reference/gpu-figures.md sections.
# name                        launch file                        figure           A  B  units      published  tol   source
HEAD

# chase_case NAME GPU MODULE LINES WARMUP WARM MEASURE PUBLISHED SOURCE...
chase_case() {
    _name=$1 _gpu=$2 _module=$3 _lines=$4 _warmup=$5 _warm=$6 _measure=$7 _pub=$8
    shift 8
    fid_chase "$_module" "$_gpu" "$_lines" "$_warmup" "$_warm" "$_measure" >"chase/$_name.json"
    printf '%-29s %-34s %-16s %-2s %-2s %-10s %-10s %-5s %s\n' "chase.$_name" \
        "chase/$_name.json" per_unit 2 3 "$_measure" "$_pub" 5% "$*" >>"$cases"
}

# Latency staircase (§9 "Validation recipes"): footprints in 64-byte lines. The warm-up launch
# chases one full pass (the steady state the hardware suites measure: each level holds what fits
# of the chain, the L2's near copies are in place); the measured pair then chases one pass and one
# pass + MEASURE for the footprints near the L1 capacity, below and above it (the L1 starts empty
# at every launch, so only a launch's second pass shows what the L1 keeps), 0 and MEASURE steps
# for the larger L2 ones. The DRAM footprints warm up and start with 16 steps only: at
# 1.6x the L2 and more the build kernel's own writes have evicted the lines the first steps
# visit, so the first pass misses the L2 as every later one does (the 16 lines the warm-up brought
# back are chased by both measured launches).
#          name            gpu  module          lines   warmup  warm    meas pub
chase_case v100_l1_64k     v100 chase.sm_70.ptx 1024    1024    1024    1024 30  '§3 "L1 latency, benchmark suites" 29.9-30.3'
chase_case v100_l1_112k    v100 chase.sm_70.ptx 1792    1792    1792    1024 30  '§9 V100: 30 below the 128 KB cliff'
chase_case v100_l2_192k    v100 chase.sm_70.ptx 3072    3072    3072    1024 215 '§9 V100: 215 above the 128 KB cliff'
chase_case v100_l2_2m      v100 chase.sm_70.ptx 32768   32768   32768   1024 215 '§3 "L2 hit latency, suites" 213-215'
chase_case v100_dram_12m   v100 chase.sm_70.ptx 196608  16      16      2048 430 '§3 "DRAM latency" 424-437; §9 ~430 above 6 MB'
chase_case a100_l1_64k     a100 chase.sm_80.ptx 1024    1024    1024    1024 36  '§5 "L1 latency, suites" 36.0-36.4'
chase_case a100_l1_144k    a100 chase.sm_80.ptx 2304    2304    2304    1024 36  '§5 "L1 latency, suites": up to 144 KB'
chase_case a100_l2_256k    a100 chase.sm_80.ptx 4096    4096    4096    1024 211 '§5 "L2 near hit, suites" 210.6-213.3 from 239 KB'
chase_case a100_l2near_4m  a100 chase.sm_80.ptx 65536   65536   0       1024 211 '§5 "L2 near hit, suites" 210.6-213.3'
chase_case a100_l2far_34m  a100 chase.sm_80.ptx 557056  557056  0       1024 425 '§5 "L2 far hit, suites" ~424-426 at 32-38 MB'
chase_case a100_dram_64m   a100 chase.sm_80.ptx 1048576 16      16      2048 570 '§5 "DRAM latency, suites" 567-575 above 62 MB'
chase_case h100_l1_64k     h100 chase.sm_90.ptx 1024    1024    1024    1024 34  '§6 "L1 latency" 34.0-34.8 (H100 PCIe)'
chase_case h100_l1_216k    h100 chase.sm_90.ptx 3456    3456    3456    1024 34  '§6 "L1 latency": up to 216 KB'
chase_case h100_l2_384k    h100 chase.sm_90.ptx 6144    6144    6144    1024 265 '§6 "L2 near hit" 264-266 from 354 KB'
chase_case h100_l2near_8m  h100 chase.sm_90.ptx 131072  131072  0       1024 265 '§6 "L2 near hit" 264-266 to ~20 MB'
chase_case h100_l2far_40m  h100 chase.sm_90.ptx 655360  655360  0       1024 475 '§6 "L2 far" 461-478 at 32-47 MB'
chase_case h100_dram_80m   h100 chase.sm_90.ptx 1310720 16      16      2048 650 '§6 "DRAM latency" 626-658 above 62 MB'

# Strided L1 throughput on a100 (§9 "Strided L1 throughput", gpu-strides/a100.txt): 16 trips of
# 16 loads by 32 warps between the two launches of a stride: 8192 warp loads.
strides="1 2 4 8 16 32 3 5 9 17 33"
published="1.02 2.0 4.0 8.0 16.0 32.0 1.63 2.20 3.03 5.1 8.8"
fid_strides strides.sm_80.ptx a100 4 20 $strides >strides/strides_a100.json
i=0
for s in $strides; do
    set -- $published
    shift $i
    printf '%-29s %-34s %-16s %-2s %-2s %-10s %-10s %-5s %s\n' "strides.a100_s$s" \
        strides/strides_a100.json per_unit $((2 * i + 1)) $((2 * i + 2)) 8192 "$1" 10% \
        '§9 "Strided L1 throughput" (gpu-strides/a100.txt)' >>"$cases"
    i=$((i + 1))
done

# Shared-memory bank conflicts on gtx980 (§2 "Shared bank-conflict cost", §9): 512 dependent
# loads between the two launches of each n; 28 + 2(n - 1) cycles, within one cycle.
fid_smem_conflicts smem.sm_52.ptx gtx980 16 528 >smem/conflicts_gtx980.json
n=1
while [ "$n" -le 32 ]; do
    printf '%-29s %-34s %-16s %-2s %-2s %-10s %-10s %-5s %s\n' "smem.gtx980_conflict_$n" \
        smem/conflicts_gtx980.json per_unit $((2 * n - 1)) $((2 * n)) 512 \
        $((28 + 2 * (n - 1))) 1 '§2 "Shared bank-conflict cost": 28 + 2(n - 1)' >>"$cases"
    n=$((n + 1))
done

# Conflict-free shared bandwidth: 32 trips of 16 loads by 32 warps, 128 bytes each: 2 MiB.
for gpu in gtx980 v100; do
    module=smem.sm_52.ptx
    [ "$gpu" = v100 ] && module=smem.sm_70.ptx
    fid_smem_bandwidth "$module" "$gpu" 4 36 >"smem/bandwidth_$gpu.json"
done
printf '%-29s %-34s %-16s %-2s %-2s %-10s %-10s %-5s %s\n' smem.gtx980_bandwidth \
    smem/bandwidth_gtx980.json bytes_per_cycle 1 2 2097152 128 10% \
    '§9 "Shared-memory conflicts": ~128 B/clk/SM' >>"$cases"
printf '%-29s %-34s %-16s %-2s %-2s %-10s %-10s %-5s %s\n' smem.v100_bandwidth \
    smem/bandwidth_v100.json bytes_per_cycle 1 2 2097152 128 10% \
    '§3 "Shared bandwidth" 126-128 B/clk/SM (TITAN V)' >>"$cases"

# Triad: the second of two launches, over arrays 4x the L2 (DRAM: the steady state of repeated
# runs, in which the first run's dirty lines are written back while the second streams) or over
# 12 MiB (3 MiB on v100) that the L2 holds. Bytes: 12 per element.
# triad_case NAME GPU MODULE N RUNS PUBLISHED_GB_S TOLERANCE SOURCE...
triad_case() {
    _name=$1 _gpu=$2 _module=$3 _n=$4 _runs=$5 _pub=$6 _tol=$7
    shift 7
    fid_triad "$_module" "$_gpu" "$_n" "$_runs" >"triad/$_name.json"
    printf '%-29s %-34s %-16s %-2s %-2s %-10s %-10s %-5s %s\n' "triad.$_name" \
        "triad/$_name.json" gb_per_s - $((_runs - 1)) $((12 * _n)) "$_pub" "$_tol" "$*" >>"$cases"
}
triad_case v100_dram v100 triad.sm_70.ptx 2097152  2 866  10% '§3 "DRAM bandwidth" 866 GB/s read (scale 802)'
triad_case a100_dram a100 triad.sm_80.ptx 13980928 2 1490 10% '§5 "DRAM bandwidth" A100-40 1.49 TB/s read'
triad_case h100_dram h100 triad.sm_90.ptx 17476096 2 1940 10% '§6 "DRAM bandwidth" H100 PCIe 1.94 TB/s read'
triad_case v100_l2   v100 triad.sm_70.ptx 262144   2 2400 15% '§3 "L2 bandwidth" ~2.4 TB/s'
triad_case a100_l2   a100 triad.sm_80.ptx 1048576  2 5400 15% '§5 "L2 bandwidth, suites" 5.3-5.45 TB/s (A100-80)'
triad_case h100_l2   h100 triad.sm_90.ptx 1048576  2 7000 15% '§6 "L2 bandwidth" 6.9-7.3 TB/s (H100 PCIe)'
echo "gen_cases: $(grep -vc '^#' "$cases") cases"
