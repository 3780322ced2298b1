/* Logic, shift and bit-manipulation instructions (PTX ISA 9.1 §9.7.1 integer bit instructions and
 * §9.7.8 logic and shift): and, or, xor, not, cnot, lop3, shl, shr, shf, bfe, bfi, bmsk, szext,
 * brev, popc, clz, bfind, fns, prmt, dp4a, dp2a.
 *
 * Shift counts are unsigned and clamped to the operand width (shl and shr.u then give 0, shr.s
 * the sign fill), so no C shift ever reaches the width. Predicates (and.pred, not.pred ...) are
 * 0/1 lanes. Arithmetic lives in alu_int.c. */
#include "exec/alu_internal.h"

/* ---- and / or / xor / not / cnot ---- */

enum logic_op { LOG_AND, LOG_OR, LOG_XOR, LOG_NOT, LOG_CNOT };

ALU_INLINE void logic_lanes(const alu_args *a, enum logic_op op, uint64_t mask)
{
    const uint64_t *s0 = a->src[0], *s1 = op <= LOG_XOR ? a->src[1] : a->src[0];
    ALU_FOR_LANES(l) {
        uint64_t x = s0[l], y = s1[l], r;
        switch (op) {
        case LOG_AND: r = x & y; break;
        case LOG_OR: r = x | y; break;
        case LOG_XOR: r = x ^ y; break;
        case LOG_NOT: r = ~x; break;
        default: r = (x & mask) == 0; break;
        }
        a->dst[l] = r & mask;
    }
}

#define LOGIC_FN(name, op, mask)                                                              \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        logic_lanes(a, op, mask);                                                             \
    }

#define LOGIC_WIDTH_FNS(w, mask)                                                              \
    LOGIC_FN(and_##w, LOG_AND, mask) LOGIC_FN(or_##w, LOG_OR, mask)                           \
    LOGIC_FN(xor_##w, LOG_XOR, mask) LOGIC_FN(not_##w, LOG_NOT, mask)                         \
    LOGIC_FN(cnot_##w, LOG_CNOT, mask)

LOGIC_WIDTH_FNS(pred, 1u)
LOGIC_WIDTH_FNS(16, 0xFFFFu)
LOGIC_WIDTH_FNS(32, 0xFFFFFFFFu)
LOGIC_WIDTH_FNS(64, ~UINT64_C(0))

#ifdef ALU_AVX2_VARIANTS
#define LOGIC_FN_AVX2(name, op, mask)                                                         \
    ALU_TARGET_AVX2 static void name##_avx2(const ir_insn *in, const alu_args *a)             \
    {                                                                                         \
        (void)in;                                                                             \
        logic_lanes(a, op, mask);                                                             \
    }
LOGIC_FN_AVX2(and_32, LOG_AND, 0xFFFFFFFFu) LOGIC_FN_AVX2(or_32, LOG_OR, 0xFFFFFFFFu)
LOGIC_FN_AVX2(xor_32, LOG_XOR, 0xFFFFFFFFu) LOGIC_FN_AVX2(and_64, LOG_AND, ~UINT64_C(0))
LOGIC_FN_AVX2(or_64, LOG_OR, ~UINT64_C(0)) LOGIC_FN_AVX2(xor_64, LOG_XOR, ~UINT64_C(0))
/* [64-bit][and or xor] */
static const alu_fn logic_avx2[2][3] = {{and_32_avx2, or_32_avx2, xor_32_avx2},
                                        {and_64_avx2, or_64_avx2, xor_64_avx2}};
#endif

#define LOGIC_ROW(w) {and_##w, or_##w, xor_##w, not_##w, cnot_##w}
static const alu_fn logic_table[4][5] = {LOGIC_ROW(pred), LOGIC_ROW(16), LOGIC_ROW(32),
                                         LOGIC_ROW(64)};

/* lop3.b32: bit i of the look-up table gives the result for inputs (a, b, c) = bits of i from
 * the most significant, i.e. the table is F(0xF0, 0xCC, 0xAA). */
static void lop3_b32(const ir_insn *in, const alu_args *a)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2], *s3 = a->src[3];
    int imm = in->src[3].kind == IR_OPND_IMM || s3 == NULL;
    uint32_t lut_imm = (uint32_t)in->src[3].imm & 0xFFu;
    ALU_FOR_LANES(l) {
        uint32_t lut = imm ? lut_imm : (uint32_t)s3[l] & 0xFFu;
        uint32_t x = (uint32_t)s0[l], y = (uint32_t)s1[l], z = (uint32_t)s2[l], r = 0;
        for (unsigned i = 0; i < 8; i++) {
            uint32_t term = ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
            r |= term & (0u - ((lut >> i) & 1u));
        }
        a->dst[l] = r;
    }
}

/* ---- shl / shr ---- */

ALU_INLINE uint64_t shift_right(uint64_t x, uint64_t n, unsigned bits, int arith)
{
    uint64_t mask = alu_width_mask(bits);
    int neg = arith && ((x >> (bits - 1)) & 1u);
    x &= mask;
    if (n >= bits)
        return neg ? mask : 0;
    uint64_t r = x >> n;
    if (neg)
        r |= mask & ~(mask >> n);
    return r;
}

ALU_INLINE void shift_lanes(const alu_args *a, int right, unsigned bits, int arith)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    uint64_t mask = alu_width_mask(bits);
    ALU_FOR_LANES(l) {
        uint64_t n = s1[l] & 0xFFFFFFFFu; /* the count is a u32 operand */
        if (right)
            a->dst[l] = shift_right(s0[l], n, bits, arith);
        else
            a->dst[l] = n >= bits ? 0 : (s0[l] << n) & mask;
    }
}

