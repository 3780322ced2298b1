#!/bin/sh
# Dumps the vISA text IGC emits for each OpenCL C kernel under tests/visa/ocl/<name>/<name>.cl,
# for Xe-HPC (pvc) and Xe-HPG (acm-g10), into <name>.<device>.visaasm beside it (docs/visa.md,
# "Dialect"). Needs Intel's offline compiler `ocloc` (Debian 12: intel-opencl-icd); the committed
# .visaasm files let the tests run without it. Where a launch file <name>.<device>.json exists,
# the payload of its ND-range launches is rewritten from the binary's patch tokens
# (tools/visa/payload.py). Usage: tools/visa/dump.sh [name...]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v ocloc >/dev/null 2>&1 || { echo "dump.sh: ocloc not found (apt-get install intel-opencl-icd)" >&2; exit 77; }
cd "$root/tests/visa/ocl"
names=${*:-$(for d in */; do printf "%s " "${d%/}"; done)}
for n in $names; do
    for dev in pvc acm-g10; do
        tmp=$(mktemp -d)
        # a fresh dump folder per compile: IGC names its files by a hash, not by the kernel
        IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$tmp/dump" \
            ocloc compile -file "$n/$n.cl" -device "$dev" -options "-cl-std=CL2.0" \
            -output_no_suffix -out_dir "$tmp/out" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
        set -- "$tmp"/dump/*.visaasm
        [ "$#" -eq 1 ] || { echo "dump.sh: $n $dev: expected one .visaasm, found $#" >&2; exit 1; }
        cp "$1" "$n/$n.$dev.visaasm"
        echo "$n/$n.$dev.visaasm"
        # the cross-thread layout from the binary's patch tokens, into the launch file
        if [ -f "$n/$n.$dev.json" ]; then
            ocloc disasm -file "$tmp/out/$n" -device "$dev" -dump "$tmp/dis" >"$tmp/log" 2>&1 ||
                { cat "$tmp/log" >&2; exit 1; }
            grf=32
            [ "$dev" = pvc ] && grf=64
            python3 "$root/tools/visa/payload.py" "$tmp/dis/PTM.txt" "$n/$n.$dev.visaasm" "$grf" \
                "$n/$n.$dev.json"
            echo "$n/$n.$dev.json (payload)"
        fi
        rm -rf "$tmp"
    done
done
