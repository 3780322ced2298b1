/* One sectored, data-carrying cache level (see cache.h and docs/cache-model.md).
 *
 * A line slot is set * set_stride + way; a set's slots are consecutive. Each slot's metadata is
 * one 40-byte record (tag, valid and dirty sectors, stamp, data slot, class, kind), beside an
 * array of one-byte tag prints, so that a hit, a store or a fill of one line reads and writes one
 * record (cache_internal.h). Line data and the per-byte valid/dirty bitmaps are indexed by data
 * slot, in the same storage block. Recency is a 64-bit stamp from one clock per cache; LAST lines
 * are also kept on a doubly linked list in stamp order, so the persisting limit finds the least
 * recently used LAST line of the whole cache in O(1). This file holds the reads (the general path
 * and the warp's miss path), fills, allocation and write-back; the warp's hit paths are in
 * cache_hits.c, the stores in cache_write.c, cache control in cache_control.c, the shared inline
 * helpers in cache_ops.h. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include "mem/cache.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache_ops.h"

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

void cache_set_class(cache *c, uint32_t line, cache_priority priority)
{
    if (priority == CACHE_PRIORITY_LAST)
        grant_last(c, line);
    else
        set_class_plain(c, line, priority);
}

void cache_apply_class_hint(cache *c, uint32_t line, cache_alloc alloc)
{
    switch (alloc) {
    case CACHE_ALLOC_NORMAL: cache_set_class(c, line, CACHE_PRIORITY_NORMAL); break;
    case CACHE_ALLOC_FIRST: cache_set_class(c, line, CACHE_PRIORITY_FIRST); break;
    case CACHE_ALLOC_LAST: cache_set_class(c, line, CACHE_PRIORITY_LAST); break;
    case CACHE_ALLOC_UNCHANGED:
    case CACHE_ALLOC_NONE: break;
    }
}


/* Moves a LAST line that was touched to the most recent end of the LAST list. */
void cache_touch_last(cache *c, uint32_t line)
{
    last_unlink(c, line);
    last_link_sorted(c, line);
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
    uint64_t *dirty_sectors = &LINE_FIELD(c, line, dirty_sectors);
    uint64_t *dirty = dirty_bits(c, line);
    const uint8_t *data = line_data(c, line);
    uint64_t line_addr = line_address(c, line);
    while (*dirty_sectors != 0) {
        uint64_t mask_sectors = *dirty_sectors;
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
        *dirty_sectors &= ~bit_range(first, count);
        r->writeback_bytes += run_bytes;
    }
    return MEM_OK;
}

/* Writes every dirty sector of a line to the next level (only its dirty bytes) and cleans it.
 * `rq` is the request on whose behalf (cache_hints.request). */
mem_status cache_writeback_dirty(cache *c, uint32_t line, void *rq, cache_result *r)
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

void cache_drop_line(cache *c, uint32_t line)
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

/* Victim order: an empty way, else the least recently used FIRST line, else NORMAL, else LAST.
 * The set's first group of slots has held a line (cache_allocate_line takes way 0 of an empty
 * set without reading its metadata). */