#define SHIFT_FN(name, right, bits, arith)                                                    \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        shift_lanes(a, right, bits, arith);                                                   \
    }

SHIFT_FN(shl_16, 0, 16, 0) SHIFT_FN(shl_32, 0, 32, 0) SHIFT_FN(shl_64, 0, 64, 0)

/* shl by an immediate count: one count for every lane, so the lane loop is a plain shift. */
ALU_INLINE void shl_imm_lanes(const ir_insn *in, const alu_args *a)
{
    const uint64_t *s0 = a->src[0];
    unsigned bits = ir_type_bits((ir_type)in->type);
    uint64_t n = (uint64_t)in->src[1].imm & 0xFFFFFFFFu, mask = alu_width_mask(bits);
    if (n >= bits) {
        ALU_FOR_LANES(l) a->dst[l] = 0;
        return;
    }
    ALU_FOR_LANES(l) a->dst[l] = (s0[l] << n) & mask;
}

static void shl_imm(const ir_insn *in, const alu_args *a)
{
    shl_imm_lanes(in, a);
}
SHIFT_FN(shr_u16, 1, 16, 0) SHIFT_FN(shr_u32, 1, 32, 0) SHIFT_FN(shr_u64, 1, 64, 0)
SHIFT_FN(shr_s16, 1, 16, 1) SHIFT_FN(shr_s32, 1, 32, 1) SHIFT_FN(shr_s64, 1, 64, 1)

/* shr by an immediate count, as shl_imm: shift_right's result for one count in every lane,
 * without its per-lane tests. A count of at least the width shifts by width - 1 and fills with
 * the sign (.s) or gives 0 (.u); `fill` is the high bits a negative value shifts in. */
ALU_INLINE void shr_imm_lanes(const ir_insn *in, const alu_args *a, int arith)
{
    const uint64_t *s0 = a->src[0];
    unsigned bits = ir_type_bits((ir_type)in->type);
    uint64_t n = (uint64_t)in->src[1].imm & 0xFFFFFFFFu, mask = alu_width_mask(bits);
    if (n >= bits) {
        if (!arith) {
            ALU_FOR_LANES(l) a->dst[l] = 0;
            return;
        }
        n = bits - 1;
    }
    uint64_t fill = mask & ~(mask >> n);
    if (!arith) {
        ALU_FOR_LANES(l) a->dst[l] = (s0[l] & mask) >> n;
        return;
    }
    ALU_FOR_LANES(l) {
        uint64_t x = s0[l] & mask, neg = 0 - ((x >> (bits - 1)) & 1u);
        a->dst[l] = (x >> n) | (neg & fill);
    }
}

static void shr_u_imm(const ir_insn *in, const alu_args *a)
{
    shr_imm_lanes(in, a, 0);
}

static void shr_s_imm(const ir_insn *in, const alu_args *a)
{
    shr_imm_lanes(in, a, 1);
}

#ifdef ALU_AVX2_VARIANTS
ALU_TARGET_AVX2 static void shl_imm_avx2(const ir_insn *in, const alu_args *a)
{
    shl_imm_lanes(in, a);
}

