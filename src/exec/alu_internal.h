/* Private helpers shared by the alu_*.c files: lane loops, bit casts between register bits and C
 * floating types, canonical NaNs, flush-to-zero, rounding-mode scoping, and exact rounding of a
 * double to the narrow float formats (f16, bf16, tf32, f32).
 *
 * This header is not part of the executor's contract (that is exec/alu.h); nothing outside
 * src/exec/alu_*.c includes it. Semantic choices are explained in docs/semantics.md. */
#ifndef GMS_EXEC_ALU_INTERNAL_H
#define GMS_EXEC_ALU_INTERNAL_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/cpu.h"
#include "exec/alu.h"

/* Kernels are small static functions with constant flag arguments; forcing them inline lets each
 * specialised entry point compile to one straight loop. */
#define ALU_INLINE static inline __attribute__((always_inline))

#define ALU_FOR_LANES(l) for (int l = 0; l < ALU_LANES; l++)

/* Second builds of the most frequent lane functions (integer add, sub, 32-bit mul and mad .lo
 * and .wide, and, or, xor, shifts by an immediate, mov; f32 add, sub and mul) for x86-64 hosts
 * whose CPU has AVX2: twice the lanes per operation (four 64-bit lanes, eight f32 values per
 * 256-bit register). Each is the same C loop compiled for AVX2, or AVX2 intrinsics where the
 * loop would multiply in 64 bits; integer operations, or one IEEE float operation per lane in
 * the host's rounding mode, so the same bits. The lookups choose them once per instruction when
 * the module is prepared, as the FMA builds of alu_float.c (cpu_has_avx2, base/cpu.h). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define ALU_AVX2_VARIANTS 1
#define ALU_TARGET_AVX2 __attribute__((target("avx2")))
#endif

/* Canonical NaN of each format: positive sign, exponent and fraction all ones (the pattern NVIDIA
 * GPUs produce for f32; the project uses the same shape for every width, docs/semantics.md). */
#define ALU_F16_NAN 0x7FFFu
#define ALU_BF16_NAN 0x7FFFu
#define ALU_F32_NAN 0x7FFFFFFFu
#define ALU_F64_NAN UINT64_C(0x7FFFFFFFFFFFFFFF)

#define ALU_F16_ONE 0x3C00u
#define ALU_BF16_ONE 0x3F80u
#define ALU_F32_ONE 0x3F800000u

/* Bit widths of the narrow float formats (fraction bits, exponent bits). */
enum {
    ALU_F16_MANT = 10, ALU_F16_EXP = 5,
    ALU_BF16_MANT = 7, ALU_BF16_EXP = 8,
    ALU_TF32_MANT = 10, ALU_TF32_EXP = 8,
    ALU_F32_MANT = 23, ALU_F32_EXP = 8,
};

