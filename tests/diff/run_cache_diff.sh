#!/usr/bin/env bash
# ptxas differential test of the cache-control instructions (see tests/diff.cmake).
#
# Generates the modules of gen_cache_cases, asks ptxas and `gpumemsim check` for a verdict on each
# (accepted or rejected), and requires the same verdict everywhere except the deliberate
# differences listed in KNOWN (documented in docs/ptxas-differences.md).
#
# usage: run_cache_diff.sh GEN GPUMEMSIM WORKDIR KNOWN [CACHE]
#   GEN        the gen_cache_cases executable
#   GPUMEMSIM  the gpumemsim executable
#   WORKDIR    scratch folder (emptied first); verdicts.tsv there has every verdict afterwards
#   KNOWN      file of deliberate differences, one per line: `VERDICT ERE`, where VERDICT is what
#              ptxas said (ACCEPT: gpumemsim rejects; REJECT: gpumemsim accepts; CRASH: ptxas
#              died) and ERE is matched against "sm_TARGET VERSION INSTRUCTION :: gpumemsim's
#              first error"; '#' starts a comment line
#   CACHE      file of ptxas verdicts kept between runs (created when missing; no cache without
#              it): ptxas is asked only about the modules it has no verdict for. One line per
#              verdict: sha256 of `ptxas --version`, -arch, sha256 of the module text without its
#              kernel name (ptxas_cache_keys.cmake: the name carries the case number, so inserting
#              cases keeps the others' keys), then the verdict as in the internal mode below.
#              Verdicts of a ptxas killed from outside (SIGHUP, SIGINT, SIGKILL, SIGTERM) are not
#              kept. Modules with one key (the generator repeats a few) go to ptxas once.
# Environment: GMS_PTXAS the ptxas to use (default: ptxas on PATH, else /usr/local/cuda/bin/ptxas);
# GMS_DIFF_JOBS ptxas calls at a time (2); GMS_DIFF_BATCH modules per call (40); GMS_DIFF_SHOW
# differences printed (20).
# Prints `ptxas calls: N (M modules, C verdicts from the cache)` before the comparison.
# Exit status: 0 all verdicts agree, 1 some disagree, 77 ptxas not found (ctest: skipped),
# 2 usage or setup error.
#
# Internal mode: run_cache_diff.sh --ptxas-batch PTXAS OUTDIR ARCH FILE... writes one line per file
# to OUTDIR/<first file's id>.out: "id<TAB>ACCEPT" or "id<TAB>REJECT<TAB>first error message". ptxas checks all files of one
# call together; a file it names in an error is rejected, the others are checked again without
# them, and when an error names no file each remaining file is checked alone. The number of ptxas
# calls it made goes to OUTDIR/<first file's id>.calls.
set -u

