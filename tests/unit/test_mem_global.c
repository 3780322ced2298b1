/* Unit tests of mem_global_warp (src/mem/mem_global.c), the direct path of a full warp's
 * contiguous global load or store, held to the general path on a twin memory system built the
 * same way: twin 0 makes every access with the entry of memsys.h the mode names
 * (memsys_access, memsys_load_if_local, memsys_store_deferred); twin 1 with mem_global_warp
 * and, when it declines (returns 1), with that entry, as the executor does. After every access
 * both must agree on the return, the fault, every result (levels, each served sector with its
 * level and L2 slice, L1 tags, DRAM bytes), the loaded data (twin 1's register array when it
 * filled one), every counter, the statistics of both L1s and the L2 and the state of every
 * line of the buffers in them; at the end, on the bytes in DRAM. The shapes cover one to four
 * runs of lanes, aligned and unaligned, 4-, 8- and 16-byte lanes, L1 hits, line misses, lines
 * present with some sectors, and a long mixed trace with evictions; the attributes the direct
 * path covers (plain, streaming, read-only, eviction classes, no-allocate, policy descriptors,
 * an access-policy window) and those it declines; the lane scans' plain and AVX2 builds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/cpu.h"
#include "mem/mem_global.h"
#include "mem/mem_policy.h"
#include "mem/memsys.h"
#include "mem/memsys_internal.h"
#include "cache_twins.h"
#include "memsys_test.h"

/* Two buffers of 64 KiB each: together twice the small L2, so that a trace evicts from it. */
enum { INSNS = 8, BUF_BYTES = 65536, INSN = 5 };

typedef struct twin {
    memsys *ms;
    mem_ctx ctx;
    mem_access acc;
    mem_fault fault;
    memsys_store_log *log;
    uint64_t out[MEM_LANES];
    int rc, direct;
} twin;

typedef struct fixture {
    twin t[2];
    diag_list dl;
    ir_mem_attrs attrs; /* both twins' accesses use it (a deferred store's log keeps it) */
    uint64_t buf[2];    /* the buffers' addresses, the same on both twins */
    uint32_t seq;       /* accesses made: store data differ from one store to the next */
    uint8_t l1_bits;    /* IR_L1_* bits every load asks for (IR_L1_ALLOCATE where the GPU does
                           not cache global loads) */
} fixture;

/* Which memory system: the small h100 one, or one whose L1 allocates global stores and caches
 * global loads only when they ask (cache_global_loads 0). */
enum { PLAIN_GPU, STORE_ALLOCATE_GPU };

static void twin_init(fixture *fx, twin *w, int gpu)
{
    memsys_config cfg;
    memsys_test_small_h100(&cfg);
    if (gpu == STORE_ALLOCATE_GPU) {
        cfg.l1.global_store_allocate = 1;
        cfg.l1.cache_global_loads = 0;
    }
    w->ms = memsys_create(&cfg, &fx->dl);
    assert_non_null(w->ms);
    assert_int_equal(memsys_set_insn_count(w->ms, INSNS), 0);
    uint8_t bytes[BUF_BYTES];
    for (int b = 0; b < 2; b++) {
        assert_int_equal(memsys_alloc(w->ms, BUF_BYTES, 256, &fx->buf[b]), 0);
        for (uint32_t i = 0; i < BUF_BYTES; i++) bytes[i] = (uint8_t)(i * 13 + b * 101 + 7);
        assert_int_equal(memsys_host_write(w->ms, fx->buf[b], bytes, BUF_BYTES), 0);
    }
    w->log = memsys_store_log_create(0);
    assert_non_null(w->log);
    w->ctx = (mem_ctx){.sm = 0, .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = 256};
}

static int setup_gpu(void **state, int gpu)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    diag_list_init(&fx.dl);
    twin_init(&fx, &fx.t[0], gpu);
    twin_init(&fx, &fx.t[1], gpu);
    fx.l1_bits = gpu == STORE_ALLOCATE_GPU ? IR_L1_ALLOCATE : 0;
    *state = &fx;
    return 0;
}

static int setup(void **state) { return setup_gpu(state, PLAIN_GPU); }
static int setup_store_allocate(void **state) { return setup_gpu(state, STORE_ALLOCATE_GPU); }

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