static uint32_t choose_victim(const cache *c, uint32_t set)
{
    uint32_t base = set * c->set_stride;
    /* One pass: the lowest class seen so far, and its least recent line (stamps are unique). */
    uint32_t best = base;
    unsigned best_class = CACHE_PRIORITY_LAST + 1;
    uint64_t best_stamp = 0;
    if (c->ways == GROUP_LINES) { /* the set is a group */
        const line_meta *m = &c->meta[base];
        /* The lowest empty way: empty ways have the print of NO_LINE (a few lines may too). */
        for (uint32_t k = print_matches(&c->prints[base], GROUP_LINES, TAG_PRINT(NO_LINE)); k;
             k &= k - 1)
            if (m[__builtin_ctz(k)].tag == NO_LINE)
                return base + (uint32_t)__builtin_ctz(k);
        /* A full set of one class (the usual case): its least recent line, with the classes'
         * agreement checked on the way (both in the records the stamps are read from). */
        uint32_t oldest = 0;
        unsigned differ = 0, first = m[0].priority;
        for (uint32_t w = 1; w < GROUP_LINES; w++) {
            oldest = m[w].stamp < m[oldest].stamp ? w : oldest;
            differ |= m[w].priority ^ first;
        }
        if (!differ)
            return base + oldest;
        for (uint32_t w = 0; w < GROUP_LINES; w++) {
            unsigned p = m[w].priority;
            if (p < best_class || (p == best_class && m[w].stamp < best_stamp)) {
                best = base + w;
                best_class = p;
                best_stamp = m[w].stamp;
            }
        }
        return best;
    }
    for (uint32_t line = base; line < base + c->ways; line++) {
        const line_meta *m = &c->meta[line];
        if (m->tag == NO_LINE)
            return line;
        unsigned p = m->priority;
        if (p < best_class || (p == best_class && m->stamp < best_stamp)) {
            best = line;
            best_class = p;
            best_stamp = m->stamp;
        }
    }
    return best;
}

/* Makes room in `set` and installs `line_number` as a NORMAL, empty, most recent line. The
 * first line of a group that never held one is written without reading the group first
 * (group_used): the fill faults each of its pages in once. Inline in the miss path's two
 * allocations (an L1 line and the L2 line below it), where a call's saving and restoring of
 * registers cost a quarter of the allocation; cache_allocate_line for the others. */
static inline __attribute__((always_inline)) mem_status
allocate_line(cache *c, uint32_t set, uint64_t line_number, uint8_t kind, void *rq,
              cache_result *r, uint32_t *out)
{
    uint32_t line = set * c->set_stride;
    int fresh = !group_used(c, line >> GROUP_SHIFT); /* every slot of the group empty */
    if (!fresh) {
        line = choose_victim(c, set);
        if (c->set_stride > GROUP_LINES) /* a set of several groups: the victim's own */
            fresh = !group_used(c, line >> GROUP_SHIFT);
    }
    if (!fresh && LINE_FIELD(c, line, tags) != NO_LINE) {
        int was_dirty = LINE_FIELD(c, line, dirty_sectors) != 0;
        mem_status st = was_dirty ? cache_writeback_dirty(c, line, rq, r) : MEM_OK;
        if (st != MEM_OK)
            return st;
        cache_drop_line(c, line);
        r->evictions++;
        c->stats.dirty_evictions += (uint64_t)was_dirty;
    }
    line_meta *m = &c->meta[line];
    c->used_groups[line >> (GROUP_SHIFT + 6)] |= UINT64_C(1) << ((line >> GROUP_SHIFT) & 63);
    m->tag = TAG_OF(line_number);
    c->prints[line] = TAG_PRINT(TAG_OF(line_number));
    m->kind = kind;
    m->priority = CACHE_PRIORITY_NORMAL;
    c->stats.lines_by_priority[CACHE_PRIORITY_NORMAL]++;
    if (fresh || m->data_slot == 0)
        m->data_slot = cache_new_data_slot(c);
    uint64_t *bits = &c->byte_masks[(size_t)(m->data_slot - 1) * 2 * c->bitmap_words];
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

mem_status cache_allocate_line(cache *c, uint32_t set, uint64_t line_number, uint8_t kind,
                               void *rq, cache_result *r, uint32_t *out)
{
    return allocate_line(c, set, line_number, kind, rq, r, out);
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
    line_meta *m = &c->meta[line];
    size_t slot = (size_t)m->data_slot - 1;
    uint64_t *valid = &c->byte_masks[slot * 2 * c->bitmap_words];
    uint8_t *data = &c->data[slot << c->line_shift];
    uint64_t line_addr = (m->tag - 1) << c->line_shift;
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
        m->valid_sectors |= bit_range(first, count);
        r->fill_bytes += run_bytes;
        mask &= ~bit_range(first, count);
    }
    return MEM_OK;
}

/* The sectors of the line to fetch for `missing`: every aligned fill block holding a missing
 * sector, less the sectors already fully valid. */
