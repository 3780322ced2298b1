/* Unit tests of the cache-control operations and fences of the access contract (src/mem/
 * mem_control.c), driven through memsys_access with exact per-instruction counters and the data
 * they leave: the operations PTX cannot express (write back a line, reset, invalidate all of one
 * line kind, clean, invalidate clean lines, whole constant and instruction caches), the rejection
 * of caches the model does not have, and fences charged to their own instruction.
 *
 * The hierarchy is test_hier.c's (2 SMs, 4 KiB L1s, a 64 KiB L2 of 2 slices, the h100 preset's
 * policies) with an L1 that keeps global stores (write-back, allocating), so that global lines can
 * be dirty in L1. Word i of the buffer initially holds 3 * i + 1. Derivations of the counts use
 * docs/cache-model.md: a write-back sends whole dirty sectors; a store that misses L2 allocates
 * without fetching. */
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

enum { INSNS = 64, BUFFER_BYTES = 16 * 1024, LOCAL_BYTES = 256, CONST_BYTES = 1024 };

typedef struct fixture {
    memsys_config cfg;
    memsys *ms;
    diag_list dl;
    uint64_t buf;
    ir_mem_attrs attrs;
    mem_access acc;
    mem_fault fault;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    memsys_test_small_h100(&fx.cfg);
    /* An L1 that keeps global stores, so that lines can be dirty in L1. */
    fx.cfg.l1.global_store_write_through = 0;
    fx.cfg.l1.global_store_allocate = 1;
    diag_list_init(&fx.dl);
    fx.ms = memsys_create(&fx.cfg, &fx.dl);
    assert_non_null(fx.ms);
    assert_int_equal(memsys_set_insn_count(fx.ms, INSNS), 0);
    assert_int_equal(memsys_alloc(fx.ms, BUFFER_BYTES, 256, &fx.buf), 0);
    static uint32_t words[BUFFER_BYTES / 4];
    for (uint32_t i = 0; i < BUFFER_BYTES / 4; i++) words[i] = 3 * i + 1;
    assert_int_equal(memsys_host_write(fx.ms, fx.buf, words, BUFFER_BYTES), 0);
    static uint8_t bank[CONST_BYTES];
    assert_int_equal(memsys_set_const_bank(fx.ms, bank, sizeof bank), 0);
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

/* A fresh access of instruction `id`: lane l at base + 4 l (32 lanes: one 128-byte line), plain
 * attributes. */
static mem_access *begin(fixture *fx, mem_op op, ir_space space, uint64_t base, uint32_t id)
{
    memset(&fx->attrs, 0, sizeof fx->attrs);
    mem_access *a = memsys_test_access(&fx->acc, &fx->attrs, op, space, 4, 1, 0xFFFFFFFFu, id);
    memsys_test_strided(a, base, 4);
    return a;
}

static int run_on(fixture *fx, uint32_t sm)
{
    static uint8_t shared[128];
    mem_ctx c = {.sm = sm, .shared = shared, .shared_bytes = sizeof shared,
                 .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = LOCAL_BYTES};
    return memsys_access(fx->ms, &c, &fx->acc, &fx->fault);
}

static void perform(fixture *fx, uint32_t sm)
{
    assert_int_equal(run_on(fx, sm), 0);
    assert_int_equal(fx->fault.kind, MEM_FAULT_NONE);
}

/* Stores value + l into word l of the line at `base`, by SM 0. A local line is the same local
 * offset `base` of every lane. */
static void store_line(fixture *fx, ir_space space, uint64_t base, uint32_t value, uint32_t id)
{
    mem_access *a = begin(fx, MEM_OP_STORE, space, base, id);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (space == IR_SPACE_LOCAL)
            a->addr[l] = base;
        uint32_t v = value + l;
        memcpy(a->data[l], &v, 4);
    }
    perform(fx, 0);
}

/* Loads the line at `base` on SM `sm`; returns lane 5's word. */
static uint32_t load_line(fixture *fx, ir_space space, uint64_t base, uint32_t sm, uint32_t id)
{
    begin(fx, MEM_OP_LOAD, space, base, id);
    perform(fx, sm);
    uint32_t v;
    memcpy(&v, fx->acc.data[5], 4);
    return v;
}

