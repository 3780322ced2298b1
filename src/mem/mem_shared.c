/* Shared-memory bank conflicts, and the full-warp loads and stores of shared memory.
 *
 * Shared memory has `banks` banks of `bank_width_bytes`; one wavefront serves, per bank, one
 * word (any number of lanes reading that word: broadcast; atomics on one word serialise). A warp request is split into phases
 * that each move at most banks * bank_width bytes: accesses of 8 bytes per lane in two phases of
 * 16 lanes, 16 bytes in four phases of 8 lanes. A phase needs as many wavefronts as the largest
 * number of distinct words any one bank must deliver; bank conflicts are the wavefronts beyond
 * one per phase that has active lanes.
 *
 * The counts for accesses of any shape (shared_count) and the constant cache's are in
 * mem_count.c; the word counts both use are in mem_shared_words.h. */
#include <string.h>

#include "mem/mem_shared.h"
#include "mem/mem_shared_words.h"
#include "mem/memsys_internal.h"

/* ---- a full warp's shared-memory load or store (mem_shared.h) ---- */

void mem_shared_setup(memsys *ms)
{
    uint32_t banks = ms->cfg.shared.banks, width = ms->cfg.shared.bank_width_bytes;
    ms->shared_direct = banks && banks <= MAX_BANKS && !(banks & (banks - 1)) && width &&
                        !(width & (width - 1));
    ms->shared_width_shift = ms->shared_direct ? (uint8_t)__builtin_ctz(width) : 0;
    ms->shared_block_shift =
        ms->shared_direct ? (uint8_t)(__builtin_ctz(width) + __builtin_ctz(banks)) : 0;
}

/* Where a full warp's offsets a[0..31] of `bytes`-byte lanes lie: `ok` 0 when some lane is
 * misaligned or not wholly below `limit` (the window's allocated bytes); else the lowest and
 * the highest. */
typedef struct warp_span {
    int ok;
    uint32_t low, high;
} warp_span;

/* The span's verdict from the OR, the lowest and the highest of the offsets. */
static inline warp_span span_of(uint64_t any, uint64_t low, uint64_t high, uint32_t bytes,
                                uint32_t limit)
{
    warp_span s = {!(any & (bytes - 1)) && high < limit && limit - high >= bytes, (uint32_t)low,
                   (uint32_t)high};
    return s;
}

static warp_span span_plain(const uint64_t *a, uint32_t bytes, uint32_t limit)
{
    uint64_t any = 0, low = UINT64_MAX, high = 0;
#pragma GCC unroll 8
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        any |= a[l];
        low = a[l] < low ? a[l] : low;
        high = a[l] > high ? a[l] : high;
    }
    return span_of(any, low, high, bytes, limit);
}

/* span_plain of the offsets (row[l] + base) & keep, written into a[] first (a register row plus
 * an offset, mem_shared_load_reg and mem_shared_load_reg32). */
