/* Unit tests of the coalescer (src/mem/mem_hier.c): however a warp access is split into line
 * requests (a contiguous block built a line at a time, lanes at a fixed stride found without a
 * look-up, a full warp in two contiguous runs, or the general per-lane path with its hash built only when a lane goes back to an
 * earlier line), the result must be the one the definition gives:
 *   - the lines are taken in the order the lanes (lowest first) first touch them, and within a
 *     line its touched 32-byte sectors in ascending order: that is the order of acc->served;
 *   - acc->l1_tags is the number of distinct lines;
 *   - a load returns every active lane's bytes; a store leaves the bytes of the highest lane
 *     that wrote them.
 * Each test builds its expected served list from the addresses alone (expect_served below) and
 * compares it entry by entry, so a wrong request order, a missed or duplicated line or sector
 * fails. Counters and data are checked against the buffer's known contents. */
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

enum { INSNS = 16, BUFFER_BYTES = 64 * 1024, LOCAL_BYTES = 1024 };

typedef struct fixture {
    memsys_config cfg;
    memsys *ms;
    diag_list dl;
    uint64_t buf; /* 64 KiB; word i holds 3 * i + 1 */
    ir_mem_attrs attrs;
    mem_access acc;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    memsys_test_small_h100(&fx.cfg);
    diag_list_init(&fx.dl);
    fx.ms = memsys_create(&fx.cfg, &fx.dl);
    assert_non_null(fx.ms);
    assert_int_equal(memsys_set_insn_count(fx.ms, INSNS), 0);
    assert_int_equal(memsys_alloc(fx.ms, BUFFER_BYTES, 256, &fx.buf), 0);
    static uint32_t words[BUFFER_BYTES / 4];
    for (uint32_t i = 0; i < BUFFER_BYTES / 4; i++) words[i] = 3 * i + 1;
    assert_int_equal(memsys_host_write(fx.ms, fx.buf, words, BUFFER_BYTES), 0);
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

static mem_access *begin(fixture *fx, mem_op op, ir_space space, uint32_t elem_bytes,
                         uint32_t vec, uint32_t active)
{
    return memsys_test_access(&fx->acc, &fx->attrs, op, space, elem_bytes, vec, active, 1);
}

static void perform(fixture *fx)
{
    mem_ctx c = {.sm = 0, .local_backing = MEM_LOCAL_BACKING_BASE, .local_bytes = LOCAL_BYTES};
    mem_fault f;
    assert_int_equal(memsys_access(fx->ms, &c, &fx->acc, &f), 0);
}

/* The backing address of lane l's byte at access address a (global: itself; local window
 * offset: word-interleaved per lane, as the local backing is). */
static uint64_t backing(const mem_access *a, uint32_t l, uint64_t addr)
{
    if (a->space != IR_SPACE_LOCAL)
        return addr;
    return MEM_LOCAL_BACKING_BASE + (addr / 4) * 128 + l * 4 + addr % 4;
}

/* The served list the definition gives for access *a (before it ran): lines in first-touch
 * order, their touched sectors ascending. Compares it with a's results and returns the number
 * of lines. */
static uint32_t expect_served(const mem_access *a)
{
    uint64_t lines[2 * MEM_LANES * 16], sectors[2 * MEM_LANES * 16];
    uint32_t nlines = 0, bytes = (uint32_t)a->elem_bytes * a->vec;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((a->active >> l) & 1u))
            continue;
        for (uint32_t b = 0; b < bytes; b++) {
            uint64_t at = backing(a, l, a->addr[l] + b), line = at & ~(uint64_t)127;
            uint32_t k = 0;
            while (k < nlines && lines[k] != line) k++;
            if (k == nlines) {
                lines[nlines] = line;
                sectors[nlines++] = 0;
            }
            sectors[k] |= 1ull << ((at & 127) >> 5);
        }
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < nlines; k++)
        for (uint32_t s = 0; s < 4; s++)
            if ((sectors[k] >> s) & 1) {
                assert_true(n < a->nserved);
                assert_int_equal(a->served[n].addr, lines[k] + 32 * s);
                n++;
            }
    assert_int_equal(a->nserved, n);
    assert_int_equal(a->l1_tags, nlines);
    return nlines;
}

