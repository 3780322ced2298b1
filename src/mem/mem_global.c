/* mem_global_warp (mem_global.h): a warp's global load or store in a few runs of contiguous
 * lanes without the general path's steps. What it replaces, and must equal, is memsys.c's
 * access() (the per-lane bounds scan and the request), mem_coalesce.c's requests for such
 * lanes (coalesce_block, coalesce_two_runs, the strided and per-lane loops: one line request
 * per line touched, in ascending order, with its sectors, byte bits and, for a store, byte
 * mask and data) and mem_hier.c's hier_global_local for lines of the global kind (each line
 * through the SM's L1 by the hit path, the miss path or the general read, or the line store,
 * then the served sectors by hier_report_levels). The lines are the memory system's own line
 * requests (memsys.reqs), so that the adapters between the levels, which record the levels of
 * the line in progress (mem_request.line), work for them unchanged. */
#include "mem/mem_global.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/bits.h"
#include "mem/mem_hints.h"
#include "mem/memsys_internal.h"

/* Whether a global load (store: a store) with attributes `a` takes the path that the direct
 * path repeats: for a load, hier_global_local's lines of a kind that may hit in L1
 * (l1_hit_kinds and global_load_bypasses_l1 in mem_hier.c: no bypass, no volatile read, no
 * strong read wider than the CTA, cached at L1 on this GPU or by its own attribute, no LSC
 * control, no fill wider than a line); for a store, store_line's write through the L1 (no L1
 * bypass). Neither may be a surface access or carry the uniform hint, and --strip-hints
 * (whose attributes are a copy) is left to access(). The miss path records the L2's levels
 * sector by sector only when the L1 and L2 sectors are one size. */
static int attrs_covered(const memsys *ms, const ir_mem_attrs *a, int store)
{
    if (a->uniform || a->image_dim != IR_IMAGE_NONE || a->l1_ctl != IR_CC_DEFAULT ||
        a->l2_ctl != IR_CC_DEFAULT || ms->strip_hints ||
        ms->l1_sector_shift != ms->l2_sector_shift)
        return 0;
    if (store)
        return a->write_mode != IR_WRITE_BYPASS_L1;
    if ((a->l1 & (IR_L1_BYPASS | IR_L1_INVALIDATE)) || a->sem == IR_SEM_VOLATILE ||
        a->sem == IR_SEM_MMIO || a->fill_bytes > ms->line_bytes)
        return 0;
    if ((a->sem == IR_SEM_RELAXED || a->sem == IR_SEM_ACQUIRE || a->sem == IR_SEM_SC) &&
        a->scope != IR_SCOPE_CTA)
        return 0;
    return ms->cfg.l1.cache_global_loads || (a->l1 & (IR_L1_ALLOCATE | IR_L1_READ_ONLY));
}

/* Where a warp's runs of lanes lie: run r is count[r] active lanes from lane[r] on, the first
 * of them at base[r], each next lane `bytes` further on. */
enum { MAX_RUNS = 4 };
typedef struct warp_runs {
    uint32_t runs;
    uint32_t lane[MAX_RUNS], count[MAX_RUNS];
    uint64_t base[MAX_RUNS];
} warp_runs;

/* Bit l (1 to 31) set when lane l's address is `bytes` above lane l - 1's: where a run of
 * lanes goes on. */
static inline __attribute__((always_inline)) uint32_t steps_plain(const uint64_t *a,
                                                                  uint64_t bytes)
{
    uint32_t steps = 0;
    for (uint32_t l = 1; l < MEM_LANES; l++) steps |= (uint32_t)(a[l] - a[l - 1] == bytes) << l;
    return steps;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define GLOBAL_AVX2 1
#include <immintrin.h>
/* steps_plain four lanes at a time, for hosts with AVX2 (memsys.host_avx2). */
__attribute__((target("avx2"))) static uint32_t steps_avx2(const uint64_t *a, uint64_t bytes)
{
    const __m256i step = _mm256_set1_epi64x((long long)bytes);
    uint32_t steps = 0;
    /* lanes l + 1 .. l + 4 against l .. l + 3; the last pass (l = 27) repeats lane 28 */
#pragma GCC unroll 8
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t l = i < 7 ? 4 * i : 27;
        __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)&a[l + 1]);
        __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)&a[l]);
        __m256i eq = _mm256_cmpeq_epi64(_mm256_sub_epi64(hi, lo), step);
        steps |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(eq)) << (l + 1);
    }
    return steps;
}
#endif

