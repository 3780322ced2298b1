/* Unit tests for the video instructions' lane functions (src/exec/alu_video.c): results worked
 * out by hand for the forms nvcc emits and for each rule of the PTX pseudo-code (saturation,
 * selectors, merge, secondary operations, vavrg's rounding, shift modes, vmad), then every
 * operation, type combination and modifier checked on random operands against a reference
 * written here from PTX ISA 9.1's pseudo-code for the video instructions (element by element,
 * with the clamps spelled out), independently of alu_video.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "exec/alu.h"

/* One video instruction: the operation, lanes, types (d, a, b), .sat, and the control word's
 * fields. */
typedef struct vform {
    ir_opcode op;
    unsigned sub;
    ir_type td, ta, tb;
    int sat;
    unsigned cmp, asel, bsel, dsel, op2, clamp, scale, po, neg_ab, neg_c;
} vform;

static ir_insn make(const vform *f, int has_c)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)f->op;
    in.sub = (uint8_t)f->sub;
    in.type = (uint8_t)f->td;
    in.type2 = (uint8_t)f->ta;
    in.type_b = (uint8_t)f->tb;
    in.cmp = (uint8_t)f->cmp;
    in.mods = f->sat ? IR_MOD_SAT : 0;
    in.nsrc = 4;
    in.src[0].kind = in.src[1].kind = IR_OPND_REG;
    in.src[2].kind = has_c ? IR_OPND_REG : IR_OPND_NONE;
    in.src[3].kind = IR_OPND_IMM;
    in.src[3].imm = (int64_t)((uint64_t)f->asel << IR_VIDCTL_ASEL |
                              (uint64_t)f->bsel << IR_VIDCTL_BSEL |
                              (uint64_t)f->dsel << IR_VIDCTL_DSEL |
                              (uint64_t)f->op2 << IR_VIDCTL_OP2 |
                              (uint64_t)f->clamp << IR_VIDCTL_CLAMP |
                              (uint64_t)f->scale << IR_VIDCTL_SCALE |
                              (uint64_t)f->po << IR_VIDCTL_PO |
                              (uint64_t)f->neg_ab << IR_VIDCTL_NEGAB |
                              (uint64_t)f->neg_c << IR_VIDCTL_NEGC);
    return in;
}

/* Runs f on 32 lanes (a[l], b[l], c[l]) into out. */
static void run(const vform *f, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                uint32_t *out)
{
    uint64_t s[3][ALU_LANES], d[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        s[0][l] = a[l];
        s[1][l] = b[l];
        s[2][l] = c ? c[l] : 0;
    }
    ir_insn in = make(f, c != NULL);
    alu_fn fn = alu_lookup(&in);
    assert_non_null(fn);
    alu_args args = {{s[0], s[1], c ? s[2] : NULL, NULL}, d, NULL, NULL, NULL};
    fn(&in, &args);
    for (int l = 0; l < ALU_LANES; l++) {
        assert_true(d[l] <= 0xFFFFFFFFu);
        out[l] = (uint32_t)d[l];
    }
}

/* f on one lane (the same operands in every lane). */
static uint32_t one(const vform *f, uint32_t a, uint32_t b, const uint32_t *c)
{
    uint32_t va[ALU_LANES], vb[ALU_LANES], vc[ALU_LANES], out[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        va[l] = a;
        vb[l] = b;
        vc[l] = c ? *c : 0;
    }
    run(f, va, vb, c ? vc : NULL, out);
    return out[0];
}

#define SIMD4(sub_, td_, ta_, tb_) \
    {IR_VOP4, sub_, td_, ta_, tb_, 0, 0, 0x3210, 0x7654, 0xF, 0, 0, 0, 0, 0, 0}
#define SIMD2(sub_, td_, ta_, tb_) \
    {IR_VOP2, sub_, td_, ta_, tb_, 0, 0, 0x10, 0x32, 0x3, 0, 0, 0, 0, 0, 0}
