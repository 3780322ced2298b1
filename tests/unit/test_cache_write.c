/* Unit tests for the store path of src/mem/cache (docs/cache-model.md, "Writes"): masked stores at
 * any offset and sector size set exactly the stored bytes' valid and dirty state, and
 * cache_write_line_bits (a whole-line store whose mask comes as bits too) does exactly what
 * cache_write_masked does: same statistics, results, lines, next-level calls and data;
 * cache_peek_run (a parked load's peek) takes what cache_peek takes.
 *
 * The next level is a DRAM store seen through a spy that records every write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/dram.h"

#define BASE UINT64_C(0x7f0000000000)

typedef struct spy_write {
    uint64_t addr;
    uint32_t bytes;
    int masked;
    uint8_t mask[128];
    uint8_t data[128];
} spy_write;

typedef struct spy {
    dram *d;
    spy_write writes[256];
    int count;
} spy;

static mem_status spy_read(void *ctx, void *request, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    (void)request;
    return dram_read(((spy *)ctx)->d, addr, bytes, out);
}

static mem_status spy_write_call(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                 const uint8_t *data, const uint8_t *mask)
{
    (void)request;
    spy *s = ctx;
    if (s->count < 256) {
        spy_write *w = &s->writes[s->count];
        memset(w, 0, sizeof *w);
        *w = (spy_write){addr, bytes, mask != NULL, {0}, {0}};
        memcpy(w->data, data, bytes < 128 ? bytes : 128);
        if (mask != NULL)
            memcpy(w->mask, mask, bytes < 128 ? bytes : 128);
    }
    s->count++;
    return dram_write(s->d, addr, bytes, data, mask);
}

typedef struct fixture {
    spy spy;
    cache *c;
    diag_list dl;
} fixture;

/* A 4 KiB, 4-way cache of 128 B lines with `sector_bytes` sectors (8 sets). */
static void setup(fixture *f, uint32_t sector_bytes)
{
    memset(f, 0, sizeof *f);
    diag_list_init(&f->dl);
    assert_int_equal(dram_create(NULL, &f->dl, &f->spy.d), MEM_OK);
    cache_config config;
    cache_config_default(&config, 4096, 4);
    config.sector_bytes = sector_bytes;
    config.fill_bytes = sector_bytes;
    cache_next_level next = {&f->spy, spy_read, spy_write_call, false};
    assert_int_equal(cache_create(&config, &next, &f->dl, &f->c), MEM_OK);
}

static void teardown(fixture *f)
{
    cache_destroy(f->c);
    dram_destroy(f->spy.d);
    diag_list_fini(&f->dl);
}

static cache_line_info line_info(fixture *f, uint64_t addr)
{
    cache_line_info info;
    assert_true(cache_lookup(f->c, addr, &info));
    return info;
}

/* A masked store that starts inside a 64-byte word and crosses into the next: only the masked
 * bytes become valid and dirty, in the sectors that hold them. */
static void test_masked_store_at_an_offset(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 32);
    uint8_t data[60], mask[60] = {0};
    for (int i = 0; i < 60; i++) data[i] = (uint8_t)(0x80 + i);
    mask[0] = mask[23] = 1;                    /* line bytes 40 and 63: sector 1 */
    for (int i = 24; i <= 30; i++) mask[i] = 7; /* line bytes 64..70: sector 2 */
    mask[59] = 1;                              /* line byte 99: sector 3 */
    cache_result r;
    assert_int_equal(cache_write_masked(f.c, BASE + 40, 60, data, mask, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_accesses, 3);
    assert_int_equal(r.sector_misses, 3);
    cache_line_info info = line_info(&f, BASE);
    assert_int_equal(info.valid_sectors, 0);
    assert_int_equal(info.partial_sectors, 0xE);
    assert_int_equal(info.dirty_sectors, 0xE);
    assert_int_equal(cache_flush(f.c, &r), MEM_OK);
    assert_int_equal(r.writeback_bytes, 96);
    uint8_t back[128];
    assert_int_equal(dram_peek(f.spy.d, BASE, 128, back), MEM_OK);
    for (int i = 0; i < 128; i++) {
        int stored = i == 40 || i == 63 || (i >= 64 && i <= 70) || i == 99;
        assert_int_equal(back[i], stored ? 0x80 + (i - 40) : 0);
    }
    teardown(&f);
}