/* Splits the active lanes of acc into runs of lanes one after another in memory (`bytes` a
 * lane, a power of two) and returns whether the warp is a shape the direct path takes: at most
 * MAX_RUNS runs (a run: consecutive active lanes, each `bytes` above the one before), each
 * starting aligned to `bytes` on a line above the previous run's last line, none wrapping
 * around, and all of them inside one allocation. Then every lane is global and in bounds
 * (access()'s checks), and the coalescer's requests, one per line in the order the lanes first
 * touch them, are the runs' lines one after the other (coalesce_block's for one run,
 * coalesce_two_runs' for two, the strided or per-lane loops' for others, which find each new
 * line above all before it). */
static int find_runs(memsys *ms, const mem_access *acc, uint32_t bytes, warp_runs *w)
{
    const uint64_t *a = acc->addr;
    uint32_t active = acc->active;
#ifdef GLOBAL_AVX2
    uint32_t steps = ms->host_avx2 ? steps_avx2(a, bytes) : steps_plain(a, bytes);
#else
    uint32_t steps = steps_plain(a, bytes);
#endif
    uint32_t goes_on = steps & active & (active << 1); /* lane l continues lane l - 1's run */
    uint64_t line_mask = ~(uint64_t)(ms->line_bytes - 1), end = 0;
    w->runs = 0;
    for (uint32_t starts = active & ~goes_on; starts; starts &= starts - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(starts);
        uint32_t count = l == MEM_LANES - 1 ? 1 : 1 + (uint32_t)__builtin_ctz(~(goes_on >> (l + 1)));
        uint64_t base = a[l];
        if (w->runs == MAX_RUNS || (base & (bytes - 1)) ||
            base > UINT64_MAX - (uint64_t)count * bytes ||
            (w->runs && (base & line_mask) <= ((end - 1) & line_mask)))
            return 0;
        w->lane[w->runs] = l;
        w->count[w->runs] = count;
        w->base[w->runs++] = base;
        end = base + (uint64_t)count * bytes;
    }
    if (!w->runs)
        return 0;
    uint64_t first = w->base[0], total = end - first;
    if (ms->nallocs) { /* the allocation of the last look-up first, as find_allocation */
        const allocation *al = &ms->allocs[ms->last_hit];
        if (first >= al->base && first - al->base + total <= al->bytes)
            return 1;
    }
    return mem_find_allocation(ms, first, total) >= 0;
}

/* The lanes of one line request: `count` lanes from `lane` on, the first at byte `off`. */
typedef struct line_lanes {
    uint8_t lane, count;
    uint16_t off;
    uint8_t level; /* for the served records: the level of every sector of the line, or 0
                      (line_req.line_level L1, else line_req.level[] per sector) */
} line_lanes;

/* The line requests of the runs (contiguous_lines' requests for each run in turn: one per
 * line, ascending, with the L1 sectors and byte bits of the bytes touched and, for a store
 * (`store`), its byte mask: 1 for each stored byte, 0 elsewhere), and each line's lanes in
 * ll[]. Returns how many lines. */
