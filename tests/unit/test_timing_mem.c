/* The memory side of the timing model (src/timing/timing_mem.c, docs/timing.md "Memory") on
 * synthetic access streams with exact cycles, and the results the memory system gives it
 * (mem_access.shared_wavefronts, l1_tags, const_*, dram_*_bytes).
 *
 * The synthetic GPU (tiny_gpu): 2 SMs in 2 L2 partitions (SM 0 near slices 0-1, SM 1 near
 * slices 2-3), 4 slices of 32 B/cycle (one sector per cycle), 2 DRAM channels sharing 64 B/cycle
 * (a 64-byte fill holds its channel 2 cycles), 2 banks of 512-byte rows per channel, 4 MSHRs per
 * SM, 4 tags and 16 sectors per cycle, 32 banks of 4 bytes. Latencies: L1 36, shared 29 + 2 per
 * extra wavefront, L2 near 200 / far 400, DRAM 500 (row miss) / 460 (row hit), constant 40 / 120.
 * Each partition's near copy: 1 KiB, 4 sets of 2 ways of 128-byte lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "memsys_test.h"
#include "timing/timing_mem.h"
#include "timing/timing_mshr.h"
#include "timing/timing_wave.h"

static gpu_config tiny_gpu(void)
{
    gpu_config c = *gpu_preset_find("a100");
    c.sm.count = 2;
    c.l1.tags_per_cycle = 4;
    c.l1.sectors_per_cycle = 16;
    c.l1.mshrs = 4;
    c.shared.banks = 32;
    c.shared.bank_width_bytes = 4;
    c.l2.size_bytes = 2048;
    c.l2.ways = 2;
    c.l2.slices = 4;
    c.l2.partitions = 2;
    c.l2.slice_bytes_per_cycle = 32;
    c.l2.dram_fill_bytes = 64;
    c.dram.channels = 2;
    c.dram.bytes_per_cycle = 64;
    c.dram.banks_per_channel = 2;
    c.dram.row_bytes = 512;
    c.latency = (gpu_latency_config){
        .l1_hit_cycles = 36, .shared_load_cycles = 29, .shared_conflict_step_cycles = 2,
        .l2_near_hit_cycles = 200, .l2_far_hit_cycles = 400, .dram_cycles = 500,
        .dram_row_hit_cycles = 460, .constant_l1_hit_cycles = 40,
        .constant_l15_hit_cycles = 120,
    };
    return c;
}

static timing_mem *tiny(void)
{
    gpu_config c = tiny_gpu();
    timing_mem *tm = timing_mem_create(&c);
    assert_non_null(tm);
    timing_mem_launch_begin(tm);
    return tm;
}

static ir_mem_attrs attrs;

/* A 4-byte load by 32 lanes at base + lane * stride (global space), nothing served yet. */
static mem_access *global_load(mem_access *a, uint64_t base, uint64_t stride)
{
    memsys_test_access(a, &attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xffffffffu, 0);
    memsys_test_strided(a, base, stride);
    return a;
}

/* Adds served sector `addr` at `level` in `slice` (and a tag when it starts a new line). */
static void serve(mem_access *a, uint64_t addr, mem_level level, uint16_t slice)
{
    uint64_t sector = addr & ~UINT64_C(31);
    if (a->nserved == 0 || a->served[a->nserved - 1].addr / 128 != sector / 128)
        a->l1_tags++;
    a->served[a->nserved++] = (mem_served){sector, (uint8_t)level, slice};
    a->levels |= (uint8_t)(1u << level);
}

/* Every sector the active lanes of `a` touch, served at `level` from `slice`. */
static void serve_lanes(mem_access *a, mem_level level, uint16_t slice)
{
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((a->active >> l) & 1u))
            continue;
        uint64_t sector = a->addr[l] & ~UINT64_C(31);
        int seen = 0;
        for (uint32_t i = 0; i < a->nserved; i++) seen |= a->served[i].addr == sector;
        if (!seen)
            serve(a, sector, level, slice);
    }
}

#define G 0x7f0000000000ull

static void test_l1_hit_and_pipeline(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    serve_lanes(global_load(&a, G, 4), MEM_LEVEL_L1, 0);
    timing_mem_reply r = timing_mem_access(tm, 0, 10, &a);
    assert_int_equal(r.accept, 10);
    assert_int_equal(r.ready, 46);
    assert_int_equal(r.long_latency, 1);
    /* The same cycle again: the pipeline is busy for one cycle. */
    r = timing_mem_access(tm, 0, 10, &a);
    assert_int_equal(r.accept, 11);
    assert_int_equal(r.ready, 47);
    /* The other SM has its own pipeline. */
    r = timing_mem_access(tm, 1, 10, &a);
    assert_int_equal(r.accept, 10);
    timing_mem_destroy(tm);
}

