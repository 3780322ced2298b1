/* Unit tests of the store logs applied by parts of the L2's sets (src/mem/memsys_l2log.c,
 * src/mem/cache_view.c), held to the serial path on a twin memory system built the same way:
 * twin 0 applies each SM's log in SM order with memsys_store_log_apply; twin 1 begins the logs
 * on three parts (an L2 of 4 slices, and one without slices), applies the parts one after the other in reverse order (each sees only its
 * sets, so the order of the parts must not matter) and finishes them. Both make the same
 * deferred stores (random lines of a buffer four times the small L2, random lanes, strides,
 * element sizes and instructions, from four SMs) and, between rounds, the same plain loads, so
 * that the L2 fills, evicts dirty lines to DRAM and ages its lines by the stamps the parts
 * gave. After every round both must agree on every counter (per instruction and
 * unattributed), the statistics of the L2 and the backing store, and the state of every line
 * of the buffer in the L2 (present, sectors, dirty, class, set and way); then, with the lines
 * made evict-last under a limit (which orders them by their stamps across sets), on which stay
 * so; at the end, on the bytes in DRAM. Also: when memsys_store_logs_begin declines (one part, few entries, a
 * persisting set-aside). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "mem/memsys_internal.h"
#include "mem/memsys_l2log.h"
#include "memsys_test.h"
#include "l2part_twins.h"

enum { SMS = L2TWIN_SMS, PARTS = L2TWIN_PARTS, INSNS = 4, BUF_BYTES = 256 * 1024, LINE = 128 };

typedef l2part_twin twin;

typedef struct fixture {
    diag_list dl;
    twin t[2];
    uint64_t buf;
    uint64_t seed;
} fixture;

static uint32_t next_random(fixture *f)
{
    return l2part_next_random(&f->seed);
}

/* The twins on the small h100 geometry with 4 SMs and an L2 of `slices` slices (1: not
 * sliced, so the parts take blocks of sets instead of slices). */
static int setup_slices(void **state, uint32_t slices)
{
    fixture *f = calloc(1, sizeof *f);
    diag_list_init(&f->dl);
    l2part_twins_create(f->t, &f->dl, slices, INSNS, BUF_BYTES, &f->buf);
    f->seed = 12345;
    *state = f;
    return 0;
}

static int setup(void **state) { return setup_slices(state, 4); }
static int setup_plain(void **state) { return setup_slices(state, 1); }

static int teardown(void **state)
{
    fixture *f = *state;
    l2part_twins_destroy(f->t);
    diag_list_fini(&f->dl);
    free(f);
    return 0;
}

/* The same random warp store by SM `sm` on both twins, deferred into the SM's log. */
static void store_both(fixture *f, uint32_t sm)
{
    static const uint32_t strides[4] = {4, 8, 16, 136};
    uint32_t elem = 4u << (next_random(f) % 2), stride = strides[next_random(f) % 4];
    if (stride < elem)
        stride = elem;
    uint32_t active = next_random(f) | next_random(f) << 16;
    uint32_t insn = next_random(f) % INSNS;
    uint64_t span = (uint64_t)stride * (MEM_LANES - 1) + elem;
    uint64_t base = f->buf + (next_random(f) % ((BUF_BYTES - span) / LINE)) * LINE +
                    (stride == 136 ? 0 : (next_random(f) % 4) * elem);
    uint32_t value = next_random(f);
    for (int k = 0; k < 2; k++) {
        twin *t = &f->t[k];
        mem_access a;
        ir_mem_attrs attrs = {0};
        mem_fault fault;
        memsys_test_access(&a, &attrs, MEM_OP_STORE, IR_SPACE_GLOBAL, elem, 1, active, insn);
        memsys_test_strided(&a, base, stride);
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint64_t v = value + l;
            memcpy(a.data[l], &v, elem);
        }
        mem_ctx ctx = {.sm = sm, .store_log = t->log[sm]};
        assert_int_equal(memsys_store_deferred(memsys_tally_view(t->tally[0]), &ctx, &a,
                                               &fault), 0);
    }
}

/* The same plain load of 32 consecutive words by SM `sm` on both twins: L2 reads between the
 * rounds, which stamp lines after the parts' stamps and evict by them. */
static void load_both(fixture *f, uint32_t sm)
{
    uint64_t base = f->buf + (next_random(f) % (BUF_BYTES / LINE)) * LINE;
    for (int k = 0; k < 2; k++) {
        mem_access a;
        ir_mem_attrs attrs = {0};
        mem_fault fault;
        memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, UINT32_MAX, 0);
        memsys_test_strided(&a, base, 4);
        mem_ctx ctx = {.sm = sm};
        assert_int_equal(memsys_access(f->t[k].ms, &ctx, &a, &fault), 0);
    }
}

/* Twin 0 applies the logs serially; twin 1 by parts (which must be taken). */
static void apply_both(fixture *f)
{
    twin *t0 = &f->t[0], *t1 = &f->t[1];
    for (int s = 0; s < SMS; s++) assert_int_equal(memsys_store_log_apply(t0->ms, t0->log[s]), 0);
    assert_int_equal(memsys_store_logs_begin(t1->ms, t1->part, PARTS, t1->log, SMS), 1);
    for (int p = PARTS - 1; p >= 0; p--)
        memsys_store_logs_apply_part(t1->part[p], t1->log, SMS, (uint32_t)p, PARTS, NULL);
    uint32_t failed = 7;
    assert_int_equal(memsys_store_logs_finish(t1->ms, t1->part, PARTS, t1->log, SMS, &failed), 0);
    assert_int_equal(failed, UINT32_MAX);
}

