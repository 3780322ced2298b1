/* The warp's hit paths of one cache level (cache.h: cache_read_hit, cache_lines_held,
 * cache_read_hits; docs/cache-model.md, "Reads and fills"): a line every requested sector of
 * which is valid is read without the general read path, and a warp's lines are found and then
 * read one after the other, with the cache's geometry in locals. The general reads, fills and
 * the miss path are in cache.c; the shared inline helpers in cache_ops.h. */
#include "mem/cache.h"

#include <assert.h>
#include <string.h>

#include "mem/cache_ops.h"

/* The requested sectors (`k` of them) of a line that holds them, into `out` at their offsets. */
static inline void copy_hit_sectors(const cache *c, const uint8_t *data, uint64_t sectors,
                                    uint32_t k, uint8_t *out)
{
    if (k == 1 && c->config.sector_bytes == 32) { /* a scattered access's line: its sector */
        uint32_t at = (uint32_t)__builtin_ctzll(sectors) * 32;
        copy_block(out + at, data + at, 32);
    } else if (c->config.line_bytes == 128) {
        copy_block(out, data, 128);
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
    const line_meta *m;
    uint32_t line = find_slot(c, set_index(c, line_number), line_number, &m);
    return line == NO_INDEX || (sectors & ~m->valid_sectors) ? NO_INDEX : line;
}

/* hit_line, looking first where held_memo last found the line (a warp's lines read again and
 * again when no held slots were looked up before: the timing model's loads). */
static inline uint32_t hit_line_memo(cache *c, uint64_t line_addr, uint64_t sectors)
{
    const line_meta *m;
    uint32_t line = find_slot_memo(c, line_addr >> c->line_shift, &m);
    return line == NO_INDEX || (sectors & ~m->valid_sectors) ? NO_INDEX : line;
}

bool cache_read_hit(cache *c, uint64_t line_addr, uint64_t sectors, uint8_t alloc, uint8_t *out,
                    uint32_t *runs)
{
    if (sectors == 0 || alloc > CACHE_ALLOC_NONE)
        return false;
    /* The line of the last hit first (an SM's instruction fetches and uniform constant loads
     * come back to one line many times): its slot still holds it exactly when its tag is
     * unchanged, as a line has one slot at most. */
    uint64_t tag = TAG_OF(line_addr >> c->line_shift);
    uint32_t line = c->memo_line;
    if (tag != c->memo_tag || LINE_FIELD(c, line, tags) != tag) {
        line = hit_line(c, line_addr, sectors);
        if (line == NO_INDEX)
            return false;
        c->memo_tag = tag;
        c->memo_line = line;
    } else if (sectors & ~LINE_FIELD(c, line, valid_sectors)) {
        return false;
    }
    read_hit_line(c, line, sectors, alloc, out, runs);
    return true;
}

/* cache_lines_held for a 16-way cache indexed by line number modulo its sets (the presets'
 * L1s): the geometry in locals, since the compiler must assume that each store to lines[] may
 * change the cache's fields and would load them again for every line. */
static uint32_t held_lines_16(cache *c, uint32_t n, const uint8_t *ap, const uint8_t *sp,
                              size_t stride, uint32_t *lines)
{
    assert(!c->config.tags_only); /* its memos may be NO_INDEX (cache_internal.h) */
    const line_meta *meta = c->meta;
    const uint8_t *prints = c->prints;
    const unsigned line_shift = c->line_shift;
    const uint32_t sets = c->sets;
    const uint64_t recip = c->recip_sets;
    uint32_t *memo = c->held_memo;
    uint32_t i = 0;
    for (; i < n; i++, ap += stride, sp += stride) {
        uint64_t s, addr;
        memcpy(&s, sp, sizeof s);
        memcpy(&addr, ap, sizeof addr);
        uint64_t line_number = addr >> line_shift, tag = TAG_OF(line_number);
        uint32_t h = held_memo_index(line_number);
        uint32_t line = memo[h];
        if (meta[line].tag != tag) { /* not where it was last found: the set's look-up */
            uint32_t set = mod_by(line_number, sets, recip);
            line = set * GROUP_LINES;
            if (!group_used(c, set))
                break;
            if (meta[line].tag != tag) {
                uint32_t k = print_matches(&prints[line], GROUP_LINES, TAG_PRINT(tag));
                for (; k; k &= k - 1)
                    if (meta[line + (uint32_t)__builtin_ctz(k)].tag == tag)
                        break;
                if (!k)
                    break;
                line += (uint32_t)__builtin_ctz(k);
            }
            memo[h] = line;
        }
        if (!s || (s & ~meta[line].valid_sectors))
            break;
        lines[i] = line;
    }
    return i;
}

uint32_t cache_lines_held(cache *c, uint32_t n, const uint64_t *line_addrs,
                          const uint64_t *sectors, size_t stride, uint32_t *lines)
{
    if (c->ways == GROUP_LINES && c->plain_index)
        return held_lines_16(c, n, (const uint8_t *)line_addrs, (const uint8_t *)sectors, stride,
                             lines);
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
/* read_held_lines for 128-byte lines of 32-byte sectors (the presets' L1), with the few values
 * its loop needs: the reads are the clock's advance, the sectors one a line plus the extra
 * sectors of lines with several. */
static uint32_t read_held_lines_128(cache *c, uint32_t n, const uint8_t *sp, uint8_t *out,
                                    size_t stride, const uint32_t *lines, uint64_t *clock,
                                    uint64_t *reads, uint64_t *total)
{
    line_meta *meta = c->meta;
    const uint8_t *data = c->data;
    uint64_t now0 = *clock, now = now0, extra = 0;
    const int has_last = c->last_count != 0; /* last_to_move's test, read once: no hint here */
    uint32_t i = 0;
    for (; i < n; i++, sp += stride, out += stride) {
        uint32_t line = lines[i];
        if (line == NO_INDEX)
            break;
        uint64_t s;
        memcpy(&s, sp, sizeof s);
        line_meta *m = &meta[line];
        const uint8_t *ld = data + ((size_t)(m->data_slot - 1) << 7);
        if (!(s & (s - 1))) { /* one sector: one run, the sector copied */
            m->stamp = ++now;
            uint32_t at = (uint32_t)__builtin_ctzll(s) * 32;
            copy_block(out + at, ld + at, 32);
        } else {
            now += popcount64(s & ~(s << 1));
            m->stamp = now;
            extra += popcount64(s) - 1;
            copy_block(out, ld, 128);
        }
        if (has_last && last_to_move(c, m, line))
            cache_touch_last(c, line);
    }
    *clock = now;
    *reads += now - now0;
    *total += i + extra;
    return i;
}

static inline uint32_t read_held_lines(cache *c, uint32_t n, const uint8_t *sp, uint8_t *out,
                                       size_t stride, const uint32_t *lines, uint64_t *clock,
                                       uint64_t *reads, uint64_t *total)
{
    if (c->config.sector_bytes == 32 && c->config.line_bytes == 128)
        return read_held_lines_128(c, n, sp, out, stride, lines, clock, reads, total);
    /* The geometry in locals: the copies into `out` may alias anything, so the compiler would
     * load the cache's fields again after each of them. */
    line_meta *meta = c->meta;
    const uint8_t *data = c->data;
    const unsigned line_shift = c->line_shift;
    const int sector32 = c->config.sector_bytes == 32, line128 = c->config.line_bytes == 128;
    const uint32_t line_bytes = c->config.line_bytes;
    const int has_last = c->last_count != 0; /* as in read_held_lines_128 */
    uint64_t now = *clock, read_count = *reads, sector_total = *total;
    uint32_t i = 0;
    for (; i < n; i++, sp += stride, out += stride) {
        uint64_t s;
        memcpy(&s, sp, sizeof s);
        uint32_t line = lines[i];
        if (line == NO_INDEX)
            break;
        line_meta *m = &meta[line];
        uint32_t runs = 1, k = 1;
        if (s & (s - 1)) {
            runs = popcount64(s & ~(s << 1));
            k = popcount64(s);
        }
        now += runs;
        m->stamp = now;
        if (has_last && last_to_move(c, m, line))
            cache_touch_last(c, line);
        read_count += runs;
        sector_total += k;
        const uint8_t *ld = data + ((size_t)(m->data_slot - 1) << line_shift);
        if (k == 1 && sector32) { /* copy_hit_sectors' cases */
            uint32_t at = (uint32_t)__builtin_ctzll(s) * 32;
            copy_block(out + at, ld + at, 32);
        } else if (line128) {
            copy_block(out, ld, 128);
        } else {
            memcpy(out, ld, line_bytes);
        }
    }
    *clock = now;
    *reads = read_count;
    *total = sector_total;
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
            uint32_t line = lines ? lines[i] : s ? hit_line_memo(c, addr, s) : NO_INDEX;
            if (line == NO_INDEX)
                break;
            uint32_t runs = 1, k = 1;
            if (s & (s - 1)) {
                runs = popcount64(s & ~(s << 1));
                k = popcount64(s);
            }
            clock += runs;
            line_meta *m = &c->meta[line];
            m->stamp = clock;
            if (last_to_move(c, m, line))
                cache_touch_last(c, line);
            apply_alloc_hint(c, line, (cache_alloc)alloc);
            reads += runs;
            total += k;
            if (out)
                copy_hit_sectors(c, &c->data[(size_t)(m->data_slot - 1) << c->line_shift], s, k,
                                 out + at);
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
