#!/bin/sh
# Runs one OpenCL C kernel's launch file (tests/visa/ocl/<name>/<name>.<device>.json) and
# requires a clean run with every expectation met. Usage: ocl_run.sh GPUMEMSIM LAUNCH.json
set -u
sim=$1 launch=$2
cd "$(dirname "$launch")" || exit 1
out=$("$sim" run "$(basename "$launch")" 2>&1)
status=$?
printf '%s\n' "$out"
[ "$status" -eq 0 ] || { echo "FAIL: $launch: gpumemsim run exited with $status"; exit 1; }
printf '%s\n' "$out" | grep -q 'mismatch' && { echo "FAIL: $launch: an expectation failed"; exit 1; }
echo "PASS: $launch"
