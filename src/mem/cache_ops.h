/* Private to the cache module's access files (cache.c: reads, fills, allocation; cache_hits.c:
 * the warp's hit paths; cache_write.c: the store path; cache_control.c: line and whole-cache
 * operations): the small helpers they inline (bit ranges, byte bitmaps, the
 * set index and the look-up, recency, hint and range checks, sector counts) and the few
 * functions of cache.c the store path calls. Nothing here is part of the cache's interface
 * (cache.h). */
#ifndef GMS_MEM_CACHE_OPS_H
#define GMS_MEM_CACHE_OPS_H

#include <assert.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/bits.h"
#include "mem/cache_internal.h"

/* cache.c: a resident line's class from an allocation hint (FIRST, NORMAL or LAST). */
void cache_apply_class_hint(cache *c, uint32_t line, cache_alloc alloc);
/* cache.c: a LAST line that was touched moves to the most recent end of the LAST list. */
void cache_touch_last(cache *c, uint32_t line);
/* cache.c: makes room in `set` (the victim written back through the next level on behalf of
 * `rq` when dirty, counted in *r) and installs `line_number` as a NORMAL, empty, most recent
 * line of kind `kind`; its slot in *out. Returns MEM_OK or the write-back's error. */
mem_status cache_allocate_line(cache *c, uint32_t set, uint64_t line_number, uint8_t kind,
                               void *rq, cache_result *r, uint32_t *out);

/* cache.c: writes every dirty sector of a resident line to the next level (only its dirty
 * bytes; runs of sectors when the next level takes them) on behalf of `rq`, counting the bytes
 * in r->writeback_bytes, and cleans it. Returns MEM_OK or the next level's error. */
mem_status cache_writeback_dirty(cache *c, uint32_t line, void *rq, cache_result *r);
/* cache.c: empties a resident line slot (no write-back). */
void cache_drop_line(cache *c, uint32_t line);
/* cache.c: sets a resident line's class (LAST within the persisting limit). */
void cache_set_class(cache *c, uint32_t line, cache_priority priority);

/* ---- small helpers ---- */

/* Mask of `count` bits starting at bit `first` (count <= 64 - first). */
static inline uint64_t bit_range(unsigned first, unsigned count)
{
    uint64_t bits = count >= 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
    return bits << first;
}

static inline unsigned popcount64(uint64_t v)
{
    /* Sector masks of a line of four sectors or fewer (128-byte lines) from a table of 16
     * four-bit counts; more by the shared SWAR count. */
    if (v < 16)
        return (unsigned)(UINT64_C(0x4332322132212110) >> (v * 4)) & 15;
    return bits_popcount64(v);
}

/* Bits of a store's byte-mask word: none and all (whole runs of a warp's store) at once. */
static inline unsigned word_popcount(uint64_t w)
{
    if (w == 0 || w == UINT64_MAX)
        return w ? 64 : 0;
    return bits_popcount64(w);
}

/* Bitmap operations over [start, start + count) of a line's byte bitmap. */
typedef enum { BITS_SET, BITS_CLEAR, BITS_ANY, BITS_ALL } bits_op;

static inline __attribute__((always_inline)) int bits_apply(uint64_t *words, uint32_t start,
                                                             uint32_t count, bits_op op)
{
    if (((start | count) & 63) == 0) { /* whole words (a run of sectors of a 128-byte line) */
        if (count == 128 && (op == BITS_SET || op == BITS_CLEAR)) {
            /* a whole 128-byte line's bitmap: two stores (the loop would become a memset call) */
            words[start >> 6] = words[(start >> 6) + 1] = op == BITS_SET ? UINT64_MAX : 0;
            return 0;
        }
        for (uint32_t k = start >> 6; k < (start + count) >> 6; k++) {
            switch (op) {
            case BITS_SET: words[k] = UINT64_MAX; break;
            case BITS_CLEAR: words[k] = 0; break;
            case BITS_ANY: if (words[k]) return 1; break;
            case BITS_ALL: if (words[k] != UINT64_MAX) return 0; break;
            }
        }
        return op == BITS_ALL;
    }
    if ((start & 63) + count <= 64) { /* within one word (a sector of 64 bytes or less) */
        uint64_t m = bit_range(start & 63, count), *w = &words[start >> 6];
        switch (op) {
        case BITS_SET: *w |= m; return 0;
        case BITS_CLEAR: *w &= ~m; return 0;
        case BITS_ANY: return (*w & m) != 0;
        case BITS_ALL: return (*w & m) == m;
        }
    }
    while (count > 0) {
        uint32_t bit = start & 63;
        uint32_t n = 64 - bit < count ? 64 - bit : count;
        uint64_t m = bit_range(bit, n);
        uint64_t *w = &words[start >> 6];
        switch (op) {
        case BITS_SET: *w |= m; break;
        case BITS_CLEAR: *w &= ~m; break;
        case BITS_ANY: if (*w & m) return 1; break;
        case BITS_ALL: if ((*w & m) != m) return 0; break;
        }
        start += n;
        count -= n;
    }
    return op == BITS_ALL;
}

