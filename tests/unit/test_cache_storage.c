/* Unit tests of the cache's storage (cache_setup.c): line data and byte masks live in data slots
 * handed out in the order lines are first filled, so the memory a run writes grows with the
 * lines it uses, not with how they spread over the sets (issue 13, first-touch memory). These
 * tests look inside the cache (cache_internal.h) because the layout is what they check. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/cpu.h"
#include "mem/cache_internal.h"
#include "mem/cache_ops.h"
#include "mem/dram.h"

#define BASE UINT64_C(0x7f0000000000)
enum { LINE = 128, SETS = 8, WAYS = 4, SET_STRIDE = LINE * SETS };
/* The bytes of a group of 16 line slots' records, the first array of a cache's storage (its tag
 * prints, one byte a slot, are the next). */
#define GROUP_RECORD_BYTES (GROUP_LINES * sizeof(line_meta))

typedef struct fixture {
    dram *d;
    cache *c;
    diag_list dl;
    uint8_t *storage; /* lent to the cache when not NULL */
} fixture;

static void setup(fixture *f, int lend)
{
    memset(f, 0, sizeof *f);
    diag_list_init(&f->dl);
    assert_int_equal(dram_create(NULL, &f->dl, &f->d), MEM_OK);
    cache_config config;
    cache_config_default(&config, (uint64_t)LINE * SETS * WAYS, WAYS);
    if (lend) {
        config.storage_bytes = cache_storage_bytes(&config);
        f->storage = calloc(1, config.storage_bytes);
        assert_non_null(f->storage);
        config.storage = f->storage;
    }
    cache_next_level next = cache_next_level_dram(f->d);
    assert_int_equal(cache_create(&config, &next, &f->dl, &f->c), MEM_OK);
}

static void teardown(fixture *f)
{
    cache_destroy(f->c);
    free(f->storage);
    dram_destroy(f->d);
    diag_list_fini(&f->dl);
}

/* Reads one word at addr through the cache; the line becomes resident. */
static uint32_t read_word(fixture *f, uint64_t addr)
{
    uint32_t v = 0;
    cache_hints h = {0};
    cache_result r;
    assert_int_equal(cache_read(f->c, addr, 4, &v, &h, &r), MEM_OK);
    return v;
}

/* The cache line (set * ways + way) holding addr, or NO_INDEX. */
static uint32_t line_of(const cache *c, uint64_t addr)
{
    cache_line_info info;
    if (!cache_lookup(c, addr, &info))
        return NO_INDEX;
    return info.set * c->set_stride + info.way;
}

/* Lines filled in sets 5, 2, 5, 7 take slots 1..4 in that order; slot k's data holds the line's
 * bytes at data + (k - 1) * line size; no other slot is written. */
static void test_slots_in_fill_order(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 1);
    const uint64_t addrs[4] = {BASE + 5 * LINE, BASE + 2 * LINE, BASE + SET_STRIDE + 5 * LINE,
                               BASE + 3 * SET_STRIDE + 7 * LINE};
    for (int i = 0; i < 4; i++)
        assert_int_equal(dram_fill_pattern(f.d, addrs[i], LINE, (uint8_t)(0x10 + i)), MEM_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(read_word(&f, addrs[i]), 0x01010101u * (uint32_t)(0x10 + i));
    assert_int_equal(f.c->slots_used, 4);
    for (int i = 0; i < 4; i++) {
        uint32_t line = line_of(f.c, addrs[i]);
        assert_int_not_equal(line, NO_INDEX);
        assert_int_equal(LINE_FIELD(f.c, line, data_slots), i + 1);
        /* The default fill is one 32-byte sector: the first sector of the slot holds the line's
         * bytes, the rest of the slot is still untouched. */
        for (int b = 0; b < 32; b++)
            assert_int_equal(f.c->data[(size_t)i * LINE + b], 0x10 + i);
        for (int b = 32; b < LINE; b++)
            assert_int_equal(f.c->data[(size_t)i * LINE + b], 0);
    }
    for (size_t b = 4 * LINE; b < (size_t)LINE * SETS * WAYS; b++)
        assert_int_equal(f.c->data[b], 0);
    teardown(&f);
}

/* An evicted line's frame keeps its slot: refilling a full set takes no new slots, and the new
 * line's bytes replace the old ones in the same slot. */