#define SCALAR(sub_, td_, ta_, tb_) \
    {IR_VOP, sub_, td_, ta_, tb_, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

static const uint32_t zero = 0;

/* What nvcc emits: __vabsdiffu4 (vabsdiff4 with c merged under the full mask: c does not show)
 * and __vsadu4 (vabsdiff4.add with c = 0). */
static void test_nvcc_forms(void **state)
{
    (void)state;
    vform f = SIMD4(IR_VID_ABSDIFF, IR_T_U32, IR_T_U32, IR_T_U32);
    uint32_t c = 0xAAAAAAAAu;
    assert_int_equal(one(&f, 0x10FF8003u, 0x2001807Fu, &c), 0x10FE007Cu);
    f.op2 = IR_VIDOP2_ADD;
    assert_int_equal(one(&f, 0x10FF8003u, 0x2001807Fu, &zero), 0x10 + 0xFE + 0 + 0x7C);
    c = 1000;
    assert_int_equal(one(&f, 0x10FF8003u, 0x2001807Fu, &c), 1000 + 0x10 + 0xFE + 0x7C);
    /* signed bytes: |0x80 - 0x7F| = |-128 - 127| = 255 */
    f = (vform)SIMD4(IR_VID_ABSDIFF, IR_T_U32, IR_T_S32, IR_T_S32);
    assert_int_equal(one(&f, 0x00000080u, 0x0000007Fu, &zero), 0x000000FFu);
}

static void test_simd_saturation_and_merge(void **state)
{
    (void)state;
    /* unsigned add of bytes: 0xF0 + 0x20 wraps to 0x10, saturates to 0xFF */
    vform f = SIMD4(IR_VID_ADD, IR_T_U32, IR_T_U32, IR_T_U32);
    assert_int_equal(one(&f, 0x01F00203u, 0x01200204u, &zero), 0x02100407u);
    f.sat = 1;
    assert_int_equal(one(&f, 0x01F00203u, 0x01200204u, &zero), 0x02FF0407u);
    /* signed saturation: 0x70 + 0x70 = 224 -> 127; -128 - 1 -> -128 */
    f = (vform)SIMD4(IR_VID_ADD, IR_T_S32, IR_T_S32, IR_T_S32);
    f.sat = 1;
    assert_int_equal(one(&f, 0x00708000u, 0x007000FFu, &zero), 0x007F80FFu);
    /* a signed result saturated to the unsigned range: -1 -> 0 */
    f = (vform)SIMD2(IR_VID_SUB, IR_T_U32, IR_T_S32, IR_T_S32);
    f.sat = 1;
    assert_int_equal(one(&f, 0x00050001u, 0x00030002u, &zero), 0x00020000u);
    /* merge: mask .b20 writes elements 2 and 0, c keeps 3 and 1 */
    f = (vform)SIMD4(IR_VID_MAX, IR_T_U32, IR_T_U32, IR_T_U32);
    f.dsel = 0x5;
    uint32_t c = 0xA1B2C3D4u;
    assert_int_equal(one(&f, 0x01020304u, 0x04030201u, &c), 0xA103C304u);
    /* .add with a mask sums only the selected elements */
    f = (vform)SIMD2(IR_VID_SUB, IR_T_S32, IR_T_S32, IR_T_S32);
    f.op2 = IR_VIDOP2_ADD;
    f.dsel = 0x2;
    c = 10;
    assert_int_equal(one(&f, 0x00010064u, 0x00040001u, &c), 10u - 3u);
}

static void test_simd_selectors_avrg_set(void **state)
{
    (void)state;
    /* asel .b0123 reverses a's bytes; bsel .b4444 repeats b's byte 0 */
    vform f = SIMD4(IR_VID_ADD, IR_T_U32, IR_T_U32, IR_T_U32);
    f.asel = 0x0123;
    f.bsel = 0x4444;
    assert_int_equal(one(&f, 0x40302010u, 0x00000001u, &zero), 0x11213141u);
    /* a selector may take b's elements and b's selector a's: .h32 for a, .h10 for b swaps */
    f = (vform)SIMD2(IR_VID_SUB, IR_T_U32, IR_T_U32, IR_T_U32);
    f.asel = 0x32;
    f.bsel = 0x10;
    assert_int_equal(one(&f, 0x00010002u, 0x00100020u, &zero), 0x000F001Eu);
    /* vavrg rounds half up for non-negative sums, down (toward -inf) for negative ones:
     * (3 + 4 + 1) >> 1 = 4; (-3 + -4) >> 1 = -4; (-1 + 2 + 1) >> 1 = 1 */
    f = (vform)SIMD4(IR_VID_AVRG, IR_T_S32, IR_T_S32, IR_T_S32);
    assert_int_equal(one(&f, 0x00FFFD03u, 0x0002FC04u, &zero), 0x0001FC04u);
    /* vset4: 1 where a >= b (unsigned), c merged under .b31 */
    f = (vform)SIMD4(IR_VID_SET, IR_T_U32, IR_T_U32, IR_T_U32);
    f.cmp = IR_CMP_GE;
    f.dsel = 0xA;
    uint32_t c = 0x55555555u;
    assert_int_equal(one(&f, 0x05FF0001u, 0x06010000u, &c), 0x00550155u);
    f.dsel = 0xF;
    f.op2 = IR_VIDOP2_ADD;
    assert_int_equal(one(&f, 0x05FF0001u, 0x06010000u, &c), 0x55555555u + 3u);
}

static void test_scalar(void **state)
{
    (void)state;
    /* vadd.s32.u32.s32.sat d, a.b0, b.h1: 0xFF + (-2) = 253 */
    vform f = SCALAR(IR_VID_ADD, IR_T_S32, IR_T_U32, IR_T_S32);
    f.sat = 1;
    f.asel = IR_VIDSEL_B0;
    f.bsel = IR_VIDSEL_H1;
    assert_int_equal(one(&f, 0x123456FFu, 0xFFFE0000u, NULL), 253u);
    /* 33-bit intermediate: u32 max + u32 max saturates to u32 max, wraps without .sat */
    f = (vform)SCALAR(IR_VID_ADD, IR_T_U32, IR_T_U32, IR_T_U32);
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, NULL), 0xFFFFFFFEu);
    f.sat = 1;
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, NULL), 0xFFFFFFFFu);
    /* merge into byte 2 saturates to the byte's range */
    f = (vform)SCALAR(IR_VID_SUB, IR_T_S32, IR_T_S32, IR_T_S32);
    f.sat = 1;
    f.dsel = IR_VIDSEL_B2;
    uint32_t c = 0x11223344u;
    assert_int_equal(one(&f, 1000, 3, &c), 0x117F3344u);
    /* secondary min/max compare with c as the destination type */
    f = (vform)SCALAR(IR_VID_ABSDIFF, IR_T_S32, IR_T_S32, IR_T_S32);
    f.op2 = IR_VIDOP2_MIN;
    c = (uint32_t)-5;
    assert_int_equal(one(&f, 7, 2, &c), (uint32_t)-5);
    f.op2 = IR_VIDOP2_MAX;
    assert_int_equal(one(&f, 7, 2, &c), 5u);
    /* vset.lt: 1/0, then .add */
    f = (vform)SCALAR(IR_VID_SET, IR_T_U32, IR_T_S32, IR_T_U32);
    f.cmp = IR_CMP_LT;
    assert_int_equal(one(&f, (uint32_t)-1, 0, NULL), 1u);
    f.op2 = IR_VIDOP2_ADD;
    c = 41;
    assert_int_equal(one(&f, (uint32_t)-1, 0, &c), 42u);
}