/* A sector becomes valid when a store completes it; a write-through store of the only dirty
 * byte of a sector leaves the sector clean. */
static void test_store_completes_and_cleans_sectors(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 32);
    uint8_t data[128], mask[128] = {0};
    memset(data, 0x11, sizeof data);
    for (int i = 0; i < 32; i++) mask[i] = 1;
    mask[40] = 1;
    assert_int_equal(cache_write_masked(f.c, BASE, 128, data, mask, NULL, NULL), MEM_OK);
    cache_line_info info = line_info(&f, BASE);
    assert_int_equal(info.valid_sectors, 0x1);
    assert_int_equal(info.partial_sectors, 0x2);
    assert_int_equal(info.dirty_sectors, 0x3);
    cache_hints through = {.write_mode = CACHE_WRITE_THROUGH};
    memset(mask, 0, sizeof mask);
    mask[40] = 1;
    cache_result r;
    assert_int_equal(cache_write_masked(f.c, BASE, 128, data, mask, &through, &r), MEM_OK);
    assert_int_equal(r.write_through_bytes, 1);
    assert_int_equal(r.sector_hits, 0); /* sector 1 is only partly valid */
    info = line_info(&f, BASE);
    assert_int_equal(info.dirty_sectors, 0x1);
    assert_int_equal(f.spy.count, 1);
    assert_int_equal(f.spy.writes[0].addr, BASE);
    assert_int_equal(f.spy.writes[0].bytes, 128);
    assert_int_equal(f.spy.writes[0].mask[40], 1);
    assert_int_equal(f.spy.writes[0].mask[0], 0);
    teardown(&f);
}

/* Sectors smaller than a bitmap word (16 B: four a word) and larger (128 B: one a line). */
static void test_store_sectors_of_other_sizes(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 16);
    uint8_t data[128], mask[128] = {0};
    memset(data, 0x22, sizeof data);
    mask[15] = mask[16] = mask[66] = 1; /* sectors 0, 1 and 4 */
    for (int i = 112; i < 128; i++) mask[i] = 1; /* sector 7, whole */
    cache_result r;
    assert_int_equal(cache_write_masked(f.c, BASE, 128, data, mask, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_accesses, 4);
    cache_line_info info = line_info(&f, BASE);
    assert_int_equal(info.valid_sectors, 0x80);
    assert_int_equal(info.partial_sectors, 0x13);
    assert_int_equal(info.dirty_sectors, 0x93);
    teardown(&f);

    setup(&f, 128);
    memset(mask, 0, sizeof mask);
    mask[3] = 1;
    assert_int_equal(cache_write_masked(f.c, BASE, 128, data, mask, NULL, &r), MEM_OK);
    assert_int_equal(r.sector_accesses, 1);
    info = line_info(&f, BASE);
    assert_int_equal(info.valid_sectors, 0);
    assert_int_equal(info.partial_sectors, 1);
    assert_int_equal(cache_write_masked(f.c, BASE, 128, data, NULL, NULL, &r), MEM_OK);
    info = line_info(&f, BASE);
    assert_int_equal(info.valid_sectors, 1);
    assert_int_equal(info.partial_sectors, 0);
    teardown(&f);
}

/* The bits of a byte mask (bit b of bits[b / 64]: mask[b] nonzero). */
static void bits_of(const uint8_t *mask, uint64_t bits[2])
{
    bits[0] = bits[1] = 0;
    for (int b = 0; b < 128; b++)
        if (mask == NULL || mask[b])
            bits[b / 64] |= UINT64_C(1) << (b % 64);
}

