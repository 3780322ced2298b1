/* Unit tests of mem_shared_warp (src/mem/mem_shared.c), the direct path of a full warp's
 * shared-memory load or store, held to memsys_access on a twin memory system built the same
 * way: twin 0 makes every access with memsys_access; twin 1 with mem_shared_warp and, when it
 * declines (returns 1), with memsys_access, as the executor does. Both must give the same
 * return, fault, results, loaded data, shared-memory bytes and counters, with the scans' plain
 * build and (where the host has it) their AVX2 build, with the lanes' values in mem_access.data
 * or in 64-bit register arrays. Also checked: which accesses the direct path takes, the wavefronts of the patterns its short cuts cover (docs/statistics.md, "Shared
 * memory"), and that a declined access changed nothing; and mem_shared_load_reg,
 * mem_shared_load_reg32 and mem_shared_load_reg32_quiet, which make the offsets from a register
 * row, against memsys_access and mem_shared_warp on the same loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/cpu.h"
#include "mem/mem_shared.h"
#include "mem/memsys.h"
#include "mem/memsys_internal.h"
#include "memsys_test.h"

/* Not a power of two (a padded 32 x 33 tile of words): the OR of the offsets can exceed it
 * while every offset is inside. */
enum { INSNS = 16, SHARED_BYTES = 4224 };

typedef struct twin {
    memsys *ms;
    uint8_t shared[SHARED_BYTES];
    mem_ctx ctx;
    mem_access acc;
    mem_fault fault;
    uint64_t out[MEM_LANES];
    int rc, direct; /* direct: mem_shared_warp took the access */
} twin;

typedef struct fixture {
    twin t[2];
    diag_list dl;
    ir_mem_attrs attrs[2];
} fixture;

static void twin_init(fixture *fx, twin *w, uint32_t banks)
{
    memsys_config cfg;
    memsys_test_small_h100(&cfg);
    cfg.shared.banks = banks;
    w->ms = memsys_create(&cfg, &fx->dl);
    assert_non_null(w->ms);
    assert_int_equal(memsys_set_insn_count(w->ms, INSNS), 0);
    for (uint32_t i = 0; i < SHARED_BYTES; i++) w->shared[i] = (uint8_t)(i * 7 + 1);
    w->ctx = (mem_ctx){.sm = 0, .shared = w->shared, .shared_bytes = SHARED_BYTES,
                       .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = 256};
}

static int setup_banks(void **state, uint32_t banks)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    diag_list_init(&fx.dl);
    twin_init(&fx, &fx.t[0], banks);
    twin_init(&fx, &fx.t[1], banks);
    *state = &fx;
    return 0;
}

static int setup(void **state) { return setup_banks(state, 32); }
static int setup_24_banks(void **state) { return setup_banks(state, 24); }

static int teardown(void **state)
{
    fixture *fx = *state;
    memsys_destroy(fx->t[0].ms);
    memsys_destroy(fx->t[1].ms);
    diag_list_fini(&fx->dl);
    return 0;
}

/* How lane l's offset is formed. */
typedef enum pattern {
    STRIDED,   /* base + l * stride */
    TWO_ROWS,  /* lanes 0-15 at base, 16-31 at base + stride (a tile row each, broadcast) */
    SCATTERED, /* base + ((7 l) mod 32) * stride */
    ODD_LANE,  /* base + l * the lane's bytes, lane 9 at `stride` instead */
    RUNS,      /* base + (l mod 16) * 4 + (l / 16) * stride: two runs of 16 words (a stencil) */
    SHUFFLED,  /* as STRIDED for lanes 0, 1 and 31, lanes 2-30 among themselves in another order */
    LANE1_AT,  /* base + l * the lane's bytes, lane 1 at base + stride instead */
} pattern;

typedef struct shape {
    mem_op op;
    uint32_t elem_bytes, vec;
    pattern p;
    uint64_t base, stride;
} shape;

static uint64_t lane_offset(const shape *s, uint32_t l)
{
    uint32_t bytes = s->elem_bytes * s->vec;
    switch (s->p) {
    case STRIDED: return s->base + l * s->stride;
    case TWO_ROWS: return s->base + (l < 16 ? 0 : s->stride);
    case SCATTERED: return s->base + (7u * l % MEM_LANES) * s->stride;
    case RUNS: return s->base + (l % 16) * 4 + (l / 16) * s->stride;
    case SHUFFLED: return s->base + (l < 2 || l == 31 ? l : (l - 2) * 7 % 29 + 2) * s->stride;
    case LANE1_AT: return s->base + (l == 1 ? s->stride : l * bytes);
    default: return l == 9 ? s->stride : s->base + l * bytes;
    }
}

