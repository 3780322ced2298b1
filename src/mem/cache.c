/* One sectored, data-carrying cache level (see cache.h and docs/cache-model.md).
 *
 * A line slot is set * set_stride + way. The metadata of 16 consecutive slots (tag prints, tags,
 * sector bits, stamps, classes, kinds, data slots) is one line_group block, so the lookups, hits,
 * victim choices and fills of a set touch one block of host memory (cache_internal.h). Line data
 * and the per-byte valid/dirty bitmaps are single blocks allocated at creation. Recency is a
 * 64-bit stamp from one clock per cache; LAST lines are also kept on a doubly linked list in
 * stamp order, so the persisting limit finds the least recently used LAST line of the whole cache
 * in O(1). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include "mem/cache.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/bits.h"
#include "mem/cache_internal.h"

/* ---- small helpers ---- */

/* Mask of `count` bits starting at bit `first` (count <= 64 - first). */
static uint64_t bit_range(unsigned first, unsigned count)
{
    uint64_t bits = count >= 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
    return bits << first;
}

static unsigned popcount64(uint64_t v)
{
    /* Sector masks of a line of four sectors or fewer (128-byte lines) from a table of 16
     * four-bit counts; more by the shared SWAR count. */
    if (v < 16)
        return (unsigned)(UINT64_C(0x4332322132212110) >> (v * 4)) & 15;
    return bits_popcount64(v);
}

/* Bits of a store's byte-mask word: none and all (whole runs of a warp's store) at once. */
static unsigned word_popcount(uint64_t w)
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

static int bit_test(const uint64_t *words, uint32_t bit)
{
    return (int)((words[bit >> 6] >> (bit & 63)) & 1);
}

/* Line data and byte masks live in data slots handed out in the order lines are first filled,
 * while tags stay set-major for lookups: the memory a run touches, and the host pages it faults
 * in, grow with the lines it uses, not with the cache size or how its lines spread over the sets.
 * Only resident lines (allocate_line gave them a slot) reach here. */
static size_t data_slot(const cache *c, uint32_t line)
{
    return (size_t)LINE_FIELD(c, line, data_slots) - 1;
}

static uint64_t *valid_bits(const cache *c, uint32_t line)
{
    return &c->byte_masks[data_slot(c, line) * 2 * c->bitmap_words];
}

static uint64_t *dirty_bits(const cache *c, uint32_t line)
{
    return valid_bits(c, line) + c->bitmap_words;
}

static uint8_t *line_data(const cache *c, uint32_t line)
{
    return &c->data[data_slot(c, line) << c->line_shift];
}

static uint64_t line_address(const cache *c, uint32_t line)
{
    return (LINE_FIELD(c, line, tags) - 1) << c->line_shift;
}