static void test_slot_reused_after_eviction(void **state)
{
    (void)state;
    fixture f;
    setup(&f, 0);
    for (uint32_t k = 0; k < WAYS; k++) {
        assert_int_equal(dram_fill_pattern(f.d, BASE + k * SET_STRIDE, LINE, (uint8_t)(k + 1)),
                         MEM_OK);
        assert_int_equal(read_word(&f, BASE + k * SET_STRIDE), 0x01010101u * (k + 1));
    }
    assert_int_equal(f.c->slots_used, WAYS);
    uint32_t victim = line_of(f.c, BASE); /* least recently used */
    uint32_t slot = LINE_FIELD(f.c, victim, data_slots);
    uint64_t fresh = BASE + WAYS * SET_STRIDE;
    assert_int_equal(dram_fill_pattern(f.d, fresh, LINE, 0x77), MEM_OK);
    assert_int_equal(read_word(&f, fresh), 0x77777777u);
    assert_int_equal(line_of(f.c, BASE), NO_INDEX);
    assert_int_equal(line_of(f.c, fresh), victim);
    assert_int_equal(LINE_FIELD(f.c, victim, data_slots), slot);
    assert_int_equal(f.c->slots_used, WAYS);
    assert_int_equal(f.c->data[(size_t)(slot - 1) * LINE], 0x77);
    /* A line in another set takes the next slot. */
    assert_int_equal(read_word(&f, BASE + 3 * LINE), 0);
    assert_int_equal(LINE_FIELD(f.c, line_of(f.c, BASE + 3 * LINE), data_slots), WAYS + 1);
    teardown(&f);
}

/* A 16-way cache of `sets` sets on storage lent from a page-aligned mapping (so that its line
 * blocks start the first page); the mapping's bytes in *map_bytes. */
