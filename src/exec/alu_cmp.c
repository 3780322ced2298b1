/* Comparison and selection (PTX ISA 9.1 §9.7.7, and min/max of §9.7.1.10-11, §9.7.3.10-11,
 * §9.7.4.8-9): setp, set, selp, slct, testp, min, max for integer and float types.
 *
 * A comparison operator is decoded once per call into four flags saying which of the outcomes
 * less / equal / greater / unordered make it true; the lane loop then combines the four outcome
 * bits without branches. Float min/max compare a sign-magnitude-to-ordered-integer key, which
 * also orders -0 below +0, and pick operands by bits, so results are exact for every format. */
#include "exec/alu_internal.h"

/* ---- operators as outcome flags ---- */

enum { CMP_L = 1, CMP_E = 2, CMP_G = 4, CMP_U = 8 };

static const uint8_t cmp_outcomes[IR_CMP_NAN + 1] = {
    [IR_CMP_EQ] = CMP_E,          [IR_CMP_NE] = CMP_L | CMP_G,
    [IR_CMP_LT] = CMP_L,          [IR_CMP_LE] = CMP_L | CMP_E,
    [IR_CMP_GT] = CMP_G,          [IR_CMP_GE] = CMP_G | CMP_E,
    [IR_CMP_LO] = CMP_L,          [IR_CMP_LS] = CMP_L | CMP_E,
    [IR_CMP_HI] = CMP_G,          [IR_CMP_HS] = CMP_G | CMP_E,
    [IR_CMP_EQU] = CMP_E | CMP_U, [IR_CMP_NEU] = CMP_L | CMP_G | CMP_U,
    [IR_CMP_LTU] = CMP_L | CMP_U, [IR_CMP_LEU] = CMP_L | CMP_E | CMP_U,
    [IR_CMP_GTU] = CMP_G | CMP_U, [IR_CMP_GEU] = CMP_G | CMP_E | CMP_U,
    [IR_CMP_NUM] = CMP_L | CMP_E | CMP_G, [IR_CMP_NAN] = CMP_U,
};

/* Operand classes a comparison is evaluated in. */
enum cmp_class {
    CC_U16, CC_U32, CC_U64, CC_S16, CC_S32, CC_S64,
    CC_F32, CC_F32_FTZ, CC_F64, CC_F16, CC_F16_FTZ, CC_BF16,
    CC_COUNT
};

/* Decodes a half-format value of either kind to double for ordering (exact). */
ALU_INLINE double cmp_half(uint64_t bits, int bf, int ftz)
{
    uint16_t h = (uint16_t)bits;
    return bf ? alu_bf16_to_f64(h) : alu_f16_to_f64(ftz ? alu_f16_flush(h) : h);
}

/* 1 when `flags` accepts the outcome of comparing lane values x and y of class cc. */
ALU_INLINE uint8_t cmp_eval(enum cmp_class cc, uint64_t x, uint64_t y, unsigned flags)
{
    int lt, eq, gt, un = 0;
    if (cc <= CC_U64) {
        unsigned bits = cc == CC_U16 ? 16 : cc == CC_U32 ? 32 : 64;
        uint64_t m = alu_width_mask(bits);
        lt = (x & m) < (y & m);
        eq = (x & m) == (y & m);
    } else if (cc <= CC_S64) {
        unsigned bits = cc == CC_S16 ? 16 : cc == CC_S32 ? 32 : 64;
        lt = alu_sext(x, bits) < alu_sext(y, bits);
        eq = (x & alu_width_mask(bits)) == (y & alu_width_mask(bits));
    } else {
        double fx, fy;
        if (cc == CC_F32 || cc == CC_F32_FTZ) {
            fx = alu_f32_operand(x, cc == CC_F32_FTZ);
            fy = alu_f32_operand(y, cc == CC_F32_FTZ);
        } else if (cc == CC_F64) {
            fx = alu_f64_from_bits(x);
            fy = alu_f64_from_bits(y);
        } else {
            fx = cmp_half(x, cc == CC_BF16, cc == CC_F16_FTZ);
            fy = cmp_half(y, cc == CC_BF16, cc == CC_F16_FTZ);
        }
        un = (fx != fx) | (fy != fy);
        lt = fx < fy;
        eq = fx == fy;
    }
    gt = !(lt | eq | un);
    /* bitwise, not logical, so the lane loop has no branches */
    return (uint8_t)((lt & (int)(flags & CMP_L)) | ((eq << 1) & (int)(flags & CMP_E)) |
                     ((gt << 2) & (int)(flags & CMP_G)) | ((un << 3) & (int)(flags & CMP_U))) != 0;
}