/* Cycles 8 warp loads of 4-byte lanes at a stride of `stride` words (all L1 hits), issued at
 * cycle 0, hold the pipeline: the cycle the ninth is accepted. */
static uint64_t strided_cycles(uint32_t stride)
{
    timing_mem *tm = tiny();
    mem_access a;
    serve_lanes(global_load(&a, G, 4ull * stride), MEM_LEVEL_L1, 0);
    for (int i = 0; i < 8; i++) timing_mem_access(tm, 0, 0, &a);
    uint64_t ninth = timing_mem_access(tm, 0, 0, &a).accept;
    timing_mem_destroy(tm);
    return ninth;
}

static void test_strided_throughput(void **state)
{
    (void)state;
    /* Power-of-two strides serialise on the data banks: s wavefronts (8 loads: 8 s cycles). */
    assert_int_equal(strided_cycles(1), 8);
    assert_int_equal(strided_cycles(2), 16);
    assert_int_equal(strided_cycles(8), 64);
    assert_int_equal(strided_cycles(32), 256);
    /* Odd strides: tags + 3 slots. Stride 3: 3 lines, 6 slots, 8 loads 48 slots = 12 cycles;
     * stride 5: 5 lines, 8 slots = 2 cycles each; stride 9: 9 lines, 12 slots; stride 17:
     * 17 lines, 20 slots; stride 33: 32 lines, 35 slots (8 loads 280 slots = 70 cycles). */
    assert_int_equal(strided_cycles(3), 12);
    assert_int_equal(strided_cycles(5), 16);
    assert_int_equal(strided_cycles(9), 24);
    assert_int_equal(strided_cycles(17), 40);
    assert_int_equal(strided_cycles(33), 70);
}

/* The cycle the ninth of 9 warp loads of `vec` 4-byte elements a lane at `addr`, lanes
 * `active` (all L1 hits), issued at cycle 0, is accepted: 8 times the slots one holds the
 * pipeline, in cycles of 4 slots. */
static uint64_t lanes_cycles(const uint64_t *addr, uint32_t active, uint32_t vec)
{
    timing_mem *tm = tiny();
    mem_access a;
    memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, vec, active, 0);
    memcpy(a.addr, addr, sizeof a.addr);
    serve_lanes(&a, MEM_LEVEL_L1, 0);
    for (int i = 0; i < 8; i++) timing_mem_access(tm, 0, 0, &a);
    uint64_t ninth = timing_mem_access(tm, 0, 0, &a).accept;
    timing_mem_destroy(tm);
    return ninth;
}

static void test_bank_wavefronts_of_lane_layouts(void **state)
{
    (void)state;
    uint64_t addr[MEM_LANES];
    /* One aligned 128-byte block in any lane order, words shared or not: one wavefront, one
     * tag (4 slots: 8 loads, 8 cycles). */
    for (uint32_t l = 0; l < MEM_LANES; l++) addr[l] = G + 4 * (31 - l);
    assert_int_equal(lanes_cycles(addr, 0xffffffffu, 1), 8);
    for (uint32_t l = 0; l < MEM_LANES; l++) addr[l] = G + 64 + 4 * (l % 4);
    assert_int_equal(lanes_cycles(addr, 0xffffffffu, 1), 8);
    /* 32 consecutive words across two blocks: still one wavefront, but two tags (5 slots:
     * 40 slots, 10 cycles). */
    for (uint32_t l = 0; l < MEM_LANES; l++) addr[l] = G + 4 + 4 * l;
    assert_int_equal(lanes_cycles(addr, 0xffffffffu, 1), 10);
    /* Lane 31 in the next block on lane 0's bank: two wavefronts (8 slots: 16 cycles); with
     * lane 31 inactive, one block again. */
    for (uint32_t l = 0; l < MEM_LANES; l++) addr[l] = G + 4 * l;
    addr[31] = G + 128;
    assert_int_equal(lanes_cycles(addr, 0xffffffffu, 1), 16);
    assert_int_equal(lanes_cycles(addr, 0x7fffffffu, 1), 8);
    /* Two words 512 bytes apart, each read by 16 lanes: one bank, two wavefronts (8 slots:
     * 16 cycles), whether the lanes ascend or not; three such words: 3 wavefronts. */
    for (uint32_t l = 0; l < MEM_LANES; l++) addr[l] = G + (l < 16 ? 0 : 512);
    assert_int_equal(lanes_cycles(addr, 0xffffffffu, 1), 16);
    for (uint32_t l = 0; l < MEM_LANES; l++) addr[l] = G + (l < 16 ? 512 : 0);
    assert_int_equal(lanes_cycles(addr, 0xffffffffu, 1), 16);
    for (uint32_t l = 0; l < MEM_LANES; l++) addr[l] = G + 512 * (l % 3);
    assert_int_equal(lanes_cycles(addr, 0xffffffffu, 1), 24);
}

