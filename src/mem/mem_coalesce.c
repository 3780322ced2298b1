/* Coalescing (docs/cache-model.md, "Reads and fills"; DESIGN.md, "The memory access contract"):
 * how a warp access becomes the line requests of memsys.reqs, each with the bytes and L1 sectors
 * it touches and, for a store, its byte mask and data, and how a load's lanes get their bytes
 * back from those lines. The paths, cheapest first: an access whose active lanes are all global
 * at one stride (contiguous, broadcast, a field of an array of structures, a column) builds its
 * lines arithmetically; other lanes find their line as the previous lane's, as a line above all
 * so far, as one of the last four, or through a hash built only when needed. Local lanes are
 * split into 4-byte pieces at their interleaved backing addresses (hier_local_backing).
 * Callers: mem_hier.c (global, local and texture accesses). */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/bits.h"
#include "mem/memsys_internal.h"

uint64_t hier_local_backing(const mem_ctx *ctx, uint32_t lane, uint64_t offset)
{
    return ctx->local_backing + (offset / 4) * 128 + lane * 4 + offset % 4;
}

void coalesce_begin(memsys *ms)
{
    for (uint32_t i = 0; i < ms->nhashed; i++) ms->req_hash[ms->req_slots[i]] = -1;
    ms->nreqs = ms->nhashed = 0;
    ms->npieces = 0;
    ms->whole_lanes = ms->block_lanes = 0;
    ms->masks_lazy = 0;
}

void coalesce_fill_mask(const memsys *ms, line_req *r)
{
    if (r - ms->reqs >= (ptrdiff_t)ms->masks_lazy)
        return;
    /* each byte of bits spread over eight mask bytes: byte i keeps bit i (a multiply, no
     * carries), any nonzero byte made 1 (its top bit set as cache_write.c's blend8 sets it) */
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    for (uint32_t i = 0; i < LINE_BYTES_MAX; i += 8) {
        uint64_t b = (r->byte_bits[i / 64] >> (i % 64)) & 0xFF;
        uint64_t x = (b * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201);
        uint64_t ones = ((((x & low7) + low7) | x) & ~low7) >> 7;
        memcpy(r->mask + i, &ones, 8);
    }
}

/* Zeroes a store request's byte mask (LINE_BYTES_MAX bytes) with fixed 16-byte stores: GCC makes
 * the memset a `rep stos`, whose start-up costs more than the stores on every store line. */
static inline void clear_mask(uint8_t *mask)
{
#ifdef __SSE2__
    _Static_assert(LINE_BYTES_MAX == 128, "eight 16-byte stores");
    const __m128i zero = _mm_setzero_si128();
    _mm_storeu_si128((__m128i *)(void *)mask, zero);
    _mm_storeu_si128((__m128i *)(void *)(mask + 16), zero);
    _mm_storeu_si128((__m128i *)(void *)(mask + 32), zero);
    _mm_storeu_si128((__m128i *)(void *)(mask + 48), zero);
    _mm_storeu_si128((__m128i *)(void *)(mask + 64), zero);
    _mm_storeu_si128((__m128i *)(void *)(mask + 80), zero);
    _mm_storeu_si128((__m128i *)(void *)(mask + 96), zero);
    _mm_storeu_si128((__m128i *)(void *)(mask + 112), zero);
#else
    memset(mask, 0, LINE_BYTES_MAX);
#endif
}

/* A new line request for `line_addr` (reqs[nreqs], not yet in the hash), or -1 when the scratch
 * is full. `store`: clear its byte mask (a store whose bytes do not cover the whole line). */
static int new_req(memsys *ms, uint64_t line_addr, uint8_t kind, int store)
{
    if (ms->nreqs == LINE_SCRATCH)
        return -1;
    if (!ms->nreqs || line_addr > ms->max_line)
        ms->max_line = line_addr;
    int i = (int)ms->nreqs++;
    line_req *r = &ms->reqs[i];
    r->line_addr = line_addr;
    r->kind = kind;
    r->line_level = MEM_LEVEL_NONE;
    r->sectors = 0;
    memset(r->byte_bits, 0, sizeof r->byte_bits);
    if (store)
        clear_mask(r->mask);
    return i;
}

/* The hash slot where line `line_addr` is, or the empty slot where it would go. */
static uint32_t req_slot(const memsys *ms, uint64_t line_addr)
{
    uint32_t h = (uint32_t)((line_addr >> 7) * 0x9E3779B1u) >> 23; /* 512 buckets */
    while (ms->req_hash[h] >= 0 && ms->reqs[ms->req_hash[h]].line_addr != line_addr)
        h = (h + 1) & 511;
    return h;
}

/* The request of a line that may already have one: the requests not yet in the hash are put
 * there first, then the line is looked up, and added when it is new. */
static int find_req(memsys *ms, uint64_t line_addr, uint8_t kind, int store)
{
    for (; ms->nhashed < ms->nreqs; ms->nhashed++) {
        uint32_t h = req_slot(ms, ms->reqs[ms->nhashed].line_addr);
        ms->req_hash[h] = (int16_t)ms->nhashed;
        ms->req_slots[ms->nhashed] = (uint16_t)h;
    }
    uint32_t h = req_slot(ms, line_addr);
    if (ms->req_hash[h] >= 0)
        return ms->req_hash[h];
    int i = new_req(ms, line_addr, kind, store);
    if (i < 0)
        return -1;
    ms->req_hash[h] = (int16_t)i;
    ms->req_slots[i] = (uint16_t)h;
    ms->nhashed = ms->nreqs;
    return i;
}