/* A cache-control operation by SM 0 on the line at `base` (lane 0's address), or on whole caches
 * (base 0 and whole). */
static int control(fixture *fx, uint8_t op, uint8_t levels, uint8_t lines, int whole,
                   ir_space space, uint64_t base, uint32_t id)
{
    begin(fx, MEM_OP_CACHE_CONTROL, space, base, id);
    fx->acc.active = whole ? 0 : 1u;
    fx->acc.elem_bytes = 1;
    fx->attrs.cctl = op;
    fx->attrs.cctl_levels = levels;
    fx->attrs.cctl_lines = lines;
    fx->attrs.cctl_all = (uint8_t)whole;
    return run_on(fx, 0);
}

static const mem_counters *insn(const fixture *fx, uint32_t id)
{
    return &memsys_insn_counters(fx->ms)[id];
}

/* ---- line operations ---- */

static void test_writeback_line_reaches_l2(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1); /* dirty in SM 0's L1 */
    assert_int_equal(insn(fx, 1)->l2.sector_accesses, 0);
    /* Write back the line: its 4 dirty sectors (128 bytes) go to L2, which allocates them
     * without fetching (4 misses); all charged to the operation. */
    assert_int_equal(control(fx, IR_CCTL_WRITEBACK, IR_LEVEL_L1, 0, 0, IR_SPACE_GLOBAL, fx->buf, 2),
                     0);
    assert_int_equal(insn(fx, 2)->l1.writeback_bytes, 128);
    assert_int_equal(insn(fx, 2)->l2.sector_accesses, 4);
    assert_int_equal(insn(fx, 2)->l2.sector_misses, 4);
    assert_int_equal(insn(fx, 2)->dram.write_bytes, 0);
    /* The data is in L2: SM 1 reads it there (4 L2 hits); SM 0 still holds the line, now clean
     * (4 L1 hits), and a second write-back writes nothing. */
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 1, 3), 105);
    assert_int_equal(insn(fx, 3)->l2.sector_hits, 4);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 4), 105);
    assert_int_equal(insn(fx, 4)->l1.sector_hits, 4);
    control(fx, IR_CCTL_WRITEBACK, IR_LEVEL_L1, 0, 0, IR_SPACE_GLOBAL, fx->buf, 5);
    assert_int_equal(insn(fx, 5)->l1.writeback_bytes, 0);
    /* Writing the L2 line back moves its 4 dirty sectors to DRAM: the host sees the store. */
    control(fx, IR_CCTL_WRITEBACK, IR_LEVEL_L2, 0, 0, IR_SPACE_GLOBAL, fx->buf, 6);
    assert_int_equal(insn(fx, 6)->l2.writeback_bytes, 128);
    assert_int_equal(insn(fx, 6)->dram.write_bytes, 128);
    uint32_t back;
    assert_int_equal(memsys_host_read(fx->ms, fx->buf + 20, &back, 4), 0);
    assert_int_equal(back, 105);
}

static void test_reset_line_loses_dirty_data(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1);
    /* Reset (discard at L1): the line and its dirty bytes are gone, nothing is written back. */
    assert_int_equal(control(fx, IR_CCTL_DISCARD, IR_LEVEL_L1, 0, 0, IR_SPACE_GLOBAL, fx->buf, 2),
                     0);
    assert_int_equal(insn(fx, 2)->l1.writeback_bytes, 0);
    assert_int_equal(insn(fx, 2)->l2.sector_accesses, 0);
    /* The next read misses L1 and L2 and returns what DRAM held: the store is lost. */
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 3), initial_word(fx, fx->buf + 20));
    assert_int_equal(insn(fx, 3)->l1.sector_misses, 4);
    assert_int_equal(insn(fx, 3)->dram.read_bytes, 128);
    assert_int_equal(memsys_finish(fx->ms), 0);
    uint32_t back;
    assert_int_equal(memsys_host_read(fx->ms, fx->buf + 20, &back, 4), 0);
    assert_int_equal(back, initial_word(fx, fx->buf + 20));
}