static warp_span row_span_plain(const uint64_t *row, uint64_t base, uint64_t keep, uint64_t *a,
                                uint32_t bytes, uint32_t limit)
{
    for (uint32_t l = 0; l < MEM_LANES; l++) a[l] = (row[l] + base) & keep;
    return span_plain(a, bytes, limit);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define SHARED_AVX2 1
#include <immintrin.h>

/* span_plain four lanes at a time on hosts with AVX2 (memsys.host_avx2), of the offsets a[] or,
 * `row` not NULL, of (row[l] + base) & keep, which it writes into a[] (so that the offsets are
 * made and measured in one pass, in registers). The lowest and highest offsets come from
 * unsigned 32-bit minima and maxima of the halves, exact once the OR of all has shown every
 * upper half zero (offsets of 2^32 and more are refused: no window is that large). */
__attribute__((target("avx2"))) static inline warp_span span_avx2(const uint64_t *row,
                                                                  uint64_t base, uint64_t keep,
                                                                  uint64_t *a, uint32_t bytes,
                                                                  uint32_t limit)
{
    warp_span s = {0, 0, 0};
    const __m256i b = _mm256_set1_epi64x((long long)base), k = _mm256_set1_epi64x((long long)keep);
    __m256i any = _mm256_setzero_si256(), low = _mm256_set1_epi32(-1), high = any;
    for (uint32_t l = 0; l < MEM_LANES; l += 4) {
        __m256i v;
        if (row) {
            v = _mm256_loadu_si256((const __m256i *)(const void *)&row[l]);
            v = _mm256_and_si256(_mm256_add_epi64(v, b), k);
            _mm256_storeu_si256((__m256i *)(void *)&a[l], v);
        } else {
            v = _mm256_loadu_si256((const __m256i *)(const void *)&a[l]);
        }
        any = _mm256_or_si256(any, v);
        low = _mm256_min_epu32(low, v);
        high = _mm256_max_epu32(high, v);
    }
    if (!_mm256_testz_si256(any, _mm256_set1_epi64x((long long)(0xFFFFFFFF00000000ull |
                                                                (bytes - 1)))))
        return s;
    __m128i lo = _mm_min_epu32(_mm256_castsi256_si128(low), _mm256_extracti128_si256(low, 1));
    __m128i hi = _mm_max_epu32(_mm256_castsi256_si128(high), _mm256_extracti128_si256(high, 1));
    s.low = (uint32_t)_mm_cvtsi128_si32(_mm_min_epu32(lo, _mm_unpackhi_epi64(lo, lo)));
    s.high = (uint32_t)_mm_cvtsi128_si32(_mm_max_epu32(hi, _mm_unpackhi_epi64(hi, hi)));
    s.ok = s.high < limit && limit - s.high >= bytes;
    return s;
}

/* The loaded elements of a full warp into out[], four lanes per gather: 4 bytes zero-extended
 * (bytes 4) or 8 bytes. Each gather reads exactly the lanes' bytes. */
__attribute__((target("avx2"))) static inline void gather_avx2(const uint8_t *shared,
                                                               const uint64_t *a, uint32_t bytes,
                                                               uint64_t *out)
{
    for (uint32_t l = 0; l < MEM_LANES; l += 4) {
        __m256i at = _mm256_loadu_si256((const __m256i *)(const void *)&a[l]);
        __m256i v = bytes == 4
                        ? _mm256_cvtepu32_epi64(
                              _mm256_i64gather_epi32((const int *)(const void *)shared, at, 1))
                        : _mm256_i64gather_epi64((const long long *)(const void *)shared, at, 1);
        _mm256_storeu_si256((__m256i *)(void *)&out[l], v);
    }
}

/* span_avx2 of the offsets (row[l] + base) mod 2^32 (32-bit address arithmetic: the row's low
 * halves plus the offset's), made eight lanes a vector: the row's low halves packed in lane order
 * (a shuffle of two 256-bit loads gives lanes l, l+1, l+4, l+5 | l+2, l+3, l+6, l+7, and swapping
 * the middle quarters puts them in order), kept in v[0..3] for gather32_avx2, and written into
 * a[] zero-extended unless a is NULL (row32_offsets_avx2 then writes them where needed). */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) warp_span
row32_span_avx2(const uint64_t *row, uint32_t base, uint64_t *a, __m256i v[4], uint32_t bytes,
                uint32_t limit)
{
    warp_span s = {0, 0, 0};
    const __m256i b = _mm256_set1_epi32((int)base);
    __m256i any = _mm256_setzero_si256(), low = _mm256_set1_epi32(-1), high = any;
    for (uint32_t k = 0; k < 4; k++) {
        __m256 x = _mm256_castsi256_ps(
            _mm256_loadu_si256((const __m256i *)(const void *)&row[8 * k]));
        __m256 y = _mm256_castsi256_ps(
            _mm256_loadu_si256((const __m256i *)(const void *)&row[8 * k + 4]));
        __m256i w = _mm256_castps_si256(_mm256_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0)));
        w = _mm256_add_epi32(_mm256_permute4x64_epi64(w, _MM_SHUFFLE(3, 1, 2, 0)), b);
        v[k] = w;
        if (a) {
            _mm256_storeu_si256((__m256i *)(void *)&a[8 * k],
                                _mm256_cvtepu32_epi64(_mm256_castsi256_si128(w)));
            _mm256_storeu_si256((__m256i *)(void *)&a[8 * k + 4],
                                _mm256_cvtepu32_epi64(_mm256_extracti128_si256(w, 1)));
        }
        any = _mm256_or_si256(any, w);
        low = _mm256_min_epu32(low, w);
        high = _mm256_max_epu32(high, w);
    }
    if (!_mm256_testz_si256(any, _mm256_set1_epi32((int)(bytes - 1))))
        return s;
    /* One reduction for both: the highest is the complement of the lowest complement; the
     * lows' halves go into the low 128 bits, the complements' into the high ones. */
    __m256i h = _mm256_xor_si256(high, _mm256_set1_epi32(-1));
    __m256i m = _mm256_min_epu32(_mm256_permute2x128_si256(low, h, 0x20),
                                 _mm256_permute2x128_si256(low, h, 0x31));
    m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    s.low = (uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(m));
    s.high = ~(uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(m, 1));
    s.ok = s.high < limit && limit - s.high >= bytes;
    return s;
}