/* One of the last four requests req_of returned whose line is `line_addr`, or -1. */
static inline int recent_req(const memsys *ms, uint64_t line_addr)
{
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t i = ms->recent[k];
        if (i < ms->nreqs && ms->reqs[i].line_addr == line_addr)
            return (int)i;
    }
    return -1;
}

/* The request of line `line_addr`, in the order the lines were first touched: the previous
 * piece's line; a line above every line so far is new without a look-up (lanes usually go up
 * through memory); one of the last four lines (a local access: each lane's 4-byte pieces lie
 * on lines 128 bytes apart, the same lines for every lane); the hash only for the others.
 * -1 when the scratch is full. */
static inline int req_of(memsys *ms, uint64_t line_addr, uint8_t kind, int store)
{
    int r;
    if (!ms->nreqs) {
        ms->nhashed = 0;
        r = new_req(ms, line_addr, kind, store);
    } else if (ms->reqs[ms->last_req].line_addr == line_addr) {
        return (int)ms->last_req;
    } else if (line_addr > ms->max_line) {
        r = new_req(ms, line_addr, kind, store);
    } else if ((r = recent_req(ms, line_addr)) < 0) {
        r = find_req(ms, line_addr, kind, store);
    }
    ms->last_req = (uint32_t)(r < 0 ? 0 : r);
    ms->recent[ms->recent_at++ & 3] = ms->last_req;
    return r;
}

/* Copies a lane's bytes (1..MEM_MAX_LANE_BYTES): the common sizes as fixed-size copies the
 * compiler inlines, as a library call per lane would cost more than the copy. `src` NULL: sets
 * the bytes to 1. */
static inline void lane_copy(uint8_t *dst, const uint8_t *src, uint32_t len)
{
    _Static_assert(MEM_MAX_LANE_BYTES == 64, "ones[] lists one 1 per byte of a lane");
    static const uint8_t ones[MEM_MAX_LANE_BYTES] = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    };
    if (!src)
        src = ones;
    switch (len) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, len); break;
    }
}

/* Marks line bytes [off, off+len) of request q touched: its L1 sectors and its byte bits. */
static inline void mark_bytes(const memsys *ms, line_req *q, uint32_t off, uint32_t len)
{
    unsigned s0 = off >> ms->l1_sector_shift, s1 = (off + len - 1) >> ms->l1_sector_shift;
    q->sectors |= bit_span(s0, s1 - s0 + 1);
    if ((off & 63) + len <= 64) { /* within one word: every lane of at most 16 bytes */
        q->byte_bits[off >> 6] |= ((UINT64_C(2) << (len - 1)) - 1) << (off & 63);
    } else if (((off | len) & 63) == 0) { /* whole words (a warp's block of whole lines) */
        for (uint32_t k = off >> 6; k < (off + len) >> 6; k++) q->byte_bits[k] = UINT64_MAX;
    } else {
        for (uint32_t at = off, left = len; left;) {
            uint32_t bit = at & 63, n = 64 - bit < left ? 64 - bit : left;
            q->byte_bits[at >> 6] |= bit_span(bit, n);
            at += n;
            left -= n;
        }
    }
}

/* Adds `len` bytes at backing address `addr` (within one line) to their line request: its
 * touched bytes and L1 sectors, and for a store (store_data) its byte mask and data. Returns
 * where the bytes are in the request's data, or NULL when the scratch is full. */
static inline __attribute__((always_inline)) uint8_t *
touch_line(memsys *ms, uint64_t addr, uint32_t len, uint8_t kind, const uint8_t *store_data)
{
    uint64_t line_addr = addr & ~(uint64_t)(ms->line_bytes - 1);
    int r = req_of(ms, line_addr, kind, store_data != NULL);
    if (r < 0)
        return NULL;
    uint32_t off = (uint32_t)(addr - line_addr);
    line_req *q = &ms->reqs[r];
    mark_bytes(ms, q, off, len);
    if (store_data) {
        lane_copy(q->mask + off, NULL, len);
        lane_copy(q->data + off, store_data, len);
    }
    return q->data + off;
}

/* Adds lane bytes [lane_off, lane_off+len) at backing address `addr` (within one line) as a
 * piece of lane `lane` (touch_line). */
static inline __attribute__((always_inline)) int
add_piece(memsys *ms, uint32_t lane, uint32_t lane_off, uint64_t addr, uint32_t len, uint8_t kind,
          const uint8_t *store_data)
{
    if (ms->npieces == sizeof ms->pieces / sizeof ms->pieces[0])
        return -1;
    const uint8_t *at = touch_line(ms, addr, len, kind, store_data);
    if (!at)
        return -1;
    uint32_t off = (uint32_t)(at - ms->reqs[ms->last_req].data);
    ms->pieces[ms->npieces++] = (lane_piece){(uint16_t)ms->last_req, (uint8_t)lane,
                                             (uint8_t)lane_off, (uint8_t)off, (uint8_t)len};
    return 0;
}

/* Whether the access touches every byte of the line. */
int coalesce_whole_line(const memsys *ms, const line_req *r)
{
    for (uint32_t b = 0; b < ms->line_bytes; b += 64) {
        uint32_t n = ms->line_bytes - b < 64 ? ms->line_bytes - b : 64;
        if ((r->byte_bits[b >> 6] & bit_span(0, n)) != bit_span(0, n))
            return 0;
    }
    return 1;
}

