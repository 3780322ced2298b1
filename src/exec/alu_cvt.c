/* cvt (PTX ISA 9.1 §9.7.9.21): conversions between every pair of u8..u64, s8..s64, f16, bf16,
 * f32 and f64, tf32 results, and the f16x2/bf16x2 packing forms from two f32 values.
 *
 * Model: a float source is decoded to double (exact for every source format; .ftz flushes an f32
 * source); an integer source to a 64-bit value with its sign. Float results are produced by the one
 * exact rounding routine alu_round_to_format (f32, f16, bf16, tf32) or, for f64, by rounding a
 * 64-bit integer to 53 bits here; so every rounding modifier is honoured without touching the host
 * rounding mode. Integer sources wider than 53 bits reach narrow formats through a round-to-odd
 * double, which keeps the final rounding single. Rules (also in docs/semantics.md):
 *   float -> int: needs .rni/.rzi/.rmi/.rpi; saturates to the destination range; NaN -> 0.
 *   int -> float: needs .rn/.rz/.rm/.rp.  float -> narrower float: needs .rn/.rz/.rm/.rp (.rna
 *   for tf32). float -> same or wider float: no modifier, or .rni/... to round to an integer value.
 *   int -> int: truncates or extends by the source type; .sat clamps to the destination range.
 *   .sat on a float destination clamps to [0, 1] (NaN -> +0); .relu sends negatives to +0;
 *   .satfinite turns infinities into the largest finite value. NaN results are canonical. */
#include "exec/alu_internal.h"

enum cvt_kind { CK_INT, CK_F16, CK_BF16, CK_TF32, CK_F32, CK_F64, CK_PAIR, CK_NONE };

static enum cvt_kind cvt_kind_of(ir_type t)
{
    switch (t) {
    case IR_T_F16: return CK_F16;
    case IR_T_BF16: return CK_BF16;
    case IR_T_TF32: return CK_TF32;
    case IR_T_F32: return CK_F32;
    case IR_T_F64: return CK_F64;
    case IR_T_F16X2: case IR_T_BF16X2: return CK_PAIR;
    case IR_T_NONE: case IR_T_PRED: case IR_T_B128: return CK_NONE;
    default: return t < IR_T_COUNT ? CK_INT : CK_NONE;
    }
}

/* Per-call description of one cvt (decoded from the instruction at the start of each call: a
 * handful of loads, no per-lane decoding). */
typedef struct cvt_desc {
    enum cvt_kind src, dst;
    unsigned src_bits, dst_bits;
    int src_signed, dst_signed;
    int rnd, ftz, sat, relu, satfinite;
    double int_limit; /* float -> int: 2^(bits-1) for signed, 2^bits for unsigned destinations */
} cvt_desc;

static cvt_desc cvt_describe(const ir_insn *in)
{
    cvt_desc d;
    d.src = cvt_kind_of((ir_type)in->type2);
    d.dst = cvt_kind_of((ir_type)in->type);
    d.src_bits = ir_type_bits((ir_type)in->type2);
    d.dst_bits = ir_type_bits((ir_type)in->type);
    d.src_signed = ir_type_is_signed((ir_type)in->type2);
    d.dst_signed = ir_type_is_signed((ir_type)in->type);
    d.rnd = in->rnd;
    d.ftz = (in->mods & IR_MOD_FTZ) != 0;
    d.sat = (in->mods & IR_MOD_SAT) != 0;
    d.relu = (in->mods & IR_MOD_RELU) != 0;
    d.satfinite = (in->mods & IR_MOD_SATFINITE) != 0;
    d.int_limit = ldexp(1.0, (int)d.dst_bits - (d.dst_signed ? 1 : 0)); /* exact */
    return d;
}

/* ---- sources ---- */

static double decode_float(uint64_t bits, enum cvt_kind k, int ftz)
{
    switch (k) {
    case CK_F16: return alu_f16_to_f64((uint16_t)bits);
    case CK_BF16: return alu_bf16_to_f64((uint16_t)bits);
    case CK_F32: return (double)alu_f32_operand(bits, ftz);
    default: return alu_f64_from_bits(bits);
    }
}