static void assert_same_cache(fixture *a, fixture *b, uint64_t addr)
{
    assert_memory_equal(cache_get_stats(a->c), cache_get_stats(b->c), sizeof(cache_stats));
    cache_line_info ia, ib;
    assert_int_equal(cache_lookup(a->c, addr, &ia), cache_lookup(b->c, addr, &ib));
    assert_memory_equal(&ia, &ib, sizeof ia);
}

/* The same stores through both entry points, on two caches: write-back and write-through,
 * hits and misses, scattered lanes, whole lines, no byte at all, evictions with write-backs. */
static void test_line_bits_write_matches_masked_write(void **state)
{
    (void)state;
    fixture a, b;
    setup(&a, 32);
    setup(&b, 32);
    cache_hints through = {.write_mode = CACHE_WRITE_THROUGH};
    cache_hints bypass = {.alloc = CACHE_ALLOC_NONE};
    for (int n = 0; n < 40; n++) {
        uint8_t data[128], mask[128] = {0};
        for (int i = 0; i < 128; i++) data[i] = (uint8_t)(n * 31 + i);
        int kind = n % 5;
        for (int lane = 0; lane < 32; lane++) {
            int at = kind == 0 ? lane * 4                 /* whole line */
                   : kind == 1 ? (lane * 36 + n) % 124    /* scattered 4-byte lanes */
                   : kind == 2 ? (lane % 4) * 32 + n % 28 /* one lane per sector */
                   : kind == 3 ? 200                      /* no byte */
                               : (lane * 8) % 120;        /* gaps */
            for (int k = 0; k < 4 && at + k < 128; k++) mask[at + k] = 1;
        }
        const uint8_t *m = kind == 0 ? NULL : mask;
        uint64_t bits[2];
        bits_of(m, bits);
        uint64_t addr = BASE + (uint64_t)(n % 11) * 1024 + (uint64_t)(n % 3) * 128;
        const cache_hints *h = n % 4 == 1 ? &through : n % 7 == 3 ? &bypass : NULL;
        cache_result ra, rb;
        assert_int_equal(cache_write_masked(a.c, addr, 128, data, m, h, &ra), MEM_OK);
        assert_int_equal(cache_write_line_bits(b.c, addr, data, m, bits, h, &rb), MEM_OK);
        assert_memory_equal(&ra, &rb, sizeof ra);
        assert_same_cache(&a, &b, addr);
    }
    assert_int_equal(cache_flush(a.c, NULL), MEM_OK);
    assert_int_equal(cache_flush(b.c, NULL), MEM_OK);
    assert_true(a.spy.count > 20);
    assert_int_equal(a.spy.count, b.spy.count);
    assert_memory_equal(a.spy.writes, b.spy.writes, sizeof a.spy.writes);
    for (uint64_t off = 0; off < 11 * 1024; off += 128) {
        uint8_t da[128], db[128];
        assert_int_equal(dram_peek(a.spy.d, BASE + off, 128, da), MEM_OK);
        assert_int_equal(dram_peek(b.spy.d, BASE + off, 128, db), MEM_OK);
        assert_memory_equal(da, db, 128);
    }
    teardown(&a);
    teardown(&b);
}

/* A whole-line store with a partial mask changes exactly the masked bytes of a resident line,
 * whatever the pattern inside each 8-byte chunk: the 256 patterns of 8 bits, 16 per store (one
 * per chunk), through both entry points, with 32- and 16-byte sectors, each against the line's
 * bytes worked out here byte by byte. */