/* Lanes wider than a bank: their words are counted in order when they come in order, and
 * through a set of the words seen otherwise; both must give the same wavefronts. 32 lanes of
 * 16 bytes over 512 bytes ask every bank for 4 words; at a stride of 32 bytes, half the banks
 * for 8; the same lanes in descending order, or shuffled within each line, take as long. */
static void test_wide_lanes_in_any_order(void **state)
{
    (void)state;
    uint64_t up[MEM_LANES], down[MEM_LANES], mixed[MEM_LANES];
    for (uint32_t stride = 16; stride <= 32; stride += 16) {
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            up[l] = G + stride * l;
            down[l] = G + stride * (31 - l);
            uint32_t per_line = 128 / stride; /* shuffled within each line */
            mixed[l] = G + stride * (l / per_line * per_line + (l * 3) % per_line);
        }
        uint64_t cycles = lanes_cycles(up, 0xffffffffu, 4);
        assert_true(cycles > 8); /* more than one wavefront per load */
        assert_int_equal(lanes_cycles(down, 0xffffffffu, 4), cycles);
        assert_int_equal(lanes_cycles(mixed, 0xffffffffu, 4), cycles);
    }
}

/* The distinct 128-byte lines of a's active lanes (the 4-byte lanes of the twin test below). */
static uint32_t lines_of_lanes(const mem_access *a)
{
    uint64_t seen[MEM_LANES];
    uint32_t n = 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!(a->active >> l & 1u))
            continue;
        uint32_t i = 0;
        while (i < n && seen[i] != a->addr[l] / 128) i++;
        if (i == n)
            seen[n++] = a->addr[l] / 128;
    }
    return n;
}

/* The shortcuts of the wavefront count (one block of banks, ascending lanes counted by runs of
 * consecutive words) against the general count over every lane's words, on random lane layouts
 * for 16, 32 and 64 banks of 4 bytes and 32 banks of 8: ascending with strides 0 to 2 words
 * and jumps (runs longer than the banks, runs that wrap round the banks, repeated words),
 * descending pairs, words from a few blocks in any order, one block in any order, and partial
 * lane masks; with and without the AVX2 builds of the full-warp scans. */
static void test_wavefront_shortcuts_twin(void **state)
{
    (void)state;
    static const uint32_t shapes[][2] = {{32, 4}, {16, 4}, {64, 4}, {32, 8}};
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        timing_banks bk;
        timing_banks_init(&bk, shapes[c][0], shapes[c][1]);
        mem_access a;
        for (int round = 0; round < 4000; round++) {
            global_load(&a, G, 4);
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint32_t kind = (uint32_t)(x % 5), bw = shapes[c][1];
            uint64_t addr = G + (x >> 8) % 4096 * 4;
            for (uint32_t l = 0; l < MEM_LANES; l++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (kind == 0) /* ascending: same word, the next, or a jump */
                    addr += (x % 8 < 5 ? x % 3 : 4 + x % 300) * bw;
                else if (kind == 1) /* ascending at one stride, now and then a jump */
                    addr += x % 16 ? bw * (round % 3) : bw * (1 + x % 100);
                else if (kind == 2) /* a few blocks in any order */
                    addr = G + (x % 4) * 4096 + (x >> 8) % 32 * 4;
                else if (kind == 3) /* ascending with an occasional step back */
                    addr = x % 20 ? addr + 4 : addr - 8;
                else /* one block of banks in any order, now and then a lane outside it */
                    addr = G + 8192 + (x % 64 ? (x >> 8) % 32 * 4 : 4096);
                a.addr[l] = addr;
            }
            a.active = round % 5 ? 0xffffffffu : (uint32_t)(x >> 16) | 1u;
            /* l1_tags as the memory system counts it (the one-line shortcut reads it); a
             * store now and then (the shortcut takes loads and stores alike) */
            a.l1_tags = (uint16_t)lines_of_lanes(&a);
            a.op = round % 7 ? MEM_OP_LOAD : MEM_OP_STORE;
            assert_int_equal(timing_wavefronts(&bk, &a), timing_wavefronts_gathered(&bk, &a));
            /* the full-warp scan's plain build too */
            bk.avx2 = 0;
            assert_int_equal(timing_wavefronts(&bk, &a), timing_wavefronts_gathered(&bk, &a));
            timing_banks_init(&bk, shapes[c][0], shapes[c][1]);
        }
    }
}

static void test_fractional_pipeline_slots(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    serve_lanes(global_load(&a, G, 12), MEM_LEVEL_L1, 0); /* 3 lines: 6 slots, 1.5 cycles */
    uint64_t accept[4], ready[4];
    for (int i = 0; i < 4; i++) {
        timing_mem_reply r = timing_mem_access(tm, 0, 0, &a);
        accept[i] = r.accept;
        ready[i] = r.ready;
    }
    /* starts at slots 0, 6, 12, 18; last slots 5, 11, 17, 23 */
    assert_int_equal(accept[0], 0);
    assert_int_equal(accept[1], 1);
    assert_int_equal(accept[2], 3);
    assert_int_equal(accept[3], 4);
    assert_int_equal(ready[0], 1 + 36);
    assert_int_equal(ready[1], 2 + 36);
    assert_int_equal(ready[2], 4 + 36);
    assert_int_equal(ready[3], 5 + 36);
    timing_mem_destroy(tm);
}

