/* Unit tests of shared-memory wavefronts and bank conflicts (src/mem/mem_shared.c), through
 * memsys_access with space SHARED, and of the data those accesses move.
 *
 * The model (docs/statistics.md, "Shared memory"): 32 banks of 4 bytes; word w lives in bank
 * w mod 32. One wavefront delivers at most one distinct word per bank; lanes that read the same
 * word share it. A request moves at most 32 * 4 = 128 bytes per phase: 4-byte accesses are one
 * phase of 32 lanes, 8-byte accesses two phases of 16 lanes, 16-byte accesses four of 8. A phase
 * needs as many wavefronts as the most distinct words any one bank must deliver (none when it has
 * no active lane); bank_conflicts = wavefronts - phases with active lanes.
 * Not covered here: global and local coalescing (test_hier.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "config/gpu_config.h"
#include "mem/memsys.h"
#include "sim/sim.h"

enum { SHARED_BYTES = 8192, INSNS = 16 };

typedef struct fixture {
    memsys *ms;
    diag_list dl;
    uint8_t shared[SHARED_BYTES];
    ir_mem_attrs attrs;
    mem_access acc;
    uint32_t next_insn;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 1;
    cfg.l1.bytes = 4096;
    cfg.l2.bytes = 64 * 1024;
    cfg.l2.ways = 4;
    cfg.l2.slices = 2;
    diag_list_init(&fx.dl);
    fx.ms = memsys_create(&cfg, &fx.dl);
    assert_non_null(fx.ms);
    assert_int_equal(memsys_set_insn_count(fx.ms, INSNS), 0);
    /* Shared word i holds 5 * i + 2. */
    for (uint32_t i = 0; i < SHARED_BYTES / 4; i++) {
        uint32_t v = 5 * i + 2;
        memcpy(fx.shared + 4 * i, &v, 4);
    }
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

/* One shared-memory access; lane l's byte offset is offsets[l]. Returns its counters (a fresh
 * instruction id each time, so counts never mix). */
static const mem_shared_counters *access_shared(fixture *fx, mem_op op, uint32_t elem_bytes,
                                                uint32_t vec, uint32_t active,
                                                const uint64_t *offsets)
{
    mem_access *a = &fx->acc;
    memset(a, 0, sizeof *a);
    a->op = (uint8_t)op;
    a->space = IR_SPACE_SHARED;
    a->elem_bytes = (uint8_t)elem_bytes;
    a->vec = (uint8_t)vec;
    a->active = active;
    a->insn_id = fx->next_insn++;
    assert_true(a->insn_id < INSNS);
    fx->attrs.space = IR_SPACE_SHARED;
    a->attrs = &fx->attrs;
    memcpy(a->addr, offsets, sizeof a->addr);
    if (op == MEM_OP_STORE)
        for (uint32_t l = 0; l < MEM_LANES; l++)
            for (uint32_t b = 0; b < elem_bytes * vec; b++) a->data[l][b] = (uint8_t)(l * 16 + b);
    mem_ctx ctx = {.sm = 0, .shared = fx->shared, .shared_bytes = SHARED_BYTES};
    mem_fault f;
    assert_int_equal(memsys_access(fx->ms, &ctx, a, &f), 0);
    const mem_counters *c = &memsys_insn_counters(fx->ms)[a->insn_id];
    /* Shared accesses never reach the L1/L2 hierarchy. */
    assert_int_equal(c->l1.requests, 0);
    assert_int_equal(c->l2.sector_accesses, 0);
    return &c->shared;
}

static void strided(uint64_t *offsets, uint64_t stride_bytes)
{
    for (uint32_t l = 0; l < MEM_LANES; l++) offsets[l] = l * stride_bytes;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void assert_shared(const mem_shared_counters *c, uint64_t requests, uint64_t wavefronts,
                          uint64_t conflicts)
{
    assert_int_equal(c->requests, requests);
    assert_int_equal(c->wavefronts, wavefronts);
    assert_int_equal(c->bank_conflicts, conflicts);
}

static void test_word_strides(void **state)
{
    fixture *fx = *state;
    /* Lane l reads word l * s, in bank (l * s) mod 32. The lanes in one bank are those whose
     * l * s agree mod 32: l mod (32 / g) equal, with g = gcd(s, 32); so every used bank holds g
     * lanes, at g different words. Wavefronts = g, conflicts = g - 1. */
    for (uint32_t s = 1; s <= 32; s++) {
        fx->next_insn = 0;
        memsys_set_insn_count(fx->ms, INSNS);
        uint64_t off[MEM_LANES];
        strided(off, 4 * s);
        const mem_shared_counters *c = access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off);
        uint32_t g = gcd(s, 32);
        assert_shared(c, 1, g, g - 1);
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint32_t v;
            memcpy(&v, fx->acc.data[l], 4);
            assert_int_equal(v, 5 * (l * s) + 2);
        }
    }
}

