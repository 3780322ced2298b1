/* Unit tests of Intel LSC fences and per-level cache controls in the memory system
 * (src/mem/mem_lsc.c, the LSC parts of src/mem/mem_hier.c; docs/visa.md, "Fences and cache
 * controls"), driven through memsys_access with the values they leave and exact counters.
 *
 * The hierarchy has the pvc-2t preset's policies (64-byte lines without sectors, L1 stores
 * write-through and not allocating by default, a write-back L2) on a small geometry: 4 Xe-cores
 * (SMs) in 2 tiles (SMs 0-1 are tile 0, SMs 2-3 tile 1), 4 KiB L1s, a 64 KiB L2 of 4 slices
 * (slices 0-1 belong to tile 0, 2-3 to tile 1). Every access is 16 lanes x 4 bytes: exactly one
 * line, one sector. Word i of the buffer initially holds 3 * i + 1; a store writes value + lane. */
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

enum { INSNS = 128, BUFFER_BYTES = 16 * 1024, LINE = 64, LANES16 = 0xFFFF };

typedef struct fixture {
    memsys_config cfg;
    memsys *ms;
    diag_list dl;
    uint64_t buf;
    ir_mem_attrs attrs;
    mem_access acc;
    mem_fault fault;
    uint32_t next_id;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    assert_int_equal(sim_memsys_config(gpu_preset_find("pvc-2t"), 0, &fx.cfg, "", NULL), 0);
    assert_int_equal(fx.cfg.tiles, 2);
    assert_int_equal(fx.cfg.l1.line_bytes, LINE);
    fx.cfg.sm_count = 4;
    fx.cfg.l1.bytes = 4096;
    fx.cfg.l2.bytes = 64 * 1024;
    fx.cfg.l2.ways = 4;
    fx.cfg.l2.slices = 4;
    diag_list_init(&fx.dl);
    fx.ms = memsys_create(&fx.cfg, &fx.dl);
    assert_non_null(fx.ms);
    assert_int_equal(memsys_set_insn_count(fx.ms, INSNS), 0);
    assert_int_equal(memsys_alloc(fx.ms, BUFFER_BYTES, 256, &fx.buf), 0);
    static uint32_t words[BUFFER_BYTES / 4];
    for (uint32_t i = 0; i < BUFFER_BYTES / 4; i++) words[i] = 3 * i + 1;
    assert_int_equal(memsys_host_write(fx.ms, fx.buf, words, BUFFER_BYTES), 0);
    fx.next_id = 1;
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

static uint32_t initial_word(const fixture *fx, uint64_t addr)
{
    return (uint32_t)(3 * ((addr - fx->buf) / 4) + 1);
}

static const mem_counters *insn(const fixture *fx, uint32_t id)
{
    return &memsys_insn_counters(fx->ms)[id];
}

static int run_on(fixture *fx, uint32_t sm)
{
    static uint8_t shared[256];
    mem_ctx c = {.sm = sm, .shared = shared, .shared_bytes = sizeof shared,
                 .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = 256};
    return memsys_access(fx->ms, &c, &fx->acc, &fx->fault);
}

/* A fresh UGM access of the next instruction id on the line at `base`, with cache controls
 * l1/l2; returns the id. */
static uint32_t begin(fixture *fx, mem_op op, uint64_t base, uint8_t l1, uint8_t l2)
{
    uint32_t id = fx->next_id++;
    memset(&fx->attrs, 0, sizeof fx->attrs);
    mem_access *a = memsys_test_access(&fx->acc, &fx->attrs, op, IR_SPACE_GLOBAL, 4, 1, LANES16,
                                       id);
    memsys_test_strided(a, base, 4);
    fx->attrs.sfid = IR_SFID_UGM;
    fx->attrs.l1_ctl = l1;
    fx->attrs.l2_ctl = l2;
    return id;
}

/* Stores value + lane to the line at `base` from SM `sm`; returns the instruction id. */
static uint32_t store(fixture *fx, uint32_t sm, uint64_t base, uint32_t value, uint8_t l1,
                      uint8_t l2)
{
    uint32_t id = begin(fx, MEM_OP_STORE, base, l1, l2);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = value + l;
        memcpy(fx->acc.data[l], &v, 4);
    }
    assert_int_equal(run_on(fx, sm), 0);
    return id;
}

