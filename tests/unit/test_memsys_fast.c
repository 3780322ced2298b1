/* Unit tests of the memory system's short paths (src/mem/memsys.c), each held to the path it
 * shortens on a twin memory system built the same way:
 *   - the full-warp bounds scan's AVX2 build (memsys.host_avx2) against the plain loop, over
 *     global, shared and local shapes, faults included: the same return, fault, results,
 *     data and counters;
 *   - memsys_load_lane (one const or param lane) against the general path of a warp access
 *     whose two lanes read the same address: the same counters (one constant-cache request,
 *     one address, one line), results and faults;
 *   - memsys_load_same (a const or param load without a mem_access) against memsys_load_lane:
 *     the same bytes and counters, and -1 with nothing counted where memsys_load_lane faults
 *     or for another space;
 *   - memsys_load_param (a parameter's value, h_ld_param_same's path) against memsys_load_same:
 *     the same return, bytes, counters and constant-cache statistics;
 *   - memsys_load_parks, memsys_load_if_local's first step on the lowest active lane alone:
 *     its answers, and a memsys_load_if_local after it that counts exactly what one without it
 *     counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/cpu.h"
#include "config/gpu_config.h"
#include "mem/memsys.h"
#include "mem/memsys_internal.h"
#include "memsys_test.h"
#include "sim/sim.h"

enum { INSNS = 16, BUFFER_BYTES = 16384, LOCAL_BYTES = 256, SHARED_BYTES = 4096,
       PARAM_BYTES = 64 };

typedef struct twin {
    memsys *ms;
    uint64_t buf; /* word i holds 5 * i + 2 */
    uint8_t shared[SHARED_BYTES];
    mem_ctx ctx;
    mem_access acc;
    mem_fault fault;
    int rc;
} twin;

typedef struct fixture {
    twin t[2];
    diag_list dl;
    ir_mem_attrs attrs;
    uint8_t params[PARAM_BYTES];
} fixture;

static void twin_init(fixture *fx, twin *w)
{
    memsys_config cfg;
    memsys_test_small_h100(&cfg);
    w->ms = memsys_create(&cfg, &fx->dl);
    assert_non_null(w->ms);
    assert_int_equal(memsys_set_insn_count(w->ms, INSNS), 0);
    assert_int_equal(memsys_alloc(w->ms, BUFFER_BYTES, 256, &w->buf), 0);
    static uint32_t words[BUFFER_BYTES / 4];
    for (uint32_t i = 0; i < BUFFER_BYTES / 4; i++) words[i] = 5 * i + 2;
    assert_int_equal(memsys_host_write(w->ms, w->buf, words, BUFFER_BYTES), 0);
    for (uint32_t i = 0; i < SHARED_BYTES; i++) w->shared[i] = (uint8_t)(i * 7);
    memsys_set_params(w->ms, fx->params, PARAM_BYTES);
    uint8_t bank[32];
    for (uint32_t i = 0; i < sizeof bank; i++) bank[i] = (uint8_t)(0xA0 + i);
    assert_int_equal(memsys_set_const_bank_at(w->ms, 3, bank, sizeof bank), 0);
    w->ctx = (mem_ctx){.sm = 0, .shared = w->shared, .shared_bytes = SHARED_BYTES,
                       .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = LOCAL_BYTES};
}

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    for (uint32_t i = 0; i < PARAM_BYTES; i++) fx.params[i] = (uint8_t)(0x10 + 3 * i);
    diag_list_init(&fx.dl);
    twin_init(&fx, &fx.t[0]);
    twin_init(&fx, &fx.t[1]);
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    memsys_destroy(fx->t[0].ms);
    memsys_destroy(fx->t[1].ms);
    diag_list_fini(&fx->dl);
    return 0;
}

/* Twin 0's access and twin 1's must have had the same outcome: return, fault, results, the
 * data of the lanes in `lanes`, and every counter of every instruction. */