/* Describes shape s (lanes `active`) on twin k's access, with store data lane + byte + 1. */
static mem_access *describe(fixture *fx, int k, const shape *s, uint32_t active)
{
    twin *w = &fx->t[k];
    memset(&fx->attrs[k], 0, sizeof fx->attrs[k]);
    mem_access *a = memsys_test_access(&w->acc, &fx->attrs[k], s->op, IR_SPACE_SHARED,
                                       s->elem_bytes, s->vec, active, 3);
    uint32_t bytes = s->elem_bytes * s->vec;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        a->addr[l] = lane_offset(s, l);
        for (uint32_t b = 0; b < bytes; b++) a->data[l][b] = (uint8_t)(l + b + 1);
    }
    return a;
}

/* Where twin 1's access keeps its lanes' values: in acc->data, in out[] (a load's), or in in[]
 * (a store's: each value's low bytes are acc->data's, the others junk, and acc->data is
 * overwritten with other bytes so that a store that read it would differ). */
enum {
    IN_DATA,
    INTO_OUT,
    FROM_IN,
    LOAD_REG32,  /* INTO_OUT through mem_shared_load_reg32, 32-bit address arithmetic */
    LOAD_REG64,  /* the same through mem_shared_load_reg, 64-bit arithmetic */
    LOAD_REG_ON, /* LOAD_REG32 loading into its own address row (ld [%r + 8] into %r) */
    LOAD_QUIET,  /* LOAD_REG32 through mem_shared_load_reg32_quiet, the access record poisoned */
    LOAD_QUIET_ON, /* LOAD_QUIET into its own address row */
    LOAD_QUIET_MASK, /* LOAD_QUIET through mem_shared_load_reg32_quiet_mask, acc->active's lanes */
};

/* What twin 1 loads into out[] (in its own right or through the entries that fill it). */
static int fills_out(int lanes) { return lanes == INTO_OUT || lanes >= LOAD_REG32; }

/* mem_shared_load_reg32_quiet on twin 1 as the executor calls it without an observer: every
 * field of the access record but the four it may read (op, insn_id, elem_bytes, vec) poisoned,
 * so that reading one faults or differs, and after the call every field but acc->addr as it
 * was (no result written). The record is then put back as the caller rewrites it before the
 * general path (acc->addr kept). */
static int twin1_load_quiet(twin *w, const uint64_t *row, uint64_t base, uint64_t *out,
                            int lanes)
{
    static mem_access full, poisoned;
    full = w->acc;
    memset(&w->acc, 0x5C, sizeof w->acc);
    w->acc.op = full.op;
    w->acc.insn_id = full.insn_id;
    w->acc.elem_bytes = full.elem_bytes;
    w->acc.vec = full.vec;
    memset(w->acc.addr, 0xA5, sizeof w->acc.addr); /* as twin1_load_reg leaves it */
    poisoned = w->acc;
    int rc = lanes == LOAD_QUIET_MASK
                 ? mem_shared_load_reg32_quiet_mask(w->ms, &w->ctx, &w->acc, row, base,
                                                    full.active, out)
                 : mem_shared_load_reg32_quiet(w->ms, &w->ctx, &w->acc, row, base, out);
    memcpy(poisoned.addr, w->acc.addr, sizeof poisoned.addr);
    assert_memory_equal(&poisoned, &w->acc, sizeof poisoned);
    memcpy(full.addr, w->acc.addr, sizeof full.addr);
    w->acc = full;
    return rc;
}

/* mem_shared_load_reg(32) on twin 1 with a row and offset that give acc->addr's offsets: the row's
 * upper halves junk under 32-bit arithmetic (the keep must drop them), the offset 0x1000 below
 * (which wraps lanes below it under either). acc->addr is cleared first: the call must write it
 * whether or not it takes the access. */
