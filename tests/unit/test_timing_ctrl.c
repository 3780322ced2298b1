/* Unit tests of the SASS control codes in time (src/timing/timing_ctrl.c; docs/timing.md,
 * "Control codes"; ../reference/sass-dialect.md 2.2, 2.3, 5.1, 5.2), with exact cycles.
 *
 * The rules under test: after an instruction issues at cycle i with stall s, the warp's next one
 * may issue at i + s (stalls 12..15 without yield: i + 6); a scoreboard raised at i is seen by
 * waits from i + 2 on (the activation delay) and clears at the cycle the core gives (sources read
 * for &rd, results written for &wr); &req waits until every listed scoreboard is clear, and
 * DEPBAR.LE SBn, k until at most k of n's operations are pending. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "timing/timing_ctrl.h"

/* The controls of one instruction: stall, yield, scoreboards (IR_SB_NONE: none), wait mask. */
static ir_ctrl ctrl(unsigned stall, unsigned yield, unsigned wr, unsigned rd, unsigned wait_mask)
{
    ir_ctrl c;
    memset(&c, 0, sizeof c);
    c.present = 1;
    c.stall = (uint8_t)stall;
    c.yield = (uint8_t)yield;
    c.wr_sb = (uint8_t)wr;
    c.rd_sb = (uint8_t)rd;
    c.wait_mask = (uint8_t)wait_mask;
    c.depbar_sb = IR_SB_NONE;
    return c;
}

static ir_ctrl depbar(unsigned sb, unsigned le, unsigned wait_mask)
{
    ir_ctrl c = ctrl(5, 0, IR_SB_NONE, IR_SB_NONE, wait_mask);
    c.depbar_sb = (uint8_t)sb;
    c.depbar_le = (uint8_t)le;
    return c;
}

enum { NO = IR_SB_NONE };

static void test_fresh_warp_issues_at_once(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl c = ctrl(1, 0, NO, NO, 0x3f); /* waiting on clear scoreboards costs nothing */
    timing_stall why = TIMING_STALL_COUNT;
    assert_int_equal(timing_ctrl_earliest(&w, &c, 17, &why), 17);
    assert_int_equal(why, TIMING_STALL_SELECTED);
}

static void test_stall_count(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl six = ctrl(6, 0, NO, NO, 0), next = ctrl(1, 0, NO, NO, 0);
    timing_ctrl_issued(&w, &six, 10, 0, 0, 0);
    timing_stall why;
    assert_int_equal(timing_ctrl_earliest(&w, &next, 11, &why), 16);
    assert_int_equal(why, TIMING_STALL_WAIT);
    assert_int_equal(timing_ctrl_earliest(&w, &next, 16, &why), 16);
    assert_int_equal(why, TIMING_STALL_SELECTED);
    assert_int_equal(timing_ctrl_earliest(&w, &next, 40, NULL), 40);
    /* stall 0: dual issue, the next instruction may go in the same cycle */
    ir_ctrl zero = ctrl(0, 0, NO, NO, 0);
    timing_ctrl_issued(&w, &zero, 50, 0, 0, 0);
    assert_int_equal(timing_ctrl_earliest(&w, &next, 50, &why), 50);
    /* a series of stalls adds up: 1 + 6 + 13 (yield) + 15 (yield) */
    const unsigned stalls[] = {1, 6, 13, 15};
    uint64_t t = 100;
    for (unsigned i = 0; i < 4; i++) {
        ir_ctrl c = ctrl(stalls[i], stalls[i] >= 12, NO, NO, 0);
        t = timing_ctrl_earliest(&w, &c, t, NULL);
        timing_ctrl_issued(&w, &c, t, 0, 0, 0);
    }
    assert_int_equal(timing_ctrl_earliest(&w, &next, 0, NULL), 100 + 1 + 6 + 13 + 15);
}

static void test_long_stall_needs_yield(void **state)
{
    (void)state;
    ir_ctrl with = ctrl(15, 1, NO, NO, 0), without = ctrl(15, 0, NO, NO, 0);
    ir_ctrl eleven = ctrl(11, 0, NO, NO, 0), twelve = ctrl(12, 0, NO, NO, 0);
    assert_int_equal(timing_ctrl_stall_cycles(&with), 15);
    assert_int_equal(timing_ctrl_stall_cycles(&without), 6);
    assert_int_equal(timing_ctrl_stall_cycles(&eleven), 11);
    assert_int_equal(timing_ctrl_stall_cycles(&twelve), 6);
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    timing_ctrl_issued(&w, &without, 20, 0, 0, 0);
    assert_int_equal(w.next_issue, 26);
    assert_int_equal(w.yielded, 0);
    timing_ctrl_issued(&w, &with, 30, 0, 0, 0);
    assert_int_equal(w.next_issue, 45);
    assert_int_equal(w.yielded, 1);
}

