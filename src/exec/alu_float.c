/* f32 and f64 arithmetic (PTX ISA 9.1 §9.7.3): add, sub, mul, fma/mad, div (IEEE, .full and
 * .approx), abs, neg, copysign.
 *
 * Each (operation, .ftz, .sat) combination is its own function; the .rn form runs at the host's
 * default rounding mode and the .rz/.rm/.rp form switches the host mode around the lane loop (the
 * library is compiled with -frounding-math, so the compiler keeps float operations inside the
 * switched region). NaN results are the canonical NaN; .ftz flushes f32 subnormal operands and
 * results; .sat clamps to [0, 1]. Not here: the special functions (alu_approx.c), min/max and
 * comparisons (alu_cmp.c), half formats (alu_half.c). */
#include "exec/alu_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

enum float_op { FOP_ADD, FOP_SUB, FOP_MUL, FOP_FMA, FOP_DIV, FOP_DIV_APPROX };

/* div.approx computes a * (1/b) with a flushing reciprocal: for 2^126 < |b| < 2^128 the
 * reciprocal is subnormal, so the quotient is a zero (NaN when a is infinite), as PTX documents. */
ALU_INLINE float f32_div_approx(float x, float y)
{
    float ay = fabsf(y);
    if (ay > 0x1p126f && ay < INFINITY) {
        float zero = (signbit(x) != 0) != (signbit(y) != 0) ? -0.0f : 0.0f;
        return isinf(x) ? NAN : zero * (isnan(x) ? NAN : 1.0f);
    }
    return x / y;
}

ALU_INLINE float f32_apply(enum float_op op, float x, float y, float z)
{
    switch (op) {
    case FOP_ADD: return x + y;
    case FOP_SUB: return x - y;
    case FOP_MUL: return x * y;
    case FOP_FMA: return fmaf(x, y, z);
    case FOP_DIV: return x / y;
    default: return f32_div_approx(x, y);
    }
}

ALU_INLINE void f32_lanes(const alu_args *a, enum float_op op, int ftz, int sat)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = op == FOP_FMA ? a->src[2] : a->src[1];
    ALU_FOR_LANES(l) {
        float x = alu_f32_operand(s0[l], ftz), y = alu_f32_operand(s1[l], ftz);
        float z = alu_f32_operand(s2[l], ftz);
        a->dst[l] = alu_f32_result(f32_apply(op, x, y, z), ftz, sat);
    }
}

ALU_INLINE double f64_apply(enum float_op op, double x, double y, double z)
{
    switch (op) {
    case FOP_ADD: return x + y;
    case FOP_SUB: return x - y;
    case FOP_MUL: return x * y;
    case FOP_FMA: return fma(x, y, z);
    default: return x / y;
    }
}

ALU_INLINE void f64_lanes(const alu_args *a, enum float_op op, int sat)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = op == FOP_FMA ? a->src[2] : a->src[1];
    ALU_FOR_LANES(l) {
        double r = f64_apply(op, alu_f64_from_bits(s0[l]), alu_f64_from_bits(s1[l]),
                             alu_f64_from_bits(s2[l]));
        a->dst[l] = alu_f64_result(r, sat);
    }
}

/* One .rn function and one directed-rounding function per combination: name_rn and name_dir,
 * with `attr` before each (a target attribute) and `suffix` after their names. */
#define F32_FNS_AS(name, op, ftz, sat, attr, suffix)                                          \
    attr static void name##_rn##suffix(const ir_insn *in, const alu_args *a)                  \
    {                                                                                         \
        (void)in;                                                                             \
        f32_lanes(a, op, ftz, sat);                                                           \
    }                                                                                         \
    attr static void name##_dir##suffix(const ir_insn *in, const alu_args *a)                 \
    {                                                                                         \
        fesetround(alu_fe_mode(in->rnd));                                                     \
        f32_lanes(a, op, ftz, sat);                                                           \
        fesetround(FE_TONEAREST);                                                             \
    }
