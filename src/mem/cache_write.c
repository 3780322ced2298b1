/* The store path of one cache level (cache.h: cache_write, cache_write_masked,
 * cache_write_line_bits; docs/cache-model.md, "Writes"): a store's byte mask as bits of the
 * line, the sectors it touches, the blend of its bytes into a resident line, write-through and
 * write-allocate. The look-up, allocation and statistics it shares with the reads come from
 * cache_ops.h and cache.c. */
#include "mem/cache.h"

#include <stdbool.h>
#include <string.h>

#include "mem/cache_ops.h"

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
    if (mask == NULL) { /* each word written once: no read of a word not yet set */
        uint64_t head = UINT64_MAX << shift;
        uint64_t tail = UINT64_MAX >> (63 - ((offset + bytes - 1) & 63));
        if (b->first == b->last) {
            b->w[b->first] = head & tail;
        } else {
            b->w[b->first] = head;
            for (uint32_t k = b->first + 1; k < b->last; k++) b->w[k] = UINT64_MAX;
            b->w[b->last] = tail;
        }
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
        st = cache_allocate_line(c, set, line_number, h->kind, h->request, r, &line);
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
    result_clear(r);
    const cache_hints *h = hints != NULL ? hints : &no_hints;
    if (!range_valid(c, addr, bytes) || !hints_valid(c, h))
        return MEM_ERR_ARGUMENT;
    mem_status st = write_access(c, addr, bytes, data, byte_mask, bits, h, r);
    write_result_to_stats(c, r);
    return st;
}

mem_status cache_write_masked(cache *c, uint64_t addr, uint32_t bytes, const void *data,
                              const uint8_t *byte_mask, const cache_hints *hints,
                              cache_result *result)
{
    return write_counted(c, addr, bytes, data, byte_mask, NULL, hints, result);
}

/* The stored bytes of a 128-byte line's store bits (two words): both words counted by one SWAR
 * count (bits of pairs, of nibbles, of bytes; the bytes of both words added before the final
 * multiply sums them, which no byte's 16 at most can overflow). */
static inline uint32_t stored_bytes(const uint64_t *bits)
{
    const uint64_t m1 = UINT64_C(0x5555555555555555), m2 = UINT64_C(0x3333333333333333),
                   m4 = UINT64_C(0x0F0F0F0F0F0F0F0F);
    uint64_t a = bits[0], b = bits[1];
    a -= (a >> 1) & m1;
    b -= (b >> 1) & m1;
    a = (a & m2) + ((a >> 2) & m2);
    b = (b & m2) + ((b >> 2) & m2);
    a = (a + (a >> 4)) & m4;
    b = (b + (b >> 4)) & m4;
    return (uint32_t)(((a + b) * UINT64_C(0x0101010101010101)) >> 56);
}

/* Whether cache c passes a store with hints h on to its next level (write-through). */
static inline int writes_through(const cache *c, const cache_hints *h)
{
    return h->write_mode == CACHE_WRITE_THROUGH ||
           (h->write_mode == CACHE_WRITE_DEFAULT &&
            ((c->config.write_through_kinds >> h->kind) & 1));
}

/* cache_write_line_through's level below: the store is written there directly (write_line)
 * instead of through the cache's next-level adapter. */
typedef struct line_below {
    cache *c;
    const cache_hints *h;
    cache_result *r;
    const uint64_t *bits; /* the store's bits (every bit for a whole line) */
    bool written;         /* the store was written there */
    uint32_t set;         /* then the line's set there */
} line_below;

static mem_status write_line_below(cache *c, uint64_t addr, const uint8_t *data,
                                   const uint8_t *mask, const uint64_t *bits,
                                   const cache_hints *h, cache_result *r, uint32_t *set_out);

/* The write of a 128-byte line's store to the level below a cache: through its next-level
 * adapter, or, with `below`, into that cache directly. */
static inline mem_status write_next(cache *c, line_below *below, uint64_t addr,
                                    const uint8_t *data, const uint8_t *mask, void *request)
{
    if (!below)
        return c->next.write(c->next.ctx, request, addr, 128, data, mask);
    below->written = true;
    return write_line_below(below->c, addr, data, mask, below->bits, below->h, below->r,
                            &below->set);
}

/* write_access's steps before a store of a 128-byte line at `addr` changes the line's bytes
 * (store bits `bits`, NULL for every byte, touching `sectors`, not 0; data and mask as the
 * caller passes them down): the
 * look-up and sector counts, allocation or the write around the cache, the hint and the
 * write-through. Returns MEM_OK with *line the resident slot to store into (*through: the
 * store went on to the next level too), or *line NO_INDEX when nothing is left to store; any
 * other status is the allocation's or the next level's. */
