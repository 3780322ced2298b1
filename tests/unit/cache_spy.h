/* For the cache unit tests that build an L1 over an L2 over a DRAM store (test_cache_miss.c,
 * test_cache_below.c): the hierarchy and the spy between the L2 and DRAM that records every
 * DRAM call (read or write, address, bytes, whether a byte mask came with it), so that two
 * hierarchies driven through different entry points can be compared call by call. Include it
 * after cmocka.h (hier_build asserts). */
#ifndef GMS_TEST_CACHE_SPY_H
#define GMS_TEST_CACHE_SPY_H

#include <stdint.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/dram.h"

enum { SPY_MAX_CALLS = 256 }; /* calls recorded; later ones are only counted */

typedef struct dram_call {
    int is_write;
    uint64_t addr;
    uint32_t bytes;
    int masked;
} dram_call;

typedef struct hier {
    dram *d;
    dram_call calls[SPY_MAX_CALLS];
    int count;
    cache *l1, *l2;
    diag_list dl;
} hier;

static inline mem_status spy_read(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                  uint8_t *out)
{
    (void)request;
    hier *h = ctx;
    if (h->count < SPY_MAX_CALLS)
        h->calls[h->count] = (dram_call){0, addr, bytes, 0};
    h->count++;
    return dram_read(h->d, addr, bytes, out);
}

static inline mem_status spy_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                   const uint8_t *data, const uint8_t *mask)
{
    (void)request;
    hier *h = ctx;
    if (h->count < SPY_MAX_CALLS)
        h->calls[h->count] = (dram_call){1, addr, bytes, mask != NULL};
    h->count++;
    return dram_write(h->d, addr, bytes, data, mask);
}

/* Builds h: a DRAM store, an L2 of config c2 over it through the spy, an L1 of config c1 over
 * the L2 through the L2's next-level adapter. */
static inline void hier_build(hier *h, const cache_config *c1, const cache_config *c2)
{
    memset(h, 0, sizeof *h);
    diag_list_init(&h->dl);
    assert_int_equal(dram_create(NULL, &h->dl, &h->d), MEM_OK);
    cache_next_level to_dram = {h, spy_read, spy_write, false};
    assert_int_equal(cache_create(c2, &to_dram, &h->dl, &h->l2), MEM_OK);
    cache_next_level to_l2 = cache_next_level_cache(h->l2);
    assert_int_equal(cache_create(c1, &to_l2, &h->dl, &h->l1), MEM_OK);
}

static inline void teardown(hier *h)
{
    cache_destroy(h->l1);
    cache_destroy(h->l2);
    dram_destroy(h->d);
    diag_list_fini(&h->dl);
}

#endif