static cache *create_mapped(fixture *f, uint32_t sets, uint32_t ways, uint8_t **map,
                            size_t *map_bytes)
{
    memset(f, 0, sizeof *f);
    diag_list_init(&f->dl);
    assert_int_equal(dram_create(NULL, &f->dl, &f->d), MEM_OK);
    cache_config config;
    cache_config_default(&config, (uint64_t)LINE * sets * ways, ways);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *map_bytes = (cache_storage_bytes(&config) + page - 1) / page * page;
    void *m = mmap(NULL, *map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
#ifdef MADV_NOHUGEPAGE
    madvise(m, *map_bytes, MADV_NOHUGEPAGE); /* 4 KiB pages, as the caches' own mappings */
#endif
    *map = m;
    config.storage = m;
    config.storage_bytes = *map_bytes;
    cache_next_level next = cache_next_level_dram(f->d);
    assert_int_equal(cache_create(&config, &next, &f->dl, &f->c), MEM_OK);
    return f->c;
}

/* Look-ups of lines in sets that never held one read nothing of those sets' line records: with
 * the pages of every group's records past the first two pages made unreadable, each look-up
 * entry point answers "absent" without a fault (reading such records would map the zero page,
 * and the fill would fault the page again). 16 ways (a set is a group of 16 slots) and 4 ways
 * (four sets share one). The tag prints (one page for all 256 groups here) are read only after
 * the same test of the group's bit. */
static void test_unused_blocks_not_read(void **state)
{
    (void)state;
    const uint32_t ways_list[2] = {16, 4};
    for (int k = 0; k < 2; k++) {
        uint32_t ways = ways_list[k], sets = 4096 / ways; /* 256 groups, 40 pages of records */
        fixture f;
        uint8_t *map;
        size_t map_bytes, page = (size_t)sysconf(_SC_PAGESIZE);
        cache *c = create_mapped(&f, sets, ways, &map, &map_bytes);
        /* Lines of sets 0..3 (groups 0 and 1, on the first page) become resident. */
        for (uint64_t set = 0; set < 4; set++)
            assert_int_equal(read_word(&f, BASE + set * LINE), 0);
        size_t guarded = (size_t)sets * ways / GROUP_LINES * GROUP_RECORD_BYTES / page * page;
        assert_int_equal(mprotect(map + 2 * page, guarded - 2 * page, PROT_NONE), 0);
        uint32_t first_set = (uint32_t)(2 * page / GROUP_RECORD_BYTES + 1) * GROUP_LINES / ways;
        uint32_t last_set = (uint32_t)(guarded / GROUP_RECORD_BYTES) * GROUP_LINES / ways;
        for (uint32_t set = first_set; set < last_set; set += 7) {
            uint64_t addr = BASE + (uint64_t)set * LINE, sectors = 1;
            cache_line_info info;
            uint8_t out[LINE], got[LINE];
            uint32_t runs, line;
            assert_false(cache_lookup(c, addr, &info));
            assert_int_equal(cache_lookup_sectors(c, addr), 0);
            assert_false(cache_peek(c, addr, 4, out, got));
            assert_false(cache_read_hit(c, addr, 1, CACHE_ALLOC_NORMAL, out, &runs));
            assert_int_equal(cache_lines_held(c, 1, &addr, &sectors, 0, &line), 0);
        }
        assert_int_equal(mprotect(map, map_bytes, PROT_READ | PROT_WRITE), 0);
        /* The look-ups changed nothing: a line there is a miss, then a hit. */
        cache_result r;
        uint32_t v;
        cache_hints h = {0};
        uint64_t addr = BASE + (uint64_t)first_set * LINE;
        assert_int_equal(cache_read(c, addr, 4, &v, &h, &r), MEM_OK);
        assert_int_equal(r.sector_misses, 1);
        assert_int_equal(cache_read(c, addr, 4, &v, &h, &r), MEM_OK);
        assert_int_equal(r.sector_hits, 1);
        assert_int_equal(c->slots_used, 5);
        cache_destroy(f.c);
        munmap(map, map_bytes);
        dram_destroy(f.d);
        diag_list_fini(&f.dl);
    }
}

/* Filling one line in each of 1,024 sets that never held one faults each page of their blocks
 * in once: minor faults stay near the pages written (blocks, data, byte masks, DRAM), where
 * reading each block before writing it took a second fault for every page of blocks. */
static void test_fill_faults_blocks_once(void **state)
{
    (void)state;
    enum { FILL_SETS = 1024 };
    fixture f;
    uint8_t *map;
    size_t map_bytes, page = (size_t)sysconf(_SC_PAGESIZE);
    cache *c = create_mapped(&f, FILL_SETS, 16, &map, &map_bytes);
    for (uint64_t set = 0; set < FILL_SETS; set++) /* DRAM's pages in first */
        assert_int_equal(dram_fill_pattern(f.d, BASE + set * LINE, 4, 1), MEM_OK);
    struct rusage before, after;
    assert_int_equal(getrusage(RUSAGE_SELF, &before), 0);
    for (uint64_t set = 0; set < FILL_SETS; set++)
        assert_int_equal(read_word(&f, BASE + set * LINE), 0x01010101u);
    assert_int_equal(getrusage(RUSAGE_SELF, &after), 0);
    long block_pages = (long)(FILL_SETS * (GROUP_RECORD_BYTES + GROUP_LINES) / page); /* + prints */
    long written = block_pages + (long)(FILL_SETS * (LINE + 32) / page) + 4;
    long faults = after.ru_minflt - before.ru_minflt;
    /* Slack for what else the process faults in meanwhile (a sanitizer's shadow pages). */
    assert_true(faults >= block_pages);
    assert_true(faults <= written + block_pages / 2);
    assert_int_equal(c->slots_used, FILL_SETS);
    cache_destroy(f.c);
    munmap(map, map_bytes);
    dram_destroy(f.d);
    diag_list_fini(&f.dl);
}

/* A store (cache_write_line_bits) of the line at addr: the bytes of `mask` (LINE long; NULL:
 * every byte) from `data`. */
static void store_part(cache *c, uint64_t addr, const uint8_t *data, const uint8_t *mask)
{
    uint64_t bits[2] = {0, 0};
    for (uint32_t b = 0; b < LINE; b++)
        bits[b / 64] |= (uint64_t)(!mask || mask[b] != 0) << (b % 64);
    cache_hints h = {0};
    cache_result r;
    assert_int_equal(cache_write_line_bits(c, addr, data, mask, bits, &h, &r), MEM_OK);
}

/* Partial stores into lines that take a new data slot (whose zeros the store writes over
 * before it blends, cache_write.c) leave the bytes not stored zero and give the same stored bytes,
 * valid and dirty bits as the same stores into a slot reused after an eviction (whose old bytes
 * they keep). The masks mix a lone aligned 4-byte run with other
 * bytes of its 16-byte chunk, runs across chunks, and single bytes, with mask bytes 1 and 0x80;
 * each through the SSE2 merge and, where the host has AVX2, the AVX2 one (cache.host_avx2). */
static void test_part_store_fresh_slot(void **state)
{
    (void)state;
    enum { MASKS = 4 };
    static const uint8_t runs[MASKS][4][2] = {
        {{0, 4}, {5, 3}, {64, 4}, {70, 1}},   /* a 4-byte run, then bytes of its chunk */
        {{12, 8}, {40, 24}, {100, 4}, {127, 1}},
        {{4, 4}, {16, 4}, {33, 1}, {96, 32}}, /* runs alone, a byte, a whole sector */
        {{1, 1}, {3, 1}, {8, 4}, {13, 2}},
    };
    for (int m = 0; m < 2 * MASKS; m++) {
        int avx2 = m / MASKS;
        if (avx2 && !cpu_has_avx2())
            break;
        uint8_t data[LINE], mask[LINE], old[LINE];
        memset(mask, 0, sizeof mask);
        for (uint32_t b = 0; b < LINE; b++) {
            data[b] = (uint8_t)(0x40 + b + 7 * (m % MASKS));
            old[b] = (uint8_t)(0xA0 ^ b);
        }
        for (int k = 0; k < 4; k++)
            memset(mask + runs[m % MASKS][k][0], k & 1 ? 0x80 : 1, runs[m % MASKS][k][1]);
        fixture fresh, reused;
        setup(&fresh, 0);
        setup(&reused, 0);
        fresh.c->host_avx2 = reused.c->host_avx2 = avx2;
        /* reused: every way of set 0 filled with `old`, then the store evicts one */
        for (uint32_t k = 0; k < WAYS; k++) {
            store_part(reused.c, BASE + k * SET_STRIDE, old, NULL);
        }
        uint64_t addr = BASE + WAYS * SET_STRIDE;
        uint32_t slots = reused.c->slots_used;
        store_part(reused.c, addr, data, mask);
        assert_int_equal(reused.c->slots_used, slots); /* the evicted line's slot */
        store_part(fresh.c, addr, data, mask);
        assert_int_equal(fresh.c->slots_used, 1);
        uint32_t lf = line_of(fresh.c, addr), lr = line_of(reused.c, addr);
        const uint8_t *df = line_data(fresh.c, lf), *dr = line_data(reused.c, lr);
        for (uint32_t b = 0; b < LINE; b++) {
            assert_int_equal(df[b], mask[b] ? data[b] : 0);
            assert_int_equal(dr[b], mask[b] ? data[b] : old[b]);
        }
        assert_memory_equal(valid_bits(fresh.c, lf), valid_bits(reused.c, lr),
                            2 * fresh.c->bitmap_words * sizeof(uint64_t));
        assert_int_equal(LINE_FIELD(fresh.c, lf, valid_sectors),
                         LINE_FIELD(reused.c, lr, valid_sectors));
        assert_int_equal(LINE_FIELD(fresh.c, lf, dirty_sectors),
                         LINE_FIELD(reused.c, lr, dirty_sectors));
        uint8_t out[LINE], got[LINE];
        memset(got, 0, sizeof got);
        assert_true(cache_peek(fresh.c, addr, LINE, out, got));
        for (uint32_t b = 0; b < LINE; b++) {
            assert_int_equal(got[b] != 0, mask[b] != 0);
            if (mask[b])
                assert_int_equal(out[b], data[b]);
        }
        teardown(&fresh);
        teardown(&reused);
    }
}

/* Partial stores into 1,024 lines of new data slots fault each page of their data once: the
 * store writes a new slot before it blends into it (a first read would map the zero page,
 * faulted again by the write: 32 more faults here). */
static void test_part_store_faults_data_once(void **state)
{
    (void)state;
    enum { FILL_SETS = 1024 };
    fixture f;
    uint8_t *map;
    size_t map_bytes, page = (size_t)sysconf(_SC_PAGESIZE);
    cache *c = create_mapped(&f, FILL_SETS, 16, &map, &map_bytes);
    uint8_t data[LINE], mask[LINE];
    memset(mask, 0, sizeof mask);
    for (uint32_t b = 0; b < LINE; b++) data[b] = (uint8_t)b;
    memset(mask + 17, 1, 6); /* one chunk's bytes, not a lone 4-byte run */
    struct rusage before, after;
    assert_int_equal(getrusage(RUSAGE_SELF, &before), 0);
    for (uint64_t set = 0; set < FILL_SETS; set++)
        store_part(c, BASE + set * LINE, data, mask);
    assert_int_equal(getrusage(RUSAGE_SELF, &after), 0);
    long data_pages = (long)(FILL_SETS * LINE / page);
    long written = (long)(FILL_SETS * (GROUP_RECORD_BYTES + GROUP_LINES) / page) + data_pages +
                   (long)(FILL_SETS * 32 / page) + 4;
    long faults = after.ru_minflt - before.ru_minflt;
    assert_true(faults >= data_pages);
    assert_true(faults <= written + data_pages / 2);
    assert_int_equal(c->slots_used, FILL_SETS);
    assert_int_equal(line_data(c, line_of(c, BASE + 5 * LINE))[17], 17);
    cache_destroy(f.c);
    munmap(map, map_bytes);
    dram_destroy(f.d);
    diag_list_fini(&f.dl);
}

/* A cache lent two blocks, the arrays reached by set (line records, tag prints) from
 * index_storage and the rest from storage of cache_storage_bytes - cache_index_storage_bytes
 * (mem_hier.c lends per-SM caches these from a mapping of 2 MiB pages and one of 4 KiB pages):
 * each array lies in its block, and fills and reads land as in a cache that allocates its own. */
static void test_index_storage_lent(void **state)
{
    (void)state;
    fixture f, own;
    memset(&f, 0, sizeof f);
    diag_list_init(&f.dl);
    assert_int_equal(dram_create(NULL, &f.dl, &f.d), MEM_OK);
    cache_config config;
    cache_config_default(&config, (uint64_t)LINE * SETS * WAYS, WAYS);
    size_t all = cache_storage_bytes(&config), index = cache_index_storage_bytes(&config);
    assert_true(index > 0 && index < all && index % 64 == 0);
    uint8_t *index_block = calloc(1, index), *rest = calloc(1, all - index);
    assert_non_null(index_block);
    assert_non_null(rest);
    config.index_storage = index_block;
    config.index_storage_bytes = index;
    config.storage = rest;
    config.storage_bytes = all - index;
    cache_next_level next = cache_next_level_dram(f.d);
    assert_int_equal(cache_create(&config, &next, &f.dl, &f.c), MEM_OK);
    /* the line records of every slot and one print byte a slot are in the index part */
    assert_true(index >= (size_t)f.c->slot_count * (sizeof(line_meta) + 1));
    assert_ptr_equal((uint8_t *)f.c->meta, index_block);
    assert_true(f.c->prints > index_block &&
                f.c->prints + f.c->slot_count <= index_block + index);
    uint8_t *const inside_rest[] = {(uint8_t *)f.c->byte_masks, f.c->data,
                                    (uint8_t *)f.c->last_prev, (uint8_t *)f.c->last_next,
                                    f.c->scratch};
    for (size_t i = 0; i < sizeof inside_rest / sizeof inside_rest[0]; i++)
        assert_true(inside_rest[i] >= rest && inside_rest[i] < rest + (all - index));
    setup(&own, 0);
    const uint64_t addrs[3] = {BASE + 5 * LINE, BASE + SET_STRIDE + 5 * LINE, BASE + 2 * LINE};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dram_fill_pattern(f.d, addrs[i], LINE, (uint8_t)(0x40 + i)), MEM_OK);
        assert_int_equal(dram_fill_pattern(own.d, addrs[i], LINE, (uint8_t)(0x40 + i)), MEM_OK);
    }
    for (int i = 0; i < 3; i++) {
        assert_int_equal(read_word(&f, addrs[i]), 0x01010101u * (uint32_t)(0x40 + i));
        assert_int_equal(read_word(&own, addrs[i]), 0x01010101u * (uint32_t)(0x40 + i));
        assert_int_equal(line_of(f.c, addrs[i]), line_of(own.c, addrs[i]));
    }
    assert_int_equal(f.c->slots_used, 3);
    assert_memory_equal(f.c->data, own.c->data, (size_t)3 * LINE);
    assert_memory_equal(f.c->meta, own.c->meta, (size_t)f.c->slot_count * sizeof(line_meta));
    teardown(&own);
    cache_destroy(f.c);
    free(index_block);
    free(rest);
    dram_destroy(f.d);
    diag_list_fini(&f.dl);
}