/* Loads the line at `base` on SM `sm`; lane 5's word goes to *word; returns the id. */
static uint32_t load(fixture *fx, uint32_t sm, uint64_t base, uint8_t l1, uint8_t l2,
                     uint32_t *word)
{
    uint32_t id = begin(fx, MEM_OP_LOAD, base, l1, l2);
    assert_int_equal(run_on(fx, sm), 0);
    memcpy(word, fx->acc.data[5], 4);
    return id;
}

/* An LSC fence by SM `sm`; returns memsys_access's result (the id is fx->next_id - 1). */
static int fence(fixture *fx, uint32_t sm, uint8_t sfid, uint8_t op, uint8_t scope)
{
    uint32_t id = fx->next_id++;
    memset(&fx->attrs, 0, sizeof fx->attrs);
    memset(&fx->acc, 0, sizeof fx->acc);
    fx->acc.op = MEM_OP_FENCE;
    fx->acc.insn_id = id;
    fx->acc.active = 1;
    fx->acc.attrs = &fx->attrs;
    fx->attrs.sfid = sfid;
    fx->attrs.fence_op = op;
    fx->attrs.scope = scope;
    return run_on(fx, sm);
}

/* The last fence's counters. */
static const mem_counters *fenced(const fixture *fx)
{
    return insn(fx, fx->next_id - 1);
}

/* A line dirty in SM sm's L1 (an L1 write-back store), holding value + lane. */
static void dirty_in_l1(fixture *fx, uint32_t sm, uint64_t base, uint32_t value)
{
    store(fx, sm, base, value, IR_CC_WRITE_BACK, IR_CC_WRITE_BACK);
}

/* Whether SM sm's load of `base` hits its L1 (one sector), and the word of lane 5. */
static int l1_hit(fixture *fx, uint32_t sm, uint64_t base, uint32_t *word)
{
    uint32_t id = load(fx, sm, base, IR_CC_CACHED, IR_CC_CACHED, word);
    return insn(fx, id)->l1.sector_hits == 1;
}

/* ---- fence operations at local scope: the issuing Xe-core's L1 ---- */

static void test_discard_loses_dirty_data(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_DISCARD, IR_SCOPE_SM), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, 0);
    assert_int_equal(fenced(fx)->l2.sector_accesses, 0);
    /* The stored 105 is gone: the load misses and reads the initial word from memory. */
    assert_false(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, initial_word(fx, fx->buf + 20));
}

static void test_clean_writes_back_and_keeps(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_CLEAN, IR_SCOPE_SM), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, LINE); /* one dirty line reaches L2 */
    assert_int_equal(fenced(fx)->l2.sector_accesses, 1);
    assert_true(l1_hit(fx, 0, fx->buf, &w)); /* kept */
    assert_int_equal(w, 105);
    /* Clean now: a discard loses nothing, the L2 has the bytes. */
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_DISCARD, IR_SCOPE_SM), 0);
    assert_false(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, 105);
}

static void test_evict_empties_l1(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    load(fx, 0, fx->buf + 1024, IR_CC_CACHED, IR_CC_CACHED, &w); /* a clean line */
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_EVICT, IR_SCOPE_SM), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, LINE); /* only the dirty one */
    assert_false(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, 105); /* written back before it was dropped */
    assert_false(l1_hit(fx, 0, fx->buf + 1024, &w));
    assert_int_equal(w, initial_word(fx, fx->buf + 1024 + 20));
}

static void test_invalidate_keeps_dirty_lines(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    load(fx, 0, fx->buf + 1024, IR_CC_CACHED, IR_CC_CACHED, &w);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_INVALIDATE, IR_SCOPE_SM), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, 0);
    assert_true(l1_hit(fx, 0, fx->buf, &w)); /* dirty: stays, still dirty */
    assert_int_equal(w, 105);
    assert_false(l1_hit(fx, 0, fx->buf + 1024, &w)); /* clean: dropped */
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_CLEAN, IR_SCOPE_SM), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, LINE);
}

static void test_none_and_flushl3_at_local_scope_touch_nothing(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_NONE, IR_SCOPE_SM), 0);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_FLUSHL3, IR_SCOPE_SM), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes + fenced(fx)->l2.writeback_bytes, 0);
    assert_true(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, 105);
}

/* ---- scopes: group, local, tile, gpu, system ---- */

