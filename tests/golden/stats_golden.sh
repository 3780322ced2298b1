#!/bin/sh
# Golden-statistics check of one launch file: runs `gpumemsim run LAUNCH --no-timing --json`
# (the goldens pin the functional scheduler's counters; docs/timing.md), digests the
# statistics with stats_digest and compares the digest with GOLDEN (tests/golden/stats/...).
# A first RUN OPTION `--timing` runs it with the timing model instead, so that the digest pins
# cycles and stall figures too (it is not passed on).
# With GMS_UPDATE_GOLDEN=1 in the environment it writes GOLDEN instead (review the diff).
# Usage: stats_golden.sh GPUMEMSIM STATS_DIGEST LAUNCH.json GOLDEN [RUN OPTION...]
# Exit status: 0 pass (or golden written), 1 fail, 2 bad usage, 77 skipped: the launch file was
# refused for its "images" or "textures" section (LAUNCH-KEY-001), which the simulator does not
# read yet.
set -u
[ $# -ge 4 ] || { echo "usage: $0 GPUMEMSIM STATS_DIGEST LAUNCH.json GOLDEN [RUN OPTION...]" >&2; exit 2; }
sim=$1 digest=$2 launch=$3 golden=$4
shift 4
mode=--no-timing
if [ "${1:-}" = --timing ]; then
    mode=
    shift
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$sim" run "$launch" $mode "$@" --quiet --json "$tmp/stats.json" >"$tmp/out" 2>&1
status=$?
for section in images textures; do
    if [ "$status" -eq 2 ] && grep -F -q "unknown key \"$section\" [LAUNCH-KEY-001]" "$tmp/out"; then
        echo "SKIP: $launch: this simulator does not read the launch file's \"$section\" section yet"
        exit 77
    fi
done
[ "$status" -eq 0 ] ||
    { cat "$tmp/out" >&2; echo "FAIL: $launch: gpumemsim run failed" >&2; exit 1; }
"$digest" "$tmp/stats.json" >"$tmp/digest" || exit 1
if [ "${GMS_UPDATE_GOLDEN:-0}" = 1 ]; then
    mkdir -p "$(dirname "$golden")" && cp "$tmp/digest" "$golden" && echo "WROTE: $golden" && exit 0
    exit 1
fi
[ -f "$golden" ] || { echo "FAIL: no golden $golden (GMS_UPDATE_GOLDEN=1 writes it)" >&2; exit 1; }
if ! diff -u "$golden" "$tmp/digest" >&2; then
    echo "FAIL: $launch: statistics differ from $golden" >&2
    exit 1
fi
echo "PASS: $launch"
