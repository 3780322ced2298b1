#!/bin/sh
# The full timing-validation sweeps (docs/timing.md, "Validation"): latency staircases on v100,
# a100 and h100, strided L1 throughput on a100, shared-memory bank conflicts and bandwidth, triad
# bandwidth from DRAM and from the L2. Prints one "model vs published" table per sweep; a row
# whose footprint lies between two published plateaus shows the model's figure only. The small
# cases of the same kernels run in `make test` (tests/fidelity/cases.txt, label fidelity).
#
# Usage: bench/fidelity/run.sh [-g GPUMEMSIM] [-f FIGURE_TOOL] [SWEEP ...]
#   SWEEP: staircase, strides, smem, triad (default: all four). `make bench-fidelity` builds the
#   release preset and runs all of them. The staircase takes the longest: each footprint is
#   chased once round first (to reach the steady state the hardware suites measure), up to about
#   2.5x the L2 (128 MiB on h100).
# Exit status: 0 every published figure within its tolerance, 1 some outside or a run failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sim=$root/build/release/gpumemsim
fig=$root/build/release/fidelity_figure
while getopts g:f: opt; do
    case $opt in
    g) sim=$OPTARG ;;
    f) fig=$OPTARG ;;
    *) echo "usage: $0 [-g GPUMEMSIM] [-f FIGURE_TOOL] [staircase|strides|smem|triad ...]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && set -- staircase strides smem triad