/* The offsets v[0..3] (row32_span_avx2's) into a[], zero-extended. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
row32_offsets_avx2(const __m256i v[4], uint64_t *a)
{
    for (uint32_t k = 0; k < 4; k++) {
        _mm256_storeu_si256((__m256i *)(void *)&a[8 * k],
                            _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v[k])));
        _mm256_storeu_si256((__m256i *)(void *)&a[8 * k + 4],
                            _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v[k], 1)));
    }
}

/* The loaded 4-byte elements of a full warp into out[], zero-extended, from its 32-bit offsets in
 * v[0..3] (row32_span_avx2's, all below the window's size, so below 2^31 as the gathers' signed
 * indices need), eight lanes per gather. Each gather reads exactly the lanes' bytes. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
gather32_avx2(const uint8_t *shared, const __m256i v[4], uint64_t *out)
{
    for (uint32_t k = 0; k < 4; k++) {
        __m256i *o = (__m256i *)(void *)&out[8 * k];
        __m256i g = _mm256_i32gather_epi32((const int *)(const void *)shared, v[k], 1);
        _mm256_storeu_si256(o, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(g)));
        _mm256_storeu_si256(o + 1, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(g, 1)));
    }
}
#endif

/* Lanes per phase of `bytes`-byte lanes (shared_count's). */
static uint32_t lanes_per_phase(const memsys *ms, uint32_t bytes)
{
    uint32_t width = 1u << ms->shared_width_shift, block = 1u << ms->shared_block_shift;
    uint32_t per_phase = bytes <= width ? MEM_LANES : block / bytes;
    return per_phase ? per_phase : 1;
}

/* The words of a full warp's offsets a[] (>> width_shift) as bits relative to word `lo`, all
 * fewer than 64 above it (column_depth's mask). */
static uint64_t word_bits_plain(const uint64_t *a, unsigned width_shift, uint64_t lo)
{
    uint64_t bits = 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) bits |= 1ull << ((a[l] >> width_shift) - lo);
    return bits;
}

#ifdef SHARED_AVX2
/* word_bits_plain four lanes at a time (AVX2 hosts). */
__attribute__((target("avx2"))) static uint64_t word_bits_avx2(const uint64_t *a,
                                                               unsigned width_shift, uint64_t lo)
{
    const __m256i one = _mm256_set1_epi64x(1), base = _mm256_set1_epi64x((long long)lo);
    const __m128i shift = _mm_cvtsi32_si128((int)width_shift);
    __m256i bits = _mm256_setzero_si256();
    for (uint32_t l = 0; l < MEM_LANES; l += 4) {
        __m256i w = _mm256_srl_epi64(_mm256_loadu_si256((const __m256i *)(const void *)&a[l]),
                                     shift);
        bits = _mm256_or_si256(bits, _mm256_sllv_epi64(one, _mm256_sub_epi64(w, base)));
    }
    __m128i b = _mm_or_si128(_mm256_castsi256_si128(bits), _mm256_extracti128_si256(bits, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_or_si128(b, _mm_unpackhi_epi64(b, b)));
}
#endif

/* 0 when every lane's offset a[l] is a[0] + l * stride (modulo 2^64), else not 0. */
static uint64_t stride_misses(const uint64_t *a, uint64_t stride)
{
    uint64_t off = 0;
    for (uint32_t l = 1; l < MEM_LANES; l++) off |= a[l] ^ (a[0] + l * stride);
    return off;
}

#ifdef SHARED_AVX2
/* stride_misses four lanes at a time (AVX2 hosts). */
__attribute__((target("avx2"))) static uint64_t stride_misses_avx2(const uint64_t *a,
                                                                   uint64_t stride)
{
    __m256i want = _mm256_add_epi64(_mm256_set1_epi64x((long long)a[0]),
                                    _mm256_set_epi64x((long long)(3 * stride),
                                                      (long long)(2 * stride),
                                                      (long long)stride, 0));
    const __m256i step = _mm256_set1_epi64x((long long)(4 * stride));
    __m256i off = _mm256_setzero_si256();
    for (uint32_t l = 0; l < MEM_LANES; l += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)&a[l]);
        off = _mm256_or_si256(off, _mm256_xor_si256(v, want));
        want = _mm256_add_epi64(want, step);
    }
    return !_mm256_testz_si256(off, off);
}
#endif

/* Wavefronts of a full warp of single words (lanes of at most the bank width) at offsets a[],
 * lowest `low`, highest `high`, whose words span `banks` or more. Under 64 words: column_depth.
 * Wider, at one stride of s words (not 0; s a multiple of the width), lane l's bank is
 * (w0 + l s) mod banks: the banks repeat every P = banks / 2^t lanes, t the trailing zero bits of
 * s mod banks (all of log2 banks when it is 0), and the words all differ, so each bank used must
 * deliver 32 / P of them (one wavefront when P >= 32). Other patterns: words_wavefronts, 0 when
 * it cannot tell. */