/* Every counter, the L2's and the backing store's statistics and every line of the buffer in
 * the L2 agree. */
static void assert_twins_equal(fixture *f)
{
    for (int k = 0; k < 2; k++)
        for (int p = 0; p < PARTS; p++) memsys_tally_merge(f->t[k].ms, f->t[k].tally[p]);
    memsys *a = f->t[0].ms, *b = f->t[1].ms;
    assert_memory_equal(memsys_insn_counters(a), memsys_insn_counters(b),
                        INSNS * sizeof(mem_counters));
    assert_memory_equal(memsys_unattributed_counters(a), memsys_unattributed_counters(b),
                        sizeof(mem_counters));
    assert_memory_equal(cache_get_stats(a->l2), cache_get_stats(b->l2), sizeof(cache_stats));
    assert_memory_equal(dram_get_stats(a->store), dram_get_stats(b->store), sizeof(dram_stats));
    for (uint64_t at = f->buf; at < f->buf + BUF_BYTES; at += LINE) {
        cache_line_info ia, ib;
        assert_int_equal(cache_lookup(a->l2, at, &ia), cache_lookup(b->l2, at, &ib));
        if (!ia.present)
            continue;
        assert_int_equal(ia.valid_sectors, ib.valid_sectors);
        assert_int_equal(ia.partial_sectors, ib.partial_sectors);
        assert_int_equal(ia.dirty_sectors, ib.dirty_sectors);
        assert_int_equal(ia.priority, ib.priority);
        assert_int_equal(ia.set, ib.set);
        assert_int_equal(ia.way, ib.way);
    }
}

/* Rounds of loads, then stores from every SM (about 60 a log), applied; the L2 ends far past
 * full, with dirty evictions; then the bytes in DRAM agree. */
static void test_parts_same_as_serial(void **state)
{
    fixture *f = *state;
    for (int round = 0; round < 12; round++) {
        for (int i = 0; i < 40; i++) load_both(f, next_random(f) % SMS);
        assert_twins_equal(f);
        for (int i = 0; i < 60 * SMS; i++) store_both(f, next_random(f) % SMS);
        apply_both(f);
        assert_twins_equal(f);
    }
    assert_true(cache_get_stats(f->t[1].ms->l2)->dirty_evictions > 100);
    /* The stamps compared across sets: granting LAST to the buffer's resident lines one after
     * the other under a limit of 8 lines keeps them on the LAST list in stamp order, and each
     * grant at the limit demotes the least recent, so the 8 lines left LAST are the 8 most
     * recently stored, whose stamps the parts gave. */
    for (int k = 0; k < 2; k++) {
        memsys_set_persisting_bytes(f->t[k].ms, 8 * LINE);
        for (uint64_t at = f->buf; at < f->buf + BUF_BYTES; at += LINE)
            if (cache_lookup_sectors(f->t[k].ms->l2, at))
                assert_int_equal(cache_set_line_priority(f->t[k].ms->l2, at, CACHE_PRIORITY_LAST),
                                 MEM_OK);
    }
    assert_twins_equal(f);
    assert_int_equal(memsys_finish(f->t[0].ms), 0);
    assert_int_equal(memsys_finish(f->t[1].ms), 0);
    assert_twins_equal(f);
    uint8_t *bytes[2];
    for (int k = 0; k < 2; k++) {
        bytes[k] = malloc(BUF_BYTES);
        assert_int_equal(memsys_host_read(f->t[k].ms, f->buf, bytes[k], BUF_BYTES), 0);
    }
    assert_memory_equal(bytes[0], bytes[1], BUF_BYTES);
    free(bytes[0]);
    free(bytes[1]);
}

/* memsys_store_logs_begin declines, changing nothing, with one part, with fewer than
 * MEMSYS_L2_PART_MIN_WRITES entries, and while the L2 has a persisting set-aside. */
static void test_begin_declines(void **state)
{
    fixture *f = *state;
    twin *t = &f->t[1];
    store_both(f, 0);
    assert_int_equal(memsys_store_logs_begin(t->ms, t->part, PARTS, t->log, SMS), 0);
    for (int i = 0; i < MEMSYS_L2_PART_MIN_WRITES; i++) store_both(f, 1);
    assert_int_equal(memsys_store_logs_begin(t->ms, t->part, 1, t->log, SMS), 0);
    memsys_set_persisting_bytes(t->ms, 4096);
    assert_int_equal(memsys_store_logs_begin(t->ms, t->part, PARTS, t->log, SMS), 0);
    memsys_set_persisting_bytes(t->ms, 0);
    assert_int_equal(memsys_store_logs_begin(t->ms, t->part, PARTS, t->log, SMS), 1);
    for (int p = 0; p < PARTS; p++)
        memsys_store_logs_apply_part(t->part[p], t->log, SMS, (uint32_t)p, PARTS, NULL);
    uint32_t failed;
    assert_int_equal(memsys_store_logs_finish(t->ms, t->part, PARTS, t->log, SMS, &failed), 0);
    for (int s = 0; s < SMS; s++) assert_int_equal(memsys_store_log_apply(f->t[0].ms, f->t[0].log[s]), 0);
    assert_twins_equal(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_parts_same_as_serial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_parts_same_as_serial, setup_plain, teardown),
        cmocka_unit_test_setup_teardown(test_begin_declines, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