static void result_add_to_stats(cache *c, const cache_result *r)
{
    c->stats.sector_accesses += r->sector_accesses;
    c->stats.sector_hits += r->sector_hits;
    c->stats.sector_misses += r->sector_misses;
    c->stats.evictions += r->evictions;
    c->stats.writeback_bytes += r->writeback_bytes;
    c->stats.fill_bytes += r->fill_bytes;
    c->stats.write_through_bytes += r->write_through_bytes;
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
static uint32_t slice_and_group(const cache *c, uint64_t line_number, uint64_t *group)
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

static uint32_t slice_of_line(const cache *c, uint64_t line_number)
{
    uint64_t group;
    return slice_and_group(c, line_number, &group);
}

/* set_index of a cache without plain_index. */
static uint32_t set_index_general(const cache *c, uint64_t line_number)
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

/* The line of `set` holding `line_number`, or NO_INDEX: way 0 first (a set of a large cache
 * that a small footprint fills holds one line, there), then the ways whose tag print matches,
 * 16 at a time (a block's prints: a set's slots never cross a block within 16 of its ways),
 * with their full tags. */
static inline __attribute__((always_inline)) uint32_t find_slot(const cache *c, uint32_t set,
                                                              uint64_t line_number,
                                                              const line_group **gp, uint32_t *wp)
{
    uint64_t tag = TAG_OF(line_number);
    if (c->ways == GROUP_LINES) { /* 16 ways (the presets' L1 and L2): the set is a block */
        const line_group *g = &c->groups[set];
        *gp = g;
        if (g->tags[0] == tag) {
            *wp = 0;
            return set * GROUP_LINES;
        }
        for (uint32_t m = print_matches(g->prints, GROUP_LINES, TAG_PRINT(tag)); m; m &= m - 1) {
            uint32_t w = (uint32_t)__builtin_ctz(m);
            if (g->tags[w] == tag) {
                *wp = w;
                return set * GROUP_LINES + w;
            }
        }
        return NO_INDEX;
    }
    uint32_t base = set * c->set_stride;
    const line_group *g = &c->groups[base >> GROUP_SHIFT];
    uint32_t at = base & (GROUP_LINES - 1);
    if (g->tags[at] == tag) {
        *gp = g;
        *wp = at;
        return base;
    }
    uint8_t print = TAG_PRINT(tag);
    for (uint32_t w0 = 0; w0 < c->ways; w0 += GROUP_LINES, g++) {
        uint32_t n = c->ways - w0 < GROUP_LINES ? c->ways - w0 : GROUP_LINES;
        for (uint32_t m = print_matches(&g->prints[at], n, print); m; m &= m - 1) {
            uint32_t w = at + (uint32_t)__builtin_ctz(m);
            if (g->tags[w] == tag) {
                *gp = g;
                *wp = w;
                return base + w0 + w - at;
            }
        }
    }
    return NO_INDEX;
}

static inline __attribute__((always_inline)) uint32_t find_line(const cache *c, uint32_t set,
                                                              uint64_t line_number)
{
    const line_group *g;
    uint32_t w;
    return find_slot(c, set, line_number, &g, &w);
}

/* ---- priority classes and the LAST list ---- */

static void last_unlink(cache *c, uint32_t line)
{
    uint32_t prev = c->last_prev[line], next = c->last_next[line];
    if (prev != NO_INDEX)
        c->last_next[prev] = next;
    else
        c->last_head = next;
    if (next != NO_INDEX)
        c->last_prev[next] = prev;
    else
        c->last_tail = prev;
    c->last_count--;
}

/* Inserts in stamp order. From the access paths the line is the most recent, so the walk stops
 * at once; only cache_set_line_priority can insert an older line. */
static void last_link_sorted(cache *c, uint32_t line)
{
    uint32_t after = c->last_tail;
    while (after != NO_INDEX && LINE_FIELD(c, after, stamps) > LINE_FIELD(c, line, stamps))
        after = c->last_prev[after];
    uint32_t before = after == NO_INDEX ? c->last_head : c->last_next[after];
    c->last_prev[line] = after;
    c->last_next[line] = before;
    if (after != NO_INDEX)
        c->last_next[after] = line;
    else
        c->last_head = line;
    if (before != NO_INDEX)
        c->last_prev[before] = line;
    else
        c->last_tail = line;
    c->last_count++;
    if (c->last_count > c->stats.peak_last_lines)
        c->stats.peak_last_lines = c->last_count;
}

/* Moves a resident line to FIRST or NORMAL. */
static void set_class_plain(cache *c, uint32_t line, cache_priority priority)
{
    cache_priority old = (cache_priority)LINE_FIELD(c, line, priorities);
    if (old == priority)
        return;
    if (old == CACHE_PRIORITY_LAST)
        last_unlink(c, line);
    c->stats.lines_by_priority[old]--;
    c->stats.lines_by_priority[priority]++;
    LINE_FIELD(c, line, priorities) = (uint8_t)priority;
}

/* Makes a line LAST. At the persisting limit the least recently used LAST line of the whole
 * cache is demoted to NORMAL first (it keeps its data), so the most recently used limit-sized
 * part of a persisting footprint stays persisting (gpu-figures §10, hitRatio 1.0). */
static void grant_last(cache *c, uint32_t line)
{
    if (LINE_FIELD(c, line, priorities) == CACHE_PRIORITY_LAST)
        return;
    if (c->config.persisting_limit_lines == 0) {
        set_class_plain(c, line, CACHE_PRIORITY_NORMAL);
        return;
    }
    if (c->last_count >= c->config.persisting_limit_lines) {
        set_class_plain(c, c->last_head, CACHE_PRIORITY_NORMAL);
        c->stats.last_demotions++;
    }
    c->stats.lines_by_priority[LINE_FIELD(c, line, priorities)]--;
    c->stats.lines_by_priority[CACHE_PRIORITY_LAST]++;
    LINE_FIELD(c, line, priorities) = CACHE_PRIORITY_LAST;
    last_link_sorted(c, line);
}

static void set_class(cache *c, uint32_t line, cache_priority priority)
{
    if (priority == CACHE_PRIORITY_LAST)
        grant_last(c, line);
    else
        set_class_plain(c, line, priority);
}

static void apply_class_hint(cache *c, uint32_t line, cache_alloc alloc)
{
    switch (alloc) {
    case CACHE_ALLOC_NORMAL: set_class(c, line, CACHE_PRIORITY_NORMAL); break;
    case CACHE_ALLOC_FIRST: set_class(c, line, CACHE_PRIORITY_FIRST); break;
    case CACHE_ALLOC_LAST: set_class(c, line, CACHE_PRIORITY_LAST); break;
    case CACHE_ALLOC_UNCHANGED:
    case CACHE_ALLOC_NONE: break;
    }
}

/* Applies an access's allocation hint to the class of a line it touched. A new line starts
 * NORMAL, so UNCHANGED and NONE leave it NORMAL. Inline: those two, the common hints, cost one
 * test on the access paths. */
static inline void apply_alloc_hint(cache *c, uint32_t line, cache_alloc alloc)
{
    if (alloc == CACHE_ALLOC_NORMAL && LINE_FIELD(c, line, priorities) == CACHE_PRIORITY_NORMAL)
        return; /* an access-policy window's usual hint on a NORMAL line: nothing changes */
    if (alloc != CACHE_ALLOC_UNCHANGED && alloc != CACHE_ALLOC_NONE)
        apply_class_hint(c, line, alloc);
}

/* Moves a LAST line that was touched to the most recent end of the LAST list. */
static void touch_last(cache *c, uint32_t line)
{
    last_unlink(c, line);
    last_link_sorted(c, line);
}

/* Marks a line most recently used. */
static inline void touch(cache *c, uint32_t line)
{
    line_group *g = &c->groups[line >> GROUP_SHIFT];
    uint32_t w = line & (GROUP_LINES - 1);
    g->stamps[w] = ++c->clock;
    if (g->priorities[w] == CACHE_PRIORITY_LAST && c->last_tail != line)
        touch_last(c, line);
}

/* ---- write-back, drop, allocation ---- */

/* out[i] = bit first + i of `words` (0 or 1), i < count: eight at a time from a byte-aligned
 * bit, each bit copied into every byte by a multiply and kept in its own byte (as blend8). */
static void bits_to_bytes(const uint64_t *words, uint32_t first, uint32_t count, uint8_t *out)
{
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint32_t i = 0;
    if ((first & 7) == 0) {
        for (; i + 8 <= count; i += 8) {
            uint64_t b = (words[(first + i) >> 6] >> ((first + i) & 63)) & 0xFF;
            uint64_t x = (b * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201);
            uint64_t v = ((((x & low7) + low7) | x) & ~low7) >> 7;
            memcpy(out + i, &v, sizeof v);
        }
    }
    for (; i < count; i++)
        out[i] = (uint8_t)bit_test(words, first + i);
}

/* writeback_line for a next level that takes runs (writeback_runs): each run of consecutive
 * dirty sectors in one call, unmasked when every byte of the run is dirty (a line a warp's
 * stores filled), with the run's byte mask otherwise. Same bytes, data and counts as sector
 * by sector. */
static mem_status writeback_runs(cache *c, uint32_t line, void *rq, cache_result *r)
{
    line_group *g = &c->groups[line >> GROUP_SHIFT];
    uint32_t w = line & (GROUP_LINES - 1);
    uint64_t *dirty = dirty_bits(c, line);
    const uint8_t *data = line_data(c, line);
    uint64_t line_addr = line_address(c, line);
    while (g->dirty_sectors[w] != 0) {
        uint64_t mask_sectors = g->dirty_sectors[w];
        unsigned first = (unsigned)__builtin_ctzll(mask_sectors);
        uint64_t rest = ~(mask_sectors >> first);
        unsigned count = rest == 0 ? 64 : (unsigned)__builtin_ctzll(rest);
        uint32_t at = first << c->sector_shift, run_bytes = count << c->sector_shift;
        const uint8_t *mask = NULL;
        if (!bits_apply(dirty, at, run_bytes, BITS_ALL)) {
            uint8_t *bytes = c->scratch + c->config.line_bytes; /* line_bytes long */
            bits_to_bytes(dirty, at, run_bytes, bytes);
            mask = bytes;
        }
        mem_status st = c->next.write(c->next.ctx, rq, line_addr + at, run_bytes, data + at, mask);
        if (st != MEM_OK)
            return st;
        bits_apply(dirty, at, run_bytes, BITS_CLEAR);
        g->dirty_sectors[w] &= ~bit_range(first, count);
        r->writeback_bytes += run_bytes;
    }
    return MEM_OK;
}

/* Writes every dirty sector of a line to the next level (only its dirty bytes) and cleans it.
 * `rq` is the request on whose behalf (cache_hints.request). */
static mem_status writeback_line(cache *c, uint32_t line, void *rq, cache_result *r)
{
    if (c->next.writeback_runs)
        return writeback_runs(c, line, rq, r);
    uint32_t sector_bytes = c->config.sector_bytes;
    uint64_t *dirty = dirty_bits(c, line);
    while (LINE_FIELD(c, line, dirty_sectors) != 0) {
        unsigned s = (unsigned)__builtin_ctzll(LINE_FIELD(c, line, dirty_sectors));
        uint32_t first = s * sector_bytes;
        const uint8_t *mask = NULL;
        if (!bits_apply(dirty, first, sector_bytes, BITS_ALL)) {
            uint8_t *bytes = c->scratch + c->config.line_bytes;
            bits_to_bytes(dirty, first, sector_bytes, bytes);
            mask = bytes;
        }
        mem_status st = c->next.write(c->next.ctx, rq, line_address(c, line) + first,
                                      sector_bytes, line_data(c, line) + first, mask);
        if (st != MEM_OK)
            return st;
        bits_apply(dirty, first, sector_bytes, BITS_CLEAR);
        LINE_FIELD(c, line, dirty_sectors) &= ~(UINT64_C(1) << s);
        r->writeback_bytes += sector_bytes;
    }
    return MEM_OK;
}

static void drop_line(cache *c, uint32_t line)
{
    if (LINE_FIELD(c, line, priorities) == CACHE_PRIORITY_LAST)
        last_unlink(c, line);
    c->stats.lines_by_priority[LINE_FIELD(c, line, priorities)]--;
    LINE_FIELD(c, line, tags) = NO_LINE;
    LINE_FIELD(c, line, prints) = TAG_PRINT(NO_LINE);
    LINE_FIELD(c, line, valid_sectors) = 0;
    LINE_FIELD(c, line, dirty_sectors) = 0;
    c->resident_lines--;
}

/* Victim order: an empty way, else the least recently used FIRST line, else NORMAL, else LAST. */
static uint32_t choose_victim(const cache *c, uint32_t set)
{
    uint32_t base = set * c->set_stride;
    /* One pass: the lowest class seen so far, and its least recent line (stamps are unique). */
    uint32_t best = base;
    unsigned best_class = CACHE_PRIORITY_LAST + 1;
    uint64_t best_stamp = 0;
    if (c->ways == GROUP_LINES) { /* the set is a block */
        const line_group *g = &c->groups[set];
        for (uint32_t w = 0; w < GROUP_LINES; w++) {
            if (g->tags[w] == NO_LINE)
                return base + w;
            unsigned p = g->priorities[w];
            if (p < best_class || (p == best_class && g->stamps[w] < best_stamp)) {
                best = base + w;
                best_class = p;
                best_stamp = g->stamps[w];
            }
        }
        return best;
    }
    for (uint32_t w0 = 0; w0 < c->ways; w0 += GROUP_LINES) {
        const line_group *g = &c->groups[(base + w0) >> GROUP_SHIFT];
        uint32_t at = (base + w0) & (GROUP_LINES - 1);
        uint32_t n = c->ways - w0 < GROUP_LINES ? c->ways - w0 : GROUP_LINES;
        for (uint32_t w = at; w < at + n; w++) {
            if (g->tags[w] == NO_LINE)
                return base + w0 + w - at;
            unsigned p = g->priorities[w];
            if (p < best_class || (p == best_class && g->stamps[w] < best_stamp)) {
                best = base + w0 + w - at;
                best_class = p;
                best_stamp = g->stamps[w];
            }
        }
    }
    return best;
}

/* Makes room in `set` and installs `line_number` as a NORMAL, empty, most recent line. */
static mem_status allocate_line(cache *c, uint32_t set, uint64_t line_number, uint8_t kind,
                                void *rq, cache_result *r, uint32_t *out)
{
    uint32_t line = choose_victim(c, set);
    if (LINE_FIELD(c, line, tags) != NO_LINE) {
        int was_dirty = LINE_FIELD(c, line, dirty_sectors) != 0;
        mem_status st = was_dirty ? writeback_line(c, line, rq, r) : MEM_OK;
        if (st != MEM_OK)
            return st;
        drop_line(c, line);
        r->evictions++;
        c->stats.dirty_evictions += (uint64_t)was_dirty;
    }
    line_group *g = &c->groups[line >> GROUP_SHIFT];
    uint32_t w = line & (GROUP_LINES - 1);
    c->used_groups[line >> (GROUP_SHIFT + 6)] |= UINT64_C(1) << ((line >> GROUP_SHIFT) & 63);
    g->tags[w] = TAG_OF(line_number);
    g->prints[w] = TAG_PRINT(TAG_OF(line_number));
    g->kinds[w] = kind;
    g->priorities[w] = CACHE_PRIORITY_NORMAL;
    c->stats.lines_by_priority[CACHE_PRIORITY_NORMAL]++;
    if (g->data_slots[w] == 0)
        g->data_slots[w] = ++c->slots_used;
    uint64_t *bits = &c->byte_masks[(size_t)(g->data_slots[w] - 1) * 2 * c->bitmap_words];
    if (c->bitmap_words == 2) { /* 128-byte lines: four words, without a memset call */
        bits[0] = bits[1] = bits[2] = bits[3] = 0;
    } else {
        memset(bits, 0, 2 * c->bitmap_words * sizeof(uint64_t));
    }
    c->resident_lines++;
    touch(c, line);
    *out = line;
    return MEM_OK;
}

/* ---- fills ---- */

/* Copies fetched sector s into the line, keeping bytes the line already holds valid. */
static void merge_sector(cache *c, uint32_t line, unsigned s, const uint8_t *fetched)
{
    uint32_t sector_bytes = c->config.sector_bytes;
    uint32_t first = s * sector_bytes;
    uint64_t *valid = valid_bits(c, line);
    uint8_t *dst = line_data(c, line) + first;
    if (!bits_apply(valid, first, sector_bytes, BITS_ANY)) {
        memcpy(dst, fetched, sector_bytes);
    } else {
        for (uint32_t i = 0; i < sector_bytes; i++)
            if (!bit_test(valid, first + i))
                dst[i] = fetched[i];
    }
    bits_apply(valid, first, sector_bytes, BITS_SET);
}

/* Fetches the sectors of `mask` (none of them fully valid) in runs of consecutive sectors. */
static mem_status fetch_sectors(cache *c, uint32_t line, uint64_t mask, void *rq,
                                cache_result *r)
{
    uint32_t sector_bytes = c->config.sector_bytes;
    line_group *g = &c->groups[line >> GROUP_SHIFT];
    uint32_t w = line & (GROUP_LINES - 1);
    size_t slot = (size_t)g->data_slots[w] - 1;
    uint64_t *valid = &c->byte_masks[slot * 2 * c->bitmap_words];
    uint8_t *data = &c->data[slot << c->line_shift];
    uint64_t line_addr = (g->tags[w] - 1) << c->line_shift;
    while (mask != 0) {
        unsigned first = (unsigned)__builtin_ctzll(mask);
        uint64_t run = ~(mask >> first); /* zero only when all 64 sectors are requested */
        unsigned count = run == 0 ? 64 : (unsigned)__builtin_ctzll(run);
        uint32_t run_bytes = count * sector_bytes, at = first * sector_bytes;
        if (!bits_apply(valid, at, run_bytes, BITS_ANY)) {
            /* Nothing of the run was valid (a plain miss): the next level writes straight into
             * the line (bytes that are not valid are never read, so a failed read leaves
             * nothing visible), and one bit range marks them. */
            mem_status st = c->next.read(c->next.ctx, rq, line_addr + at, run_bytes, data + at);
            if (st != MEM_OK)
                return st;
            bits_apply(valid, at, run_bytes, BITS_SET);
        } else {
            mem_status st = c->next.read(c->next.ctx, rq, line_addr + at, run_bytes, c->scratch);
            if (st != MEM_OK)
                return st;
            for (unsigned s = first; s < first + count; s++)
                merge_sector(c, line, s, c->scratch + (s - first) * sector_bytes);
        }
        g->valid_sectors[w] |= bit_range(first, count);
        r->fill_bytes += run_bytes;
        mask &= ~bit_range(first, count);
    }
    return MEM_OK;
}

/* The sectors of the line to fetch for `missing`: every aligned fill block holding a missing
 * sector, less the sectors already fully valid. */
static uint64_t fill_mask(const cache *c, uint32_t line, uint64_t missing, uint32_t fill_bytes)
{
    uint32_t block = fill_bytes >> c->sector_shift;
    if (block == 1)
        return missing & ~LINE_FIELD(c, line, valid_sectors);
    uint64_t all = bit_range(0, c->sectors_per_line);
    if (block >= c->sectors_per_line)
        return all & ~LINE_FIELD(c, line, valid_sectors);
    if (block == 2) { /* 64-byte DRAM fills of 32-byte sectors: each sector pulls its pair */
        uint64_t even = missing & UINT64_C(0x5555555555555555);
        uint64_t odd = missing & UINT64_C(0xAAAAAAAAAAAAAAAA);
        return (missing | even << 1 | odd >> 1) & all & ~LINE_FIELD(c, line, valid_sectors);
    }
    uint64_t mask = 0;
    for (unsigned first = 0; first < c->sectors_per_line; first += block) {
        uint64_t block_mask = bit_range(first, block);
        if (missing & block_mask)
            mask |= block_mask;
    }
    return mask & ~LINE_FIELD(c, line, valid_sectors);
}

/* A fill block larger than a line also fills the other lines of the aligned block, in address
 * order: absent ones are allocated as by a miss with the same hints, present ones are only
 * completed (their recency and class do not change). They count as fills, not as accesses. */
static mem_status fill_neighbours(cache *c, uint64_t line_number, const cache_hints *h,
                                  uint32_t fill_bytes, cache_result *r)
{
    uint64_t lines = (uint64_t)fill_bytes >> c->line_shift;
    uint64_t first = line_number & ~(lines - 1);
    for (uint64_t n = first; n < first + lines; n++) {
        if (n == line_number)
            continue;
        uint32_t set = set_index(c, n);
        uint32_t line = find_line(c, set, n);
        if (line == NO_INDEX) {
            mem_status st = allocate_line(c, set, n, h->kind, h->request, r, &line);
            if (st != MEM_OK)
                return st;
            apply_alloc_hint(c, line, (cache_alloc)h->alloc);
        }
        uint64_t missing = bit_range(0, c->sectors_per_line) & ~LINE_FIELD(c, line, valid_sectors);
        mem_status st = fetch_sectors(c, line, missing, h->request, r);
        if (st != MEM_OK)
            return st;
    }
    return MEM_OK;
}

/* ---- access validation ---- */

static const cache_hints no_hints;

static int hints_valid(const cache *c, const cache_hints *h)
{
    if (h->alloc > CACHE_ALLOC_NONE || h->write_mode > CACHE_WRITE_THROUGH ||
        h->kind >= CACHE_KIND_COUNT)
        return 0;
    return h->fill_bytes == 0 ||
           (bits_is_power_of_two(h->fill_bytes) && h->fill_bytes >= c->config.sector_bytes &&
            h->fill_bytes <= CACHE_MAX_FILL_BYTES);
}

static int range_valid(const cache *c, uint64_t addr, uint32_t bytes)
{
    uint64_t offset = addr & (c->config.line_bytes - 1);
    return bytes != 0 && bytes <= c->config.line_bytes - offset;
}

/* Sectors of the line touched by [offset, offset + bytes). */
static uint64_t sectors_of_range(const cache *c, uint32_t offset, uint32_t bytes)
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

/* ---- reads ---- */

/* A read miss that must not allocate: the requested sectors come straight from the next level. */
static mem_status read_bypass(cache *c, uint64_t addr, uint32_t bytes, void *out,
                              uint64_t requested, void *rq, cache_result *r)
{
    unsigned first = (unsigned)__builtin_ctzll(requested);
    uint32_t run_bytes = popcount64(requested) * c->config.sector_bytes;
    uint64_t base = (addr & ~(uint64_t)(c->config.line_bytes - 1)) + first * c->config.sector_bytes;
    mem_status st = c->next.read(c->next.ctx, rq, base, run_bytes, c->scratch);
    if (st != MEM_OK)
        return st;
    r->fill_bytes += run_bytes;
    if (out != NULL)
        memcpy(out, c->scratch + (addr - base), bytes);
    return MEM_OK;
}

static mem_status read_access(cache *c, uint64_t addr, uint32_t bytes, void *out,
                              const cache_hints *h, cache_result *r)
{
    uint64_t line_number = addr >> c->line_shift;
    uint32_t offset = (uint32_t)(addr & (c->config.line_bytes - 1));
    uint64_t requested = sectors_of_range(c, offset, bytes);
    uint32_t set = set_index(c, line_number);
    uint32_t line = find_line(c, set, line_number);
    mem_status st;
    if (line != NO_INDEX) {
        r->line_hit = true;
        count_sectors(r, requested, LINE_FIELD(c, line, valid_sectors));
        touch(c, line);
    } else {
        count_sectors(r, requested, 0);
        if (h->alloc == CACHE_ALLOC_NONE)
            return read_bypass(c, addr, bytes, out, requested, h->request, r);
        st = allocate_line(c, set, line_number, h->kind, h->request, r, &line);
        if (st != MEM_OK)
            return st;
    }
    apply_alloc_hint(c, line, (cache_alloc)h->alloc);
    if (r->sector_misses == 0) {
        if (out != NULL)
            memcpy(out, line_data(c, line) + offset, bytes);
        return MEM_OK;
    }
    uint32_t fill_bytes = c->config.fill_bytes;
    if (h->fill_bytes > fill_bytes)
        fill_bytes = h->fill_bytes;
    uint64_t missing = requested & ~LINE_FIELD(c, line, valid_sectors);
    st = fetch_sectors(c, line, fill_mask(c, line, missing, fill_bytes), h->request, r);
    if (st != MEM_OK)
        return st;
    if (out != NULL)
        memcpy(out, line_data(c, line) + offset, bytes);
    if (fill_bytes > c->config.line_bytes)
        return fill_neighbours(c, line_number, h, fill_bytes, r);
    return MEM_OK;
}

/* The requested sectors (`k` of them) of a line that holds them, into `out` at their offsets. */
static inline void copy_hit_sectors(const cache *c, const uint8_t *data, uint64_t sectors,
                                    uint32_t k, uint8_t *out)
{
    if (k == 1 && c->config.sector_bytes == 32) { /* a scattered access's line: its sector */
        uint32_t at = (uint32_t)__builtin_ctzll(sectors) * 32;
        memcpy(out + at, data + at, 32);
    } else if (c->config.line_bytes == 128) {
        memcpy(out, data, 128);
    } else {
        memcpy(out, data, c->config.line_bytes);
    }
}

/* cache_read_hit once its line is known to hold every sector of `sectors` (the number of runs
 * in *runs). */
static inline void read_hit_line(cache *c, uint32_t line, uint64_t sectors, uint8_t alloc,
                                 uint8_t *out, uint32_t *runs)
{
    /* One cache_read per run: each one stamps the line (the last stamp stays) and applies the
     * hint (the second time changes nothing); every sector hits. One sector (a scattered
     * access's line) is one run without counting. */
    uint32_t n = 1, k = 1;
    if (sectors & (sectors - 1)) {
        n = popcount64(sectors & ~(sectors << 1));
        k = popcount64(sectors);
    }
    c->clock += n - 1;
    touch(c, line);
    apply_alloc_hint(c, line, (cache_alloc)alloc);
    c->stats.reads += n;
    c->stats.read_sector_hits += k;
    c->stats.sector_accesses += k;
    c->stats.sector_hits += k;
    *runs = n;
    if (out) /* NULL: a tags-only probe (the instruction cache's fetch) */
        copy_hit_sectors(c, line_data(c, line), sectors, k, out);
}

/* The line holding every sector of `sectors` at line_addr, or NO_INDEX. */
static inline uint32_t hit_line(const cache *c, uint64_t line_addr, uint64_t sectors)
{
    uint64_t line_number = line_addr >> c->line_shift;
    const line_group *g;
    uint32_t w;
    uint32_t line = find_slot(c, set_index(c, line_number), line_number, &g, &w);
    return line == NO_INDEX || (sectors & ~g->valid_sectors[w]) ? NO_INDEX : line;
}

bool cache_read_hit(cache *c, uint64_t line_addr, uint64_t sectors, uint8_t alloc, uint8_t *out,
                    uint32_t *runs)
{
    if (sectors == 0 || alloc > CACHE_ALLOC_NONE)
        return false;
    uint32_t line = hit_line(c, line_addr, sectors);
    if (line == NO_INDEX)
        return false;
    read_hit_line(c, line, sectors, alloc, out, runs);
    return true;
}

uint32_t cache_lines_held(const cache *c, uint32_t n, const uint64_t *line_addrs,
                          const uint64_t *sectors, size_t stride, uint32_t *lines)
{
    uint32_t i = 0;
    for (; i < n; i++) {
        size_t at = i * stride;
        uint64_t s = *(const uint64_t *)(const void *)((const uint8_t *)sectors + at);
        uint64_t addr = *(const uint64_t *)(const void *)((const uint8_t *)line_addrs + at);
        uint32_t line = s ? hit_line(c, addr, s) : NO_INDEX;
        if (line == NO_INDEX)
            break;
        lines[i] = line;
    }
    return i;
}

/* cache_read_hits' loop when the slots are known (`lines`) and the hint changes no class,
 * with its bases in registers (a scattered load's lines, one sector each): adds to *clock,
 * *reads and *total as that loop does; returns how many lines it read. */
static inline uint32_t read_held_lines(cache *c, uint32_t n, const uint8_t *sp, uint8_t *out,
                                       size_t stride, const uint32_t *lines, uint64_t *clock,
                                       uint64_t *reads, uint64_t *total)
{
    line_group *groups = c->groups;
    const uint8_t *data = c->data;
    unsigned line_shift = c->line_shift;
    uint32_t i = 0;
    for (; i < n; i++, sp += stride, out += stride) {
        uint64_t s;
        memcpy(&s, sp, sizeof s);
        uint32_t line = lines[i];
        if (line == NO_INDEX)
            break;
        line_group *g = &groups[line >> GROUP_SHIFT];
        uint32_t w = line & (GROUP_LINES - 1), runs = 1, k = 1;
        if (s & (s - 1)) {
            runs = popcount64(s & ~(s << 1));
            k = popcount64(s);
        }
        *clock += runs;
        g->stamps[w] = *clock;
        if (g->priorities[w] == CACHE_PRIORITY_LAST && c->last_tail != line)
            touch_last(c, line);
        *reads += runs;
        *total += k;
        copy_hit_sectors(c, data + ((size_t)(g->data_slots[w] - 1) << line_shift), s, k, out);
    }
    return i;
}

uint32_t cache_read_hits(cache *c, uint32_t n, const uint64_t *line_addrs,
                         const uint64_t *sectors, uint8_t *out, size_t stride, uint8_t alloc,
                         const uint32_t *lines, uint64_t *sector_count)
{
    /* read_hit_line for each line, with the clock and the statistics in locals (the stamps
     * stored between would make the compiler reload them) and one run per line when the lines
     * have one sector each: a scattered access. What touch_last and the class hints do reads
     * neither the clock nor these statistics. */
    uint32_t i = 0;
    uint64_t total = 0, reads = 0, clock = c->clock;
    if (lines && out && (alloc == CACHE_ALLOC_UNCHANGED || alloc == CACHE_ALLOC_NONE)) {
        i = read_held_lines(c, n, (const uint8_t *)sectors, out, stride, lines, &clock, &reads,
                            &total);
    } else if (alloc <= CACHE_ALLOC_NONE) {
        for (; i < n; i++) {
            size_t at = i * stride;
            uint64_t s = *(const uint64_t *)(const void *)((const uint8_t *)sectors + at);
            uint64_t addr = *(const uint64_t *)(const void *)((const uint8_t *)line_addrs + at);
            uint32_t line = lines ? lines[i] : s ? hit_line(c, addr, s) : NO_INDEX;
            if (line == NO_INDEX)
                break;
            uint32_t runs = 1, k = 1;
            if (s & (s - 1)) {
                runs = popcount64(s & ~(s << 1));
                k = popcount64(s);
            }
            clock += runs;
            line_group *g = &c->groups[line >> GROUP_SHIFT];
            uint32_t w = line & (GROUP_LINES - 1);
            g->stamps[w] = clock;
            if (g->priorities[w] == CACHE_PRIORITY_LAST && c->last_tail != line)
                touch_last(c, line);
            apply_alloc_hint(c, line, (cache_alloc)alloc);
            reads += runs;
            total += k;
            if (out)
                copy_hit_sectors(c, &c->data[(size_t)(g->data_slots[w] - 1) << c->line_shift], s,
                                 k, out + at);
        }
    }
    c->clock = clock;
    c->stats.reads += reads;
    c->stats.read_sector_hits += total;
    c->stats.sector_accesses += total;
    c->stats.sector_hits += total;
    *sector_count = total;
    return i;
}

/* read_access's statistics of one read (cache_read's tail). */
static inline void count_read(cache *c, const cache_result *r)
{
    c->stats.reads++;
    c->stats.read_sector_hits += r->sector_hits;
    c->stats.read_sector_misses += r->sector_misses;
    result_add_to_stats(c, r);
}

mem_status cache_read(cache *c, uint64_t addr, uint32_t bytes, void *out, const cache_hints *hints,
                      cache_result *result)
{
    cache_result local;
    cache_result *r = result != NULL ? result : &local;
    memset(r, 0, sizeof *r);
    const cache_hints *h = hints != NULL ? hints : &no_hints;
    if (!range_valid(c, addr, bytes) || !hints_valid(c, h))
        return MEM_ERR_ARGUMENT;
    mem_status st = read_access(c, addr, bytes, out, h, r);
    count_read(c, r);
    return st;
}

/* Whether any byte of the runs of sectors `mask` is valid in the byte bitmap `valid` (a partly
 * valid sector, which a fill must merge: fetch_sectors' slow case). */
static int runs_hold_bytes(const cache *c, uint64_t *valid, uint64_t mask)
{
    while (mask != 0) {
        unsigned first = (unsigned)__builtin_ctzll(mask);
        uint64_t rest = ~(mask >> first); /* zero only when all 64 sectors are requested */
        unsigned count = rest == 0 ? 64 : (unsigned)__builtin_ctzll(rest);
        if (bits_apply(valid, first << c->sector_shift, count << c->sector_shift, BITS_ANY))
            return 1;
        mask &= ~bit_range(first, count);
    }
    return 0;
}

/* fetch_sectors for runs of `mask` that hold no valid byte (runs_hold_bytes false), of the
 * line in way w of block g: each run read from the next level straight into the line. */
static inline __attribute__((always_inline)) mem_status
fetch_runs(cache *c, line_group *g, uint32_t w, uint64_t mask, void *rq,
                             cache_result *r)
{
    size_t slot = (size_t)g->data_slots[w] - 1;
    uint64_t *valid = &c->byte_masks[slot * 2 * c->bitmap_words];
    uint8_t *data = &c->data[slot << c->line_shift];
    uint64_t line_addr = (g->tags[w] - 1) << c->line_shift;
    while (mask != 0) {
        unsigned first = (unsigned)__builtin_ctzll(mask);
        uint64_t rest = ~(mask >> first);
        unsigned count = rest == 0 ? 64 : (unsigned)__builtin_ctzll(rest);
        uint32_t run_bytes = count << c->sector_shift, at = first << c->sector_shift;
        mem_status st = c->next.read(c->next.ctx, rq, line_addr + at, run_bytes, data + at);
        if (st != MEM_OK)
            return st;
        bits_apply(valid, at, run_bytes, BITS_SET);
        g->valid_sectors[w] |= bit_range(first, count);
        r->fill_bytes += run_bytes;
        mask &= ~bit_range(first, count);
    }
    return MEM_OK;
}

/* Copies `bytes` at `offset` of a line's data to out (a whole line without a library call). */
static inline void copy_out(uint8_t *out, const uint8_t *data, uint32_t offset, uint32_t bytes)
{
    if (bytes == 128)
        memcpy(out, data + offset, 128);
    else
        memcpy(out, data + offset, bytes);
}

/* read_access of a run within one line for cache_read_line_miss's level below, without its
 * second look-up and fetch_sectors' general loop: a hit is a copy; a miss (the line absent
 * and allocated, or present without the requested sectors) reads its fill blocks from the next
 * level straight into the line. A fill wider than a line, a bypass, or a fill that would merge
 * into partly valid sectors takes read_access (nothing was changed before). */
static mem_status read_run(cache *c, uint64_t addr, uint32_t bytes, uint8_t *out,
                           const cache_hints *h, cache_result *r)
{
    uint64_t line_number = addr >> c->line_shift;
    uint32_t offset = (uint32_t)(addr & (c->config.line_bytes - 1));
    uint64_t requested = sectors_of_range(c, offset, bytes);
    uint32_t set = set_index(c, line_number);
    const line_group *found;
    uint32_t w;
    uint32_t line = find_slot(c, set, line_number, &found, &w);
    uint32_t fill_bytes = c->config.fill_bytes > h->fill_bytes ? c->config.fill_bytes
                                                               : h->fill_bytes;
    if (line != NO_INDEX) {
        uint64_t valid = found->valid_sectors[w];
        size_t slot = (size_t)found->data_slots[w] - 1;
        uint8_t *data = &c->data[slot << c->line_shift];
        uint64_t fill = 0;
        if (requested & ~valid) {
            if (fill_bytes > c->config.line_bytes)
                return read_access(c, addr, bytes, out, h, r);
            fill = fill_mask(c, line, requested & ~valid, fill_bytes);
            if (runs_hold_bytes(c, &c->byte_masks[slot * 2 * c->bitmap_words], fill))
                return read_access(c, addr, bytes, out, h, r);
        }
        r->line_hit = true;
        count_sectors(r, requested, valid);
        touch(c, line);
        apply_alloc_hint(c, line, (cache_alloc)h->alloc);
        if (fill) {
            mem_status st = fetch_runs(c, &c->groups[line >> GROUP_SHIFT], w, fill, h->request, r);
            if (st != MEM_OK)
                return st;
        }
        copy_out(out, data, offset, bytes);
        return MEM_OK;
    }
    if (h->alloc == CACHE_ALLOC_NONE || fill_bytes > c->config.line_bytes)
        return read_access(c, addr, bytes, out, h, r);
    count_sectors(r, requested, 0);
    mem_status st = allocate_line(c, set, line_number, h->kind, h->request, r, &line);
    if (st != MEM_OK)
        return st;
    apply_alloc_hint(c, line, (cache_alloc)h->alloc);
    line_group *g = &c->groups[line >> GROUP_SHIFT];
    w = line & (GROUP_LINES - 1);
    st = fetch_runs(c, g, w, fill_mask(c, line, requested, fill_bytes), h->request, r);
    if (st != MEM_OK)
        return st;
    copy_out(out, &c->data[((size_t)g->data_slots[w] - 1) << c->line_shift], offset, bytes);
    return MEM_OK;
}

/* Whether mask is one run of consecutive set bits (not zero). */
static inline int one_run(uint64_t mask)
{
    uint64_t run = mask >> (mask ? __builtin_ctzll(mask) : 0);
    return mask != 0 && (run & (run + 1)) == 0;
}

mem_status cache_read_line_miss(cache *c, cache *below, uint64_t line_addr, uint64_t sectors,
                                const cache_hints *h, const cache_hints *below_hints, uint8_t *out,
                                cache_result *r, cache_result *below_r, bool *taken)
{
    *taken = false;
    /* One run of sectors, fills of one sector, an allocating hint, lines of one size. */
    if (!one_run(sectors) || h->fill_bytes != 0 || h->alloc >= CACHE_ALLOC_NONE ||
        h->kind >= CACHE_KIND_COUNT || c->config.fill_bytes != c->config.sector_bytes ||
        c->config.line_bytes != below->config.line_bytes || !hints_valid(below, below_hints))
        return MEM_OK;
    uint64_t line_number = line_addr >> c->line_shift;
    uint32_t set = set_index(c, line_number);
    const line_group *found;
    uint32_t w;
    uint32_t line = find_slot(c, set, line_number, &found, &w);
    uint64_t valid = 0, missing = sectors;
    if (line != NO_INDEX) {
        /* Present: its missing sectors must be one run holding no valid byte (no merge). */
        valid = found->valid_sectors[w];
        missing = sectors & ~valid;
        if (!one_run(missing) ||
            runs_hold_bytes(c,
                            &c->byte_masks[((size_t)found->data_slots[w] - 1) * 2 *
                                           c->bitmap_words],
                            missing))
            return MEM_OK;
    }
    *taken = true;
    memset(r, 0, sizeof *r);
    count_sectors(r, sectors, valid);
    mem_status st;
    if (line != NO_INDEX) {
        r->line_hit = true;
        touch(c, line);
    } else if ((st = allocate_line(c, set, line_number, h->kind, h->request, r, &line)) !=
               MEM_OK) {
        count_read(c, r);
        return st;
    }
    apply_alloc_hint(c, line, (cache_alloc)h->alloc);
    /* fetch_sectors' one run: the level below reads straight into the line. */
    uint32_t at = (uint32_t)__builtin_ctzll(missing) << c->sector_shift;
    uint32_t run_bytes = (uint32_t)popcount64(missing) << c->sector_shift;
    line_group *g = &c->groups[line >> GROUP_SHIFT];
    w = line & (GROUP_LINES - 1);
    size_t slot = (size_t)g->data_slots[w] - 1;
    uint8_t *data = &c->data[slot << c->line_shift];
    memset(below_r, 0, sizeof *below_r);
    st = read_run(below, line_addr + at, run_bytes, data + at, below_hints, below_r);
    count_read(below, below_r);
    if (st == MEM_OK) {
        bits_apply(&c->byte_masks[slot * 2 * c->bitmap_words], at, run_bytes, BITS_SET);
        g->valid_sectors[w] |= missing;
        r->fill_bytes += run_bytes;
        uint32_t from = (uint32_t)__builtin_ctzll(sectors) << c->sector_shift;
        copy_out(out + from, data, from, (uint32_t)popcount64(sectors) << c->sector_shift);
    }
    count_read(c, r);
    return st;
}

/* ---- writes ---- */

/* A store's byte mask as bits of the line (bit i: byte i of the line is stored), computed once
 * per write; a NULL mask means every byte of the access. Only words [first, last], the ones the
 * access spans, are meaningful (the others are not even cleared), so that the per-line work
 * below is a few word operations rather than per-byte or per-run bitmap walks. */
enum { MASK_WORDS = 4096 / 64 };
typedef struct store_bits {
    uint64_t w[MASK_WORDS];
    uint32_t count;       /* stored bytes */
    uint32_t first, last; /* words of the line the access spans */
} store_bits;

/* Bit k of the result: mask byte k of the eight at p is non-zero. Each byte's top bit is set
 * when any of its bits is (no carry crosses a byte), then a multiply gathers the eight top bits
 * into the result's top byte (every partial product lands on its own bit, so none carries). */
static uint64_t nonzero_bytes8(const uint8_t *p)
{
    uint64_t v, low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    memcpy(&v, p, 8);
    uint64_t top = (((v & low7) + low7) | v) & ~low7;
    return ((top >> 7) * UINT64_C(0x0102040810204080)) >> 56;
}

/* The nonzero bytes of mask[0, bytes) as bits w[0 .. (bytes + 63) / 64) (bit i: byte i). */
static void mask_bits(const uint8_t *mask, uint32_t bytes, uint64_t *w)
{
    for (uint32_t k = 0; k < (bytes + 63) / 64; k++) w[k] = 0;
    uint32_t i = 0;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= bytes; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(mask + i));
        uint64_t zeros = (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero));
        w[i >> 6] |= (~zeros & 0xFFFF) << (i & 63);
    }
