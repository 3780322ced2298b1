/* Unit tests for the call-return stack (src/exec/exec_crs.c) on IR built by hand: SSY/SYNC and
 * PBK/BRK with divergent lanes, CAL/RET recursion deeper than the CRS cache (its spills and
 * fills are local accesses in the counters), CCTLL.CRS.WBALL, the save and restore of the
 * stack with SETCRSPTR/GETCRSPTR, and every EXEC-CRS fault. The modules have typed virtual
 * registers and the SASS instruction layout (8-byte instructions, a control word per 3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "exec_test.h"
#include "ir_build.h"

#define NONE irb_opnd(IR_OPND_NONE)

/* Byte offset of instruction pc in the SASS layout: what a stack entry holds. */
static uint32_t offset_of(uint32_t pc) { return pc / 3 * 32 + 8 + pc % 3 * 8; }

enum { KIND_SSY = 1u << 30, KIND_PBK = 2u << 30, KIND_CAL = 3u << 30 };

static void crs_module(irb *b, uint32_t cached, uint32_t max)
{
    irb_module(b);
    b->m->machine.call_conv = IR_CALL_RETURN_STACK;
    b->m->machine.crs_cached = cached;
    b->m->machine.crs_max = max;
    b->m->machine.insn_bytes = 8;
    b->m->machine.ctrl_group = 3;
    b->m->machine.ctrl_bytes = 8;
    irb_func(b, "k", 1);
}

/* ssy, pbk or cal to `target` (patch forward targets with set_target). */
static ir_insn *to(irb *b, ir_opcode op, uint32_t target)
{
    return irb_src(irb_op(b, op, IR_T_NONE), 0, irb_label(target));
}

static void set_target(ir_insn *in, uint32_t target) { in->src[0].imm = target; }

static uint32_t here(const irb *b) { return b->fn->ninsns; }

static ir_insn *alu(irb *b, ir_opcode op, uint32_t d, ir_operand a, ir_operand c)
{
    return irb_alu(b, op, op == IR_AND ? IR_T_B32 : IR_T_U32, irb_r(d), a, c, NONE);
}

static ir_insn *setp(irb *b, uint32_t p, ir_cmp cmp, uint32_t a, ir_operand c)
{
    ir_insn *in = irb_alu(b, IR_SETP, IR_T_U32, irb_p(p), irb_r(a), c, NONE);
    in->cmp = (uint8_t)cmp;
    return in;
}

/* %rd0 = out, %r0 = tid.x (instructions 0 and 1). */
static void start(irb *b, uint32_t *rd_out, uint32_t *r_tid)
{
    uint32_t out = irb_param(b, "out", IR_T_U64);
    *rd_out = irb_reg(b, IR_T_U64, "%rd0");
    *r_tid = irb_reg(b, IR_T_U32, "%r0");
    irb_ld(b, IR_SPACE_PARAM, IR_T_U64, irb_r(*rd_out), irb_addr_sym(out, 0));
    irb_alu(b, IR_MOV, IR_T_U32, irb_r(*r_tid), irb_sreg(IR_SREG_TID_X), NONE, NONE);
}

/* out[word + tid] = value: three instructions. */
static void store_at(irb *b, uint32_t rd_out, uint32_t r_tid, uint32_t value, uint32_t word)
{
    uint32_t off = irb_reg(b, IR_T_U64, "%rd1"), addr = irb_reg(b, IR_T_U64, "%rd2");
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(off), irb_r(r_tid), irb_imm(4), NONE)->mods = IR_MOD_WIDE;
    irb_alu(b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(rd_out), irb_r(off), NONE);
    irb_st(b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(addr, (int64_t)word * 4), irb_r(value));
}

static ir_insn *getcrsptr(irb *b, uint32_t d)
{
    return irb_dst(irb_op(b, IR_GETCRSPTR, IR_T_U32), 0, irb_r(d));
}

