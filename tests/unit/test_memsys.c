/* Unit tests of the memory system's address windows and lane sizes (src/mem/memsys.c) through the
 * access contract of mem.h: constant banks c[bank][offset] in the const window (installation,
 * explicit and generic reads, the constant cache, faults) and accesses of 64 bytes per lane
 * (global, local and shared: exact data, sectors and wavefronts).
 *
 * Expected counts follow docs/statistics.md and docs/cache-model.md: a warp access is split into
 * the 128-byte lines it touches; each line's 32-byte sectors are looked up in the SM's L1; global
 * stores write through to L2 without allocating in L1 and local stores allocate in L1 (the h100
 * policies); an L2 line written whole needs no DRAM fetch. */
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

enum { INSNS = 16, BUFFER_BYTES = 8192, LOCAL_BYTES = 256, SHARED_BYTES = 4096 };

typedef struct fixture {
    memsys *ms;
    diag_list dl;
    uint64_t buf;
    ir_mem_attrs attrs;
    mem_access acc;
    uint8_t shared[SHARED_BYTES];
    mem_ctx ctx;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    memsys_config cfg;
    memsys_test_small_h100(&cfg);
    diag_list_init(&fx.dl);
    fx.ms = memsys_create(&cfg, &fx.dl);
    assert_non_null(fx.ms);
    assert_int_equal(memsys_set_insn_count(fx.ms, INSNS), 0);
    assert_int_equal(memsys_alloc(fx.ms, BUFFER_BYTES, 256, &fx.buf), 0);
    fx.ctx = (mem_ctx){.sm = 0, .shared = fx.shared, .shared_bytes = SHARED_BYTES,
                       .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = LOCAL_BYTES};
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

/* A fresh access of instruction `insn_id` by every lane, with plain attributes. */
static mem_access *begin(fixture *fx, mem_op op, ir_space space, uint32_t elem_bytes, uint32_t vec,
                         uint32_t insn_id)
{
    memset(&fx->attrs, 0, sizeof fx->attrs);
    return memsys_test_access(&fx->acc, &fx->attrs, op, space, elem_bytes, vec, 0xFFFFFFFFu,
                              insn_id);
}

static void perform(fixture *fx)
{
    mem_fault f;
    assert_int_equal(memsys_access(fx->ms, &fx->ctx, &fx->acc, &f), 0);
    assert_int_equal(f.kind, MEM_FAULT_NONE);
}

/* The access must fault on lane 0 with `kind` and the explanation `what`. */
static void perform_faults(fixture *fx, mem_fault_kind kind, const char *what)
{
    mem_fault f;
    assert_int_equal(memsys_access(fx->ms, &fx->ctx, &fx->acc, &f), -1);
    assert_int_equal(f.kind, kind);
    assert_int_equal(f.lane, 0);
    assert_string_equal(f.what, what);
}

static const mem_counters *insn(const fixture *fx, uint32_t id)
{
    return &memsys_insn_counters(fx->ms)[id];
}

static uint32_t lane_word(const mem_access *a, uint32_t lane)
{
    uint32_t v;
    memcpy(&v, a->data[lane], 4);
    return v;
}

/* ---- constant banks ---- */

static void install_banks(fixture *fx)
{
    uint32_t bank0[4], bank3[16];
    for (uint32_t i = 0; i < 4; i++) bank0[i] = 100 + i;
    for (uint32_t i = 0; i < 16; i++) bank3[i] = 300 + i;
    assert_int_equal(memsys_set_const_bank(fx->ms, (const uint8_t *)bank0, sizeof bank0), 0);
    assert_int_equal(memsys_set_const_bank_at(fx->ms, 3, (const uint8_t *)bank3, sizeof bank3),
                     0);
}

static void test_const_bank_3_reads(void **state)
{
    fixture *fx = *state;
    install_banks(fx);
    /* c[3][4 * (l % 16)]: 16 distinct words of one 64-byte constant line. */
    mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 1);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        a->addr[l] = (3ull << MEM_CONST_BANK_SHIFT) + 4 * (l % 16);
    perform(fx);
    for (uint32_t l = 0; l < MEM_LANES; l++) assert_int_equal(lane_word(a, l), 300 + l % 16);
    /* One request; 16 distinct addresses serialise 15 times; the line misses once. */
    assert_int_equal(insn(fx, 1)->constant.requests, 1);
    assert_int_equal(insn(fx, 1)->constant.serialized, 15);
    assert_int_equal(insn(fx, 1)->constant.misses, 1);
    assert_int_equal(insn(fx, 1)->constant.hits, 0);

    /* The same bank by generic address: the const window spans every bank. The line hits. */
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_GENERIC, 4, 1, 2);
    memsys_test_strided(a, MEM_CONST_WINDOW + (3ull << MEM_CONST_BANK_SHIFT) + 8, 0);
    perform(fx);
    for (uint32_t l = 0; l < MEM_LANES; l++) assert_int_equal(lane_word(a, l), 302);
    assert_int_equal(insn(fx, 2)->constant.serialized, 0);
    assert_int_equal(insn(fx, 2)->constant.hits, 1);

    /* Bank 0 at the same offset is other data, on another line: a miss. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 3), 8, 0);
    perform(fx);
    assert_int_equal(lane_word(&fx->acc, 0), 102);
    assert_int_equal(insn(fx, 3)->constant.misses, 1);

    uint32_t peeked = 0;
    assert_int_equal(memsys_peek(fx->ms, &fx->ctx, 0, MEM_CONST_WINDOW +
                                 (3ull << MEM_CONST_BANK_SHIFT) + 60, &peeked, 4), 0);
    assert_int_equal(peeked, 315);
}

static void test_const_bank_faults(void **state)
{
    fixture *fx = *state;
    install_banks(fx);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 1), 5ull << MEM_CONST_BANK_SHIFT, 0);
    perform_faults(fx, MEM_FAULT_OUT_OF_BOUNDS, "address is outside the data of its constant bank");
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 1), (3ull << MEM_CONST_BANK_SHIFT) + 64,
            0);
    perform_faults(fx, MEM_FAULT_OUT_OF_BOUNDS, "address is outside the data of its constant bank");
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 1), 32ull << MEM_CONST_BANK_SHIFT, 0);
    perform_faults(fx, MEM_FAULT_OUT_OF_BOUNDS, "constant bank number is outside 0..31");
    /* Bank 0 keeps its message. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 1), 16, 0);
    perform_faults(fx, MEM_FAULT_OUT_OF_BOUNDS, "address is outside the window's allocated size");
    /* A generic address past the last bank is no constant at all: a global address. */
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_GENERIC, 4, 1, 1), MEM_CONST_WINDOW +
            (32ull << MEM_CONST_BANK_SHIFT), 0);
    perform_faults(fx, MEM_FAULT_OUT_OF_BOUNDS, "address is outside every allocation");
    memsys_test_strided(begin(fx, MEM_OP_STORE, IR_SPACE_CONST, 4, 1, 1), 3ull << MEM_CONST_BANK_SHIFT, 0);
    perform_faults(fx, MEM_FAULT_READ_ONLY, "state space is read-only");
    /* Installing: bank numbers and sizes in range; 0 bytes empties a bank. */
    uint8_t byte = 1;
    assert_int_equal(memsys_set_const_bank_at(fx->ms, MEM_CONST_BANKS, &byte, 1), -1);
    assert_int_equal(memsys_set_const_bank_at(fx->ms, 1, &byte, MEM_WINDOW_BYTES + 1), -1);
    assert_int_equal(memsys_set_const_bank_at(fx->ms, 3, NULL, 0), 0);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 1), 3ull << MEM_CONST_BANK_SHIFT, 0);
    perform_faults(fx, MEM_FAULT_OUT_OF_BOUNDS, "address is outside the data of its constant bank");
}

