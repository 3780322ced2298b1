/* Unit tests of the instruction classes of the timing model (src/timing/timing_class.c;
 * docs/timing.md, "Pipes"): which pipe each kind of IR instruction uses, and the latency and
 * issue interval it gets from each preset's "pipe" keys (docs/presets.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "timing/timing_class.h"

static ir_insn insn(ir_opcode op, ir_type type, ir_type type2)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)type;
    in.type2 = (uint8_t)type2;
    return in;
}

static timing_cost cost(const char *preset, ir_opcode op, ir_type type, ir_type type2)
{
    ir_insn in = insn(op, type, type2);
    const gpu_config *cfg = gpu_preset_find(preset);
    assert_non_null(cfg);
    return timing_cost_of(cfg, &in);
}

static void expect(timing_cost c, timing_pipe pipe, unsigned latency, unsigned interval,
                   unsigned variable)
{
    assert_string_equal(timing_pipe_name((timing_pipe)c.pipe), timing_pipe_name(pipe));
    assert_int_equal(c.latency, latency);
    assert_int_equal(c.interval, interval);
    assert_int_equal(c.variable, variable);
}

static void test_integer_and_fp32(void **state)
{
    (void)state;
    expect(cost("a100", IR_ADD, IR_T_S32, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("a100", IR_MAD, IR_T_U32, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("h100", IR_FMA, IR_T_F32, IR_T_NONE), TIMING_PIPE_FP32, 4, 1, 0);
    expect(cost("h100", IR_ADD, IR_T_S32, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("a100", IR_FMA, IR_T_F16X2, IR_T_NONE), TIMING_PIPE_FP32, 4, 2, 0);
    /* Maxwell: ~6-cycle ALU (maxas), 32 lanes per scheduler */
    expect(cost("gtx980", IR_XMAD, IR_T_U32, IR_T_NONE), TIMING_PIPE_INT, 6, 1, 0);
    expect(cost("gtx980", IR_ADD, IR_T_F32, IR_T_NONE), TIMING_PIPE_FP32, 6, 1, 0);
    /* moves, selects and logic run on the integer ALU whatever their type */
    expect(cost("h100", IR_MOV, IR_T_F32, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("h100", IR_SELP, IR_T_F64, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("h100", IR_AND, IR_T_PRED, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    /* comparisons by the compared type: setp's type, set's type2 */
    expect(cost("v100", IR_SETP, IR_T_F32, IR_T_NONE), TIMING_PIPE_FP32, 4, 2, 0);
    expect(cost("v100", IR_SETP, IR_T_S32, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("v100", IR_SET, IR_T_U32, IR_T_F64), TIMING_PIPE_FP64, 8, 4, 0);
}

static void test_fp64(void **state)
{
    (void)state;
    expect(cost("a100", IR_FMA, IR_T_F64, IR_T_NONE), TIMING_PIPE_FP64, 8, 4, 0);
    expect(cost("h100", IR_ADD, IR_T_F64, IR_T_NONE), TIMING_PIPE_FP64, 8, 2, 0);
    /* 1/32-rate FP64: variable latency */
    expect(cost("t4", IR_FMA, IR_T_F64, IR_T_NONE), TIMING_PIPE_FP64, 72, 64, 1);
    expect(cost("gtx980", IR_MUL, IR_T_F64, IR_T_NONE), TIMING_PIPE_FP64, 40, 32, 1);
    expect(cost("a100", IR_SQRT, IR_T_F64, IR_T_NONE), TIMING_PIPE_FP64, 8, 4, 0);
    expect(cost("a100", IR_DIV, IR_T_F64, IR_T_NONE), TIMING_PIPE_FP64, 8, 4, 0);
}

static void test_sfu(void **state)
{
    (void)state;
    expect(cost("a100", IR_RCP, IR_T_F32, IR_T_NONE), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("a100", IR_EX2, IR_T_F16, IR_T_NONE), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("gtx980", IR_SIN, IR_T_F32, IR_T_NONE), TIMING_PIPE_SFU, 20, 4, 1);
    expect(cost("a100", IR_DIV, IR_T_F32, IR_T_NONE), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("a100", IR_DIV, IR_T_U32, IR_T_NONE), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("a100", IR_REM, IR_T_S64, IR_T_NONE), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("a100", IR_SHFL, IR_T_B32, IR_T_NONE), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("a100", IR_REDUX, IR_T_U32, IR_T_NONE), TIMING_PIPE_SFU, 20, 8, 1);
}

static void test_conversions(void **state)
{
    (void)state;
    expect(cost("a100", IR_CVT, IR_T_F32, IR_T_S32), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("a100", IR_CVT, IR_T_U32, IR_T_F16), TIMING_PIPE_SFU, 20, 8, 1);
    expect(cost("a100", IR_CVT, IR_T_S64, IR_T_S32), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("a100", IR_CVT, IR_T_F16, IR_T_F32), TIMING_PIPE_FP32, 4, 2, 0);
    expect(cost("a100", IR_CVT, IR_T_F64, IR_T_F32), TIMING_PIPE_FP64, 8, 4, 0);
    expect(cost("a100", IR_CVT, IR_T_S32, IR_T_F64), TIMING_PIPE_FP64, 8, 4, 0);
}

static void test_memory(void **state)
{
    (void)state;
    ir_insn ld = insn(IR_LD, IR_T_U32, IR_T_NONE);
    ld.mem.space = IR_SPACE_GLOBAL;
    expect(timing_cost_of(gpu_preset_find("a100"), &ld), TIMING_PIPE_MEM, 4, 4, 1);
    expect(timing_cost_of(gpu_preset_find("t4"), &ld), TIMING_PIPE_MEM, 4, 8, 1);
    ld.mem.space = IR_SPACE_SHARED;
    expect(timing_cost_of(gpu_preset_find("gtx980"), &ld), TIMING_PIPE_MEM, 2, 4, 1);
    ir_insn st = insn(IR_ST, IR_T_U32, IR_T_NONE);
    st.mem.space = IR_SPACE_LOCAL;
    expect(timing_cost_of(gpu_preset_find("h100"), &st), TIMING_PIPE_MEM, 4, 4, 1);
    expect(cost("h100", IR_ATOM, IR_T_U32, IR_T_NONE), TIMING_PIPE_MEM, 4, 4, 1);
    expect(cost("h100", IR_CCTL, IR_T_NONE, IR_T_NONE), TIMING_PIPE_MEM, 4, 4, 1);
    expect(cost("h100", IR_TEX, IR_T_F32, IR_T_NONE), TIMING_PIPE_MEM, 4, 4, 1);
    expect(cost("h100", IR_CP_ASYNC_MBAR_ARRIVE, IR_T_NONE, IR_T_NONE), TIMING_PIPE_MEM, 4, 4,
           1);
}

static void test_control_and_sync(void **state)
{
    (void)state;
    expect(cost("gtx980", IR_BRA, IR_T_NONE, IR_T_NONE), TIMING_PIPE_BRANCH, 5, 1, 0);
    expect(cost("a100", IR_EXIT, IR_T_NONE, IR_T_NONE), TIMING_PIPE_BRANCH, 5, 1, 0);
    expect(cost("a100", IR_SSY, IR_T_NONE, IR_T_NONE), TIMING_PIPE_BRANCH, 5, 1, 0);
    expect(cost("a100", IR_BAR, IR_T_NONE, IR_T_NONE), TIMING_PIPE_BRANCH, 5, 1, 0);
    expect(cost("a100", IR_MEMBAR, IR_T_NONE, IR_T_NONE), TIMING_PIPE_BRANCH, 5, 1, 0);
    expect(cost("a100", IR_DEPBAR, IR_T_NONE, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
    expect(cost("a100", IR_VOTE, IR_T_PRED, IR_T_NONE), TIMING_PIPE_INT, 4, 2, 0);
}

static void test_tensor(void **state)
{
    (void)state;
    ir_insn mma = insn(IR_MMA, IR_T_F32, IR_T_F16);
    mma.sub = IR_MATRIX_M16N8K16; /* the shape the keys describe */
    expect(timing_cost_of(gpu_preset_find("a100"), &mma), TIMING_PIPE_TENSOR, 32, 8, 0);
    expect(timing_cost_of(gpu_preset_find("h100"), &mma), TIMING_PIPE_TENSOR, 32, 4, 0);
    ir_insn wmma = insn(IR_WMMA_MMA, IR_T_F32, IR_T_F16);
    wmma.sub = IR_MATRIX_M16N16K16; /* twice the work: twice the interval, 8 more cycles */
    expect(timing_cost_of(gpu_preset_find("a100"), &wmma), TIMING_PIPE_TENSOR, 40, 16, 0);
    mma.sub = IR_MATRIX_M8N8K4; /* 256 multiply-adds: an eighth of the interval */
    expect(timing_cost_of(gpu_preset_find("a100"), &mma), TIMING_PIPE_TENSOR, 32, 1, 0);
    mma.sub = 0; /* unknown shape: the keys as they are */
    expect(timing_cost_of(gpu_preset_find("v100"), &mma), TIMING_PIPE_TENSOR, 32, 16, 0);
}

/* Every opcode with every type on every preset gets a pipe and a positive cost. */
static void test_every_op_has_a_cost(void **state)
{
    (void)state;
    for (size_t p = 0; p < gpu_preset_count(); p++) {
        const gpu_config *cfg = gpu_preset_at(p);
        for (unsigned op = 0; op < IR_OP_COUNT; op++) {
            for (unsigned t = 0; t < IR_T_COUNT; t++) {
                ir_insn in = insn((ir_opcode)op, (ir_type)t, (ir_type)t);
                timing_cost c = timing_cost_of(cfg, &in);
                assert_true(c.pipe < TIMING_PIPE_COUNT);
                assert_true(c.latency > 0);
                assert_true(c.interval > 0);
                assert_int_equal(c.pipe, timing_pipe_of(&in));
            }
        }
    }
    assert_string_equal(timing_pipe_name(TIMING_PIPE_TENSOR), "tensor");
    assert_string_equal(timing_pipe_name(TIMING_PIPE_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_and_fp32),
        cmocka_unit_test(test_fp64),
        cmocka_unit_test(test_sfu),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_control_and_sync),
        cmocka_unit_test(test_tensor),
        cmocka_unit_test(test_every_op_has_a_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