static inline uint64_t fill_mask(const cache *c, uint32_t line, uint64_t missing,
                                 uint32_t fill_bytes)
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
            mem_status st = cache_allocate_line(c, set, n, h->kind, h->request, r, &line);
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

static inline __attribute__((always_inline)) mem_status
read_access_in(cache *c, uint32_t set, uint64_t addr, uint32_t bytes, void *out,
               const cache_hints *h, cache_result *r)
{
    uint64_t line_number = addr >> c->line_shift;
    uint32_t offset = (uint32_t)(addr & (c->config.line_bytes - 1));
    uint64_t requested = sectors_of_range(c, offset, bytes);
    assert(set == set_index(c, line_number));
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
        st = cache_allocate_line(c, set, line_number, h->kind, h->request, r, &line);
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

static mem_status read_access(cache *c, uint64_t addr, uint32_t bytes, void *out,
                              const cache_hints *h, cache_result *r)
{
    return read_access_in(c, set_index(c, addr >> c->line_shift), addr, bytes, out, h, r);
}

/* read_access's statistics of one read (cache_read's tail). */
static inline void count_read(cache *c, const cache_result *r)
{
    c->stats.reads++;
    c->stats.read_sector_hits += r->sector_hits;
    c->stats.read_sector_misses += r->sector_misses;
    result_add_to_stats(c, r);
}

/* cache_read's checks, read and statistics, with the set of the line holding addr. */
static inline __attribute__((always_inline)) mem_status
read_checked(cache *c, uint32_t set, uint64_t addr, uint32_t bytes, void *out,
             const cache_hints *hints, cache_result *result)
{
    cache_result local;
    cache_result *r = result != NULL ? result : &local;
    memset(r, 0, sizeof *r);
    const cache_hints *h = hints != NULL ? hints : &no_hints;
    if (!range_valid(c, addr, bytes) || !hints_valid(c, h))
        return MEM_ERR_ARGUMENT;
    mem_status st = read_access_in(c, set, addr, bytes, out, h, r);
    count_read(c, r);
    return st;
}

mem_status cache_read(cache *c, uint64_t addr, uint32_t bytes, void *out, const cache_hints *hints,
                      cache_result *result)
{
    return read_checked(c, set_index(c, addr >> c->line_shift), addr, bytes, out, hints, result);
}

mem_status cache_read_in_set(cache *c, uint32_t set, uint64_t addr, uint32_t bytes, void *out,
                             const cache_hints *hints, cache_result *result)
{
    return read_checked(c, set, addr, bytes, out, hints, result);
}

/* Whether mask is one run of consecutive set bits (not zero). */
static inline int one_run(uint64_t mask)
{
    uint64_t run = mask >> (mask ? __builtin_ctzll(mask) : 0);
    return mask != 0 && (run & (run + 1)) == 0;
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

/* runs_hold_bytes, with the common case of one run (a scattered load's missing sector, or
 * its fill block) inline. */
static inline int fill_holds_bytes(const cache *c, uint64_t *valid, uint64_t mask)
{
    if (mask && one_run(mask)) {
        unsigned first = (unsigned)__builtin_ctzll(mask), count = popcount64(mask);
        return bits_apply(valid, first << c->sector_shift, count << c->sector_shift, BITS_ANY);
    }
    return runs_hold_bytes(c, valid, mask);
}

/* fetch_sectors for runs of `mask` that hold no valid byte (runs_hold_bytes false), of the
 * line whose record is m: each run read from the next level straight into the line. */
static inline __attribute__((always_inline)) mem_status
fetch_runs(cache *c, line_meta *m, uint64_t mask, void *rq, cache_result *r)
{
    size_t slot = (size_t)m->data_slot - 1;
    uint64_t *valid = &c->byte_masks[slot * 2 * c->bitmap_words];
    uint8_t *data = &c->data[slot << c->line_shift];
    uint64_t line_addr = (m->tag - 1) << c->line_shift;
    while (mask != 0) {
        unsigned first = (unsigned)__builtin_ctzll(mask);
        uint64_t rest = ~(mask >> first);
        unsigned count = rest == 0 ? 64 : (unsigned)__builtin_ctzll(rest);
        uint32_t run_bytes = count << c->sector_shift, at = first << c->sector_shift;
        mem_status st = c->next.read(c->next.ctx, rq, line_addr + at, run_bytes, data + at);
        if (st != MEM_OK)
            return st;
        bits_apply(valid, at, run_bytes, BITS_SET);
        m->valid_sectors |= bit_range(first, count);
        r->fill_bytes += run_bytes;
        mask &= ~bit_range(first, count);
    }
    return MEM_OK;
}

/* Copies `bytes` at `offset` of a line's data to out (a whole line without a library call). */
static inline void copy_out(uint8_t *out, const uint8_t *data, uint32_t offset, uint32_t bytes)
{
    if (bytes == 128)
        copy_block(out, data + offset, 128);
    else if (bytes == 32) /* a scattered load's sector */
        copy_block(out, data + offset, 32);
    else if (bytes == 64)
        copy_block(out, data + offset, 64);
    else
        memcpy(out, data + offset, bytes);
}

/* read_access of a run within one line for cache_read_line_miss's level below, without its
 * second look-up and fetch_sectors' general loop: a hit is a copy; a miss (the line absent
 * and allocated, or present without the requested sectors) reads its fill blocks from the next
 * level straight into the line. A fill wider than a line, a bypass, or a fill that would merge
 * into partly valid sectors takes read_access (nothing was changed before). */
static mem_status read_run(cache *c, uint64_t addr, uint32_t bytes, uint8_t *out,
                           const cache_hints *h, cache_result *r, uint32_t *set_io)
{
    uint64_t line_number = addr >> c->line_shift;
    uint32_t offset = (uint32_t)(addr & (c->config.line_bytes - 1));
    uint64_t requested = sectors_of_range(c, offset, bytes);
    uint32_t set = *set_io != CACHE_SET_UNKNOWN ? *set_io : set_index(c, line_number);
    assert(set == set_index(c, line_number));
    *set_io = set;
    const line_meta *found;
    uint32_t line = find_slot(c, set, line_number, &found);
    uint32_t fill_bytes = c->config.fill_bytes > h->fill_bytes ? c->config.fill_bytes
                                                               : h->fill_bytes;
    if (line != NO_INDEX) {
        uint64_t valid = found->valid_sectors;
        size_t slot = data_slot(c, line);
        uint8_t *data = &c->data[slot << c->line_shift];
        uint64_t fill = 0;
        if (requested & ~valid) {
            if (fill_bytes > c->config.line_bytes)
                return read_access(c, addr, bytes, out, h, r);
            fill = fill_mask(c, line, requested & ~valid, fill_bytes);
            if (fill_holds_bytes(c, &c->byte_masks[slot * 2 * c->bitmap_words], fill))
                return read_access(c, addr, bytes, out, h, r);
        }
        r->line_hit = true;
        count_sectors(r, requested, valid);
        touch(c, line);
        apply_alloc_hint(c, line, (cache_alloc)h->alloc);
        if (fill) {
            mem_status st = fetch_runs(c, &c->meta[line], fill, h->request, r);
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
    st = fetch_runs(c, &c->meta[line], fill_mask(c, line, requested, fill_bytes), h->request, r);
    if (st != MEM_OK)
        return st;
    copy_out(out, line_data(c, line), offset, bytes);
    return MEM_OK;
}

mem_status cache_read_line_miss(cache *c, cache *below, uint64_t line_addr, uint64_t sectors,
                                const cache_hints *h, const cache_hints *below_hints, uint8_t *out,
                                cache_result *r, cache_result *below_r, uint32_t *below_set,
                                bool *taken)
{
    *taken = false;
    /* One run of sectors, fills of one sector, an allocating hint, lines of one size. */
    if (!one_run(sectors) || h->fill_bytes != 0 || h->alloc >= CACHE_ALLOC_NONE ||
        h->kind >= CACHE_KIND_COUNT || c->config.fill_bytes != c->config.sector_bytes ||
        c->config.line_bytes != below->config.line_bytes || !hints_valid(below, below_hints))
        return MEM_OK;
    uint64_t line_number = line_addr >> c->line_shift;
    const line_meta *found;
    uint32_t line = find_slot_memo(c, line_number, &found);
    uint64_t valid = 0, missing = sectors;
    if (line != NO_INDEX) {
        /* Present: its missing sectors must be one run holding no valid byte (no merge). */
        valid = found->valid_sectors;
        missing = sectors & ~valid;
        if (!one_run(missing) ||
            bits_apply(valid_bits(c, line), (uint32_t)__builtin_ctzll(missing) << c->sector_shift,
                       popcount64(missing) << c->sector_shift, BITS_ANY))
            return MEM_OK;
    }
    *taken = true;
    result_clear(r);
    /* count_sectors(r, sectors, valid), the counts kept for the run's size and the copy */
    uint32_t n_req = popcount64(sectors), n_miss = valid ? popcount64(missing) : n_req;
    r->hit_sectors = sectors & valid;
    r->sector_accesses = n_req;
    r->sector_hits = n_req - n_miss;
    r->sector_misses = n_miss;
    mem_status st;
    if (line != NO_INDEX) {
        r->line_hit = true;
        touch(c, line);
    } else if ((st = allocate_line(c, set_index(c, line_number), line_number, h->kind,
                                   h->request, r, &line)) != MEM_OK) {
        count_read(c, r);
        return st;
    }
    apply_alloc_hint(c, line, (cache_alloc)h->alloc);
    /* fetch_sectors' one run: the level below reads straight into the line. */
    uint32_t at = (uint32_t)__builtin_ctzll(missing) << c->sector_shift;
    uint32_t run_bytes = n_miss << c->sector_shift;
    size_t slot = data_slot(c, line);
    uint8_t *data = &c->data[slot << c->line_shift];
    result_clear(below_r);
    if (below->defer_read) { /* the level below's read is made later (cache_set_read_deferral) */
        st = below->defer_read(below->defer_ctx, below_hints, line_addr + at, run_bytes,
                               data + at);
    } else {
        st = read_run(below, line_addr + at, run_bytes, data + at, below_hints, below_r,
                      below_set);
        count_read(below, below_r);
    }
    if (st == MEM_OK) {
        bits_apply(&c->byte_masks[slot * 2 * c->bitmap_words], at, run_bytes, BITS_SET);
        c->meta[line].valid_sectors |= missing;
        r->fill_bytes += run_bytes;
        uint32_t from = (uint32_t)__builtin_ctzll(sectors) << c->sector_shift;
        copy_out(out + from, data, from, n_req << c->sector_shift);
    }
    count_read(c, r);
    return st;
}


/* ---- lookup ---- */


uint32_t cache_prefetch_set(const cache *c, uint64_t addr)
{
    uint32_t set = set_index(c, addr >> c->line_shift);
    cache_prefetch_set_at(c, set);
    return set;
}

void cache_prefetch_set_at(const cache *c, uint32_t set)
{
    uint32_t base = set * c->set_stride;
    __builtin_prefetch(&c->prints[base]);
    __builtin_prefetch(&c->meta[base]);
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
    /* Every resident LAST line is on the LAST list (grant_last links it, set_class_plain and
     * cache_drop_line unlink it): walking the list reads none of the metadata of sets that
     * never held a line. */
    uint64_t n = 0;
    while (c->last_head != NO_INDEX) {
        set_class_plain(c, c->last_head, CACHE_PRIORITY_NORMAL);
        n++;
    }
    return n;
}

void cache_set_persisting_limit(cache *c, uint64_t lines)
{
    c->config.persisting_limit_lines = lines;
}

void cache_set_read_deferral(cache *c, cache_deferred_read fn, void *ctx)
{
    c->defer_read = fn;
    c->defer_ctx = ctx;
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

uint32_t cache_slice_of_set(const cache *c, uint32_t set)
{
    /* set_index_general: a sliced cache's set is (set in the slice) x slices + slice */
    return c->config.slices > 1 ? mod_by(set, c->config.slices, c->recip_slices) : 0;
}