/* ---- 64 bytes per lane ---- */

/* Fills lane l's 64 bytes with a pattern of (l, byte, salt). */
static void fill_lanes(mem_access *a, uint8_t salt)
{
    for (uint32_t l = 0; l < MEM_LANES; l++)
        for (uint32_t k = 0; k < 64; k++) a->data[l][k] = (uint8_t)(l * 64 + k + salt);
}

static void expect_lanes(const mem_access *a, uint8_t salt)
{
    for (uint32_t l = 0; l < MEM_LANES; l++)
        for (uint32_t k = 0; k < 64; k++)
            assert_int_equal(a->data[l][k], (uint8_t)(l * 64 + k + salt));
}

static void expect_l1_l2(const mem_counters *c, uint64_t sectors, uint64_t l1_hits,
                         uint64_t l2_sectors, uint64_t l2_hits)
{
    assert_int_equal(c->l1.requests, 1);
    assert_int_equal(c->l1.sector_accesses, sectors);
    assert_int_equal(c->l1.sector_hits, l1_hits);
    assert_int_equal(c->l1.sector_misses, sectors - l1_hits);
    assert_int_equal(c->l2.sector_accesses, l2_sectors);
    assert_int_equal(c->l2.sector_hits, l2_hits);
    assert_int_equal(c->l2.sector_misses, l2_sectors - l2_hits);
    assert_int_equal(c->dram.read_bytes, 0);
    assert_int_equal(c->dram.write_bytes, 0);
}

