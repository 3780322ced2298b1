/* Half-precision semantics: f16, f16x2, bf16 and bf16x2 add/sub/mul/fma, neg/abs and the
 * ex2/tanh approximations (PTX ISA 9.1 §9.7.4), plus the exact rounding of a double to a narrow
 * float format that cvt and the public half conversion helpers share.
 *
 * Exactness: f16 and bf16 values are exact in double, so are their products (at most 22 and 16
 * significant bits). A sum can need more than 53 bits (bf16 spans 2^-133..2^127), so sums are
 * formed rounded-to-odd in double (alu_sum_round_odd), after which one rounding to the 11- or
 * 8-bit format is the correct rounding of the exact result. min/max and comparisons live in
 * alu_cmp.c; conversions in alu_cvt.c. */
#include "exec/alu_internal.h"

double alu_f16_to_f64(uint16_t h)
{
    uint32_t exp = (h >> 10) & 0x1Fu, frac = h & 0x3FFu;
    double v;
    if (exp == 0)
        v = (double)frac * 0x1p-24; /* subnormal (or zero): frac * 2^-24 exactly */
    else if (exp == 0x1F)
        v = frac ? NAN : INFINITY;
    else /* rebias the exponent from 15 to 1023 and widen the fraction from 10 to 52 bits */
        v = alu_f64_from_bits(((uint64_t)(exp - 15 + 1023) << 52) | ((uint64_t)frac << 42));
    return (h & 0x8000u) ? -v : v;
}

double alu_sum_round_odd(double x, double y)
{
    double s = x + y;
    if (!isfinite(s))
        return s;
    /* Knuth's TwoSum: err is exactly (x + y) - s when s is the round-to-nearest sum. */
    double bb = s - x;
    double err = (x - (s - bb)) + (y - bb);
    if (err == 0.0)
        return s;
    uint64_t bits = alu_f64_to_bits(s);
    if ((err < 0.0) != (s < 0.0))
        bits -= 1; /* s was rounded away from zero: truncate one ulp toward zero */
    return alu_f64_from_bits(bits | 1u);
}

/* Whether dropping the low bits (round bit r, sticky bit s) of a value with kept part `kept`
 * rounds its magnitude up under `rnd`. */
static int round_increment(int rnd, uint32_t sign, uint64_t kept, int r, int s)
{
    switch (rnd) {
    case IR_RND_RZ: return 0;
    case IR_RND_RM: return sign && (r || s);
    case IR_RND_RP: return !sign && (r || s);
    case IR_RND_RNA: return r;
    default: return r && (s || (kept & 1u));
    }
}

/* The value of an overflowing result under `rnd`: infinity or the largest finite value. */
static uint32_t overflow_result(int rnd, uint32_t sign, uint32_t inf_bits, int satfinite)
{
    int to_inf;
    switch (rnd) {
    case IR_RND_RZ: to_inf = 0; break;
    case IR_RND_RM: to_inf = sign != 0; break;
    case IR_RND_RP: to_inf = sign == 0; break;
    default: to_inf = 1; break;
    }
    return (to_inf && !satfinite) ? inf_bits : inf_bits - 1;
}

uint32_t alu_round_to_format(double x, unsigned mant_bits, unsigned exp_bits, int rnd,
                             int satfinite)
{
    uint64_t b = alu_f64_to_bits(x);
    uint32_t sign = (uint32_t)(b >> 63);
    uint32_t sign_bit = sign << (exp_bits + mant_bits);
    uint32_t inf_bits = ((1u << exp_bits) - 1u) << mant_bits;
    if (isnan(x))
        return (1u << (exp_bits + mant_bits)) - 1u;
    uint32_t exp_field = (uint32_t)(b >> 52) & 0x7FFu;
    uint64_t m = b & ((UINT64_C(1) << 52) - 1);
    if (exp_field == 0x7FF)
        return sign_bit | (satfinite ? inf_bits - 1u : inf_bits);
    if (exp_field == 0 && m == 0)
        return sign_bit;
    int e = -1022; /* x = m * 2^(e - 52) */
    if (exp_field != 0) {
        e = (int)exp_field - 1023;
        m |= UINT64_C(1) << 52;
    }
    int bias = (1 << (exp_bits - 1)) - 1, emin = 1 - bias;
    int q = (e >= emin ? e : emin) - (int)mant_bits; /* exponent of the target's last place */
    int shift = q - (e - 52);                        /* >= 1 because mant_bits <= 51 */
    uint64_t kept = 0;
    int r = 0, s = 1;
    if (shift < 64) {
        uint64_t half = UINT64_C(1) << (shift - 1);
        kept = m >> shift;
        r = (m & half) != 0;
        s = (m & (half - 1)) != 0;
    }
    kept += (uint64_t)round_increment(rnd, sign, kept, r, s);
    if (kept == (UINT64_C(1) << (mant_bits + 1))) {
        kept >>= 1;
        q++;
    }
    if (kept >= (UINT64_C(1) << mant_bits) && q + (int)mant_bits + bias >= (1 << exp_bits) - 1)
        return sign_bit | overflow_result(rnd, sign, inf_bits, satfinite);
    /* Normal: biased exponent q + mant_bits + bias over the kept significand (whose leading 1
     * adds one to the exponent field); subnormal: q + mant_bits + bias - 1 == 0. */
    uint32_t exp_part = kept >= (UINT64_C(1) << mant_bits)
                            ? (uint32_t)(q + (int)mant_bits + bias - 1) << mant_bits
                            : 0u;
    return sign_bit | (exp_part + (uint32_t)kept);
}

