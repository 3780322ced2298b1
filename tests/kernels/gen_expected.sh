#!/bin/sh
# Builds the CPU reference programs under ref/ and runs each one in its kernel's folder, where it
# writes the generated input files and the expected-output files its launch file names
# (and expected_stdout.txt for kernels that print). Deterministic: rerunning changes nothing.
# Usage: tests/kernels/gen_expected.sh [kernel-name ...]   (default: every kernel with a reference)
# Needs a C compiler (CC, default cc) and jansson (pkg-config jansson).
set -eu
CC=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -ffp-contract=off -Wall -Wextra -Werror"
jansson=$(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)

# The reference program of a kernel folder: ref/<name>.c, except where two kernels share one.
ref_of() {
    case "$1" in
        transpose_naive|transpose_padded) echo transpose ;;
        *) echo "$1" ;;
    esac
}

if [ $# -eq 0 ]; then
    set -- $(for d in "$here"/*/; do
        name=$(basename "$d")
        [ -f "$here/ref/$(ref_of "$name").c" ] && echo "$name"
    done)
fi
for name in "$@"; do
    ref=$(ref_of "$name")
    # shellcheck disable=SC2086
    $CC $flags -I"$here/ref" "$here/ref/ref_common.c" "$here/ref/$ref.c" $jansson -lm \
        -o "$work/$ref"
    launch="$name.json"
    [ -f "$here/$name/$launch" ] || launch="$name.sm_90.json" # sm_90-only kernels
    (cd "$here/$name" && "$work/$ref" "$launch")
    echo "gen_expected: $name"
done
