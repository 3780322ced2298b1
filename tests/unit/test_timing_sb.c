/* The timing core's register scoreboard (src/timing/timing_sb.h; docs/timing.md "Scheduling"):
 * the per-instruction lists of scoreboard slots that timing_insn_fill works out (src/timing/
 * timing.c), checked slot by slot for the operand shapes the IR has, and twin runs of the list
 * path and the operand walk it replaces on the same random scoreboards, which must agree on the
 * cycle an instruction may issue, on what it waits as (the first operand with the latest cycle;
 * a destination only for a variable-latency write) and on what its results set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/timing_sb.h"

enum { NREGS = 12, NPREDS = 4, NSLOTS = NREGS + NPREDS, NINSNS = 16 };

typedef struct fixture {
    tstate S;
    twarp w[2];
} fixture;

static void warp_init(twarp *w)
{
    w->reg_ready = calloc(NSLOTS, sizeof *w->reg_ready);
    w->reg_why = calloc(NSLOTS, 1);
    assert_non_null(w->reg_ready);
    assert_non_null(w->reg_why);
    w->pred_ready = w->reg_ready + NREGS;
    w->pred_why = w->reg_why + NREGS;
}

static fixture *fixture_new(void)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->S.cfg = gpu_preset_find("h100");
    assert_non_null(f->S.cfg);
    f->S.nregs = NREGS;
    f->S.npreds = NPREDS;
    f->S.ninsns = NINSNS;
    f->S.insns = calloc(NINSNS, sizeof *f->S.insns);
    f->S.nmore = 8;
    f->S.more = calloc(f->S.nmore, sizeof *f->S.more);
    assert_non_null(f->S.insns);
    assert_non_null(f->S.more);
    warp_init(&f->w[0]);
    warp_init(&f->w[1]);
    return f;
}

static void fixture_free(fixture *f)
{
    for (int i = 0; i < 2; i++) {
        free(f->w[i].reg_ready);
        free(f->w[i].reg_why);
    }
    free(f->S.insns);
    free(f->S.more);
    free(f);
}

static ir_operand reg(uint32_t r)
{
    return (ir_operand){.kind = IR_OPND_REG, .reg = r};
}

static ir_operand pred(uint32_t p)
{
    return (ir_operand){.kind = IR_OPND_PRED, .reg = p};
}

static ir_operand addr(uint32_t r)
{
    return (ir_operand){.kind = IR_OPND_ADDR, .has_reg = 1, .reg = r, .imm = 16};
}

static ir_operand vec(unsigned n, const uint32_t *r)
{
    ir_operand o = {.kind = IR_OPND_VEC, .count = (uint8_t)n};
    for (unsigned i = 0; i < n; i++) o.vregs[i] = r[i];
    return o;
}

/* The instructions of the test, one of each shape: ids 0 .. NSHAPES-1. */
enum { NSHAPES = 7 };
static void shapes(ir_insn *in)
{
    memset(in, 0, NSHAPES * sizeof *in);
    static const uint32_t v4[4] = {4, 5, 6, 7}, s4[4] = {1, 2, 3, 4}, v2[2] = {1, 2};
    static const uint32_t v8[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    /* 0: @p1 fma r3, r1, r2, r1 */
    in[0] = (ir_insn){.op = IR_FMA, .ndst = 1, .nsrc = 3, .has_guard = 1, .guard = 1};
    in[0].dst[0] = reg(3);
    in[0].src[0] = reg(1), in[0].src[1] = reg(2), in[0].src[2] = reg(1);
    /* 1: ld.v4 {r4, r5, r6, r7}, [r8 + 16] */
    in[1] = (ir_insn){.op = IR_LD, .ndst = 1, .nsrc = 1};
    in[1].dst[0] = vec(4, v4);
    in[1].src[0] = addr(8);
    /* 2: @p2 st.v4 [r9 + 16], {r1, r2, r3, r4} */
    in[2] = (ir_insn){.op = IR_ST, .nsrc = 2, .has_guard = 1, .guard = 2};
    in[2].src[0] = addr(9);
    in[2].src[1] = vec(4, s4);
    /* 3: setp p0|p2, r5, 7 */
    in[3] = (ir_insn){.op = IR_SETP, .ndst = 2, .nsrc = 2};
    in[3].dst[0] = pred(0), in[3].dst[1] = pred(2);
    in[3].src[0] = reg(5);
    in[3].src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = 7};
    /* 4: slots out of the scoreboard's range are not in it: r20, p7; r11 is */
    in[4] = (ir_insn){.op = IR_ADD, .ndst = 1, .nsrc = 2, .has_guard = 1, .guard = 7};
    in[4].dst[0] = reg(20);
    in[4].src[0] = pred(7), in[4].src[1] = reg(11);
    /* 5: two destination operands, a vector and a register */
    in[5] = (ir_insn){.op = IR_MOV, .ndst = 2, .nsrc = 1};
    in[5].dst[0] = vec(2, v2), in[5].dst[1] = reg(3);
    in[5].src[0] = reg(10);
    /* 6: more sources than the list holds: the walk */
    in[6] = (ir_insn){.op = IR_ST, .nsrc = 2};
    in[6].src[0] = addr(9);
    in[6].src[1] = vec(8, v8);
    for (uint32_t i = 0; i < NSHAPES; i++) in[i].id = i;
}