/* Copies `n` lanes' bytes (`bytes` each) from lane_data to dst, one after another. */
static void gather_lanes(uint8_t *dst, const uint8_t (*lane_data)[MEM_MAX_LANE_BYTES], uint32_t n,
                         uint32_t bytes)
{
    if (n == MEM_LANES && bytes == 4) { /* a full warp of words: unrolled, no loop counter */
#pragma GCC unroll 32
        for (uint32_t i = 0; i < MEM_LANES; i++) memcpy(dst + 4 * i, lane_data[i], 4);
        return;
    }
    switch (bytes) {
    case 4: for (uint32_t i = 0; i < n; i++) memcpy(dst + 4 * i, lane_data[i], 4); break;
    case 8: for (uint32_t i = 0; i < n; i++) memcpy(dst + 8 * i, lane_data[i], 8); break;
    default: for (uint32_t i = 0; i < n; i++) memcpy(dst + bytes * i, lane_data[i], bytes); break;
    }
}

/* The stride of an access whose active lanes are all global, lane l at base + (l - l0) x
 * stride (l0 the lowest active lane, base its offset aligned to the access's power-of-two size
 * of at most a line), with stride 0 or a multiple of the size; UINT64_MAX when the access is
 * not of this shape. */
static uint64_t lane_stride(const memsys *ms, const lane_target *t, uint32_t lanes,
                            uint32_t bytes)
{
    uint32_t l0 = (uint32_t)__builtin_ctz(lanes);
    uint64_t base = t[l0].offset, stride = 0;
    if ((bytes & (bytes - 1)) || bytes > ms->line_bytes || (base & (bytes - 1)))
        return UINT64_MAX;
    if (lanes & (lanes - 1)) {
        uint32_t l = (uint32_t)__builtin_ctz(lanes & (lanes - 1));
        uint64_t d = t[l].offset - base;
        if (t[l].offset < base || d % (l - l0))
            return UINT64_MAX;
        stride = d / (l - l0);
    }
    if (stride % bytes || stride > (UINT64_MAX - base) / MEM_LANES) /* no lane wraps around */
        return UINT64_MAX;
    uint32_t run = lanes >> l0;
    if (!(run & (run + 1))) { /* no inactive lane between: a plain loop */
        uint32_t n = bits_popcount32(run), bad = 0;
#pragma GCC unroll 8
        for (uint32_t i = 0; i < n; i++)
            bad |= (t[l0 + i].space != IR_SPACE_GLOBAL) | (t[l0 + i].offset != base + i * stride);
        return bad ? UINT64_MAX : stride;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (t[l].space != IR_SPACE_GLOBAL || t[l].offset != base + (l - l0) * stride)
            return UINT64_MAX;
    }
    return stride;
}

/* The line requests of n lanes from lane l0 on whose bytes lie one after another from `base`,
 * one request per line in ascending order. A store gathers their bytes; a load's lanes read
 * through lane_src when `via_lane_src` (else the caller describes the block, block_*).
 * Returns 0, or -1 when the scratch is full. */
static int contiguous_lines(memsys *ms, const mem_access *acc, uint32_t l0, uint32_t n,
                            uint64_t base, int store, int via_lane_src)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    uint64_t end = base + (uint64_t)n * bytes, line_mask = ms->line_bytes - 1;
    for (uint64_t at = base; at < end;) {
        uint64_t line_addr = at & ~line_mask;
        uint64_t stop = end - line_addr < ms->line_bytes ? end : line_addr + ms->line_bytes;
        uint32_t off = (uint32_t)(at - line_addr), len = (uint32_t)(stop - at);
        /* A store's mask is cleared first unless the lanes cover all of it (a whole line). */
        int r = new_req(ms, line_addr, LINE_KIND_GLOBAL, store && len != LINE_BYTES_MAX);
        if (r < 0)
            return -1;
        line_req *q = &ms->reqs[r];
        uint32_t first = l0 + (uint32_t)((at - base) / bytes), count = len / bytes;
        mark_bytes(ms, q, off, len);
        if (store) {
            memset(q->mask + off, 1, len);
            gather_lanes(q->data + off, acc->data + first, count, bytes);
        } else if (via_lane_src) {
            for (uint32_t i = 0; i < count; i++) ms->lane_src[first + i] = q->data + off + i * bytes;
            ms->whole_lanes |= (count == 32 ? UINT32_MAX : ((1u << count) - 1)) << first;
        }
        at = stop;
    }
    ms->last_req = ms->nreqs - 1;
    return 0;
}

/* lane_stride's contiguous case with no inactive lane between: lanes l0..l1 at base + i x
 * bytes, one line request after the other with a range of lanes each. */
static int coalesce_block(memsys *ms, const mem_access *acc, uint32_t lanes, uint64_t base,
                          int store)
{
    uint32_t l0 = (uint32_t)__builtin_ctz(lanes), n = bits_popcount32(lanes);
    if (contiguous_lines(ms, acc, l0, n, base, store, 0))
        return -1;
    if (!store) {
        ms->block_l0 = l0;
        ms->block_lanes = n;
        ms->block_base = base;
    }
    return 0;
}

/* Request q of coalesce_columns: the global line at line_addr, with proto's sectors and byte
 * bits (the same in every request of the walk). Returns q. */
static inline line_req *column_req(line_req *q, uint64_t line_addr, const line_req *proto)
{
    q->line_addr = line_addr;
    q->kind = LINE_KIND_GLOBAL;
    q->line_level = MEM_LEVEL_NONE;
    q->sectors = proto->sectors;
    memcpy(q->byte_bits, proto->byte_bits, sizeof q->byte_bits);
    return q;
}

