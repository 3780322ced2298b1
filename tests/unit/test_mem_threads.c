/* Unit tests of what the memory system offers SMs simulated on several host threads
 * (docs/architecture.md, "SMs on several host threads"): tallies and their views,
 * memsys_load_if_local, memsys_store_deferred with its log. Exact counts on
 * the small h100 geometry of memsys_test.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "memsys_test.h"

enum { NINSNS = 4, LOAD_ID = 1, STORE_ID = 2 };

typedef struct fixture {
    memsys *ms;
    diag_list dl;
    uint64_t buf;
    mem_ctx ctx;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    diag_list_init(&f->dl);
    memsys_config cfg;
    memsys_test_small_h100(&cfg);
    f->ms = memsys_create(&cfg, &f->dl);
    assert_non_null(f->ms);
    assert_int_equal(memsys_set_insn_count(f->ms, NINSNS), 0);
    assert_int_equal(memsys_alloc(f->ms, 8192, 256, &f->buf), 0);
    uint32_t words[2048];
    for (uint32_t i = 0; i < 2048; i++) words[i] = i;
    assert_int_equal(memsys_host_write(f->ms, f->buf, words, sizeof words), 0);
    f->ctx.sm = 0;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    memsys_destroy(f->ms);
    diag_list_fini(&f->dl);
    free(f);
    return 0;
}

/* A warp load of 32 consecutive words at word `first` of the buffer. */
static mem_access *load_words(fixture *f, mem_access *a, ir_mem_attrs *attrs, uint32_t first)
{
    memsys_test_access(a, attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, UINT32_MAX, LOAD_ID);
    memsys_test_strided(a, f->buf + 4ull * first, 4);
    return a;
}

/* A load that misses the L1 is refused by memsys_load_if_local without a trace; once the line
 * is in the SM's L1 (a plain access filled it) the view performs it, with the data, and its
 * counts go to the tally, which memsys_tally_merge adds to the memory system's. */
static void test_load_if_local(void **state)
{
    fixture *f = *state;
    memsys_tally *t = memsys_tally_create(f->ms);
    assert_non_null(t);
    memsys *view = memsys_tally_view(t);
    mem_access a;
    ir_mem_attrs attrs = {0};
    mem_fault fault;
    assert_int_equal(memsys_load_if_local(view, &f->ctx, load_words(f, &a, &attrs, 0), &fault), 1);
    mem_counters total;
    memsys_total_counters(f->ms, &total);
    assert_int_equal(total.l1.requests, 0);
    assert_int_equal(total.l2.sector_accesses, 0);
    /* The plain access: a miss, 4 sectors from the L2. */
    assert_int_equal(memsys_access(f->ms, &f->ctx, load_words(f, &a, &attrs, 0), &fault), 0);
    memsys_total_counters(f->ms, &total);
    assert_int_equal(total.l1.sector_misses, 4);
    /* Now it hits: the view serves it; SM 1's L1 does not have the line. */
    assert_int_equal(memsys_load_if_local(view, &f->ctx, load_words(f, &a, &attrs, 0), &fault), 0);
    uint32_t v;
    memcpy(&v, a.data[31], 4);
    assert_int_equal(v, 31);
    mem_ctx other = {.sm = 1};
    assert_int_equal(memsys_load_if_local(view, &other, load_words(f, &a, &attrs, 0), &fault), 1);
    /* A load of two lines, one of them missing, is refused as a whole. */
    assert_int_equal(memsys_load_if_local(view, &f->ctx, load_words(f, &a, &attrs, 16), &fault),
                     1);
    memsys_total_counters(f->ms, &total);
    assert_int_equal(total.l1.requests, 1);
    assert_int_equal(total.l1.sector_hits, 0);
    memsys_tally_merge(f->ms, t);
    memsys_total_counters(f->ms, &total);
    assert_int_equal(total.l1.requests, 2);
    assert_int_equal(total.l1.sector_hits, 4);
    assert_int_equal(memsys_insn_counters(f->ms)[LOAD_ID].l1.sector_hits, 4);
    assert_int_equal(total.l2.sector_accesses, 4);
    memsys_tally_destroy(t);
}

/* A deferred store changes the L1 at once and leaves the L2 alone: its write-through waits in
 * the log, counted nowhere, until memsys_store_log_apply writes it and counts it on the
 * store's instruction. A load from another SM then reads the stored words. */
static void test_store_deferred(void **state)
{
    fixture *f = *state;
    memsys_tally *t = memsys_tally_create(f->ms);
    memsys_store_log *log = memsys_store_log_create(0);
    assert_non_null(t);
    assert_non_null(log);
    memsys *view = memsys_tally_view(t);
    mem_ctx ctx = f->ctx;
    ctx.store_log = log;
    mem_access a;
    ir_mem_attrs attrs = {0};
    mem_fault fault;
    memsys_test_access(&a, &attrs, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, UINT32_MAX, STORE_ID);
    memsys_test_strided(&a, f->buf, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 1000 + l;
        memcpy(a.data[l], &v, 4);
    }
    assert_int_equal(memsys_store_deferred(view, &ctx, &a, &fault), 0);
    assert_false(memsys_store_log_full(log));
    memsys_tally_merge(f->ms, t);
    mem_counters total;
    memsys_total_counters(f->ms, &total);
    assert_int_equal(total.l2.sector_accesses, 0);
    assert_int_equal(memsys_store_log_apply(f->ms, log), 0);
    memsys_tally_merge(f->ms, t);
    memsys_total_counters(f->ms, &total);
    assert_int_equal(total.l2.sector_accesses, 4);
    assert_int_equal(memsys_insn_counters(f->ms)[STORE_ID].l2.sector_accesses, 4);
    /* The log is empty: applying it again writes nothing. */
    assert_int_equal(memsys_store_log_apply(f->ms, log), 0);
    memsys_tally_merge(f->ms, t);
    memsys_total_counters(f->ms, &total);
    assert_int_equal(total.l2.sector_accesses, 4);
    mem_ctx other = {.sm = 1};
    assert_int_equal(memsys_access(f->ms, &other, load_words(f, &a, &attrs, 0), &fault), 0);
    uint32_t v;
    memcpy(&v, a.data[7], 4);
    assert_int_equal(v, 1007);
    /* An immediate log (one host thread): the write reaches the L2 at once. */
    memsys_store_log *now = memsys_store_log_create(1);
    assert_non_null(now);
    ctx.store_log = now;
    memsys_test_access(&a, &attrs, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, UINT32_MAX, STORE_ID);
    memsys_test_strided(&a, f->buf + 4096, 4);
    assert_int_equal(memsys_store_deferred(view, &ctx, &a, &fault), 0);
    memsys_tally_merge(f->ms, t);
    memsys_total_counters(f->ms, &total);
    assert_int_equal(memsys_insn_counters(f->ms)[STORE_ID].l2.sector_accesses, 8);
    assert_int_equal(memsys_store_log_apply(f->ms, now), 0);
    memsys_store_log_destroy(now);
    memsys_store_log_destroy(log);
    memsys_tally_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_load_if_local, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_deferred, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
