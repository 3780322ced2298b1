/* Unit tests for the launch-file runner (gpumemsim/run.h, src/sim/sim_run.c): the progress hook
 * (when it is called and with which counts) and the launch checks that run before any launch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "gpumemsim/run.h"

enum { MAX_CALLS = 8 };

typedef struct calls {
    size_t n;
    gms_progress seen[MAX_CALLS];
} calls;

static void record(const gms_progress *p, void *user)
{
    calls *c = user;
    if (c->n < MAX_CALLS)
        c->seen[c->n] = *p;
    c->n++;
}

/* In functional mode the runaway kernel (one CTA of two warps spinning forever) issues 512 warp
 * instructions per scheduling round (two warps, a quantum of 256 each), so the executor's
 * 2^18-instruction reports fall exactly at 262144 and 524288 before the limit of 600000 stops
 * it. (Under the timing model a report comes at the first check after each 2^18.) */
static void test_progress_reports(void **state)
{
    (void)state;
    calls c = {0};
    gms_run_options opt = {.max_instructions = 600000, .progress = record, .progress_user = &c,
                           .no_timing = 1};
    gms_run *r = NULL;
    gms_status st =
        gms_run_file(GMS_SOURCE_DIR "/tests/kernels/runaway/runaway.json", &opt, &r, NULL);
    assert_non_null(r);
    assert_int_equal(st, GMS_ERR_FAULT);
    gms_fault f;
    assert_int_equal(gms_device_fault(gms_run_device(r), &f), GMS_OK);
    assert_string_equal(f.rule, "EXEC-LIMIT-001");
    assert_int_equal(c.n, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(c.seen[i].launch, 0);
        assert_int_equal(c.seen[i].nlaunches, 1);
        assert_string_equal(c.seen[i].kernel, "_Z12spin_foreverPVKiPi");
        assert_int_equal(c.seen[i].ctas_done, 0);
        assert_int_equal(c.seen[i].ctas_total, 1);
        assert_int_equal(c.seen[i].max_instructions, 600000);
        assert_true(c.seen[i].seconds >= 0);
    }
    assert_int_equal(c.seen[0].warp_instructions, 262144);
    assert_int_equal(c.seen[1].warp_instructions, 524288);
    gms_run_destroy(r);
}

/* Without a hook nothing is reported and the run is the same. */
static void test_no_progress_hook(void **state)
{
    (void)state;
    gms_run_options opt = {.max_instructions = 300000};
    gms_run *r = NULL;
    gms_status st =
        gms_run_file(GMS_SOURCE_DIR "/tests/kernels/runaway/runaway.json", &opt, &r, NULL);
    assert_non_null(r);
    assert_int_equal(st, GMS_ERR_FAULT);
    gms_totals t;
    assert_int_equal(gms_device_totals(gms_run_device(r), &t), GMS_OK);
    assert_int_equal(t.warp_instructions, 300000);
    gms_run_destroy(r);
}

/* Functional mode with a limit that is no multiple of the quantum (256): the executor's turns
 * take the budget once each (exec_warp.c run_16), and the warp that meets the limit in the
 * middle of its turn stops after exactly the limit's instructions, the 1000th, with every lane
 * of both warps (64 threads) counted in each. */
static void test_limit_inside_a_turn(void **state)
{
    (void)state;
    for (uint64_t limit = 999; limit <= 1000; limit++) {
        gms_run_options opt = {.max_instructions = limit, .no_timing = 1};
        gms_run *r = NULL;
        gms_status st =
            gms_run_file(GMS_SOURCE_DIR "/tests/kernels/runaway/runaway.json", &opt, &r, NULL);
        assert_non_null(r);
        assert_int_equal(st, GMS_ERR_FAULT);
        gms_fault f;
        assert_int_equal(gms_device_fault(gms_run_device(r), &f), GMS_OK);
        assert_string_equal(f.rule, "EXEC-LIMIT-001");
        gms_totals t;
        assert_int_equal(gms_device_totals(gms_run_device(r), &t), GMS_OK);
        assert_int_equal(t.warp_instructions, limit);
        assert_int_equal(t.thread_instructions, limit * 32);
        assert_int_equal(t.thread_instructions_pred_on, limit * 32);
        gms_run_destroy(r);
    }
}

/* A launch that breaks .maxntid is found before the first launch (which is fine) runs. */
static void test_launch_checked_before_running(void **state)
{
    (void)state;
    gms_run_options opt = {0};
    gms_diag_list *dl = gms_diag_list_create();
    gms_run *r = NULL;
    gms_status st =
        gms_run_file(GMS_SOURCE_DIR "/tests/launch_limits/maxntid.json", &opt, &r, dl);
    assert_non_null(r);
    assert_int_equal(st, GMS_ERR_LAUNCH);
    assert_int_equal(gms_device_launch_count(gms_run_device(r)), 0);
    assert_int_equal(gms_diag_list_errors(dl), 1);
    long i = gms_diag_list_find(dl, "SIM-LAUNCH-004");
    assert_true(i >= 0);
    gms_diag d;
    assert_int_equal(gms_diag_list_get(dl, (size_t)i, &d), GMS_OK);
    assert_int_equal(d.line, 5);
    assert_int_equal(d.col, 53);
    assert_int_equal(d.note_line, 23);
    assert_int_equal(d.note_col, 1);
    gms_run_destroy(r);
    gms_diag_list_destroy(dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_reports),
        cmocka_unit_test(test_no_progress_hook),
        cmocka_unit_test(test_limit_inside_a_turn),
        cmocka_unit_test(test_launch_checked_before_running),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