static ir_insn *setcrsptr(irb *b, ir_operand n)
{
    return irb_src(irb_op(b, IR_SETCRSPTR, IR_T_U32), 0, n);
}

/* CCTLL.CRS.WBALL */
static ir_insn *wball(irb *b)
{
    ir_insn *in = irb_op(b, IR_CCTL, IR_T_NONE);
    in->mem.cctl = IR_CCTL_WRITEBACK;
    in->mem.cctl_levels = IR_LEVEL_CRS;
    in->mem.cctl_all = 1;
    in->mem.space = IR_SPACE_LOCAL;
    in->mem.cctl_lines = IR_LINES_LOCAL;
    return in;
}

static ir_insn *ld_local(irb *b, uint32_t d, int64_t offset)
{
    ir_operand a = irb_opnd(IR_OPND_ADDR);
    a.imm = offset;
    return irb_ld(b, IR_SPACE_LOCAL, IR_T_U32, irb_r(d), a);
}

static ir_insn *st_local(irb *b, int64_t offset, uint32_t v)
{
    ir_operand a = irb_opnd(IR_OPND_ADDR);
    a.imm = offset;
    return irb_st(b, IR_SPACE_LOCAL, IR_T_U32, a, irb_r(v));
}

/* Nested SSY/SYNC: odd lanes split again inside the outer if. Every lane ends with the value
 * of its path + 1000, the stack is empty again, and both reconvergence points run once per
 * warp. */
static void test_nested_ssy_sync(void **state)
{
    (void)state;
    irb b;
    crs_module(&b, 16, 256);
    uint32_t rd, tid, a, c, v, d;
    start(&b, &rd, &tid);
    a = irb_reg(&b, IR_T_U32, "%r1");
    c = irb_reg(&b, IR_T_U32, "%r2");
    v = irb_reg(&b, IR_T_U32, "%r3");
    d = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t p0 = irb_pred(&b, "%p0"), p1 = irb_pred(&b, "%p1");
    ir_insn *outer = to(&b, IR_SSY, 0);
    alu(&b, IR_AND, a, irb_r(tid), irb_imm(1));
    setp(&b, p0, IR_CMP_EQ, a, irb_imm(0));
    ir_insn *to_else = irb_guard(irb_bra(&b, 0), p0, 0); /* even lanes */
    ir_insn *inner = to(&b, IR_SSY, 0);
    alu(&b, IR_AND, c, irb_r(tid), irb_imm(2));
    setp(&b, p1, IR_CMP_EQ, c, irb_imm(0));
    ir_insn *to_inner_else = irb_guard(irb_bra(&b, 0), p1, 0);
    alu(&b, IR_MOV, v, irb_imm(10), NONE);
    irb_op(&b, IR_SYNC, IR_T_NONE);
    set_target(to_inner_else, here(&b));
    alu(&b, IR_MOV, v, irb_imm(20), NONE);
    irb_op(&b, IR_SYNC, IR_T_NONE);
    set_target(inner, here(&b));
    uint32_t inner_join = here(&b);
    irb_op(&b, IR_SYNC, IR_T_NONE);
    set_target(to_else, here(&b));
    alu(&b, IR_MOV, v, irb_imm(30), NONE);
    irb_op(&b, IR_SYNC, IR_T_NONE);
    set_target(outer, here(&b));
    uint32_t outer_join = here(&b);
    alu(&b, IR_ADD, v, irb_r(v), irb_imm(1000));
    getcrsptr(&b, d);
    store_at(&b, rd, tid, v, 0);
    store_at(&b, rd, tid, d, 64);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = exec_test_run(b.m, 64, 0);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t want = (t & 1) ? ((t & 2) ? 10 : 20) : 30;
        assert_int_equal(o->out[t], want + 1000);
        assert_int_equal(o->out[64 + t], 0);
    }
    /* Reconverged: once per warp at each join, so twice for the two warps. */
    assert_int_equal(o->executions[b.fn->insns[inner_join].id], 2);
    assert_int_equal(o->executions[b.fn->insns[outer_join].id], 2);
    /* 16 cached entries: the stack never touched memory. */
    for (uint32_t i = 0; i < b.m->ninsns_total; i++)
        if (b.fn->insns[i].op != IR_ST)
            assert_int_equal(o->insn[i].l1.requests, 0);
    free(o);
    ir_module_destroy(b.m);
}