static uint32_t run_lines(memsys *ms, const warp_runs *w, uint32_t bytes, int store,
                          line_lanes *ll)
{
    uint64_t line_mask = ms->line_bytes - 1;
    if (w->runs == 1 && w->count[0] * bytes == ms->line_bytes && !(w->base[0] & line_mask)) {
        /* one whole line (a warp of words on 128-byte lines): every sector and byte */
        line_req *r = &ms->reqs[0];
        r->line_addr = w->base[0];
        r->kind = LINE_KIND_GLOBAL;
        r->line_level = MEM_LEVEL_NONE;
        r->sectors = bit_span(0, ms->line_bytes >> ms->l1_sector_shift);
        for (uint32_t q = 0; q < LINE_BYTES_MAX / 64; q++)
            r->byte_bits[q] = q * 64 >= ms->line_bytes        ? 0
                              : ms->line_bytes - q * 64 >= 64 ? UINT64_MAX
                                                              : bit_span(0, ms->line_bytes - q * 64);
        if (store)
            memset(r->mask, 1, ms->line_bytes);
        ll[0] = (line_lanes){(uint8_t)w->lane[0], (uint8_t)w->count[0], 0, 0};
        return 1;
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < w->runs; k++) {
        uint64_t base = w->base[k], end = base + (uint64_t)w->count[k] * bytes;
        for (uint64_t at = base; at < end; n++) {
            uint64_t line_addr = at & ~line_mask;
            uint64_t stop = end - line_addr < ms->line_bytes ? end : line_addr + ms->line_bytes;
            uint32_t off = (uint32_t)(at - line_addr), len = (uint32_t)(stop - at);
            line_req *r = &ms->reqs[n];
            r->line_addr = line_addr;
            r->kind = LINE_KIND_GLOBAL;
            r->line_level = MEM_LEVEL_NONE;
            unsigned s0 = off >> ms->l1_sector_shift, s1 = (off + len - 1) >> ms->l1_sector_shift;
            r->sectors = bit_span(s0, s1 - s0 + 1);
            for (uint32_t q = 0; q < LINE_BYTES_MAX / 64; q++) {
                uint32_t lo = q * 64 > off ? q * 64 : off;
                uint32_t hi = (q + 1) * 64 < off + len ? (q + 1) * 64 : off + len;
                r->byte_bits[q] = hi > lo ? bit_span(lo - q * 64, hi - lo) : 0;
            }
            if (store) {
                if (len != ms->line_bytes)
                    memset(r->mask, 0, ms->line_bytes);
                memset(r->mask + off, 1, len);
            }
            ll[n] = (line_lanes){(uint8_t)(w->lane[k] + (at - base) / bytes),
                                 (uint8_t)(len / bytes), (uint16_t)off, 0};
            at = stop;
        }
    }
    return n;
}

/* `count` lanes' bytes from `lane` on between line data `d` and the lanes (`to_lines`: a
 * store's, into the line): from in[] or to regs[] (one 4- or 8-byte element a lane,
 * zero-extended when loaded) when not NULL, else acc->data. Inline, so that the common count
 * of 32 lanes (a line of words) becomes loops of a fixed length. */
static inline __attribute__((always_inline)) void
move_line_lanes(uint8_t *d, mem_access *acc, uint32_t bytes, uint32_t lane, uint32_t count,
                uint64_t *regs, const uint64_t *in, int to_lines)
{
    if (to_lines && in && bytes == 4) {
        for (uint32_t j = 0; j < count; j++) {
            uint32_t v = (uint32_t)in[lane + j];
            memcpy(d + 4 * j, &v, 4);
        }
    } else if (to_lines && in) {
        memcpy(d, in + lane, (size_t)count * 8);
    } else if (to_lines) {
        for (uint32_t j = 0; j < count; j++) memcpy(d + j * bytes, acc->data[lane + j], bytes);
    } else if (regs && bytes == 4) {
        for (uint32_t j = 0; j < count; j++) {
            uint32_t v;
            memcpy(&v, d + 4 * j, 4);
            regs[lane + j] = v;
        }
    } else if (regs) {
        memcpy(regs + lane, d, (size_t)count * 8);
    } else {
        for (uint32_t j = 0; j < count; j++) memcpy(acc->data[lane + j], d + j * bytes, bytes);
    }
}

#ifdef GLOBAL_AVX2
/* move_line_lanes of a whole warp's 4-byte lanes in one line and a register array, for hosts
 * with AVX2: a load widens the words into regs[] (in NULL), a store narrows in[] into the line
 * (regs NULL). */