static int twin1_load_reg(twin *w, int lanes)
{
    static const uint64_t base = 0x1000;
    uint64_t row[MEM_LANES], want[MEM_LANES];
    uint64_t keep = lanes == LOAD_REG64 ? UINT64_MAX : 0xFFFFFFFFull;
    memcpy(want, w->acc.addr, sizeof want);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        row[l] = want[l] - base;
        if (keep != UINT64_MAX)
            row[l] = (row[l] & keep) | (0xABCD0000ull + l) << 32;
    }
    memset(w->acc.addr, 0xA5, sizeof w->acc.addr);
    for (uint32_t l = 0; l < MEM_LANES; l++) w->out[l] = 0x0DD0000000000000ull | l;
    uint64_t *out = lanes == LOAD_REG_ON || lanes == LOAD_QUIET_ON ? row : w->out;
    int rc;
    if (lanes >= LOAD_QUIET)
        rc = twin1_load_quiet(w, row, base, out, lanes);
    else
        rc = keep == UINT64_MAX ? mem_shared_load_reg(w->ms, &w->ctx, &w->acc, row, base, out)
                                : mem_shared_load_reg32(w->ms, &w->ctx, &w->acc, row, base, out);
    if (lanes < LOAD_QUIET || (rc && lanes != LOAD_QUIET_MASK)) /* else acc->addr is scratch */
        assert_memory_equal(w->acc.addr, want, sizeof want);
    else
        memcpy(w->acc.addr, want, sizeof want);
    if (out == row && rc == 0)
        memcpy(w->out, row, sizeof row);
    for (uint32_t l = 0; l < MEM_LANES && out != row; l++) /* inactive lanes keep their values */
        if (rc || !((w->acc.active >> l) & 1u))
            assert_int_equal(w->out[l], 0x0DD0000000000000ull | l);
    return rc;
}

/* The access on twin 1: mem_shared_warp, else memsys_access (with acc->data as it was). */
static void twin1_access(fixture *fx, int lanes)
{
    twin *w = &fx->t[1];
    uint64_t in[MEM_LANES];
    uint8_t data[MEM_LANES][MEM_MAX_LANE_BYTES];
    memcpy(data, w->acc.data, sizeof data);
    if (lanes == FROM_IN) {
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            in[l] = 0xDEADBEEF00000000ull | l;
            memcpy(&in[l], w->acc.data[l], w->acc.elem_bytes < 8 ? w->acc.elem_bytes : 8);
        }
        memset(w->acc.data, 0xEE, sizeof w->acc.data);
    }
    if (lanes >= LOAD_REG32)
        w->direct = twin1_load_reg(w, lanes) == 0;
    else
        w->direct = mem_shared_warp(w->ms, &w->ctx, &w->acc, lanes == INTO_OUT ? w->out : NULL,
                                    lanes == FROM_IN ? in : NULL) == 0;
    if (!w->direct)
        memcpy(w->acc.data, data, sizeof data);
    w->rc = w->direct ? 0 : memsys_access(w->ms, &w->ctx, &w->acc, &w->fault);
    if (w->direct)
        w->fault.kind = MEM_FAULT_NONE;
}

/* The two twins agree: return, fault, results (but those of a load the quiet entry took,
 * which writes none), data (twin 1's out[] when it filled it), shared memory and every
 * counter. */
static void same_outcome(const fixture *fx, int lanes)
{
    const twin *a = &fx->t[0], *b = &fx->t[1];
    assert_int_equal(a->rc, b->rc);
    assert_int_equal(a->fault.kind, b->fault.kind);
    if (a->rc < 0) {
        assert_int_equal(a->fault.lane, b->fault.lane);
        assert_string_equal(a->fault.what, b->fault.what);
    }
    const mem_access *x = &a->acc, *y = &b->acc;
    if (lanes < LOAD_QUIET || !b->direct) {
        assert_int_equal(x->levels, y->levels);
        assert_int_equal(x->nserved, y->nserved);
        assert_int_equal(x->shared_wavefronts, y->shared_wavefronts);
        assert_int_equal(x->l1_tags, y->l1_tags);
        assert_int_equal(x->const_lookups, y->const_lookups);
        assert_int_equal(x->window_lanes, y->window_lanes);
        assert_int_equal(x->misaligned_lanes, y->misaligned_lanes);
        assert_int_equal(x->dram_read_bytes + x->dram_write_bytes,
                         y->dram_read_bytes + y->dram_write_bytes);
    }
    uint32_t bytes = (uint32_t)x->elem_bytes * x->vec;
    if (a->rc == 0 && x->op == MEM_OP_LOAD) {
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            if (!((x->active >> l) & 1u))
                continue;
            if (fills_out(lanes) && b->direct) {
                uint64_t v = 0;
                memcpy(&v, x->data[l], bytes);
                assert_int_equal(b->out[l], v);
            } else {
                assert_memory_equal(x->data[l], y->data[l], bytes);
            }
        }
    }
    assert_memory_equal(x->addr, y->addr, sizeof x->addr);
    assert_memory_equal(a->shared, b->shared, SHARED_BYTES);
    assert_memory_equal(memsys_insn_counters(a->ms), memsys_insn_counters(b->ms),
                        INSNS * sizeof(mem_counters));
    assert_memory_equal(memsys_unattributed_counters(a->ms), memsys_unattributed_counters(b->ms),
                        sizeof(mem_counters));
}

