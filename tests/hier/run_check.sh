#!/bin/sh
# Runs one kernel-level hierarchy test (tests/hier.cmake): `gpumemsim run --json` on a launch file
# with a chosen GPU preset (GPU "-": the launch file's own "gpu" or "config"), which must exit 0
# (so the launch file's expectations held), then hier_check on the JSON report with the remaining
# arguments (exact counters).
# Usage: run_check.sh GPUMEMSIM HIER_CHECK LAUNCH.json GPU [HIER_CHECK ARGUMENTS ...]
# Exit status: 0 pass, 1 fail, 2 bad usage.
set -u
if [ $# -lt 4 ]; then
    echo "usage: $0 GPUMEMSIM HIER_CHECK LAUNCH.json GPU [CHECK ...]" >&2
    exit 2
fi
sim=$1
checker=$2
launch=$3
gpu=$4
shift 4

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ "$gpu" = "-" ]; then
    "$sim" run --no-timing --quiet --json "$tmp/report.json" "$launch" >"$tmp/output" 2>&1
else
    "$sim" run --no-timing --quiet --gpu "$gpu" --json "$tmp/report.json" "$launch" >"$tmp/output" 2>&1
fi
status=$?
if [ "$status" -ne 0 ]; then
    echo "FAIL: $launch on $gpu: gpumemsim exited with $status" >&2
    cat "$tmp/output" >&2
    exit 1
fi
"$checker" "$tmp/report.json" "$@" || { echo "FAIL: $launch on $gpu" >&2; exit 1; }
echo "PASS: $launch on $gpu"
exit 0
