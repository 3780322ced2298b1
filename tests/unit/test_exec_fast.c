/* Unit tests of the executor's shortcuts (src/exec/exec_decode.c, src/exec/exec_mem.c) on IR built
 * by hand (ir_build.h): each must give exactly what the general path gives.
 *
 *   exec_h_setp_int  setp of 32-bit integers without a combine operand, compared straight into
 *                 predicate bits (two immediates decided at decode), against the same setp with
 *                 `.and` of a true predicate, which takes h_alu and alu_cmp.c's setp_u32/s32,
 *                 with the SSE2 compare and the AVX2 one (exec_h_setp_int_avx2);
 *   exec_h_mov_sreg    mov.u32 of a special register into a register, written in place, against
 *                 the same mov given h_alu (warp_src and the mov lane function), for every
 *                 lane with all lanes active and with half of them guarded off;
 *   exec_h_pred_logic  and/or/xor/not of predicates (sources negated or not) on lane masks,
 *                 against the same instructions given h_alu, unguarded and guarded;
 *   exec_h_alu_plain  a partial mask's blend (lane by lane and blend_lanes_avx2) against h_alu's;
 *   h_alu         an instruction guarded off in every lane changes nothing (not even the carry
 *                 flag); with every lane active the lane function writes the destination
 *                 register itself only when no source reads it;
 *   h_ld_const_same  a const load at an immediate address that memsys_const_load refuses
 *                 falls back to exec_h_ld, which reports the fault as before;
 *   h_ld_param_same  a parameter load by name that memsys_load_same refuses falls back to
 *                 h_ld_same, which reports the fault as before;
 *   h_ld_global_reg  (addresses of one register plus an offset, prepare_reg) the values of
 *                 full and guarded global loads (test_ld_scalar_values);
 *   lane_addresses  the AVX2 build of the register loop gives the scalar build's addresses;
 *   turn_16's stretches  (exec_warp.c) a kernel with a divergent loop, guards, global accesses,
 *                 a fault and runaway limits inside stretches gives what step_one's loop gives.
 * (Every lane function today reads lane l's sources before it writes lane l, so writing in
 * place a register that is also a source would give the same values; the test still pins them.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "exec_test.h"
#include "ir_build.h"

#define NONE irb_opnd(IR_OPND_NONE)

enum { BLOCK = 64 };

/* %rd0 = out, %r0 = tid.x. */
static void load_out_and_tid(irb *b, uint32_t *rd_out, uint32_t *r_tid)
{
    uint32_t out = irb_param(b, "out", IR_T_U64);
    *rd_out = irb_reg(b, IR_T_U64, "%rd0");
    *r_tid = irb_reg(b, IR_T_U32, "%r0");
    irb_ld(b, IR_SPACE_PARAM, IR_T_U64, irb_r(*rd_out), irb_addr_sym(out, 0));
    irb_alu(b, IR_MOV, IR_T_U32, irb_r(*r_tid), irb_sreg(IR_SREG_TID_X), NONE, NONE);
}

/* out[tid] = value (a u32 register). */
static void store_at_tid(irb *b, uint32_t rd_out, uint32_t r_tid, uint32_t value)
{
    uint32_t off = irb_reg(b, IR_T_U64, "%rd1"), addr = irb_reg(b, IR_T_U64, "%rd2");
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(off), irb_r(r_tid), irb_imm(4), NONE)->mods = IR_MOD_WIDE;
    irb_alu(b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(rd_out), irb_r(off), NONE);
    irb_st(b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(addr, 0), irb_r(value));
}

/* setp.<cmp>.<t> d0|d1, a, b (d1 UINT32_MAX: no second destination; combine >= 0: `.and
 * combine`), guarded by `guard` (UINT32_MAX: not guarded). */
static ir_insn *setp(irb *b, ir_cmp cmp, ir_type t, uint32_t d0, uint32_t d1, ir_operand a,
                     ir_operand c, int combine, uint32_t guard)
{
    ir_insn *in = irb_alu(b, IR_SETP, t, irb_p(d0), a, c, NONE);
    in->cmp = (uint8_t)cmp;
    if (d1 != UINT32_MAX)
        irb_dst(in, 1, irb_p(d1));
    if (combine >= 0) {
        irb_src(in, 2, irb_p((uint32_t)combine));
        in->boolop = IR_BOOL_AND;
    }
    if (guard != UINT32_MAX)
        irb_guard(in, guard, 0);
    return in;
}

/* Lane l's operands: a = V(l & 7), b = V(l >> 3), V(i) = i * 0x40000001 (mod 2^32): every
 * ordered pair of eight values whose signed and unsigned orders differ. */
static uint32_t lane_value(uint32_t i) { return i * 0x40000001u; }

/* run_16's stretches (exec_warp.c turn_16) against the general loop (step_one, `general`): a loop
 * whose trip count differs per lane (the branch splits the warp), a guarded add, a branch
 * around two instructions taken by some lanes (the groups reconverge at next_wait_pc, inside
 * what would otherwise be one stretch), a global store and
 * load (which may park in a parallel phase), and with `fault` a misaligned load in lane 40 (a
 * fault inside a stretch). Run with the budget `limit` (the runaway fault inside a stretch) and
 * turns of `quantum` instructions (exec_test_launch's 5 cuts stretches short);
 * the two runs must agree in the result, the fault, the statistics, the buffer and every
 * instruction's counts. */
