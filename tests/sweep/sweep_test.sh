#!/bin/sh
# The end-to-end tests of `gpumemsim sweep` (tests/sweep.cmake; docs/sweeps.md). Run in
# tests/sweep/, so that the table's launch_file column holds the paths as grid.json gives them:
#
#   sh sweep_test.sh CASE GPUMEMSIM WORKDIR
#
# Every way of running grid.json (the local pool, GNU parallel, a Slurm job array) must give
# byte-identical tables, equal to expected/grid.csv and expected/grid.jsonl. Exit 0 pass, 1 fail,
# 77 skipped (a tool the case needs is missing; the reason is printed).
# To regenerate the expected files after a deliberate change of the counters:
#   sh sweep_test.sh local GPUMEMSIM /tmp/x && cp /tmp/x/local/table.csv expected/grid.csv && ...
set -u
case_name=$1
gpumemsim=$2
work=$3

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

skip() {
    echo "SKIP: $*" >&2
    exit 77
}

# same FILE EXPECTED: the two files must be byte-identical.
same() {
    cmp -s "$1" "$2" || { diff -u "$2" "$1" | head -n 40 >&2; fail "$1 differs from $2"; }
}

# expect_text WHAT ACTUAL EXPECTED
expect_text() {
    [ "$2" = "$3" ] || fail "$1: got
$2
expected
$3"
}