/* Runs the access in fx->acc and checks its served list; returns the number of lines. */
static uint32_t run_checked(fixture *fx)
{
    mem_access before = fx->acc;
    perform(fx);
    before.nserved = fx->acc.nserved;
    memcpy(before.served, fx->acc.served, sizeof before.served);
    before.l1_tags = fx->acc.l1_tags;
    return expect_served(&before);
}

/* The buffer's current word at byte offset `off` (through the hierarchy). */
static uint32_t word_at(fixture *fx, uint64_t off)
{
    uint32_t v = 0;
    mem_ctx c = {.sm = 0};
    assert_int_equal(memsys_peek(fx->ms, &c, 0, fx->buf + off, &v, 4), 0);
    return v;
}

static uint32_t lane_word(const mem_access *a, uint32_t lane, uint32_t element)
{
    uint32_t v;
    memcpy(&v, a->data[lane] + 4 * element, 4);
    return v;
}

/* Loads of `elem` x `vec` bytes per lane, lanes `active`, lane l at base + l * stride bytes
 * (stride may be negative); checks the served list and every lane's data. */
static uint32_t load_strided(fixture *fx, uint32_t elem, uint32_t vec, uint32_t active,
                             uint64_t base_off, int64_t stride)
{
    mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, elem, vec, active);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        a->addr[l] = fx->buf + base_off + (uint64_t)((int64_t)l * stride);
    uint32_t lines = run_checked(fx);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((active >> l) & 1u))
            continue;
        uint64_t off = base_off + (uint64_t)((int64_t)l * stride);
        for (uint32_t e = 0; e < elem * vec / 4; e++)
            assert_int_equal(lane_word(a, l, e), 3 * (off / 4 + e) + 1);
    }
    return lines;
}

static void test_contiguous_blocks(void **state)
{
    fixture *fx = *state;
    /* A full warp of words: one line; of 8 and 16 bytes: 2 and 4 lines. */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 0, 4), 1);
    assert_int_equal(load_strided(fx, 8, 1, 0xFFFFFFFFu, 1024, 8), 2);
    assert_int_equal(load_strided(fx, 4, 4, 0xFFFFFFFFu, 2048, 16), 4);
    /* Not line-aligned: 128 bytes from byte 96 on span 2 lines (sector 3 of the first, sectors
     * 0..2 of the second). */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 96, 4), 2);
    /* A run of lanes 3..20 with no gap, lane 3 at byte 112 of a line: 4 lanes in it, 14 in the
     * next. */
    assert_int_equal(load_strided(fx, 4, 1, 0x001FFFF8u, 4096 + 100, 4), 2);
    /* One active lane. */
    assert_int_equal(load_strided(fx, 8, 1, 1u << 17, 8192, 8), 1);
}

static void test_fixed_strides(void **state)
{
    fixture *fx = *state;
    /* Gaps between active lanes: unit stride, but not one block. */
    assert_int_equal(load_strided(fx, 4, 1, 0xF0F0F0F1u, 0, 4), 1);
    /* 32-byte structures (one field a lane): 8 lines, 4 sectors each. */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 12, 32), 8);
    /* Every lane its own line (a column walk). */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 4, 2048), 32);
    /* All lanes one word, and all lanes one 16-byte vector. */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 200, 0), 1);
    assert_int_equal(load_strided(fx, 4, 4, 0x0000FF00u, 480, 0), 1);
    /* A stride that is not a multiple of the size: 8 bytes at 24 x l. */
    assert_int_equal(load_strided(fx, 8, 1, 0xFFFFFFFFu, 0, 24), 6);
    /* Strides of a line and more (each lane a line of its own): exactly a line, with gaps
     * between the active lanes, and 16-byte vectors in the second half of a sector. */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 124, 128), 32);
    assert_int_equal(load_strided(fx, 4, 1, 0xA5A5A5A4u, 8, 1920), 15);
    assert_int_equal(load_strided(fx, 4, 4, 0x8000FFFEu, 48, 640), 16);
    /* Lanes a line apart or more, but not a multiple of the line: each lane its own line, at
     * another offset in each. */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 0, 132), 32);
    assert_int_equal(load_strided(fx, 1, 1, 0xFFFFFFFFu, 3, 129), 32);
}

/* Lanes at a stride that divides the line (fields of an array of small structures,
 * coalesce_fields): lines whose first or last lane is not at the start or end of the pattern
 * (a partial first and last line), runs of lanes that do not start at lane 0, 8- and 16-byte
 * fields; loads checked against the definition (served list, every lane's data), stores by
 * every stored word and the words beside them. */