static inline int bit_test(const uint64_t *words, uint32_t bit)
{
    return (int)((words[bit >> 6] >> (bit & 63)) & 1);
}

/* Line data and byte masks live in data slots handed out in the order lines are first filled,
 * while tags stay set-major for lookups: the memory a run touches, and the host pages it faults
 * in, grow with the lines it uses, not with the cache size or how its lines spread over the sets.
 * Only resident lines (allocate_line gave them a slot) reach here. */
static inline size_t data_slot(const cache *c, uint32_t line)
{
    return (size_t)LINE_FIELD(c, line, data_slots) - 1;
}

static inline uint64_t *valid_bits(const cache *c, uint32_t line)
{
    return &c->byte_masks[data_slot(c, line) * 2 * c->bitmap_words];
}

static inline uint64_t *dirty_bits(const cache *c, uint32_t line)
{
    return valid_bits(c, line) + c->bitmap_words;
}

static inline uint8_t *line_data(const cache *c, uint32_t line)
{
    return &c->data[data_slot(c, line) << c->line_shift];
}

static inline uint64_t line_address(const cache *c, uint32_t line)
{
    return (LINE_FIELD(c, line, tags) - 1) << c->line_shift;
}

/* Zeroes *r, as memset would, with fixed stores: for a 48-byte record GCC emits `rep stos`,
 * whose start-up costs a store line path more than the stores themselves. */
static inline void result_clear(cache_result *r)
{
#ifdef __SSE2__
    if (sizeof *r == 48) { /* x86-64 */
        const __m128i zero = _mm_setzero_si128();
        _mm_storeu_si128((__m128i *)(void *)r, zero);
        _mm_storeu_si128((__m128i *)(void *)((uint8_t *)r + 16), zero);
        _mm_storeu_si128((__m128i *)(void *)((uint8_t *)r + 32), zero);
        return;
    }
#endif
    memset(r, 0, sizeof *r);
}

/* Copies `bytes` (a multiple of 16 up to 128: a line of 128 bytes, a run of sectors) with
 * 16-byte moves. A memcpy of a constant 64 or 128 bytes becomes `rep movs` here, whose start-up
 * and per-element cost is several times that of eight moves; other sizes take memcpy. */
static inline __attribute__((always_inline)) void copy_block(uint8_t *dst, const uint8_t *src,
                                                             uint32_t bytes)
{
#ifdef __SSE2__
    if (bytes <= 128 && !(bytes & 15)) {
#pragma GCC unroll 8
        for (uint32_t k = 0; k < bytes; k += 16)
            _mm_storeu_si128((__m128i *)(void *)(dst + k),
                             _mm_loadu_si128((const __m128i *)(const void *)(src + k)));
        return;
    }
#endif
    memcpy(dst, src, bytes);
}

static inline void result_add_to_stats(cache *c, const cache_result *r)
{
    c->stats.sector_accesses += r->sector_accesses;
    c->stats.sector_hits += r->sector_hits;
    c->stats.sector_misses += r->sector_misses;
    c->stats.evictions += r->evictions;
    c->stats.writeback_bytes += r->writeback_bytes;
    c->stats.fill_bytes += r->fill_bytes;
    c->stats.write_through_bytes += r->write_through_bytes;
}

