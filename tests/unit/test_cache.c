/* Unit tests for src/mem/cache: exact counts that follow from docs/cache-model.md.
 *
 * Most tests use a 4 KiB, 4-way cache of 128 B lines and 32 B sectors (8 sets, modulo index), so
 * addresses 1 KiB apart share a set. The next level is a DRAM store seen through a spy that
 * records every call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/cache_internal.h" /* TAG_OF, TAG_PRINT: lines of equal tag prints */
#include "mem/dram.h"

#define BASE UINT64_C(0x7f0000000000)

/* Under AddressSanitizer an impossible allocation must return NULL (as malloc does) rather than
 * abort, so that the out-of-memory path of cache_create is tested there too. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}
enum { SET_STRIDE = 1024 };

/* ---- a next level that records its calls ---- */

typedef struct spy_call {
    int is_write;
    uint64_t addr;
    uint32_t bytes;
    int masked;
    uint8_t mask[128];
    void *request; /* the request the cache handed down */
} spy_call;

typedef struct spy {
    dram *d;
    spy_call calls[64];
    int count;
    int fail_writes; /* return MEM_ERR_NOMEM from writes */
} spy;

static mem_status spy_read(void *ctx, void *request, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    spy *s = ctx;
    if (s->count < 64)
        s->calls[s->count] = (spy_call){0, addr, bytes, 0, {0}, request};
    s->count++;
    return dram_read(s->d, addr, bytes, out);
}

static mem_status spy_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                            const uint8_t *data, const uint8_t *mask)
{
    spy *s = ctx;
    if (s->fail_writes)
        return MEM_ERR_NOMEM;
    if (s->count < 64) {
        s->calls[s->count] = (spy_call){1, addr, bytes, mask != NULL, {0}, request};
        if (mask != NULL)
            memcpy(s->calls[s->count].mask, mask, bytes < 128 ? bytes : 128);
    }
    s->count++;
    return dram_write(s->d, addr, bytes, data, mask);
}

typedef struct fixture {
    spy spy;
    cache *c;
    diag_list dl;
} fixture;

static void setup_with(fixture *f, const cache_config *config)
{
    memset(f, 0, sizeof *f);
    diag_list_init(&f->dl);
    assert_int_equal(dram_create(NULL, &f->dl, &f->spy.d), MEM_OK);
    cache_next_level next = {&f->spy, spy_read, spy_write, false};
    assert_int_equal(cache_create(config, &next, &f->dl, &f->c), MEM_OK);
    assert_int_equal(f->dl.count, 0);
}

static void setup_default(fixture *f)
{
    cache_config config;
    cache_config_default(&config, 4096, 4);
    config.persisting_limit_lines = 8;
    setup_with(f, &config);
}

static void teardown(fixture *f)
{
    cache_destroy(f->c);
    dram_destroy(f->spy.d);
    diag_list_fini(&f->dl);
}

static void fill_dram(fixture *f, uint64_t addr, size_t bytes, uint8_t byte)
{
    assert_int_equal(dram_fill_pattern(f->spy.d, addr, bytes, byte), MEM_OK);
}

static cache_result read4(fixture *f, uint64_t addr, const cache_hints *h, uint32_t *value)
{
    cache_result r;
    uint32_t v = 0;
    assert_int_equal(cache_read(f->c, addr, 4, &v, h, &r), MEM_OK);
    if (value != NULL)
        *value = v;
    return r;
}

static cache_result write4(fixture *f, uint64_t addr, uint32_t value, const cache_hints *h)
{
    cache_result r;
    assert_int_equal(cache_write(f->c, addr, 4, &value, h, &r), MEM_OK);
    return r;
}

static int present(fixture *f, uint64_t addr)
{
    cache_line_info info;
    return cache_lookup(f->c, addr, &info);
}

/* ---- sectors ---- */

static void test_sector_hit_after_miss(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    cache_result r = read4(&f, BASE, NULL, NULL);
    assert_int_equal(r.sector_accesses, 1);
    assert_int_equal(r.sector_misses, 1);
    assert_int_equal(r.fill_bytes, 32);
    assert_false(r.line_hit);
    /* The next seven 4-byte words of the same sector hit (gpu-figures §9 validation recipe). */
    for (int i = 1; i < 8; i++) {
        r = read4(&f, BASE + 4 * (uint64_t)i, NULL, NULL);
        assert_int_equal(r.sector_hits, 1);
        assert_int_equal(r.sector_misses, 0);
        assert_int_equal(r.fill_bytes, 0);
        assert_true(r.line_hit);
    }
    const cache_stats *s = cache_get_stats(f.c);
    assert_int_equal(s->reads, 8);
    assert_int_equal(s->sector_hits, 7);
    assert_int_equal(s->sector_misses, 1);
    assert_int_equal(s->fill_bytes, 32);
    assert_int_equal(f.spy.count, 1);
    assert_int_equal(f.spy.calls[0].addr, BASE);
    assert_int_equal(f.spy.calls[0].bytes, 32);
    teardown(&f);
}