#define F32_FNS(name, op, ftz, sat) F32_FNS_AS(name, op, ftz, sat, , )

/* The four .ftz/.sat combinations of F32_FNS_AS. */
#define F32_FNS4_AS(name, op, attr, suffix)                                                   \
    F32_FNS_AS(name, op, 0, 0, attr, suffix)                                                  \
    F32_FNS_AS(name##_ftz, op, 1, 0, attr, suffix)                                            \
    F32_FNS_AS(name##_sat, op, 0, 1, attr, suffix)                                            \
    F32_FNS_AS(name##_ftz_sat, op, 1, 1, attr, suffix)
#define F32_FNS4(name, op) F32_FNS4_AS(name, op, , )

F32_FNS4(f32_add, FOP_ADD)
F32_FNS4(f32_sub, FOP_SUB)
F32_FNS4(f32_mul, FOP_MUL)
F32_FNS4(f32_fma, FOP_FMA)

/* f32 add, sub and mul compiled a second time for hosts whose CPU has AVX2 (alu_internal.h
 * ALU_AVX2_VARIANTS): the same loop, eight lanes per instruction instead of four. Each lane is
 * the one IEEE operation rounded in the host's current mode, so the bits are the same. */
#ifdef ALU_AVX2_VARIANTS
#define F32_FNS4_AVX2(name, op) F32_FNS4_AS(name, op, ALU_TARGET_AVX2, _avx2)
F32_FNS4_AVX2(f32_add, FOP_ADD)
F32_FNS4_AVX2(f32_sub, FOP_SUB)
F32_FNS4_AVX2(f32_mul, FOP_MUL)
#define F32_AVX2_ROW(name)                                                                    \
    {{{name##_rn_avx2, name##_dir_avx2}, {name##_sat_rn_avx2, name##_sat_dir_avx2}},          \
     {{name##_ftz_rn_avx2, name##_ftz_dir_avx2},                                              \
      {name##_ftz_sat_rn_avx2, name##_ftz_sat_dir_avx2}}}
/* [add sub mul][ftz][sat][directed] */
static const alu_fn f32_avx2_table[3][2][2][2] = {F32_AVX2_ROW(f32_add), F32_AVX2_ROW(f32_sub),
                                                  F32_AVX2_ROW(f32_mul)};
#endif

/* f32 fma on x86-64 hosts whose CPU has the FMA extension: four lanes per fused instruction
 * (vfmadd on SSE registers) instead of a libm fmaf call per lane, and f64 fma with fma inline.
 * Both compute x * y + z rounded once in the host's current rounding mode (IEEE 754
 * fusedMultiplyAdd), so the bits are the same; .ftz, .sat and NaN canonicalisation follow
 * alu_f32_operand and alu_f32_result exactly. Chosen once per instruction when the module is
 * prepared (cpu_has_fma, base/cpu.h). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
#define ALU_FMA_VARIANTS 1
#define ALU_TARGET_FMA __attribute__((target("fma")))

/* .ftz of four f32 lanes' bits: a zero exponent keeps only the sign (alu_f32_flush). */
ALU_TARGET_FMA static inline __attribute__((always_inline)) __m128i f32x4_flush(__m128i u)
{
    const __m128i exp = _mm_set1_epi32(0x7F800000), sign = _mm_set1_epi32((int)0x80000000u);
    __m128i denormal = _mm_cmpeq_epi32(_mm_and_si128(u, exp), _mm_setzero_si128());
    return _mm_andnot_si128(_mm_andnot_si128(sign, denormal), u);
}

/* The f32 operands of lanes l .. l + 3 (the low halves of four 64-bit lanes), .ftz applied. */
ALU_TARGET_FMA static inline __attribute__((always_inline)) __m128 f32x4_load(const uint64_t *v,
                                                                              int ftz)
{
    __m128 lo = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)v));
    __m128 hi = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)(v + 2)));
    __m128i u = _mm_castps_si128(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
    return _mm_castsi128_ps(ftz ? f32x4_flush(u) : u);
}

/* f32_lanes for fma, four lanes at a time: the fused multiply-add, then alu_f32_result's steps
 * in its order (.sat as max(r, 0) and min(r, 1), which give +0 for NaN and -0 as the C
 * comparisons do; .ftz of the bits; NaN to the canonical NaN), zero-extended into 64-bit lanes. */
ALU_TARGET_FMA static inline __attribute__((always_inline)) void f32_fma_x4(const alu_args *a,
                                                                            int ftz, int sat)
{
    const __m128i cnan = _mm_set1_epi32((int)ALU_F32_NAN), zero = _mm_setzero_si128();
    for (unsigned l = 0; l < ALU_LANES; l += 4) {
        __m128 r = _mm_fmadd_ps(f32x4_load(a->src[0] + l, ftz), f32x4_load(a->src[1] + l, ftz),
                                f32x4_load(a->src[2] + l, ftz));
        if (sat)
            r = _mm_min_ps(_mm_max_ps(r, _mm_setzero_ps()), _mm_set1_ps(1.0f));
        __m128i u = _mm_castps_si128(r);
        if (ftz)
            u = f32x4_flush(u);
        __m128i nan = _mm_castps_si128(_mm_cmpunord_ps(r, r));
        u = _mm_or_si128(_mm_and_si128(nan, cnan), _mm_andnot_si128(nan, u));
        _mm_storeu_si128((__m128i *)(void *)(a->dst + l), _mm_unpacklo_epi32(u, zero));
        _mm_storeu_si128((__m128i *)(void *)(a->dst + l + 2), _mm_unpackhi_epi32(u, zero));
    }
}

#define F32_FMA_HW(name, ftz, sat)                                                           \
    ALU_TARGET_FMA static void name##_rn_hw(const ir_insn *in, const alu_args *a)             \
    {                                                                                         \
        (void)in;                                                                             \
        f32_fma_x4(a, ftz, sat);                                                              \
    }                                                                                         \
    ALU_TARGET_FMA static void name##_dir_hw(const ir_insn *in, const alu_args *a)            \
    {                                                                                         \
        fesetround(alu_fe_mode(in->rnd));                                                     \
        f32_fma_x4(a, ftz, sat);                                                              \
        fesetround(FE_TONEAREST);                                                             \
    }
F32_FMA_HW(f32_fma, 0, 0)
F32_FMA_HW(f32_fma_ftz, 1, 0)
F32_FMA_HW(f32_fma_sat, 0, 1)
F32_FMA_HW(f32_fma_ftz_sat, 1, 1)

#ifdef ALU_AVX2_VARIANTS
/* f32_fma_x4 on 256-bit registers for hosts with AVX2 as well as FMA: eight lanes per fused
 * instruction. The low halves of lanes l .. l + 7 come out of one shuffle of two 256-bit loads
 * as l, l+1, l+4, l+5 | l+2, l+3, l+6, l+7, and the same two unpacks with zero that f32_fma_x4
 * uses put them back in lane order per 128-bit half; every step is per element, so the bits
 * are f32_fma_x4's. */
#define ALU_TARGET_AVX2_FMA __attribute__((target("avx2,fma")))
ALU_TARGET_AVX2_FMA static inline __attribute__((always_inline)) __m256i f32x8_flush(__m256i u)
{
    const __m256i exp = _mm256_set1_epi32(0x7F800000), sign = _mm256_set1_epi32((int)0x80000000u);
    __m256i denormal = _mm256_cmpeq_epi32(_mm256_and_si256(u, exp), _mm256_setzero_si256());
    return _mm256_andnot_si256(_mm256_andnot_si256(sign, denormal), u);
}

ALU_TARGET_AVX2_FMA static inline __attribute__((always_inline)) __m256
f32x8_load(const uint64_t *v, int ftz)
{
    __m256 lo = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)v));
    __m256 hi = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)(v + 4)));
    __m256i u = _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
    return _mm256_castsi256_ps(ftz ? f32x8_flush(u) : u);
}

