/* Unit tests for the executor's mbarrier helpers (src/exec/exec_mbarrier.h), the entry points of
 * asynchronous completions: complete_tx and arrive completing a phase and waking the warp asleep
 * in a try_wait on it, pending_add (cp.async.mbarrier.arrive without .noinc), and every fault
 * they report. The CTA, its warps and the run state are built by hand: no module runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "exec/exec_mbarrier.h"
#include "exec/mbarrier_word.h"

typedef struct fixture {
    exec_run_state rs;
    exec_fault fault;
    exec_launch launch;
    exec_cta cta;
    exec_warp warps[2];
    exec_mbar_wait waits[2]; /* the warps' mbarrier waits (exec_warp.mbar) */
    uint8_t shared[64];
    uint32_t preds[2][4];
    ir_insn wait_in;
    exec_xinsn wait_x;
} fixture;

static fixture F;

/* A CTA of two warps with 64 bytes of shared memory, both ready, no fault recorded. */
static void fresh(void)
{
    memset(&F, 0, sizeof F);
    F.rs.fault = &F.fault;
    F.rs.launch = &F.launch;
    F.launch.block[0] = 64;
    F.launch.block[1] = F.launch.block[2] = 1;
    F.cta.shared = F.shared;
    F.cta.shared_bytes = sizeof F.shared;
    F.cta.warps = F.warps;
    F.cta.nwarps = 2;
    for (unsigned i = 0; i < 2; i++) {
        F.warps[i].cta = &F.cta;
        F.warps[i].run = &F.rs;
        F.warps[i].warp_in_cta = i;
        F.warps[i].preds = F.preds[i];
        F.warps[i].mbar = &F.waits[i];
        F.warps[i].state = WARP_READY;
    }
}

static void put_word(uint32_t offset, uint64_t word) { memcpy(F.shared + offset, &word, 8); }

static uint64_t word_at(uint32_t offset)
{
    uint64_t w;
    memcpy(&w, F.shared + offset, 8);
    return w;
}

/* Warp 1 asleep in `try_wait.parity p0, [offset], parity` with lanes 0..3. */
static void sleep_warp1(uint32_t offset, uint32_t parity)
{
    F.wait_in.op = IR_MBARRIER;
    F.wait_in.sub = IR_MBAR_TRY_WAIT_PARITY;
    F.wait_in.dst[0].kind = IR_OPND_PRED;
    F.wait_in.dst[0].reg = 0;
    F.wait_x.in = &F.wait_in;
    exec_warp *w = &F.warps[1];
    w->state = WARP_MBARRIER;
    w->mbar->insn = &F.wait_x;
    w->mbar->lanes = w->mbar->open = 0xFu;
    for (unsigned l = 0; l < 4; l++) {
        w->mbar->offset[l] = offset;
        w->mbar->operand[l] = parity;
    }
}

static void test_complete_tx_wakes_the_waiter(void **state)
{
    (void)state;
    fresh();
    uint64_t w;
    assert_int_equal(mbar_init(1, &w), MBAR_OK);
    assert_int_equal(mbar_expect_tx(&w, 64), MBAR_OK);
    assert_int_equal(mbar_arrive(&w, 1, 0, NULL), MBAR_OK); /* arrived; 64 bytes owed */
    put_word(8, w);
    sleep_warp1(8, 0);
    assert_int_equal(exec_mbarrier_complete_tx(&F.warps[0], NULL, 3, 8, 32), 0);
    assert_int_equal(F.warps[1].state, WARP_MBARRIER);
    assert_int_equal(mbar_tx_count(word_at(8)), 32);
    assert_int_equal(exec_mbarrier_complete_tx(&F.warps[0], NULL, 3, 8, 32), 0);
    assert_int_equal(F.warps[1].state, WARP_READY);
    assert_int_equal(F.preds[1][0], 0xFu); /* the try_wait answers true in its lanes */
    assert_int_equal(mbar_parity(word_at(8)), 1);
    assert_int_equal(mbar_pending(word_at(8)), 1);
    assert_int_equal(F.fault.faulted, 0);
}