/* ---- public conversion helpers (alu.h) ---- */

float alu_f16_to_f32(uint16_t h)
{
    double d = alu_f16_to_f64(h);
    return isnan(d) ? alu_f32_from_bits(ALU_F32_NAN) : (float)d;
}

uint16_t alu_f32_to_f16_rn(float f)
{
    return alu_f64_to_f16((double)f, IR_RND_RN);
}

float alu_bf16_to_f32(uint16_t h)
{
    return (h & 0x7FFFu) > 0x7F80u ? alu_f32_from_bits(ALU_F32_NAN)
                                   : alu_f32_from_bits((uint32_t)h << 16);
}

uint16_t alu_f32_to_bf16_rn(float f)
{
    return alu_f64_to_bf16((double)f, IR_RND_RN);
}

/* ---- element arithmetic ---- */

enum half_op { HALF_ADD, HALF_SUB, HALF_MUL, HALF_FMA };

/* Modifiers of one half instruction, decoded once per call. */
typedef struct half_mods {
    int rnd, ftz, sat, relu;
} half_mods;

static half_mods half_mods_of(const ir_insn *in)
{
    half_mods m = {in->rnd, (in->mods & IR_MOD_FTZ) != 0, (in->mods & IR_MOD_SAT) != 0,
                   (in->mods & IR_MOD_RELU) != 0};
    return m;
}

ALU_INLINE double half_decode(uint16_t h, int bf, int ftz)
{
    if (ftz)
        h = alu_f16_flush(h); /* .ftz exists for f16 only; bf16 callers pass 0 */
    return bf ? alu_bf16_to_f64(h) : alu_f16_to_f64(h);
}

/* Applies .ftz, .sat (clamp to [0, 1], NaN to +0) and .relu (negative to +0, NaN stays the
 * canonical NaN) to a rounded result. */
ALU_INLINE uint16_t half_finish(uint16_t h, int bf, const half_mods *m)
{
    uint16_t one = bf ? ALU_BF16_ONE : ALU_F16_ONE;
    uint16_t inf = bf ? 0x7F80u : 0x7C00u;
    int is_nan = (h & 0x7FFFu) > inf;
    if (m->ftz && !bf)
        h = alu_f16_flush(h);
    if (m->sat) {
        if (is_nan || (h & 0x8000u))
            return 0;
        return h > one ? one : h;
    }
    if (m->relu && !is_nan && (h & 0x8000u))
        return 0;
    return h;
}

ALU_INLINE uint16_t half_arith(uint16_t a, uint16_t b, uint16_t c, enum half_op op, int bf,
                              const half_mods *m)
{
    double x = half_decode(a, bf, m->ftz), y = half_decode(b, bf, m->ftz), r;
    double p = x, q = y; /* the two addends of a sum */
    switch (op) {
    case HALF_ADD: break;
    case HALF_SUB: q = -y; break;
    case HALF_MUL: break;
    default:
        p = x * y; /* exact */
        q = half_decode(c, bf, m->ftz);
        break;
    }
    if (op == HALF_MUL) {
        r = x * y; /* exact */
    } else {
        r = alu_sum_round_odd(p, q);
        /* An exact zero sum is -0 under .rm unless both addends are +0 (IEEE 754 6.3); the
         * host computed it at round-to-nearest, which gives +0. */
        if (r == 0.0 && m->rnd == IR_RND_RM && !(p == 0.0 && q == 0.0 && !signbit(p) && !signbit(q)))
            r = -0.0;
    }
    uint16_t h = bf ? alu_f64_to_bf16(r, m->rnd) : alu_f64_to_f16(r, m->rnd);
    return half_finish(h, bf, m);
}