static exec_test_out *run_stretch_kernel(int fault, int general, uint64_t limit,
                                         uint32_t quantum)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t acc = irb_reg(&b, IR_T_U32, "%r1"), i = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t x = irb_reg(&b, IR_T_U32, "%r3"), v = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t g = irb_reg(&b, IR_T_U32, "%r5"), addr = irb_reg(&b, IR_T_U64, "%rd3");
    uint32_t p = irb_pred(&b, "%p0"), q = irb_pred(&b, "%p1");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(acc), irb_imm(1), NONE, NONE);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(i), irb_imm(0), NONE, NONE);
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(7), NONE);
    uint32_t loop = b.fn->ninsns;
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(acc), irb_r(acc), irb_r(r_tid), NONE);
    irb_alu(&b, IR_MUL, IR_T_U32, irb_r(acc), irb_r(acc), irb_imm(3), NONE)->mods = IR_MOD_LO;
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(i), irb_r(i), irb_imm(1), NONE);
    setp(&b, IR_CMP_LE, IR_T_U32, p, UINT32_MAX, irb_r(i), irb_r(x), -1, UINT32_MAX);
    irb_guard(irb_bra(&b, loop), p, 0);
    setp(&b, IR_CMP_NE, IR_T_U32, q, UINT32_MAX, irb_r(x), irb_imm(3), -1, UINT32_MAX);
    irb_guard(irb_alu(&b, IR_ADD, IR_T_U32, irb_r(acc), irb_r(acc), irb_imm(5), NONE), q, 0);
    /* if ((tid & 7) >= 5) acc = (acc + 100) * 7: the lanes that skip wait at the add after it,
     * which the others reach by falling through */
    setp(&b, IR_CMP_LT, IR_T_U32, q, UINT32_MAX, irb_r(x), irb_imm(5), -1, UINT32_MAX);
    irb_guard(irb_bra(&b, b.fn->ninsns + 3), q, 0);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(acc), irb_r(acc), irb_imm(100), NONE);
    irb_alu(&b, IR_MUL, IR_T_U32, irb_r(acc), irb_r(acc), irb_imm(7), NONE)->mods = IR_MOD_LO;
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(acc), irb_r(acc), irb_imm(1), NONE);
    store_at_tid(&b, rd_out, r_tid, acc);
    irb_alu(&b, IR_MUL, IR_T_U32, irb_r(addr), irb_r(r_tid), irb_imm(4), NONE)->mods =
        IR_MOD_WIDE;
    irb_alu(&b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(rd_out), irb_r(addr), NONE);
    if (fault) {
        setp(&b, IR_CMP_EQ, IR_T_U32, q, UINT32_MAX, irb_r(r_tid), irb_imm(40), -1, UINT32_MAX);
        irb_guard(irb_alu(&b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(addr), irb_imm(1), NONE), q,
                  0);
    }
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(v), irb_addr_reg(addr, 0));
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(v), irb_r(v), irb_r(i), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(g), irb_r(r_tid), irb_imm(BLOCK), NONE);
    store_at_tid(&b, rd_out, g, v);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx ctx;
    exec_test_begin(&ctx, b.m, o);
    exec_launch L = exec_test_launch_of(&ctx, BLOCK);
    /* has_glue without glue instructions: warp_run takes the general loop (step_one), whose
     * fetch offsets are then pc * 16 too, and counts every instruction */
    ctx.p->has_glue = (uint8_t)general;
    L.max_warp_instructions = limit;
    exec_test_launch_quantum(&ctx, b.m, o, &L, quantum);
    exec_test_end(&ctx);
    ir_module_destroy(b.m);
    return o;
}

static void assert_same_run(const exec_test_out *a, const exec_test_out *b)
{
    exec_test_assert_same_run(a, b);
    assert_int_equal(a->stats.warp_instructions, b->stats.warp_instructions);
    assert_int_equal(a->stats.thread_instructions, b->stats.thread_instructions);
    assert_int_equal(a->stats.thread_instructions_pred_on, b->stats.thread_instructions_pred_on);
}

static void test_stretches_match_the_general_loop(void **state)
{
    (void)state;
    for (int run = 0; run < 4; run++) {
        int fault = run & 1;
        uint32_t quantum = run < 2 ? 5 : 64;
        exec_test_out *whole = run_stretch_kernel(fault, 1, 1000000, quantum);
        assert_int_equal(whole->rc, fault);
        uint64_t total = whole->stats.warp_instructions;
        assert_true(total > 0);
        uint64_t limits[] = {1000000, total, total - 1, total / 2 + 1, 7, 3, 1};
        for (unsigned k = 0; k < sizeof limits / sizeof *limits; k++) {
            exec_test_out *general = run_stretch_kernel(fault, 1, limits[k], quantum);
            exec_test_out *fast = run_stretch_kernel(fault, 0, limits[k], quantum);
            assert_same_run(fast, general);
            if (!fault && k == 0)
                for (uint32_t l = 0; l < BLOCK; l++) { /* and the values are the kernel's */
                    uint32_t a = 1, n = 0;
                    do {
                        a = (a + l) * 3;
                        n++;
                    } while (n <= (l & 7));
                    a += (l & 7) != 3 ? 5 : 0;
                    a = ((l & 7) >= 5 ? (a + 100) * 7 : a) + 1;
                    assert_int_equal(fast->out[l], a);
                    assert_int_equal(fast->out[BLOCK + l], a + n);
                }
            free(general);
            free(fast);
        }
        free(whole);
    }
}

/* The twin tests' set-up: instruction `at` of function 0 and the one before it were decoded
 * alike (the same shortcut); `at` is given the general handler of `family` (h_alu for ALU and
 * MOV) with no aux, so that the kernel computes the same thing both ways. Returns the shortcut. */
static exec_handler give_general_handler(exec_test_ctx *c, uint32_t at, ir_family family)
{
    exec_xinsn *code = (exec_xinsn *)c->p->funcs[0].code;
    exec_handler fast = code[at - 1].fn;
    assert_ptr_equal(code[at].fn, fast);
    code[at].fn = exec_family_handler(family);
    code[at].aux = 0;
    return fast;
}

/* exec_h_alu_plain's blend of a partial mask (lane by lane, and blend_lanes_avx2 where the host has
 * AVX2: exec_program.host_avx2 on and off) against h_alu's (warp_write_dst), for an add guarded
 * by a predicate true in the lanes of `pattern`, into destinations holding 0x5A5A5A5A: every
 * thread stores fast ^ general, then fast. */
static void run_alu_blend_case(uint32_t pattern, int avx2)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t x = irb_reg(&b, IR_T_U32, "%r1"), fast = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t slow = irb_reg(&b, IR_T_U32, "%r3"), g = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t p = irb_pred(&b, "%p0");
    /* p = (pattern >> (tid & 31)) & 1 */
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(31), NONE);
    irb_alu(&b, IR_SHR, IR_T_U32, irb_r(x), irb_imm(pattern), irb_r(x), NONE);
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(x), irb_imm(1), NONE);
    setp(&b, IR_CMP_NE, IR_T_U32, p, UINT32_MAX, irb_r(x), irb_imm(0), -1, UINT32_MAX);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(fast), irb_imm(0x5A5A5A5A), NONE, NONE);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(slow), irb_imm(0x5A5A5A5A), NONE, NONE);
    uint32_t at = b.fn->ninsns;
    irb_guard(irb_alu(&b, IR_ADD, IR_T_U32, irb_r(fast), irb_r(r_tid), irb_imm(7), NONE), p, 0);
    irb_guard(irb_alu(&b, IR_ADD, IR_T_U32, irb_r(slow), irb_r(r_tid), irb_imm(7), NONE), p, 0);
    irb_alu(&b, IR_XOR, IR_T_B32, irb_r(x), irb_r(fast), irb_r(slow), NONE);
    store_at_tid(&b, rd_out, r_tid, x);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(g), irb_r(r_tid), irb_imm(BLOCK), NONE);
    store_at_tid(&b, rd_out, g, fast);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx ctx;
    exec_test_begin(&ctx, b.m, o);
    ctx.p->host_avx2 = (uint8_t)avx2;
    give_general_handler(&ctx, at + 1, IR_FAM_ALU);
    exec_launch L = exec_test_launch_of(&ctx, BLOCK);
    exec_test_launch(&ctx, b.m, o, &L);
    exec_test_end(&ctx);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t l = 0; l < BLOCK; l++) {
        assert_int_equal(o->out[l], 0);
        assert_int_equal(o->out[BLOCK + l], ((pattern >> (l & 31)) & 1u) ? l + 7 : 0x5A5A5A5Au);
    }
    free(o);
    ir_module_destroy(b.m);
}

