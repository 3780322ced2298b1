/* The memory side of the timing model (docs/timing.md, "Memory"): per-resource calendars that
 * turn the levels the functional memory system reports for a warp access into the cycle the SM
 * took it and the cycle its data is ready.
 *
 * Resources, each a "first free" calendar (requests are served in the order they are asked):
 *   - per SM, the L1/shared pipeline, in tag slots of 1/tags_per_cycle cycle. A shared access
 *     holds it one cycle per wavefront; a global or local access the largest of its data-bank
 *     wavefronts (the shared banks, 4-byte words), its tag lookups plus tags_per_cycle - 1 slots
 *     (the fit to gpu-figures.md §9 "Strided L1 throughput") and its sectors at
 *     sectors_per_cycle;
 *   - per SM, MSHRs: lines in flight below the L1; a miss to a line in flight merges into it, a
 *     new line waits for a free entry (the access is accepted when it has one);
 *   - per SM, the constant-cache port: one cycle per distinct address;
 *   - per L2 slice, slice_bytes_per_cycle;
 *   - per DRAM channel, bytes_per_cycle / channels, with one open row per bank.
 * Bandwidth calendars count TICKS per cycle so that fractional rates stay exact integers.
 * Latencies: L1 hit, shared (plus a step per extra wavefront), L2 near or far, DRAM with a row
 * hit or miss, constant L1 hit or L1.5 (a miss). With several L2 partitions, each keeps a copy of
 * the lines its SMs read (a tag-only LRU directory of one partition's capacity): a hit there is
 * near, any other L2 hit far. */
#include "timing/timing_mem.h"

#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "timing/timing_mshr.h"
#include "timing/timing_near.h"
#include "timing/timing_wave.h"

enum {
    TICKS = 256,               /* calendar ticks per SM cycle */
    DRAM_INTERLEAVE = 256,     /* bytes of consecutive addresses on one DRAM channel */
    L2_PENDING = 1u << 14,     /* lines with a DRAM fill in flight that are remembered */
    LINE_BYTES = 128,          /* the memory system's line requests (one L1 tag each) */
};

/* A line with a fill in flight: line index + 1 (0: empty slot) and the cycle its data is in. */
typedef struct inflight {
    uint64_t line;
    uint64_t ready;
} inflight;

typedef struct sm_state {
    uint64_t pipe_free;  /* first free tag slot of the L1/shared pipeline (cycles x tag rate) */
    uint64_t const_free; /* first free cycle of the constant-cache port */
    timing_mshr mshr;    /* the release cycles of the MSHRs in use (timing_mshr.h) */
    inflight *lines;     /* direct-mapped: lines in flight to the L2, for merging */
    uint8_t lines_used;  /* 1: an entry of `lines` was written since they were last cleared */
} sm_state;

struct timing_mem {
    /* from the configuration */
    uint32_t sm_count, partitions, slices, channels, dram_banks, row_bytes;
    uint32_t tag_rate, sector_rate, mshrs;
    uint32_t slice_bw, dram_bw, sector_bytes, l2_line_bytes, dram_fill_bytes;
    /* log2(tag_rate) when it is a power of two (the presets'), else -1: the pipeline's slots
     * to cycles by a shift on the shared-only path, which every shared load takes */
    int8_t tag_shift;
    /* shifts: l2_line_bytes, sector_bytes, dram_fill_bytes, tag_rate and sector_rate are all
     * powers of two (the presets'; the configuration requires the sizes to be, a hand-made one
     * may differ), and their log2: the walk then shifts where it would divide (pipe_part_pow2) */
    uint8_t shifts, line_shift, sector_shift, fill_shift, rate_shift;
    uint64_t slice_ticks;   /* ticks one sector holds its L2 slice */
    uint64_t fill_ticks;    /* ticks a dram_fill_bytes transfer holds its DRAM channel */
    uint64_t sector_dram_ticks; /* ticks a sector_bytes transfer holds its DRAM channel */
    uint64_t row_chunks;    /* DRAM_INTERLEAVE chunks of one row on every channel */
    uint64_t shared_base;   /* shared_load_cycles - shared_conflict_step_cycles, mod 2^64 */
    int8_t bank_shift;      /* log2(dram_banks) when it is a power of two, else -1 */
    uint32_t *slice_part;   /* per L2 slice: its partition */
    uint32_t *sm_part;      /* per SM: its L2 partition (sm_partition), a load per access */
    gpu_latency_config lat;
    timing_banks wave;      /* the L1's data banks (timing_wave.h) */
    /* state */
    sm_state *sm;
    /* Every SM's MSHR queue (mshrs entries) and table of lines in flight (inflight_mask + 1
     * entries), one SM after the other: an SM's are found from its index, without a load of
     * its sm_state first (first_pass). */
    uint64_t *mshr_all;
    inflight *lines_all;
    uint32_t inflight_mask;
    uint64_t *slice_free;   /* ticks */
    uint64_t *chan_free;    /* ticks */
    uint64_t *open_row;     /* per channel and bank: row + 1, 0 when none is open */
    uint32_t wb_channel;    /* next channel a write-back is charged to */
    inflight *l2_pending;   /* lines a DRAM fill is bringing into the L2 */
    uint8_t pending_used;   /* 1: an entry of l2_pending was written since it was cleared */
    near_dir near;          /* the partitions' copies (with several partitions) */
};