static void test_invalidate_line_writes_back_first(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1);
    assert_int_equal(
        control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_L1, 0, 0, IR_SPACE_GLOBAL, fx->buf + 64, 2), 0);
    assert_int_equal(insn(fx, 2)->l1.writeback_bytes, 128);
    assert_int_equal(insn(fx, 2)->l2.sector_misses, 4);
    /* Gone from L1, kept by L2: an L1 miss, 4 L2 hits, the stored value. */
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 3), 105);
    assert_int_equal(insn(fx, 3)->l1.sector_hits, 0);
    assert_int_equal(insn(fx, 3)->l2.sector_hits, 4);
}

static void test_priority_of_l2_line(void **state)
{
    fixture *fx = *state;
    load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 1);
    mem_counters total;
    memsys_total_counters(fx->ms, &total);
    assert_int_equal(total.l2.lines_evict_first, 0);
    begin(fx, MEM_OP_CACHE_CONTROL, IR_SPACE_GLOBAL, fx->buf, 2);
    fx->acc.active = 1u;
    fx->acc.elem_bytes = 1;
    fx->attrs.cctl = IR_CCTL_PRIORITY;
    fx->attrs.cctl_levels = IR_LEVEL_L2;
    fx->attrs.l2_evict = IR_EVICT_FIRST;
    perform(fx, 0);
    memsys_total_counters(fx->ms, &total);
    assert_int_equal(total.l2.lines_evict_first, 1);
}

/* The seed's PF1: the line comes into the L1 through the L2; the read that follows hits L1. */
static void test_prefetch_into_l1(void **state)
{
    fixture *fx = *state;
    assert_int_equal(control(fx, IR_CCTL_PREFETCH, IR_LEVEL_L1 | IR_LEVEL_L2, IR_LINES_GLOBAL, 0,
                             IR_SPACE_GLOBAL, fx->buf + 132, 1), 0);
    /* The whole line (4 sectors) missed both levels and came from DRAM: all the prefetch's. */
    assert_int_equal(insn(fx, 1)->l1.sector_misses, 4);
    assert_int_equal(insn(fx, 1)->l2.sector_misses, 4);
    assert_int_equal(insn(fx, 1)->dram.read_bytes, 128);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf + 128, 0, 2),
                     initial_word(fx, fx->buf + 128 + 20));
    assert_int_equal(insn(fx, 2)->l1.sector_hits, 4);
    assert_int_equal(insn(fx, 2)->l2.sector_accesses, 0);
}

/* PF2: the line comes into the L2 only; the read that follows misses L1 and hits L2. */
static void test_prefetch_into_l2(void **state)
{
    fixture *fx = *state;
    assert_int_equal(control(fx, IR_CCTL_PREFETCH, IR_LEVEL_L2, IR_LINES_GLOBAL, 0,
                             IR_SPACE_GLOBAL, fx->buf + 256, 1), 0);
    assert_int_equal(insn(fx, 1)->l1.sector_accesses, 0);
    assert_int_equal(insn(fx, 1)->l2.sector_misses, 4);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf + 256, 0, 2),
                     initial_word(fx, fx->buf + 256 + 20));
    assert_int_equal(insn(fx, 2)->l1.sector_hits, 0);
    assert_int_equal(insn(fx, 2)->l1.sector_misses, 4);
    assert_int_equal(insn(fx, 2)->l2.sector_hits, 4);
    assert_int_equal(insn(fx, 2)->dram.read_bytes, 0);
}

/* Lane 5's word of the local line at offset 0 as loaded by SM 0 (instruction id). */
static uint32_t load_local(fixture *fx, uint32_t id)
{
    begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 0, id);
    for (uint32_t l = 0; l < MEM_LANES; l++) fx->acc.addr[l] = 0;
    perform(fx, 0);
    uint32_t v;
    memcpy(&v, fx->acc.data[5], 4);
    return v;
}

/* CCTLL.WB, .RS and .IV on the thread's local line (word 0 of every lane forms one line), and
 * CCTL on global lines passing a local line by. */