/* Shape s on both twins (plain scans, then AVX2 ones where the host has them); returns whether
 * the direct path took it (the same both times). */
static int run(fixture *fx, const shape *s, uint32_t active, int lanes)
{
    int taken = -1;
    for (int avx2 = 0; avx2 <= cpu_has_avx2(); avx2++) {
        fx->t[1].ms->host_avx2 = (uint8_t)avx2;
        describe(fx, 0, s, active);
        fx->t[0].rc = memsys_access(fx->t[0].ms, &fx->t[0].ctx, &fx->t[0].acc, &fx->t[0].fault);
        describe(fx, 1, s, active);
        twin1_access(fx, lanes);
        same_outcome(fx, lanes);
        if (taken >= 0)
            assert_int_equal(taken, fx->t[1].direct);
        taken = fx->t[1].direct;
    }
    return taken;
}

/* The wavefronts of the last access (twin 0's, which same_outcome held twin 1's to, and which
 * the quiet entry does not write). */
static uint32_t wavefronts(const fixture *fx) { return fx->t[0].acc.shared_wavefronts; }

static void test_patterns_match_general_path(void **state)
{
    fixture *fx = *state;
    static const struct {
        shape s;
        uint32_t wavefronts;
    } cases[] = {
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 4}, 1},       /* a row of words */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4092, 0}, 1},    /* one word, the window's last */
        {{MEM_OP_LOAD, 4, 1, TWO_ROWS, 128, 64}, 1},   /* two broadcast words of one block */
        {{MEM_OP_LOAD, 4, 1, TWO_ROWS, 64, 64}, 1},    /* two blocks, different banks */
        {{MEM_OP_LOAD, 4, 1, TWO_ROWS, 0, 128}, 2},    /* the same bank twice */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 8}, 2},       /* stride 2 words */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4, 16}, 4},      /* stride 4 words */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 8, 132}, 1},     /* a padded column: 33 words apart */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 128}, 32},    /* an unpadded column */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4, 64}, 16},
        {{MEM_OP_LOAD, 4, 1, SCATTERED, 256, 4}, 1},   /* a permutation of one block */
        {{MEM_OP_LOAD, 4, 1, SCATTERED, 0, 128}, 32},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4092, -4ull}, 1}, /* descending */
        {{MEM_OP_LOAD, 4, 1, RUNS, 76, 72}, 2},        /* words 19-34 and 37-52 */
        {{MEM_OP_LOAD, 4, 1, RUNS, 4, 72}, 2},         /* words 1-16 and 19-34 */
        {{MEM_OP_LOAD, 4, 1, RUNS, 0, 64}, 1},         /* words 0-31 */
        {{MEM_OP_LOAD, 4, 1, RUNS, 64, 256}, 2},       /* 16 banks twice */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4092, -132ull}, 1}, /* a padded column upwards */
        {{MEM_OP_LOAD, 4, 1, STRIDED, 3968, -128ull}, 32},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 24}, 2},      /* stride 6 words: banks repeat every 16 lanes */
        {{MEM_OP_LOAD, 4, 1, SHUFFLED, 0, 132}, 1},
        {{MEM_OP_LOAD, 4, 1, SHUFFLED, 8, 128}, 32},
        {{MEM_OP_LOAD, 8, 1, STRIDED, 0, 8}, 2},       /* two phases of 16 lanes */
        {{MEM_OP_LOAD, 8, 1, STRIDED, 8, 0}, 2},
        {{MEM_OP_LOAD, 8, 1, STRIDED, 0, 16}, 4},      /* lanes l, l + 8 share banks */
        {{MEM_OP_LOAD, 4, 2, STRIDED, 0, 8}, 2},
        {{MEM_OP_LOAD, 16, 1, STRIDED, 0, 16}, 4},     /* four phases of 8 lanes */
        {{MEM_OP_LOAD, 4, 4, STRIDED, 16, 0}, 4},
        {{MEM_OP_LOAD, 16, 1, STRIDED, 0, 32}, 8},
        {{MEM_OP_STORE, 4, 1, STRIDED, 0, 4}, 1},
        {{MEM_OP_STORE, 4, 1, STRIDED, 12, 0}, 1},     /* every lane on one word */
        {{MEM_OP_STORE, 4, 1, TWO_ROWS, 64, 128}, 2},
        {{MEM_OP_STORE, 4, 1, STRIDED, 0, 132}, 1},
        {{MEM_OP_STORE, 4, 1, STRIDED, 0, 128}, 32},
        {{MEM_OP_STORE, 8, 1, STRIDED, 256, 8}, 2},
        {{MEM_OP_STORE, 16, 1, SCATTERED, 512, 16}, 4},
        {{MEM_OP_STORE, 4, 4, STRIDED, 0, 32}, 8},
    };
    uint32_t runs = 1 + (uint32_t)cpu_has_avx2(); /* run() makes each access once per build */
    const mem_counters *c = &memsys_insn_counters(fx->t[1].ms)[3];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_true(run(fx, &cases[i].s, UINT32_MAX, IN_DATA));
        assert_int_equal(wavefronts(fx), cases[i].wavefronts);
        assert_int_equal(c->shared.requests, (i + 1) * runs);
    }
    assert_int_equal(c->shared.wavefronts, 247 * runs);
    assert_int_equal(c->shared.bank_conflicts, (247 - 57) * runs); /* the cases: 57 phases */
}