/* ---- small helpers ---- */

static inline uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static inline uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

static inline uint32_t hash_line(uint64_t line)
{
    return (uint32_t)((line * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

/* log2(n) when n is a power of two, else -1. */
static int exact_log2(uint32_t n)
{
    return n && !(n & (n - 1)) ? __builtin_ctz(n) : -1;
}

/* ---- creation ---- */

static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t p = 1;
    while (p < n && p < (1u << 30)) p <<= 1;
    return p;
}

/* Ticks a DRAM transfer of `bytes` holds its channel (each channel has 1/channels of the
 * bandwidth). */
static uint64_t dram_ticks(const timing_mem *tm, uint32_t bytes)
{
    return ceil_div((uint64_t)bytes * TICKS * tm->channels, tm->dram_bw);
}

static void copy_config(timing_mem *tm, const gpu_config *cfg)
{
    tm->sm_count = cfg->sm.count ? cfg->sm.count : 1;
    tm->partitions = cfg->l2.partitions ? cfg->l2.partitions : 1;
    tm->slices = cfg->l2.slices ? cfg->l2.slices : 1;
    tm->channels = cfg->dram.channels ? cfg->dram.channels : 1;
    tm->dram_banks = cfg->dram.banks_per_channel ? cfg->dram.banks_per_channel : 1;
    tm->row_bytes = cfg->dram.row_bytes >= DRAM_INTERLEAVE ? cfg->dram.row_bytes : DRAM_INTERLEAVE;
    tm->tag_rate = cfg->l1.tags_per_cycle ? cfg->l1.tags_per_cycle : 1;
    tm->tag_shift = (int8_t)exact_log2(tm->tag_rate);
    tm->sector_rate = cfg->l1.sectors_per_cycle ? cfg->l1.sectors_per_cycle : 1;
    tm->mshrs = cfg->l1.mshrs ? cfg->l1.mshrs : 1;
    timing_banks_init(&tm->wave, cfg->shared.banks, cfg->shared.bank_width_bytes);
    tm->slice_bw = cfg->l2.slice_bytes_per_cycle ? cfg->l2.slice_bytes_per_cycle : 1;
    tm->dram_bw = cfg->dram.bytes_per_cycle ? cfg->dram.bytes_per_cycle : 1;
    tm->sector_bytes = cfg->l1.sector_bytes ? cfg->l1.sector_bytes : 32;
    tm->l2_line_bytes = cfg->l2.line_bytes ? cfg->l2.line_bytes : 128;
    tm->dram_fill_bytes = cfg->l2.dram_fill_bytes ? cfg->l2.dram_fill_bytes : tm->sector_bytes;
    tm->lat = cfg->latency;
    tm->slice_ticks = ceil_div((uint64_t)tm->sector_bytes * TICKS, tm->slice_bw);
    int line = exact_log2(tm->l2_line_bytes), sector = exact_log2(tm->sector_bytes),
        fill = exact_log2(tm->dram_fill_bytes), rate = exact_log2(tm->sector_rate);
    tm->shifts = line >= 0 && sector >= 0 && fill >= 0 && rate >= 0 && tm->tag_shift >= 0;
    tm->rate_shift = (uint8_t)(tm->shifts ? rate : 0);
    tm->line_shift = (uint8_t)(tm->shifts ? line : 0);
    tm->sector_shift = (uint8_t)(tm->shifts ? sector : 0);
    tm->fill_shift = (uint8_t)(tm->shifts ? fill : 0);
    tm->fill_ticks = dram_ticks(tm, tm->dram_fill_bytes);
    tm->sector_dram_ticks = dram_ticks(tm, tm->sector_bytes);
    tm->row_chunks = (uint64_t)tm->channels * (tm->row_bytes / DRAM_INTERLEAVE);
    tm->bank_shift = (int8_t)exact_log2(tm->dram_banks);
    tm->shared_base = (uint64_t)tm->lat.shared_load_cycles - tm->lat.shared_conflict_step_cycles;
}

/* The L2 partition of SM `sm` (< sm_count): the SMs split evenly, in index order. */
static uint32_t sm_partition(const timing_mem *tm, uint32_t sm)
{
    return (uint32_t)((uint64_t)sm * tm->partitions / tm->sm_count);
}

/* The near-partition directories: one partition's share of the L2, in lines. */
static int create_near(timing_mem *tm, const gpu_config *cfg)
{
    if (tm->partitions < 2)
        return 0;
    uint64_t lines = cfg->l2.size_bytes / tm->partitions / tm->l2_line_bytes;
    uint32_t ways = cfg->l2.ways ? cfg->l2.ways : 16;
    return near_dir_init(&tm->near, tm->partitions, lines / ways, ways);
}

/* The bytes of every SM's MSHRs and of every SM's in-flight table. */
static size_t mshr_bytes(const timing_mem *tm)
{
    return (size_t)tm->sm_count * tm->mshrs * sizeof *tm->mshr_all;
}

static size_t lines_bytes(const timing_mem *tm)
{
    return (size_t)tm->sm_count * (tm->inflight_mask + 1) * sizeof *tm->lines_all;
}

timing_mem *timing_mem_create(const gpu_config *cfg)
{
    timing_mem *tm = calloc(1, sizeof *tm);
    if (!tm)
        return NULL;
    copy_config(tm, cfg);
    uint32_t slots = pow2_at_least(tm->mshrs * 4 > 4096 ? 4096 : tm->mshrs * 4);
    tm->inflight_mask = slots - 1;
    tm->sm = calloc(tm->sm_count, sizeof *tm->sm);
    tm->slice_free = calloc(tm->slices, sizeof *tm->slice_free);
    tm->chan_free = calloc(tm->channels, sizeof *tm->chan_free);
    tm->open_row = calloc((size_t)tm->channels * tm->dram_banks, sizeof *tm->open_row);
    tm->l2_pending = calloc(L2_PENDING, sizeof *tm->l2_pending);
    tm->slice_part = calloc(tm->slices, sizeof *tm->slice_part);
    tm->sm_part = calloc(tm->sm_count, sizeof *tm->sm_part);
    int ok = tm->sm && tm->slice_free && tm->chan_free && tm->open_row && tm->l2_pending &&
             tm->slice_part && tm->sm_part && create_near(tm, cfg) == 0;
    for (uint32_t i = 0; ok && i < tm->slices; i++)
        tm->slice_part[i] = (uint32_t)((uint64_t)i * tm->partitions / tm->slices);
    for (uint32_t s = 0; ok && s < tm->sm_count; s++)
        tm->sm_part[s] = sm_partition(tm, s);
    if (ok) {
        /* Every SM's MSHRs and in-flight table, touched in no order: 2 MiB pages when there
         * is one's worth (base/pages.h). */
        tm->mshr_all = pages_alloc_dense(mshr_bytes(tm));
        tm->lines_all = pages_alloc_dense(lines_bytes(tm));
        ok = tm->mshr_all && tm->lines_all;
    }
    for (uint32_t s = 0; ok && s < tm->sm_count; s++) {
        tm->sm[s].mshr.rel = tm->mshr_all + (size_t)s * tm->mshrs;
        tm->sm[s].lines = tm->lines_all + (size_t)s * slots;
    }
    if (!ok) {
        timing_mem_destroy(tm);
        return NULL;
    }
    return tm;
}

void timing_mem_destroy(timing_mem *tm)
{
    if (!tm)
        return;
    pages_free(tm->mshr_all, mshr_bytes(tm));
    pages_free(tm->lines_all, lines_bytes(tm));
    free(tm->sm);
    free(tm->slice_free);
    free(tm->chan_free);
    free(tm->open_row);
    free(tm->l2_pending);
    free(tm->slice_part);
    free(tm->sm_part);
    near_dir_fini(&tm->near);
    free(tm);
}

void timing_mem_launch_begin(timing_mem *tm)
{
    uint32_t slots = tm->inflight_mask + 1;
    for (uint32_t s = 0; s < tm->sm_count; s++) {
        sm_state *st = &tm->sm[s];
        st->pipe_free = st->const_free = 0;
        timing_mshr_clear(&st->mshr);
        /* Only SMs that sent a line below the L1 have entries to clear (the table is 16 KiB
         * per SM on the presets: clearing every SM's was most of a small launch's set-up). */
        if (st->lines_used)
            memset(st->lines, 0, slots * sizeof *st->lines);
        st->lines_used = 0;
    }
    memset(tm->slice_free, 0, tm->slices * sizeof *tm->slice_free);
    memset(tm->chan_free, 0, tm->channels * sizeof *tm->chan_free);
    if (tm->pending_used)
        memset(tm->l2_pending, 0, L2_PENDING * sizeof *tm->l2_pending);
    tm->pending_used = 0;
    /* The open rows and the near-partition copies are the state of the DRAM and of the L2's
     * contents, which outlive a launch like the L2 itself. */
    tm->wb_channel = 0;
}

/* Occupies a bandwidth calendar (`*free_at`, ticks) from cycle `t` for `ticks`; returns the
 * cycle the transfer starts. */
static uint64_t occupy(uint64_t *free_at, uint64_t t, uint64_t ticks)
{
    uint64_t start = max64(t * TICKS, *free_at);
    *free_at = start + ticks;
    return ceil_div(start, TICKS);
}

/* ---- MSHRs ---- */

/* The cycle, >= t, at which `k` more MSHRs are free: entries released by then are dropped, and
 * when too few are left the earliest ones in use are waited for. */
static uint64_t mshr_wait(timing_mem *tm, sm_state *st, uint32_t k, uint64_t t)
{
    timing_mshr *q = &st->mshr;
    while (q->n && timing_mshr_first(q) <= t) timing_mshr_pop(q);
    if (k > tm->mshrs)
        k = tm->mshrs;
    uint64_t at = t;
    while (q->n + k > tm->mshrs) at = max64(at, timing_mshr_pop(q));
    return at;
}

static inflight *sm_line(timing_mem *tm, sm_state *st, uint64_t line)
{
    return &st->lines[hash_line(line) & tm->inflight_mask];
}

/* ---- the near-partition directories ---- */

/* The l2 line of byte `addr`, the bit of its sector in a line's sector mask, and its DRAM fill
 * block. `pow2` is tm->shifts, a constant where the walk is inlined (pipe_part_pow2 and
 * pipe_part_any): the presets' walk then tests nothing per sector to choose shifts. */
#define WALK_INLINE static inline __attribute__((always_inline))

WALK_INLINE uint64_t l2_line_of(const timing_mem *tm, uint64_t addr, int pow2)
{
    return pow2 ? addr >> tm->line_shift : addr / tm->l2_line_bytes;
}

WALK_INLINE uint64_t sector_bit(const timing_mem *tm, uint64_t addr, int pow2)
{
    uint64_t k = pow2 ? (addr & (tm->l2_line_bytes - 1)) >> tm->sector_shift
                      : addr % tm->l2_line_bytes / tm->sector_bytes;
    return UINT64_C(1) << (k % 64);
}

WALK_INLINE uint64_t fill_block_of(const timing_mem *tm, uint64_t addr, int pow2)
{
    return pow2 ? addr >> tm->fill_shift : addr / tm->dram_fill_bytes;
}

/* ---- DRAM ---- */

static uint32_t dram_channel(const timing_mem *tm, uint64_t addr)
{
    uint64_t chunk = addr / DRAM_INTERLEAVE;
    return (uint32_t)((chunk ^ (chunk >> 4) ^ (chunk >> 9)) % tm->channels);
}

/* A DRAM transfer holding its channel `ticks` (dram_ticks) at `addr` asked at cycle t: returns
 * the cycle its data is back (reads) or written (writes). Inlined: as a call from the walk, the
 * walk's registers saved around it cost about as much as its work. */
static inline __attribute__((always_inline)) uint64_t dram_access(timing_mem *tm, uint64_t addr,
                                                                  uint64_t ticks, uint64_t t)
{
    uint32_t ch = dram_channel(tm, addr);
    uint64_t start = occupy(&tm->chan_free[ch], t, ticks);
    uint64_t row_all = addr / DRAM_INTERLEAVE / tm->row_chunks, bank, row;
    if (tm->bank_shift >= 0) { /* the presets' 16 banks: no second division */
        bank = row_all & (tm->dram_banks - 1);
        row = (row_all >> tm->bank_shift) + 1;
    } else {
        bank = row_all % tm->dram_banks;
        row = row_all / tm->dram_banks + 1;
    }
    uint64_t *open = &tm->open_row[(size_t)ch * tm->dram_banks + bank];
    uint32_t lat = *open == row ? tm->lat.dram_row_hit_cycles : tm->lat.dram_cycles;
    *open = row;
    return start + lat;
}

/* Write-backs the access caused: they take DRAM bandwidth, in turn on every channel (the
 * evicted lines' addresses are not reported), but no one waits for them. */
static void dram_writebacks(timing_mem *tm, uint32_t bytes, uint64_t t)
{
    if (!bytes)
        return;
    uint32_t ch = tm->wb_channel++ % tm->channels;
    occupy(&tm->chan_free[ch], t, dram_ticks(tm, bytes));
}

/* ---- the L1/shared pipeline ---- */

/* The cycle of tag slot `slot` (pow2: as for the walk). */
WALK_INLINE uint64_t slot_cycle(const timing_mem *tm, uint64_t slot, int pow2)
{
    return pow2 ? slot >> tm->tag_shift : slot / tm->tag_rate;
}

/* Tag slots the access holds the pipeline: shared wavefronts, then the global and local part's
 * largest limit (data wavefronts, tag lookups, sectors). At least one cycle. */
WALK_INLINE uint64_t pipe_slots(const timing_mem *tm, const mem_access *a, int pow2)
{
    uint64_t T = tm->tag_rate, slots = (uint64_t)a->shared_wavefronts * T;
    if (a->l1_tags || a->nserved) {
        uint64_t tags = a->l1_tags ? a->l1_tags : 1;
        uint64_t g = tags + T - 1;
        g = max64(g, (uint64_t)timing_wavefronts(&tm->wave, a) * T);
        uint64_t sectors = (uint64_t)a->nserved * T;
        g = max64(g, pow2 ? (sectors + tm->sector_rate - 1) >> tm->rate_shift
                          : ceil_div(sectors, tm->sector_rate));
        slots += g;
    }
    return slots > T ? slots : T;
}

/* ---- the levels below the L1 ---- */

/* What one access's walk over its served sectors shares. */
typedef struct walk {
    uint32_t sm;
    uint32_t part;          /* the SM's L2 partition */
    uint64_t t0;            /* cycle the access's last tag slot passed the pipeline */
    uint64_t fill_block;    /* DRAM fill block of the previous DRAM sector + 1 (0: none) */
    uint64_t fill_ready;    /* its data-ready cycle */
    uint64_t fill_ticks;    /* dram_ticks of this access's DRAM bytes per fill block */
    /* The l2 line + 1 of the previous sector read below the L1 (0: none yet), its entry of
     * l2_pending and, once a sector of it was looked up there, its way in the partition's copy
     * (the most recent of its set until another line is looked up): the sectors of one line
     * come one after the other and share them. */
    uint64_t line1, near_line1;
    inflight *pending;
    near_way *near;
} walk;

/* The look-up of near_touch for a line other than the walk's last, out of line: inlined into
 * load_lines' loop, it crowded the registers of the loop's common case, the L1 hits. It takes
 * no pointer to the walk, so that the walk stays in registers. */
static __attribute__((noinline)) near_way *near_lookup(timing_mem *tm, uint32_t part,
                                                       uint64_t line)
{
    return near_dir_line(&tm->near, part, line);
}

/* Whether sector `addr` of l2 line `line` is in the copy of the walk's partition; it is there
 * afterwards (sectored lines, LRU). */
WALK_INLINE int near_touch(timing_mem *tm, walk *w, uint64_t line, uint64_t addr, int pow2)
{
    if (w->near_line1 != line + 1) {
        w->near = near_lookup(tm, w->part, line);
        w->near_line1 = line + 1;
    }
    uint64_t bit = sector_bit(tm, addr, pow2);
    int had = (w->near->sectors & bit) != 0;
    w->near->sectors |= bit;
    return had;
}

static inline uint32_t slice_of(const timing_mem *tm, const mem_served *e)
{
    return e->l2_slice < tm->slices ? e->l2_slice : e->l2_slice % tm->slices;
}

/* Ready cycle of one sector read below the L1 (served by the L2 or DRAM). */
WALK_INLINE uint64_t read_sector(timing_mem *tm, walk *w, const mem_served *e, int pow2)
{
    uint64_t line = l2_line_of(tm, e->addr, pow2);
    uint64_t t = occupy(&tm->slice_free[slice_of(tm, e)], w->t0, tm->slice_ticks);
    if (w->line1 != line + 1) {
        w->line1 = line + 1;
        w->pending = &tm->l2_pending[hash_line(line) % L2_PENDING];
    }
    inflight *p = w->pending;
    if (e->level != MEM_LEVEL_DRAM) {
        uint64_t ready = t + (tm->partitions < 2 || near_touch(tm, w, line, e->addr, pow2)
                                  ? tm->lat.l2_near_hit_cycles
                                  : tm->lat.l2_far_hit_cycles);
        return p->line == line + 1 ? max64(ready, p->ready) : ready;
    }
    uint64_t block = fill_block_of(tm, e->addr, pow2) + 1;
    if (block != w->fill_block) {
        w->fill_block = block;
        w->fill_ready = dram_access(tm, e->addr, w->fill_ticks, t);
    }
    if (tm->partitions > 1)
        near_touch(tm, w, line, e->addr, pow2);
    if (p->line != line + 1 || p->ready < w->fill_ready) {
        *p = (inflight){line + 1, w->fill_ready};
        tm->pending_used = 1;
    }
    return w->fill_ready;
}

/* Ready cycle of one sector written (store) or updated (atomic) below the L1: performed at its
 * slice, near or far by the slice's partition; at DRAM when the L2 wrote it through. */
static uint64_t write_sector(timing_mem *tm, walk *w, const mem_served *e)
{
    uint32_t slice = slice_of(tm, e);
    uint64_t t = occupy(&tm->slice_free[slice], w->t0, tm->slice_ticks);
    int near = tm->slice_part[slice] == w->part;
    uint64_t ready = t + (near ? tm->lat.l2_near_hit_cycles : tm->lat.l2_far_hit_cycles);
    if (e->level == MEM_LEVEL_DRAM)
        ready = max64(ready, dram_access(tm, e->addr, tm->sector_dram_ticks, t));
    return ready;
}

/* Lines of a load that need a new MSHR at cycle t: of its lines with a sector below the L1
 * (first_pass's below[0 .. n)), those with no fill of theirs in flight. */
static uint32_t new_miss_lines(timing_mem *tm, sm_state *st, const uint64_t *below, uint32_t n,
                               uint64_t t)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        inflight *f = sm_line(tm, st, below[i]);
        k += !(f->line == below[i] + 1 && f->ready > t);
    }
    return k;
}

