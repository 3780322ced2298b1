/* Unit tests for the strict-hazard checks of the issue controls (src/exec/exec_hazard.c) on IR
 * built by hand with an ir_ctrl per instruction: a read before the write scoreboard is waited
 * on (EXEC-HAZARD-001), a write while a read scoreboard is pending (EXEC-HAZARD-002), waits and
 * DEPBAR clearing them, predicated-off instructions, glue, and the same kernels without the
 * option. */
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

typedef struct kernel {
    irb b;
    uint32_t rd, tid, off, addr; /* registers 0..3 */
    uint32_t r[4];               /* registers 4..7: "%r1".."%r4" */
    uint32_t never;              /* a predicate that is false in every lane */
} kernel;

/* A module with 6 scoreboards and, for kernel k's function, its four first instructions:
 * addr = out + 4 tid (0..3), then never = tid > 1000 (4). */
static void begin(kernel *k)
{
    irb *b = &k->b;
    irb_module(b);
    b->m->machine.scoreboards = 6;
    irb_func(b, "k", 1);
    b->fn->ctrl = irb_alloc(b, IRB_MAX_INSNS * sizeof(ir_ctrl));
    memset(b->fn->ctrl, 0, IRB_MAX_INSNS * sizeof(ir_ctrl));
    for (uint32_t i = 0; i < IRB_MAX_INSNS; i++) {
        ir_ctrl *c = &b->fn->ctrl[i];
        c->present = 1;
        c->wr_sb = c->rd_sb = c->depbar_sb = IR_SB_NONE;
    }
    uint32_t out = irb_param(b, "out", IR_T_U64);
    k->rd = irb_reg(b, IR_T_U64, "%rd0");
    k->tid = irb_reg(b, IR_T_U32, "%r0");
    k->off = irb_reg(b, IR_T_U64, "%rd1");
    k->addr = irb_reg(b, IR_T_U64, "%rd2");
    static const char *const names[] = {"%r1", "%r2", "%r3", "%r4"};
    for (int i = 0; i < 4; i++) k->r[i] = irb_reg(b, IR_T_U32, names[i]);
    k->never = irb_pred(b, "%p0");
    irb_ld(b, IR_SPACE_PARAM, IR_T_U64, irb_r(k->rd), irb_addr_sym(out, 0));
    irb_alu(b, IR_MOV, IR_T_U32, irb_r(k->tid), irb_sreg(IR_SREG_TID_X), NONE, NONE);
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(k->off), irb_r(k->tid), irb_imm(4), NONE)->mods =
        IR_MOD_WIDE;
    irb_alu(b, IR_ADD, IR_T_S64, irb_r(k->addr), irb_r(k->rd), irb_r(k->off), NONE);
    irb_alu(b, IR_SETP, IR_T_U32, irb_p(k->never), irb_r(k->tid), irb_imm(1000), NONE)->cmp =
        IR_CMP_GT;
}

/* The control of the instruction just added. */
static ir_ctrl *ctl(kernel *k) { return &k->b.fn->ctrl[k->b.fn->ninsns - 1]; }

static void set_bit(uint32_t *words, uint32_t reg) { words[reg / 32] |= 1u << (reg % 32); }

/* Fills every control's reads and writes from its instruction's register operands, as a
 * front-end does from the dialect's registers; exits and finishes the module. */
static void end(kernel *k)
{
    irb *b = &k->b;
    irb_op(b, IR_EXIT, IR_T_NONE);
    irb_finish(b);
    for (uint32_t i = 0; i < b->fn->ninsns; i++) {
        const ir_insn *in = &b->fn->insns[i];
        ir_ctrl *c = &b->fn->ctrl[i];
        for (int s = 0; s < 4; s++)
            if (in->src[s].kind == IR_OPND_REG ||
                (in->src[s].kind == IR_OPND_ADDR && in->src[s].has_reg))
                set_bit(c->reads, in->src[s].reg);
        if (in->dst[0].kind == IR_OPND_REG)
            set_bit(c->writes, in->dst[0].reg);
    }
}