/* A PBK/BRK loop that lane t leaves after t & 7 iterations, from inside an SSY block (brk pops
 * the ssy entry on its way to the pbk one). */
static void test_pbk_brk_loop(void **state)
{
    (void)state;
    irb b;
    crs_module(&b, 16, 256);
    uint32_t rd, tid, k, i, v, d;
    start(&b, &rd, &tid);
    k = irb_reg(&b, IR_T_U32, "%r1");
    i = irb_reg(&b, IR_T_U32, "%r2");
    v = irb_reg(&b, IR_T_U32, "%r3");
    d = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t p0 = irb_pred(&b, "%p0");
    alu(&b, IR_AND, k, irb_r(tid), irb_imm(7));
    alu(&b, IR_MOV, i, irb_imm(0), NONE);
    ir_insn *pbk = to(&b, IR_PBK, 0);
    uint32_t loop = here(&b);
    ir_insn *ssy = to(&b, IR_SSY, 0);
    setp(&b, p0, IR_CMP_GE, i, irb_r(k));
    irb_guard(irb_op(&b, IR_BRK, IR_T_NONE), p0, 0);
    alu(&b, IR_ADD, i, irb_r(i), irb_imm(1));
    irb_op(&b, IR_SYNC, IR_T_NONE);
    set_target(ssy, here(&b));
    irb_bra(&b, loop);
    set_target(pbk, here(&b));
    uint32_t end = here(&b);
    alu(&b, IR_ADD, v, irb_r(i), irb_imm(100));
    getcrsptr(&b, d);
    store_at(&b, rd, tid, v, 0);
    store_at(&b, rd, tid, d, 64);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = exec_test_run(b.m, 40, 0);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 64; t++) {
        assert_int_equal(o->out[t], t < 40 ? (t & 7) + 100 : 0);
        assert_int_equal(o->out[64 + t], 0);
    }
    assert_int_equal(o->executions[b.fn->insns[end].id], 2);
    free(o);
    ir_module_destroy(b.m);
}

/* The recursion of test_recursion: main calls F with n; F returns at n == 0, else decrements n
 * and calls itself from one of two sites by n's parity; after the call returns, the even site
 * does acc = 2 acc + 1 and the odd one acc = 2 acc. Returns the ids of interest. */
typedef struct recursion_ids {
    uint32_t main_cal, even_cal, odd_cal, early_ret, even_ret, odd_ret;
} recursion_ids;

