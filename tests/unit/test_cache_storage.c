/* Unit tests of the cache's storage (cache_setup.c): line data and byte masks live in data slots
 * handed out in the order lines are first filled, so the memory a run writes grows with the
 * lines it uses, not with how they spread over the sets (issue 13, first-touch memory). These
 * tests look inside the cache (cache_internal.h) because the layout is what they check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache_internal.h"
#include "mem/dram.h"

#define BASE UINT64_C(0x7f0000000000)
enum { LINE = 128, SETS = 8, WAYS = 4, SET_STRIDE = LINE * SETS };

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slots_in_fill_order),
        cmocka_unit_test(test_slot_reused_after_eviction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
