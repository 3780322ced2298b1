#!/bin/sh
# Builds the CPU reference programs of the twin kernels (ref/<name>.c, with the launch-file reader
# of tests/kernels/ref/ref_common.c) and runs each in its folder on <name>.ptx.json, where it
# writes the expected-output files that both launch files name. Deterministic.
# Usage: tests/twins/gen_expected.sh [name ...]   (default: every twin)
# Needs a C compiler (CC, default cc) and jansson (pkg-config jansson).
set -eu
CC=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
common="$here/../kernels/ref"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -ffp-contract=off -Wall -Wextra -Werror"
jansson=$(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)
if [ $# -eq 0 ]; then
    set -- $(for f in "$here"/ref/*.c; do basename "$f" .c; done)
fi
for name in "$@"; do
    # shellcheck disable=SC2086
    $CC $flags -I"$common" "$common/ref_common.c" "$here/ref/$name.c" $jansson -lm -o "$work/$name"
    (cd "$here/$name" && "$work/$name" "$name.ptx.json")
    echo "gen_expected: $name"
done