static void test_group_scope_touches_no_cache(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    store(fx, 0, fx->buf + 2048, 500, IR_CC_UNCACHED, IR_CC_WRITE_BACK); /* dirty in L2 only */
    static const uint8_t ops[] = {IR_FENCE_OP_EVICT, IR_FENCE_OP_DISCARD, IR_FENCE_OP_FLUSHL3};
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(fence(fx, 0, IR_SFID_UGM, ops[i], IR_SCOPE_CTA), 0);
        assert_int_equal(fenced(fx)->l1.writeback_bytes, 0);
        assert_int_equal(fenced(fx)->l2.writeback_bytes, 0);
        assert_int_equal(fenced(fx)->dram.write_bytes, 0);
    }
    assert_true(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, 105);
    uint32_t id = load(fx, 0, fx->buf + 2048, IR_CC_UNCACHED, IR_CC_CACHED, &w);
    assert_int_equal(w, 505); /* the L2 line is still there, dirty */
    assert_int_equal(insn(fx, id)->l2.sector_hits, 1);
}

static void test_local_scope_reaches_only_the_own_l1(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    dirty_in_l1(fx, 1, fx->buf + 1024, 200); /* same tile, other Xe-core */
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_DISCARD, IR_SCOPE_SM), 0);
    assert_true(l1_hit(fx, 1, fx->buf + 1024, &w));
    assert_int_equal(w, 205);
}

static void test_tile_scope_reaches_the_tile_gpu_scope_all(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);          /* tile 0 */
    dirty_in_l1(fx, 1, fx->buf + 1024, 200);   /* tile 0 */
    dirty_in_l1(fx, 2, fx->buf + 2048, 300);   /* tile 1 */
    assert_int_equal(fence(fx, 1, IR_SFID_UGM, IR_FENCE_OP_DISCARD, IR_SCOPE_TILE), 0);
    assert_false(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, initial_word(fx, fx->buf + 20));
    assert_false(l1_hit(fx, 1, fx->buf + 1024, &w));
    assert_int_equal(w, initial_word(fx, fx->buf + 1024 + 20));
    assert_true(l1_hit(fx, 2, fx->buf + 2048, &w)); /* the other tile keeps its line */
    assert_int_equal(w, 305);
    dirty_in_l1(fx, 0, fx->buf, 100);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_CLEAN, IR_SCOPE_GPU), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, 2 * LINE); /* both tiles' dirty lines */
}

/* Two lines whose L2 slices belong to tile 0 and to tile 1 (found by where loads were served). */
static void lines_per_tile(fixture *fx, uint64_t *tile0, uint64_t *tile1)
{
    *tile0 = *tile1 = 0;
    for (uint64_t k = 64; k < 96 && !(*tile0 && *tile1); k++) {
        uint32_t w;
        load(fx, 3, fx->buf + k * LINE, IR_CC_UNCACHED, IR_CC_UNCACHED, &w);
        uint64_t *slot = fx->acc.served[0].l2_slice < 2 ? tile0 : tile1;
        if (!*slot)
            *slot = fx->buf + k * LINE;
    }
    assert_true(*tile0 && *tile1);
}

static void test_tile_scope_reaches_the_tile_l2_slices(void **state)
{
    fixture *fx = *state;
    uint64_t a0, a1;
    uint32_t w;
    lines_per_tile(fx, &a0, &a1);
    store(fx, 0, a0, 100, IR_CC_UNCACHED, IR_CC_WRITE_BACK); /* dirty in L2 only */
    store(fx, 0, a1, 200, IR_CC_UNCACHED, IR_CC_WRITE_BACK);
    /* SM 0 is in tile 0: discarding at tile scope loses the tile-0 line's data only. */
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_DISCARD, IR_SCOPE_TILE), 0);
    assert_int_equal(fenced(fx)->dram.write_bytes, 0);
    load(fx, 0, a0, IR_CC_UNCACHED, IR_CC_CACHED, &w);
    assert_int_equal(w, initial_word(fx, a0 + 20));
    load(fx, 0, a1, IR_CC_UNCACHED, IR_CC_CACHED, &w);
    assert_int_equal(w, 205);
    /* flushl3 from tile 1 writes its slice's dirty line to memory and drops it; L1s stay. */
    dirty_in_l1(fx, 2, fx->buf, 300);
    assert_int_equal(fence(fx, 2, IR_SFID_UGM, IR_FENCE_OP_FLUSHL3, IR_SCOPE_TILE), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, 0);
    assert_int_equal(fenced(fx)->dram.write_bytes, LINE);
    assert_true(l1_hit(fx, 2, fx->buf, &w));
    uint32_t id = load(fx, 0, a1, IR_CC_UNCACHED, IR_CC_CACHED, &w);
    assert_int_equal(w, 205);
    assert_int_equal(insn(fx, id)->dram.read_bytes, LINE); /* it was dropped from L2 */
}