/* Rounds the magnitude of a 64-bit integer to a double: under `rnd`, or to odd when `odd`. */
static double int_to_double(uint64_t mag, int neg, int rnd, int odd)
{
    if (mag < (UINT64_C(1) << 53))
        return neg ? -(double)mag : (double)mag;
    unsigned shift = 11u - (unsigned)__builtin_clzll(mag); /* keep 53 significant bits */
    uint64_t kept = mag >> shift, rest = mag & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    int r = (rest & half) != 0, s = (rest & (half - 1)) != 0;
    if (odd) {
        kept |= (uint64_t)(r || s);
    } else {
        int up;
        switch (rnd) {
        case IR_RND_RZ: up = 0; break;
        case IR_RND_RM: up = neg && (r || s); break;
        case IR_RND_RP: up = !neg && (r || s); break;
        default: up = r && (s || (kept & 1u)); break;
        }
        kept += (uint64_t)up; /* may reach 2^53: still exact as a double */
    }
    double v = ldexp((double)kept, (int)shift);
    return neg ? -v : v;
}

/* ---- destinations ---- */

static uint64_t float_dst_nan(enum cvt_kind k)
{
    switch (k) {
    case CK_F16: return ALU_F16_NAN;
    case CK_BF16: return ALU_BF16_NAN;
    case CK_F64: return ALU_F64_NAN;
    case CK_TF32: return ALU_F32_NAN & ~UINT64_C(0x1FFF); /* the low 13 bits of a tf32 are 0 */
    default: return ALU_F32_NAN;
    }
}

/* Encodes the value x (exact, or rounded to odd) in float kind k. */
static uint64_t encode_float(double x, enum cvt_kind k, int rnd, int satfinite)
{
    switch (k) {
    case CK_F16: return alu_round_to_format(x, ALU_F16_MANT, ALU_F16_EXP, rnd, satfinite);
    case CK_BF16: return alu_round_to_format(x, ALU_BF16_MANT, ALU_BF16_EXP, rnd, satfinite);
    case CK_TF32: /* tf32 lives in an f32 register with the low 13 fraction bits zero */
        return (uint64_t)alu_round_to_format(x, ALU_TF32_MANT, ALU_TF32_EXP, rnd, satfinite) << 13;
    case CK_F32: return alu_round_to_format(x, ALU_F32_MANT, ALU_F32_EXP, rnd, satfinite);
    default: return isnan(x) ? ALU_F64_NAN : alu_f64_to_bits(x);
    }
}

/* .relu / .sat / .ftz on a float value before encoding (all exact operations). */
static double adjust_float(double x, const cvt_desc *d)
{
    if (d->relu && !isnan(x) && x < 0.0)
        x = 0.0;
    if (d->sat)
        x = isnan(x) || x <= 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    return x;
}

static uint64_t finish_float(uint64_t bits, const cvt_desc *d)
{
    if (d->ftz && (d->dst == CK_F32 || d->dst == CK_TF32))
        bits = alu_f32_flush((uint32_t)bits);
    return bits;
}

/* Rounds x to an integral value under an integer rounding modifier (exact in double). */
static double round_integral(double x, int rnd)
{
    switch (rnd) {
    case IR_RND_RZI: return trunc(x);
    case IR_RND_RMI: return floor(x);
    case IR_RND_RPI: return ceil(x);
    default: return nearbyint(x); /* the host is at round-to-nearest-even here */
    }
}

static int is_int_rnd(int rnd)
{
    return rnd >= IR_RND_RNI && rnd <= IR_RND_RPI;
}

/* ---- the conversion of one lane ---- */

/* An integer value of `bits` bits (signed or not) clamped to the destination range. */
static uint64_t int_saturate(uint64_t v, int src_signed, const cvt_desc *d)
{
    uint64_t hi = d->dst_signed ? alu_width_mask(d->dst_bits - 1) : alu_width_mask(d->dst_bits);
    int64_t lo = d->dst_signed ? -(int64_t)(hi) - 1 : 0;
    if (src_signed && (int64_t)v < 0)
        return (uint64_t)((int64_t)v < lo ? lo : (int64_t)v);
    return v > hi ? hi : v;
}

static uint64_t cvt_from_int(uint64_t raw, const cvt_desc *d)
{
    uint64_t v = d->src_signed ? (uint64_t)alu_sext(raw, d->src_bits)
                               : raw & alu_width_mask(d->src_bits);
    if (d->dst == CK_INT) {
        if (d->sat)
            v = int_saturate(v, d->src_signed, d);
        return v & alu_width_mask(d->dst_bits);
    }
    int neg = d->src_signed && (int64_t)v < 0;
    uint64_t mag = neg ? 0 - v : v;
    double x = int_to_double(mag, neg, d->rnd, d->dst != CK_F64);
    return finish_float(encode_float(adjust_float(x, d), d->dst, d->rnd, d->satfinite), d);
}