#endif
    for (; i + 8 <= bytes; i += 8) w[i >> 6] |= nonzero_bytes8(mask + i) << (i & 63);
    for (; i < bytes; i++)
        if (mask[i])
            w[i >> 6] |= UINT64_C(1) << (i & 63);
}

/* The store bits of [offset, offset + bytes) of a line under `mask` (may be NULL). */
static void mask_to_bits(const uint8_t *mask, uint32_t offset, uint32_t bytes, store_bits *b)
{
    b->first = offset >> 6;
    b->last = (offset + bytes - 1) >> 6;
    uint64_t *w = &b->w[b->first];
    unsigned shift = offset & 63;
    if (mask == NULL) {
        for (uint32_t k = b->first; k <= b->last; k++) b->w[k] = UINT64_MAX;
        b->w[b->first] &= UINT64_MAX << shift;
        b->w[b->last] &= UINT64_MAX >> (63 - ((offset + bytes - 1) & 63));
        b->count = bytes;
        return;
    }
    if (shift == 0) {
        mask_bits(mask, bytes, w);
    } else {
        uint64_t rel[MASK_WORDS];
        uint32_t words = b->last - b->first + 1;
        mask_bits(mask, bytes, rel);
        for (uint32_t k = 0; k < words; k++) w[k] = 0;
        for (uint32_t k = 0; k < (bytes + 63) / 64; k++) {
            w[k] |= rel[k] << shift;
            if (k + 1 < words)
                w[k + 1] |= rel[k] >> (64 - shift);
        }
    }
    b->count = 0;
    for (uint32_t k = b->first; k <= b->last; k++) b->count += word_popcount(b->w[k]);
}