/* lane_stride's accesses at a stride of a multiple of the line (a column walk, an array of
 * large structures): each active lane is a line of its own, in ascending order, and its bytes
 * sit at the same offset in every line, so every request gets the same sectors and byte bits,
 * worked out once. The requests come out as coalesce_strided's per-lane loop makes them. */
static void coalesce_columns(memsys *ms, const mem_access *acc, const lane_target *t,
                             uint32_t lanes, uint32_t bytes, int store)
{
    uint64_t line_mask = ms->line_bytes - 1;
    uint32_t off = (uint32_t)(t[__builtin_ctz(lanes)].offset & line_mask);
    _Static_assert((int)LINE_SCRATCH >= (int)MEM_LANES, "a request per lane fits the scratch");
    line_req proto; /* only its sectors and byte bits are used */
    proto.sectors = 0;
    memset(proto.byte_bits, 0, sizeof proto.byte_bits);
    mark_bytes(ms, &proto, off, bytes);
    uint32_t i = 0, rest = lanes; /* the lanes not yet done */
    if (!store && lanes == UINT32_MAX) { /* a full warp's load (a column walk): lane l, line l */
        for (; i < MEM_LANES; i++)
            ms->lane_src[i] =
                column_req(&ms->reqs[i], t[i].offset & ~line_mask, &proto)->data + off;
        rest = 0;
    }
    for (uint32_t m = rest; m; m &= m - 1, i++) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        line_req *q = column_req(&ms->reqs[i], t[l].offset & ~line_mask, &proto);
        if (store) {
            clear_mask(q->mask);
            lane_copy(q->mask + off, NULL, bytes);
            lane_copy(q->data + off, acc->data[l], bytes);
        } else {
            ms->lane_src[l] = q->data + off;
        }
    }
    ms->nreqs = i;
    ms->max_line = ms->reqs[i - 1].line_addr;
    ms->last_req = i - 1;
    ms->whole_lanes = store ? 0 : lanes;
}

/* coalesce_fields when its lanes fill whole lines (the first lane within the first `stride`
 * bytes of its line, n a multiple of per_line): n / per_line requests from reqs[0] on (the
 * scratch is empty, and 32 lanes make at most 32 requests), each of proto's sectors and byte
 * bits, without new_req's checks and clearing. */
static void fields_whole_lines(memsys *ms, const mem_access *acc, const lane_target *t,
                               uint32_t l0, uint32_t n, uint32_t stride, uint32_t bytes,
                               const line_req *proto, int store)
{
    _Static_assert((int)LINE_SCRATCH >= (int)MEM_LANES, "a request per lane fits the scratch");
    uint32_t line_bytes = ms->line_bytes, per_line = line_bytes / stride, lines = n / per_line;
    uint64_t first = t[l0].offset, line_addr = first & ~(uint64_t)(line_bytes - 1);
    uint32_t off = (uint32_t)(first - line_addr);
    /* a store of 4-byte words, at most 8 a line: cache_write_lines_below's words (masks_lazy) */
    const int lazy = store && bytes == 4 && per_line <= 8 && line_bytes == LINE_BYTES_MAX;
    for (uint32_t k = 0, l = l0; k < lines; k++, l += per_line, line_addr += line_bytes) {
        line_req *q = &ms->reqs[k];
        q->line_addr = line_addr;
        q->kind = LINE_KIND_GLOBAL;
        q->line_level = MEM_LEVEL_NONE;
        q->sectors = proto->sectors;
        memcpy(q->byte_bits, proto->byte_bits, sizeof q->byte_bits);
        if (!store) {
            const uint8_t **src = &ms->lane_src[l], *p = q->data + off;
            if (per_line == 4) { /* 32-byte structures: unrolled */
                src[0] = p;
                src[1] = p + stride;
                src[2] = p + 2 * stride;
                src[3] = p + 3 * stride;
            } else {
                for (uint32_t j = 0; j < per_line; j++, p += stride) src[j] = p;
            }
            continue;
        }
        uint8_t *mask = q->mask + off, *data = q->data + off;
        const uint8_t (*lane)[MEM_MAX_LANE_BYTES] = &acc->data[l];
        if (lazy && per_line == 4) { /* 32-byte structures: unrolled, no mask */
            memcpy(data, lane[0], 4);
            memcpy(data + stride, lane[1], 4);
            memcpy(data + 2 * stride, lane[2], 4);
            memcpy(data + 3 * stride, lane[3], 4);
            continue;
        }
        if (lazy) { /* words only: the mask is left to coalesce_fill_mask */
            for (uint32_t j = 0; j < per_line; j++, data += stride) memcpy(data, lane[j], 4);
            continue;
        }
        clear_mask(q->mask);
        if (bytes == 4) { /* a word a lane: fixed-size copies */
            const uint32_t ones = 0x01010101u;
            for (uint32_t j = 0; j < per_line; j++, mask += stride, data += stride) {
                memcpy(mask, &ones, 4);
                memcpy(data, lane[j], 4);
            }
        } else {
            for (uint32_t j = 0; j < per_line; j++, mask += stride, data += stride) {
                lane_copy(mask, NULL, bytes);
                lane_copy(data, lane[j], bytes);
            }
        }
    }
    ms->nreqs = lines;
    ms->masks_lazy = lazy ? lines : 0;
    ms->max_line = line_addr - line_bytes;
    ms->last_req = lines - 1;
}

