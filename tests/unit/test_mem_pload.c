/* Unit tests of the parked loads run by SMs (src/mem/memsys_pload.c, the read entries of
 * src/mem/memsys_l2log.c, cache.c's cache_set_read_deferral), held to the serial order on a twin
 * memory system built the same way: twin 0 makes a round's loads at once, SM by SM in the
 * serial order; twin 1 runs them between memsys_ploads_begin and _end (the SMs split between
 * two host threads, each taking its SMs in increasing order, so that an SM may wait for the
 * ones before it), then applies its SMs' logs in SM order, by three parts applied in reverse
 * order (an L2 of 4 slices, and one without slices) or one after the other (every third round).
 * Between rounds both make the same stores, written back in the L1 (so that the loads evict
 * dirty victims whose lines the same and later SMs read again in the round) and written
 * through, partial lines among them. Every load's bytes must match at once; after every round
 * every counter (per instruction and unattributed), the statistics of the L2 and the backing
 * store, and the state of every line of the buffer in the L2 and in every L1 (present,
 * sectors, dirty, class, set and way); at the end, the bytes in DRAM. */
#include <pthread.h>
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

enum { SMS = L2TWIN_SMS, PARTS = L2TWIN_PARTS, INSNS = 4, BUF_BYTES = 128 * 1024, LINE = 128, LOADS = 24 };

typedef l2part_twin twin;

/* One load of a round: its SM, instruction, lanes, element size and addresses, and the bytes
 * each twin's load returned. */
typedef struct load {
    uint32_t sm, insn, active, elem;
    uint64_t addr[MEM_LANES];
    uint8_t got[2][MEM_LANES][8];
} load;

typedef struct fixture {
    diag_list dl;
    twin t[2];
    uint64_t buf;
    uint64_t seed;
    load loads[LOADS]; /* in the serial order: by SM */
    uint32_t by_parts; /* rounds whose logs the parts applied */
} fixture;

static uint32_t next_random(fixture *f)
{
    return l2part_next_random(&f->seed);
}

static int setup_slices(void **state, uint32_t slices)
{
    fixture *f = calloc(1, sizeof *f);
    diag_list_init(&f->dl);
    l2part_twins_create(f->t, &f->dl, slices, INSNS, BUF_BYTES, &f->buf);
    for (int k = 0; k < 2; k++) assert_int_equal(memsys_ploads_prepare(f->t[k].ms, SMS), 0);
    f->seed = 2026;
    *state = f;
    return 0;
}

static int setup(void **state) { return setup_slices(state, 4); }
static int setup_plain(void **state) { return setup_slices(state, 1); }

static int teardown(void **state)
{
    fixture *f = *state;
    for (int k = 0; k < 2; k++) memsys_ploads_unprepare(f->t[k].ms);
    l2part_twins_destroy(f->t);
    diag_list_fini(&f->dl);
    free(f);
    return 0;
}

/* The same random warp store by a random SM on both twins, made at once: written back in the
 * L1 (kept dirty there) or through, with random lanes, strides and element sizes, within the
 * buffer's first `span_lines` lines. */
static void store_both(fixture *f, uint32_t span_lines)
{
    static const uint32_t strides[4] = {4, 8, 16, 136};
    uint32_t sm = next_random(f) % SMS;
    uint32_t elem = 4u << (next_random(f) % 2), stride = strides[next_random(f) % 4];
    if (stride < elem)
        stride = elem;
    uint32_t active = next_random(f) | next_random(f) << 16;
    uint32_t insn = next_random(f) % INSNS, mode = next_random(f) % 3;
    uint64_t span = (uint64_t)stride * (MEM_LANES - 1) + elem;
    uint64_t base = f->buf + (next_random(f) % (span_lines - span / LINE - 1)) * LINE +
                    (stride == 136 ? 0 : (next_random(f) % 4) * elem);
    uint32_t value = next_random(f);
    for (int k = 0; k < 2; k++) {
        mem_access a;
        ir_mem_attrs attrs = {.write_mode = mode == 2 ? IR_WRITE_THROUGH : IR_WRITE_BACK};
        mem_fault fault;
        memsys_test_access(&a, &attrs, MEM_OP_STORE, IR_SPACE_GLOBAL, elem, 1, active, insn);
        memsys_test_strided(&a, base, stride);
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint64_t v = value + l;
            memcpy(a.data[l], &v, elem);
        }
        mem_ctx ctx = {.sm = sm};
        assert_int_equal(memsys_access(f->t[k].ms, &ctx, &a, &fault), 0);
    }
}

