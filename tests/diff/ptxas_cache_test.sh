#!/bin/sh
# Test of the ptxas verdict cache of run_cache_diff.sh (see tests/diff.cmake). It runs the driver
# on a fake generator, a fake ptxas that counts its calls and a fake `gpumemsim check`, so it
# needs neither ptxas nor the real front-end, and checks how many times ptxas is asked:
#   1. an empty cache asks ptxas about every module;
#   2. a second run asks nothing and gives the same verdicts;
#   3. a case inserted before the others (their kernel names all change) is the only one asked;
#   4. a module assembled with another -arch is asked again;
#   5. two new modules that differ only in their kernel names are asked once;
#   6. cached verdicts are compared like fresh ones: a gpumemsim that disagrees fails the run;
#   7. another ptxas version asks about every module again;
#   8. the verdict of a ptxas killed from outside is not kept;
#   9. GMS_PTXAS naming no executable skips (status 77).
# Each count is checked twice: the fake ptxas's own tally and the driver's `ptxas calls:` line.
#
# usage: ptxas_cache_test.sh DRIVER WORKDIR   (WORKDIR is emptied first). Exit status 0 or 1.
set -u
if [ $# -ne 2 ]; then
    echo "usage: ptxas_cache_test.sh DRIVER WORKDIR" >&2
    exit 2
fi
driver=$1
work=$2
rm -rf "$work" && mkdir -p "$work/bin" || exit 1
work=$(cd "$work" && pwd)

# The fake generator: four modules (two accepted, two holding the instruction `bogus`, which both
# fakes reject), on two -arch values. FAKE_CASES=insert puts a new module first; FAKE_CASES=arch
# assembles case 2, unchanged, with -arch=sm_90 instead of sm_80; FAKE_CASES=twice adds two
# modules that differ in their kernel names only.
cat > "$work/bin/gen" <<'EOF'
#!/bin/sh
out=$1
mkdir -p "$out" || exit 1
n=0
: > "$out/cases.tsv"
module() { # ARCH TARGET INSTRUCTION
    id=$(printf '%05d' "$n")
    n=$((n + 1))
    printf '.version 9.0\n.target %s\n.address_size 64\n\n' "$2" > "$out/$id.ptx"
    printf '.visible .entry k%s()\n{\n\t%s\n\tret;\n}\n' "$id" "$3" >> "$out/$id.ptx"
    printf '%s\t%s\t%s\t9.0\t%s\n' "$id" "$1" "$2" "$3" >> "$out/cases.tsv"
}
if [ "${FAKE_CASES:-}" = insert ]; then module sm_75 sm_75 "membar.gl;"; fi
module sm_75 sm_70 "membar.cta;"
module sm_75 sm_75 "bogus;"
if [ "${FAKE_CASES:-}" = arch ]; then
    module sm_90 sm_80 "membar.sys;"
else
    module sm_80 sm_80 "membar.sys;"
fi
module sm_80 sm_80 "bogus 1;"
if [ "${FAKE_CASES:-}" = twice ]; then
    module sm_75 sm_75 "bogus 2;"
    module sm_75 sm_75 "bogus 2;"
fi
EOF
cat > "$work/bin/ptxas" <<'EOF'
#!/bin/sh
if [ "$1" = --version ]; then
    printf 'fake ptxas\nrelease %s\n' "${FAKE_PTXAS_VERSION:-1}"
    exit 0
fi
echo call >> "$FAKE_PTXAS_CALLS"
rc=0
for arg; do
    case $arg in
    *.ptx) if [ -n "${FAKE_PTXAS_KILLED:-}" ] && grep -q membar.sys "$arg"; then
               kill -KILL $$
           fi
           if grep -q bogus "$arg"; then
               echo "ptxas $arg, line 7; error   : Unknown instruction 'bogus'"
               rc=255
           fi ;;
    esac
done
exit $rc
EOF
cat > "$work/bin/gpumemsim" <<'EOF'
#!/bin/sh
shift # check
rc=0
for f; do
    if [ -z "${FAKE_GMS_ACCEPTS_ALL:-}" ] && grep -q bogus "$f"; then
        echo "$f:7:2: error: unknown instruction 'bogus' [PTX-FAKE-001]"
        rc=1
    fi
