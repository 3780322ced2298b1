/* Twin tests of cache_probe_hit (src/mem/cache_probe.c), the tags-only probe of the instruction
 * and constant caches, against the path it shortens, cache_read_hit with CACHE_ALLOC_UNCHANGED
 * and no data: two caches built alike take the same random trace of one-sector look-ups, each
 * refused probe followed by the same cache_read on both, with LAST lines (alloc hints) and
 * evictions mixed in. After every step both answers agree and so do the caches' clocks,
 * statistics, LAST lists and every slot's tag, valid sectors, stamp, class and kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/diag.h"
#include "mem/cache.h"
#include "mem/cache_internal.h" /* the slots, clock and LAST list the twins compare */

static mem_status zero_read(void *ctx, void *request, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    (void)ctx, (void)request, (void)addr;
    memset(out, 0, bytes);
    return MEM_OK;
}

static mem_status no_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                           const uint8_t *data, const uint8_t *mask)
{
    (void)ctx, (void)request, (void)addr, (void)bytes, (void)data, (void)mask;
    return MEM_OK;
}

/* A tags-only cache as mem_hier.c builds the instruction and constant caches: `bytes` in
 * `ways`, lines of `line_bytes` split into sectors of `sector_bytes`, up to 4 LAST lines. */
static cache *make(uint64_t bytes, uint32_t ways, uint32_t line_bytes, uint32_t sector_bytes)
{
    cache_config cc;
    cache_config_default(&cc, bytes, ways);
    cc.line_bytes = line_bytes;
    cc.sector_bytes = sector_bytes;
    cc.fill_bytes = sector_bytes;
    cc.persisting_limit_lines = 4;
    cache_next_level next = {NULL, zero_read, no_write, false};
    diag_list dl;
    diag_list_init(&dl);
    cache *c = NULL;
    assert_int_equal(cache_create(&cc, &next, &dl, &c), MEM_OK);
    diag_list_fini(&dl);
    return c;
}

static void assert_same_cache(const cache *a, const cache *b)
{
    assert_int_equal(a->clock, b->clock);
    assert_memory_equal(&a->stats, &b->stats, sizeof a->stats);
    assert_int_equal(a->last_count, b->last_count);
    assert_int_equal(a->last_head, b->last_head);
    assert_int_equal(a->last_tail, b->last_tail);
    assert_int_equal(a->resident_lines, b->resident_lines);
    for (uint32_t s = 0; s < a->slot_count; s++) {
        const line_meta *x = &a->meta[s], *y = &b->meta[s];
        assert_int_equal(x->tag, y->tag);
        assert_int_equal(x->valid_sectors, y->valid_sectors);
        assert_int_equal(x->stamp, y->stamp);
        assert_int_equal(x->priority, y->priority);
        assert_int_equal(x->kind, y->kind);
    }
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* `steps` look-ups of one sector among `lines` lines (more than the cache holds, so that lines
 * are evicted and the probe's memo goes stale), about one in eight a read with a class hint
 * instead, on twins a (cache_probe_hit) and b (cache_read_hit). */
static void run_trace(cache *a, cache *b, uint32_t lines, uint32_t steps, uint64_t seed)
{
    uint32_t line_bytes = a->config.line_bytes, sector_bytes = a->config.sector_bytes;
    uint32_t sectors = line_bytes / sector_bytes;
    uint32_t probe_hits = 0;
    for (uint32_t i = 0; i < steps; i++) {
        uint64_t r = rng_next(&seed);
        /* lines spread over few sets: a few hot ones, the rest far apart */
        uint64_t line = (r % lines) * (r & 0x100 ? 1 : 37) * line_bytes + 0x10000;
        uint32_t sector = (uint32_t)((r >> 12) % sectors);
        uint64_t addr = line + (uint64_t)sector * sector_bytes;
        if ((r >> 20) % 8 == 0) { /* the same read with a class hint on both */
            cache_hints h = {0};
            h.alloc = (uint8_t)((r >> 24) % 3 == 0 ? CACHE_ALLOC_LAST : CACHE_ALLOC_NORMAL);
            cache_result ra, rb;
            assert_int_equal(cache_read(a, addr, sector_bytes, NULL, &h, &ra), MEM_OK);
            assert_int_equal(cache_read(b, addr, sector_bytes, NULL, &h, &rb), MEM_OK);
        } else {
            uint32_t runs = 0;
            uint64_t bit = UINT64_C(1) << sector;
            bool ha = cache_probe_hit(a, line, bit);
            bool hb = cache_read_hit(b, line, bit, CACHE_ALLOC_UNCHANGED, NULL, &runs);
            assert_int_equal(ha, hb);
            if (ha) {
                assert_int_equal(runs, 1);
                probe_hits++;
            } else {
                cache_result ra, rb;
                assert_int_equal(cache_read(a, addr, 1, NULL, NULL, &ra), MEM_OK);
                assert_int_equal(cache_read(b, addr, 1, NULL, NULL, &rb), MEM_OK);
                assert_memory_equal(&ra, &rb, sizeof ra);
            }
        }
        assert_same_cache(a, b);
    }
    assert_true(probe_hits > steps / 4);          /* the hit path ran */
    assert_true(probe_hits < steps - steps / 8);  /* and so did misses and evictions */
}

/* The constant cache of the presets: 2,112 bytes in 64-byte lines, fully associative (33
 * ways, three groups of 16 slots). */
static void test_probe_matches_read_hit_constant(void **state)
{
    (void)state;
    cache *a = make(2112, 33, 64, 64), *b = make(2112, 33, 64, 64);
    run_trace(a, b, 48, 4000, 0x9E3779B97F4A7C15u);
    cache_destroy(a);
    cache_destroy(b);
}

/* An instruction cache of 8 ways of 128-byte lines (the presets' geometry, made small). */
static void test_probe_matches_read_hit_icache(void **state)
{
    (void)state;
    cache *a = make(4096, 8, 128, 128), *b = make(4096, 8, 128, 128);
    run_trace(a, b, 24, 4000, 12345);
    cache_destroy(a);
    cache_destroy(b);
}

/* Lines of four sectors filled one sector at a time: a probe of a sector not yet valid is
 * refused as cache_read_hit refuses it (line present, sector missing), and so is sector 0. */
static void test_probe_refuses_missing_sector(void **state)
{
    (void)state;
    cache *a = make(8192, 16, 128, 32), *b = make(8192, 16, 128, 32);
    run_trace(a, b, 40, 3000, 777);
    uint64_t line = 0x40000;
    cache_result r;
    assert_int_equal(cache_read(a, line + 32, 1, NULL, NULL, &r), MEM_OK);
    assert_int_equal(cache_read(b, line + 32, 1, NULL, NULL, &r), MEM_OK);
    uint32_t runs;
    assert_false(cache_probe_hit(a, line, 1));
    assert_false(cache_read_hit(b, line, 1, CACHE_ALLOC_UNCHANGED, NULL, &runs));
    assert_false(cache_probe_hit(a, line, 0));
    assert_true(cache_probe_hit(a, line, 2));
    assert_true(cache_read_hit(b, line, 2, CACHE_ALLOC_UNCHANGED, NULL, &runs));
    assert_same_cache(a, b);
    cache_destroy(a);
    cache_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_matches_read_hit_constant),
        cmocka_unit_test(test_probe_matches_read_hit_icache),
        cmocka_unit_test(test_probe_refuses_missing_sector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