/* The served sectors of a load, line by line: ready cycle of the last. L1 hits on a line whose
 * fill is in flight wait for it; a line sent below takes an MSHR until its data is back. */
WALK_INLINE uint64_t load_lines(timing_mem *tm, sm_state *st, walk *w, const mem_access *a,
                               int pow2)
{
    /* In locals: the stores of the walk (to the tables, through pointers) could otherwise be
     * stores to the record, which the compiler would read again after each. */
    const mem_served *sv = a->served;
    const uint32_t n = a->nserved;
    const uint64_t t0 = w->t0, l1_ready = t0 + tm->lat.l1_hit_cycles;
    uint64_t ready = t0;
    for (uint32_t i = 0; i < n;) {
        uint64_t line = sv[i].addr / LINE_BYTES, line_ready = 0;
        int below = 0;
        for (; i < n && sv[i].addr / LINE_BYTES == line; i++) {
            if (sv[i].level == MEM_LEVEL_L1) {
                line_ready = max64(line_ready, l1_ready);
            } else {
                line_ready = max64(line_ready, read_sector(tm, w, &sv[i], pow2));
                below = 1;
            }
        }
        inflight *f = sm_line(tm, st, line);
        int in_flight = f->line == line + 1 && f->ready > t0;
        if (in_flight)
            line_ready = max64(line_ready, f->ready);
        if (below && !in_flight)
            timing_mshr_push(&st->mshr, tm->mshrs, line_ready);
        if (below) {
            *f = (inflight){line + 1, line_ready};
            st->lines_used = 1;
        }
        ready = max64(ready, line_ready);
    }
    return ready;
}

