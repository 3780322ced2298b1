#!/bin/sh
# The fat binary reader on relocatable device code (docs/cuda-runtime.md, "Fat binaries"):
# builds tests/runtime/rdc_program.cu with tests/fatbin/rdc_twice.cu (nvcc -rdc=true -cudart
# shared), runs it with gpumemsim's libcudart.so.13 first on the library path, and checks that
# it printed "rdc_program: ok".
#
#   sh rdc_program.sh SOURCE_DIR RUNTIME_DIR WORK_DIR      exit 77 (skip) when nvcc is absent
set -eu
src=$1 runtime=$2 work=$3
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
nvcc=${NVCC:-$nvcc}
if [ -z "$nvcc" ]; then
    echo "nvcc not found: the -rdc program cannot be built (skipped)"
    exit 77
fi
mkdir -p "$work"
"$nvcc" -rdc=true -cudart shared -o "$work/rdc_program" "$src/tests/runtime/rdc_program.cu" \
    "$src/tests/fatbin/rdc_twice.cu"
# In a sanitizer build the libraries need the ASan runtime loaded before the program.
asan=$(ldd "$runtime/libcudart.so.13" | awk '/libasan/ {print $3}')
out=$(LD_PRELOAD="$asan" LD_LIBRARY_PATH="$runtime" GPUMEMSIM_QUIET=1 "$work/rdc_program")
echo "$out"
[ "$out" = "rdc_program: ok" ]
