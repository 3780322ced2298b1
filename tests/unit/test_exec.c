/* Unit tests for src/exec: SIMT control flow, calls, barriers, warp-wide operations, atomics,
 * printf, faults and the runaway limit, each on a small PTX kernel with exact expected values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "config/gpu_config.h"
#include "mem/memsys.h"
#include "sim/sim.h"
#include "ptx/ptx.h"

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

typedef struct run_out {
    int rc;
    exec_fault fault;
    exec_stats stats;
    char *printf_text;
    uint32_t out[1024];
} run_out;

/* Parses `ptx` (diagnostics into *dl, initialised here) into *m, prepares *p and returns the
 * memory system of a 4-SM h100 the tests run on. */
static memsys *prepare(const char *ptx, diag_list *dl, ir_module **m, exec_program **p)
{
    diag_list_init(dl);
    *m = ptx_parse_module("t.ptx", ptx, strlen(ptx), dl);
    if (!*m)
        diag_list_print(dl, stderr);
    assert_non_null(*m);
    *p = exec_program_create(*m, dl);
    if (!*p)
        diag_list_print(dl, stderr);
    assert_non_null(*p);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 4;
    memsys *ms = memsys_create(&cfg, dl);
    assert_non_null(ms);
    return ms;
}

/* Runs kernel `name` of `ptx` with one u64 parameter pointing at a 4 KiB zeroed buffer (plus
 * an optional second u32 parameter); copies the buffer back into o->out. */
/* exec_machine.host_threads of the next run_kernel calls (0: one thread). */
static uint32_t host_threads;