static void test_write_scoreboard(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl load = ctrl(2, 0, 0, NO, 0), use = ctrl(1, 0, NO, NO, 1u << 0);
    ir_ctrl other = ctrl(1, 0, NO, NO, 1u << 1);
    timing_ctrl_issued(&w, &load, 0, 4, 300, 1); /* LDG: result in registers at 300 */
    timing_stall why;
    assert_int_equal(timing_ctrl_earliest(&w, &use, 2, &why), 300);
    assert_int_equal(why, TIMING_STALL_LONG_SCOREBOARD);
    timing_ctrl_wait x = timing_ctrl_explain(&w, &use, 1);
    assert_int_equal(x.stall_until, 2);
    assert_int_equal(x.issue, 300);
    assert_int_equal(x.scoreboard, TIMING_STALL_LONG_SCOREBOARD);
    assert_int_equal(timing_ctrl_earliest(&w, &other, 2, &why), 2);
    assert_int_equal(timing_ctrl_count(&w, 0, 2), 1);
    assert_int_equal(timing_ctrl_count(&w, 0, 300), 0);
    assert_int_equal(w.long_latency[0], 1);
    /* a shared load (LDS) waits as short scoreboard */
    ir_ctrl lds = ctrl(2, 0, 3, NO, 0), use3 = ctrl(1, 0, NO, NO, 1u << 3);
    timing_ctrl_issued(&w, &lds, 400, 402, 430, 0);
    assert_int_equal(timing_ctrl_earliest(&w, &use3, 402, &why), 430);
    assert_int_equal(why, TIMING_STALL_SHORT_SCOREBOARD);
}

static void test_read_scoreboard(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    /* STG [R2], R3 &rd=1: R3 may be overwritten once the sources are read (issue + 4) */
    ir_ctrl store = ctrl(2, 0, NO, 1, 0), overwrite = ctrl(1, 0, NO, NO, 1u << 1);
    timing_ctrl_issued(&w, &store, 100, 104, 500, 0);
    timing_stall why;
    assert_int_equal(timing_ctrl_earliest(&w, &overwrite, 102, &why), 104);
    assert_int_equal(why, TIMING_STALL_SHORT_SCOREBOARD);
    /* the same instruction with &rd and &wr on two boards: each clears at its own cycle */
    ir_ctrl load = ctrl(2, 0, 2, 1, 0), both = ctrl(1, 0, NO, NO, (1u << 1) | (1u << 2));
    timing_ctrl_issued(&w, &load, 200, 204, 260, 1);
    assert_int_equal(timing_ctrl_earliest(&w, &overwrite, 202, NULL), 204);
    assert_int_equal(timing_ctrl_earliest(&w, &both, 202, &why), 260);
    assert_int_equal(why, TIMING_STALL_LONG_SCOREBOARD);
    /* &rd and &wr on the same board count twice */
    ir_ctrl same = ctrl(2, 0, 4, 4, 0);
    timing_ctrl_issued(&w, &same, 300, 304, 350, 1);
    assert_int_equal(timing_ctrl_count(&w, 4, 302), 2);
    assert_int_equal(timing_ctrl_count(&w, 4, 304), 1);
    ir_ctrl le1 = depbar(4, 1, 0);
    assert_int_equal(timing_ctrl_earliest(&w, &le1, 302, NULL), 304);
}

