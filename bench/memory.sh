#!/bin/sh
# Peak resident memory of gpumemsim as a function of the memory a kernel touches: saxpy over
# 64 Ki, 1 Mi, 4 Mi and 64 Mi elements (2 buffers of 4 bytes each), on the h100 preset, whose
# 50 MiB L2 and 132 L1s could hold far more. Prints footprint and peak RSS per run (the 64 Mi run
# takes about a minute).
# usage: bench/memory.sh [path/to/gpumemsim]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sim=${1:-$here/../build/release/gpumemsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptx=$here/../tests/kernels/saxpy_cs/saxpy_cs.sm_80.ptx
printf '%-12s %14s %14s\n' elements "touched MiB" "peak RSS MiB"
for n in 65536 1048576 4194304 67108864; do
    cat > "$tmp/s.json" <<JSON
{"module": "$ptx", "gpu": "h100",
 "buffers": {"x": {"type": "f32", "count": $n, "init": {"fill": 1}},
             "y": {"type": "f32", "count": $n, "init": {"fill": 2}}},
 "launches": [{"kernel": "_Z8saxpy_csifPKfPf", "grid": [$((n / 256))], "block": [256],
               "args": [{"u32": $n}, {"f32": 2.0}, {"buffer": "x"}, {"buffer": "y"}]}]}
JSON
    rss=$(/usr/bin/time -f %M "$sim" run --quiet "$tmp/s.json" 2>&1 >/dev/null | tail -1)
    printf '%-12s %14.1f %14.1f\n' "$n" "$(echo "$n * 8 / 1048576" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
done