static inline __attribute__((always_inline)) mem_status
store_line_start(cache *c, uint64_t addr, uint64_t sectors, const uint64_t *bits, const uint8_t *data,
                 const uint8_t *mask, const cache_hints *h, cache_result *r, uint32_t *line,
                 int *through, line_below *below, uint32_t *set_out)
{
    uint64_t line_number = addr >> c->line_shift;
    *through = writes_through(c, h);
    const line_meta *m;
    /* An L1 (modulo-indexed) looks where it last found the line first: a warp's store line is
     * usually the one its loads just read. */
    if (set_out) /* the caller wants the set: no memo */
        *line = find_line(c, *set_out = set_index(c, line_number), line_number);
    else
        *line = c->plain_index ? find_slot_memo(c, line_number, &m)
                               : find_line(c, set_index(c, line_number), line_number);
    mem_status st;
    if (*line != NO_INDEX) {
        r->line_hit = true;
        count_sectors(r, sectors, LINE_FIELD(c, *line, valid_sectors));
        touch(c, *line);
    } else {
        count_sectors(r, sectors, 0);
        if (!c->config.write_allocate || h->alloc == CACHE_ALLOC_NONE) {
            st = write_next(c, below, addr, data, mask, h->request);
            if (st == MEM_OK)
                r->write_through_bytes += bits ? stored_bytes(bits) : 128;
            return st; /* *line is NO_INDEX */
        }
        uint32_t slots = bits ? cache_slots_now(c) : 0;
        st = cache_allocate_line(c, set_index(c, line_number), line_number, h->kind, h->request,
                                 r, line);
        if (st != MEM_OK) {
            *line = NO_INDEX;
            return st;
        }
        /* A partial store blends into the line's bytes. Those of a data slot never used before
         * are the storage's zeros, written over here first: a first read of their page would
         * map the kernel's zero page there, to be faulted again by the blend's write. */
        if (bits && LINE_FIELD(c, *line, data_slots) > slots)
            memset(line_data(c, *line), 0, (size_t)1 << c->line_shift);
    }
    apply_alloc_hint(c, *line, (cache_alloc)h->alloc);
    if (*through) {
        st = write_next(c, below, addr, data, mask, h->request);
        if (st != MEM_OK) {
            *line = NO_INDEX;
            return st;
        }
        r->write_through_bytes += bits ? stored_bytes(bits) : 128;
    }
    return MEM_OK;
}

/* Where line `line` of a cache of 128-byte lines keeps its record, its data and its byte masks
 * (valid bits, then dirty bits: two words each), for the whole- and part-line stores below,
 * whose line size is fixed. */
typedef struct line128 {
    line_meta *m;
    uint8_t *data;
    uint64_t *valid;
} line128;

static inline line128 line128_of(cache *c, uint32_t line)
{
    size_t slot = data_slot(c, line);
    return (line128){&c->meta[line], &c->data[slot << 7], &c->byte_masks[slot * 4]};
}

/* write_access for a store of every byte of a line (store bits all set, 128-byte lines): every
 * sector is touched and becomes valid, and dirty unless written through; no bit loops. */
static mem_status write_whole_line(cache *c, uint64_t addr, const uint8_t *data,
                                   const uint8_t *mask, const cache_hints *h, cache_result *r,
                                   line_below *below, uint32_t *set_out)
{
    uint64_t sectors = bit_range(0, c->sectors_per_line);
    uint32_t line;
    int through;
    mem_status st = store_line_start(c, addr, sectors, NULL, data, mask, h, r, &line, &through,
                                     below, set_out);
    if (line == NO_INDEX)
        return st;
    line128 L = line128_of(c, line);
    memcpy(L.data, data, 128);
    L.valid[0] = L.valid[1] = UINT64_MAX;
    L.valid[2] = L.valid[3] = through ? 0 : UINT64_MAX; /* the dirty bits */
    L.m->valid_sectors = sectors;
    L.m->dirty_sectors = through ? 0 : sectors;
    return MEM_OK;
}

/* The 32-byte sectors of a 128-byte line's byte bitmap (two words) whose 32 bits all equal
 * `v` (0 or UINT32_MAX), as bits: one compare of the four 32-bit halves at once with SSE2. */