/* A warp's lanes: `runs` runs (1 to 6) of consecutive lanes, run r from lane 32 r / runs on,
 * its first lane at byte `base` + r x `gap` of buffer 0 (gap may wrap around: a run below the
 * one before), each lane `elem_bytes` x `vec` after the one before it. */
typedef struct shape {
    mem_op op;
    uint32_t elem_bytes, vec, runs;
    uint64_t base, gap;
} shape;

/* How twin 1 hands over the lanes' values: in acc->data, or one 4- or 8-byte value a lane in a
 * register array (a load's out[], a store's in[]). */
enum { IN_DATA, IN_REGS };

/* Describes shape s on twin k's access (space `space`, attributes fx->attrs with the shape's
 * sizes), with store data that depend on the access's number. */
static void describe(fixture *fx, int k, const shape *s, ir_space space, uint32_t active)
{
    twin *w = &fx->t[k];
    fx->attrs.l1 |= fx->l1_bits;
    mem_access *a = memsys_test_access(&w->acc, &fx->attrs, s->op, space, s->elem_bytes, s->vec,
                                       active, INSN);
    uint32_t bytes = s->elem_bytes * s->vec;
    for (uint32_t r = 0; r < s->runs; r++)
        for (uint32_t l = MEM_LANES * r / s->runs; l < MEM_LANES * (r + 1) / s->runs; l++)
            a->addr[l] = fx->buf[0] + s->base + r * s->gap + (l - MEM_LANES * r / s->runs) * bytes;
    for (uint32_t l = 0; l < MEM_LANES; l++)
        for (uint32_t b = 0; b < bytes; b++) a->data[l][b] = (uint8_t)(fx->seq * 3 + l * 5 + b);
    a->policy = policy_encode_fractional(IR_EVICT_LAST, IR_EVICT_FIRST, 0.5f);
}

/* The general entry of `mode` on twin w (memsys_load_if_local returns 1 where the direct path
 * returns 2). */
static int general(twin *w, mem_global_mode mode)
{
    w->ctx.store_log = mode == MEM_GLOBAL_DEFERRED ? w->log : NULL;
    switch (mode) {
    case MEM_GLOBAL_IF_LOCAL: return memsys_load_if_local(w->ms, &w->ctx, &w->acc, &w->fault);
    case MEM_GLOBAL_DEFERRED: return memsys_store_deferred(w->ms, &w->ctx, &w->acc, &w->fault);
    default: return memsys_access(w->ms, &w->ctx, &w->acc, &w->fault);
    }
}

/* The access on twin 1: mem_global_warp, else the general entry (with acc->data as it was). */
static void twin1_access(fixture *fx, mem_global_mode mode, int lanes, int results)
{
    twin *w = &fx->t[1];
    uint64_t in[MEM_LANES];
    uint8_t data[MEM_LANES][MEM_MAX_LANE_BYTES];
    int regs = lanes == IN_REGS;
    memcpy(data, w->acc.data, sizeof data);
    if (regs && w->acc.op == MEM_OP_STORE) { /* the low bytes are the store's, the rest junk */
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            in[l] = 0xDEADBEEF00000000ull | l;
            memcpy(&in[l], w->acc.data[l], w->acc.elem_bytes < 8 ? w->acc.elem_bytes : 8);
        }
        memset(w->acc.data, 0xEE, sizeof w->acc.data);
    }
    for (uint32_t l = 0; l < MEM_LANES; l++) w->out[l] = 0xABABABABABABABABull;
    w->ctx.store_log = mode == MEM_GLOBAL_DEFERRED ? w->log : NULL;
    w->rc = mem_global_warp(w->ms, &w->ctx, &w->acc, mode, results,
                            regs && w->acc.op == MEM_OP_LOAD ? w->out : NULL,
                            regs && w->acc.op == MEM_OP_STORE ? in : NULL, &w->fault);
    w->direct = w->rc != 1;
    if (w->rc == 2)
        w->rc = 1;
    if (!w->direct) {
        memcpy(w->acc.data, data, sizeof data);
        w->rc = general(w, mode);
    }
    if (w->direct && w->rc == 0)
        w->fault.kind = MEM_FAULT_NONE;
}

