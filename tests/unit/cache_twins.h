/* For the twin tests that run the same accesses through two paths on two memory systems
 * (test_mem_global.c, test_served_skip.c, test_cache_below.c): one line, and the whole memory
 * systems' counters and caches, compared between the twins. Include it after cmocka.h (it asserts). */
#ifndef GMS_TEST_CACHE_TWINS_H
#define GMS_TEST_CACHE_TWINS_H

#include <stdint.h>

#include "mem/cache.h"
#include "mem/memsys.h"
#include "mem/memsys_internal.h"

/* The 128-byte line at `at` is in the same state in caches a and b: presence, sectors, dirty
 * and partial sectors, priority, kind, set and way (cache_lookup), and the same valid bytes
 * holding the same values (cache_peek). */
static inline void assert_same_line(const cache *a, const cache *b, uint64_t at)
{
    cache_line_info x, y;
    assert_int_equal(cache_lookup(a, at, &x), cache_lookup(b, at, &y));
    assert_memory_equal(&x, &y, sizeof x);
    uint8_t u[128], v[128], gu[128] = {0}, gv[128] = {0};
    assert_int_equal(cache_peek(a, at, 128, u, gu), cache_peek(b, at, 128, v, gv));
    assert_memory_equal(gu, gv, 128);
    for (int i = 0; i < 128; i++)
        if (gu[i])
            assert_int_equal(u[i], v[i]);
}

/* The lines a test compares in one cache of both twins (its buffers' ranges): `fx` is the
 * test's own fixture. */
typedef void twin_lines_fn(const void *fx, const cache *a, const cache *b);

/* Twin memory systems a and b agree on the counters of their `insns` instructions and the
 * unattributed ones, on the statistics of the L1s of SMs 0 .. sms-1 and of the L2, and on the
 * lines `same_lines` compares in each of those caches. */
static inline void assert_same_memsys(const memsys *a, const memsys *b, uint32_t insns,
                                      uint32_t sms, twin_lines_fn *same_lines, const void *fx)
{
    assert_memory_equal(memsys_insn_counters(a), memsys_insn_counters(b),
                        insns * sizeof(mem_counters));
    assert_memory_equal(memsys_unattributed_counters(a), memsys_unattributed_counters(b),
                        sizeof(mem_counters));
    for (uint32_t sm = 0; sm < sms; sm++) {
        assert_memory_equal(cache_get_stats(a->l1[sm]), cache_get_stats(b->l1[sm]),
                            sizeof(cache_stats));
        same_lines(fx, a->l1[sm], b->l1[sm]);
    }
    assert_memory_equal(cache_get_stats(a->l2), cache_get_stats(b->l2), sizeof(cache_stats));
    same_lines(fx, a->l2, b->l2);
}

#endif
