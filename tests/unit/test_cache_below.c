/* Unit tests for the cache entry points that a warp's scattered lines take
 * (docs/cache-model.md, "Writes" and "Reads and fills"):
 *
 * - cache_write_line_below, a store line into an L1 whose write to the L2 below it is made
 *   directly instead of through the L1's next-level adapter, against cache_write_line_bits
 *   through that adapter (cache_next_level_cache): two identical hierarchies, a 4 KiB 4-way L1
 *   of 128 B lines and 32 B sectors on an 8 KiB 4-way L2 on a DRAM store seen through a spy;
 *   after every store both L1 results, both caches' statistics and lines, every DRAM call and
 *   the bytes must agree. Then 16-way caches (the presets' geometry), where a scattered store
 *   line that both levels hold takes a one-pass path of its own (cache_write.c,
 *   store_part_pair), against the same adapter path; and cache_write_lines_below, the same
 *   one-pass store for a run of such lines, against the adapter line by line; and
 *   cache_write_lines_through, the L1's part of such a run, with each line's L2 write made
 *   afterwards from its store bits alone by cache_write_line_bits_in_set (a store log's entry
 *   applied), against the same adapter.
 * - cache_lines_held and cache_read_hits on a 16-way L1 (the presets' geometry, which has its own
 *   loops), against cache_lookup and cache_read; the victims of a 16-way set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/dram.h"
#include "cache_spy.h"
#include "cache_twins.h"

#define BASE UINT64_C(0x7f0000000000)
enum { L1_SETS_STRIDE = 1024, L2_SETS_STRIDE = 2048 };

/* `l1_through`: the L1 writes global lines (kind 0) through; `l2_through`: so does the L2. */
static void setup(hier *h, int l1_through, int l2_through)
{
    cache_config c1, c2;
    cache_config_default(&c2, 8192, 4);
    c2.fill_bytes = 64;
    c2.write_through_kinds = l2_through ? 1u : 0u;
    cache_config_default(&c1, 4096, 4);
    c1.write_through_kinds = l1_through ? 1u : 0u;
    hier_build(h, &c1, &c2);
}

static void assert_same(hier *a, hier *b, uint64_t addr)
{
    assert_memory_equal(cache_get_stats(a->l1), cache_get_stats(b->l1), sizeof(cache_stats));
    assert_memory_equal(cache_get_stats(a->l2), cache_get_stats(b->l2), sizeof(cache_stats));
    assert_int_equal(a->count, b->count);
    assert_memory_equal(a->calls, b->calls, sizeof a->calls);
    assert_same_line(a->l1, b->l1, addr);
    assert_same_line(a->l2, b->l2, addr);
}

/* The end of a twin run: both hierarchies flushed, the same next-level calls made, and the
 * same bytes in DRAM over [BASE, BASE + span); then both torn down. */
static void assert_flushed_same(hier *a, hier *b, uint64_t span)
{
    assert_int_equal(cache_flush(a->l1, NULL), MEM_OK);
    assert_int_equal(cache_flush(b->l1, NULL), MEM_OK);
    assert_int_equal(cache_flush(a->l2, NULL), MEM_OK);
    assert_int_equal(cache_flush(b->l2, NULL), MEM_OK);
    assert_int_equal(a->count, b->count);
    assert_memory_equal(a->calls, b->calls, sizeof a->calls);
    for (uint64_t off = 0; off < span; off += 128) {
        uint8_t da[128], db[128];
        assert_int_equal(dram_peek(a->d, BASE + off, 128, da), MEM_OK);
        assert_int_equal(dram_peek(b->d, BASE + off, 128, db), MEM_OK);
        assert_memory_equal(da, db, 128);
    }
    teardown(a);
    teardown(b);
}

static void bits_of(const uint8_t *mask, uint64_t bits[2])
{
    bits[0] = bits[1] = 0;
    for (int i = 0; i < 128; i++)
        if (!mask || mask[i])
            bits[i / 64] |= UINT64_C(1) << (i % 64);
}

/* Stores of some bytes of a line that both levels of `b` held (store_both counts them). */
static int pair_hits;

/* One store line through both entry points; returns whether the write reached the L2 (the
 * adapter's L2 write count tells for `a`). */
static bool store_both(hier *a, hier *b, uint64_t addr, const uint8_t *data,
                       const uint8_t *mask, const cache_hints *h)
{
    uint64_t bits[2];
    bits_of(mask, bits);
    uint64_t writes0 = cache_get_stats(a->l2)->writes;
    cache_result ra, rb, below;
    assert_int_equal(cache_write_line_bits(a->l1, addr, data, mask, bits, h, &ra), MEM_OK);
    cache_hints below_hints = {.request = h->request};
    bool taken = false, written = false;
    uint32_t set = CACHE_SET_UNKNOWN;
    assert_int_equal(cache_write_line_below(b->l1, b->l2, addr, data, mask, bits, h,
                                            &below_hints, &rb, &below, &taken, &written, &set),
                     MEM_OK);
    assert_true(taken);
    if (written)
        assert_int_equal(set, cache_set_of(b->l2, addr));
    assert_memory_equal(&ra, &rb, sizeof ra);
    if (written && mask && rb.line_hit && below.line_hit)
        pair_hits++;
    /* the adapter's L2 writes: the store's own, and one per dirty sector of an L1 victim */
    assert_int_equal(cache_get_stats(a->l2)->writes - writes0,
                     (uint64_t)written + ra.writeback_bytes / 32);
    if (written)
        assert_int_equal(below.write_through_bytes != 0,
                         cache_get_config(b->l2)->write_through_kinds != 0);
    assert_same(a, b, addr);
    return written;
}

