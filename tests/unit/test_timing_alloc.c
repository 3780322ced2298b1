/* The timing model's storage for large tables (src/timing/timing_alloc.c): zeroed on both sides
 * of TIMING_HUGE_FROM (calloc below it, a mapping from it on), writable to its last byte, and
 * freed by size. Under the asan preset a wrong free (free of a mapping, munmap of a heap block)
 * or a short block fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/timing_alloc.h"

/* Checks that `bytes` from timing_zalloc are zero, then fills and frees them. */
static void zeroed_and_writable(size_t bytes)
{
    uint8_t *p = timing_zalloc(bytes);
    assert_non_null(p);
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; i += 511) nonzero += p[i] != 0;
    nonzero += p[bytes - 1] != 0;
    assert_int_equal(nonzero, 0);
    memset(p, 0xA5, bytes);
    assert_int_equal(p[0], 0xA5);
    assert_int_equal(p[bytes - 1], 0xA5);
    timing_free(p, bytes);
}

static void test_both_sides_of_the_threshold(void **state)
{
    (void)state;
    zeroed_and_writable(1);
    zeroed_and_writable(4096);
    zeroed_and_writable(TIMING_HUGE_FROM - 8);
    zeroed_and_writable(TIMING_HUGE_FROM);
    zeroed_and_writable(TIMING_HUGE_FROM + 12345);
    zeroed_and_writable((size_t)5 * TIMING_HUGE_FROM);
}

/* A second block of the same size after a freed one is zeroed again (the pages of a freed
 * mapping are not handed back dirty). */
static void test_again_after_free(void **state)
{
    (void)state;
    zeroed_and_writable((size_t)3 * TIMING_HUGE_FROM);
    zeroed_and_writable((size_t)3 * TIMING_HUGE_FROM);
    timing_free(NULL, (size_t)3 * TIMING_HUGE_FROM); /* nothing */
    timing_free(NULL, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_sides_of_the_threshold),
        cmocka_unit_test(test_again_after_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
