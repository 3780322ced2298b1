#!/bin/sh
# Runs `gpumemsim run` with stderr on a pseudo-terminal (util-linux `script`) and checks that the
# progress line appears there, and that --quiet suppresses it (tests/progress.cmake).
# Usage: progress_tty.sh GPUMEMSIM LAUNCH.json [RUN OPTION ...]
# Exit status: 0 pass, 1 fail, 77 skipped (no `script` or no pseudo-terminal).
set -u
sim=$1
launch=$2
shift 2
command -v script >/dev/null 2>&1 || { echo "SKIP: no script(1)"; exit 77; }
script -qec true /dev/null >/dev/null 2>&1 || { echo "SKIP: no pseudo-terminal"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# The whole session (stdout and stderr of the run) comes back on script's stdout.
script -qec "'$sim' run $* '$launch'" /dev/null >"$tmp/tty" 2>&1
script -qec "'$sim' run --quiet $* '$launch'" /dev/null >"$tmp/quiet" 2>&1
esc=$(printf '\033')
cr=$(printf '\r')
line="${cr}launch 1 of 1: 0 of 1 CTAs done, [0-9]+\.[0-9] M warp instructions \(limit 0\.3 M\), [0-9]+\.[0-9] M/s${esc}\[K"
grep -E -q -e "$line" "$tmp/tty" || { echo "FAIL: no progress line on the terminal"; cat -A "$tmp/tty"; exit 1; }
grep -q -e "${cr}${esc}\[Kgpumemsim: kernel _Z12spin_foreverPVKiPi faulted" "$tmp/tty" ||
    { echo "FAIL: the progress line is not erased before the fault"; cat -A "$tmp/tty"; exit 1; }
if grep -q -e "launch 1 of 1:" "$tmp/quiet"; then
    echo "FAIL: --quiet shows progress"; cat -A "$tmp/quiet"; exit 1
fi
grep -q -e "faulted" "$tmp/quiet" || { echo "FAIL: the quiet run did not run"; cat -A "$tmp/quiet"; exit 1; }
echo "PASS"
exit 0