/* Comparison outcomes of element `half` (0 = low 16 bits, 1 = high) or of the whole value. */
ALU_INLINE void cmp_lanes(const alu_args *a, enum cmp_class cc, unsigned flags, unsigned shift,
                          uint8_t *t)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    ALU_FOR_LANES(l) t[l] = cmp_eval(cc, s0[l] >> shift, s1[l] >> shift, flags);
}

/* The boolean operation as four 0/1 selectors, decoded once per call, so that r BOOLOP c is a
 * branch-free expression in the lane loop. */
typedef struct bool_sel {
    uint64_t none, and_, or_, xor_;
} bool_sel;

static bool_sel bool_sel_of(int boolop)
{
    bool_sel b = {boolop == IR_BOOL_NONE, boolop == IR_BOOL_AND, boolop == IR_BOOL_OR,
                  boolop == IR_BOOL_XOR};
    return b;
}

/* r BOOLOP c, with c the predicate operand src[2] (0/1 lanes). */
ALU_INLINE uint64_t bool_apply(const bool_sel *b, uint64_t r, uint64_t c)
{
    return (r & b->none) | (r & c & b->and_) | ((r | c) & b->or_) | ((r ^ c) & b->xor_);
}

/* setp: dst = t BOOLOP c and dst2 = !t BOOLOP c; for x2 formats dst and dst2 receive the low and
 * high element results (each combined with c). */
ALU_INLINE void setp_lanes(const ir_insn *in, const alu_args *a, enum cmp_class cc, int pair)
{
    uint8_t t0[ALU_LANES], t1[ALU_LANES];
    unsigned flags = in->cmp <= IR_CMP_NAN ? cmp_outcomes[in->cmp] : 0;
    int boolop = a->src[2] ? in->boolop : IR_BOOL_NONE;
    bool_sel b = bool_sel_of(boolop);
    const uint64_t *cs = boolop ? a->src[2] : a->src[0]; /* read only when boolop is set */
    cmp_lanes(a, cc, flags, 0, t0);
    if (pair)
        cmp_lanes(a, cc, flags, 16, t1);
    if (boolop == IR_BOOL_NONE && !pair) { /* the common case, without the selectors */
        ALU_FOR_LANES(l) a->dst[l] = t0[l];
        if (a->dst2)
            ALU_FOR_LANES(l) a->dst2[l] = t0[l] ^ 1u;
        return;
    }
    ALU_FOR_LANES(l) {
        uint64_t c = cs[l] & 1u;
        a->dst[l] = bool_apply(&b, t0[l], c);
    }
    if (a->dst2)
        ALU_FOR_LANES(l) a->dst2[l] = bool_apply(&b, pair ? t1[l] : (uint64_t)(t0[l] ^ 1u), cs[l] & 1u);
}

/* set: the destination type's "true" (all ones, 1.0f, or 1.0 per half) when t BOOLOP c. */
ALU_INLINE void set_lanes(const ir_insn *in, const alu_args *a, enum cmp_class cc, int pair)
{
    uint8_t t0[ALU_LANES], t1[ALU_LANES];
    unsigned flags = in->cmp <= IR_CMP_NAN ? cmp_outcomes[in->cmp] : 0;
    int boolop = a->src[2] ? in->boolop : IR_BOOL_NONE;
    uint64_t one;
    switch (in->type) {
    case IR_T_F32: one = ALU_F32_ONE; break;
    case IR_T_F16: case IR_T_F16X2: one = ALU_F16_ONE; break;
    case IR_T_BF16: case IR_T_BF16X2: one = ALU_BF16_ONE; break;
    default: one = alu_width_mask(ir_type_bits((ir_type)in->type)); break;
    }
    bool_sel b = bool_sel_of(boolop);
    const uint64_t *cs = boolop ? a->src[2] : a->src[0];
    cmp_lanes(a, cc, flags, 0, t0);
    if (pair)
        cmp_lanes(a, cc, flags, 16, t1);
    ALU_FOR_LANES(l) {
        uint64_t c = cs[l] & 1u;
        uint64_t r = bool_apply(&b, t0[l], c) ? one : 0;
        if (pair)
            r |= (bool_apply(&b, t1[l], c) ? one : 0) << 16;
        a->dst[l] = r;
    }
}

#define CMP_FNS(name, cc, pair)                                                               \
    static void setp_##name(const ir_insn *in, const alu_args *a) { setp_lanes(in, a, cc, pair); } \
    static void set_##name(const ir_insn *in, const alu_args *a) { set_lanes(in, a, cc, pair); }

