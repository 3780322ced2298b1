/* The twin test of h_ld_shared_reg's quiet path (src/exec/exec_mem.c): a full warp's
 * ld.shared of a 32-bit register plus an offset, without an observer, goes through
 * mem_shared_load_reg32_quiet, which neither needs the access header nor writes the access's
 * results. It must give exactly what the path with the whole access record gives
 * (exec_ld_shared_general_only = 1): the same values, statistics, window errors, memory
 * counters, executions and faults. The kernel's loads: a row of words, a column four words
 * apart (the exact wavefront count, which reads the offsets), a broadcast, 8-byte lanes, a
 * guarded (partial) warp, a load into its own address register, and partial warps through
 * mem_shared_load_reg32_quiet_mask (a reduction step's first eight lanes,
 * the even lanes' words two apart, two a bank: the exact count over the active lanes, which
 * a count over every lane, or inactive ones at 0, makes three); then, in the variants, a
 * misaligned and an out-of-window load with window errors (both refused by the quiet entry and
 * made by the general path, the misaligned one also on the odd lanes alone), and a misaligned
 * one that faults. */
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

enum { BLOCK = 64, SHARED_BYTES = 1024 };
enum { CLEAN, WINDOW_ERRORS, FAULT };

/* smem[4 t] = 3 t + 1 and smem[256 + 4 t] = t ^ 5 (t = tid); bar; a = smem[4 t + 4] (a row),
 * c = smem[16 t] (a column), e = smem[8] (a broadcast), d = the 8 bytes at smem[8 t] (u64),
 * g = smem[4 t + 256] on the odd lanes (9 on the others), h = smem[h + 4] with h = 4 t,
 * k = smem[8 t + 128] on the even lanes and m = smem[4 t + 32] on lanes 0-7 (0 on the others);
 * WINDOW_ERRORS adds smem[4 t + 2] (misaligned) and smem[4 t + 4096] (outside) to a, and
 * smem[4 t + 2] on the odd lanes, FAULT the misaligned one; out[t] = a + c + e + d's low +
 * d's high + g + h + k + m. */
static ir_module *shared_kernel(int variant)
{
    irb b;
    irb_module(&b);
    if (variant == WINDOW_ERRORS)
        b.m->machine.window_errors = IR_WINDOW_ZERO;
    irb_var(&b, "smem", IR_SPACE_SHARED, SHARED_BYTES);
    irb_func(&b, "k", 1);
    uint32_t out = irb_param(&b, "out", IR_T_U64);
    uint32_t rd = irb_reg(&b, IR_T_U64, "%rd0"), tid = irb_reg(&b, IR_T_U32, "%r0");
    uint32_t off = irb_reg(&b, IR_T_U32, "%r1"), v = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t col = irb_reg(&b, IR_T_U32, "%r3"), wide = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t a = irb_reg(&b, IR_T_U32, "%r5"), c = irb_reg(&b, IR_T_U32, "%r6");
    uint32_t e = irb_reg(&b, IR_T_U32, "%r7"), g = irb_reg(&b, IR_T_U32, "%r8");
    uint32_t h = irb_reg(&b, IR_T_U32, "%r9"), zero = irb_reg(&b, IR_T_U32, "%r10");
    uint32_t x = irb_reg(&b, IR_T_U32, "%r11"), odd = irb_reg(&b, IR_T_U32, "%r12");
    uint32_t d = irb_reg(&b, IR_T_U64, "%rd1"), dh = irb_reg(&b, IR_T_U64, "%rd2");
    uint32_t goff = irb_reg(&b, IR_T_U64, "%rd3"), addr = irb_reg(&b, IR_T_U64, "%rd4");
    uint32_t k = irb_reg(&b, IR_T_U32, "%r13"), mm = irb_reg(&b, IR_T_U32, "%r14");
    uint32_t y = irb_reg(&b, IR_T_U32, "%r15");
    uint32_t p = irb_pred(&b, "%p0"), q = irb_pred(&b, "%p1");
    irb_ld(&b, IR_SPACE_PARAM, IR_T_U64, irb_r(rd), irb_addr_sym(out, 0));
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(tid), irb_sreg(IR_SREG_TID_X), NONE, NONE);
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(off), irb_r(tid), irb_imm(2), NONE);
    irb_alu(&b, IR_MUL, IR_T_U32, irb_r(v), irb_r(tid), irb_imm(3), NONE)->mods = IR_MOD_LO;
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(v), irb_r(v), irb_imm(1), NONE);
    irb_st(&b, IR_SPACE_SHARED, IR_T_U32, irb_addr_reg(off, 0), irb_r(v));
    irb_alu(&b, IR_XOR, IR_T_B32, irb_r(v), irb_r(tid), irb_imm(5), NONE);
    irb_st(&b, IR_SPACE_SHARED, IR_T_U32, irb_addr_reg(off, 256), irb_r(v));
    ir_insn *bar = irb_src(irb_op(&b, IR_BAR, IR_T_NONE), 0, irb_imm(0));
    bar->sub = IR_BAR_SYNC;
    irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(a), irb_addr_reg(off, 4));
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(col), irb_r(tid), irb_imm(4), NONE);
    irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(c), irb_addr_reg(col, 0));
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(zero), irb_imm(0), NONE, NONE);
    irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(e), irb_addr_reg(zero, 8));
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(wide), irb_r(tid), irb_imm(3), NONE);
    irb_ld(&b, IR_SPACE_SHARED, IR_T_U64, irb_r(d), irb_addr_reg(wide, 0));
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(odd), irb_r(tid), irb_imm(1), NONE);
    irb_alu(&b, IR_SETP, IR_T_U32, irb_p(p), irb_r(odd), irb_imm(0), NONE)->cmp = IR_CMP_NE;
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(g), irb_imm(9), NONE, NONE);
    irb_guard(irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(g), irb_addr_reg(off, 256)), p, 0);
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(h), irb_r(off), NONE, NONE);
    irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(h), irb_addr_reg(h, 4));
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(k), irb_imm(0), NONE, NONE);
    irb_guard(irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(k), irb_addr_reg(wide, 128)), p, 1);
    irb_alu(&b, IR_SETP, IR_T_U32, irb_p(q), irb_r(tid), irb_imm(8), NONE)->cmp = IR_CMP_LT;
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(mm), irb_imm(0), NONE, NONE);
    irb_guard(irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(mm), irb_addr_reg(off, 32)), q, 0);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(h), irb_r(h), irb_r(k), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(h), irb_r(h), irb_r(mm), NONE);
    if (variant != CLEAN) {
        irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(x), irb_addr_reg(off, 2));
        irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(x), NONE);
    }
    if (variant == WINDOW_ERRORS) {
        irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(x), irb_addr_reg(off, 4096));
        irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(x), NONE);
        irb_alu(&b, IR_MOV, IR_T_U32, irb_r(y), irb_imm(0), NONE, NONE);
        irb_guard(irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(y), irb_addr_reg(off, 2)), p, 0);
        irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(y), NONE);
    }
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(c), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(e), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(g), NONE);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(h), NONE);
    irb_alu(&b, IR_SHR, IR_T_B64, irb_r(dh), irb_r(d), irb_imm(32), NONE);
    irb_alu(&b, IR_ADD, IR_T_U64, irb_r(d), irb_r(d), irb_r(dh), NONE);
    irb_alu(&b, IR_CVT, IR_T_U32, irb_r(x), irb_r(d), NONE, NONE)->type2 = IR_T_U64;
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(x), NONE);
    irb_alu(&b, IR_MUL, IR_T_U32, irb_r(goff), irb_r(tid), irb_imm(4), NONE)->mods = IR_MOD_WIDE;
    irb_alu(&b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(rd), irb_r(goff), NONE);
    irb_st(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(addr, 0), irb_r(a));
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    return b.m;
}