/* Stores of every shape the line paths take (whole lines, scattered words, one word a sector,
 * no byte), write-through and write-back L1s and L2s, hits, misses with and without
 * allocation, and victims with dirty bytes at both levels. */
static void test_store_below_matches_adapter(void **state)
{
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        hier a, b;
        setup(&a, mode & 1, mode & 2);
        setup(&b, mode & 1, mode & 2);
        int token;
        cache_hints plain = {.request = &token};
        cache_hints none = {.alloc = CACHE_ALLOC_NONE, .request = &token};
        cache_hints through = {.write_mode = CACHE_WRITE_THROUGH, .request = &token};
        cache_hints last = {.alloc = CACHE_ALLOC_LAST, .request = &token};
        int below_writes = 0;
        for (int n = 0; n < 48; n++) {
            uint8_t data[128], mask[128] = {0};
            for (int i = 0; i < 128; i++) data[i] = (uint8_t)(n * 29 + i * 7 + mode);
            int kind = n % 4;
            for (int lane = 0; lane < 32; lane++) {
                int at = kind == 0 ? lane * 4                 /* whole line */
                       : kind == 1 ? (lane % 4) * 32 + n % 28 /* one word a sector */
                       : kind == 2 ? (lane * 36 + n) % 124    /* scattered words */
                                   : 200;                     /* no byte */
                for (int k = 0; k < 4 && at + k < 128; k++) mask[at + k] = 1;
            }
            /* the same few L1 and L2 sets, so that lines are evicted, dirty ones too */
            uint64_t addr = BASE + (uint64_t)(n % 10) * 4 * L2_SETS_STRIDE +
                            (uint64_t)(n % 2) * L1_SETS_STRIDE;
            const cache_hints *h = n % 5 == 1 ? &none : n % 7 == 2 ? &through
                                   : n % 11 == 3 ? &last : &plain;
            below_writes += store_both(&a, &b, addr, data, kind == 0 ? NULL : mask, h);
        }
        assert_true(below_writes > 0);
        if (mode == 0) { /* write-back at both levels: victims with dirty bytes at both */
            assert_true(cache_get_stats(b.l1)->dirty_evictions > 0);
            assert_true(cache_get_stats(b.l2)->dirty_evictions > 0);
        }
        if (mode & 1) /* a write-through L1: every store with a byte reached the L2 */
            assert_int_equal(below_writes, 36);
        assert_flushed_same(&a, &b, 10 * 4 * L2_SETS_STRIDE);
        assert_true(a.count > 0); /* the flushes reached DRAM */
    }
}

/* What cache_write_line_below refuses, changing nothing: an address inside a line, an
 * invalid hint at either level, a partial store into sectors other than 32 bytes. */
static void test_store_below_refusals(void **state)
{
    (void)state;
    hier h;
    setup(&h, 1, 0);
    uint8_t data[128] = {0}, mask[128] = {0};
    mask[4] = 1;
    uint64_t bits[2] = {UINT64_C(1) << 4, 0};
    cache_hints plain = {0}, bad = {.alloc = 9};
    cache_result r, below;
    memset(&r, 0xAB, sizeof r);
    memset(&below, 0xAB, sizeof below);
    cache_result untouched = r;
    struct {
        uint64_t addr;
        const cache_hints *h, *below;
    } cases[] = {
        {BASE + 4, &plain, &plain}, /* not a line address */
        {BASE, &bad, &plain},       /* bad hint in the L1 */
        {BASE, &plain, &bad},       /* bad hint below */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool taken = true, written = true;
        uint32_t set = 7;
        assert_int_equal(cache_write_line_below(h.l1, h.l2, cases[i].addr, data, mask, bits,
                                                cases[i].h, cases[i].below, &r, &below, &taken,
                                                &written, &set),
                         MEM_OK);
        assert_false(taken);
        assert_false(written);
        assert_memory_equal(&r, &untouched, sizeof r);
        assert_memory_equal(&below, &untouched, sizeof below);
    }
    assert_int_equal(cache_get_stats(h.l1)->writes, 0);
    assert_int_equal(cache_get_stats(h.l2)->writes, 0);
    assert_int_equal(h.count, 0);
    teardown(&h);
    /* 16-byte sectors: a partial store is not the line path's */
    hier s;
    memset(&s, 0, sizeof s);
    diag_list_init(&s.dl);
    assert_int_equal(dram_create(NULL, &s.dl, &s.d), MEM_OK);
    cache_config c;
    cache_config_default(&c, 4096, 4);
    c.sector_bytes = c.fill_bytes = 16;
    cache_next_level to_dram = {&s, spy_read, spy_write, false};
    assert_int_equal(cache_create(&c, &to_dram, &s.dl, &s.l2), MEM_OK);
    cache_next_level to_l2 = cache_next_level_cache(s.l2);
    assert_int_equal(cache_create(&c, &to_l2, &s.dl, &s.l1), MEM_OK);
    bool taken = true, written = true;
    uint32_t set = 7;
    assert_int_equal(cache_write_line_below(s.l1, s.l2, BASE, data, mask, bits, &plain, &plain,
                                            &r, &below, &taken, &written, &set),
                     MEM_OK);
    assert_false(taken);
    assert_int_equal(cache_get_stats(s.l1)->writes, 0);
    teardown(&s);
}