CMP_FNS(u16, CC_U16, 0) CMP_FNS(u32, CC_U32, 0) CMP_FNS(u64, CC_U64, 0)
CMP_FNS(s16, CC_S16, 0) CMP_FNS(s32, CC_S32, 0) CMP_FNS(s64, CC_S64, 0)
CMP_FNS(f32, CC_F32, 0) CMP_FNS(f32_ftz, CC_F32_FTZ, 0) CMP_FNS(f64, CC_F64, 0)
CMP_FNS(f16, CC_F16, 0) CMP_FNS(f16_ftz, CC_F16_FTZ, 0) CMP_FNS(bf16, CC_BF16, 0)
CMP_FNS(f16x2, CC_F16, 1) CMP_FNS(f16x2_ftz, CC_F16_FTZ, 1) CMP_FNS(bf16x2, CC_BF16, 1)

/* setp reading the carry (ir_insn.flag_in; SASS ISETP.X): the extended comparison of the high
 * 32-bit words of two 64-bit values whose low words set the carry (add.cc of the low word of a
 * and the negation of the low word of b: carry = 1 when no borrow). The compared value is
 * t = a - b - (1 - carry), exact in 64-bit arithmetic (a and b signed or unsigned as the type and
 * operator say); lt: t < 0, ge: t >= 0. Then dst = r BOOLOP c and dst2 = !r BOOLOP c as setp's.
 * With the carry of the low words, a 64-bit a < b is exactly t < 0. */
ALU_INLINE void setp_x_lanes(const ir_insn *in, const alu_args *a, int sgn)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *cin = a->carry_in;
    uint64_t ge = in->cmp == IR_CMP_GE || in->cmp == IR_CMP_HS;
    int boolop = a->src[2] ? in->boolop : IR_BOOL_NONE;
    bool_sel b = bool_sel_of(boolop);
    const uint64_t *cs = boolop ? a->src[2] : a->src[0]; /* read only when boolop is set */
    ALU_FOR_LANES(l) {
        int64_t x = sgn ? alu_sext(s0[l], 32) : (int64_t)(uint32_t)s0[l];
        int64_t y = sgn ? alu_sext(s1[l], 32) : (int64_t)(uint32_t)s1[l];
        int64_t t = x - y - (int64_t)(1 - (cin[l] & 1u));
        uint64_t r = (uint64_t)(t < 0) ^ ge, c = cs[l] & 1u;
        a->dst[l] = bool_apply(&b, r, c);
        if (a->dst2)
            a->dst2[l] = bool_apply(&b, r ^ 1u, c);
    }
}

static void setp_x_u32(const ir_insn *in, const alu_args *a) { setp_x_lanes(in, a, 0); }
static void setp_x_s32(const ir_insn *in, const alu_args *a) { setp_x_lanes(in, a, 1); }

/* The extended comparison: 32-bit integers, lt/ge (lo/hs: unsigned); NULL otherwise (the
 * equality and the other orderings would need the zero flag of the low words, not modelled). */
static alu_fn setp_x_lookup(const ir_insn *in)
{
    ir_type t = (ir_type)in->type;
    int c = in->cmp, unsigned_op = c == IR_CMP_LO || c == IR_CMP_HS;
    if (ir_type_bits(t) != 32 || ir_type_is_float(t) || in->mods || in->boolop > IR_BOOL_XOR ||
        (c != IR_CMP_LT && c != IR_CMP_GE && !unsigned_op))
        return NULL;
    return ir_type_is_signed(t) && !unsigned_op ? setp_x_s32 : setp_x_u32;
}

/* ---- selp / slct ---- */

ALU_INLINE void selp_lanes(const alu_args *a, uint64_t mask)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    ALU_FOR_LANES(l) a->dst[l] = ((s2[l] & 1u) ? s0[l] : s1[l]) & mask;
}

/* slct: a when c >= 0 (c is s32, or f32 where -0 counts as >= 0 and NaN does not). */
ALU_INLINE void slct_lanes(const alu_args *a, uint64_t mask, int c_float, int ftz)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    ALU_FOR_LANES(l) {
        int take_a = c_float ? alu_f32_operand(s2[l], ftz) >= 0.0f : alu_sext(s2[l], 32) >= 0;
        a->dst[l] = (take_a ? s0[l] : s1[l]) & mask;
    }
}