static void test_lists_of_each_shape(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    ir_insn in[NSHAPES];
    shapes(in);
    const tinsn *t0 = timing_insn_fill(&f->S, &in[0]);
    assert_ptr_equal(t0, &f->S.insns[0]);
    assert_ptr_equal(timing_insn(&f->S, &in[0]), t0); /* found once filled */
    assert_int_equal(t0->walk, 0);
    assert_int_equal(t0->nread, 4);
    assert_int_equal(t0->read[0], NREGS + 1); /* the guard first, at nregs + p */
    assert_int_equal(t0->read[1], 1);
    assert_int_equal(t0->read[2], 2);
    assert_int_equal(t0->read[3], 1);
    assert_int_equal(t0->nwrite, 1);
    assert_int_equal(t0->write[0], 3);
    assert_int_equal(t0->wend, 1);
    const tinsn *t1 = timing_insn_fill(&f->S, &in[1]);
    assert_int_equal(t1->nread, 1);
    assert_int_equal(t1->read[0], 8);
    assert_int_equal(t1->nwrite, 4);
    assert_int_equal(t1->write[3], 7);
    assert_int_equal(t1->wend, 1u << 3); /* one operand: ends at its last element */
    const tinsn *t2 = timing_insn_fill(&f->S, &in[2]);
    assert_int_equal(t2->nread, 6);
    assert_int_equal(t2->read[0], NREGS + 2);
    assert_int_equal(t2->read[1], 9);
    assert_int_equal(t2->read[5], 4);
    assert_int_equal(t2->nwrite, 0);
    const tinsn *t3 = timing_insn_fill(&f->S, &in[3]);
    assert_int_equal(t3->nread, 1);
    assert_int_equal(t3->nwrite, 2);
    assert_int_equal(t3->write[0], NREGS + 0);
    assert_int_equal(t3->write[1], NREGS + 2);
    assert_int_equal(t3->wend, 3);
    const tinsn *t4 = timing_insn_fill(&f->S, &in[4]);
    assert_int_equal(t4->nread, 1);
    assert_int_equal(t4->read[0], 11);
    assert_int_equal(t4->nwrite, 0);
    const tinsn *t5 = timing_insn_fill(&f->S, &in[5]);
    assert_int_equal(t5->nwrite, 3);
    assert_int_equal(t5->wend, (1u << 1) | (1u << 2));
    const tinsn *t6 = timing_insn_fill(&f->S, &in[6]);
    assert_int_equal(t6->walk, 1);
    /* Glue with the id of instruction 0 gets a record of its own in the table by address. */
    ir_insn glue = in[3];
    glue.id = 0;
    glue.glue = 1;
    const tinsn *tg = timing_insn_fill(&f->S, &glue);
    assert_ptr_not_equal(tg, t0);
    assert_ptr_equal(tg->in, &glue);
    assert_ptr_equal(timing_insn(&f->S, &glue), tg);
    assert_ptr_equal(timing_insn(&f->S, &in[0]), t0);
    assert_int_equal(tg->nwrite, 2);
    fixture_free(f);
}