static void test_system_scopes_reach_memory(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    dirty_in_l1(fx, 3, fx->buf + 1024, 200);
    /* clean.sysrel: every dirty L1 line to L2 and every dirty L2 line to memory, all kept. */
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_CLEAN, IR_SCOPE_SYS), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, 2 * LINE);
    assert_int_equal(fenced(fx)->dram.write_bytes, 2 * LINE);
    assert_true(l1_hit(fx, 3, fx->buf + 1024, &w));
    assert_int_equal(w, 205);
    /* none.sysacq and none.gpus only order: nothing is written or dropped. */
    dirty_in_l1(fx, 0, fx->buf, 400);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_NONE, IR_SCOPE_SYSACQ), 0);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_NONE, IR_SCOPE_GPUS), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes + fenced(fx)->dram.write_bytes, 0);
    /* evict.gpus: written to memory and gone from every cache. */
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_EVICT, IR_SCOPE_GPUS), 0);
    assert_int_equal(fenced(fx)->dram.write_bytes, LINE);
    uint32_t id = load(fx, 0, fx->buf, IR_CC_CACHED, IR_CC_CACHED, &w);
    assert_int_equal(w, 405);
    assert_int_equal(insn(fx, id)->dram.read_bytes, LINE);
}

static void test_tgm_and_ugml_fence_the_same_caches(void **state)
{
    fixture *fx = *state;
    uint32_t w;
    dirty_in_l1(fx, 0, fx->buf, 100);
    assert_int_equal(fence(fx, 0, IR_SFID_TGM, IR_FENCE_OP_CLEAN, IR_SCOPE_SM), 0);
    assert_int_equal(fenced(fx)->l1.writeback_bytes, LINE);
    dirty_in_l1(fx, 0, fx->buf, 200);
    assert_int_equal(fence(fx, 0, IR_SFID_UGML, IR_FENCE_OP_DISCARD, IR_SCOPE_GPU), 0);
    /* gpu scope covers the L2 as well: the cleaned bytes, dirty in L2, are lost there too */
    assert_false(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, initial_word(fx, fx->buf + 20));
}

static void test_rejected_fences(void **state)
{
    fixture *fx = *state;
    assert_int_equal(fence(fx, 0, IR_SFID_SLM, IR_FENCE_OP_NONE, IR_SCOPE_CTA), 0);
    assert_int_equal(fence(fx, 0, IR_SFID_SLM, IR_FENCE_OP_EVICT, IR_SCOPE_CTA), -1);
    assert_int_equal(fx->fault.kind, MEM_FAULT_UNSUPPORTED);
    assert_non_null(strstr(fx->fault.what, "SLM fence has no cache"));
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_NONE, IR_SCOPE_CLUSTER), -1);
    assert_non_null(strstr(fx->fault.what, "scope is not modelled"));
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, 9, IR_SCOPE_GPU), -1);
    assert_non_null(strstr(fx->fault.what, "operation is not modelled"));
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_UNSET, IR_SCOPE_GPU), -1);
    assert_int_equal(fence(fx, 0, 7, IR_FENCE_OP_NONE, IR_SCOPE_GPU), -1);
    assert_non_null(strstr(fx->fault.what, "unknown shared function"));
}

/* ---- per-level cache controls ---- */

