/* Unit tests of the memory hierarchy (src/mem/memsys.c, mem_hier.c) driven through the access
 * contract of mem.h: warp-level accesses built by hand, exact per-instruction counters.
 *
 * Every expected number is derived in a comment from the model's definitions
 * (docs/statistics.md for what is counted, docs/cache-model.md for hits, fills and write-backs):
 *   - a warp access is split into the 128-byte lines it touches; each line's sectors (32 bytes)
 *     are looked up in the SM's L1; one access is one L1 request however many lines it touches;
 *   - an L1 miss reads the missing sectors from L2 in runs of consecutive sectors;
 *   - an L2 miss fetches every aligned 64-byte block (the DRAM fill) holding a missed sector.
 * What this file does not cover: shared-memory banks (test_banks.c), the cache's own replacement
 * rules (test_cache.c), whole kernels (tests/hier.cmake). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "config/gpu_config.h"
#include "mem/memsys.h"
#include "memsys_test.h"
#include "sim/sim.h"

enum {
    INSNS = 64,
    BUFFER_BYTES = 64 * 1024,
    LOCAL_BYTES = 256, /* per-thread local window of the test warp */
};

/* The test hierarchy: 2 SMs, each with a 4 KiB 4-way L1 (8 sets), on a 64 KiB 4-way L2 of 2
 * slices; the NVIDIA store policies of the h100 preset (global stores write through
 * without allocating, local stores write back). */
typedef struct fixture {
    memsys_config cfg;
    memsys *ms;
    diag_list dl;
    uint64_t buf; /* a 64 KiB global allocation, 256-byte aligned */
    ir_mem_attrs attrs;
    mem_access acc;
} fixture;

static void fixture_open(fixture *fx)
{
    diag_list_init(&fx->dl);
    fx->ms = memsys_create(&fx->cfg, &fx->dl);
    assert_non_null(fx->ms);
    assert_int_equal(fx->dl.count, 0);
    assert_int_equal(memsys_set_insn_count(fx->ms, INSNS), 0);
    assert_int_equal(memsys_alloc(fx->ms, BUFFER_BYTES, 256, &fx->buf), 0);
    assert_int_equal(fx->buf % 256, 0);
    /* Word i of the buffer holds 3 * i + 1, so every lane's data can be checked. */
    static uint32_t words[BUFFER_BYTES / 4];
    for (uint32_t i = 0; i < BUFFER_BYTES / 4; i++) words[i] = 3 * i + 1;
    assert_int_equal(memsys_host_write(fx->ms, fx->buf, words, BUFFER_BYTES), 0);
    memset(&fx->attrs, 0, sizeof fx->attrs);
}

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    memsys_test_small_h100(&fx.cfg);
    fixture_open(&fx);
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    memsys_destroy(fx->ms);
    diag_list_fini(&fx->dl);
    return 0;
}

/* Starts a fresh access description; addresses are filled by the caller. The attributes keep
 * what the test set in fx->attrs. */
static mem_access *begin(fixture *fx, mem_op op, ir_space space, uint32_t elem_bytes, uint32_t vec,
                         uint32_t active, uint32_t insn_id)
{
    return memsys_test_access(&fx->acc, &fx->attrs, op, space, elem_bytes, vec, active, insn_id);
}

static mem_ctx ctx_for(uint32_t sm)
{
    mem_ctx c = {.sm = sm, .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = LOCAL_BYTES};
    return c;
}

static void perform(fixture *fx, uint32_t sm)
{
    mem_ctx c = ctx_for(sm);
    mem_fault f;
    assert_int_equal(memsys_access(fx->ms, &c, &fx->acc, &f), 0);
    assert_int_equal(f.kind, MEM_FAULT_NONE);
}

/* A fence by SM `sm` with the side effects the PTX front-end gives membar and fence at `scope`:
 * beyond the CTA, the SM's L1 drops its global lines. */
static void fence(fixture *fx, uint32_t sm, ir_scope scope, uint32_t insn_id)
{
    begin(fx, MEM_OP_FENCE, IR_SPACE_NONE, 0, 0, 1u, insn_id);
    fx->attrs.scope = (uint8_t)scope;
    fx->attrs.fence = IR_FENCE_WAIT_WRITES | (scope == IR_SCOPE_CTA ? 0 : IR_FENCE_INVALIDATE_L1);
    perform(fx, sm);
    fx->attrs.scope = IR_SCOPE_NONE;
    fx->attrs.fence = 0;
}

static const mem_counters *insn(const fixture *fx, uint32_t id)
{
    return &memsys_insn_counters(fx->ms)[id];
}

static uint32_t lane_word(const mem_access *a, uint32_t lane, uint32_t element)
{
    uint32_t v;
    memcpy(&v, a->data[lane] + 4 * element, 4);
    return v;
}

/* The initial value of the buffer word at global address addr. */
static uint32_t initial_word(const fixture *fx, uint64_t addr)
{
    return (uint32_t)(3 * ((addr - fx->buf) / 4) + 1);
}