/* A 16 KiB 16-way L1 (8 sets, indexed by line number: the held memo's look-ups) on a 32 KiB
 * 16-way L2 (16 sets; `slices` 2: sliced, so its set index is the general one), each with room
 * for `persist` LAST lines. */
static void setup_16way(hier *h, int l1_through, int l2_through, uint32_t slices,
                        uint64_t persist)
{
    cache_config c1, c2;
    cache_config_default(&c2, 32768, 16);
    c2.fill_bytes = 64;
    c2.write_through_kinds = l2_through ? 1u : 0u;
    c2.slices = slices;
    c2.persisting_limit_lines = persist;
    cache_config_default(&c1, 16384, 16);
    c1.write_through_kinds = l1_through ? 1u : 0u;
    c1.persisting_limit_lines = persist;
    hier_build(h, &c1, &c2);
}

/* Two identical hierarchies of setup_16way for test mode `mode` (bit 0: the L1 writes through,
 * bit 1: the L2 does, bit 2: the L2 has 2 slices, bit 3: room for 4 LAST lines a level).
 * Returns the LAST lines allowed (0 or 4). */
static uint64_t twins_16way(hier *a, hier *b, int mode)
{
    uint32_t slices = mode & 4 ? 2 : 0;
    uint64_t persist = mode & 8 ? 4 : 0;
    setup_16way(a, mode & 1, mode & 2, slices, persist);
    setup_16way(b, mode & 1, mode & 2, slices, persist);
    return persist;
}

/* cache_write_line_below's one-pass path for a scattered store line that a write-through L1 and
 * a write-back L2 both hold (16 ways at both levels, no LAST line) against the adapter path: 24
 * lines in one L1 set (and few L2 sets), so that most stores hit at both levels while others
 * miss, evict dirty lines or allocate; scattered words, one word a sector, whole lines and
 * lines with bytes already dirty in the L1 (write-back hints), under every hint, with the L2
 * sliced or not, and with LAST lines allowed (then the general path takes every store). The
 * results, both caches' statistics and lines, every DRAM call and finally the bytes agree. */
static void test_store_below_16way(void **state)
{
    (void)state;
    for (int mode = 0; mode < 16; mode++) {
        hier a, b;
        uint64_t persist = twins_16way(&a, &b, mode);
        pair_hits = 0;
        int token;
        cache_hints plain = {.request = &token};
        cache_hints none = {.alloc = CACHE_ALLOC_NONE, .request = &token};
        cache_hints back = {.write_mode = CACHE_WRITE_BACK, .request = &token};
        cache_hints last = {.alloc = CACHE_ALLOC_LAST, .request = &token};
        cache_hints normal = {.alloc = CACHE_ALLOC_NORMAL, .request = &token};
        for (int n = 0; n < 400; n++) {
            uint8_t data[128], mask[128] = {0};
            for (int i = 0; i < 128; i++) data[i] = (uint8_t)(n * 13 + i * 5 + mode);
            int kind = n % 7 == 3 ? 0 : n % 3;
            for (int lane = 0; lane < 32; lane++) {
                int at = kind == 0 ? lane * 4                 /* whole line */
                       : kind == 1 ? (lane % 4) * 32 + n % 28 /* one word a sector */
                                   : (lane * 36 + n) % 124;   /* scattered words */
                for (int k = 0; k < 4 && at + k < 128; k++) mask[at + k] = 1;
            }
            /* lines 2 KiB apart (one L1 set, one L2 set unsliced): mostly 12 of them, which
             * both levels hold, every fourth store one of 24, which makes them evict */
            int idx = n % 4 == 0 ? (n / 4 * 7) % 24 : (n / 4) % 12;
            uint64_t addr = BASE + (uint64_t)idx * 2048;
            const cache_hints *h = n % 9 == 1 ? &none : n % 11 == 2 ? &back
                                   : n % 13 == 3 ? &last : n % 17 == 4 ? &normal : &plain;
            store_both(&a, &b, addr, data, kind == 0 ? NULL : mask, h);
            if (persist && n % 50 == 7) { /* a LAST line in the L2 too */
                assert_int_equal(cache_set_line_priority(a.l2, addr, CACHE_PRIORITY_LAST), MEM_OK);
                assert_int_equal(cache_set_line_priority(b.l2, addr, CACHE_PRIORITY_LAST), MEM_OK);
            }
        }
        /* the one-pass path's stores: partial lines that both levels held */
        if ((mode & 3) == 1 && !persist)
            assert_true(pair_hits > 100);
        assert_true(cache_get_stats(b.l1)->evictions > 0);
        if (persist) {
            assert_true(cache_get_stats(b.l1)->peak_last_lines > 0);
            assert_true(cache_get_stats(b.l2)->peak_last_lines > 0);
        }
        assert_flushed_same(&a, &b, 24 * 2048);
    }
}