static void test_local_line_operations(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_LOCAL, 0, 500, 1); /* dirty in SM 0's L1 */
    /* A global-lines operation on a local address leaves the line alone. */
    assert_int_equal(control(fx, IR_CCTL_DISCARD, IR_LEVEL_L1, IR_LINES_GLOBAL, 0,
                             IR_SPACE_LOCAL, 0, 2), 0);
    assert_int_equal(load_local(fx, 3), 505);
    assert_int_equal(insn(fx, 3)->l1.sector_hits, 4);
    /* WB: the line's 4 dirty sectors reach L2; the line stays, clean. */
    assert_int_equal(control(fx, IR_CCTL_WRITEBACK, IR_LEVEL_L1, IR_LINES_LOCAL, 0,
                             IR_SPACE_LOCAL, 0, 4), 0);
    assert_int_equal(insn(fx, 4)->l1.writeback_bytes, 128);
    assert_int_equal(load_local(fx, 5), 505);
    assert_int_equal(insn(fx, 5)->l1.sector_hits, 4);
    /* A newer store, then RS: the dirty bytes are lost and the read gets L2's older copy. */
    store_line(fx, IR_SPACE_LOCAL, 0, 700, 6);
    assert_int_equal(control(fx, IR_CCTL_DISCARD, IR_LEVEL_L1, IR_LINES_LOCAL, 0,
                             IR_SPACE_LOCAL, 0, 7), 0);
    assert_int_equal(insn(fx, 7)->l1.writeback_bytes, 0);
    assert_int_equal(load_local(fx, 8), 505);
    assert_int_equal(insn(fx, 8)->l1.sector_hits, 0);
    assert_int_equal(insn(fx, 8)->l2.sector_hits, 4);
    /* IV: the dirty line is written back first, then dropped; the read finds it in L2. */
    store_line(fx, IR_SPACE_LOCAL, 0, 900, 9);
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_L1, IR_LINES_LOCAL, 0,
                             IR_SPACE_LOCAL, 0, 10), 0);
    assert_int_equal(insn(fx, 10)->l1.writeback_bytes, 128);
    assert_int_equal(load_local(fx, 11), 905);
    assert_int_equal(insn(fx, 11)->l1.sector_hits, 0);
    assert_int_equal(insn(fx, 11)->l2.sector_hits, 4);
}

/* ---- whole caches ---- */

static void test_invalidate_all_by_line_kind(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1); /* a dirty global line */
    store_line(fx, IR_SPACE_LOCAL, 0, 500, 2); /* a dirty local line: word 0 of every lane */
    /* Invalidate every local line of SM 0's L1 (CCTLL.IVALL): the local line is written back
     * (128 bytes) and dropped; the global line stays, dirty. */
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_L1, IR_LINES_LOCAL, 1, IR_SPACE_NONE,
                             0, 3), 0);
    assert_int_equal(insn(fx, 3)->l1.writeback_bytes, 128);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 4), 105);
    assert_int_equal(insn(fx, 4)->l1.sector_hits, 4);
    begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 0, 5);
    for (uint32_t l = 0; l < MEM_LANES; l++) fx->acc.addr[l] = 0;
    perform(fx, 0);
    assert_int_equal(insn(fx, 5)->l1.sector_hits, 0);
    uint32_t v;
    memcpy(&v, fx->acc.data[5], 4);
    assert_int_equal(v, 505);
    /* Now every global line (CCTL.IVALL): the global line is written back and dropped. */
    control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_L1, IR_LINES_GLOBAL, 1, IR_SPACE_NONE, 0, 6);
    assert_int_equal(insn(fx, 6)->l1.writeback_bytes, 128);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 7), 105);
    assert_int_equal(insn(fx, 7)->l1.sector_hits, 0);
}

