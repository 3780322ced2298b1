#!/bin/sh
# The stages of `make test` and the one line that sums them up (README, "Tests").
#
#   sh tools/test-report.sh stage DIR NAME COMMAND...
#       Runs COMMAND and writes DIR/NAME.stage: its exit status, wall-clock seconds and CPU
#       seconds (user + system of COMMAND and of every process it waited for). Exits with
#       COMMAND's status. A stage that runs ctest has it write its JUnit file to DIR/NAME.xml.
#   sh tools/test-report.sh summary DIR NAME=LABEL...
#       Prints, for the stages named in order:
#         make test: T tests run, P passed, F failed, S skipped | LABEL W s (CPU C s), ...
#       T counts every test ctest started in DIR/*.xml (the same test in two builds counts twice);
#       skipped are those that reported a skip (ctest's SKIP_RETURN_CODE, e.g. ptxas absent) or are
#       disabled; failed includes tests that could not start. A stage is followed by FAILED when
#       its command failed, by "skipped" when it succeeded without running ctest (fuzzing without
#       clang), and is "not run" when it has no DIR/NAME.stage (an earlier stage failed).
#       Exit status 0.
set -u

# Seconds in the "XmY.Zs" notation of the `times` builtin.
seconds_of() {
    echo "$1" | awk '{ split($1, t, "m"); sub(/s$/, "", t[2]); printf "%.0f", t[1] * 60 + t[2] }'
}

stage() {
    dir=$1 name=$2
    shift 2
    mkdir -p "$dir" || exit 2
    rm -f "$dir/$name.stage" "$dir/$name.xml"
    start=$(date +%s)
    "$@"
    status=$?
    end=$(date +%s)
    # Second line of `times`: user and system time of the children this shell waited for. In a
    # pipe or $(...) the builtin would run in a subshell, which has no children yet: use a file.
    times > "$dir/$name.times"
    cpu=$(sed -n 2p "$dir/$name.times")
    rm -f "$dir/$name.times"
    user=$(seconds_of "${cpu% *}")
    system=$(seconds_of "${cpu#* }")
    printf '%s %s %s\n' "$status" $((end - start)) $((user + system)) > "$dir/$name.stage"
    exit "$status"
}

# "total passed failed skipped" of the ctest JUnit files named. ctest writes one <testcase> per
# line with status="run" (passed), "fail", "disabled" or "notrun"; a notrun that is a skip has a
# <skipped message="SKIP_..."/> element, any other notrun failed to start. Test output inside is
# escaped, so no line of it starts with a literal "<".
count_tests() {
    awk '
        /^[ \t]*<testcase / { status = $0; sub(/.* status="/, "", status); sub(/".*/, "", status)
                               total++; count[status]++ }
        /^[ \t]*<skipped message="SKIP_/ { skips++ }
        END { printf "%d %d %d %d\n", total, count["run"],
                     count["fail"] + count["notrun"] - skips, count["disabled"] + skips }' "$@"
}

summary() {
    dir=$1
    shift
    xml=""
    for spec; do
        if [ -f "$dir/${spec%%=*}.xml" ]; then xml="$xml $dir/${spec%%=*}.xml"; fi
    done
    # $xml is split on blanks: DIR is the Makefile's build/test-report, without any.
    read -r total passed failed skipped <<EOF
$(if [ -n "$xml" ]; then count_tests $xml; else echo 0 0 0 0; fi)
EOF
    stages=""
    for spec; do
        name=${spec%%=*} label=${spec#*=}
        if [ ! -f "$dir/$name.stage" ]; then
            text="$label not run"
        else
            read -r status wall cpu < "$dir/$name.stage"
            text="$label $wall s (CPU $cpu s)"
            if [ "$status" -ne 0 ]; then
                text="$text FAILED"
            elif [ ! -f "$dir/$name.xml" ]; then
                text="$text skipped"
            fi
        fi
        stages="$stages${stages:+, }$text"
    done
    echo "make test: $total tests run, $passed passed, $failed failed, $skipped skipped | $stages"
}

case ${1:-} in
stage)
    shift
    [ $# -ge 3 ] || { echo "usage: test-report.sh stage DIR NAME COMMAND..." >&2; exit 2; }
    stage "$@"
    ;;
summary)
    shift
    [ $# -ge 1 ] || { echo "usage: test-report.sh summary DIR NAME=LABEL..." >&2; exit 2; }
    summary "$@"
    ;;
*)
    echo "usage: test-report.sh stage DIR NAME COMMAND... | summary DIR NAME=LABEL..." >&2
    exit 2
    ;;
esac