/* A line record as a coalescer keeps it, for cache_write_lines_below's strided arguments. */
typedef struct run_line {
    uint64_t addr;
    uint64_t bits[2];
    uint8_t data[128], mask[128];
} run_line;

/* After a run: the lines ln[0 .. n) alike at both levels of a and b, both caches' statistics,
 * and every DRAM call. */
static void assert_runs_same(hier *a, hier *b, const run_line *ln, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++) {
        assert_same_line(a->l1, b->l1, ln[j].addr);
        assert_same_line(a->l2, b->l2, ln[j].addr);
    }
    assert_memory_equal(cache_get_stats(a->l1), cache_get_stats(b->l1), sizeof(cache_stats));
    assert_memory_equal(cache_get_stats(a->l2), cache_get_stats(b->l2), sizeof(cache_stats));
    assert_int_equal(a->count, b->count);
    assert_memory_equal(a->calls, b->calls, sizeof a->calls);
}

/* Run r's n lines (1 to 8) in test mode `mode`: data from `salt`; a field of a 32-byte structure
 * a lane (the same bits on every line of the run), scattered words, a whole line or an empty
 * mask; lines 2 KiB apart (one L1 set), among 12 that both levels hold, or every `far_every`-th
 * run among `far_lines` (misses and evictions). */
static void make_run(run_line *ln, uint32_t n, int r, int mode, int salt, int far_every,
                     int far_lines)
{
    for (uint32_t j = 0; j < n; j++) {
        int v = r * 8 + (int)j;
        memset(ln[j].mask, 0, 128);
        for (int i = 0; i < 128; i++) ln[j].data[i] = (uint8_t)(v * salt + i * 3 + mode);
        int kind = v % 23 == 5 ? 0 : v % 29 == 6 ? 3 : r % 4 == 1 ? 2 : 1;
        for (int lane = 0; lane < 4 && kind == 1; lane++) /* a field: the run's bits */
            memset(ln[j].mask + lane * 32 + (r % 7) * 4, 1, 4);
        for (int lane = 0; lane < 12 && kind == 2; lane++)
            memset(ln[j].mask + (lane * 36 + v) % 124, 1, 4);
        if (kind == 0)
            memset(ln[j].mask, 1, 128);
        bits_of(ln[j].mask, ln[j].bits);
        int idx = r % far_every == 0 ? (v * 7) % far_lines : (r + (int)j) % 12;
        ln[j].addr = BASE + (uint64_t)idx * 2048;
    }
}

/* Line q through cache_write_line_bits on a's L1 (the adapter path), which must hold it; its
 * L1 counts added to *sum (sector_accesses, sector_hits, sector_misses, write_through_bytes). */
static void adapter_line(hier *a, const run_line *q, const cache_hints *h, cache_result *sum)
{
    cache_result ra;
    assert_int_equal(cache_write_line_bits(a->l1, q->addr, q->data, q->mask, q->bits, h, &ra),
                     MEM_OK);
    assert_true(ra.line_hit);
    sum->sector_accesses += ra.sector_accesses;
    sum->sector_hits += ra.sector_hits;
    sum->sector_misses += ra.sector_misses;
    sum->write_through_bytes += ra.write_through_bytes;
}

/* A run's L1 sums (got) against the adapter's line by line (want, adapter_line). */
static void assert_l1_sums(const cache_result *got, const cache_result *want)
{
    assert_int_equal(got->sector_accesses, want->sector_accesses);
    assert_int_equal(got->sector_hits, want->sector_hits);
    assert_int_equal(got->sector_misses, want->sector_misses);
    assert_int_equal(got->write_through_bytes, want->write_through_bytes);
}

/* The mask a line the run left is stored with: none for a whole line. */
static const uint8_t *left_mask(const run_line *q)
{
    return (q->bits[0] & q->bits[1]) == UINT64_MAX ? NULL : q->mask;
}

/* The L1 hints of the store runs' tests (test_store_lines_16way and
 * test_store_lines_through_16way), all with the request `token`. */
typedef struct run_hints {
    int token;
    cache_hints plain, none, last, normal, first;
} run_hints;

