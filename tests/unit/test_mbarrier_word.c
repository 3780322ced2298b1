/* Unit tests for the mbarrier word (src/exec/mbarrier_word.c): init ranges, arrivals and phase
 * completion, arrive_drop, the tx-count both ways, tokens and parities, and every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec/mbarrier_word.h"

static void test_init(void **state)
{
    (void)state;
    uint64_t w = 0;
    assert_int_equal(mbar_init(0, &w), MBAR_ERR_COUNT);
    assert_int_equal(mbar_init(MBAR_COUNT_MAX + 1, &w), MBAR_ERR_COUNT);
    assert_int_equal(w, 0);
    assert_false(mbar_is_valid(w));
    assert_int_equal(mbar_init(3, &w), MBAR_OK);
    assert_true(mbar_is_valid(w));
    assert_int_equal(mbar_pending(w), 3);
    assert_int_equal(mbar_expected(w), 3);
    assert_int_equal(mbar_tx_count(w), 0);
    assert_int_equal(mbar_parity(w), 0);
    assert_int_equal(mbar_init(MBAR_COUNT_MAX, &w), MBAR_OK);
    assert_int_equal(mbar_pending(w), MBAR_COUNT_MAX);
}

static void test_arrivals_complete_phase(void **state)
{
    (void)state;
    uint64_t w, t0, t1, t2;
    assert_int_equal(mbar_init(3, &w), MBAR_OK);
    assert_int_equal(mbar_arrive(&w, 1, 0, &t0), MBAR_OK);
    assert_int_equal(mbar_token_pending(t0), 2);
    assert_false(mbar_token_phase_done(w, t0));
    assert_false(mbar_parity_phase_done(w, 0));
    assert_true(mbar_parity_phase_done(w, 1)); /* the phase before phase 0 counts as done */
    assert_int_equal(mbar_arrive(&w, 2, 0, &t1), MBAR_COMPLETED);
    assert_int_equal(mbar_token_pending(t1), 0);
    assert_true(mbar_token_phase_done(w, t0));
    assert_true(mbar_parity_phase_done(w, 0));
    assert_int_equal(mbar_parity(w), 1);
    assert_int_equal(mbar_pending(w), 3); /* reloaded */
    assert_int_equal(mbar_arrive(&w, 1, 0, &t2), MBAR_OK);
    assert_false(mbar_token_phase_done(w, t2));
    assert_int_equal(mbar_arrive(&w, 3, 0, NULL), MBAR_ERR_UNDERFLOW);
    assert_int_equal(mbar_pending(w), 2); /* an error leaves the word */
    assert_int_equal(mbar_arrive(&w, 0, 0, NULL), MBAR_ERR_COUNT);
}

static void test_arrive_drop(void **state)
{
    (void)state;
    uint64_t w;
    assert_int_equal(mbar_init(2, &w), MBAR_OK);
    assert_int_equal(mbar_arrive(&w, 1, 1, NULL), MBAR_OK);
    assert_int_equal(mbar_expected(w), 1);
    assert_int_equal(mbar_arrive(&w, 1, 0, NULL), MBAR_COMPLETED);
    assert_int_equal(mbar_pending(w), 1); /* the next phase expects one arrival */
    assert_int_equal(mbar_arrive(&w, 2, 1, NULL), MBAR_ERR_UNDERFLOW);
}

static void test_tx_count(void **state)
{
    (void)state;
    uint64_t w, t;
    assert_int_equal(mbar_init(1, &w), MBAR_OK);
    assert_int_equal(mbar_expect_tx(&w, 256), MBAR_OK);
    assert_int_equal(mbar_arrive(&w, 1, 0, &t), MBAR_OK); /* arrivals done, bytes still owed */
    assert_false(mbar_token_phase_done(w, t));
    assert_int_equal(mbar_complete_tx(&w, 128), MBAR_OK);
    assert_int_equal(mbar_tx_count(w), 128);
    assert_int_equal(mbar_complete_tx(&w, 128), MBAR_COMPLETED);
    assert_true(mbar_token_phase_done(w, t));
    /* bytes may land before they are expected: the tx-count goes negative */
    assert_int_equal(mbar_complete_tx(&w, 64), MBAR_OK);
    assert_int_equal(mbar_tx_count(w), -64);
    assert_int_equal(mbar_expect_tx(&w, 64), MBAR_OK);
    assert_int_equal(mbar_tx_count(w), 0);
    assert_int_equal(mbar_arrive(&w, 1, 0, NULL), MBAR_COMPLETED);
    /* range */
    assert_int_equal(mbar_expect_tx(&w, MBAR_COUNT_MAX), MBAR_OK);
    assert_int_equal(mbar_expect_tx(&w, 1), MBAR_ERR_TX_RANGE);
    assert_int_equal(mbar_tx_count(w), MBAR_COUNT_MAX);
    assert_int_equal(mbar_complete_tx(&w, MBAR_COUNT_MAX + 1), MBAR_ERR_TX_RANGE);
}

/* cp.async.mbarrier.arrive without .noinc: an arrival counted in when issued, made later. */
static void test_add_pending(void **state)
{
    (void)state;
    uint64_t w, t;
    assert_int_equal(mbar_init(1, &w), MBAR_OK);
    assert_int_equal(mbar_add_pending(&w, 1), MBAR_OK);
    assert_int_equal(mbar_pending(w), 2);
    assert_int_equal(mbar_expected(w), 1);
    assert_int_equal(mbar_arrive(&w, 1, 0, &t), MBAR_OK); /* the thread's own arrival */
    assert_false(mbar_token_phase_done(w, t));
    assert_int_equal(mbar_arrive(&w, 1, 0, NULL), MBAR_COMPLETED); /* the copies' arrival */
    assert_int_equal(mbar_pending(w), 1); /* the next phase expects only the init count */
    assert_int_equal(mbar_add_pending(&w, 0), MBAR_ERR_COUNT);
    assert_int_equal(mbar_add_pending(&w, MBAR_COUNT_MAX), MBAR_ERR_COUNT);
    assert_int_equal(mbar_pending(w), 1);
    uint64_t bad = 0;
    assert_int_equal(mbar_add_pending(&bad, 1), MBAR_ERR_UNINIT);
}

static void test_uninitialized(void **state)
{
    (void)state;
    uint64_t w = 0x1234, t = 0;
    assert_int_equal(mbar_arrive(&w, 1, 0, &t), MBAR_ERR_UNINIT);
    assert_int_equal(mbar_expect_tx(&w, 4), MBAR_ERR_UNINIT);
    assert_int_equal(mbar_complete_tx(&w, 4), MBAR_ERR_UNINIT);
    assert_int_equal(w, 0x1234);
    assert_false(mbar_token_phase_done(w, t));
    assert_false(mbar_parity_phase_done(w, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_arrivals_complete_phase),
        cmocka_unit_test(test_arrive_drop),
        cmocka_unit_test(test_tx_count),
        cmocka_unit_test(test_add_pending),
        cmocka_unit_test(test_uninitialized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