/* Sectors of the line that receive a stored byte. */
static uint64_t sectors_of_bits(const cache *c, const store_bits *b)
{
    unsigned shift = c->sector_shift;
    uint64_t sectors = 0;
    if (shift == 5) { /* 32-byte sectors: two per word, tested by halves */
        for (uint32_t k = b->first; k <= b->last; k++) {
            uint64_t w = b->w[k];
            sectors |= (uint64_t)((uint32_t)w != 0) << (2 * k) |
                       (uint64_t)((w >> 32) != 0) << (2 * k + 1);
        }
        return sectors;
    }
    for (uint32_t k = b->first; k <= b->last; k++) {
        uint64_t w = b->w[k];
        if (w == 0)
            continue;
        if (shift >= 6) { /* sectors of 64 bytes or more: the word lies in one sector */
            sectors |= UINT64_C(1) << ((k << 6) >> shift);
            continue;
        }
        uint64_t sector_mask = (UINT64_C(1) << (1u << shift)) - 1;
        while (w != 0) {
            unsigned in_word = (unsigned)__builtin_ctzll(w) >> shift;
            sectors |= UINT64_C(1) << (((k << 6) >> shift) + in_word);
            w &= ~(sector_mask << (in_word << shift));
        }
    }
    return sectors;
}