#define SEL_FNS(w, mask)                                                                      \
    static void selp_##w(const ir_insn *in, const alu_args *a) { (void)in; selp_lanes(a, mask); } \
    static void slct_s_##w(const ir_insn *in, const alu_args *a) { (void)in; slct_lanes(a, mask, 0, 0); } \
    static void slct_f_##w(const ir_insn *in, const alu_args *a) { (void)in; slct_lanes(a, mask, 1, 0); } \
    static void slct_fz_##w(const ir_insn *in, const alu_args *a) { (void)in; slct_lanes(a, mask, 1, 1); }

SEL_FNS(16, 0xFFFFu)
SEL_FNS(32, 0xFFFFFFFFu)
SEL_FNS(64, ~UINT64_C(0))

/* ---- testp ---- */

ALU_INLINE uint64_t testp_eval(int sub, uint64_t bits, int f64)
{
    uint64_t exp_mask = f64 ? UINT64_C(0x7FF0000000000000) : 0x7F800000u;
    uint64_t frac_mask = f64 ? (UINT64_C(1) << 52) - 1 : 0x7FFFFFu;
    uint64_t e = bits & exp_mask, f = bits & frac_mask;
    switch (sub) {
    case IR_TESTP_FINITE: return e != exp_mask;
    case IR_TESTP_INFINITE: return e == exp_mask && f == 0;
    case IR_TESTP_NUMBER: return !(e == exp_mask && f != 0);
    case IR_TESTP_NOTANUMBER: return e == exp_mask && f != 0;
    case IR_TESTP_NORMAL: return e != 0 && e != exp_mask;
    default: return e == 0 && f != 0; /* subnormal */
    }
}

ALU_INLINE void testp_lanes(const alu_args *a, int sub, int f64)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = testp_eval(sub, f64 ? s0[l] : (s0[l] & 0xFFFFFFFFu), f64);
}

#define TESTP_FNS(name, sub)                                                                  \
    static void testp_##name##_f32(const ir_insn *in, const alu_args *a) { (void)in; testp_lanes(a, sub, 0); } \
    static void testp_##name##_f64(const ir_insn *in, const alu_args *a) { (void)in; testp_lanes(a, sub, 1); }

TESTP_FNS(finite, IR_TESTP_FINITE)
TESTP_FNS(infinite, IR_TESTP_INFINITE)
TESTP_FNS(number, IR_TESTP_NUMBER)
TESTP_FNS(notanumber, IR_TESTP_NOTANUMBER)
TESTP_FNS(normal, IR_TESTP_NORMAL)
TESTP_FNS(subnormal, IR_TESTP_SUBNORMAL)

static const alu_fn testp_table[6][2] = {
    {testp_finite_f32, testp_finite_f64},         {testp_infinite_f32, testp_infinite_f64},
    {testp_number_f32, testp_number_f64},         {testp_notanumber_f32, testp_notanumber_f64},
    {testp_normal_f32, testp_normal_f64},         {testp_subnormal_f32, testp_subnormal_f64},
};

/* ---- min / max ---- */

/* Integer min/max; .relu (s32) clamps a negative result to 0. */
ALU_INLINE void int_minmax_lanes(const alu_args *a, int max, unsigned bits, int is_signed, int relu)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    uint64_t m = alu_width_mask(bits);
    ALU_FOR_LANES(l) {
        int a_less = is_signed ? alu_sext(s0[l], bits) < alu_sext(s1[l], bits)
                               : (s0[l] & m) < (s1[l] & m);
        uint64_t r = (a_less != max ? s0[l] : s1[l]) & m;
        if (relu && alu_sext(r, bits) < 0)
            r = 0;
        a->dst[l] = r;
    }
}

#define INT_MINMAX_FNS(t, bits, sgn)                                                          \
    static void min_##t(const ir_insn *in, const alu_args *a) { (void)in; int_minmax_lanes(a, 0, bits, sgn, 0); } \
    static void max_##t(const ir_insn *in, const alu_args *a) { (void)in; int_minmax_lanes(a, 1, bits, sgn, 0); }

INT_MINMAX_FNS(u16, 16, 0) INT_MINMAX_FNS(u32, 32, 0) INT_MINMAX_FNS(u64, 64, 0)
INT_MINMAX_FNS(s16, 16, 1) INT_MINMAX_FNS(s32, 32, 1) INT_MINMAX_FNS(s64, 64, 1)

#ifdef ALU_AVX2_VARIANTS
#include <immintrin.h>
/* min/max of 32-bit integers (no .relu) on hosts with AVX2: eight lanes per vpmin/vpmax. The low
 * halves of lanes l .. l + 7 come out of one shuffle of two 256-bit loads as l, l+1, l+4, l+5 |
 * l+2, l+3, l+6, l+7, and unpacking the result with zero puts them back in lane order per
 * 128-bit half, zero-extended. Where the two are equal either is the result's low 32 bits, so
 * the bits are int_minmax_lanes'. */