/* lane_stride's accesses with no inactive lane between whose stride is less than a line and
 * divides it, each lane's bytes in one sector (a field of an array of small structures:
 * aos_update's 4-byte fields 32 bytes apart): every line but the first and the last holds
 * line_bytes / stride lanes at the same offsets, so its sectors and byte bits are worked out
 * once. The requests, their order, bytes, masks and data are coalesce_strided's per-lane
 * loop's. Returns 1, or -1 when the scratch is full. */
static int coalesce_fields(memsys *ms, const mem_access *acc, const lane_target *t,
                           uint32_t lanes, uint32_t stride, uint32_t bytes, int store)
{
    uint32_t l0 = (uint32_t)__builtin_ctz(lanes), n = bits_popcount32(lanes);
    uint32_t line_bytes = ms->line_bytes, per_line = line_bytes / stride;
    uint64_t line_mask = line_bytes - 1, lane_bits = bit_span(0, bytes);
    unsigned shift = ms->l1_sector_shift;
    line_req proto; /* a line of per_line lanes: only its sectors and byte bits are used */
    proto.sectors = 0;
    memset(proto.byte_bits, 0, sizeof proto.byte_bits);
    for (uint32_t off = (uint32_t)(t[l0].offset & (stride - 1)); off < line_bytes; off += stride) {
        proto.sectors |= UINT64_C(1) << (off >> shift);
        proto.byte_bits[off >> 6] |= lane_bits << (off & 63);
    }
    if ((t[l0].offset & line_mask) < stride && n % per_line == 0 && ms->nreqs == 0) {
        fields_whole_lines(ms, acc, t, l0, n, stride, bytes, &proto, store);
        return 1;
    }
    const unsigned stride_shift = (unsigned)__builtin_ctz(stride); /* it divides the line */
    for (uint32_t i = 0; i < n;) {
        uint64_t at = t[l0 + i].offset;
        uint32_t off = (uint32_t)(at & line_mask);
        uint32_t count = (line_bytes - off + stride - 1) >> stride_shift;
        count = count < n - i ? count : n - i;
        int r = new_req(ms, at & ~line_mask, LINE_KIND_GLOBAL, store);
        if (r < 0)
            return -1;
        line_req *q = &ms->reqs[r];
        if (count == per_line) { /* then off is the first lane's offset in every full line */
            q->sectors = proto.sectors;
            memcpy(q->byte_bits, proto.byte_bits, sizeof q->byte_bits);
        } else {
            for (uint32_t j = 0, o = off; j < count; j++, o += stride) {
                q->sectors |= UINT64_C(1) << (o >> shift);
                q->byte_bits[o >> 6] |= lane_bits << (o & 63);
            }
        }
        uint32_t l = l0 + i, end = l0 + i + count;
        if (!store && count == 4) { /* 32-byte structures: unrolled */
            const uint8_t **src = &ms->lane_src[l], *p = q->data + off;
            src[0] = p;
            src[1] = p + stride;
            src[2] = p + 2 * stride;
            src[3] = p + 3 * stride;
        } else if (!store) {
            const uint8_t **src = &ms->lane_src[l], *p = q->data + off;
            for (uint32_t j = 0; j < count; j++, p += stride) src[j] = p;
        } else if (bytes == 4) { /* a word a lane: fixed-size copies */
            const uint32_t ones = 0x01010101u;
            uint8_t *mask = q->mask + off, *data = q->data + off;
            const uint8_t (*lane)[MEM_MAX_LANE_BYTES] = &acc->data[l];
            for (uint32_t j = 0; j < count; j++, mask += stride, data += stride) {
                memcpy(mask, &ones, 4);
                memcpy(data, lane[j], 4);
            }
        } else {
            for (; l < end; l++, off += stride) {
                lane_copy(q->mask + off, NULL, bytes);
                lane_copy(q->data + off, acc->data[l], bytes);
            }
        }
        i += count;
    }
    ms->last_req = ms->nreqs - 1;
    return 1;
}

/* Accesses of lane_stride's shape: their line requests in the order, and with the bytes,
 * sectors, mask and data, the per-lane path would give them, without a look-up (the lanes go
 * up through memory: a new line is the next request; stride 0: one line for all). Returns 0
 * when the access is not of this shape (nothing changed), 1 when done, -1 when the scratch is
 * full. */
