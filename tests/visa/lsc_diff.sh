#!/usr/bin/env bash
# GenX_IR differential test of the vISA LSC instructions (tests/visa.cmake, docs/visa.md
# "Differences from GenX_IR").
#
# tools/visa/lsc_corpus.py writes a few thousand one-instruction modules, each for PVC and for
# DG2; this script asks Intel's vISA assembler GenX_IR and `gpumemsim check` for a verdict on
# each (accepted or rejected) and requires the same verdict everywhere except the deliberate
# differences listed in KNOWN.
#
# usage: lsc_diff.sh CORPUS_PY GPUMEMSIM WORKDIR KNOWN [CACHE]
#   CORPUS_PY  tools/visa/lsc_corpus.py
#   GPUMEMSIM  the gpumemsim executable
#   WORKDIR    scratch folder (emptied first); verdicts.tsv there has every verdict afterwards
#   KNOWN      deliberate differences, one per line: `VERDICT ERE`, where VERDICT is what
#              GenX_IR said (ACCEPT: gpumemsim rejects; REJECT: gpumemsim accepts; CRASH:
#              GenX_IR died) and ERE is matched against "PLATFORM INSTRUCTION :: gpumemsim's
#              first error"; '#' starts a comment line
#   CACHE      GenX_IR verdicts kept between runs (created when missing): one line per verdict,
#              "sha256 of the GenX_IR binary <TAB> platform <TAB> sha256 of the module text
#              without its .kernel line <TAB> verdict [<TAB> message]"
# Environment: GMS_GENX_IR the GenX_IR to use (default: GenX_IR on PATH); GMS_DIFF_JOBS
# GenX_IR runs at a time (2); GMS_DIFF_SHOW differences printed (20).
# gpumemsim learns each module's platform from the module: the corpus aligns its variables to
# the platform's GRF (64 bytes on PVC, 32 on DG2; docs/visa.md).
# Exit status: 0 all verdicts agree, 1 some disagree, 77 GenX_IR or python3 not found (ctest:
# skipped), 2 usage or setup error.
#
# Internal mode: lsc_diff.sh --genx GENX_IR OUTDIR PLATFORM FILE... writes one line per file to
# OUTDIR/<first file's id>.out: "id<TAB>ACCEPT", "id<TAB>REJECT<TAB>first message" or
# "id<TAB>CRASH<TAB>signal N". GenX_IR takes one module per run and writes its outputs (.asm,
# .isa, .errors.txt) beside the module, so every module is run from a copy in a folder of its
# own batch.
set -u

genx_batch() {
    local genx=$1 outdir=$2 plat=$3
    shift 3
    local id0 tmp out f id log rc msg
    id0=$(basename "$1" .visaasm)
    out=$outdir/$id0.out
    tmp=$outdir/run.$id0
    mkdir -p "$tmp" || return 1
    : > "$out"
    for f in "$@"; do
        id=$(basename "$f" .visaasm)
        cp "$f" "$tmp/t.visaasm"
        rm -f "$tmp/t.errors.txt"
        log=$(cd "$tmp" && timeout 20 "$genx" t.visaasm -platform "$plat" -output 2>&1)
        rc=$?
        if ((rc == 0)); then
            printf '%s\tACCEPT\n' "$id"
            continue
        fi
        if ((rc > 128 && rc < 255)) || ((rc == 124)); then
            printf '%s\tCRASH\tGenX_IR died with status %d\n' "$id" "$rc"
            continue
        fi
        # The first message: a syntax error ("near line N: ..."), a verifier complaint
        # (" * ..." in t.errors.txt) or an encoder's ("file.cpp:N message").
        msg=$({ printf '%s\n' "$log"; cat "$tmp/t.errors.txt" 2>/dev/null; } |
              sed -n -e 's/^near line [0-9]*: //p' -e 's/^ \* //p' -e 's/^\.[^ ]*:[0-9]* //p' |
              head -n1)
        printf '%s\tREJECT\t%s\n' "$id" "${msg:-exit status $rc}"
    done >> "$out"
    rm -rf "$tmp"
}

if [[ ${1:-} == --genx ]]; then
    shift
    genx_batch "$@"
    exit $?
fi