static void test_shifts_and_vmad(void **state)
{
    (void)state;
    /* .wrap takes the amount mod 32, .clamp caps it at 32 */
    vform f = SCALAR(IR_VID_SHL, IR_T_U32, IR_T_U32, IR_T_U32);
    assert_int_equal(one(&f, 3, 33, NULL), 6u);
    f.clamp = 1;
    assert_int_equal(one(&f, 3, 33, NULL), 0u);
    f.sat = 1;
    assert_int_equal(one(&f, 3, 33, NULL), 0xFFFFFFFFu);
    assert_int_equal(one(&f, 3, 31, NULL), 0xFFFFFFFFu);
    assert_int_equal(one(&f, 3, 30, NULL), 0xC0000000u);
    assert_int_equal(one(&f, 3, 4, NULL), 48u);
    f = (vform)SCALAR(IR_VID_SHR, IR_T_S32, IR_T_S32, IR_T_U32);
    f.clamp = 1;
    assert_int_equal(one(&f, (uint32_t)-64, 40, NULL), 0xFFFFFFFFu);
    assert_int_equal(one(&f, (uint32_t)-64, 3, NULL), (uint32_t)-8);
    f.asel = IR_VIDSEL_B1; /* byte 1 of 0x8000 is 0x80: -128 */
    assert_int_equal(one(&f, 0x8000u, 1, NULL), (uint32_t)-64);
    /* vmad: a*b + c, .po adds one, .shr7 shifts the sum, .sat clamps */
    f = (vform)SCALAR(IR_VID_MAD, IR_T_U32, IR_T_U32, IR_T_U32);
    uint32_t c = 5;
    assert_int_equal(one(&f, 300, 7, &c), 2105u);
    f.po = 1;
    assert_int_equal(one(&f, 300, 7, &c), 2106u);
    f.po = 0;
    f.scale = 1;
    assert_int_equal(one(&f, 300, 7, &c), 2105u >> 7);
    /* the largest unsigned sum, (2^32 - 1)^2 + (2^32 - 1) + 1 = 2^64 - 2^32 + 1, without
     * overflow: after .shr7 2^57 - 2^25, whose low word is 0xFE000000; .shr15 and .sat clamp */
    f.po = 1;
    c = 0xFFFFFFFFu;
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, &c), 0xFE000000u);
    f.scale = 2;
    f.sat = 1;
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, &c), 0xFFFFFFFFu);
    /* a signed product with c read as signed: -3 * 255 + (-1) */
    f = (vform)SCALAR(IR_VID_MAD, IR_T_S32, IR_T_S32, IR_T_U32);
    f.bsel = IR_VIDSEL_B0;
    c = 0xFFFFFFFFu;
    assert_int_equal(one(&f, (uint32_t)-3, 0xFFu, &c), (uint32_t)-766);
    f.scale = 1; /* -766 >> 7 rounds toward -inf: -6 */
    assert_int_equal(one(&f, (uint32_t)-3, 0xFFu, &c), (uint32_t)-6);
}