static void run_hints_init(run_hints *rh)
{
    rh->plain = (cache_hints){.request = &rh->token};
    rh->none = (cache_hints){.alloc = CACHE_ALLOC_NONE, .request = &rh->token};
    rh->last = (cache_hints){.alloc = CACHE_ALLOC_LAST, .request = &rh->token};
    rh->normal = (cache_hints){.alloc = CACHE_ALLOC_NORMAL, .request = &rh->token};
    rh->first = (cache_hints){.alloc = CACHE_ALLOC_FIRST, .request = &rh->token};
}

/* Run r's hints: no allocation, evict-last, evict-normal (when `normal`) and evict-first at
 * their runs, else plain. */
static const cache_hints *run_hint(const run_hints *rh, int r, int normal)
{
    return r % 9 == 1                 ? &rh->none
           : r % 13 == 3              ? &rh->last
           : normal && r % 17 == 4    ? &rh->normal
           : r % 19 == 5              ? &rh->first
                                      : &rh->plain;
}

/* Runs of up to 8 store lines through cache_write_lines_below on `b` (each line it does not
 * take through cache_write_line_below, then the run again from the next line, as mem_hier.c's
 * store loop does) against cache_write_line_bits through the adapter on `a`, line by line: the
 * sums of the taken lines' results, their L2 sets, both caches' statistics and lines after
 * each run, every DRAM call and finally the bytes agree. Returns the lines the run path took. */
static uint32_t store_run_both(hier *a, hier *b, run_line *ln, uint32_t n, const cache_hints *h)
{
    cache_hints below_hints = {.request = h->request};
    cache_result want1, want2;
    memset(&want1, 0, sizeof want1);
    memset(&want2, 0, sizeof want2);
    uint32_t taken_lines = 0;
    for (uint32_t i = 0; i < n;) {
        cache_result s1, s2;
        uint32_t sets[8];
        cache_stats l2_before = *cache_get_stats(a->l2);
        uint32_t k = cache_write_lines_below(b->l1, b->l2, n - i, &ln[i].addr, ln[i].bits,
                                             ln[i].data, ln[i].mask, sizeof *ln, h, &below_hints,
                                             &s1, &s2, sets);
        memset(&want1, 0, sizeof want1);
        for (uint32_t j = i; j < i + k; j++) {
            adapter_line(a, &ln[j], h, &want1);
            assert_int_equal(sets[j - i], cache_set_of(b->l2, ln[j].addr));
        }
        const cache_stats *l2_after = cache_get_stats(a->l2);
        assert_l1_sums(&s1, &want1);
        assert_int_equal(s2.sector_accesses, l2_after->sector_accesses - l2_before.sector_accesses);
        assert_int_equal(s2.sector_hits, l2_after->sector_hits - l2_before.sector_hits);
        assert_int_equal(s2.sector_misses, l2_after->sector_misses - l2_before.sector_misses);
        assert_int_equal(s1.evictions + s2.evictions + s1.writeback_bytes + s2.writeback_bytes +
                             s2.write_through_bytes + s1.fill_bytes + s2.fill_bytes,
                         0);
        taken_lines += k;
        i += k;
        if (i < n) { /* the line the run left: both through the general entry points */
            store_both(a, b, ln[i].addr, ln[i].data, left_mask(&ln[i]), h);
            i++;
        }
        assert_runs_same(a, b, ln, n);
    }
    return taken_lines;
}

/* cache_write_lines_below against the adapter path on the 16-way caches of
 * test_store_below_16way: runs of 1 to 8 lines 2 KiB apart (one L1 set), mostly among 12 lines
 * both levels hold, some among 24 (misses and evictions stop a run); a field of a 32-byte
 * structure a lane (the same bits on every line of the run), scattered words, a whole line and
 * an empty mask among them; every hint (LAST hints making LAST lines in the middle of a run
 * when the caches allow them), the L2 sliced or not, write-through and write-back levels (the
 * run path takes nothing unless the L1 writes through and the L2 back). */
static void test_store_lines_16way(void **state)
{
    (void)state;
    for (int mode = 0; mode < 16; mode++) {
        hier a, b;
        uint64_t persist = twins_16way(&a, &b, mode);
        run_hints rh;
        run_hints_init(&rh);
        uint32_t taken = 0;
        for (int r = 0; r < 150; r++) {
            run_line ln[8];
            uint32_t n = 1 + (uint32_t)(r * 5) % 8;
            make_run(ln, n, r, mode, 7, 5, 24);
            taken += store_run_both(&a, &b, ln, n, run_hint(&rh, r, 1));
        }
        if ((mode & 3) == 1 && !persist)
            assert_true(taken > 200);
        else if ((mode & 3) != 1)
            assert_int_equal(taken, 0);
        assert_flushed_same(&a, &b, 24 * 2048);
    }
}