ALU_TARGET_AVX2 static void shr_u_imm_avx2(const ir_insn *in, const alu_args *a)
{
    shr_imm_lanes(in, a, 0);
}

ALU_TARGET_AVX2 static void shr_s_imm_avx2(const ir_insn *in, const alu_args *a)
{
    shr_imm_lanes(in, a, 1);
}
#endif

/* shf.l / shf.r: funnel shift of the 64-bit value {b (high), a (low)} by c; .clamp limits c to
 * 32, .wrap takes it modulo 32. shf.r.s32 shifts in copies of b's sign bit. */
ALU_INLINE void shf_lanes(const alu_args *a, int left, int clamp, int arith)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    ALU_FOR_LANES(l) {
        uint64_t c = s2[l] & 0xFFFFFFFFu;
        uint64_t n = clamp ? (c > 32 ? 32 : c) : c & 31u;
        uint64_t v = ((s1[l] & 0xFFFFFFFFu) << 32) | (s0[l] & 0xFFFFFFFFu);
        uint64_t r = left ? (v << n) >> 32 : shift_right(v, n, 64, arith);
        a->dst[l] = r & 0xFFFFFFFFu;
    }
}

#define SHF_FN(name, left, clamp, arith)                                                      \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        shf_lanes(a, left, clamp, arith);                                                     \
    }

SHF_FN(shf_l_wrap, 1, 0, 0) SHF_FN(shf_l_clamp, 1, 1, 0)
SHF_FN(shf_r_wrap, 0, 0, 0) SHF_FN(shf_r_clamp, 0, 1, 0)
SHF_FN(shf_r_wrap_s, 0, 0, 1) SHF_FN(shf_r_clamp_s, 0, 1, 1)

/* ---- bit fields ---- */

/* bfe: len bits of a from bit pos (each the low 8 bits of its operand); positions past the msb read
 * the fill bit, which is 0 for unsigned types and a's bit min(pos + len - 1, msb) for signed. */
ALU_INLINE uint64_t bfe(uint64_t a, uint64_t b, uint64_t c, unsigned bits, int is_signed)
{
    unsigned msb = bits - 1, pos = (unsigned)(b & 0xFFu), len = (unsigned)(c & 0xFFu);
    uint64_t mask = alu_width_mask(bits);
    a &= mask;
    uint64_t fill = 0;
    if (is_signed && len != 0) {
        unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
        fill = (a >> top) & 1u;
    }
    uint64_t field = pos > msb ? 0 : a >> pos;            /* bits available from pos */
    unsigned avail = pos > msb ? 0 : bits - pos;          /* how many of them exist */
    unsigned take = len < avail ? len : avail;
    uint64_t r = field & alu_width_mask(take == 0 ? 0 : take);
    if (take == 0)
        r = 0;
    if (fill)
        r |= mask & ~alu_width_mask(take);
    return r;
}

/* bfi: a's low len bits replace len bits of b from bit pos (clipped at the msb). */
ALU_INLINE uint64_t bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t d, unsigned bits)
{
    unsigned pos = (unsigned)(c & 0xFFu), len = (unsigned)(d & 0xFFu);
    uint64_t mask = alu_width_mask(bits);
    if (pos >= bits || len == 0)
        return b & mask;
    unsigned take = len < bits - pos ? len : bits - pos;
    uint64_t field = alu_width_mask(take) << pos;
    return ((b & ~field) | ((a << pos) & field)) & mask;
}

ALU_INLINE void bfe_lanes(const alu_args *a, unsigned bits, int is_signed)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    ALU_FOR_LANES(l) a->dst[l] = bfe(s0[l], s1[l], s2[l], bits, is_signed);
}

ALU_INLINE void bfi_lanes(const alu_args *a, unsigned bits)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2], *s3 = a->src[3];
    ALU_FOR_LANES(l) a->dst[l] = bfi(s0[l], s1[l], s2[l], s3[l], bits);
}

static void bfe_u32(const ir_insn *in, const alu_args *a) { (void)in; bfe_lanes(a, 32, 0); }
static void bfe_s32(const ir_insn *in, const alu_args *a) { (void)in; bfe_lanes(a, 32, 1); }
static void bfe_u64(const ir_insn *in, const alu_args *a) { (void)in; bfe_lanes(a, 64, 0); }
static void bfe_s64(const ir_insn *in, const alu_args *a) { (void)in; bfe_lanes(a, 64, 1); }
static void bfi_b32(const ir_insn *in, const alu_args *a) { (void)in; bfi_lanes(a, 32); }
static void bfi_b64(const ir_insn *in, const alu_args *a) { (void)in; bfi_lanes(a, 64); }