static inline uint64_t sectors_equal32(uint64_t w0, uint64_t w1, uint32_t v)
{
#ifdef __SSE2__
    __m128i halves = _mm_set_epi64x((long long)w1, (long long)w0);
    __m128i eq = _mm_cmpeq_epi32(halves, _mm_set1_epi32((int)v));
    return (uint64_t)(uint32_t)_mm_movemask_ps(_mm_castsi128_ps(eq));
#else
    return (uint64_t)((uint32_t)w0 == v) | (uint64_t)((uint32_t)(w0 >> 32) == v) << 1 |
           (uint64_t)((uint32_t)w1 == v) << 2 | (uint64_t)((uint32_t)(w1 >> 32) == v) << 3;
#endif
}

/* The 32-byte sectors of a 128-byte line's byte bitmap (two words) with any bit set. */
static inline uint64_t sectors_any32(uint64_t w0, uint64_t w1)
{
    return sectors_equal32(w0, w1, 0) ^ 0xF;
}

/* The 32-byte sectors of a 128-byte line's byte bitmap with every bit set. */
static inline uint64_t sectors_all32(uint64_t w0, uint64_t w1)
{
    return sectors_equal32(w0, w1, UINT32_MAX);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define CACHE_MERGE_AVX2 1
#include <immintrin.h>
/* merge_line128 on hosts with AVX2 (cache.host_avx2): 32 bytes at a time, one byte blend each. */
__attribute__((target("avx2"))) static void merge_line128_avx2(uint8_t *ld, const uint8_t *data,
                                                               const uint8_t *mask)
{
    const __m256i zero = _mm256_setzero_si256();
    for (uint32_t i = 0; i < 128; i += 32) {
        __m256i keep = _mm256_cmpeq_epi8(
            _mm256_loadu_si256((const __m256i *)(const void *)(mask + i)), zero);
        __m256i old = _mm256_loadu_si256((const __m256i *)(const void *)(ld + i));
        __m256i new_bytes = _mm256_loadu_si256((const __m256i *)(const void *)(data + i));
        _mm256_storeu_si256((__m256i *)(void *)(ld + i),
                            _mm256_blendv_epi8(new_bytes, old, keep));
    }
}

/* merge_line128_avx2 from the store bits bits[0..1] (bit b: byte b stored) instead of a byte
 * mask: each 32-bit quarter of the bits spread over 32 bytes (byte j of the quarter's four to
 * bytes 8j..8j+7), each byte tested against its own bit. */
__attribute__((target("avx2"))) static void merge_line128_bits_avx2(uint8_t *ld,
                                                                    const uint8_t *data,
                                                                    const uint64_t *bits)
{
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                            2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i select = _mm256_set1_epi64x((long long)UINT64_C(0x8040201008040201));
    for (uint32_t i = 0; i < 128; i += 32) {
        uint32_t quarter = (uint32_t)(bits[i / 64] >> (i % 64));
        __m256i b = _mm256_shuffle_epi8(_mm256_set1_epi32((int)quarter), spread);
        __m256i stored = _mm256_cmpeq_epi8(_mm256_and_si256(b, select), select);
        __m256i old = _mm256_loadu_si256((const __m256i *)(const void *)(ld + i));
        __m256i new_bytes = _mm256_loadu_si256((const __m256i *)(const void *)(data + i));
        _mm256_storeu_si256((__m256i *)(void *)(ld + i),
                            _mm256_blendv_epi8(old, new_bytes, stored));
    }
}
#endif

/* A scattered store's bytes merged into a 128-byte line at a fixed cost (a warp's field of each
 * of several structures made one copy per 4-byte run, about 16 host instructions each): every
 * byte of the line is written, an unstored one with its own value. `mask` (one byte per line
 * byte, nonzero where stored) is what SSE2 compares. Without a mask (a store log's line entry,
 * hier_log_l2_line), AVX2 tests the two bitmap words `bits` directly; without AVX2 (or SSE2),
 * the words are spread eight bytes at a time. */
static inline void merge_line128(const cache *c, uint8_t *ld, const uint8_t *data,
                                 const uint8_t *mask, const uint64_t *bits)
{
#ifdef CACHE_MERGE_AVX2
    if (c->host_avx2) {
        if (mask)
            merge_line128_avx2(ld, data, mask);
        else
            merge_line128_bits_avx2(ld, data, bits);
        return;
    }
#else
    (void)c;
#endif
#if defined(CACHE_MERGE_AVX2) && defined(__SSE2__) /* immintrin.h is included above */
    if (mask) {
        const __m128i zero = _mm_setzero_si128();
        for (uint32_t i = 0; i < 128; i += 16) {
            __m128i keep =
                _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(mask + i)), zero);
            __m128i old = _mm_loadu_si128((const __m128i *)(const void *)(ld + i));
            __m128i new_bytes = _mm_loadu_si128((const __m128i *)(const void *)(data + i));
            _mm_storeu_si128((__m128i *)(void *)(ld + i),
                             _mm_or_si128(_mm_and_si128(keep, old),
                                          _mm_andnot_si128(keep, new_bytes)));
        }
        return;
    }
