/* Unit tests for the write-back of whole runs of sectors (cache_next_level.writeback_runs) and for
 * the whole-cache operations, which visit only the line blocks that ever held a line
 * (docs/cache-model.md, "Cache control").
 *
 * Two caches of 128 B lines and 32 B sectors, one on a next level that takes runs and one on a
 * next level that takes sector by sector, receive the same stores; their flushes must write the
 * same bytes to DRAM and count the same write-back bytes, the first in fewer calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/dram.h"

#define BASE UINT64_C(0x7f0000000000)
enum { MAX_CALLS = 64 };

typedef struct write_call {
    uint64_t addr;
    uint32_t bytes;
    int masked;
} write_call;

typedef struct spy {
    dram *d;
    write_call calls[MAX_CALLS];
    int count;
} spy;

static mem_status spy_read(void *ctx, void *request, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    (void)request;
    return dram_read(((spy *)ctx)->d, addr, bytes, out);
}

static mem_status spy_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                            const uint8_t *data, const uint8_t *mask)
{
    (void)request;
    spy *s = ctx;
    if (s->count < MAX_CALLS)
        s->calls[s->count] = (write_call){addr, bytes, mask != NULL};
    s->count++;
    return dram_write(s->d, addr, bytes, data, mask);
}

typedef struct fixture {
    spy spy;
    cache *c;
    diag_list dl;
} fixture;

/* A cache of `bytes` bytes, 4 ways, 128 B lines, 32 B sectors. */
static void setup(fixture *f, uint64_t bytes, bool runs)
{
    memset(f, 0, sizeof *f);
    diag_list_init(&f->dl);
    assert_int_equal(dram_create(NULL, &f->dl, &f->spy.d), MEM_OK);
    cache_config config;
    cache_config_default(&config, bytes, 4);
    cache_next_level next = {&f->spy, spy_read, spy_write, runs};
    assert_int_equal(cache_create(&config, &next, &f->dl, &f->c), MEM_OK);
}

static void teardown(fixture *f)
{
    cache_destroy(f->c);
    dram_destroy(f->spy.d);
    diag_list_fini(&f->dl);
}

/* Stores: a whole line, sectors 1-2 whole, sector 0 and 1 partly (one word each), sector 3
 * alone; then the flush. */
static void store_pattern(fixture *f)
{
    uint8_t line[128];
    for (int i = 0; i < 128; i++) line[i] = (uint8_t)(i + 1);
    assert_int_equal(cache_write(f->c, BASE, 128, line, NULL, NULL), MEM_OK);
    assert_int_equal(cache_write(f->c, BASE + 128 + 32, 64, line, NULL, NULL), MEM_OK);
    assert_int_equal(cache_write(f->c, BASE + 256 + 4, 4, line, NULL, NULL), MEM_OK);
    assert_int_equal(cache_write(f->c, BASE + 256 + 40, 4, line, NULL, NULL), MEM_OK);
    assert_int_equal(cache_write(f->c, BASE + 384 + 96, 32, line, NULL, NULL), MEM_OK);
}

static void test_flush_by_runs_writes_the_same_bytes(void **state)
{
    (void)state;
    fixture runs, sectors;
    setup(&runs, 4096, true);
    setup(&sectors, 4096, false);
    store_pattern(&runs);
    store_pattern(&sectors);
    cache_result rr, rs;
    assert_int_equal(cache_flush(runs.c, &rr), MEM_OK);
    assert_int_equal(cache_flush(sectors.c, &rs), MEM_OK);
    assert_int_equal(rr.writeback_bytes, 4 * 32 + 2 * 32 + 2 * 32 + 32);
    assert_int_equal(rs.writeback_bytes, rr.writeback_bytes);
    assert_int_equal(sectors.spy.count, 4 + 2 + 2 + 1);
    /* Runs: the whole line, sectors 1-2, sectors 0-1 with a mask, sector 3. */
    write_call want[] = {{BASE, 128, 0},
                         {BASE + 128 + 32, 64, 0},
                         {BASE + 256, 64, 1},
                         {BASE + 384 + 96, 32, 0}};
    assert_int_equal(runs.spy.count, 4);
    assert_memory_equal(runs.spy.calls, want, sizeof want);
    const dram_stats *dr = dram_get_stats(runs.spy.d), *ds = dram_get_stats(sectors.spy.d);
    assert_int_equal(dr->write_bytes, ds->write_bytes);
    for (uint64_t off = 0; off < 512; off += 128) {
        uint8_t a[128], b[128];
        assert_int_equal(dram_peek(runs.spy.d, BASE + off, 128, a), MEM_OK);
        assert_int_equal(dram_peek(sectors.spy.d, BASE + off, 128, b), MEM_OK);
        assert_memory_equal(a, b, 128);
    }
    /* Clean now: a second flush writes nothing. */
    assert_int_equal(cache_flush(runs.c, &rr), MEM_OK);
    assert_int_equal(rr.writeback_bytes, 0);
    assert_int_equal(runs.spy.count, 4);
    teardown(&runs);
    teardown(&sectors);
}

/* A large cache with a few lines far apart (blocks at both ends of its storage): the whole-cache
 * operations find every one of them, in slot order, and stop changing nothing else. */
static void test_whole_cache_operations_find_sparse_lines(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 8u << 20, true); /* 16,384 sets */
    uint64_t sets = (8u << 20) / 128 / 4;
    uint64_t addrs[] = {BASE + (sets - 1) * 128, BASE, BASE + 700 * 128};
    uint32_t v = 0x5A5A5A5Au;
    for (int i = 0; i < 3; i++)
        assert_int_equal(cache_write(f.c, addrs[i], 4, &v, NULL, NULL), MEM_OK);
    uint8_t buf[4];
    assert_int_equal(cache_read(f.c, BASE + 9000 * 128, 4, buf, NULL, NULL), MEM_OK); /* clean */
    cache_result r;
    assert_int_equal(cache_writeback_all(f.c, CACHE_KIND_ALL, NULL, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 3 * 32);
    assert_int_equal(f.spy.count, 3);
    assert_true(f.spy.calls[0].addr == BASE);
    assert_true(f.spy.calls[1].addr == BASE + 700 * 128);
    assert_true(f.spy.calls[2].addr == BASE + (sets - 1) * 128);
    assert_int_equal(cache_invalidate_all(f.c, CACHE_KIND_ALL, true, NULL, &r), MEM_OK);
    assert_int_equal(cache_get_stats(f.c)->invalidated_lines, 4);
    for (int i = 0; i < 3; i++) {
        cache_line_info info;
        assert_false(cache_lookup(f.c, addrs[i], &info));
    }
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flush_by_runs_writes_the_same_bytes),
        cmocka_unit_test(test_whole_cache_operations_find_sparse_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