static void test_activation_delay(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    /* S2R R0 &wr=0 with stall 0, then an instruction with stall 1, then a wait on SB0: the wait
     * issues one cycle after the S2R and does not see the scoreboard yet (the hazard the
     * reference's minimum stall of 2 prevents) */
    ir_ctrl s2r = ctrl(0, 0, 0, NO, 0), wait0 = ctrl(1, 0, NO, NO, 1u << 0);
    timing_ctrl_issued(&w, &s2r, 10, 10, 40, 0);
    assert_int_equal(timing_ctrl_count(&w, 0, 11), 0);
    assert_int_equal(timing_ctrl_earliest(&w, &wait0, 11, NULL), 11);
    assert_int_equal(timing_ctrl_count(&w, 0, 12), 1);
    assert_int_equal(timing_ctrl_earliest(&w, &wait0, 12, NULL), 40);
    /* an operation that clears before it becomes active is never seen */
    timing_ctrl_warp v;
    memset(&v, 0, sizeof v);
    ir_ctrl quick = ctrl(2, 0, 1, NO, 0), wait1 = ctrl(1, 0, NO, NO, 1u << 1);
    timing_ctrl_issued(&v, &quick, 5, 5, 7, 0);
    assert_int_equal(v.pending[1], 0);
    assert_int_equal(timing_ctrl_earliest(&v, &wait1, 7, NULL), 7);
}

/* A gate open at the first cycle it is checked can close again when an operation becomes active
 * while another gate holds the instruction back. */
static void test_activation_while_waiting(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl a = ctrl(0, 0, 0, NO, 0), b = ctrl(0, 0, 1, NO, 0);
    ir_ctrl wait01 = ctrl(1, 0, NO, NO, (1u << 0) | (1u << 1));
    timing_ctrl_issued(&w, &a, 0, 0, 12, 0); /* SB0 active from 2, clears at 12 */
    timing_ctrl_issued(&w, &b, 9, 9, 50, 1); /* SB1 active from 11, clears at 50 */
    timing_stall why;
    /* at 9 only SB0 counts; at 12 SB1 is active too: the wait ends at 50 */
    assert_int_equal(timing_ctrl_earliest(&w, &wait01, 9, &why), 50);
    assert_int_equal(why, TIMING_STALL_LONG_SCOREBOARD);
    /* at 10, SB1 is not active yet and SB0 has not cleared: waiting on SB0 alone ends at 12 */
    ir_ctrl wait0 = ctrl(1, 0, NO, NO, 1u << 0);
    assert_int_equal(timing_ctrl_earliest(&w, &wait0, 10, NULL), 12);
}

static void test_depbar_le(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    /* three loads on SB0, results at 100, 50 and 200 */
    ir_ctrl load = ctrl(1, 0, 0, NO, 0);
    timing_ctrl_issued(&w, &load, 0, 4, 100, 1);
    timing_ctrl_issued(&w, &load, 1, 5, 50, 1);
    timing_ctrl_issued(&w, &load, 2, 6, 200, 1);
    assert_int_equal(timing_ctrl_count(&w, 0, 10), 3);
    ir_ctrl le0 = depbar(0, 0, 0), le1 = depbar(0, 1, 0), le2 = depbar(0, 2, 0);
    ir_ctrl le3 = depbar(0, 3, 0);
    timing_stall why;
    assert_int_equal(timing_ctrl_earliest(&w, &le3, 10, &why), 10);
    assert_int_equal(why, TIMING_STALL_SELECTED);
    assert_int_equal(timing_ctrl_earliest(&w, &le2, 10, &why), 50);
    assert_int_equal(why, TIMING_STALL_LONG_SCOREBOARD);
    assert_int_equal(timing_ctrl_earliest(&w, &le1, 10, NULL), 100);
    assert_int_equal(timing_ctrl_earliest(&w, &le0, 10, NULL), 200);
    /* DEPBAR.LE SB0, 2, {1}: the list waits for SB1 to clear as well */
    ir_ctrl s = ctrl(2, 0, 1, NO, 0);
    timing_ctrl_issued(&w, &s, 3, 3, 70, 0);
    ir_ctrl le2_list = depbar(0, 2, 1u << 1);
    assert_int_equal(timing_ctrl_earliest(&w, &le2_list, 10, &why), 70);
    assert_int_equal(why, TIMING_STALL_SHORT_SCOREBOARD);
    /* a DEPBAR on a board it also waits for in full: the full wait wins */
    ir_ctrl both = depbar(0, 2, 1u << 0);
    assert_int_equal(timing_ctrl_earliest(&w, &both, 10, NULL), 200);
}

static void test_cleared_entries_are_dropped(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl load = ctrl(1, 0, 2, NO, 0);
    for (unsigned i = 0; i < 40; i++) /* each clears 10 cycles after issue */
        timing_ctrl_issued(&w, &load, 100 + i * 20, 0, 110 + i * 20, 1);
    assert_int_equal(w.pending[2], 1);
    assert_int_equal(timing_ctrl_count(&w, 2, 100 + 39 * 20 + 2), 1);
}