/* ---- bit casts ---- */
ALU_INLINE float alu_f32_from_bits(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

ALU_INLINE uint32_t alu_f32_to_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

ALU_INLINE double alu_f64_from_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

ALU_INLINE uint64_t alu_f64_to_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* ---- f32 / f64 helpers ---- */

/* .ftz on an f32 operand or result: a subnormal becomes a zero of the same sign. */
ALU_INLINE uint32_t alu_f32_flush(uint32_t bits)
{
    return (bits & 0x7F800000u) == 0 ? bits & 0x80000000u : bits;
}

ALU_INLINE float alu_f32_operand(uint64_t bits, int ftz)
{
    uint32_t u = (uint32_t)bits;
    return alu_f32_from_bits(ftz ? alu_f32_flush(u) : u);
}

/* Register bits of an f32 arithmetic result: NaN becomes the canonical NaN, .ftz flushes a
 * subnormal result, .sat clamps to [0, 1] with NaN going to +0. */
ALU_INLINE uint64_t alu_f32_result(float r, int ftz, int sat)
{
    if (sat) {
        r = (r > 0.0f) ? r : 0.0f; /* NaN and every negative (including -0) go to +0 */
        r = (r < 1.0f) ? r : 1.0f;
    }
    uint32_t u = alu_f32_to_bits(r);
    if (ftz)
        u = alu_f32_flush(u);
    return isnan(r) ? ALU_F32_NAN : u;
}

ALU_INLINE uint64_t alu_f64_result(double r, int sat)
{
    if (sat) {
        r = (r > 0.0) ? r : 0.0;
        r = (r < 1.0) ? r : 1.0;
    }
    return isnan(r) ? ALU_F64_NAN : alu_f64_to_bits(r);
}

/* ---- half helpers ---- */

/* f16 / bf16 bits to double: exact. NaN keeps being a NaN (its payload does not matter here:
 * every arithmetic NaN result is canonicalised). */
double alu_f16_to_f64(uint16_t h);
ALU_INLINE double alu_bf16_to_f64(uint16_t h)
{
    return (double)alu_f32_from_bits((uint32_t)h << 16);
}

ALU_INLINE uint16_t alu_f16_flush(uint16_t h)
{
    return (h & 0x7C00u) == 0 ? (uint16_t)(h & 0x8000u) : h;
}

/* The exact sum x + y rounded to odd at double precision: one later rounding to any format with
 * at most 51 fraction bits then equals a single correct rounding of the exact sum. x and y must be
 * finite or infinite values whose sum does not overflow to infinity from finite operands
 * (always true for sums and products of f16/bf16 values). */
double alu_sum_round_odd(double x, double y);

/* Rounds x to the binary format with `mant_bits` fraction bits and `exp_bits` exponent bits under
 * `rnd` (IR_RND_RN/RZ/RM/RP/RNA; anything else counts as RN) and returns its encoding in the low
 * 1 + exp_bits + mant_bits bits. NaN gives the canonical NaN of the format; with `satfinite`,
 * results that would be infinite (including infinite x) become the largest finite value of the same
 * sign. Requires mant_bits <= 51 and exp_bits <= 10. */
uint32_t alu_round_to_format(double x, unsigned mant_bits, unsigned exp_bits, int rnd,
                             int satfinite);

ALU_INLINE uint16_t alu_f64_to_f16(double x, int rnd)
{
    return (uint16_t)alu_round_to_format(x, ALU_F16_MANT, ALU_F16_EXP, rnd, 0);
}

ALU_INLINE uint16_t alu_f64_to_bf16(double x, int rnd)
{
    return (uint16_t)alu_round_to_format(x, ALU_BF16_MANT, ALU_BF16_EXP, rnd, 0);
}

/* ---- rounding modes ---- */

/* The C rounding mode for a PTX float rounding modifier; NONE counts as .rn. */
ALU_INLINE int alu_fe_mode(int rnd)
{
    switch (rnd) {
    case IR_RND_RZ: case IR_RND_RZI: return FE_TOWARDZERO;
    case IR_RND_RM: case IR_RND_RMI: return FE_DOWNWARD;
    case IR_RND_RP: case IR_RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* 1 when rnd selects a directed (non-default) rounding mode for native float arithmetic. */
ALU_INLINE int alu_rnd_is_directed(int rnd)
{
    return rnd == IR_RND_RZ || rnd == IR_RND_RM || rnd == IR_RND_RP;
}

/* ---- integer helpers ---- */

ALU_INLINE uint64_t alu_width_mask(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* Sign-extends the low `bits` bits of v to a signed 64-bit value (no undefined behaviour). */
ALU_INLINE int64_t alu_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t m = UINT64_C(1) << (bits - 1);
    uint64_t x = (v & alu_width_mask(bits)) ^ m;
    return (int64_t)(x - m); /* wraps modulo 2^64, then converts: values fit int64 */
}

/* The high and low 64-bit halves of the unsigned 128-bit product a * b. */
ALU_INLINE void alu_mul_u64_wide(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
    *lo = (mid << 32) | (uint32_t)p0;
    *hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

/* The high 64 bits of the signed 128-bit product a * b, from the unsigned product. */
ALU_INLINE uint64_t alu_mul_s64_hi(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    alu_mul_u64_wide(a, b, &hi, &lo);
    hi -= ((int64_t)a < 0) ? b : 0;
    hi -= ((int64_t)b < 0) ? a : 0;
    return hi;
}

/* ---- family lookups (alu.c dispatches to these; each returns NULL when it has no function) ---- */
alu_fn alu_int_lookup(const ir_insn *in);    /* alu_int.c: integer arithmetic */
alu_fn alu_bits_lookup(const ir_insn *in);   /* alu_bits.c: logic, shifts, bit fields */
alu_fn alu_float_lookup(const ir_insn *in);  /* alu_float.c: f32/f64 arithmetic */
alu_fn alu_approx_lookup(const ir_insn *in); /* alu_approx.c: rcp/sqrt/rsqrt/sin/.../tanh */
alu_fn alu_half_lookup(const ir_insn *in);   /* alu_half.c: f16/bf16 (x2) arithmetic */
alu_fn alu_cvt_lookup(const ir_insn *in);    /* alu_cvt.c */
alu_fn alu_cmp_lookup(const ir_insn *in);    /* alu_cmp.c: setp/set/selp/slct/testp/min/max */
alu_fn alu_video_lookup(const ir_insn *in);  /* alu_video.c: the video instructions */

#endif