done
exit $rc
EOF
chmod +x "$work/bin/gen" "$work/bin/ptxas" "$work/bin/gpumemsim" || exit 1
: > "$work/known.txt"

failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

# run STEP STATUS CALLS [VAR=VALUE...]: runs the driver with the fakes and the given environment,
# then requires exit status STATUS and, unless CALLS is -, CALLS ptxas calls counted by both.
run() {
    step=$1 expected_status=$2 expected_calls=$3
    shift 3
    : > "$work/calls"
    env FAKE_PTXAS_CALLS="$work/calls" GMS_PTXAS="$work/bin/ptxas" "$@" \
        bash "$driver" "$work/bin/gen" "$work/bin/gpumemsim" "$work/diff" "$work/known.txt" \
        "$work/cache/ptxas-verdicts.tsv" > "$work/$step.log" 2>&1
    status=$?
    sed "s/^/  $step: /" "$work/$step.log"
    [ "$status" -eq "$expected_status" ] ||
        fail "$step: exit status $status, expected $expected_status"
    [ "$expected_calls" = - ] && return
    counted=$(wc -l < "$work/calls")
    reported=$(sed -n 's/^ptxas calls: \([0-9]*\) .*/\1/p' "$work/$step.log")
    [ "$counted" -eq "$expected_calls" ] ||
        fail "$step: ptxas was called $counted times, expected $expected_calls"
    [ "$reported" = "$expected_calls" ] ||
        fail "$step: the driver reported '$reported' ptxas calls, expected $expected_calls"
}

# Verdict columns of verdicts.tsv (case, agreement, the two verdicts), kernel names aside.
verdicts() {
    cut -f2,4,5 "$work/diff/verdicts.tsv"
}

# 1. Empty cache: sm_75 and sm_80 batches each take two calls (the batch, then the accepted rest).
run fresh 0 4
verdicts > "$work/fresh.verdicts"
[ "$(grep -c 'ptxas=REJECT' "$work/fresh.verdicts")" -eq 2 ] ||
    fail "fresh: expected two modules rejected by ptxas"

# 2. Nothing new: no call, the same verdicts.
run again 0 0
verdicts > "$work/again.verdicts"
cmp -s "$work/fresh.verdicts" "$work/again.verdicts" ||
    fail "again: the cached verdicts differ from the fresh ones"

# 3. A new first case renumbers the others, whose keys leave the kernel name out.
run insert 0 1 FAKE_CASES=insert

# 4. The same module text with another -arch is another key.
run arch 0 1 FAKE_CASES=arch

# 5. Two new modules with one key: ptxas is asked once (one module per call here, so asking both
# would take two) and its verdict, REJECT, serves both.
run twice 0 1 FAKE_CASES=twice GMS_DIFF_BATCH=1
[ "$(grep -c 'ptxas=REJECT' "$work/diff/verdicts.tsv")" -eq 4 ] ||
    fail "twice: expected four modules rejected by ptxas"

# 6. A cached REJECT still meets gpumemsim's verdict.
run disagree 1 0 FAKE_GMS_ACCEPTS_ALL=1
grep -q '^DIFFER' "$work/disagree.log" || fail "disagree: no DIFFER line"

# 7. Another ptxas version: every module is asked again.
run version 0 4 FAKE_PTXAS_VERSION=2

# 8. A ptxas killed from outside gives no verdict to keep: with membar.sys the fake kills itself
# (the sm_80 batch, then each of its two modules alone), and the next run asks about it again.
run killed 1 5 FAKE_PTXAS_VERSION=3 FAKE_PTXAS_KILLED=1
grep -q 'CRASH ptxas died with signal 9' "$work/killed.log" || fail "killed: no CRASH verdict"
run after-kill 0 1 FAKE_PTXAS_VERSION=3

# 9. No ptxas: skipped.
run absent 77 - GMS_PTXAS="$work/no-such-ptxas"

if [ "$failed" -ne 0 ]; then
    exit 1
fi
echo "ptxas verdict cache: all 9 checks passed"