/* Every line of both buffers is in the same state in cache c of both twins. */
static void same_lines(const void *arg, const cache *a, const cache *b)
{
    const fixture *fx = arg;
    for (int k = 0; k < 2; k++)
        for (uint64_t at = fx->buf[k]; at < fx->buf[k] + BUF_BYTES; at += 128)
            assert_same_line(a, b, at);
}

/* The two twins' counters, cache statistics and lines are the same. */
static void same_state(const fixture *fx)
{
    const twin *a = &fx->t[0], *b = &fx->t[1];
    assert_same_memsys(a->ms, b->ms, INSNS, 2, same_lines, fx);
}

/* The two twins agree: return, fault, results (unless twin 1 was told to leave them), data,
 * counters, cache statistics and lines. */
static void same_outcome(const fixture *fx, int lanes, int results)
{
    const twin *a = &fx->t[0], *b = &fx->t[1];
    assert_int_equal(a->rc, b->rc);
    assert_int_equal(a->fault.kind, b->fault.kind);
    if (a->rc < 0) {
        assert_int_equal(a->fault.lane, b->fault.lane);
        assert_int_equal(a->fault.address, b->fault.address);
        assert_string_equal(a->fault.what, b->fault.what);
    }
    const mem_access *x = &a->acc, *y = &b->acc;
    if (results || !b->direct || a->rc) {
        assert_int_equal(x->levels, y->levels);
        assert_int_equal(x->nserved, y->nserved);
        assert_memory_equal(x->served, y->served, x->nserved * sizeof x->served[0]);
        assert_int_equal(x->l1_tags, y->l1_tags);
        assert_int_equal(x->shared_wavefronts, y->shared_wavefronts);
        assert_int_equal(x->const_lookups + x->const_misses + x->const_addresses,
                         y->const_lookups + y->const_misses + y->const_addresses);
        assert_int_equal(x->window_lanes | x->misaligned_lanes,
                         y->window_lanes | y->misaligned_lanes);
        assert_int_equal(x->dram_read_bytes, y->dram_read_bytes);
        assert_int_equal(x->dram_write_bytes, y->dram_write_bytes);
    }
    uint32_t bytes = (uint32_t)x->elem_bytes * x->vec;
    if (a->rc == 0 && x->op == MEM_OP_LOAD)
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            if (!((x->active >> l) & 1u)) { /* an inactive lane's register keeps its value */
                if (lanes == IN_REGS && b->direct)
                    assert_int_equal(b->out[l], 0xABABABABABABABABull);
                continue;
            }
            if (lanes == IN_REGS && b->direct) {
                uint64_t v = 0;
                memcpy(&v, x->data[l], bytes);
                assert_int_equal(b->out[l], v);
            } else {
                assert_memory_equal(x->data[l], y->data[l], bytes);
            }
        }
    same_state(fx);
}

/* Shape s on both twins in `mode` by SM `sm`; returns whether the direct path took it. A
 * deferred store's logs are applied to both L2s and compared again. */
static int run_on(fixture *fx, const shape *s, ir_space space, uint32_t active, uint32_t sm,
                  mem_global_mode mode, int lanes, int results)
{
    for (int k = 0; k < 2; k++) {
        describe(fx, k, s, space, active);
        fx->t[k].ctx.sm = sm;
        fx->t[k].acc.nserved = 77; /* what a direct path told to leave the results leaves */
    }
    fx->seq++;
    /* the lane scans' plain build and, every other access, their AVX2 one */
    fx->t[1].ms->host_avx2 = (uint8_t)((fx->seq & 1) && cpu_has_avx2());
    fx->t[0].rc = general(&fx->t[0], mode);
    twin1_access(fx, mode, lanes, results);
    if (!results && fx->t[1].direct && fx->t[1].rc == 0)
        assert_int_equal(fx->t[1].acc.nserved, 77);
    same_outcome(fx, lanes, results);
    if (mode == MEM_GLOBAL_DEFERRED) {
        assert_int_equal(memsys_store_log_apply(fx->t[0].ms, fx->t[0].log), 0);
        assert_int_equal(memsys_store_log_apply(fx->t[1].ms, fx->t[1].log), 0);
        same_outcome(fx, lanes, results);
    }
    return fx->t[1].direct;
}

static int run(fixture *fx, const shape *s, int lanes)
{
    return run_on(fx, s, IR_SPACE_GLOBAL, UINT32_MAX, 0, MEM_GLOBAL_ACCESS, lanes, 1);
}