/* Whether any (BITS_ANY) or every (BITS_ALL) bit of sector s is set in a line's byte bitmap. */
static int sector_bits(const cache *c, uint64_t *words, unsigned s, bits_op op)
{
    uint32_t sector_bytes = c->config.sector_bytes;
    if (sector_bytes > 64)
        return bits_apply(words, s * sector_bytes, sector_bytes, op);
    uint32_t first = s * sector_bytes;
    uint64_t m = bit_range(first & 63, sector_bytes);
    uint64_t w = words[first >> 6] & m;
    return op == BITS_ALL ? w == m : w != 0;
}

/* Line bytes under store bits `bits` (8 bits, byte i: bit i) take data's bytes, in one blend of
 * eight bytes. The byte mask: the bits copied into every byte by a multiply (no carries), bit
 * i kept in byte i, each nonzero byte's top bit set as nonzero_bytes8 does, spread to 0xFF. */
static inline void blend8(uint8_t *ld, const uint8_t *data, uint64_t bits)
{
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint64_t x = (bits * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201);
    uint64_t top = (((x & low7) + low7) | x) & ~low7;
    uint64_t mask = (top >> 7) * 0xFF;
    uint64_t old, new_bytes;
    memcpy(&old, ld, 8);
    memcpy(&new_bytes, data, 8);
    old = (old & ~mask) | (new_bytes & mask);
    memcpy(ld, &old, 8);
}