static void test_alu_plain_blend_matches_h_alu(void **state)
{
    (void)state;
    static const uint32_t patterns[] = {0x00000001u, 0x80000000u, 0xAAAAAAAAu, 0x0F0F00FFu,
                                        0x7FFFFFFEu, 0x12345678u};
    for (unsigned k = 0; k < sizeof patterns / sizeof *patterns; k++)
        for (int avx2 = 0; avx2 <= exec_host_avx2(); avx2++)
            run_alu_blend_case(patterns[k], avx2);
}

static int compare(ir_cmp cmp, int sgn, uint32_t a, uint32_t b)
{
    uint32_t bias = sgn ? 0x80000000u : 0;
    uint32_t u = a ^ bias, v = b ^ bias;
    switch (cmp) {
    case IR_CMP_EQ: return a == b;
    case IR_CMP_NE: return a != b;
    case IR_CMP_LT: case IR_CMP_LO: return u < v;
    case IR_CMP_LE: case IR_CMP_LS: return u <= v;
    case IR_CMP_GT: case IR_CMP_HI: return u > v;
    default: return u >= v; /* GE, HS */
    }
}

/* Bits of out[l]: 0/1 the fast setp's two destinations, 2/3 the general one's (register
 * operands); 4/5 and 6/7 the same with the two immediates ia, ib. Lanes with (l & 6) == 0 are
 * guarded off and keep the destinations' old values: (l & 1) != 0 and its negation. */
static void run_setp_case(ir_cmp cmp, ir_type t, uint32_t ia, uint32_t ib, int avx2)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t i = irb_reg(&b, IR_T_U32, "%r1"), j = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t ra = irb_reg(&b, IR_T_U32, "%r3"), rb = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t x = irb_reg(&b, IR_T_U32, "%r5"), acc = irb_reg(&b, IR_T_U32, "%r6");
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(i), irb_r(r_tid), irb_imm(7), NONE);
    irb_alu(&b, IR_SHR, IR_T_U32, irb_r(j), irb_r(r_tid), irb_imm(3), NONE);
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(ra), irb_r(i), irb_imm(30), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(ra), irb_r(ra), irb_r(i), NONE);
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(rb), irb_r(j), irb_imm(30), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(rb), irb_r(rb), irb_r(j), NONE);
    uint32_t tru = irb_pred(&b, "%t"), g = irb_pred(&b, "%g"), p[8];
    for (int k = 0; k < 8; k++) p[k] = irb_pred(&b, "%p");
    setp(&b, IR_CMP_EQ, IR_T_U32, tru, UINT32_MAX, irb_imm(0), irb_imm(0), -1, UINT32_MAX);
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(6), NONE);
    setp(&b, IR_CMP_NE, IR_T_U32, g, UINT32_MAX, irb_r(x), irb_imm(0), -1, UINT32_MAX);
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(1), NONE);
    for (int k = 0; k < 8; k += 2) /* the old values */
        setp(&b, IR_CMP_NE, IR_T_U32, p[k], p[k + 1], irb_r(x), irb_imm(0), -1, UINT32_MAX);
    setp(&b, cmp, t, p[0], p[1], irb_r(ra), irb_r(rb), -1, g);
    setp(&b, cmp, t, p[2], p[3], irb_r(ra), irb_r(rb), (int)tru, g);
    setp(&b, cmp, t, p[4], p[5], irb_imm(ia), irb_imm(ib), -1, g);
    setp(&b, cmp, t, p[6], p[7], irb_imm(ia), irb_imm(ib), (int)tru, g);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(acc), irb_imm(0), NONE, NONE);
    for (int k = 0; k < 8; k++)
        irb_guard(irb_alu(&b, IR_OR, IR_T_B32, irb_r(acc), irb_r(acc), irb_imm(1 << k), NONE),
                  p[k], 0);
    store_at_tid(&b, rd_out, r_tid, acc);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx ctx;
    exec_test_begin(&ctx, b.m, o);
    ctx.p->host_avx2 = (uint8_t)avx2;
    exec_launch L = exec_test_launch_of(&ctx, BLOCK);
    exec_test_launch(&ctx, b.m, o, &L);
    exec_test_end(&ctx);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    int sgn = t == IR_T_S32 && cmp < IR_CMP_LO;
    for (uint32_t l = 0; l < BLOCK; l++) {
        int on = (l & 6) != 0, old = (l & 1) != 0;
        int r = compare(cmp, sgn, lane_value(l & 7), lane_value(l >> 3));
        int ri = compare(cmp, sgn, ia, ib);
        uint32_t want = 0;
        for (int k = 0; k < 8; k++) {
            int v = on ? ((k < 4 ? r : ri) ^ (k & 1)) : old ^ (k & 1);
            want |= (uint32_t)v << k;
        }
        if (o->out[l] != want)
            fprintf(stderr, "cmp %d type %d imm %#x %#x lane %u: %#x, want %#x\n", cmp, t, ia,
                    ib, l, o->out[l], want);
        assert_int_equal(o->out[l], want);
    }
    free(o);
    ir_module_destroy(b.m);
}

/* Every ordered comparison, signed and unsigned, against the general path and the values C
 * gives, with immediate pairs that are equal, ordered differently when signed, and the
 * boundary between the halves; with the SSE2 compare and, on hosts that have it, the AVX2 one
 * (exec_program.host_avx2). */
static void test_setp_int_matches_the_general_path(void **state)
{
    (void)state;
    static const uint32_t pairs[][2] = {
        {5, 5}, {0x80000002u, 0x40000001u}, {1, 0xFFFFFFFFu}, {0x7FFFFFFFu, 0x80000000u}};
    static const ir_type types[] = {IR_T_U32, IR_T_S32, IR_T_B32};
    for (unsigned ti = 0; ti < 3; ti++)
        for (int cmp = IR_CMP_EQ; cmp <= IR_CMP_HS; cmp++) {
            if (types[ti] == IR_T_B32 && cmp != IR_CMP_EQ && cmp != IR_CMP_NE)
                continue; /* b32 compares only for equality */
            for (unsigned k = 0; k < 4; k++)
                for (int avx2 = 0; avx2 <= exec_host_avx2(); avx2++)
                    run_setp_case((ir_cmp)cmp, types[ti], pairs[k][0], pairs[k][1], avx2);
        }
}

/* Only a decoded setp_int handler makes the two decided setps (immediates) and the register
 * ones differ from h_alu; this checks that the shortcut is really taken for the first and not
 * for the `.and` form. */
