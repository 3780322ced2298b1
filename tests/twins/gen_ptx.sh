#!/bin/sh
# Regenerates the committed PTX of every twin kernel (tests/twins/README.md) from its CUDA
# source: nvcc -ptx -arch=sm_80 -O3 -lineinfo, as tests/kernels/gen_ptx.sh does. The hand-written
# .sass halves are not generated.
# Usage: tests/twins/gen_ptx.sh [name ...]      (default: every twin folder)
# Needs nvcc (NVCC=/path/to/nvcc overrides; default /usr/local/cuda/bin/nvcc).
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
if [ $# -eq 0 ]; then
    set -- $(for d in */; do [ -f "$d${d%/}.cu" ] && echo "${d%/}"; done)
fi
for name in "$@"; do
    (cd "$name" && "$NVCC" -ptx -arch=sm_80 -O3 -lineinfo "$name.cu" -o "$name.sm_80.ptx")
    "$here/../../tools/ptx_relative_paths.sh" "$name/$name.sm_80.ptx"
    echo "gen_ptx: $name"
done