ALU_TARGET_AVX2 static inline __attribute__((always_inline)) __m256i low_halves8(const uint64_t *v)
{
    __m256 lo = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)v));
    __m256 hi = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)(v + 4)));
    return _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
}

/* op: 0 min.s32, 1 max.s32, 2 min.u32, 3 max.u32 */
ALU_TARGET_AVX2 static inline __attribute__((always_inline)) void minmax32_x8(const alu_args *a,
                                                                            int op)
{
    const __m256i zero = _mm256_setzero_si256();
    for (unsigned l = 0; l < ALU_LANES; l += 8) {
        __m256i x = low_halves8(a->src[0] + l), y = low_halves8(a->src[1] + l);
        __m256i r = op == 0   ? _mm256_min_epi32(x, y)
                    : op == 1 ? _mm256_max_epi32(x, y)
                    : op == 2 ? _mm256_min_epu32(x, y)
                              : _mm256_max_epu32(x, y);
        _mm256_storeu_si256((__m256i *)(void *)(a->dst + l), _mm256_unpacklo_epi32(r, zero));
        _mm256_storeu_si256((__m256i *)(void *)(a->dst + l + 4), _mm256_unpackhi_epi32(r, zero));
    }
}

#define MINMAX32_AVX2(name, op)                                                               \
    ALU_TARGET_AVX2 static void name##_avx2(const ir_insn *in, const alu_args *a)             \
    {                                                                                         \
        (void)in;                                                                             \
        minmax32_x8(a, op);                                                                   \
    }
MINMAX32_AVX2(min_s32, 0)
MINMAX32_AVX2(max_s32, 1)
MINMAX32_AVX2(min_u32, 2)
MINMAX32_AVX2(max_u32, 3)
#endif

static void min_relu_s32(const ir_insn *in, const alu_args *a)
{
    (void)in;
    int_minmax_lanes(a, 0, 32, 1, 1);
}

static void max_relu_s32(const ir_insn *in, const alu_args *a)
{
    (void)in;
    int_minmax_lanes(a, 1, 32, 1, 1);
}

/* min/max.u16x2 and .s16x2: int_minmax_lanes on each 16-bit half; .relu (s16x2) clamps each
 * negative half to 0. */
ALU_INLINE void int_minmax_x2_lanes(const alu_args *a, int max, int is_signed, int relu)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    ALU_FOR_LANES(l) {
        uint64_t r = 0;
        for (unsigned sh = 0; sh < 32; sh += 16) {
            uint64_t x = (s0[l] >> sh) & 0xFFFFu, y = (s1[l] >> sh) & 0xFFFFu;
            int x_less = is_signed ? alu_sext(x, 16) < alu_sext(y, 16) : x < y;
            uint64_t h = x_less != max ? x : y;
            if (relu && alu_sext(h, 16) < 0)
                h = 0;
            r |= h << sh;
        }
        a->dst[l] = r;
    }
}

#define INT_MINMAX_X2_FNS(t, sgn, relu)                                                       \
    static void min_##t(const ir_insn *in, const alu_args *a) { (void)in; int_minmax_x2_lanes(a, 0, sgn, relu); } \
    static void max_##t(const ir_insn *in, const alu_args *a) { (void)in; int_minmax_x2_lanes(a, 1, sgn, relu); }

INT_MINMAX_X2_FNS(u16x2, 0, 0) INT_MINMAX_X2_FNS(s16x2, 1, 0) INT_MINMAX_X2_FNS(relu_s16x2, 1, 1)

/* A float format as seen by min/max: width, sign bit and infinity pattern. */
typedef struct float_shape {
    unsigned bits;
    uint64_t sign, inf, nan;
} float_shape;

static const float_shape shape_f16 = {16, 0x8000u, 0x7C00u, ALU_F16_NAN};
static const float_shape shape_bf16 = {16, 0x8000u, 0x7F80u, ALU_BF16_NAN};
static const float_shape shape_f32 = {32, 0x80000000u, 0x7F800000u, ALU_F32_NAN};
static const float_shape shape_f64 = {64, UINT64_C(0x8000000000000000),
                                      UINT64_C(0x7FF0000000000000), ALU_F64_NAN};