static ir_insn *load(kernel *k, uint32_t d, int64_t offset)
{
    return irb_ld(&k->b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(d), irb_addr_reg(k->addr, offset));
}

static ir_insn *store(kernel *k, int64_t offset, uint32_t v)
{
    return irb_st(&k->b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(k->addr, offset), irb_r(v));
}

static ir_insn *add(kernel *k, uint32_t d, uint32_t a, int64_t imm)
{
    return irb_alu(&k->b, IR_ADD, IR_T_U32, irb_r(d), irb_r(a), irb_imm(imm), NONE);
}

/* ld r1 on SB0; add r2 = r1 + 5 (waits on SB0 when wait_load); st r2 on read SB1;
 * mov r2 = 9 (waits on SB1 when wait_store); st r2 at word 32. */
static void build_load_use(kernel *k, int wait_load, int wait_store)
{
    begin(k);
    load(k, k->r[0], 0);                                    /* 5 */
    ctl(k)->wr_sb = 0;
    add(k, k->r[1], k->r[0], 5);                            /* 6 */
    ctl(k)->wait_mask = wait_load ? 1u : 0u;
    store(k, 0, k->r[1]);                                   /* 7 */
    ctl(k)->rd_sb = 1;
    irb_alu(&k->b, IR_MOV, IR_T_U32, irb_r(k->r[1]), irb_imm(9), NONE, NONE); /* 8 */
    ctl(k)->wait_mask = wait_store ? 2u : 0u;
    store(k, 128, k->r[1]);                                 /* 9 */
    end(k);
}

static void expect_fault(kernel *k, const char *rule, uint32_t pc, const char *words)
{
    exec_test_out *o = exec_test_run(k->b.m, 32, 1);
    assert_int_equal(o->rc, 1);
    if (strcmp(o->fault.rule, rule) || !strstr(o->fault.message, words))
        exec_test_show_fault(o);
    assert_string_equal(o->fault.rule, rule);
    assert_int_equal(o->fault.ptx_line, 10 + pc);
    assert_int_equal(o->fault.insn_id, k->b.fn->insns[pc].id);
    assert_non_null(strstr(o->fault.message, words));
    free(o);
}

static void expect_clean(kernel *k, int strict)
{
    exec_test_out *o = exec_test_run(k->b.m, 32, strict);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    free(o);
}

/* A read of a register whose load was not waited on; then with the wait, a write of a register
 * that a store's read scoreboard still holds; with both waits the kernel runs. Without the
 * option every version runs. */
static void test_read_and_write_hazards(void **state)
{
    (void)state;
    kernel k;
    build_load_use(&k, 0, 0);
    expect_fault(&k, "EXEC-HAZARD-001", 6, "add reads R4 while the write scoreboard SB0 of the "
                 "instruction at line 15 that writes it has not been waited on");
    expect_clean(&k, 0);
    ir_module_destroy(k.b.m);

    build_load_use(&k, 1, 0);
    expect_fault(&k, "EXEC-HAZARD-002", 8, "mov writes R5 while the read scoreboard SB1 of the "
                 "instruction at line 17 that reads it is still pending");
    expect_clean(&k, 0);
    ir_module_destroy(k.b.m);

    build_load_use(&k, 1, 1);
    exec_test_out *o = exec_test_run(k.b.m, 32, 1);
    exec_test_show_fault(o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o->out[t], 5);
        assert_int_equal(o->out[32 + t], 9);
    }
    free(o);
    ir_module_destroy(k.b.m);
}

/* Two loads on SB0; DEPBAR.LE SB0, 1 lets the older one go: its register may be read, the
 * newer one's not; DEPBAR.LE SB0, 0 lets both go. A wait on another scoreboard does not help. */
static void build_depbar(kernel *k, uint8_t le, uint8_t wait_mask)
{
    begin(k);
    load(k, k->r[0], 0);                                    /* 5 */
    ctl(k)->wr_sb = 0;
    load(k, k->r[1], 0);                                    /* 6 */
    ctl(k)->wr_sb = 0;
    irb_op(&k->b, IR_DEPBAR, IR_T_NONE);                    /* 7 */
    ctl(k)->depbar_sb = 0;
    ctl(k)->depbar_le = le;
    ctl(k)->wait_mask = wait_mask;
    add(k, k->r[2], k->r[0], 1);                            /* 8 */
    add(k, k->r[3], k->r[1], 1);                            /* 9 */
    end(k);
}

