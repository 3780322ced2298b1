#!/bin/bash
# Speed-up from simulating the SMs on several host threads (--threads; docs/architecture.md,
# "SMs on several host threads"), functional mode, so that users with more cores can see theirs.
#
# Usage: bench/scaling.sh [-r ROUNDS] [-g GPUMEMSIM] [-t "1 2 4 ..."] [LAUNCH.json ...]
#   -r ROUNDS     runs per launch file and thread count; the best is reported (default 3)
#   -g GPUMEMSIM  the binary (default build/release/gpumemsim; `make bench` builds it)
#   -t COUNTS     thread counts (default 1, 2, 4, ... up to the host's CPUs)
#   LAUNCH.json   default: the bench/kernels files with at least 2 CTAs per SM on their preset
# For each file and thread count it prints the seconds inside the launches (the report's "host
# time in kernels"), the wall seconds of the whole process, and both speed-ups over one thread.
# The results themselves do not depend on the thread count (tests/threads_same.sh checks it).
# Exit status: 0, 1 when a run failed, 2 bad usage.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
cd "$(dirname "$0")/.."
rounds=3
sim=build/release/gpumemsim
counts=
while getopts "r:g:t:" opt; do
    case $opt in
    r) rounds=$OPTARG ;;
    g) sim=$OPTARG ;;
    t) counts=$OPTARG ;;
    *) echo "usage: $0 [-r ROUNDS] [-g GPUMEMSIM] [-t COUNTS] [LAUNCH.json ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ -z "$counts" ]; then
    cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
    counts=1
    t=2
    while [ "$t" -le "$cpus" ]; do counts="$counts $t"; t=$((t * 2)); done
fi
[ $# -gt 0 ] || set -- bench/kernels/int_chain.json bench/kernels/fp32_chain.json \
    bench/kernels/matmul_256.json bench/kernels/stencil_512.json \
    bench/kernels/transpose_1k.json bench/kernels/saxpy_1m.json \
    bench/kernels/matvec_cols_4k.json bench/kernels/aos_update_1m.json
[ -x "$sim" ] || { echo "scaling: $sim not built (make bench builds it)" >&2; exit 2; }
sim=$(readlink -f "$sim")
TIMEFORMAT=%R
printf '%-24s %7s %10s %10s %9s %9s\n' "launch file" threads "kernels s" "wall s" "speed-up" "wall x"
status=0
for f in "$@"; do
    d=$(dirname "$f") b=$(basename "$f")
    base_k= base_w=
    for t in $counts; do
        best_k= best_w=
        for ((r = 0; r < rounds; r++)); do
            { wall=$( { time (cd "$d" && "$sim" run "$b" --no-timing --threads "$t" \
                          >/tmp/scaling.$$ 2>&1); } 2>&1 ); } || { status=1; continue; }
            k=$(sed -n 's/^host time in kernels: \([0-9.]*\) s.*/\1/p' /tmp/scaling.$$)
            [ -n "$k" ] || { status=1; continue; }
            if [ -z "$best_k" ] || awk "BEGIN{exit !($k < $best_k)}"; then best_k=$k; fi
            if [ -z "$best_w" ] || awk "BEGIN{exit !($wall < $best_w)}"; then best_w=$wall; fi
        done
        [ -n "$best_k" ] || { echo "scaling: $f failed with $t threads" >&2; continue; }
        [ -n "$base_k" ] || { base_k=$best_k base_w=$best_w; }
        printf '%-24s %7s %10s %10s %8.2fx %8.2fx\n' "$b" "$t" "$best_k" "$best_w" \
            "$(awk "BEGIN{print $base_k / $best_k}")" "$(awk "BEGIN{print $base_w / $best_w}")"
    done
done
rm -f /tmp/scaling.$$
exit $status
