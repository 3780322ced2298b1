/* Integer arithmetic (PTX ISA 9.1 §9.7.1 and the extended-precision §9.7.2): add, sub (.sat,
 * carry chains), mul/mad (.lo/.hi/.wide, .hi.sat, .cc/madc), mul24/mad24, sad, div, rem, abs and
 * neg on 16-, 32- and 64-bit types; add on the packed u16x2/s16x2; and the 16-bit multiply-add
 * xmad of the SASS dialect.
 *
 * Operands arrive zero-extended in 64-bit lanes; every kernel reads only the low `bits` of each and
 * writes results zero-extended to their width. Arithmetic is done in uint64_t (wrapping, never
 * undefined); signed values are recovered with alu_sext. Division by zero follows NVIDIA hardware
 * (docs/semantics.md). Logic, shifts and bit fields are in alu_bits.c; min/max in alu_cmp.c. */
#include "exec/alu_internal.h"

/* ---- add / sub, with carry in and carry out ---- */

/* x + y + cin over `bits` (32 or 64) bits: the sum and its carry out. */
ALU_INLINE uint64_t add_carry(uint64_t x, uint64_t y, uint64_t cin, unsigned bits, uint64_t *cout)
{
    if (bits == 32) {
        uint64_t s = (x & 0xFFFFFFFFu) + (y & 0xFFFFFFFFu) + cin;
        *cout = s >> 32;
        return s & 0xFFFFFFFFu;
    }
    uint64_t s1 = x + y, s2 = s1 + cin;
    *cout = (uint64_t)(s1 < x) | (uint64_t)(s2 < s1);
    return s2;
}

/* x - (y + bin) over `bits` bits: the difference and its borrow out (the PTX carry flag of
 * sub.cc/subc is a borrow: subc computes a - (b + CF)). */
ALU_INLINE uint64_t sub_borrow(uint64_t x, uint64_t y, uint64_t bin, unsigned bits, uint64_t *bout)
{
    if (bits == 32) {
        uint64_t t = (x & 0xFFFFFFFFu) - (y & 0xFFFFFFFFu) - bin;
        *bout = t >> 63;
        return t & 0xFFFFFFFFu;
    }
    uint64_t t = x - y;
    *bout = (uint64_t)(x < y) | (uint64_t)(t < bin);
    return t - bin;
}

ALU_INLINE void addsub_lanes(const alu_args *a, int sub, unsigned bits, int cin, int cc)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    uint64_t mask = alu_width_mask(bits);
    if (!cin && !cc) { /* the common case: one wrapping add */
        ALU_FOR_LANES(l) a->dst[l] = (sub ? s0[l] - s1[l] : s0[l] + s1[l]) & mask;
        return;
    }
    ALU_FOR_LANES(l) {
        uint64_t carry, c = cin ? (a->carry_in[l] & 1u) : 0;
        a->dst[l] = sub ? sub_borrow(s0[l], s1[l], c, bits, &carry)
                        : add_carry(s0[l], s1[l], c, bits, &carry);
        if (cc)
            a->carry_out[l] = carry;
    }
}

/* add.sat.s32 / sub.sat.s32: the exact result clamped to the s32 range. */
ALU_INLINE void addsub_sat_lanes(const alu_args *a, int sub)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    ALU_FOR_LANES(l) {
        int64_t x = alu_sext(s0[l], 32), y = alu_sext(s1[l], 32);
        int64_t r = sub ? x - y : x + y;
        r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
        a->dst[l] = (uint64_t)r & 0xFFFFFFFFu;
    }
}

#define ADDSUB_FN(name, sub, bits, cin, cc)                                                   \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        addsub_lanes(a, sub, bits, cin, cc);                                                  \
    }

