/* For the twin tests that run the same accesses through two paths on two memory systems
 * (test_mem_global.c, test_served_skip.c): one line compared between the twins' caches. Include
 * it after cmocka.h (it asserts). */
#ifndef GMS_TEST_CACHE_TWINS_H
#define GMS_TEST_CACHE_TWINS_H

#include <stdint.h>

#include "mem/cache.h"

/* The 128-byte line at `at` is in the same state in caches a and b: presence, sectors, dirty
 * and partial sectors, priority, kind, set and way (cache_lookup), and the same valid bytes
 * holding the same values (cache_peek). */
static inline void assert_same_line(const cache *a, const cache *b, uint64_t at)
{
    cache_line_info x, y;
    assert_int_equal(cache_lookup(a, at, &x), cache_lookup(b, at, &y));
    assert_memory_equal(&x, &y, sizeof x);
    if (!x.present)
        return;
    uint8_t u[128], v[128], gu[128] = {0}, gv[128] = {0};
    cache_peek(a, at, 128, u, gu);
    cache_peek(b, at, 128, v, gv);
    assert_memory_equal(gu, gv, 128);
    for (int i = 0; i < 128; i++)
        if (gu[i])
            assert_int_equal(u[i], v[i]);
}

#endif