static void test_store_lane_order(void **state)
{
    fixture *fx = *state;
    shape s = {MEM_OP_STORE, 4, 1, STRIDED, 40, 0};
    assert_true(run(fx, &s, UINT32_MAX, IN_DATA));
    uint8_t want[4] = {32, 33, 34, 35}; /* lane 31's bytes: the last lane writes last */
    assert_memory_equal(fx->t[1].shared + 40, want, 4);
    assert_int_equal(fx->t[1].shared[44], (uint8_t)(44 * 7 + 1));
}

/* Loads into out[]: 4-byte elements zero-extended, 8-byte ones whole; acc->data untouched. */
static void test_load_into_registers(void **state)
{
    fixture *fx = *state;
    static const shape shapes[] = {
        {MEM_OP_LOAD, 4, 1, STRIDED, 0, 4},     {MEM_OP_LOAD, 4, 1, STRIDED, 4220, 0},
        {MEM_OP_LOAD, 4, 1, STRIDED, 4, 132},   {MEM_OP_LOAD, 4, 1, SCATTERED, 0, 128},
        {MEM_OP_LOAD, 8, 1, STRIDED, 0, 8},     {MEM_OP_LOAD, 8, 1, STRIDED, 8, 128},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        assert_true(run(fx, &shapes[i], UINT32_MAX, INTO_OUT));
    uint64_t want = 0;
    memcpy(&want, fx->t[1].shared + 8 + 5 * 128, 8);
    assert_int_equal(fx->t[1].out[5], want);
    assert_int_equal(fx->t[1].acc.data[5][0], 6); /* describe()'s bytes, not the loaded ones */
    /* Shapes out[] cannot hold go through acc->data or the general path. */
    shape wide = {MEM_OP_LOAD, 4, 2, STRIDED, 0, 8};
    assert_false(run(fx, &wide, UINT32_MAX, INTO_OUT));
    shape b128 = {MEM_OP_LOAD, 16, 1, STRIDED, 0, 16};
    assert_false(run(fx, &b128, UINT32_MAX, INTO_OUT));
    shape store = {MEM_OP_STORE, 4, 1, STRIDED, 0, 4};
    assert_false(run(fx, &store, UINT32_MAX, INTO_OUT));
}

/* mem_shared_load_reg and mem_shared_load_reg32, the offsets made from a register row (64-bit
 * and 32-bit address arithmetic, and the 32-bit one loading into its own row), and
 * mem_shared_load_reg32_quiet, take what mem_shared_warp takes of those loads, with the same
 * outcome (data, counts, wavefronts, results, the offsets left in acc->addr), and decline the
 * same: broadcasts of one word and of two, a row of
 * words, the padded and unpadded columns, strides of 2 and 6 words, a permutation, two runs of
 * a stencil's rows, 8-byte lanes in and across blocks, one lane alone at the lowest or highest
 * word, and misaligned lanes, lanes past the window and lanes at 2^32 and above. */
static void test_load_reg_as_shared_warp(void **state)
{
    fixture *fx = *state;
    static const struct {
        shape s;
        int taken;
        uint32_t wavefronts;
    } cases[] = {
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4092, 0}, 1, 1},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 0}, 1, 1},
        {{MEM_OP_LOAD, 4, 1, TWO_ROWS, 128, 64}, 1, 1},
        {{MEM_OP_LOAD, 4, 1, TWO_ROWS, 0, 128}, 1, 2},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 64, 4}, 1, 1},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 8, 132}, 1, 1},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 128}, 1, 32},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 8}, 1, 2},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 24}, 1, 2},
        {{MEM_OP_LOAD, 4, 1, SCATTERED, 256, 4}, 1, 1},
        {{MEM_OP_LOAD, 4, 1, RUNS, 76, 72}, 1, 2},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4092, -132ull}, 1, 1},
        {{MEM_OP_LOAD, 8, 1, STRIDED, 0, 8}, 1, 2},
        {{MEM_OP_LOAD, 8, 1, STRIDED, 8, 128}, 1, 32},
        {{MEM_OP_LOAD, 8, 1, STRIDED, 4216, 0}, 1, 2},
        /* the lowest or the highest offset in one lane alone, a bank's row away */
        {{MEM_OP_LOAD, 4, 1, LANE1_AT, 128, -128ull}, 1, 2},
        {{MEM_OP_LOAD, 4, 1, LANE1_AT, 0, 256}, 1, 2},
        {{MEM_OP_LOAD, 4, 1, ODD_LANE, 0, 2}, 0, 0},
        {{MEM_OP_LOAD, 4, 1, ODD_LANE, 0, 4224}, 0, 0},
        {{MEM_OP_LOAD, 8, 1, ODD_LANE, 0, 4}, 0, 0},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 4112, 4}, 0, 0},
        {{MEM_OP_LOAD, 4, 1, ODD_LANE, 0, (1ull << 32) + 4}, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const shape *s = &cases[i].s;
        assert_int_equal(run(fx, s, UINT32_MAX, INTO_OUT), cases[i].taken);
        for (int lanes = LOAD_REG32; lanes <= LOAD_QUIET_MASK; lanes++) {
            /* At 2^32 and above 32-bit arithmetic wraps: another access, which the twin 0
             * does not make. */
            if (s->p == ODD_LANE && s->stride >> 32 && lanes != LOAD_REG64)
                continue;
            assert_int_equal(run(fx, s, UINT32_MAX, lanes), cases[i].taken);
            if (cases[i].taken)
                assert_int_equal(wavefronts(fx), cases[i].wavefronts);
        }
    }
}