static void test_shared_conflicts(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_SHARED, 4, 1, 0xffffffffu, 0);
    a.levels = 1u << MEM_LEVEL_SHARED;
    for (uint32_t n = 1; n <= 32; n *= 2) {
        timing_mem_launch_begin(tm);
        a.shared_wavefronts = (uint16_t)n;
        timing_mem_reply r = timing_mem_access(tm, 0, 100, &a);
        assert_int_equal(r.accept, 100);
        assert_int_equal(r.ready, 100 + 29 + 2 * (n - 1));
        assert_int_equal(r.long_latency, 0);
        /* n wavefronts hold the pipeline n cycles */
        r = timing_mem_access(tm, 0, 100, &a);
        assert_int_equal(r.accept, 100 + n);
    }
    timing_mem_destroy(tm);
}

static void test_l2_near_far_and_slices(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    /* One line, 4 sectors, all from slice 0: the slice passes one sector per cycle. */
    serve_lanes(global_load(&a, G, 4), MEM_LEVEL_L2, 0);
    timing_mem_reply r = timing_mem_access(tm, 0, 0, &a);
    assert_int_equal(r.ready, 3 + 400); /* first touch by partition 0: far */
    /* The line is now in partition 0's copy: near. Its MSHR was released at 403. */
    r = timing_mem_access(tm, 0, 1000, &a);
    assert_int_equal(r.ready, 1003 + 200);
    /* SM 1 (partition 1) has no copy yet: far. */
    r = timing_mem_access(tm, 1, 2000, &a);
    assert_int_equal(r.ready, 2003 + 400);
    timing_mem_destroy(tm);
}

static void test_near_copy_capacity(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    /* Lines 0, 4, 8 map to near set 0 (2 ways): the third evicts the first (LRU). */
    uint64_t lines[] = {0, 4, 8, 0};
    uint64_t expect[] = {400, 400, 400, 400};
    for (int i = 0; i < 4; i++) {
        global_load(&a, G + lines[i] * 128, 0);
        a.active = 1;
        serve(&a, a.addr[0], MEM_LEVEL_L2, 1);
        timing_mem_reply r = timing_mem_access(tm, 0, 1000u * (uint64_t)(i + 1), &a);
        assert_int_equal(r.ready - 1000u * (uint64_t)(i + 1), expect[i]);
    }
    /* line 8 stayed: near */
    global_load(&a, G + 8 * 128, 0);
    a.active = 1;
    serve(&a, a.addr[0], MEM_LEVEL_L2, 1);
    assert_int_equal(timing_mem_access(tm, 0, 9000, &a).ready, 9200);
    timing_mem_destroy(tm);
}

/* The copies are sectored: another sector of a line read before is still far. */
static void test_near_copy_sectors(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    static const uint64_t offset[3] = {0, 64, 0};
    static const uint64_t latency[3] = {400, 400, 200};
    for (int i = 0; i < 3; i++) {
        uint64_t now = 1000u * (uint64_t)(i + 1);
        global_load(&a, G + offset[i], 0);
        a.active = 1;
        serve(&a, a.addr[0], MEM_LEVEL_L2, 1);
        assert_int_equal(timing_mem_access(tm, 0, now, &a).ready, now + latency[i]);
    }
    timing_mem_destroy(tm);
}

static void test_dram_rows_and_channels(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    /* 4 sectors of one line from DRAM: two 64-byte fill blocks. Chunk 0 (bytes 0-255 of
     * G) is on channel (c ^ c>>4 ^ c>>9) % 2 of c = G/256; both blocks on it. */
    serve_lanes(global_load(&a, G, 4), MEM_LEVEL_DRAM, 0);
    a.dram_read_bytes = 128;
    timing_mem_reply r = timing_mem_access(tm, 0, 0, &a);
    /* sectors leave slice 0 at 0,1,2,3; block 0 (sector 0) starts on its channel at 0 (row
     * miss: 500), holds it 2 cycles; block 1 (sector 2, slice at 2) starts at 2, row hit 460. */
    assert_int_equal(r.ready, 500);
    /* A second line in the same row later: row hit. */
    global_load(&a, G + 128, 4);
    a.active = 1;
    serve(&a, a.addr[0], MEM_LEVEL_DRAM, 1);
    a.dram_read_bytes = 64;
    r = timing_mem_access(tm, 0, 1000, &a);
    assert_int_equal(r.ready, 1000 + 460);
    /* A different row of the same bank: miss. Rows span 2 channels x 2 chunks = 1 KiB per
     * bank; bank = (addr / 1 KiB) % 2, so 2 KiB further is the same bank, the next row. */
    global_load(&a, G + 2048, 4);
    a.active = 1;
    serve(&a, a.addr[0], MEM_LEVEL_DRAM, 1);
    r = timing_mem_access(tm, 0, 2000, &a);
    assert_int_equal(r.ready, 2000 + 500);
    timing_mem_destroy(tm);
}