static void assert_l1(const mem_counters *c, uint64_t requests, uint64_t sectors, uint64_t hits,
                      uint64_t misses)
{
    assert_int_equal(c->l1.requests, requests);
    assert_int_equal(c->l1.sector_accesses, sectors);
    assert_int_equal(c->l1.sector_hits, hits);
    assert_int_equal(c->l1.sector_misses, misses);
}

static void assert_l2(const mem_counters *c, uint64_t sectors, uint64_t hits, uint64_t misses)
{
    assert_int_equal(c->l2.sector_accesses, sectors);
    assert_int_equal(c->l2.sector_hits, hits);
    assert_int_equal(c->l2.sector_misses, misses);
}

/* ---- coalescing of global loads ---- */

static void test_unit_stride_miss_then_hit(void **state)
{
    fixture *fx = *state;
    /* 32 lanes x 4 bytes at a 256-byte aligned base: bytes 0..127 of one line, its 4 sectors. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1), fx->buf, 4);
    perform(fx, 0);
    /* Cold: 1 request, 4 sector misses; the L1 reads the run of 4 sectors from L2 (4 L2 misses);
     * the L2 fetches the two 64-byte blocks holding them: 128 DRAM bytes. */
    assert_l1(insn(fx, 1), 1, 4, 0, 4);
    assert_l2(insn(fx, 1), 4, 0, 4);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 128);
    assert_int_equal(insn(fx, 1)->dram.write_bytes, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * l + 1);

    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2), fx->buf, 4);
    perform(fx, 0);
    /* Warm: the same 4 sectors are valid in the SM's L1; nothing reaches L2. */
    assert_l1(insn(fx, 2), 1, 4, 4, 0);
    assert_l2(insn(fx, 2), 0, 0, 0);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * l + 1);

    /* The other SM has its own, cold, L1; the L2 is shared and warm. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 3), fx->buf, 4);
    perform(fx, 1);
    assert_l1(insn(fx, 3), 1, 4, 0, 4);
    assert_l2(insn(fx, 3), 4, 4, 0);
    assert_int_equal(insn(fx, 3)->dram.read_bytes, 0);
}

static void test_word_strides(void **state)
{
    fixture *fx = *state;
    /* Stride 2 words (8 bytes): lanes cover bytes 0..255 = 2 lines; every sector of both holds a
     * lane's word: 8 sectors, one request. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1), fx->buf, 8);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 8, 0, 8);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 8 * 32);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * (2 * l) + 1);

    /* Stride 32 words (128 bytes): each lane alone in its line, one sector each: 32 sectors over
     * 32 lines. Each sector misses L2 and fetches its 64-byte block: 32 * 64 DRAM bytes. The
     * buffer starts at +4 KiB so no line of the first access is reused. */
    uint64_t base = fx->buf + 4096;
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2), base, 128);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 32, 0, 32);
    assert_l2(insn(fx, 2), 32, 0, 32);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 32 * 64);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), initial_word(fx, base + 128 * l));
}

static void test_misaligned_start(void **state)
{
    fixture *fx = *state;
    /* Unit stride from base + 4: bytes 4..131, i.e. sectors 0..3 of the first line and sector 0
     * of the second: 5 sectors over 2 lines, still one request. DRAM: the first line's two
     * 64-byte blocks plus the second line's first block = 192 bytes. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1), fx->buf + 4, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 5, 0, 5);
    assert_l2(insn(fx, 1), 5, 0, 5);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 192);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * (l + 1) + 1);
}

static void test_broadcast(void **state)
{
    fixture *fx = *state;
    /* Every lane reads the same word: one sector of one line; one 64-byte DRAM fill. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1), fx->buf + 200, 0);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 1, 0, 1);
    assert_l2(insn(fx, 1), 1, 0, 1);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 64);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * 50 + 1);
}

static void test_vectors(void **state)
{
    fixture *fx = *state;
    /* v2 of 4-byte elements, lane l at 8 * l: 256 contiguous bytes, 2 lines, 8 sectors. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 2, 0xFFFFFFFFu, 1), fx->buf, 8);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 8, 0, 8);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * (2 * l) + 1);
        assert_int_equal(lane_word(&fx->acc, l, 1), 3 * (2 * l + 1) + 1);
    }
    /* One 8-byte element per lane is the same footprint, now warm: 8 hits. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 8, 1, 0xFFFFFFFFu, 2), fx->buf, 8);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 8, 8, 0);

    /* v4 of 4-byte elements, lane l at 16 * l: 512 bytes, 4 lines, 16 sectors. Lines 0 and 1
     * were loaded above (8 hits); lines 2 and 3 are cold (8 misses). */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 4, 0xFFFFFFFFu, 3), fx->buf, 16);
    perform(fx, 0);
    assert_l1(insn(fx, 3), 1, 16, 8, 8);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        for (uint32_t e = 0; e < 4; e++)
            assert_int_equal(lane_word(&fx->acc, l, e), 3 * (4 * l + e) + 1);
}

