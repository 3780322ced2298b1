/* Unit tests of the set index and slice of a line (cache.c, set_index; docs/cache-model.md
 * "Set index"): the cache works them out with multiplies by reciprocals instead of divides
 * where they are exact (cache_setup.c, fast_reciprocal). These tests compare cache_set_of and
 * cache_slice_of with the rules computed by plain division, on geometries like the presets'
 * (an L1 of 120 sets, an L2 of 80 slices of 320 sets) and odd ones, for line addresses over
 * the whole 64-bit space. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mem/cache.h"
#include "mem/dram.h"

enum { LINE = 128, LINE_SHIFT = 7 };

/* The slice of line number n among `slices` (rotated by the fold of its group number). */
static uint32_t ref_slice(uint64_t n, uint32_t slices, int modulo)
{
    if (modulo)
        return (uint32_t)(n % slices);
    uint64_t group = n / slices;
    uint64_t fold = (group ^ (group >> 16) ^ (group >> 32) ^ (group >> 48)) & 0xFFFF;
    return (uint32_t)((n + fold) % slices);
}

/* The set of line number n in a modulo-indexed cache of `sets` sets in `slices` slices. */
static uint32_t ref_set(uint64_t n, uint32_t sets, uint32_t slices, int modulo)
{
    if (slices <= 1)
        return (uint32_t)(n % sets);
    uint32_t per_slice = sets / slices;
    return (uint32_t)((n / slices) % per_slice) * slices + ref_slice(n, slices, modulo);
}

/* A xorshift sequence of 64-bit values. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* Checks cache_set_of and cache_slice_of of a cache of `sets` sets (2 ways) in `slices` slices
 * against ref_set and ref_slice for line addresses at the edges of the address space, around
 * the global base and at random. */
static void check_geometry(uint32_t sets, uint32_t slices, int modulo)
{
    diag_list dl;
    diag_list_init(&dl);
    dram *d;
    assert_int_equal(dram_create(NULL, &dl, &d), MEM_OK);
    cache_config config;
    cache_config_default(&config, (uint64_t)LINE * 2 * sets, 2);
    config.slices = slices;
    config.slice_modulo = modulo;
    cache_next_level next = cache_next_level_dram(d);
    cache *c;
    assert_int_equal(cache_create(&config, &next, &dl, &c), MEM_OK);
    uint64_t state = UINT64_C(0x9E3779B97F4A7C15) ^ sets ^ ((uint64_t)slices << 32);
    for (int i = 0; i < 20000; i++) {
        uint64_t n;
        if (i < 1000)
            n = (uint64_t)i; /* the first lines */
        else if (i < 2000)
            n = (UINT64_MAX >> LINE_SHIFT) - (uint64_t)(i - 1000); /* the last lines */
        else if (i < 3000)
            n = (UINT64_C(0x7f0000000000) >> LINE_SHIFT) + (uint64_t)(i - 2000) * 37;
        else
            n = next_random(&state) >> LINE_SHIFT;
        uint64_t addr = n << LINE_SHIFT;
        assert_int_equal(cache_set_of(c, addr), ref_set(n, sets, slices, modulo));
        assert_int_equal(cache_slice_of(c, addr), slices > 1 ? ref_slice(n, slices, modulo) : 0);
        assert_int_equal(cache_slice_of_set(c, cache_set_of(c, addr)), cache_slice_of(c, addr));
        assert_int_equal(cache_prefetch_set(c, addr), cache_set_of(c, addr));
    }
    cache_destroy(c);
    dram_destroy(d);
    diag_list_fini(&dl);
}

static void test_plain_sets(void **state)
{
    (void)state;
    check_geometry(120, 0, 0); /* the h100 L1: 240 KiB, 16 ways */
    check_geometry(8, 0, 0);
    check_geometry(3, 0, 0);
    check_geometry(65537, 0, 0);
}

static void test_sliced_sets(void **state)
{
    (void)state;
    check_geometry(25600, 80, 0); /* the h100 L2: 80 slices of 320 sets */
    check_geometry(25600, 80, 1);
    check_geometry(96, 48, 0);
    check_geometry(7 * 5, 7, 0);
    check_geometry(4096, 2, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_sets),
        cmocka_unit_test(test_sliced_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