static void test_dram_bandwidth_queue(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    /* Four one-sector loads of four lines in one row of channel 0 (chunks 0 and 2 of G): each
     * 64-byte fill holds the channel 2 cycles, so the k-th starts at 2k. Slices differ so only
     * DRAM queues. */
    static const uint64_t offset[4] = {0, 128, 512, 640};
    uint64_t ready[4];
    for (int k = 0; k < 4; k++) {
        global_load(&a, G + offset[k], 0);
        a.active = 1;
        serve(&a, a.addr[0], MEM_LEVEL_DRAM, (uint16_t)k);
        a.dram_read_bytes = 64;
        ready[k] = timing_mem_access(tm, 0, 0, &a).ready;
    }
    /* each access holds the pipeline 1 cycle (t0 = k); channel start max(k, 2k) = 2k */
    assert_int_equal(ready[0], 500);
    assert_int_equal(ready[1], 2 + 460);
    assert_int_equal(ready[2], 4 + 460);
    assert_int_equal(ready[3], 6 + 460);
    timing_mem_destroy(tm);
}

static void test_mshr_limit_and_merge(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    /* Five loads of one sector each to five lines served by the L2 (first touch: far, 400),
     * slices 0..3 then 0 again. Four MSHRs: the fifth waits for the first to be released. */
    uint64_t accept[5], ready[5];
    for (int k = 0; k < 5; k++) {
        global_load(&a, G + 128u * (uint64_t)k, 0);
        a.active = 1;
        serve(&a, a.addr[0], MEM_LEVEL_L2, (uint16_t)(k % 4));
        timing_mem_reply r = timing_mem_access(tm, 0, 0, &a);
        accept[k] = r.accept;
        ready[k] = r.ready;
    }
    assert_int_equal(accept[3], 3);
    assert_int_equal(ready[3], 403);
    assert_int_equal(ready[0], 400);
    assert_int_equal(accept[4], 400);
    assert_int_equal(ready[4], 400 + 400);
    /* An L1 hit on line 4 while its fill is in flight waits for the fill (merge). */
    global_load(&a, G + 4 * 128 + 32, 0);
    a.active = 1;
    serve(&a, a.addr[0], MEM_LEVEL_L1, 0);
    timing_mem_reply r = timing_mem_access(tm, 0, 500, &a);
    assert_int_equal(r.accept, 500);
    assert_int_equal(r.ready, 800);
    /* After the fill: a plain hit. */
    r = timing_mem_access(tm, 0, 900, &a);
    assert_int_equal(r.ready, 936);
    timing_mem_destroy(tm);
}

static void test_l2_waits_for_dram_fill_in_flight(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    global_load(&a, G, 0);
    a.active = 1;
    serve(&a, G, MEM_LEVEL_DRAM, 0);
    a.dram_read_bytes = 64;
    assert_int_equal(timing_mem_access(tm, 0, 0, &a).ready, 500);
    /* SM 1 finds the line in the L2 (functionally filled at issue) at cycle 10: it waits for
     * the DRAM data, at 500, not 10 + 400. */
    global_load(&a, G, 0);
    a.active = 1;
    serve(&a, G, MEM_LEVEL_L2, 0);
    assert_int_equal(timing_mem_access(tm, 1, 10, &a).ready, 500);
    timing_mem_destroy(tm);
}

static void test_stores_and_writebacks(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    memsys_test_access(&a, &attrs, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 1, 0);
    a.addr[0] = G;
    serve(&a, G, MEM_LEVEL_L2, 0); /* slice 0: partition 0, near SM 0 */
    assert_int_equal(timing_mem_access(tm, 0, 0, &a).ready, 200);
    a.served[0].l2_slice = 3; /* partition 1: far */
    assert_int_equal(timing_mem_access(tm, 0, 10, &a).ready, 410);
    /* A store that wrote back 256 dirty bytes: both channels in turn; the first write-back
     * goes to channel 0 and holds it 8 cycles from cycle 20. */
    a.served[0].l2_slice = 0;
    a.dram_write_bytes = 256;
    assert_int_equal(timing_mem_access(tm, 0, 20, &a).ready, 220);
    /* A DRAM read of G (chunk G/256: channel 0) at cycle 21 waits for the channel until 28,
     * then opens its row. */
    global_load(&a, G, 0);
    a.active = 1;
    serve(&a, G, MEM_LEVEL_DRAM, 1);
    a.dram_read_bytes = 64;
    assert_int_equal(timing_mem_access(tm, 0, 21, &a).ready, 28 + 500);
    timing_mem_destroy(tm);
}

