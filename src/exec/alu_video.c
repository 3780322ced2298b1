/* The video instructions (PTX ISA 9.1 "Video Instructions"; docs/semantics.md, "Video
 * instructions"): the scalar forms (vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad, vset)
 * and the SIMD forms on two half-words or four bytes (vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4,
 * vmin2/4, vmax2/4, vset2/4).
 *
 * Every operand element is first extended to a signed 64-bit value by its own type (a byte of a
 * .s32 operand is sign-extended, of a .u32 operand zero-extended), so the operation itself is
 * exact; saturation clamps that exact value to the destination's range (the element's width in
 * the SIMD forms and in a scalar merge, 32 bits otherwise), and what is left over is truncated
 * when the result is written. The control word (ir.h, IR_VIDCTL_*) carries the selectors, the
 * merge position or mask and the secondary operation. */
#include "exec/alu_internal.h"

typedef struct video_ctl {
    unsigned op;          /* IR_VID_* */
    unsigned lanes;       /* 1 scalar, 2 or 4 SIMD */
    int sa, sb, sd;       /* operands a, b and the result are signed */
    int sat;
    unsigned asel, bsel;  /* IR_VIDCTL_ASEL / BSEL fields */
    unsigned dsel;        /* scalar merge position or SIMD mask */
    unsigned op2;         /* IR_VIDOP2_* */
    int clamp;            /* shifts: .clamp */
    unsigned scale;       /* vmad: 0, 7 or 15 */
    int po;               /* vmad .po */
    int neg_ab, neg_c;    /* vmad: the product, c negated */
    unsigned cmp;         /* vset: ir_cmp */
} video_ctl;

static video_ctl video_decode(const ir_insn *in)
{
    uint64_t w = (uint64_t)in->src[3].imm;
    video_ctl c = {
        .op = in->sub,
        .lanes = in->op == IR_VOP2 ? 2u : in->op == IR_VOP4 ? 4u : 1u,
        .sa = ir_type_is_signed((ir_type)in->type2),
        .sb = ir_type_is_signed((ir_type)in->type_b),
        .sd = ir_type_is_signed((ir_type)in->type),
        .sat = (in->mods & IR_MOD_SAT) != 0,
        .asel = (unsigned)(w >> IR_VIDCTL_ASEL) & 0xFFFFu,
        .bsel = (unsigned)(w >> IR_VIDCTL_BSEL) & 0xFFFFu,
        .dsel = (unsigned)(w >> IR_VIDCTL_DSEL) & 0xFu,
        .op2 = (unsigned)(w >> IR_VIDCTL_OP2) & 3u,
        .clamp = (int)((w >> IR_VIDCTL_CLAMP) & 1u),
        .po = (int)((w >> IR_VIDCTL_PO) & 1u),
        .neg_ab = (int)((w >> IR_VIDCTL_NEGAB) & 1u),
        .neg_c = (int)((w >> IR_VIDCTL_NEGC) & 1u),
        .cmp = in->cmp,
    };
    unsigned scale = (unsigned)(w >> IR_VIDCTL_SCALE) & 3u;
    c.scale = scale == 1 ? 7u : scale == 2 ? 15u : 0u;
    if (in->sub == IR_VID_SET)
        c.sd = 0; /* a comparison's result is unsigned */
    return c;
}

/* Bits `bits` wide at `shift` of v, sign-extended when `sgn`. */
static int64_t field(uint64_t v, unsigned shift, unsigned bits, int sgn)
{
    uint64_t f = (v >> shift) & ((UINT64_C(1) << bits) - 1);
    if (sgn && (f >> (bits - 1)))
        return (int64_t)f - (int64_t)(UINT64_C(1) << bits);
    return (int64_t)f;
}

/* A scalar operand's selected part (IR_VIDSEL_*), extended by its type. */
static int64_t scalar_part(uint32_t v, unsigned sel, int sgn)
{
    switch (sel) {
    case IR_VIDSEL_B0: case IR_VIDSEL_B1: case IR_VIDSEL_B2: case IR_VIDSEL_B3:
        return field(v, 8 * (sel - IR_VIDSEL_B0), 8, sgn);
    case IR_VIDSEL_H0: case IR_VIDSEL_H1:
        return field(v, 16 * (sel - IR_VIDSEL_H0), 16, sgn);
    default:
        return field(v, 0, 32, sgn);
    }
}

