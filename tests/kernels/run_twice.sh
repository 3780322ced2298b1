#!/bin/sh
# Determinism of the timing model on one launch file: runs `gpumemsim run LAUNCH.json --json F`
# twice (timing on) and requires the same exit status (EXPECTED_EXIT) and byte-identical JSON
# statistics and standard output, cycles and stall counts included. A run that faults writes no
# JSON: its standard output and error must then be identical.
# Usage: run_twice.sh GPUMEMSIM LAUNCH.json [EXPECTED_EXIT]
# Exit status: 0 pass, 1 fail, 2 bad usage, 77 skipped (LAUNCH-KEY-001, as run_kernel.sh).
set -u
[ $# -ge 2 ] || { echo "usage: $0 GPUMEMSIM LAUNCH.json [EXPECTED_EXIT]" >&2; exit 2; }
sim=$1 launch=$2 expected_exit=${3:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for i in 1 2; do
    "$sim" run "$launch" --json "$tmp/stats$i.json" >"$tmp/out$i" 2>&1
    status=$?
    if [ "$status" -eq 2 ] && grep -E -q 'unknown key "(images|textures)" \[LAUNCH-KEY-001\]' "$tmp/out$i"; then
        echo "SKIP: $launch: the launch file's images or textures are not read yet"
        exit 77
    fi
    [ "$status" -eq "$expected_exit" ] ||
        { cat "$tmp/out$i" >&2; echo "FAIL: $launch: run $i exited $status, not $expected_exit" >&2; exit 1; }
done
# The report's host-time line differs between runs by nature.
sed '/^host time in kernels/d' "$tmp/out1" >"$tmp/o1"
sed '/^host time in kernels/d' "$tmp/out2" >"$tmp/o2"
if ! cmp -s "$tmp/o1" "$tmp/o2"; then
    diff -u "$tmp/o1" "$tmp/o2" >&2
    echo "FAIL: $launch: the two runs printed different output" >&2
    exit 1
fi
if [ -f "$tmp/stats1.json" ] || [ -f "$tmp/stats2.json" ]; then
    if ! cmp -s "$tmp/stats1.json" "$tmp/stats2.json"; then
        diff -u "$tmp/stats1.json" "$tmp/stats2.json" >&2
        echo "FAIL: $launch: the two runs wrote different JSON statistics" >&2
        exit 1
    fi
    grep -q '"cycles"' "$tmp/stats1.json" || echo "note: $launch: the JSON has no cycles yet"
fi
echo "PASS: $launch"
