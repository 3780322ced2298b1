/* SASS control codes driving issue under the timing model (docs/timing.md, "Control codes",
 * "Validation: stall counts against cycles"): the loop kernel of tests/timing_ctrl/ in three
 * versions that differ only in the stall counts of its five loop instructions (all 1 where the
 * dialect allows it, the reference's minimums, longer legal ones), run through the public
 * launch-file runner with timing on. One warp, so each iteration costs exactly the sum of its
 * stalls; the code outside the loop is the same in the three and cancels out of the differences.
 * Then two kernels whose launch files expect clock differences that only the control codes
 * explain: the stall before an instruction with a constant-bank operand (lowered with glue), and
 * yield between two warps of one scheduler. The rules themselves are unit-tested in
 * test_timing_ctrl.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "gpumemsim/gpumemsim.h"
#include "gpumemsim/run.h"

#define DIR GMS_SOURCE_DIR "/tests/timing_ctrl/"

enum { ONE, MIN, LONG, VARIANTS };
static const char *const variant_names[VARIANTS] = {"one", "min", "long"};
/* The loop body's stalls: 1+1+1+1+5, 1+1+6+13+5, 11+11+11+15+5. */
static const uint64_t body_cycles[VARIANTS] = {9, 26, 53};

/* Runs stalls_<variant>_<iterations>.json and returns its launch's statistics. */
static gms_launch_stats run_variant(int variant, unsigned iterations)
{
    char path[512];
    snprintf(path, sizeof path, DIR "stalls_%s_%u.json", variant_names[variant], iterations);
    gms_diag_list *dl = gms_diag_list_create();
    gms_run *run = NULL;
    gms_run_options opt = {0};
    assert_int_equal(gms_run_file(path, &opt, &run, dl), GMS_OK); /* the values are right */
    gms_launch_stats s;
    assert_int_equal(gms_device_launch_stats(gms_run_device(run), 0, &s), GMS_OK);
    assert_int_equal(s.timing.enabled, 1);
    gms_run_destroy(run);
    gms_diag_list_destroy(dl);
    return s;
}

static gms_launch_stats stats[VARIANTS][2]; /* [variant][0: 100 iterations, 1: 200] */

static int setup(void **state)
{
    (void)state;
    for (int v = 0; v < VARIANTS; v++) {
        stats[v][0] = run_variant(v, 100);
        stats[v][1] = run_variant(v, 200);
    }
    return 0;
}

/* 100 more iterations cost 100 loop bodies' stalls, exactly. */
static void test_iterations_cost_their_stalls(void **state)
{
    (void)state;
    for (int v = 0; v < VARIANTS; v++) {
        uint64_t d = stats[v][1].timing.cycles - stats[v][0].timing.cycles;
        assert_int_equal(d, 100 * body_cycles[v]);
    }
    assert_int_equal(stats[ONE][1].timing.cycles - stats[ONE][0].timing.cycles, 900);
    assert_int_equal(stats[MIN][1].timing.cycles - stats[MIN][0].timing.cycles, 2600);
    assert_int_equal(stats[LONG][1].timing.cycles - stats[LONG][0].timing.cycles, 5300);
}

/* At 100 iterations the three kernels differ by 100 times their bodies' difference. */
static void test_variants_differ_by_their_stalls(void **state)
{
    (void)state;
    assert_int_equal(stats[MIN][0].timing.cycles - stats[ONE][0].timing.cycles, 1700);
    assert_int_equal(stats[LONG][0].timing.cycles - stats[ONE][0].timing.cycles, 4400);
    assert_int_equal(stats[LONG][0].timing.cycles - stats[MIN][0].timing.cycles, 2700);
}

/* The extra cycles are charged to the stall count (wait); every other reason is the same. */
static void test_extra_cycles_are_wait(void **state)
{
    (void)state;
    for (int v = MIN; v < VARIANTS; v++) {
        for (int r = 0; r < GMS_STALL_COUNT; r++) {
            uint64_t got = stats[v][0].timing.stalls[r], base = stats[ONE][0].timing.stalls[r];
            if (r == GMS_STALL_WAIT)
                assert_int_equal(got - base, 100 * (body_cycles[v] - body_cycles[ONE]));
            else
                assert_int_equal(got, base);
        }
        assert_int_equal(stats[v][0].warp_instructions, stats[ONE][0].warp_instructions);
    }
}

/* Runs a launch file of tests/timing_ctrl/ whose expectations hold the clock differences. */
static void run_expecting(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, DIR "%s.json", name);
    gms_diag_list *dl = gms_diag_list_create();
    gms_run *run = NULL;
    gms_run_options opt = {0};
    gms_status st = gms_run_file(path, &opt, &run, dl);
    if (st == GMS_ERR_EXPECT) {
        gms_expect_result r;
        assert_int_equal(gms_run_expect(run, 0, &r), GMS_OK);
        for (size_t i = 0; i < r.shown; i++)
            print_message("%s: out[%llu] = %s, expected %s\n", name,
                          (unsigned long long)r.first[i].index, r.first[i].got,
                          r.first[i].expected);
    }
    assert_int_equal(st, GMS_OK);
    gms_run_destroy(run);
    gms_diag_list_destroy(dl);
}

/* A stall of 11 before an IADD with a c[0x0][0x140] operand holds although the IADD's issue
 * starts with the glue load of that operand: the clocks read 12 cycles apart. */
static void test_stall_before_glue(void **state)
{
    (void)state;
    run_expecting("clock_glue");
}

/* Without yield the greedy scheduler keeps warp 0 (10 cycles, warp 4 18); with yield on every
 * IADD the two warps of scheduler 0 alternate (18 and 18); warps alone on their scheduler lose
 * nothing (10). */
static void test_yield(void **state)
{
    (void)state;
    run_expecting("yield_greedy");
    run_expecting("yield_yield");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iterations_cost_their_stalls),
        cmocka_unit_test(test_variants_differ_by_their_stalls),
        cmocka_unit_test(test_extra_cycles_are_wait),
        cmocka_unit_test(test_stall_before_glue),
        cmocka_unit_test(test_yield),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