/* More pending operations than the board tracks: the two that clear first merge into one. */
static void test_full_board_merges(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl load = ctrl(1, 0, 5, NO, 0);
    for (unsigned i = 0; i < TIMING_CTRL_PENDING_MAX + 1; i++)
        timing_ctrl_issued(&w, &load, i, 0, 1000 + 10 * i, 1);
    assert_int_equal(w.pending[5], TIMING_CTRL_PENDING_MAX);
    /* the operations clearing at 1000 and 1010 are one now, clearing at 1010 */
    assert_int_equal(timing_ctrl_count(&w, 5, 1000), TIMING_CTRL_PENDING_MAX);
    assert_int_equal(timing_ctrl_count(&w, 5, 1010), TIMING_CTRL_PENDING_MAX - 1);
    ir_ctrl le0 = depbar(5, 0, 0), le15 = depbar(5, TIMING_CTRL_PENDING_MAX - 1, 0);
    assert_int_equal(timing_ctrl_earliest(&w, &le0, 20, NULL), 1000 + 10 * TIMING_CTRL_PENDING_MAX);
    assert_int_equal(timing_ctrl_earliest(&w, &le15, 20, NULL), 1010);
}

static void test_glue_is_free(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl load = ctrl(2, 0, 0, NO, 0);
    timing_ctrl_issued(&w, &load, 0, 4, 300, 1);
    ir_ctrl glue;
    memset(&glue, 0, sizeof glue);
    glue.wait_mask = 1; /* ignored: present == 0 */
    timing_stall why;
    assert_int_equal(timing_ctrl_earliest(&w, &glue, 1, &why), 1);
    assert_int_equal(why, TIMING_STALL_SELECTED);
    timing_ctrl_warp before = w;
    timing_ctrl_issued(&w, &glue, 1, 1, 1, 0);
    assert_memory_equal(&w, &before, sizeof w);
    assert_int_equal(timing_ctrl_stall_cycles(&glue), 0);
}

/* The stall count and the scoreboards together: the cycles before the stall ends are WAIT, the
 * rest the scoreboard's; the reason of the gate that opens last. */
static void test_stall_and_scoreboard(void **state)
{
    (void)state;
    timing_ctrl_warp w;
    memset(&w, 0, sizeof w);
    ir_ctrl load = ctrl(11, 0, 0, NO, 0), use = ctrl(1, 0, NO, NO, 1u << 0);
    timing_ctrl_issued(&w, &load, 0, 2, 8, 0); /* the result is back before the stall ends */
    timing_stall why;
    assert_int_equal(timing_ctrl_earliest(&w, &use, 1, &why), 11);
    assert_int_equal(why, TIMING_STALL_WAIT);
    timing_ctrl_wait x = timing_ctrl_explain(&w, &use, 1);
    assert_int_equal(x.stall_until, 11);
    assert_int_equal(x.issue, 11);
    assert_int_equal(x.scoreboard, TIMING_STALL_SELECTED);
    ir_ctrl load2 = ctrl(3, 0, 0, NO, 0);
    timing_ctrl_issued(&w, &load2, 20, 22, 30, 0);
    x = timing_ctrl_explain(&w, &use, 21);
    assert_int_equal(x.stall_until, 23);
    assert_int_equal(x.issue, 30);
    assert_int_equal(x.scoreboard, TIMING_STALL_SHORT_SCOREBOARD);
    assert_int_equal(timing_ctrl_count(&w, IR_SCOREBOARDS, 21), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fresh_warp_issues_at_once),
        cmocka_unit_test(test_stall_count),
        cmocka_unit_test(test_long_stall_needs_yield),
        cmocka_unit_test(test_write_scoreboard),
        cmocka_unit_test(test_read_scoreboard),
        cmocka_unit_test(test_activation_delay),
        cmocka_unit_test(test_activation_while_waiting),
        cmocka_unit_test(test_depbar_le),
        cmocka_unit_test(test_cleared_entries_are_dropped),
        cmocka_unit_test(test_full_board_merges),
        cmocka_unit_test(test_glue_is_free),
        cmocka_unit_test(test_stall_and_scoreboard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
