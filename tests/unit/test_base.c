/* Unit tests for src/base: arena and diagnostics list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"

static void test_arena_alignment_and_zero(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    for (int i = 1; i < 1000; i += 37) {
        unsigned char *p = arena_alloc(&a, (size_t)i);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (int j = 0; j < i; j++)
            assert_int_equal(p[j], 0);
        memset(p, 0xab, (size_t)i);
    }
    char *big = arena_alloc(&a, 1 << 20); /* larger than one block */
    assert_non_null(big);
    assert_string_equal(arena_strndup(&a, "sector", 3), "sec");
    arena_fini(&a);
}

static void test_diag_format(void **state)
{
    (void)state;
    diag_list dl;
    diag_list_init(&dl);
    diag_add(&dl, DIAG_ERROR, "PTX-ARCH-011", "k.ptx", 12, 7, "%s requires sm_%d", ".L2::evict_last", 100);
    diag_add(&dl, DIAG_WARNING, "PTX-W-001", "k.ptx", 3, 0, "w");
    char buf[256];
    diag_format(&dl.items[0], buf, sizeof buf);
    assert_string_equal(buf, "k.ptx:12:7: error: .L2::evict_last requires sm_100 [PTX-ARCH-011]");
    diag_format(&dl.items[1], buf, sizeof buf);
    assert_string_equal(buf, "k.ptx:3: warning: w [PTX-W-001]");
    assert_int_equal(dl.errors, 1);
    assert_int_equal(dl.warnings, 1);
    assert_non_null(diag_find(&dl, "PTX-W-001"));
    assert_null(diag_find(&dl, "PTX-W-002"));
    diag_list_fini(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_alignment_and_zero),
        cmocka_unit_test(test_diag_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