static void test_second_sector_is_a_separate_miss(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    read4(&f, BASE, NULL, NULL);
    cache_result r = read4(&f, BASE + 32, NULL, NULL);
    assert_true(r.line_hit);
    assert_int_equal(r.sector_misses, 1);
    assert_int_equal(r.fill_bytes, 32);
    assert_int_equal(cache_lookup_sectors(f.c, BASE), 0x3);
    /* A read spanning sectors 1..3 hits one and misses two, fetched in one 64 B run. */
    uint8_t buf[96];
    assert_int_equal(cache_read(f.c, BASE + 32, 96, buf, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_accesses, 3);
    assert_int_equal(r.sector_hits, 1);
    assert_int_equal(r.sector_misses, 2);
    assert_int_equal(r.fill_bytes, 64);
    assert_int_equal(f.spy.count, 3);
    assert_int_equal(f.spy.calls[2].addr, BASE + 64);
    assert_int_equal(f.spy.calls[2].bytes, 64);
    assert_int_equal(cache_lookup_sectors(f.c, BASE), 0xf);
    teardown(&f);
}

static void test_fill_granularity_and_promotion(void **state)
{
    (void)state;
    fixture f;
    cache_config config;
    cache_config_default(&config, 4096, 4);
    config.fill_bytes = 64; /* an L2 slice filling from DRAM */
    setup_with(&f, &config);
    cache_result r = read4(&f, BASE + 40, NULL, NULL); /* sector 1: fetches the 64 B block 0..1 */
    assert_int_equal(r.sector_misses, 1);
    assert_int_equal(r.fill_bytes, 64);
    assert_int_equal(cache_lookup_sectors(f.c, BASE), 0x3);
    r = read4(&f, BASE, NULL, NULL);
    assert_int_equal(r.sector_hits, 1);
    /* .L2::128B promotes one access to the whole line: only sectors 2..3 are missing. */
    cache_hints h = {.fill_bytes = 128};
    r = read4(&f, BASE + 96, &h, NULL);
    assert_int_equal(r.fill_bytes, 64);
    assert_int_equal(cache_lookup_sectors(f.c, BASE), 0xf);
    /* .L2::256B also fills the other line of the aligned 256 B block, as a fill, not an access. */
    h.fill_bytes = 256;
    r = read4(&f, BASE + 256 + 128, &h, NULL);
    assert_int_equal(r.sector_accesses, 1);
    assert_int_equal(r.sector_misses, 1);
    assert_int_equal(r.fill_bytes, 256);
    assert_int_equal(cache_lookup_sectors(f.c, BASE + 256), 0xf);
    assert_int_equal(cache_lookup_sectors(f.c, BASE + 384), 0xf);
    /* A hit does not fill the neighbour. */
    r = read4(&f, BASE + 384, &h, NULL);
    assert_int_equal(r.fill_bytes, 0);
    teardown(&f);
}

/* ---- replacement ---- */

static void test_lru_order_within_a_set(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    for (int i = 0; i < 4; i++)
        read4(&f, BASE + (uint64_t)i * SET_STRIDE, NULL, NULL);
    read4(&f, BASE, NULL, NULL); /* line 0 becomes the most recent; line 1 is now the LRU */
    cache_result r = read4(&f, BASE + 4 * SET_STRIDE, NULL, NULL);
    assert_int_equal(r.evictions, 1);
    assert_true(present(&f, BASE));
    assert_false(present(&f, BASE + SET_STRIDE));
    r = read4(&f, BASE + 5 * SET_STRIDE, NULL, NULL);
    assert_int_equal(r.evictions, 1);
    assert_false(present(&f, BASE + 2 * SET_STRIDE));
    assert_int_equal(cache_get_stats(f.c)->evictions, 2);
    assert_int_equal(cache_get_stats(f.c)->dirty_evictions, 0);
    /* Another set was never touched. */
    assert_int_equal(cache_set_of(f.c, BASE + 128), (cache_set_of(f.c, BASE) + 1) % 8);
    teardown(&f);
}

static void test_evict_first_goes_before_normal(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    cache_hints first = {.alloc = CACHE_ALLOC_FIRST};
    read4(&f, BASE, &first, NULL);
    for (int i = 1; i < 4; i++)
        read4(&f, BASE + (uint64_t)i * SET_STRIDE, NULL, NULL);
    read4(&f, BASE, NULL, NULL); /* most recent, but still evict-first (unchanged hint) */
    cache_line_info info;
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_FIRST);
    read4(&f, BASE + 4 * SET_STRIDE, NULL, NULL);
    assert_false(present(&f, BASE));
    assert_true(present(&f, BASE + SET_STRIDE));
    assert_int_equal(cache_get_stats(f.c)->lines_by_priority[CACHE_PRIORITY_FIRST], 0);
    assert_int_equal(cache_get_stats(f.c)->lines_by_priority[CACHE_PRIORITY_NORMAL], 4);
    teardown(&f);
}

/* The class a hint leaves on a line and the per-class counts, for the hints apply_alloc_hint
 * handles inline (NORMAL and FIRST on a line that is not LAST: new, resident, already of that
 * class) and the one it passes on (FIRST on a LAST line, which leaves the LAST list). */
static void test_class_hints_move_lines_and_counts(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    cache_hints first = {.alloc = CACHE_ALLOC_FIRST}, normal = {.alloc = CACHE_ALLOC_NORMAL},
                last = {.alloc = CACHE_ALLOC_LAST};
    const cache_stats *s = cache_get_stats(f.c);
    cache_line_info info;
    read4(&f, BASE, &first, NULL); /* a new line made FIRST */
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_FIRST);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_FIRST], 1);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_NORMAL], 0);
    write4(&f, BASE, 7, &first); /* FIRST again: nothing moves */
    read4(&f, BASE + 4, &first, NULL);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_FIRST], 1);
    read4(&f, BASE, &normal, NULL); /* back to NORMAL */
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_NORMAL);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_FIRST], 0);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_NORMAL], 1);
    write4(&f, BASE, 8, &normal);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_NORMAL], 1);
    read4(&f, BASE + SET_STRIDE, &last, NULL);
    write4(&f, BASE + SET_STRIDE, 9, &first); /* a LAST line made FIRST leaves the LAST list */
    assert_true(cache_lookup(f.c, BASE + SET_STRIDE, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_FIRST);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_LAST], 0);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_FIRST], 1);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_NORMAL], 1);
    uint32_t v = 0;
    read4(&f, BASE + SET_STRIDE, NULL, &v);
    assert_int_equal(v, 9);
    teardown(&f);
}

static void test_evict_last_is_kept_while_others_go(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    cache_hints last = {.alloc = CACHE_ALLOC_LAST};
    read4(&f, BASE, &last, NULL);
    uint32_t evictions = 0;
    for (int i = 1; i <= 10; i++)
        evictions += read4(&f, BASE + (uint64_t)i * SET_STRIDE, NULL, NULL).evictions;
    assert_int_equal(evictions, 7); /* lines 4..10 each replace a normal line */
    assert_true(present(&f, BASE));
    assert_int_equal(cache_get_stats(f.c)->lines_by_priority[CACHE_PRIORITY_LAST], 1);
    /* A demoting access (evict_normal) makes it an ordinary line again: it is the LRU and goes. */
    cache_hints demote = {.alloc = CACHE_ALLOC_NORMAL};
    read4(&f, BASE, &demote, NULL);
    for (int i = 11; i <= 14; i++)
        read4(&f, BASE + (uint64_t)i * SET_STRIDE, NULL, NULL);
    assert_false(present(&f, BASE));
    /* A set full of evict-last lines still takes new lines: the LRU evict-last line goes. */
    for (int i = 0; i < 4; i++)
        read4(&f, BASE + 128 + (uint64_t)i * SET_STRIDE, &last, NULL);
    read4(&f, BASE + 128 + 4 * SET_STRIDE, NULL, NULL);
    assert_false(present(&f, BASE + 128));
    assert_true(present(&f, BASE + 128 + SET_STRIDE));
    teardown(&f);
}

static void test_persisting_limit(void **state)
{
    (void)state;
    fixture f;
    cache_config config;
    cache_config_default(&config, 4096, 4);
    config.persisting_limit_lines = 2;
    setup_with(&f, &config);
    cache_hints last = {.alloc = CACHE_ALLOC_LAST};
    cache_line_info info;
    read4(&f, BASE, &last, NULL);
    read4(&f, BASE + 128, &last, NULL);
    read4(&f, BASE + 256, &last, NULL); /* over the limit: line 0, the LRU persisting line, demoted */
    const cache_stats *s = cache_get_stats(f.c);
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_LAST], 2);
    assert_int_equal(s->last_demotions, 1);
    assert_int_equal(s->peak_last_lines, 2);
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_NORMAL);
    /* Touching line 128 with evict_last makes it the most recent; the next grant demotes 256. */
    read4(&f, BASE + 128, &last, NULL);
    read4(&f, BASE + 384, &last, NULL);
    assert_true(cache_lookup(f.c, BASE + 256, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_NORMAL);
    assert_true(cache_lookup(f.c, BASE + 128, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_LAST);
    assert_int_equal(s->last_demotions, 2);
    /* Repeated sweeps of a 4-line persisting window over a 2-line limit: the 2 most recent stay
     * persisting (gpu-figures §10, hitRatio 1.0). */
    for (int sweep = 0; sweep < 3; sweep++)
        for (int i = 0; i < 4; i++)
            read4(&f, BASE + 2048 + (uint64_t)i * 128, &last, NULL);
    for (int i = 0; i < 4; i++) {
        assert_true(cache_lookup(f.c, BASE + 2048 + (uint64_t)i * 128, &info));
        assert_int_equal(info.priority, i >= 2 ? CACHE_PRIORITY_LAST : CACHE_PRIORITY_NORMAL);
    }
    assert_int_equal(s->lines_by_priority[CACHE_PRIORITY_LAST], 2);
    teardown(&f);

    /* A limit of 0 treats evict_last as evict_normal. */
    config.persisting_limit_lines = 0;
    setup_with(&f, &config);
    read4(&f, BASE, &last, NULL);
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.priority, CACHE_PRIORITY_NORMAL);
    assert_int_equal(cache_get_stats(f.c)->peak_last_lines, 0);
    teardown(&f);
}