static recursion_ids build_recursion(irb *b, int uniform)
{
    uint32_t rd, tid, n, acc, t;
    start(b, &rd, &tid);
    n = irb_reg(b, IR_T_U32, "%r1");
    acc = irb_reg(b, IR_T_U32, "%r2");
    t = irb_reg(b, IR_T_U32, "%r3");
    uint32_t p0 = irb_pred(b, "%p0"), p1 = irb_pred(b, "%p1");
    alu(b, IR_MOV, acc, irb_imm(1), NONE);
    if (uniform)
        alu(b, IR_MOV, n, irb_imm(9), NONE);
    else
        alu(b, IR_REM, n, irb_r(tid), irb_imm(12));
    alu(b, IR_ADD, n, irb_r(n), irb_imm(1));
    recursion_ids ids;
    ids.main_cal = here(b);
    ir_insn *call = to(b, IR_CAL, 0);
    store_at(b, rd, tid, acc, 0);
    irb_op(b, IR_EXIT, IR_T_NONE);
    uint32_t f = here(b);
    set_target(call, f);
    setp(b, p0, IR_CMP_EQ, n, irb_imm(0));
    ids.early_ret = here(b);
    irb_guard(irb_op(b, IR_RET_CRS, IR_T_NONE), p0, 0);
    alu(b, IR_SUB, n, irb_r(n), irb_imm(1));
    alu(b, IR_AND, t, irb_r(n), irb_imm(1));
    setp(b, p1, IR_CMP_NE, t, irb_imm(0));
    ir_insn *to_odd = irb_guard(irb_bra(b, 0), p1, 0);
    ids.even_cal = here(b);
    to(b, IR_CAL, f);
    alu(b, IR_ADD, acc, irb_r(acc), irb_r(acc));
    alu(b, IR_ADD, acc, irb_r(acc), irb_imm(1));
    ids.even_ret = here(b);
    irb_op(b, IR_RET_CRS, IR_T_NONE);
    set_target(to_odd, here(b));
    ids.odd_cal = here(b);
    to(b, IR_CAL, f);
    alu(b, IR_ADD, acc, irb_r(acc), irb_r(acc));
    ids.odd_ret = here(b);
    irb_op(b, IR_RET_CRS, IR_T_NONE);
    irb_finish(b);
    return ids;
}

static uint32_t recursion_result(uint32_t n0)
{
    uint32_t acc = 1;
    for (uint32_t v = 0; v < n0; v++) acc = 2 * acc + (v % 2 == 0);
    return acc;
}

/* Recursion 11 entries deep with 4 of them cached: pushes 5 to 11 spill (one warp-wide local
 * store each, charged to the cal that pushes), pops of entries 6 down to 0 fill (one local load
 * each, charged to the ret.crs), and the values come back right. Then with every depth of the
 * cache, and with lanes of different depths. */
static void test_recursion(void **state)
{
    (void)state;
    irb b;
    crs_module(&b, 4, 64);
    recursion_ids ids = build_recursion(&b, 1);
    exec_test_out *o = exec_test_run(b.m, 32, 0);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o->out[t], recursion_result(10));
    /* levels 4..10 push entries 4..10 from the sites of n = 6, 5, ..., 0 */
    assert_int_equal(o->insn[ids.even_cal].l1.requests, 4);
    assert_int_equal(o->insn[ids.odd_cal].l1.requests, 3);
    assert_int_equal(o->insn[ids.main_cal].l1.requests, 0);
    /* entries 6..0 are popped by levels 7..1, whose sites are those of n = 3, ..., 9 */
    assert_int_equal(o->insn[ids.even_ret].l1.requests, 3);
    assert_int_equal(o->insn[ids.odd_ret].l1.requests, 4);
    assert_int_equal(o->insn[ids.early_ret].l1.requests, 0);
    /* each spilled entry is one 4-byte word of every lane: one 128-byte line, four sectors */
    assert_int_equal(o->insn[ids.even_cal].l1.sector_accesses, 16);
    /* the fills found the spilled lines in L1 */
    assert_int_equal(o->insn[ids.odd_ret].l1.sector_hits, 16);
    free(o);

    static const uint32_t cached[] = {0, 1, 11, 64};
    for (size_t c = 0; c < sizeof cached / sizeof *cached; c++) {
        b.m->machine.crs_cached = cached[c];
        o = exec_test_run(b.m, 32, 0);
        exec_test_show_fault(o);
        assert_int_equal(o->rc, 0);
        for (uint32_t t = 0; t < 32; t++) assert_int_equal(o->out[t], recursion_result(10));
        uint64_t spills = o->insn[ids.even_cal].l1.requests + o->insn[ids.odd_cal].l1.requests +
                          o->insn[ids.main_cal].l1.requests;
        /* without a cache every push is a store; 11 entries fit a cache of 11 */
        assert_int_equal(spills, cached[c] == 0 ? 11 : cached[c] == 1 ? 10 : 0);
        free(o);
    }
    ir_module_destroy(b.m);

    crs_module(&b, 4, 64);
    build_recursion(&b, 0);
    o = exec_test_run(b.m, 64, 0);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(o->out[t], recursion_result(t % 12 + 1));
    free(o);
    ir_module_destroy(b.m);
}

