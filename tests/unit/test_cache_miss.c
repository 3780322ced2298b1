/* Unit tests for cache_read_line_miss, the miss path of a warp's line through an L1 and the L2
 * below it (docs/cache-model.md, "The miss path of a warp's line").
 *
 * Two identical hierarchies are built: a 4 KiB, 4-way L1 of 128 B lines and 32 B sectors on an
 * 8 KiB, 4-way L2 (64 B fills) on a DRAM store seen through a spy that records its calls. One
 * hierarchy reads through the L1 with cache_read (the L1's next level is the L2 through
 * cache_next_level_cache), the other takes cache_read_line_miss; after every step the two must
 * agree on the data, both caches' statistics and results, and every DRAM call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/dram.h"
#include "cache_spy.h"

#define BASE UINT64_C(0x7f0000000000)
enum { L1_SETS_STRIDE = 1024, L2_SETS_STRIDE = 2048 };

static void setup(hier *h)
{
    cache_config c1, c2;
    cache_config_default(&c2, 8192, 4);
    c2.fill_bytes = 64;
    cache_config_default(&c1, 4096, 4);
    c1.persisting_limit_lines = 8;
    hier_build(h, &c1, &c2);
    uint8_t bytes[4096];
    for (uint32_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)(i * 13 + 5);
    for (uint64_t a = 0; a < 8 * L2_SETS_STRIDE; a += sizeof bytes)
        assert_int_equal(dram_poke(h->d, BASE + a, sizeof bytes, bytes), MEM_OK);
}

static void assert_same_stats(const cache *a, const cache *b)
{
    assert_memory_equal(cache_get_stats(a), cache_get_stats(b), sizeof(cache_stats));
}

static void assert_same(const hier *a, const hier *b)
{
    assert_same_stats(a->l1, b->l1);
    assert_same_stats(a->l2, b->l2);
    assert_int_equal(a->count, b->count);
    assert_memory_equal(a->calls, b->calls, sizeof a->calls);
    assert_memory_equal(dram_get_stats(a->d), dram_get_stats(b->d), sizeof(dram_stats));
}

/* One line through both paths: `a` by cache_read of the run, `b` by cache_read_line_miss,
 * which must take it. Compares the data, the L1 results and the hierarchies. */
static void read_both(hier *a, hier *b, uint64_t line, uint64_t sectors, const cache_hints *h)
{
    unsigned first = (unsigned)__builtin_ctzll(sectors);
    uint32_t at = first * 32, bytes = (uint32_t)__builtin_popcountll(sectors) * 32;
    uint8_t want[128] = {0}, got[128] = {0};
    cache_result ra, rb, below;
    assert_int_equal(cache_read(a->l1, line + at, bytes, want + at, h, &ra), MEM_OK);
    bool taken = false;
    cache_hints below_hints = {.request = h->request};
    /* every other line with its L2 set known beforehand (as a prefetch gives it) */
    static int known;
    uint32_t want_set = cache_set_of(b->l2, line);
    uint32_t set = known++ % 2 ? cache_prefetch_set(b->l2, line) : CACHE_SET_UNKNOWN;
    assert_int_equal(cache_read_line_miss(b->l1, b->l2, line, sectors, h, &below_hints, got, &rb,
                                          &below, &set, &taken),
                     MEM_OK);
    assert_true(taken);
    assert_int_equal(set, want_set);
    assert_int_equal(cache_slice_of_set(b->l2, set), cache_slice_of(b->l2, line));
    assert_memory_equal(got + at, want + at, bytes);
    assert_memory_equal(&rb, &ra, sizeof ra);
    assert_same(a, b);
}

/* Plain misses: the L2 misses and fills from DRAM in 64-byte blocks, then hits for a later L1
 * miss of the same line; one sector, two sectors and the whole line; the classes of the hints. */
static void test_miss_matches_read(void **state)
{
    (void)state;
    hier a, b;
    setup(&a);
    setup(&b);
    int token;
    cache_hints normal = {.request = &token};
    cache_hints first = {.alloc = CACHE_ALLOC_FIRST, .kind = 3, .request = &token};
    cache_hints last = {.alloc = CACHE_ALLOC_LAST, .request = &token};
    read_both(&a, &b, BASE, 0xFu, &normal);
    assert_int_equal(b.count, 1); /* the L2's fill: one run of the whole line */
    read_both(&a, &b, BASE + 128, 0x2u, &first);
    read_both(&a, &b, BASE + 256, 0x6u, &last);
    /* Present lines without the requested sectors: the missing run only is read below (the L2
     * hits where its 64-byte fill brought the pair in), the valid ones hit. */
    read_both(&a, &b, BASE + 128, 0xCu, &normal);
    read_both(&a, &b, BASE + 128, 0x7u, &first);
    read_both(&a, &b, BASE + 256, 0xEu, &last);
    /* Evict BASE from the L1 (four more lines in its L1 set, none in its L2 set), then miss on
     * it again: an L2 hit. */
    for (uint64_t k = 1; k <= 7; k += 2)
        read_both(&a, &b, BASE + k * L1_SETS_STRIDE, 0x1u, &normal);
    int calls = b.count;
    read_both(&a, &b, BASE, 0x8u, &normal);
    assert_int_equal(b.count, calls);
    teardown(&a);
    teardown(&b);
}

/* Victims with dirty bytes at both levels: the L1's dirty line is written back into the L2
 * before the L2 is read, and the L2's dirty victim goes to DRAM, in the same order and with the
 * same masks as through cache_read. */