#endif
    for (uint32_t i = 0; i < 128; i += 8)
        blend8(ld + i, data + i, (bits[i / 64] >> (i % 64)) & 0xFF);
}

/* A scattered store's bytes (store bits bits[0..1], touching `sectors`) into resident line
 * `line` of a cache of 128-byte lines and 32-byte sectors: merged, valid, and dirty unless
 * written through (`through`), the line's sector bits as store_into_line leaves them. */
static inline void part_line_bits(line128 L, uint64_t w0, uint64_t w1, uint64_t sectors,
                                  int through);

static inline void part_line_merge(cache *c, uint32_t line, const uint8_t *data,
                                   const uint8_t *mask, const uint64_t *bits, uint64_t sectors,
                                   int through)
{
    line128 L = line128_of(c, line);
    merge_line128(c, L.data, data, mask, bits);
    part_line_bits(L, bits[0], bits[1], sectors, through);
}

/* part_line_merge's steps after the bytes: the stored bytes (bits w0, w1, touching `sectors`)
 * valid, and dirty unless written through (`through`), the line's sector bits as
 * store_into_line leaves them. */
static inline void part_line_bits(line128 L, uint64_t w0, uint64_t w1, uint64_t sectors,
                                  int through)
{
    uint64_t *valid = L.valid, *dirt = valid + 2;
    valid[0] |= w0;
    valid[1] |= w1;
    L.m->valid_sectors |= sectors & sectors_all32(valid[0], valid[1]);
    if (!through) {
        dirt[0] |= w0;
        dirt[1] |= w1;
        L.m->dirty_sectors |= sectors;
        return;
    }
    /* Written through: the stored bytes are clean. A sector's dirty bit is set exactly while
     * one of its bytes is dirty, so when no stored byte was dirty nothing changes, and the
     * line's dirty sectors (at the end of its record, in a second host line for some slots)
     * are left unread: the usual case of a write-through L1. */
    if (((dirt[0] & w0) | (dirt[1] & w1)) == 0)
        return;
    dirt[0] &= ~w0;
    dirt[1] &= ~w1;
    L.m->dirty_sectors &= ~(sectors & ~sectors_any32(dirt[0], dirt[1]));
}

/* write_access for a store of some of the bytes of a 128-byte line of 32-byte sectors under
 * store bits bits[0..1] (a warp's scattered store: a field of each of several structures): the
 * same counts, next-level calls and line state, with the sector masks worked out from the two
 * bitmap words at once instead of sector by sector. */
static mem_status write_part_line(cache *c, uint64_t addr, const uint8_t *data,
                                  const uint8_t *mask, const uint64_t *bits, const cache_hints *h,
                                  cache_result *r, line_below *below, uint32_t *set_out)
{
    uint64_t sectors = sectors_any32(bits[0], bits[1]);
    if (sectors == 0)
        return MEM_OK; /* an all-zero mask stores nothing */
    uint32_t line;
    int through;
    mem_status st = store_line_start(c, addr, sectors, bits, data, mask, h, r, &line, &through,
                                     below, set_out);
    if (line == NO_INDEX)
        return st;
    part_line_merge(c, line, data, mask, bits, sectors, through);
    return MEM_OK;
}

/* Whether write_line takes a store of a line of c with store bits `bits` and hints h: every
 * byte of a 128-byte line (a warp's full store), or some bytes of one of 32-byte sectors (a
 * scattered store's line). */
static inline int line_store_fits(const cache *c, const uint64_t *bits, const cache_hints *h)
{
    return c->config.line_bytes == 128 && hints_valid(c, h) &&
           ((bits[0] & bits[1]) == UINT64_MAX || c->sector_shift == 5);
}

/* cache_write_line_bits' store of a line that line_store_fits, with its statistics; `below`:
 * as write_next. */