/* At the end: every dirty byte written back, the same bytes in DRAM. */
static void same_memory(fixture *fx)
{
    static uint8_t x[BUF_BYTES], y[BUF_BYTES];
    assert_int_equal(memsys_finish(fx->t[0].ms), 0);
    assert_int_equal(memsys_finish(fx->t[1].ms), 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(memsys_host_read(fx->t[0].ms, fx->buf[k], x, BUF_BYTES), 0);
        assert_int_equal(memsys_host_read(fx->t[1].ms, fx->buf[k], y, BUF_BYTES), 0);
        assert_memory_equal(x, y, BUF_BYTES);
    }
}

/* Loads and stores of one to four runs: missed lines, then the same lines as L1 hits, lines
 * present with some of their sectors (one run missing: the miss path; two runs: the general
 * read), 4-, 8- and 16-byte lanes, in acc->data and in registers. */
static void test_shapes_match_general_path(void **state)
{
    fixture *fx = *state;
    static const shape taken[] = {
        {MEM_OP_LOAD, 4, 1, 1, 0, 0},        /* one line, missed */
        {MEM_OP_LOAD, 4, 1, 1, 0, 0},        /* the same line, hit */
        {MEM_OP_LOAD, 4, 1, 1, 4, 0},        /* two lines: the first hits, the next misses */
        {MEM_OP_LOAD, 4, 1, 2, 1024 + 8, 512}, /* two runs (a 16 x 16 stencil's rows) */
        {MEM_OP_LOAD, 4, 1, 1, 1024, 0},     /* present lines with their first sectors */
        {MEM_OP_LOAD, 8, 1, 1, 2048, 0},     /* two lines */
        {MEM_OP_LOAD, 4, 2, 1, 4096 + 8, 0}, /* three lines */
        {MEM_OP_LOAD, 16, 1, 1, 8192, 0},    /* four lines */
        {MEM_OP_LOAD, 4, 4, 1, 8192 + 16, 0}, /* five lines, four of them hits */
        {MEM_OP_LOAD, 4, 1, 3, 12288, 256},  /* three runs */
        {MEM_OP_LOAD, 8, 1, 4, 16384 + 64, 1024}, /* four runs */
        {MEM_OP_STORE, 4, 1, 1, 0, 0},       /* a whole line the L1 holds */
        {MEM_OP_STORE, 4, 1, 1, 20480 + 4, 0}, /* two partial lines */
        {MEM_OP_STORE, 8, 1, 2, 20480 + 512, 768},
        {MEM_OP_STORE, 16, 1, 1, 24576, 0},
        {MEM_OP_STORE, 4, 2, 4, 24576 + 4096, 400},
    };
    for (int lanes = IN_DATA; lanes <= IN_REGS; lanes++)
        for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
            int direct = run(fx, &taken[i], lanes);
            /* out[] and in[] hold one 4- or 8-byte element a lane only */
            uint32_t bytes = taken[i].elem_bytes * taken[i].vec;
            assert_int_equal(direct, lanes == IN_DATA || (taken[i].vec == 1 && bytes <= 8));
        }
    /* A line with sectors 0 and 2 valid (a load of lanes 64 bytes apart through the general
     * path), then the whole line: two missing runs, which the miss path leaves to cache_read. */
    shape every_other = {MEM_OP_LOAD, 4, 1, 1, 30720, 0};
    for (int k = 0; k < 2; k++) {
        describe(fx, k, &every_other, IR_SPACE_GLOBAL, 0x3u);
        fx->t[k].acc.addr[1] = fx->buf[0] + 30720 + 64;
        assert_int_equal(memsys_access(fx->t[k].ms, &fx->t[k].ctx, &fx->t[k].acc,
                                       &fx->t[k].fault), 0);
    }
    assert_true(run(fx, &every_other, IN_REGS));
    assert_int_equal(fx->t[1].acc.nserved, 4);
    assert_int_equal(fx->t[1].acc.served[1].level, MEM_LEVEL_L2); /* refetched at the L2 */
    assert_int_equal(fx->t[1].acc.served[2].level, MEM_LEVEL_L1);
    same_memory(fx);
}

/* Partial warps: a tail of active lanes, half a warp, a tile's halo column (one lane in each
 * of two rows), runs broken by inactive lanes; loads into registers leave the inactive lanes'
 * values alone, stores write the active lanes' bytes only. */