/* bmsk: a mask of b ones starting at bit a; .clamp limits both to 32, .wrap takes them mod 32. */
ALU_INLINE void bmsk_lanes(const alu_args *a, int clamp)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    ALU_FOR_LANES(l) {
        uint64_t pos = s0[l] & 0xFFFFFFFFu, len = s1[l] & 0xFFFFFFFFu;
        pos = clamp ? (pos > 32 ? 32 : pos) : pos & 31u;
        len = clamp ? (len > 32 ? 32 : len) : len & 31u;
        a->dst[l] = (alu_width_mask((unsigned)len) << pos) & 0xFFFFFFFFu;
    }
}

/* szext: sign- (s32) or zero- (u32) extend the low b bits of a; .clamp limits b to 32, .wrap
 * takes it mod 32; a width of 0 gives 0. */
ALU_INLINE void szext_lanes(const alu_args *a, int clamp, int is_signed)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1];
    ALU_FOR_LANES(l) {
        uint64_t n = s1[l] & 0xFFFFFFFFu;
        n = clamp ? (n > 32 ? 32 : n) : n & 31u;
        uint64_t r = n == 0 ? 0
                     : is_signed ? (uint64_t)alu_sext(s0[l], (unsigned)n)
                                 : s0[l] & alu_width_mask((unsigned)n);
        a->dst[l] = r & 0xFFFFFFFFu;
    }
}

static void bmsk_wrap(const ir_insn *in, const alu_args *a) { (void)in; bmsk_lanes(a, 0); }
static void bmsk_clamp(const ir_insn *in, const alu_args *a) { (void)in; bmsk_lanes(a, 1); }
static void szext_wrap_u(const ir_insn *in, const alu_args *a) { (void)in; szext_lanes(a, 0, 0); }
static void szext_clamp_u(const ir_insn *in, const alu_args *a) { (void)in; szext_lanes(a, 1, 0); }
static void szext_wrap_s(const ir_insn *in, const alu_args *a) { (void)in; szext_lanes(a, 0, 1); }
static void szext_clamp_s(const ir_insn *in, const alu_args *a) { (void)in; szext_lanes(a, 1, 1); }

/* ---- counting: brev, popc, clz, bfind, fns ---- */

enum count_op { CNT_BREV, CNT_POPC, CNT_CLZ, CNT_BFIND, CNT_BFIND_SHIFTAMT };

ALU_INLINE uint64_t bit_reverse(uint64_t x, unsigned bits)
{
    x = ((x >> 1) & UINT64_C(0x5555555555555555)) | ((x & UINT64_C(0x5555555555555555)) << 1);
    x = ((x >> 2) & UINT64_C(0x3333333333333333)) | ((x & UINT64_C(0x3333333333333333)) << 2);
    x = ((x >> 4) & UINT64_C(0x0F0F0F0F0F0F0F0F)) | ((x & UINT64_C(0x0F0F0F0F0F0F0F0F)) << 4);
    x = ((x >> 8) & UINT64_C(0x00FF00FF00FF00FF)) | ((x & UINT64_C(0x00FF00FF00FF00FF)) << 8);
    x = ((x >> 16) & UINT64_C(0x0000FFFF0000FFFF)) | ((x & UINT64_C(0x0000FFFF0000FFFF)) << 16);
    x = (x >> 32) | (x << 32);
    return bits == 64 ? x : x >> 32;
}

ALU_INLINE uint64_t count_bits(enum count_op op, uint64_t x, unsigned bits, int is_signed)
{
    uint64_t mask = alu_width_mask(bits);
    x &= mask;
    switch (op) {
    case CNT_BREV: return bit_reverse(x, bits);
    case CNT_POPC: return (uint64_t)__builtin_popcountll(x);
    case CNT_CLZ: return x == 0 ? bits : (uint64_t)__builtin_clzll(x) - (64 - bits);
    default: {
        /* bfind: the most significant bit that differs from the sign (signed) or is set. */
        if (is_signed && ((x >> (bits - 1)) & 1u))
            x = ~x & mask;
        if (x == 0)
            return 0xFFFFFFFFu;
        uint64_t pos = 63 - (uint64_t)__builtin_clzll(x);
        return op == CNT_BFIND_SHIFTAMT ? (bits - 1) - pos : pos;
    }
    }
}