/* CCTLL.CRS.WBALL writes the dirty cached entries to the backing store (local offset 0 on,
 * right after the kernel's local bytes) and keeps them, clean: an ld.local sees an entry only
 * after it, and a second write-back stores only what was pushed since. */
static void test_wball_shows_the_entries(void **state)
{
    (void)state;
    irb b;
    crs_module(&b, 4, 8);
    uint32_t rd, tid, r0, r1, r2, r3;
    start(&b, &rd, &tid);
    r0 = irb_reg(&b, IR_T_U32, "%r1");
    r1 = irb_reg(&b, IR_T_U32, "%r2");
    r2 = irb_reg(&b, IR_T_U32, "%r3");
    r3 = irb_reg(&b, IR_T_U32, "%r4");
    ir_insn *call = to(&b, IR_CAL, 0);
    uint32_t back = here(&b);
    store_at(&b, rd, tid, r0, 0);
    store_at(&b, rd, tid, r1, 32);
    store_at(&b, rd, tid, r2, 64);
    store_at(&b, rd, tid, r3, 96);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    set_target(call, here(&b));
    ld_local(&b, r0, 0);
    uint32_t first = here(&b);
    wball(&b);
    ld_local(&b, r1, 0);
    ld_local(&b, r3, 4);
    ir_insn *ssy = to(&b, IR_SSY, 0);
    uint32_t second = here(&b);
    wball(&b);
    uint32_t third = here(&b);
    wball(&b);
    ld_local(&b, r2, 4);
    irb_op(&b, IR_SYNC, IR_T_NONE);
    set_target(ssy, here(&b));
    uint32_t join = here(&b);
    irb_op(&b, IR_RET_CRS, IR_T_NONE);
    irb_finish(&b);
    exec_test_out *o = exec_test_run(b.m, 32, 0);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o->out[t], 0);
        assert_int_equal(o->out[32 + t], KIND_CAL | offset_of(back));
        assert_int_equal(o->out[64 + t], KIND_SSY | offset_of(join));
        assert_int_equal(o->out[96 + t], 0);
    }
    assert_int_equal(o->insn[first].l1.requests, 1);
    assert_int_equal(o->insn[second].l1.requests, 1);
    assert_int_equal(o->insn[third].l1.requests, 0);
    free(o);
    ir_module_destroy(b.m);
}

/* The seed's software note: save the stack with WBALL and GETCRSPTR, empty it with SETCRSPTR 0,
 * use it (here PBK entries that spill over the saved ones), restore the backing store and set
 * the pointer back; ret.crs then fills the restored cal entry from memory. Without the restore
 * the ret finds only the pbk entry left in memory and faults. */
static void build_save_restore(irb *b, int restore)
{
    uint32_t rd, tid, depth, saved, v;
    start(b, &rd, &tid);
    depth = irb_reg(b, IR_T_U32, "%r1");
    saved = irb_reg(b, IR_T_U32, "%r2");
    v = irb_reg(b, IR_T_U32, "%r3");
    ir_insn *call = to(b, IR_CAL, 0);
    alu(b, IR_MOV, v, irb_imm(77), NONE);
    store_at(b, rd, tid, v, 0);
    store_at(b, rd, tid, depth, 32);
    store_at(b, rd, tid, saved, 64);
    irb_op(b, IR_EXIT, IR_T_NONE);
    set_target(call, here(b));
    wball(b);
    getcrsptr(b, depth);
    ld_local(b, saved, 0);
    setcrsptr(b, irb_imm(0));
    ir_insn *p3 = to(b, IR_PBK, 0), *p2 = to(b, IR_PBK, 0), *p1 = to(b, IR_PBK, 0);
    irb_op(b, IR_BRK, IR_T_NONE);
    set_target(p1, here(b));
    irb_op(b, IR_BRK, IR_T_NONE);
    set_target(p2, here(b));
    irb_op(b, IR_BRK, IR_T_NONE);
    set_target(p3, here(b));
    if (restore)
        st_local(b, 0, saved);
    setcrsptr(b, irb_r(depth));
    irb_op(b, IR_RET_CRS, IR_T_NONE);
    irb_finish(b);
}

