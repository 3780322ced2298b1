#!/bin/bash
# End-to-end speed: a whole `gpumemsim run` per CPU second — start-up, reading the module and the
# launch file, first-touch memory, the launches, the report and the outputs — as a user meets it.
# bench/run.sh measures inside the launches only; this measures the process from outside.
#
# Usage: bench/end_to_end.sh [-n RUNS] [-g GPUMEMSIM] [-x ARG]... [LAUNCH.json ...]
#   -n RUNS       runs per launch file (default 5); the median CPU time is reported
#   -g GPUMEMSIM  the binary to time (default build/release/gpumemsim; `make bench` builds it)
#   -x ARG        one more argument for `gpumemsim run`, e.g. -x --no-timing (repeatable)
#   LAUNCH.json   default: every bench/kernels/*.json
# For each launch file it prints the warp instructions of one run (from the JSON report), the
# median user+system seconds over the runs and the median wall seconds, and warp instructions per
# CPU second. CPU time is bash's own accounting of the finished child (TIMEFORMAT %U %S), so it
# needs no external tool. Exit status: 0, 1 when a run failed, 2 bad usage.
# `time` must be bash's keyword (TIMEFORMAT): under `sh` (dash) it would time nothing.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
cd "$(dirname "$0")/.."
runs=5
sim=build/release/gpumemsim
extra=()
while getopts "n:g:x:" opt; do
    case $opt in
    n) runs=$OPTARG ;;
    g) sim=$OPTARG ;;
    x) extra+=("$OPTARG") ;;
    *) echo "usage: $0 [-n RUNS] [-g GPUMEMSIM] [-x ARG]... [LAUNCH.json ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ -x "$sim" ] || { echo "end_to_end: $sim is missing; run \`make bench\`" >&2; exit 2; }
[ $# -gt 0 ] || set -- bench/kernels/*.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-34s %14s %9s %9s %14s\n' "launch file" "warp insts" "cpu s" "wall s" "M warp/cpu s"
status=0
for launch in "$@"; do
    : >"$tmp/cpu"
    : >"$tmp/wall"
    for i in $(seq "$runs"); do
        start=$(date +%s.%N)
        TIMEFORMAT='%U %S'
        { time "$sim" run "$launch" "${extra[@]}" --quiet --json "$tmp/stats.json" >/dev/null 2>"$tmp/err"; } 2>"$tmp/time" ||
            { cat "$tmp/err" >&2; echo "end_to_end: $launch failed" >&2; status=1; continue 2; }
        end=$(date +%s.%N)
        awk '{ print $1 + $2 }' "$tmp/time" >>"$tmp/cpu"
        awk -v a="$start" -v b="$end" 'BEGIN { print b - a }' >>"$tmp/wall"
    done
    # The totals come last in the report's sorted keys; take the largest count, the run's total.
    insts=$(grep -o '"warp_instructions": [0-9]*' "$tmp/stats.json" | awk '{ print $2 }' | sort -n | tail -1)
    cpu=$(median <"$tmp/cpu")
    wall=$(median <"$tmp/wall")
    rate=$(awk -v n="$insts" -v c="$cpu" 'BEGIN { print (c > 0) ? n / c / 1e6 : 0 }')
    printf '%-34s %14s %9.3f %9.3f %14.2f\n' "$launch" "$insts" "$cpu" "$wall" "$rate"
done
exit $status