static void test_field_strides(void **state)
{
    fixture *fx = *state;
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 100, 32), 9);
    assert_int_equal(load_strided(fx, 8, 1, 0xFFFFFFFFu, 56, 64), 16);
    assert_int_equal(load_strided(fx, 4, 1, 0x07FFFFE0u, 4, 16), 4);
    assert_int_equal(load_strided(fx, 4, 4, 0xFFFFFFFFu, 16, 32), 8);
    assert_int_equal(load_strided(fx, 4, 2, 0x0000FFFFu, 4096 + 120, 8 * 2), 3);
    uint32_t strides[2] = {32, 64};
    for (uint32_t k = 0; k < 2; k++) {
        uint64_t base = 8192 + 4096 * k + 100 - 4 * k; /* 4-byte aligned, mid-line */
        mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1 + k, 0xFFFFFFFEu);
        memsys_test_strided(a, fx->buf + base, strides[k]);
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint32_t v[2] = {6000 + 100 * k + l, 7000 + l};
            memcpy(a->data[l], v, 8);
        }
        assert_int_equal(run_checked(fx), k == 0 ? 8 : 16);
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint64_t off = base + strides[k] * l;
            assert_int_equal(word_at(fx, off), l == 0 ? 3 * (off / 4) + 1 : 6000 + 100 * k + l);
            if (k == 1)
                assert_int_equal(word_at(fx, off + 4), l == 0 ? 3 * (off / 4 + 1) + 1 : 7000 + l);
            assert_int_equal(word_at(fx, off - 4), 3 * (off / 4 - 1) + 1);
            assert_int_equal(word_at(fx, off + 4 + 4 * k), 3 * (off / 4 + 1 + k) + 1);
        }
    }
}

/* A full warp's 4-byte field stores whose lanes fill whole lines (fields_whole_lines, whose
 * byte masks are left to coalesce_fill_mask): first into lines no cache holds (each line
 * through store_line with its mask filled, then written around the L1), then, after a load of
 * the words beside them brought the lines into the L1 and the L2, as one run
 * (cache_write_lines_below); every stored word and the words beside it, and the served lists. */
static void test_field_stores_whole_lines(void **state)
{
    fixture *fx = *state;
    const uint64_t base = 16384;
    for (uint32_t round = 0; round < 2; round++) {
        if (round == 1)
            assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, base + 4, 32), 8);
        mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
        memsys_test_strided(a, fx->buf + base, 32);
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint32_t v = 9000 + 100 * round + l;
            memcpy(a->data[l], &v, 4);
        }
        assert_int_equal(run_checked(fx), 8);
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint64_t off = base + 32 * l;
            assert_int_equal(word_at(fx, off), 9000 + 100 * round + l);
            assert_int_equal(word_at(fx, off - 4), 3 * (off / 4 - 1) + 1);
            assert_int_equal(word_at(fx, off + 4), 3 * (off / 4 + 1) + 1);
        }
    }
}

static void test_lanes_going_back(void **state)
{
    fixture *fx = *state;
    /* Descending addresses: every line found by look-up, in descending order. */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 31 * 256, -256), 32);
    /* Up through 8 lines, then back over the same lines in another order, then above them:
     * the lines already seen must be found (no line twice), the new ones added after. */
    mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < 8; l++) a->addr[l] = fx->buf + 128 * l + 4 * l;
    for (uint32_t l = 8; l < 24; l++) a->addr[l] = fx->buf + 128 * ((l * 5) % 8) + 64;
    for (uint32_t l = 24; l < 32; l++) a->addr[l] = fx->buf + 128 * (l - 16) + 8;
    assert_int_equal(run_checked(fx), 16);
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(lane_word(&fx->acc, l, 0), 3 * ((fx->acc.addr[l] - fx->buf) / 4) + 1);
    /* The same lines again, ascending (no look-up), then a warp going back again: a look-up
     * table left over from the first access must not answer for this one. */
    assert_int_equal(load_strided(fx, 4, 1, 0xFFFFFFFFu, 0, 64), 16);
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < 32; l++) a->addr[l] = fx->buf + 128 * ((l * 7) % 16) + 4 * (l % 8);
    assert_int_equal(run_checked(fx), 16);
}