/* vmad's negations: the product (exactly one of a, b negated) or c; negating makes the sum
 * signed, so .sat clamps to the signed range, and the exact sum reaches 66 bits. */
static void test_vmad_negation(void **state)
{
    (void)state;
    vform f = SCALAR(IR_VID_MAD, IR_T_U32, IR_T_U32, IR_T_U32);
    f.neg_ab = 1; /* -(3 * 5) + 10, c read as signed */
    uint32_t c = 10;
    assert_int_equal(one(&f, 3, 5, &c), (uint32_t)-5);
    f.sat = 1;
    assert_int_equal(one(&f, 3, 5, &c), (uint32_t)-5);
    c = 0; /* -(2^32 - 1)^2: far below the signed range */
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, &c), 0x80000000u);
    f.sat = 0;
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, &c), 0xFFFFFFFFu);
    f.scale = 2; /* rounds toward -inf */
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, &c), 0x0003FFFFu);
    f = (vform)SCALAR(IR_VID_MAD, IR_T_U32, IR_T_U32, IR_T_U32);
    f.neg_c = 1; /* (2^32 - 1)^2 - 1: unsigned product, signed result */
    c = 1;
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, &c), 0x00000000u);
    f.sat = 1;
    assert_int_equal(one(&f, 0xFFFFFFFFu, 0xFFFFFFFFu, &c), 0x7FFFFFFFu);
    c = 0xFFFFFFFFu; /* 2 * 3 - (2^32 - 1), c zero-extended: below the signed range */
    assert_int_equal(one(&f, 2, 3, &c), 0x80000000u);
    f.sat = 0;
    f.asel = IR_VIDSEL_H1;
    assert_int_equal(one(&f, 0x00020000u, 3, &c), (uint32_t)(6 - 4294967295LL));
    f = (vform)SCALAR(IR_VID_MAD, IR_T_S32, IR_T_S32, IR_T_S32);
    f.sat = 1;
    c = 0;
    assert_int_equal(one(&f, 0x10000, 0x10000, &c), 0x7FFFFFFFu);
    assert_int_equal(one(&f, (uint32_t)-3, 4, &c), (uint32_t)-12);
}

