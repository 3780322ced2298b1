/* Unit tests for src/exec on IR built by hand (tests/unit/ir_build.h), without the PTX front-end:
 * the executor runs what the IR says, straight-line and with divergent loops, with exact values
 * and instruction counts; and its dispatch covers the whole IR table (every family of
 * ir_ops.def has a handler, every control-flow op chooses its next instruction). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "config/gpu_config.h"
#include "exec/exec.h"
#include "exec/exec_internal.h"
#include "ir/ir_verify.h"
#include "ir_build.h"
#include "mem/memsys.h"
#include "sim/sim.h"

enum { OUT_WORDS = 256 };

typedef struct run_out {
    int rc;
    exec_stats stats;
    exec_fault fault;
    uint32_t out[OUT_WORDS];
} run_out;

/* Runs entry 0 of `m` as one CTA of `block` threads with one u64 parameter: a zeroed buffer of
 * OUT_WORDS u32, copied back into o->out. The module must verify clean first. With
 * `misaligned_errors`, the launch reports misaligned window addresses (exec_launch). */
static void run_built_with(const ir_module *m, uint32_t block, int misaligned_errors, run_out *o)
{
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(ir_verify(m, &dl), 0);
    exec_program *p = exec_program_create(m, &dl);
    if (!p)
        diag_list_print(&dl, stderr);
    assert_non_null(p);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 2;
    memsys *ms = memsys_create(&cfg, &dl);
    assert_non_null(ms);
    uint64_t buf;
    assert_int_equal(memsys_alloc(ms, sizeof o->out, 256, &buf), 0);
    exec_machine mach = {.sm_count = 2, .max_threads_per_sm = 2048, .max_ctas_per_sm = 8,
                         .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                         .quantum = 5};
    exec_launch L = {.entry = 0, .grid = {1, 1, 1}, .block = {block, 1, 1},
                     .params = (const uint8_t *)&buf, .params_bytes = sizeof buf,
                     .misaligned_errors = misaligned_errors};
    memset(&o->stats, 0, sizeof o->stats);
    char *printf_text = NULL;
    o->rc = exec_run(p, ms, &mach, &L, &o->stats, &o->fault, &printf_text);
    free(printf_text);
    assert_int_equal(memsys_finish(ms), 0);
    assert_int_equal(memsys_host_read(ms, buf, o->out, sizeof o->out), 0);
    memsys_destroy(ms);
    exec_program_destroy(p);
    diag_list_fini(&dl);
}

static void run_built(const ir_module *m, uint32_t block, run_out *o)
{
    run_built_with(m, block, 0, o);
}

/* The start both kernels share: %rd0 = out, %r0 = tid.x; returns the out symbol's register. */
static void load_out_and_tid(irb *b, uint32_t *rd_out, uint32_t *r_tid)
{
    uint32_t out = irb_param(b, "out", IR_T_U64);
    *rd_out = irb_reg(b, IR_T_U64, "%rd0");
    *r_tid = irb_reg(b, IR_T_U32, "%r0");
    irb_ld(b, IR_SPACE_PARAM, IR_T_U64, irb_r(*rd_out), irb_addr_sym(out, 0));
    irb_alu(b, IR_MOV, IR_T_U32, irb_r(*r_tid), irb_sreg(IR_SREG_TID_X), irb_opnd(IR_OPND_NONE),
            irb_opnd(IR_OPND_NONE));
}

/* out[tid] = value (a u32 register): mul.wide, add, st.global. */
static void store_at_tid(irb *b, uint32_t rd_out, uint32_t r_tid, uint32_t value)
{
    const ir_operand none = irb_opnd(IR_OPND_NONE);
    uint32_t off = irb_reg(b, IR_T_U64, "%rd1"), addr = irb_reg(b, IR_T_U64, "%rd2");
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(off), irb_r(r_tid), irb_imm(4), none)->mods = IR_MOD_WIDE;
    irb_alu(b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(rd_out), irb_r(off), none);
    irb_st(b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(addr, 0), irb_r(value));
}

/* add + store: out[t] = t + 100 for two warps; 7 instructions per warp. */
static void test_add_and_store(void **state)
{
    (void)state;
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);
    uint32_t r_sum = irb_reg(&b, IR_T_U32, "%r1");
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(r_sum), irb_r(r_tid), irb_imm(100),
            irb_opnd(IR_OPND_NONE));
    store_at_tid(&b, rd_out, r_tid, r_sum);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    run_out *o = calloc(1, sizeof *o);
    run_built(b.m, 64, o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < OUT_WORDS; t++)
        assert_int_equal(o->out[t], t < 64 ? t + 100 : 0);
    assert_int_equal(o->stats.warp_instructions, 2 * 7);
    assert_int_equal(o->stats.thread_instructions, 64 * 7);
    free(o);
    ir_module_destroy(b.m);
}