/* [sub][width 16/32/64] plain, and [sub][width 32/64][cin][cc] carry forms */
ADDSUB_FN(add16, 0, 16, 0, 0) ADDSUB_FN(add32, 0, 32, 0, 0) ADDSUB_FN(add64, 0, 64, 0, 0)
ADDSUB_FN(sub16, 1, 16, 0, 0) ADDSUB_FN(sub32, 1, 32, 0, 0) ADDSUB_FN(sub64, 1, 64, 0, 0)
ADDSUB_FN(add32_cc, 0, 32, 0, 1) ADDSUB_FN(add32_c, 0, 32, 1, 0) ADDSUB_FN(add32_c_cc, 0, 32, 1, 1)
ADDSUB_FN(add64_cc, 0, 64, 0, 1) ADDSUB_FN(add64_c, 0, 64, 1, 0) ADDSUB_FN(add64_c_cc, 0, 64, 1, 1)
ADDSUB_FN(sub32_cc, 1, 32, 0, 1) ADDSUB_FN(sub32_c, 1, 32, 1, 0) ADDSUB_FN(sub32_c_cc, 1, 32, 1, 1)
ADDSUB_FN(sub64_cc, 1, 64, 0, 1) ADDSUB_FN(sub64_c, 1, 64, 1, 0) ADDSUB_FN(sub64_c_cc, 1, 64, 1, 1)

static void add_sat_s32(const ir_insn *in, const alu_args *a)
{
    (void)in;
    addsub_sat_lanes(a, 0);
}

static void sub_sat_s32(const ir_insn *in, const alu_args *a)
{
    (void)in;
    addsub_sat_lanes(a, 1);
}

/* add.u16x2 and .s16x2: each 16-bit half wraps on its own (no carry crosses bit 16, so the
 * signedness does not matter). PTX has no packed sub. */
static void add_x2(const ir_insn *in, const alu_args *a)
{
    (void)in;
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    ALU_FOR_LANES(l) {
        uint64_t lo = (s0[l] + s1[l]) & 0xFFFFu, hi = ((s0[l] >> 16) + (s1[l] >> 16)) & 0xFFFFu;
        a->dst[l] = hi << 16 | lo;
    }
}

static const alu_fn addsub_plain[2][3] = {{add16, add32, add64}, {sub16, sub32, sub64}};

#ifdef ALU_AVX2_VARIANTS
#define ADDSUB_FN_AVX2(name, sub, bits)                                                       \
    ALU_TARGET_AVX2 static void name##_avx2(const ir_insn *in, const alu_args *a)             \
    {                                                                                         \
        (void)in;                                                                             \
        addsub_lanes(a, sub, bits, 0, 0);                                                     \
    }
ADDSUB_FN_AVX2(add32, 0, 32) ADDSUB_FN_AVX2(add64, 0, 64)
ADDSUB_FN_AVX2(sub32, 1, 32) ADDSUB_FN_AVX2(sub64, 1, 64)
/* [sub][64-bit] */
static const alu_fn addsub_avx2[2][2] = {{add32_avx2, add64_avx2}, {sub32_avx2, sub64_avx2}};
#endif
static const alu_fn addsub_carry[2][2][2][2] = {
    {{{NULL, add32_cc}, {add32_c, add32_c_cc}}, {{NULL, add64_cc}, {add64_c, add64_c_cc}}},
    {{{NULL, sub32_cc}, {sub32_c, sub32_c_cc}}, {{NULL, sub64_cc}, {sub64_c, sub64_c_cc}}},
};

/* ---- mul / mad ---- */

enum mul_part { PART_LO, PART_HI, PART_WIDE };

/* The selected part of a * b for a `bits`-wide type; .wide yields 2 * bits bits. */
ALU_INLINE uint64_t mul_part(uint64_t x, uint64_t y, unsigned bits, int is_signed,
                             enum mul_part part)
{
    if (part == PART_LO)
        return x * y; /* caller masks */
    if (bits == 64) {
        uint64_t hi, lo;
        alu_mul_u64_wide(x, y, &hi, &lo);
        return is_signed ? alu_mul_s64_hi(x, y) : hi;
    }
    /* 16- and 32-bit operands: the full product fits in 64 bits */
    uint64_t p = is_signed ? (uint64_t)alu_sext(x, bits) * (uint64_t)alu_sext(y, bits)
                           : (x & alu_width_mask(bits)) * (y & alu_width_mask(bits));
    return part == PART_WIDE ? p : p >> bits;
}

