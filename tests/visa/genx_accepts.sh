#!/bin/sh
# Whether Intel's vISA assembler GenX_IR (IGC 1.0.12504, Debian 12 libigc-tools) accepts one
# module: for Xe-HPC (-platform PVC) when its name says pvc, for Xe-HPG (DG2) when it says
# acm-g10, for both otherwise. Exit 0 accepted, 1 rejected, 77 (skip) without GenX_IR.
# GenX_IR writes its outputs into the current folder, so it runs in a scratch one.
set -u
module=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v GenX_IR >/dev/null 2>&1 || { echo "SKIP: GenX_IR not installed"; exit 77; }
case $module in
    *.pvc.visaasm) platforms=PVC ;;
    *.acm-g10.visaasm) platforms=DG2 ;;
    *) platforms="PVC DG2" ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for p in $platforms; do
    (cd "$tmp" && GenX_IR "$module" -platform "$p" -output >"$tmp/log" 2>&1) ||
        { cat "$tmp/log"; echo "FAIL: GenX_IR -platform $p rejects $1"; exit 1; }
done
echo "PASS: GenX_IR accepts $1"
