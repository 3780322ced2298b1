#!/bin/sh
# The corpus script's self-test: tools/corpus/build.sh on the made-up suite of tests/corpus/
# (four sources: one accepted, one rejected, one with dynamic parallelism that needs -rdc=true,
# one that does not compile) must print exactly the
# expected summary. Exit 77 (skipped) without nvcc.
# Usage: corpus_check.sh GPUMEMSIM
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || exit 77
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM
NVCC=$NVCC GPUMEMSIM=$1 SUITES=$here/suites.txt sh "$here/../../tools/corpus/build.sh" \
    "$here/clones" "$out" > "$out/summary.txt"
sed "s|$out/||" "$out/summary.txt" > "$out/got.txt"
diff -u "$here/expected_summary.txt" "$out/got.txt"