/* An unsigned key whose order is the numeric order of non-NaN values, with -0 below +0. */
ALU_INLINE uint64_t order_key(uint64_t x, uint64_t sign, uint64_t mask)
{
    return (x & sign) ? ~x & mask : x | sign;
}

ALU_INLINE uint64_t float_flush(uint64_t x, const float_shape *s)
{
    return (x & s->inf) == 0 ? x & s->sign : x;
}

/* Float min/max of two values (bits of one element). Without .NaN a NaN operand loses to a
 * number and two NaNs give the canonical NaN; with .NaN any NaN gives the canonical NaN.
 * .xorsign.abs compares magnitudes and gives the result the xor of the operand signs. */
ALU_INLINE uint64_t float_minmax(uint64_t x, uint64_t y, const float_shape *s, int max,
                                 int ftz, int nan_mode, int xorsign)
{
    uint64_t mask = alu_width_mask(s->bits);
    x &= mask;
    y &= mask;
    if (ftz) {
        x = float_flush(x, s);
        y = float_flush(y, s);
    }
    uint64_t sign = (x ^ y) & s->sign;
    if (xorsign) {
        x &= ~s->sign;
        y &= ~s->sign;
    }
    int xn = (x & ~s->sign) > s->inf, yn = (y & ~s->sign) > s->inf;
    uint64_t kx = order_key(x, s->sign, mask), ky = order_key(y, s->sign, mask);
    uint64_t r = (max ? kx >= ky : kx <= ky) ? x : y;
    r = xn ? y : yn ? x : r;
    if ((xn && yn) || (nan_mode && (xn || yn)))
        return s->nan;
    return xorsign ? r | sign : r;
}

ALU_INLINE void float_minmax_lanes(const alu_args *a, const float_shape *s, int pair, int max,
                                   int ftz, int nan_mode, int xorsign, int three)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = three ? a->src[2] : a->src[1];
    ALU_FOR_LANES(l) {
        uint64_t r = float_minmax(s0[l], s1[l], s, max, ftz, nan_mode, xorsign);
        if (three)
            r = float_minmax(r, s2[l], s, max, ftz, nan_mode, 0);
        if (pair)
            r |= float_minmax(s0[l] >> 16, s1[l] >> 16, s, max, ftz, nan_mode, xorsign) << 16;
        a->dst[l] = r;
    }
}

/* Variants: [max][ftz][nan][xorsign] for f32; the other formats decode ftz/nan/xorsign per call
 * (they are rarer and the flags only select among straight-line expressions). */
#define F32_MINMAX_FN(name, max, ftz, nan, xs, three)                                         \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        float_minmax_lanes(a, &shape_f32, 0, max, ftz, nan, xs, three);                       \
    }