static void test_setcrsptr_save_and_restore(void **state)
{
    (void)state;
    irb b;
    crs_module(&b, 2, 16);
    build_save_restore(&b, 1);
    exec_test_out *o = exec_test_run(b.m, 32, 0);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o->out[t], 77);
        assert_int_equal(o->out[32 + t], 1);
        assert_int_equal(o->out[64 + t], KIND_CAL | offset_of(3));
    }
    free(o);
    ir_module_destroy(b.m);

    crs_module(&b, 2, 16);
    build_save_restore(&b, 0);
    o = exec_test_run(b.m, 32, 0);
    assert_int_equal(o->rc, 1);
    assert_string_equal(o->fault.rule, "EXEC-CRS-001");
    assert_non_null(strstr(o->fault.message, "ret.crs pops an empty call-return stack"));
    assert_int_equal(o->fault.ptx_line, 10 + b.fn->ninsns - 1);
    free(o);
    ir_module_destroy(b.m);
}

/* ---- faults ---- */

/* Runs `b` (finished) as one warp and checks the fault's rule, line (instruction `pc`) and
 * words. */
static void expect_fault(irb *b, const char *rule, uint32_t pc, const char *words)
{
    exec_test_out *o = exec_test_run(b->m, 32, 0);
    assert_int_equal(o->rc, 1);
    if (strcmp(o->fault.rule, rule) || !strstr(o->fault.message, words))
        exec_test_show_fault(o);
    assert_string_equal(o->fault.rule, rule);
    assert_int_equal(o->fault.ptx_line, 10 + pc);
    assert_non_null(strstr(o->fault.message, words));
    free(o);
    ir_module_destroy(b->m);
}

/* EXEC-CRS-001: sync on an empty stack; brk that finds only ssy entries; sync that reaches a
 * cal entry (its ssy would be in the caller). */
static void test_fault_no_entry(void **state)
{
    (void)state;
    irb b;
    uint32_t rd, tid;
    crs_module(&b, 4, 8);
    start(&b, &rd, &tid);
    irb_op(&b, IR_SYNC, IR_T_NONE);
    irb_finish(&b);
    expect_fault(&b, "EXEC-CRS-001", 2, "sync pops an empty call-return stack (looking for a "
                 "ssy entry)");

    crs_module(&b, 1, 8);
    start(&b, &rd, &tid);
    to(&b, IR_SSY, 5);
    to(&b, IR_SSY, 5);
    irb_op(&b, IR_BRK, IR_T_NONE);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_finish(&b);
    expect_fault(&b, "EXEC-CRS-001", 4, "brk pops an empty call-return stack (looking for a "
                 "pbk entry)");

    crs_module(&b, 4, 8);
    start(&b, &rd, &tid);
    to(&b, IR_SSY, 4);
    to(&b, IR_CAL, 5);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_op(&b, IR_SYNC, IR_T_NONE);
    irb_finish(&b);
    expect_fault(&b, "EXEC-CRS-001", 5, "sync found no ssy entry in the current subroutine (it "
                 "reached the cal entry returning to offset 0x30)");
}