static int coalesce_strided(memsys *ms, const mem_access *acc, const lane_target *t,
                            uint32_t lanes, int store)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    uint64_t stride = ms->known_stride != UINT64_MAX ? ms->known_stride
                                                     : lane_stride(ms, t, lanes, bytes);
    ms->known_stride = UINT64_MAX;
    if (stride == UINT64_MAX)
        return 0;
    uint32_t l0 = (uint32_t)__builtin_ctz(lanes), run = lanes >> l0;
    if (stride == bytes && !(run & (run + 1)))
        return coalesce_block(ms, acc, lanes, t[l0].offset, store) ? -1 : 1;
    /* A multiple of the line: at most MEM_LANES requests, which the scratch has room for. */
    if (stride >= ms->line_bytes && !(stride & (ms->line_bytes - 1))) {
        coalesce_columns(ms, acc, t, lanes, bytes, store);
        return 1;
    }
    ms->whole_lanes = store ? 0 : lanes;
    uint64_t line_mask = ms->line_bytes - 1, line_addr = UINT64_MAX;
    if (!stride) { /* a broadcast: one line request, the same bytes for every lane */
        uint64_t at = t[l0].offset;
        int i = new_req(ms, at & ~line_mask, LINE_KIND_GLOBAL, store);
        if (i < 0)
            return -1;
        line_req *q = &ms->reqs[i];
        uint32_t off = (uint32_t)(at & line_mask);
        if (store) { /* the highest lane's bytes stay, as if each lane stored in turn */
            lane_copy(q->mask + off, NULL, bytes);
            lane_copy(q->data + off, acc->data[31 - __builtin_clz(lanes)], bytes);
        } else if (lanes == UINT32_MAX) { /* a full warp: one pointer, stored vector-wise */
            const uint8_t *p = q->data + off, **src = ms->lane_src;
            for (uint32_t l = 0; l < MEM_LANES; l++) src[l] = p;
        } else {
            for (uint32_t m = lanes; m; m &= m - 1) ms->lane_src[__builtin_ctz(m)] = q->data + off;
        }
        mark_bytes(ms, q, off, bytes);
        ms->last_req = 0;
        return 1;
    }
    /* A lane's bytes are aligned to their power-of-two size (at most 64): when that is no more
     * than a sector, they lie in one sector and one 64-bit word of the byte bits. */
    int one_sector = bytes <= (1u << ms->l1_sector_shift);
    if (one_sector && stride < ms->line_bytes && !(ms->line_bytes % stride) && !(run & (run + 1)))
        return coalesce_fields(ms, acc, t, lanes, (uint32_t)stride, bytes, store);
    uint64_t lane_bits = bit_span(0, bytes);
    line_req *q = NULL;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t at = t[l].offset;
        if ((at & ~line_mask) != line_addr) {
            line_addr = at & ~line_mask;
            int r = new_req(ms, line_addr, LINE_KIND_GLOBAL, store);
            if (r < 0)
                return -1;
            q = &ms->reqs[r];
        }
        uint32_t off = (uint32_t)(at & line_mask);
        if (store) {
            lane_copy(q->mask + off, NULL, bytes);
            lane_copy(q->data + off, acc->data[l], bytes);
        } else {
            ms->lane_src[l] = q->data + off;
        }
        if (!stride && m != lanes)
            continue;
        if (one_sector) {
            q->sectors |= UINT64_C(1) << (off >> ms->l1_sector_shift);
            q->byte_bits[off >> 6] |= lane_bits << (off & 63);
        } else {
            mark_bytes(ms, q, off, bytes);
        }
    }
    ms->last_req = ms->nreqs - 1;
    return 1;
}

/* A global lane's bytes (t[l].offset on): one piece when they lie in one line, as an aligned
 * access of at most 32 bytes always does; wider ones (Intel LSC: up to 64 bytes a lane) may
 * cross a 64-byte line and are split there. */
static int coalesce_global_lane(memsys *ms, const lane_target *t, uint32_t l, uint32_t bytes,
                                const uint8_t *src)
{
    if ((t[l].offset & (ms->line_bytes - 1)) + bytes <= ms->line_bytes) {
        const uint8_t *at = touch_line(ms, t[l].offset, bytes, LINE_KIND_GLOBAL, src);
        if (!at)
            return -1;
        ms->lane_src[l] = at;
        ms->whole_lanes |= 1u << l;
        return 0;
    }
    for (uint32_t done = 0; done < bytes;) {
        uint64_t at = t[l].offset + done;
        uint32_t room = ms->line_bytes - (uint32_t)(at & (ms->line_bytes - 1));
        uint32_t chunk = bytes - done < room ? bytes - done : room;
        if (add_piece(ms, l, done, at, chunk, LINE_KIND_GLOBAL, src ? src + done : NULL))
            return -1;
        done += chunk;
    }
    return 0;
}

/* Splits the lanes into line requests and records where each lane's bytes are (lane_src,
 * pieces); memsys_internal.h. */
/* A full warp of global lanes in two contiguous runs, lanes 0..s-1 from one address and lanes
 * s..31 from another, the second run's lines all above the first's (a 2D tile's two rows:
 * matmul's 16x16 loads): coalesce_block for the first run, then the second run's lines one after
 * the other, its lanes reading through lane_src. The requests, bytes and data are the per-lane
 * loop's. Returns 0 when the access is not of this shape (nothing changed), 1 when done, -1 when
 * the scratch is full. */
static int coalesce_two_runs(memsys *ms, const mem_access *acc, const lane_target *t, int store)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec, s = 1;
    uint64_t base = t[0].offset, line_mask = ms->line_bytes - 1;
    if ((bytes & (bytes - 1)) || bytes > ms->line_bytes || (base & (bytes - 1)))
        return 0;
    while (s < MEM_LANES && t[s].offset == base + (uint64_t)s * bytes) s++;
    if (s == MEM_LANES)
        return 0;
    uint64_t base2 = t[s].offset, end = base + (uint64_t)s * bytes;
    uint32_t bad = (base2 & (bytes - 1)) != 0 ||
                   (base2 & ~line_mask) <= ((end - 1) & ~line_mask) ||
                   base2 > UINT64_MAX - (uint64_t)MEM_LANES * bytes;
    for (uint32_t l = 0; l < MEM_LANES; l++)
        bad |= t[l].space != IR_SPACE_GLOBAL;
    for (uint32_t l = s; l < MEM_LANES; l++)
        bad |= t[l].offset != base2 + (uint64_t)(l - s) * bytes;
    if (bad)
        return 0;
    if (coalesce_block(ms, acc, (1u << s) - 1, base, store) ||
        contiguous_lines(ms, acc, s, MEM_LANES - s, base2, store, 1))
        return -1;
    return 1;
}