static void test_setp_int_is_chosen(void **state)
{
    (void)state;
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t r = irb_reg(&b, IR_T_U32, "%r0");
    uint32_t p = irb_pred(&b, "%p0"), q = irb_pred(&b, "%p1");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(r), irb_sreg(IR_SREG_TID_X), NONE, NONE);
    setp(&b, IR_CMP_LT, IR_T_S32, p, q, irb_r(r), irb_imm(3), -1, UINT32_MAX);
    setp(&b, IR_CMP_LT, IR_T_S32, p, q, irb_r(r), irb_imm(3), (int)p, UINT32_MAX);
    setp(&b, IR_CMP_LT, IR_T_U64, p, q, irb_r(r), irb_imm(3), -1, UINT32_MAX);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(r), irb_sreg(IR_SREG_TID_X), irb_imm(0), NONE); /* 4 */
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    diag_list dl;
    diag_list_init(&dl);
    exec_program *prog = exec_program_create(b.m, &dl);
    assert_non_null(prog);
    const exec_xinsn *code = prog->funcs[0].code;
    assert_ptr_equal(code[1].alu, code[2].alu);      /* the same lane function (setp_s32) ... */
    assert_true(code[1].fn != code[2].fn);           /* ... but not the same handler */
    assert_ptr_equal(code[2].fn, code[4].fn);        /* the `.and` form is h_alu's, as add */
    assert_ptr_equal(code[3].fn, code[4].fn);        /* 64-bit: h_alu */
    assert_true(code[0].fn != code[4].fn);           /* mov of %tid.x: exec_h_mov_sreg */
    exec_program_destroy(prog);
    diag_list_fini(&dl);
    ir_module_destroy(b.m);
}

/* An add.cc guarded off in every lane neither writes its destination nor the carry flag: the
 * addc after it still sees the carry of the first add.cc. Then add.cc with every lane active
 * whose destination is also a source (not written in place), and mad whose destination no
 * source reads (written in place), and the same with half the lanes (old values kept). */
static void test_alu_guarded_off_and_direct_writes(void **state)
{
    (void)state;
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t s = irb_reg(&b, IR_T_U32, "%r1"), c = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t m = irb_reg(&b, IR_T_U32, "%r3"), h = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t off = irb_pred(&b, "%p0"), odd = irb_pred(&b, "%p1"), x = irb_reg(&b, IR_T_U32, "%r5");
    setp(&b, IR_CMP_NE, IR_T_U32, off, UINT32_MAX, irb_imm(0), irb_imm(0), -1, UINT32_MAX);
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(1), NONE);
    setp(&b, IR_CMP_NE, IR_T_U32, odd, UINT32_MAX, irb_r(x), irb_imm(0), -1, UINT32_MAX);
    /* s = tid + 0xFFFFFFF0: carry out in lanes 16 and up */
    ir_insn *a = irb_alu(&b, IR_ADD, IR_T_U32, irb_r(s), irb_r(r_tid), irb_imm(0xFFFFFFF0), NONE);
    a->mods = IR_MOD_CC;
    a->flag_out = 1;
    /* guarded off everywhere: would set s = 0 and clear every carry */
    a = irb_alu(&b, IR_ADD, IR_T_U32, irb_r(s), irb_imm(0), irb_imm(0), NONE);
    a->mods = IR_MOD_CC;
    a->flag_out = 1;
    irb_guard(a, off, 0);
    a = irb_alu(&b, IR_ADD, IR_T_U32, irb_r(c), irb_imm(0), irb_imm(0), NONE); /* c = carry */
    a->mods = IR_MOD_CARRY_IN;
    a->flag_in = 1;
    /* s = s + s (every lane; the destination is a source) */
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(s), irb_r(s), irb_r(s), NONE);
    /* m = tid * 3 + s (in place); h = 7 then, odd lanes only, h = tid * tid + 1 */
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(m), irb_r(r_tid), irb_imm(3), irb_r(s))->mods = IR_MOD_LO;
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(h), irb_imm(7), NONE, NONE);
    a = irb_alu(&b, IR_MAD, IR_T_U32, irb_r(h), irb_r(r_tid), irb_r(r_tid), irb_imm(1));
    a->mods = IR_MOD_LO;
    irb_guard(a, odd, 0);
    /* out = c | m << 1 | h << 20 ... packed: c + 2 * (m + (h << 16)) */
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(h), irb_r(h), irb_imm(16), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(m), irb_r(m), irb_r(h), NONE);
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(c), irb_r(m), irb_imm(2), irb_r(c))->mods = IR_MOD_LO;
    store_at_tid(&b, rd_out, r_tid, c);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = exec_test_run(b.m, BLOCK, 0);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t l = 0; l < BLOCK; l++) {
        uint32_t sum = l + 0xFFFFFFF0u, carry = l >= 16;
        uint32_t s2 = sum + sum, m2 = l * 3 + s2, h2 = (l & 1) ? l * l + 1 : 7;
        uint32_t want = (m2 + (h2 << 16)) * 2 + carry;
        assert_int_equal(o->out[l], want);
    }
    free(o);
    ir_module_destroy(b.m);
}

/* ld.const at an immediate address that memsys_const_load refuses (outside the bank's data,
 * misaligned): the fault is the one exec_h_ld reports for it, at the load's line. */
static void run_bad_const_load(int64_t address, const char *rule, const char *message)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t r = irb_reg(&b, IR_T_U32, "%r0");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(r), irb_imm(1), NONE, NONE);
    ir_operand at = irb_opnd(IR_OPND_ADDR);
    at.imm = address;
    irb_ld(&b, IR_SPACE_CONST, IR_T_U32, irb_r(r), at);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = exec_test_run(b.m, BLOCK, 0);
    assert_int_equal(o->rc, 1);
    assert_true(o->fault.faulted);
    assert_int_equal(o->fault.insn_id, 1);
    assert_int_equal(o->fault.tid[0], 0);
    assert_string_equal(o->fault.rule, rule);
    assert_int_equal(o->fault.ptx_line, 11);
    assert_string_equal(o->fault.message, message);
    assert_int_equal(o->insn[1].constant.requests, 0);
    assert_int_equal(o->insn[1].constant.hits + o->insn[1].constant.misses, 0);
    free(o);
    ir_module_destroy(b.m);
}

static void test_const_load_fault_falls_back(void **state)
{
    (void)state;
    run_bad_const_load(0x40, "EXEC-MEM-001",
                       "invalid const read of size 4 at address 0x40: address is outside the "
                       "window's allocated size");
    run_bad_const_load((int64_t)(3ull << MEM_CONST_BANK_SHIFT) + 2, "EXEC-MEM-001",
                       "invalid const read of size 4 at address 0x3000002: address is not "
                       "aligned to the access size");
    run_bad_const_load((int64_t)(3ull << MEM_CONST_BANK_SHIFT) + 8, "EXEC-MEM-001",
                       "invalid const read of size 4 at address 0x3000008: address is outside "
                       "the data of its constant bank");
}

/* ld.param of the kernel's parameter by name at an offset that memsys_load_same refuses (past
 * the 8-byte parameter area, misaligned): h_ld_param_same falls back to h_ld_same, which
 * reports the fault at the load's line and counts nothing for it. */