static inline __attribute__((always_inline)) mem_status
write_line(cache *c, uint64_t addr, const uint8_t *data, const uint8_t *mask,
           const uint64_t *bits, const cache_hints *h, cache_result *r, line_below *below,
           uint32_t *set_out)
{
    result_clear(r);
    mem_status st = (bits[0] & bits[1]) == UINT64_MAX
                        ? write_whole_line(c, addr, data, mask, h, r, below, set_out)
                        : write_part_line(c, addr, data, mask, bits, h, r, below, set_out);
    write_result_to_stats(c, r);
    return st;
}

/* write_line for the level below (write_next), out of line: the level's own call of write_line
 * inlined, and no inline cycle through write_next. */
static mem_status write_line_below(cache *c, uint64_t addr, const uint8_t *data,
                                   const uint8_t *mask, const uint64_t *bits,
                                   const cache_hints *h, cache_result *r, uint32_t *set_out)
{
    return write_line(c, addr, data, mask, bits, h, r, NULL, set_out);
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
    if (result != NULL && line_store_fits(c, bits, h))
        return write_line(c, addr, data, byte_mask, bits, h, result, NULL, NULL);
    return write_counted(c, addr, c->config.line_bytes, data, byte_mask, bits, hints, result);
}

/* write_line's look-up, sector counts and recency for a store line that a cache holds (line
 * `line`, record m) under hints h, into *r, as store_line_start leaves them without a
 * write to the next level: count_sectors' counts, with the sectors' count (`count`) worked out
 * once for both levels and no second count when every sector hits. */
static inline void part_hit_start(cache *c, uint32_t line, const line_meta *m, uint64_t sectors,
                                  uint32_t count, const cache_hints *h, cache_result *r)
{
    result_clear(r);
    r->line_hit = true;
    uint64_t hit = sectors & m->valid_sectors;
    r->hit_sectors = hit;
    r->sector_accesses = count;
    r->sector_hits = hit == sectors ? count : popcount64(hit);
    r->sector_misses = count - r->sector_hits;
    touch(c, line);
    apply_alloc_hint(c, line, (cache_alloc)h->alloc);
}

mem_status cache_write_line_bits_in_set(cache *c, uint32_t set, uint64_t addr, const void *data,
                                        const uint8_t *byte_mask, const uint64_t *bits,
                                        const cache_hints *hints, cache_result *result)
{
    /* The store write_part_line takes (a partial line under line_store_fits) into a write-back
     * cache that holds the line: store_line_start's steps for a held line (part_hit_start),
     * without working out the set again, then part_line_merge (cache.h). */
    if ((addr & (c->config.line_bytes - 1)) || result == NULL || hints == NULL ||
        (bits[0] & bits[1]) == UINT64_MAX || !line_store_fits(c, bits, hints) ||
        writes_through(c, hints))
        return cache_write_line_bits(c, addr, data, byte_mask, bits, hints, result);
    assert(set == set_index(c, addr >> c->line_shift));
    uint64_t sectors = sectors_any32(bits[0], bits[1]);
    uint32_t line = sectors ? find_line(c, set, addr >> c->line_shift) : NO_INDEX;
    if (line == NO_INDEX)
        return cache_write_line_bits(c, addr, data, byte_mask, bits, hints, result);
    part_hit_start(c, line, &c->meta[line], sectors, popcount64(sectors), hints, result);
    part_line_merge(c, line, data, byte_mask, bits, sectors, 0);
    write_result_to_stats(c, result);
    return MEM_OK;
}

/* cache_write_line_below's usual scattered store line (aos_update's fields): some bytes of a
 * line that a write-through L1 `c` (16 ways, indexed by line number) and the write-back cache
 * `below` (16 ways) both hold, neither with a LAST line. write_line's steps at the L1, its
 * write-through into `below` and write_line's steps there, in one pass: both look-ups first,
 * each through its cache's held_memo (a warp stores field after field of the same lines, so
 * the L2's guess usually holds and its set index is not worked out; a 16-way set is the group
 * of the slot found), the sectors and stored bytes worked out once, the results and
 * statistics written without the fields that stay zero. The same counts, recency, classes,
 * bytes and bits as the general path (tests/unit/test_cache_below.c runs both). Returns 0,
 * having changed nothing the model holds (held_memo aside), when the store is not of this
 * kind; else 1, the store done. `bits` not all set (a partial line; 128-byte lines of 32-byte
 * sectors at both levels: line_store_fits). */