/* A store's result into the cache's statistics: one write, its sector hits and misses as
 * writes, and the counts every access adds (result_add_to_stats). */
static inline void write_result_to_stats(cache *c, const cache_result *r)
{
    c->stats.writes++;
    c->stats.write_sector_hits += r->sector_hits;
    c->stats.write_sector_misses += r->sector_misses;
    result_add_to_stats(c, r);
}

/* ---- set index and lookup ---- */

/* n mod d and n / d, with multiplies when `recip` is d's fast_reciprocal (cache_setup.c: then
 * exact for the numerators the cache gives them), else with a divide. */
static inline uint32_t mod_by(uint64_t n, uint32_t d, uint64_t recip)
{
#ifdef __SIZEOF_INT128__
    if (recip)
        return (uint32_t)(((unsigned __int128)(recip * n) * d) >> 64);
#endif
    return (uint32_t)(n % d);
}

static inline uint64_t div_by(uint64_t n, uint32_t d, uint64_t recip)
{
#ifdef __SIZEOF_INT128__
    if (recip)
        return (uint64_t)(((unsigned __int128)recip * n) >> 64);
#endif
    return n / d;
}

/* Slice of a line: round-robin within aligned groups of `slices` lines, rotated by a fold of the
 * group number so that large power-of-two strides still spread over the slices (or, with
 * slice_modulo, not rotated: such strides then all land in one slice). *group (OUT): the group
 * number, line number / slices. */
static inline uint32_t slice_and_group(const cache *c, uint64_t line_number, uint64_t *group)
{
    uint32_t n = c->config.slices;
    uint64_t g = div_by(line_number, n, c->recip_slices);
    *group = g;
    uint32_t in_group = (uint32_t)(line_number - g * n);
    if (c->config.slice_modulo)
        return in_group;
    /* The xor of the group number's 16-bit chunks (zero chunks add nothing); (line number +
     * fold) mod n, from the line's place in its group. */
    uint32_t fold = (uint32_t)((g ^ (g >> 16) ^ (g >> 32) ^ (g >> 48)) & 0xFFFF);
    return mod_by(in_group + fold, n, c->recip_slices);
}

static inline uint32_t slice_of_line(const cache *c, uint64_t line_number)
{
    uint64_t group;
    return slice_and_group(c, line_number, &group);
}

/* set_index of a cache without plain_index. */
static inline uint32_t set_index_general(const cache *c, uint64_t line_number)
{
    if (c->sets == 1)
        return 0;
    uint32_t slice = 0, slices = 1;
    if (c->config.slices > 1) {
        /* A sliced cache: the slice takes a line of every aligned group of `slices` lines, and
         * indexes its own sets by the group number. Slice s owns sets s, s + slices, ... so a
         * contiguous footprint occupies contiguous sets (and host memory). */
        slices = c->config.slices;
        slice = slice_and_group(c, line_number, &line_number);
    }
    uint64_t h = line_number;
    if (c->config.index_function == CACHE_INDEX_XOR_FOLD) {
        uint64_t chunk_mask = (UINT64_C(1) << c->fold_bits) - 1;
        h = 0;
        for (uint64_t x = line_number; x != 0; x >>= c->fold_bits)
            h ^= x & chunk_mask;
    }
    return mod_by(h, c->slice_sets, c->recip_slice_sets) * slices + slice;
}

static inline uint32_t set_index(const cache *c, uint64_t line_number)
{
    if (c->plain_index) /* an L1: one test on the lookups of every access */
        return mod_by(line_number, c->sets, c->recip_sets);
    return set_index_general(c, line_number);
}

/* The ways of tag prints[0 .. n) (n <= 16) equal to `print`, as bits. The array is padded so
 * that 16 bytes can be read from any line on. */
static inline uint32_t print_matches(const uint8_t *prints, uint32_t n, uint8_t print)
{
#ifdef __SSE2__
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)prints);
    uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)print)));
    return n >= 16 ? m : m & ((1u << n) - 1);