/* One kernel per (op, format): x2 formats apply the element operation to both halves. */
ALU_INLINE void half_arith_lanes(const ir_insn *in, const alu_args *a, enum half_op op, int bf,
                                 int pair)
{
    half_mods m = half_mods_of(in);
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = op == HALF_FMA ? a->src[2] : a->src[0];
    ALU_FOR_LANES(l) {
        uint64_t r = half_arith((uint16_t)s0[l], (uint16_t)s1[l], (uint16_t)s2[l], op, bf, &m);
        if (pair)
            r |= (uint64_t)half_arith((uint16_t)(s0[l] >> 16), (uint16_t)(s1[l] >> 16),
                                      (uint16_t)(s2[l] >> 16), op, bf, &m)
                 << 16;
        a->dst[l] = r;
    }
}

#define HALF_ARITH_FN(name, op, bf, pair)                                                     \
    static void name(const ir_insn *in, const alu_args *a) { half_arith_lanes(in, a, op, bf, pair); }

HALF_ARITH_FN(f16_add, HALF_ADD, 0, 0)
HALF_ARITH_FN(f16_sub, HALF_SUB, 0, 0)
HALF_ARITH_FN(f16_mul, HALF_MUL, 0, 0)
HALF_ARITH_FN(f16_fma, HALF_FMA, 0, 0)
HALF_ARITH_FN(f16x2_add, HALF_ADD, 0, 1)
HALF_ARITH_FN(f16x2_sub, HALF_SUB, 0, 1)
HALF_ARITH_FN(f16x2_mul, HALF_MUL, 0, 1)
HALF_ARITH_FN(f16x2_fma, HALF_FMA, 0, 1)
HALF_ARITH_FN(bf16_add, HALF_ADD, 1, 0)
HALF_ARITH_FN(bf16_sub, HALF_SUB, 1, 0)
HALF_ARITH_FN(bf16_mul, HALF_MUL, 1, 0)
HALF_ARITH_FN(bf16_fma, HALF_FMA, 1, 0)
HALF_ARITH_FN(bf16x2_add, HALF_ADD, 1, 1)
HALF_ARITH_FN(bf16x2_sub, HALF_SUB, 1, 1)
HALF_ARITH_FN(bf16x2_mul, HALF_MUL, 1, 1)
HALF_ARITH_FN(bf16x2_fma, HALF_FMA, 1, 1)

/* ---- neg / abs: sign-bit operations (NaN payloads pass through, as for f32) ---- */

ALU_INLINE void half_sign_lanes(const alu_args *a, uint64_t sign_mask, int negate, int ftz)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) {
        uint64_t v = s0[l];
        if (ftz) /* f16 subnormal halves become zeros of the same sign */
            v = alu_f16_flush((uint16_t)v) | ((uint64_t)alu_f16_flush((uint16_t)(v >> 16)) << 16);
        v = negate ? v ^ sign_mask : v & ~sign_mask;
        a->dst[l] = v & (sign_mask == 0x8000u ? 0xFFFFu : 0xFFFFFFFFu);
    }
}

#define HALF_SIGN_FN(name, mask, negate, ftz)                                                 \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        half_sign_lanes(a, mask, negate, ftz);                                                \
    }

HALF_SIGN_FN(half_neg, 0x8000u, 1, 0)
HALF_SIGN_FN(half_abs, 0x8000u, 0, 0)
HALF_SIGN_FN(half_neg_ftz, 0x8000u, 1, 1)
HALF_SIGN_FN(half_abs_ftz, 0x8000u, 0, 1)
HALF_SIGN_FN(half2_neg, 0x80008000u, 1, 0)
HALF_SIGN_FN(half2_abs, 0x80008000u, 0, 0)
HALF_SIGN_FN(half2_neg_ftz, 0x80008000u, 1, 1)
HALF_SIGN_FN(half2_abs_ftz, 0x80008000u, 0, 1)

/* ---- ex2.approx / tanh.approx on half formats ----
 * Computed in double with libm and rounded once to the format: the error is at most half an ulp
 * of the format plus libm's (far smaller) error, inside PTX's bounds. ex2.approx.ftz.bf16 flushes
 * subnormal inputs and results; the f16 forms handle subnormals. */

ALU_INLINE uint16_t half_unary(uint16_t h, int bf, int is_tanh, int ftz)
{
    double x = bf ? alu_bf16_to_f64(ftz ? (uint16_t)((h & 0x7F80u) ? h : (h & 0x8000u)) : h)
                  : alu_f16_to_f64(h);
    double r = is_tanh ? tanh(x) : exp2(x);
    uint16_t out = bf ? alu_f64_to_bf16(r, IR_RND_RN) : alu_f64_to_f16(r, IR_RND_RN);
    if (ftz && bf && (out & 0x7F80u) == 0)
        out &= 0x8000u;
    return out;
}