/* blend8 for 16 bytes under 16 bits, with SSE2: each half's bits copied into its eight bytes by
 * a multiply, byte i kept where bit i of its half is set (a compare with the byte's own bit). */
static inline void blend16(uint8_t *ld, const uint8_t *data, uint64_t bits)
{
#ifdef __SSE2__
    const uint64_t spread = UINT64_C(0x0101010101010101);
    const __m128i own = _mm_set1_epi64x((long long)UINT64_C(0x8040201008040201));
    __m128i b = _mm_set_epi64x((long long)(((bits >> 8) & 0xFF) * spread),
                               (long long)((bits & 0xFF) * spread));
    __m128i m = _mm_cmpeq_epi8(_mm_and_si128(b, own), own);
    __m128i old = _mm_loadu_si128((const __m128i *)(const void *)ld);
    __m128i new_bytes = _mm_loadu_si128((const __m128i *)(const void *)data);
    _mm_storeu_si128((__m128i *)(void *)ld,
                     _mm_or_si128(_mm_and_si128(m, new_bytes), _mm_andnot_si128(m, old)));
#else
    blend8(ld, data, bits & 0xFF);
    blend8(ld + 8, data + 8, (bits >> 8) & 0xFF);
#endif
}

/* A whole-line store (a warp's line, data for every byte) under its store bits b: `chunk`
 * (16 or 8, a constant where inlined) bytes at a time where any is stored, reading and writing
 * only inside the line and the data. */
static inline __attribute__((always_inline)) void
blend_whole_line(uint8_t *ld, const uint8_t *data, const store_bits *b, unsigned chunk)
{
    const uint64_t chunk_bits = chunk == 16 ? 0xFFFF : 0xFF;
    const unsigned chunk_shift = chunk == 16 ? 4 : 3;
    for (uint32_t k = b->first; k <= b->last; k++) {
        for (uint64_t w = b->w[k]; w != 0;) {
            unsigned at = ((unsigned)__builtin_ctzll(w) >> chunk_shift) << chunk_shift;
            uint32_t i = k * 64 + at;
            if (chunk == 16)
                blend16(ld + i, data + i, (w >> at) & chunk_bits);
            else
                blend8(ld + i, data + i, (w >> at) & chunk_bits);
            w &= ~(chunk_bits << at);
        }
    }
}

/* Stores into a resident line; the stored bytes become valid, and dirty unless written through. */
static void store_into_line(cache *c, uint32_t line, uint32_t offset, uint32_t bytes,
                            const uint8_t *data, const store_bits *b, uint64_t sectors, int dirty)
{
    uint8_t *ld = line_data(c, line);
    uint64_t *valid = valid_bits(c, line), *dirt = dirty_bits(c, line);
    if (b->count == bytes) {
        if (bytes == 128)
            memcpy(ld + offset, data, 128);
        else
            memcpy(ld + offset, data, bytes);
    } else if (offset == 0 && bytes == c->config.line_bytes && bytes % 16 == 0) {
        blend_whole_line(ld, data, b, 16);
    } else if (offset == 0 && bytes == c->config.line_bytes && bytes % 8 == 0) {
        blend_whole_line(ld, data, b, 8); /* 8-byte lines */
    } else {
        /* Run by run of stored bytes (a scattered store has a few short runs per line). */
        for (uint32_t k = b->first; k <= b->last; k++) {
            for (uint64_t w = b->w[k]; w != 0;) {
                unsigned s = (unsigned)__builtin_ctzll(w);
                uint64_t rest = ~(w >> s); /* zero only when bits s..63 are all set */
                unsigned n = rest == 0 ? 64 - s : (unsigned)__builtin_ctzll(rest);
                uint32_t i = k * 64 + s;
                if (n == 4)
                    memcpy(ld + i, data + (i - offset), 4);
                else
                    memcpy(ld + i, data + (i - offset), n);
                w &= ~bit_range(s, n);
            }
        }
    }
    for (uint32_t k = b->first; k <= b->last; k++) {
        valid[k] |= b->w[k];
        dirt[k] = dirty ? dirt[k] | b->w[k] : dirt[k] & ~b->w[k];
    }
    for (uint64_t m = sectors & ~LINE_FIELD(c, line, valid_sectors); m != 0; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        if (sector_bits(c, valid, s, BITS_ALL))
            LINE_FIELD(c, line, valid_sectors) |= UINT64_C(1) << s;
    }
    if (dirty) {
        LINE_FIELD(c, line, dirty_sectors) |= sectors;
        return;
    }
    for (uint64_t m = sectors & LINE_FIELD(c, line, dirty_sectors); m != 0; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        if (!sector_bits(c, dirt, s, BITS_ANY))
            LINE_FIELD(c, line, dirty_sectors) &= ~(UINT64_C(1) << s);
    }
}