/* The rows of a warp's local backing that coalesce_local_words finds without req_of. */
enum { LOCAL_ROWS = 64 };
static const uint8_t local_ones[4] = {1, 1, 1, 1};

/* Word j of lane l at byte 4l of request r (coalesce_local_words): a store's mask and data; a
 * load's lane_src when the lane has one word (`words`), else a piece. Returns 0, or -1 when
 * the pieces are full. */
static inline int local_word(memsys *ms, const mem_access *acc, int r, uint32_t l, uint32_t j,
                             uint32_t words, int store)
{
    line_req *q = &ms->reqs[r];
    uint32_t off = 4 * l;
    if (store) {
        memcpy(q->mask + off, local_ones, 4);
        memcpy(q->data + off, acc->data[l] + 4 * j, 4);
    } else if (words == 1) {
        ms->lane_src[l] = q->data + off;
        ms->whole_lanes |= 1u << l;
    } else {
        if (ms->npieces == sizeof ms->pieces / sizeof ms->pieces[0])
            return -1;
        ms->pieces[ms->npieces++] =
            (lane_piece){(uint16_t)r, (uint8_t)l, (uint8_t)(4 * j), (uint8_t)off, 4};
    }
    return 0;
}

/* coalesce_local_words when every lane has the same offset (a spill or its reload): rows
 * row0 .. row0 + words - 1, one request each in that order, every one with the same sectors and
 * byte bits (4 bytes of each active lane), worked out once. */
static int local_rows_uniform(memsys *ms, const mem_ctx *ctx, const mem_access *acc,
                              uint32_t lanes, uint32_t row0, uint32_t words, int store)
{
    uint64_t nibbles[2] = {0, 0}, sectors = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        nibbles[l >> 4] |= UINT64_C(0xF) << (4 * (l & 15));
        sectors |= UINT64_C(1) << ((4 * l) >> ms->l1_sector_shift);
    }
    for (uint32_t j = 0; j < words; j++) {
        int r = new_req(ms, ctx->local_backing + (uint64_t)(row0 + j) * 128, LINE_KIND_LOCAL,
                        store);
        if (r < 0)
            return -1;
        line_req *q = &ms->reqs[r];
        q->sectors = sectors;
        q->byte_bits[0] = nibbles[0];
        q->byte_bits[1] = nibbles[1];
        for (uint32_t m = lanes; m; m &= m - 1)
            if (local_word(ms, acc, r, (uint32_t)__builtin_ctz(m), j, words, store))
                return -1;
    }
    ms->last_req = ms->nreqs - 1;
    return 1;
}

/* Local lanes whose bytes are whole words (hier_local_backing puts word w of lane l at byte 4l
 * of the 128-byte row w of the warp's local backing): when the L1 line is that row and every
 * lane's words lie in the first LOCAL_ROWS rows, each of a lane's words is 4 bytes of the
 * request of its row, found by the row number instead of req_of's look-ups. The requests come
 * in the order, and with the bytes, sectors, mask and data, the per-lane loop of
 * coalesce_access gives them (lane by lane, a lane's words in ascending order); a load's lanes
 * read through lane_src when they have one word, through pieces otherwise. Register spills and
 * local arrays indexed per lane take this path. Returns 0 when the access is not of this shape
 * (nothing changed), 1 when done, -1 when the scratch is full. */
static int coalesce_local_words(memsys *ms, const mem_ctx *ctx, const mem_access *acc,
                                const lane_target *t, uint32_t lanes, int store)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec, words = bytes / 4;
    if (ms->line_bytes != 128 || (ctx->local_backing & 127) || (bytes & 3) || !words ||
        words > LOCAL_ROWS)
        return 0;
    uint64_t first = t[__builtin_ctz(lanes)].offset;
    uint32_t bad = 0, same = 1;
    for (uint32_t m = lanes; m; m &= m - 1) {
        const lane_target *lt = &t[__builtin_ctz(m)];
        bad |= (lt->space != IR_SPACE_LOCAL) | ((lt->offset & 3) != 0) |
               (lt->offset / 4 > LOCAL_ROWS - words);
        same &= lt->offset == first;
    }
    if (bad)
        return 0;
    if (same)
        return local_rows_uniform(ms, ctx, acc, lanes, (uint32_t)(first / 4), words, store);
    int16_t req_of_row[LOCAL_ROWS];
    memset(req_of_row, -1, sizeof req_of_row);
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), row = (uint32_t)(t[l].offset / 4), off = 4 * l;
        for (uint32_t j = 0; j < words; j++, row++) {
            int r = req_of_row[row];
            if (r < 0) {
                r = new_req(ms, ctx->local_backing + (uint64_t)row * 128, LINE_KIND_LOCAL, store);
                if (r < 0)
                    return -1;
                req_of_row[row] = (int16_t)r;
            }
            line_req *q = &ms->reqs[r];
            q->sectors |= UINT64_C(1) << (off >> ms->l1_sector_shift);
            q->byte_bits[off >> 6] |= UINT64_C(0xF) << (off & 63);
            if (local_word(ms, acc, r, l, j, words, store))
                return -1;
        }
    }
    ms->last_req = ms->nreqs - 1;
    return 1;
}