static void test_partial_warps(void **state)
{
    fixture *fx = *state;
    static const struct {
        shape s;
        uint32_t active;
    } cases[] = {
        {{MEM_OP_LOAD, 4, 1, 1, 0, 0}, 0x00FFFFFFu},       /* the tail of an array */
        {{MEM_OP_LOAD, 4, 1, 2, 4096 - 4, 512}, 0x00010001u}, /* the halo of a 16 x 16 tile */
        {{MEM_OP_LOAD, 4, 1, 2, 8192, 512}, 0x0000FFFFu},  /* the first row of a tile */
        {{MEM_OP_LOAD, 8, 1, 1, 12288, 0}, 0xFFFF0000u},
        {{MEM_OP_LOAD, 4, 1, 1, 16384 + 64, 0}, 0xFF00FF00u}, /* two runs, lines apart */
        {{MEM_OP_LOAD, 16, 1, 1, 20480, 0}, 0x80000001u},
        {{MEM_OP_LOAD, 4, 1, 1, 0, 0}, 0x00FFFFFFu},       /* the tail again: L1 hits */
        {{MEM_OP_STORE, 4, 1, 1, 24576 + 8, 0}, 0x0FFFFFFFu},
        {{MEM_OP_STORE, 4, 1, 2, 28672 - 4, 512}, 0x00010001u},
        {{MEM_OP_STORE, 8, 1, 1, 32768, 0}, 0xF000000Fu},  /* runs of 4 lanes, two lines apart */
        {{MEM_OP_STORE, 16, 1, 1, 36864, 0}, 0x00000008u},
    };
    for (int lanes = IN_DATA; lanes <= IN_REGS; lanes++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) /* registers: 4, 8 bytes */
            assert_int_equal(run_on(fx, &cases[i].s, IR_SPACE_GLOBAL, cases[i].active, 0,
                                    MEM_GLOBAL_ACCESS, lanes, 1),
                             lanes == IN_DATA || cases[i].s.elem_bytes <= 8);
    /* the halo column's two lanes: one sector each of two lines */
    assert_true(run_on(fx, &cases[1].s, IR_SPACE_GLOBAL, cases[1].active, 1, MEM_GLOBAL_ACCESS,
                       IN_REGS, 1));
    assert_int_equal(fx->t[1].acc.l1_tags, 2);
    assert_int_equal(fx->t[1].acc.nserved, 2);
    /* five runs of lanes: declined */
    shape five = {MEM_OP_LOAD, 4, 1, 1, 40960, 0};
    assert_false(run_on(fx, &five, IR_SPACE_GLOBAL, 0x11111111u, 0, MEM_GLOBAL_ACCESS,
                        IN_REGS, 1));
    same_memory(fx);
}