static uint32_t spread_words_wavefronts(const memsys *ms, const uint64_t *a, uint32_t low,
                                        uint32_t high)
{
    uint32_t banks = ms->cfg.shared.banks;
    unsigned width_shift = ms->shared_width_shift;
    uint64_t lo = low >> width_shift, span = (high >> width_shift) - lo;
    if (span < 64) {
#ifdef SHARED_AVX2
        uint64_t bits = ms->host_avx2 ? word_bits_avx2(a, width_shift, lo)
                                      : word_bits_plain(a, width_shift, lo);
#else
        uint64_t bits = word_bits_plain(a, width_shift, lo);
#endif
        return column_depth(bits, span, banks);
    }
    /* At one stride the lowest and highest lanes are the ends: high - low = 31 |s|. */
    uint64_t stride = a[1] - a[0], size = stride >> 63 ? -stride : stride;
    if (size * (MEM_LANES - 1) == (uint64_t)(high - low) &&
        !(stride & ((1u << width_shift) - 1))) {
#ifdef SHARED_AVX2
        uint64_t off = ms->host_avx2 ? stride_misses_avx2(a, stride) : stride_misses(a, stride);
#else
        uint64_t off = stride_misses(a, stride);
#endif
        if (!off) {
            uint64_t s = (stride >> width_shift) & (banks - 1);
            uint32_t period = s ? banks >> __builtin_ctzll(s) : 1;
            return period >= MEM_LANES ? 1 : MEM_LANES / period;
        }
    }
    uint64_t w[MEM_LANES];
    for (uint32_t l = 0; l < MEM_LANES; l++) w[l] = a[l] >> width_shift;
    return words_wavefronts(w, MEM_LANES, banks);
}

/* Wavefronts of a full warp of lanes wider than the bank width whose offsets span more than
 * one block of banks x width bytes: one per phase when each phase lies in one block, else 0
 * (only phase_wavefronts can tell). */
static uint32_t wide_lanes_wavefronts(const memsys *ms, const uint64_t *a, uint32_t per_phase)
{
    unsigned block_shift = ms->shared_block_shift;
    for (uint32_t first = 0; first < MEM_LANES; first += per_phase) {
        uint64_t d = 0;
        for (uint32_t l = first; l < first + per_phase && l < MEM_LANES; l++) d |= a[l] ^ a[first];
        if (d >> block_shift)
            return 0;
    }
    return (MEM_LANES + per_phase - 1) / per_phase;
}

/* shared_count of a full warp the direct path took, whose offsets lie as *s says. */
static uint32_t count_full_warp(const memsys *ms, mem_counters *c, const mem_access *acc,
                                const warp_span *s, uint32_t bytes)
{
    uint32_t per_phase = lanes_per_phase(ms, bytes);
    uint32_t phases = (MEM_LANES + per_phase - 1) / per_phase, wavefronts;
    if (per_phase == MEM_LANES)
        wavefronts = spread_words_wavefronts(ms, acc->addr, s->low, s->high);
    else if (s->low >> ms->shared_block_shift == s->high >> ms->shared_block_shift)
        wavefronts = phases;
    else
        wavefronts = wide_lanes_wavefronts(ms, acc->addr, per_phase);
    if (!wavefronts) { /* the exact count over per-bank lists */
        lane_target t[MEM_LANES];
        for (uint32_t l = 0; l < MEM_LANES; l++)
            t[l] = (lane_target){IR_SPACE_SHARED, acc->addr[l]};
        return shared_count(ms, c, acc, t, UINT32_MAX);
    }
    c->shared.requests++;
    c->shared.wavefronts += wavefronts;
    c->shared.bank_conflicts += wavefronts - phases;
    return wavefronts;
}

/* The lanes' pieces between shared memory and acc->data (`store`: into shared memory, lane by
 * lane in lane order, so that the highest of several lanes on one address writes last, as
 * access() does), with the size fixed so that each copy is a move or two. */
static inline __attribute__((always_inline)) void move_pieces(uint8_t *shared,
                                                              mem_access *acc, uint32_t bytes,
                                                              int store)
{
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (store)
            memcpy(shared + acc->addr[l], acc->data[l], bytes);
        else
            memcpy(acc->data[l], shared + acc->addr[l], bytes);
    }
}

/* A full warp's load into out[] (4-byte elements zero-extended, or 8-byte ones) from offsets a[]
 * that lie as *s says: one read when every lane asks for the same element, else by gathers on
 * AVX2 hosts (`avx2`) or lane by lane. */
