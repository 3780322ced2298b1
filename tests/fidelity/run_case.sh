#!/bin/sh
# Runs one launch file of the timing-validation cases and checks its figures: `gpumemsim run`
# with the JSON report (the launch file's expectations must hold: the kernels computed the right
# values), then fidelity_figure for every case of CASES.txt that names the launch file, which
# prints "model vs published" rows and fails when a figure is outside its tolerance.
# Usage: run_case.sh GPUMEMSIM FIDELITY_FIGURE CASES.txt LAUNCH [RUN OPTION...]
#   LAUNCH is the launch file's path as CASES.txt writes it, relative to the folder of CASES.txt.
# Exit status: 0 pass, 1 a figure outside its tolerance or the run failed, 2 bad usage or input.
set -u
if [ $# -lt 4 ]; then
    echo "usage: $0 GPUMEMSIM FIDELITY_FIGURE CASES.txt LAUNCH [RUN OPTION...]" >&2
    exit 2
fi
sim=$1 figure=$2 cases=$3 launch=$4
shift 4
root=$(cd "$(dirname "$cases")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
dir=$(dirname "$root/$launch")
(cd "$dir" && "$sim" run "$(basename "$launch")" --quiet --json "$tmp/report.json" "$@") \
    >"$tmp/out" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
    cat "$tmp/out"
    echo "FAIL: gpumemsim run $launch exited with $status"
    exit 1
fi
"$figure" "$tmp/report.json" "$cases" "$launch"