static void test_inactive_lanes(void **state)
{
    fixture *fx = *state;
    /* Lanes 0..7 and 24..31 of a unit-stride load: bytes 0..31 and 96..127, sectors 0 and 3. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFF0000FFu, 1), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 2, 0, 2);
    /* Two non-adjacent sectors are two L2 reads; each fetches its own 64-byte block. */
    assert_l2(insn(fx, 1), 2, 0, 2);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 128);
    for (uint32_t l = 8; l < 24; l++) /* inactive lanes are not written */
        assert_int_equal(lane_word(&fx->acc, l, 0), 0);
    assert_int_equal(lane_word(&fx->acc, 31, 0), 3 * 31 + 1);

    /* Now the whole warp: sectors 0 and 3 hit, 1 and 2 miss in L1. In L2, sector 1 came with
     * sector 0's 64-byte fill and sector 2 with sector 3's: the run 1..2 hits both. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 4, 2, 2);
    assert_l2(insn(fx, 2), 2, 2, 0);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 0);

    /* An access with no active lane is no request at all. */
    begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0, 3);
    perform(fx, 0);
    assert_l1(insn(fx, 3), 0, 0, 0, 0);
}

/* Distinct values of addr >> shift among the lanes. */
static uint32_t distinct(const uint64_t *addr, uint32_t shift)
{
    uint64_t seen[MEM_LANES];
    uint32_t n = 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t k = 0;
        while (k < n && seen[k] != addr[l] >> shift) k++;
        if (k == n)
            seen[n++] = addr[l] >> shift;
    }
    return n;
}

static void test_random_addresses(void **state)
{
    fixture *fx = *state;
    uint64_t rng = 0x243F6A8885A308D3ull;
    uint32_t total_sectors = 0;
    for (uint32_t trial = 0; trial < 40; trial++) {
        /* A fresh hierarchy per trial, so every access is cold. */
        memsys_destroy(fx->ms);
        fx->ms = memsys_create(&fx->cfg, &fx->dl);
        assert_non_null(fx->ms);
        assert_int_equal(memsys_set_insn_count(fx->ms, INSNS), 0);
        assert_int_equal(memsys_alloc(fx->ms, BUFFER_BYTES, 256, &fx->buf), 0);
        static uint32_t words[BUFFER_BYTES / 4];
        for (uint32_t i = 0; i < BUFFER_BYTES / 4; i++) words[i] = 3 * i + 1;
        assert_int_equal(memsys_host_write(fx->ms, fx->buf, words, BUFFER_BYTES), 0);

        mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1);
        /* Trials alternate between the whole buffer (mostly one sector per lane) and its first
         * 1 KiB (many lanes sharing sectors). */
        uint64_t span_words = trial % 2 ? BUFFER_BYTES / 4 : 256;
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift64 */
            a->addr[l] = fx->buf + 4 * (rng % span_words);
        }
        uint64_t addr[MEM_LANES];
        memcpy(addr, a->addr, sizeof addr);
        perform(fx, 0);
        /* Cold: every distinct sector (addr >> 5) is one access and one miss at L1 and at L2;
         * the L2 fetches every distinct 64-byte block (addr >> 6) once. */
        uint32_t sectors = distinct(addr, 5);
        assert_l1(insn(fx, 1), 1, sectors, 0, sectors);
        assert_l2(insn(fx, 1), sectors, 0, sectors);
        assert_int_equal(insn(fx, 1)->dram.read_bytes, 64 * distinct(addr, 6));
        for (uint32_t l = 0; l < MEM_LANES; l++)
            assert_int_equal(lane_word(&fx->acc, l, 0), initial_word(fx, addr[l]));
        total_sectors += sectors;
    }
    /* The trials did exercise both regimes: not every lane in its own sector, nor all in one. */
    assert_true(total_sectors > 40 && total_sectors < 40 * 32);
}

/* ---- cache operators and store policies ---- */

static void test_cg_bypasses_l1(void **state)
{
    fixture *fx = *state;
    fx->attrs.l1 = IR_L1_BYPASS;
    /* A load that bypasses L1 (ld.global.cg): still one L1 request whose 4 sectors count as misses, served by L2. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 4, 0, 4);
    assert_l2(insn(fx, 1), 4, 0, 4);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 128);
    /* Again: no L1 hit (nothing was allocated there), 4 L2 hits instead. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 4, 0, 4);
    assert_l2(insn(fx, 2), 4, 4, 0);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * l + 1);
    /* A plain load afterwards still misses L1: the bypassing loads left it untouched. */
    fx->attrs.l1 = 0;
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 3), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 3), 1, 4, 0, 4);
    assert_l2(insn(fx, 3), 4, 4, 0);
}

/* Loads the first line of the buffer twice with the current attributes (insn ids `first` and
 * first + 1) and returns the second load's L1 sector hits: 4 when the first allocated in L1,
 * 0 when it went around it. */
static uint64_t second_load_l1_hits(fixture *fx, uint32_t first, uint64_t offset)
{
    for (uint32_t k = 0; k < 2; k++) {
        memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, first + k),
                fx->buf + offset, 4);
        perform(fx, 0);
    }
    /* Either way the second load is one request for 4 sectors. */
    assert_int_equal(insn(fx, first + 1)->l1.requests, 1);
    assert_int_equal(insn(fx, first + 1)->l1.sector_accesses, 4);
    return insn(fx, first + 1)->l1.sector_hits;
}

