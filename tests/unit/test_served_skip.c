/* The served records on request (mem.h, mem_access.skip_served; docs/architecture.md, "The
 * memory access contract"), held to the accesses that fill them on a twin memory system: twin 0
 * makes every access with skip_served 0, twin 1 the same access with skip_served 1. After every
 * access both must agree on the return, the fault, the loaded data, the results other than the
 * served records (L1 tags, DRAM bytes, window and misaligned lanes), every counter, the
 * statistics of both L1s and the L2 and the state of every line of the buffer in them; at the end,
 * on the bytes in DRAM. Twin 1 must leave out the global and local lines' served records, except
 * a surface access's, which fills them as twin 0 does (its counters come from them). The trace
 * mixes scattered and contiguous loads and stores, local data, partial warps, surface accesses,
 * L1 hits, misses and evictions, through memsys_access and the parallel phase's entries
 * (memsys_load_if_local, memsys_store_deferred). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "mem/memsys.h"
#include "mem/memsys_internal.h"
#include "cache_twins.h"
#include "memsys_test.h"

/* A buffer twice the small L2, so that the trace evicts from it. */
enum { INSNS = 8, BUF_BYTES = 128 * 1024, LOCAL_BYTES = 256, STEPS = 600 };

typedef struct twin {
    memsys *ms;
    mem_ctx ctx;
    mem_access acc;
    mem_fault fault;
    memsys_store_log *log;
    int rc;
} twin;

typedef struct fixture {
    twin t[2];
    diag_list dl;
    ir_mem_attrs attrs;
    uint64_t buf;
    uint64_t rng;
} fixture;

static uint32_t next(fixture *fx)
{
    fx->rng = fx->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(fx->rng >> 33);
}

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    diag_list_init(&fx.dl);
    fx.rng = 12345;
    static uint8_t bytes[BUF_BYTES];
    for (uint32_t i = 0; i < BUF_BYTES; i++) bytes[i] = (uint8_t)(i * 13 + 7);
    for (int k = 0; k < 2; k++) {
        twin *w = &fx.t[k];
        memsys_config cfg;
        memsys_test_small_h100(&cfg);
        w->ms = memsys_create(&cfg, &fx.dl);
        assert_non_null(w->ms);
        assert_int_equal(memsys_set_insn_count(w->ms, INSNS), 0);
        assert_int_equal(memsys_alloc(w->ms, BUF_BYTES, 256, &fx.buf), 0);
        assert_int_equal(memsys_host_write(w->ms, fx.buf, bytes, BUF_BYTES), 0);
        w->log = memsys_store_log_create(0);
        assert_non_null(w->log);
        w->ctx = (mem_ctx){.local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = LOCAL_BYTES};
    }
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    for (int k = 0; k < 2; k++) {
        memsys_store_log_destroy(fx->t[k].log);
        memsys_destroy(fx->t[k].ms);
    }
    diag_list_fini(&fx->dl);
    return 0;
}

/* The shapes of the trace: a column walk (every lane on its own line, 1 KiB apart), a row (a
 * warp's consecutive words), an array of structures' field (lanes 24 bytes apart), random
 * words, and local data at one offset or lane-strided. */
enum { COLUMN, ROW, FIELD, RANDOM, LOCAL_SAME, LOCAL_STRIDED, SHAPES };

/* Describes the fixture's next random access on both twins (twin k's skip_served is k). */
static void describe(fixture *fx, uint32_t step)
{
    uint32_t shape = next(fx) % SHAPES, op = next(fx) % 3 ? MEM_OP_LOAD : MEM_OP_STORE;
    uint32_t active = next(fx) % 4 ? UINT32_MAX : next(fx) | 1u;
    uint32_t elem = 4u << (next(fx) % 2), base = (next(fx) % (BUF_BYTES / 2048)) * 1024;
    int local = shape == LOCAL_SAME || shape == LOCAL_STRIDED;
    uint32_t surface = !local && next(fx) % 8 == 0;
    uint64_t addr[MEM_LANES];
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        switch (shape) {
        case COLUMN: addr[l] = fx->buf + base + l * 1024 + (step % 32) * elem; break;
        case ROW: addr[l] = fx->buf + base + l * elem; break;
        case FIELD: addr[l] = fx->buf + base + l * 24 + (elem == 8 ? 0 : 4); break;
        case RANDOM: addr[l] = fx->buf + (next(fx) % (BUF_BYTES / 8)) * 8; break;
        case LOCAL_SAME: addr[l] = (step % 8) * 8; break;
        default: addr[l] = (l * elem + step * 8) % LOCAL_BYTES; break;
        }
    }
    fx->attrs.image_dim = surface ? IR_IMAGE_2D : IR_IMAGE_NONE;
    for (int k = 0; k < 2; k++) {
        twin *w = &fx->t[k];
        mem_access *a = memsys_test_access(&w->acc, &fx->attrs, (mem_op)op,
                                           local ? IR_SPACE_LOCAL : IR_SPACE_GLOBAL, elem, 1,
                                           active, 1 + step % (INSNS - 1));
        memcpy(a->addr, addr, sizeof addr);
        for (uint32_t l = 0; l < MEM_LANES; l++)
            for (uint32_t b = 0; b < elem; b++) a->data[l][b] = (uint8_t)(step * 3 + l * 5 + b);
        a->skip_served = (uint8_t)k;
        a->nserved = 77; /* what the access must overwrite */
        w->ctx.sm = step % 2;
    }
}

