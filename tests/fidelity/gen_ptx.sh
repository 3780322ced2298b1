#!/bin/sh
# Regenerates the committed PTX of the timing-validation kernels (tests/fidelity/<name>/<name>.cu)
# for the targets listed in <name>/<name>.archs. nvcc 13 emits sm_75 and newer only, so the
# sm_70 (v100) and sm_52 (gtx980) files are derived from the sm_80 one by rewriting its .target
# line: the kernels use only instructions that both older targets have, and `gpumemsim check`
# accepts the result. Deterministic: rerunning on an unchanged tree changes nothing.
# Usage: tests/fidelity/gen_ptx.sh [name ...]   (default: every kernel folder)
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
        "$NVCC" -ptx -arch=sm_80 -O3 -lineinfo "$name.cu" -o "$name.sm_80.ptx"
        for arch in $(cat "$name.archs"); do
            case $arch in
            sm_80) ;;
            sm_70 | sm_52)
                sed "s/^\.target sm_80\$/.target $arch/" "$name.sm_80.ptx" > "$name.$arch.ptx" ;;
            *)
                "$NVCC" -ptx -arch="$arch" -O3 -lineinfo "$name.cu" -o "$name.$arch.ptx" ;;
            esac
        done
        "$here/../../tools/ptx_relative_paths.sh" "$name".*.ptx
        echo "gen_ptx: $name"
    )
done