static void run_kernel(const char *ptx, const char *name, uint32_t grid, uint32_t block,
                       uint32_t extra, uint64_t max_insns, run_out *o)
{
    diag_list dl;
    ir_module *m;
    exec_program *p;
    memsys *ms = prepare(ptx, &dl, &m, &p);
    uint64_t buf;
    assert_int_equal(memsys_alloc(ms, sizeof o->out, 256, &buf), 0);
    uint8_t params[16];
    memcpy(params, &buf, 8);
    memcpy(params + 8, &extra, 4);
    int fi = ir_module_find_func(m, name);
    assert_true(fi >= 0);
    exec_machine mach = {.sm_count = 4, .max_threads_per_sm = 2048, .max_ctas_per_sm = 8,
                         .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                         .quantum = 7, .host_threads = host_threads};
    exec_launch L = {.entry = fi, .grid = {grid, 1, 1}, .block = {block, 1, 1},
                     .params = params, .params_bytes = (uint32_t)m->funcs[fi].params_bytes,
                     .max_warp_instructions = max_insns};
    memset(&o->stats, 0, sizeof o->stats);
    o->printf_text = NULL;
    o->rc = exec_run(p, ms, &mach, &L, &o->stats, &o->fault, &o->printf_text);
    assert_int_equal(memsys_finish(ms), 0);
    assert_int_equal(memsys_host_read(ms, buf, o->out, sizeof o->out), 0);
    memsys_destroy(ms);
    exec_program_destroy(p);
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

/* if/else divergence and a data-dependent loop with break: out[t] = t odd ? sum(0..t) : -t,
 * sums stop early (break) once they exceed 100. */
static const char divergence_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "and.b32 %r2, %r1, 1;\nsetp.eq.s32 %p1, %r2, 0;\n@%p1 bra $EVEN;\n"
    "mov.u32 %r3, 0;\nmov.u32 %r4, 0;\n"
    "$LOOP:\nadd.s32 %r3, %r3, %r4;\nsetp.gt.s32 %p2, %r3, 100;\n@%p2 bra $DONE;\n"
    "add.s32 %r4, %r4, 1;\nsetp.le.u32 %p3, %r4, %r1;\n@%p3 bra $LOOP;\n"
    "$DONE:\nst.global.u32 [%rd3], %r3;\nbra.uni $END;\n"
    "$EVEN:\nneg.s32 %r5, %r1;\nst.global.u32 [%rd3], %r5;\n"
    "$END:\nret;\n}\n";

static void test_divergence_and_loops(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    run_kernel(divergence_ptx, "k", 1, 64, 0, 0, o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 64; t++) {
        int32_t expect;
        if (t % 2 == 0) {
            expect = -(int32_t)t;
        } else {
            int32_t s = 0;
            for (uint32_t i = 0; i <= t; i++) {
                s += (int32_t)i;
                if (s > 100)
                    break;
            }
            expect = s;
        }
        assert_int_equal((int32_t)o->out[t], expect);
    }
    free(o->printf_text);
    free(o);
}

/* A .func called with .param passing from divergent lanes, recursion included:
 * out[t] = fact(t % 8) for t < 40 (lanes >= 40 exit early). */
static const char call_ptx[] = HEADER
    ".func (.param .b32 r) fact(.param .b32 n)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n"
    "ld.param.b32 %r1, [n];\nsetp.lt.u32 %p1, %r1, 2;\n@%p1 bra $BASE;\n"
    "add.s32 %r2, %r1, -1;\n"
    "{\n.param .b32 a0;\nst.param.b32 [a0], %r2;\n.param .b32 r0;\n"
    "call.uni (r0), fact, (a0);\nld.param.b32 %r3, [r0];\n}\n"
    "mul.lo.s32 %r4, %r3, %r1;\nst.param.b32 [r], %r4;\nret;\n"
    "$BASE:\nmov.u32 %r5, 1;\nst.param.b32 [r], %r5;\nret;\n}\n"
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
    "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 40;\n@%p1 exit;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "and.b32 %r2, %r1, 7;\n"
    "{\n.param .b32 a0;\nst.param.b32 [a0], %r2;\n.param .b32 r0;\n"
    "call.uni (r0), fact, (a0);\nld.param.b32 %r3, [r0];\n}\n"
    "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r3;\n"
    "ret;\n}\n";

static void test_calls_and_recursion(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    run_kernel(call_ptx, "k", 1, 64, 0, 0, o);
    assert_int_equal(o->rc, 0);
    static const uint32_t fact[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (uint32_t t = 0; t < 64; t++)
        assert_int_equal(o->out[t], t < 40 ? fact[t % 8] : 0);
    free(o->printf_text);
    free(o);
}

/* Shared memory with a barrier: each thread writes tid, then reads its mirror (255 - tid) after
 * bar.sync; shared atomics count the CTA's threads; warp shuffle, ballot and redux. */
static const char sync_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<6>;\n"
    ".shared .align 4 .b8 buf[1024];\n.shared .align 4 .u32 count;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, buf;\nadd.s32 %r4, %r3, %r2;\n"
    "st.shared.u32 [%r4], %r1;\natom.shared.add.u32 %r5, [count], 1;\nbar.sync 0;\n"
    "sub.s32 %r6, 127, %r1;\nshl.b32 %r7, %r6, 2;\nadd.s32 %r8, %r3, %r7;\n"
    "ld.shared.u32 %r9, [%r8];\nld.shared.u32 %r10, [count];\n"
    "shfl.sync.down.b32 %r11|%p1, %r1, 1, 31, -1;\n"
    "and.b32 %r12, %r1, 3;\nsetp.eq.s32 %p2, %r12, 0;\nvote.sync.ballot.b32 %r13, %p2, -1;\n"
    "redux.sync.add.u32 %r14, %r1, -1;\n"
    "mul.wide.u32 %rd2, %r1, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.v4.u32 [%rd3], {%r9, %r10, %r11, %r13};\n"
    "setp.eq.s32 %p2, %r1, 0;\n@!%p2 bra $END;\nst.global.u32 [%rd1+4000], %r14;\n"
    "$END:\nret;\n}\n";

static void test_barrier_shared_atomics_warp_ops(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    run_kernel(sync_ptx, "k", 1, 128, 0, 0, o);
    assert_int_equal(o->rc, 0);
    assert_int_equal(o->out[1000], 496); /* redux.sync.add of lanes 0..31 */
    for (uint32_t t = 0; t < 128; t++) {
        assert_int_equal(o->out[t * 4 + 0], 127 - t);
        assert_int_equal(o->out[t * 4 + 1], 128);
        uint32_t lane = t % 32;
        assert_int_equal(o->out[t * 4 + 2], lane < 31 ? t + 1 : t);
        assert_int_equal(o->out[t * 4 + 3], 0x11111111u);
    }
    free(o->printf_text);
    free(o);
}

/* Issue 15 item 1, forms ptxas 13 accepts: .sync after the mode or the type for vote, shfl and
 * redux; immediates 0, 1 and -1 and negated sources !p on .pred logic; rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64
 * (subnormal operands flushed to zero, only the operand's upper 32 bits used by rcp). */
static const char forms_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<6>;\n.reg .f64 %fd<8>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 1;\nsetp.eq.s32 %p1, %r2, 0;\n"
    "xor.pred %p2, %p1, -1;\nand.pred %p3, %p1, 1;\nor.pred %p4, %p1, 1;\n"
    "not.pred %p5, 0;\nxor.pred %p6, 0, %p1;\nand.pred %p7, -1, 0;\n"
    "selp.u32 %r3, 1, 0, %p2;\nselp.u32 %r4, 2, 0, %p3;\nor.b32 %r3, %r3, %r4;\n"
    "selp.u32 %r4, 4, 0, %p4;\nor.b32 %r3, %r3, %r4;\nselp.u32 %r4, 8, 0, %p5;\n"
    "or.b32 %r3, %r3, %r4;\nselp.u32 %r4, 16, 0, %p6;\nor.b32 %r3, %r3, %r4;\n"
    "selp.u32 %r4, 32, 0, %p7;\nor.b32 %r3, %r3, %r4;\n"
    "or.pred %p6, !%p1, 0;\nselp.u32 %r4, 64, 0, %p6;\nor.b32 %r3, %r3, %r4;\n"
    "not.pred %p7, !%p1;\nselp.u32 %r4, 128, 0, %p7;\nor.b32 %r3, %r3, %r4;\n"
    "vote.ballot.sync.b32 %r5, %p2, -1;\nvote.all.pred.sync %p3, %p4, -1;\n"
    "selp.u32 %r6, 1, 0, %p3;\nshl.b32 %r6, %r6, 8;\nor.b32 %r3, %r3, %r6;\n"
    "shfl.down.b32.sync %r7|%p1, %r1, 1, 31, -1;\nredux.u32.add.sync %r8, %r1, -1;\n"
    "mul.wide.u32 %rd2, %r1, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.v4.u32 [%rd3], {%r3, %r5, %r7, %r8};\n"
    "mov.f64 %fd1, 0d4010000000000000;\nrcp.approx.ftz.f64 %fd2, %fd1;\n"
    "rsqrt.approx.ftz.f64 %fd3, %fd1;\nmov.f64 %fd4, 0d8000000000000001;\n"
    "rcp.approx.ftz.f64 %fd5, %fd4;\nrsqrt.approx.ftz.f64 %fd6, %fd4;\n"
    "mov.f64 %fd7, 0d3FF5555555555555;\nrcp.approx.ftz.f64 %fd7, %fd7;\n"
    "st.global.v2.f64 [%rd1+2048], {%fd2, %fd3};\nst.global.v2.f64 [%rd1+2064], {%fd5, %fd6};\n"
    "st.global.f64 [%rd1+2080], %fd7;\n"
    "ret;\n}\n";

static void test_modern_ptx_forms(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    run_kernel(forms_ptx, "k", 1, 32, 0, 0, o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t even = (t & 1) == 0;
        /* bits: !even, even, 1, 1, even, 0, !even (or of !p), even (not of !p);
         * vote.all of (even | 1) = 1 */
        uint32_t bits = (even ? 2u | 16u | 128u : 1u | 64u) | 4u | 8u | 256u;
        assert_int_equal(o->out[t * 4 + 0], bits);
        assert_int_equal(o->out[t * 4 + 1], 0xAAAAAAAAu); /* ballot of the odd lanes */
        assert_int_equal(o->out[t * 4 + 2], t < 31 ? t + 1 : t);
        assert_int_equal(o->out[t * 4 + 3], 496);
    }
    const uint32_t *f = o->out + 512; /* little-endian f64 pairs */
    assert_int_equal(f[0], 0); assert_int_equal(f[1], 0x3FD00000u); /* rcp(4) = 0.25 */
    assert_int_equal(f[2], 0); assert_int_equal(f[3], 0x3FE00000u); /* rsqrt(4) = 0.5 */
    assert_int_equal(f[4], 0); assert_int_equal(f[5], 0xFFF00000u); /* rcp(-subnormal) = -inf */
    assert_int_equal(f[6], 0); assert_int_equal(f[7], 0xFFF00000u); /* rsqrt(-0) = -inf */
    /* rcp(1.333...) uses 0x3FF55555 only; result truncated to its upper 32 bits */
    assert_int_equal(f[8], 0);
    assert_int_equal(f[9], 0x3FE80000u);
    free(o->printf_text);
    free(o);
}

/* printf from two lanes of two CTAs, in CTA, warp, call and lane order. */
static const char printf_ptx[] = HEADER
    ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n"
    ".param .b64 vprintf_param_1\n)\n;\n"
    ".global .align 1 .b8 $str[12] = {116, 61, 37, 100, 32, 98, 61, 37, 100, 10, 0};\n"
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n"
    ".local .align 8 .b8 __local_depot0[8];\n.reg .b64 %SP;\n.reg .b64 %SPL;\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"
    "mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n"
    "mov.u32 %r1, %tid.x;\nsetp.gt.u32 %p1, %r1, 1;\n@%p1 bra $END;\n"
    "mov.u32 %r2, %ctaid.x;\nadd.u64 %rd1, %SP, 0;\nadd.u64 %rd2, %SPL, 0;\n"
    "st.local.v2.u32 [%rd2], {%r1, %r2};\nmov.u64 %rd3, $str;\ncvta.global.u64 %rd4, %rd3;\n"
    "{\n.param .b64 param0;\nst.param.b64 [param0], %rd4;\n.param .b64 param1;\n"
    "st.param.b64 [param1], %rd1;\n.param .b32 retval0;\n"
    "call.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %r3, [retval0];\n}\n"
    "$END:\nret;\n}\n";

static void test_printf_order(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    run_kernel(printf_ptx, "k", 2, 32, 0, 0, o);
    assert_int_equal(o->rc, 0);
    assert_non_null(o->printf_text);
    assert_string_equal(o->printf_text, "t=0 b=0\nt=1 b=0\nt=0 b=1\nt=1 b=1\n");
    free(o->printf_text);
    free(o);
}

static const char oob_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3+4000], %r1;\n"
    "ret;\n}\n";

static void test_out_of_bounds_store_faults(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    /* Lanes 0..23 of the warp write inside the 4 KiB buffer, lane 24 is the first outside. */
    run_kernel(oob_ptx, "k", 1, 32, 0, 0, o);
    assert_int_equal(o->rc, 1);
    assert_non_null(strstr(o->fault.message, "invalid global write of size 4"));
    assert_non_null(strstr(o->fault.message, "outside every allocation"));
    assert_int_equal(o->fault.tid[0], 24);
    assert_int_equal(o->fault.ptx_line, 13);
    /* No lane of the faulting instruction wrote. */
    assert_int_equal(o->out[1000], 0);
    free(o->printf_text);
    free(o);
}

/* Warp 1 of every CTA loads shared memory far outside its 128 bytes, so that every SM faults in
 * the same parallel phase (exec_window.c): the launch's fault is the lowest (SM, slot, warp),
 * CTA 0's thread 32, on one host thread or several. */
static const char shared_oob_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
    ".shared .align 4 .b8 buf[128];\n"
    "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra $D;\nmov.u32 %r2, 65536;\n"
    "ld.shared.u32 %r3, [%r2];\n$D:\nret;\n}\n";

static void test_fault_order_does_not_depend_on_threads(void **state)
{
    (void)state;
    static const uint32_t counts[] = {1, 2, 3, 4};
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        host_threads = counts[i];
        run_out *o = calloc(1, sizeof *o);
        run_kernel(shared_oob_ptx, "k", 8, 64, 0, 0, o);
        assert_int_equal(o->rc, 1);
        assert_string_equal(o->fault.rule, "EXEC-MEM-001");
        assert_non_null(strstr(o->fault.message, "invalid shared read of size 4 at address 0x10000"));
        assert_int_equal(o->fault.ctaid[0], 0);
        assert_int_equal(o->fault.tid[0], 32);
        /* The phase's instructions count although it faulted: CTAs 0-3 (slot 0 of the four
         * SMs), warp 0 four each (mov, setp, bra, ret), warp 1 its five up to the faulting
         * load; slot 1's CTAs never run. */
        assert_int_equal(o->stats.warp_instructions, 4 * (4 + 5));
        free(o->printf_text);
        free(o);
    }
    host_threads = 0;
}