static void test_dirty_victims(void **state)
{
    (void)state;
    hier a, b;
    setup(&a);
    setup(&b);
    int token;
    cache_hints h = {.request = &token};
    hier *both[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        uint32_t v = 0xC0FFEE00u;
        for (uint64_t i = 0; i < 4; i++) { /* a full L1 set of partly dirty lines */
            assert_int_equal(cache_write(both[k]->l1, BASE + i * L1_SETS_STRIDE * 4 + 8, 4, &v,
                                         NULL, NULL),
                             MEM_OK);
        }
        for (uint64_t i = 0; i < 4; i++) /* a full L2 set of dirty lines */
            assert_int_equal(cache_write(both[k]->l2, BASE + 0x100000 + i * L2_SETS_STRIDE * 4,
                                         4, &v, NULL, NULL),
                             MEM_OK);
    }
    assert_same(&a, &b);
    /* Same L1 set and same L2 set as the dirty lines: both victims are dirty. */
    read_both(&a, &b, BASE + 4 * L1_SETS_STRIDE * 4 + 0x100000, 0xFu, &h);
    assert_true(cache_get_stats(b.l1)->dirty_evictions == 1);
    assert_true(cache_get_stats(b.l2)->dirty_evictions >= 1);
    teardown(&a);
    teardown(&b);
}

/* What the miss path refuses, changing nothing: a resident line whose missing sectors are not
 * one run or hold valid bytes, two runs, no allocation, a wider fill, a bad hint below. */
static void test_refusals_change_nothing(void **state)
{
    (void)state;
    hier a, b;
    setup(&a);
    setup(&b);
    uint8_t buf[128];
    cache_result r, below;
    memset(&r, 0xAB, sizeof r);
    memset(&below, 0xAB, sizeof below);
    cache_result untouched = r;
    cache_hints plain = {0}, none = {.alloc = CACHE_ALLOC_NONE}, wide = {.fill_bytes = 128};
    cache_hints bad = {.alloc = 9};
    uint32_t v = 7;
    hier *both[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(cache_read(both[k]->l1, BASE + 32, 4, buf, NULL, NULL), MEM_OK);
        /* sector 2 partly valid: a fill of it would merge */
        assert_int_equal(cache_write(both[k]->l1, BASE + 64, 4, &v, NULL, NULL), MEM_OK);
    }
    struct {
        uint64_t line, sectors;
        const cache_hints *h, *below;
    } cases[] = {
        {BASE, 0x7u, &plain, &plain},         /* resident, sector 2 partly valid */
        {BASE, 0xDu, &plain, &plain},         /* resident, sectors 0 and 2-3 missing */
        {BASE + 128, 0x5u, &plain, &plain},   /* two runs */
        {BASE + 128, 0x1u, &none, &plain},    /* no allocation */
        {BASE + 128, 0x1u, &wide, &plain},    /* a wider fill */
        {BASE + 128, 0x1u, &plain, &bad},     /* bad hint below */
        {BASE + 128, 0x0u, &plain, &plain},   /* no sector */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool taken = true;
        uint32_t set = CACHE_SET_UNKNOWN;
        assert_int_equal(cache_read_line_miss(b.l1, b.l2, cases[i].line, cases[i].sectors,
                                              cases[i].h, cases[i].below, buf, &r, &below, &set,
                                              &taken),
                         MEM_OK);
        assert_false(taken);
        assert_int_equal(set, CACHE_SET_UNKNOWN);
        assert_memory_equal(&r, &untouched, sizeof r);
        assert_memory_equal(&below, &untouched, sizeof below);
        assert_same(&a, &b);
    }
    teardown(&a);
    teardown(&b);
}

/* cache_read_hit's memo of its last hit never outlives the line: after the line is evicted
 * (its slot taken by another line), invalidated, or asked for a sector it lacks, the hit is
 * refused; a line back in another slot is found again. */
static void test_hit_memo_follows_the_line(void **state)
{
    (void)state;
    hier h;
    setup(&h);
    uint8_t buf[128];
    uint32_t runs;
    assert_int_equal(cache_read(h.l1, BASE, 32, buf, NULL, NULL), MEM_OK); /* sector 0 */
    assert_true(cache_read_hit(h.l1, BASE, 0x1u, CACHE_ALLOC_UNCHANGED, buf, &runs));
    assert_false(cache_read_hit(h.l1, BASE, 0x2u, CACHE_ALLOC_UNCHANGED, buf, &runs));
    /* Four more lines in the set: BASE's slot goes to the least recent of them... */
    for (uint64_t k = 1; k <= 4; k++)
        assert_int_equal(cache_read(h.l1, BASE + k * L1_SETS_STRIDE, 32, buf, NULL, NULL),
                         MEM_OK);
    assert_false(cache_read_hit(h.l1, BASE, 0x1u, CACHE_ALLOC_UNCHANGED, buf, &runs));
    /* ...back in (another slot), found again; then invalidated. */
    assert_int_equal(cache_read(h.l1, BASE, 32, buf, NULL, NULL), MEM_OK);
    assert_true(cache_read_hit(h.l1, BASE, 0x1u, CACHE_ALLOC_UNCHANGED, buf, &runs));
    assert_int_equal(cache_invalidate_line(h.l1, BASE, false, NULL, NULL), MEM_OK);
    assert_false(cache_read_hit(h.l1, BASE, 0x1u, CACHE_ALLOC_UNCHANGED, buf, &runs));
    const cache_stats *st = cache_get_stats(h.l1);
    assert_int_equal(st->read_sector_hits, 2);
    teardown(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_matches_read),
        cmocka_unit_test(test_dirty_victims),
        cmocka_unit_test(test_refusals_change_nothing),
        cmocka_unit_test(test_hit_memo_follows_the_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