/* A waiter of another barrier, or of the other parity, sleeps on. */
static void test_other_waiters_sleep_on(void **state)
{
    (void)state;
    fresh();
    uint64_t w;
    assert_int_equal(mbar_init(1, &w), MBAR_OK);
    put_word(0, w);
    put_word(16, w);
    sleep_warp1(16, 0);
    assert_int_equal(exec_mbarrier_arrive(&F.warps[0], NULL, 0, 0, 1), 0); /* barrier 0 */
    assert_int_equal(F.warps[1].state, WARP_MBARRIER);
    assert_int_equal(mbar_parity(word_at(0)), 1);
    F.warps[1].mbar->operand[0] = 1; /* lane 0 waits for barrier 16's phase before phase 0 */
    assert_int_equal(exec_mbarrier_arrive(&F.warps[0], NULL, 0, 0, 1), 0);
    assert_int_equal(F.warps[1].state, WARP_MBARRIER); /* lanes 1..3 wait on */
    assert_int_equal(F.warps[1].mbar->open, 0xEu);      /* lane 0's phase is complete */
    assert_int_equal(exec_mbarrier_arrive(&F.warps[0], NULL, 0, 16, 1), 0);
    assert_int_equal(F.warps[1].state, WARP_READY);
}

/* cp.async.mbarrier.arrive without .noinc: counted in when issued, arriving later. */
static void test_pending_add_then_arrive(void **state)
{
    (void)state;
    fresh();
    uint64_t w;
    assert_int_equal(mbar_init(2, &w), MBAR_OK);
    put_word(24, w);
    assert_int_equal(exec_mbarrier_pending_add(&F.warps[0], NULL, 5, 24, 1), 0);
    assert_int_equal(mbar_pending(word_at(24)), 3);
    assert_int_equal(exec_mbarrier_arrive(&F.warps[0], NULL, 5, 24, 2), 0); /* the threads */
    assert_int_equal(mbar_parity(word_at(24)), 0);
    assert_int_equal(exec_mbarrier_arrive(&F.warps[0], NULL, 5, 24, 1), 0); /* the copies */
    assert_int_equal(mbar_parity(word_at(24)), 1);
    assert_int_equal(mbar_pending(word_at(24)), 2);
}

static void expect_fault(int rc, const char *rule, const char *message, uint32_t tid)
{
    assert_int_equal(rc, -1);
    assert_int_equal(F.warps[0].state, WARP_FAULTED);
    assert_int_equal(F.fault.faulted, 1);
    assert_string_equal(F.fault.rule, rule);
    assert_string_equal(F.fault.message, message);
    assert_int_equal(F.fault.tid[0], tid);
}

static void test_faults(void **state)
{
    (void)state;
    uint64_t w;
    fresh();
    expect_fault(exec_mbarrier_complete_tx(&F.warps[0], NULL, 7, 4, 16), "EXEC-MBAR-003",
                 "mbarrier at shared offset 0x4 is not 8-byte aligned", 7);
    fresh();
    expect_fault(exec_mbarrier_arrive(&F.warps[0], NULL, 1, 64, 1), "EXEC-MBAR-002",
                 "mbarrier at shared offset 0x40 is not in the CTA's 64 bytes of shared memory",
                 1);
    fresh();
    expect_fault(exec_mbarrier_arrive(&F.warps[0], NULL, 2, 56, 1), "EXEC-MBAR-001",
                 "mbarrier arrive on shared offset 0x38, which holds no initialized mbarrier",
                 2);
    fresh();
    assert_int_equal(mbar_init(2, &w), MBAR_OK);
    put_word(0, w);
    expect_fault(exec_mbarrier_arrive(&F.warps[0], NULL, 0, 0, 3), "EXEC-MBAR-005",
                 "mbarrier arrive of 3 arrivals at shared offset 0x0, whose phase has 2 pending "
                 "(and 2 expected)", 0);
    assert_int_equal(word_at(0), w); /* unchanged */
    fresh();
    put_word(0, w);
    expect_fault(exec_mbarrier_arrive(&F.warps[0], NULL, 0, 0, 0), "EXEC-MBAR-004",
                 "mbarrier arrive with a count of 0 at shared offset 0x0: counts are 1..1048575",
                 0);
    fresh();
    put_word(0, w);
    expect_fault(exec_mbarrier_pending_add(&F.warps[0], NULL, 0, 0, MBAR_COUNT_MAX),
                 "EXEC-MBAR-004", "mbarrier cp.async.mbarrier.arrive with a count of 1048575 at "
                 "shared offset 0x0: counts are 1..1048575, pending arrivals included", 0);
    fresh();
    put_word(0, w);
    assert_int_equal(exec_mbarrier_complete_tx(&F.warps[0], NULL, 0, 0, MBAR_COUNT_MAX), 0);
    expect_fault(exec_mbarrier_complete_tx(&F.warps[0], NULL, 0, 0, 1), "EXEC-MBAR-006",
                 "mbarrier complete_tx of 1 bytes at shared offset 0x0 takes the tx-count "
                 "(-1048575) outside -1048575..1048575", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complete_tx_wakes_the_waiter),
        cmocka_unit_test(test_other_waiters_sleep_on),
        cmocka_unit_test(test_pending_add_then_arrive),
        cmocka_unit_test(test_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