static void test_whole_line_store_takes_exactly_the_masked_bytes(void **state)
{
    (void)state;
    for (uint32_t sector = 16; sector <= 32; sector += 16) {
        fixture f;
        setup(&f, sector);
        uint8_t want[128], got[128], flags[128];
        for (int i = 0; i < 128; i++) want[i] = (uint8_t)(0xA0 ^ i);
        assert_int_equal(dram_write(f.spy.d, BASE, 128, want, NULL), MEM_OK);
        assert_int_equal(cache_read(f.c, BASE, 128, got, NULL, NULL), MEM_OK);
        for (uint32_t n = 0; n < 16; n++) {
            uint8_t data[128], mask[128];
            uint64_t bits[2] = {0, 0};
            for (int i = 0; i < 128; i++) {
                uint32_t pattern = (n * 16 + (uint32_t)i / 8) & 0xFF;
                data[i] = (uint8_t)(n * 7 + i);
                mask[i] = (uint8_t)((pattern >> (i % 8)) & 1);
                bits[i / 64] |= (uint64_t)mask[i] << (i % 64);
                if (mask[i])
                    want[i] = data[i];
            }
            if (n % 2)
                assert_int_equal(cache_write_line_bits(f.c, BASE, data, mask, bits, NULL, NULL),
                                 MEM_OK);
            else
                assert_int_equal(cache_write_masked(f.c, BASE, 128, data, mask, NULL, NULL),
                                 MEM_OK);
            memset(flags, 0, sizeof flags);
            assert_true(cache_peek(f.c, BASE, 128, got, flags));
            assert_memory_equal(got, want, 128);
        }
        teardown(&f);
    }
}

/* Partial stores into the same few lines through both entry points (cache_write_line_bits
 * takes its partial-line path for 32-byte sectors): write-back stores that leave sectors partly
 * valid and dirty, stores that complete them, write-through stores over dirty bytes that clean
 * some sectors and not others, and stores into absent lines; after each, the results, the
 * statistics, the line's sectors and its bytes (cache_peek) are the masked write's. */
static void test_partial_line_bits_write_matches_masked_write(void **state)
{
    (void)state;
    fixture a, b;
    setup(&a, 32);
    setup(&b, 32);
    cache_hints through = {.write_mode = CACHE_WRITE_THROUGH};
    for (int n = 0; n < 64; n++) {
        uint8_t data[128], mask[128] = {0};
        for (int i = 0; i < 128; i++) data[i] = (uint8_t)(n * 13 + i * 3);
        int kind = n % 4;
        for (int lane = 0; lane < 8; lane++) {
            int at = kind == 0 ? lane * 16 + (n / 4) % 12     /* two words a sector */
                   : kind == 1 ? (lane % 4) * 32 + (n / 4) % 28 /* one word a sector */
                   : kind == 2 ? 32 + lane * 4                  /* sector 1 whole */
                               : lane * 8 + 64;                 /* words in sectors 2, 3 */
            for (int k = 0; k < 4; k++) mask[at + k] = 1;
        }
        uint64_t bits[2];
        bits_of(mask, bits);
        uint64_t addr = BASE + (uint64_t)(n % 3) * 128;
        const cache_hints *h = n % 5 == 2 ? &through : NULL;
        cache_result ra, rb;
        assert_int_equal(cache_write_masked(a.c, addr, 128, data, mask, h, &ra), MEM_OK);
        assert_int_equal(cache_write_line_bits(b.c, addr, data, mask, bits, h, &rb), MEM_OK);
        assert_memory_equal(&ra, &rb, sizeof ra);
        assert_same_cache(&a, &b, addr);
        uint8_t ga[128], gb[128], fa[128] = {0}, fb[128] = {0};
        assert_int_equal(cache_peek(a.c, addr, 128, ga, fa), cache_peek(b.c, addr, 128, gb, fb));
        assert_memory_equal(fa, fb, 128);
        for (int i = 0; i < 128; i++)
            if (fa[i])
                assert_int_equal(ga[i], gb[i]);
    }
    cache_line_info info;
    assert_true(cache_lookup(b.c, BASE, &info));
    assert_true(info.valid_sectors != 0 && info.partial_sectors != 0); /* both kinds were seen */
    assert_int_equal(a.spy.count, b.spy.count);
    assert_true(a.spy.count > 0);
    assert_memory_equal(a.spy.writes, b.spy.writes, sizeof a.spy.writes);
    teardown(&a);
    teardown(&b);
}