__attribute__((target("avx2"))) static void words_avx2(uint8_t *d, uint64_t *regs,
                                                       const uint64_t *in)
{
    if (in) {
        const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        for (uint32_t l = 0; l < MEM_LANES; l += 4) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)&in[l]);
            _mm_storeu_si128((__m128i *)(void *)(d + 4 * l),
                             _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, low)));
        }
        return;
    }
    for (uint32_t l = 0; l < MEM_LANES; l += 4)
        _mm256_storeu_si256((__m256i *)(void *)&regs[l],
                            _mm256_cvtepu32_epi64(
                                _mm_loadu_si128((const __m128i *)(const void *)(d + 4 * l))));
}
#endif

/* The lanes' bytes between the n line requests' data (their lanes in ll[]) and the lanes, as
 * move_line_lanes. */
static void move_lanes(memsys *ms, mem_access *acc, uint32_t bytes, uint32_t n,
                       const line_lanes *ll, uint64_t *regs, const uint64_t *in, int to_lines)
{
    if (n == 1 && bytes == 4 && ll[0].count == MEM_LANES) { /* a line of a warp's words */
#ifdef GLOBAL_AVX2
        if (ms->host_avx2 && (regs || in)) {
            words_avx2(ms->reqs[0].data + ll[0].off, regs, in);
            return;
        }
#endif
        move_line_lanes(ms->reqs[0].data + ll[0].off, acc, 4, 0, MEM_LANES, regs, in, to_lines);
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        move_line_lanes(ms->reqs[i].data + ll[i].off, acc, bytes, ll[i].lane, ll[i].count, regs,
                        in, to_lines);
}

/* A line of a load whose requested sectors all hit in L1 (read_lines_hit for one line). */
static int read_hit(cache *l1, mem_counters *c, line_req *r, uint8_t alloc, int first)
{
    uint32_t runs;
    if (!cache_read_hit(l1, r->line_addr, r->sectors, alloc, r->data, &runs))
        return 0;
    uint64_t k = bits_popcount64(r->sectors);
    r->line_level = MEM_LEVEL_L1;
    c->l1.sector_accesses += k;
    c->l1.sector_hits += k;
    c->lsu.global_load_requests += (uint64_t)first;
    c->lsu.global_load_sectors += k;
    c->lsu.global_load_sector_hits += k;
    return 1;
}

/* A line of a load by cache_read_line_miss, counted and its levels recorded as
 * read_missed_line does (L1 and L2 sectors of one size): in *level when one level served every
 * sector of an absent line, else in r->level[]. *taken: whether it took the line. */
static mem_status read_miss(memsys *ms, mem_request *rq, cache *l1, line_req *r,
                            const cache_hints *h1, int results, uint8_t *level, bool *taken)
{
    cache_result res, res2;
    rq->l2.request = rq;
    uint32_t l2_set = CACHE_SET_UNKNOWN;
    mem_status st = cache_read_line_miss(l1, ms->l2, r->line_addr, r->sectors, h1, &rq->l2,
                                         r->data, &res, &res2, &l2_set, taken);
    if (!*taken)
        return st;
    hier_count_l2(rq, &res2);
    uint64_t from_l2 = res2.hit_sectors & r->sectors;
    if (results && !res.hit_sectors && (!from_l2 || from_l2 == r->sectors)) {
        *level = from_l2 ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM;
        results = 0;
    }
    for (uint64_t m = results ? r->sectors & ~res.hit_sectors : 0; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        r->level[s] = (res2.hit_sectors >> s) & 1 ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM;
    }
    for (uint64_t hit = results ? res.hit_sectors : 0; hit; hit &= hit - 1)
        r->level[__builtin_ctzll(hit)] = MEM_LEVEL_L1;
    hier_count_l1(rq, &res);
    return st;
}

/* A line neither path took (load_line without bypass): cache_read of each run of sectors, the
 * L2's levels recorded by the L1's next-level adapter for rq->line, the L1's hits here. */
static mem_status read_runs(memsys *ms, mem_request *rq, cache *l1, line_req *r,
                            const cache_hints *h1)
{
    unsigned shift = ms->l1_sector_shift;
    for (uint64_t unread = r->sectors; unread;) {
        unsigned s = (unsigned)__builtin_ctzll(unread);
        uint64_t run = ~(unread >> s);
        unsigned count = run == 0 ? 64 : (unsigned)__builtin_ctzll(run);
        unread &= ~bit_span(s, count);
        mem_status st = hier_l1_read_run(l1, rq, r, r->line_addr + ((uint64_t)s << shift),
                                         count << shift, r->data + (s << shift), h1);
        if (st != MEM_OK)
            return st;
    }
    return MEM_OK;
}

/* Whether attributes a and b are equal byte for byte, inline: two overlapping 16-byte
 * compares where they take 17 to 32 bytes (the memcmp call cost more than the compare). */
static inline int attrs_same(const ir_mem_attrs *a, const ir_mem_attrs *b)
{
#ifdef __SSE2__
    if (sizeof *a > 16 && sizeof *a <= 32) {
        const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
        const size_t tail = sizeof *a - 16;
        __m128i d0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)x),
                                   _mm_loadu_si128((const __m128i *)(const void *)y));
        __m128i d1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(x + tail)),
                                   _mm_loadu_si128((const __m128i *)(const void *)(y + tail)));
        return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(d0, d1), _mm_setzero_si128())) ==
               0xFFFF;
    }
