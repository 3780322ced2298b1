#!/bin/sh
# Regenerates the committed PTX of every end-to-end test kernel from its CUDA source, for sm_80
# and sm_90, and derives each <name>.sm_90.json launch file from <name>.json (only the module
# line differs). A kernel folder may hold <name>.nvccflags with extra nvcc options (one line), and
# <name>.archs with the targets to build when not both (sm_90-only kernels: "sm_90", their launch
# file is <name>.sm_90.json, written by hand; sm_80-only kernels: "sm_80", no sm_90 launch file).
# Usage: tests/kernels/gen_ptx.sh [kernel-name ...]      (default: every kernel folder)
# Needs nvcc (NVCC=/path/to/nvcc overrides; default /usr/local/cuda/bin/nvcc).
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
if [ $# -eq 0 ]; then
    set -- $(for d in */; do [ -f "$d${d%/}.cu" ] && echo "${d%/}"; done)
fi
for name in "$@"; do
    (
        cd "$name"
        extra=""
        [ -f "$name.nvccflags" ] && extra=$(cat "$name.nvccflags")
        archs="sm_80 sm_90"
        [ -f "$name.archs" ] && archs=$(cat "$name.archs")
        for arch in $archs; do
            # shellcheck disable=SC2086
            "$NVCC" -ptx -arch=$arch -O3 -lineinfo $extra "$name.cu" -o "$name.$arch.ptx"
            "$here/../../tools/ptx_relative_paths.sh" "$name.$arch.ptx"
        done
        if [ -f "$name.json" ] && [ "${archs#*sm_90}" != "$archs" ]; then
            sed -e 's/\.sm_80\.ptx"/.sm_90.ptx"/' -e 's/\.out\.bin"/.sm_90.out.bin"/' "$name.json" > "$name.sm_90.json"
        fi
        echo "gen_ptx: $name"
    )
done