static void same_outcome(const fixture *fx, uint32_t lanes)
{
    const twin *a = &fx->t[0], *b = &fx->t[1];
    assert_int_equal(a->rc, b->rc);
    if (a->rc < 0) {
        assert_int_equal(a->fault.kind, b->fault.kind);
        assert_int_equal(a->fault.lane, b->fault.lane);
        assert_int_equal(a->fault.address, b->fault.address);
        assert_string_equal(a->fault.what, b->fault.what);
    } else {
        assert_int_equal(a->fault.kind, MEM_FAULT_NONE);
        assert_int_equal(b->fault.kind, MEM_FAULT_NONE);
    }
    const mem_access *x = &a->acc, *y = &b->acc;
    assert_int_equal(x->levels, y->levels);
    assert_int_equal(x->nserved, y->nserved);
    assert_memory_equal(x->served, y->served, x->nserved * sizeof x->served[0]);
    assert_int_equal(x->l1_tags, y->l1_tags);
    assert_int_equal(x->shared_wavefronts, y->shared_wavefronts);
    assert_int_equal(x->const_lookups, y->const_lookups);
    assert_int_equal(x->const_misses, y->const_misses);
    assert_int_equal(x->const_addresses, y->const_addresses);
    assert_int_equal(x->dram_read_bytes, y->dram_read_bytes);
    assert_int_equal(x->window_lanes, y->window_lanes);
    uint32_t bytes = (uint32_t)x->elem_bytes * x->vec;
    if (a->rc == 0)
        for (uint32_t m = lanes; m; m &= m - 1)
            assert_memory_equal(x->data[__builtin_ctz(m)], y->data[__builtin_ctz(m)], bytes);
    assert_memory_equal(memsys_insn_counters(a->ms), memsys_insn_counters(b->ms),
                        INSNS * sizeof(mem_counters));
}

/* ---- the full-warp scan ---- */

typedef struct shape {
    ir_space space;
    uint32_t elem_bytes;
    uint64_t base;  /* offset in the buffer, or in the window */
    int64_t stride; /* lane l at base + l * stride, unless scattered */
    int scattered;  /* lane l at base + ((7 * l) mod 32) * 4 */
    uint32_t odd_lane, odd_add; /* odd_add != 0: that lane's address + odd_add */
} shape;

static void run_shape(fixture *fx, const shape *s, mem_op op)
{
    for (int k = 0; k < 2; k++) {
        twin *w = &fx->t[k];
        w->ms->host_avx2 = (uint8_t)(k ? cpu_has_avx2() : 0);
        memset(&fx->attrs, 0, sizeof fx->attrs);
        mem_access *a = memsys_test_access(&w->acc, &fx->attrs, op, s->space, s->elem_bytes, 1,
                                           UINT32_MAX, 1);
        uint64_t base = (s->space == IR_SPACE_GLOBAL ? w->buf : 0) + s->base;
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint64_t at = s->scattered ? base + (7u * l % MEM_LANES) * 4
                                       : base + (uint64_t)((int64_t)l * s->stride);
            a->addr[l] = at + (s->odd_add && l == s->odd_lane ? s->odd_add : 0);
            for (uint32_t b = 0; b < s->elem_bytes; b++) a->data[l][b] = (uint8_t)(l + b);
        }
        w->rc = memsys_access(w->ms, &w->ctx, a, &w->fault);
    }
    same_outcome(fx, UINT32_MAX);
}