/* ---- the reference, from the ISA's pseudo-code ---- */

static int64_t sext(uint64_t v, unsigned bits, int is_signed)
{
    v &= (bits == 64) ? ~0ull : (1ull << bits) - 1;
    if (is_signed && bits < 64 && (v >> (bits - 1)) & 1)
        return (int64_t)(v | ~((1ull << bits) - 1));
    return (int64_t)v;
}

static int64_t ref_clamp(int64_t x, unsigned bits, int is_signed)
{
    int64_t mx = is_signed ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    int64_t mn = is_signed ? -(1ll << (bits - 1)) : 0;
    return x > mx ? mx : x < mn ? mn : x;
}

static int64_t ref_op(const vform *f, int64_t x, int64_t y)
{
    switch (f->sub) {
    case IR_VID_ADD: return x + y;
    case IR_VID_SUB: return x - y;
    case IR_VID_ABSDIFF: return x - y < 0 ? y - x : x - y;
    case IR_VID_MIN: return x <= y ? x : y;
    case IR_VID_MAX: return x >= y ? x : y;
    case IR_VID_AVRG: return (x + y >= 0) ? (x + y + 1) / 2 : -((-(x + y) + 1) / 2);
    case IR_VID_SET:
        switch (f->cmp) {
        case IR_CMP_EQ: return x == y;
        case IR_CMP_NE: return x != y;
        case IR_CMP_LT: return x < y;
        case IR_CMP_LE: return x <= y;
        case IR_CMP_GT: return x > y;
        default: return x >= y;
        }
    default: return 0;
    }
}

/* SIMD: the pseudo-code's Va, Vb, Vc arrays, the clamp, then accumulate or merge. */
static uint32_t ref_simd(const vform *f, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned n = f->op == IR_VOP2 ? 2 : 4, w = 32 / n;
    uint64_t both = ((uint64_t)b << 32) | a;
    int64_t va[4], vb[4], t[4];
    uint32_t vc[4];
    int sd = f->sub == IR_VID_SET ? 0 : f->td == IR_T_S32;
    for (unsigned i = 0; i < n; i++) {
        va[i] = sext(both >> (w * ((f->asel >> (4 * i)) & 15)), w, f->ta == IR_T_S32);
        vb[i] = sext(both >> (w * ((f->bsel >> (4 * i)) & 15)), w, f->tb == IR_T_S32);
        vc[i] = (uint32_t)(c >> (w * i)) & ((1u << w) - 1);
        t[i] = ref_op(f, va[i], vb[i]);
        if (f->sat)
            t[i] = ref_clamp(t[i], w, sd);
    }
    uint32_t d = 0;
    if (f->op2 == IR_VIDOP2_ADD) {
        int64_t sum = (int64_t)c;
        for (unsigned i = 0; i < n; i++)
            if ((f->dsel >> i) & 1)
                sum += t[i];
        return (uint32_t)sum;
    }
    for (unsigned i = 0; i < n; i++) {
        uint32_t e = ((f->dsel >> i) & 1) ? (uint32_t)t[i] & ((1u << w) - 1) : vc[i];
        d |= e << (w * i);
    }
    return d;
}

static int64_t ref_part(uint32_t v, unsigned sel, int is_signed)
{
    if (sel >= IR_VIDSEL_B0 && sel <= IR_VIDSEL_B3)
        return sext(v >> (8 * (sel - IR_VIDSEL_B0)), 8, is_signed);
    if (sel == IR_VIDSEL_H0 || sel == IR_VIDSEL_H1)
        return sext(v >> (16 * (sel - IR_VIDSEL_H0)), 16, is_signed);
    return sext(v, 32, is_signed);
}