/* Stores and atomics: every sector (an atomic: every lane's operation) is performed in turn. */
WALK_INLINE uint64_t write_lines(timing_mem *tm, walk *w, const mem_access *a)
{
    uint64_t ready = w->t0;
    for (uint32_t i = 0; i < a->nserved; i++) {
        const mem_served *e = &a->served[i];
        uint64_t r = e->level == MEM_LEVEL_L1 ? w->t0 + tm->lat.l1_hit_cycles
                                              : write_sector(tm, w, e);
        ready = max64(ready, r);
    }
    return ready;
}

/* ---- one access ---- */

/* The constant-cache part: one pass per distinct address, the L1.5 latency when a line
 * missed. */
static timing_mem_reply constant_part(timing_mem *tm, sm_state *st, uint64_t now,
                                      const mem_access *a)
{
    uint64_t passes = a->const_addresses ? a->const_addresses : 1;
    uint64_t start = max64(now, st->const_free);
    st->const_free = start + passes;
    uint32_t lat = a->const_misses ? tm->lat.constant_l15_hit_cycles
                                   : tm->lat.constant_l1_hit_cycles;
    return (timing_mem_reply){start, start + passes - 1 + lat, 0};
}

/* A load's first pass over its served sectors. Returns its DRAM bytes per fill block: its DRAM
 * reads spread over its distinct fill blocks; and in below[0 .. *nbelow) its lines with a sector
 * below the L1 (one entry per run of sectors of a line). On the way, host prefetches of what its lines
 * below the L1 will look up (the SM's state, MSHRs and table of lines in flight, the L2's
 * pending fills, the partition's copy): tables of a few MB in all, looked up at hashed or
 * scattered places, so each look-up would otherwise wait for the host's memory; issued before
 * the pipeline's slots are worked out, they overlap that and one another. */
