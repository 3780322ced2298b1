/* Data-bank wavefronts of a warp's global and local lanes (timing_wave.h). */
#include "timing/timing_wave.h"

#include <string.h>

#include "base/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_BUILD 1
#else
#define HAVE_AVX2_BUILD 0
#endif

enum { MAX_WORDS = MEM_LANES * MEM_MAX_LANE_BYTES / 4 };

void timing_banks_init(timing_banks *bk, uint32_t banks, uint32_t width)
{
    bk->banks = banks && banks <= TIMING_MAX_BANKS ? banks : 32;
    bk->width = width ? width : 4;
    bk->block_shift = bk->word_shift = 0;
    uint32_t block = bk->banks * bk->width;
    if (!(bk->banks & (bk->banks - 1)) && !(bk->width & (bk->width - 1))) {
        while ((UINT32_C(1) << bk->block_shift) < block)
            bk->block_shift++;
        while ((UINT32_C(1) << bk->word_shift) < bk->width)
            bk->word_shift++;
    }
    bk->avx2 = (uint8_t)cpu_has_avx2();
}

/* The bank-word of byte `off` of lane `lane` of a global or local access, or -1 when the lane's
 * address is not in a cached space (shared, constant or parameter lanes of a generic access). */
static int64_t lane_word(const timing_banks *bk, const mem_access *a, uint32_t lane, uint32_t off)
{
    uint64_t addr = a->addr[lane], local;
    if (a->space == IR_SPACE_LOCAL) {
        local = addr;
    } else if (a->space == IR_SPACE_GENERIC && addr >= MEM_SHARED_WINDOW &&
               addr < MEM_GLOBAL_BASE) {
        if (addr < MEM_LOCAL_WINDOW || addr >= MEM_LOCAL_WINDOW + MEM_WINDOW_BYTES)
            return addr >= MEM_LOCAL_BACKING_BASE ? (int64_t)((addr + off) / bk->width) : -1;
        local = addr - MEM_LOCAL_WINDOW;
    } else {
        return (int64_t)((addr + off) / bk->width);
    }
    /* Local memory interleaves the lanes: word w of every lane forms one line. */
    uint64_t o = local + off;
    return (int64_t)(((o / 4) * 128 + lane * 4 + o % 4) / bk->width);
}

/* The most distinct words any one bank must deliver, for words[0 .. n) in any order (n <=
 * MAX_WORDS): each word counts for its bank the first time it is seen, found in a hash set
 * (slots hold word + 1; 0 is empty). */
static uint32_t most_words_per_bank(const timing_banks *bk, const uint64_t *words, uint32_t n)
{
    uint64_t seen[2 * MAX_WORDS];
    unsigned bits = 6;
    while ((1u << bits) < 2 * n)
        bits++;
    uint32_t mask = (1u << bits) - 1;
    memset(seen, 0, ((size_t)mask + 1) * sizeof seen[0]);
    uint32_t per_bank[TIMING_MAX_BANKS] = {0}, most = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t key = words[i] + 1;
        uint32_t h = (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits));
        while (seen[h] && seen[h] != key)
            h = (h + 1) & mask;
        if (seen[h]) continue;
        seen[h] = key;
        uint32_t b = (uint32_t)(words[i] % bk->banks);
        if (++per_bank[b] > most) most = per_bank[b];
    }
    return most;
}

/* Whether lanes that read one word each (no wider than a bank) never ask a bank for two
 * different words: one wavefront. */
static int one_word_conflict_free(const timing_banks *bk, const mem_access *a, uint32_t lanes)
{
    uint64_t used = 0, first[TIMING_MAX_BANKS];
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        int64_t w = lane_word(bk, a, l, 0);
        if (w < 0) continue;
        uint32_t b = (uint32_t)((uint64_t)w % bk->banks);
        if (!((used >> b) & 1u)) {
            used |= UINT64_C(1) << b;
            first[b] = (uint64_t)w;
        } else if (first[b] != (uint64_t)w) {
            return 0;
        }
    }
    return 1;
}

