#!/bin/sh
# The driver-API test (docs/cuda-runtime.md, "Driver API"): builds tests/runtime/driver_ptx.cu
# with nvcc against CUDA's cuda.h, runs it with gpumemsim's libcuda.so.1 first on the library
# path, and checks its output and the JSON report's counters (driver_ptx_check.cmake); then
# the same program linked with the static runtime (nvcc's default), which needs only libcuda.
#
#   sh driver_ptx.sh SOURCE_DIR RUNTIME_DIR WORK_DIR CMAKE   exit 77 (skip) when nvcc is absent
set -eu
src=$1 runtime=$2 work=$3 cmake=$4
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
nvcc=${NVCC:-$nvcc}
if [ -z "$nvcc" ]; then
    echo "nvcc not found: the driver-API program cannot be built (skipped)"
    exit 77
fi
if [ ! -f "$runtime/libcuda.so.1" ]; then
    echo "driver_ptx: $runtime/libcuda.so.1 is missing" >&2
    exit 1
fi
mkdir -p "$work"
# -lcuda links against the toolkit's stub; at run time the loader finds ours first.
"$nvcc" -cudart shared -o "$work/driver_ptx" "$src/tests/runtime/driver_ptx.cu" -lcuda
# In a sanitizer build the libraries need the ASan runtime loaded before the (uninstrumented)
# program: preload the one they link.
asan=$(ldd "$runtime/libcuda.so.1" | awk '/libasan/ {print $3}')
out=$(LD_PRELOAD="$asan" LD_LIBRARY_PATH="$runtime" GPUMEMSIM_GPU=h100 GPUMEMSIM_QUIET=1 \
      GPUMEMSIM_JSON="$work/driver_ptx.json" "$work/driver_ptx")
echo "$out"
echo "$out" | grep -qx "driver_ptx: device gpumemsim h100, sm_90"
echo "$out" | grep -qx "driver_ptx: ok, 4096 elements, total 4079, max threads per block 1024"
"$cmake" -DJSON="$work/driver_ptx.json" -P "$src/tests/runtime/driver_ptx_check.cmake"
# The same program with nvcc's default static runtime: it needs only libcuda.so.1, ours.
"$nvcc" -o "$work/driver_ptx_static" "$src/tests/runtime/driver_ptx.cu" -lcuda
if readelf -d "$work/driver_ptx_static" 2>/dev/null | grep -q 'NEEDED.*libcudart'; then
    echo "driver_ptx: the static build needs libcudart" >&2
    exit 1
fi
static=$(LD_PRELOAD="$asan" LD_LIBRARY_PATH="$runtime" GPUMEMSIM_GPU=h100 GPUMEMSIM_QUIET=1 \
         "$work/driver_ptx_static")
[ "$static" = "$out" ]