static void test_scan_builds_agree(void **state)
{
    fixture *fx = *state;
    static const shape shapes[] = {
        {IR_SPACE_GLOBAL, 4, 0, 4, 0, 0, 0},      /* contiguous */
        {IR_SPACE_GLOBAL, 4, 256, 0, 0, 0, 0},    /* broadcast */
        {IR_SPACE_GLOBAL, 4, 512, 8, 0, 0, 0},
        {IR_SPACE_GLOBAL, 4, 1024, 12, 0, 0, 0},  /* a multiple of the size, not a power */
        {IR_SPACE_GLOBAL, 4, 0, 128, 0, 0, 0},    /* a column */
        {IR_SPACE_GLOBAL, 4, 8188, -4, 0, 0, 0},  /* descending */
        {IR_SPACE_GLOBAL, 8, 4096, 8, 0, 0, 0},
        {IR_SPACE_GLOBAL, 4, 2048, 0, 1, 0, 0},   /* scattered inside one line */
        {IR_SPACE_GLOBAL, 4, 0, 4, 0, 17, 256},   /* one lane off the stride */
        {IR_SPACE_GLOBAL, 4, 0, 4, 0, 5, 2},      /* one lane misaligned: a fault */
        {IR_SPACE_GLOBAL, 4, 16320, 4, 0, 0, 0},  /* lanes 16 on past the buffer */
        {IR_SPACE_GLOBAL, 4, 16260, 4, 0, 0, 0},  /* lane 31 alone past the buffer */
        {IR_SPACE_GLOBAL, 4, 120, -4, 0, 0, 0},   /* lane 31 alone below the buffer */
        {IR_SPACE_SHARED, 4, 0, 4, 0, 0, 0},
        {IR_SPACE_SHARED, 4, 64, 0, 1, 0, 0},
        {IR_SPACE_SHARED, 4, 4092, -4, 0, 9, 4096}, /* one lane outside the window */
        {IR_SPACE_LOCAL, 4, 0, 4, 0, 0, 0},
        {IR_SPACE_LOCAL, 8, 0, 8, 0, 0, 0},
    };
    /* A contiguous load reads the buffer's words (the scan found its bounds). */
    shape s = {IR_SPACE_GLOBAL, 4, 64, 4, 0, 0, 0};
    run_shape(fx, &s, MEM_OP_LOAD);
    uint32_t v;
    memcpy(&v, fx->t[1].acc.data[3], 4);
    assert_int_equal(v, 5 * (64 / 4 + 3) + 2);
    assert_int_equal(fx->t[1].rc, 0);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        run_shape(fx, &shapes[i], MEM_OP_LOAD);
        run_shape(fx, &shapes[i], MEM_OP_STORE);
    }
    /* The past-the-end shape faulted on its first lane outside the buffer (16320 + 16 x 4). */
    shape past = {IR_SPACE_GLOBAL, 4, 16320, 4, 0, 0, 0};
    run_shape(fx, &past, MEM_OP_LOAD);
    assert_int_equal(fx->t[1].rc, -1);
    assert_int_equal(fx->t[1].fault.kind, MEM_FAULT_OUT_OF_BOUNDS);
    assert_int_equal(fx->t[1].fault.lane, 16);
}

/* ---- one const or param lane ---- */

/* Twin 0: the general path, lanes 0 and 1 reading `offset` of `space`; twin 1: memsys_load_lane
 * with lane 0 alone. */
static void load_one(fixture *fx, ir_space space, uint64_t offset, uint32_t bytes,
                     uint32_t insn_id)
{
    for (int k = 0; k < 2; k++) {
        twin *w = &fx->t[k];
        memset(&fx->attrs, 0, sizeof fx->attrs);
        mem_access *a = memsys_test_access(&w->acc, &fx->attrs, MEM_OP_LOAD, space, bytes, 1,
                                           k ? 1u : 3u, insn_id);
        a->addr[0] = a->addr[1] = offset;
        w->rc = k ? memsys_load_lane(w->ms, &w->ctx, a, &w->fault)
                  : memsys_access(w->ms, &w->ctx, a, &w->fault);
    }
    same_outcome(fx, 1);
}

