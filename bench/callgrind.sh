#!/bin/sh
# Host instructions inside the launches, counted by valgrind's callgrind: a figure that the
# machine's load does not change, for before/after comparisons when wall time is too noisy.
# Usage: bench/callgrind.sh [-b BENCH_RUN] [LAUNCH.json ...]
#   -b BENCH_RUN  the runner to measure (default build/release/bench_run; `make bench` builds it)
#   LAUNCH.json   default: every bench/kernels/small/*.json (the twin kernels at 1/16 of their
#                 benchmark sizes, so that each file takes seconds under valgrind)
# Prints per launch file the instructions executed inside exec_run (parsing, buffer set-up and
# outputs excluded) and leaves callgrind's output in /tmp/callgrind.<file>.out for
# `callgrind_annotate` (the functions that cost most). Exit status: 0, 1 when valgrind failed, 2
# bad usage.
set -u
cd "$(dirname "$0")/.."
runner=build/release/bench_run
while getopts "b:" opt; do
    case $opt in
    b) runner=$OPTARG ;;
    *) echo "usage: $0 [-b BENCH_RUN] [LAUNCH.json ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ -x "$runner" ] || { echo "callgrind: $runner is missing; run \`make bench\`" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "callgrind: valgrind is not installed" >&2; exit 2; }
[ $# -gt 0 ] || set -- bench/kernels/small/*.json
status=0
printf '%-34s %16s\n' "launch file" "Ir in launches"
for launch in "$@"; do
    out=/tmp/callgrind.$(basename "$launch" .json).out
    valgrind --tool=callgrind --toggle-collect=exec_run --callgrind-out-file="$out" \
        "$runner" -r 1 "$launch" >/dev/null 2>&1 || { echo "callgrind: $launch failed" >&2; status=1; continue; }
    printf '%-34s %16s\n' "$(basename "$launch")" \
        "$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { print $1; exit }')"
done
exit $status