static inline __attribute__((always_inline)) void load_full_warp(const uint8_t *shared,
                                                                 const uint64_t *a,
                                                                 const warp_span *s,
                                                                 uint32_t bytes, uint64_t *out,
                                                                 int avx2)
{
    if (s->low == s->high) { /* a broadcast: the lanes' offsets are all s->low */
        uint64_t v = 0;
        if (bytes == 4)
            memcpy(&v, shared + s->low, 4);
        else
            memcpy(&v, shared + s->low, 8);
        for (uint32_t l = 0; l < MEM_LANES; l++) out[l] = v;
        return;
    }
#ifdef SHARED_AVX2
    if (avx2) {
        gather_avx2(shared, a, bytes, out);
        return;
    }
#else
    (void)avx2;
#endif
    if (bytes == 4) {
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            uint32_t v;
            memcpy(&v, shared + a[l], 4);
            out[l] = v;
        }
    } else {
        for (uint32_t l = 0; l < MEM_LANES; l++) memcpy(&out[l], shared + a[l], 8);
    }
}

/* The data of a full warp the direct path took, whose offsets lie as *s says: a load into out[]
 * (load_full_warp) or, out NULL, into acc->data; a store from in[] (the low 4 bytes of each
 * value, or all 8: one copy when the lanes' elements are consecutive) or, in NULL, from
 * acc->data, lane by lane in lane order. */
static inline __attribute__((always_inline)) void
move_full_warp(const mem_ctx *ctx, mem_access *acc, const warp_span *s, uint32_t bytes,
               uint64_t *out, const uint64_t *in, int avx2)
{
    const uint64_t *a = acc->addr;
    uint8_t *shared = ctx->shared;
    int store = acc->op == MEM_OP_STORE;
    if (store && in && s->high - s->low == (MEM_LANES - 1) * bytes &&
#ifdef SHARED_AVX2
        !(avx2 ? stride_misses_avx2(a, bytes) : stride_misses(a, bytes))) {
#else
        !stride_misses(a, bytes)) {
#endif
        /* a row of consecutive elements (a tile's row): the lanes' addresses all differ, so the
         * order of their writes does not matter, and the row is one copy */
        if (bytes == 4) {
            uint32_t row[MEM_LANES];
            for (uint32_t l = 0; l < MEM_LANES; l++) row[l] = (uint32_t)in[l];
            memcpy(shared + s->low, row, sizeof row);
        } else {
            memcpy(shared + s->low, in, MEM_LANES * 8);
        }
        return;
    }
    if (store && in) {
        if (bytes == 4) {
            for (uint32_t l = 0; l < MEM_LANES; l++) {
                uint32_t v = (uint32_t)in[l];
                memcpy(shared + a[l], &v, 4);
            }
        } else {
            for (uint32_t l = 0; l < MEM_LANES; l++) memcpy(shared + a[l], &in[l], 8);
        }
        return;
    }
    if (store || !out) {
        switch (bytes) {
        case 4: move_pieces(shared, acc, 4, store); break;
        case 8: move_pieces(shared, acc, 8, store); break;
        default: move_pieces(shared, acc, 16, store); break;
        }
        return;
    }
    load_full_warp(shared, a, s, bytes, out, avx2);
}

/* Whether a full warp's words lie fewer words apart than there are banks (`bytes` a lane at
 * most the bank width): then no bank is asked for two, one wavefront. */
static inline __attribute__((always_inline)) int words_near(const memsys *ms,
                                                            const warp_span *s, uint32_t bytes)
{
    unsigned width_shift = ms->shared_width_shift;
    return bytes <= 1u << width_shift &&
           (s->high >> width_shift) - (s->low >> width_shift) < ms->cfg.shared.banks;
}

/* The counters of instruction `id` (the unattributed ones past the known ids). */
static inline mem_counters *insn_counters(memsys *ms, uint32_t id)
{
    return id < ms->ninsns ? &ms->per_insn[id] : &ms->unattributed;
}

/* The counts (one request, its wavefronts and bank conflicts) of a full warp the direct path
 * takes, `bytes` a lane, whose offsets acc->addr lie as *s says (s->ok; read only when the words
 * are a bank's row or more apart); the wavefronts. Writes none of acc's results. */
static inline __attribute__((always_inline)) uint32_t count_quiet(memsys *ms,
                                                                 const mem_access *acc,
                                                                 const warp_span *s,
                                                                 uint32_t bytes)
{
    mem_counters *c = insn_counters(ms, acc->insn_id);
    ms->lead_acc = NULL; /* as access() forgets memsys_load_parks's answer */
    if (words_near(ms, s, bytes)) {
        c->shared.requests++;
        c->shared.wavefronts++;
        return 1;
    }
    return count_full_warp(ms, c, acc, s, bytes);
}

