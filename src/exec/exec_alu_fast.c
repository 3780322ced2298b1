/* The ALU handlers for the common shapes that exec_decode.c chooses at decode: exec_h_alu_plain
 * (registers and immediates, one register destination, no flags) and exec_h_setp_int (setp of
 * 32-bit integers straight into predicate bits), each with a build whose partial-mask blend or
 * compare uses AVX2 where the host has it (exec_host_avx2, exec_program.host_avx2). Each gives
 * what h_alu gives for the same instruction (tests/unit/test_exec_fast.c). */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "exec/exec_internal.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define HANDLER_AVX2 1
/* cmp_mask32 eight lanes at a time on hosts with AVX2: one shuffle of two 256-bit loads gives
 * the low halves of lanes l, l+1, l+4, l+5 | l+2, l+3, l+6, l+7; the compare is per element, and
 * swapping the middle two 64-bit quarters of its result puts the lanes back in order for the
 * sign-bit mask. The same bits as cmp_mask32. */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i
low_halves8(const uint64_t *v)
{
    __m256 lo = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)v));
    __m256 hi = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)(v + 4)));
    return _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint32_t
cmp_mask32_avx2_op(const uint64_t *a, const uint64_t *b, uint32_t bias, unsigned op)
{
    const __m256i flip = _mm256_set1_epi32((int)(bias ^ 0x80000000u));
    uint32_t t = 0;
    for (unsigned l = 0; l < LANES; l += 8) {
        __m256i x = _mm256_xor_si256(low_halves8(a + l), flip);
        __m256i y = _mm256_xor_si256(low_halves8(b + l), flip);
        __m256i r = op == 1 ? _mm256_cmpgt_epi32(y, x)
                            : op == 2 ? _mm256_cmpeq_epi32(x, y) : _mm256_cmpgt_epi32(x, y);
        r = _mm256_permute4x64_epi64(r, _MM_SHUFFLE(3, 1, 2, 0));
        t |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(r)) << l;
    }
    return t;
}

__attribute__((target("avx2"))) static uint32_t cmp_mask32_avx2(const uint64_t *a,
                                                                const uint64_t *b, uint32_t bias,
                                                                unsigned op)
{
    switch (op) {
    case 1: return cmp_mask32_avx2_op(a, b, bias, 1);
    case 2: return cmp_mask32_avx2_op(a, b, bias, 2);
    default: return cmp_mask32_avx2_op(a, b, bias, 4);
    }
}
/* r[l] = out[l] for the lanes of `mask`, four 64-bit lanes per blend: each lane's mask bit
 * turned into a whole-lane select by an AND with its bit and a compare. */
__attribute__((target("avx2"))) static void blend_lanes_avx2(uint64_t *r, const uint64_t *out,
                                                             uint32_t mask)
{
    const __m256i bits = _mm256_set_epi64x(8, 4, 2, 1);
    __m256i m = _mm256_set1_epi64x((long long)mask);
    for (unsigned l = 0; l < LANES; l += 4) {
        __m256i sel = _mm256_cmpeq_epi64(_mm256_and_si256(m, bits), bits);
        __m256i old = _mm256_loadu_si256((const __m256i *)(const void *)(r + l));
        __m256i neu = _mm256_loadu_si256((const __m256i *)(const void *)(out + l));
        _mm256_storeu_si256((__m256i *)(void *)(r + l), _mm256_blendv_epi8(old, neu, sel));
        m = _mm256_srli_epi64(m, 4);
    }
}
#endif

/* r[l] = out[l] for the lanes of `mask`: blend_lanes_avx2 unless the program was told not to use
 * AVX2 (exec_program.host_avx2). Out of line, so that exec_h_alu_plain_avx2's full warps pay
 * nothing for it. */
static __attribute__((noinline)) void blend_lanes(const exec_warp *w, uint64_t *r,
                                                  const uint64_t *out, uint32_t mask)
{
#ifdef HANDLER_AVX2
    if (w->run->prog->host_avx2) {
        blend_lanes_avx2(r, out, mask);
        return;
    }
#else
    (void)w;
#endif
    for (unsigned l = 0; l < LANES; l++) r[l] = ((mask >> l) & 1u) ? out[l] : r[l];
}

/* h_alu for the common shape (alu_plain): every source a register or an immediate (or absent),
 * no carry flag read or written, one register destination and no second one. The same steps
 * without the operand-kind dispatch of warp_src, the flags and the second destination. With
 * `avx2` (a constant: exec_h_alu_plain_avx2) a partial mask's lanes are blended four at a time
 * (blend_lanes, about a third of the loop's host instructions). */
static inline __attribute__((always_inline)) void alu_plain_body(exec_warp *w,
                                                                 const exec_xinsn *x,
                                                                 uint32_t mask, int avx2)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    uint64_t out[LANES];
    alu_args a;
    for (int i = 0; i < 4; i++)
        a.src[i] = in->src[i].kind == IR_OPND_REG ? w->regs + (size_t)in->src[i].reg * LANES
                                                  : x->imm[i];
    a.dst2 = NULL;
    a.carry_in = NULL;
    a.carry_out = NULL;
    uint64_t *r = w->regs + (size_t)in->dst[0].reg * LANES;
    if (mask == FULL_MASK && (x->aux & ALU_AUX_DIRECT)) {
        a.dst = r;
        x->alu(in, &a);
        return;
    }
    a.dst = out;
    x->alu(in, &a);
    if (mask == FULL_MASK) {
        memcpy(r, out, sizeof out);
    } else if (avx2) {
        blend_lanes(w, r, out, mask);
    } else {
        for (unsigned l = 0; l < LANES; l++) r[l] = ((mask >> l) & 1u) ? out[l] : r[l];
    }
}