/* A cache whose storage is 4 MiB or more maps it at a 2 MiB boundary (base/pages.h), so that
 * its line records can take 2 MiB pages from their first byte; it works as a small one does. */
static void test_large_storage_aligned(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    diag_list_init(&f.dl);
    assert_int_equal(dram_create(NULL, &f.dl, &f.d), MEM_OK);
    cache_config config;
    cache_config_default(&config, (uint64_t)8 << 20, 16);
    assert_true(cache_storage_bytes(&config) >= (size_t)4 << 20);
    cache_next_level next = cache_next_level_dram(f.d);
    assert_int_equal(cache_create(&config, &next, &f.dl, &f.c), MEM_OK);
    assert_int_equal(f.c->storage_mapped, 1);
    assert_int_equal((uintptr_t)f.c->storage % ((uintptr_t)2 << 20), 0);
    assert_ptr_equal((uint8_t *)f.c->meta, f.c->storage);
    assert_int_equal(dram_fill_pattern(f.d, BASE + 77 * LINE, LINE, 0x5a), MEM_OK);
    assert_int_equal(read_word(&f, BASE + 77 * LINE), 0x5a5a5a5au);
    assert_int_equal(f.c->data[0], 0x5a);
    teardown(&f);
}

/* Two caches lent one data block (cache_config.data_storage, stride 2) interleave their data
 * slots in pairs: cache i's fills 2j and 2j + 1 take slots 2 (2j + i) + 1 and + 2 of the block
 * (numbers from 1), their bytes and byte masks there, so that caches filling at similar rates
 * use a dense prefix (mem_hier.c lends the per-SM L1s one on 2 MiB pages) and a pair's byte
 * masks fill one host line of their own (cache_slot_number); each cache counts its own slots,
 * and reads return each cache's lines. */