static const char spin_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n.reg .b32 %r<2>;\n"
    "mov.u32 %r1, 0;\n$L:\nadd.s32 %r1, %r1, 1;\nbra.uni $L;\n}\n";

static void test_runaway_limit(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    run_kernel(spin_ptx, "k", 2, 64, 0, 1000, o);
    assert_int_equal(o->rc, 1);
    assert_non_null(strstr(o->fault.message, "instruction limit of 1000"));
    assert_int_equal(o->stats.warp_instructions, 1000);
    free(o->printf_text);
    free(o);
}

static const char deadlock_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<2>;\n"
    "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra $W;\nbar.sync 1, 64;\n"
    "ret;\n$W:\nbar.sync 0;\nret;\n}\n";

static void test_barrier_deadlock_detected(void **state)
{
    (void)state;
    run_out *o = calloc(1, sizeof *o);
    /* Warp 0 waits at barrier 0 (all warps), warp 1 at barrier 1 (64 threads): neither completes. */
    run_kernel(deadlock_ptx, "k", 1, 64, 0, 0, o);
    assert_int_equal(o->rc, 1);
    assert_non_null(strstr(o->fault.message, "deadlock"));
    free(o->printf_text);
    free(o);
}

/* out[ctaid * ntid + tid] = ctaid * 1000 + tid + p1. */
static const char ids_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\nld.param.u32 %r6, [p1];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
    "mad.lo.s32 %r4, %r2, %r3, %r1;\nmad.lo.s32 %r5, %r2, 1000, %r1;\nadd.s32 %r5, %r5, %r6;\n"
    "mul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r5;\nret;\n}\n";