/* What the direct path declines changes nothing and gets the general path's answer. */
static void test_declined_shapes(void **state)
{
    fixture *fx = *state;
    uint64_t other = fx->buf[1] - fx->buf[0];
    static shape declined[] = {
        {MEM_OP_LOAD, 4, 1, 5, 0, 256},          /* five runs */
        {MEM_OP_LOAD, 4, 1, 2, 0, 96},           /* the second run starts in the first's line */
        {MEM_OP_LOAD, 4, 1, 2, 4096, -1024ull},  /* the second run below the first */
        {MEM_OP_LOAD, 4, 1, 1, 2, 0},            /* misaligned: a fault */
        {MEM_OP_LOAD, 4, 1, 1, BUF_BYTES - 64, 0}, /* past the allocation: a fault */
        {MEM_OP_LOAD, 4, 1, 2, 0, 0},            /* two buffers (gap set below) */
        {MEM_OP_LOAD, 2, 1, 1, 0, 0},            /* 2-byte lanes */
        {MEM_OP_LOAD, 16, 2, 1, 0, 0},           /* 32-byte lanes */
        {MEM_OP_STORE, 1, 1, 1, 0, 0},
        {MEM_OP_STORE, 4, 1, 1, BUF_BYTES - 4, 0}, /* past the allocation: a fault */
    };
    declined[5].gap = other;
    for (size_t i = 0; i < sizeof declined / sizeof declined[0]; i++)
        assert_false(run(fx, &declined[i], IN_DATA));
    assert_int_equal(fx->t[1].rc, -1);
    assert_int_equal(fx->t[1].fault.kind, MEM_FAULT_OUT_OF_BOUNDS);
    /* active lanes in one line that are not consecutive lanes: runs that share a line */
    shape row = {MEM_OP_LOAD, 4, 1, 1, 0, 0};
    assert_false(run_on(fx, &row, IR_SPACE_GLOBAL, 0x55555555u, 0, MEM_GLOBAL_ACCESS, IN_REGS, 1));
    assert_false(run_on(fx, &row, IR_SPACE_GLOBAL, 0, 0, MEM_GLOBAL_ACCESS, IN_DATA, 1));
    /* generic addresses inside an allocation are global ones: taken */
    assert_true(run_on(fx, &row, IR_SPACE_GENERIC, UINT32_MAX, 1, MEM_GLOBAL_ACCESS, IN_REGS, 1));
    /* a store handed out[], a load handed in[]: declined before anything */
    uint64_t regs[MEM_LANES];
    describe(fx, 1, &row, IR_SPACE_GLOBAL, UINT32_MAX);
    assert_int_equal(mem_global_warp(fx->t[1].ms, &fx->t[1].ctx, &fx->t[1].acc,
                                     MEM_GLOBAL_ACCESS, 1, NULL, regs, &fx->t[1].fault), 1);
    row.op = MEM_OP_STORE;
    describe(fx, 1, &row, IR_SPACE_GLOBAL, UINT32_MAX);
    assert_int_equal(mem_global_warp(fx->t[1].ms, &fx->t[1].ctx, &fx->t[1].acc,
                                     MEM_GLOBAL_ACCESS, 1, regs, NULL, &fx->t[1].fault), 1);
    same_state(fx);
    same_memory(fx);
}

/* Attributes: those the direct path takes give the general path's counts, classes and levels;
 * the others are declined. */