static void run_bad_param_load(int64_t offset, const char *message)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t out = irb_param(&b, "out", IR_T_U64);
    uint32_t r = irb_reg(&b, IR_T_U32, "%r0");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(r), irb_imm(1), NONE, NONE);
    irb_ld(&b, IR_SPACE_PARAM, IR_T_U32, irb_r(r), irb_addr_sym(out, offset));
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = exec_test_run(b.m, BLOCK, 0);
    assert_int_equal(o->rc, 1);
    assert_true(o->fault.faulted);
    assert_int_equal(o->fault.insn_id, 1);
    assert_int_equal(o->fault.tid[0], 0);
    assert_string_equal(o->fault.rule, "EXEC-MEM-001");
    assert_string_equal(o->fault.message, message);
    assert_int_equal(o->insn[1].constant.requests, 0);
    assert_int_equal(o->insn[1].constant.hits + o->insn[1].constant.misses, 0);
    free(o);
    ir_module_destroy(b.m);
}

static void test_param_load_fault_falls_back(void **state)
{
    (void)state;
    run_bad_param_load(8, "invalid param read of size 4 at address 0x8: address is outside the "
                          "window's allocated size");
    run_bad_param_load(2, "invalid param read of size 4 at address 0x2: address is not aligned "
                          "to the access size");
}

/* h_ld_scalar (exec_mem.c), the lean handler of ld of one u32/b32/f32 or 64-bit element into a
 * register: with every lane active, and guarded to the odd lanes (the even lanes keep the old
 * value), against values C computes. Each thread stores the 64-bit V(t) at out + 8t, then:
 *   a = 7; @odd ld.u32 a, [+4] (high word);   c = ld.u32 [+0] (low word, every lane)
 *   d = 5; @odd ld.u64 d, [+0];               e = ld.u64 [+0] (every lane)
 * and stores a + (c << 8) at word 128 + t, d's halves mixed with e's at word 192 + t. */
static uint64_t v64(uint32_t t) { return (uint64_t)(t + 0x100u) << 32 | (t * 0x10001u + 0x55u); }

static void check_ld_scalar_values(const exec_test_out *o);

static void test_ld_scalar_values(void **state)
{
    (void)state;
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t off = irb_reg(&b, IR_T_U64, "%rd1"), at = irb_reg(&b, IR_T_U64, "%rd2");
    uint32_t v = irb_reg(&b, IR_T_U64, "%rd3"), hi = irb_reg(&b, IR_T_U64, "%rd4");
    uint32_t d = irb_reg(&b, IR_T_U64, "%rd5"), e = irb_reg(&b, IR_T_U64, "%rd6");
    uint32_t a = irb_reg(&b, IR_T_U32, "%r1"), c = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t x = irb_reg(&b, IR_T_U32, "%r3"), y = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t odd = irb_pred(&b, "%p0");
    /* v = (tid + 0x100) << 32 | (tid * 0x10001 + 0x55) */
    irb_alu(&b, IR_MUL, IR_T_U32, irb_r(off), irb_r(r_tid), irb_imm(8), NONE)->mods = IR_MOD_WIDE;
    irb_alu(&b, IR_ADD, IR_T_S64, irb_r(at), irb_r(rd_out), irb_r(off), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(x), irb_r(r_tid), irb_imm(0x100), NONE);
    irb_alu(&b, IR_CVT, IR_T_U64, irb_r(hi), irb_r(x), NONE, NONE)->type2 = IR_T_U32;
    irb_alu(&b, IR_SHL, IR_T_B64, irb_r(hi), irb_r(hi), irb_imm(32), NONE);
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(x), irb_r(r_tid), irb_imm(0x10001), irb_imm(0x55))->mods =
        IR_MOD_LO;
    irb_alu(&b, IR_CVT, IR_T_U64, irb_r(v), irb_r(x), NONE, NONE)->type2 = IR_T_U32;
    irb_alu(&b, IR_OR, IR_T_B64, irb_r(v), irb_r(v), irb_r(hi), NONE);
    irb_st(&b, IR_SPACE_GLOBAL, IR_T_U64, irb_addr_reg(at, 0), irb_r(v));
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(1), NONE);
    setp(&b, IR_CMP_NE, IR_T_U32, odd, UINT32_MAX, irb_r(x), irb_imm(0), -1, UINT32_MAX);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(a), irb_imm(7), NONE, NONE);
    irb_guard(irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(a), irb_addr_reg(at, 4)), odd, 0);
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(c), irb_addr_reg(at, 0));
    irb_alu(&b, IR_MOV, IR_T_U64, irb_r(d), irb_imm(5), NONE, NONE);
    irb_guard(irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U64, irb_r(d), irb_addr_reg(at, 0)), odd, 0);
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U64, irb_r(e), irb_addr_reg(at, 0));
    /* word 128 + t: a + (c << 8); word 192 + t: lo(d) ^ hi(d) * 3 ^ lo(e) * 5 ^ hi(e) * 7 */
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(y), irb_r(c), irb_imm(8), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(y), irb_r(y), irb_r(a), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(x), irb_r(r_tid), irb_imm(128), NONE);
    store_at_tid(&b, rd_out, x, y);
    irb_alu(&b, IR_CVT, IR_T_U32, irb_r(y), irb_r(d), NONE, NONE)->type2 = IR_T_U64;
    irb_alu(&b, IR_SHR, IR_T_U64, irb_r(hi), irb_r(d), irb_imm(32), NONE);
    irb_alu(&b, IR_CVT, IR_T_U32, irb_r(x), irb_r(hi), NONE, NONE)->type2 = IR_T_U64;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(x), irb_r(x), irb_imm(3), irb_imm(0))->mods = IR_MOD_LO;
    irb_alu(&b, IR_XOR, IR_T_B32, irb_r(y), irb_r(y), irb_r(x), NONE);
    irb_alu(&b, IR_CVT, IR_T_U32, irb_r(x), irb_r(e), NONE, NONE)->type2 = IR_T_U64;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(x), irb_r(x), irb_imm(5), irb_imm(0))->mods = IR_MOD_LO;
    irb_alu(&b, IR_XOR, IR_T_B32, irb_r(y), irb_r(y), irb_r(x), NONE);
    irb_alu(&b, IR_SHR, IR_T_U64, irb_r(hi), irb_r(e), irb_imm(32), NONE);
    irb_alu(&b, IR_CVT, IR_T_U32, irb_r(x), irb_r(hi), NONE, NONE)->type2 = IR_T_U64;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(x), irb_r(x), irb_imm(7), irb_imm(0))->mods = IR_MOD_LO;
    irb_alu(&b, IR_XOR, IR_T_B32, irb_r(y), irb_r(y), irb_r(x), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(x), irb_r(r_tid), irb_imm(192), NONE);
    store_at_tid(&b, rd_out, x, y);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    /* Once as the host runs it (the AVX2 unpacking where the CPU has AVX2), once without. */
    for (int avx2 = exec_host_avx2(); avx2 >= 0; avx2--) {
        exec_test_out *o = calloc(1, sizeof *o);
        assert_non_null(o);
        exec_test_ctx ctx;
        exec_test_begin(&ctx, b.m, o);
        ctx.p->host_avx2 = (uint8_t)avx2;
        exec_launch L = exec_test_launch_of(&ctx, BLOCK);
        exec_test_launch(&ctx, b.m, o, &L);
        exec_test_end(&ctx);
        check_ld_scalar_values(o);
        free(o);
    }
    ir_module_destroy(b.m);
}