#define F32_MINMAX_SET(op, max)                                                               \
    F32_MINMAX_FN(op##_f32, max, 0, 0, 0, 0) F32_MINMAX_FN(op##_f32_ftz, max, 1, 0, 0, 0)     \
    F32_MINMAX_FN(op##_f32_nan, max, 0, 1, 0, 0) F32_MINMAX_FN(op##_f32_ftz_nan, max, 1, 1, 0, 0) \
    F32_MINMAX_FN(op##_f32_xs, max, 0, 0, 1, 0) F32_MINMAX_FN(op##_f32_ftz_xs, max, 1, 0, 1, 0) \
    F32_MINMAX_FN(op##_f32_nan_xs, max, 0, 1, 1, 0) F32_MINMAX_FN(op##_f32_ftz_nan_xs, max, 1, 1, 1, 0) \
    F32_MINMAX_FN(op##_f32_3, max, 0, 0, 0, 1) F32_MINMAX_FN(op##_f32_ftz_3, max, 1, 0, 0, 1) \
    F32_MINMAX_FN(op##_f32_nan_3, max, 0, 1, 0, 1) F32_MINMAX_FN(op##_f32_ftz_nan_3, max, 1, 1, 0, 1)

F32_MINMAX_SET(min, 0)
F32_MINMAX_SET(max, 1)

/* [max][three inputs][ftz][nan][xorsign] (three-input forms have no xorsign). */
#define F32_MINMAX_ROW(op)                                                                    \
    {{{{op##_f32, op##_f32_xs}, {op##_f32_nan, op##_f32_nan_xs}},                             \
      {{op##_f32_ftz, op##_f32_ftz_xs}, {op##_f32_ftz_nan, op##_f32_ftz_nan_xs}}},            \
     {{{op##_f32_3, NULL}, {op##_f32_nan_3, NULL}},                                           \
      {{op##_f32_ftz_3, NULL}, {op##_f32_ftz_nan_3, NULL}}}}
static const alu_fn f32_minmax_table[2][2][2][2][2] = {F32_MINMAX_ROW(min), F32_MINMAX_ROW(max)};

ALU_INLINE void other_minmax_lanes(const ir_insn *in, const alu_args *a, const float_shape *s,
                                   int pair, int max)
{
    int ftz = (in->mods & IR_MOD_FTZ) != 0, nan = (in->mods & IR_MOD_NAN) != 0;
    int xs = (in->mods & IR_MOD_XORSIGN_ABS) != 0;
    float_minmax_lanes(a, s, pair, max, ftz, nan, xs, 0);
}

#define OTHER_MINMAX_FNS(name, shape, pair)                                                   \
    static void min_##name(const ir_insn *in, const alu_args *a) { other_minmax_lanes(in, a, shape, pair, 0); } \
    static void max_##name(const ir_insn *in, const alu_args *a) { other_minmax_lanes(in, a, shape, pair, 1); }

OTHER_MINMAX_FNS(f64, &shape_f64, 0)
OTHER_MINMAX_FNS(f16, &shape_f16, 0)
OTHER_MINMAX_FNS(f16x2, &shape_f16, 1)
OTHER_MINMAX_FNS(bf16, &shape_bf16, 0)
OTHER_MINMAX_FNS(bf16x2, &shape_bf16, 1)

/* ---- lookup ---- */

static int int_class(ir_type t, int force_unsigned)
{
    unsigned bits = ir_type_bits(t);
    int w = bits == 16 ? 0 : bits == 32 ? 1 : bits == 64 ? 2 : -1;
    if (w < 0 || ir_type_is_float(t) || t == IR_T_PRED)
        return -1;
    return (ir_type_is_signed(t) && !force_unsigned) ? CC_S16 + w : CC_U16 + w;
}

static alu_fn compare_lookup(const ir_insn *in, ir_type t)
{
    static const alu_fn setp_fns[CC_COUNT] = {setp_u16, setp_u32, setp_u64, setp_s16, setp_s32,
                                              setp_s64, setp_f32, setp_f32_ftz, setp_f64,
                                              setp_f16, setp_f16_ftz, setp_bf16};
    static const alu_fn set_fns[CC_COUNT] = {set_u16, set_u32, set_u64, set_s16, set_s32,
                                             set_s64, set_f32, set_f32_ftz, set_f64,
                                             set_f16, set_f16_ftz, set_bf16};
    int setp = in->op == IR_SETP, ftz = (in->mods & IR_MOD_FTZ) != 0;
    int c = in->cmp;
    if (c == IR_CMP_NONE || c > IR_CMP_NAN || in->boolop > IR_BOOL_XOR)
        return NULL;
    int unordered_op = c >= IR_CMP_EQU, unsigned_op = c >= IR_CMP_LO && c <= IR_CMP_HS;
    if (ir_type_is_float(t)) {
        if (unsigned_op)
            return NULL;
        switch (t) {
        case IR_T_F32: return (setp ? setp_fns : set_fns)[ftz ? CC_F32_FTZ : CC_F32];
        case IR_T_F64: return ftz ? NULL : (setp ? setp_fns : set_fns)[CC_F64];
        case IR_T_F16: return (setp ? setp_fns : set_fns)[ftz ? CC_F16_FTZ : CC_F16];
        case IR_T_BF16: return ftz ? NULL : (setp ? setp_fns : set_fns)[CC_BF16];
        case IR_T_F16X2: return setp ? (ftz ? setp_f16x2_ftz : setp_f16x2) : (ftz ? set_f16x2_ftz : set_f16x2);
        case IR_T_BF16X2: return ftz ? NULL : setp ? setp_bf16x2 : set_bf16x2;
        default: return NULL;
        }
    }
    int cls = int_class(t, unsigned_op);
    if (cls < 0 || unordered_op || ftz)
        return NULL;
    return (setp ? setp_fns : set_fns)[cls];
}

static alu_fn select_lookup(const ir_insn *in)
{
    static const alu_fn selp_fns[3] = {selp_16, selp_32, selp_64};
    static const alu_fn slct_s[3] = {slct_s_16, slct_s_32, slct_s_64};
    static const alu_fn slct_f[3] = {slct_f_16, slct_f_32, slct_f_64};
    static const alu_fn slct_fz[3] = {slct_fz_16, slct_fz_32, slct_fz_64};
    unsigned bits = ir_type_bits((ir_type)in->type);
    int w = bits == 16 ? 0 : bits == 32 ? 1 : bits == 64 ? 2 : -1;
    if (w < 0 || in->type == IR_T_F16X2 || in->type == IR_T_BF16X2)
        return NULL;
    if (in->op == IR_SELP)
        return selp_fns[w];
    if (in->type2 == IR_T_S32)
        return (in->mods & IR_MOD_FTZ) ? NULL : slct_s[w];
    if (in->type2 == IR_T_F32)
        return (in->mods & IR_MOD_FTZ) ? slct_fz[w] : slct_f[w];
    return NULL;
}

static alu_fn minmax_lookup(const ir_insn *in)
{
    ir_type t = (ir_type)in->type;
    uint32_t mods = in->mods;
    int max = in->op == IR_MAX, ftz = (mods & IR_MOD_FTZ) != 0, nan = (mods & IR_MOD_NAN) != 0;
    int xs = (mods & IR_MOD_XORSIGN_ABS) != 0, relu = (mods & IR_MOD_RELU) != 0;
    int three = in->nsrc >= 3;
    if (t == IR_T_F32)
        return relu ? NULL : f32_minmax_table[max][three][ftz][nan][xs];
    if (t == IR_T_U16X2 || t == IR_T_S16X2) {
        if (three || (mods & ~IR_MOD_RELU) || (relu && t == IR_T_U16X2))
            return NULL;
        if (t == IR_T_U16X2)
            return max ? max_u16x2 : min_u16x2;
        return relu ? (max ? max_relu_s16x2 : min_relu_s16x2) : max ? max_s16x2 : min_s16x2;
    }
    if (three || relu)
        return (!three && t == IR_T_S32 && !(mods & ~IR_MOD_RELU)) ? (max ? max_relu_s32 : min_relu_s32)
                                                                  : NULL;
    switch (t) {
    case IR_T_F64: return (ftz || xs) ? NULL : max ? max_f64 : min_f64;
    case IR_T_F16: return max ? max_f16 : min_f16;
    case IR_T_F16X2: return max ? max_f16x2 : min_f16x2;
    case IR_T_BF16: return ftz ? NULL : max ? max_bf16 : min_bf16;
    case IR_T_BF16X2: return ftz ? NULL : max ? max_bf16x2 : min_bf16x2;
    default: break;
    }
    if (mods & (IR_MOD_FTZ | IR_MOD_NAN | IR_MOD_XORSIGN_ABS))
        return NULL;
#ifdef ALU_AVX2_VARIANTS
    if ((t == IR_T_U32 || t == IR_T_S32) && cpu_has_avx2())
        return t == IR_T_U32 ? (max ? max_u32_avx2 : min_u32_avx2)
                             : (max ? max_s32_avx2 : min_s32_avx2);
#endif
    switch (t) {
    case IR_T_U16: return max ? max_u16 : min_u16;
    case IR_T_U32: return max ? max_u32 : min_u32;
    case IR_T_U64: return max ? max_u64 : min_u64;
    case IR_T_S16: return max ? max_s16 : min_s16;
    case IR_T_S32: return max ? max_s32 : min_s32;
    case IR_T_S64: return max ? max_s64 : min_s64;
    default: return NULL;
    }
}

alu_fn alu_cmp_lookup(const ir_insn *in)
{
    switch (in->op) {
    case IR_SETP:
        return in->flag_in ? setp_x_lookup(in) : compare_lookup(in, (ir_type)in->type);
    case IR_SET: {
        ir_type d = (ir_type)in->type;
        /* the destination is u32/s32/b32/f32, or a half format matching the compared type */
        int half_dst = d == IR_T_F16 || d == IR_T_BF16 || d == IR_T_F16X2 || d == IR_T_BF16X2;
        if (!half_dst && d != IR_T_U32 && d != IR_T_S32 && d != IR_T_B32 && d != IR_T_F32)
            return NULL;
        if ((d == IR_T_F16X2 || d == IR_T_BF16X2) != (in->type2 == IR_T_F16X2 || in->type2 == IR_T_BF16X2))
            return NULL;
        return compare_lookup(in, (ir_type)in->type2);
    }
    case IR_SELP: case IR_SLCT:
        return select_lookup(in);
    case IR_TESTP:
        if (in->sub < IR_TESTP_FINITE || in->sub > IR_TESTP_SUBNORMAL)
            return NULL;
        if (in->type == IR_T_F32 || in->type == IR_T_F64)
            return testp_table[in->sub - 1][in->type == IR_T_F64];
        return NULL;
    case IR_MIN: case IR_MAX:
        return minmax_lookup(in);
    default:
        return NULL;
    }
}