/* count_quiet, and acc's results as access() writes them for a shared access. */
static inline __attribute__((always_inline)) void count_warp(memsys *ms, mem_access *acc,
                                                            const warp_span *s, uint32_t bytes)
{
    acc->levels = 1u << MEM_LEVEL_SHARED;
    acc->nserved = 0;
    acc->window_lanes = acc->misaligned_lanes = 0;
    acc->l1_tags = 0;
    acc->const_lookups = acc->const_misses = acc->const_addresses = 0;
    acc->dram_read_bytes = acc->dram_write_bytes = 0;
    acc->shared_wavefronts = (uint16_t)count_quiet(ms, acc, s, bytes);
}

/* shared_warp once its shape is known to be one it takes (`bytes` per lane, out and in as
 * mem_shared_warp allows for it): the alignment and bounds of the addresses, the counts, the
 * results and the data. */
static inline __attribute__((always_inline)) int
shared_warp_checked(memsys *ms, const mem_ctx *ctx, mem_access *acc, uint64_t *out,
                    const uint64_t *in, uint32_t bytes, int avx2)
{
#ifdef SHARED_AVX2
    warp_span s = avx2 ? span_avx2(NULL, 0, 0, acc->addr, bytes, ctx->shared_bytes)
                       : span_plain(acc->addr, bytes, ctx->shared_bytes);
#else
    warp_span s = span_plain(acc->addr, bytes, ctx->shared_bytes);
#endif
    if (!s.ok) /* access() reports its misaligned or out-of-window lanes */
        return 1;
    count_warp(ms, acc, &s, bytes);
    move_full_warp(ctx, acc, &s, bytes, out, in, avx2);
    return 0;
}

/* mem_shared_warp, built once with the AVX2 scan and gathers (`avx2`, for hosts that have
 * them) and once without, so that neither pays a call for them; mem_shared_warp only chooses
 * (each build a function of its own, so that the choice is a jump). */
static inline __attribute__((always_inline)) int
shared_warp(memsys *ms, const mem_ctx *ctx, mem_access *acc, uint64_t *out, const uint64_t *in,
            int avx2)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    if (acc->op > MEM_OP_STORE || acc->space != IR_SPACE_SHARED || acc->active != UINT32_MAX ||
        !ms->shared_direct || acc->attrs->uniform)
        return 1;
    if (out || in) { /* one of them, the load's or the store's, of one 4- or 8-byte element */
        if ((out ? in || acc->op != MEM_OP_LOAD : acc->op != MEM_OP_STORE) || acc->vec != 1 ||
            (bytes != 4 && bytes != 8))
            return 1;
    } else if (bytes > 16 || !((0x10110u >> bytes) & 1u)) { /* bit b: b is 4, 8 or 16 */
        return 1;
    }
    return shared_warp_checked(ms, ctx, acc, out, in, bytes, avx2);
}

#ifdef SHARED_AVX2
__attribute__((target("avx2"))) static int shared_warp_avx2(memsys *ms, const mem_ctx *ctx,
                                                            mem_access *acc, uint64_t *out,
                                                            const uint64_t *in)
{
    return shared_warp(ms, ctx, acc, out, in, 1);
}
#endif

static __attribute__((noinline)) int shared_warp_plain(memsys *ms, const mem_ctx *ctx,
                                                       mem_access *acc, uint64_t *out,
                                                       const uint64_t *in)
{
    return shared_warp(ms, ctx, acc, out, in, 0);
}

int mem_shared_warp(memsys *ms, const mem_ctx *ctx, mem_access *acc, uint64_t *out,
                    const uint64_t *in)
{
#ifdef SHARED_AVX2
    if (ms->host_avx2)
        return shared_warp_avx2(ms, ctx, acc, out, in);
#endif
    return shared_warp_plain(ms, ctx, acc, out, in);
}

/* mem_shared_load_reg's and mem_shared_load_reg32's builds: with the AVX2 scan and gathers, for
 * 64-bit address arithmetic (any `keep`) and for 32-bit arithmetic (the usual shared-memory
 * address), and without them (`keep` 0xFFFFFFFF for 32-bit arithmetic). */
#ifdef SHARED_AVX2
__attribute__((target("avx2"))) static int shared_load_reg_avx2(memsys *ms, const mem_ctx *ctx,
                                                                mem_access *acc,
                                                                const uint64_t *row,
                                                                uint64_t base, uint64_t keep,
                                                                uint64_t *out)
{
    uint32_t bytes = acc->elem_bytes;
    warp_span s = span_avx2(row, base, keep, acc->addr, bytes, ctx->shared_bytes);
    if (!s.ok)
        return 1;
    count_warp(ms, acc, &s, bytes);
    load_full_warp(ctx->shared, acc->addr, &s, bytes, out, 1);
    return 0;
}