/* test_ld_scalar_values' expected words. */
static void check_ld_scalar_values(const exec_test_out *o)
{
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < BLOCK; t++) {
        uint64_t w = v64(t), dv = (t & 1) ? w : 5;
        uint32_t av = (t & 1) ? (uint32_t)(w >> 32) : 7;
        assert_int_equal(o->out[2 * t], (uint32_t)w);
        assert_int_equal(o->out[2 * t + 1], (uint32_t)(w >> 32));
        assert_int_equal(o->out[128 + t], av + ((uint32_t)w << 8));
        assert_int_equal(o->out[192 + t], (uint32_t)dv ^ (uint32_t)(dv >> 32) * 3u ^
                                              (uint32_t)w * 5u ^ (uint32_t)(w >> 32) * 7u);
    }
}

/* The lean handler is taken for ld of u32, f32 and u64 into a register, and not for a
 * sign-extending s32 load into a 64-bit register, a u16, a v2 or a load with a cache policy. */
static void test_ld_scalar_is_chosen(void **state)
{
    (void)state;
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd = irb_reg(&b, IR_T_U64, "%rd0"), r = irb_reg(&b, IR_T_U32, "%r0");
    uint32_t r2 = irb_reg(&b, IR_T_U32, "%r1");
    uint32_t f = irb_reg(&b, IR_T_F32, "%f0"), h = irb_reg(&b, IR_T_U16, "%h0");
    uint32_t wide = irb_reg(&b, IR_T_S64, "%rd1"), pol = irb_reg(&b, IR_T_U64, "%rd2");
    irb_alu(&b, IR_MOV, IR_T_U64, irb_r(rd), irb_imm(0), NONE, NONE);
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(r), irb_addr_reg(rd, 0));
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_F32, irb_r(f), irb_addr_reg(rd, 0));
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U64, irb_r(wide), irb_addr_reg(rd, 0));
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_S32, irb_r(wide), irb_addr_reg(rd, 0));
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U16, irb_r(h), irb_addr_reg(rd, 0));
    ir_operand two = irb_opnd(IR_OPND_VEC);
    two.count = 2;
    two.vregs[0] = r;
    two.vregs[1] = r2;
    ir_insn *v2 = irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, two, irb_addr_reg(rd, 0));
    v2->mem.vec = 2;
    ir_insn *p = irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(r), irb_addr_reg(rd, 0));
    p->mem.has_policy = 1;
    irb_src(p, 1, irb_r(pol));
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    diag_list dl;
    diag_list_init(&dl);
    exec_program *prog = exec_program_create(b.m, &dl);
    assert_non_null(prog);
    const exec_xinsn *code = prog->funcs[0].code;
    assert_true(code[1].fn != exec_h_ld);
    assert_ptr_equal(code[2].fn, code[1].fn);
    assert_ptr_equal(code[3].fn, code[1].fn);
    for (int i = 4; i <= 7; i++)
        assert_ptr_equal(code[i].fn, exec_h_ld);
    exec_program_destroy(prog);
    diag_list_fini(&dl);
    ir_module_destroy(b.m);
}

/* exec_lane_count, the instruction loop's count of active lanes, on every single-lane mask,
 * their complements and a sweep of others, against the compiler's popcount. */
static void test_lane_count(void **state)
{
    (void)state;
    assert_int_equal(exec_lane_count(0), 0);
    assert_int_equal(exec_lane_count(FULL_MASK), 32);
    for (unsigned l = 0; l < 32; l++) {
        assert_int_equal(exec_lane_count(1u << l), 1);
        assert_int_equal(exec_lane_count(~(1u << l)), 31);
    }
    uint32_t m = 0x2545F491u;
    for (int i = 0; i < 100000; i++) {
        m ^= m << 13, m ^= m >> 17, m ^= m << 5;
        assert_int_equal(exec_lane_count(m), __builtin_popcount(m));
    }
}

/* exec_h_alu_plain (exec_alu_fast.c) is taken for ALU instructions whose sources are registers and
 * immediates, without flags, into one register; h_alu keeps a special-register source, a
 * carry, a predicate source and a predicate destination. (test_alu_guarded_off_and_direct_writes
 * pins the values of both, with every lane, half the lanes and none.) */
static void test_alu_plain_is_chosen(void **state)
{
    (void)state;
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t r = irb_reg(&b, IR_T_U32, "%r0"), s = irb_reg(&b, IR_T_U32, "%r1");
    uint32_t p = irb_pred(&b, "%p0");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(r), irb_sreg(IR_SREG_TID_X), NONE, NONE);     /* 0 */
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(s), irb_r(r), irb_imm(3), NONE);               /* 1 */
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(s), irb_r(r), irb_r(s), irb_imm(1))->mods = IR_MOD_LO;
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(s), irb_imm(9), NONE, NONE);                   /* 3 */
    ir_insn *cc = irb_alu(&b, IR_ADD, IR_T_U32, irb_r(s), irb_r(r), irb_imm(1), NONE); /* 4 */
    cc->mods = IR_MOD_CC;
    cc->flag_out = 1;
    irb_alu(&b, IR_SELP, IR_T_U32, irb_r(s), irb_r(r), irb_imm(1), irb_p(p));          /* 5 */
    setp(&b, IR_CMP_LT, IR_T_U64, p, UINT32_MAX, irb_r(r), irb_imm(3), -1, UINT32_MAX); /* 6 */
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(s), irb_sreg(IR_SREG_TID_X), irb_imm(0), NONE); /* 7 */
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    diag_list dl;
    diag_list_init(&dl);
    exec_program *prog = exec_program_create(b.m, &dl);
    assert_non_null(prog);
    const exec_xinsn *code = prog->funcs[0].code;
    assert_true(code[1].fn != code[7].fn);
    assert_ptr_equal(code[2].fn, code[1].fn);
    assert_ptr_equal(code[3].fn, code[1].fn);
    for (int i = 4; i <= 6; i++)
        assert_ptr_equal(code[i].fn, code[7].fn);
    assert_true(code[0].fn != code[7].fn && code[0].fn != code[1].fn); /* exec_h_mov_sreg */
    exec_program_destroy(prog);
    diag_list_fini(&dl);
    ir_module_destroy(b.m);
}

/* mov.u32 d, %sreg (exec_h_mov_sreg) against the same mov run by h_alu (the MOV family's handler,
 * put in its place after decoding: warp_src and the mov lane function), both into registers
 * holding the same old value, unguarded or guarded by (tid.x & 1) != 0: every
 * thread of a grid of two CTAs of bx x by x bz threads stores the two results' XOR at its global
 * linear index g and the fast path's value at 128 + g. */