static void test_one_lane_counts_as_general_path(void **state)
{
    fixture *fx = *state;
    const mem_counters *c = &memsys_insn_counters(fx->t[1].ms)[2];
    load_one(fx, IR_SPACE_PARAM, 8, 4, 2); /* the line's first look-up misses */
    assert_int_equal(fx->t[1].rc, 0);
    assert_int_equal(c->constant.requests, 1);
    assert_int_equal(c->constant.misses, 1);
    assert_int_equal(c->constant.hits, 0);
    assert_int_equal(fx->t[1].acc.const_misses, 1);
    assert_int_equal(fx->t[1].acc.levels, 1u << MEM_LEVEL_CONSTANT);
    assert_memory_equal(fx->t[1].acc.data[0], fx->params + 8, 4);
    load_one(fx, IR_SPACE_PARAM, 16, 8, 2); /* the same line: a hit */
    assert_int_equal(c->constant.requests, 2);
    assert_int_equal(c->constant.hits, 1);
    assert_int_equal(c->constant.serialized, 0);
    assert_int_equal(fx->t[1].acc.const_misses, 0);
    assert_memory_equal(fx->t[1].acc.data[0], fx->params + 16, 8);
    uint64_t bank3 = (uint64_t)3 << MEM_CONST_BANK_SHIFT;
    load_one(fx, IR_SPACE_CONST, bank3 + 4, 4, 3);
    load_one(fx, IR_SPACE_CONST, bank3 + 8, 2, 3);
    uint8_t want[4] = {0xA4, 0xA5, 0xA6, 0xA7};
    load_one(fx, IR_SPACE_CONST, bank3 + 4, 4, 4);
    assert_memory_equal(fx->t[1].acc.data[0], want, 4);
    assert_int_equal(memsys_insn_counters(fx->t[1].ms)[4].constant.hits, 1);
    /* Faults: outside the parameters, outside a bank's data, a bank past 31, misaligned. */
    load_one(fx, IR_SPACE_PARAM, PARAM_BYTES, 4, 5);
    assert_int_equal(fx->t[1].rc, -1);
    assert_int_equal(fx->t[1].fault.kind, MEM_FAULT_OUT_OF_BOUNDS);
    load_one(fx, IR_SPACE_CONST, bank3 + 32, 4, 5);
    assert_int_equal(fx->t[1].fault.kind, MEM_FAULT_OUT_OF_BOUNDS);
    load_one(fx, IR_SPACE_CONST, (uint64_t)32 << MEM_CONST_BANK_SHIFT, 4, 5);
    assert_int_equal(fx->t[1].fault.kind, MEM_FAULT_OUT_OF_BOUNDS);
    load_one(fx, IR_SPACE_PARAM, 6, 4, 5);
    assert_int_equal(fx->t[1].fault.kind, MEM_FAULT_MISALIGNED);
    assert_int_equal(memsys_insn_counters(fx->t[1].ms)[5].constant.requests, 0);
}

/* Twin 0: memsys_load_lane of lane 0 reading `offset` of `space`; twin 1: memsys_load_same of
 * the same load. Both return the same, the same bytes when 0, and every counter stays equal. */
static void load_same(fixture *fx, ir_space space, uint64_t offset, uint32_t bytes,
                      uint32_t insn_id)
{
    uint8_t out[8] = {0};
    for (int k = 0; k < 2; k++) {
        twin *w = &fx->t[k];
        memset(&fx->attrs, 0, sizeof fx->attrs);
        mem_access *a = memsys_test_access(&w->acc, &fx->attrs, MEM_OP_LOAD, space, bytes, 1, 1u,
                                           insn_id);
        a->addr[0] = offset;
        w->rc = k ? memsys_load_same(w->ms, &w->ctx, insn_id, space, offset, bytes, out)
                  : memsys_load_lane(w->ms, &w->ctx, a, &w->fault);
    }
    assert_int_equal(fx->t[0].rc, fx->t[1].rc);
    if (fx->t[0].rc == 0)
        assert_memory_equal(fx->t[0].acc.data[0], out, bytes);
    assert_memory_equal(memsys_insn_counters(fx->t[0].ms), memsys_insn_counters(fx->t[1].ms),
                        INSNS * sizeof(mem_counters));
}