batch_verdicts() {
    local ptxas=$1 outdir=$2 arch=$3
    shift 3
    local out
    out=$outdir/$(basename "$1" .ptx).out
    local -a remaining=("$@")
    local log rc
    : > "$out"
    while ((${#remaining[@]} > 0)); do
        calls=$((calls + 1))
        log=$("$ptxas" -arch="$arch" "${remaining[@]}" -o /dev/null 2>&1)
        rc=$?
        if ((rc == 0)); then
            for f in "${remaining[@]}"; do f=${f##*/}; printf '%s\tACCEPT\n' "${f%.ptx}"; done >> "$out"
            return 0
        fi
        local -a left=()
        local named=0 verdicts line
        if grep -q -e 'does not support \.target' -e 'nsupported \.version' <<< "$log"; then
            # ptxas reports a header error against the next module of the same call: with one
            # in the log, every module of the batch goes alone.
            left=("${remaining[@]}")
        else
            # "ptxas PATH, line N; error   : MESSAGE" names the rejected module
            verdicts=$(printf '%s\n' "${remaining[@]}" | awk -v text="$log" '
                BEGIN { n = split(text, lines, "\n")
                        for (i = 1; i <= n; i++) {
                            l = lines[i]
                            if (l !~ /^ptxas .*, line [0-9]+; error/) continue
                            f = substr(l, 7); sub(/, line [0-9]+; error.*$/, "", f)
                            m = l; sub(/^[^;]*; error *: */, "", m)
                            if (!(f in msg)) msg[f] = m } }
                { if ($0 in msg) { id = $0; sub(/^.*\//, "", id); sub(/\.ptx$/, "", id)
                                   printf "R %s\tREJECT\t%s\n", id, msg[$0] }
                  else print "L " $0 }')
            while IFS= read -r line; do
                if [[ $line == R* ]]; then
                    printf '%s\n' "${line#R }" >> "$out"
                    named=1
                else
                    left+=("${line#L }")
                fi
            done <<< "$verdicts"
        fi
        if ((named == 0)); then
            for f in "${left[@]}"; do
                calls=$((calls + 1))
                log=$("$ptxas" -arch="$arch" "$f" -o /dev/null 2>&1)
                rc=$?
                if ((rc == 0)); then
                    printf '%s\tACCEPT\n' "$(basename "$f" .ptx)"
                elif ((rc > 128 && rc < 255)); then # ptxas exits 255 on errors, 128+N on signal N
                    printf '%s\tCRASH\tptxas died with signal %d\n' "$(basename "$f" .ptx)" $((rc - 128))
                else
                    line=$(grep -m1 -e '; error' -e 'fatal' <<< "$log")
                    printf '%s\tREJECT\t%s\n' "$(basename "$f" .ptx)" "${line#*: }"
                fi
            done >> "$out"
            return 0
        fi
        remaining=("${left[@]+"${left[@]}"}")
    done
}

if [[ ${1:-} == --ptxas-batch ]]; then
    shift
    calls=0 # counted by batch_verdicts
    batch_verdicts "$@"
    printf '%d\n' "$calls" > "$2/$(basename "$4" .ptx).calls"
    exit 0
fi

if (($# != 4 && $# != 5)); then
    echo "usage: run_cache_diff.sh GEN GPUMEMSIM WORKDIR KNOWN [CACHE]" >&2
    exit 2
fi
gen=$1 gms=$2 work=$3 known=$4 cache=${5:-}

if [[ -n ${GMS_PTXAS:-} ]]; then
    ptxas=$GMS_PTXAS
    if [[ ! -x $ptxas ]]; then
        echo "GMS_PTXAS=$ptxas is not an executable: skipping the differential test"
        exit 77
    fi
else
    ptxas=$(command -v ptxas || true)
    if [[ -z $ptxas && -x /usr/local/cuda/bin/ptxas ]]; then
        ptxas=/usr/local/cuda/bin/ptxas
    fi
    if [[ -z $ptxas ]]; then
        echo "ptxas not found on PATH or in /usr/local/cuda/bin: skipping the differential test"
        exit 77
    fi
fi
ptxas_version=$("$ptxas" --version) || exit 2
echo "using $(tail -n1 <<< "$ptxas_version")"

rm -rf "$work" && mkdir -p "$work/ptxas" || exit 2
"$gen" "$work/cases" || exit 2
cases=$work/cases/cases.tsv
jobs=${GMS_DIFF_JOBS:-2}
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# The cache key of each module (id<TAB>sha256 of its text, kernel name aside; see the script).
cmake -DGMS_CASES_DIR="$work/cases" -DGMS_KEYS="$work/keys.tsv" \
    -P "$(dirname "$self")/ptxas_cache_keys.cmake" || exit 2

# Verdicts the cache has go to cached.tsv; the first module of each other key to todo.tsv (id,
# -arch, key), the rest to same.tsv (id, the id asked in its place).
version_key=$(sha256sum <<< "$ptxas_version") && version_key=${version_key%% *}
awk -F'\t' -v cache="$cache" -v ver="$version_key" -v work="$work" '
    BEGIN { OFS = "\t"
            if (cache != "")
                while ((getline l < cache) > 0) {
                    split(l, f, "\t"); k = f[1] "\t" f[2] "\t" f[3]
                    sub(/^[^\t]*\t[^\t]*\t[^\t]*\t/, "", l); hit[k] = l } }
    FILENAME ~ /keys.tsv$/ { hash[$1] = $2; next }
    { k = ver "\t" $2 "\t" hash[$1]
      if (!($1 in hash)) { print "no cache key for case " $1 > "/dev/stderr"; exit 2 }
      if (k in hit) print $1, hit[k] > (work "/cached.tsv")
      else if (k in asked) print $1, asked[k] > (work "/same.tsv")
      else { asked[k] = $1; print $1, $2, k > (work "/todo.tsv") } }' "$work/keys.tsv" "$cases" ||
    exit 2
touch "$work/cached.tsv" "$work/todo.tsv" "$work/same.tsv"

# ptxas: batches of up to 40 modules of one -arch per call, $jobs calls at a time.
awk -F'\t' -v d="$work/cases" -v batch="${GMS_DIFF_BATCH:-40}" '
    { n[$2]++; list[$2] = list[$2] " " d "/" $1 ".ptx"
      if (n[$2] == batch) { print $2 list[$2]; n[$2] = 0; list[$2] = "" } }
    END { for (a in n) if (n[a]) print a list[a] }' "$work/todo.tsv" > "$work/batches.txt"
xargs -r -P "$jobs" -L 1 "$self" --ptxas-batch "$ptxas" "$work/ptxas" < "$work/batches.txt"
find "$work/ptxas" -name '*.out' -exec cat {} + > "$work/asked.tsv"
awk -F'\t' 'FILENAME ~ /asked.tsv$/ { v = $0; sub(/^[^\t]*/, "", v); verdict[$1] = v; next }
             $2 in verdict { print $1 verdict[$2] }' "$work/asked.tsv" "$work/same.tsv" |
    sort - "$work/cached.tsv" "$work/asked.tsv" > "$work/ptxas.tsv"
calls=$(find "$work/ptxas" -name '*.calls' -exec cat {} + | awk '{ n += $1 } END { print n + 0 }')
echo "ptxas calls: $calls ($(wc -l < "$cases") modules," \
    "$(wc -l < "$work/cached.tsv") verdicts from the cache)"

# New verdicts join the cache (a whole new file renamed over the old one, so an interrupted run
# leaves the old cache intact).
if [[ -n $cache ]]; then
    mkdir -p "$(dirname "$cache")" || exit 2
    awk -F'\t' '
        FILENAME ~ /todo.tsv$/ { key[$1] = $3 "\t" $4 "\t" $5; next }
        $2 == "CRASH" && $3 ~ /signal (1|2|9|15)$/ { next }
        $1 in key { v = $0; sub(/^[^\t]*\t/, "", v); print key[$1] "\t" v }' \
        "$work/todo.tsv" "$work/asked.tsv" > "$work/new-cache.tsv" || exit 2
    if [[ -s $work/new-cache.tsv ]]; then
        { if [[ -f $cache ]]; then cat "$cache"; fi; cat "$work/new-cache.tsv"; } \
            > "$cache.$$.tmp" && mv "$cache.$$.tmp" "$cache" || exit 2
    fi
fi

# gpumemsim: `check` takes many files and prints `PATH:LINE:COL: error: ...` for each error.
verdicts_from_log() { # LOG FILE...: one verdict line per file from a `check` log
    local log=$1
    shift
    printf '%s\n' "$@" | awk -v logfile="$log" '
        BEGIN { while ((getline line < logfile) > 0) {
                    i = index(line, ": error: ")
                    if (i == 0) continue
                    f = line; sub(/:[0-9]+:[0-9]+: error: .*$/, "", f)
                    if (!(f in msg)) msg[f] = substr(line, i + 9) } }
        { id = $0; sub(/^.*\//, "", id); sub(/\.ptx$/, "", id)
          if ($0 in msg) printf "%s\tREJECT\t%s\n", id, msg[$0]
          else printf "%s\tACCEPT\n", id }'
}

check_batch() { # GPUMEMSIM FILE...: a crash (status above 2) sends each file alone
    local gms=$1 log=$work/check.log rc
    shift
    "$gms" check "$@" > "$log" 2>&1
    rc=$?
    if ((rc <= 2)); then
        verdicts_from_log "$log" "$@"
        return
    fi
    for f in "$@"; do
        "$gms" check "$f" > "$log" 2>&1
        rc=$?
        if ((rc > 2)); then
            printf '%s\tCRASH\texit status %d\n' "$(basename "$f" .ptx)" "$rc"
        else
            verdicts_from_log "$log" "$f"
        fi
    done
}
: > "$work/gms.tsv"
awk -F'\t' -v d="$work/cases" '{ print d "/" $1 ".ptx" }' "$cases" > "$work/files.txt"
while mapfile -t -n 200 chunk && ((${#chunk[@]} > 0)); do
    check_batch "$gms" "${chunk[@]}" >> "$work/gms.tsv"
done < "$work/files.txt"
sort -o "$work/gms.tsv" "$work/gms.tsv"

# Compare: one line per case in verdicts.tsv, then the summary.
awk -F'\t' -v known="$known" -v out="$work/verdicts.tsv" -v shown="${GMS_DIFF_SHOW:-20}" '
    BEGIN {
        while ((getline line < known) > 0) {
            if (line ~ /^[ \t]*(#|$)/) continue
            split(line, w, " "); verdict = w[1]; sub(/^[A-Z]+ /, "", line)
            nk++; kv[nk] = verdict; kre[nk] = line; used[nk] = 0
        }
    }
    FILENAME ~ /cases.tsv$/ { key[$1] = $3 " " $4 " " $5; arch[$1] = $2; next }
    FILENAME ~ /ptxas.tsv$/ { pv[$1] = $2; pm[$1] = $3; next }
    {
        id = $1; gv = $2; gm = $3
        if (!(id in pv)) { pv[id] = "MISSING"; pm[id] = "no ptxas verdict" }
        status = "agree"
        if (pv[id] != gv) {
            status = "DIFFER"
            for (i = 1; i <= nk; i++)
                if (kv[i] == pv[id] && gv != "CRASH" && (key[id] " :: " gm) ~ kre[i]) { status = "deliberate"; used[i]++; break }
        }
        printf "%s\t%s\t%s\tptxas=%s\tgpumemsim=%s\t%s\t%s | %s\n", id, status, key[id], pv[id], gv, arch[id], pm[id], gm > out
        if (status == "DIFFER") {
            failed++
            if (failed <= shown)
                printf "DIFFER %s.ptx  %s\n    ptxas -arch=%s: %s %s\n    gpumemsim: %s %s\n", id, key[id], arch[id], pv[id], pm[id], gv, gm
        } else {
            passed++
            if (status == "deliberate") deliberate++
        }
    }
    END {
        for (i = 1; i <= nk; i++)
            if (!used[i]) printf "note: known difference `%s %s` matched no case\n", kv[i], kre[i]
        printf "%d passed, %d failed (%d of the passed are deliberate differences)\n", passed, failed + 0, deliberate + 0
        exit failed > 0
    }' "$cases" "$work/ptxas.tsv" "$work/gms.tsv"