/* The word smem held at byte offset o after the two stores. */
static uint32_t smem_word(uint32_t o)
{
    uint32_t i = o / 4;
    if (o >= SHARED_BYTES || i >= 64 + BLOCK)
        return 0;
    return i < 64 ? 3 * i + 1 : (i - 64) ^ 5u;
}

static void run_shared(ir_module *m, int general, exec_test_out *o)
{
    memset(o, 0, sizeof *o);
    exec_test_ctx x;
    exec_ld_shared_general_only = general; /* read when the program is prepared */
    exec_test_begin(&x, m, o);
    exec_ld_shared_general_only = 0;
    exec_launch L = exec_test_launch_of(&x, BLOCK);
    L.misaligned_errors = 1; /* under IR_WINDOW_ZERO, a misaligned lane is an error too */
    exec_test_launch(&x, m, o, &L);
    exec_test_end(&x);
}

static exec_test_out *check_twins(int variant)
{
    ir_module *m = shared_kernel(variant);
    exec_test_out *quiet = calloc(1, sizeof *quiet), *general = calloc(1, sizeof *general);
    assert_non_null(quiet);
    assert_non_null(general);
    run_shared(m, 0, quiet);
    run_shared(m, 1, general);
    exec_test_assert_same_run(quiet, general);
    assert_memory_equal(&quiet->stats, &general->stats, sizeof quiet->stats);
    free(general);
    ir_module_destroy(m);
    return quiet;
}

static uint32_t expected(uint32_t t, int variant)
{
    uint32_t v = smem_word(4 * t + 4) + smem_word(16 * t) + smem_word(8) +
                 ((t & 1) ? smem_word(4 * t + 256) : 9u) + smem_word(4 * t + 4) +
                 smem_word(8 * t) + smem_word(8 * t + 4) + ((t & 1) ? 0 : smem_word(8 * t + 128)) +
                 (t < 8 ? smem_word(4 * t + 32) : 0);
    if (variant == WINDOW_ERRORS) /* the misaligned loads aligned down; the outside one read 0 */
        v += smem_word(4 * t) + ((t & 1) ? smem_word(4 * t) : 0);
    return v;
}

static void test_quiet_shared_loads_match(void **state)
{
    (void)state;
    exec_test_out *o = check_twins(CLEAN);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < BLOCK; t++) assert_int_equal(o->out[t], expected(t, CLEAN));
    /* the column, four words apart: two lanes on each bank used, two wavefronts */
    uint32_t shared_requests = 0;
    for (uint32_t i = 0; i < EXEC_TEST_INSNS; i++) shared_requests += o->insn[i].shared.requests;
    assert_true(shared_requests >= 2 * 8);
    free(o);
}

static void test_quiet_shared_refusals_match(void **state)
{
    (void)state;
    exec_test_out *o = check_twins(WINDOW_ERRORS);
    assert_int_equal(o->rc, 0);
    assert_int_equal(o->stats.window_errors, 2 * BLOCK + BLOCK / 2);
    for (uint32_t t = 0; t < BLOCK; t++) assert_int_equal(o->out[t], expected(t, WINDOW_ERRORS));
    free(o);
    o = check_twins(FAULT);
    assert_int_equal(o->rc, 1);
    assert_true(o->fault.faulted);
    free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiet_shared_loads_match),
        cmocka_unit_test(test_quiet_shared_refusals_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