static uint64_t float_to_int(double x, const cvt_desc *d)
{
    if (isnan(x))
        return 0;
    x = round_integral(x, d->rnd);
    uint64_t mask = alu_width_mask(d->dst_bits);
    if (d->dst_signed) {
        double limit = d->int_limit;
        if (x >= limit)
            return mask >> 1;
        if (x < -limit)
            return (mask >> 1) + 1; /* the most negative value, zero-extended */
        return (uint64_t)(int64_t)x & mask;
    }
    if (x <= 0.0)
        return 0;
    if (x >= d->int_limit)
        return mask;
    return (uint64_t)x;
}

static uint64_t cvt_from_float(uint64_t raw, const cvt_desc *d)
{
    double x = decode_float(raw, d->src, d->ftz);
    if (d->dst == CK_INT)
        return float_to_int(x, d);
    if (isnan(x) && !d->sat) /* .sat turns NaN into +0 below */
        return float_dst_nan(d->dst);
    int rnd = d->rnd;
    if (is_int_rnd(rnd)) {
        x = round_integral(x, rnd);
        rnd = IR_RND_RN; /* an integral value narrower formats cannot hold rounds to nearest */
    }
    return finish_float(encode_float(adjust_float(x, d), d->dst, rnd, d->satfinite), d);
}

static void cvt_int_src(const ir_insn *in, const alu_args *a)
{
    cvt_desc d = cvt_describe(in);
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = cvt_from_int(s0[l], &d);
}

static void cvt_float_src(const ir_insn *in, const alu_args *a)
{
    cvt_desc d = cvt_describe(in);
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = cvt_from_float(s0[l], &d);
}

/* cvt.frnd{.relu}{.satfinite}.f16x2.f32 / .bf16x2.f32 d, a, b: a goes to the upper half. */
static void cvt_pack(const ir_insn *in, const alu_args *a)
{
    cvt_desc d = cvt_describe(in);
    d.dst = in->type == IR_T_F16X2 ? CK_F16 : CK_BF16;
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    ALU_FOR_LANES(l) {
        uint64_t hi = cvt_from_float(s0[l], &d), lo = cvt_from_float(s1[l], &d);
        a->dst[l] = (hi << 16) | lo;
    }
}

/* ---- fast paths for the conversions compilers emit most ---- */

/* int -> int without .sat: extend by the source type, then truncate. */
ALU_INLINE void int_resize_lanes(const alu_args *a, unsigned src_bits, int src_signed,
                                 unsigned dst_bits)
{
    const uint64_t *s0 = a->src[0];
    uint64_t m = alu_width_mask(dst_bits);
    ALU_FOR_LANES(l) {
        uint64_t v = src_signed ? (uint64_t)alu_sext(s0[l], src_bits)
                                : s0[l] & alu_width_mask(src_bits);
        a->dst[l] = v & m;
    }
}

static void cvt_u32_to_64(const ir_insn *in, const alu_args *a) { (void)in; int_resize_lanes(a, 32, 0, 64); }
static void cvt_s32_to_64(const ir_insn *in, const alu_args *a) { (void)in; int_resize_lanes(a, 32, 1, 64); }
static void cvt_64_to_32(const ir_insn *in, const alu_args *a) { (void)in; int_resize_lanes(a, 64, 0, 32); }

static void cvt_f32_to_f64(const ir_insn *in, const alu_args *a)
{
    int ftz = (in->mods & IR_MOD_FTZ) != 0;
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) {
        double x = (double)alu_f32_operand(s0[l], ftz);
        a->dst[l] = isnan(x) ? ALU_F64_NAN : alu_f64_to_bits(x);
    }
}

/* s32/u32 -> f32 at .rn (the host's mode: one correct rounding) and s32/u32 -> f64 (exact under
 * every modifier). */
ALU_INLINE void int32_to_float_lanes(const alu_args *a, int is_signed, int f64)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) {
        double x = is_signed ? (double)(int32_t)(uint32_t)s0[l] : (double)(uint32_t)s0[l];
        a->dst[l] = f64 ? alu_f64_to_bits(x) : alu_f32_to_bits((float)x);
    }
}

