/* Unit tests for src/sim: the launch checks that run before any launch (sim_check_launches). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/sim.h"

/* A launch that breaks .maxntid is found before the first launch (which is fine) runs. */
static void test_launch_checked_before_running(void **state)
{
    (void)state;
    sim_options opt = {0};
    diag_list dl;
    diag_list_init(&dl);
    sim_result *r = sim_run_file(GMS_SOURCE_DIR "/tests/launch_limits/maxntid.json", &opt, &dl);
    assert_non_null(r);
    assert_int_equal(r->status, SIM_BAD_INPUT);
    assert_int_equal(r->nlaunches, 0);
    assert_int_equal(dl.errors, 1);
    const diag *d = diag_find(&dl, "SIM-LAUNCH-004");
    assert_non_null(d);
    assert_int_equal(d->line, 5);
    assert_int_equal(d->col, 53);
    assert_int_equal(d->note_line, 23);
    assert_int_equal(d->note_col, 1);
    sim_result_destroy(r);
    diag_list_fini(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_checked_before_running),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
