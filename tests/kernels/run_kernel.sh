#!/bin/sh
# Runs one end-to-end kernel test: `gpumemsim run LAUNCH.json`, then checks
#   - the exit status (EXPECTED_EXIT, default 0);
#   - when EXPECTED_STDOUT names a file: its lines appear, in order and contiguous, in the
#     simulator's standard output (the device printf section; any report around it is ignored);
#   - every REGEX (extended, case-insensitive) matches somewhere in stdout or stderr.
# Usage: run_kernel.sh GPUMEMSIM LAUNCH.json [EXPECTED_STDOUT|""] [EXPECTED_EXIT] [REGEX ...]
# $GMS_RUN_OPTIONS (blank-separated, may be unset) are added to the run's options: the kernel.*
# tests run with --no-timing, the kernel_timing.* tests with the timing model (tests/kernels.cmake).
# Exit status: 0 pass, 1 fail, 2 bad usage, 77 skipped: the simulator refused the launch file for
# its "images" or "textures" section (LAUNCH-KEY-001), which it does not read yet; such tests
# start running by themselves once it does.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 GPUMEMSIM LAUNCH.json [EXPECTED_STDOUT] [EXPECTED_EXIT] [REGEX ...]" >&2
    exit 2
fi
sim=$1
launch=$2
expected_stdout=${3:-}
expected_exit=${4:-0}
[ $# -ge 4 ] && shift 4 || shift $#

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# shellcheck disable=SC2086 # the options split at blanks
"$sim" run "$launch" ${GMS_RUN_OPTIONS:-} >"$tmp/stdout" 2>"$tmp/stderr"
status=$?
for section in images textures; do
    if [ "$status" -eq 2 ] && grep -F -q "unknown key \"$section\" [LAUNCH-KEY-001]" "$tmp/stderr"; then
        echo "SKIP: $launch: this simulator does not read the launch file's \"$section\" section yet"
        exit 77
    fi
done

fail() {
    echo "FAIL: $launch: $1" >&2
    echo "---- stdout ----" >&2
    cat "$tmp/stdout" >&2
    echo "---- stderr ----" >&2
    cat "$tmp/stderr" >&2
    exit 1
}

[ "$status" -eq "$expected_exit" ] || fail "exit status $status, expected $expected_exit"

if [ -n "$expected_stdout" ]; then
    [ -f "$expected_stdout" ] || fail "missing $expected_stdout"
    # Find the expected lines as one contiguous run of output lines.
    awk 'NR == FNR { want[++n] = $0; next }
         { got[++m] = $0 }
         END {
             for (s = 0; s + n <= m; ++s) {
                 for (k = 1; k <= n && got[s + k] == want[k]; ++k) {}
                 if (k > n) exit 0
             }
             exit 1
         }' "$expected_stdout" "$tmp/stdout" ||
        fail "printf output differs from $expected_stdout"
fi

for pattern in "$@"; do
    cat "$tmp/stdout" "$tmp/stderr" | grep -E -i -q -e "$pattern" ||
        fail "no output line matches /$pattern/"
done
echo "PASS: $launch"
exit 0