int coalesce_access(memsys *ms, const mem_ctx *ctx, const mem_access *acc, const lane_target *t,
                    uint32_t lanes, int store)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    coalesce_begin(ms);
    int strided = 0, local = lanes && t[__builtin_ctz(lanes)].space == IR_SPACE_LOCAL;
    if (local) {
        ms->known_stride = UINT64_MAX; /* found for global lanes only */
        strided = coalesce_local_words(ms, ctx, acc, t, lanes, store);
    } else if (lanes) {
        strided = coalesce_strided(ms, acc, t, lanes, store);
    }
    if (!strided && lanes == UINT32_MAX)
        strided = coalesce_two_runs(ms, acc, t, store);
    if (strided) /* the shapes of global lanes make global lines only */
        return strided < 0 ? -1 : !local;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        const uint8_t *src = store ? acc->data[l] : NULL;
        if (t[l].space == IR_SPACE_GLOBAL) {
            if (coalesce_global_lane(ms, t, l, bytes, src))
                return -1;
            continue;
        }
        for (uint32_t done = 0; done < bytes;) {
            uint64_t off = t[l].offset + done;
            uint32_t chunk = 4 - (uint32_t)(off % 4);
            if (chunk > bytes - done)
                chunk = bytes - done;
            if (add_piece(ms, l, done, hier_local_backing(ctx, l, off), chunk, LINE_KIND_LOCAL,
                          src ? src + done : NULL))
                return -1;
            done += chunk;
        }
    }
    return 0;
}

/* Copies `n` lanes' bytes (`bytes` each) from src, one after another, to lane_data. */
static void scatter_lanes(uint8_t (*lane_data)[MEM_MAX_LANE_BYTES], const uint8_t *src,
                          uint32_t n, uint32_t bytes)
{
    if (n == MEM_LANES && bytes == 4) { /* a full warp of words: unrolled, no loop counter */
#pragma GCC unroll 32
        for (uint32_t i = 0; i < MEM_LANES; i++) memcpy(lane_data[i], src + 4 * i, 4);
        return;
    }
    switch (bytes) {
    case 4: for (uint32_t i = 0; i < n; i++) memcpy(lane_data[i], src + 4 * i, 4); break;
    case 8: for (uint32_t i = 0; i < n; i++) memcpy(lane_data[i], src + 8 * i, 8); break;
    case 16: for (uint32_t i = 0; i < n; i++) memcpy(lane_data[i], src + 16 * i, 16); break;
    default: for (uint32_t i = 0; i < n; i++) memcpy(lane_data[i], src + bytes * i, bytes); break;
    }
}

/* A contiguous load's data (block_*), from its line requests, a line at a time. */
static void copy_out_block(const memsys *ms, mem_access *acc, uint32_t bytes)
{
    uint32_t l = ms->block_l0, left = ms->block_lanes;
    uint32_t off = (uint32_t)(ms->block_base & (ms->line_bytes - 1));
    for (uint32_t i = 0; i < ms->nreqs && left; i++, off = 0) {
        uint32_t n = (ms->line_bytes - off) / bytes;
        n = n < left ? n : left;
        scatter_lanes(acc->data + l, ms->reqs[i].data + off, n, bytes);
        l += n;
        left -= n;
    }
}

/* coalesce_copy_out but for a full warp of words from lane_src alone: out of line, so that
 * that common shape's path saves no registers. */
static __attribute__((noinline)) void copy_out_general(const memsys *ms, mem_access *acc,
                                                       uint32_t bytes)
{
    uint32_t m = ms->whole_lanes;
    if (ms->block_lanes)
        copy_out_block(ms, acc, bytes);
    switch (bytes) {
    case 4: for (; m; m &= m - 1) memcpy(acc->data[__builtin_ctz(m)], ms->lane_src[__builtin_ctz(m)], 4); break;
    case 8: for (; m; m &= m - 1) memcpy(acc->data[__builtin_ctz(m)], ms->lane_src[__builtin_ctz(m)], 8); break;
    default:
        for (; m; m &= m - 1)
            memcpy(acc->data[__builtin_ctz(m)], ms->lane_src[__builtin_ctz(m)], bytes);
        break;
    }
    for (uint32_t p = 0; p < ms->npieces; p++) {
        const lane_piece *pc = &ms->pieces[p];
        lane_copy(acc->data[pc->lane] + pc->lane_off, ms->reqs[pc->req].data + pc->off, pc->len);
    }
}

/* A load's data, from the line requests into its lanes (block_*, lane_src, pieces). */
void coalesce_copy_out(const memsys *ms, mem_access *acc)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    if (ms->whole_lanes == UINT32_MAX && bytes == 4 && !ms->block_lanes && !ms->npieces) {
        /* A full warp of words, each from its lane_src (a column's or a scattered load's):
         * unrolled whole, each lane's pointer and destination at a constant offset, three host
         * instructions a lane (unrolled by 8, the compiler kept an index it advanced lane by
         * lane). */
#pragma GCC unroll 32
        for (uint32_t l = 0; l < MEM_LANES; l++) memcpy(acc->data[l], ms->lane_src[l], 4);
        return;
    }
    copy_out_general(ms, acc, bytes);
}

/* Adds lane `lane`'s texel `slot` (bytes at `addr`) to the line requests, split at lines. */
int coalesce_texel(memsys *ms, uint32_t lane, uint32_t slot, uint64_t addr, uint32_t bytes)
{
    for (uint32_t done = 0; done < bytes;) {
        uint64_t at = addr + done;
        uint32_t room = ms->line_bytes - (uint32_t)(at % ms->line_bytes);
        uint32_t chunk = bytes - done < room ? bytes - done : room;
        if (add_piece(ms, lane, slot * 16 + done, at, chunk, LINE_KIND_GLOBAL, NULL))
            return -1;
        done += chunk;
    }
    return 0;
}