#endif
    return !memcmp(a, b, sizeof *a);
}

/* The L2 hints of line r for rq: set for the first line that needs them, and again for each
 * line when they depend on its address (a policy descriptor or an access-policy window), as
 * hier_global_local sets them. Those that do not are kept (memsys.global_hints) for the next
 * access with the same attributes. */
static inline void l2_hints(memsys *ms, mem_request *rq, const mem_access *acc, const line_req *r,
                            int *set)
{
    const ir_mem_attrs *a = acc->attrs;
    if (a->has_policy || ms->window.bytes) {
        hier_set_l2_hints(ms, rq, LINE_KIND_GLOBAL, r->line_addr, acc->policy);
        return;
    }
    if (*set)
        return;
    *set = 1;
    if (ms->global_hint_valid && attrs_same(&ms->global_hint_key, a)) {
        rq->l2 = ms->global_hints;
        rq->l2.request = rq;
        return;
    }
    hier_set_l2_hints(ms, rq, LINE_KIND_GLOBAL, r->line_addr, acc->policy);
    ms->global_hint_key = *a;
    ms->global_hints = rq->l2;
    ms->global_hint_valid = 1;
}

/* The lines of a load through the L1 in order, each by the hit path, the miss path or the
 * general read, counted as hier_global_local counts them. After a line the miss path took,
 * the next one tries it first, as hier_global_local does; the first line tries it first when
 * the previous direct load's first line missed. Which one is tried first changes nothing but
 * host time: at most one of them takes a line, and a refusal changes nothing. */
static mem_status load_lines(memsys *ms, mem_request *rq, const mem_access *acc, cache *l1,
                             uint32_t n, int results, line_lanes *ll)
{
    const ir_mem_attrs *a = acc->attrs;
    mem_counters *c = rq->counters;
    cache_hints h1 = {.alloc = l1_alloc_for(a, 0), .request = rq,
                      .kind = (a->l1 & IR_L1_READ_ONLY) ? LINE_KIND_GLOBAL_READ_ONLY
                                                         : LINE_KIND_GLOBAL};
    int hints_set = 0;
    bool missed = ms->global_first_missed;
    for (uint32_t i = 0; i < n; i++) {
        line_req *r = &ms->reqs[i];
        int hit_tried = !missed;
        if (hit_tried && read_hit(l1, c, r, h1.alloc, i == 0))
            continue;
        rq->line = r;
        l2_hints(ms, rq, acc, r, &hints_set);
        uint64_t sectors0 = c->l1.sector_accesses, hits0 = c->l1.sector_hits;
        mem_status st = read_miss(ms, rq, l1, r, &h1, results, &ll[i].level, &missed);
        if (i == 0)
            ms->global_first_missed = missed;
        if (!missed) {
            if (!hit_tried && read_hit(l1, c, r, h1.alloc, i == 0))
                continue;
            st = read_runs(ms, rq, l1, r, &h1);
        }
        if (st != MEM_OK)
            return st;
        count_lsu_global(c, 0, i == 0, sectors0, hits0);
    }
    return MEM_OK;
}