static void test_clean_all_keeps_lines(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1);
    store_line(fx, IR_SPACE_GLOBAL, fx->buf + 1024, 200, 2);
    /* Write back all (clean): both lines' 8 dirty sectors reach L2; the lines stay valid. */
    assert_int_equal(control(fx, IR_CCTL_WRITEBACK, IR_LEVEL_L1, 0, 1, IR_SPACE_NONE, 0, 3), 0);
    assert_int_equal(insn(fx, 3)->l1.writeback_bytes, 256);
    assert_int_equal(insn(fx, 3)->l2.sector_accesses, 8);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf + 1024, 0, 4), 205);
    assert_int_equal(insn(fx, 4)->l1.sector_hits, 4);
    control(fx, IR_CCTL_WRITEBACK, IR_LEVEL_L1, 0, 1, IR_SPACE_NONE, 0, 5);
    assert_int_equal(insn(fx, 5)->l1.writeback_bytes, 0);
}

static void test_discard_all_drops_dirty_data(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1);
    assert_int_equal(control(fx, IR_CCTL_DISCARD, IR_LEVEL_L1, 0, 1, IR_SPACE_NONE, 0, 2), 0);
    assert_int_equal(insn(fx, 2)->l1.writeback_bytes, 0);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 3), initial_word(fx, fx->buf + 20));
}

static void test_invalidate_clean_keeps_dirty_lines(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1);              /* dirty */
    load_line(fx, IR_SPACE_GLOBAL, fx->buf + 2048, 0, 2);          /* clean */
    assert_int_equal(
        control(fx, IR_CCTL_INVALIDATE_CLEAN, IR_LEVEL_L1, 0, 1, IR_SPACE_NONE, 0, 3), 0);
    assert_int_equal(insn(fx, 3)->l1.writeback_bytes, 0);
    /* The dirty line is still there (4 hits, its data); the clean one is gone (4 misses). */
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 4), 105);
    assert_int_equal(insn(fx, 4)->l1.sector_hits, 4);
    load_line(fx, IR_SPACE_GLOBAL, fx->buf + 2048, 0, 5);
    assert_int_equal(insn(fx, 5)->l1.sector_hits, 0);
}

static void test_constant_and_instruction_caches(void **state)
{
    fixture *fx = *state;
    /* A prefetch into the constant cache is a lookup: one request, one miss; the load that
     * follows hits. */
    assert_int_equal(control(fx, IR_CCTL_PREFETCH, IR_LEVEL_CONST_L1, 0, 0, IR_SPACE_CONST, 256, 1),
                     0);
    assert_int_equal(insn(fx, 1)->constant.requests, 1);
    assert_int_equal(insn(fx, 1)->constant.misses, 1);
    begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 256, 2);
    for (uint32_t l = 0; l < MEM_LANES; l++) fx->acc.addr[l] = 256;
    perform(fx, 0);
    assert_int_equal(insn(fx, 2)->constant.hits, 1);
    /* Invalidate the whole constant cache (CCTL.C.IVALL): the same load misses again. */
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_CONST_L1, 0, 1, IR_SPACE_NONE, 0, 3),
                     0);
    begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 256, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) fx->acc.addr[l] = 256;
    perform(fx, 0);
    assert_int_equal(insn(fx, 4)->constant.misses, 1);
    /* The instruction cache: a fetch misses, then hits; after CCTL.I.IVALL it misses again, and
     * after invalidating its one line too. */
    memsys_ifetch(fx->ms, 0, 0x2000, 5);
    memsys_ifetch(fx->ms, 0, 0x2000, 5);
    assert_int_equal(insn(fx, 5)->icache.misses, 1);
    assert_int_equal(insn(fx, 5)->icache.hits, 1);
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_INSN_L1, 0, 1, IR_SPACE_NONE, 0, 6),
                     0);
    memsys_ifetch(fx->ms, 0, 0x2000, 7);
    assert_int_equal(insn(fx, 7)->icache.misses, 1);
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_INSN_L1, 0, 0, IR_SPACE_INSTRUCTION,
                             0x2000, 8), 0);
    memsys_ifetch(fx->ms, 0, 0x2000, 9);
    assert_int_equal(insn(fx, 9)->icache.misses, 1);
}

/* ---- what the model rejects ---- */

static void assert_rejected(fixture *fx, mem_fault_kind kind, const char *what)
{
    assert_int_equal(fx->fault.kind, kind);
    assert_non_null(strstr(fx->fault.what, what));
}