static void run_mov_sreg_case(ir_sreg sr, int guarded, uint32_t bx, uint32_t by, uint32_t bz)
{
    uint32_t n = bx * by * bz;
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t ty = irb_reg(&b, IR_T_U32, "%r1"), tz = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t g = irb_reg(&b, IR_T_U32, "%r3"), cta = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t fast = irb_reg(&b, IR_T_U32, "%r5"), slow = irb_reg(&b, IR_T_U32, "%r6");
    uint32_t x = irb_reg(&b, IR_T_U32, "%r7"), p = irb_pred(&b, "%p0");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(ty), irb_sreg(IR_SREG_TID_Y), NONE, NONE);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(tz), irb_sreg(IR_SREG_TID_Z), NONE, NONE);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(cta), irb_sreg(IR_SREG_CTAID_X), NONE, NONE);
    /* g = ((cta * bz + tz) * by + ty) * bx + tx */
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(g), irb_r(cta), irb_imm(bz), irb_r(tz))->mods = IR_MOD_LO;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(g), irb_r(g), irb_imm(by), irb_r(ty))->mods = IR_MOD_LO;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(g), irb_r(g), irb_imm(bx), irb_r(r_tid))->mods = IR_MOD_LO;
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(1), NONE);
    setp(&b, IR_CMP_NE, IR_T_U32, p, UINT32_MAX, irb_r(x), irb_imm(0), -1, UINT32_MAX);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(fast), irb_imm(0x5A5A5A5A), NONE, NONE);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(slow), irb_imm(0x5A5A5A5A), NONE, NONE);
    ir_insn *mv = irb_alu(&b, IR_MOV, IR_T_U32, irb_r(fast), irb_sreg(sr), NONE, NONE);
    ir_insn *ad = irb_alu(&b, IR_MOV, IR_T_U32, irb_r(slow), irb_sreg(sr), NONE, NONE);
    if (guarded) {
        irb_guard(mv, p, 0);
        irb_guard(ad, p, 0);
    }
    irb_alu(&b, IR_XOR, IR_T_B32, irb_r(x), irb_r(fast), irb_r(slow), NONE);
    store_at_tid(&b, rd_out, g, x);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(g), irb_r(g), irb_imm(128), NONE);
    store_at_tid(&b, rd_out, g, fast);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx c;
    exec_test_begin(&c, b.m, o);
    assert_ptr_equal(give_general_handler(&c, ad->id, IR_FAM_MOV), exec_h_mov_sreg);
    exec_launch L = exec_test_launch_of(&c, bx);
    L.block[1] = by;
    L.block[2] = bz;
    L.grid[0] = 2;
    exec_test_launch(&c, b.m, o, &L);
    exec_test_end(&c);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 2 * n; t++) {
        uint32_t lin = t % n, tx = lin % bx, want = 0;
        int on = !guarded || (tx & 1);
        switch (sr) {
        case IR_SREG_TID_X: want = tx; break;
        case IR_SREG_TID_Y: want = lin / bx % by; break;
        case IR_SREG_TID_Z: want = lin / (bx * by); break;
        case IR_SREG_NTID_X: want = bx; break;
        case IR_SREG_CTAID_X: want = t / n; break;
        case IR_SREG_NCTAID_X: want = 2; break;
        case IR_SREG_LANEID: want = lin % 32; break;
        case IR_SREG_LANEMASK_LT: want = (1u << (lin % 32)) - 1; break;
        default: want = o->out[128 + t]; break; /* the XOR alone decides */
        }
        assert_int_equal(o->out[t], 0);
        assert_int_equal(o->out[128 + t], on ? want : 0x5A5A5A5Au);
    }
    free(o);
    ir_module_destroy(b.m);
}

static void test_mov_sreg_matches_h_alu(void **state)
{
    (void)state;
    static const ir_sreg regs[] = {IR_SREG_TID_X,   IR_SREG_TID_Y,       IR_SREG_TID_Z,
                                   IR_SREG_NTID_X,  IR_SREG_CTAID_X,     IR_SREG_NCTAID_X,
                                   IR_SREG_LANEID,  IR_SREG_LANEMASK_LT, IR_SREG_WARPID,
                                   IR_SREG_SMID,    IR_SREG_NSMID,       IR_SREG_GRIDID};
    for (unsigned i = 0; i < sizeof regs / sizeof *regs; i++)
        for (int guarded = 0; guarded < 2; guarded++) {
            run_mov_sreg_case(regs[i], guarded, 64, 1, 1);
            run_mov_sreg_case(regs[i], guarded, 5, 3, 4); /* a partial second warp */
            run_mov_sreg_case(regs[i], guarded, 32, 2, 1); /* one row a warp: %tid.y 0, 1 */
            run_mov_sreg_case(regs[i], guarded, 8, 4, 2);  /* four whole rows a warp */
            run_mov_sreg_case(regs[i], guarded, 16, 3, 1); /* rows; the second warp wraps */
            run_mov_sreg_case(regs[i], guarded, 8, 2, 4);  /* rows that wrap past y */
            run_mov_sreg_case(regs[i], guarded, 8, 3, 2);  /* by one row */
        }
}

/* and/or/xor/not.pred d, a, b (exec_h_pred_logic) against the same instruction run by h_alu (the
 * ALU family's handler, put in its place after decoding), a = (tid & 1) != 0 and b = (tid & 2)
 * != 0, each negated or not, into destinations holding (tid & 4) != 0, unguarded or guarded by
 * (tid & 8) != 0: every thread stores the fast result | the general one << 1. */
static void run_pred_logic_case(ir_opcode op, int neg_a, int neg_b, int guarded)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t x = irb_reg(&b, IR_T_U32, "%r1"), v = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t pa = irb_pred(&b, "%pa"), pb = irb_pred(&b, "%pb"), g = irb_pred(&b, "%g");
    uint32_t fast = irb_pred(&b, "%pf"), slow = irb_pred(&b, "%ps");
    const uint32_t *preds[] = {&pa, &pb, &fast, &g};
    for (int k = 0; k < 4; k++) {
        irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(1 << k), NONE);
        setp(&b, IR_CMP_NE, IR_T_U32, *preds[k], UINT32_MAX, irb_r(x), irb_imm(0), -1,
             UINT32_MAX);
    }
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(x), irb_r(r_tid), irb_imm(4), NONE);
    setp(&b, IR_CMP_NE, IR_T_U32, slow, UINT32_MAX, irb_r(x), irb_imm(0), -1, UINT32_MAX);
    ir_operand a = irb_p(pa), c = irb_p(pb);
    a.neg = (uint8_t)neg_a;
    c.neg = (uint8_t)neg_b;
    ir_operand c_or_none = op == IR_NOT ? NONE : c;
    uint32_t at = b.fn->ninsns;
    ir_insn *f = irb_alu(&b, op, IR_T_PRED, irb_p(fast), a, c_or_none, NONE);
    if (guarded)
        irb_guard(f, g, 0);
    ir_insn *s = irb_alu(&b, op, IR_T_PRED, irb_p(slow), a, c_or_none, NONE);
    if (guarded)
        irb_guard(s, g, 0);
    irb_alu(&b, IR_SELP, IR_T_U32, irb_r(v), irb_imm(1), irb_imm(0), irb_p(fast));
    irb_alu(&b, IR_SELP, IR_T_U32, irb_r(x), irb_imm(2), irb_imm(0), irb_p(slow));
    irb_alu(&b, IR_OR, IR_T_B32, irb_r(v), irb_r(v), irb_r(x), NONE);
    store_at_tid(&b, rd_out, r_tid, v);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx ctx;
    exec_test_begin(&ctx, b.m, o);
    assert_ptr_equal(give_general_handler(&ctx, at + 1, IR_FAM_ALU), exec_h_pred_logic);
    exec_launch L = exec_test_launch_of(&ctx, BLOCK);
    exec_test_launch(&ctx, b.m, o, &L);
    exec_test_end(&ctx);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t l = 0; l < BLOCK; l++) {
        uint32_t va = (l & 1) != 0, vb = (l & 2) != 0, want;
        va ^= (uint32_t)neg_a;
        vb ^= (uint32_t)neg_b;
        switch (op) {
        case IR_AND: want = va & vb; break;
        case IR_OR: want = va | vb; break;
        case IR_XOR: want = va ^ vb; break;
        default: want = !va; break;
        }
        if (guarded && !(l & 8))
            want = (l & 4) != 0;
        assert_int_equal(o->out[l], want | want << 1);
    }
    free(o);
    ir_module_destroy(b.m);
}