/* One program, two launches of different shapes: the CTA slots' blocks come from the program's
 * slot arena (exec_device.c), laid out anew for each launch's warps and parameters, and every
 * thread of both launches writes its own value, on one host thread and on three. */
static void test_slot_arena_across_launches(void **state)
{
    (void)state;
    for (uint32_t threads = 1; threads <= 3; threads += 2) {
        diag_list dl;
        ir_module *m;
        exec_program *p;
        memsys *ms = prepare(ids_ptx, &dl, &m, &p);
        uint64_t buf;
        uint32_t out[1024];
        assert_int_equal(memsys_alloc(ms, sizeof out, 256, &buf), 0);
        exec_machine mach = {.sm_count = 4, .max_threads_per_sm = 2048, .max_ctas_per_sm = 4,
                             .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                             .quantum = 7, .host_threads = threads};
        /* 30 CTAs of 32 threads fill all 16 slots and come back to them; then 6 of 96 */
        const uint32_t grids[2] = {30, 6}, blocks[2] = {32, 96}, extras[2] = {7, 500000};
        for (int l = 0; l < 2; l++) {
            uint8_t params[16];
            memcpy(params, &buf, 8);
            memcpy(params + 8, &extras[l], 4);
            exec_launch L = {.entry = 0, .grid = {grids[l], 1, 1}, .block = {blocks[l], 1, 1},
                             .params = params, .params_bytes = (uint32_t)m->funcs[0].params_bytes,
                             .max_warp_instructions = 1000000};
            exec_stats stats;
            exec_fault fault;
            char *printf_text = NULL;
            memset(&stats, 0, sizeof stats);
            memset(&fault, 0, sizeof fault);
            int rc = exec_run(p, ms, &mach, &L, &stats, &fault, &printf_text);
            if (rc)
                fprintf(stderr, "fault %s: %s\n", fault.rule ? fault.rule : "?", fault.message);
            assert_int_equal(rc, 0);
            free(printf_text);
            assert_int_equal(memsys_finish(ms), 0);
            assert_int_equal(memsys_host_read(ms, buf, out, sizeof out), 0);
            for (uint32_t c = 0; c < grids[l]; c++)
                for (uint32_t t = 0; t < blocks[l]; t++)
                    assert_int_equal(out[c * blocks[l] + t], c * 1000 + t + extras[l]);
        }
        memsys_destroy(ms);
        exec_program_destroy(p);
        ir_module_destroy(m);
        diag_list_fini(&dl);
    }
}