static void test_data_storage_interleaved(void **state)
{
    (void)state;
    dram *d;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(dram_create(NULL, &dl, &d), MEM_OK);
    cache_config config;
    cache_config_default(&config, (uint64_t)LINE * SETS * WAYS, WAYS);
    size_t index = cache_index_storage_bytes(&config), both = cache_data_storage_bytes(&config, 2);
    size_t rest = cache_storage_bytes(&config) - index - cache_data_storage_bytes(&config, 1);
    assert_true(both >= (size_t)2 * LINE * SETS * WAYS);
    uint8_t *index_block = calloc(2, index), *data_block = calloc(1, both),
            *rest_block = calloc(2, rest);
    assert_true(index_block && data_block && rest_block);
    cache *c[2];
    cache_next_level next = cache_next_level_dram(d);
    for (uint32_t i = 0; i < 2; i++) {
        config.index_storage = index_block + i * index;
        config.index_storage_bytes = index;
        config.data_storage = data_block;
        config.data_storage_bytes = both;
        config.data_stride = 2;
        config.data_index = i;
        config.storage = rest_block + i * rest;
        config.storage_bytes = rest;
        assert_int_equal(cache_create(&config, &next, &dl, &c[i]), MEM_OK);
        assert_ptr_equal(c[i]->data, c[0]->data);
        assert_ptr_equal(c[i]->byte_masks, (uint64_t *)data_block);
        assert_true(c[i]->last_prev >= (uint32_t *)(rest_block + i * rest) &&
                    (uint8_t *)c[i]->scratch < rest_block + (i + 1) * rest);
    }
    const uint64_t addrs[3] = {BASE + 5 * LINE, BASE + 2 * LINE, BASE + SET_STRIDE + 5 * LINE};
    for (int j = 0; j < 3; j++)
        assert_int_equal(dram_fill_pattern(d, addrs[j], LINE, (uint8_t)(0x60 + j)), MEM_OK);
    /* cache 0 fills lines 0 and 1 (its first pair), cache 1 fills line 2 (the first of its
     * pair), then cache 0 line 2 (the first of its second pair) */
    const int who[4] = {0, 0, 1, 0}, what[4] = {0, 1, 2, 2}, slot[4] = {1, 2, 3, 5};
    for (int f = 0; f < 4; f++) {
        uint32_t v = 0;
        cache_hints h = {0};
        cache_result r;
        assert_int_equal(cache_read(c[who[f]], addrs[what[f]], 4, &v, &h, &r), MEM_OK);
        assert_int_equal(v, 0x01010101u * (uint32_t)(0x60 + what[f]));
        uint32_t line = line_of(c[who[f]], addrs[what[f]]);
        assert_int_equal(LINE_FIELD(c[who[f]], line, data_slots), slot[f]);
        assert_int_equal(c[0]->data[(size_t)(slot[f] - 1) * LINE], 0x60 + what[f]);
        assert_int_equal(cache_slots_now(c[who[f]]), slot[f]);
    }
    assert_int_equal(c[0]->slots_used, 3);
    assert_int_equal(c[1]->slots_used, 1);
    /* slot 4 (cache 1's second) was never handed out: its bytes are still zeros */
    for (int b = 0; b < LINE; b++)
        assert_int_equal(c[0]->data[3 * LINE + b], 0);
    for (int i = 0; i < 2; i++) cache_destroy(c[i]);
    free(index_block);
    free(data_block);
    free(rest_block);
    dram_destroy(d);
    diag_list_fini(&dl);
}