static void test_depbar(void **state)
{
    (void)state;
    kernel k;
    build_depbar(&k, 1, 0);
    expect_fault(&k, "EXEC-HAZARD-001", 9, "add reads R5 while the write scoreboard SB0 of the "
                 "instruction at line 16");
    ir_module_destroy(k.b.m);
    build_depbar(&k, 1, 0x3e); /* waits on SB1..SB5 */
    expect_fault(&k, "EXEC-HAZARD-001", 9, "reads R5");
    ir_module_destroy(k.b.m);
    build_depbar(&k, 0, 0);
    expect_clean(&k, 1);
    ir_module_destroy(k.b.m);
    build_depbar(&k, 2, 1); /* the depbar's own wait on SB0 */
    expect_clean(&k, 1);
    ir_module_destroy(k.b.m);
    build_depbar(&k, 2, 0); /* keeps both pending */
    expect_fault(&k, "EXEC-HAZARD-001", 8, "add reads R4 while the write scoreboard SB0 of the "
                 "instruction at line 15");
    ir_module_destroy(k.b.m);
}

/* A predicated-off instruction reads and writes nothing, so it cannot fault, but it still sets
 * its scoreboards and waits. */
static void test_predicated_off(void **state)
{
    (void)state;
    kernel k;
    begin(&k);
    load(&k, k.r[0], 0);                                     /* 5 */
    ctl(&k)->wr_sb = 0;
    irb_guard(add(&k, k.r[1], k.r[0], 1), k.never, 0);       /* 6: reads R4, off */
    irb_guard(load(&k, k.r[2], 0), k.never, 0);              /* 7: sets SB2, off */
    ctl(&k)->wr_sb = 2;
    ctl(&k)->wait_mask = 1;                                  /* and clears SB0 */
    add(&k, k.r[3], k.r[0], 1);                              /* 8: fine */
    add(&k, k.r[3], k.r[2], 1);                              /* 9: SB2 pending */
    end(&k);
    expect_fault(&k, "EXEC-HAZARD-001", 9, "add reads R6 while the write scoreboard SB2 of the "
                 "instruction at line 17");
    ir_module_destroy(k.b.m);
}

/* Glue instructions (no control of their own) are not checked: here one reads a register whose
 * load is pending; the instruction it serves waits first. */
static void test_glue_is_skipped(void **state)
{
    (void)state;
    kernel k;
    begin(&k);
    load(&k, k.r[0], 0);                                     /* 5 */
    ctl(&k)->wr_sb = 0;
    add(&k, k.r[1], k.r[0], 1)->glue = 1;                    /* 6: glue of 7 */
    add(&k, k.r[2], k.r[0], 2);                              /* 7 */
    end(&k);
    k.b.fn->ctrl[6].present = 0;
    for (uint32_t i = 7; i < k.b.fn->ninsns; i++) k.b.fn->insns[i].id--;
    k.b.fn->insns[6].id = k.b.fn->insns[7].id; /* glue has the id of its instruction */
    k.b.m->ninsns_total--;
    expect_fault(&k, "EXEC-HAZARD-001", 7, "add reads R4");
    k.b.fn->ctrl[7].wait_mask = 1;
    expect_clean(&k, 1);
    ir_module_destroy(k.b.m);
}

/* A machine without scoreboards ignores the option, ctrl or not. */
static void test_no_scoreboards(void **state)
{
    (void)state;
    kernel k;
    build_load_use(&k, 0, 0);
    k.b.m->machine.scoreboards = 0;
    k.b.fn->ctrl = NULL;
    expect_clean(&k, 1);
    ir_module_destroy(k.b.m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_and_write_hazards),
        cmocka_unit_test(test_depbar),
        cmocka_unit_test(test_predicated_off),
        cmocka_unit_test(test_glue_is_skipped),
        cmocka_unit_test(test_no_scoreboards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