static void test_pred_logic_matches_h_alu(void **state)
{
    (void)state;
    static const ir_opcode ops[] = {IR_AND, IR_OR, IR_XOR, IR_NOT};
    for (unsigned i = 0; i < 4; i++)
        for (int k = 0; k < 8; k++)
            run_pred_logic_case(ops[i], k & 1, (k >> 1) & 1, (k >> 2) & 1);
}

/* %tid.x/y/z (exec_warp.c tid_lanes, the first lane by division and the others by counting on)
 * in blocks whose rows and planes end inside a warp, and in blocks whose warps each lie inside
 * one row (counted on without carries): every thread stores
 * tid.x | tid.y << 8 | tid.z << 16 at its linear index. */
static void run_tid_case(uint32_t bx, uint32_t by, uint32_t bz)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t ty = irb_reg(&b, IR_T_U32, "%r1"), tz = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t lin = irb_reg(&b, IR_T_U32, "%r3"), v = irb_reg(&b, IR_T_U32, "%r4");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(ty), irb_sreg(IR_SREG_TID_Y), NONE, NONE);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(tz), irb_sreg(IR_SREG_TID_Z), NONE, NONE);
    /* lin = (tz * by + ty) * bx + tx */
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(lin), irb_r(tz), irb_imm(by), irb_r(ty))->mods = IR_MOD_LO;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(lin), irb_r(lin), irb_imm(bx), irb_r(r_tid))->mods =
        IR_MOD_LO;
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(ty), irb_r(ty), irb_imm(8), NONE);
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(tz), irb_r(tz), irb_imm(16), NONE);
    irb_alu(&b, IR_OR, IR_T_B32, irb_r(v), irb_r(r_tid), irb_r(ty), NONE);
    irb_alu(&b, IR_OR, IR_T_B32, irb_r(v), irb_r(v), irb_r(tz), NONE);
    store_at_tid(&b, rd_out, lin, v);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx x;
    exec_test_begin(&x, b.m, o);
    exec_launch L = exec_test_launch_of(&x, bx);
    L.block[1] = by;
    L.block[2] = bz;
    exec_test_launch(&x, b.m, o, &L);
    exec_test_end(&x);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < bx * by * bz; t++)
        assert_int_equal(o->out[t], t % bx | (t / bx % by) << 8 | (t / (bx * by)) << 16);
    free(o);
    ir_module_destroy(b.m);
}

static void test_tid_lanes(void **state)
{
    (void)state;
    run_tid_case(3, 5, 7);
    run_tid_case(1, 1, 64);
    run_tid_case(5, 1, 40);
    run_tid_case(33, 2, 3);
    run_tid_case(16, 16, 1);
    run_tid_case(64, 2, 1); /* every warp inside one row: tid_lanes without carries */
    run_tid_case(48, 2, 2); /* warps inside a row and warps across rows */
}

/* exec_mem_addresses' register loops (exec_mem.c reg_addresses, and its AVX2 build on hosts
 * that have AVX2): [reg + imm] in 64 bits, [reg32 + imm] modulo 2^32 (EXEC_MEM_AUX_ADDR32) and
 * a register pair's [hi:lo + imm] (EXEC_MEM_AUX_PAIR), every lane against its formula, with the
 * program's host_avx2 off and, when the host has AVX2, on. */
static void test_lane_addresses(void **state)
{
    (void)state;
    static uint64_t regs[2 * LANES];
    for (unsigned l = 0; l < LANES; l++) {
        regs[l] = 0xFFFFFFF0ull + l * 0x10000001ull;            /* crosses 2^32 */
        regs[LANES + l] = 0x55ABCD0000ull + l * 3; /* a pair's high words, upper bits set */
    }
    static exec_program prog;
    static exec_run_state rs;
    static exec_warp w;
    rs.prog = &prog;
    w.run = &rs;
    w.regs = regs;
    ir_operand one = irb_addr_reg(0, -24), pair = irb_addr_reg(0, 40);
    pair.count = 2;
    pair.vregs[0] = 0;
    pair.vregs[1] = 1;
    for (int avx2 = 0; avx2 <= exec_host_avx2(); avx2++) {
        prog.host_avx2 = (uint8_t)avx2;
        uint64_t addr[LANES];
        assert_int_equal(exec_mem_addresses(&w, &one, IR_SPACE_GLOBAL, 0, addr), IR_SPACE_GLOBAL);
        for (unsigned l = 0; l < LANES; l++) assert_true(addr[l] == regs[l] - 24);
        assert_int_equal(exec_mem_addresses(&w, &one, IR_SPACE_SHARED, EXEC_MEM_AUX_ADDR32, addr),
                         IR_SPACE_SHARED);
        for (unsigned l = 0; l < LANES; l++) assert_true(addr[l] == (uint32_t)(regs[l] - 24));
        exec_mem_addresses(&w, &pair, IR_SPACE_GLOBAL, EXEC_MEM_AUX_PAIR, addr);
        for (unsigned l = 0; l < LANES; l++)
            assert_true(addr[l] == (regs[LANES + l] << 32 | (uint32_t)regs[l]) + 40);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setp_int_matches_the_general_path),
        cmocka_unit_test(test_setp_int_is_chosen),
        cmocka_unit_test(test_alu_guarded_off_and_direct_writes),
        cmocka_unit_test(test_const_load_fault_falls_back),
        cmocka_unit_test(test_param_load_fault_falls_back),
        cmocka_unit_test(test_ld_scalar_values),
        cmocka_unit_test(test_ld_scalar_is_chosen),
        cmocka_unit_test(test_lane_count),
        cmocka_unit_test(test_alu_plain_is_chosen),
        cmocka_unit_test(test_tid_lanes),
        cmocka_unit_test(test_mov_sreg_matches_h_alu),
        cmocka_unit_test(test_pred_logic_matches_h_alu),
        cmocka_unit_test(test_lane_addresses),
        cmocka_unit_test(test_stretches_match_the_general_loop),
        cmocka_unit_test(test_alu_plain_blend_matches_h_alu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