static void test_broadcast(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    strided(off, 0);
    /* Every lane reads word 0: one word from one bank, shared by all: 1 wavefront. */
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 1, 0);
    /* Lane l reads word l / 2: pairs share a word, words 0..15 in distinct banks: 1. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = 4 * (l / 2);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 1, 0);
}

static void test_two_words_per_bank(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    /* Lanes 0..15 all read word 0, lanes 16..31 all read word 32: two broadcast groups, both
     * in bank 0 at different words: 2 wavefronts, 1 conflict. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = l < 16 ? 0 : 4 * 32;
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 2, 1);
    /* Lane l reads word (l mod 16) + 32 * (l / 16): banks 0..15 each asked for two words. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = 4 * ((l % 16) + 32 * (l / 16));
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 2, 1);
    /* Lanes in groups of 8 reading words 0, 32, 64, 96 (all bank 0): 4 words, 4 wavefronts. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = 4 * 32 * (l / 8);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 4, 3);
}

/* The model's count for one phase of single-word broadcast reads: the most distinct words any
 * bank is asked for, by brute force over the active lanes (0 when none is active). */
static uint32_t reference_wavefronts(const uint64_t *offsets, uint32_t active, uint32_t banks)
{
    uint32_t most = 0;
    for (uint32_t b = 0; b < banks; b++) {
        uint64_t words[MEM_LANES];
        uint32_t n = 0;
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint64_t w = offsets[l] / 4;
            if (!((active >> l) & 1u) || w % banks != b)
                continue;
            uint32_t k = 0;
            while (k < n && words[k] != w) k++;
            if (k == n)
                words[n++] = w;
        }
        most = n > most ? n : most;
    }
    return most;
}

static void test_word_windows(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    /* Words 5..36: a contiguous run not aligned to 32 words, one word per bank: 1 wavefront. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = 4 * (5 + l);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 1, 0);
    /* Two rows of an 18-word-wide tile: words 19..34 and 37..52; banks 19 and 20 are asked for
     * words 19 and 51, 20 and 52: 2 wavefronts. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = 4 * (19 + 18 * (l / 16) + l % 16);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 2, 1);
    /* Lanes 3 and 30 only, words 100 and 163 (span 63, banks 4 and 3): 1 wavefront. */
    off[3] = 4 * 100;
    off[30] = 4 * 163;
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, (1u << 3) | (1u << 30), off), 1, 1, 0);
}

/* Random reads of nearby words (spans below and above 64 words), random active lanes, with 32
 * banks and with 8 (up to eight 8-bank rows in a 64-word span): the counts equal the brute-force
 * model's. */
static void test_word_windows_random(void **state)
{
    fixture *fx = *state;
    memsys *h100 = fx->ms;
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 1;
    cfg.shared.banks = 8;
    memsys *eight = memsys_create(&cfg, &fx->dl);
    assert_non_null(eight);
    uint64_t seed = 12345;
    for (uint32_t round = 0; round < 400; round++) {
        uint32_t banks = round % 2 ? 8 : 32;
        fx->ms = banks == 8 ? eight : h100;
        fx->next_insn = 0;
        assert_int_equal(memsys_set_insn_count(fx->ms, INSNS), 0);
        uint64_t off[MEM_LANES], base = round % 7, span = 8 + round % 80;
        uint32_t active = round % 3 ? 0xFFFFFFFFu : 0;
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            off[l] = 4 * (base + (seed >> 33) % span);
            if (!(round % 3) && ((seed >> 20) & 1u))
                active |= 1u << l;
        }
        if (!active)
            active = 1;
        uint32_t expect = reference_wavefronts(off, active, banks);
        assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, active, off), 1, expect, expect - 1);
    }
    fx->ms = h100;
    memsys_destroy(eight);
}