static void test_constant_and_fence(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 0xffffffffu, 0);
    a.levels = 1u << MEM_LEVEL_CONSTANT;
    a.const_lookups = 1;
    a.const_addresses = 1;
    timing_mem_reply r = timing_mem_access(tm, 0, 5, &a);
    assert_int_equal(r.accept, 5);
    assert_int_equal(r.ready, 45);
    assert_int_equal(r.long_latency, 0);
    /* three distinct addresses, one line missed: the port is busy 3 cycles, L1.5 latency */
    a.const_addresses = 3;
    a.const_misses = 1;
    r = timing_mem_access(tm, 0, 5, &a);
    assert_int_equal(r.accept, 6);
    assert_int_equal(r.ready, 6 + 2 + 120);
    mem_access f;
    memsys_test_access(&f, &attrs, MEM_OP_FENCE, IR_SPACE_GLOBAL, 4, 1, 0, 0);
    r = timing_mem_access(tm, 0, 77, &f);
    assert_int_equal(r.accept, 77);
    assert_int_equal(r.ready, 77);
    timing_mem_destroy(tm);
}

static void test_launch_begin_clears_calendars(void **state)
{
    (void)state;
    timing_mem *tm = tiny();
    mem_access a;
    serve_lanes(global_load(&a, G, 128), MEM_LEVEL_L1, 0); /* 32 wavefronts */
    assert_int_equal(timing_mem_access(tm, 0, 0, &a).accept, 0);
    assert_int_equal(timing_mem_access(tm, 0, 0, &a).accept, 32);
    timing_mem_launch_begin(tm);
    assert_int_equal(timing_mem_access(tm, 0, 0, &a).accept, 0);
    timing_mem_destroy(tm);
}

/* ---- the results the memory system fills for the timing model ---- */

static memsys *small_memsys(void)
{
    memsys_config cfg;
    memsys_test_small_h100(&cfg);
    diag_list dl;
    diag_list_init(&dl);
    memsys *ms = memsys_create(&cfg, &dl);
    assert_non_null(ms);
    diag_list_fini(&dl);
    assert_int_equal(memsys_set_insn_count(ms, 4), 0);
    return ms;
}

static void test_memsys_results(void **state)
{
    (void)state;
    memsys *ms = small_memsys();
    uint64_t buf;
    assert_int_equal(memsys_alloc(ms, 64 * 1024, 256, &buf), 0);
    uint8_t shared[4096] = {0};
    mem_ctx ctx = {.sm = 0, .shared = shared, .shared_bytes = sizeof shared};
    mem_access a;
    mem_fault f;
    /* Global load, stride 64 bytes: 16 lines, 32 sectors, all from DRAM (64-byte fills: one
     * per sector here, each 64 bytes). */
    memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_GLOBAL, 4, 1, 0xffffffffu, 0);
    memsys_test_strided(&a, buf, 64);
    assert_int_equal(memsys_access(ms, &ctx, &a, &f), 0);
    assert_int_equal(a.l1_tags, 16);
    assert_int_equal(a.nserved, 32);
    assert_int_equal(a.dram_read_bytes, 32 * 64);
    assert_int_equal(a.dram_write_bytes, 0);
    assert_int_equal(a.shared_wavefronts, 0);
    /* Again: L1 hits, no DRAM traffic. */
    assert_int_equal(memsys_access(ms, &ctx, &a, &f), 0);
    assert_int_equal(a.l1_tags, 16);
    assert_int_equal(a.dram_read_bytes, 0);
    /* Shared: stride 8 words, 8-way conflict. */
    memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_SHARED, 4, 1, 0xffffffffu, 1);
    memsys_test_strided(&a, 0, 32);
    assert_int_equal(memsys_access(ms, &ctx, &a, &f), 0);
    assert_int_equal(a.shared_wavefronts, 8);
    assert_int_equal(a.l1_tags, 0);
    /* Conflict-free shared: one wavefront. */
    memsys_test_strided(&a, 0, 4);
    assert_int_equal(memsys_access(ms, &ctx, &a, &f), 0);
    assert_int_equal(a.shared_wavefronts, 1);
    memsys_destroy(ms);
}