ALU_INLINE void count_lanes(const alu_args *a, enum count_op op, unsigned bits, int is_signed)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = count_bits(op, s0[l], bits, is_signed);
}

#define COUNT_FN(name, op, bits, sgn)                                                         \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        count_lanes(a, op, bits, sgn);                                                        \
    }

COUNT_FN(brev_32, CNT_BREV, 32, 0) COUNT_FN(brev_64, CNT_BREV, 64, 0)
COUNT_FN(popc_32, CNT_POPC, 32, 0) COUNT_FN(popc_64, CNT_POPC, 64, 0)
COUNT_FN(clz_32, CNT_CLZ, 32, 0) COUNT_FN(clz_64, CNT_CLZ, 64, 0)
COUNT_FN(bfind_u32, CNT_BFIND, 32, 0) COUNT_FN(bfind_u64, CNT_BFIND, 64, 0)
COUNT_FN(bfind_s32, CNT_BFIND, 32, 1) COUNT_FN(bfind_s64, CNT_BFIND, 64, 1)
COUNT_FN(bfind_sa_u32, CNT_BFIND_SHIFTAMT, 32, 0) COUNT_FN(bfind_sa_u64, CNT_BFIND_SHIFTAMT, 64, 0)
COUNT_FN(bfind_sa_s32, CNT_BFIND_SHIFTAMT, 32, 1) COUNT_FN(bfind_sa_s64, CNT_BFIND_SHIFTAMT, 64, 1)

/* fns: the position of the |offset|-th set bit of mask counting from bit base (upward for a
 * positive offset, downward for a negative one; offset 0 tests bit base itself), or 0xFFFFFFFF. */
static uint64_t find_nth_set(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31)
        return 0xFFFFFFFFu;
    if (offset == 0)
        return ((mask >> base) & 1u) ? base : 0xFFFFFFFFu;
    int step = offset > 0 ? 1 : -1;
    uint32_t remaining = offset > 0 ? (uint32_t)offset : 0u - (uint32_t)offset;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
        if (((mask >> pos) & 1u) && --remaining == 0)
            return (uint64_t)pos;
    return 0xFFFFFFFFu;
}

static void fns_b32(const ir_insn *in, const alu_args *a)
{
    (void)in;
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    ALU_FOR_LANES(l) a->dst[l] = find_nth_set((uint32_t)s0[l], (uint32_t)s1[l], (int32_t)(uint32_t)s2[l]);
}

/* ---- prmt ---- */

/* Byte selectors of the special modes, indexed [mode - 1][c & 3][result byte]. */
static const uint8_t prmt_mode_bytes[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, /* f4e */
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, /* b4e */
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, /* rc8 */
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, /* ecl */
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, /* ecr */
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, /* rc16 */
};

static void prmt_b32(const ir_insn *in, const alu_args *a)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    unsigned mode = in->sub;
    ALU_FOR_LANES(l) {
        uint64_t bytes = ((s1[l] & 0xFFFFFFFFu) << 32) | (s0[l] & 0xFFFFFFFFu); /* b:a */
        uint32_t c = (uint32_t)s2[l], r = 0;
        for (unsigned i = 0; i < 4; i++) {
            uint32_t byte;
            if (mode == IR_PRMT_DEFAULT) {
                uint32_t sel = (c >> (4 * i)) & 0xFu;
                byte = (uint32_t)(bytes >> (8 * (sel & 7u))) & 0xFFu;
                if (sel & 8u) /* replicate the selected byte's sign */
                    byte = (byte & 0x80u) ? 0xFFu : 0u;
            } else {
                byte = (uint32_t)(bytes >> (8 * prmt_mode_bytes[mode - 1][c & 3u][i])) & 0xFFu;
            }
            r |= byte << (8 * i);
        }
        a->dst[l] = r;
    }
}

/* ---- dp4a / dp2a ---- */

ALU_INLINE int64_t dp_element(uint64_t v, unsigned shift, unsigned bits, int is_signed)
{
    uint64_t e = (v >> shift) & alu_width_mask(bits);
    return is_signed ? alu_sext(e, bits) : (int64_t)e;
}

