#!/bin/sh
# Golden test of the IR printer for one kernel file: runs `gpumemsim check --dump-ir FILE` in the
# current folder and compares stdout with GOLDEN (tests/golden/ir/<name>.ir). With
# GMS_UPDATE_GOLDEN=1 in the environment it writes GOLDEN instead (review the diff):
#   GMS_UPDATE_GOLDEN=1 ctest --test-dir build/dev -L ir
# Usage: ir_golden.sh GPUMEMSIM FILE.ptx GOLDEN
# Exit status: 0 pass (or golden written), 1 fail, 2 bad usage.
set -u
[ $# -eq 3 ] || { echo "usage: $0 GPUMEMSIM FILE.ptx GOLDEN" >&2; exit 2; }
sim=$1 ptx=$2 golden=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$sim" check --dump-ir "$ptx" >"$tmp/ir" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; echo "FAIL: $ptx: gpumemsim check --dump-ir failed" >&2; exit 1; }
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; echo "FAIL: $ptx: diagnostics on stderr" >&2; exit 1; }
if [ "${GMS_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$tmp/ir" "$golden" && echo "WROTE: $golden" && exit 0
    exit 1
fi
[ -f "$golden" ] || { echo "FAIL: no golden $golden (GMS_UPDATE_GOLDEN=1 writes it)" >&2; exit 1; }
if ! diff -u "$golden" "$tmp/ir" >&2; then
    echo "FAIL: $ptx: the IR differs from $golden" >&2
    exit 1
fi
echo "PASS: $ptx"