static void test_load_controls(void **state)
{
    fixture *fx = *state;
    uint32_t w, id;
    /* L1 uncached: never allocates, so a second load misses L1 too. */
    load(fx, 0, fx->buf, IR_CC_UNCACHED, IR_CC_CACHED, &w);
    id = load(fx, 0, fx->buf, IR_CC_CACHED, IR_CC_CACHED, &w);
    assert_int_equal(insn(fx, id)->l1.sector_hits, 0);
    assert_int_equal(insn(fx, id)->l2.sector_hits, 1); /* the L2 kept it (cached) */
    id = load(fx, 0, fx->buf, IR_CC_CACHED, IR_CC_CACHED, &w);
    assert_int_equal(insn(fx, id)->l1.sector_hits, 1);
    /* read-invalidate at L1: this read hits, and the line is gone afterwards */
    id = load(fx, 0, fx->buf, IR_CC_READ_INVALIDATE, IR_CC_CACHED, &w);
    assert_int_equal(insn(fx, id)->l1.sector_hits, 1);
    assert_int_equal(w, initial_word(fx, fx->buf + 20));
    assert_false(l1_hit(fx, 0, fx->buf, &w));
    /* L2 uncached: every read comes from memory and leaves no L2 copy */
    id = load(fx, 0, fx->buf + 4096, IR_CC_UNCACHED, IR_CC_UNCACHED, &w);
    assert_int_equal(insn(fx, id)->dram.read_bytes, LINE);
    id = load(fx, 0, fx->buf + 4096, IR_CC_UNCACHED, IR_CC_UNCACHED, &w);
    assert_int_equal(insn(fx, id)->dram.read_bytes, LINE);
    assert_int_equal(insn(fx, id)->l2.sector_hits, 0);
    /* an uncached read sees the newest bytes even when a cache above held them dirty */
    dirty_in_l1(fx, 0, fx->buf + 4096, 700);
    id = load(fx, 0, fx->buf + 4096, IR_CC_UNCACHED, IR_CC_UNCACHED, &w);
    assert_int_equal(w, 705);
    assert_int_equal(insn(fx, id)->l1.writeback_bytes, LINE);
    /* L2 read-invalidate: the L2 copy is dropped after the read */
    load(fx, 0, fx->buf + 8192, IR_CC_UNCACHED, IR_CC_CACHED, &w);
    load(fx, 0, fx->buf + 8192, IR_CC_UNCACHED, IR_CC_READ_INVALIDATE, &w);
    id = load(fx, 0, fx->buf + 8192, IR_CC_UNCACHED, IR_CC_CACHED, &w);
    assert_int_equal(insn(fx, id)->l2.sector_hits, 0);
    assert_int_equal(w, initial_word(fx, fx->buf + 8192 + 20));
}

static void test_store_controls(void **state)
{
    fixture *fx = *state;
    uint32_t w, id;
    /* write-back at L1: dirty there until a fence or eviction; nothing reached L2 */
    id = store(fx, 0, fx->buf, 100, IR_CC_WRITE_BACK, IR_CC_WRITE_BACK);
    assert_int_equal(insn(fx, id)->l2.sector_accesses, 0);
    /* write-through at L1 updates the resident copy and the L2 at once */
    id = store(fx, 0, fx->buf, 200, IR_CC_WRITE_THROUGH, IR_CC_WRITE_BACK);
    assert_int_equal(insn(fx, id)->l2.sector_accesses, 1);
    assert_true(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, 205);
    /* ... and allocates nothing when the line is absent */
    store(fx, 0, fx->buf + 1024, 300, IR_CC_WRITE_THROUGH, IR_CC_WRITE_BACK);
    assert_false(l1_hit(fx, 0, fx->buf + 1024, &w));
    assert_int_equal(w, 305);
    /* uncached at L1: the L1 copy is written back and dropped, the bytes go to L2 */
    id = store(fx, 0, fx->buf, 400, IR_CC_UNCACHED, IR_CC_WRITE_BACK);
    assert_false(l1_hit(fx, 0, fx->buf, &w));
    assert_int_equal(w, 405);
    /* uncached at L2: the bytes reach memory at once */
    id = store(fx, 0, fx->buf + 2048, 500, IR_CC_UNCACHED, IR_CC_UNCACHED);
    assert_int_equal(insn(fx, id)->dram.write_bytes, LINE);
    /* write-back at L2: nothing reaches memory until a system-scope clean */
    id = store(fx, 0, fx->buf + 3072, 600, IR_CC_UNCACHED, IR_CC_WRITE_BACK);
    assert_int_equal(insn(fx, id)->dram.write_bytes, 0);
    assert_int_equal(fence(fx, 0, IR_SFID_UGM, IR_FENCE_OP_CLEAN, IR_SCOPE_SYS), 0);
    assert_int_equal(fenced(fx)->dram.write_bytes, 3 * LINE); /* 0, 1024 (via L2), 3072 */
}

/* The atomic arithmetic the executor would supply: a 32-bit add. */
static uint64_t test_lsc_add(uint8_t op, ir_type type, uint32_t mods, uint64_t old, uint64_t b,
                             uint64_t c, int *ok)
{
    (void)op, (void)type, (void)mods, (void)c;
    *ok = 1;
    return (uint32_t)(old + b);
}