static void test_local_lanes(void **state)
{
    fixture *fx = *state;
    /* The same local offset in every lane is one backing line; 8 bytes a lane, two lines whose
     * lanes alternate between them; lane l at offset 4 * l, one line per lane. */
    mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu);
    memsys_test_strided(a, 8, 0);
    assert_int_equal(run_checked(fx), 1);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 8, 1, 0xFFFFFFFFu), 16, 0);
    assert_int_equal(run_checked(fx), 2);
    memsys_test_strided(begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, 0xFFFFFFFFu), 0, 4);
    assert_int_equal(run_checked(fx), 32);
}

/* Local accesses of whole words (coalesce_local_words: each of a lane's words is 4 bytes of
 * the line of its row) and the per-lane path beside them (offsets from row 64 on, halfwords):
 * the same served lists (first-touch order) and data. A spill-like v4 store and reload at one
 * offset with some lanes off, then a reload of single words at per-lane offsets (a local array
 * indexed by the data), some lanes sharing a row. */
static void local_round_trip(fixture *fx, uint64_t base, uint32_t active)
{
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_LOCAL, 4, 4, active);
    memsys_test_strided(a, base, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        for (uint32_t e = 0; e < 4; e++) {
            uint32_t v = 100000 * (e + 1) + l;
            memcpy(a->data[l] + 4 * e, &v, 4);
        }
    assert_int_equal(run_checked(fx), 4);
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 4, active);
    memsys_test_strided(a, base, 0);
    assert_int_equal(run_checked(fx), 4);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        for (uint32_t e = 0; e < 4 && ((active >> l) & 1u); e++)
            assert_int_equal(lane_word(a, l, e), 100000 * (e + 1) + l);
    a = begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 4, 1, active);
    uint32_t rows = 0; /* bit r: some active lane reads row r of the four */
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        a->addr[l] = base + 4 * ((l * 5 + 3) % 4);
        rows |= ((active >> l) & 1u) << ((l * 5 + 3) % 4);
    }
    assert_int_equal(run_checked(fx), __builtin_popcount(rows));
    for (uint32_t l = 0; l < MEM_LANES; l++)
        if ((active >> l) & 1u)
            assert_int_equal(lane_word(a, l, 0), 100000 * ((l * 5 + 3) % 4 + 1) + l);
}

static void test_local_words(void **state)
{
    fixture *fx = *state;
    local_round_trip(fx, 16, 0xFFFFFFFFu);
    local_round_trip(fx, 64, 0x0F0F00F1u);
    local_round_trip(fx, 240, 0x80000001u);  /* rows 60..63: the last the word path takes */
    local_round_trip(fx, 256, 0xFFFFFFFFu);  /* rows 64..67: the per-lane path */
    local_round_trip(fx, 1008, 0xFFFF0000u); /* the window's last rows: the per-lane path */
    /* Halfwords: per lane; lanes 2k and 2k+1 read the two halves of one word. */
    mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_LOCAL, 2, 1, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < MEM_LANES; l++) a->addr[l] = 16 + 2 * (l % 2);
    assert_int_equal(run_checked(fx), 1);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint16_t h;
        memcpy(&h, a->data[l], 2);
        uint32_t w = 100000 + l;
        assert_int_equal(h, (uint16_t)(l % 2 ? w >> 16 : w));
    }
}

/* A full warp in two contiguous runs (coalesce_two_runs), lanes 0..s-1 from `first` and lanes
 * s..31 from `second` (byte offsets): checks the served list and every lane's word. */
static uint32_t load_two_runs(fixture *fx, uint32_t s, uint64_t first, uint64_t second)
{
    mem_access *a = begin(fx, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        a->addr[l] = fx->buf + (l < s ? first + 4 * l : second + 4 * (l - s));
    uint32_t lines = run_checked(fx);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint64_t off = l < s ? first + 4 * l : second + 4 * (l - s);
        assert_int_equal(lane_word(a, l, 0), 3 * (off / 4) + 1);
    }
    return lines;
}

/* Two rows of a tile (two contiguous runs): 16 + 16 lanes a line apart and far apart, a
 * second run that starts inside a line and spans two, an uneven split; runs that share a line
 * or go back to a lower line take the per-lane path with the same result. A store in two runs
 * writes every lane's word. */