static void test_volatile_and_strong_loads_bypass_l1(void **state)
{
    fixture *fx = *state;
    /* ld.volatile, and relaxed/acquire loads at GPU scope, must see other SMs' writes: they are
     * served by L2 and never allocate in L1. A relaxed load at CTA scope may use the L1. Each
     * case uses its own line. */
    fx->attrs.sem = IR_SEM_VOLATILE;
    assert_int_equal(second_load_l1_hits(fx, 1, 0), 0);
    fx->attrs.sem = IR_SEM_RELAXED;
    fx->attrs.scope = IR_SCOPE_GPU;
    assert_int_equal(second_load_l1_hits(fx, 3, 1024), 0);
    fx->attrs.sem = IR_SEM_ACQUIRE;
    assert_int_equal(second_load_l1_hits(fx, 5, 2048), 0);
    fx->attrs.sem = IR_SEM_RELAXED;
    fx->attrs.scope = IR_SCOPE_CTA;
    assert_int_equal(second_load_l1_hits(fx, 7, 3072), 4);
    /* The bypassing second loads were served by L2: 4 hits each. */
    assert_l2(insn(fx, 2), 4, 4, 0);
    assert_l2(insn(fx, 8), 0, 0, 0);
}

static void test_preset_without_global_caching(void **state)
{
    fixture *fx = *state;
    /* A preset whose L1 does not cache plain global loads (gtx980): only loads that ask for L1
     * (.ca) or take the read-only path (.nc) allocate there. */
    memsys_destroy(fx->ms);
    fx->cfg.l1.cache_global_loads = 0;
    fixture_open(fx);
    assert_int_equal(second_load_l1_hits(fx, 1, 0), 0);
    assert_l2(insn(fx, 2), 4, 4, 0);
    fx->attrs.l1 = IR_L1_ALLOCATE;
    assert_int_equal(second_load_l1_hits(fx, 3, 1024), 4);
    fx->attrs.l1 = IR_L1_READ_ONLY;
    assert_int_equal(second_load_l1_hits(fx, 5, 2048), 4);
    /* Local memory is cached whatever the flag says. */
    fx->attrs.l1 = 0;
    for (uint32_t k = 0; k < 2; k++) {
        memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu, 7 + k), 0, 0);
        perform(fx, 0);
    }
    assert_l1(insn(fx, 8), 1, 4, 4, 0);
}

static void test_store_writes_through_without_allocating(void **state)
{
    fixture *fx = *state;
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1);
    memsys_test_strided(a, fx->buf, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 1000 + l;
        memcpy(a->data[l], &v, 4);
    }
    perform(fx, 0);
    /* The line is not in L1: 4 sector misses, no allocation; the 128 bytes go straight to L2,
     * which allocates without fetching (4 misses) and now holds the 4 sectors fully valid. No
     * DRAM traffic: a write never fetches. */
    assert_l1(insn(fx, 1), 1, 4, 0, 4);
    assert_l2(insn(fx, 1), 4, 0, 4);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 0);
    assert_int_equal(insn(fx, 1)->dram.write_bytes, 0);

    /* The same SM loads the line: L1 misses (the store did not allocate), L2 hits. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 4, 0, 4);
    assert_l2(insn(fx, 2), 4, 4, 0);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 1000 + l);

    /* A store to the now resident line updates it: 4 L1 hits, and still 4 L2 sector writes. */
    a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 3);
    memsys_test_strided(a, fx->buf, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 2000 + l;
        memcpy(a->data[l], &v, 4);
    }
    perform(fx, 0);
    assert_l1(insn(fx, 3), 1, 4, 4, 0);
    assert_l2(insn(fx, 3), 4, 4, 0);
    /* The SM reads its own write from L1. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 4), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 4), 1, 4, 4, 0);
    assert_l2(insn(fx, 4), 0, 0, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 2000 + l);
}

static void test_cg_store_drops_l1_copy(void **state)
{
    fixture *fx = *state;
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 1u, 1), fx->buf, 4);
    perform(fx, 0); /* sector 0 of the line is now in SM 0's L1 */
    fx->attrs.write_mode = IR_WRITE_BYPASS_L1;
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 1u, 2);
    memsys_test_strided(a, fx->buf, 4);
    uint32_t v = 77;
    memcpy(a->data[0], &v, 4);
    perform(fx, 0);
    /* st.global.cg caches at L2 only: the L1 line is dropped, one sector written to L2. */
    assert_l2(insn(fx, 2), 1, 1, 0);
    fx->attrs.write_mode = IR_WRITE_DEFAULT;
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 1u, 3), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 3), 1, 1, 0, 1);
    assert_l2(insn(fx, 3), 1, 1, 0);
    assert_int_equal(lane_word(&fx->acc, 0, 0), 77);
}