#else
    uint32_t m = 0;
    for (uint32_t w = 0; w < n; w++) m |= (uint32_t)(prints[w] == print) << w;
    return m;
#endif
}

/* Whether a line was ever allocated in group `group` of 16 line slots (cache.used_groups). A set
 * whose first group never held a line is empty, and reading its metadata first would map the
 * kernel's zero page there, to be faulted again by the fill that follows (a second page fault
 * for every page of metadata a run fills): look-ups and victim choices test this bit before
 * they read. */
static inline int group_used(const cache *c, uint32_t group)
{
    return (int)((c->used_groups[group >> 6] >> (group & 63)) & 1);
}

/* The line of `set` holding `line_number`, or NO_INDEX (*mp: its record): nothing read when the
 * set's first group never held a line (group_used), else way 0 first (a set of a large cache
 * that a small footprint fills holds one line, there), then the ways whose tag print matches,
 * 16 at a time (a set's slots never cross a group within 16 of its ways), with their full
 * tags. */
static inline __attribute__((always_inline)) uint32_t find_slot(const cache *c, uint32_t set,
                                                              uint64_t line_number,
                                                              const line_meta **mp)
{
    uint64_t tag = TAG_OF(line_number);
    if (c->ways == GROUP_LINES) { /* 16 ways (the presets' L1 and L2): the set is a group */
        uint32_t base = set * GROUP_LINES;
        const line_meta *m = &c->meta[base];
        if (!group_used(c, set))
            return NO_INDEX;
        if (m[0].tag == tag) {
            *mp = m;
            return base;
        }
        for (uint32_t k = print_matches(&c->prints[base], GROUP_LINES, TAG_PRINT(tag)); k;
             k &= k - 1) {
            uint32_t w = (uint32_t)__builtin_ctz(k);
            if (m[w].tag == tag) {
                *mp = &m[w];
                return base + w;
            }
        }
        return NO_INDEX;
    }
    uint32_t base = set * c->set_stride;
    /* A set's first line goes to its lowest way (choose_victim), so an unused first group
     * means an empty set, however many groups the set spans. */
    if (!group_used(c, base >> GROUP_SHIFT))
        return NO_INDEX;
    const line_meta *m = &c->meta[base];
    if (m[0].tag == tag) {
        *mp = m;
        return base;
    }
    uint8_t print = TAG_PRINT(tag);
    for (uint32_t w0 = 0; w0 < c->ways; w0 += GROUP_LINES) {
        uint32_t n = c->ways - w0 < GROUP_LINES ? c->ways - w0 : GROUP_LINES;
        for (uint32_t k = print_matches(&c->prints[base + w0], n, print); k; k &= k - 1) {
            uint32_t w = w0 + (uint32_t)__builtin_ctz(k);
            if (m[w].tag == tag) {
                *mp = &m[w];
                return base + w;
            }
        }
    }
    return NO_INDEX;
}

static inline __attribute__((always_inline)) uint32_t find_line(const cache *c, uint32_t set,
                                                              uint64_t line_number)
{
    const line_meta *m;
    return find_slot(c, set, line_number, &m);
}

/* The hash of a line number into held_memo. */
static inline uint32_t held_memo_index(uint64_t line_number)
{
    return (uint32_t)((line_number * UINT64_C(0x9E3779B97F4A7C15)) >> HELD_MEMO_SHIFT);
}

/* find_slot of line `line_number`, first at the slot where held_memo last found it (its tag
 * still the line's: a line has one slot at most), else by the set's look-up, remembered when
 * found. Only the memo changes: a host-speed aid, nothing the model holds. */
static inline __attribute__((always_inline)) uint32_t
find_slot_memo(cache *c, uint64_t line_number, const line_meta **mp)
{
    uint32_t *memo = &c->held_memo[held_memo_index(line_number)];
    uint32_t line = *memo;
    assert(!c->config.tags_only); /* its memos may be NO_INDEX: only cache_probe_hit reads them */
    if (c->meta[line].tag == TAG_OF(line_number)) {
        *mp = &c->meta[line];
        return line;
    }
    line = find_slot(c, set_index(c, line_number), line_number, mp);
    if (line != NO_INDEX)
        *memo = line;
    return line;
}

