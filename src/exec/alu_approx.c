/* Special functions on f32 and f64 (PTX ISA 9.1 §9.7.3.12-22): rcp, sqrt (IEEE and .approx),
 * rsqrt, sin, cos, lg2, ex2 and tanh approximations.
 *
 * IEEE forms (.rn/.rz/.rm/.rp) are correctly rounded by the host. The .approx forms are computed
 * in double with libm and rounded once to f32, so their error is about half an ulp: inside every
 * bound PTX documents (docs/semantics.md lists them). Special inputs follow IEEE and the PTX
 * tables (lg2(-x) = NaN, lg2(+-0) = -inf, ex2(-inf) = +0, sin(inf) = NaN, rsqrt(-0) = -inf, ...);
 * every NaN result is the canonical NaN. rcp.approx.ftz.f64 models the documented reduced
 * precision: only the upper 32 bits of the operand are used and the lower 32 bits of the result are
 * zero. Half-format ex2/tanh are in alu_half.c. */
#include "exec/alu_internal.h"

enum special_fn { SF_RCP, SF_SQRT, SF_RSQRT, SF_SIN, SF_COS, SF_LG2, SF_EX2, SF_TANH };

/* IEEE reciprocal and square root in the host's current rounding mode. */
ALU_INLINE float f32_ieee(enum special_fn fn, float x)
{
    return fn == SF_RCP ? 1.0f / x : sqrtf(x);
}

ALU_INLINE double f64_special(enum special_fn fn, double x)
{
    switch (fn) {
    case SF_RCP: return 1.0 / x;
    case SF_SQRT: return sqrt(x);
    case SF_RSQRT: return 1.0 / sqrt(x);
    case SF_SIN: return sin(x);
    case SF_COS: return cos(x);
    case SF_LG2: return log2(x);
    case SF_EX2: return exp2(x);
    default: return tanh(x);
    }
}

ALU_INLINE void f32_ieee_lanes(const alu_args *a, enum special_fn fn, int ftz)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = alu_f32_result(f32_ieee(fn, alu_f32_operand(s0[l], ftz)), ftz, 0);
}

/* .approx f32: evaluate in double, round once to f32 (the host is at round-to-nearest here). */
ALU_INLINE void f32_approx_lanes(const alu_args *a, enum special_fn fn, int ftz)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) {
        double x = (double)alu_f32_operand(s0[l], ftz);
        a->dst[l] = alu_f32_result((float)f64_special(fn, x), ftz, 0);
    }
}

ALU_INLINE void f64_ieee_lanes(const alu_args *a, enum special_fn fn)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = alu_f64_result(f64_special(fn, alu_f64_from_bits(s0[l])), 0);
}

ALU_INLINE uint64_t f64_flush(uint64_t bits)
{
    return (bits & UINT64_C(0x7FF0000000000000)) == 0 ? bits & UINT64_C(0x8000000000000000)
                                                      : bits;
}

/* rsqrt.approx.f64 (.ftz flushes subnormal operands and results). */
ALU_INLINE void f64_rsqrt_lanes(const alu_args *a, int ftz)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) {
        uint64_t x = ftz ? f64_flush(s0[l]) : s0[l];
        uint64_t r = alu_f64_result(1.0 / sqrt(alu_f64_from_bits(x)), 0);
        a->dst[l] = ftz ? f64_flush(r) : r;
    }
}

/* rcp.approx.ftz.f64: the reciprocal of the operand's upper 32 bits (sign, exponent and 20
 * fraction bits), truncated to the same 1.11.20 layout, subnormals flushed. */
static void f64_rcp_approx_ftz(const ir_insn *in, const alu_args *a)
{
    (void)in;
    const uint64_t high_mask = UINT64_C(0xFFFFFFFF00000000);
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) {
        double x = alu_f64_from_bits(f64_flush(s0[l]) & high_mask);
        uint64_t r = alu_f64_result(1.0 / x, 0);
        a->dst[l] = r == ALU_F64_NAN ? r : f64_flush(r) & high_mask;
    }
}

#define F32_IEEE_FNS(name, fn, ftz)                                                           \
    static void name##_rn(const ir_insn *in, const alu_args *a)                               \
    {                                                                                         \
        (void)in;                                                                             \
        f32_ieee_lanes(a, fn, ftz);                                                           \
    }                                                                                         \
    static void name##_dir(const ir_insn *in, const alu_args *a)                              \
    {                                                                                         \
        fesetround(alu_fe_mode(in->rnd));                                                     \
        f32_ieee_lanes(a, fn, ftz);                                                           \
        fesetround(FE_TONEAREST);                                                             \
    }

#define F64_IEEE_FNS(name, fn)                                                                \
    static void name##_rn(const ir_insn *in, const alu_args *a)                               \
    {                                                                                         \
        (void)in;                                                                             \
        f64_ieee_lanes(a, fn);                                                                \
    }                                                                                         \
    static void name##_dir(const ir_insn *in, const alu_args *a)                              \
    {                                                                                         \
        fesetround(alu_fe_mode(in->rnd));                                                     \
        f64_ieee_lanes(a, fn);                                                                \
        fesetround(FE_TONEAREST);                                                             \
    }