static void test_write_back_allocate_preset(void **state)
{
    fixture *fx = *state;
    /* A preset whose L1 keeps global stores (write-back, allocate on a store miss). */
    memsys_destroy(fx->ms);
    fx->cfg.l1.global_store_write_through = 0;
    fx->cfg.l1.global_store_allocate = 1;
    fixture_open(fx);
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1);
    memsys_test_strided(a, fx->buf, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 500 + l;
        memcpy(a->data[l], &v, 4);
    }
    perform(fx, 0);
    /* The store allocates the line without fetching and keeps it dirty: 4 L1 misses, nothing
     * at L2. */
    assert_l1(insn(fx, 1), 1, 4, 0, 4);
    assert_l2(insn(fx, 1), 0, 0, 0);
    /* Every byte of the 4 sectors was written, so they are valid: the reload hits 4. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2), fx->buf, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 4, 4, 0);
    assert_int_equal(lane_word(&fx->acc, 7, 0), 507);
    /* The end of the run writes the 4 dirty sectors to L2 (128 bytes, 4 L2 sector misses that
     * allocate) and the L2's 4 dirty sectors to DRAM; no instruction is charged. */
    assert_int_equal(memsys_finish(fx->ms), 0);
    const mem_counters *u = memsys_unattributed_counters(fx->ms);
    assert_int_equal(u->l1.writeback_bytes, 128);
    assert_l2(u, 4, 0, 4);
    assert_int_equal(u->l2.writeback_bytes, 128);
    assert_int_equal(u->dram.write_bytes, 128);
    uint32_t back[32];
    assert_int_equal(memsys_host_read(fx->ms, fx->buf, back, sizeof back), 0);
    for (uint32_t l = 0; l < MEM_LANES; l++) assert_int_equal(back[l], 500 + l);
}

/* ---- local memory ---- */

static void test_local_same_offset_is_one_line(void **state)
{
    fixture *fx = *state;
    /* Local word w of lane l lives at backing + w * 128 + l * 4: the same 4-byte per-thread
     * offset in all 32 lanes forms one 128-byte line (the LDL rule: one access when every
     * thread uses the same local address). Offset 8 is word 2. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu, 1), 8, 0);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 4, 0, 4);
    assert_l2(insn(fx, 1), 4, 0, 4);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 128);

    /* 8 bytes per lane at offset 16: words 4 and 5, two lines, 8 sectors. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 8, 1, 0xFFFFFFFFu, 2), 16, 0);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 8, 0, 8);

    /* Lane l at offset 4 * l: word l of lane l, so each lane has its own line and one sector of
     * it: 32 sectors over 32 lines. Lines of words 2, 4 and 5 are resident: lanes 2, 4, 5 hit. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu, 3), 0, 4);
    perform(fx, 0);
    assert_l1(insn(fx, 3), 1, 32, 3, 29);
}

static void test_local_stores_write_back(void **state)
{
    fixture *fx = *state;
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu, 1);
    memsys_test_strided(a, 12, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 900 + l;
        memcpy(a->data[l], &v, 4);
    }
    perform(fx, 0);
    /* Local lines are write-back and allocate: 4 L1 misses, nothing sent to L2. */
    assert_l1(insn(fx, 1), 1, 4, 0, 4);
    assert_l2(insn(fx, 1), 0, 0, 0);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu, 2), 12, 0);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 4, 4, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++) assert_int_equal(lane_word(&fx->acc, l, 0), 900 + l);
    /* A GPU-scope fence drops global lines only: the dirty local line survives it. */
    fence(fx, 0, IR_SCOPE_GPU, 40);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu, 3), 12, 0);
    perform(fx, 0);
    assert_l1(insn(fx, 3), 1, 4, 4, 0);
    /* The end of the run writes its 128 dirty bytes to L2, and L2 writes them to DRAM. */
    assert_int_equal(memsys_finish(fx->ms), 0);
    const mem_counters *u = memsys_unattributed_counters(fx->ms);
    assert_int_equal(u->l1.writeback_bytes, 128);
    assert_int_equal(u->dram.write_bytes, 128);
}

/* ---- DRAM traffic ---- */