static int store_part_pair(cache *c, cache *below, uint64_t addr, const uint8_t *data,
                           const uint8_t *mask, const uint64_t *bits, const cache_hints *h,
                           const cache_hints *hb, cache_result *r, cache_result *rb,
                           uint32_t *below_set)
{
    if (!c->plain_index || c->ways != GROUP_LINES || below->ways != GROUP_LINES ||
        c->last_count != 0 || below->last_count != 0 || !writes_through(c, h) ||
        writes_through(below, hb))
        return 0;
    uint64_t sectors = sectors_any32(bits[0], bits[1]);
    if (sectors == 0)
        return 0;
    uint64_t line_number = addr >> 7;
    const line_meta *m, *mb;
    uint32_t line = find_slot_memo(c, line_number, &m);
    if (line == NO_INDEX)
        return 0;
    uint32_t line_b = find_slot_memo(below, line_number, &mb);
    if (line_b == NO_INDEX)
        return 0;
    uint32_t set = line_b >> GROUP_SHIFT; /* 16 ways: a set is a group of 16 slots */
    uint32_t count = popcount64(sectors);
    part_hit_start(c, line, m, sectors, count, h, r);
    part_hit_start(below, line_b, mb, sectors, count, hb, rb);
    part_line_merge(below, line_b, data, mask, bits, sectors, 0);
    write_result_to_stats(below, rb);
    r->write_through_bytes = stored_bytes(bits);
    part_line_merge(c, line, data, mask, bits, sectors, 1);
    write_result_to_stats(c, r);
    *below_set = set;
    return 1;
}

/* Whether every line store_part_pair may take for caches c and below under hints h and hb has
 * the pair's fixed conditions met (128-byte lines of 32-byte sectors, valid hints, 16 ways,
 * c written through and indexed by line number, below written back); the per-line ones (no
 * LAST line, both hold the line, a partial and nonzero store) remain. */
static int pair_fits(const cache *c, const cache *below, const cache_hints *h,
                     const cache_hints *hb)
{
    return c->config.line_bytes == 128 && below->config.line_bytes == 128 &&
           c->sector_shift == 5 && below->sector_shift == 5 && hints_valid(c, h) &&
           hints_valid(below, hb) && c->plain_index && c->ways == GROUP_LINES &&
           below->ways == GROUP_LINES && writes_through(c, h) && !writes_through(below, hb);
}

/* The sector counts of one level's hit store line into the run's sums (part_hit_start's
 * counts, summed): `count` sectors touched, those of `valid` hits. */
static inline void pair_count(cache_result *sum, uint64_t sectors, uint64_t valid, uint32_t count)
{
    uint64_t hit = sectors & valid;
    uint32_t hits = hit == sectors ? count : popcount64(hit);
    sum->sector_accesses += count;
    sum->sector_hits += hits;
    sum->sector_misses += count - hits;
}

/* The sums of a run of store lines into a cache's statistics: `lines` writes, as
 * write_result_to_stats once a line would add them. */
static inline void pair_stats(cache *c, const cache_result *sum, uint32_t lines)
{
    c->stats.writes += lines;
    c->stats.write_sector_hits += sum->sector_hits;
    c->stats.write_sector_misses += sum->sector_misses;
    c->stats.sector_accesses += sum->sector_accesses;
    c->stats.sector_hits += sum->sector_hits;
    c->stats.sector_misses += sum->sector_misses;
    c->stats.write_through_bytes += sum->write_through_bytes;
}

/* The aligned 4-byte words of a 128-byte line's store bits w0, w1 when the stored bytes are
 * such words only, at most 8 of them: their offsets into at[] (OUT), and how many; 0 otherwise.
 * A word's four bits are all set or all clear exactly when spreading each nibble's low bit
 * over its nibble (a multiply by 15, which no nibble's 15 at most carries out of) gives the
 * bits back. */
static uint32_t word_runs(uint64_t w0, uint64_t w1, uint32_t at[8])
{
    const uint64_t lows = UINT64_C(0x1111111111111111);
    uint64_t l0 = w0 & lows, l1 = w1 & lows;
    if (l0 * 15 != w0 || l1 * 15 != w1 || popcount64(l0) + popcount64(l1) > 8)
        return 0;
    uint32_t n = 0;
    for (; l0; l0 &= l0 - 1) at[n++] = (uint32_t)__builtin_ctzll(l0);
    for (; l1; l1 &= l1 - 1) at[n++] = 64 + (uint32_t)__builtin_ctzll(l1);
    return n;
}

/* A run's store of one line into both levels (L at the write-through c, Lb at `below`): its
 * bytes (data d, byte mask `mask`, store bits b (words w0, w1) touching `sectors`: every byte when `whole`,
 * else `words` aligned words at word_at[] when not 0, else the byte-mask merge) and its valid
 * and dirty bits and sectors, as write_whole_line or part_line_merge leave them at each
 * level. */