/* dp4a: c + the four byte products; dp2a: c + a's two 16-bit halves times two bytes of b
 * (bytes 0-1 for .lo, 2-3 for .hi). The 32-bit sum wraps. */
ALU_INLINE void dp_lanes(const alu_args *a, int four, int hi, int a_signed, int b_signed)
{
    const uint64_t *s0 = a->src[0], *s1 = a->src[1], *s2 = a->src[2];
    ALU_FOR_LANES(l) {
        uint64_t sum = s2[l];
        for (unsigned i = 0; i < (four ? 4u : 2u); i++) {
            int64_t x = four ? dp_element(s0[l], 8 * i, 8, a_signed)
                             : dp_element(s0[l], 16 * i, 16, a_signed);
            int64_t y = dp_element(s1[l], 8 * (i + (hi ? 2 : 0)), 8, b_signed);
            sum += (uint64_t)x * (uint64_t)y;
        }
        a->dst[l] = sum & 0xFFFFFFFFu;
    }
}

#define DP_FNS(sa, sb, as, bs)                                                                \
    static void dp4a_##sa##sb(const ir_insn *in, const alu_args *a) { (void)in; dp_lanes(a, 1, 0, as, bs); } \
    static void dp2a_lo_##sa##sb(const ir_insn *in, const alu_args *a) { (void)in; dp_lanes(a, 0, 0, as, bs); } \
    static void dp2a_hi_##sa##sb(const ir_insn *in, const alu_args *a) { (void)in; dp_lanes(a, 0, 1, as, bs); }

DP_FNS(u, u, 0, 0)
DP_FNS(u, s, 0, 1)
DP_FNS(s, u, 1, 0)
DP_FNS(s, s, 1, 1)

/* [kind: dp4a, dp2a.lo, dp2a.hi][a signed][b signed] */
static const alu_fn dp_table[3][2][2] = {
    {{dp4a_uu, dp4a_us}, {dp4a_su, dp4a_ss}},
    {{dp2a_lo_uu, dp2a_lo_us}, {dp2a_lo_su, dp2a_lo_ss}},
    {{dp2a_hi_uu, dp2a_hi_us}, {dp2a_hi_su, dp2a_hi_ss}},
};

/* ---- lookup ---- */

/* 0..3 for pred / 16 / 32 / 64-bit bit-size (or integer) types, -1 otherwise. */
static int width_index(ir_type t)
{
    if (t == IR_T_PRED)
        return 0;
    if (ir_type_is_float(t) || t == IR_T_NONE || t == IR_T_B128 || t >= IR_T_COUNT)
        return -1;
    switch (ir_type_bits(t)) {
    case 16: return 1;
    case 32: return 2;
    case 64: return 3;
    default: return -1;
    }
}

static alu_fn shift_lookup(const ir_insn *in, int wi)
{
    static const alu_fn shl[3] = {shl_16, shl_32, shl_64};
    static const alu_fn shr_u[3] = {shr_u16, shr_u32, shr_u64};
    static const alu_fn shr_s[3] = {shr_s16, shr_s32, shr_s64};
    if (wi < 1)
        return NULL;
    int arith = ir_type_is_signed((ir_type)in->type);
#ifdef ALU_AVX2_VARIANTS
    if (in->src[1].kind == IR_OPND_IMM && cpu_has_avx2())
        return in->op == IR_SHL ? shl_imm_avx2 : arith ? shr_s_imm_avx2 : shr_u_imm_avx2;
#endif
    if (in->op == IR_SHL)
        return in->src[1].kind == IR_OPND_IMM ? shl_imm : shl[wi - 1];
    if (in->src[1].kind == IR_OPND_IMM)
        return arith ? shr_s_imm : shr_u_imm;
    return arith ? shr_s[wi - 1] : shr_u[wi - 1];
}

static alu_fn shf_lookup(const ir_insn *in)
{
    int clamp = (in->mods & IR_MOD_CLAMP) != 0, is_signed = in->type == IR_T_S32;
    if (in->type != IR_T_B32 && in->type != IR_T_U32 && in->type != IR_T_S32)
        return NULL;
    if (in->mods & IR_MOD_LEFT)
        return clamp ? shf_l_clamp : shf_l_wrap;
    if (is_signed)
        return clamp ? shf_r_clamp_s : shf_r_wrap_s;
    return clamp ? shf_r_clamp : shf_r_wrap;
}