static void test_memsys_constant_results(void **state)
{
    (void)state;
    memsys *ms = small_memsys();
    uint8_t bank[1024] = {0};
    assert_int_equal(memsys_set_const_bank(ms, bank, sizeof bank), 0);
    mem_ctx ctx = {.sm = 0};
    mem_access a;
    mem_fault f;
    /* Lanes read 3 distinct addresses in 2 lines (64-byte constant lines): 0, 4 and 128. */
    memsys_test_access(&a, &attrs, MEM_OP_LOAD, IR_SPACE_CONST, 4, 1, 0xffffffffu, 2);
    for (uint32_t l = 0; l < MEM_LANES; l++) a.addr[l] = l < 10 ? 0 : l < 20 ? 4 : 128;
    assert_int_equal(memsys_access(ms, &ctx, &a, &f), 0);
    assert_int_equal(a.const_addresses, 3);
    assert_int_equal(a.const_lookups, 2);
    assert_int_equal(a.const_misses, 2);
    assert_int_equal(memsys_access(ms, &ctx, &a, &f), 0);
    assert_int_equal(a.const_misses, 0);
    assert_int_equal(a.const_lookups, 2);
    /* One active lane (the direct path). */
    a.active = 1;
    a.addr[0] = 512;
    assert_int_equal(memsys_access(ms, &ctx, &a, &f), 0);
    assert_int_equal(a.const_addresses, 1);
    assert_int_equal(a.const_lookups, 1);
    assert_int_equal(a.const_misses, 1);
    memsys_destroy(ms);
}

/* timing_mem_on_access (the executor's hook) on twin models: each access of an instruction
 * gets what timing_mem_access gives it on the other twin, and the instruction's sums are the
 * latest accept and ready of its accesses (at least the start) and whether any was long. */
static void test_on_access_adds_up_replies(void **state)
{
    (void)state;
    timing_mem *one = tiny(), *two = tiny();
    mem_access l1, dram, shared;
    serve_lanes(global_load(&l1, G, 4), MEM_LEVEL_L1, 0);
    serve_lanes(global_load(&dram, G + 4096, 4), MEM_LEVEL_DRAM, 2);
    memsys_test_access(&shared, &attrs, MEM_OP_LOAD, IR_SPACE_SHARED, 4, 1, 0xffffffffu, 0);
    shared.shared_wavefronts = 3;
    const mem_access *seq[] = {&shared, &l1, &dram, &shared, &l1};
    timing_mem_issue is = {.tm = two, .sm = 1, .at = 20, .accept = 15, .ready = 15};
    uint64_t accept = 15, ready = 15;
    for (unsigned i = 0; i < 5; i++) {
        timing_mem_reply r = timing_mem_access(one, 1, 20, seq[i]);
        timing_mem_on_access(seq[i], &is);
        assert_int_equal(is.naccess, i + 1);
        accept = r.accept > accept ? r.accept : accept;
        ready = r.ready > ready ? r.ready : ready;
        assert_int_equal(is.accept, accept);
        assert_int_equal(is.ready, ready);
        /* Shared memory alone is short; the first global access makes it long. */
        assert_int_equal(is.long_latency, i > 0);
    }
    /* The exact figures of the sequence: the pipeline took the fifth access at cycle 28 (from
     * 20: 3 cycles of the shared access, 1 each of the two global loads, 3 of the shared one),
     * and the DRAM load's data is the last: taken at cycle 24, a row miss 500 cycles later. */
    assert_int_equal(accept, 28);
    assert_int_equal(ready, 524);
    timing_mem_destroy(one);
    timing_mem_destroy(two);
}

/* The reference for the MSHR queue: the binary min-heap timing_mem.c used before it. */
typedef struct ref_heap {
    uint64_t v[256];
    uint32_t n;
} ref_heap;

static void ref_push(ref_heap *h, uint32_t cap, uint64_t v)
{
    if (h->n >= cap)
        return;
    uint32_t i = h->n++;
    while (i > 0 && h->v[(i - 1) / 2] > v) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = v;
}

static uint64_t ref_pop(ref_heap *h)
{
    uint64_t top = h->v[0], v = h->v[--h->n];
    uint32_t i = 0, n = h->n;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h->v[c + 1] < h->v[c])
            c++;
        if (h->v[c] >= v)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (n)
        h->v[i] = v;
    return top;
}

/* timing_mshr.h against the heap, in the steps of timing_mem.c's mshr_wait and load_lines:
 * releases at a clock that moves on plus a latency with jitter (mostly rising), or anywhere
 * (random), or few distinct values (ties); entries released by the clock dropped, then the
 * earliest waited for until k more fit. Every value taken out and every count must agree. */