/* The lines of a store through the L1 in order (store_line of a global line that does not
 * bypass the L1: the sectors' level L1 unless a level below records another as the store
 * writes through to it). */
static mem_status store_lines(memsys *ms, mem_request *rq, const mem_access *acc, cache *l1,
                              uint32_t n, int results)
{
    const ir_mem_attrs *a = acc->attrs;
    mem_counters *c = rq->counters;
    cache_hints h1 = {
        .alloc = ms->cfg.l1.global_store_allocate ? l1_alloc_for(a, 1) : CACHE_ALLOC_NONE,
        .write_mode = cache_write_mode_of(a),
        .kind = LINE_KIND_GLOBAL,
        .request = rq,
    };
    int hints_set = 0;
    for (uint32_t i = 0; i < n; i++) {
        line_req *r = &ms->reqs[i];
        rq->line = r;
        l2_hints(ms, rq, acc, r, &hints_set);
        hier_note_l1_store(ms, r->line_addr, &h1);
        uint64_t sectors0 = c->l1.sector_accesses, hits0 = c->l1.sector_hits;
        for (uint64_t s = results ? r->sectors : 0; s; s &= s - 1)
            r->level[__builtin_ctzll(s)] = MEM_LEVEL_L1;
        cache_result res;
        mem_status st = cache_write_line_bits(l1, r->line_addr, r->data, r->mask, r->byte_bits,
                                              &h1, &res);
        hier_count_l1(rq, &res);
        if (st != MEM_OK)
            return st;
        count_lsu_global(c, 1, i == 0, sectors0, hits0);
    }
    return MEM_OK;
}

/* Every touched sector of the n lines with the level that served it, and the levels
 * (hier_report_levels: a line whose sectors all hit by the hit path is L1 throughout; the
 * others' entries from the first one served below the L1 on carry the line's L2 slice). A line
 * one level served throughout (ll[].level) takes a loop without the per-sector look-ups. */
static void report_sectors(memsys *ms, mem_access *acc, uint32_t n, const line_lanes *ll)
{
    uint32_t count = 0, levels = 0;
    unsigned shift = ms->l1_sector_shift;
    for (uint32_t i = 0; i < n; i++) {
        const line_req *r = &ms->reqs[i];
        uint8_t one = r->line_level == MEM_LEVEL_L1 ? MEM_LEVEL_L1 : ll[i].level;
        if (one && count + (uint32_t)bits_popcount64(r->sectors) <= MEM_MAX_SERVED) {
            uint16_t slice = one == MEM_LEVEL_L1 ? 0 : (uint16_t)cache_slice_of(ms->l2, r->line_addr);
            for (uint64_t s = r->sectors; s; s &= s - 1)
                acc->served[count++] = (mem_served){
                    r->line_addr + ((uint64_t)__builtin_ctzll(s) << shift), one, slice};
            levels |= 1u << one;
            continue;
        }
        int32_t slice = -1;
        for (uint64_t s = r->sectors; s && count < MEM_MAX_SERVED; s &= s - 1) {
            unsigned k = (unsigned)__builtin_ctzll(s);
            uint8_t lv = one ? one : r->level[k];
            if (lv != MEM_LEVEL_L1 && slice < 0)
                slice = (int32_t)cache_slice_of(ms->l2, r->line_addr);
            acc->served[count++] = (mem_served){r->line_addr + ((uint64_t)k << shift), lv,
                                                (uint16_t)(slice < 0 ? 0 : slice)};
            levels |= 1u << lv;
        }
    }
    acc->nserved = count;
    acc->levels = (uint8_t)levels;
}

/* In MEM_GLOBAL_IF_LOCAL: whether every line is held in the L1 with its sectors valid; then
 * reads them all by the hit path (read_lines_hit with the slots lines_in_l1 found). */
