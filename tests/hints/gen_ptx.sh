#!/bin/sh
# Regenerates the committed PTX of the cache-hint demonstration kernels from their CUDA sources.
# Each <name>.cu is compiled for the architecture its hints need (sm_80 by default; the table
# below lists the others). Hand-written PTX (hand_written.ptx) is not regenerated.
# Usage: tests/hints/gen_ptx.sh        Needs nvcc (NVCC=/path/to/nvcc overrides).
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")"
for src in *.cu; do
    name=${src%.cu}
    case $name in
    l2_evict_sm100) arch=sm_100 ;;  # .L2::evict_* on ld/st needs sm_100
    *) arch=sm_80 ;;
    esac
    "$NVCC" -ptx -arch=$arch -O3 -lineinfo "$src" -o "$name.ptx"
    ../../tools/ptx_relative_paths.sh "$name.ptx"
    echo "gen_ptx: $name ($arch)"
done
