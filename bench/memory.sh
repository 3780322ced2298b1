#!/bin/sh
# Peak resident memory of gpumemsim as a function of the memory a kernel touches: saxpy over
# 64 Ki, 1 Mi and 4 Mi elements (2 buffers of 4 bytes each, filled with constants), then
# bench/kernels/saxpy_64m.json (64 Mi elements, random contents), on the h100 preset, whose 50 MiB
# L2 and 132 L1s could hold far more. Prints, per size, the bytes the buffers occupy, the peak RSS
# of a whole run in functional mode (--no-timing) and with the timing model, and the bound of
# issue 13 item 5 (buffers + 300 MiB) with "ok" when both runs stay within it. The 64 Mi runs
# take a few minutes on a 2-core machine; --quick leaves them out.
# usage: bench/memory.sh [--quick] [path/to/gpumemsim]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
quick=0
if [ "${1:-}" = --quick ]; then
    quick=1
    shift
fi
sim=${1:-$here/../build/release/gpumemsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptx=$here/../tests/kernels/saxpy_cs/saxpy_cs.sm_80.ptx

# peak RSS in MiB of `gpumemsim run [FLAG] FILE`
peak() {
    kib=$(/usr/bin/time -f %M "$sim" run --quiet $1 "$2" 2>&1 >/dev/null | tail -1)
    echo "$kib / 1024" | bc -l
}

row() { # elements launch-file
    touched=$(echo "$1 * 8 / 1048576" | bc -l)
    off=$(peak --no-timing "$2")
    on=$(peak "" "$2")
    bound=$(echo "$touched + 300" | bc -l)
    ok=$(echo "$off <= $bound && $on <= $bound" | bc)
    printf '%-12s %12.1f %18.1f %18.1f %12.1f %s\n' "$1" "$touched" "$off" "$on" "$bound" \
        "$([ "$ok" = 1 ] && echo ok || echo OVER)"
}

printf '%-12s %12s %18s %18s %12s\n' elements "buffers MiB" "RSS MiB (off)" "RSS MiB (timing)" \
    "bound MiB"
for n in 65536 1048576 4194304; do
    cat > "$tmp/s.json" <<JSON
{"module": "$ptx", "gpu": "h100",
 "buffers": {"x": {"type": "f32", "count": $n, "init": {"fill": 1}},
             "y": {"type": "f32", "count": $n, "init": {"fill": 2}}},
 "launches": [{"kernel": "_Z8saxpy_csifPKfPf", "grid": [$((n / 256))], "block": [256],
               "args": [{"u32": $n}, {"f32": 2.0}, {"buffer": "x"}, {"buffer": "y"}]}]}
JSON
    row "$n" "$tmp/s.json"
done
[ "$quick" = 1 ] || row 67108864 "$here/kernels/saxpy_64m.json"
