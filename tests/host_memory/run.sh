#!/bin/sh
# Host-memory diagnostics (docs/faults.md, "Host memory"): a kernel whose register files cannot
# be allocated stops the run with exit status 2 and one EXEC-NOMEM-003 diagnostic that names the
# size per warp and in total with the resident warps; before, the run exited 2 without a word.
# The kernel declares %r<65000> (as in issue 7) and keeps 2,048 of them live at once: 2,049
# 64-bit slots with its pointer, 512.4 KiB per warp.
#
# usage: run.sh GPUMEMSIM MODE WORKDIR
#   MODE ulimit:   the h100 preset (8,448 resident warps: 4.1 GiB of register files) under an
#                  address-space limit of 2 GiB, so the mapping fails. Exits 77 (skipped) when
#                  GMS_SKIP_ULIMIT=1, as for sanitizer builds: ASan reserves terabytes of
#                  address space at start-up and cannot run under such a limit.
#   MODE physical: an override with 4,096 SMs of 65,536 threads (8,388,608 resident warps: 4 TiB
#                  of register files), more than the host's memory: refused before mapping.
set -eu
sim=$1 mode=$2 work=$3
if [ "$mode" = ulimit ] && [ "${GMS_SKIP_ULIMIT:-0}" = 1 ]; then
    echo "skipped: an address-space limit cannot run a sanitizer build"
    exit 77
fi
mkdir -p "$work"
cd "$work"
awk -v live=2048 'BEGIN {
    print ".version 8.0\n.target sm_80\n.address_size 64\n"
    print ".visible .entry many_regs(.param .u64 out)\n{"
    print ".reg .b32 %r<65000>;\n.reg .b64 %rd<2>;"
    print "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;"
    for (i = 0; i < live; i++) printf "mov.u32 %%r%d, %d;\n", i, i
    for (i = 1; i < live; i++) printf "add.u32 %%r0, %%r0, %%r%d;\n", i
    print "st.global.u32 [%rd1], %r0;\nret;\n}"
}' >many_regs.ptx
slots='512\.4 KiB per warp \(65002 registers in 2049 64-bit slots x 32 lanes, 0 predicates\)'
host_memory="more than the host's [0-9.]+ [KMGTP]iB of memory"
if [ "$mode" = physical ]; then
    cat >many_sms.json <<JSON
{"base": "h100", "name": "h100-4096sm",
 "sm": {"count": 4096, "max_threads_per_sm": 65536, "max_warps_per_sm": 2048,
        "max_ctas_per_sm": 64}}
JSON
    gpu='"config": "many_sms.json"' grid=262144
    total="4\.0 TiB in total for 8388608 resident warps \(262144 CTAs of 32 warps\), $host_memory"
else
    gpu='"gpu": "h100"' grid=264
    total="4\.1 GiB in total for 8448 resident warps \(264 CTAs of 32 warps\)(, $host_memory)?"
fi
cat >many_regs.json <<JSON
{"module": "many_regs.ptx", $gpu,
 "buffers": {"out": {"type": "u32", "count": 1}},
 "launches": [{"kernel": "many_regs", "grid": [$grid], "block": [1024],
               "args": [{"buffer": "out"}]}]}
JSON
status=0
if [ "$mode" = ulimit ]; then
    (ulimit -v 2097152 && exec "$sim" run many_regs.json) >out.txt 2>err.txt || status=$?
else
    "$sim" run many_regs.json >out.txt 2>err.txt || status=$?
fi
cat err.txt
fail() {
    echo "FAIL: $*"
    exit 1
}
[ "$status" = 2 ] || fail "exit status $status, expected 2"
[ ! -s out.txt ] || fail "unexpected output on stdout"
[ "$(wc -l <err.txt)" = 1 ] || fail "expected exactly one diagnostic"
grep -Eq "^many_regs\.json:3:15: error: launches\[0\]: cannot allocate the register files of kernel many_regs: $slots, $total \[EXEC-NOMEM-003\]$" err.txt ||
    fail "the diagnostic does not match"
echo "ok"