/* ---- writes ---- */

static void test_writeback_sends_only_dirty_bytes(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    fill_dram(&f, BASE, 128, 0xaa);
    cache_result r = write4(&f, BASE + 4, 0x11111111u, NULL);
    assert_int_equal(r.sector_misses, 1);
    assert_int_equal(r.fill_bytes, 0); /* write-allocate does not fetch */
    assert_int_equal(f.spy.count, 0);
    cache_line_info info;
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.valid_sectors, 0);
    assert_int_equal(info.partial_sectors, 1);
    assert_int_equal(info.dirty_sectors, 1);
    uint32_t evictions = 0, writeback = 0;
    for (int i = 1; i <= 4; i++) {
        r = read4(&f, BASE + (uint64_t)i * SET_STRIDE, NULL, NULL);
        evictions += r.evictions;
        writeback += r.writeback_bytes;
    }
    assert_int_equal(evictions, 1);
    assert_int_equal(writeback, 32); /* one dirty sector, counted whole */
    assert_int_equal(cache_get_stats(f.c)->dirty_evictions, 1);
    /* The write-back carried a mask of exactly bytes 4..7 of sector 0. */
    int found = 0;
    for (int i = 0; i < f.spy.count; i++) {
        if (!f.spy.calls[i].is_write)
            continue;
        found++;
        assert_int_equal(f.spy.calls[i].addr, BASE);
        assert_int_equal(f.spy.calls[i].bytes, 32);
        assert_true(f.spy.calls[i].masked);
        for (int b = 0; b < 32; b++)
            assert_int_equal(f.spy.calls[i].mask[b], b >= 4 && b < 8);
    }
    assert_int_equal(found, 1);
    uint8_t back[12];
    assert_int_equal(dram_peek(f.spy.d, BASE, 12, back), MEM_OK);
    uint8_t expect[12] = {0xaa, 0xaa, 0xaa, 0xaa, 0x11, 0x11, 0x11, 0x11, 0xaa, 0xaa, 0xaa, 0xaa};
    assert_memory_equal(back, expect, 12);
    assert_int_equal(dram_get_stats(f.spy.d)->write_bytes, 32);
    teardown(&f);
}

static void test_write_through_reaches_next_level_at_once(void **state)
{
    (void)state;
    fixture f;
    cache_config config;
    cache_config_default(&config, 4096, 4);
    config.write_through_kinds = 1u << 0; /* kind 0 (say global) write-through, kind 1 write-back */
    setup_with(&f, &config);
    cache_result r = write4(&f, BASE + 8, 0x12345678u, NULL);
    assert_int_equal(r.write_through_bytes, 4);
    uint32_t v = 0;
    assert_int_equal(dram_peek(f.spy.d, BASE + 8, 4, &v), MEM_OK);
    assert_int_equal(v, 0x12345678u);
    cache_line_info info;
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.dirty_sectors, 0);
    assert_int_equal(info.partial_sectors, 1); /* allocated without fetch, bytes 8..11 valid */
    /* Kind 1 is write-back; a per-store write-through hint overrides it. */
    cache_hints local = {.kind = 1};
    r = write4(&f, BASE + 4096, 7, &local);
    assert_int_equal(r.write_through_bytes, 0);
    assert_int_equal(cache_lookup_sectors(f.c, BASE + 4096), 0);
    local.write_mode = CACHE_WRITE_THROUGH;
    r = write4(&f, BASE + 4096 + 32, 9, &local);
    assert_int_equal(r.write_through_bytes, 4);
    cache_result flush;
    assert_int_equal(cache_flush(f.c, &flush), MEM_OK);
    assert_int_equal(flush.writeback_bytes, 32); /* only the write-back store's sector */
    assert_int_equal(cache_get_stats(f.c)->write_through_bytes, 8);
    teardown(&f);
}

static void test_no_write_allocate(void **state)
{
    (void)state;
    fixture f;
    cache_config config;
    cache_config_default(&config, 4096, 4);
    config.write_allocate = false;
    setup_with(&f, &config);
    cache_result r = write4(&f, BASE + 64, 0xcafef00du, NULL);
    assert_int_equal(r.sector_misses, 1);
    assert_int_equal(r.write_through_bytes, 4);
    assert_false(present(&f, BASE));
    uint32_t v = 0;
    assert_int_equal(dram_peek(f.spy.d, BASE + 64, 4, &v), MEM_OK);
    assert_int_equal(v, 0xcafef00du);
    /* A resident line still takes the store (write-back: dirty, not forwarded). */
    read4(&f, BASE, NULL, NULL);
    r = write4(&f, BASE, 5, NULL);
    assert_int_equal(r.sector_hits, 1);
    assert_int_equal(r.write_through_bytes, 0);
    cache_line_info info;
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.dirty_sectors, 1);
    assert_int_equal(cache_get_stats(f.c)->write_sector_misses, 1);
    assert_int_equal(cache_get_stats(f.c)->write_sector_hits, 1);
    /* The no-allocate hint does the same on a write-allocate cache, and for reads. */
    teardown(&f);
    setup_default(&f);
    cache_hints none = {.alloc = CACHE_ALLOC_NONE};
    r = write4(&f, BASE, 1, &none);
    assert_int_equal(r.write_through_bytes, 4);
    r = read4(&f, BASE + 4096, &none, NULL);
    assert_int_equal(r.sector_misses, 1);
    assert_int_equal(r.fill_bytes, 32);
    assert_false(present(&f, BASE));
    assert_false(present(&f, BASE + 4096));
    teardown(&f);
}

