#!/bin/bash
# SMs on several host threads give the results of one thread (docs/architecture.md, "SMs on
# several host threads"; docs/timing.md, "Host threads"): runs each launch file with --threads 1
# and with --threads 3 (more threads than this machine's cores, and an odd split of the SMs) and
# compares the stdout report (values checked, printf output, faults) and the --json statistics
# byte for byte. Prints one line per difference; exit status 1 when anything differs.
#
#   tests/threads_same.sh [-f FLAGS] GPUMEMSIM DIR... (every launch file under the folders,
#                         repo-relative)
#
# FLAGS: the run's mode, "--no-timing" (the functional mode, the default) or the timing model's
# ("--scheduler gto", "--scheduler lrr"). GPUMEMSIM_HANDOVER_TURNS in the environment reaches
# the runs (0: the timing model hands every cycle over between its threads; docs/timing.md,
# "Host threads").
set -u
flags=--no-timing
if [ "${1:-}" = -f ]; then flags=$2; shift 2; fi
bin=$(readlink -f "$1")
shift
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=$(cd "$root" && find "$@" -name '*.json' 2>/dev/null | grep -v -e expected -e '/config' |
        sort)
n=0 bad=0
for f in $files; do
    d=$(dirname "$f") tag=$(echo "$f" | tr '/' '_')
    for t in 1 3; do
        (cd "$root/$d" && timeout 300 "$bin" run "$(basename "$f")" $flags --threads $t \
            --quiet --json "$work/$tag.$t.json" >"$work/$tag.$t.out" 2>&1
         echo "rc=$?" >>"$work/$tag.$t.out")
    done
    n=$((n + 1))
    if ! cmp -s "$work/$tag.1.out" "$work/$tag.3.out"; then
        echo "DIFF report: $f"; bad=$((bad + 1))
        diff "$work/$tag.1.out" "$work/$tag.3.out" | head -5
    elif [ -e "$work/$tag.1.json" ] || [ -e "$work/$tag.3.json" ]; then
        if ! cmp -s "$work/$tag.1.json" "$work/$tag.3.json"; then
            echo "DIFF json: $f"; bad=$((bad + 1))
        fi
    fi
done
echo "threads_same: $n launch files ($flags), 1 and 3 host threads, $bad differences"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