static void test_unmodelled_caches_are_rejected(void **state)
{
    fixture *fx = *state;
    /* CCTLL.CRS.WBALL: the call-return stack has no modelled cache. */
    assert_int_equal(control(fx, IR_CCTL_WRITEBACK, IR_LEVEL_CRS, 0, 1, IR_SPACE_NONE, 0, 1), -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "the call-return stack has no modelled cache");
    assert_int_equal(fx->fault.space, IR_SPACE_CRS);
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_CONST_L2, 0, 1, IR_SPACE_NONE, 0, 2),
                     -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "constant hierarchy has no modelled level");
    assert_int_equal(control(fx, IR_CCTL_PREFETCH, IR_LEVEL_INSN_L2, 0, 0, IR_SPACE_INSTRUCTION,
                             0x2000, 3), -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "instruction hierarchy has no modelled level");
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, 0, 0, 1, IR_SPACE_NONE, 0, 4), -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "must name the caches");
    assert_int_equal(control(fx, IR_CCTL_PREFETCH, IR_LEVEL_L2, 0, 1, IR_SPACE_NONE, 0, 5), -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "acts on addressed lines");
    /* Line operations on data outside the caches named, or read-only data. */
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_L1, 0, 0, IR_SPACE_CONST, 0, 6), -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "no cache of the constant hierarchy");
    assert_int_equal(control(fx, IR_CCTL_DISCARD, IR_LEVEL_CONST_L1, 0, 0, IR_SPACE_CONST, 0, 7),
                     -1);
    assert_rejected(fx, MEM_FAULT_READ_ONLY, "read-only");
    assert_int_equal(control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_L1, 0, 0, IR_SPACE_SHARED, 0, 8), -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "shared memory has no cache");
    /* A prefetch is a hint: the same lanes do nothing, and nothing is counted. */
    assert_int_equal(control(fx, IR_CCTL_PREFETCH, IR_LEVEL_L1, 0, 0, IR_SPACE_SHARED, 0, 9), 0);
    assert_int_equal(insn(fx, 9)->l1.sector_accesses, 0);
}

/* ---- fences ---- */

static int fence(fixture *fx, uint8_t effects, uint32_t id)
{
    begin(fx, MEM_OP_FENCE, IR_SPACE_NONE, 0, id);
    fx->attrs.scope = IR_SCOPE_GPU;
    fx->attrs.fence = effects;
    return run_on(fx, 0);
}

static void test_fence_is_charged_to_itself(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1); /* one dirty global line in SM 0's L1 */
    /* A shared-memory load runs last before the fence ... */
    begin(fx, MEM_OP_LOAD, IR_SPACE_SHARED, 0, 2);
    perform(fx, 0);
    /* ... and the fence that drops the L1's global lines writes the dirty line back: 128 bytes
     * and 4 L2 sector misses in the fence's record, nothing in the load's. */
    assert_int_equal(fence(fx, IR_FENCE_WAIT_WRITES | IR_FENCE_INVALIDATE_L1, 3), 0);
    assert_int_equal(insn(fx, 3)->l1.writeback_bytes, 128);
    assert_int_equal(insn(fx, 3)->l2.sector_misses, 4);
    assert_int_equal(insn(fx, 2)->l1.writeback_bytes, 0);
    assert_int_equal(insn(fx, 2)->l2.sector_accesses, 0);
    assert_int_equal(insn(fx, 2)->shared.requests, 1);
    /* Gone from L1, the line's data is in L2. */
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 4), 105);
    assert_int_equal(insn(fx, 4)->l2.sector_hits, 4);
}

/* MEMBAR .IVALLT: the lines the read-only path allocated leave the L1 (their dirty bytes
 * written back); the other global lines stay. .IVALLD drops both kinds. */