static void test_attributes(void **state)
{
    fixture *fx = *state;
    static const struct {
        ir_mem_attrs a;
        int load_taken, store_taken;
    } cases[] = {
        {{.l1_alloc = IR_EVICT_FIRST, .write_mode = IR_WRITE_STREAMING}, 1, 1}, /* .cs */
        {{.l1 = IR_L1_READ_ONLY}, 1, 1},                                       /* .nc */
        {{.l1_alloc = IR_EVICT_LAST, .l2_evict = IR_EVICT_FIRST}, 1, 1},
        {{.l1_alloc = IR_EVICT_NO_ALLOCATE}, 1, 1}, /* a load missing the L1: the general read */
        {{.l1_alloc = IR_EVICT_NORMAL, .l2_evict = IR_EVICT_LAST}, 1, 1},
        {{.has_policy = 1}, 1, 1},                  /* a descriptor: hints line by line */
        {{.l1 = IR_L1_LAST_USE}, 1, 1},
        {{.write_mode = IR_WRITE_THROUGH}, 1, 1},
        {{.write_mode = IR_WRITE_BACK}, 1, 1},
        {{.fill_bytes = 128}, 1, 1},
        {{.sem = IR_SEM_RELAXED, .scope = IR_SCOPE_CTA}, 1, 1},
        {{.fill_bytes = 256}, 0, 1},                /* a fill wider than the line */
        {{.l1 = IR_L1_BYPASS}, 0, 1},               /* .cg */
        {{.l1 = IR_L1_INVALIDATE, .sem = IR_SEM_VOLATILE}, 0, 1},
        {{.sem = IR_SEM_ACQUIRE, .scope = IR_SCOPE_GPU}, 0, 1},
        {{.write_mode = IR_WRITE_BYPASS_L1}, 1, 0},
        {{.uniform = 1}, 0, 0},
        {{.image_dim = IR_IMAGE_1D}, 0, 0},
        {{.l1_ctl = IR_CC_CACHED}, 0, 0},
        {{.l2_ctl = IR_CC_STREAMING}, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        shape s = {MEM_OP_LOAD, 4, 1, 2, (i * 1024) % BUF_BYTES + 4, 256};
        /* where the GPU does not cache global loads, ALLOCATE (fx->l1_bits) makes them */
        fx->attrs = cases[i].a;
        for (int pass = 0; pass < 2; pass++) /* missed, then held */
            assert_int_equal(run(fx, &s, IN_REGS), cases[i].load_taken);
        s.op = MEM_OP_STORE;
        fx->attrs = cases[i].a;
        assert_int_equal(run(fx, &s, IN_DATA), cases[i].store_taken);
        s.op = MEM_OP_LOAD;
        fx->attrs = cases[i].a;
        assert_int_equal(run(fx, &s, IN_DATA), cases[i].load_taken);
    }
    /* --strip-hints: left to access() */
    memset(&fx->attrs, 0, sizeof fx->attrs);
    memsys_set_hint_mode(fx->t[0].ms, 1, 0);
    memsys_set_hint_mode(fx->t[1].ms, 1, 0);
    shape s = {MEM_OP_LOAD, 4, 1, 1, 0, 0};
    assert_false(run(fx, &s, IN_DATA));
    memsys_set_hint_mode(fx->t[0].ms, 0, 0);
    memsys_set_hint_mode(fx->t[1].ms, 0, 0);
    /* an access-policy window over the first buffer: L2 hints line by line */
    for (int k = 0; k < 2; k++)
        memsys_set_policy_window(fx->t[k].ms, fx->buf[0], BUF_BYTES, 0.5, 2, 1);
    for (uint64_t at = 0; at < 4096; at += 512) {
        shape w = {MEM_OP_LOAD, 8, 1, 1, at, 0};
        assert_true(run(fx, &w, IN_REGS));
        w.op = MEM_OP_STORE;
        assert_true(run(fx, &w, IN_REGS));
    }
    same_memory(fx);
}

/* memsys_load_if_local's mode: held lines are read (also after memsys_load_parks said the
 * lowest lane is held, whose answer the direct path forgets); a load that needs the L2 returns
 * 2 having changed nothing; a store there is never taken. memsys_store_deferred's mode: the
 * writes to the L2 wait in the log, with an immediate log and a real one. */
static void test_modes(void **state)
{
    fixture *fx = *state;
    shape s = {MEM_OP_LOAD, 4, 1, 2, 4, 512};
    assert_true(run_on(fx, &s, IR_SPACE_GLOBAL, UINT32_MAX, 1, MEM_GLOBAL_IF_LOCAL, IN_REGS, 1));
    assert_int_equal(fx->t[0].rc, 1); /* cold: it would park */
    assert_int_equal(memsys_insn_counters(fx->t[1].ms)[INSN].l1.requests, 0);
    assert_true(run_on(fx, &s, IR_SPACE_GLOBAL, UINT32_MAX, 1, MEM_GLOBAL_ACCESS, IN_REGS, 1));
    for (int k = 0; k < 2; k++) {
        describe(fx, k, &s, IR_SPACE_GLOBAL, UINT32_MAX);
        fx->t[k].ctx.sm = 1;
        assert_int_equal(memsys_load_parks(fx->t[k].ms, &fx->t[k].ctx, &fx->t[k].acc), 0);
    }
    fx->t[0].rc = general(&fx->t[0], MEM_GLOBAL_IF_LOCAL);
    twin1_access(fx, MEM_GLOBAL_IF_LOCAL, IN_REGS, 1);
    assert_int_equal(fx->t[1].rc, 0);
    assert_true(fx->t[1].direct);
    assert_null(fx->t[1].ms->lead_acc);
    same_outcome(fx, IN_REGS, 1);
    assert_true(run_on(fx, &s, IR_SPACE_GLOBAL, UINT32_MAX, 1, MEM_GLOBAL_IF_LOCAL, IN_DATA, 1));
    assert_int_equal(fx->t[1].rc, 0);
    s.op = MEM_OP_STORE;
    assert_true(run_on(fx, &s, IR_SPACE_GLOBAL, UINT32_MAX, 1, MEM_GLOBAL_IF_LOCAL, IN_DATA, 1));
    assert_int_equal(fx->t[0].rc, 1);
    for (int immediate = 0; immediate < 2; immediate++) {
        for (int k = 0; k < 2; k++) {
            memsys_store_log_destroy(fx->t[k].log);
            fx->t[k].log = memsys_store_log_create(immediate);
        }
        for (uint64_t at = 0; at < 8192; at += 1028) {
            shape st = {MEM_OP_STORE, 4 << (at % 3), 1, 1 + (uint32_t)(at % 4), at & ~15ull, 640};
            assert_true(run_on(fx, &st, IR_SPACE_GLOBAL, UINT32_MAX, (uint32_t)(at & 1),
                               MEM_GLOBAL_DEFERRED, st.elem_bytes <= 8 ? IN_REGS : IN_DATA, 1));
        }
        assert_int_equal(memsys_store_log_full(fx->t[1].log), 0);
    }
    same_memory(fx);
}

/* Without `results`, the access's results stay as they were; everything else is the same. */
static void test_results_left_alone(void **state)
{
    fixture *fx = *state;
    shape s = {MEM_OP_LOAD, 4, 1, 1, 256, 0};
    assert_true(run_on(fx, &s, IR_SPACE_GLOBAL, UINT32_MAX, 0, MEM_GLOBAL_ACCESS, IN_REGS, 0));
    assert_int_equal(fx->t[1].acc.nserved, 77);
    s.op = MEM_OP_STORE;
    assert_true(run_on(fx, &s, IR_SPACE_GLOBAL, UINT32_MAX, 0, MEM_GLOBAL_ACCESS, IN_REGS, 0));
    same_memory(fx);
}

/* A long trace over both buffers by both SMs, loads and stores of every shape the direct path
 * takes and some it declines, with changing attributes: evictions from the L1s and the L2,
 * write-backs to DRAM, lines present in part. */
static void test_mixed_trace(void **state)
{
    fixture *fx = *state;
    static const ir_mem_attrs kinds[] = {
        {0},
        {.l1_alloc = IR_EVICT_FIRST, .write_mode = IR_WRITE_STREAMING},
        {.l1 = IR_L1_READ_ONLY},
        {.l1_alloc = IR_EVICT_LAST, .l2_evict = IR_EVICT_LAST},
        {.has_policy = 1},
        {.l1 = IR_L1_BYPASS},
    };
    uint32_t x = 12345, taken = 0;
    for (uint32_t i = 0; i < 600; i++) {
        x = x * 1103515245u + 12345u;
        uint32_t r = x >> 8; /* the shape */
        x = x * 1103515245u + 12345u;
        uint32_t q = x >> 8; /* the attributes, mode, SM and how the lanes are handed over */
        shape s = {(r & 3) == 0 ? MEM_OP_STORE : MEM_OP_LOAD, 4u << (r >> 2) % 3, 1,
                   1 + (r >> 4) % 4, 0, 512 + 128 * ((r >> 6) % 4)};
        uint32_t span = (s.runs - 1) * (uint32_t)s.gap + MEM_LANES * s.elem_bytes;
        s.base = (uint64_t)((r >> 9) % ((2 * BUF_BYTES - span) / 4)) * 4 & ~(uint64_t)(s.elem_bytes - 1);
        if (s.base + span > BUF_BYTES && s.base < BUF_BYTES)
            s.base = BUF_BYTES;
        if (s.base >= BUF_BYTES) /* the second buffer */
            s.base = fx->buf[1] - fx->buf[0] + (s.base - BUF_BYTES);
        fx->attrs = kinds[q % 6];
        mem_global_mode mode = (q >> 3) % 4 == 0 ? (s.op == MEM_OP_STORE ? MEM_GLOBAL_DEFERRED
                                                                         : MEM_GLOBAL_IF_LOCAL)
                                                 : MEM_GLOBAL_ACCESS;
        taken += (uint32_t)run_on(fx, &s, IR_SPACE_GLOBAL, UINT32_MAX, (q >> 6) & 1, mode,
                                  (q >> 7) & 1 ? IN_REGS : IN_DATA, (q >> 8) & 1);
    }
    assert_true(taken > 400);
    const cache_stats *l2 = cache_get_stats(fx->t[1].ms->l2);
    assert_true(l2->evictions > 0 && l2->dirty_evictions > 0);
    assert_true(cache_get_stats(fx->t[1].ms->l1[0])->evictions > 0);
    same_memory(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shapes_match_general_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shapes_match_general_path, setup_store_allocate,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_declined_shapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_warps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_warps, setup_store_allocate, teardown),
        cmocka_unit_test_setup_teardown(test_attributes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_attributes, setup_store_allocate, teardown),
        cmocka_unit_test_setup_teardown(test_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_results_left_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mixed_trace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mixed_trace, setup_store_allocate, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
