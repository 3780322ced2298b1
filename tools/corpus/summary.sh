#!/bin/sh
# build.sh's report from the results one.sh left under OUT: modules per suite (accepted, rejected,
# not compiled), the rejected modules grouped by rule id with each one's first diagnostic, and the
# sources nvcc could not compile on their own with its first error.
# Usage: summary.sh OUT ITEMS        Environment: ARCHS (default "sm_80 sm_90")
set -eu
out=$1
items=$2
archs=${ARCHS:-sm_80 sm_90}

# One line per module: suite path arch outcome.
modules() {
    tr '\t' ' ' < "$items" | while read -r suite path; do
        for arch in $archs; do
            r="$out/$suite/$path.$arch.result"
            [ -f "$r" ] && echo "$suite $path $arch $(head -n 1 "$r" | cut -d' ' -f1)"
        done
    done
}

printf '%-14s %7s %9s %9s %10s\n' suite modules accepted rejected nocompile
modules | awk '
    !($1 in n) { order[++ns] = $1 }
    { n[$1]++; c[$1 " " $4]++; all[$4]++; tot++ }
    END {
        for (i = 1; i <= ns; i++) {
            s = order[i]
            printf "%-14s %7d %9d %9d %10d\n", s, n[s], c[s " accepted"], c[s " rejected"], c[s " nocompile"]
        }
        printf "%-14s %7d %9d %9d %10d\n", "total", tot, all["accepted"], all["rejected"], all["nocompile"]
    }'

echo
echo "rejected modules by rule id (module: first diagnostic):"
modules | while read -r suite path arch outcome; do
    [ "$outcome" = rejected ] || continue
    base="$out/$suite/$path.$arch"
    first=$(grep -m 1 'error' "$base.check.log" | sed "s|^$out/||")
    for rule in $(head -n 1 "$base.result" | cut -d' ' -f2-); do
        echo "$rule $suite/$path.$arch: $first"
    done
done | LC_ALL=C sort | awk '{ if ($1 != last) { print "  " $1; last = $1 } $1 = ""; print "   " $0 }'

echo
echo "not compiled by nvcc on their own (source: first error):"
modules | while read -r suite path arch outcome; do
    [ "$outcome" = nocompile ] && [ "$arch" = "${archs%% *}" ] || continue
    first=$(grep -m 1 -i 'error' "$out/$suite/$path.$arch.nvcc.log" | sed "s|^.*/$suite/|$suite/|")
    echo "  $suite/$path: $first"
done