/* A loop whose trip count differs per lane, built from labels and a guarded branch:
 * out[t] = 0 + 1 + ... + t. Lanes leave the loop one by one and reconverge at the store. */
static void test_divergent_loop(void **state)
{
    (void)state;
    const ir_operand none = irb_opnd(IR_OPND_NONE);
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);                     /* 0, 1 */
    uint32_t sum = irb_reg(&b, IR_T_U32, "%r1"), i = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t done = irb_pred(&b, "%p0");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(sum), irb_imm(0), none, none);        /* 2 */
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(i), irb_imm(0), none, none);          /* 3 */
    ir_insn *cmp = irb_alu(&b, IR_SETP, IR_T_U32, irb_p(done), irb_r(i), irb_r(r_tid), none);
    cmp->cmp = IR_CMP_GT;                                                        /* 4: loop */
    irb_guard(irb_bra(&b, 9), done, 0);                                          /* 5 */
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(sum), irb_r(sum), irb_r(i), none);     /* 6 */
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(i), irb_r(i), irb_imm(1), none);       /* 7 */
    irb_bra(&b, 4);                                                              /* 8 */
    store_at_tid(&b, rd_out, r_tid, sum);                                        /* 9..11 */
    irb_op(&b, IR_EXIT, IR_T_NONE);                                              /* 12 */
    irb_finish(&b);
    run_out *o = calloc(1, sizeof *o);
    run_built(b.m, 40, o);
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < OUT_WORDS; t++)
        assert_int_equal(o->out[t], t < 40 ? t * (t + 1) / 2 : 0);
    /* each warp runs 0..3, the body 4..8 once for every i up to its highest tid (32 times for
     * lanes 0..31, 40 for lanes 32..39), 4..5 once more as its last lanes leave, then 9..12 */
    assert_int_equal(o->stats.warp_instructions, (4 + 5 * 32 + 2 + 4) + (4 + 5 * 40 + 2 + 4));
    free(o);
    ir_module_destroy(b.m);
}

/* A machine with window errors (SASS LDS/STS): 64 bytes of shared memory, and a warp that
 * stores tid + 1 at [4 tid], loads it back from [4 tid] and from the misaligned [4 tid + 2].
 * Lanes 16..31 are outside the allocation: their store is dropped and their loads read 0; the
 * kernel runs to its end and reports each access's error at the instruction. */
static ir_module *window_kernel(void)
{
    const ir_operand none = irb_opnd(IR_OPND_NONE);
    irb b;
    irb_module(&b);
    b.m->machine.window_errors = IR_WINDOW_ZERO;
    irb_var(&b, "smem", IR_SPACE_SHARED, 64);
    irb_func(&b, "k", 1);
    uint32_t rd_out, r_tid;
    load_out_and_tid(&b, &rd_out, &r_tid);                                          /* 0, 1 */
    uint32_t off = irb_reg(&b, IR_T_U32, "%r1"), v = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t a = irb_reg(&b, IR_T_U32, "%r3"), c = irb_reg(&b, IR_T_U32, "%r4");
    irb_alu(&b, IR_SHL, IR_T_B32, irb_r(off), irb_r(r_tid), irb_imm(2), none);       /* 2 */
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(v), irb_r(r_tid), irb_imm(1), none);         /* 3 */
    irb_st(&b, IR_SPACE_SHARED, IR_T_U32, irb_addr_reg(off, 0), irb_r(v));           /* 4 */
    irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(a), irb_addr_reg(off, 0));           /* 5 */
    irb_ld(&b, IR_SPACE_SHARED, IR_T_U32, irb_r(c), irb_addr_reg(off, 2));           /* 6 */
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(a), irb_r(a), irb_r(c), none);               /* 7 */
    store_at_tid(&b, rd_out, r_tid, a);                                              /* 8..10 */
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    return b.m;
}

static void assert_window_error(const exec_error *e, const char *rule, uint32_t insn,
                                uint32_t lanes, uint32_t tid, const char *message)
{
    assert_string_equal(e->rule, rule);
    assert_int_equal(e->insn_id, insn);
    assert_int_equal(e->line, 10 + insn);
    assert_int_equal(e->col, 3 + insn);
    assert_int_equal(e->lanes, lanes);
    assert_int_equal(e->tid[0], tid);
    assert_string_equal(e->message, message);
}