static void test_64_bytes_per_lane_global(void **state)
{
    fixture *fx = *state;
    /* Eight 8-byte elements per lane, lanes 64 bytes apart: 2,048 bytes, 16 lines, 64 sectors. */
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 8, 8, 1);
    memsys_test_strided(a, fx->buf, 64);
    fill_lanes(a, 9);
    perform(fx);
    /* Write-through without allocation: 64 L1 misses; L2 allocates the whole sectors it is
     * given, without fetching them. */
    expect_l1_l2(insn(fx, 1), 64, 0, 64, 0);
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 8, 8, 2);
    memsys_test_strided(a, fx->buf, 64);
    perform(fx);
    expect_lanes(a, 9);
    expect_l1_l2(insn(fx, 2), 64, 0, 64, 64); /* L1 misses, L2 hits its written sectors */
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 8, 8, 3);
    memsys_test_strided(a, fx->buf, 64);
    perform(fx);
    expect_lanes(a, 9);
    expect_l1_l2(insn(fx, 3), 64, 64, 0, 0); /* 16 lines fit the 32-line L1 */
    uint8_t host[2048];
    assert_int_equal(memsys_finish(fx->ms), 0);
    assert_int_equal(memsys_host_read(fx->ms, fx->buf, host, sizeof host), 0);
    for (uint32_t i = 0; i < sizeof host; i++) assert_int_equal(host[i], (uint8_t)(i + 9));
}

static void test_64_bytes_per_lane_local(void **state)
{
    fixture *fx = *state;
    /* Local offset 64..127 of every lane: words 16..31, each word of the 32 lanes one line (the
     * interleaving of mem.h): 16 lines written whole, 64 sectors. */
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_LOCAL, 8, 8, 4);
    memsys_test_strided(a, 64, 0);
    fill_lanes(a, 33);
    perform(fx);
    expect_l1_l2(insn(fx, 4), 64, 0, 0, 0); /* allocated in L1, written back later */
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 8, 8, 5);
    memsys_test_strided(a, 64, 0);
    perform(fx);
    expect_lanes(a, 33);
    expect_l1_l2(insn(fx, 5), 64, 64, 0, 0);
}

static void test_64_bytes_per_lane_shared(void **state)
{
    fixture *fx = *state;
    /* 64 bytes per lane in 32 banks of 4 bytes: phases of 2 lanes (128 bytes). Contiguous lanes
     * fill every bank once per phase: 16 phases, one wavefront each. */
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_SHARED, 8, 8, 6);
    memsys_test_strided(a, 0, 64);
    fill_lanes(a, 77);
    perform(fx);
    for (uint32_t i = 0; i < 2048; i++) assert_int_equal(fx->shared[i], (uint8_t)(i + 77));
    assert_int_equal(insn(fx, 6)->shared.requests, 1);
    assert_int_equal(insn(fx, 6)->shared.wavefronts, 16);
    assert_int_equal(insn(fx, 6)->shared.bank_conflicts, 0);
    /* Lanes 128 bytes apart: the two lanes of a phase use banks 0..15 with different words: two
     * wavefronts per phase, 32 in all, 16 conflicts. */
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_SHARED, 8, 8, 7);
    memsys_test_strided(a, 0, 128);
    perform(fx);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_memory_equal(a->data[l], fx->shared + 128 * l, 64);
    assert_int_equal(insn(fx, 7)->shared.wavefronts, 32);
    assert_int_equal(insn(fx, 7)->shared.bank_conflicts, 16);
}