static void cvt_rn_f32_s32(const ir_insn *in, const alu_args *a) { (void)in; int32_to_float_lanes(a, 1, 0); }
static void cvt_rn_f32_u32(const ir_insn *in, const alu_args *a) { (void)in; int32_to_float_lanes(a, 0, 0); }
static void cvt_f64_s32(const ir_insn *in, const alu_args *a) { (void)in; int32_to_float_lanes(a, 1, 1); }
static void cvt_f64_u32(const ir_insn *in, const alu_args *a) { (void)in; int32_to_float_lanes(a, 0, 1); }

/* ---- lookup ---- */

static int frnd_ok(int rnd, int allow_rna)
{
    return rnd == IR_RND_RN || rnd == IR_RND_RZ || rnd == IR_RND_RM || rnd == IR_RND_RP ||
           (allow_rna && rnd == IR_RND_RNA);
}

/* Whether every value of float kind s is exactly representable in float kind t. */
static int float_widens(enum cvt_kind s, enum cvt_kind t)
{
    if (s == t)
        return 1;
    if (t == CK_F64)
        return 1;
    if (t == CK_F32)
        return s == CK_F16 || s == CK_BF16;
    return 0;
}

static alu_fn cvt_int_lookup(const ir_insn *in, const cvt_desc *d)
{
    if (d->dst == CK_INT) {
        if (d->rnd != IR_RND_NONE || d->ftz || d->relu || d->satfinite)
            return NULL;
        if (!d->sat && d->dst_bits == 64 && d->src_bits == 32)
            return d->src_signed ? cvt_s32_to_64 : cvt_u32_to_64;
        if (!d->sat && d->dst_bits == 32 && d->src_bits == 64)
            return cvt_64_to_32;
        return cvt_int_src;
    }
    (void)in;
    if (!frnd_ok(d->rnd, 0) || d->dst == CK_TF32 || d->relu || d->satfinite)
        return NULL;
    if (d->src_bits == 32 && !d->sat && !d->ftz) {
        if (d->dst == CK_F64)
            return d->src_signed ? cvt_f64_s32 : cvt_f64_u32;
        if (d->dst == CK_F32 && d->rnd == IR_RND_RN)
            return d->src_signed ? cvt_rn_f32_s32 : cvt_rn_f32_u32;
    }
    return cvt_int_src;
}

static alu_fn cvt_float_lookup(const ir_insn *in, const cvt_desc *d)
{
    int narrow_dst = d->dst == CK_F16 || d->dst == CK_BF16 || d->dst == CK_TF32;
    if (d->ftz && d->src != CK_F32 && d->dst != CK_F32)
        return NULL;
    if ((d->relu || d->satfinite) && (!narrow_dst || d->src != CK_F32))
        return NULL;
    if (d->dst == CK_INT)
        return is_int_rnd(d->rnd) && !d->relu && !d->satfinite ? cvt_float_src : NULL;
    if (d->dst == CK_TF32) /* only from f32: .rna, or .rn/.rz (PTX also lists .rm/.rp forms) */
        return d->src == CK_F32 && frnd_ok(d->rnd, 1) && !d->sat ? cvt_float_src : NULL;
    if (d->rnd == IR_RND_RNA)
        return NULL;
    if (float_widens(d->src, d->dst)) {
        /* exact: a float rounding modifier is allowed and has nothing to round */
        if (d->rnd != IR_RND_NONE && !is_int_rnd(d->rnd) && !frnd_ok(d->rnd, 0))
            return NULL;
        if (d->src == CK_F32 && d->dst == CK_F64 && d->rnd == IR_RND_NONE && !d->sat)
            return cvt_f32_to_f64;
        return cvt_float_src;
    }
    (void)in;
    return frnd_ok(d->rnd, 0) ? cvt_float_src : NULL;
}

alu_fn alu_cvt_lookup(const ir_insn *in)
{
    cvt_desc d = cvt_describe(in);
    if (d.src == CK_NONE || d.dst == CK_NONE || d.src == CK_PAIR || d.src == CK_TF32)
        return NULL;
    if (d.dst == CK_PAIR) {
        if (d.src != CK_F32 || !frnd_ok(d.rnd, 0) || d.sat || d.ftz)
            return NULL;
        return cvt_pack;
    }
    if (d.src == CK_INT)
        return cvt_int_lookup(in, &d);
    return cvt_float_lookup(in, &d);
}
