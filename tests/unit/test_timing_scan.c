/* The scheduler's ready-cycle scans (src/timing/timing_scan.c): exact masks and minima for
 * known entries, the next-cycle scan against a reference written from its definition, and the
 * AVX2 versions (where this CPU has AVX2) equal to the plain ones on
 * every length from 0 to 64 with cycles near the boundaries, TIMING_NEVER (UINT64_MAX) and
 * values above 2^63 included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/timing_scan.h"

#define NEVER UINT64_MAX

static void test_known_entries(void **state)
{
    (void)state;
    const uint64_t r[6] = {5, NEVER, 9, 10, 0, UINT64_C(1) << 63};
    assert_int_equal(timing_scan_ready_plain(r, 6, 9), 0x15); /* entries 0, 2, 4 */
    assert_int_equal(timing_scan_ready_plain(r, 6, 0), 0x10);
    assert_int_equal(timing_scan_ready_plain(r, 3, 100), 0x5);
    assert_int_equal(timing_scan_ready_plain(r, 0, 100), 0);
    assert_true(timing_scan_min_plain(r, 6, 0) == 0);
    assert_true(timing_scan_min_plain(r, 4, 0) == 5);
    assert_true(timing_scan_min_plain(r + 1, 1, 0) == NEVER);
    assert_true(timing_scan_min_plain(r, 0, 0) == NEVER);
    /* The plain scan may stop at an entry <= enough: 5 is enough, the 0 behind it unread. */
    assert_true(timing_scan_min_plain(r, 6, 5) == 5);
    if (!timing_scan_has_avx2())
        return;
    assert_int_equal(timing_scan_ready_avx2(r, 6, 9), 0x15);
    assert_int_equal(timing_scan_ready_avx2(r, 6, 0), 0x10);
    assert_true(timing_scan_min_avx2(r, 6, 0) == 0);
    assert_true(timing_scan_min_avx2(r, 4, 0) == 5);
    assert_true(timing_scan_min_avx2(r + 1, 1, 0) == NEVER);
    assert_true(timing_scan_min_avx2(r, 0, 0) == NEVER);
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void test_avx2_matches_plain(void **state)
{
    (void)state;
    if (!timing_scan_has_avx2()) {
        print_message("no AVX2 on this CPU: only the plain scans are checked\n");
        return;
    }
    const uint64_t pick[] = {0, 1, 99, 100, 101, NEVER, NEVER - 1, UINT64_C(1) << 63,
                             (UINT64_C(1) << 63) - 1};
    uint64_t x = 0x9e3779b97f4a7c15u, r[64];
    for (int round = 0; round < 2000; round++) {
        uint32_t n = (uint32_t)(next_random(&x) % 65);
        for (uint32_t k = 0; k < n; k++) r[k] = pick[next_random(&x) % 9];
        uint64_t t = pick[next_random(&x) % 9];
        assert_int_equal(timing_scan_ready_avx2(r, n, t), timing_scan_ready_plain(r, n, t));
        assert_true(timing_scan_min_avx2(r, n, 0) == timing_scan_min_plain(r, n, 0));
    }
}

/* The four-entry minimum equals the plain scan over the entries in use (0 to 4, the rest
 * TIMING_NEVER as in a scheduler's unused entries) on random cycles near each other and at the
 * extremes; ties and an all-NEVER scheduler included. */
static void test_min4_matches_plain(void **state)
{
    (void)state;
    uint64_t x = 12345;
    for (int round = 0; round < 20000; round++) {
        uint64_t r[4];
        uint32_t used = (uint32_t)(next_random(&x) % 5);
        for (uint32_t k = 0; k < 4; k++) {
            uint64_t v = next_random(&x);
            r[k] = k >= used ? NEVER : (v & 3) == 0 ? NEVER : (v & 3) == 1 ? (v >> 60) : v >> 2;
        }
        assert_true(timing_scan_min4(r) == timing_scan_min_plain(r, used, 0));
    }
    const uint64_t same[4] = {7, 7, NEVER, NEVER};
    assert_true(timing_scan_min4(same) == 7);
}