WALK_INLINE uint32_t first_pass(timing_mem *tm, uint32_t sm, uint32_t part, const mem_access *a,
                                uint64_t *below, uint32_t *nbelow, int pow2)
{
    uint32_t nb = 0;
    uint64_t last = UINT64_MAX, last_block = 0;
    uint32_t blocks = 0;
    const mem_served *sv = a->served;
    const inflight *lines = tm->lines_all + (size_t)sm * (tm->inflight_mask + 1);
    __builtin_prefetch(&tm->sm[sm], 1);
    __builtin_prefetch(tm->mshr_all + (size_t)sm * tm->mshrs, 1);
    for (uint32_t i = 0, n = a->nserved; i < n; i++) {
        const mem_served *e = &sv[i];
        uint64_t line = e->addr / LINE_BYTES;
        if (e->level == MEM_LEVEL_DRAM) {
            uint64_t b = fill_block_of(tm, e->addr, pow2) + 1;
            blocks += b != last_block;
            last_block = b;
        }
        if (e->level == MEM_LEVEL_L1 || line == last)
            continue;
        last = line;
        below[nb++] = line;
        __builtin_prefetch(&lines[hash_line(line) & tm->inflight_mask], 1);
        uint64_t l2_line = l2_line_of(tm, e->addr, pow2);
        __builtin_prefetch(&tm->l2_pending[hash_line(l2_line) % L2_PENDING]);
        if (tm->partitions > 1)
            __builtin_prefetch(near_dir_set(&tm->near, part, l2_line), 1);
    }
    *nbelow = nb;
    if (!blocks || !a->dram_read_bytes)
        return tm->dram_fill_bytes;
    return (a->dram_read_bytes + blocks - 1) / blocks;
}