/* mul and mad (with .cc / carry-in on 32- and 64-bit .lo/.hi) and mad.hi.sat.s32. */
ALU_INLINE void mul_lanes(const alu_args *a, unsigned bits, int is_signed, enum mul_part part,
                          int mad, int sat, int cin, int cc)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = mad ? a->src[2] : a->src[1];
    unsigned out_bits = part == PART_WIDE ? 2 * bits : bits;
    uint64_t mask = alu_width_mask(out_bits);
    ALU_FOR_LANES(l) {
        uint64_t p = mul_part(s0[l], s1[l], bits, is_signed, part) & mask;
        if (sat) { /* mad.hi.sat.s32: the high word plus c, clamped to the s32 range */
            int64_t r = alu_sext(p, 32) + alu_sext(s2[l], 32);
            r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
            a->dst[l] = (uint64_t)r & 0xFFFFFFFFu;
        } else if (cin || cc) {
            uint64_t carry, c = cin ? (a->carry_in[l] & 1u) : 0;
            a->dst[l] = add_carry(p, s2[l], c, bits, &carry);
            if (cc)
                a->carry_out[l] = carry;
        } else {
            a->dst[l] = mad ? (p + s2[l]) & mask : p;
        }
    }
}

#define MUL_FN(name, bits, sgn, part, mad, sat, cin, cc)                                       \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        mul_lanes(a, bits, sgn, part, mad, sat, cin, cc);                                     \
    }