static void test_partial_write_merges_with_later_fill(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    fill_dram(&f, BASE, 128, 0xaa);
    write4(&f, BASE, 0x44332211u, NULL);
    uint8_t buf[32];
    cache_result r;
    assert_int_equal(cache_read(f.c, BASE, 32, buf, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_misses, 1); /* a partial sector is a miss */
    assert_int_equal(r.fill_bytes, 32);
    uint8_t expect[32];
    memset(expect, 0xaa, sizeof expect);
    expect[0] = 0x11, expect[1] = 0x22, expect[2] = 0x33, expect[3] = 0x44;
    assert_memory_equal(buf, expect, 32);
    cache_line_info info;
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.valid_sectors, 1);
    assert_int_equal(info.partial_sectors, 0);
    assert_int_equal(info.dirty_sectors, 1);
    /* The written bytes stay dirty: the flush writes them back, masked to those 4 bytes. */
    fill_dram(&f, BASE, 128, 0xbb); /* someone else changed memory meanwhile */
    assert_int_equal(cache_flush(f.c, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 32);
    assert_int_equal(dram_peek(f.spy.d, BASE, 32, buf), MEM_OK);
    memset(expect, 0xbb, sizeof expect);
    expect[0] = 0x11, expect[1] = 0x22, expect[2] = 0x33, expect[3] = 0x44;
    assert_memory_equal(buf, expect, 32);
    teardown(&f);
}

static void test_masked_write(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    uint8_t data[128], mask[128] = {0};
    memset(data, 0x5c, sizeof data);
    mask[3] = mask[100] = 1; /* two lanes: sectors 0 and 3 */
    cache_result r;
    assert_int_equal(cache_write_masked(f.c, BASE, 128, data, mask, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_accesses, 2);
    cache_line_info info;
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.dirty_sectors, 0x9);
    assert_int_equal(info.partial_sectors, 0x9);
    assert_int_equal(cache_flush(f.c, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 64);
    uint8_t back[128];
    assert_int_equal(dram_peek(f.spy.d, BASE, 128, back), MEM_OK);
    for (int i = 0; i < 128; i++)
        assert_int_equal(back[i], (i == 3 || i == 100) ? 0x5c : 0);
    /* An all-zero mask touches nothing. */
    memset(mask, 0, sizeof mask);
    assert_int_equal(cache_write_masked(f.c, BASE + 512, 128, data, mask, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_accesses, 0);
    assert_false(present(&f, BASE + 512));
    teardown(&f);
}

/* ---- cache control ---- */

static void test_discard_loses_dirty_data(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    fill_dram(&f, BASE, 128, 0xaa);
    uint32_t v;
    read4(&f, BASE, NULL, NULL);
    write4(&f, BASE, 0x01020304u, NULL);
    cache_result r;
    assert_int_equal(cache_discard_line(f.c, BASE, &r), MEM_OK);
    assert_true(r.line_hit);
    assert_int_equal(r.writeback_bytes, 0);
    assert_false(present(&f, BASE));
    read4(&f, BASE, NULL, &v);
    assert_int_equal(v, 0xaaaaaaaau); /* the next level kept the old value */
    /* Invalidate after write-back keeps it; write back alone keeps the line, clean. */
    write4(&f, BASE, 0x0a0b0c0du, NULL);
    assert_int_equal(cache_writeback_line(f.c, BASE, NULL, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 32);
    assert_int_equal(cache_lookup_sectors(f.c, BASE), 1);
    write4(&f, BASE, 0x05060708u, NULL);
    assert_int_equal(cache_invalidate_line(f.c, BASE, true, NULL, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 32);
    assert_false(present(&f, BASE));
    read4(&f, BASE, NULL, &v);
    assert_int_equal(v, 0x05060708u);
    assert_int_equal(cache_get_stats(f.c)->invalidated_lines, 2);
    /* Operations on absent lines do nothing. */
    assert_int_equal(cache_discard_line(f.c, BASE + 640, &r), MEM_OK);
    assert_false(r.line_hit);
    teardown(&f);
}

/* The request of an access travels to every next-level call it causes: fills, the write-back of
 * a victim, write-throughs; control operations pass their own; a flush passes none. Reads report
 * which of their sectors hit. */
static void test_request_reaches_next_level(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    int first, second, third;
    cache_hints h = {.request = &first};
    cache_result r = read4(&f, BASE + 32, &h, NULL); /* a miss: one fill of sector 1 */
    assert_int_equal(f.spy.count, 1);
    assert_ptr_equal(f.spy.calls[0].request, &first);
    assert_int_equal(r.hit_sectors, 0);
    r = read4(&f, BASE + 36, NULL, NULL);
    assert_int_equal(r.hit_sectors, 2); /* sector 1 */
    /* Four dirty lines fill set 0; a fifth line evicts the least recent, whose write-back carries
     * the request of the access that needed the room. */
    for (uint64_t k = 0; k < 4; k++) write4(&f, BASE + 2048 + k * SET_STRIDE * 8, 7, NULL);
    f.spy.count = 0;
    h.request = &second;
    write4(&f, BASE + 2048 + 4 * SET_STRIDE * 8, 8, &h);
    assert_int_equal(f.spy.count, 1);
    assert_int_equal(f.spy.calls[0].is_write, 1);
    assert_ptr_equal(f.spy.calls[0].request, &second);
    /* A control operation hands down its own request; a flush none. */
    f.spy.count = 0;
    assert_int_equal(cache_writeback_line(f.c, BASE + 2048 + 4 * SET_STRIDE * 8, &third, &r),
                     MEM_OK);
    assert_int_equal(f.spy.count, 1);
    assert_ptr_equal(f.spy.calls[0].request, &third);
    f.spy.count = 0;
    assert_int_equal(cache_flush(f.c, &r), MEM_OK);
    assert_true(f.spy.count > 0);
    assert_null(f.spy.calls[0].request);
    teardown(&f);
}

/* Invalidating clean lines keeps the dirty ones, data and all, and writes nothing back. */
static void test_invalidate_clean_lines(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    read4(&f, BASE, NULL, NULL);           /* clean */
    write4(&f, BASE + 128, 5, NULL);       /* dirty */
    f.spy.count = 0;
    cache_result r;
    assert_int_equal(cache_invalidate_clean_line(f.c, BASE + 128, &r), MEM_OK);
    assert_true(present(&f, BASE + 128));
    assert_int_equal(cache_invalidate_clean_all(f.c, CACHE_KIND_ALL, &r), MEM_OK);
    assert_false(present(&f, BASE));
    assert_true(present(&f, BASE + 128));
    assert_int_equal(f.spy.count, 0);
    uint32_t v;
    read4(&f, BASE + 128, NULL, &v);
    assert_int_equal(v, 5);
    assert_int_equal(cache_invalidate_clean_line(f.c, BASE + 256, &r), MEM_OK); /* absent */
    assert_false(r.line_hit);
    teardown(&f);
}

static void test_invalidate_all_with_kind_filter(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    cache_hints global = {.kind = 0}, local = {.kind = 1};
    write4(&f, BASE, 1, &global);
    write4(&f, BASE + 128, 2, &global);
    write4(&f, BASE + 256, 3, &local);
    cache_result r;
    assert_int_equal(cache_invalidate_all(f.c, 1u << 1, true, NULL, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 32);
    assert_false(present(&f, BASE + 256));
    assert_true(present(&f, BASE));
    assert_true(present(&f, BASE + 128));
    uint32_t v = 0;
    assert_int_equal(dram_peek(f.spy.d, BASE + 256, 4, &v), MEM_OK);
    assert_int_equal(v, 3);
    /* Dropping kind 0 without write-back loses both stores. */
    assert_int_equal(cache_invalidate_all(f.c, 1u << 0, false, NULL, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 0);
    assert_false(present(&f, BASE));
    assert_int_equal(dram_peek(f.spy.d, BASE, 4, &v), MEM_OK);
    assert_int_equal(v, 0);
    assert_int_equal(cache_get_stats(f.c)->invalidated_lines, 3);
    assert_int_equal(cache_get_stats(f.c)->lines_by_priority[CACHE_PRIORITY_NORMAL], 0);
    teardown(&f);
}

static void test_flush_counts_writeback_bytes(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    uint8_t data[64];
    memset(data, 0x77, sizeof data);
    assert_int_equal(cache_write(f.c, BASE + 32, 64, data, NULL, NULL), MEM_OK); /* sectors 1,2 */
    assert_int_equal(cache_write(f.c, BASE + 1024 + 8, 1, data, NULL, NULL), MEM_OK);
    cache_result r;
    assert_int_equal(cache_flush(f.c, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 96);
    assert_int_equal(cache_get_stats(f.c)->writeback_bytes, 96);
    assert_int_equal(dram_get_stats(f.spy.d)->write_bytes, 96);
    assert_int_equal(dram_get_stats(f.spy.d)->writes, 3);
    /* Flushed lines stay valid and clean: a second flush writes nothing. */
    assert_int_equal(cache_flush(f.c, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 0);
    assert_int_equal(cache_lookup_sectors(f.c, BASE), 0x6);
    teardown(&f);
}

/* ---- hierarchy and errors ---- */

static void test_l1_on_l2_holds_stale_data_until_invalidated(void **state)
{
    (void)state;
    diag_list dl;
    diag_list_init(&dl);
    dram *d;
    assert_int_equal(dram_create(NULL, &dl, &d), MEM_OK);
    cache_config l2_config, l1_config;
    cache_config_default(&l2_config, 64 * 1024, 16);
    l2_config.fill_bytes = 64;
    l2_config.index_function = CACHE_INDEX_XOR_FOLD;
    cache_config_default(&l1_config, 4096, 4);
    l1_config.write_through_kinds = 1u; /* global stores write through to L2 */
    cache_next_level to_dram = cache_next_level_dram(d), to_l2;
    cache *l2, *l1a, *l1b;
    assert_int_equal(cache_create(&l2_config, &to_dram, &dl, &l2), MEM_OK);
    to_l2 = cache_next_level_cache(l2);
    assert_int_equal(cache_create(&l1_config, &to_l2, &dl, &l1a), MEM_OK);
    assert_int_equal(cache_create(&l1_config, &to_l2, &dl, &l1b), MEM_OK);
    uint32_t v = 41, got = 0;
    assert_int_equal(dram_poke(d, BASE, 4, &v), MEM_OK);
    assert_int_equal(cache_read(l1a, BASE, 4, &got, NULL, NULL), MEM_OK);
    assert_int_equal(got, 41);
    v = 42;
    assert_int_equal(cache_write(l1b, BASE, 4, &v, NULL, NULL), MEM_OK);
    assert_int_equal(cache_read(l1a, BASE, 4, &got, NULL, NULL), MEM_OK);
    assert_int_equal(got, 41); /* stale copy in the other SM's L1 */
    assert_int_equal(cache_invalidate_all(l1a, CACHE_KIND_ALL, false, NULL, NULL), MEM_OK);
    assert_int_equal(cache_read(l1a, BASE, 4, &got, NULL, NULL), MEM_OK);
    assert_int_equal(got, 42);
    /* L2 holds the store; DRAM sees it only after the L2 flush. */
    assert_int_equal(dram_peek(d, BASE, 4, &got), MEM_OK);
    assert_int_equal(got, 41);
    assert_int_equal(cache_get_stats(l2)->fill_bytes, 64); /* one 64 B fill from DRAM */
    assert_int_equal(cache_flush(l2, NULL), MEM_OK);
    assert_int_equal(dram_peek(d, BASE, 4, &got), MEM_OK);
    assert_int_equal(got, 42);
    assert_int_equal(cache_get_stats(l2)->writeback_bytes, 32);
    cache_destroy(l1a);
    cache_destroy(l1b);
    cache_destroy(l2);
    dram_destroy(d);
    diag_list_fini(&dl);
}

static void test_next_level_error_propagates(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    write4(&f, BASE, 1, NULL);
    f.spy.fail_writes = 1;
    cache_result r;
    assert_int_equal(cache_flush(f.c, &r), MEM_ERR_NOMEM);
    cache_line_info info;
    assert_true(cache_lookup(f.c, BASE, &info));
    assert_int_equal(info.dirty_sectors, 1); /* still dirty: nothing was lost */
    /* An eviction that cannot write back fails the access and keeps the victim. */
    for (int i = 1; i < 4; i++)
        read4(&f, BASE + (uint64_t)i * SET_STRIDE, NULL, NULL);
    uint32_t v;
    assert_int_equal(cache_read(f.c, BASE + 4 * SET_STRIDE, 4, &v, NULL, NULL), MEM_ERR_NOMEM);
    assert_true(present(&f, BASE));
    f.spy.fail_writes = 0;
    assert_int_equal(cache_flush(f.c, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 32);
    teardown(&f);
}

/* ---- the hit path of a warp's line (cache_read_hit) ---- */

/* cache_read_hit does what one cache_read per run of consecutive sectors does when they all
 * hit: same data, statistics, class and recency (the same victim next), and refuses (changing
 * nothing) an absent line or one with a requested sector not valid. */
static void test_read_hit_matches_reads_by_run(void **state)
{
    (void)state;
    fixture a, b;
    setup_default(&a);
    setup_default(&b);
    uint8_t line[128];
    for (uint32_t i = 0; i < 128; i++) line[i] = (uint8_t)(i * 7 + 1);
    fixture *both[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(dram_write(both[k]->spy.d, BASE, 128, line, NULL), MEM_OK);
        for (int i = 0; i < 4; i++) { /* a full set: line 0 is the least recent */
            uint8_t buf[128];
            assert_int_equal(cache_read(both[k]->c, BASE + (uint64_t)i * SET_STRIDE, 128, buf,
                                        NULL, NULL), MEM_OK);
        }
    }
    cache_hints last = {.alloc = CACHE_ALLOC_LAST};
    uint8_t want[128] = {0}, got[128] = {0};
    assert_int_equal(cache_read(a.c, BASE, 64, want, &last, NULL), MEM_OK);       /* sectors 0-1 */
    assert_int_equal(cache_read(a.c, BASE + 96, 32, want + 96, &last, NULL), MEM_OK); /* 3 */
    uint32_t runs = 0;
    assert_true(cache_read_hit(b.c, BASE, 0xBu, CACHE_ALLOC_LAST, got, &runs));
    assert_int_equal(runs, 2);
    assert_memory_equal(got, want, 64);
    assert_memory_equal(got + 96, want + 96, 32);
    const cache_stats *sa = cache_get_stats(a.c), *sb = cache_get_stats(b.c);
    assert_int_equal(sb->reads, sa->reads);
    assert_int_equal(sb->read_sector_hits, sa->read_sector_hits);
    assert_int_equal(sb->read_sector_misses, sa->read_sector_misses);
    assert_int_equal(sb->sector_accesses, sa->sector_accesses);
    assert_int_equal(sb->sector_hits, sa->sector_hits);
    assert_int_equal(sb->lines_by_priority[CACHE_PRIORITY_LAST], 1);
    assert_int_equal(sa->lines_by_priority[CACHE_PRIORITY_LAST], 1);
    /* Line 0 is now the most recent in both: a new line in the set evicts line 1. */
    for (int k = 0; k < 2; k++) {
        read4(both[k], BASE + 4 * SET_STRIDE, NULL, NULL);
        assert_true(present(both[k], BASE));
        assert_false(present(both[k], BASE + SET_STRIDE));
    }
    /* Refusals: an absent line; a line whose requested sector is not valid. */
    uint64_t reads = sb->reads;
    assert_false(cache_read_hit(b.c, BASE + SET_STRIDE, 1u, CACHE_ALLOC_UNCHANGED, got, &runs));
    assert_int_equal(sb->reads, reads);
    read4(&b, BASE + 5 * SET_STRIDE, NULL, NULL); /* sector 0 only */
    reads = sb->reads;
    assert_false(cache_read_hit(b.c, BASE + 5 * SET_STRIDE, 3u, CACHE_ALLOC_UNCHANGED, got,
                                &runs));
    assert_int_equal(sb->reads, reads);
    assert_true(cache_read_hit(b.c, BASE + 5 * SET_STRIDE, 1u, CACHE_ALLOC_UNCHANGED, got,
                               &runs));
    assert_int_equal(runs, 1);
    assert_int_equal(sb->reads, reads + 1);
    teardown(&a);
    teardown(&b);
}

/* cache_read_in_set, given cache_set_of's set, against cache_read on a twin cache (and
 * cache_prefetch_set_at, which must change nothing): reads of 4 to 128 bytes over 12 lines of
 * one 4-way set and of a sliced 2-set-group cache, with and without a data buffer, under plain,
 * evict-last, no-allocate and 64-byte-fill hints, among writes that leave partial sectors: the
 * same results, statistics, next-level calls and bytes after every read. */
static void test_read_in_set_matches_read(void **state)
{
    (void)state;
    for (int sliced = 0; sliced < 2; sliced++) {
        cache_config config;
        cache_config_default(&config, 4096, 4);
        config.persisting_limit_lines = 8;
        if (sliced)
            config.slices = 2;
        fixture a, b;
        setup_with(&a, &config);
        setup_with(&b, &config);
        cache_hints plain = {0}, last = {.alloc = CACHE_ALLOC_LAST},
                    none = {.alloc = CACHE_ALLOC_NONE}, wide = {.fill_bytes = 64};
        const cache_hints *hints[4] = {&plain, &last, &none, &wide};
        for (int n = 0; n < 300; n++) {
            uint64_t line = BASE + (uint64_t)((n * 7) % 12) * SET_STRIDE;
            if (n % 5 == 4) { /* a word written: partial sectors for later reads */
                write4(&a, line + (uint64_t)(n % 32) * 4, (uint32_t)n, NULL);
                write4(&b, line + (uint64_t)(n % 32) * 4, (uint32_t)n, NULL);
                continue;
            }
            uint32_t bytes = n % 4 == 0 ? 128 : n % 4 == 1 ? 32 : n % 4 == 2 ? 8 : 4;
            uint64_t addr = line + (uint64_t)((n * 12) % (128 / bytes)) * bytes;
            const cache_hints *h = hints[(n / 3) % 4];
            uint8_t da[128], db[128];
            memset(da, 0xEE, sizeof da);
            memset(db, 0xEE, sizeof db);
            int with_out = n % 6 != 1;
            cache_result ra, rb;
            assert_int_equal(cache_read(a.c, addr, bytes, with_out ? da : NULL, h, &ra), MEM_OK);
            cache_prefetch_set_at(b.c, cache_set_of(b.c, addr));
            assert_int_equal(cache_read_in_set(b.c, cache_set_of(b.c, addr), addr, bytes,
                                               with_out ? db : NULL, h, &rb),
                             MEM_OK);
            assert_memory_equal(&ra, &rb, sizeof ra);
            assert_memory_equal(da, db, sizeof da);
            assert_memory_equal(cache_get_stats(a.c), cache_get_stats(b.c), sizeof(cache_stats));
            assert_int_equal(a.spy.count, b.spy.count);
        }
        assert_true(cache_get_stats(b.c)->evictions > 0);
        assert_true(cache_get_stats(b.c)->read_sector_hits > 0);
        assert_true(cache_get_stats(b.c)->read_sector_misses > 0);
        assert_memory_equal(a.spy.calls, b.spy.calls, sizeof a.spy.calls);
        teardown(&a);
        teardown(&b);
    }
}

/* Without a data buffer (the instruction cache's fetch: a tags-only probe of one byte),
 * cache_read_hit does what a one-byte cache_read without hints does on a hit: the same
 * statistics and recency, and it writes no data. */
static void test_read_hit_probe_matches_one_byte_read(void **state)
{
    (void)state;
    fixture a, b;
    setup_default(&a);
    setup_default(&b);
    fixture *both[2] = {&a, &b};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 4; i++) /* a full set: line 0 is the least recent */
            read4(both[k], BASE + (uint64_t)i * SET_STRIDE, NULL, NULL);
    cache_result r;
    assert_int_equal(cache_read(a.c, BASE + 2, 1, NULL, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_hits, 1);
    uint32_t runs = 0;
    assert_true(cache_read_hit(b.c, BASE, 1u, CACHE_ALLOC_UNCHANGED, NULL, &runs));
    assert_int_equal(runs, 1);
    const cache_stats *sa = cache_get_stats(a.c), *sb = cache_get_stats(b.c);
    assert_int_equal(sb->reads, sa->reads);
    assert_int_equal(sb->read_sector_hits, sa->read_sector_hits);
    assert_int_equal(sb->sector_accesses, sa->sector_accesses);
    assert_int_equal(sb->sector_hits, sa->sector_hits);
    /* Line 0 is now the most recent in both: a new line in the set evicts line 1. */
    for (int k = 0; k < 2; k++) {
        read4(both[k], BASE + 4 * SET_STRIDE, NULL, NULL);
        assert_true(present(both[k], BASE));
        assert_false(present(both[k], BASE + SET_STRIDE));
    }
    teardown(&a);
    teardown(&b);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    fixture f;
    setup_default(&f);
    uint8_t buf[256] = {0};
    assert_int_equal(cache_read(f.c, BASE + 120, 16, buf, NULL, NULL), MEM_ERR_ARGUMENT);
    assert_int_equal(cache_read(f.c, BASE, 0, buf, NULL, NULL), MEM_ERR_ARGUMENT);
    assert_int_equal(cache_write(f.c, UINT64_MAX, 2, buf, NULL, NULL), MEM_ERR_ARGUMENT);
    cache_hints bad = {.alloc = 9};
    assert_int_equal(cache_read(f.c, BASE, 4, buf, &bad, NULL), MEM_ERR_ARGUMENT);
    bad = (cache_hints){.fill_bytes = 96};
    assert_int_equal(cache_read(f.c, BASE, 4, buf, &bad, NULL), MEM_ERR_ARGUMENT);
    bad = (cache_hints){.kind = 32};
    assert_int_equal(cache_write(f.c, BASE, 4, buf, &bad, NULL), MEM_ERR_ARGUMENT);
    assert_int_equal(cache_set_line_priority(f.c, BASE, (cache_priority)7), MEM_ERR_ARGUMENT);
    assert_int_equal(cache_get_stats(f.c)->reads, 0);
    assert_int_equal(f.spy.count, 0);
    /* The last byte of the address space is a valid one-byte access. */
    assert_int_equal(cache_read(f.c, UINT64_MAX, 1, buf, NULL, NULL), MEM_OK);
    teardown(&f);
}

static void test_configuration_diagnostics(void **state)
{
    (void)state;
    static const struct {
        uint64_t size;
        uint32_t line, sector, ways, fill;
        uint8_t index;
        const char *rule;
    } cases[] = {
        {4096, 96, 32, 4, 0, 0, "MEM-CACHE-001"},
        {4096, 128, 48, 4, 0, 0, "MEM-CACHE-002"},
        {8192, 4096, 1, 1, 0, 0, "MEM-CACHE-002"}, /* 4096 sectors per line */
        {4000, 128, 32, 4, 0, 0, "MEM-CACHE-003"},
        {4096, 128, 32, 0, 0, 0, "MEM-CACHE-003"},
        {4096, 128, 32, 4, 16, 0, "MEM-CACHE-004"},
        {4096, 128, 32, 4, 8192, 0, "MEM-CACHE-004"},
        {4096, 128, 32, 4, 0, 2, "MEM-CACHE-005"},
    };
    dram *d;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(dram_create(NULL, &dl, &d), MEM_OK);
    cache_next_level next = cache_next_level_dram(d);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        diag_list case_dl;
        diag_list_init(&case_dl);
        cache_config config = {.size_bytes = cases[i].size, .line_bytes = cases[i].line,
                               .sector_bytes = cases[i].sector, .ways = cases[i].ways,
                               .fill_bytes = cases[i].fill, .index_function = cases[i].index};
        cache *c = (cache *)&case_dl;
        assert_int_equal(cache_create(&config, &next, &case_dl, &c), MEM_ERR_CONFIG);
        assert_null(c);
        assert_int_equal(case_dl.errors, 1);
        assert_string_equal(case_dl.items[0].rule, cases[i].rule);
        diag_list_fini(&case_dl);
    }
    cache_config config;
    cache_config_default(&config, 4096, 4);
    cache_next_level nothing = {0};
    cache *c;
    assert_int_equal(cache_create(&config, &nothing, &dl, &c), MEM_ERR_CONFIG);
    assert_non_null(diag_find(&dl, "MEM-CACHE-006"));
    /* Too large to allocate: an error status and a diagnostic, not a crash. */
    cache_config_default(&config, UINT64_C(1) << 40, 1 << 20);
    assert_int_equal(cache_create(&config, &next, &dl, &c), MEM_ERR_CONFIG); /* >= 2^32 lines */
    cache_config_default(&config, UINT64_C(1) << 43, 1 << 20); /* 2^31 lines of 4 KiB */
    config.line_bytes = 4096;
    config.sector_bytes = 64;
    config.fill_bytes = 64;
    assert_int_equal(cache_create(&config, &next, &dl, &c), MEM_ERR_NOMEM);
    assert_non_null(diag_find(&dl, "MEM-CACHE-007"));
    dram_destroy(d);
    diag_list_fini(&dl);
}

static void test_xor_fold_index(void **state)
{
    (void)state;
    fixture f;
    cache_config config;
    cache_config_default(&config, 16 * 4 * 128, 4); /* 16 sets: 4-bit chunks */
    config.index_function = CACHE_INDEX_XOR_FOLD;
    setup_with(&f, &config);
    assert_int_equal(cache_set_count(f.c), 16);
    assert_int_equal(cache_set_of(f.c, UINT64_C(0x123) * 128), 0x3 ^ 0x2 ^ 0x1);
    assert_int_equal(cache_set_of(f.c, UINT64_C(0xf00d) * 128), 0xd ^ 0x0 ^ 0x0 ^ 0xf);
    teardown(&f);
    cache_config_default(&config, 10 * 4 * 128, 4); /* 10 sets: 4-bit chunks, then mod 10 */
    config.index_function = CACHE_INDEX_XOR_FOLD;
    setup_with(&f, &config);
    assert_int_equal(cache_set_of(f.c, UINT64_C(0x1f) * 128), (0xf ^ 0x1) % 10);
    assert_int_equal(cache_set_of(f.c, UINT64_C(0x123) * 128), 0x3 ^ 0x2 ^ 0x1);
    teardown(&f);
}

/* cache_read_hits over records of 48 bytes (line address, sectors, then 32 bytes of data a
 * record, as a caller's line requests hold them): the lines that hit, one after the other, get
 * what cache_read_hit gives each (data, statistics); the first that would be refused stops the
 * batch and is left unchanged, and so is every line after it. */
static void test_read_hits_stop_at_the_first_refusal(void **state)
{
    (void)state;
    fixture a, b;
    setup_default(&a);
    setup_default(&b);
    typedef struct record {
        uint64_t line_addr, sectors;
        uint8_t data[128];
    } record;
    /* Lines 0..3 of set 0 with sector 1 valid; line 4 of another set with sector 0 only. */
    fixture *both[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        fill_dram(both[k], BASE, 8 * SET_STRIDE, 0);
        for (uint32_t i = 0; i < 4; i++) {
            fill_dram(both[k], BASE + i * SET_STRIDE + 32, 32, (uint8_t)(0x10 + i));
            read4(both[k], BASE + i * SET_STRIDE + 32, NULL, NULL);
        }
        read4(both[k], BASE + 128, NULL, NULL);
    }
    record recs[6] = {
        {BASE + 2 * SET_STRIDE, 2u, {0}}, {BASE, 2u, {0}}, {BASE + 3 * SET_STRIDE, 2u, {0}},
        {BASE + 128, 3u, {0}}, /* sector 1 not valid: refused */
        {BASE + SET_STRIDE, 2u, {0}}, {BASE + 5 * SET_STRIDE, 1u, {0}}};
    uint64_t sectors = 99;
    assert_int_equal(cache_read_hits(b.c, 6, &recs[0].line_addr, &recs[0].sectors, recs[0].data,
                                     sizeof(record), CACHE_ALLOC_UNCHANGED, NULL, &sectors),
                     3);
    assert_int_equal(sectors, 3);
    uint32_t runs;
    uint8_t want[128];
    for (int i = 0; i < 3; i++) {
        assert_true(cache_read_hit(a.c, recs[i].line_addr, recs[i].sectors, CACHE_ALLOC_UNCHANGED,
                                   want, &runs));
        assert_memory_equal(recs[i].data + 32, want + 32, 32);
        assert_int_equal(recs[i].data[32], 0x10 + (recs[i].line_addr - BASE) / SET_STRIDE);
    }
    const cache_stats *sa = cache_get_stats(a.c), *sb = cache_get_stats(b.c);
    assert_int_equal(sb->reads, sa->reads);
    assert_int_equal(sb->sector_hits, sa->sector_hits);
    assert_int_equal(sb->sector_accesses, sa->sector_accesses);
    /* Same recency in both: a new line in set 0 evicts line 1 (the least recent) in each. */
    for (int k = 0; k < 2; k++) {
        read4(both[k], BASE + 6 * SET_STRIDE, NULL, NULL);
        assert_false(present(both[k], BASE + SET_STRIDE));
        assert_true(present(both[k], BASE));
    }
    /* From the refused line on: nothing; a record with no sector is refused too; an
     * allocation hint outside the hit path's is refused before any line. */
    uint64_t reads = sb->reads;
    assert_int_equal(cache_read_hits(b.c, 3, &recs[3].line_addr, &recs[3].sectors, recs[3].data,
                                     sizeof(record), CACHE_ALLOC_UNCHANGED, NULL, &sectors),
                     0);
    assert_int_equal(sectors, 0);
    recs[2].sectors = 0;
    assert_int_equal(cache_read_hits(b.c, 2, &recs[1].line_addr, &recs[1].sectors, recs[1].data,
                                     sizeof(record), CACHE_ALLOC_UNCHANGED, NULL, &sectors),
                     1);
    assert_int_equal(sb->reads, reads + 1);
    assert_int_equal(cache_read_hits(b.c, 1, &recs[0].line_addr, &recs[0].sectors, recs[0].data,
                                     sizeof(record), CACHE_ALLOC_NONE + 1, NULL, &sectors),
                     0);
    assert_int_equal(sb->reads, reads + 1);
    teardown(&a);
    teardown(&b);
}

/* cache_lines_held finds the leading lines that hold their sectors, changing nothing (the
 * recency order stays), and cache_read_hits given their slots does exactly what it does when
 * it looks the lines up itself (data, statistics, recency), on two equal caches. */
static void test_lines_held_then_read_without_lookups(void **state)
{
    (void)state;
    fixture a, b;
    setup_default(&a);
    setup_default(&b);
    typedef struct record {
        uint64_t line_addr, sectors;
        uint8_t data[128];
    } record;
    fixture *both[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        for (uint32_t i = 0; i < 4; i++) {
            fill_dram(both[k], BASE + i * SET_STRIDE, 128, (uint8_t)(0x20 + i));
            read4(both[k], BASE + i * SET_STRIDE + 64, NULL, NULL); /* sector 2 */
        }
    }
    record recs[5] = {{BASE + 3 * SET_STRIDE, 4u, {0}}, {BASE + SET_STRIDE, 4u, {0}},
                      {BASE, 4u, {0}}, {BASE + 2 * SET_STRIDE, 5u, {0}}, /* sector 0 invalid */
                      {BASE + 2 * SET_STRIDE, 4u, {0}}};
    uint32_t lines[5] = {0};
    uint64_t reads = cache_get_stats(b.c)->reads;
    assert_int_equal(cache_lines_held(b.c, 5, &recs[0].line_addr, &recs[0].sectors, sizeof(record),
                                      lines),
                     3);
    assert_int_equal(cache_get_stats(b.c)->reads, reads);
    assert_int_equal(cache_lines_held(b.c, 2, &recs[3].line_addr, &recs[3].sectors, sizeof(record),
                                      lines + 3),
                     0);
    record copy[3];
    memcpy(copy, recs, sizeof copy);
    uint64_t sa = 0, sb = 0;
    assert_int_equal(cache_read_hits(a.c, 3, &copy[0].line_addr, &copy[0].sectors, copy[0].data,
                                     sizeof(record), CACHE_ALLOC_UNCHANGED, NULL, &sa),
                     3);
    assert_int_equal(cache_read_hits(b.c, 3, &recs[0].line_addr, &recs[0].sectors, recs[0].data,
                                     sizeof(record), CACHE_ALLOC_UNCHANGED, lines, &sb),
                     3);
    assert_int_equal(sb, 3);
    assert_int_equal(sa, sb);
    for (int i = 0; i < 3; i++) {
        assert_memory_equal(recs[i].data + 64, copy[i].data + 64, 32);
        assert_int_equal(recs[i].data[64], 0x20 + (recs[i].line_addr - BASE) / SET_STRIDE);
    }
    assert_memory_equal(cache_get_stats(a.c), cache_get_stats(b.c), sizeof(cache_stats));
    /* The same recency in both: line 2 was not read, so a new line in set 0 evicts it. */
    for (int k = 0; k < 2; k++) {
        read4(both[k], BASE + 5 * SET_STRIDE, NULL, NULL);
        assert_false(present(both[k], BASE + 2 * SET_STRIDE));
        assert_true(present(both[k], BASE));
    }
    teardown(&a);
    teardown(&b);
}

/* A lookup compares one-byte tag prints first (16 ways at a time), then the full tags: lines
 * whose prints are all equal must still each be found, with their own data, in sets of fewer
 * than 16 ways, of 16, and of more (two groups); an absent line of the same print misses, and
 * so does a line dropped from its way. */
static void test_lookup_with_equal_tag_prints(void **state)
{
    (void)state;
    static const uint32_t ways[] = {5, 16, 24};
    for (size_t k = 0; k < sizeof ways / sizeof ways[0]; k++) {
        fixture f;
        cache_config config;
        cache_config_default(&config, (uint64_t)ways[k] * 128, ways[k]); /* one set */
        setup_with(&f, &config);
        uint64_t lines[25];
        uint32_t found = 0;
        uint8_t print = TAG_PRINT(TAG_OF(UINT64_C(3)));
        for (uint64_t n = 3; found <= ways[k]; n++)
            if (TAG_PRINT(TAG_OF(n)) == print)
                lines[found++] = n;
        for (uint32_t i = 0; i <= ways[k]; i++)
            fill_dram(&f, lines[i] * 128, 128, (uint8_t)(i + 1));
        for (uint32_t i = 0; i < ways[k]; i++) read4(&f, lines[i] * 128, NULL, NULL);
        for (uint32_t i = ways[k]; i-- > 0;) {
            uint32_t v;
            cache_result r = read4(&f, lines[i] * 128 + 4, NULL, &v);
            assert_int_equal(r.sector_hits, 1);
            assert_int_equal(v, 0x01010101u * (i + 1));
        }
        assert_false(present(&f, lines[ways[k]] * 128));
        cache_result r;
        assert_int_equal(cache_invalidate_line(f.c, lines[ways[k] / 2] * 128, true, NULL, &r),
                         MEM_OK);
        assert_false(present(&f, lines[ways[k] / 2] * 128));
        assert_true(present(&f, lines[ways[k] - 1] * 128));
        assert_int_equal(cache_get_stats(f.c)->evictions, 0);
        teardown(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sector_hit_after_miss),
        cmocka_unit_test(test_second_sector_is_a_separate_miss),
        cmocka_unit_test(test_fill_granularity_and_promotion),
        cmocka_unit_test(test_lru_order_within_a_set),
        cmocka_unit_test(test_evict_first_goes_before_normal),
        cmocka_unit_test(test_class_hints_move_lines_and_counts),
        cmocka_unit_test(test_evict_last_is_kept_while_others_go),
        cmocka_unit_test(test_persisting_limit),
        cmocka_unit_test(test_writeback_sends_only_dirty_bytes),
        cmocka_unit_test(test_write_through_reaches_next_level_at_once),
        cmocka_unit_test(test_no_write_allocate),
        cmocka_unit_test(test_partial_write_merges_with_later_fill),
        cmocka_unit_test(test_masked_write),
        cmocka_unit_test(test_discard_loses_dirty_data),
        cmocka_unit_test(test_invalidate_all_with_kind_filter),
        cmocka_unit_test(test_flush_counts_writeback_bytes),
        cmocka_unit_test(test_l1_on_l2_holds_stale_data_until_invalidated),
        cmocka_unit_test(test_next_level_error_propagates),
        cmocka_unit_test(test_request_reaches_next_level),
        cmocka_unit_test(test_invalidate_clean_lines),
        cmocka_unit_test(test_read_hit_matches_reads_by_run),
        cmocka_unit_test(test_read_hit_probe_matches_one_byte_read),
        cmocka_unit_test(test_read_in_set_matches_read),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_configuration_diagnostics),
        cmocka_unit_test(test_xor_fold_index),
        cmocka_unit_test(test_lookup_with_equal_tag_prints),
        cmocka_unit_test(test_read_hits_stop_at_the_first_refusal),
        cmocka_unit_test(test_lines_held_then_read_without_lookups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