/* The part through the L1/shared pipeline and below; pow2: tm->shifts, a constant in each of
 * the two builds below. */
WALK_INLINE timing_mem_reply pipe_part(timing_mem *tm, uint32_t sm, uint64_t now,
                                       const mem_access *a, int pow2, int load)
{
    uint32_t part = tm->sm_part[sm];
    /* The fill blocks matter to loads only (write_sector's DRAM writes are one sector each);
     * a load whose levels (mem.h: a bit for each served entry's) are all the L1's or outside
     * the cached spaces has no sector below the L1 for the pass to find. */
    const unsigned above = (1u << MEM_LEVEL_L1) | (1u << MEM_LEVEL_SHARED) |
                           (1u << MEM_LEVEL_CONSTANT);
    uint64_t below[MEM_MAX_SERVED];
    uint32_t nbelow = 0;
    uint32_t fill_bytes = tm->dram_fill_bytes;
    if (load && (a->levels & ~above))
        fill_bytes = first_pass(tm, sm, part, a, below, &nbelow, pow2);
    sm_state *st = &tm->sm[sm];
    uint64_t T = tm->tag_rate, slots = pipe_slots(tm, a, pow2);
    uint64_t start = max64(now * T, st->pipe_free);
    if (load && a->nserved) {
        uint64_t at = slot_cycle(tm, start, pow2);
        uint32_t k = new_miss_lines(tm, st, below, nbelow, at);
        start = max64(start, mshr_wait(tm, st, k, at) * T);
    }
    st->pipe_free = start + slots;
    uint64_t accept = slot_cycle(tm, start, pow2);
    timing_mem_reply r = {accept, accept, 0};
    walk w = {.sm = sm,
              .t0 = slot_cycle(tm, start + slots - 1, pow2),
              .fill_ticks = fill_bytes == tm->dram_fill_bytes ? tm->fill_ticks
                                                               : dram_ticks(tm, fill_bytes),
              .part = part};
    if (a->shared_wavefronts)
        r.ready = r.accept + tm->lat.shared_load_cycles +
                  (uint64_t)tm->lat.shared_conflict_step_cycles * (a->shared_wavefronts - 1u);
    if (a->l1_tags || a->nserved) {
        r.long_latency = 1;
        uint64_t done = load ? load_lines(tm, st, &w, a, pow2) : write_lines(tm, &w, a);
        r.ready = max64(r.ready, done);
        dram_writebacks(tm, a->dram_write_bytes, w.t0);
    }
    return r;
}