static void test_eight_byte_accesses(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    /* Stride 1 of 8-byte elements: phase 0 (lanes 0..15) covers words 0..31, one per bank; phase
     * 1 words 32..63, likewise: 2 wavefronts for 2 phases, no conflict. */
    strided(off, 8);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 8, 1, 0xFFFFFFFFu, off), 1, 2, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v[2];
        memcpy(v, fx->acc.data[l], 8);
        assert_int_equal(v[0], 5 * (2 * l) + 2);
        assert_int_equal(v[1], 5 * (2 * l + 1) + 2);
    }
    /* A v2 of 4-byte words is the same 8 bytes per lane. */
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 2, 0xFFFFFFFFu, off), 1, 2, 0);
    /* Stride 2 of 8-byte elements (16 bytes): in phase 0, lanes 0..7 take words 0..31 and lanes
     * 8..15 words 32..63, so every bank delivers 2 words: 2 wavefronts per phase, 4 in all, 2
     * conflicts. */
    strided(off, 16);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 8, 1, 0xFFFFFFFFu, off), 1, 4, 2);
    /* Only lanes 0..15 active: phase 1 has no active lane and needs no wavefront. */
    strided(off, 16);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 8, 1, 0x0000FFFFu, off), 1, 2, 1);
    /* Every lane the same 8 bytes: 2 words in 2 banks, broadcast in both phases: 2, 0. */
    strided(off, 0);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 8, 1, 0xFFFFFFFFu, off), 1, 2, 0);
}

static void test_sixteen_byte_accesses(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    /* Stride 1 of 16-byte elements: 4 phases of 8 lanes, each covering 32 consecutive words:
     * 4 wavefronts, no conflict. */
    strided(off, 16);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 4, 0xFFFFFFFFu, off), 1, 4, 0);
    for (uint32_t e = 0; e < 4; e++) {
        uint32_t v;
        memcpy(&v, fx->acc.data[9] + 4 * e, 4);
        assert_int_equal(v, 5 * (4 * 9 + e) + 2);
    }
    /* Stride 32 bytes: in phase 0, lanes 0..3 take words 0-3, 8-11, 16-19, 24-27 and lanes 4..7
     * the words 32 higher, in the same 16 banks: 2 wavefronts per phase, 8 in all, 4
     * conflicts. */
    strided(off, 32);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 16, 1, 0xFFFFFFFFu, off), 1, 8, 4);
    /* Only lanes 0 and 8 active: phases 0 and 1, one wavefront each. */
    strided(off, 16);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 16, 1, 0x00000101u, off), 1, 2, 0);
}

static void test_partial_warps(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    /* Stride 32 words, 4 active lanes: 4 words in bank 0: 4 wavefronts, 3 conflicts. */
    strided(off, 128);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0x0000000Fu, off), 1, 4, 3);
    /* Stride 2 words with lanes 0..15: words 0..30 even, 16 distinct banks: conflict-free,
     * where the full warp would need 2 wavefronts. */
    strided(off, 8);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0x0000FFFFu, off), 1, 1, 0);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off), 1, 2, 1);
    /* Stride 16 words, the odd lanes only: lanes 1, 3, .. sit in bank 16, at 16 different
     * words: 16 wavefronts. */
    strided(off, 64);
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0xAAAAAAAAu, off), 1, 16, 15);
    /* One active lane: one wavefront. */
    assert_shared(access_shared(fx, MEM_OP_LOAD, 4, 1, 0x80000000u, off), 1, 1, 0);
}

static uint64_t add_u32(uint8_t op, ir_type type, uint32_t mods, uint64_t old, uint64_t b,
                        uint64_t c, int *ok)
{
    (void)op, (void)type, (void)mods, (void)c;
    *ok = 1;
    return (uint32_t)(old + b);
}

static void test_atomics_serialise_on_one_word(void **state)
{
    fixture *fx = *state;
    mem_access *a = &fx->acc;
    memset(a, 0, sizeof *a);
    a->op = MEM_OP_ATOMIC;
    a->space = IR_SPACE_SHARED;
    a->elem_bytes = 4;
    a->vec = 1;
    a->active = 0xFFFFFFFFu;
    a->atom_op = IR_ATOM_ADD;
    a->atom_type = IR_T_U32;
    a->atom_fn = add_u32;
    a->insn_id = fx->next_insn++;
    fx->attrs.space = IR_SPACE_SHARED;
    a->attrs = &fx->attrs;
    /* Lanes 0..15 update word 0, lanes 16..31 words 1..16 (banks 1..16, one each). A read of
     * word 0 by 16 lanes would be one broadcast; 16 read-modify-writes of it need 16 passes,
     * and the other words fit in those passes: 16 wavefronts, 15 conflicts. */
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        a->addr[l] = l < 16 ? 0 : 4 * (l - 15);
        a->operand_b[l] = 1;
    }
    uint32_t before;
    memcpy(&before, fx->shared, 4);
    mem_ctx ctx = {.sm = 0, .shared = fx->shared, .shared_bytes = SHARED_BYTES};
    mem_fault f;
    assert_int_equal(memsys_access(fx->ms, &ctx, a, &f), 0);
    assert_shared(&memsys_insn_counters(fx->ms)[a->insn_id].shared, 1, 16, 15);
    uint32_t after;
    memcpy(&after, fx->shared, 4);
    assert_int_equal(after, before + 16); /* every lane's update landed */
}