static inline __attribute__((always_inline)) void
pair_bytes(const cache *c, const cache *below, line128 L, line128 Lb, const uint8_t *d,
           const uint8_t *mask, const uint64_t *b, uint64_t w0, uint64_t w1, uint64_t sectors,
           int whole, uint32_t words, const uint32_t *word_at)
{
    if (whole) { /* every byte valid, dirty below only */
        memcpy(Lb.data, d, 128);
        memcpy(L.data, d, 128);
        Lb.valid[0] = Lb.valid[1] = Lb.valid[2] = Lb.valid[3] = UINT64_MAX;
        Lb.m->valid_sectors = Lb.m->dirty_sectors = sectors;
        L.valid[0] = L.valid[1] = UINT64_MAX;
        L.valid[2] = L.valid[3] = 0;
        L.m->valid_sectors = sectors;
        L.m->dirty_sectors = 0;
        return;
    }
    if (words) { /* merge_line128's result for stored words: each word copied to both */
        for (uint32_t j = 0; j < words; j++) {
            uint32_t v;
            memcpy(&v, d + word_at[j], 4);
            memcpy(Lb.data + word_at[j], &v, 4);
            memcpy(L.data + word_at[j], &v, 4);
        }
    } else {
        merge_line128(below, Lb.data, d, mask, b);
        merge_line128(c, L.data, d, mask, b);
    }
    part_line_bits(Lb, w0, w1, sectors, 0);
    part_line_bits(L, w0, w1, sectors, 1);
}

/* One line's bytes into the write-through cache c alone (L), as pair_bytes leaves them there.
 * pair_bytes keeps its own copy of these steps, interleaved with the level below's: one
 * function for both (a NULL `below`) made the one-thread store runs 0.2 to 0.5% dearer in host
 * instructions (aos_update_1m), on the hottest store path. */
static inline __attribute__((always_inline)) void
through_bytes(const cache *c, line128 L, const uint8_t *d, const uint8_t *mask, const uint64_t *b,
              uint64_t w0, uint64_t w1, uint64_t sectors, int whole, uint32_t words,
              const uint32_t *word_at)
{
    if (whole) {
        memcpy(L.data, d, 128);
        L.valid[0] = L.valid[1] = UINT64_MAX;
        L.valid[2] = L.valid[3] = 0;
        L.m->valid_sectors = sectors;
        L.m->dirty_sectors = 0;
        return;
    }
    if (words) {
        for (uint32_t j = 0; j < words; j++) memcpy(L.data + word_at[j], d + word_at[j], 4);
    } else {
        merge_line128(c, L.data, d, mask, b);
    }
    part_line_bits(L, w0, w1, sectors, 1);
}

/* cache_write_lines_below (below not NULL) and cache_write_lines_through (below NULL, a
 * constant in each build): one loop, so that the two leave c in the same state line by line. */