static __attribute__((noinline)) timing_mem_reply pipe_part_pow2(timing_mem *tm, uint32_t sm,
                                                                 uint64_t now, const mem_access *a)
{
    return pipe_part(tm, sm, now, a, 1, a->op == MEM_OP_LOAD);
}

static __attribute__((noinline)) timing_mem_reply pipe_part_any(timing_mem *tm, uint32_t sm,
                                                                uint64_t now, const mem_access *a)
{
    return pipe_part(tm, sm, now, a, 0, a->op == MEM_OP_LOAD);
}

/* Whether `a` has only a shared-memory part (the common case of tiled kernels): a load, store
 * or atomic whose lanes all went to shared memory. One test of the fields OR-ed. (So does
 * timing_mem_on_access, with the constant-only case beside it.) */
static inline int shared_only(const mem_access *a)
{
    return a->shared_wavefronts && a->op < MEM_OP_CACHE_CONTROL &&
           !(a->l1_tags | a->nserved | a->const_lookups | a->const_addresses);
}

/* The reply to a shared-only access (pipe_part's shared part): the pipeline for its wavefronts,
 * then the shared latency with a step per extra wavefront. */
static inline timing_mem_reply shared_reply(timing_mem *tm, uint32_t sm, uint64_t now,
                                            uint32_t wavefronts)
{
    sm_state *st = &tm->sm[sm];
    uint64_t T = tm->tag_rate;
    uint64_t start = max64(now * T, st->pipe_free);
    st->pipe_free = start + wavefronts * T; /* wavefronts >= 1 (shared_only): at least T */
    /* A shift where the rate allows: a division's latency per shared load otherwise. */
    uint64_t accept = tm->tag_shift >= 0 ? start >> tm->tag_shift : start / T;
    /* shared_load_cycles + step x (wavefronts - 1), as shared_base + step x wavefronts (the
     * same sum modulo 2^64, where shared_base may wrap) */
    return (timing_mem_reply){
        accept, accept + tm->shared_base + (uint64_t)tm->lat.shared_conflict_step_cycles * wavefronts,
        0};
}

/* The reply to an access other than a fence or a shared-only one, from SM `sm` < sm_count. */
static inline timing_mem_reply other_reply(timing_mem *tm, uint32_t sm, uint64_t now,
                                           const mem_access *a)
{
    timing_mem_reply r = {now, now, 0};
    if (a->op == MEM_OP_CACHE_CONTROL) {
        sm_state *st = &tm->sm[sm];
        uint64_t start = max64(now * tm->tag_rate, st->pipe_free);
        st->pipe_free = start + tm->tag_rate;
        r.accept = start / tm->tag_rate;
        r.ready = r.accept + 1;
        return r;
    }
    int piped = a->shared_wavefronts || a->l1_tags || a->nserved;
    if (a->const_lookups || a->const_addresses) {
        r = constant_part(tm, &tm->sm[sm], now, a);
        if (!piped)
            return r;
    }
    if (piped) {
        timing_mem_reply p = tm->shifts ? pipe_part_pow2(tm, sm, now, a)
                                        : pipe_part_any(tm, sm, now, a);
        r.accept = max64(r.accept, p.accept);
        r.ready = max64(r.ready, p.ready);
        r.long_latency = p.long_latency;
    }
    return r;
}