#define F32_APPROX_FNS(name, fn)                                                              \
    static void name(const ir_insn *in, const alu_args *a)                                    \
    {                                                                                         \
        (void)in;                                                                             \
        f32_approx_lanes(a, fn, 0);                                                           \
    }                                                                                         \
    static void name##_ftz(const ir_insn *in, const alu_args *a)                              \
    {                                                                                         \
        (void)in;                                                                             \
        f32_approx_lanes(a, fn, 1);                                                           \
    }

F32_IEEE_FNS(f32_rcp, SF_RCP, 0)
F32_IEEE_FNS(f32_rcp_ftz, SF_RCP, 1)
F32_IEEE_FNS(f32_sqrt, SF_SQRT, 0)
F32_IEEE_FNS(f32_sqrt_ftz, SF_SQRT, 1)
F64_IEEE_FNS(f64_rcp, SF_RCP)
F64_IEEE_FNS(f64_sqrt, SF_SQRT)
F32_APPROX_FNS(f32_rcp_approx, SF_RCP)
F32_APPROX_FNS(f32_sqrt_approx, SF_SQRT)
F32_APPROX_FNS(f32_rsqrt_approx, SF_RSQRT)
F32_APPROX_FNS(f32_sin_approx, SF_SIN)
F32_APPROX_FNS(f32_cos_approx, SF_COS)
F32_APPROX_FNS(f32_lg2_approx, SF_LG2)
F32_APPROX_FNS(f32_ex2_approx, SF_EX2)
F32_APPROX_FNS(f32_tanh_approx, SF_TANH)

static void f64_rsqrt_approx(const ir_insn *in, const alu_args *a)
{
    (void)in;
    f64_rsqrt_lanes(a, 0);
}

static void f64_rsqrt_approx_ftz(const ir_insn *in, const alu_args *a)
{
    (void)in;
    f64_rsqrt_lanes(a, 1);
}

/* Approximate f32 functions indexed by enum special_fn, without and with .ftz. */
static const alu_fn f32_approx_table[8][2] = {
    {f32_rcp_approx, f32_rcp_approx_ftz},   {f32_sqrt_approx, f32_sqrt_approx_ftz},
    {f32_rsqrt_approx, f32_rsqrt_approx_ftz}, {f32_sin_approx, f32_sin_approx_ftz},
    {f32_cos_approx, f32_cos_approx_ftz},   {f32_lg2_approx, f32_lg2_approx_ftz},
    {f32_ex2_approx, f32_ex2_approx_ftz},   {f32_tanh_approx, f32_tanh_approx_ftz},
};

static int special_index(ir_opcode op)
{
    switch (op) {
    case IR_RCP: return SF_RCP;
    case IR_SQRT: return SF_SQRT;
    case IR_RSQRT: return SF_RSQRT;
    case IR_SIN: return SF_SIN;
    case IR_COS: return SF_COS;
    case IR_LG2: return SF_LG2;
    case IR_EX2: return SF_EX2;
    case IR_TANH: return SF_TANH;
    default: return -1;
    }
}

static alu_fn f32_special_lookup(const ir_insn *in, int fn)
{
    int ftz = (in->mods & IR_MOD_FTZ) != 0;
    if (in->mods & IR_MOD_APPROX) {
        /* tanh.approx.f32 has no .ftz form in PTX; it handles subnormals. */
        if (in->rnd != IR_RND_NONE || (fn == SF_TANH && ftz))
            return NULL;
        return f32_approx_table[fn][ftz];
    }
    /* Only rcp and sqrt have IEEE forms, which need an explicit rounding modifier. */
    if (fn != SF_RCP && fn != SF_SQRT)
        return NULL;
    int dir = alu_rnd_is_directed(in->rnd);
    if (!dir && in->rnd != IR_RND_RN)
        return NULL;
    if (fn == SF_RCP)
        return ftz ? (dir ? f32_rcp_ftz_dir : f32_rcp_ftz_rn) : (dir ? f32_rcp_dir : f32_rcp_rn);
    return ftz ? (dir ? f32_sqrt_ftz_dir : f32_sqrt_ftz_rn) : (dir ? f32_sqrt_dir : f32_sqrt_rn);
}

static alu_fn f64_special_lookup(const ir_insn *in, int fn)
{
    int ftz = (in->mods & IR_MOD_FTZ) != 0;
    if (in->mods & IR_MOD_APPROX) {
        if (in->rnd != IR_RND_NONE)
            return NULL;
        if (fn == SF_RCP) /* rcp.approx.f64 exists only with .ftz */
            return ftz ? f64_rcp_approx_ftz : NULL;
        if (fn == SF_RSQRT)
            return ftz ? f64_rsqrt_approx_ftz : f64_rsqrt_approx;
        return NULL;
    }
    int dir = alu_rnd_is_directed(in->rnd);
    if (ftz || (!dir && in->rnd != IR_RND_RN))
        return NULL;
    if (fn == SF_RCP)
        return dir ? f64_rcp_dir : f64_rcp_rn;
    if (fn == SF_SQRT)
        return dir ? f64_sqrt_dir : f64_sqrt_rn;
    return NULL;
}

alu_fn alu_approx_lookup(const ir_insn *in)
{
    int fn = special_index((ir_opcode)in->op);
    if (fn < 0 || (in->mods & (IR_MOD_SAT | IR_MOD_FULL)))
        return NULL;
    if (in->type == IR_T_F32)
        return f32_special_lookup(in, fn);
    if (in->type == IR_T_F64)
        return f64_special_lookup(in, fn);
    return NULL;
}