__attribute__((target("avx2"))) static int shared_load_row32_avx2(memsys *ms, const mem_ctx *ctx,
                                                                  mem_access *acc,
                                                                  const uint64_t *row,
                                                                  uint64_t base, uint64_t *out)
{
    uint32_t bytes = acc->elem_bytes;
    __m256i v[4];
    warp_span s = row32_span_avx2(row, (uint32_t)base, acc->addr, v, bytes, ctx->shared_bytes);
    if (!s.ok)
        return 1;
    count_warp(ms, acc, &s, bytes);
    if (bytes == 4 && s.low != s.high)
        gather32_avx2(ctx->shared, v, out);
    else /* a broadcast, or 8-byte elements: four lanes a gather from acc->addr */
        load_full_warp(ctx->shared, acc->addr, &s, bytes, out, 1);
    return 0;
}

/* shared_quiet_row32_avx2's load whose words are a bank's row or more apart: the offsets are in
 * acc->addr (s->ok), the exact count reads them, and so do the gathers. Out of line, so that the
 * usual load keeps its offsets in registers and needs no aligned frame. */
__attribute__((target("avx2"))) static __attribute__((noinline)) int
shared_quiet_far_avx2(memsys *ms, const mem_ctx *ctx, mem_access *acc, warp_span s,
                      uint64_t *out)
{
    uint32_t bytes = acc->elem_bytes;
    mem_counters *c = insn_counters(ms, acc->insn_id);
    ms->lead_acc = NULL; /* as count_warp */
    count_full_warp(ms, c, acc, &s, bytes);
    if (bytes == 4) { /* never a broadcast here: the offsets packed again, eight lanes a gather */
        __m256i v[4];
        for (uint32_t k = 0; k < 4; k++) {
            __m256 x = _mm256_castsi256_ps(
                _mm256_loadu_si256((const __m256i *)(const void *)&acc->addr[8 * k]));
            __m256 y = _mm256_castsi256_ps(
                _mm256_loadu_si256((const __m256i *)(const void *)&acc->addr[8 * k + 4]));
            v[k] = _mm256_permute4x64_epi64(
                _mm256_castps_si256(_mm256_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0))),
                _MM_SHUFFLE(3, 1, 2, 0));
        }
        gather32_avx2(ctx->shared, v, out);
    } else {
        load_full_warp(ctx->shared, acc->addr, &s, bytes, out, 1);
    }
    return 0;
}

/* mem_shared_load_reg32_quiet's AVX2 build: shared_load_row32_avx2 without acc's results, and
 * with acc->addr written only where something reads it (the exact counts past words_near, the
 * 8-byte gathers, a refusal). */
__attribute__((target("avx2"))) static int shared_quiet_row32_avx2(memsys *ms,
                                                                   const mem_ctx *ctx,
                                                                   mem_access *acc,
                                                                   const uint64_t *row,
                                                                   uint64_t base, uint64_t *out)
{
    uint32_t bytes = acc->elem_bytes;
    __m256i v[4];
    warp_span s = row32_span_avx2(row, (uint32_t)base, NULL, v, bytes, ctx->shared_bytes);
    int near = s.ok && words_near(ms, &s, bytes);
    if (!near || (bytes == 8 && s.low != s.high)) {
        row32_offsets_avx2(v, acc->addr);
        if (!s.ok)
            return 1;
        if (!near)
            return shared_quiet_far_avx2(ms, ctx, acc, s, out);
    }
    mem_counters *c = insn_counters(ms, acc->insn_id);
    ms->lead_acc = NULL; /* as count_warp */
    c->shared.requests++;
    c->shared.wavefronts++;
    if (bytes == 4 && s.low != s.high)
        gather32_avx2(ctx->shared, v, out);
    else
        load_full_warp(ctx->shared, acc->addr, &s, bytes, out, 1);
    return 0;
}
#endif

/* mem_shared_load_reg32_quiet without AVX2: the offsets into acc->addr as row_span_plain makes
 * them, and count_quiet's counts. */
static __attribute__((noinline)) int shared_quiet_plain(memsys *ms, const mem_ctx *ctx,
                                                        mem_access *acc, const uint64_t *row,
                                                        uint64_t base, uint64_t *out)
{
    uint32_t bytes = acc->elem_bytes;
    warp_span s = row_span_plain(row, base, 0xFFFFFFFFull, acc->addr, bytes, ctx->shared_bytes);
    if (!s.ok)
        return 1;
    count_quiet(ms, acc, &s, bytes);
    load_full_warp(ctx->shared, acc->addr, &s, bytes, out, 0);
    return 0;
}