/* The access on twin w: through memsys_access, or, every third step, the parallel phase's
 * entry for it (a load that would leave the SM falls back to memsys_access, as the executor's
 * serial phase makes it). */
static void perform(twin *w, uint32_t step)
{
    int parallel = step % 3 == 2;
    w->ctx.store_log = parallel && w->acc.op == MEM_OP_STORE ? w->log : NULL;
    if (!parallel)
        w->rc = memsys_access(w->ms, &w->ctx, &w->acc, &w->fault);
    else if (w->acc.op == MEM_OP_LOAD)
        w->rc = memsys_load_if_local(w->ms, &w->ctx, &w->acc, &w->fault);
    else
        w->rc = memsys_store_deferred(w->ms, &w->ctx, &w->acc, &w->fault);
    if (w->rc == 1) {
        w->ctx.store_log = NULL;
        w->rc = memsys_access(w->ms, &w->ctx, &w->acc, &w->fault);
    }
    if (w->ctx.store_log)
        assert_int_equal(memsys_store_log_apply(w->ms, w->log), 0);
}

/* Every line of the buffer and of the local backing is in the same state in c0 and c1. */
static void same_lines(const void *arg, const cache *c0, const cache *c1)
{
    const fixture *fx = arg;
    uint64_t ranges[2][2] = {{fx->buf, fx->buf + BUF_BYTES},
                             {MEM_LOCAL_BACKING_BASE, MEM_LOCAL_BACKING_BASE + 32 * LOCAL_BYTES}};
    for (int r = 0; r < 2; r++)
        for (uint64_t at = ranges[r][0]; at < ranges[r][1]; at += 128)
            assert_same_line(c0, c1, at);
}

/* Both twins agree on everything but the served records, which twin 1 leaves out (but for a
 * surface access). */
static void same_outcome(const fixture *fx)
{
    const twin *a = &fx->t[0], *b = &fx->t[1];
    const mem_access *x = &a->acc, *y = &b->acc;
    assert_int_equal(a->rc, 0);
    assert_int_equal(b->rc, 0);
    if (x->op == MEM_OP_LOAD)
        for (uint32_t l = 0; l < MEM_LANES; l++)
            if ((x->active >> l) & 1u)
                assert_memory_equal(x->data[l], y->data[l], x->elem_bytes);
    assert_int_equal(x->l1_tags, y->l1_tags);
    assert_int_equal(x->dram_read_bytes, y->dram_read_bytes);
    assert_int_equal(x->dram_write_bytes, y->dram_write_bytes);
    assert_int_equal(x->window_lanes, y->window_lanes);
    assert_int_equal(x->misaligned_lanes, y->misaligned_lanes);
    assert_true(x->nserved > 0 && x->nserved != 77);
    if (fx->attrs.image_dim != IR_IMAGE_NONE) {
        assert_int_equal(x->levels, y->levels);
        assert_int_equal(x->nserved, y->nserved);
        assert_memory_equal(x->served, y->served, x->nserved * sizeof x->served[0]);
    } else {
        assert_int_equal(y->nserved, 0);
        assert_int_equal(y->levels, 0);
    }
    assert_same_memsys(a->ms, b->ms, INSNS, 2, same_lines, fx);
}

static void test_trace_without_served_records(void **state)
{
    fixture *fx = *state;
    uint32_t surfaces = 0, skipped = 0;
    for (uint32_t step = 0; step < STEPS; step++) {
        describe(fx, step);
        perform(&fx->t[0], step);
        perform(&fx->t[1], step);
        same_outcome(fx);
        surfaces += fx->attrs.image_dim != IR_IMAGE_NONE;
        skipped += fx->attrs.image_dim == IR_IMAGE_NONE;
    }
    assert_true(surfaces > 20 && skipped > 400); /* the trace has both */
    static uint8_t u[BUF_BYTES], v[BUF_BYTES];
    assert_int_equal(memsys_finish(fx->t[0].ms), 0);
    assert_int_equal(memsys_finish(fx->t[1].ms), 0);
    assert_int_equal(memsys_host_read(fx->t[0].ms, fx->buf, u, BUF_BYTES), 0);
    assert_int_equal(memsys_host_read(fx->t[1].ms, fx->buf, v, BUF_BYTES), 0);
    assert_memory_equal(u, v, BUF_BYTES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trace_without_served_records, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