/* Runs of up to 8 store lines through cache_write_lines_through on `b`'s L1, each taken line's
 * write then made into `b`'s L2 by the test as a store log's entry is applied
 * (cache_write_line_bits_in_set with the line's set and bits, and no byte mask when
 * cache_takes_store_bits says the L2 reads none), each line the run does not take through
 * cache_write_line_bits through the adapter, then the run again from the next line; against
 * cache_write_line_bits through the adapter on `a`, line by line. The sums of the taken lines'
 * results, both caches' statistics and lines after each run, every DRAM call and finally the
 * bytes agree. Returns the lines the run took; *bits_only (OUT) counts the L2 writes made
 * without a mask, *held_parts (OUT) those of some bytes of a line the L2 held (the short path
 * of cache_write_line_bits_in_set). */
static uint32_t store_through_both(hier *a, hier *b, run_line *ln, uint32_t n,
                                   const cache_hints *h, uint32_t *bits_only,
                                   uint32_t *held_parts)
{
    cache_hints below_hints = {.request = h->request};
    int no_mask = cache_takes_store_bits(b->l2, &below_hints);
    uint32_t taken_lines = 0;
    for (uint32_t i = 0; i < n;) {
        cache_result s1, want1;
        memset(&want1, 0, sizeof want1);
        uint32_t k = cache_write_lines_through(b->l1, n - i, &ln[i].addr, ln[i].bits,
                                               ln[i].data, ln[i].mask, sizeof *ln, h, &s1);
        for (uint32_t j = i; j < i + k; j++) {
            cache_result rb;
            adapter_line(a, &ln[j], h, &want1);
            /* the L1's write-through, as a part applies a log's entry: the whole line under
             * its bits (and the mask where the L2 reads it), in the set the part found */
            assert_int_equal(cache_write_line_bits_in_set(b->l2, cache_set_of(b->l2, ln[j].addr),
                                                          ln[j].addr, ln[j].data,
                                                          no_mask ? NULL : ln[j].mask, ln[j].bits,
                                                          &below_hints, &rb),
                             MEM_OK);
            *bits_only += (uint32_t)no_mask;
            *held_parts += (uint32_t)(no_mask && rb.line_hit &&
                                      (ln[j].bits[0] & ln[j].bits[1]) != UINT64_MAX);
        }
        assert_l1_sums(&s1, &want1);
        assert_int_equal(s1.evictions + s1.writeback_bytes + s1.fill_bytes, 0);
        taken_lines += k;
        i += k;
        if (i < n) { /* the line the run left: both through the adapter */
            const uint8_t *mask = left_mask(&ln[i]);
            cache_result ra, rb;
            assert_int_equal(cache_write_line_bits(a->l1, ln[i].addr, ln[i].data, mask,
                                                   ln[i].bits, h, &ra),
                             MEM_OK);
            assert_int_equal(cache_write_line_bits(b->l1, ln[i].addr, ln[i].data, mask,
                                                   ln[i].bits, h, &rb),
                             MEM_OK);
            assert_memory_equal(&ra, &rb, sizeof ra);
            i++;
        }
        assert_runs_same(a, b, ln, n);
    }
    return taken_lines;
}

/* cache_write_lines_through (a store whose L2 writes go to a store log) against the adapter
 * path, on test_store_lines_16way's caches, runs and masks: the L1's part of the run, with the
 * L2 written line by line afterwards by cache_write_line_bits_in_set from the bits alone where
 * cache_takes_store_bits allows it (a write-back L2: partial lines merged by their bits, lines
 * it holds on its short path, misses allocated and blended, dirty victims written back), with
 * the mask otherwise (a write-through L2, an L2 store that does not allocate). The run takes
 * nothing unless the L1 writes through. */
static void test_store_lines_through_16way(void **state)
{
    (void)state;
    for (int mode = 0; mode < 16; mode++) {
        hier a, b;
        uint64_t persist = twins_16way(&a, &b, mode);
        run_hints rh;
        run_hints_init(&rh);
        uint32_t taken = 0, bits_only = 0, held_parts = 0;
        for (int r = 0; r < 150; r++) {
            run_line ln[8];
            uint32_t n = 1 + (uint32_t)(r * 5) % 8;
            /* every third run among 40 lines: the L2 (16 sets) misses and evicts */
            make_run(ln, n, r, mode, 11, 3, 40);
            taken += store_through_both(&a, &b, ln, n, run_hint(&rh, r, 0), &bits_only,
                                        &held_parts);
        }
        if ((mode & 1) && !persist)
            assert_true(taken > 200);
        if (!(mode & 1))
            assert_int_equal(taken, 0);
        if ((mode & 3) == 1 && !persist) {
            assert_true(bits_only > 200);
            assert_true(held_parts > 100);
        }
        if (mode & 2)
            assert_int_equal(bits_only, 0);
        if ((mode & 3) == 1)
            assert_true(cache_get_stats(b.l2)->dirty_evictions > 0);
        assert_flushed_same(&a, &b, 40 * 2048);
    }
}

