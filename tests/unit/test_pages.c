/* Unit tests of src/base/pages.c: mappings that start at a 2 MiB boundary, zero-filled, and the
 * dense blocks' lengths (whole 2 MiB pages from 2 MiB on, whole 4 KiB pages below). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/mman.h>

#include "base/pages.h"

/* A mapping of an odd number of 4 KiB pages starts at a 2 MiB boundary, reads zeros and keeps
 * what is written to its last byte; munmap of exactly its length succeeds. */
static void test_map_aligned(void **state)
{
    (void)state;
    size_t bytes = 5 * (size_t)PAGES_HUGE_BYTES / 2 + 3 * PAGES_SMALL_BYTES;
    uint8_t *p = pages_map_aligned(bytes);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % PAGES_HUGE_BYTES, 0);
    assert_int_equal(p[0] | p[bytes / 2] | p[bytes - 1], 0);
    pages_advise(p, PAGES_HUGE_BYTES, 1);
    pages_advise(p + PAGES_HUGE_BYTES, bytes - PAGES_HUGE_BYTES, 0);
    p[bytes - 1] = 0x5a;
    p[0] = 0xa5;
    assert_int_equal(p[bytes - 1], 0x5a);
    assert_int_equal(p[0], 0xa5);
    assert_int_equal(munmap(p, bytes), 0);
}

/* pages_round_up gives whole 4 KiB pages. */
static void test_round_up(void **state)
{
    (void)state;
    assert_int_equal(pages_round_up(0), 0);
    assert_int_equal(pages_round_up(1), PAGES_SMALL_BYTES);
    assert_int_equal(pages_round_up(PAGES_SMALL_BYTES), PAGES_SMALL_BYTES);
    assert_int_equal(pages_round_up(PAGES_SMALL_BYTES + 1), 2 * PAGES_SMALL_BYTES);
}

/* Dense blocks of several sizes are zero-filled and writable to their last byte; a block of
 * 2 MiB or more is mapped in whole 2 MiB pages from a 2 MiB boundary (its last byte rounded up
 * is still mapped: mprotect of the whole rounded length succeeds), and pages_free of the same
 * size unmaps it (and ignores NULL). */
static void test_alloc_dense(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 100, PAGES_SMALL_BYTES + 1, PAGES_HUGE_BYTES,
                            PAGES_HUGE_BYTES + 7, 3 * (size_t)PAGES_HUGE_BYTES - 64};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t *p = pages_alloc_dense(sizes[i]);
        assert_non_null(p);
        assert_int_equal(p[0] | p[sizes[i] - 1], 0);
        memset(p, 0x11, sizes[i]);
        assert_int_equal(p[sizes[i] - 1], 0x11);
        if (sizes[i] >= PAGES_HUGE_BYTES) {
            size_t whole = (sizes[i] + PAGES_HUGE_BYTES - 1) & ~(size_t)(PAGES_HUGE_BYTES - 1);
            assert_int_equal((uintptr_t)p % PAGES_HUGE_BYTES, 0);
            assert_int_equal(mprotect(p, whole, PROT_READ | PROT_WRITE), 0);
        }
        pages_free(p, sizes[i]);
    }
    pages_free(NULL, 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_aligned),
        cmocka_unit_test(test_round_up),
        cmocka_unit_test(test_alloc_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