/* Scalar vadd/vsub/vabsdiff/vmin/vmax/vset: optSaturate, optSecondaryOp, optMerge. */
static uint32_t ref_scalar(const vform *f, uint32_t a, uint32_t b, uint32_t c)
{
    int64_t ta = ref_part(a, f->asel, f->ta == IR_T_S32);
    int64_t tb = ref_part(b, f->bsel, f->tb == IR_T_S32);
    int sd = f->sub == IR_VID_SET ? 0 : f->td == IR_T_S32;
    int64_t tmp = ref_op(f, ta, tb);
    unsigned bits = f->dsel == IR_VIDSEL_WORD ? 32 : f->dsel >= IR_VIDSEL_H0 ? 16 : 8;
    if (f->sat)
        tmp = ref_clamp(tmp, bits, sd);
    int64_t cc = sext(c, 32, sd);
    if (f->dsel != IR_VIDSEL_WORD) {
        unsigned pos = f->dsel >= IR_VIDSEL_H0 ? 16 * (f->dsel - IR_VIDSEL_H0)
                                                : 8 * (f->dsel - IR_VIDSEL_B0);
        uint32_t m = (uint32_t)(((1ull << bits) - 1) << pos);
        return (c & ~m) | ((uint32_t)((uint64_t)tmp << pos) & m);
    }
    if (f->op2 == IR_VIDOP2_ADD)
        return (uint32_t)(tmp + cc);
    if (f->op2 == IR_VIDOP2_MIN)
        return (uint32_t)(tmp < cc ? tmp : cc);
    if (f->op2 == IR_VIDOP2_MAX)
        return (uint32_t)(tmp > cc ? tmp : cc);
    return (uint32_t)tmp;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(rng >> 32);
    /* bias towards the edges of bytes and half-words, where saturation matters */
    switch (r & 7) {
    case 0: return r & 0x80808080u ? 0x7F80FF00u ^ (r & 0x01010101u) : 0xFFFF8000u;
    case 1: return r | 0x80808080u;
    default: return r ^ (uint32_t)(rng >> 7);
    }
}

static void compare_random(const vform *f, int simd, int has_c)
{
    uint32_t a[ALU_LANES], b[ALU_LANES], c[ALU_LANES], out[ALU_LANES];
    for (int round = 0; round < 8; round++) {
        for (int l = 0; l < ALU_LANES; l++) {
            a[l] = next();
            b[l] = next();
            c[l] = next();
        }
        run(f, a, b, has_c ? c : NULL, out);
        for (int l = 0; l < ALU_LANES; l++) {
            uint32_t cc = has_c ? c[l] : 0;
            uint32_t want = simd ? ref_simd(f, a[l], b[l], cc) : ref_scalar(f, a[l], b[l], cc);
            if (out[l] != want)
                print_error("op %u sub %u types %d.%d.%d sat %d asel %#x bsel %#x dsel %#x op2 %u"
                            ": a=%#x b=%#x c=%#x got %#x want %#x\n", f->op, f->sub, f->td,
                            f->ta, f->tb, f->sat, f->asel, f->bsel, f->dsel, f->op2, a[l], b[l],
                            cc, out[l], want);
            assert_int_equal(out[l], want);
        }
    }
}

static const unsigned simd_subs[] = {IR_VID_ADD, IR_VID_SUB, IR_VID_AVRG, IR_VID_ABSDIFF,
                                     IR_VID_MIN, IR_VID_MAX, IR_VID_SET};
static const ir_type tys[2] = {IR_T_U32, IR_T_S32};

