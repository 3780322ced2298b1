#!/bin/sh
# Regenerates the committed fat binaries of the fat binary reader's unit test
# (tests/fatbin/test_fatbin.c) from scale.cu.
# `nvcc -fatbin` writes exactly the container that an executable's .nv_fatbin section holds and
# that __cudaRegisterFatBinary's wrapper points at. Needs nvcc (CUDA 13); the tests do not.
#
#   sh tests/fatbin/gen_fatbins.sh
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
# nvcc 13's default: a cubin for sm_75 and compute_75 PTX compressed with zstd
"$NVCC" -fatbin scale.cu -o zstd_sm75.fatbin
# the same, uncompressed
"$NVCC" -fatbin -compress-mode=none scale.cu -o plain_sm75.fatbin
# the same, the PTX compressed with LZ4 (CUDA 12's default codec)
"$NVCC" -fatbin -compress-mode=speed scale.cu -o lz4_sm75.fatbin
# several architectures: PTX for compute_80, the arch-specific compute_90a and compute_100
"$NVCC" -fatbin -gencode arch=compute_80,code=[sm_80,compute_80] \
    -gencode arch=compute_90a,code=compute_90a -gencode arch=compute_100,code=compute_100 \
    scale.cu -o multi.fatbin
# cubins only (compressed), no PTX: the reader's RT-FATBIN-009
"$NVCC" -fatbin -compress-mode=size -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_90,code=sm_90 scale.cu -o noptx.fatbin