/* cache_takes_store_bits: a write-back, allocating 128-byte cache of 32-byte sectors only. */
static void test_takes_store_bits(void **state)
{
    (void)state;
    hier h;
    setup_16way(&h, 1, 0, 0, 0);
    cache_hints plain = {0}, none = {.alloc = CACHE_ALLOC_NONE},
                through = {.write_mode = CACHE_WRITE_THROUGH}, bad = {.alloc = 9};
    assert_true(cache_takes_store_bits(h.l2, &plain));
    assert_false(cache_takes_store_bits(h.l2, &none));
    assert_false(cache_takes_store_bits(h.l2, &through));
    assert_false(cache_takes_store_bits(h.l2, &bad));
    assert_false(cache_takes_store_bits(h.l1, &plain)); /* writes global lines through */
    teardown(&h);
}

/* A 16-way L1 of 128 B lines, 32 B sectors and 64 sets (the presets' L1 geometry: one line
 * block per set). */
static cache *l1_16way(hier *h)
{
    memset(h, 0, sizeof *h);
    diag_list_init(&h->dl);
    assert_int_equal(dram_create(NULL, &h->dl, &h->d), MEM_OK);
    cache_config c;
    cache_config_default(&c, 128 * 1024, 16);
    cache_next_level to_dram = {h, spy_read, spy_write, false};
    assert_int_equal(cache_create(&c, &to_dram, &h->dl, &h->l1), MEM_OK);
    return h->l1;
}

typedef struct line_rec {
    uint64_t line_addr;
    uint64_t sectors;
    uint8_t data[128];
} line_rec;

/* cache_lines_held on a 16-way cache finds exactly the lines cache_lookup finds with every
 * requested sector valid, stopping at the first that is not; cache_read_hits with those slots
 * reads what cache_read reads and counts what it counts. */
static void test_held_lines_16way(void **state)
{
    (void)state;
    hier a, b;
    cache *ca = l1_16way(&a), *cb = l1_16way(&b);
    enum { SETS = 64, LINES = 17 };
    uint8_t buf[128];
    /* Fill set 3 with 20 lines, a sector each: lines 16..19 take the ways of lines 0..3 (way 0
     * holds line 16, so most look-ups go past way 0) */
    for (int k = 0; k < 20; k++) {
        uint64_t addr = BASE + (uint64_t)(3 + k * SETS) * 128 + (uint64_t)(k % 4) * 32;
        assert_int_equal(cache_read(ca, addr, 32, buf, NULL, NULL), MEM_OK);
        assert_int_equal(cache_read(cb, addr, 32, buf, NULL, NULL), MEM_OK);
    }
    /* lines 4..19 (held), then line 0 (evicted) */
    line_rec recs[LINES];
    uint32_t slots[LINES];
    for (int k = 0; k < LINES; k++) {
        int line = k < 16 ? 4 + k : 0;
        recs[k].line_addr = BASE + (uint64_t)(3 + line * SETS) * 128;
        recs[k].sectors = UINT64_C(1) << (line % 4);
    }
    uint32_t n = cache_lines_held(ca, LINES, &recs[0].line_addr, &recs[0].sectors, sizeof recs[0],
                                  slots);
    assert_int_equal(n, 16);
    for (uint32_t k = 0; k < n; k++) {
        cache_line_info info;
        assert_true(cache_lookup(ca, recs[k].line_addr, &info));
        assert_int_equal(slots[k], info.set * 16 + info.way);
    }
    /* a sector not valid stops it too */
    recs[5].sectors = 0x3;
    assert_int_equal(cache_lines_held(ca, LINES, &recs[0].line_addr, &recs[0].sectors,
                                      sizeof recs[0], slots),
                     5);
    recs[5].sectors = UINT64_C(1) << ((4 + 5) % 4);
    assert_int_equal(cache_lines_held(ca, LINES, &recs[0].line_addr, &recs[0].sectors,
                                      sizeof recs[0], slots),
                     16);
    uint64_t count = 0;
    assert_int_equal(cache_read_hits(ca, n, &recs[0].line_addr, &recs[0].sectors, recs[0].data,
                                     sizeof recs[0], CACHE_ALLOC_UNCHANGED, slots, &count),
                     n);
    assert_int_equal(count, n);
    for (uint32_t k = 0; k < n; k++) {
        unsigned s = (unsigned)__builtin_ctzll(recs[k].sectors);
        cache_result r;
        assert_int_equal(cache_read(cb, recs[k].line_addr + s * 32, 32, buf, NULL, &r), MEM_OK);
        assert_int_equal(r.sector_hits, 1);
        assert_memory_equal(recs[k].data + s * 32, buf, 32);
    }
    const cache_stats *sa = cache_get_stats(ca), *sb = cache_get_stats(cb);
    assert_int_equal(sa->reads, sb->reads);
    assert_int_equal(sa->sector_hits, sb->sector_hits);
    assert_int_equal(sa->read_sector_hits, sb->read_sector_hits);
    /* the recency they left: the same victim next */
    assert_int_equal(cache_read(ca, BASE + (uint64_t)(3 + 99 * SETS) * 128, 32, buf, NULL, NULL),
                     MEM_OK);
    assert_int_equal(cache_read(cb, BASE + (uint64_t)(3 + 99 * SETS) * 128, 32, buf, NULL, NULL),
                     MEM_OK);
    for (int k = 0; k < 20; k++) {
        cache_line_info ia, ib;
        uint64_t addr = BASE + (uint64_t)(3 + k * SETS) * 128;
        assert_int_equal(cache_lookup(ca, addr, &ia), cache_lookup(cb, addr, &ib));
        assert_int_equal(ia.way, ib.way);
        assert_int_equal(ia.valid_sectors, ib.valid_sectors);
    }
    /* After the new line took a slot (the memo of where lines were found still points there
     * for the line it evicted), each line is held exactly when cache_lookup finds it, at its
     * slot. */
    int evicted = 0;
    for (int k = 0; k < 16; k++) {
        cache_line_info info;
        uint32_t slot = UINT32_MAX;
        bool present = cache_lookup(ca, recs[k].line_addr, &info);
        evicted += !present;
        assert_int_equal(cache_lines_held(ca, 1, &recs[k].line_addr, &recs[k].sectors,
                                          sizeof recs[k], &slot),
                         present);
        if (present)
            assert_int_equal(slot, info.set * 16 + info.way);
    }
    assert_int_equal(evicted, 1);
    /* a line with no sector asked is not held */
    recs[0].sectors = 0;
    assert_int_equal(cache_lines_held(ca, LINES, &recs[0].line_addr, &recs[0].sectors,
                                      sizeof recs[0], slots),
                     0);
    cache_destroy(ca);
    cache_destroy(cb);
    dram_destroy(a.d);
    dram_destroy(b.d);
    diag_list_fini(&a.dl);
    diag_list_fini(&b.dl);
}