static alu_fn field_lookup(const ir_insn *in)
{
    ir_type t = (ir_type)in->type;
    int clamp = (in->mods & IR_MOD_CLAMP) != 0;
    switch (in->op) {
    case IR_BFE:
        return t == IR_T_U32 ? bfe_u32 : t == IR_T_S32 ? bfe_s32 : t == IR_T_U64 ? bfe_u64
               : t == IR_T_S64 ? bfe_s64 : NULL;
    case IR_BFI:
        return t == IR_T_B32 ? bfi_b32 : t == IR_T_B64 ? bfi_b64 : NULL;
    case IR_BMSK:
        return t == IR_T_B32 ? (clamp ? bmsk_clamp : bmsk_wrap) : NULL;
    case IR_SZEXT:
        if (t == IR_T_U32)
            return clamp ? szext_clamp_u : szext_wrap_u;
        return t == IR_T_S32 ? (clamp ? szext_clamp_s : szext_wrap_s) : NULL;
    default:
        return NULL;
    }
}

static alu_fn count_lookup(const ir_insn *in)
{
    ir_type t = (ir_type)in->type;
    int w64 = ir_type_bits(t) == 64;
    if (ir_type_bits(t) != 32 && !w64)
        return NULL;
    switch (in->op) {
    case IR_BREV: return t == IR_T_B32 || t == IR_T_B64 ? (w64 ? brev_64 : brev_32) : NULL;
    case IR_POPC: return t == IR_T_B32 || t == IR_T_B64 ? (w64 ? popc_64 : popc_32) : NULL;
    case IR_CLZ: return t == IR_T_B32 || t == IR_T_B64 ? (w64 ? clz_64 : clz_32) : NULL;
    case IR_BFIND: {
        int sa = (in->mods & IR_MOD_SHIFTAMT) != 0;
        if (t == IR_T_U32 || t == IR_T_U64)
            return sa ? (w64 ? bfind_sa_u64 : bfind_sa_u32) : (w64 ? bfind_u64 : bfind_u32);
        if (t == IR_T_S32 || t == IR_T_S64)
            return sa ? (w64 ? bfind_sa_s64 : bfind_sa_s32) : (w64 ? bfind_s64 : bfind_s32);
        return NULL;
    }
    default: return NULL;
    }
}

static alu_fn dp_lookup(const ir_insn *in)
{
    int as = in->type == IR_T_S32, bs = in->type2 == IR_T_S32;
    if ((in->type != IR_T_U32 && !as) || (in->type2 != IR_T_U32 && !bs))
        return NULL;
    if (in->op == IR_DP4A)
        return dp_table[0][as][bs];
    int hi = (in->mods & IR_MOD_HI) != 0, lo = (in->mods & IR_MOD_LO) != 0;
    return hi == lo ? NULL : dp_table[hi ? 2 : 1][as][bs];
}

alu_fn alu_bits_lookup(const ir_insn *in)
{
    int wi = width_index((ir_type)in->type);
    switch (in->op) {
    case IR_AND: case IR_OR: case IR_XOR: case IR_NOT: case IR_CNOT: {
        int op = in->op == IR_AND ? LOG_AND : in->op == IR_OR ? LOG_OR : in->op == IR_XOR ? LOG_XOR
                 : in->op == IR_NOT ? LOG_NOT : LOG_CNOT;
        if (wi < 0 || (op == LOG_CNOT && wi == 0))
            return NULL;
#ifdef ALU_AVX2_VARIANTS
        if (wi >= 2 && op <= LOG_XOR && cpu_has_avx2())
            return logic_avx2[wi == 3][op];
#endif
        return logic_table[wi][op];
    }
    case IR_LOP3: return in->type == IR_T_B32 ? lop3_b32 : NULL;
    case IR_SHL: case IR_SHR: return shift_lookup(in, wi);
    case IR_SHF: return shf_lookup(in);
    case IR_BFE: case IR_BFI: case IR_BMSK: case IR_SZEXT: return field_lookup(in);
    case IR_BREV: case IR_POPC: case IR_CLZ: case IR_BFIND: return count_lookup(in);
    case IR_FNS: return in->type == IR_T_B32 ? fns_b32 : NULL;
    case IR_PRMT: return in->type == IR_T_B32 && in->sub <= IR_PRMT_RC16 ? prmt_b32 : NULL;
    case IR_DP4A: case IR_DP2A: return dp_lookup(in);
    default: return NULL;
    }
}