/* ---- window errors (IR_WINDOW_ZERO) ---- */

/* The atomic arithmetic of the tests: a 32-bit add. */
static uint64_t add_u32(uint8_t atom_op, ir_type type, uint32_t mods, uint64_t old, uint64_t b,
                        uint64_t c, int *ok)
{
    (void)atom_op, (void)type, (void)mods, (void)c;
    *ok = 1;
    return (uint32_t)(old + b);
}

/* Lane l of a 4-byte access at window offset 4 l, storing 1000 + l, under IR_WINDOW_ZERO. */
static void window_access(fixture *fx, mem_op op, ir_space space, uint32_t insn_id)
{
    begin(fx, op, space, 4, 1, insn_id);
    fx->acc.window_errors = IR_WINDOW_ZERO;
    memsys_test_strided(&fx->acc, 0, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 1000 + l;
        memcpy(fx->acc.data[l], &v, 4);
    }
}

static void test_window_errors_shared(void **state)
{
    fixture *fx = *state;
    for (uint32_t i = 0; i < 32; i++) fx->shared[i] = (uint8_t)(i + 1);
    /* Lane 3 past the 4096-byte allocation, lane 5 past the 16 MiB window, lane 6 misaligned
     * (offset 26 is aligned down to 24, lane 6's own word). */
    window_access(fx, MEM_OP_LOAD, IR_SPACE_SHARED, 1);
    fx->acc.addr[3] = SHARED_BYTES;
    fx->acc.addr[5] = MEM_WINDOW_BYTES + 8;
    fx->acc.addr[6] = 26;
    memset(fx->acc.data[3], 0xAB, 4);
    perform(fx);
    assert_int_equal(fx->acc.window_lanes, 1u << 3 | 1u << 5);
    assert_int_equal(fx->acc.misaligned_lanes, 1u << 6);
    assert_int_equal(lane_word(&fx->acc, 3), 0);
    assert_int_equal(lane_word(&fx->acc, 5), 0);
    assert_int_equal(lane_word(&fx->acc, 6), 0x1C1B1A19u);
    assert_int_equal(lane_word(&fx->acc, 1), 0x08070605u);
    /* The lanes that stayed form one request. */
    assert_int_equal(insn(fx, 1)->shared.requests, 1);
    /* A store drops its bad lanes and writes the others; lane 2 aligned down onto lane 1's
     * word writes it after lane 1 (lane order). */
    window_access(fx, MEM_OP_STORE, IR_SPACE_SHARED, 2);
    fx->acc.addr[0] = SHARED_BYTES - 2; /* aligned down to SHARED_BYTES - 4: inside */
    fx->acc.addr[2] = 7;
    fx->acc.addr[4] = 0xFFFFFFFCull;
    perform(fx);
    assert_int_equal(fx->acc.window_lanes, 1u << 4);
    assert_int_equal(fx->acc.misaligned_lanes, 1u << 0 | 1u << 2);
    uint32_t w;
    memcpy(&w, fx->shared + SHARED_BYTES - 4, 4);
    assert_int_equal(w, 1000);
    memcpy(&w, fx->shared + 4, 4);
    assert_int_equal(w, 1002);
    memcpy(&w, fx->shared + 16, 4);
    assert_int_equal(w, 0x14131211u); /* lane 4's word is unchanged */
    /* An atomic: the bad lane returns 0 and adds nothing; the good one adds. */
    window_access(fx, MEM_OP_ATOMIC, IR_SPACE_SHARED, 3);
    fx->acc.atom_op = IR_ATOM_ADD;
    fx->acc.atom_type = IR_T_U32;
    fx->acc.atom_returns = 1;
    fx->acc.atom_fn = add_u32;
    fx->acc.active = 1u << 1 | 1u << 9;
    fx->acc.addr[9] = SHARED_BYTES + 64;
    fx->acc.operand_b[1] = 5;
    fx->acc.operand_b[9] = 7;
    perform(fx);
    assert_int_equal(fx->acc.window_lanes, 1u << 9);
    assert_int_equal(lane_word(&fx->acc, 9), 0);
    assert_int_equal(lane_word(&fx->acc, 1), 1002);
    memcpy(&w, fx->shared + 4, 4);
    assert_int_equal(w, 1007);
    assert_int_equal(insn(fx, 3)->shared.requests, 1);
}