#if HAVE_AVX2_BUILD
/* The OR of every lane's address XOR lane 0's, for a full warp: four lanes a step. */
__attribute__((target("avx2"))) static uint64_t lanes_diff_avx2(const uint64_t *addr)
{
    const __m256i a0 = _mm256_set1_epi64x((long long)addr[0]);
    __m256i diff = _mm256_setzero_si256();
    for (unsigned q = 0; q < MEM_LANES / 4; q++)
        diff = _mm256_or_si256(
            diff, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(addr + 4 * q)), a0));
    __m128i d = _mm_or_si128(_mm256_castsi256_si128(diff), _mm256_extracti128_si256(diff, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_or_si128(d, _mm_unpackhi_epi64(d, d)));
}
#endif

/* Whether the global lanes `lanes` (not empty) all address one aligned block of banks x
 * bank_width bytes: their words are then distinct banks or the same word, one wavefront (what
 * one_word_conflict_free finds, without a bank per lane). 0 when it cannot tell cheaply. */
static int one_block(const timing_banks *bk, const mem_access *a, uint32_t lanes)
{
    uint64_t a0 = a->addr[__builtin_ctz(lanes)], diff = 0;
    if (!bk->block_shift ||
        (a->space != IR_SPACE_GLOBAL &&
         (a->space != IR_SPACE_GENERIC || (a0 >= MEM_SHARED_WINDOW && a0 < MEM_GLOBAL_BASE))))
        return 0;
    if (lanes == UINT32_MAX) {
#if HAVE_AVX2_BUILD
        if (bk->avx2) return (lanes_diff_avx2(a->addr) >> bk->block_shift) == 0;
#endif
        for (uint32_t l = 0; l < MEM_LANES; l++)
            diff |= a->addr[l] ^ a0;
    } else {
        for (uint32_t m = lanes; m; m &= m - 1)
            diff |= a->addr[__builtin_ctz(m)] ^ a0;
    }
    return (diff >> bk->block_shift) == 0;
}

/* Per-bank counts of distinct words in bit-sliced form: bit b of plane k is bit k of bank b's
 * count. Six planes hold the 32 words a warp's lanes can read. */
enum { PLANES = 6 };

/* Adds one word to every bank of `m` (a carry ripples up the planes). */
static inline void planes_add(uint64_t *p, uint64_t m)
{
    for (unsigned k = 0; k < PLANES && m; k++) {
        uint64_t carry = p[k] & m;
        p[k] ^= m;
        m = carry;
    }
}

/* The largest count in the planes: from the top plane down, keep the banks whose count has
 * that bit when some have it. */
static inline uint32_t planes_max(const uint64_t *p)
{
    uint64_t cand = ~UINT64_C(0);
    uint32_t most = 0;
    for (int k = PLANES - 1; k >= 0; k--)
        if (cand & p[k]) {
            cand &= p[k];
            most |= 1u << k;
        }
    return most;
}

/* Adds a run of `len` consecutive words from word `first` to the banks: `len / banks` to every
 * bank (the caller's `*base`), and one to each of the `len % banks` banks from first's on,
 * wrapping round. */
static inline void run_add(const timing_banks *bk, uint64_t *p, uint32_t *base, uint64_t first,
                           uint32_t len)
{
    uint32_t B = bk->banks, b0 = (uint32_t)(first & (B - 1));
    *base += len / B;
    len &= B - 1;
    if (!len) return;
    uint64_t m = (UINT64_C(1) << len) - 1;
    if (B == 64) {
        m = b0 ? (m << b0) | (m >> (64 - b0)) : m;
    } else {
        m <<= b0; /* b0 + len < 2 B <= 64 */
        m = (m | (m >> B)) & ((UINT64_C(1) << B) - 1);
    }
    planes_add(p, m);
}

#if HAVE_AVX2_BUILD
/* The lanes of a full warp at which its words (addr >> ws) start a new run: bit l when lane l's
 * word is more than one past lane l-1's. -1 when some lane's word is below the one before it
 * (or an address has its top bit set, where the signed 64-bit differences could mislead; the
 * scalar walk takes those). Four lanes a step: each lane's word less the one
 * before, lane 3 of the step before moved round into lane 0. */