/* The store bits of a whole-line store whose caller has them as bits already. */
static void line_bits_to_store_bits(const cache *c, const uint64_t *bits, store_bits *b)
{
    b->first = 0;
    b->last = c->bitmap_words - 1;
    b->count = 0;
    for (uint32_t k = 0; k < c->bitmap_words; k++) {
        b->w[k] = bits[k];
        b->count += word_popcount(bits[k]);
    }
}

/* A store within one line; `bits` (may be NULL) are the mask's bits of a whole-line store. */
static mem_status write_access(cache *c, uint64_t addr, uint32_t bytes, const uint8_t *data,
                               const uint8_t *mask, const uint64_t *bits, const cache_hints *h,
                               cache_result *r)
{
    uint64_t line_number = addr >> c->line_shift;
    uint32_t offset = (uint32_t)(addr & (c->config.line_bytes - 1));
    store_bits sb;
    if (bits != NULL)
        line_bits_to_store_bits(c, bits, &sb);
    else
        mask_to_bits(mask, offset, bytes, &sb);
    uint64_t sectors = sectors_of_bits(c, &sb);
    if (sectors == 0)
        return MEM_OK; /* an all-zero mask stores nothing */
    int through = h->write_mode == CACHE_WRITE_THROUGH ||
                  (h->write_mode == CACHE_WRITE_DEFAULT &&
                   ((c->config.write_through_kinds >> h->kind) & 1));
    uint32_t set = set_index(c, line_number);
    uint32_t line = find_line(c, set, line_number);
    mem_status st;
    if (line != NO_INDEX) {
        r->line_hit = true;
        count_sectors(r, sectors, LINE_FIELD(c, line, valid_sectors));
        touch(c, line);
    } else {
        count_sectors(r, sectors, 0);
        if (!c->config.write_allocate || h->alloc == CACHE_ALLOC_NONE) {
            st = c->next.write(c->next.ctx, h->request, addr, bytes, data, mask);
            if (st == MEM_OK)
                r->write_through_bytes += sb.count;
            return st;
        }
        st = allocate_line(c, set, line_number, h->kind, h->request, r, &line);
        if (st != MEM_OK)
            return st;
    }
    apply_alloc_hint(c, line, (cache_alloc)h->alloc);
    if (through) {
        st = c->next.write(c->next.ctx, h->request, addr, bytes, data, mask);
        if (st != MEM_OK)
            return st;
        r->write_through_bytes += sb.count;
    }
    store_into_line(c, line, offset, bytes, data, &sb, sectors, !through);
    return MEM_OK;
}

/* cache_write_masked, and cache_write_line_bits with its bits. */
static mem_status write_counted(cache *c, uint64_t addr, uint32_t bytes, const void *data,
                                const uint8_t *byte_mask, const uint64_t *bits,
                                const cache_hints *hints, cache_result *result)
{
    cache_result local;
    cache_result *r = result != NULL ? result : &local;
    memset(r, 0, sizeof *r);
    const cache_hints *h = hints != NULL ? hints : &no_hints;
    if (!range_valid(c, addr, bytes) || !hints_valid(c, h))
        return MEM_ERR_ARGUMENT;
    mem_status st = write_access(c, addr, bytes, data, byte_mask, bits, h, r);
    c->stats.writes++;
    c->stats.write_sector_hits += r->sector_hits;
    c->stats.write_sector_misses += r->sector_misses;
    result_add_to_stats(c, r);
    return st;
}

mem_status cache_write_masked(cache *c, uint64_t addr, uint32_t bytes, const void *data,
                              const uint8_t *byte_mask, const cache_hints *hints,
                              cache_result *result)
{
    return write_counted(c, addr, bytes, data, byte_mask, NULL, hints, result);
}

/* write_access for a store of every byte of a line (store bits all set, 128-byte lines): every
 * sector is touched and becomes valid, and dirty unless written through; no bit loops. */
static mem_status write_whole_line(cache *c, uint64_t addr, const uint8_t *data,
                                   const uint8_t *mask, const cache_hints *h, cache_result *r)
{
    uint64_t line_number = addr >> c->line_shift;
    uint64_t sectors = bit_range(0, c->sectors_per_line);
    int through = h->write_mode == CACHE_WRITE_THROUGH ||
                  (h->write_mode == CACHE_WRITE_DEFAULT &&
                   ((c->config.write_through_kinds >> h->kind) & 1));
    uint32_t set = set_index(c, line_number);
    uint32_t line = find_line(c, set, line_number);
    mem_status st;
    if (line != NO_INDEX) {
        r->line_hit = true;
        count_sectors(r, sectors, LINE_FIELD(c, line, valid_sectors));
        touch(c, line);
    } else {
        count_sectors(r, sectors, 0);
        if (!c->config.write_allocate || h->alloc == CACHE_ALLOC_NONE) {
            st = c->next.write(c->next.ctx, h->request, addr, 128, data, mask);
            if (st == MEM_OK)
                r->write_through_bytes += 128;
            return st;
        }
        st = allocate_line(c, set, line_number, h->kind, h->request, r, &line);
        if (st != MEM_OK)
            return st;
    }
    apply_alloc_hint(c, line, (cache_alloc)h->alloc);
    if (through) {
        st = c->next.write(c->next.ctx, h->request, addr, 128, data, mask);
        if (st != MEM_OK)
            return st;
        r->write_through_bytes += 128;
    }
    line_group *g = &c->groups[line >> GROUP_SHIFT];
    uint32_t w = line & (GROUP_LINES - 1);
    size_t slot = (size_t)g->data_slots[w] - 1;
    uint64_t *valid = &c->byte_masks[slot * 4];
    memcpy(&c->data[slot << 7], data, 128);
    valid[0] = valid[1] = UINT64_MAX;
    valid[2] = valid[3] = through ? 0 : UINT64_MAX; /* the dirty bits */
    g->valid_sectors[w] = sectors;
    g->dirty_sectors[w] = through ? 0 : sectors;
    return MEM_OK;
}

mem_status cache_write_line_bits(cache *c, uint64_t addr, const void *data,
                                 const uint8_t *byte_mask, const uint64_t *bits,
                                 const cache_hints *hints, cache_result *result)
{
    if (addr & (c->config.line_bytes - 1)) {
        if (result != NULL)
            memset(result, 0, sizeof *result);
        return MEM_ERR_ARGUMENT;
    }
    const cache_hints *h = hints != NULL ? hints : &no_hints;
    if (c->config.line_bytes == 128 && (bits[0] & bits[1]) == UINT64_MAX && result != NULL &&
        hints_valid(c, h)) { /* every byte of a 128-byte line: a warp's full store */
        memset(result, 0, sizeof *result);
        mem_status st = write_whole_line(c, addr, data, byte_mask, h, result);
        c->stats.writes++;
        c->stats.write_sector_hits += result->sector_hits;
        c->stats.write_sector_misses += result->sector_misses;
        result_add_to_stats(c, result);
        return st;
    }
    return write_counted(c, addr, c->config.line_bytes, data, byte_mask, bits, hints, result);
}

mem_status cache_write(cache *c, uint64_t addr, uint32_t bytes, const void *data,
                       const cache_hints *hints, cache_result *result)
{
    return cache_write_masked(c, addr, bytes, data, NULL, hints, result);
}

/* ---- lookup ---- */

static inline uint32_t lookup_line(const cache *c, uint64_t addr)
{
    uint64_t line_number = addr >> c->line_shift;
    return find_line(c, set_index(c, line_number), line_number);
}

void cache_prefetch_set(const cache *c, uint64_t addr)
{
    uint64_t line_number = addr >> c->line_shift;
    uint32_t base = set_index(c, line_number) * c->set_stride;
    const line_group *g = &c->groups[base >> GROUP_SHIFT];
    __builtin_prefetch(g->prints);
    __builtin_prefetch(&g->tags[base & (GROUP_LINES - 1)]);
}

uint64_t cache_lookup_sectors(const cache *c, uint64_t addr)
{
    uint32_t line = lookup_line(c, addr);
    return line == NO_INDEX ? 0 : LINE_FIELD(c, line, valid_sectors);
}

bool cache_lookup(const cache *c, uint64_t addr, cache_line_info *info)
{
    memset(info, 0, sizeof *info);
    uint32_t line = lookup_line(c, addr);
    if (line == NO_INDEX)
        return false;
    info->present = true;
    info->valid_sectors = LINE_FIELD(c, line, valid_sectors);
    info->dirty_sectors = LINE_FIELD(c, line, dirty_sectors);
    uint32_t sector_bytes = c->config.sector_bytes;
    for (unsigned s = 0; s < c->sectors_per_line; s++)
        if (!(info->valid_sectors >> s & 1) &&
            bits_apply(valid_bits(c, line), s * sector_bytes, sector_bytes, BITS_ANY))
            info->partial_sectors |= UINT64_C(1) << s;
    info->priority = LINE_FIELD(c, line, priorities);
    info->kind = LINE_FIELD(c, line, kinds);
    info->set = line / c->set_stride;
    info->way = line % c->set_stride;
    return true;
}