static void test_window_errors_do_not_stop_the_kernel(void **state)
{
    (void)state;
    ir_module *m = window_kernel();
    run_out *o = calloc(1, sizeof *o);
    run_built(m, 32, o);
    assert_int_equal(o->rc, 0);
    assert_int_equal(o->fault.faulted, 0);
    /* Lanes 0..15 read their word twice (the misaligned load aligned down to it). */
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o->out[t], t < 16 ? 2 * (t + 1) : 0);
    assert_int_equal(o->stats.window_errors, 3 * 16);
    assert_int_equal(o->stats.nerrors, 3);
    assert_window_error(&o->stats.errors[0], "EXEC-WINDOW-001", 4, 0xFFFF0000u, 16,
                        "shared store of 4 bytes at window offset 0x40 (and more lanes) is "
                        "outside the 64-byte shared allocation: the store was dropped");
    assert_window_error(&o->stats.errors[1], "EXEC-WINDOW-001", 5, 0xFFFF0000u, 16,
                        "shared load of 4 bytes at window offset 0x40 (and more lanes) is "
                        "outside the 64-byte shared allocation: it read 0");
    assert_window_error(&o->stats.errors[2], "EXEC-WINDOW-001", 6, 0xFFFF0000u, 16,
                        "shared load of 4 bytes at window offset 0x42 (and more lanes) is "
                        "outside the 64-byte shared allocation: it read 0");
    /* With misaligned errors on, the aligned-down lanes of the third access are errors too. */
    run_built_with(m, 32, 1, o);
    assert_int_equal(o->rc, 0);
    assert_int_equal(o->stats.window_errors, 4 * 16);
    assert_int_equal(o->stats.nerrors, 4);
    assert_window_error(&o->stats.errors[3], "EXEC-WINDOW-002", 6, 0x0000FFFFu, 0,
                        "shared load of 4 bytes at window offset 0x2 (and more lanes) is not a "
                        "multiple of 4: aligned down to 0x0");
    /* The same kernel on PTX's machine faults at the store. */
    m->machine.window_errors = IR_WINDOW_FAULT;
    run_built(m, 32, o);
    assert_int_equal(o->rc, 1);
    assert_string_equal(o->fault.rule, "EXEC-MEM-001");
    assert_int_equal(o->fault.insn_id, 4);
    assert_int_equal(o->stats.window_errors, 0);
    free(o);
    ir_module_destroy(m);
}

/* The dispatch is the table's: every family has a handler, and every op's family does. */
static void test_every_family_has_a_handler(void **state)
{
    (void)state;
    for (unsigned f = 0; f < IR_FAM_COUNT; f++)
        assert_non_null(exec_family_handler((ir_family)f));
    assert_null(exec_family_handler(IR_FAM_COUNT));
    for (unsigned op = 0; op < IR_OP_COUNT; op++) {
        const ir_op_info *info = ir_op_info_of((ir_opcode)op);
        assert_non_null(info);
        assert_non_null(exec_family_handler((ir_family)info->family));
    }
}

/* A family shared by several ops runs them all with one handler, as the table says: ld and ldu,
 * atom and red, the four cache-control ops; and decode marks exactly the ops whose flow is not
 * NONE as choosing their own next instruction. */
static void test_decode_follows_the_table(void **state)
{
    (void)state;
    assert_ptr_equal(exec_family_handler(ir_op_info_of(IR_LD)->family),
                     exec_family_handler(ir_op_info_of(IR_LDU)->family));
    assert_ptr_equal(exec_family_handler(ir_op_info_of(IR_ATOM)->family),
                     exec_family_handler(ir_op_info_of(IR_RED)->family));
    assert_ptr_equal(exec_family_handler(ir_op_info_of(IR_PREFETCH)->family),
                     exec_family_handler(ir_op_info_of(IR_DISCARD)->family));
    assert_ptr_not_equal(exec_family_handler(ir_op_info_of(IR_LD)->family),
                         exec_family_handler(ir_op_info_of(IR_ST)->family));
    static const ir_opcode sets_pc[] = {IR_BRA, IR_BRX, IR_CALL, IR_RET, IR_EXIT,
                                        IR_TRAP, IR_BRKPT, IR_BAR, IR_SYNC, IR_BRK,
                                        IR_CAL, IR_RET_CRS, IR_MBARRIER};
    unsigned n = 0;
    for (unsigned op = 0; op < IR_OP_COUNT; op++)
        n += ir_op_info_of((ir_opcode)op)->flow != IR_FLOW_NONE;
    assert_int_equal(n, sizeof sets_pc / sizeof sets_pc[0]);
    for (size_t i = 0; i < sizeof sets_pc / sizeof sets_pc[0]; i++)
        assert_int_not_equal(ir_op_info_of(sets_pc[i])->flow, IR_FLOW_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_and_store),
        cmocka_unit_test(test_divergent_loop),
        cmocka_unit_test(test_window_errors_do_not_stop_the_kernel),
        cmocka_unit_test(test_every_family_has_a_handler),
        cmocka_unit_test(test_decode_follows_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