__attribute__((target("avx2"))) static int64_t run_starts_avx2(const uint64_t *addr, unsigned ws)
{
    const __m128i sh = _mm_cvtsi32_si128((int)ws);
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i prev = _mm256_set1_epi64x((long long)(addr[0] >> ws)), sign = _mm256_setzero_si256();
    uint32_t starts = 0;
    for (unsigned q = 0; q < MEM_LANES / 4; q++) {
        __m256i raw = _mm256_loadu_si256((const __m256i *)(addr + 4 * q));
        __m256i v = _mm256_srl_epi64(raw, sh);
        __m256i before = _mm256_blend_epi32(_mm256_permute4x64_epi64(v, 0x90),
                                            _mm256_permute4x64_epi64(prev, 0xff), 0x03);
        __m256i d = _mm256_sub_epi64(v, before);
        starts |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(d, one)))
                  << (4 * q);
        sign = _mm256_or_si256(sign, _mm256_or_si256(d, raw));
        prev = v;
    }
    return _mm256_movemask_pd(_mm256_castsi256_pd(sign)) ? -1 : (int64_t)starts;
}
#endif

/* ascending_wavefronts of a full warp from the lanes where its runs start (bit l: lane l; lane
 * 0 always starts one). */
static uint32_t runs_wavefronts(const timing_banks *bk, const mem_access *a, uint32_t starts)
{
    const unsigned ws = bk->word_shift;
    uint64_t p[PLANES] = {0};
    uint32_t base = 0, s = 0;
    for (uint32_t m = starts; m; m &= m - 1) {
        uint32_t e = (uint32_t)__builtin_ctz(m);
        uint64_t first = a->addr[s] >> ws;
        run_add(bk, p, &base, first, (uint32_t)((a->addr[e - 1] >> ws) - first + 1));
        s = e;
    }
    uint64_t first = a->addr[s] >> ws;
    uint32_t len = (uint32_t)((a->addr[MEM_LANES - 1] >> ws) - first + 1);
    if (!starts) /* one run: ceil(len / banks) on its busiest bank */
        return (len + bk->banks - 1) / bk->banks;
    run_add(bk, p, &base, first, len);
    return base + planes_max(p);
}

/* Runs the bit planes take: more (strided lanes, a run of one word a lane) cost the planes a
 * mask and its carries per run, more than counting word by word. */
enum { FEW_RUNS = 4 }; /* the AVX2 path's mask test below is written for 4 */

/* ascending_wavefronts word by word, for lanes in many runs: each distinct word counted on its
 * bank as it comes. 0 when the lanes do not ascend. */
static uint32_t word_by_word(const timing_banks *bk, const mem_access *a, uint32_t lanes)
{
    const unsigned ws = bk->word_shift;
    uint8_t per_bank[TIMING_MAX_BANKS] = {0};
    uint32_t most = 1;
    uint64_t prev = a->addr[__builtin_ctz(lanes)] >> ws;
    per_bank[prev & (bk->banks - 1)] = 1;
    for (uint32_t m = lanes & (lanes - 1); m; m &= m - 1) {
        uint64_t w = a->addr[__builtin_ctz(m)] >> ws;
        if (w == prev) continue;
        if (w < prev) return 0;
        prev = w;
        uint32_t b = (uint32_t)(w & (bk->banks - 1));
        if (++per_bank[b] > most) most = per_bank[b];
    }
    return most;
}

/* data_wavefronts of global lanes `lanes` (not empty) reading one word each whose addresses
 * ascend with the lane (the common layouts): the most distinct words on one bank. The lanes'
 * words fall into runs of consecutive words (a repeated word is its lane's neighbour's); the
 * words of a run lie on consecutive banks, so a few runs are counted as ranges of banks in bit
 * planes, and many (word_by_word) one word at a time. 0 when the lanes do not ascend or are
 * not plain global addresses (the caller then gathers and sorts the words). */