/* A round's loads, sorted by SM (the serial order): random lanes, strides and element sizes,
 * mostly within the first `hot_lines` lines (which the stores and other SMs touch), else
 * anywhere in the buffer (which evicts). */
static void plan_loads(fixture *f, uint32_t hot_lines)
{
    static const uint32_t strides[4] = {4, 8, 128, 136};
    for (uint32_t i = 0; i < LOADS; i++) {
        load *ld = &f->loads[i];
        ld->sm = i * SMS / LOADS;
        ld->insn = next_random(f) % INSNS;
        ld->elem = 4u << (next_random(f) % 2);
        ld->active = next_random(f) % 4 ? UINT32_MAX : (next_random(f) | 1u);
        uint32_t stride = strides[next_random(f) % 4];
        if (stride < ld->elem)
            stride = ld->elem;
        uint64_t span = (uint64_t)stride * (MEM_LANES - 1) + ld->elem;
        uint32_t lines = next_random(f) % 3 ? hot_lines : BUF_BYTES / LINE;
        uint64_t base = f->buf + (next_random(f) % (lines - span / LINE - 1)) * LINE;
        for (uint32_t l = 0; l < MEM_LANES; l++) ld->addr[l] = base + l * stride;
    }
}

/* Load i on twin k through ms (a view or the memory system), its bytes kept. */
static int make_load(fixture *f, int k, memsys *ms, uint32_t i)
{
    load *ld = &f->loads[i];
    mem_access a;
    ir_mem_attrs attrs = {0};
    mem_fault fault;
    memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, ld->elem, 1, ld->active,
                       ld->insn);
    memcpy(a.addr, ld->addr, sizeof a.addr);
    mem_ctx ctx = {.sm = ld->sm};
    int rc = memsys_access(ms, &ctx, &a, &fault);
    for (uint32_t l = 0; l < MEM_LANES; l++) memcpy(ld->got[k][l], a.data[l], ld->elem);
    return rc;
}

typedef struct thread_arg {
    fixture *f;
    uint32_t first_sm; /* this thread's SMs: first_sm, first_sm + 2 */
    int failed;
} thread_arg;

/* Twin 1's loads of SMs first_sm and first_sm + 2 on this thread, through its view. */
static void *run_sms(void *p)
{
    thread_arg *ta = p;
    twin *t = &ta->f->t[1];
    memsys *view = memsys_tally_view(t->tally[ta->first_sm]);
    for (uint32_t sm = ta->first_sm; sm < SMS; sm += 2) {
        for (uint32_t i = 0; i < LOADS; i++)
            if (ta->f->loads[i].sm == sm && make_load(ta->f, 1, view, i) != 0)
                ta->failed = 1;
        memsys_ploads_sm_done(t->ms, sm);
    }
    return NULL;
}

/* The round's loads: twin 0 at once in the serial order, twin 1 by SMs on two threads, its
 * logs applied by parts when `by_parts` and memsys_store_logs_begin takes them, else one after
 * the other. */
static void loads_both(fixture *f, int by_parts)
{
    for (uint32_t i = 0; i < LOADS; i++)
        assert_int_equal(make_load(f, 0, memsys_tally_view(f->t[0].tally[0]), i), 0);
    twin *t = &f->t[1];
    memsys_ploads_begin(t->ms, t->log);
    thread_arg ta[2] = {{f, 0, 0}, {f, 1, 0}};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, run_sms, &ta[1]), 0);
    run_sms(&ta[0]);
    pthread_join(th, NULL);
    memsys_ploads_end(t->ms);
    assert_false(ta[0].failed || ta[1].failed);
    for (uint32_t i = 0; i < LOADS; i++)
        for (uint32_t l = 0; l < MEM_LANES; l++)
            if ((f->loads[i].active >> l) & 1)
                assert_memory_equal(f->loads[i].got[0][l], f->loads[i].got[1][l],
                                    f->loads[i].elem);
    if (by_parts && memsys_store_logs_begin(t->ms, t->part, PARTS, t->log, SMS)) {
        f->by_parts++;
        for (int p = PARTS - 1; p >= 0; p--)
            memsys_store_logs_apply_part(t->part[p], t->log, SMS, (uint32_t)p, PARTS, NULL);
        uint32_t failed = 7;
        assert_int_equal(memsys_store_logs_finish(t->ms, t->part, PARTS, t->log, SMS, &failed),
                         0);
    } else {
        for (int s = 0; s < SMS; s++) assert_int_equal(memsys_store_log_apply(t->ms, t->log[s]), 0);
    }
}