ALU_TARGET_AVX2_FMA static inline __attribute__((always_inline)) void f32_fma_x8(const alu_args *a,
                                                                                 int ftz, int sat)
{
    const __m256i cnan = _mm256_set1_epi32((int)ALU_F32_NAN), zero = _mm256_setzero_si256();
    for (unsigned l = 0; l < ALU_LANES; l += 8) {
        __m256 r = _mm256_fmadd_ps(f32x8_load(a->src[0] + l, ftz), f32x8_load(a->src[1] + l, ftz),
                                   f32x8_load(a->src[2] + l, ftz));
        if (sat)
            r = _mm256_min_ps(_mm256_max_ps(r, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
        __m256i u = _mm256_castps_si256(r);
        if (ftz)
            u = f32x8_flush(u);
        __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(r, r, _CMP_UNORD_Q));
        u = _mm256_or_si256(_mm256_and_si256(nan, cnan), _mm256_andnot_si256(nan, u));
        _mm256_storeu_si256((__m256i *)(void *)(a->dst + l), _mm256_unpacklo_epi32(u, zero));
        _mm256_storeu_si256((__m256i *)(void *)(a->dst + l + 4), _mm256_unpackhi_epi32(u, zero));
    }
}

#define F32_FMA_AVX2(name, ftz, sat)                                                         \
    ALU_TARGET_AVX2_FMA static void name##_rn_avx2(const ir_insn *in, const alu_args *a)      \
    {                                                                                         \
        (void)in;                                                                             \
        f32_fma_x8(a, ftz, sat);                                                              \
    }                                                                                         \
    ALU_TARGET_AVX2_FMA static void name##_dir_avx2(const ir_insn *in, const alu_args *a)     \
    {                                                                                         \
        fesetround(alu_fe_mode(in->rnd));                                                     \
        f32_fma_x8(a, ftz, sat);                                                              \
        fesetround(FE_TONEAREST);                                                             \
    }
F32_FMA_AVX2(f32_fma, 0, 0)
F32_FMA_AVX2(f32_fma_ftz, 1, 0)
F32_FMA_AVX2(f32_fma_sat, 0, 1)
F32_FMA_AVX2(f32_fma_ftz_sat, 1, 1)

/* [ftz][sat][directed] */
static const alu_fn f32_fma_avx2_table[2][2][2] = F32_AVX2_ROW(f32_fma);
#endif

#define F32_HW_ROW(name)                                                                      \
    {{{name##_rn_hw, name##_dir_hw}, {name##_sat_rn_hw, name##_sat_dir_hw}},                  \
     {{name##_ftz_rn_hw, name##_ftz_dir_hw}, {name##_ftz_sat_rn_hw, name##_ftz_sat_dir_hw}}}
/* [ftz][sat][directed] */
static const alu_fn f32_fma_hw_table[2][2][2] = F32_HW_ROW(f32_fma);

#endif
F32_FNS(f32_div, FOP_DIV, 0, 0)
F32_FNS(f32_div_ftz, FOP_DIV, 1, 0)

static void f32_div_approx_fn(const ir_insn *in, const alu_args *a)
{
    (void)in;
    f32_lanes(a, FOP_DIV_APPROX, 0, 0);
}

static void f32_div_approx_ftz_fn(const ir_insn *in, const alu_args *a)
{
    (void)in;
    f32_lanes(a, FOP_DIV_APPROX, 1, 0);
}

/* [op][ftz][sat][directed] */
#define F32_ROW(name)                                                                         \
    {{{name##_rn, name##_dir}, {name##_sat_rn, name##_sat_dir}},                              \
     {{name##_ftz_rn, name##_ftz_dir}, {name##_ftz_sat_rn, name##_ftz_sat_dir}}}
static const alu_fn f32_table[4][2][2][2] = {
    F32_ROW(f32_add), F32_ROW(f32_sub), F32_ROW(f32_mul), F32_ROW(f32_fma),
};

#define F64_FNS(name, op, sat)                                                                \
    static void name##_rn(const ir_insn *in, const alu_args *a)                               \
    {                                                                                         \
        (void)in;                                                                             \
        f64_lanes(a, op, sat);                                                                \
    }                                                                                         \
    static void name##_dir(const ir_insn *in, const alu_args *a)                              \
    {                                                                                         \
        fesetround(alu_fe_mode(in->rnd));                                                     \
        f64_lanes(a, op, sat);                                                                \
        fesetround(FE_TONEAREST);                                                             \
    }

F64_FNS(f64_add, FOP_ADD, 0)
F64_FNS(f64_sub, FOP_SUB, 0)
F64_FNS(f64_mul, FOP_MUL, 0)
F64_FNS(f64_fma, FOP_FMA, 0)
F64_FNS(f64_div, FOP_DIV, 0)

#ifdef ALU_FMA_VARIANTS
__attribute__((target("fma"))) static void f64_fma_rn_hw(const ir_insn *in, const alu_args *a)
{
    (void)in;
    f64_lanes(a, FOP_FMA, 0);
}

__attribute__((target("fma"))) static void f64_fma_dir_hw(const ir_insn *in, const alu_args *a)
{
    fesetround(alu_fe_mode(in->rnd));
    f64_lanes(a, FOP_FMA, 0);
    fesetround(FE_TONEAREST);
}
#endif

static const alu_fn f64_table[5][2] = {
    {f64_add_rn, f64_add_dir}, {f64_sub_rn, f64_sub_dir}, {f64_mul_rn, f64_mul_dir},
    {f64_fma_rn, f64_fma_dir}, {f64_div_rn, f64_div_dir},
};

/* ---- sign operations: pure bit manipulation, NaN payloads included ---- */

ALU_INLINE void sign_lanes(const alu_args *a, uint64_t sign, int op, int ftz)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1] ? a->src[1] : a->src[0];
    ALU_FOR_LANES(l) {
        uint64_t x = s0[l] & (sign | (sign - 1));
        if (ftz)
            x = alu_f32_flush((uint32_t)x);
        uint64_t r = op == 0 ? x ^ sign : op == 1 ? x & ~sign
                                                  : ((s1[l] & ~sign) & (sign - 1)) | (x & sign);
        a->dst[l] = r;
    }
}

#define SIGN_FN(name, sign, op, ftz)                                                          \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        sign_lanes(a, sign, op, ftz);                                                         \
    }

SIGN_FN(f32_neg, 0x80000000u, 0, 0)
SIGN_FN(f32_neg_ftz, 0x80000000u, 0, 1)
SIGN_FN(f32_abs, 0x80000000u, 1, 0)
SIGN_FN(f32_abs_ftz, 0x80000000u, 1, 1)
SIGN_FN(f32_copysign, 0x80000000u, 2, 0)
SIGN_FN(f64_neg, UINT64_C(0x8000000000000000), 0, 0)
SIGN_FN(f64_abs, UINT64_C(0x8000000000000000), 1, 0)
SIGN_FN(f64_copysign, UINT64_C(0x8000000000000000), 2, 0)

static int float_arith_index(ir_opcode op)
{
    switch (op) {
    case IR_ADD: return FOP_ADD;
    case IR_SUB: return FOP_SUB;
    case IR_MUL: return FOP_MUL;
    case IR_FMA: case IR_MAD: return FOP_FMA;
    case IR_DIV: return FOP_DIV;
    default: return -1;
    }
}

static int float_rnd_ok(int rnd)
{
    return rnd == IR_RND_NONE || rnd == IR_RND_RN || alu_rnd_is_directed(rnd);
}

static alu_fn f32_div_lookup(const ir_insn *in, int ftz)
{
    if (in->mods & IR_MOD_SAT)
        return NULL;
    if (in->mods & IR_MOD_APPROX)
        return in->rnd == IR_RND_NONE ? (ftz ? f32_div_approx_ftz_fn : f32_div_approx_fn) : NULL;
    /* div.full is within 2 ulp in PTX; the correctly rounded quotient satisfies that bound. */
    if (in->mods & IR_MOD_FULL)
        return in->rnd == IR_RND_NONE ? (ftz ? f32_div_ftz_rn : f32_div_rn) : NULL;
    int dir = alu_rnd_is_directed(in->rnd);
    return ftz ? (dir ? f32_div_ftz_dir : f32_div_ftz_rn) : (dir ? f32_div_dir : f32_div_rn);
}

static alu_fn f32_lookup(const ir_insn *in)
{
    int ftz = (in->mods & IR_MOD_FTZ) != 0, sat = (in->mods & IR_MOD_SAT) != 0;
    switch (in->op) {
    case IR_NEG: return ftz ? f32_neg_ftz : f32_neg;
    case IR_ABS: return ftz ? f32_abs_ftz : f32_abs;
    case IR_COPYSIGN: return f32_copysign;
    default: break;
    }
    int op = float_arith_index((ir_opcode)in->op);
    if (op < 0 || !float_rnd_ok(in->rnd) || (in->mods & (IR_MOD_CC | IR_MOD_CARRY_IN | IR_MOD_HI |
                                                          IR_MOD_LO | IR_MOD_WIDE)))
        return NULL;
    if (op == FOP_DIV)
        return f32_div_lookup(in, ftz);
    if (in->mods & (IR_MOD_APPROX | IR_MOD_FULL))
        return NULL;
#if defined(ALU_FMA_VARIANTS) && defined(ALU_AVX2_VARIANTS)
    if (op == FOP_FMA && cpu_has_fma() && cpu_has_avx2())
        return f32_fma_avx2_table[ftz][sat][alu_rnd_is_directed(in->rnd)];
#endif
#ifdef ALU_FMA_VARIANTS
    if (op == FOP_FMA && cpu_has_fma())
        return f32_fma_hw_table[ftz][sat][alu_rnd_is_directed(in->rnd)];
#endif
#ifdef ALU_AVX2_VARIANTS
    if (op <= FOP_MUL && cpu_has_avx2())
        return f32_avx2_table[op][ftz][sat][alu_rnd_is_directed(in->rnd)];
#endif
    return f32_table[op][ftz][sat][alu_rnd_is_directed(in->rnd)];
}

static alu_fn f64_lookup(const ir_insn *in)
{
    switch (in->op) {
    case IR_NEG: return f64_neg;
    case IR_ABS: return f64_abs;
    case IR_COPYSIGN: return f64_copysign;
    default: break;
    }
    int op = float_arith_index((ir_opcode)in->op);
    /* f64 has neither .ftz nor .sat on these operations, and no approximate division. */
    if (op < 0 || !float_rnd_ok(in->rnd) ||
        (in->mods & (IR_MOD_FTZ | IR_MOD_SAT | IR_MOD_APPROX | IR_MOD_FULL | IR_MOD_CC |
                     IR_MOD_CARRY_IN | IR_MOD_HI | IR_MOD_LO | IR_MOD_WIDE)))
        return NULL;
#ifdef ALU_FMA_VARIANTS
    if (op == FOP_FMA && cpu_has_fma())
        return alu_rnd_is_directed(in->rnd) ? f64_fma_dir_hw : f64_fma_rn_hw;
#endif
    return f64_table[op][alu_rnd_is_directed(in->rnd)];
}

alu_fn alu_float_lookup(const ir_insn *in)
{
    if (in->type == IR_T_F32)
        return f32_lookup(in);
    if (in->type == IR_T_F64)
        return f64_lookup(in);
    return NULL;
}