void exec_h_alu_plain(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    alu_plain_body(w, x, mask, 0);
}

/* exec_h_alu_plain with the AVX2 blend of a partial mask's lanes (chosen at decode on hosts
 * that have it; a program told not to use AVX2, exec_program.host_avx2, blends lane by lane). */
void exec_h_alu_plain_avx2(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    alu_plain_body(w, x, mask, 1);
}

/* Bit l set when lane l of a compares true with lane l of b: less (op 1), equal (2) or greater
 * (4) on the low 32 bits, each XORed with `bias` (0x80000000 orders them as signed). */
#if defined(__SSE2__)
/* Four lanes at a time with SSE2 (part of every x86-64 CPU): the low halves of four 64-bit
 * lanes gathered into one vector, ordered for the signed compare by flipping bit 31 unless
 * `bias` already did, compared, and their sign bits moved into the mask. Equal to the scalar
 * loop below, bit for bit. */
static inline __attribute__((always_inline)) __m128i low_halves(const uint64_t *v)
{
    __m128 lo = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)v));
    __m128 hi = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(v + 2)));
    return _mm_castps_si128(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
}

static inline __attribute__((always_inline)) uint32_t cmp_mask32_op(const uint64_t *a,
                                                                    const uint64_t *b,
                                                                    uint32_t bias, unsigned op)
{
    const __m128i flip = _mm_set1_epi32((int)(bias ^ 0x80000000u));
    uint32_t t = 0;
    for (unsigned l = 0; l < LANES; l += 4) {
        __m128i x = _mm_xor_si128(low_halves(a + l), flip);
        __m128i y = _mm_xor_si128(low_halves(b + l), flip);
        __m128i r = op == 1 ? _mm_cmplt_epi32(x, y)
                            : op == 2 ? _mm_cmpeq_epi32(x, y) : _mm_cmpgt_epi32(x, y);
        t |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(r)) << l;
    }
    return t;
}

static uint32_t cmp_mask32(const uint64_t *a, const uint64_t *b, uint32_t bias, unsigned op)
{
    switch (op) {
    case 1: return cmp_mask32_op(a, b, bias, 1);
    case 2: return cmp_mask32_op(a, b, bias, 2);
    default: return cmp_mask32_op(a, b, bias, 4);
    }
}
#else
static uint32_t cmp_mask32(const uint64_t *a, const uint64_t *b, uint32_t bias, unsigned op)
{
    uint32_t t = 0;
    switch (op) {
    case 1:
        for (unsigned l = 0; l < LANES; l++)
            t |= (uint32_t)(((uint32_t)a[l] ^ bias) < ((uint32_t)b[l] ^ bias)) << l;
        break;
    case 2:
        for (unsigned l = 0; l < LANES; l++) t |= (uint32_t)((uint32_t)a[l] == (uint32_t)b[l]) << l;
        break;
    default:
        for (unsigned l = 0; l < LANES; l++)
            t |= (uint32_t)(((uint32_t)a[l] ^ bias) > ((uint32_t)b[l] ^ bias)) << l;
        break;
    }
    return t;
}
#endif


/* setp of 32-bit integers without a combine operand or flags (setp_int_aux): the comparison
 * straight into predicate bits, without the 0/1 lanes of the ALU interface. x->aux (bits 0-2)
 * names the outcomes that make it true (1 less, 2 equal, 4 greater), bit 3 the signed ordering,
 * bit 4 a result known at decode (two immediates) and bit 5 that result. The results equal
 * alu_cmp.c's setp_u32/setp_s32. `avx2`: compare with cmp_mask32_avx2. */
static inline __attribute__((always_inline)) void setp_int(exec_warp *w, const exec_xinsn *x,
                                                           uint32_t mask, int avx2)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    uint32_t aux = x->aux, t;
    if (aux & 16u) {
        t = (aux & 32u) ? ~0u : 0;
    } else {
        /* setp_int_aux takes register and immediate sources only */
        const uint64_t *a = in->src[0].kind == IR_OPND_REG
                                ? w->regs + (size_t)in->src[0].reg * LANES : x->imm[0];
        const uint64_t *b = in->src[1].kind == IR_OPND_REG
                                ? w->regs + (size_t)in->src[1].reg * LANES : x->imm[1];
        unsigned on = aux & 7u;
        int neg = on == 3 || on == 5 || on == 6; /* le, ne, ge: not gt, eq, lt */
        uint32_t bias = (aux & 8u) ? 0x80000000u : 0;
#ifdef HANDLER_AVX2
        t = avx2 ? cmp_mask32_avx2(a, b, bias, neg ? 7u & ~on : on)
                 : cmp_mask32(a, b, bias, neg ? 7u & ~on : on);
#else
        (void)avx2;
        t = cmp_mask32(a, b, bias, neg ? 7u & ~on : on);
#endif
        t = neg ? ~t : t;
    }
    uint32_t *p = &w->preds[in->dst[0].reg];
    *p = (*p & ~mask) | (t & mask);
    if (in->dst[1].kind == IR_OPND_PRED) {
        p = &w->preds[in->dst[1].reg];
        *p = (*p & ~mask) | (~t & mask);
    }
}

void exec_h_setp_int(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    setp_int(w, x, mask, 0);
}

/* exec_h_setp_int with the AVX2 compare, chosen at decode on hosts that have it; a program told
 * not to use AVX2 (exec_program.host_avx2) compares as exec_h_setp_int does. */
void exec_h_setp_int_avx2(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    setp_int(w, x, mask, w->run->prog->host_avx2);
}