/* CTAs of different lengths (ctaid % 5 loop passes) hold an accumulator in registers across
 * turns of 7 instructions, so that they retire in different rounds: the functional window lends
 * each starting CTA the register block freed last (exec_window.c, "register blocks"), never one
 * a busy slot holds, on one host thread and on three. */
static const char loop_acc_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
    ".reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
    "mad.lo.s32 %r4, %r2, %r3, %r1;\nrem.u32 %r5, %r2, 5;\nmov.u32 %r6, %r4;\n"
    "setp.eq.u32 %p1, %r5, 0;\n@%p1 bra DONE;\n"
    "LOOP:\nmad.lo.s32 %r6, %r6, 3, %r1;\nsub.s32 %r5, %r5, 1;\nsetp.ne.u32 %p1, %r5, 0;\n"
    "@%p1 bra LOOP;\n"
    "DONE:\nmul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\n"
    "ret;\n}\n";

static void test_register_blocks_between_rounds(void **state)
{
    (void)state;
    enum { CTAS = 64, THREADS = 16 }; /* run_kernel's 32 slots, each taken about twice */
    for (uint32_t threads = 1; threads <= 3; threads += 2) {
        host_threads = threads;
        run_out o;
        run_kernel(loop_acc_ptx, "k", CTAS, THREADS, 0, 1000000, &o);
        assert_int_equal(o.rc, 0);
        free(o.printf_text);
        for (uint32_t c = 0; c < CTAS; c++)
            for (uint32_t t = 0; t < THREADS; t++) {
                uint32_t acc = c * THREADS + t;
                for (uint32_t n = c % 5; n > 0; n--) acc = acc * 3 + t;
                assert_int_equal(o.out[c * THREADS + t], acc);
            }
    }
    host_threads = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divergence_and_loops),
        cmocka_unit_test(test_calls_and_recursion),
        cmocka_unit_test(test_barrier_shared_atomics_warp_ops),
        cmocka_unit_test(test_modern_ptx_forms),
        cmocka_unit_test(test_printf_order),
        cmocka_unit_test(test_out_of_bounds_store_faults),
        cmocka_unit_test(test_runaway_limit),
        cmocka_unit_test(test_fault_order_does_not_depend_on_threads),
        cmocka_unit_test(test_barrier_deadlock_detected),
        cmocka_unit_test(test_slot_arena_across_launches),
        cmocka_unit_test(test_register_blocks_between_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