/* Per type: mul.lo, mul.hi, mul.wide, mad.lo, mad.hi, mad.wide */
#define MUL_TYPE_FNS(t, bits, sgn)                                                            \
    MUL_FN(mul_lo_##t, bits, sgn, PART_LO, 0, 0, 0, 0)                                        \
    MUL_FN(mul_hi_##t, bits, sgn, PART_HI, 0, 0, 0, 0)                                        \
    MUL_FN(mul_wide_##t, bits, sgn, PART_WIDE, 0, 0, 0, 0)                                    \
    MUL_FN(mad_lo_##t, bits, sgn, PART_LO, 1, 0, 0, 0)                                        \
    MUL_FN(mad_hi_##t, bits, sgn, PART_HI, 1, 0, 0, 0)                                        \
    MUL_FN(mad_wide_##t, bits, sgn, PART_WIDE, 1, 0, 0, 0)

MUL_TYPE_FNS(u16, 16, 0)
MUL_TYPE_FNS(u32, 32, 0)
MUL_TYPE_FNS(u64, 64, 0)
MUL_TYPE_FNS(s16, 16, 1)
MUL_TYPE_FNS(s32, 32, 1)
MUL_TYPE_FNS(s64, 64, 1)
MUL_FN(mad_hi_sat_s32, 32, 1, PART_HI, 1, 1, 0, 0)

/* Carry forms of mad: [lo/hi][cin][cc] per 32/64-bit signedness. */
#define MADC_TYPE_FNS(t, bits, sgn)                                                           \
    MUL_FN(mad_lo_cc_##t, bits, sgn, PART_LO, 1, 0, 0, 1)                                     \
    MUL_FN(madc_lo_##t, bits, sgn, PART_LO, 1, 0, 1, 0)                                       \
    MUL_FN(madc_lo_cc_##t, bits, sgn, PART_LO, 1, 0, 1, 1)                                    \
    MUL_FN(mad_hi_cc_##t, bits, sgn, PART_HI, 1, 0, 0, 1)                                     \
    MUL_FN(madc_hi_##t, bits, sgn, PART_HI, 1, 0, 1, 0)                                       \
    MUL_FN(madc_hi_cc_##t, bits, sgn, PART_HI, 1, 0, 1, 1)

MADC_TYPE_FNS(u32, 32, 0)
MADC_TYPE_FNS(s32, 32, 1)
MADC_TYPE_FNS(u64, 64, 0)
MADC_TYPE_FNS(s64, 64, 1)

/* [type index: u16 u32 u64 s16 s32 s64][mad][part] */
#define MUL_ROW(t)                                                                            \
    {{mul_lo_##t, mul_hi_##t, mul_wide_##t}, {mad_lo_##t, mad_hi_##t, mad_wide_##t}}
static const alu_fn mul_table[6][2][3] = {MUL_ROW(u16), MUL_ROW(u32), MUL_ROW(u64),
                                          MUL_ROW(s16), MUL_ROW(s32), MUL_ROW(s64)};
/* [u32 s32 u64 s64][hi][cin][cc] */
#define MADC_ROW(t)                                                                           \
    {{{NULL, mad_lo_cc_##t}, {madc_lo_##t, madc_lo_cc_##t}},                                  \
     {{NULL, mad_hi_cc_##t}, {madc_hi_##t, madc_hi_cc_##t}}}
static const alu_fn madc_table[4][2][2][2] = {MADC_ROW(u32), MADC_ROW(s32), MADC_ROW(u64),
                                              MADC_ROW(s64)};

#ifdef ALU_AVX2_VARIANTS
#include <immintrin.h>
/* mul and mad .lo and .wide of 32-bit types, four lanes at a time: vpmuludq multiplies the low
 * 32 bits of each 64-bit lane into 64 bits (vpmuldq sign-extends them first), which is
 * mul_part's .wide product; .lo keeps its low 32 bits, which do not depend on the sign; mad adds
 * the 64-bit c lane before .lo's mask, as mul_lanes does. */
ALU_TARGET_AVX2 static inline __attribute__((always_inline)) void mul32_x4(const alu_args *a,
                                                                           int sgn, int wide,
                                                                           int mad)
{
    const __m256i lo32 = _mm256_set1_epi64x(0xFFFFFFFF);
    for (unsigned l = 0; l < ALU_LANES; l += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a->src[0] + l));
        __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(a->src[1] + l));
        __m256i p = wide && sgn ? _mm256_mul_epi32(x, y) : _mm256_mul_epu32(x, y);
        if (mad)
            p = _mm256_add_epi64(
                p, _mm256_loadu_si256((const __m256i *)(const void *)(a->src[2] + l)));
        if (!wide)
            p = _mm256_and_si256(p, lo32);
        _mm256_storeu_si256((__m256i *)(void *)(a->dst + l), p);
    }
}

#define MUL32_FN_AVX2(name, sgn, wide, mad)                                                   \
    ALU_TARGET_AVX2 static void name(const ir_insn *in, const alu_args *a)                    \
    {                                                                                         \
        (void)in;                                                                             \
        mul32_x4(a, sgn, wide, mad);                                                          \
    }
MUL32_FN_AVX2(mul_lo_32_avx2, 0, 0, 0)
MUL32_FN_AVX2(mad_lo_32_avx2, 0, 0, 1)
MUL32_FN_AVX2(mul_wide_u32_avx2, 0, 1, 0)
MUL32_FN_AVX2(mad_wide_u32_avx2, 0, 1, 1)
MUL32_FN_AVX2(mul_wide_s32_avx2, 1, 1, 0)
MUL32_FN_AVX2(mad_wide_s32_avx2, 1, 1, 1)
/* [signed][mad][wide] */
static const alu_fn mul32_avx2[2][2][2] = {
    {{mul_lo_32_avx2, mul_wide_u32_avx2}, {mad_lo_32_avx2, mad_wide_u32_avx2}},
    {{mul_lo_32_avx2, mul_wide_s32_avx2}, {mad_lo_32_avx2, mad_wide_s32_avx2}},
};
#endif

/* ---- mul24 / mad24: 24-bit operands, 48-bit product ---- */

ALU_INLINE void mul24_lanes(const alu_args *a, int is_signed, int hi, int mad, int sat)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = mad ? a->src[2] : a->src[1];
    ALU_FOR_LANES(l) {
        uint64_t x = is_signed ? (uint64_t)alu_sext(s0[l], 24) : s0[l] & 0xFFFFFFu;
        uint64_t y = is_signed ? (uint64_t)alu_sext(s1[l], 24) : s1[l] & 0xFFFFFFu;
        uint64_t p = x * y;                                         /* fits in 48 bits */
        uint64_t part = (hi ? p >> 16 : p) & 0xFFFFFFFFu;          /* bits 47..16 or 31..0 */
        if (sat) {
            int64_t r = alu_sext(part, 32) + alu_sext(s2[l], 32);
            r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
            a->dst[l] = (uint64_t)r & 0xFFFFFFFFu;
        } else {
            a->dst[l] = (part + (mad ? s2[l] : 0)) & 0xFFFFFFFFu;
        }
    }
}

#define MUL24_FN(name, sgn, hi, mad, sat)                                                     \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        mul24_lanes(a, sgn, hi, mad, sat);                                                    \
    }

MUL24_FN(mul24_lo_u32, 0, 0, 0, 0) MUL24_FN(mul24_hi_u32, 0, 1, 0, 0)
MUL24_FN(mul24_lo_s32, 1, 0, 0, 0) MUL24_FN(mul24_hi_s32, 1, 1, 0, 0)
MUL24_FN(mad24_lo_u32, 0, 0, 1, 0) MUL24_FN(mad24_hi_u32, 0, 1, 1, 0)
MUL24_FN(mad24_lo_s32, 1, 0, 1, 0) MUL24_FN(mad24_hi_s32, 1, 1, 1, 0)
MUL24_FN(mad24_hi_sat_s32, 1, 1, 1, 1)

/* [signed][mad][hi] */
static const alu_fn mul24_table[2][2][2] = {
    {{mul24_lo_u32, mul24_hi_u32}, {mad24_lo_u32, mad24_hi_u32}},
    {{mul24_lo_s32, mul24_hi_s32}, {mad24_lo_s32, mad24_hi_s32}},
};

/* ---- sad, div, rem, abs, neg ---- */

enum int_unop { IOP_SAD, IOP_DIV, IOP_REM, IOP_ABS, IOP_NEG };

/* Signed division with hardware results where C would be undefined: x / 0 is -1 for x >= 0 and
 * 1 for x < 0 (the unsigned all-ones quotient of |x| negated by the sign), INT_MIN / -1 wraps to
 * INT_MIN, x % 0 is x, INT_MIN % -1 is 0. */
ALU_INLINE uint64_t sdivrem(int64_t x, int64_t y, int rem)
{
    int64_t safe = (y == 0 || y == -1) ? 1 : y;
    uint64_t q = (uint64_t)(x / safe), r = (uint64_t)(x % safe);
    if (y == -1) {
        q = 0 - (uint64_t)x;
        r = 0;
    }
    if (y == 0) {
        q = x < 0 ? 1 : ~UINT64_C(0);
        r = (uint64_t)x;
    }
    return rem ? r : q;
}

ALU_INLINE uint64_t int_unop(enum int_unop op, uint64_t a, uint64_t b, uint64_t c, unsigned bits,
                             int is_signed)
{
    uint64_t m = alu_width_mask(bits), x = a & m, y = b & m;
    int64_t sx = alu_sext(a, bits), sy = alu_sext(b, bits);
    switch (op) {
    case IOP_SAD: {
        int lt = is_signed ? sx < sy : x < y;
        return (c + (lt ? y - x : x - y)) & m;
    }
    case IOP_DIV:
        if (is_signed)
            return sdivrem(sx, sy, 0) & m;
        return y == 0 ? m : x / y;
    case IOP_REM:
        if (is_signed)
            return sdivrem(sx, sy, 1) & m;
        return y == 0 ? x : x % y;
    case IOP_ABS: return (sx < 0 ? 0 - x : x) & m;
    default: return (0 - x) & m;
    }
}

ALU_INLINE void int_unop_lanes(const alu_args *a, enum int_unop op, unsigned bits, int is_signed)
{
    const uint64_t *s0 = a->src[0];
    const uint64_t *s1 = op <= IOP_REM ? a->src[1] : a->src[0];
    const uint64_t *s2 = op == IOP_SAD ? a->src[2] : a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = int_unop(op, s0[l], s1[l], s2[l], bits, is_signed);
}

#define INT_UNOP_FN(name, op, bits, sgn)                                                      \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        int_unop_lanes(a, op, bits, sgn);                                                     \
    }

#define INT_UNOP_TYPE_FNS(t, bits, sgn)                                                       \
    INT_UNOP_FN(sad_##t, IOP_SAD, bits, sgn)                                                  \
    INT_UNOP_FN(div_##t, IOP_DIV, bits, sgn)                                                  \
    INT_UNOP_FN(rem_##t, IOP_REM, bits, sgn)                                                  \
    INT_UNOP_FN(abs_##t, IOP_ABS, bits, sgn)                                                  \
    INT_UNOP_FN(neg_##t, IOP_NEG, bits, sgn)

INT_UNOP_TYPE_FNS(u16, 16, 0)
INT_UNOP_TYPE_FNS(u32, 32, 0)
INT_UNOP_TYPE_FNS(u64, 64, 0)
INT_UNOP_TYPE_FNS(s16, 16, 1)
INT_UNOP_TYPE_FNS(s32, 32, 1)
INT_UNOP_TYPE_FNS(s64, 64, 1)

/* [type][op]; abs/neg of unsigned types are not PTX instructions (NULL). */
#define UNOP_ROW(t, sgn) {sad_##t, div_##t, rem_##t, sgn ? abs_##t : NULL, sgn ? neg_##t : NULL}
static const alu_fn unop_table[6][5] = {UNOP_ROW(u16, 0), UNOP_ROW(u32, 0), UNOP_ROW(u64, 0),
                                        UNOP_ROW(s16, 1), UNOP_ROW(s32, 1), UNOP_ROW(s64, 1)};

/* ---- xmad (SASS XMAD; docs/semantics.md, "xmad") ----
 * On u32 operands a, b, c:
 *   p = A * B, the unsigned 16 x 16-bit product of A = a's upper 16 bits with .h1a (else its lower
 *       16) and B = b's upper 16 bits with .h1b (else its lower 16): a 32-bit value;
 *   .psl: p = p << 16 (modulo 2^32);
 *   c'  = c, or with .cbcc c + (b << 16) (modulo 2^32; b the whole register, not B);
 *   d   = p + c' (modulo 2^32);
 *   .mrg: d's upper 16 bits are replaced by b's lower 16 bits (d = (d & 0xFFFF) | (b << 16)).
 * The three-instruction 32-bit multiply of sm_5x code is then exact modulo 2^32:
 *   xmad t, a, b, c;  xmad.h1b.mrg u, a, b, 0;  xmad.h1a.h1b.psl.cbcc d, a, u, t
 * (u's upper half is b's lower half, so the last product is a_hi * b_lo << 16, and .cbcc adds
 * a_lo * b_hi << 16): d = c + a * b. */
static void xmad_u32(const ir_insn *in, const alu_args *a)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    uint32_t mods = in->mods;
    unsigned sa = (mods & IR_MOD_H1A) ? 16 : 0, sb = (mods & IR_MOD_H1B) ? 16 : 0;
    unsigned psl = (mods & IR_MOD_PSL) ? 16 : 0;
    uint32_t cbcc = (mods & IR_MOD_CBCC) ? 0xFFFFFFFFu : 0;
    uint32_t keep = (mods & IR_MOD_MRG) ? 0xFFFFu : 0xFFFFFFFFu; /* of the sum */
    uint32_t merge = (mods & IR_MOD_MRG) ? 0xFFFFFFFFu : 0;       /* of b << 16 */
    ALU_FOR_LANES(l) {
        uint32_t x = (uint32_t)s0[l], y = (uint32_t)s1[l], c = (uint32_t)s2[l];
        uint32_t p = (((x >> sa) & 0xFFFFu) * ((y >> sb) & 0xFFFFu)) << psl;
        uint32_t d = p + c + ((y << 16) & cbcc);
        a->dst[l] = (d & keep) | ((y << 16) & merge);
    }
}

/* ---- lookup ---- */

/* Index of an integer type in the tables above (u16 u32 u64 s16 s32 s64), or -1. */
static int int_type_index(ir_type t)
{
    switch (t) {
    case IR_T_U16: return 0;
    case IR_T_U32: return 1;
    case IR_T_U64: return 2;
    case IR_T_S16: return 3;
    case IR_T_S32: return 4;
    case IR_T_S64: return 5;
    default: return -1;
    }
}

static alu_fn addsub_lookup(const ir_insn *in, int ti)
{
    int sub = in->op == IR_SUB, cin = in->flag_in != IR_FLAG_NONE;
    int cc = in->flag_out != IR_FLAG_NONE, sat = (in->mods & IR_MOD_SAT) != 0;
    unsigned bits = ir_type_bits((ir_type)in->type);
    if (sat)
        return (ti == 4 && !cin && !cc) ? (sub ? sub_sat_s32 : add_sat_s32) : NULL;
    if (cin || cc)
        return bits == 16 ? NULL : addsub_carry[sub][bits == 64][cin][cc];
#ifdef ALU_AVX2_VARIANTS
    if (ti % 3 != 0 && cpu_has_avx2())
        return addsub_avx2[sub][ti % 3 == 2];
#endif
    return addsub_plain[sub][ti % 3];
}

static alu_fn mul_lookup(const ir_insn *in, int ti)
{
    uint32_t mods = in->mods;
    int mad = in->op == IR_MAD, cin = in->flag_in != IR_FLAG_NONE;
    int cc = in->flag_out != IR_FLAG_NONE;
    int part = (mods & IR_MOD_HI) ? PART_HI : (mods & IR_MOD_WIDE) ? PART_WIDE : PART_LO;
    if (((mods & IR_MOD_HI) != 0) + ((mods & IR_MOD_LO) != 0) + ((mods & IR_MOD_WIDE) != 0) > 1)
        return NULL;
    if (part == PART_WIDE && ti % 3 == 2) /* no 128-bit results */
        return NULL;
    if (mods & IR_MOD_SAT) /* only mad.hi.sat.s32 */
        return (mad && part == PART_HI && ti == 4 && !cin && !cc) ? mad_hi_sat_s32 : NULL;
    if (cin || cc) {
        static const int madc_index[6] = {-1, 0, 2, -1, 1, 3};
        if (!mad || part == PART_WIDE || madc_index[ti] < 0)
            return NULL;
        return madc_table[madc_index[ti]][part == PART_HI][cin][cc];
    }
#ifdef ALU_AVX2_VARIANTS
    if ((ti == 1 || ti == 4) && part != PART_HI && cpu_has_avx2())
        return mul32_avx2[ti == 4][mad][part == PART_WIDE];
#endif
    return mul_table[ti][mad][part];
}

static alu_fn mul24_lookup(const ir_insn *in, int ti)
{
    int hi = (in->mods & IR_MOD_HI) != 0, mad = in->op == IR_MAD24;
    if (ti != 1 && ti != 4)
        return NULL;
    if (in->mods & IR_MOD_SAT)
        return (mad && hi && ti == 4) ? mad24_hi_sat_s32 : NULL;
    return mul24_table[ti == 4][mad][hi];
}

alu_fn alu_int_lookup(const ir_insn *in)
{
    int ti = int_type_index((ir_type)in->type);
    if (in->type == IR_T_U16X2 || in->type == IR_T_S16X2) /* plain add only */
        return in->op != IR_ADD || in->mods || in->flag_in || in->flag_out ? NULL : add_x2;
    /* float-only modifiers on an integer type are an error, not something to skip */
    if (ti < 0 || (in->mods & (IR_MOD_FTZ | IR_MOD_APPROX | IR_MOD_FULL | IR_MOD_RELU)))
        return NULL;
    switch (in->op) {
    case IR_ADD: case IR_SUB: return addsub_lookup(in, ti);
    case IR_MUL: case IR_MAD: return mul_lookup(in, ti);
    case IR_MUL24: case IR_MAD24: return mul24_lookup(in, ti);
    case IR_SAD: return unop_table[ti][IOP_SAD];
    case IR_DIV: return unop_table[ti][IOP_DIV];
    case IR_REM: return unop_table[ti][IOP_REM];
    case IR_ABS: return unop_table[ti][IOP_ABS];
    case IR_NEG: return unop_table[ti][IOP_NEG];
    case IR_XMAD: return in->type == IR_T_U32 ? xmad_u32 : NULL;
    default: return NULL;
    }
}
