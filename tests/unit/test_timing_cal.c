/* The timing core's calendar (src/timing/timing_cal.c; docs/timing.md "Model") against a plain
 * reference on random traces: an array of fixed size per wheel slot and a sorted list beyond the
 * wheel. Every answer of timing_cal_next must match, and timing_cal_due must name the
 * reference's next entries of the same cycle; the slots' arrays are carved from the
 * calendar's blocks and grow while others hold entries (the bursts), and a reset keeps them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/timing_cal.h"

enum { NSCHED = 64, REF_SLOT_CAP = 256, REF_FAR_CAP = 1 << 16 };

typedef struct ref_far {
    uint64_t key;
    uint32_t s;
} ref_far;

/* The reference: slot b holds its entries in the order they came; the far list is kept sorted by
 * (key, s), the order the calendar's heap gives them up. */
typedef struct ref_cal {
    uint64_t now;
    uint32_t pos, count;
    uint32_t *slot[TIMING_CAL_SLOTS];
    uint32_t n[TIMING_CAL_SLOTS];
    ref_far *far;
    uint32_t nfar;
} ref_cal;

static void ref_init(ref_cal *r)
{
    memset(r, 0, sizeof *r);
    r->far = malloc(REF_FAR_CAP * sizeof *r->far);
    assert_non_null(r->far);
}

static void ref_free(ref_cal *r)
{
    for (uint32_t b = 0; b < TIMING_CAL_SLOTS; b++) free(r->slot[b]);
    free(r->far);
}

static void ref_wheel_add(ref_cal *r, uint32_t s, uint64_t key)
{
    uint32_t b = (uint32_t)(key & (TIMING_CAL_SLOTS - 1));
    if (!r->slot[b]) {
        r->slot[b] = malloc(REF_SLOT_CAP * sizeof *r->slot[b]);
        assert_non_null(r->slot[b]);
    }
    assert_true(r->n[b] < REF_SLOT_CAP);
    r->slot[b][r->n[b]++] = s;
    r->count++;
}

static void ref_add(ref_cal *r, uint32_t s, uint64_t key)
{
    if (key - r->now < TIMING_CAL_SLOTS) {
        ref_wheel_add(r, s, key);
        return;
    }
    assert_true(r->nfar < REF_FAR_CAP);
    uint32_t i = r->nfar++;
    while (i > 0 && (r->far[i - 1].key > key || (r->far[i - 1].key == key && r->far[i - 1].s > s))) {
        r->far[i] = r->far[i - 1];
        i--;
    }
    r->far[i] = (ref_far){key, s};
}

static int ref_next(ref_cal *r, const uint64_t *keys, uint32_t *s, uint64_t *t)
{
    for (;;) {
        uint32_t b = (uint32_t)(r->now & (TIMING_CAL_SLOTS - 1));
        while (r->pos < r->n[b]) {
            uint32_t e = r->slot[b][r->pos++];
            if (keys[e] == r->now) {
                *s = e;
                *t = r->now;
                return 1;
            }
        }
        r->count -= r->n[b];
        r->n[b] = 0;
        r->pos = 0;
        if (r->count)
            r->now++;
        else if (r->nfar)
            r->now = r->far[0].key;
        else
            return 0;
        while (r->nfar && r->far[0].key - r->now < TIMING_CAL_SLOTS) {
            ref_far f = r->far[0];
            memmove(r->far, r->far + 1, (r->nfar - 1) * sizeof *r->far);
            r->nfar--;
            if (keys[f.s] == f.key)
                ref_wheel_add(r, f.s, f.key);
        }
    }
}

static uint64_t rnd_state = 12345;
static uint32_t rnd(void)
{
    rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rnd_state >> 33);
}

/* One trace: `steps` rounds of a few adds (most near, some beyond the wheel, some stale: the
 * key array not moved to them) and a next; `burst` adds many entries to one cycle, so that a
 * slot chains several chunks. */
static void run_trace(uint32_t steps, uint32_t far_per_mille, uint32_t burst)
{
    timing_cal *c = calloc(1, sizeof *c);
    ref_cal *r = calloc(1, sizeof *r);
    assert_non_null(c);
    assert_non_null(r);
    ref_init(r);
    uint64_t keys[NSCHED];
    for (int round = 0; round < 2; round++) { /* the second round after a reset, storage kept */
        for (uint32_t i = 0; i < NSCHED; i++) keys[i] = UINT64_MAX;
        uint64_t now = 0;
        uint32_t got_c = 1;
        for (uint32_t step = 0; step < steps && got_c; step++) {
            uint32_t adds = burst && step % 97 == 0 ? burst : rnd() % 4;
            for (uint32_t a = 0; a < adds; a++) {
                uint32_t s = rnd() % NSCHED;
                uint64_t dist = rnd() % 1000 < far_per_mille ? 4000 + rnd() % 9000 : 1 + rnd() % 40;
                if (burst && adds == burst)
                    dist = 3;
                uint64_t key = now + dist;
                if (rnd() % 8) /* otherwise a stale entry: the key stays where it was */
                    keys[s] = key;
                assert_int_equal(timing_cal_add(c, s, key), 0);
                ref_add(r, s, key);
            }
            uint32_t sc = 0, sr = 0;
            uint64_t tc = 0, tr = 0;
            got_c = (uint32_t)timing_cal_next(c, keys, &sc, &tc);
            uint32_t got_r = (uint32_t)ref_next(r, keys, &sr, &tr);
            assert_int_equal(got_c, got_r);
            if (!got_c)
                break;
            assert_int_equal(sc, sr);
            assert_int_equal(tc, tr);
            now = tc;
            /* What is due next in this cycle: the reference's slot after pos. */
            uint32_t n;
            const uint32_t *due = timing_cal_due(c, &n);
            uint32_t b = (uint32_t)(now & (TIMING_CAL_SLOTS - 1));
            assert_int_equal(n, r->n[b] - r->pos);
            for (uint32_t i = 0; i < n; i++) assert_int_equal(due[i], r->slot[b][r->pos + i]);
        }
        timing_cal_reset(c);
        for (uint32_t b = 0; b < TIMING_CAL_SLOTS; b++) r->n[b] = 0;
        r->now = 0;
        r->pos = r->count = r->nfar = 0;
    }
    timing_cal_free(c);
    free(c);
    ref_free(r);
    free(r);
}

static void test_mostly_near(void **state)
{
    (void)state;
    run_trace(200000, 5, 0);
}

static void test_many_far(void **state)
{
    (void)state;
    run_trace(100000, 200, 0);
}

/* Bursts of 40 entries into one cycle: a slot's array grows past the others' (16, then 32 and
 * 64 entries) while other slots hold entries, and later slots start at the larger size. */
static void test_bursts(void **state)
{
    (void)state;
    run_trace(100000, 20, 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mostly_near),
        cmocka_unit_test(test_many_far),
        cmocka_unit_test(test_bursts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
