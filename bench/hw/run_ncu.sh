#!/bin/sh
# On a machine with an NVIDIA GPU, Nsight Compute and CuPy: measures the launches of each launch
# file with ncu (bench/hw/README.md) and writes DIR/<name>.csv per file, DIR/gpu.txt (the GPU,
# driver and ncu versions) and DIR/<name>.err when a file could not be measured.
#   bench/hw/run_ncu.sh DIR LAUNCH.json ...
# NCU_ARGS adds options to ncu (e.g. NCU_ARGS="--cache-control none" keeps the caches warm between
# the launches of a file, as gpumemsim does).
set -u
dir=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
# NCU_METRICS replaces the list of metrics.txt (comma-separated); one metric is one replay pass,
# so that a kernel's later passes do not run on caches its earlier passes warmed.
metrics=${NCU_METRICS:-$(tr -s ' \n' ',' <"$here/metrics.txt" | sed 's/^,//; s/,$//')}
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv;
  ncu --version | tail -1; } >"$dir/gpu.txt" 2>&1
for f in "$@"; do
    name=$(basename "$f" .json)
    # Default cache control (caches flushed before each kernel, as gpumemsim starts them empty)
    # and clock control (base clocks), one pass per metric group.
    # shellcheck disable=SC2086
    if ! ncu ${NCU_ARGS:-} --csv --metrics "$metrics" python3 "$here/launch_cupy.py" "$f" \
        >"$dir/$name.csv" 2>"$dir/$name.err"; then
        echo "run_ncu: $name failed (see $name.err)"
        continue
    fi
    [ -s "$dir/$name.err" ] || rm -f "$dir/$name.err"
    echo "run_ncu: $name"
done