/* Victims in a 16-way set (the set is one block, with its own victim loops): an empty way is
 * taken first, the lowest one (after an invalidation, the freed way); in a full set of one
 * class the least recent line; with classes mixed, the least recent line of the lowest class
 * (FIRST before NORMAL). */
static void test_victims_16way(void **state)
{
    (void)state;
    hier h;
    cache *c = l1_16way(&h);
    enum { SETS = 64 };
    uint8_t buf[128];
    uint64_t line[24];
    for (int k = 0; k < 24; k++) line[k] = BASE + (uint64_t)(5 + k * SETS) * 128;
    for (int k = 0; k < 16; k++)
        assert_int_equal(cache_read(c, line[k], 32, buf, NULL, NULL), MEM_OK);
    cache_line_info info;
    /* ways 0..15 in fill order; free way 9 (line 9), then way 3 (line 3) */
    assert_int_equal(cache_invalidate_line(c, line[9], false, NULL, NULL), MEM_OK);
    assert_int_equal(cache_invalidate_line(c, line[3], false, NULL, NULL), MEM_OK);
    assert_int_equal(cache_read(c, line[16], 32, buf, NULL, NULL), MEM_OK);
    assert_true(cache_lookup(c, line[16], &info));
    assert_int_equal(info.way, 3);
    assert_int_equal(cache_read(c, line[17], 32, buf, NULL, NULL), MEM_OK);
    assert_true(cache_lookup(c, line[17], &info));
    assert_int_equal(info.way, 9);
    /* full, one class: make line 0 recent; the least recent is now line 1 */
    assert_int_equal(cache_read(c, line[0], 32, buf, NULL, NULL), MEM_OK);
    assert_int_equal(cache_read(c, line[18], 32, buf, NULL, NULL), MEM_OK);
    assert_false(cache_lookup(c, line[1], &info));
    assert_true(cache_lookup(c, line[0], &info));
    /* mixed classes: line 12 becomes FIRST (and recent), so it goes before older NORMAL lines */
    cache_hints first = {.alloc = CACHE_ALLOC_FIRST};
    assert_int_equal(cache_read(c, line[12], 32, buf, &first, NULL), MEM_OK);
    assert_int_equal(cache_read(c, line[19], 32, buf, NULL, NULL), MEM_OK);
    assert_false(cache_lookup(c, line[12], &info));
    assert_true(cache_lookup(c, line[2], &info)); /* the least recent NORMAL line stays */
    /* back to one class: line 2 (least recent) goes next */
    assert_int_equal(cache_read(c, line[20], 32, buf, NULL, NULL), MEM_OK);
    assert_false(cache_lookup(c, line[2], &info));
    assert_int_equal(cache_get_stats(c)->evictions, 3);
    cache_destroy(c);
    dram_destroy(h.d);
    diag_list_fini(&h.dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_below_matches_adapter),
        cmocka_unit_test(test_store_below_refusals),
        cmocka_unit_test(test_store_below_16way),
        cmocka_unit_test(test_store_lines_16way),
        cmocka_unit_test(test_store_lines_through_16way),
        cmocka_unit_test(test_takes_store_bits),
        cmocka_unit_test(test_held_lines_16way),
        cmocka_unit_test(test_victims_16way),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
