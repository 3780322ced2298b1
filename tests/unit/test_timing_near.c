/* The near-partition copies (src/timing/timing_near.c): the recency-ordered sets against a
 * deliberately plain reference, a directory of use stamps where the victim of a full set is the
 * way with the least stamp and ways fill in order (what timing_mem.c kept before the sets were
 * ordered), on random traces over few sets so that sets fill, evict and hit at every depth; and
 * the layout's own promises (most recent first, empty ways last, a fresh set filled unread). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/timing_near.h"

/* The reference: per partition and set, ways of {line + 1, sectors, stamp}. */
typedef struct ref_dir {
    uint64_t *tag, *sectors, *stamp;
    uint64_t sets, clock;
    uint32_t nways;
} ref_dir;

static void ref_init(ref_dir *r, uint32_t partitions, uint64_t sets, uint32_t nways)
{
    size_t n = (size_t)(partitions * sets * nways);
    r->tag = calloc(n, sizeof *r->tag);
    r->sectors = calloc(n, sizeof *r->sectors);
    r->stamp = calloc(n, sizeof *r->stamp);
    r->sets = sets;
    r->nways = nways;
    r->clock = 0;
    assert_non_null(r->tag);
    assert_non_null(r->sectors);
    assert_non_null(r->stamp);
}

static void ref_fini(ref_dir *r)
{
    free(r->tag);
    free(r->sectors);
    free(r->stamp);
}

/* Whether sector bit `bit` of `line` was in partition part's copy; it is afterwards. */
static int ref_touch(ref_dir *r, uint32_t part, uint64_t line, uint64_t bit)
{
    size_t base = (size_t)((part * r->sets + line % r->sets) * r->nways);
    uint32_t victim = 0;
    r->clock++;
    for (uint32_t w = 0; w < r->nways; w++) {
        if (r->tag[base + w] == line + 1) {
            r->stamp[base + w] = r->clock;
            int had = (r->sectors[base + w] & bit) != 0;
            r->sectors[base + w] |= bit;
            return had;
        }
    }
    for (uint32_t w = 0; w < r->nways; w++) { /* an empty way, else the least stamp */
        if (!r->tag[base + w]) {
            victim = w;
            break;
        }
        if (r->stamp[base + w] < r->stamp[base + victim])
            victim = w;
    }
    r->tag[base + victim] = line + 1;
    r->stamp[base + victim] = r->clock;
    r->sectors[base + victim] = bit;
    return 0;
}

static int dir_touch(near_dir *d, uint32_t part, uint64_t line, uint64_t bit)
{
    near_way *e = near_dir_line(d, part, line);
    int had = (e->sectors & bit) != 0;
    e->sectors |= bit;
    return had;
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Same answers, and the same lines and sectors in every set (as sets: the reference keeps no
 * order), after every touch. */
static void check_same(const near_dir *d, const ref_dir *r, uint32_t partitions)
{
    for (uint64_t set = 0; set < partitions * r->sets; set++) {
        const near_way *s = d->ways + set * d->nways;
        uint32_t filled = 0;
        while (filled < d->nways && s[filled].line1) filled++;
        for (uint32_t w = filled; w < d->nways; w++)
            if (d->written[set / 64] >> (set % 64) & 1)
                assert_true(s[w].line1 == 0); /* empty ways only behind full ones */
        uint32_t ref_filled = 0;
        for (uint32_t v = 0; v < r->nways; v++) {
            uint64_t tag = r->tag[set * r->nways + v];
            if (!tag)
                continue;
            ref_filled++;
            uint32_t w = 0;
            while (w < filled && s[w].line1 != tag) w++;
            assert_true(w < filled);
            assert_true(s[w].sectors == r->sectors[set * r->nways + v]);
        }
        assert_int_equal(filled, ref_filled);
        /* recency order: the reference's stamps descend along the ways */
        for (uint32_t w = 1; w < filled; w++) {
            uint64_t st_prev = 0, st = 0;
            for (uint32_t v = 0; v < r->nways; v++) {
                if (r->tag[set * r->nways + v] == s[w - 1].line1)
                    st_prev = r->stamp[set * r->nways + v];
                if (r->tag[set * r->nways + v] == s[w].line1)
                    st = r->stamp[set * r->nways + v];
            }
            assert_true(st_prev > st);
        }
    }
}

static void run_trace(uint32_t partitions, uint64_t sets, uint32_t nways, uint64_t lines,
                      uint32_t touches, uint64_t seed)
{
    near_dir d;
    ref_dir r;
    assert_int_equal(near_dir_init(&d, partitions, sets, nways), 0);
    ref_init(&r, partitions, sets, nways);
    uint64_t x = seed, hits = 0;
    uint64_t last_line = 0;
    for (uint32_t i = 0; i < touches; i++) {
        uint64_t v = next_random(&x);
        uint32_t part = (uint32_t)(v % partitions);
        /* half the touches another sector of the line before, as an access's sectors come */
        uint64_t line = (v >> 8) & 1 ? last_line : (v >> 16) % lines;
        uint64_t bit = UINT64_C(1) << ((v >> 40) % 4);
        last_line = line;
        int a = dir_touch(&d, part, line, bit), b = ref_touch(&r, part, line, bit);
        assert_int_equal(a, b);
        hits += (uint64_t)a;
        if (i % 97 == 0)
            check_same(&d, &r, partitions);
    }
    check_same(&d, &r, partitions);
    assert_true(hits > 0 && hits < touches); /* the trace hits and misses */
    near_dir_fini(&d);
    ref_fini(&r);
}

static void test_against_stamps(void **state)
{
    (void)state;
    run_trace(2, 4, 2, 40, 20000, 0x9e3779b97f4a7c15u);   /* the tiny GPU's copies */
    run_trace(2, 7, 16, 300, 40000, 0x1234567u);          /* h100's ways, few sets */
    run_trace(3, 5, 4, 30, 20000, 0xabcdefu);             /* mostly hits */
    run_trace(1, 1, 1, 3, 5000, 0x777u);                  /* one way: every other line evicts */
    run_trace(2, 100, 8, 100000, 20000, 0x4242u);         /* mostly misses, sets half full */
}

/* The line just touched is first in its set; a line not there comes in with no sectors; a
 * fresh set is filled without its ways being read (set here to a value the fill overwrites). */
static void test_layout(void **state)
{
    (void)state;
    near_dir d;
    assert_int_equal(near_dir_init(&d, 1, 2, 4), 0);
    d.ways[4].line1 = 99; /* set 1, never written: garbage that must not be taken as a line */
    near_way *e = near_dir_line(&d, 0, 3); /* set 1 */
    assert_ptr_equal(e, &d.ways[4]);
    assert_true(e->line1 == 4 && e->sectors == 0);
    e->sectors = 2;
    for (uint64_t line = 5; line <= 11; line += 2) near_dir_line(&d, 0, line); /* fills set 1 */
    /* set 1 now holds 11, 9, 7, 5 (3 was evicted); touching 7 moves it first */
    e = near_dir_line(&d, 0, 7);
    assert_true(d.ways[4].line1 == 8 && d.ways[5].line1 == 12 && d.ways[6].line1 == 10 &&
                d.ways[7].line1 == 6);
    e = near_dir_line(&d, 0, 3);
    assert_true(e->line1 == 4 && e->sectors == 0); /* came in again, fresh */
    assert_true(d.ways[7].line1 == 10);            /* 5 (the least recent) left */
    near_dir_fini(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_stamps),
        cmocka_unit_test(test_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
