#!/bin/bash
# Checks that a speed change kept every result: runs each launch file with two gpumemsim builds,
# functional mode and timing model (GTO and LRR), and compares their --json statistics and
# stdout reports byte for byte. Prints one line per difference and a summary; exit status 1 when
# anything differs.
#
#   bench/same_outputs.sh -a OLD/gpumemsim -b NEW/gpumemsim [-j JOBS] [LAUNCH.json ...]
#
# Without launch files it takes every launch file under the test and benchmark directories
# whose kernels run quickly (tests/kernels, tests/twins, tests/sass, tests/hints, tests/bulk,
# tests/images, tests/mbarrier, tests/timing_ctrl, tests/visa, bench/kernels/small). A file one
# build rejects must be rejected the same way by the other (same exit status and report).
set -u
old= new= jobs=2
while getopts "a:b:j:" o; do
    case $o in
    a) old=$OPTARG ;;
    b) new=$OPTARG ;;
    j) jobs=$OPTARG ;;
    *) echo "usage: $0 -a OLD -b NEW [-j JOBS] [LAUNCH.json ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ -n "$old" ] && [ -n "$new" ] || { echo "usage: $0 -a OLD -b NEW [-j JOBS] [LAUNCH.json ...]" >&2; exit 2; }
old=$(readlink -f "$old") new=$(readlink -f "$new")
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
    set -- $(cd "$root" && find tests/kernels tests/twins tests/sass tests/hints tests/bulk \
        tests/images tests/mbarrier tests/timing_ctrl tests/visa bench/kernels/small \
        -name '*.json' 2>/dev/null | grep -v -e expected -e '/config' | sort)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
one() { # file mode-index
    local f=$1 m=$2 tag flags
    case $m in
    0) flags="--no-timing" ;;
    1) flags="--scheduler gto" ;;
    2) flags="--scheduler lrr" ;;
    esac
    tag=$(echo "$f.$m" | tr '/' '_')
    local d; d=$(dirname "$f")
    for side in a b; do
        local bin=$old; [ $side = b ] && bin=$new
        (cd "$root/$d" && timeout 300 "$bin" run "$(basename "$f")" $flags --quiet \
            --json "$work/$tag.$side.json" >"$work/$tag.$side.out" 2>&1; echo "rc=$?" >>"$work/$tag.$side.out")
    done
    if ! cmp -s "$work/$tag.a.out" "$work/$tag.b.out"; then echo "DIFF report: $f ($flags)"; fi
    if [ -e "$work/$tag.a.json" ] || [ -e "$work/$tag.b.json" ]; then
        cmp -s "$work/$tag.a.json" "$work/$tag.b.json" 2>/dev/null || echo "DIFF json: $f ($flags)"
    fi
}
export -f one
export old new root work
n=0
for f in "$@"; do for m in 0 1 2; do echo "$f $m"; done; done |
    xargs -P "$jobs" -L 1 bash -c 'one "$0" "$1"' >"$work/diffs"
cat "$work/diffs"
runs=$(( $# * 3 ))
bad=$(wc -l <"$work/diffs")
echo "same_outputs: $# launch files x 3 modes = $runs runs, $bad differences"
[ "$bad" -eq 0 ]
