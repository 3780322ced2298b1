#!/bin/bash
# Speed-up from simulating the SMs on several host threads (--threads; docs/architecture.md,
# "SMs on several host threads"; docs/timing.md, "Host threads"), functional mode (or with -T the
# timing model), so that users with more cores can see theirs.
#
# Usage: bench/scaling.sh [-T] [-r ROUNDS] [-g GPUMEMSIM] [-t "1 2 4 ..."] [LAUNCH.json ...]
#   -T            the timing model (GTO) instead of the functional mode
#   -r ROUNDS     rounds per launch file, each running every thread count once (default 3)
#   -g GPUMEMSIM  the binary (default build/release/gpumemsim; `make bench` builds it)
#   -t COUNTS     thread counts (default 1, 2, 4, ... up to the host's CPUs)
#   LAUNCH.json   default: the bench/kernels files with at least 2 CTAs per SM on their preset
# For each file and thread count it prints the seconds inside the launches (the report's "host
# time in kernels"), the wall seconds of the whole process (the best of the rounds each), both
# speed-ups over the first thread count (of those bests), and "paired": the median over the rounds
# of the speed-up within each round, whose runs of the thread counts follow one another (on a
# machine whose speed drifts, the fairer figure).
# Before the table it prints each CPU's one-thread speed, the speed-up bound they allow and the
# CPUs' cache-line round trip; each one-thread run is pinned to the CPU that is fastest just
# before it (bench_core_latency --fastest), so the speed-ups are over the better core.
# The results themselves do not depend on the thread count (tests/threads_same.sh checks it).
# Exit status: 0, 1 when a run failed, 2 bad usage.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
cd "$(dirname "$0")/.."
rounds=3
sim=build/release/gpumemsim
counts=
mode=--no-timing
while getopts "Tr:g:t:" opt; do
    case $opt in
    T) mode="--scheduler gto" ;;
    r) rounds=$OPTARG ;;
    g) sim=$OPTARG ;;
    t) counts=$OPTARG ;;
    *) echo "usage: $0 [-T] [-r ROUNDS] [-g GPUMEMSIM] [-t COUNTS] [LAUNCH.json ...]" >&2; exit 2 ;;
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
latency=$(dirname "$sim")/bench_core_latency
# Each CPU's speed on one thread (bench_core_latency --speeds: a fixed multiply chain pinned to
# each), relative to the fastest: a virtual machine's CPUs need not be equal (on the development
# machine of session 21 one of the two ran at 0.35 to 1.0 of the other, from minute to minute:
# bench/README.md, "Session 21"), so the figures hold for the moment they are taken,
# and a run on N threads is then bounded by the sum of the N fastest speeds, not by N.
cpu_speeds() {
    local probes
    [ -x "$latency" ] || { echo "CPU speeds: not measured ($latency is not built)"; return; }
    probes=$("$latency" --speeds) && [ -n "$probes" ] ||
        { echo "CPU speeds: not measured (the pinned probes failed)"; return; }
    # "cpuN SPEED" a line, SPEED relative to the fastest CPU's probe
    local speeds
    speeds=$(echo "$probes" | awk 'NR == 1 || $2 < min { min = $2 } { name[NR] = $1; ms[NR] = $2 }
                 END { for (i = 1; i <= NR; i++) printf "%s %.2f\n", name[i], min / ms[i] }')
    echo "CPU speeds on one thread, relative to the fastest (a multiply chain pinned to each):" \
        $speeds
    local t bound
    for t in $counts; do
        bound=$(echo "$speeds" | awk '{print $2}' | sort -gr | head -"$t" |
                awk '{s += $1} END {printf "%.2f", s}')
        echo "  at most ${bound}x on $t thread(s) over one thread on the fastest CPU"
    done
}
cpu_speeds
# The CPUs' cache-line round trip (bench_core_latency, built beside the binary): the threads
# hand the SMs' logs and parked loads to one another, so a latency across dies (hundreds of
# nanoseconds) costs the memory-bound files more than a second core gives them.
if [ -x "$latency" ]; then "$latency"; else echo "core latency: not measured ($latency is not built)"; fi
echo "mode: $mode"
printf '%-24s %7s %10s %10s %9s %9s %9s\n' "launch file" threads "kernels s" "wall s" "speed-up" \
    "wall x" "paired"
status=0
# One run of file $2 (in directory $1) on $3 threads: "KERNEL_SECONDS WALL_SECONDS", or nothing.
# A one-thread run is pinned to the CPU that is fastest just before it (bench_core_latency
# --fastest; taskset), so that the speed-ups are over one thread on the better core, as the
# bound above is, and not over a core that the host lent to someone else at the time.
run_once() {
    local wall k pin=()
    if [ "$3" = 1 ] && [ -x "$latency" ] && command -v taskset >/dev/null; then
        local cpu
        cpu=$("$latency" --fastest 2>/dev/null) && pin=(taskset -c "$cpu")
    fi
    # shellcheck disable=SC2086
    { wall=$( { time (cd "$1" && "${pin[@]}" "$sim" run "$2" $mode --threads "$3" \
                  >/tmp/scaling.$$ 2>&1); } 2>&1 ); } || return 1
    k=$(sed -n 's/^host time in kernels: \([0-9.]*\) s.*/\1/p' /tmp/scaling.$$)
    [ -n "$k" ] && echo "$k $wall"
}
for f in "$@"; do
    d=$(dirname "$f") b=$(basename "$f")
    # Each round runs every thread count once, one after the other, so that the machine's speed
    # moves little between the runs it compares: the "paired" column is the median over rounds
    # of (one thread's kernel seconds / these threads') within the round; the others compare the
    # best of all rounds.
    declare -A best_k=() best_w=() ratios=()
    for ((r = 0; r < rounds; r++)); do
        first=
        for t in $counts; do
            out=$(run_once "$d" "$b" "$t") || { status=1; continue; }
            [ -n "$out" ] || { status=1; continue; }
            k=${out% *} wall=${out#* }
            [ -n "$first" ] || first=$k
            ratios[$t]="${ratios[$t]:-} $(awk "BEGIN{print $first / $k}")"
            if [ -z "${best_k[$t]:-}" ] || awk "BEGIN{exit !($k < ${best_k[$t]})}"; then best_k[$t]=$k; fi
            if [ -z "${best_w[$t]:-}" ] || awk "BEGIN{exit !($wall < ${best_w[$t]})}"; then best_w[$t]=$wall; fi
        done
    done
    base_k= base_w=
    for t in $counts; do
        [ -n "${best_k[$t]:-}" ] || { echo "scaling: $f failed with $t threads" >&2; continue; }
        [ -n "$base_k" ] || { base_k=${best_k[$t]} base_w=${best_w[$t]}; }
        paired=$(echo ${ratios[$t]} | tr ' ' '\n' | sort -g |
                 awk '{a[NR] = $1} END {print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
        printf '%-24s %7s %10s %10s %8.2fx %8.2fx %8.2fx\n' "$b" "$t" "${best_k[$t]}" "${best_w[$t]}" \
            "$(awk "BEGIN{print $base_k / ${best_k[$t]}}")" \
            "$(awk "BEGIN{print $base_w / ${best_w[$t]}}")" "$paired"
    done
    unset best_k best_w ratios
done
rm -f /tmp/scaling.$$
exit $status