# Absolute paths: the runs start in a temporary folder.
case $sim in /*) ;; *) sim=$(pwd)/$sim ;; esac
case $fig in /*) ;; *) fig=$(pwd)/$fig ;; esac
for tool in "$sim" "$fig"; do
    if [ ! -x "$tool" ]; then
        echo "$tool is not built (make build-release; cmake --build build/release --target fidelity_figure)" >&2
        exit 2
    fi
done
. "$root/tests/fidelity/fidelity_lib.sh"
kernels=$root/tests/fidelity
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
status=0

# row NAME LAUNCH FIGURE A B UNITS PUBLISHED TOLERANCE SOURCE...: one case line.
row() {
    printf '%s %s %s %s %s %s %s %s %s\n' "$@" >>"$work/cases.txt"
}

# run_launch LAUNCH: runs $work/LAUNCH and prints the rows of its cases.
run_launch() {
    if ! (cd "$work" && "$sim" run "$1" --quiet --json "$work/report.json") >"$work/out" 2>&1; then
        cat "$work/out"
        echo "FAIL: gpumemsim run $1"
        status=1
        return
    fi
    "$fig" "$work/report.json" "$work/cases.txt" "$1" || status=1
}

# The published plateau (gpu-figures.md §9 "Validation recipes", §3, §5, §6) a footprint of KB
# kibibytes lies on, or "-" between plateaus (the cliffs).
plateau() {
    gpu=$1 kb=$2
    case $gpu in
    v100) if [ "$kb" -le 112 ]; then echo 30
          elif [ "$kb" -ge 192 ] && [ "$kb" -le 5120 ]; then echo 215
          elif [ "$kb" -ge 12288 ]; then echo 430
          else echo -; fi ;;
    a100) if [ "$kb" -le 144 ]; then echo 36
          elif [ "$kb" -ge 239 ] && [ "$kb" -le 18432 ]; then echo 211
          elif [ "$kb" -ge 32768 ] && [ "$kb" -le 38912 ]; then echo 425
          elif [ "$kb" -ge 63488 ]; then echo 570
          else echo -; fi ;;
    h100) if [ "$kb" -le 216 ]; then echo 34
          elif [ "$kb" -ge 354 ] && [ "$kb" -le 20480 ]; then echo 265
          elif [ "$kb" -ge 32768 ] && [ "$kb" -le 48128 ]; then echo 475
          elif [ "$kb" -ge 63488 ]; then echo 650
          else echo -; fi ;;
    esac
}

staircase() {
    for gpu in v100 a100 h100; do
        case $gpu in
        v100) arch=sm_70 sizes="16 64 112 128 144 192 512 2048 4096 5120 6144 8192 12288 24576" ;;
        a100) arch=sm_80 sizes="16 64 144 160 192 256 1024 8192 18432 20480 24576 32768 36864 40960 49152 65536 98304" ;;
        h100) arch=sm_90 sizes="16 64 216 240 288 384 1024 8192 20480 25600 32768 40960 47104 51200 65536 98304 131072" ;;
        esac
        echo "== latency staircase, $gpu: cycles per dependent load (footprint in KiB; published: §9 plateaus) =="
        : >"$work/cases.txt"
        for kb in $sizes; do
            n=$((kb * 16))
            # A warm-up pass, then (up to 512 KiB, where the L1's capacity shows) one pass and one
            # pass + 2048 steps, or 0 and 2048 steps (the L1 cannot hold the footprint anyway).
            warm=0
            [ "$kb" -le 512 ] && warm=$n
            fid_chase "$kernels/chase/chase.$arch.ptx" "$gpu" "$n" "$n" "$warm" 2048 \
                >"$work/chase_${gpu}_$kb.json"
            row "chase.${gpu}_${kb}k" "chase_${gpu}_$kb.json" per_unit 2 3 2048 "$(plateau $gpu $kb)" 5% \
                "footprint $kb KiB"
        done
        for kb in $sizes; do run_launch "chase_${gpu}_$kb.json"; done
    done
}

strides() {
    echo "== strided L1 throughput, a100: cycles per warp load (§9, gpu-strides/a100.txt) =="
    : >"$work/cases.txt"
    all=$(i=1; while [ $i -le 33 ]; do printf '%d ' $i; i=$((i + 1)); done)
    # shellcheck disable=SC2086
    fid_strides "$kernels/strides/strides.sm_80.ptx" a100 4 20 $all >"$work/strides.json"
    for s in $all; do
        case $s in
        1) pub=1.02 ;; 2) pub=2.0 ;; 4) pub=4.0 ;; 8) pub=8.0 ;; 16) pub=16.0 ;; 32) pub=32.0 ;;
        3) pub=1.63 ;; 5) pub=2.20 ;; 9) pub=3.03 ;; 17) pub=5.1 ;; 33) pub=8.8 ;; *) pub=- ;;
        esac
        row "strides.a100_s$s" strides.json per_unit $((2 * s - 1)) $((2 * s)) 8192 "$pub" 10% \
            "stride $s words"
    done
    run_launch strides.json
}

smem() {
    echo "== shared-memory bank conflicts, gtx980: cycles per dependent load (§2: 28 + 2(n - 1)) =="
    : >"$work/cases.txt"
    fid_smem_conflicts "$kernels/smem/smem.sm_52.ptx" gtx980 16 528 >"$work/conflicts.json"
    n=1
    while [ $n -le 32 ]; do
        row "smem.gtx980_conflict_$n" conflicts.json per_unit $((2 * n - 1)) $((2 * n)) 512 \
            $((28 + 2 * (n - 1))) 1 "$n-way"
        n=$((n + 1))
    done
    run_launch conflicts.json
    echo "== conflict-free shared bandwidth: bytes per cycle per SM (§9, §3 \"Shared bandwidth\") =="
    : >"$work/cases.txt"
    for gpu in gtx980 v100 a100 h100; do
        case $gpu in gtx980) arch=sm_52 pub=128 ;; v100) arch=sm_70 pub=128 ;; *) arch=sm_80 pub=- ;; esac
        fid_smem_bandwidth "$kernels/smem/smem.$arch.ptx" $gpu 4 36 >"$work/smem_bw_$gpu.json"
        row "smem.${gpu}_bandwidth" "smem_bw_$gpu.json" bytes_per_cycle 1 2 2097152 $pub 10% "$gpu"
    done
    for gpu in gtx980 v100 a100 h100; do run_launch "smem_bw_$gpu.json"; done
}

triad() {
    echo "== triad bandwidth, GB/s at the preset's clock (§3, §5, §6 \"DRAM bandwidth\", \"L2 bandwidth\") =="
    : >"$work/cases.txt"
    # DRAM: 4x the L2 over the three arrays, the second of two launches (steady state).
    for spec in v100:sm_70:6291456:866 a100:sm_80:41943040:1490 h100:sm_90:52428800:1940; do
        IFS=: read -r gpu arch l2 pub <<SPEC
$spec
SPEC
        n=$(( (4 * l2 / 12) / 256 * 256 ))
        fid_triad "$kernels/triad/triad.$arch.ptx" $gpu $n 2 >"$work/triad_${gpu}_dram.json"
        row "triad.${gpu}_dram" "triad_${gpu}_dram.json" gb_per_s - 1 $((12 * n)) $pub 10% \
            "$((12 * n / 1048576)) MiB from DRAM"
    done
    # L2-resident: the second of two launches; total footprints in KiB.
    for spec in v100:sm_70:2400:1536 v100:sm_70:2400:3072 a100:sm_80:5400:3072 \
                a100:sm_80:5400:12288 a100:sm_80:5400:23552 h100:sm_90:7000:3072 \
                h100:sm_90:7000:12288 h100:sm_90:7000:30720; do
        IFS=: read -r gpu arch pub kib <<SPEC
$spec
SPEC
        n=$(( kib * 1024 / 12 / 256 * 256 ))
        fid_triad "$kernels/triad/triad.$arch.ptx" $gpu $n 2 >"$work/triad_${gpu}_l2_$kib.json"
        row "triad.${gpu}_l2_${kib}k" "triad_${gpu}_l2_$kib.json" gb_per_s - 1 $((12 * n)) $pub 15% \
            "$kib KiB in the L2"
    done
    for f in "$work"/triad_*.json; do run_launch "$(basename "$f")"; done
}

for sweep in "$@"; do
    case $sweep in
    staircase | strides | smem | triad) $sweep ;;
    *) echo "unknown sweep: $sweep" >&2; exit 2 ;;
    esac
done
exit $status