static void test_load_same_counts_as_load_lane(void **state)
{
    fixture *fx = *state;
    const mem_counters *c = &memsys_insn_counters(fx->t[1].ms)[2];
    load_same(fx, IR_SPACE_PARAM, 8, 4, 2); /* the line's first look-up misses */
    assert_int_equal(c->constant.requests, 1);
    assert_int_equal(c->constant.misses, 1);
    load_same(fx, IR_SPACE_PARAM, 16, 8, 2); /* the same line: a hit */
    load_same(fx, IR_SPACE_PARAM, 16, 8, 2);
    assert_int_equal(c->constant.requests, 3);
    assert_int_equal(c->constant.hits, 2);
    uint64_t bank3 = (uint64_t)3 << MEM_CONST_BANK_SHIFT;
    load_same(fx, IR_SPACE_CONST, bank3 + 4, 4, 3);
    load_same(fx, IR_SPACE_CONST, bank3 + 8, 2, 3);
    load_same(fx, IR_SPACE_PARAM, 60, 4, 3); /* back to the parameters' line */
    load_same(fx, IR_SPACE_CONST, bank3 + 24, 8, 4);
    uint8_t want[8] = {0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF};
    assert_memory_equal(fx->t[0].acc.data[0], want, 8);
    assert_int_equal(memsys_insn_counters(fx->t[1].ms)[3].constant.requests, 3);
    /* What memsys_load_lane faults on: -1 here, nothing counted on either twin. */
    load_same(fx, IR_SPACE_PARAM, PARAM_BYTES, 4, 5);
    assert_int_equal(fx->t[1].rc, -1);
    load_same(fx, IR_SPACE_PARAM, PARAM_BYTES - 4, 8, 5);
    load_same(fx, IR_SPACE_CONST, bank3 + 32, 4, 5);
    load_same(fx, IR_SPACE_CONST, (uint64_t)32 << MEM_CONST_BANK_SHIFT, 4, 5);
    load_same(fx, IR_SPACE_PARAM, 6, 4, 5);
    assert_int_equal(fx->t[1].rc, -1);
    assert_int_equal(memsys_insn_counters(fx->t[1].ms)[5].constant.requests, 0);
    /* Another space, or a size that is not a power of two up to MEM_MAX_LANE_BYTES: -1, nothing
     * read. */
    uint8_t out[8] = {0};
    assert_int_equal(memsys_load_same(fx->t[1].ms, &fx->t[1].ctx, 6, IR_SPACE_GLOBAL,
                                      fx->t[1].buf, 4, out), -1);
    assert_int_equal(memsys_load_same(fx->t[1].ms, &fx->t[1].ctx, 6, IR_SPACE_PARAM, 0, 3, out),
                     -1);
    assert_int_equal(memsys_load_same(fx->t[1].ms, &fx->t[1].ctx, 6, IR_SPACE_PARAM, 0,
                                      2 * MEM_MAX_LANE_BYTES, out), -1);
    const mem_counters zero = {0};
    assert_memory_equal(&memsys_insn_counters(fx->t[1].ms)[6], &zero, sizeof zero);
}

/* Twin 0: memsys_load_same of a parameter; twin 1: memsys_load_param of it (h_ld_param_same's
 * path). The same return, the same bytes (the value little-endian, zero above `bytes`), the
 * same counters and the same constant-cache statistics. */
static void load_param(fixture *fx, uint64_t offset, uint32_t bytes, uint32_t insn_id)
{
    uint8_t out[8] = {0};
    uint64_t value = ~UINT64_C(0);
    fx->t[0].rc = memsys_load_same(fx->t[0].ms, &fx->t[0].ctx, insn_id, IR_SPACE_PARAM, offset,
                                   bytes, out);
    fx->t[1].rc = memsys_load_param(fx->t[1].ms, fx->t[1].ctx.sm, insn_id, offset, bytes, &value);
    assert_int_equal(fx->t[0].rc, fx->t[1].rc);
    if (fx->t[1].rc == 0) {
        uint8_t got[8];
        memcpy(got, &value, 8);
        assert_memory_equal(got, out, 8);
    } else {
        assert_int_equal(value, ~UINT64_C(0));
    }
    assert_memory_equal(memsys_insn_counters(fx->t[0].ms), memsys_insn_counters(fx->t[1].ms),
                        INSNS * sizeof(mem_counters));
    uint32_t sm = fx->t[0].ctx.sm;
    assert_memory_equal(cache_get_stats(fx->t[0].ms->constant[sm]),
                        cache_get_stats(fx->t[1].ms->constant[sm]), sizeof(cache_stats));
}

static void test_load_param_counts_as_load_same(void **state)
{
    fixture *fx = *state;
    const mem_counters *c = &memsys_insn_counters(fx->t[1].ms)[2];
    load_param(fx, 8, 4, 2); /* the line's first look-up misses */
    assert_int_equal(c->constant.misses, 1);
    load_param(fx, 16, 8, 2);
    load_param(fx, 16, 8, 2);
    load_param(fx, 2, 2, 2);
    load_param(fx, 63, 1, 2);
    assert_int_equal(c->constant.requests, 5);
    assert_int_equal(c->constant.hits, 4);
    uint64_t bank3 = (uint64_t)3 << MEM_CONST_BANK_SHIFT;
    load_same(fx, IR_SPACE_CONST, bank3 + 4, 4, 3); /* another line between (both twins) */
    load_param(fx, 60, 4, 3);
    /* Refused by both, nothing counted: outside, straddling the end, misaligned, 3 bytes. */
    load_param(fx, PARAM_BYTES, 4, 5);
    assert_int_equal(fx->t[1].rc, -1);
    load_param(fx, PARAM_BYTES - 4, 8, 5);
    load_param(fx, 6, 4, 5);
    load_param(fx, 0, 3, 5);
    load_param(fx, 0, 0, 5);
    const mem_counters zero = {0};
    assert_memory_equal(&memsys_insn_counters(fx->t[1].ms)[5], &zero, sizeof zero);
    /* 16 bytes, which memsys_load_same takes: memsys_load_param refuses it untouched. */
    uint64_t value = 7;
    assert_int_equal(memsys_load_param(fx->t[1].ms, 0, 6, 16, 16, &value), -1);
    assert_int_equal(value, 7);
    assert_memory_equal(&memsys_insn_counters(fx->t[1].ms)[6], &zero, sizeof zero);
}