static uint32_t ascending_wavefronts(const timing_banks *bk, const mem_access *a, uint32_t lanes)
{
    uint64_t a0 = a->addr[__builtin_ctz(lanes)];
    if (!bk->block_shift ||
        (a->space != IR_SPACE_GLOBAL && (a->space != IR_SPACE_GENERIC || a0 < MEM_GLOBAL_BASE)))
        return 0;
    const unsigned ws = bk->word_shift;
    /* Lanes whose first two words are not neighbours are strided, a run a lane (or do not
     * ascend): word by word at once. */
    uint32_t second = lanes & (lanes - 1);
    if (second && (a->addr[__builtin_ctz(second)] >> ws) - (a0 >> ws) > 1)
        return word_by_word(bk, a, lanes);
#if HAVE_AVX2_BUILD
    if (lanes == UINT32_MAX && bk->avx2) {
        int64_t starts = run_starts_avx2(a->addr, ws);
        if (starts >= 0) {
            uint32_t s1 = (uint32_t)starts & ((uint32_t)starts - 1), s2 = s1 & (s1 - 1);
            return (s2 & (s2 - 1)) == 0 /* fewer than FEW_RUNS starts after lane 0's */
                       ? runs_wavefronts(bk, a, (uint32_t)starts)
                       : word_by_word(bk, a, lanes);
        }
        /* a lane below the one before (0, as the walk below finds), or a wild address */
    }
#endif
    /* The run [first, prev] goes on while each lane reads the word before's or the next one;
     * a later word closes it into the planes and starts the next; an earlier one ends the
     * walk. In locals: the loop is a load, a shift and a test a lane. */
    uint64_t first = a0 >> ws, prev = first, p[PLANES] = {0};
    uint32_t base = 0, closed = 0;
    for (uint32_t m = lanes & (lanes - 1); m; m &= m - 1) {
        uint64_t w = a->addr[__builtin_ctz(m)] >> ws;
        if (w - prev > 1) {
            if (w < prev) return 0;
            if (++closed == FEW_RUNS) return word_by_word(bk, a, lanes);
            run_add(bk, p, &base, first, (uint32_t)(prev - first + 1));
            first = w;
        }
        prev = w;
    }
    uint32_t len = (uint32_t)(prev - first + 1);
    if (!closed) /* one run: ceil(len / banks) on its busiest bank */
        return (len + bk->banks - 1) / bk->banks;
    run_add(bk, p, &base, first, len);
    return base + planes_max(p);
}

/* data_wavefronts' general way: every word of every lane gathered, then counted on its bank
 * in order (or by the hash set when the lanes are out of order). */
static uint32_t gathered_wavefronts(const timing_banks *bk, const mem_access *a, uint32_t lanes,
                                    uint32_t bytes)
{
    uint64_t words[MAX_WORDS];
    uint32_t n = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        for (uint32_t off = 0; off < bytes && n < MAX_WORDS; off += bk->width) {
            int64_t w = lane_word(bk, a, l, off);
            if (w >= 0) words[n++] = (uint64_t)w;
        }
    }
    if (n == 0) return 0;
    /* Lanes in order reading consecutive words (the common case) are already in order, and a
     * repeated word is the one before it; others (a local access's words go lane by lane
     * through the rows) take the hash set. */
    uint32_t sorted = 1;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = words[i - 1] <= words[i];
    if (!sorted) return most_words_per_bank(bk, words, n);
    uint32_t per_bank[TIMING_MAX_BANKS] = {0}, most = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i && words[i] == words[i - 1]) continue;
        uint32_t b = (uint32_t)(words[i] % bk->banks);
        if (++per_bank[b] > most) most = per_bank[b];
    }
    return most;
}

static uint32_t access_bytes(const mem_access *a)
{
    return a->op == MEM_OP_ATOMIC ? a->elem_bytes : (uint32_t)a->elem_bytes * a->vec;
}

/* The shapes that one_block, ascending_wavefronts and one_word_conflict_free answer skip the
 * gathering. */
uint32_t timing_wavefronts_lanes(const timing_banks *bk, const mem_access *a)
{
    uint32_t bytes = access_bytes(a), lanes = a->active & ~a->window_lanes;
    if (bytes <= bk->width) {
        if (!lanes || one_block(bk, a, lanes)) return 1;
        uint32_t asc = ascending_wavefronts(bk, a, lanes);
        if (asc) return asc;
        if (one_word_conflict_free(bk, a, lanes)) return 1;
    }
    return gathered_wavefronts(bk, a, lanes, bytes);
}

uint32_t timing_wavefronts_gathered(const timing_banks *bk, const mem_access *a)
{
    return gathered_wavefronts(bk, a, a->active & ~a->window_lanes, access_bytes(a));
}