static void test_stores(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    /* Stores follow the same rule: stride 4 words, gcd(4, 32) = 4 wavefronts. */
    strided(off, 16);
    assert_shared(access_shared(fx, MEM_OP_STORE, 4, 1, 0xFFFFFFFFu, off), 1, 4, 3);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        assert_int_equal(fx->shared[16 * l], (uint8_t)(l * 16));
        assert_int_equal(fx->shared[16 * l + 3], (uint8_t)(l * 16 + 3));
    }
    /* The word between two stored words is untouched. */
    uint32_t v;
    memcpy(&v, fx->shared + 4, 4);
    assert_int_equal(v, 5 * 1 + 2);
    /* The totals sum both instructions: 2 requests, 4 + 1 wavefronts, 3 + 0 conflicts. */
    strided(off, 4);
    assert_shared(access_shared(fx, MEM_OP_STORE, 4, 1, 0xFFFFFFFFu, off), 1, 1, 0);
    mem_counters total;
    memsys_total_counters(fx->ms, &total);
    assert_int_equal(total.shared.requests, 2);
    assert_int_equal(total.shared.wavefronts, 5);
    assert_int_equal(total.shared.bank_conflicts, 3);
}

/* The uniform-address hint (SASS LDS.U): counted, checked against the active lanes' addresses,
 * and without effect on the data or the wavefronts. */
static void test_uniform_hint(void **state)
{
    fixture *fx = *state;
    uint64_t off[MEM_LANES];
    fx->attrs.uniform = 1;
    /* One address for all lanes: met; a broadcast, one wavefront. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = 40;
    const mem_shared_counters *c = access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off);
    assert_int_equal(c->uniform_hinted, 1);
    assert_int_equal(c->uniform_unmet, 0);
    assert_int_equal(c->wavefronts, 1);
    uint32_t v;
    memcpy(&v, fx->acc.data[31], 4);
    assert_int_equal(v, 5 * 10 + 2);
    /* Lane pairs t, t^1 sharing an address (words 0, 1, ... per pair): met. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = (l / 2) * 4;
    c = access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off);
    assert_int_equal(c->uniform_hinted, 1);
    assert_int_equal(c->uniform_unmet, 0);
    /* Pairs t, t^2 sharing one (an architecture-specific form we do not accept): unmet. */
    for (uint32_t l = 0; l < MEM_LANES; l++) off[l] = (l & ~2u) * 4;
    c = access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off);
    assert_int_equal(c->uniform_unmet, 1);
    /* Distinct addresses: unmet, with the wavefronts they need (stride 2 words: 2). */
    strided(off, 8);
    c = access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off);
    assert_int_equal(c->uniform_hinted, 1);
    assert_int_equal(c->uniform_unmet, 1);
    assert_int_equal(c->wavefronts, 2);
    /* Only active lanes count: lanes 0 and 3, neither with its partner active, differ yet no
     * active pair disagrees: met; so with lanes 4 and 5 on one address and lane 8 alone; lanes
     * 4 and 5 on two addresses: unmet. */
    strided(off, 4);
    c = access_shared(fx, MEM_OP_LOAD, 4, 1, 1u << 0 | 1u << 3, off);
    assert_int_equal(c->uniform_unmet, 0);
    off[5] = off[4];
    c = access_shared(fx, MEM_OP_LOAD, 4, 1, 1u << 4 | 1u << 5 | 1u << 8, off);
    assert_int_equal(c->uniform_unmet, 0);
    off[5] = 0;
    c = access_shared(fx, MEM_OP_LOAD, 4, 1, 1u << 4 | 1u << 5, off);
    assert_int_equal(c->uniform_unmet, 1);
    /* Without the hint nothing is counted; the totals sum the hinted accesses. */
    fx->attrs.uniform = 0;
    c = access_shared(fx, MEM_OP_LOAD, 4, 1, 0xFFFFFFFFu, off);
    assert_int_equal(c->uniform_hinted, 0);
    mem_counters total;
    memsys_total_counters(fx->ms, &total);
    assert_int_equal(total.shared.uniform_hinted, 7);
    assert_int_equal(total.shared.uniform_unmet, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_word_strides, setup, teardown),
        cmocka_unit_test_setup_teardown(test_broadcast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_words_per_bank, setup, teardown),
        cmocka_unit_test_setup_teardown(test_word_windows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_word_windows_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eight_byte_accesses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sixteen_byte_accesses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_warps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomics_serialise_on_one_word, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uniform_hint, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