/* EXEC-CRS-002: a push beyond crs_max, and setcrsptr beyond it. */
static void test_fault_overflow(void **state)
{
    (void)state;
    irb b;
    uint32_t rd, tid;
    crs_module(&b, 1, 2);
    start(&b, &rd, &tid);
    to(&b, IR_PBK, 5);
    to(&b, IR_PBK, 5);
    to(&b, IR_PBK, 5);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_finish(&b);
    expect_fault(&b, "EXEC-CRS-002", 4, "pbk pushes a call-return-stack entry beyond the 2 "
                 "entries a thread's stack holds (machine.crs_max)");

    crs_module(&b, 1, 2);
    start(&b, &rd, &tid);
    setcrsptr(&b, irb_imm(3));
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_finish(&b);
    expect_fault(&b, "EXEC-CRS-002", 2, "setcrsptr 3 is beyond the 2 entries");
}

/* EXEC-CRS-003: an entry filled from memory that was never written (kind 0), and one whose
 * target is inside a control word. */
static void test_fault_bad_entry(void **state)
{
    (void)state;
    irb b;
    uint32_t rd, tid;
    crs_module(&b, 4, 8);
    start(&b, &rd, &tid);
    setcrsptr(&b, irb_imm(1));
    irb_op(&b, IR_SYNC, IR_T_NONE);
    irb_finish(&b);
    expect_fault(&b, "EXEC-CRS-003", 3, "sync popped call-return-stack entry 0x00000000 (entry "
                 "0), which is not a valid entry kind");

    crs_module(&b, 4, 8);
    start(&b, &rd, &tid);
    uint32_t v = irb_reg(&b, IR_T_U32, "%r1");
    alu(&b, IR_MOV, v, irb_imm(KIND_SSY | 32), NONE); /* offset 32: group 1's control word */
    st_local(&b, 0, v);
    setcrsptr(&b, irb_imm(1));
    irb_op(&b, IR_SYNC, IR_T_NONE);
    irb_finish(&b);
    expect_fault(&b, "EXEC-CRS-003", 5, "entry 0x40000020 (entry 0), which is not a valid code "
                 "address of the function");
}

/* EXEC-CRS-004: a call-return-stack instruction on PTX's machine is refused before running;
 * a cctl on the stack's cache other than WBALL is refused by name (EXEC-UNSUP-001). */
static void test_refused_modules(void **state)
{
    (void)state;
    irb b;
    uint32_t rd, tid;
    irb_module(&b);
    irb_func(&b, "k", 1);
    start(&b, &rd, &tid);
    to(&b, IR_SSY, 3);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_finish(&b);
    diag_list dl;
    diag_list_init(&dl);
    assert_null(exec_program_create(b.m, &dl));
    const diag *d = diag_find(&dl, "EXEC-CRS-004");
    assert_non_null(d);
    assert_int_equal(d->line, 12);
    assert_non_null(strstr(d->message, "ssy needs a call-return stack, which the module's "
                                       "machine does not have"));
    diag_list_fini(&dl);
    ir_module_destroy(b.m);

    crs_module(&b, 4, 8);
    start(&b, &rd, &tid);
    wball(&b)->mem.cctl = IR_CCTL_INVALIDATE;
    irb_op(&b, IR_EXIT, IR_T_NONE);
    irb_finish(&b);
    diag_list_init(&dl);
    assert_null(exec_program_create(b.m, &dl));
    d = diag_find(&dl, "EXEC-UNSUP-001");
    assert_non_null(d);
    assert_int_equal(d->line, 12);
    diag_list_fini(&dl);
    ir_module_destroy(b.m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_ssy_sync),
        cmocka_unit_test(test_pbk_brk_loop),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_wball_shows_the_entries),
        cmocka_unit_test(test_setcrsptr_save_and_restore),
        cmocka_unit_test(test_fault_no_entry),
        cmocka_unit_test(test_fault_overflow),
        cmocka_unit_test(test_fault_bad_entry),
        cmocka_unit_test(test_refused_modules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