/* Applies an access's allocation hint to the class of a line it touched. A new line starts
 * NORMAL, so UNCHANGED and NONE leave it NORMAL. Inline: those two, the common hints, cost one
 * test on the access paths; a NORMAL or FIRST hint on a line that is not LAST (a streaming
 * load's new line made FIRST, a streaming store into a line its load made FIRST already)
 * changes the class and its counts here as set_class_plain does, without the calls. LAST
 * lines and LAST hints (the LAST list) take cache_apply_class_hint. */
static inline void apply_alloc_hint(cache *c, uint32_t line, cache_alloc alloc)
{
    if (alloc == CACHE_ALLOC_UNCHANGED || alloc == CACHE_ALLOC_NONE)
        return;
    uint8_t have = LINE_FIELD(c, line, priorities);
    if ((alloc == CACHE_ALLOC_NORMAL || alloc == CACHE_ALLOC_FIRST) &&
        have != CACHE_PRIORITY_LAST) {
        uint8_t want = alloc == CACHE_ALLOC_FIRST ? CACHE_PRIORITY_FIRST : CACHE_PRIORITY_NORMAL;
        if (have != want) {
            c->stats.lines_by_priority[have]--;
            c->stats.lines_by_priority[want]++;
            LINE_FIELD(c, line, priorities) = want;
        }
        return;
    }
    cache_apply_class_hint(c, line, alloc);
}

/* Whether line `line` (record m) is a LAST line not yet at the most recent end of the LAST
 * list, so that touching it moves it there (cache_touch_last). A cache with no LAST line
 * (last_count counts the list, which holds every LAST line) leaves the line's class unread. */
static inline int last_to_move(const cache *c, const line_meta *m, uint32_t line)
{
    return c->last_count != 0 && m->priority == CACHE_PRIORITY_LAST && c->last_tail != line;
}

/* Marks a line most recently used. */
static inline void touch(cache *c, uint32_t line)
{
    line_meta *m = &c->meta[line];
    m->stamp = ++c->clock;
    if (last_to_move(c, m, line))
        cache_touch_last(c, line);
}

/* The slot of the line holding byte address `addr`, or NO_INDEX. */
static inline uint32_t lookup_line(const cache *c, uint64_t addr)
{
    uint64_t line_number = addr >> c->line_shift;
    return find_line(c, set_index(c, line_number), line_number);
}

/* ---- access validation ---- */

static const cache_hints no_hints;

static inline int hints_valid(const cache *c, const cache_hints *h)
{
    if (h->alloc > CACHE_ALLOC_NONE || h->write_mode > CACHE_WRITE_THROUGH ||
        h->kind >= CACHE_KIND_COUNT)
        return 0;
    return h->fill_bytes == 0 ||
           (bits_is_power_of_two(h->fill_bytes) && h->fill_bytes >= c->config.sector_bytes &&
            h->fill_bytes <= CACHE_MAX_FILL_BYTES);
}

static inline int range_valid(const cache *c, uint64_t addr, uint32_t bytes)
{
    uint64_t offset = addr & (c->config.line_bytes - 1);
    return bytes != 0 && bytes <= c->config.line_bytes - offset;
}

/* Sectors of the line touched by [offset, offset + bytes). */
static inline uint64_t sectors_of_range(const cache *c, uint32_t offset, uint32_t bytes)
{
    unsigned first = offset >> c->sector_shift;
    unsigned last = (offset + bytes - 1) >> c->sector_shift;
    return bit_range(first, last - first + 1);
}

static inline void count_sectors(cache_result *r, uint64_t requested, uint64_t valid)
{
    r->hit_sectors = requested & valid;
    if (!(requested & (requested - 1))) { /* one sector (or none) */
        r->sector_accesses = requested != 0;
        r->sector_hits = r->hit_sectors != 0;
    } else {
        r->sector_accesses = popcount64(requested);
        r->sector_hits = popcount64(r->hit_sectors);
    }
    r->sector_misses = r->sector_accesses - r->sector_hits;
}

#endif