static void test_two_runs(void **state)
{
    fixture *fx = *state;
    assert_int_equal(load_two_runs(fx, 16, 0, 128), 2);
    assert_int_equal(load_two_runs(fx, 16, 1024, 5120), 2);
    assert_int_equal(load_two_runs(fx, 16, 2048, 2048 + 256 + 96), 3);
    assert_int_equal(load_two_runs(fx, 5, 4096 + 112, 4096 + 1024), 3);
    assert_int_equal(load_two_runs(fx, 16, 8192, 8192 + 64), 1);  /* one line: per lane */
    assert_int_equal(load_two_runs(fx, 16, 8192 + 512, 8192), 2); /* going back: per lane */
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        a->addr[l] = fx->buf + (l < 16 ? 12288 + 4 * l : 12288 + 1024 + 4 * (l - 16));
        uint32_t v = 6000 + l;
        memcpy(a->data[l], &v, 4);
    }
    assert_int_equal(run_checked(fx), 2);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        assert_int_equal(word_at(fx, l < 16 ? 12288 + 4 * l : 12288 + 1024 + 4 * (l - 16)),
                         6000 + l);
    assert_int_equal(word_at(fx, 12288 + 64), 3 * (3072 + 16) + 1);
}

static void test_stores_keep_the_last_lane(void **state)
{
    fixture *fx = *state;
    /* A contiguous store: every lane's word lands. */
    mem_access *a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
    memsys_test_strided(a, fx->buf + 96, 4);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 1000 + l;
        memcpy(a->data[l], &v, 4);
    }
    assert_int_equal(run_checked(fx), 2);
    for (uint32_t l = 0; l < MEM_LANES; l++) assert_int_equal(word_at(fx, 96 + 4 * l), 1000 + l);
    assert_int_equal(word_at(fx, 92), 3 * 23 + 1);  /* the words around are untouched */
    assert_int_equal(word_at(fx, 224), 3 * 56 + 1);

    /* All lanes store to one word (stride 0): the highest active lane's value stays. */
    a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0x7FFFFFFEu);
    memsys_test_strided(a, fx->buf + 4000, 0);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 2000 + l;
        memcpy(a->data[l], &v, 4);
    }
    assert_int_equal(run_checked(fx), 1);
    assert_int_equal(word_at(fx, 4000), 2000 + 30);
    assert_int_equal(word_at(fx, 4004), 3 * 1001 + 1);

    /* Lanes 0 and 31 store to the same word with the others in between going elsewhere (the
     * per-lane path): lane 31 wins. A 32-byte-stride store writes each lane's word. */
    a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        a->addr[l] = fx->buf + 8192 + 256 * ((l * 3) % 31);
        uint32_t v = 3000 + l;
        memcpy(a->data[l], &v, 4);
    }
    assert_int_equal(a->addr[0], a->addr[31]);
    assert_int_equal(run_checked(fx), 31);
    assert_int_equal(word_at(fx, 8192), 3000 + 31);
    assert_int_equal(word_at(fx, 8192 + 256 * 3), 3000 + 1);
    a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFFFFFFu);
    memsys_test_strided(a, fx->buf + 16384 + 8, 32);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 4000 + l;
        memcpy(a->data[l], &v, 4);
    }
    assert_int_equal(run_checked(fx), 8);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        assert_int_equal(word_at(fx, 16384 + 8 + 32 * l), 4000 + l);
        assert_int_equal(word_at(fx, 16384 + 12 + 32 * l), 3 * (4096 + 3 + 8 * l) + 1);
    }
    /* A column store (every lane its own line, some lanes inactive): each active lane's word
     * lands, the inactive lanes' words and the words beside keep their values. */
    a = begin(fx, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xFFFF0FFFu);
    memsys_test_strided(a, fx->buf + 32768 + 4, 1024);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint32_t v = 5000 + l;
        memcpy(a->data[l], &v, 4);
    }
    assert_int_equal(run_checked(fx), 28);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint64_t off = 32768 + 4 + 1024 * l;
        assert_int_equal(word_at(fx, off), l >= 12 && l < 16 ? 3 * (off / 4) + 1 : 5000 + l);
        assert_int_equal(word_at(fx, off + 4), 3 * (off / 4 + 1) + 1);
        assert_int_equal(word_at(fx, off - 4), 3 * (off / 4 - 1) + 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_contiguous_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fixed_strides, setup, teardown),
        cmocka_unit_test_setup_teardown(test_field_strides, setup, teardown),
        cmocka_unit_test_setup_teardown(test_field_stores_whole_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lanes_going_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_local_lanes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_local_words, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stores_keep_the_last_lane, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_runs, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