ALU_INLINE void half_unary_lanes(const ir_insn *in, const alu_args *a, int bf, int pair,
                                 int is_tanh)
{
    int ftz = (in->mods & IR_MOD_FTZ) != 0;
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) {
        uint64_t r = half_unary((uint16_t)s0[l], bf, is_tanh, ftz);
        if (pair)
            r |= (uint64_t)half_unary((uint16_t)(s0[l] >> 16), bf, is_tanh, ftz) << 16;
        a->dst[l] = r;
    }
}

#define HALF_UNARY_FN(name, bf, pair, is_tanh)                                                \
    static void name(const ir_insn *in, const alu_args *a) { half_unary_lanes(in, a, bf, pair, is_tanh); }

HALF_UNARY_FN(f16_ex2, 0, 0, 0)
HALF_UNARY_FN(f16x2_ex2, 0, 1, 0)
HALF_UNARY_FN(bf16_ex2, 1, 0, 0)
HALF_UNARY_FN(bf16x2_ex2, 1, 1, 0)
HALF_UNARY_FN(f16_tanh, 0, 0, 1)
HALF_UNARY_FN(f16x2_tanh, 0, 1, 1)
HALF_UNARY_FN(bf16_tanh, 1, 0, 1)
HALF_UNARY_FN(bf16x2_tanh, 1, 1, 1)

/* Table of the arithmetic kernels by format (f16, f16x2, bf16, bf16x2) and operation. */
static const alu_fn half_arith_table[4][4] = {
    {f16_add, f16_sub, f16_mul, f16_fma},
    {f16x2_add, f16x2_sub, f16x2_mul, f16x2_fma},
    {bf16_add, bf16_sub, bf16_mul, bf16_fma},
    {bf16x2_add, bf16x2_sub, bf16x2_mul, bf16x2_fma},
};

static int half_format_index(ir_type t)
{
    switch (t) {
    case IR_T_F16: return 0;
    case IR_T_F16X2: return 1;
    case IR_T_BF16: return 2;
    case IR_T_BF16X2: return 3;
    default: return -1;
    }
}

/* Rounding modifiers the element arithmetic accepts: PTX spells .rn (or nothing); the directed
 * modes are implemented too since the rounding routine supports them. */
static int half_rnd_ok(int rnd)
{
    return rnd == IR_RND_NONE || rnd == IR_RND_RN || rnd == IR_RND_RZ || rnd == IR_RND_RM ||
           rnd == IR_RND_RP;
}

static alu_fn half_sign_lookup(const ir_insn *in, int pair)
{
    int ftz = (in->mods & IR_MOD_FTZ) != 0;
    if (in->op == IR_NEG)
        return pair ? (ftz ? half2_neg_ftz : half2_neg) : (ftz ? half_neg_ftz : half_neg);
    return pair ? (ftz ? half2_abs_ftz : half2_abs) : (ftz ? half_abs_ftz : half_abs);
}

alu_fn alu_half_lookup(const ir_insn *in)
{
    int f = half_format_index((ir_type)in->type);
    if (f < 0)
        return NULL;
    int bf = f >= 2, pair = f == 1 || f == 3;
    /* .ftz is an f16 modifier; .relu belongs to fma (and min/max, in alu_cmp.c); .sat to f16. */
    if (bf && (in->mods & (IR_MOD_FTZ | IR_MOD_SAT)) && in->op != IR_EX2)
        return NULL;
    switch (in->op) {
    case IR_ADD: case IR_SUB: case IR_MUL: case IR_FMA: case IR_MAD: {
        int op = in->op == IR_ADD ? 0 : in->op == IR_SUB ? 1 : in->op == IR_MUL ? 2 : 3;
        if (!half_rnd_ok(in->rnd) || (in->mods & (IR_MOD_CC | IR_MOD_CARRY_IN)))
            return NULL;
        if ((in->mods & IR_MOD_RELU) && (op != 3 || (in->mods & IR_MOD_SAT)))
            return NULL;
        return half_arith_table[f][op];
    }
    case IR_NEG: case IR_ABS:
        return bf && (in->mods & IR_MOD_FTZ) ? NULL : half_sign_lookup(in, pair);
    case IR_EX2: {
        static const alu_fn ex2[4] = {f16_ex2, f16x2_ex2, bf16_ex2, bf16x2_ex2};
        return (in->mods & IR_MOD_APPROX) ? ex2[f] : NULL;
    }
    case IR_TANH: {
        static const alu_fn th[4] = {f16_tanh, f16x2_tanh, bf16_tanh, bf16x2_tanh};
        return (in->mods & IR_MOD_APPROX) && !(in->mods & IR_MOD_FTZ) ? th[f] : NULL;
    }
    default:
        return NULL;
    }
}