static void test_dram_fill_granularity(void **state)
{
    fixture *fx = *state;
    fx->attrs.l1 = IR_L1_BYPASS; /* straight to L2, so every sector is an L2 lookup */
    /* One lane, sector 0: the L2 fetches the 64-byte block of sectors 0 and 1. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 1u, 1), fx->buf, 0);
    perform(fx, 0);
    assert_l2(insn(fx, 1), 1, 0, 1);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 64);
    /* Sector 1 came with it: a hit, no DRAM read. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 1u, 2), fx->buf + 32, 0);
    perform(fx, 0);
    assert_l2(insn(fx, 2), 1, 1, 0);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 0);
    /* Sector 2 is in the line's other block: a miss, 64 more bytes. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 1u, 3), fx->buf + 64, 0);
    perform(fx, 0);
    assert_l2(insn(fx, 3), 1, 0, 1);
    assert_int_equal(insn(fx, 3)->dram.read_bytes, 64);
}

static void test_finish_writes_dirty_bytes(void **state)
{
    fixture *fx = *state;
    /* A full-line store (4 sectors) and a one-lane store (4 bytes of one sector) in another
     * line: write-through leaves the L1 clean and the L2 with 5 dirty sectors. */
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1);
    memsys_test_strided(a, fx->buf, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) memcpy(a->data[l], &l, 4);
    perform(fx, 0);
    a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 1u, 2);
    memsys_test_strided(a, fx->buf + 1024 + 8, 0);
    uint32_t v = 0xABCD;
    memcpy(a->data[0], &v, 4);
    perform(fx, 1);
    assert_int_equal(insn(fx, 1)->dram.write_bytes, 0);
    assert_int_equal(insn(fx, 2)->dram.write_bytes, 0);
    assert_int_equal(memsys_finish(fx->ms), 0);
    /* Write-backs move whole sectors: 4 * 32 + 32 = 160 bytes, none from L1, charged to no
     * instruction. */
    const mem_counters *u = memsys_unattributed_counters(fx->ms);
    assert_int_equal(u->l1.writeback_bytes, 0);
    assert_int_equal(u->l2.writeback_bytes, 160);
    assert_int_equal(u->dram.write_bytes, 160);
    mem_counters total;
    memsys_total_counters(fx->ms, &total);
    assert_int_equal(total.dram.write_bytes, 160);
    /* The host sees every write; the bytes around the one-lane store keep their values. */
    uint32_t back[4];
    assert_int_equal(memsys_host_read(fx->ms, fx->buf + 1024 + 4, back, sizeof back), 0);
    assert_int_equal(back[0], initial_word(fx, fx->buf + 1024 + 4));
    assert_int_equal(back[1], 0xABCD);
    assert_int_equal(back[2], initial_word(fx, fx->buf + 1024 + 12));
    assert_int_equal(memsys_host_read(fx->ms, fx->buf + 124, back, 4), 0);
    assert_int_equal(back[0], 31);
}

/* ---- coherence between SMs ---- */

static uint32_t load_word(fixture *fx, uint32_t sm, uint64_t addr, uint32_t insn_id)
{
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 1u, insn_id), addr, 0);
    perform(fx, sm);
    return lane_word(&fx->acc, 0, 0);
}

static void test_stale_l1_until_fence(void **state)
{
    fixture *fx = *state;
    uint64_t x = fx->buf + 512;
    uint32_t old = initial_word(fx, x), fresh = 0xC0FFEE;
    /* SM 1 reads x: the line is now in SM 1's L1. */
    assert_int_equal(load_word(fx, 1, x, 1), old);
    /* SM 0 stores a new value: written through to L2; SM 1's L1 copy is not touched. */
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 1u, 2);
    memsys_test_strided(a, x, 0);
    memcpy(a->data[0], &fresh, 4);
    perform(fx, 0);
    assert_l2(insn(fx, 2), 1, 1, 0);
    /* SM 1 reads again: an L1 hit on its stale copy. */
    assert_int_equal(load_word(fx, 1, x, 3), old);
    assert_l1(insn(fx, 3), 1, 1, 1, 0);
    /* SM 0 itself reads the new value from L2. */
    assert_int_equal(load_word(fx, 0, x, 4), fresh);
    /* A CTA-scope fence does not touch the L1: still stale. */
    fence(fx, 1, IR_SCOPE_CTA, 40);
    assert_int_equal(load_word(fx, 1, x, 5), old);
    assert_l1(insn(fx, 5), 1, 1, 1, 0);
    /* A GPU-scope fence by SM 1 drops its global lines: the next read misses L1, hits L2 and
     * returns the new value. */
    fence(fx, 1, IR_SCOPE_GPU, 41);
    assert_int_equal(load_word(fx, 1, x, 6), fresh);
    assert_l1(insn(fx, 6), 1, 1, 0, 1);
    assert_l2(insn(fx, 6), 1, 1, 0);
}

static void test_launch_boundary_invalidates_l1(void **state)
{
    fixture *fx = *state;
    uint64_t x = fx->buf + 2048;
    uint32_t fresh = 42;
    assert_int_equal(load_word(fx, 1, x, 1), initial_word(fx, x));
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 1u, 2);
    memsys_test_strided(a, x, 0);
    memcpy(a->data[0], &fresh, 4);
    perform(fx, 0);
    /* A new kernel launch invalidates every SM's L1 global lines; L2 stays warm. */
    memsys_launch_begin(fx->ms);
    assert_int_equal(load_word(fx, 1, x, 3), fresh);
    assert_l1(insn(fx, 3), 1, 1, 0, 1);
    assert_l2(insn(fx, 3), 1, 1, 0);
}

static uint64_t atom_add(uint8_t atom_op, ir_type type, uint32_t mods, uint64_t old, uint64_t b,
                         uint64_t c, int *ok)
{
    (void)mods, (void)c;
    *ok = atom_op == IR_ATOM_ADD && type == IR_T_U32;
    return (uint32_t)(old + b);
}

