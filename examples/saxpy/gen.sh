#!/bin/sh
# Regenerates the saxpy example's files: saxpy.ptx from saxpy.cu (only when nvcc is available;
# NVCC overrides /usr/local/cuda/bin/nvcc) and y.expected.bin from the CPU reference ref.c.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
common="$here/../../tests/kernels/ref"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CC=${CC:-cc}
cd "$here"
if [ -x "$NVCC" ]; then
    "$NVCC" -ptx -arch=sm_90 -O3 -lineinfo saxpy.cu -o saxpy.ptx
    "$here/../../tools/ptx_relative_paths.sh" saxpy.ptx
else
    echo "gen.sh: $NVCC not found; keeping the committed saxpy.ptx" >&2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
jansson=$(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)
# shellcheck disable=SC2086
$CC -std=c11 -O2 -ffp-contract=off -Wall -Wextra -Werror -I"$common" "$common/ref_common.c" ref.c \
    $jansson -lm -o "$work/ref"
"$work/ref" saxpy.json
echo "gen.sh: wrote saxpy.ptx and y.expected.bin"
