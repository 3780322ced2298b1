#!/bin/sh
# The public-corpus bar of issue 15 (docs/ptx.md, "The public corpus"): compiles every .cu file of
# the suites listed in suites.txt to PTX with nvcc, for sm_80 and sm_90, and runs
# `gpumemsim check` on each module, then prints a summary (modules accepted, rejected grouped by
# rule id, sources nvcc could not compile on their own).
#
# Usage: tools/corpus/build.sh CLONES [OUT]
#   CLONES  a folder holding one clone per suite, named as in suites.txt (missing suites are
#           skipped and listed)
#   OUT     where PTX, logs and results go (default /tmp/corpus/out); nothing is written elsewhere.
#           Results are cached: a module is recompiled only when its source is newer than its PTX,
#           and rechecked only when the PTX or the gpumemsim binary is newer than its result.
# Environment: NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc), GPUMEMSIM (default
# build/dev/gpumemsim of this tree), JOBS (parallel nvcc runs, default 1), ARCHS (default
# "sm_80 sm_90"), SUITES (the suite list, default suites.txt beside this script). nvcc runs under
# nice.
#
# Never commit the suites' sources or the PTX this script produces: they are not ours.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 CLONES [OUT]" >&2; exit 2; }
clones=$(cd "$1" && pwd)
out=${2:-/tmp/corpus/out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
GPUMEMSIM=${GPUMEMSIM:-$root/build/dev/gpumemsim}
JOBS=${JOBS:-1}
ARCHS=${ARCHS:-"sm_80 sm_90"}
SUITES=${SUITES:-$here/suites.txt}
export NVCC GPUMEMSIM ARCHS out

[ -x "$GPUMEMSIM" ] || { echo "build.sh: no gpumemsim at $GPUMEMSIM (build it first)" >&2; exit 2; }

# One work item per line: suite <TAB> source path relative to the suite.
items="$out/items.txt"
: > "$items"
missing=""
grep -v '^#' "$SUITES" | while read -r name repo commit; do
    [ -n "$name" ] || continue
    if [ ! -d "$clones/$name" ]; then
        echo "$name" >> "$out/missing.txt.tmp"
        continue
    fi
    (cd "$clones/$name" && find . -name '*.cu' -type f | sed 's|^\./||' | LC_ALL=C sort) |
        sed "s|^|$name	|" >> "$items"
done
[ -f "$out/missing.txt.tmp" ] && missing=$(tr "\n" " " < "$out/missing.txt.tmp") && rm -f "$out/missing.txt.tmp"

export clones
# Compiles and checks one source for every arch; writes $out/<suite>/<path>.<arch>.result whose
# first line is "accepted", "rejected RULE-ID ...", or "nocompile".
tr '\t' ' ' < "$items" | xargs -P "$JOBS" -L 1 sh "$here/one.sh" ||
    echo "build.sh: the worker failed on some modules; they are missing from the counts" >&2

sh "$here/summary.sh" "$out" "$items"
[ -z "$missing" ] || echo "suites not found under $clones: $missing"