check_grid_table() {
    same "$1/table.csv" expected/grid.csv
    same "$1/table.jsonl" expected/grid.jsonl
    for run in "$1"/runs/*/; do
        [ "$(cat "$run/status" 2>/dev/null)" = 0 ] || fail "$run: status is not 0"
    done
}

case_local() {
    dir=$work/local
    out=$("$gpumemsim" sweep grid.json --dir "$dir" -j 2) || fail "sweep exited with $?"
    abs=$(cd "$dir" && pwd -P)
    expect_text stdout "$out" "16 runs, 24 rows: $abs/table.csv, $abs/table.jsonl"
    check_grid_table "$dir"
    [ -f "$dir/runs/0003/config.json" ] || fail "no configuration file for run 0003"
    expect_text config "$(cat "$dir/runs/0003/config.json")" '{
  "base": "h100",
  "l2": {
    "persisting_max_bytes": 0,
    "size_bytes": 327680
  }
}'
    # The folder holds a sweep now: a second sweep into it is refused, the first kept.
    err=$("$gpumemsim" sweep grid.json --dir "$dir" 2>&1 >/dev/null)
    [ $? = 2 ] || fail "a sweep into a used folder must exit 2"
    expect_text stderr "$err" "$dir: error: the sweep folder must be new or empty (it holds an earlier sweep: merge it with --merge, or remove it) [CLI-SWEEP-010]"
    check_grid_table "$dir"
}

case_parallel() {
    command -v parallel >/dev/null 2>&1 ||
        skip "GNU parallel is not installed (Debian: apt-get install parallel)"
    parallel --version 2>/dev/null | grep -q "GNU parallel" ||
        skip "the parallel command is not GNU parallel (Debian: apt-get install parallel)"
    dir=$work/parallel
    out=$("$gpumemsim" sweep grid.json --dir "$dir" --emit parallel) || fail "emit exited with $?"
    abs=$(cd "$dir" && pwd -P)
    expect_text "first line" "$(echo "$out" | head -n 1)" "wrote $abs/jobs.txt: 16 jobs; run them with"
    [ "$(wc -l <"$dir/jobs.txt")" = 16 ] || fail "jobs.txt does not have 16 lines"
    [ ! -e "$dir/table.csv" ] || fail "--emit must not run anything"
    expect_text "last job" "$(tail -n 1 "$dir/jobs.txt")" "'$(readlink -f "$gpumemsim")' sweep --job '$abs' 15"
    parallel --will-cite --jobs 2 --halt never -a "$dir/jobs.txt" || fail "parallel exited with $?"
    out=$("$gpumemsim" sweep --merge "$dir") || fail "merge exited with $?"
    expect_text stdout "$out" "16 runs, 24 rows: $dir/table.csv, $dir/table.jsonl"
    check_grid_table "$dir"
}

case_slurm() {
    here=$(pwd)
    command -v bash >/dev/null 2>&1 || skip "bash is not installed (slurm_cluster.sh needs it)"
    conf=$(bash slurm_cluster.sh start "$work/cluster")
    status=$?
    [ $status = 77 ] && exit 77
    [ $status = 0 ] || fail "slurm_cluster.sh start exited with $status"
    trap 'bash "$here/slurm_cluster.sh" stop "$work/cluster"' EXIT
    export SLURM_CONF="$conf"
    PATH=$PATH:/usr/sbin
    dir=$work/slurm
    "$gpumemsim" sweep grid.json --dir "$dir" --emit slurm >/dev/null || fail "emit exited with $?"
    grep -qx '#SBATCH --array=0-15' "$dir/sweep.sbatch" || fail "sweep.sbatch has no --array=0-15"
    job=$(sbatch --parsable "$dir/sweep.sbatch") || fail "sbatch refused the script"
    job=${job%%;*}
    # Poll (sbatch --wait backs off to half a minute between its own polls).
    for _ in $(seq 1 600); do
        [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
        sleep 0.5
    done
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "the job array did not end within 300 s"
    "$gpumemsim" sweep --merge "$dir" >/dev/null || fail "merge exited with $?"
    check_grid_table "$dir"
    ls "$dir"/runs/slurm-*_15.out >/dev/null 2>&1 || fail "no Slurm output file of task 15"
}

# plot.json without gnuplot: the data and the script are written, the image is not, a warning
# says how to draw it, and the exit status is 0.
case_plot_without_gnuplot() {
    dir=$work/plot_without_gnuplot
    err=$(PATH=/nonexistent "$gpumemsim" sweep plot.json --dir "$dir" -j 2 --quiet 2>&1)
    [ $? = 0 ] || fail "sweep exited with $? ($err)"
    abs=$(cd "$dir" && pwd -P)
    expect_text stderr "$err" "$abs: warning: gnuplot is not installed (Debian: apt-get install gnuplot-nox); l2_hit_rate.svg was not drawn: draw it later with \`gnuplot l2_hit_rate.gp\` in the sweep folder [CLI-SWEEP-015]
$abs: warning: gnuplot is not installed (Debian: apt-get install gnuplot-nox); dram_read_bytes.png was not drawn: draw it later with \`gnuplot dram_read_bytes.gp\` in the sweep folder [CLI-SWEEP-015]"
    same "$dir/l2_hit_rate.dat" expected/l2_hit_rate.dat
    same "$dir/l2_hit_rate.gp" expected/l2_hit_rate.gp
    same "$dir/dram_read_bytes.dat" expected/dram_read_bytes.dat
    [ ! -e "$dir/l2_hit_rate.svg" ] || fail "an image without gnuplot"
}

case_plot() {
    command -v gnuplot >/dev/null 2>&1 ||
        skip "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
    dir=$work/plot
    out=$("$gpumemsim" sweep plot.json --dir "$dir" -j 2) || fail "sweep exited with $?"
    same "$dir/l2_hit_rate.dat" expected/l2_hit_rate.dat
    same "$dir/dram_read_bytes.dat" expected/dram_read_bytes.dat
    [ -s "$dir/l2_hit_rate.svg" ] || fail "no l2_hit_rate.svg"
    expect_text "svg first line" "$(head -n 1 "$dir/l2_hit_rate.svg" | cut -c1-5)" "<?xml"
    grep -q '^<svg' "$dir/l2_hit_rate.svg" || fail "l2_hit_rate.svg has no <svg> element"
    grep -q 'launch=1' "$dir/l2_hit_rate.svg" || fail "l2_hit_rate.svg has no series launch=1"
    [ -s "$dir/dram_read_bytes.png" ] || fail "no dram_read_bytes.png"
    expect_text "png signature" "$(head -c 8 "$dir/dram_read_bytes.png" | od -An -tx1 | tr -d ' \n')" \
        "89504e470d0a1a0a"
}

# A run that has not ended (no status file) and one that failed: merge lists them, exits 1 and
# still writes every row, the unfinished run's with no exit status and no counters.
case_incomplete() {
    dir=$work/incomplete
    "$gpumemsim" sweep failing.json --dir "$dir" --quiet 2>/dev/null
    [ $? = 1 ] || fail "a sweep with a failing run must exit 1"
    rm "$dir/runs/0001/status"
    err=$("$gpumemsim" sweep --merge "$dir" 2>&1 >/dev/null)
    [ $? = 1 ] || fail "merge with an unfinished run must exit 1"
    expect_text stderr "$err" "$dir: error: 1 of 2 runs failed and 1 have no exit status (not run, or still running) [CLI-SWEEP-016]
  run 0000: exit status 1 ($dir/runs/0000/stderr)
  run 0001: no exit status"
    expect_text table "$(cat "$dir/table.csv")" "run,launch_file,gpu,exit_status,launch,kernel,warp_instructions
0000,wrong_expect.json,h100,1,0,_Z5saxpyifPKfPf,2560
0001,saxpy_twice.json,,,,,"
    # The run made again (as a retry of parallel or Slurm would) completes the table.
    "$gpumemsim" sweep --job "$dir" 1 || fail "--job exited with $?"
    "$gpumemsim" sweep --merge "$dir" >/dev/null 2>&1
    expect_text table "$(cat "$dir/table.csv")" "run,launch_file,gpu,exit_status,launch,kernel,warp_instructions
0000,wrong_expect.json,h100,1,0,_Z5saxpyifPKfPf,2560
0001,saxpy_twice.json,h100,0,0,_Z5saxpyifPKfPf,40960
0001,saxpy_twice.json,h100,0,1,_Z5saxpyifPKfPf,40960"
    err=$("$gpumemsim" sweep --job "$dir" 2 2>&1)
    [ $? = 2 ] || fail "--job with a run that does not exist must exit 2"
    expect_text stderr "$err" "$dir: error: run 2: the sweep has runs 0 to 1 [CLI-SWEEP-012]"
}

# Without --dir the folder is the sweep file's name with .sweep, in the current folder.
case_default_dir() {
    here=$(pwd)
    mkdir -p "$work/default_dir" && cd "$work/default_dir" || fail "cannot enter $work/default_dir"
    "$gpumemsim" sweep "$here/failing.json" --quiet 2>/dev/null
    [ $? = 1 ] || fail "the sweep of failing.json must exit 1"
    expect_text table "$(cat failing.sweep/table.csv)" "run,launch_file,gpu,exit_status,launch,kernel,warp_instructions
0000,wrong_expect.json,h100,1,0,_Z5saxpyifPKfPf,2560
0001,saxpy_twice.json,h100,0,0,_Z5saxpyifPKfPf,40960
0001,saxpy_twice.json,h100,0,1,_Z5saxpyifPKfPf,40960"
}

mkdir -p "$work" || fail "cannot create $work"
rm -rf "${work:?}/${case_name:?}"
case "$case_name" in
local | parallel | slurm | plot | plot_without_gnuplot | incomplete | default_dir)
    "case_$case_name" ;;
*) fail "unknown case $case_name" ;;
esac
echo "PASS: $case_name"