static __attribute__((noinline)) int shared_load_reg_plain(memsys *ms, const mem_ctx *ctx,
                                                           mem_access *acc, const uint64_t *row,
                                                           uint64_t base, uint64_t keep,
                                                           uint64_t *out)
{
    uint32_t bytes = acc->elem_bytes;
    warp_span s = row_span_plain(row, base, keep, acc->addr, bytes, ctx->shared_bytes);
    if (!s.ok)
        return 1;
    count_warp(ms, acc, &s, bytes);
    load_full_warp(ctx->shared, acc->addr, &s, bytes, out, 0);
    return 0;
}

/* The offsets made without the direct path (its configuration does not allow it), for
 * memsys_access. */
static __attribute__((noinline)) int row_declined(mem_access *acc, const uint64_t *row,
                                                  uint64_t base, uint64_t keep)
{
    for (uint32_t l = 0; l < MEM_LANES; l++) acc->addr[l] = (row[l] + base) & keep;
    return 1;
}

int mem_shared_load_reg(memsys *ms, const mem_ctx *ctx, mem_access *acc, const uint64_t *row,
                        uint64_t base, uint64_t *out)
{
    if (!ms->shared_direct)
        return row_declined(acc, row, base, UINT64_MAX);
#ifdef SHARED_AVX2
    if (ms->host_avx2)
        return shared_load_reg_avx2(ms, ctx, acc, row, base, UINT64_MAX, out);
#endif
    return shared_load_reg_plain(ms, ctx, acc, row, base, UINT64_MAX, out);
}

int mem_shared_load_reg32(memsys *ms, const mem_ctx *ctx, mem_access *acc, const uint64_t *row,
                          uint64_t base, uint64_t *out)
{
    if (!ms->shared_direct)
        return row_declined(acc, row, base, 0xFFFFFFFFull);
#ifdef SHARED_AVX2
    if (ms->host_avx2)
        return shared_load_row32_avx2(ms, ctx, acc, row, base, out);
#endif
    return shared_load_reg_plain(ms, ctx, acc, row, base, 0xFFFFFFFFull, out);
}

int mem_shared_load_reg32_quiet(memsys *ms, const mem_ctx *ctx, mem_access *acc,
                                const uint64_t *row, uint64_t base, uint64_t *out)
{
    if (!ms->shared_direct)
        return row_declined(acc, row, base, 0xFFFFFFFFull);
#ifdef SHARED_AVX2
    if (ms->host_avx2)
        return shared_quiet_row32_avx2(ms, ctx, acc, row, base, out);
#endif
    return shared_quiet_plain(ms, ctx, acc, row, base, out);
}

/* mem_shared_load_reg32_quiet_mask: the active lanes' offsets, their span and verdict, the count
 * (one wavefront when the words lie within a bank's row, else shared_count over the active
 * lanes, as access() counts them) and the values, lane by lane: a partial warp is rare enough
 * (a reduction's later steps) that one plain build serves every host. */
static __attribute__((noinline)) int shared_quiet_mask(memsys *ms, const mem_ctx *ctx,
                                                       mem_access *acc, const uint64_t *row,
                                                       uint64_t base, uint32_t mask,
                                                       uint64_t *out)
{
    uint32_t bytes = acc->elem_bytes;
    uint64_t any = 0, low = UINT64_MAX, high = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t a = (row[l] + base) & 0xFFFFFFFFull;
        acc->addr[l] = a;
        any |= a;
        low = a < low ? a : low;
        high = a > high ? a : high;
    }
    warp_span s = span_of(any, low, high, bytes, ctx->shared_bytes);
    if (!s.ok)
        return 1;
    mem_counters *c = insn_counters(ms, acc->insn_id);
    ms->lead_acc = NULL; /* as count_warp */
    if (words_near(ms, &s, bytes)) {
        c->shared.requests++;
        c->shared.wavefronts++;
    } else {
        lane_target t[MEM_LANES]; /* the inactive lanes' are never read */
        for (uint32_t l = 0; l < MEM_LANES; l++)
            t[l] = (lane_target){IR_SPACE_SHARED, (mask >> l) & 1u ? acc->addr[l] : 0};
        shared_count(ms, c, acc, t, mask);
    }
    for (uint32_t m = mask; m; m &= m - 1) { /* after every offset: out may be row */
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (bytes == 4) {
            uint32_t v;
            memcpy(&v, ctx->shared + acc->addr[l], 4);
            out[l] = v;
        } else {
            memcpy(&out[l], ctx->shared + acc->addr[l], 8);
        }
    }
    return 0;
}

int mem_shared_load_reg32_quiet_mask(memsys *ms, const mem_ctx *ctx, mem_access *acc,
                                     const uint64_t *row, uint64_t base, uint32_t mask,
                                     uint64_t *out)
{
    if (!ms->shared_direct || !mask)
        return row_declined(acc, row, base, 0xFFFFFFFFull);
    return shared_quiet_mask(ms, ctx, acc, row, base, mask, out);
}