/* cache_peek_run against cache_peek on lines of every validity: partial stores (no allocation
 * fill: write-back, write-allocate) leave sectors wholly valid, partly valid and not valid at
 * all; each run of 4, 32 and 64 bytes returns 1 with cache_peek's bytes when every byte is
 * valid, 0 when some are, and -1 when none are or the line is absent, leaving `out` alone
 * unless it returns 1. */
static void test_peek_run_matches_peek(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 32);
    int seen[3] = {0};
    for (int n = 0; n < 24; n++) {
        uint8_t data[128], mask[128] = {0};
        for (int i = 0; i < 128; i++) data[i] = (uint8_t)(n * 7 + i);
        if (n % 3 == 0)
            memset(mask + 32, 1, 32); /* sector 1 whole */
        else
            memset(mask + 64 + (n % 8) * 4, 1, 4); /* a word of sector 2 */
        cache_result r;
        uint64_t addr = BASE + (uint64_t)(n % 4) * 128;
        assert_int_equal(cache_write_masked(f.c, addr, 128, data, mask, NULL, &r), MEM_OK);
    }
    static const uint32_t sizes[] = {4, 32, 64};
    for (int line = 0; line < 5; line++) { /* line 4 was never stored: absent */
        uint64_t addr = BASE + (uint64_t)line * 128;
        for (int k = 0; k < 3; k++)
            for (uint32_t off = 0; off + sizes[k] <= 128; off += 4) {
                uint8_t want[128], got[128] = {0}, out[128];
                memset(out, 0xA5, sizeof out);
                bool any = cache_peek(f.c, addr + off, sizes[k], want, got);
                uint32_t valid = 0;
                for (uint32_t i = 0; i < sizes[k]; i++) valid += got[i];
                int held = cache_peek_run(f.c, addr + off, sizes[k], out);
                assert_int_equal(any, valid != 0);
                if (valid == sizes[k]) {
                    assert_int_equal(held, 1);
                    assert_memory_equal(out, want, sizes[k]);
                } else {
                    assert_int_equal(held, valid ? 0 : -1);
                    for (uint32_t i = 0; i < sizes[k]; i++) assert_int_equal(out[i], 0xA5);
                }
                seen[held + 1]++;
            }
    }
    for (int i = 0; i < 3; i++) assert_true(seen[i] > 0); /* absent or none, some, all */
    teardown(&f);
}

/* An address inside a line is refused and changes nothing. */
static void test_line_bits_write_needs_a_line_address(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 32);
    uint8_t data[128] = {0};
    uint64_t bits[2] = {UINT64_MAX, UINT64_MAX};
    cache_result r;
    r.sector_accesses = 99;
    assert_int_equal(cache_write_line_bits(f.c, BASE + 4, data, NULL, bits, NULL, &r),
                     MEM_ERR_ARGUMENT);
    assert_int_equal(r.sector_accesses, 0);
    assert_int_equal(cache_get_stats(f.c)->writes, 0);
    assert_int_equal(f.spy.count, 0);
    cache_line_info info;
    assert_false(cache_lookup(f.c, BASE, &info));
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masked_store_at_an_offset),
        cmocka_unit_test(test_store_completes_and_cleans_sectors),
        cmocka_unit_test(test_store_sectors_of_other_sizes),
        cmocka_unit_test(test_line_bits_write_matches_masked_write),
        cmocka_unit_test(test_whole_line_store_takes_exactly_the_masked_bytes),
        cmocka_unit_test(test_partial_line_bits_write_matches_masked_write),
        cmocka_unit_test(test_peek_run_matches_peek),
        cmocka_unit_test(test_line_bits_write_needs_a_line_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