if (($# != 4 && $# != 5)); then
    echo "usage: lsc_diff.sh CORPUS_PY GPUMEMSIM WORKDIR KNOWN [CACHE]" >&2
    exit 2
fi
corpus=$1 gms=$2 work=$3 known=$4 cache=${5:-}

genx=${GMS_GENX_IR:-$(command -v GenX_IR || true)}
if [[ -z $genx || ! -x $genx ]]; then
    echo "GenX_IR (Intel's vISA assembler, Debian package libigc-tools) not found: skipping the" \
         "differential test"
    exit 77
fi
if ! command -v python3 > /dev/null; then
    echo "python3 not found: cannot generate the corpus; skipping the differential test"
    exit 77
fi
echo "using $genx"

rm -rf "$work" && mkdir -p "$work/genx" || exit 2
python3 "$corpus" "$work/cases" || exit 2
cases=$work/cases/cases.tsv
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# Cache keys: the binary, the platform and the module without its .kernel line (which carries
# the case number, so inserting cases keeps the others' keys).
genx_key=$(sha256sum < "$genx") && genx_key=${genx_key%% *}
while IFS=$'\t' read -r id plat insn; do
    h=$(grep -v '^\.kernel ' "$work/cases/$id.visaasm" | sha256sum)
    printf '%s\t%s\t%s\n' "$id" "$plat" "${h%% *}"
done < "$cases" > "$work/keys.tsv"

awk -F'\t' -v cache="$cache" -v ver="$genx_key" -v work="$work" '
    BEGIN { OFS = "\t"
            if (cache != "")
                while ((getline l < cache) > 0) {
                    split(l, f, "\t"); k = f[1] "\t" f[2] "\t" f[3]
                    sub(/^[^\t]*\t[^\t]*\t[^\t]*\t/, "", l); hit[k] = l } }
    { k = ver "\t" $2 "\t" $3
      if (k in hit) print $1, hit[k] > (work "/cached.tsv")
      else if (k in asked) print $1, asked[k] > (work "/same.tsv")
      else { asked[k] = $1; print $1, $2, k > (work "/todo.tsv") } }' "$work/keys.tsv" || exit 2
touch "$work/cached.tsv" "$work/todo.tsv" "$work/same.tsv"

# GenX_IR: batches of 100 modules of one platform, $GMS_DIFF_JOBS batches at a time.
awk -F'\t' -v d="$work/cases" '
    { n[$2]++; list[$2] = list[$2] " " d "/" $1 ".visaasm"
      if (n[$2] == 100) { print $2 list[$2]; n[$2] = 0; list[$2] = "" } }
    END { for (p in n) if (n[p]) print p list[p] }' "$work/todo.tsv" > "$work/batches.txt"
xargs -r -P "${GMS_DIFF_JOBS:-2}" -L 1 "$self" --genx "$genx" "$work/genx" \
    < "$work/batches.txt"
find "$work/genx" -name '*.out' -exec cat {} + > "$work/asked.tsv"
awk -F'\t' 'FILENAME ~ /asked.tsv$/ { v = $0; sub(/^[^\t]*/, "", v); verdict[$1] = v; next }
             $2 in verdict { print $1 verdict[$2] }' "$work/asked.tsv" "$work/same.tsv" |
    sort - "$work/cached.tsv" "$work/asked.tsv" > "$work/genx.tsv"
echo "GenX_IR runs: $(wc -l < "$work/asked.tsv") ($(wc -l < "$cases") modules," \
    "$(wc -l < "$work/cached.tsv") verdicts from the cache)"

if [[ -n $cache ]]; then
    mkdir -p "$(dirname "$cache")" || exit 2
    awk -F'\t' '
        FILENAME ~ /todo.tsv$/ { key[$1] = $3 "\t" $4 "\t" $5; next }
        $1 in key { v = $0; sub(/^[^\t]*\t/, "", v); print key[$1] "\t" v }' \
        "$work/todo.tsv" "$work/asked.tsv" > "$work/new-cache.tsv" || exit 2
    if [[ -s $work/new-cache.tsv ]]; then
        { if [[ -f $cache ]]; then cat "$cache"; fi; cat "$work/new-cache.tsv"; } \
            > "$cache.$$.tmp" && mv "$cache.$$.tmp" "$cache" || exit 2
    fi
fi

# gpumemsim: `check` takes many files of one platform and prints PATH:LINE:COL: error: ...
verdicts_from_log() { # LOG FILE...
    local log=$1
    shift
    printf '%s\n' "$@" | awk -v logfile="$log" '
        BEGIN { while ((getline line < logfile) > 0) {
                    i = index(line, ": error: ")
                    if (i == 0) continue
                    f = line; sub(/:[0-9]+:[0-9]+: error: .*$/, "", f)
                    if (!(f in msg)) msg[f] = substr(line, i + 9) } }
        { id = $0; sub(/^.*\//, "", id); sub(/\.visaasm$/, "", id)
          if ($0 in msg) printf "%s\tREJECT\t%s\n", id, msg[$0]
          else printf "%s\tACCEPT\n", id }'
}
check_batch() { # FILE...: a crash (status above 2) sends each file alone
    local log=$work/check.log rc f
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
            printf '%s\tCRASH\texit status %d\n' "$(basename "$f" .visaasm)" "$rc"
        else
            verdicts_from_log "$log" "$f"
        fi
    done
}
: > "$work/gms.tsv"
awk -F'\t' -v d="$work/cases" '{ print d "/" $1 ".visaasm" }' "$cases" > "$work/files.txt"
while mapfile -t -n 200 chunk && ((${#chunk[@]} > 0)); do
    check_batch "${chunk[@]}" >> "$work/gms.tsv"
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
    FILENAME ~ /cases.tsv$/ { key[$1] = $2 " " $3; next }
    FILENAME ~ /genx.tsv$/ { xv[$1] = $2; xm[$1] = $3; next }
    {
        id = $1; gv = $2; gm = $3
        if (!(id in xv)) { xv[id] = "MISSING"; xm[id] = "no GenX_IR verdict" }
        status = "agree"
        if (xv[id] != gv) {
            status = "DIFFER"
            for (i = 1; i <= nk; i++)
                if (kv[i] == xv[id] && gv != "CRASH" && (key[id] " :: " gm) ~ kre[i]) {
                    status = "deliberate"; used[i]++; break }
        }
        printf "%s\t%s\t%s\tGenX_IR=%s\tgpumemsim=%s\t%s | %s\n", id, status, key[id], xv[id], gv, xm[id], gm > out
        if (status == "DIFFER") {
            failed++
            if (failed <= shown)
                printf "DIFFER %s.visaasm  %s\n    GenX_IR: %s %s\n    gpumemsim: %s %s\n", id, key[id], xv[id], xm[id], gv, gm
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
    }' "$cases" "$work/genx.tsv" "$work/gms.tsv"
