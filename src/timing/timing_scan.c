/* Scans of a warp scheduler's ready cycles (timing_scan.h). */
#include "timing/timing_scan.h"

#include "base/cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif

int timing_scan_has_avx2(void)
{
#if HAVE_X86
    return cpu_has_avx2();
#else
    return 0;
#endif
}

#if HAVE_X86
/* AVX2 compares 64-bit lanes as signed: flipping the top bit of both sides orders unsigned
 * values the same way. */
#define SIGN ((long long)INT64_MIN)

__attribute__((target("avx2"))) uint64_t timing_scan_ready_avx2(const uint64_t *ready,
                                                                  uint32_t n, uint64_t t)
{
    const __m256i sign = _mm256_set1_epi64x(SIGN);
    const __m256i tv = _mm256_set1_epi64x((long long)(t ^ (uint64_t)INT64_MIN));
    uint64_t late = 0; /* bit k: ready[k] > t */
    uint32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        __m256i r = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + k)), sign);
        late |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(r, tv))) << k;
    }
    uint64_t m = n == 64 ? ~late : ~late & ((UINT64_C(1) << k) - 1);
    for (; k < n; k++) m |= (uint64_t)(ready[k] <= t) << k;
    return m;
}

__attribute__((target("avx2"))) uint64_t timing_scan_min_avx2(const uint64_t *ready, uint32_t n,
                                                                uint64_t enough)
{
    (void)enough;
    const __m256i sign = _mm256_set1_epi64x(SIGN);
    __m256i least = _mm256_set1_epi64x(-1 ^ SIGN); /* UINT64_MAX, flipped */
    uint32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        __m256i r = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + k)), sign);
        least = _mm256_blendv_epi8(least, r, _mm256_cmpgt_epi64(least, r));
    }
    __m256i other = _mm256_permute4x64_epi64(least, 0x4e); /* the other 128-bit half */
    least = _mm256_blendv_epi8(least, other, _mm256_cmpgt_epi64(least, other));
    other = _mm256_shuffle_epi32(least, 0x4e); /* the other 64-bit lane of each half */
    least = _mm256_blendv_epi8(least, other, _mm256_cmpgt_epi64(least, other));
    uint64_t m = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(least)) ^ (uint64_t)SIGN;
    for (; k < n; k++) m = ready[k] < m ? ready[k] : m;
    return m;
}

__attribute__((target("avx2"))) uint64_t timing_scan_equal_avx2(const uint64_t *ready, uint32_t n,
                                                                  uint64_t v)
{
    const __m256i vv = _mm256_set1_epi64x((long long)v);
    uint64_t m = 0;
    uint32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        __m256i r = _mm256_loadu_si256((const __m256i *)(ready + k));
        m |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(r, vv))) << k;
    }
    for (; k < n; k++) m |= (uint64_t)(ready[k] == v) << k;
    return m;
}

/* timing_scan_next_avx2 for exactly 16 entries (64 resident warps on four schedulers, the
 * presets' usual occupancy): the four vectors without the loop, the mask without the shifts of
 * a general count, the least as a tree. */
__attribute__((target("avx2"))) static uint64_t next16_avx2(const uint64_t *ready, uint64_t t1,
                                                            uint64_t *early)
{
    const __m256i sign = _mm256_set1_epi64x(SIGN);
    const __m256i tv = _mm256_set1_epi64x((long long)(t1 ^ (uint64_t)INT64_MIN));
    __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)ready), sign);
    __m256i b = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + 4)), sign);
    __m256i c = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + 8)), sign);
    __m256i d = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + 12)), sign);
    uint32_t la = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(a, tv)));
    uint32_t lb = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(b, tv)));
    uint32_t lc = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(c, tv)));
    uint32_t ld = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(d, tv)));
    __m256i ab = _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
    __m256i cd = _mm256_blendv_epi8(c, d, _mm256_cmpgt_epi64(c, d));
    __m256i least = _mm256_blendv_epi8(ab, cd, _mm256_cmpgt_epi64(ab, cd));
    __m256i other = _mm256_permute4x64_epi64(least, 0x4e); /* the other 128-bit half */
    least = _mm256_blendv_epi8(least, other, _mm256_cmpgt_epi64(least, other));
    other = _mm256_shuffle_epi32(least, 0x4e); /* the other 64-bit lane of each half */
    least = _mm256_blendv_epi8(least, other, _mm256_cmpgt_epi64(least, other));
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(least)) ^ (uint64_t)SIGN;
    *early = ~(uint64_t)(la | lb << 4 | lc << 8 | ld << 12) & 0xFFFF;
    return lo > t1 ? lo : t1;
}

/* Eight entries a round (n >= 8 here: TIMING_SCAN_AVX2_FROM), so that the loop's own
 * instructions and the shift that places the round's mask bits come once per eight; a rest of
 * four or more is one more vector, then one to three entries one by one; 16 entries take
 * next16_avx2. */
__attribute__((target("avx2"))) uint64_t timing_scan_next_avx2(const uint64_t *ready, uint32_t n,
                                                                 uint64_t t1, uint64_t *early)
{
    if (n == 16)
        return next16_avx2(ready, t1, early);
    const __m256i sign = _mm256_set1_epi64x(SIGN);
    const __m256i tv = _mm256_set1_epi64x((long long)(t1 ^ (uint64_t)INT64_MIN));
    __m256i least = _mm256_set1_epi64x(-1 ^ SIGN); /* UINT64_MAX, flipped */
    uint64_t late = 0; /* bit k: ready[k] > t1 */
    uint32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + k)), sign);
        __m256i b = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + k + 4)), sign);
        uint64_t la = (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(a, tv)));
        uint64_t lb = (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(b, tv)));
        late |= (la | lb << 4) << k;
        __m256i ab = _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
        least = _mm256_blendv_epi8(least, ab, _mm256_cmpgt_epi64(least, ab));
    }
    if (k + 4 <= n) {
        __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ready + k)), sign);
        late |= (uint64_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(a, tv))) << k;
        least = _mm256_blendv_epi8(least, a, _mm256_cmpgt_epi64(least, a));
        k += 4;
    }
    __m256i other = _mm256_permute4x64_epi64(least, 0x4e); /* the other 128-bit half */
    least = _mm256_blendv_epi8(least, other, _mm256_cmpgt_epi64(least, other));
    other = _mm256_shuffle_epi32(least, 0x4e); /* the other 64-bit lane of each half */
    least = _mm256_blendv_epi8(least, other, _mm256_cmpgt_epi64(least, other));
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(least)) ^ (uint64_t)SIGN;
    uint64_t m = k == 64 ? ~late : ~late & ((UINT64_C(1) << k) - 1);
    for (; k < n; k++) {
        m |= (uint64_t)(ready[k] <= t1) << k;
        lo = ready[k] < lo ? ready[k] : lo;
    }
    *early = m;
    return lo > t1 ? lo : t1;
}
#else
uint64_t timing_scan_next_avx2(const uint64_t *ready, uint32_t n, uint64_t t1, uint64_t *early)
{
    return timing_scan_next_plain(ready, n, t1, early);
}

uint64_t timing_scan_equal_avx2(const uint64_t *ready, uint32_t n, uint64_t v)
{
    return timing_scan_equal_plain(ready, n, v);
}

uint64_t timing_scan_ready_avx2(const uint64_t *ready, uint32_t n, uint64_t t)
{
    return timing_scan_ready_plain(ready, n, t);
}

uint64_t timing_scan_min_avx2(const uint64_t *ready, uint32_t n, uint64_t enough)
{
    return timing_scan_min_plain(ready, n, enough);
}
#endif