static void test_atomics_at_l2(void **state)
{
    fixture *fx = *state;
    uint64_t x = fx->buf + 256;
    uint32_t start = initial_word(fx, x);
    assert_int_equal(load_word(fx, 0, x, 1), start); /* SM 0's L1 now holds the line */
    mem_access *a = begin(fx, MEM_OP_ATOMIC, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2);
    a->atom_op = IR_ATOM_ADD;
    a->atom_type = IR_T_U32;
    a->atom_returns = 1;
    a->atom_fn = atom_add;
    memsys_test_strided(a, x, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++) a->operand_b[l] = 1;
    perform(fx, 0);
    /* Performed at L2 in lane order: lane l sees start + l. Each lane reads and writes one L2
     * sector, valid since the load's fill: 64 L2 sector accesses, all hits. One L1 request,
     * whose only effect is to drop the SM's copy of the line. */
    for (uint32_t l = 0; l < MEM_LANES; l++) assert_int_equal(lane_word(a, l, 0), start + l);
    /* Each lane is its own operation at L2, on a sector the L2 holds. */
    assert_int_equal(a->nserved, MEM_LANES);
    assert_int_equal(a->levels, 1u << MEM_LEVEL_L2);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        assert_int_equal(a->served[l].addr, x & ~(uint64_t)31);
        assert_int_equal(a->served[l].level, MEM_LEVEL_L2);
    }
    assert_int_equal(insn(fx, 2)->l1.requests, 1);
    assert_int_equal(insn(fx, 2)->l1.sector_hits, 0);
    assert_l2(insn(fx, 2), 64, 64, 0);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 0);
    /* SM 0 reads the result: its L1 copy was dropped, so an L1 miss and an L2 hit. */
    assert_int_equal(load_word(fx, 0, x, 3), start + 32);
    assert_l1(insn(fx, 3), 1, 1, 0, 1);
    assert_l2(insn(fx, 3), 1, 1, 0);
}

/* ---- which level served each sector ---- */

/* The access was served by `level` alone, and listed `sectors` sectors, each served by `level`,
 * in ascending address order from `first`. */
static void assert_served(const mem_access *a, uint8_t level, uint32_t sectors, uint64_t first)
{
    assert_int_equal(a->levels, 1u << level);
    assert_int_equal(a->nserved, sectors);
    for (uint32_t k = 0; k < sectors; k++) {
        assert_int_equal(a->served[k].addr, first + 32 * k);
        assert_int_equal(a->served[k].level, level);
        assert_int_equal(a->served[k].l2_slice, a->served[0].l2_slice);
    }
}

static void test_served_level_of_each_sector(void **state)
{
    fixture *fx = *state;
    /* A cold line read by SM 0 comes from DRAM; the same line read by SM 1 from the L2 (SM 1's
     * L1 is cold); read again by SM 1, from its L1. Each time: 4 sectors, one per 8 lanes. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1), fx->buf, 4);
    perform(fx, 0);
    assert_served(&fx->acc, MEM_LEVEL_DRAM, 4, fx->buf);
    uint16_t slice = fx->acc.served[0].l2_slice;
    assert_true(slice < fx->cfg.l2.slices);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2), fx->buf, 4);
    perform(fx, 1);
    assert_served(&fx->acc, MEM_LEVEL_L2, 4, fx->buf);
    assert_int_equal(fx->acc.served[0].l2_slice, slice);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 3), fx->buf, 4);
    perform(fx, 1);
    assert_served(&fx->acc, MEM_LEVEL_L1, 4, fx->buf);

    /* Mixed: lanes 0..15 read sectors 0..1 of that line (L1 hits on SM 1), lanes 16..31 the
     * first two sectors of a cold line 4 KiB further (DRAM). */
    mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        a->addr[l] = (l < 16 ? fx->buf : fx->buf + 4096 - 64) + 4 * l;
    perform(fx, 1);
    assert_int_equal(fx->acc.levels, (1u << MEM_LEVEL_L1) | (1u << MEM_LEVEL_DRAM));
    assert_int_equal(fx->acc.nserved, 4);
    static const uint8_t mixed[4] = {MEM_LEVEL_L1, MEM_LEVEL_L1, MEM_LEVEL_DRAM, MEM_LEVEL_DRAM};
    for (uint32_t k = 0; k < 4; k++) {
        assert_int_equal(fx->acc.served[k].addr, (k < 2 ? fx->buf : fx->buf + 4096 - 64) + 32 * k);
        assert_int_equal(fx->acc.served[k].level, mixed[k]);
    }

    /* A global store that writes through is accepted by the L2; a local store that stays dirty
     * in L1 by the L1; shared memory serves its own lanes. */
    a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0x0000000Fu, 5);
    memsys_test_strided(a, fx->buf + 8192, 4);
    perform(fx, 0);
    assert_served(&fx->acc, MEM_LEVEL_L2, 1, fx->buf + 8192);
    memsys_test_strided(begin(fx, MEM_OP_STORE, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu, 6), 0, 0);
    perform(fx, 0);
    assert_served(&fx->acc, MEM_LEVEL_L1, 4, MEM_LOCAL_BACKING_BASE);
    static uint8_t shared[256];
    mem_ctx c = ctx_for(0);
    c.shared = shared;
    c.shared_bytes = sizeof shared;
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_SHARED, 4, 1, 0x00FF0000u, 7), 0, 4);
    mem_fault f;
    assert_int_equal(memsys_access(fx->ms, &c, &fx->acc, &f), 0);
    assert_served(&fx->acc, MEM_LEVEL_SHARED, 0, 0);
}