static int64_t clamp64(int64_t x, int64_t lo, int64_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The range of a `bits`-wide signed or unsigned value. */
static void range_of(unsigned bits, int sgn, int64_t *lo, int64_t *hi)
{
    *lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
    *hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
}

static int compare(unsigned cmp, int64_t x, int64_t y)
{
    switch (cmp) {
    case IR_CMP_EQ: return x == y;
    case IR_CMP_NE: return x != y;
    case IR_CMP_LT: return x < y;
    case IR_CMP_LE: return x <= y;
    case IR_CMP_GT: return x > y;
    case IR_CMP_GE: return x >= y;
    default: return 0;
    }
}

/* vshl of x by n (n <= 32): the exact value, or, when that leaves the 64-bit range, +-2^62 with
 * the exact low 32 bits (a value beyond every 32-bit range: saturation and the secondary
 * operations only need that). */
static int64_t shift_left(int64_t x, unsigned n)
{
    uint64_t low = ((uint64_t)x << n) & 0xFFFFFFFFu;
    if (x > (INT64_MAX >> n))
        return (int64_t)(UINT64_C(1) << 62 | low);
    if (x < (INT64_MIN >> n))
        return (int64_t)(UINT64_C(0xC000000000000000) | low);
    return (int64_t)((uint64_t)x << n);
}

/* The primary operation on two extended elements (vmad, which takes c, is apart). */
static int64_t primary(const video_ctl *c, int64_t x, int64_t y)
{
    switch (c->op) {
    case IR_VID_ADD: return x + y;
    case IR_VID_SUB: return x - y;
    case IR_VID_ABSDIFF: return x > y ? x - y : y - x;
    case IR_VID_MIN: return x < y ? x : y;
    case IR_VID_MAX: return x > y ? x : y;
    case IR_VID_AVRG: return x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
    case IR_VID_SET: return compare(c->cmp, x, y);
    case IR_VID_SHL: case IR_VID_SHR: {
        uint64_t n = (uint64_t)y;
        n = c->clamp ? (n > 32 ? 32 : n) : (n & 31u);
        if (c->op == IR_VID_SHL)
            return shift_left(x, (unsigned)n);
        return n >= 32 ? (x < 0 ? -1 : 0) : x >> n;
    }
    default: return 0;
    }
}

/* A 128-bit two's complement value as a signed high word and an unsigned low word: vmad's exact
 * sums, which reach 66 bits. */
typedef struct wide {
    int64_t hi;
    uint64_t lo;
} wide;

static wide wide_add(wide w, int64_t v)
{
    uint64_t lo = w.lo + (uint64_t)v;
    return (wide){w.hi + (v < 0 ? -1 : 0) + (lo < w.lo ? 1 : 0), lo};
}

/* vmad: +-(a * b) +- c (+ 1 with .po), shifted right by the scale (rounding toward -inf), clamped
 * when .sat. The product is signed when a or b is or when it is negated, and c then counts as
 * signed too; the result is signed when the product is or c is negated (PTX ISA 9.1, vmad). */
static uint32_t vmad(const video_ctl *c, int64_t x, int64_t y, uint32_t cw)
{
    int sprod = c->sa || c->sb || c->neg_ab, sfinal = sprod || c->neg_c;
    uint64_t mag = (uint64_t)(x < 0 ? -x : x) * (uint64_t)(y < 0 ? -y : y);
    int negative = ((x < 0) != (y < 0)) != c->neg_ab;
    wide t = {0, mag};
    if (negative && mag)
        t = (wide){-1, ~mag + 1};
    int64_t cv = sprod ? (int64_t)(int32_t)cw : (int64_t)cw;
    t = wide_add(t, c->neg_c ? -cv : cv);
    t = wide_add(t, c->po ? 1 : 0);
    if (c->scale) {
        t.lo = (t.lo >> c->scale) | ((uint64_t)t.hi << (64 - c->scale));
        t.hi >>= c->scale;
    }
    if (c->sat && sfinal) {
        if (t.hi > 0 || (t.hi == 0 && t.lo > INT32_MAX))
            return INT32_MAX;
        if (t.hi < -1 || (t.hi == -1 && t.lo < (uint64_t)INT32_MIN))
            return (uint32_t)INT32_MIN;
    } else if (c->sat) {
        if (t.hi < 0)
            return 0;
        if (t.hi > 0 || t.lo > UINT32_MAX)
            return UINT32_MAX;
    }
    return (uint32_t)t.lo;
}

static uint32_t scalar_lane(const video_ctl *c, uint32_t a, uint32_t b, uint32_t cw)
{
    int64_t x = scalar_part(a, c->asel & 0xFu, c->sa);
    int64_t y = scalar_part(b, c->bsel & 0xFu, c->op == IR_VID_SHL || c->op == IR_VID_SHR ? 0
                                                                                           : c->sb);
    if (c->op == IR_VID_MAD)
        return vmad(c, x, y, cw);
    int64_t t = primary(c, x, y);
    unsigned merge_bits = c->dsel >= IR_VIDSEL_H0 ? 16u : c->dsel ? 8u : 32u;
    if (c->sat) {
        int64_t lo, hi;
        range_of(merge_bits, c->sd, &lo, &hi);
        t = clamp64(t, lo, hi);
    }
    if (c->dsel) {
        unsigned shift = c->dsel >= IR_VIDSEL_H0 ? 16u * (c->dsel - IR_VIDSEL_H0)
                                                  : 8u * (c->dsel - IR_VIDSEL_B0);
        uint32_t m = (uint32_t)((UINT64_C(1) << merge_bits) - 1) << shift;
        return (cw & ~m) | (((uint32_t)t << shift) & m);
    }
    int64_t cv = c->sd ? (int64_t)(int32_t)cw : (int64_t)cw;
    switch (c->op2) {
    case IR_VIDOP2_ADD: return (uint32_t)(t + cv);
    case IR_VIDOP2_MIN: return (uint32_t)(t < cv ? t : cv);
    case IR_VIDOP2_MAX: return (uint32_t)(t > cv ? t : cv);
    default: return (uint32_t)t;
    }
}

static uint32_t simd_lane(const video_ctl *c, uint32_t a, uint32_t b, uint32_t cw)
{
    unsigned bits = 32u / c->lanes;
    uint64_t pair = (uint64_t)b << 32 | a;
    uint32_t emask = (uint32_t)((UINT64_C(1) << bits) - 1);
    int64_t lo, hi;
    range_of(bits, c->sd, &lo, &hi);
    uint32_t d = c->op2 == IR_VIDOP2_ADD ? cw : 0;
    for (unsigned i = 0; i < c->lanes; i++) {
        int64_t x = field(pair, bits * ((c->asel >> (4 * i)) & 7u), bits, c->sa);
        int64_t y = field(pair, bits * ((c->bsel >> (4 * i)) & 7u), bits, c->sb);
        int64_t t = primary(c, x, y);
        if (c->sat)
            t = clamp64(t, lo, hi);
        int on = (c->dsel >> i) & 1u;
        if (c->op2 == IR_VIDOP2_ADD)
            d += on ? (uint32_t)t : 0u;
        else
            d |= ((on ? (uint32_t)t : cw >> (bits * i)) & emask) << (bits * i);
    }
    return d;
}

static void video_lanes(const ir_insn *in, const alu_args *args)
{
    video_ctl c = video_decode(in);
    const uint64_t *a = args->src[0], *b = args->src[1], *cs = args->src[2];
    ALU_FOR_LANES(l) {
        uint32_t cw = cs ? (uint32_t)cs[l] : 0;
        args->dst[l] = c.lanes == 1 ? scalar_lane(&c, (uint32_t)a[l], (uint32_t)b[l], cw)
                                    : simd_lane(&c, (uint32_t)a[l], (uint32_t)b[l], cw);
    }
}

alu_fn alu_video_lookup(const ir_insn *in)
{
    if (in->sub < IR_VID_ADD || in->sub > IR_VID_SET || in->src[3].kind != IR_OPND_IMM)
        return NULL;
    return video_lanes;
}