/* ---- memsys_load_parks ---- */

/* A full-warp global load of 4-byte words at buf + off + l * stride on twin k. */
static mem_access *global_load(fixture *fx, int k, uint64_t off, uint64_t stride)
{
    twin *w = &fx->t[k];
    memset(&fx->attrs, 0, sizeof fx->attrs);
    mem_access *a = memsys_test_access(&w->acc, &fx->attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1,
                                       UINT32_MAX, 6);
    memsys_test_strided(a, w->buf + off, stride);
    return a;
}

static void test_load_parks(void **state)
{
    fixture *fx = *state;
    for (int k = 0; k < 2; k++) { /* not in the L1 yet: parks, on either twin */
        mem_access *a = global_load(fx, k, 0, 4);
        twin *w = &fx->t[k];
        assert_int_equal(k ? memsys_load_parks(w->ms, &w->ctx, a)
                           : memsys_load_if_local(w->ms, &w->ctx, a, &w->fault), 1);
        w->rc = memsys_access(w->ms, &w->ctx, a, &w->fault); /* fills the line in the L1 */
        assert_int_equal(w->rc, 0);
    }
    same_outcome(fx, UINT32_MAX);
    /* In the L1 now: twin 1 asks first, then loads; twin 0 loads alone. */
    for (int k = 0; k < 2; k++) {
        twin *w = &fx->t[k];
        mem_access *a = global_load(fx, k, 0, 4);
        if (k)
            assert_int_equal(memsys_load_parks(w->ms, &w->ctx, a), 0);
        w->rc = memsys_load_if_local(w->ms, &w->ctx, a, &w->fault);
        assert_int_equal(w->rc, 0);
    }
    same_outcome(fx, UINT32_MAX);
    uint32_t v;
    memcpy(&v, fx->t[1].acc.data[31], 4);
    assert_int_equal(v, 5 * 31 + 2);
    /* The lowest lane is held but the others' lines are not: the load still parks. */
    for (int k = 0; k < 2; k++) {
        twin *w = &fx->t[k];
        mem_access *a = global_load(fx, k, 0, 128);
        if (k)
            assert_int_equal(memsys_load_parks(w->ms, &w->ctx, a), 0);
        w->rc = memsys_load_if_local(w->ms, &w->ctx, a, &w->fault);
        assert_int_equal(w->rc, 1);
    }
    same_outcome(fx, 0);
    /* The uniform hint parks; a shared load never parks for its first lane. */
    twin *w = &fx->t[1];
    mem_access *a = global_load(fx, 1, 0, 4);
    fx->attrs.uniform = 1;
    assert_int_equal(memsys_load_parks(w->ms, &w->ctx, a), 1);
    memset(&fx->attrs, 0, sizeof fx->attrs);
    a = memsys_test_access(&w->acc, &fx->attrs, MEM_OP_LOAD, IR_SPACE_SHARED, 4, 1, UINT32_MAX,
                           7);
    memsys_test_strided(a, 0, 4);
    assert_int_equal(memsys_load_parks(w->ms, &w->ctx, a), 0);
    assert_int_equal(memsys_load_if_local(w->ms, &w->ctx, a, &w->fault), 0);
    assert_memory_equal(a->data[2], w->shared + 8, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scan_builds_agree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_lane_counts_as_general_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_parks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_same_counts_as_load_lane, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_param_counts_as_load_same, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