static int read_held(memsys *ms, mem_request *rq, const mem_access *acc, cache *l1, uint32_t n)
{
    uint32_t held[LINE_SCRATCH];
    const line_req *r = ms->reqs;
    if (cache_lines_held(l1, n, &r->line_addr, &r->sectors, sizeof *r, held) != n)
        return 0;
    uint64_t k;
    cache_read_hits(l1, n, &r->line_addr, &r->sectors, ms->reqs[0].data, sizeof *r,
                    l1_alloc_for(acc->attrs, 0), held, &k);
    for (uint32_t i = 0; i < n; i++) ms->reqs[i].line_level = MEM_LEVEL_L1;
    mem_counters *c = rq->counters;
    c->l1.sector_accesses += k;
    c->l1.sector_hits += k;
    c->lsu.global_load_requests++;
    c->lsu.global_load_sectors += k;
    c->lsu.global_load_sector_hits += k;
    return 1;
}

/* The results access() clears before an access of acc's kind, and the fault's kind. */
static void clear_results(mem_access *acc, mem_fault *fault)
{
    fault->kind = MEM_FAULT_NONE;
    memsys_clear_results(acc);
}

int mem_global_warp(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_global_mode mode,
                    int results, uint64_t *out, const uint64_t *in, mem_fault *fault)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    int store = acc->op == MEM_OP_STORE;
    if (acc->op > MEM_OP_STORE ||
        (acc->space != IR_SPACE_GLOBAL && acc->space != IR_SPACE_GENERIC) ||
        bytes > 16 || !((0x10110u >> bytes) & 1u) || bytes > ms->line_bytes)
        return 1;
    if ((out || in) && ((out ? in || store : !store) || acc->vec != 1 || (bytes != 4 && bytes != 8)))
        return 1;
    warp_runs runs;
    if (!attrs_covered(ms, acc->attrs, store) || !find_runs(ms, acc, bytes, &runs))
        return 1;
    if (mode == MEM_GLOBAL_IF_LOCAL && store) {
        ms->lead_acc = NULL;
        return 2;
    }
    cache *l1 = ms->l1[ctx->sm];
    line_lanes ll[MAX_RUNS * (MEM_LANES + 1)]; /* a run of 32 lanes touches 32 lines at most */
    uint32_t n = run_lines(ms, &runs, bytes, store, ll);
    mem_request rq = { /* cached_part's */
        .attrs = acc->attrs,
        .log = mode == MEM_GLOBAL_DEFERRED ? ctx->store_log : NULL,
        .insn_id = acc->insn_id,
        .sm = ctx->sm,
        .time = acc->time,
        .counters = acc->insn_id < ms->ninsns ? &ms->per_insn[acc->insn_id] : &ms->unattributed,
    };
    ms->lead_acc = NULL; /* as access() forgets memsys_load_parks's answer */
    int held = 0;
    if (mode == MEM_GLOBAL_IF_LOCAL && !(held = read_held(ms, &rq, acc, l1, n))) {
        clear_results(acc, fault); /* as access() leaves a load it parks */
        return 2;
    }
    uint64_t read0 = rq.counters->dram.read_bytes, write0 = rq.counters->dram.write_bytes;
    rq.counters->l1.requests++;
    mem_status st = MEM_OK;
    if (store) {
        move_lanes(ms, acc, bytes, n, ll, NULL, in, 1);
        st = store_lines(ms, &rq, acc, l1, n, results);
    } else if (!held) {
        st = load_lines(ms, &rq, acc, l1, n, results, ll);
    }
    if (results || st != MEM_OK) {
        clear_results(acc, fault);
        acc->l1_tags = (uint16_t)n;
        acc->dram_read_bytes = (uint32_t)(rq.counters->dram.read_bytes - read0);
        acc->dram_write_bytes = (uint32_t)(rq.counters->dram.write_bytes - write0);
    }
    if (st != MEM_OK)
        return mem_fail(fault, MEM_FAULT_NOMEM, 0, acc->addr[0], bytes, IR_SPACE_GLOBAL,
                        "the backing store could not grow");
    if (!store)
        move_lanes(ms, acc, bytes, n, ll, out, NULL, 0);
    if (results)
        report_sectors(ms, acc, n, ll);
    return 0;
}