uint64_t cache_demote_last(cache *c)
{
    uint64_t n = 0;
    for (uint32_t line = 0; line < c->slot_count; line++) {
        if (LINE_FIELD(c, line, tags) != NO_LINE &&
            LINE_FIELD(c, line, priorities) == CACHE_PRIORITY_LAST) {
            set_class(c, line, CACHE_PRIORITY_NORMAL);
            n++;
        }
    }
    return n;
}

void cache_set_persisting_limit(cache *c, uint64_t lines)
{
    c->config.persisting_limit_lines = lines;
}

bool cache_peek(const cache *c, uint64_t addr, uint32_t bytes, uint8_t *out, uint8_t *got)
{
    uint32_t line = lookup_line(c, addr);
    if (line == NO_INDEX)
        return false;
    uint32_t offset = (uint32_t)(addr & ((UINT64_C(1) << c->line_shift) - 1));
    const uint64_t *valid = valid_bits(c, line);
    const uint8_t *data = line_data(c, line);
    bool any = false;
    for (uint32_t i = 0; i < bytes && offset + i < c->config.line_bytes; i++) {
        if (bit_test(valid, offset + i)) {
            out[i] = data[offset + i];
            got[i] = 1;
            any = true;
        }
    }
    return any;
}

/* ---- cache control ---- */

static mem_status invalidate_one(cache *c, uint32_t line, bool writeback_first, void *rq,
                                 cache_result *r)
{
    if (writeback_first) {
        mem_status st = writeback_line(c, line, rq, r);
        if (st != MEM_OK)
            return st;
    }
    drop_line(c, line);
    c->stats.invalidated_lines++;
    return MEM_OK;
}

typedef enum line_op { LINE_DISCARD, LINE_INVALIDATE, LINE_WRITEBACK, LINE_INVALIDATE_CLEAN } line_op;

/* One line operation on a resident line. */
static mem_status line_control(cache *c, uint32_t line, line_op op, void *rq, cache_result *r)
{
    switch (op) {
    case LINE_WRITEBACK: return writeback_line(c, line, rq, r);
    case LINE_INVALIDATE_CLEAN:
        if (LINE_FIELD(c, line, dirty_sectors) != 0)
            return MEM_OK;
        return invalidate_one(c, line, false, rq, r);
    default: return invalidate_one(c, line, op == LINE_INVALIDATE, rq, r);
    }
}

/* Runs a line operation on the line holding addr and accounts its traffic. */
static mem_status control_line(cache *c, uint64_t addr, line_op op, void *rq,
                               cache_result *result)
{
    cache_result local;
    cache_result *r = result != NULL ? result : &local;
    memset(r, 0, sizeof *r);
    uint32_t line = lookup_line(c, addr);
    if (line == NO_INDEX)
        return MEM_OK;
    r->line_hit = true;
    mem_status st = line_control(c, line, op, rq, r);
    result_add_to_stats(c, r);
    return st;
}

mem_status cache_invalidate_line(cache *c, uint64_t addr, bool writeback_first, void *request,
                                 cache_result *result)
{
    return control_line(c, addr, writeback_first ? LINE_INVALIDATE : LINE_DISCARD, request,
                        result);
}

mem_status cache_discard_line(cache *c, uint64_t addr, cache_result *result)
{
    return control_line(c, addr, LINE_DISCARD, NULL, result);
}

mem_status cache_writeback_line(cache *c, uint64_t addr, void *request, cache_result *result)
{
    return control_line(c, addr, LINE_WRITEBACK, request, result);
}

mem_status cache_invalidate_clean_line(cache *c, uint64_t addr, cache_result *result)
{
    return control_line(c, addr, LINE_INVALIDATE_CLEAN, NULL, result);
}

mem_status cache_set_line_priority(cache *c, uint64_t addr, cache_priority priority)
{
    if ((unsigned)priority > CACHE_PRIORITY_LAST)
        return MEM_ERR_ARGUMENT;
    uint32_t line = lookup_line(c, addr);
    if (line != NO_INDEX)
        set_class(c, line, priority);
    return MEM_OK;
}

/* Runs op on every resident line of the selected kinds whose slice is in [first, first + count)
 * (slice s of a sliced cache owns sets s, s + slices, ...: set_index). */
static mem_status control_range(cache *c, uint32_t kind_filter, uint32_t first, uint32_t count,
                                line_op op, void *rq, cache_result *result)
{
    cache_result local;
    cache_result *r = result != NULL ? result : &local;
    memset(r, 0, sizeof *r);
    mem_status st = MEM_OK;
    uint32_t slices = c->config.slices > 1 ? c->config.slices : 1;
    /* The blocks that ever held a line, in slot order; a write-back passes clean lines by. */
    uint32_t groups = (c->slot_count + GROUP_LINES - 1) >> GROUP_SHIFT;
    for (uint32_t k = 0; k < (groups + 63) / 64 && st == MEM_OK; k++) {
        for (uint64_t used = c->used_groups[k]; used && c->resident_lines != 0; used &= used - 1) {
            uint32_t base = (k * 64 + (uint32_t)__builtin_ctzll(used)) << GROUP_SHIFT;
            const line_group *g = &c->groups[base >> GROUP_SHIFT];
            for (uint32_t w = 0; w < GROUP_LINES && base + w < c->slot_count; w++) {
                uint32_t line = base + w;
                if (g->tags[w] == NO_LINE || !((kind_filter >> g->kinds[w]) & 1) ||
                    (op == LINE_WRITEBACK && g->dirty_sectors[w] == 0))
                    continue;
                uint32_t slice = (line / c->set_stride) % slices;
                if (slice < first || slice - first >= count)
                    continue;
                st = line_control(c, line, op, rq, r);
                if (st != MEM_OK || c->resident_lines == 0)
                    break;
            }
            if (st != MEM_OK)
                break;
        }
    }
    result_add_to_stats(c, r);
    return st;
}

static mem_status control_all(cache *c, uint32_t kind_filter, line_op op, void *rq,
                              cache_result *result)
{
    return control_range(c, kind_filter, 0, UINT32_MAX, op, rq, result);
}

mem_status cache_control_slices(cache *c, uint32_t kind_filter, uint32_t first_slice,
                                uint32_t slice_count, cache_whole_op op, void *request,
                                cache_result *result)
{
    static const line_op ops[] = {[CACHE_WHOLE_WRITEBACK] = LINE_WRITEBACK,
                                  [CACHE_WHOLE_INVALIDATE] = LINE_INVALIDATE,
                                  [CACHE_WHOLE_DISCARD] = LINE_DISCARD,
                                  [CACHE_WHOLE_INVALIDATE_CLEAN] = LINE_INVALIDATE_CLEAN};
    if ((unsigned)op >= sizeof ops / sizeof ops[0])
        return MEM_ERR_ARGUMENT;
    return control_range(c, kind_filter, first_slice, slice_count, ops[op], request, result);
}

mem_status cache_invalidate_all(cache *c, uint32_t kind_filter, bool writeback_dirty,
                                void *request, cache_result *result)
{
    return control_all(c, kind_filter, writeback_dirty ? LINE_INVALIDATE : LINE_DISCARD, request,
                       result);
}

mem_status cache_writeback_all(cache *c, uint32_t kind_filter, void *request,
                               cache_result *result)
{
    return control_all(c, kind_filter, LINE_WRITEBACK, request, result);
}

mem_status cache_invalidate_clean_all(cache *c, uint32_t kind_filter, cache_result *result)
{
    return control_all(c, kind_filter, LINE_INVALIDATE_CLEAN, NULL, result);
}

mem_status cache_flush(cache *c, cache_result *result)
{
    return control_all(c, CACHE_KIND_ALL, LINE_WRITEBACK, NULL, result);
}

/* ---- statistics and geometry ---- */

const cache_stats *cache_get_stats(const cache *c)
{
    return &c->stats;
}

void cache_reset_stats(cache *c)
{
    uint64_t lines[3];
    memcpy(lines, c->stats.lines_by_priority, sizeof lines);
    memset(&c->stats, 0, sizeof c->stats);
    memcpy(c->stats.lines_by_priority, lines, sizeof lines);
    c->stats.peak_last_lines = c->last_count;
}

const cache_config *cache_get_config(const cache *c)
{
    return &c->config;
}

uint32_t cache_set_count(const cache *c)
{
    return c->sets;
}

uint32_t cache_slice_of(const cache *c, uint64_t addr)
{
    return c->config.slices > 1 ? slice_of_line(c, addr >> c->line_shift) : 0;
}

uint32_t cache_set_of(const cache *c, uint64_t addr)
{
    return set_index(c, addr >> c->line_shift);
}