/* A column load (every lane its own line) whose lines miss and hit in turn: after a line that
 * missed, the next goes to the miss path first (hier_global_local's after_miss) and a line that
 * hits there is read as any hit: its lanes' data, an L1 hit per sector, the L1 as its level.
 * Lines warm where lane % 3 == 2: miss, miss, hit, miss, miss, hit, ... (32 consecutive lines,
 * four in each set of the test's 4 KiB L1: none evicts another). */
static void test_column_lines_missing_and_hitting(void **state)
{
    fixture *fx = *state;
    const uint32_t warm = 0x24924924u; /* lanes 2, 5, 8, ..., 29 */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, warm, 1), fx->buf + 8, 128);
    perform(fx, 0);
    assert_l1(insn(fx, 1), 1, 10, 0, 10);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2),
                        fx->buf + 8, 128);
    perform(fx, 0);
    assert_l1(insn(fx, 2), 1, 32, 10, 22);
    assert_l2(insn(fx, 2), 22, 0, 22);
    assert_int_equal(insn(fx, 2)->lsu.global_load_requests, 1);
    assert_int_equal(insn(fx, 2)->lsu.global_load_sectors, 32);
    assert_int_equal(insn(fx, 2)->lsu.global_load_sector_hits, 10);
    assert_int_equal(fx->acc.nserved, 32);
    assert_int_equal(fx->acc.levels, (1u << MEM_LEVEL_L1) | (1u << MEM_LEVEL_DRAM));
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint64_t addr = fx->buf + 8 + 128 * l;
        assert_int_equal(lane_word(&fx->acc, l, 0), initial_word(fx, addr));
        assert_int_equal(fx->acc.served[l].addr, addr & ~(uint64_t)31);
        assert_int_equal(fx->acc.served[l].level,
                         (warm >> l) & 1 ? MEM_LEVEL_L1 : MEM_LEVEL_DRAM);
    }
}

/* ---- faults ---- */

static void test_faults_leave_state_alone(void **state)
{
    fixture *fx = *state;
    mem_ctx c = ctx_for(0);
    mem_fault f;
    /* Lane 5 misaligned: the whole access faults, nothing is counted. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 1), fx->buf, 4);
    fx->acc.addr[5] += 2;
    assert_int_equal(memsys_access(fx->ms, &c, &fx->acc, &f), -1);
    assert_int_equal(f.kind, MEM_FAULT_MISALIGNED);
    assert_int_equal(f.lane, 5);
    assert_int_equal(f.address, fx->buf + 22);
    assert_l1(insn(fx, 1), 0, 0, 0, 0);
    /* Lane 31 one word past the buffer's end. */
    memsys_test_strided(begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu, 2),
            fx->buf + BUFFER_BYTES - 31 * 4, 4);
    assert_int_equal(memsys_access(fx->ms, &c, &fx->acc, &f), -1);
    assert_int_equal(f.kind, MEM_FAULT_OUT_OF_BOUNDS);
    assert_int_equal(f.lane, 31);
    assert_l1(insn(fx, 2), 0, 0, 0, 0);
    assert_l2(insn(fx, 2), 0, 0, 0);
    /* Local offset past the per-thread window. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 1u, 3), LOCAL_BYTES, 0);
    assert_int_equal(memsys_access(fx->ms, &c, &fx->acc, &f), -1);
    assert_int_equal(f.kind, MEM_FAULT_OUT_OF_BOUNDS);
    assert_l1(insn(fx, 3), 0, 0, 0, 0);
    /* No store was performed by the faulting access. */
    uint32_t back;
    assert_int_equal(memsys_host_read(fx->ms, fx->buf + BUFFER_BYTES - 4, &back, 4), 0);
    assert_int_equal(back, initial_word(fx, fx->buf + BUFFER_BYTES - 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_unit_stride_miss_then_hit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_column_lines_missing_and_hitting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_word_strides, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misaligned_start, setup, teardown),
        cmocka_unit_test_setup_teardown(test_broadcast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vectors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inactive_lanes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_addresses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cg_bypasses_l1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_volatile_and_strong_loads_bypass_l1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_preset_without_global_caching, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_writes_through_without_allocating, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cg_store_drops_l1_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_back_allocate_preset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_local_same_offset_is_one_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_local_stores_write_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dram_fill_granularity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_finish_writes_dirty_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_l1_until_fence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_boundary_invalidates_l1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomics_at_l2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_served_level_of_each_sector, setup, teardown),
        cmocka_unit_test_setup_teardown(test_faults_leave_state_alone, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