/* The next cycle, from a reference written from its definition: max(least, t1); *early, the
 * entries <= t1. */
static uint64_t reference_next(const uint64_t *r, uint32_t n, uint64_t t1, uint64_t *early)
{
    uint64_t least = NEVER, m = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (r[k] < least)
            least = r[k];
        if (r[k] <= t1)
            m |= UINT64_C(1) << k;
    }
    *early = m;
    return least > t1 ? least : t1;
}

static void test_next_known(void **state)
{
    (void)state;
    const uint64_t r[9] = {50, 40, NEVER, 40, 12, 60, 40, 70, 80};
    uint64_t m = 99;
    /* one entry by t1: the mask is those <= t1, the next cycle t1 */
    assert_true(timing_scan_next_plain(r, 9, 20, &m) == 20);
    assert_int_equal(m, 0x10);
    /* none by t1: the least (40), an empty mask; the entries equal to it */
    assert_true(timing_scan_next_plain(r, 4, 20, &m) == 40);
    assert_int_equal(m, 0);
    assert_int_equal(timing_scan_equal_plain(r, 4, 40), 0xa);
    assert_int_equal(timing_scan_equal_plain(r, 9, 40), 0x4a);
    /* all NEVER, or none at all: NEVER and an empty mask */
    assert_true(timing_scan_next_plain(r + 2, 1, 20, &m) == NEVER);
    assert_int_equal(m, 0);
    assert_true(timing_scan_next_plain(r, 0, 20, &m) == NEVER);
    assert_int_equal(m, 0);
    if (!timing_scan_has_avx2())
        return;
    assert_true(timing_scan_next_avx2(r, 9, 20, &m) == 20);
    assert_int_equal(m, 0x10);
    assert_true(timing_scan_next_avx2(r, 9, 5, &m) == 12);
    assert_int_equal(m, 0);
    assert_true(timing_scan_next_avx2(r, 9, 45, &m) == 45);
    assert_int_equal(m, 0x5a);
    assert_int_equal(timing_scan_equal_avx2(r, 9, 40), 0x4a);
}

/* Both versions of both scans equal the reference on every length from 0 to 64 (the AVX2 ones
 * from 8, where they are used, and below, where their vector rounds are skipped; 16, which has
 * a path of its own, in every fourth round), on cycles
 * drawn from a few values so that ties, entries equal to t1 and all-NEVER schedulers come up
 * often. */
static void test_next_matches_reference(void **state)
{
    (void)state;
    const uint64_t pick[] = {0, 1, 99, 100, 101, 102, NEVER, NEVER - 1, UINT64_C(1) << 63,
                             (UINT64_C(1) << 63) - 1};
    uint64_t x = 0x2545f4914f6cdd1du, r[64];
    for (int round = 0; round < 20000; round++) {
        uint32_t n = (uint32_t)(next_random(&x) % 65);
        if (round % 4 == 0)
            n = 16; /* the presets' usual count, which timing_scan_next_avx2 unrolls */
        uint32_t spread = 1 + (uint32_t)(next_random(&x) % 10);
        for (uint32_t k = 0; k < n; k++) r[k] = pick[next_random(&x) % spread];
        uint64_t t1 = pick[next_random(&x) % 6], v = pick[next_random(&x) % 10];
        uint64_t want, got, equal = 0;
        for (uint32_t k = 0; k < n; k++) equal |= (uint64_t)(r[k] == v) << k;
        uint64_t next = reference_next(r, n, t1, &want);
        assert_true(timing_scan_next_plain(r, n, t1, &got) == next);
        assert_int_equal(got, want);
        assert_int_equal(timing_scan_equal_plain(r, n, v), equal);
        if (timing_scan_has_avx2()) {
            assert_true(timing_scan_next_avx2(r, n, t1, &got) == next);
            assert_int_equal(got, want);
            assert_int_equal(timing_scan_equal_avx2(r, n, v), equal);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_entries),
        cmocka_unit_test(test_avx2_matches_plain),
        cmocka_unit_test(test_min4_matches_plain),
        cmocka_unit_test(test_next_known),
        cmocka_unit_test(test_next_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