static inline timing_mem_reply access_reply(timing_mem *tm, uint32_t sm, uint64_t now,
                                            const mem_access *a)
{
    if (!tm || !a || a->op == MEM_OP_FENCE)
        return (timing_mem_reply){now, now, 0};
    if (sm >= tm->sm_count) /* callers pass an SM of the GPU: no division */
        sm %= tm->sm_count;
    if (shared_only(a))
        return shared_reply(tm, sm, now, a->shared_wavefronts);
    return other_reply(tm, sm, now, a);
}

timing_mem_reply timing_mem_access(timing_mem *tm, uint32_t sm, uint64_t now, const mem_access *a)
{
    return access_reply(tm, sm, now, a);
}

/* Adds reply r to the instruction's. */
static inline void issue_add(timing_mem_issue *is, timing_mem_reply r)
{
    if (r.accept > is->accept)
        is->accept = r.accept;
    if (r.ready > is->ready)
        is->ready = r.ready;
    is->long_latency |= r.long_latency;
}

/* timing_mem_on_access for an access with more than one part, with a global or local part, a
 * cache control, a fence (or a NULL model or record), out of line: the one-part cases stay a
 * leaf without this one's saved registers. */
static __attribute__((noinline)) void on_access_other(const mem_access *a,
                                                      timing_mem_issue *is)
{
    timing_mem *tm = is->tm;
    uint32_t sm = is->sm;
    if (!tm || !a || a->op == MEM_OP_FENCE) {
        issue_add(is, (timing_mem_reply){is->at, is->at, 0});
        return;
    }
    if (sm >= tm->sm_count)
        sm %= tm->sm_count;
    issue_add(is, other_reply(tm, sm, is->at, a));
}

/* timing_mem_on_access for an access with a global or local part only (a load, store or
 * atomic; no shared or constant part) on a model with power-of-two sizes and rates (the
 * presets'): other_reply's answer is pipe_part's then (its accept and ready are at least now),
 * here with the walk inlined, one call and no reply through memory; loads and the others
 * apart, so that a store's walk carries none of the load's registers. */
static __attribute__((noinline)) void on_access_global_load(const mem_access *a,
                                                            timing_mem_issue *is)
{
    timing_mem *tm = is->tm;
    uint32_t sm = is->sm < tm->sm_count ? is->sm : is->sm % tm->sm_count;
    issue_add(is, pipe_part(tm, sm, is->at, a, 1, 1));
}

static __attribute__((noinline)) void on_access_global_write(const mem_access *a,
                                                             timing_mem_issue *is)
{
    timing_mem *tm = is->tm;
    uint32_t sm = is->sm < tm->sm_count ? is->sm : is->sm % tm->sm_count;
    issue_add(is, pipe_part(tm, sm, is->at, a, 1, 0));
}

/* timing_mem_on_access past the shared-only case, out of line (its tests, inlined, cost the
 * shared case registers): the constant cache only (every parameter load), a global or local
 * part only, then the rest in access_reply's order, a fence first. */
static __attribute__((noinline)) void on_access_rest(const mem_access *a, timing_mem_issue *is)
{
    timing_mem *tm = is->tm;
    if (a && tm && a->op < MEM_OP_CACHE_CONTROL && (a->const_lookups | a->const_addresses) &&
        !(a->shared_wavefronts | a->l1_tags | a->nserved)) {
        uint32_t sm = is->sm < tm->sm_count ? is->sm : is->sm % tm->sm_count;
        issue_add(is, constant_part(tm, &tm->sm[sm], is->at, a));
        return;
    }
    if (a && tm && a->op < MEM_OP_CACHE_CONTROL && tm->shifts && (a->l1_tags | a->nserved) &&
        !(a->shared_wavefronts | a->const_lookups | a->const_addresses)) {
        if (a->op == MEM_OP_LOAD)
            on_access_global_load(a, is);
        else
            on_access_global_write(a, is);
        return;
    }
    on_access_other(a, is);
}

void timing_mem_on_access(const mem_access *a, void *user)
{
    timing_mem_issue *is = user;
    timing_mem *tm = is->tm;
    is->naccess++;
    /* Accesses with one part only first, in the fewest steps, as access_reply answers them:
     * shared memory here (every shared load of a tiled kernel), the others in on_access_rest. */
    if (a && tm && shared_only(a)) {
        uint32_t sm = is->sm < tm->sm_count ? is->sm : is->sm % tm->sm_count;
        issue_add(is, shared_reply(tm, sm, is->at, a->shared_wavefronts));
        return;
    }
    on_access_rest(a, is);
}
