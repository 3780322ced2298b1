#!/bin/sh
# build.sh's worker: compile one .cu of one suite to PTX for each arch in $ARCHS and check it.
# Usage (from build.sh): one.sh SUITE PATH    Environment: NVCC GPUMEMSIM ARCHS out clones
set -u
suite=$1
path=$2
src="$clones/$suite/$path"
dir=$(dirname "$src")
# Header folders the suites keep beside their sources: the file's own folder and its parents up to
# the suite root, and the suite's shared helper folders.
here=$(cd "$(dirname "$0")" && pwd)
incs="-I$dir -I$dir/.. -I$dir/../.. -I$dir/../inc -I$here/shim -include corpus_compat.h"
for d in Common common include inc src/common common/include Samples/common/inc \
         Common/inc cuda/common src/cuda/common; do
    [ -d "$clones/$suite/$d" ] && incs="$incs -I$clones/$suite/$d"
done
# Last: the CUDA samples' helper headers (helper_cuda.h, ...), which Rodinia's sources expect from
# the CUDA SDK of their day.
[ -d "$clones/cuda-samples/Common" ] && incs="$incs -I$clones/cuda-samples/Common"
for arch in $ARCHS; do
    base="$out/$suite/$path.$arch"
    mkdir -p "$(dirname "$base")"
    stamp=""
    [ -f "$base.ptx" ] && stamp="$base.ptx"
    [ -f "$base.nocompile" ] && stamp="$base.nocompile"
    if [ -z "$stamp" ] || [ "$src" -nt "$stamp" ]; then
        rm -f "$base.ptx" "$base.nocompile" "$base.result"
        # shellcheck disable=SC2086
        if ! nice -n 19 "$NVCC" -ptx -arch="$arch" -O3 -std=c++17 -w $incs "$src" -o "$base.ptx" \
                > "$base.nvcc.log" 2>&1; then
            # Dynamic parallelism needs relocatable device code: compile those sources so, and
            # let gpumemsim refuse their device-runtime calls by name.
            if ! grep -q 'requires separate compilation mode' "$base.nvcc.log" ||
               ! nice -n 19 "$NVCC" -ptx -rdc=true -arch="$arch" -O3 -std=c++17 -w $incs "$src" \
                    -o "$base.ptx" > "$base.nvcc.log" 2>&1; then
                rm -f "$base.ptx"
                : > "$base.nocompile"
            fi
        fi
    fi
    if [ -f "$base.nocompile" ]; then
        echo nocompile > "$base.result"
        continue
    fi
    if [ -f "$base.result" ] && [ ! "$base.ptx" -nt "$base.result" ] && [ ! "$GPUMEMSIM" -nt "$base.result" ]; then
        continue
    fi
    if "$GPUMEMSIM" check "$base.ptx" > "$base.check.log" 2>&1; then
        echo accepted > "$base.result"
    else
        rules=$(grep -oE '\[[A-Z]+-[A-Z0-9]+-[0-9]{3}\]' "$base.check.log" | tr -d '[]' | sort -u | tr '\n' ' ')
        echo "rejected ${rules:-no-rule-id}" > "$base.result"
    fi
done
