/* What the twin tests of the L2's parts share (test_mem_l2log.c, test_mem_pload.c): two memory
 * systems built the same way on the small h100 geometry, each with three parts of the L2 (their
 * tallies and views) and a store log per SM, and a buffer holding the same initial bytes in
 * both. Include after cmocka.h and memsys_test.h. */
#ifndef GMS_TESTS_L2PART_TWINS_H
#define GMS_TESTS_L2PART_TWINS_H

#include <stdint.h>
#include <stdlib.h>

#include "mem/memsys_internal.h"
#include "mem/memsys_l2log.h"

enum { L2TWIN_SMS = 4, L2TWIN_PARTS = 3 };

typedef struct l2part_twin {
    memsys *ms;
    memsys_tally *tally[L2TWIN_PARTS]; /* each part's counts (the tests may lend them to SMs too) */
    memsys_l2_part *part[L2TWIN_PARTS];
    memsys_store_log *log[L2TWIN_SMS];
} l2part_twin;

/* Builds t[0] and t[1]: L2TWIN_SMS SMs, an L2 of `slices` slices (1: not sliced, so that the
 * parts take blocks of sets instead of slices), `insns` instructions counted, and a buffer of
 * `buf_bytes` (256-byte aligned; its address in *buf, the same in both) whose byte i is
 * i * 7 + 3. Diagnostics go to dl. Fails the test on any error. */
static inline void l2part_twins_create(l2part_twin t[2], diag_list *dl, uint32_t slices,
                                       uint32_t insns, uint32_t buf_bytes, uint64_t *buf)
{
    memsys_config cfg;
    memsys_test_small_h100(&cfg);
    cfg.sm_count = L2TWIN_SMS;
    cfg.l2.slices = slices;
    uint8_t *init = malloc(buf_bytes);
    assert_non_null(init);
    for (uint32_t i = 0; i < buf_bytes; i++) init[i] = (uint8_t)(i * 7 + 3);
    for (int k = 0; k < 2; k++) {
        l2part_twin *w = &t[k];
        w->ms = memsys_create(&cfg, dl);
        assert_non_null(w->ms);
        assert_int_equal(memsys_set_insn_count(w->ms, insns), 0);
        assert_int_equal(memsys_alloc(w->ms, buf_bytes, 256, buf), 0);
        assert_int_equal(memsys_host_write(w->ms, *buf, init, buf_bytes), 0);
        for (int p = 0; p < L2TWIN_PARTS; p++) {
            w->tally[p] = memsys_tally_create(w->ms);
            assert_non_null(w->tally[p]);
            w->part[p] = memsys_l2_part_create(w->ms, memsys_tally_view(w->tally[p]));
            assert_non_null(w->part[p]);
        }
        for (int s = 0; s < L2TWIN_SMS; s++)
            assert_non_null(w->log[s] = memsys_store_log_create(0));
    }
    free(init);
}

/* The next value of the tests' random sequence (a 64-bit linear congruential generator, the
 * high bits taken) from *seed, which it advances: the same traces on every host. */
static inline uint32_t l2part_next_random(uint64_t *seed)
{
    *seed = *seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (uint32_t)(*seed >> 33);
}

/* Frees what l2part_twins_create built, in both twins. */
static inline void l2part_twins_destroy(l2part_twin t[2])
{
    for (int k = 0; k < 2; k++) {
        l2part_twin *w = &t[k];
        for (int p = 0; p < L2TWIN_PARTS; p++) {
            memsys_l2_part_destroy(w->part[p]);
            memsys_tally_destroy(w->tally[p]);
        }
        for (int s = 0; s < L2TWIN_SMS; s++) memsys_store_log_destroy(w->log[s]);
        memsys_destroy(w->ms);
    }
}

#endif