static inline __attribute__((always_inline)) uint32_t
write_lines_run(cache *c, cache *below, uint32_t n, const uint64_t *line_addrs,
                const uint64_t *bits, const uint8_t *data, const uint8_t *masks, size_t stride,
                const cache_hints *hints, const cache_hints *below_hints, cache_result *sum,
                cache_result *below_sum, uint32_t *below_sets)
{
    const uint8_t alloc = hints->alloc, below_alloc = below ? below_hints->alloc : 0;
    uint64_t w0 = 0, w1 = 0, sectors = 0;
    uint32_t count = 0, stored = 0, k = 0, words = 0, word_at[8];
    int whole = 0;
    cache_result s = {0}, sb = {0}; /* the sums, in registers: *sum may alias the caches */
    for (; k < n; k++) {
        size_t at = k * stride;
        const uint64_t *b = (const uint64_t *)(const void *)((const uint8_t *)bits + at);
        if (k == 0 || b[0] != w0 || b[1] != w1) { /* a warp's lines often share their bits */
            w0 = b[0], w1 = b[1];
            sectors = sectors_any32(w0, w1);
            if (sectors == 0)
                break; /* nothing stored: write_line's own path */
            whole = (w0 & w1) == UINT64_MAX;
            count = popcount64(sectors);
            stored = stored_bytes(b);
            words = whole ? 0 : word_runs(w0, w1, word_at);
        }
        uint64_t addr = *(const uint64_t *)(const void *)((const uint8_t *)line_addrs + at);
        if ((addr & 127) || (c->last_count | (below ? below->last_count : 0)) != 0)
            break;
        const line_meta *m, *mb = NULL;
        uint32_t line = find_slot_memo(c, addr >> 7, &m);
        if (line == NO_INDEX)
            break;
        uint32_t line_b = 0;
        if (below) {
            line_b = find_slot_memo(below, addr >> 7, &mb);
            if (line_b == NO_INDEX)
                break;
        }
        /* store_part_pair's steps, in its order, with the counts summed */
        pair_count(&s, sectors, m->valid_sectors, count);
        touch(c, line);
        apply_alloc_hint(c, line, (cache_alloc)alloc);
        line128 L = line128_of(c, line);
        if (below) {
            pair_count(&sb, sectors, mb->valid_sectors, count);
            touch(below, line_b);
            apply_alloc_hint(below, line_b, (cache_alloc)below_alloc);
            line128 Lb = line128_of(below, line_b);
            pair_bytes(c, below, L, Lb, data + at, masks + at, b, w0, w1, sectors, whole, words,
                       word_at);
            if (below_sets)
                below_sets[k] = line_b >> GROUP_SHIFT; /* 16 ways: a set is a group of 16 slots */
        } else {
            through_bytes(c, L, data + at, masks + at, b, w0, w1, sectors, whole, words,
                          word_at);
        }
        s.write_through_bytes += stored;
    }
    if (below)
        pair_stats(below, &sb, k);
    pair_stats(c, &s, k);
    *sum = s;
    if (below)
        *below_sum = sb;
    return k;
}

uint32_t cache_write_lines_below(cache *c, cache *below, uint32_t n, const uint64_t *line_addrs,
                                 const uint64_t *bits, const uint8_t *data, const uint8_t *masks,
                                 size_t stride, const cache_hints *hints,
                                 const cache_hints *below_hints, cache_result *sum,
                                 cache_result *below_sum, uint32_t *below_sets)
{
    result_clear(sum);
    result_clear(below_sum);
    if (!n || !pair_fits(c, below, hints, below_hints))
        return 0;
    return write_lines_run(c, below, n, line_addrs, bits, data, masks, stride, hints,
                           below_hints, sum, below_sum, below_sets);
}

uint32_t cache_write_lines_through(cache *c, uint32_t n, const uint64_t *line_addrs,
                                   const uint64_t *bits, const uint8_t *data, const uint8_t *masks,
                                   size_t stride, const cache_hints *hints, cache_result *sum)
{
    result_clear(sum);
    if (!n || c->config.line_bytes != 128 || c->sector_shift != 5 || !hints_valid(c, hints) ||
        !c->plain_index || c->ways != GROUP_LINES || !writes_through(c, hints))
        return 0;
    return write_lines_run(c, NULL, n, line_addrs, bits, data, masks, stride, hints, NULL, sum,
                           NULL, NULL);
}

bool cache_takes_store_bits(const cache *c, const cache_hints *hints)
{
    return c->config.line_bytes == 128 && c->sector_shift == 5 && hints_valid(c, hints) &&
           !writes_through(c, hints) && c->config.write_allocate &&
           hints->alloc != CACHE_ALLOC_NONE;
}

mem_status cache_write_line_below(cache *c, cache *below, uint64_t addr, const void *data,
                                  const uint8_t *byte_mask, const uint64_t *bits,
                                  const cache_hints *hints, const cache_hints *below_hints,
                                  cache_result *result, cache_result *below_result, bool *taken,
                                  bool *below_written, uint32_t *below_set)
{
    *taken = *below_written = false;
    if ((addr & (c->config.line_bytes - 1)) || !line_store_fits(c, bits, hints) ||
        !line_store_fits(below, bits, below_hints))
        return MEM_OK;
    *taken = true;
    if ((bits[0] & bits[1]) != UINT64_MAX &&
        store_part_pair(c, below, addr, data, byte_mask, bits, hints, below_hints, result,
                        below_result, below_set)) {
        *below_written = true;
        return MEM_OK;
    }
    line_below b = {below, below_hints, below_result, bits, false, CACHE_SET_UNKNOWN};
    mem_status st = write_line(c, addr, data, byte_mask, bits, hints, result, &b, NULL);
    *below_written = b.written;
    *below_set = b.set;
    return st;
}

mem_status cache_write(cache *c, uint64_t addr, uint32_t bytes, const void *data,
                       const cache_hints *hints, cache_result *result)
{
    return cache_write_masked(c, addr, bytes, data, NULL, hints, result);
}