/* mem_shared_load_reg32_quiet_mask with partial warps against memsys_access: the shapes of
 * test_load_reg_as_shared_warp (and a tree reduction's `sdata[tid + s]`) under masks of the
 * low half, one lane, the two ends, every other lane and scattered lanes. A misaligned or
 * outside lane left inactive no longer stops the load; one left active does. */
static void test_load_quiet_mask_partial(void **state)
{
    fixture *fx = *state;
    static const shape shapes[] = {
        {MEM_OP_LOAD, 4, 1, STRIDED, 4092, 0},   {MEM_OP_LOAD, 4, 1, STRIDED, 64, 4},
        {MEM_OP_LOAD, 4, 1, TWO_ROWS, 0, 128},   {MEM_OP_LOAD, 4, 1, STRIDED, 8, 132},
        {MEM_OP_LOAD, 4, 1, STRIDED, 0, 128},    {MEM_OP_LOAD, 4, 1, STRIDED, 0, 8},
        {MEM_OP_LOAD, 4, 1, STRIDED, 0, 24},     {MEM_OP_LOAD, 4, 1, SCATTERED, 256, 4},
        {MEM_OP_LOAD, 4, 1, RUNS, 76, 72},       {MEM_OP_LOAD, 4, 1, SHUFFLED, 8, 128},
        {MEM_OP_LOAD, 4, 1, STRIDED, 4092, -132ull},
        {MEM_OP_LOAD, 8, 1, STRIDED, 0, 8},      {MEM_OP_LOAD, 8, 1, STRIDED, 8, 128},
        {MEM_OP_LOAD, 8, 1, STRIDED, 0, 16},     {MEM_OP_LOAD, 4, 1, LANE1_AT, 128, -128ull},
        {MEM_OP_LOAD, 4, 1, LANE1_AT, 0, 256},   {MEM_OP_LOAD, 4, 1, ODD_LANE, 0, 2},
        {MEM_OP_LOAD, 4, 1, ODD_LANE, 0, 4224},  {MEM_OP_LOAD, 8, 1, ODD_LANE, 0, 4},
        {MEM_OP_LOAD, 4, 1, STRIDED, 4112, 4},   {MEM_OP_LOAD, 4, 1, STRIDED, 2048, 4},
    };
    static const uint32_t masks[] = {0x0000FFFFu, 0x1u,        0x80000000u, 0x80000001u,
                                     0xAAAAAAAAu, 0x55555555u, 0x00F0F00Fu, 0x7FFFFFFFu};
    uint32_t taken = 0, runs = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
            taken += (uint32_t)run(fx, &shapes[i], masks[m], LOAD_QUIET_MASK);
            runs++;
        }
    assert_true(taken > runs / 2);
    assert_true(taken < runs);
    /* ODD_LANE's misaligned lane 9 (stride 2): taken only while it is left out */
    shape odd = {MEM_OP_LOAD, 4, 1, ODD_LANE, 0, 2};
    uint32_t with = 0, without = 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        with |= (uint32_t)run(fx, &odd, 1u << l, LOAD_QUIET_MASK) << l;
        without |= (uint32_t)run(fx, &odd, ~(1u << l), LOAD_QUIET_MASK) << l;
    }
    assert_int_equal(with, ~(1u << 9));
    assert_int_equal(without, 1u << 9);
    /* a reduction step: lanes 0-7 read words 8-15 */
    shape step = {MEM_OP_LOAD, 4, 1, STRIDED, 32, 4};
    assert_true(run(fx, &step, 0xFFu, LOAD_QUIET_MASK));
    assert_int_equal(wavefronts(fx), 1);
}

