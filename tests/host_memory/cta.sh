#!/bin/sh
# Host memory for starting CTAs (docs/faults.md, "Host memory"; docs/architecture.md, "SMs on
# several host threads"): a grid of 4,096 CTAs of 200,000 bytes of shared memory each (800 MB
# in all), one per SM of a 4,096-SM h100, under an address-space limit of 1.1 GB that holds the
# SMs' caches (about 0.75 GB, the tags-only caches' storage holding one data slot; 1.5 GB
# before) but not every CTA's shared memory. The CTAs start on whichever
# host thread takes their SM; the run must still stop with exit status 2 and the one
# EXEC-NOMEM-004 diagnostic, the same with 1, 2 and 3 threads. Exits 77 (skipped) when
# GMS_SKIP_ULIMIT=1, as for sanitizer builds.
#
# usage: cta.sh GPUMEMSIM WORKDIR
set -eu
sim=$1 work=$2
if [ "${GMS_SKIP_ULIMIT:-0}" = 1 ]; then
    echo "skipped: an address-space limit cannot run a sanitizer build"
    exit 77
fi
mkdir -p "$work"
cd "$work"
cat >nop.ptx <<'PTX'
.version 8.0
.target sm_80
.address_size 64

.visible .entry nop(.param .u64 out)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
ret;
}
PTX
cat >many_sms.json <<'JSON'
{"base": "h100", "name": "h100-4096sm", "sm": {"count": 4096}}
JSON
cat >big_shared.json <<'JSON'
{"module": "nop.ptx", "config": "many_sms.json",
 "buffers": {"out": {"type": "u32", "count": 1}},
 "launches": [{"kernel": "nop", "grid": [4096], "block": [32], "shared_bytes": 200000,
               "args": [{"buffer": "out"}]}]}
JSON
fail() {
    echo "FAIL: $*"
    exit 1
}
for t in 1 2 3; do
    status=0
    (ulimit -v 1100000 && exec "$sim" run big_shared.json --no-timing --threads $t) \
        >out$t.txt 2>err$t.txt || status=$?
    cat err$t.txt
    [ "$status" = 2 ] || fail "$t threads: exit status $status, expected 2"
    [ ! -s out$t.txt ] || fail "$t threads: unexpected output on stdout"
    [ "$(wc -l <err$t.txt)" = 1 ] || fail "$t threads: expected exactly one diagnostic"
    grep -Eq '^big_shared\.json:3:15: error: launches\[0\]: out of host memory for a CTA: 200000 bytes of shared memory and 1 warps \(240 bytes\) \[EXEC-NOMEM-004\]$' err$t.txt ||
        fail "$t threads: the diagnostic does not match"
    cmp -s err1.txt err$t.txt || fail "$t threads: a diagnostic other than one thread's"
done
echo "ok"