static void test_mshr_queue_twin(void **state)
{
    (void)state;
    static const uint32_t caps[] = {1, 2, 4, 7, 256};
    uint64_t block[256];
    uint32_t seed = 12345;
    for (unsigned shape = 0; shape < 3; shape++) {
        for (unsigned c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            uint32_t cap = caps[c];
            ref_heap h = {.n = 0};
            timing_mshr q = {.rel = block};
            timing_mshr_clear(&q);
            uint64_t clock = 0;
            for (unsigned step = 0; step < 20000; step++) {
                seed = seed * 1103515245u + 12345u;
                uint32_t r = seed >> 8;
                clock += r % 4;
                uint64_t v = shape == 0   ? clock + 200 + r % 300
                             : shape == 1 ? r % 100000
                                          : clock + (r % 3) * 100;
                uint32_t k = 1 + (r >> 12) % 3;
                if (k > cap)
                    k = cap;
                while (h.n && h.v[0] <= clock) {
                    assert_true(q.n > 0);
                    assert_int_equal(timing_mshr_first(&q), h.v[0]);
                    assert_int_equal(timing_mshr_pop(&q), ref_pop(&h));
                }
                assert_false(q.n && timing_mshr_first(&q) <= clock);
                while (h.n + k > cap)
                    assert_int_equal(timing_mshr_pop(&q), ref_pop(&h));
                assert_int_equal(q.n, h.n);
                for (uint32_t i = 0; i < k; i++) {
                    ref_push(&h, cap, v + i * (r % 5));
                    timing_mshr_push(&q, cap, v + i * (r % 5));
                }
                assert_int_equal(q.n, h.n);
            }
            while (h.n) assert_int_equal(timing_mshr_pop(&q), ref_pop(&h));
            assert_int_equal(q.n, 0);
        }
    }
}

/* timing_mem_on_access's global-only path (on_access_global) against timing_mem_access's
 * general one (other_reply) on twin models, access by access: loads at every level with
 * strides of 1 to 3 words (one to three lines), stores at the L2 and through to DRAM, on
 * both SMs (near and far slices), some at the same cycle; on the tiny GPU (power-of-two sizes
 * and rates) and on one with 3 tags and 12 sectors a cycle and 96-byte fills (the division
 * build of the walk). Every accept, ready and long_latency must agree. */
static void test_on_access_global_twin(void **state)
{
    (void)state;
    for (int cfgi = 0; cfgi < 2; cfgi++) {
        gpu_config c = tiny_gpu();
        if (cfgi) {
            c.l1.tags_per_cycle = 3;
            c.l1.sectors_per_cycle = 12;
            c.l2.dram_fill_bytes = 96;
        }
        timing_mem *one = timing_mem_create(&c), *two = timing_mem_create(&c);
        assert_non_null(one);
        assert_non_null(two);
        timing_mem_launch_begin(one);
        timing_mem_launch_begin(two);
        uint64_t at = 10;
        for (uint32_t i = 0; i < 400; i++) {
            mem_access a;
            uint32_t kind = i % 5, sm = (i / 5) % 2;
            uint64_t base = G + (uint64_t)(i * 7 % 64) * 128;
            if (kind < 3) {
                serve_lanes(global_load(&a, base, 4 * (1 + i % 3)),
                            kind == 0 ? MEM_LEVEL_L1 : kind == 1 ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM,
                            (uint16_t)(i % 4));
                if (kind == 2)
                    a.dram_read_bytes = 64 * (1 + i % 3);
            } else {
                memsys_test_access(&a, &attrs, MEM_OP_STORE, IR_SPACE_GLOBAL, 4, 1, 0xffffffffu, 0);
                memsys_test_strided(&a, base, 4);
                serve_lanes(&a, kind == 3 ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM, (uint16_t)(i % 4));
                a.dram_write_bytes = kind == 4 ? 32 : 0;
            }
            timing_mem_reply r = timing_mem_access(one, sm, at, &a);
            timing_mem_issue is = {.tm = two, .sm = sm, .at = at, .accept = at, .ready = at};
            timing_mem_on_access(&a, &is);
            assert_int_equal(is.accept, r.accept);
            assert_int_equal(is.ready, r.ready);
            assert_int_equal(is.long_latency, r.long_latency);
            at += i % 3 == 0 ? 0 : 1 + i % 17;
        }
        timing_mem_destroy(one);
        timing_mem_destroy(two);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l1_hit_and_pipeline),
        cmocka_unit_test(test_strided_throughput),
        cmocka_unit_test(test_fractional_pipeline_slots),
        cmocka_unit_test(test_bank_wavefronts_of_lane_layouts),
        cmocka_unit_test(test_wide_lanes_in_any_order),
        cmocka_unit_test(test_wavefront_shortcuts_twin),
        cmocka_unit_test(test_shared_conflicts),
        cmocka_unit_test(test_l2_near_far_and_slices),
        cmocka_unit_test(test_near_copy_capacity),
        cmocka_unit_test(test_near_copy_sectors),
        cmocka_unit_test(test_dram_rows_and_channels),
        cmocka_unit_test(test_dram_bandwidth_queue),
        cmocka_unit_test(test_mshr_limit_and_merge),
        cmocka_unit_test(test_mshr_queue_twin),
        cmocka_unit_test(test_l2_waits_for_dram_fill_in_flight),
        cmocka_unit_test(test_stores_and_writebacks),
        cmocka_unit_test(test_constant_and_fence),
        cmocka_unit_test(test_launch_begin_clears_calendars),
        cmocka_unit_test(test_memsys_results),
        cmocka_unit_test(test_memsys_constant_results),
        cmocka_unit_test(test_on_access_adds_up_replies),
        cmocka_unit_test(test_on_access_global_twin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
