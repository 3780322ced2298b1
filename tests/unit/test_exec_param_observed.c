/* The twin test of h_ld_param_observed (src/exec/exec_mem.c): a load of a kernel parameter by
 * name while an observer watches (the timing model's on_access) must give exactly what the
 * general path, h_ld_same, gives (exec_ld_param_general_only = 1): the same access records
 * handed to the observer (every byte of each mem_access), the same values, statistics, memory
 * counters and faults. Loads of 8, 4 and 1 bytes at offsets into the parameter, with every lane
 * active and guarded to the odd lanes, and two loads that fault (past the parameter area,
 * misaligned). */
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

enum { BLOCK = 64, MAX_RECORDS = 64 };

/* What the observer saw: a copy of each access record, in order. */
typedef struct seen {
    uint32_t n;
    mem_access rec[MAX_RECORDS];
    ir_mem_attrs attrs[MAX_RECORDS]; /* *rec[i].attrs */
} seen;

/* attrs points into the run's program (a copy of the module's instructions), which is at
 * another address in the other run: its bytes are compared instead, in place of the pointer. */
static void observe(const mem_access *a, void *user)
{
    seen *s = user;
    assert_true(s->n < MAX_RECORDS);
    mem_access *r = &s->rec[s->n++];
    memcpy(r, a, sizeof *a);
    assert_non_null(a->attrs);
    r->attrs = NULL;
    s->attrs[s->n - 1] = *a->attrs;
}

/* %rd0 = ld.param.u64 [out]; %r0 = tid; %p0 = tid odd; %r1 = 9; @%p0 %r1 = ld.param.u32
 * [out + 4]; %r2 = ld.param.u8 [out + 1]; %r3 = ld.param.u32 [out + bad] when bad >= 0 (a
 * fault); out[tid] = %r1 + %r2. */
static ir_module *param_kernel(int64_t bad)
{
    irb b;
    irb_module(&b);
    irb_func(&b, "k", 1);
    uint32_t out = irb_param(&b, "out", IR_T_U64);
    uint32_t rd = irb_reg(&b, IR_T_U64, "%rd0"), tid = irb_reg(&b, IR_T_U32, "%r0");
    uint32_t r1 = irb_reg(&b, IR_T_U32, "%r1"), r2 = irb_reg(&b, IR_T_U32, "%r2");
    uint32_t r3 = irb_reg(&b, IR_T_U32, "%r3"), odd = irb_reg(&b, IR_T_U32, "%r4");
    uint32_t off = irb_reg(&b, IR_T_U64, "%rd1"), addr = irb_reg(&b, IR_T_U64, "%rd2");
    uint32_t p = irb_pred(&b, "%p0");
    irb_ld(&b, IR_SPACE_PARAM, IR_T_U64, irb_r(rd), irb_addr_sym(out, 0));
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(tid), irb_sreg(IR_SREG_TID_X), NONE, NONE);
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(odd), irb_r(tid), irb_imm(1), NONE);
    irb_alu(&b, IR_SETP, IR_T_U32, irb_p(p), irb_r(odd), irb_imm(0), NONE)->cmp = IR_CMP_NE;
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(r1), irb_imm(9), NONE, NONE);
    irb_guard(irb_ld(&b, IR_SPACE_PARAM, IR_T_U32, irb_r(r1), irb_addr_sym(out, 4)), p, 0);
    irb_ld(&b, IR_SPACE_PARAM, IR_T_U8, irb_r(r2), irb_addr_sym(out, 1));
    if (bad >= 0)
        irb_ld(&b, IR_SPACE_PARAM, IR_T_U32, irb_r(r3), irb_addr_sym(out, bad));
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(r1), irb_r(r1), irb_r(r2), NONE);
    irb_alu(&b, IR_MUL, IR_T_U32, irb_r(off), irb_r(tid), irb_imm(4), NONE)->mods = IR_MOD_WIDE;
    irb_alu(&b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(rd), irb_r(off), NONE);
    irb_st(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(addr, 0), irb_r(r1));
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    return b.m;
}

/* Runs the kernel with the observer, through the fast path (general 0) or h_ld_same (1). */
static void run_observed(ir_module *m, int general, exec_test_out *o, seen *s, uint64_t *buf)
{
    memset(o, 0, sizeof *o);
    memset(s, 0, sizeof *s);
    exec_test_ctx x;
    exec_test_begin(&x, m, o);
    *buf = x.buf;
    exec_launch L = exec_test_launch_of(&x, BLOCK);
    L.on_access = observe;
    L.access_user = s;
    exec_ld_param_general_only = general;
    exec_test_launch(&x, m, o, &L);
    exec_ld_param_general_only = 0;
    exec_test_end(&x);
}

static void check_twins(int64_t bad)
{
    ir_module *m = param_kernel(bad);
    exec_test_out *fast = calloc(1, sizeof *fast), *general = calloc(1, sizeof *general);
    seen *sf = calloc(1, sizeof *sf), *sg = calloc(1, sizeof *sg);
    assert_non_null(fast);
    assert_non_null(general);
    assert_non_null(sf);
    assert_non_null(sg);
    uint64_t buf, buf_general;
    run_observed(m, 0, fast, sf, &buf);
    run_observed(m, 1, general, sg, &buf_general);
    assert_int_equal(buf, buf_general);
    exec_test_assert_same_run(fast, general);
    assert_memory_equal(&fast->stats, &general->stats, sizeof fast->stats);
    assert_int_equal(sf->n, sg->n);
    for (uint32_t i = 0; i < sf->n; i++)
        assert_memory_equal(&sf->rec[i], &sg->rec[i], sizeof sf->rec[i]);
    assert_memory_equal(sf->attrs, sg->attrs, sf->n * sizeof sf->attrs[0]);
    /* The parameter loads were seen (three for each of the two warps, one more for the
     * faulting load's first warp), and the stores too when nothing faulted. */
    assert_true(sf->n >= 6);
    if (bad < 0) {
        /* %r2: byte 1 of the parameter (the buffer's address); %r1: its high word on the odd
         * lanes, 9 on the others. */
        assert_int_equal(fast->rc, 0);
        uint32_t byte1 = (uint32_t)(buf >> 8) & 0xffu, high = (uint32_t)(buf >> 32);
        for (uint32_t t = 0; t < BLOCK; t++)
            assert_int_equal(fast->out[t], ((t & 1) ? high : 9u) + byte1);
    } else {
        assert_int_equal(fast->rc, 1);
    }
    free(fast);
    free(general);
    free(sf);
    free(sg);
    ir_module_destroy(m);
}

static void test_param_loads_observed(void **state)
{
    (void)state;
    check_twins(-1);
}

static void test_param_faults_observed(void **state)
{
    (void)state;
    check_twins(8); /* past the 8-byte parameter area */
    check_twins(2); /* misaligned */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_param_loads_observed),
        cmocka_unit_test(test_param_faults_observed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