/* A tags-only cache (the constant and instruction caches): the same hits, misses, evictions
 * and residency as the same cache with data, in storage that holds one data slot; every line
 * shares slot 1, its first probe reads no line record (held_memo starts at NO_INDEX), and a
 * sector smaller than a line is refused with MEM-CACHE-009. */
static void test_tags_only(void **state)
{
    (void)state;
    diag_list dl;
    diag_list_init(&dl);
    dram *d;
    assert_int_equal(dram_create(NULL, &dl, &d), MEM_OK);
    cache_next_level next = cache_next_level_dram(d);
    cache_config k;
    cache_config_default(&k, (uint64_t)LINE * SETS * WAYS, WAYS);
    k.sector_bytes = LINE;
    k.fill_bytes = LINE;
    cache *with_data, *tags;
    assert_int_equal(cache_create(&k, &next, &dl, &with_data), MEM_OK);
    k.tags_only = true;
    assert_true(cache_storage_bytes(&k) < cache_storage_bytes(&with_data->config));
    assert_int_equal(cache_create(&k, &next, &dl, &tags), MEM_OK);
    for (uint32_t i = 0; i < HELD_MEMO_SLOTS; i++)
        assert_int_equal(tags->held_memo[i], NO_INDEX);
    assert_false(cache_probe_hit(tags, BASE, 1));
    /* 3 passes over 6 lines a set in 8 sets of 4 ways: fills, evictions, hits and misses */
    for (int pass = 0; pass < 3; pass++)
        for (uint64_t a = 0; a < 6 * SET_STRIDE; a += LINE + (pass ? 0 : SET_STRIDE)) {
            cache_result r1, r2;
            assert_int_equal(cache_read(with_data, BASE + a, 1, NULL, NULL, &r1), MEM_OK);
            assert_int_equal(cache_read(tags, BASE + a, 1, NULL, NULL, &r2), MEM_OK);
            assert_memory_equal(&r1, &r2, sizeof r1);
            assert_int_equal(cache_probe_hit(tags, BASE + a, 1), cache_probe_hit(with_data,
                                                                                BASE + a, 1));
        }
    assert_memory_equal(cache_get_stats(tags), cache_get_stats(with_data), sizeof(cache_stats));
    assert_true(cache_get_stats(tags)->evictions > 0);
    assert_int_equal(tags->slots_used, 0);
    for (uint32_t line = 0; line < tags->slot_count; line++) {
        uint32_t slot = LINE_FIELD(tags, line, data_slots);
        assert_int_equal(LINE_FIELD(tags, line, tags), LINE_FIELD(with_data, line, tags));
        assert_true(slot == 0 || slot == 1);
    }
    cache_destroy(tags);
    k.sector_bytes = 32;
    assert_int_equal(cache_create(&k, &next, &dl, &tags), MEM_ERR_CONFIG);
    assert_non_null(diag_find(&dl, "MEM-CACHE-009"));
    cache_destroy(with_data);
    dram_destroy(d);
    diag_list_fini(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slots_in_fill_order),
        cmocka_unit_test(test_slot_reused_after_eviction),
        cmocka_unit_test(test_unused_blocks_not_read),
        cmocka_unit_test(test_fill_faults_blocks_once),
        cmocka_unit_test(test_part_store_fresh_slot),
        cmocka_unit_test(test_part_store_faults_data_once),
        cmocka_unit_test(test_index_storage_lent),
        cmocka_unit_test(test_large_storage_aligned),
        cmocka_unit_test(test_data_storage_interleaved),
        cmocka_unit_test(test_tags_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