/* Small cycles, so that ties (the first operand with the latest cycle decides) are common. */
static void random_scoreboard(twarp *w, unsigned *seed)
{
    static const uint8_t whys[4] = {TIMING_STALL_WAIT, TIMING_STALL_SHORT_SCOREBOARD,
                                    TIMING_STALL_LONG_SCOREBOARD, TIMING_STALL_BARRIER};
    for (unsigned k = 0; k < NSLOTS; k++) {
        w->reg_ready[k] = (uint64_t)(rand_r(seed) % 6);
        w->reg_why[k] = whys[rand_r(seed) % 4];
    }
}

static void test_lists_agree_with_the_walk(void **state)
{
    (void)state;
    fixture *f = fixture_new();
    ir_insn in[NSHAPES];
    shapes(in);
    unsigned seed = 12345;
    unsigned moved = 0;
    for (uint32_t i = 0; i < NSHAPES; i++) {
        const tinsn *ti = timing_insn_fill(&f->S, &in[i]);
        tinsn walk = *ti;
        walk.walk = 1;
        for (int trial = 0; trial < 4000; trial++) {
            random_scoreboard(&f->w[0], &seed);
            uint64_t r0 = (uint64_t)(rand_r(&seed) % 4);
            uint8_t y0 = (uint8_t)(rand_r(&seed) % TIMING_STALL_COUNT);
            uint64_t r1 = r0, r2 = r0;
            uint8_t y1 = y0, y2 = y0;
            timing_sb_wait(&f->S, &f->w[0], ti, &r1, &y1);
            timing_sb_wait(&f->S, &f->w[0], &walk, &r2, &y2);
            assert_int_equal(r1, r2);
            assert_int_equal(y1, y2);
            moved += r1 > r0;
            /* What the results set: the same slots, the same cycle and reason. */
            memcpy(f->w[1].reg_ready, f->w[0].reg_ready, NSLOTS * sizeof(uint64_t));
            memcpy(f->w[1].reg_why, f->w[0].reg_why, NSLOTS);
            timing_sb_written(&f->S, &f->w[0], ti, 100 + (uint64_t)trial, (uint8_t)(trial % 7));
            timing_sb_written(&f->S, &f->w[1], &walk, 100 + (uint64_t)trial,
                              (uint8_t)(trial % 7));
            assert_memory_equal(f->w[0].reg_ready, f->w[1].reg_ready,
                                NSLOTS * sizeof(uint64_t));
            assert_memory_equal(f->w[0].reg_why, f->w[1].reg_why, NSLOTS);
        }
    }
    /* The load's vector destination: one operand, the latest of its elements decides, and it
     * is ignored when that element waits as WAIT (a fixed-latency write), even if another
     * element alone would have moved it. */
    const tinsn *t1 = timing_insn(&f->S, &in[1]);
    memset(f->w[0].reg_ready, 0, NSLOTS * sizeof(uint64_t));
    f->w[0].reg_ready[5] = 9, f->w[0].reg_why[5] = TIMING_STALL_LONG_SCOREBOARD;
    f->w[0].reg_ready[6] = 12, f->w[0].reg_why[6] = TIMING_STALL_WAIT;
    uint64_t r = 3;
    uint8_t y = TIMING_STALL_WAIT;
    timing_sb_wait(&f->S, &f->w[0], t1, &r, &y);
    assert_int_equal(r, 3);
    f->w[0].reg_why[6] = TIMING_STALL_SHORT_SCOREBOARD;
    timing_sb_wait(&f->S, &f->w[0], t1, &r, &y);
    assert_int_equal(r, 12);
    assert_int_equal(y, TIMING_STALL_SHORT_SCOREBOARD);
    assert_true(moved > 1000); /* the trials did exercise waits */
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_of_each_shape),
        cmocka_unit_test(test_lists_agree_with_the_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