static void assert_lines_equal(cache *a, cache *b, uint64_t at)
{
    cache_line_info ia, ib;
    assert_int_equal(cache_lookup(a, at, &ia), cache_lookup(b, at, &ib));
    if (!ia.present)
        return;
    assert_int_equal(ia.valid_sectors, ib.valid_sectors);
    assert_int_equal(ia.partial_sectors, ib.partial_sectors);
    assert_int_equal(ia.dirty_sectors, ib.dirty_sectors);
    assert_int_equal(ia.priority, ib.priority);
    assert_int_equal(ia.set, ib.set);
    assert_int_equal(ia.way, ib.way);
}

/* Every counter, the caches' and the backing store's statistics and every line of the buffer in
 * the L2 and the L1s agree. */
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
    for (int s = 0; s < SMS; s++)
        assert_memory_equal(cache_get_stats(a->l1[s]), cache_get_stats(b->l1[s]),
                            sizeof(cache_stats));
    for (uint64_t at = f->buf; at < f->buf + BUF_BYTES; at += LINE) {
        assert_lines_equal(a->l2, b->l2, at);
        for (int s = 0; s < SMS; s++) assert_lines_equal(a->l1[s], b->l1[s], at);
    }
}

/* Rounds of stores, then loads by SMs; the L1s and the L2 end far past full with dirty
 * evictions; the loads take bytes other SMs wrote back in the same round; then the bytes in
 * DRAM agree. */
static void test_by_sms_same_as_serial(void **state)
{
    fixture *f = *state;
    const uint32_t hot = 48; /* lines: 6 KiB, more than an L1 */
    for (int round = 0; round < 30; round++) {
        for (int i = 0; i < 40; i++) store_both(f, hot);
        plan_loads(f, hot);
        loads_both(f, round % 3 != 2);
        assert_twins_equal(f);
    }
    uint64_t dirty = 0;
    for (int s = 0; s < SMS; s++) dirty += cache_get_stats(f->t[1].ms->l1[s])->dirty_evictions;
    assert_true(dirty > 100);
    assert_true(cache_get_stats(f->t[1].ms->l2)->read_sector_misses > 100);
    assert_true(f->by_parts >= 10);
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

/* SM 0's loads of `lines` lines from line `first` on, 32 lines a warp load, one after the
 * other by SMs, with L2 eviction class `l2_evict`; returns whether memsys_store_logs_begin
 * takes the logs, which are then applied one after the other. */
static int begin_after_loads(fixture *f, uint32_t first, uint32_t lines, uint8_t l2_evict)
{
    twin *t = &f->t[1];
    memsys_ploads_begin(t->ms, t->log);
    for (uint32_t at = first; at < first + lines; at += MEM_LANES) {
        mem_access a;
        ir_mem_attrs attrs = {.l2_evict = l2_evict};
        mem_fault fault;
        memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, UINT32_MAX, 0);
        memsys_test_strided(&a, f->buf + (uint64_t)at * LINE, LINE);
        mem_ctx ctx = {.sm = 0};
        assert_int_equal(memsys_access(memsys_tally_view(t->tally[0]), &ctx, &a, &fault), 0);
    }
    for (uint32_t sm = 0; sm < SMS; sm++) memsys_ploads_sm_done(t->ms, sm);
    memsys_ploads_end(t->ms);
    int taken = memsys_store_logs_begin(t->ms, t->part, PARTS, t->log, SMS);
    for (int s = 0; s < SMS; s++) assert_int_equal(memsys_store_log_apply(t->ms, t->log[s]), 0);
    return taken;
}

/* memsys_store_logs_begin: a logged read that grants evict-last couples the L2's sets (their
 * list), so the logs holding it go one after the other (noted as the read is logged, not found
 * by a walk of the entries); plain reads are taken, and the note goes with the logs. */
static void test_begin_declines_evict_last(void **state)
{
    fixture *f = *state;
    assert_true(MEMSYS_L2_PART_MIN_WRITES <= 3 * MEM_LANES);
    assert_int_equal(begin_after_loads(f, 0, 3 * MEM_LANES, IR_EVICT_NONE), 1);
    assert_int_equal(begin_after_loads(f, 3 * MEM_LANES, 3 * MEM_LANES, IR_EVICT_LAST), 0);
    /* the note went with the logs: the next logs (here none) are not declined for it */
    assert_int_equal(atomic_load(&f->t[1].ms->defer->coupled), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_by_sms_same_as_serial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_by_sms_same_as_serial, setup_plain, teardown),
        cmocka_unit_test_setup_teardown(test_begin_declines_evict_last, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
