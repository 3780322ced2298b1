#!/usr/bin/env bash
# ptxas differential test of the cache-control instructions (see tests/diff.cmake).
#
# Generates the modules of gen_cache_cases, asks ptxas and `gpumemsim check` for a verdict on each
# (accepted or rejected), and requires the same verdict everywhere except the deliberate
# differences listed in KNOWN (documented in docs/ptxas-differences.md).
#
# usage: run_cache_diff.sh GEN GPUMEMSIM WORKDIR KNOWN
#   GEN        the gen_cache_cases executable
#   GPUMEMSIM  the gpumemsim executable
#   WORKDIR    scratch folder (emptied first); verdicts.tsv there has every verdict afterwards
#   KNOWN      file of deliberate differences: `ACCEPT ERE` (ptxas accepts, gpumemsim rejects) or
#              `REJECT ERE` (ptxas rejects, gpumemsim accepts); ERE is matched against
#              "sm_TARGET VERSION INSTRUCTION"; '#' starts a comment line
# Exit status: 0 all verdicts agree, 1 some disagree, 77 ptxas not found (ctest: skipped),
# 2 usage or setup error.
#
# Internal mode: run_cache_diff.sh --ptxas-batch PTXAS OUTDIR ARCH FILE... writes one line per file
# to OUTDIR/<first file's id>.out: "id<TAB>ACCEPT" or "id<TAB>REJECT<TAB>first error message". ptxas checks all files of one
# call together; a file it names in an error is rejected, the others are checked again without
# them, and when an error names no file each remaining file is checked alone.
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
        log=$("$ptxas" -arch="$arch" "${remaining[@]}" -o /dev/null 2>&1)
        rc=$?
        if ((rc == 0)); then
            for f in "${remaining[@]}"; do printf '%s\tACCEPT\n' "$(basename "$f" .ptx)"; done >> "$out"
            return 0
        fi
        local -a left=()
        local named=0
        for f in "${remaining[@]}"; do
            local line
            line=$(grep -F -m1 "ptxas $f, line" <<< "$log" | grep -m1 '; error')
            if [[ -n $line ]]; then
                printf '%s\tREJECT\t%s\n' "$(basename "$f" .ptx)" "${line#*error   : }" >> "$out"
                named=1
            else
                left+=("$f")
            fi
        done
        if ((named == 0)); then
            for f in "${left[@]}"; do
                log=$("$ptxas" -arch="$arch" "$f" -o /dev/null 2>&1)
                if (($? == 0)); then
                    printf '%s\tACCEPT\n' "$(basename "$f" .ptx)"
                else
                    printf '%s\tREJECT\t%s\n' "$(basename "$f" .ptx)" "$(head -n1 <<< "$log")"
                fi
            done >> "$out"
            return 0
        fi
        remaining=("${left[@]+"${left[@]}"}")
    done
}

if [[ ${1:-} == --ptxas-batch ]]; then
    shift
    batch_verdicts "$@"
    exit 0
fi

if (($# != 4)); then
    echo "usage: run_cache_diff.sh GEN GPUMEMSIM WORKDIR KNOWN" >&2
    exit 2
fi
gen=$1 gms=$2 work=$3 known=$4

ptxas=$(command -v ptxas || true)
if [[ -z $ptxas && -x /usr/local/cuda/bin/ptxas ]]; then
    ptxas=/usr/local/cuda/bin/ptxas
fi
if [[ -z $ptxas ]]; then
    echo "ptxas not found on PATH or in /usr/local/cuda/bin: skipping the differential test"
    exit 77
fi
echo "using $("$ptxas" --version | tail -n1)"

rm -rf "$work" && mkdir -p "$work/ptxas" || exit 2
"$gen" "$work/cases" || exit 2
cases=$work/cases/cases.tsv
jobs=${GMS_DIFF_JOBS:-2}
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# ptxas: batches of up to 40 modules of one -arch per call, $jobs calls at a time.
awk -F'\t' -v d="$work/cases" '
    { n[$2]++; list[$2] = list[$2] " " d "/" $1 ".ptx"
      if (n[$2] == 40) { print $2 list[$2]; n[$2] = 0; list[$2] = "" } }
    END { for (a in n) if (n[a]) print a list[a] }' "$cases" > "$work/batches.txt"
xargs -P "$jobs" -L 1 "$self" --ptxas-batch "$ptxas" "$work/ptxas" < "$work/batches.txt"
cat "$work"/ptxas/*.out | sort > "$work/ptxas.tsv"

# gpumemsim: `check` takes many files and prints `PATH:LINE:COL: error: ...` for each error.
check_batch() {
    local gms=$1 out=$2
    shift 2
    local log rc
    log=$("$gms" check "$@" 2>&1)
    rc=$?
    if ((rc > 2)); then
        for f in "$@"; do
            "$gms" check "$f" > /dev/null 2>&1
            rc=$?
            if ((rc > 2)); then
                printf '%s\tCRASH\texit status %d\n' "$(basename "$f" .ptx)" "$rc"
            elif ((rc == 2)); then
                printf '%s\tREJECT\t%s\n' "$(basename "$f" .ptx)" "$("$gms" check "$f" 2>&1 | grep -m1 ': error: ')"
            else
                printf '%s\tACCEPT\n' "$(basename "$f" .ptx)"
            fi
        done
        return
    fi
    for f in "$@"; do
        local line
        line=$(grep -F -m1 "$f:" <<< "$log" | grep -m1 ': error: ')
        if [[ -n $line ]]; then
            printf '%s\tREJECT\t%s\n' "$(basename "$f" .ptx)" "${line#*: error: }"
        else
            printf '%s\tACCEPT\n' "$(basename "$f" .ptx)"
        fi
    done
}
: > "$work/gms.tsv"
awk -F'\t' -v d="$work/cases" '{ print d "/" $1 ".ptx" }' "$cases" > "$work/files.txt"
while mapfile -t -n 200 chunk && ((${#chunk[@]} > 0)); do
    check_batch "$gms" "$work/gms.tsv" "${chunk[@]}" >> "$work/gms.tsv"
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
                if (kv[i] == pv[id] && gv != "CRASH" && key[id] ~ kre[i]) { status = "deliberate"; used[i]++; break }
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