static void test_fence_invalidates_texture_lines(void **state)
{
    fixture *fx = *state;
    begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, fx->buf, 1);
    fx->attrs.l1 = IR_L1_READ_ONLY;
    perform(fx, 0);                                   /* line A through the read-only path */
    load_line(fx, IR_SPACE_GLOBAL, fx->buf + 512, 0, 2); /* line B, a plain load */
    /* A read-only load that hits B does not make it a texture line. */
    begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, fx->buf + 512, 3);
    fx->attrs.l1 = IR_L1_READ_ONLY;
    perform(fx, 0);
    assert_int_equal(insn(fx, 3)->l1.sector_hits, 4);
    assert_int_equal(fence(fx, IR_FENCE_INVALIDATE_TEX, 4), 0);
    assert_int_equal(insn(fx, 4)->l1.writeback_bytes, 0);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 5), initial_word(fx, fx->buf + 20));
    assert_int_equal(insn(fx, 5)->l1.sector_hits, 0);
    assert_int_equal(insn(fx, 5)->l2.sector_hits, 4);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf + 512, 0, 6),
                     initial_word(fx, fx->buf + 512 + 20));
    assert_int_equal(insn(fx, 6)->l1.sector_hits, 4);
    /* A texture line a store made dirty: written back by the invalidation, not lost. */
    begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, fx->buf + 1024, 7);
    fx->attrs.l1 = IR_L1_READ_ONLY;
    perform(fx, 0);
    store_line(fx, IR_SPACE_GLOBAL, fx->buf + 1024, 300, 8);
    assert_int_equal(fence(fx, IR_FENCE_INVALIDATE_TEX, 9), 0);
    assert_int_equal(insn(fx, 9)->l1.writeback_bytes, 128);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf + 1024, 0, 10), 305);
    assert_int_equal(insn(fx, 10)->l1.sector_hits, 0);
    /* .IVALLD (and CCTL.IVALL of global lines) drops texture lines as well. */
    begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, fx->buf + 2048, 11);
    fx->attrs.l1 = IR_L1_READ_ONLY;
    perform(fx, 0);
    assert_int_equal(fence(fx, IR_FENCE_INVALIDATE_L1, 12), 0);
    load_line(fx, IR_SPACE_GLOBAL, fx->buf + 2048, 0, 13);
    assert_int_equal(insn(fx, 13)->l1.sector_hits, 0);
    begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, fx->buf + 2048, 14);
    fx->attrs.l1 = IR_L1_READ_ONLY;
    perform(fx, 0);
    control(fx, IR_CCTL_INVALIDATE, IR_LEVEL_L1, IR_LINES_GLOBAL, 1, IR_SPACE_NONE, 0, 15);
    load_line(fx, IR_SPACE_GLOBAL, fx->buf + 2048, 0, 16);
    assert_int_equal(insn(fx, 16)->l1.sector_hits, 0);
}

static void test_fence_effects(void **state)
{
    fixture *fx = *state;
    store_line(fx, IR_SPACE_GLOBAL, fx->buf, 100, 1);
    /* Only waiting (a CTA-scope fence): nothing to do. */
    assert_int_equal(fence(fx, IR_FENCE_WAIT_WRITES, 2), 0);
    assert_int_equal(insn(fx, 2)->l1.writeback_bytes, 0);
    /* Writing dirty L1 lines back keeps them: 128 bytes, then the line still hits. */
    assert_int_equal(fence(fx, IR_FENCE_WRITEBACK_L1, 3), 0);
    assert_int_equal(insn(fx, 3)->l1.writeback_bytes, 128);
    assert_int_equal(load_line(fx, IR_SPACE_GLOBAL, fx->buf, 0, 4), 105);
    assert_int_equal(insn(fx, 4)->l1.sector_hits, 4);
    /* An effect the model does not know is refused. */
    assert_int_equal(fence(fx, 0x80, 5), -1);
    assert_rejected(fx, MEM_FAULT_UNSUPPORTED, "not modelled");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_writeback_line_reaches_l2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_line_loses_dirty_data, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalidate_line_writes_back_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefetch_into_l1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefetch_into_l2, setup, teardown),
        cmocka_unit_test_setup_teardown(test_local_line_operations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_priority_of_l2_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalidate_all_by_line_kind, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clean_all_keeps_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_discard_all_drops_dirty_data, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalidate_clean_keeps_dirty_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constant_and_instruction_caches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unmodelled_caches_are_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_is_charged_to_itself, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_invalidates_texture_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_effects, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