static void test_atomic_uncached_at_l2_reaches_memory(void **state)
{
    fixture *fx = *state;
    uint32_t id = begin(fx, MEM_OP_ATOMIC, fx->buf, IR_CC_UNCACHED, IR_CC_UNCACHED);
    fx->acc.atom_op = IR_ATOM_ADD;
    fx->acc.atom_type = IR_T_U32;
    fx->acc.atom_returns = 1;
    fx->acc.atom_fn = test_lsc_add;
    fx->acc.active = 1;
    fx->acc.operand_b[0] = 10;
    assert_int_equal(run_on(fx, 0), 0);
    assert_int_equal(insn(fx, id)->dram.write_bytes, 4);       /* the atomic's own bytes */
    assert_int_equal(insn(fx, id)->dram.read_bytes, LINE);     /* one whole-line sector */
    uint32_t w;
    memcpy(&w, fx->acc.data[0], 4);
    assert_int_equal(w, 1);
    /* the atomic with L2 write-back keeps the line in L2 */
    id = begin(fx, MEM_OP_ATOMIC, fx->buf, IR_CC_UNCACHED, IR_CC_WRITE_BACK);
    fx->acc.atom_op = IR_ATOM_ADD;
    fx->acc.atom_type = IR_T_U32;
    fx->acc.atom_returns = 1;
    fx->acc.atom_fn = test_lsc_add;
    fx->acc.active = 1;
    fx->acc.operand_b[0] = 10;
    assert_int_equal(run_on(fx, 0), 0);
    assert_int_equal(insn(fx, id)->dram.write_bytes, 0);
    memcpy(&w, fx->acc.data[0], 4);
    assert_int_equal(w, 11);
}

/* 64-byte lines: a lane's 64-byte access is one line, and 32 lanes of 4 bytes are two. */
static void test_accesses_split_at_64_byte_lines(void **state)
{
    fixture *fx = *state;
    uint32_t id = begin(fx, MEM_OP_LOAD, fx->buf, IR_CC_CACHED, IR_CC_CACHED);
    fx->acc.active = 0xFFFFFFFFu;
    assert_int_equal(run_on(fx, 0), 0);
    assert_int_equal(insn(fx, id)->l1.sector_accesses, 2);
    assert_int_equal(fx->acc.nserved, 2);
    uint32_t w;
    memcpy(&w, fx->acc.data[31], 4);
    assert_int_equal(w, initial_word(fx, fx->buf + 124));
    id = begin(fx, MEM_OP_LOAD, fx->buf + 256, IR_CC_CACHED, IR_CC_CACHED);
    fx->acc.elem_bytes = 8;
    fx->acc.vec = 8;
    fx->attrs.elem_bytes = 8;
    fx->attrs.vec = 8;
    fx->acc.active = 3;
    memsys_test_strided(&fx->acc, fx->buf + 256, 64);
    assert_int_equal(run_on(fx, 0), 0);
    assert_int_equal(insn(fx, id)->l1.sector_accesses, 2);
    memcpy(&w, fx->acc.data[1] + 60, 4);
    assert_int_equal(w, initial_word(fx, fx->buf + 256 + 64 + 60));
}

/* Tiles must split the SMs and the L2 slices evenly. */
static void test_uneven_tiles_are_refused(void **state)
{
    (void)state;
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("pvc-2t"), 0, &cfg, "", NULL), 0);
    cfg.tiles = 3;
    diag_list dl;
    diag_list_init(&dl);
    assert_null(memsys_create(&cfg, &dl));
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "MEM-SYS-001");
    assert_string_equal(dl.items[0].message,
                        "3 tiles must split the 128 SMs and the 128 L2 slices evenly");
    diag_list_fini(&dl);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_discard_loses_dirty_data),
        T(test_clean_writes_back_and_keeps),
        T(test_evict_empties_l1),
        T(test_invalidate_keeps_dirty_lines),
        T(test_none_and_flushl3_at_local_scope_touch_nothing),
        T(test_group_scope_touches_no_cache),
        T(test_local_scope_reaches_only_the_own_l1),
        T(test_tile_scope_reaches_the_tile_gpu_scope_all),
        T(test_tile_scope_reaches_the_tile_l2_slices),
        T(test_system_scopes_reach_memory),
        T(test_tgm_and_ugml_fence_the_same_caches),
        T(test_rejected_fences),
        T(test_load_controls),
        T(test_store_controls),
        T(test_atomic_uncached_at_l2_reaches_memory),
        T(test_accesses_split_at_64_byte_lines),
        cmocka_unit_test(test_uneven_tiles_are_refused),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