static void test_window_errors_local(void **state)
{
    fixture *fx = *state;
    /* Local stores: lane 7 past the 256-byte allocation is dropped, the others reach L1. */
    window_access(fx, MEM_OP_STORE, IR_SPACE_LOCAL, 1);
    memsys_test_strided(&fx->acc, 0, 0); /* every lane at local offset 0: one line */
    fx->acc.addr[7] = LOCAL_BYTES;
    perform(fx);
    assert_int_equal(fx->acc.window_lanes, 1u << 7);
    assert_int_equal(insn(fx, 1)->l1.requests, 1);
    /* Loads: lane 7 at the same bad offset reads 0; lane 8 at offset 2 reads its word at 0. */
    window_access(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 2);
    memsys_test_strided(&fx->acc, 0, 0);
    fx->acc.addr[7] = LOCAL_BYTES;
    fx->acc.addr[8] = 2;
    perform(fx);
    assert_int_equal(fx->acc.window_lanes, 1u << 7);
    assert_int_equal(fx->acc.misaligned_lanes, 1u << 8);
    assert_int_equal(lane_word(&fx->acc, 7), 0);
    assert_int_equal(lane_word(&fx->acc, 8), 1008);
    assert_int_equal(lane_word(&fx->acc, 9), 1009);
    /* A generic address in the local window is a local lane like any other. */
    window_access(fx, MEM_OP_LOAD, IR_SPACE_GENERIC, 3);
    memsys_test_strided(&fx->acc, MEM_LOCAL_WINDOW, 0);
    fx->acc.addr[1] = MEM_LOCAL_WINDOW + LOCAL_BYTES + 4;
    perform(fx);
    assert_int_equal(fx->acc.window_lanes, 1u << 1);
    assert_int_equal(lane_word(&fx->acc, 1), 0);
    assert_int_equal(lane_word(&fx->acc, 2), 1002);
}

static void test_window_errors_leave_other_faults(void **state)
{
    fixture *fx = *state;
    /* Global addresses still fault under IR_WINDOW_ZERO: the mode covers the windows only. */
    window_access(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 1);
    memsys_test_strided(&fx->acc, fx->buf, 4);
    fx->acc.addr[0] = fx->buf + 2;
    perform_faults(fx, MEM_FAULT_MISALIGNED, "address is not aligned to the access size");
    /* And IR_WINDOW_FAULT (PTX) faults on a window lane as before, storing nothing. */
    window_access(fx, MEM_OP_STORE, IR_SPACE_SHARED, 2);
    fx->acc.window_errors = IR_WINDOW_FAULT;
    fx->acc.addr[0] = SHARED_BYTES;
    perform_faults(fx, MEM_FAULT_OUT_OF_BOUNDS, "address is outside the window's allocated size");
    assert_int_equal(fx->acc.window_lanes, 0);
    assert_int_equal(fx->shared[4], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_const_bank_3_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_const_bank_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_64_bytes_per_lane_global, setup, teardown),
        cmocka_unit_test_setup_teardown(test_64_bytes_per_lane_local, setup, teardown),
        cmocka_unit_test_setup_teardown(test_64_bytes_per_lane_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_window_errors_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_window_errors_local, setup, teardown),
        cmocka_unit_test_setup_teardown(test_window_errors_leave_other_faults, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