/* Stores from in[]: the low 4 bytes of each value, or all 8, in lane order; acc->data unread. */
static void test_store_from_registers(void **state)
{
    fixture *fx = *state;
    static const shape shapes[] = {
        {MEM_OP_STORE, 4, 1, STRIDED, 0, 4},    {MEM_OP_STORE, 4, 1, STRIDED, 4220, 0},
        {MEM_OP_STORE, 4, 1, STRIDED, 4, 132},  {MEM_OP_STORE, 4, 1, SCATTERED, 0, 128},
        {MEM_OP_STORE, 8, 1, STRIDED, 0, 8},    {MEM_OP_STORE, 8, 1, STRIDED, 8, 128},
        {MEM_OP_STORE, 8, 1, STRIDED, 2048, 0},
        /* spans of 31 elements that are not rows: not one copy */
        {MEM_OP_STORE, 4, 1, SCATTERED, 512, 4},  {MEM_OP_STORE, 4, 1, SHUFFLED, 0, 4},
        {MEM_OP_STORE, 4, 1, LANE1_AT, 64, 20},   {MEM_OP_STORE, 8, 1, LANE1_AT, 256, 40},
        {MEM_OP_STORE, 4, 1, STRIDED, 4092, -4ull}, /* a row in descending lanes */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        assert_true(run(fx, &shapes[i], UINT32_MAX, FROM_IN));
    uint8_t want[8] = {32, 33, 34, 35, 36, 37, 38, 39}; /* lane 31's bytes */
    assert_memory_equal(fx->t[1].shared + 2048, want, 8);
    shape s = {MEM_OP_STORE, 4, 1, STRIDED, 0, 4};
    assert_true(run(fx, &s, UINT32_MAX, FROM_IN));
    uint8_t word[4] = {6, 7, 8, 9}; /* lane 5's low bytes, not the value's junk */
    assert_memory_equal(fx->t[1].shared + 20, word, 4);
    /* Shapes in[] cannot hold, and loads, go through acc->data or the general path. */
    shape pair = {MEM_OP_STORE, 4, 2, STRIDED, 0, 8};
    assert_false(run(fx, &pair, UINT32_MAX, FROM_IN));
    shape b128 = {MEM_OP_STORE, 16, 1, STRIDED, 0, 16};
    assert_false(run(fx, &b128, UINT32_MAX, FROM_IN));
    shape load = {MEM_OP_LOAD, 4, 1, STRIDED, 0, 4};
    assert_false(run(fx, &load, UINT32_MAX, FROM_IN));
}

/* mem_shared_warp on twin 1 returns 1 and leaves the access, the counters and shared memory as
 * they were. */
static void declined_unchanged(fixture *fx)
{
    twin *w = &fx->t[1];
    mem_access before = w->acc;
    uint8_t shared[SHARED_BYTES];
    mem_counters counters[INSNS];
    memcpy(shared, w->shared, sizeof shared);
    memcpy(counters, memsys_insn_counters(w->ms), sizeof counters);
    w->out[0] = 0x5A5A;
    assert_int_equal(mem_shared_warp(w->ms, &w->ctx, &w->acc, w->out, NULL), 1);
    uint64_t in[MEM_LANES] = {0};
    assert_int_equal(mem_shared_warp(w->ms, &w->ctx, &w->acc, NULL, in), 1);
    assert_int_equal(mem_shared_warp(w->ms, &w->ctx, &w->acc, NULL, NULL), 1);
    assert_memory_equal(&before, &w->acc, sizeof before);
    assert_memory_equal(shared, w->shared, sizeof shared);
    assert_memory_equal(counters, memsys_insn_counters(w->ms), sizeof counters);
    assert_int_equal(w->out[0], 0x5A5A);
}

static void test_declines_what_general_path_must_do(void **state)
{
    fixture *fx = *state;
    static const struct {
        shape s;
        uint32_t active;
        int fault; /* the general path's answer: -1 a fault, 0 done */
    } cases[] = {
        {{MEM_OP_LOAD, 4, 1, ODD_LANE, 0, 2}, UINT32_MAX, -1},            /* misaligned */
        {{MEM_OP_LOAD, 4, 1, ODD_LANE, 0, SHARED_BYTES}, UINT32_MAX, -1}, /* past the end */
        {{MEM_OP_STORE, 4, 1, ODD_LANE, 0, SHARED_BYTES - 2}, UINT32_MAX, -1},
        {{MEM_OP_LOAD, 4, 1, ODD_LANE, 0, (1ull << 32) + 4}, UINT32_MAX, -1},
        {{MEM_OP_LOAD, 4, 1, STRIDED, 0, 4}, 0x7FFFFFFFu, 0},             /* not a full warp */
        {{MEM_OP_LOAD, 2, 1, STRIDED, 0, 2}, UINT32_MAX, 0},              /* 2-byte lanes */
        {{MEM_OP_STORE, 1, 1, STRIDED, 0, 1}, UINT32_MAX, 0},
        {{MEM_OP_LOAD, 8, 4, STRIDED, 0, 32}, UINT32_MAX, 0},             /* 32-byte lanes */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        describe(fx, 1, &cases[i].s, cases[i].active);
        declined_unchanged(fx);
        assert_false(run(fx, &cases[i].s, cases[i].active, IN_DATA));
        assert_int_equal(fx->t[1].rc, cases[i].fault);
    }
    /* The uniform hint (counted by the general path), an atomic, another space. */
    shape s = {MEM_OP_LOAD, 4, 1, STRIDED, 0, 4};
    describe(fx, 1, &s, UINT32_MAX);
    fx->attrs[1].uniform = 1;
    declined_unchanged(fx);
    describe(fx, 1, &s, UINT32_MAX);
    fx->t[1].acc.op = MEM_OP_ATOMIC;
    declined_unchanged(fx);
    describe(fx, 1, &s, UINT32_MAX);
    fx->t[1].acc.space = IR_SPACE_GENERIC;
    declined_unchanged(fx);
}

/* Under IR_WINDOW_ZERO a lane outside the window is a window error the general path reports. */
static void test_window_errors_take_general_path(void **state)
{
    fixture *fx = *state;
    shape s = {MEM_OP_LOAD, 4, 1, ODD_LANE, 0, SHARED_BYTES + 64};
    int taken = 1;
    for (int avx2 = 0; avx2 <= cpu_has_avx2(); avx2++) {
        fx->t[1].ms->host_avx2 = (uint8_t)avx2;
        for (int k = 0; k < 2; k++) {
            describe(fx, k, &s, UINT32_MAX)->window_errors = IR_WINDOW_ZERO;
            if (k) {
                twin1_access(fx, IN_DATA);
                taken &= fx->t[1].direct;
            } else {
                fx->t[0].rc = memsys_access(fx->t[0].ms, &fx->t[0].ctx, &fx->t[0].acc,
                                            &fx->t[0].fault);
            }
        }
        same_outcome(fx, IN_DATA);
    }
    assert_false(taken);
    assert_int_equal(fx->t[1].rc, 0);
    assert_int_equal(fx->t[1].acc.window_lanes, 1u << 9);
}

/* Banks that are not a power of two: always the general path. */
static void test_other_banks_take_general_path(void **state)
{
    fixture *fx = *state;
    shape s = {MEM_OP_LOAD, 4, 1, STRIDED, 0, 4};
    assert_false(run(fx, &s, UINT32_MAX, IN_DATA));
    assert_false(run(fx, &s, UINT32_MAX, LOAD_REG32));
    assert_false(run(fx, &s, UINT32_MAX, LOAD_REG64));
    assert_false(run(fx, &s, UINT32_MAX, LOAD_QUIET));
    assert_int_equal(fx->t[1].rc, 0);
    assert_int_equal(wavefronts(fx), 2); /* 32 words on 24 banks */
    assert_false(run(fx, &s, 0xFFFFu, LOAD_QUIET_MASK));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_patterns_match_general_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_lane_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_into_registers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_reg_as_shared_warp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_quiet_mask_partial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_from_registers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_declines_what_general_path_must_do, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_window_errors_take_general_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_banks_take_general_path, setup_24_banks,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