static void test_simd_against_reference(void **state)
{
    (void)state;
    static const unsigned sels4[][2] = {{0x3210, 0x7654}, {0x0123, 0x4567}, {0x7531, 0x6420},
                                        {0x5555, 0x0000}};
    static const unsigned sels2[][2] = {{0x10, 0x32}, {0x01, 0x23}, {0x30, 0x21}, {0x22, 0x11}};
    for (int lanes = 2; lanes <= 4; lanes += 2)
        for (size_t s = 0; s < sizeof simd_subs / sizeof simd_subs[0]; s++)
            for (int t = 0; t < 8; t++)
                for (int mode = 0; mode < 3; mode++) /* merge, merge .sat, .add */
                    for (int sel = 0; sel < 4; sel++) {
                        vform f = {lanes == 2 ? IR_VOP2 : IR_VOP4, simd_subs[s], tys[t & 1],
                                   tys[(t >> 1) & 1], tys[(t >> 2) & 1], 0, 0, 0, 0, 0, 0, 0,
                                   0, 0, 0, 0};
                        if (f.sub == IR_VID_SET) {
                            if (mode == 1)
                                continue; /* vset takes no .sat */
                            f.cmp = IR_CMP_EQ + (unsigned)(t + sel) % 6;
                        }
                        f.sat = mode == 1;
                        f.op2 = mode == 2 ? IR_VIDOP2_ADD : IR_VIDOP2_NONE;
                        f.asel = lanes == 2 ? sels2[sel][0] : sels4[sel][0];
                        f.bsel = lanes == 2 ? sels2[sel][1] : sels4[sel][1];
                        unsigned full = (1u << lanes) - 1;
                        f.dsel = sel == 3 ? (full & 0x5u) : full;
                        compare_random(&f, 1, 1);
                    }
}

static void test_scalar_against_reference(void **state)
{
    (void)state;
    static const unsigned subs[] = {IR_VID_ADD, IR_VID_SUB, IR_VID_ABSDIFF, IR_VID_MIN,
                                    IR_VID_MAX, IR_VID_SET};
    static const unsigned sels[] = {IR_VIDSEL_WORD, IR_VIDSEL_B0, IR_VIDSEL_B3, IR_VIDSEL_H1};
    for (size_t s = 0; s < sizeof subs / sizeof subs[0]; s++)
        for (int t = 0; t < 8; t++)
            for (int mode = 0; mode < 6; mode++) /* plain, .add, .min, .max, merge b1, merge h0 */
                for (int sat = 0; sat < 2; sat++)
                    for (int sel = 0; sel < 4; sel++) {
                        vform f = {IR_VOP, subs[s], tys[t & 1], tys[(t >> 1) & 1],
                                   tys[(t >> 2) & 1], sat, 0, sels[sel], sels[(sel + 1) % 4],
                                   0, 0, 0, 0, 0, 0, 0};
                        if (f.sub == IR_VID_SET) {
                            if (sat)
                                continue;
                            f.td = IR_T_U32;
                            f.cmp = IR_CMP_EQ + (unsigned)(t + sel + mode) % 6;
                        }
                        f.op2 = mode >= 1 && mode <= 3 ? (unsigned)mode : IR_VIDOP2_NONE;
                        f.dsel = mode == 4 ? IR_VIDSEL_B1 : mode == 5 ? IR_VIDSEL_H0
                                                                       : IR_VIDSEL_WORD;
                        compare_random(&f, 0, mode != 0);
                    }
}

static void test_lookup_rejects(void **state)
{
    (void)state;
    vform f = SIMD4(IR_VID_ADD, IR_T_U32, IR_T_U32, IR_T_U32);
    ir_insn in = make(&f, 1);
    in.sub = 0;
    assert_null(alu_lookup(&in));
    in.sub = IR_VID_SET + 1;
    assert_null(alu_lookup(&in));
    in.sub = IR_VID_ADD;
    in.src[3].kind = IR_OPND_REG; /* the control word must be an immediate */
    assert_null(alu_lookup(&in));
    in.src[3].kind = IR_OPND_IMM;
    in.mods = IR_MOD_FTZ;
    assert_null(alu_lookup(&in));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvcc_forms),
        cmocka_unit_test(test_simd_saturation_and_merge),
        cmocka_unit_test(test_simd_selectors_avrg_set),
        cmocka_unit_test(test_scalar),
        cmocka_unit_test(test_shifts_and_vmad),
        cmocka_unit_test(test_vmad_negation),
        cmocka_unit_test(test_simd_against_reference),
        cmocka_unit_test(test_scalar_against_reference),
        cmocka_unit_test(test_lookup_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
