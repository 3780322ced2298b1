/* The arithmetic of the matrix instructions (PTX ISA 9.1 §9.7.14): where each element of a
 * fragment sits in its matrix, how element values are read from and written to register bits,
 * and the product D = A * B + C. It knows nothing of warps or memory: exec_matrix.c gathers the
 * fragments of the 32 lanes into whole matrices with these functions, multiplies, and scatters
 * the result back.
 *
 * The order and the width of the hardware's inner sums are not public; the choices here are the
 * model's, documented in docs/semantics.md ("Matrix instructions"):
 *   - f16, bf16 and tf32 inputs: every product is exact in double precision; the products are
 *     added in double precision to c, in k order, and the sum is rounded once to the type of d
 *     (round to nearest even). tf32 inputs are read as f32 bits with the low 13 fraction bits
 *     ignored, as the tensor cores read them.
 *   - f64: a chain of fused multiply-adds from c, in k order, in the rounding mode of the
 *     instruction (.rn when none is written).
 *   - s8/u8: the exact integer sum, wrapped to 32 bits, or clamped to the s32 range with
 *     .satfinite. */
#include "exec/alu_internal.h"

/* Elements of type t in one register of the fragment (32-bit registers, 64-bit for f64). */
static unsigned per_register(ir_type t)
{
    unsigned bits = ir_type_bits(t);
    return bits == 64 ? 1 : 32 / bits;
}

/* The layouts PTX defines for mma (PTX ISA 9.1 §9.7.14.5.x, "Matrix Fragments for mma"): lane
 * l = 4 * group + tg, element e. */
static void mma_coord(unsigned shape, unsigned frag, unsigned bits, unsigned lane, unsigned e,
                      unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (frag == IR_FRAG_A) {
        *row = g;
        switch (shape) {
        case IR_MATRIX_M16N8K16:
            if (bits == 16) {
                *row = g + 8 * ((e >> 1) & 1);
                *col = 2 * t + (e & 1) + 8 * (e >> 2);
            } else if (bits == 64) {
                *row = g + 8 * (e & 1);
                *col = t + 4 * (e >> 1);
            } else {
                *row = g + 8 * (e >> 2);
                *col = 4 * t + (e & 3);
            }
            return;
        case IR_MATRIX_M16N8K8:
            if (bits == 16) {
                *row = g + 8 * (e >> 1);
                *col = 2 * t + (e & 1);
            } else { /* tf32, f64 */
                *row = g + 8 * (e & 1);
                *col = t + 4 * (e >> 1);
            }
            return;
        case IR_MATRIX_M16N8K4: *row = g + 8 * e; *col = t; return;
        case IR_MATRIX_M16N8K32:
            *row = g + 8 * ((e >> 2) & 1);
            *col = 4 * t + (e & 3) + 16 * (e >> 3);
            return;
        case IR_MATRIX_M8N8K16: *col = 4 * t + e; return;
        default: *col = t; return; /* m8n8k4 f64 */
        }
    }
    if (frag == IR_FRAG_B) {
        *col = g;
        switch (shape) {
        case IR_MATRIX_M16N8K16:
            *row = bits == 16 ? 2 * t + (e & 1) + 8 * (e >> 1) : bits == 64 ? t + 4 * e : 4 * t + e;
            return;
        case IR_MATRIX_M16N8K8: *row = bits == 16 ? 2 * t + e : t + 4 * e; return; /* tf32, f64 */
        case IR_MATRIX_M16N8K32: *row = 4 * t + (e & 3) + 16 * (e >> 2); return;
        case IR_MATRIX_M8N8K16: *row = 4 * t + e; return;
        default: *row = t; return; /* m16n8k4 tf32 and f64, m8n8k4 f64 */
        }
    }
    if (shape == IR_MATRIX_M8N8K4 || shape == IR_MATRIX_M8N8K16) {
        *row = g;
        *col = 2 * t + e;
    } else {
        *row = g + 8 * (e >> 1);
        *col = 2 * t + (e & 1);
    }
}

/* mma.m8n8k4 with f16 inputs: four independent MMAs, computation q by lanes 4q..4q+3 (the low
 * group) and 16+4q..16+4q+3 (the high group). The model sets their matrices side by side. */
static bool quadpair(const ir_insn *in)
{
    return in->op == IR_MMA && in->sub == IR_MATRIX_M8N8K4 && in->type2 == IR_T_F16;
}

void alu_mma_dims(const ir_insn *in, unsigned frag, unsigned *rows, unsigned *cols)
{
    unsigned m = 0, n = 0, k = 0;
    ir_matrix_dims(in->sub, &m, &n, &k);
    *rows = frag == IR_FRAG_B ? k : m;
    *cols = frag == IR_FRAG_A ? k : n;
    if (quadpair(in)) { /* a, c and d stacked by rows, b by columns: computation q's is block q */
        if (frag == IR_FRAG_B)
            *cols *= 4;
        else
            *rows *= 4;
    }
}

/* The quadpair layouts (PTX ISA 9.1, "Matrix Fragments for mma.m8n8k4 with .f16"), with each
 * computation's block offset. */
static void quadpair_coord(const ir_insn *in, unsigned frag, ir_type t, unsigned lane,
                           unsigned e, unsigned *row, unsigned *col)
{
    unsigned q = (lane >> 2) & 3, hi = lane >= 16 ? 4 : 0, lr = lane & 3;
    if (frag == IR_FRAG_A) {
        bool a_col = (in->mods & IR_MOD_ACOL) != 0;
        *row = (a_col ? e : lr) + hi + 8 * q;
        *col = a_col ? lr : e;
    } else if (frag == IR_FRAG_B) {
        bool b_row = (in->mods & IR_MOD_BROW) != 0;
        *row = b_row ? lr : e;
        *col = (b_row ? e : lr) + hi + 8 * q;
    } else if (t == IR_T_F16) {
        *row = lr + hi + 8 * q;
        *col = e;
    } else {
        *row = (lane & 1) + (e & 2) + hi + 8 * q;
        *col = (e & 4) + (lane & 2) + (e & 1);
    }
}

unsigned alu_mma_elements(const ir_insn *in, unsigned frag, ir_type t)
{
    bool wmma = in->op == IR_WMMA_LOAD || in->op == IR_WMMA_STORE || in->op == IR_WMMA_MMA;
    return ir_matrix_regs(in->sub, frag, t, wmma) * per_register(t);
}

void alu_mma_coord(const ir_insn *in, unsigned frag, ir_type t, unsigned lane, unsigned e,
                   unsigned *row, unsigned *col)
{
    unsigned rows, cols;
    alu_mma_dims(in, frag, &rows, &cols);
    if (quadpair(in)) {
        quadpair_coord(in, frag, t, lane, e, row, col);
        return;
    }
    if (in->op == IR_MMA) {
        mma_coord(in->sub, frag, ir_type_bits(t), lane, e, row, col);
        return;
    }
    /* wmma: PTX leaves the layout unspecified. The model's: lane l's element e is element
     * (l * E + e) mod (rows * cols) of the matrix in row-major order (E elements per lane), so
     * that lane 0 holds the first row(s); a fragment holding more than the matrix (f16 a and b
     * of some shapes) holds it several times over. */
    unsigned per_lane = alu_mma_elements(in, frag, t);
    unsigned idx = (lane * per_lane + e) % (rows * cols);
    *row = idx / cols;
    *col = idx % cols;
}

double alu_mma_read(ir_type t, const uint64_t *regs, unsigned e)
{
    unsigned per = per_register(t), bits = ir_type_bits(t);
    uint64_t r = regs[e / per];
    uint64_t v = bits == 64 ? r : (r >> ((e % per) * bits)) & alu_width_mask(bits);
    switch (t) {
    case IR_T_F16: return alu_f16_to_f64((uint16_t)v);
    case IR_T_BF16: return alu_bf16_to_f64((uint16_t)v);
    case IR_T_TF32: return (double)alu_f32_from_bits(v & 0xFFFFE000u);
    case IR_T_F32: return (double)alu_f32_from_bits(v);
    case IR_T_F64: return alu_f64_from_bits(v);
    case IR_T_S8: return (double)alu_sext(v, 8);
    case IR_T_S32: return (double)alu_sext(v, 32);
    default: return (double)v; /* u8 */
    }
}

void alu_mma_write(ir_type t, uint64_t *regs, unsigned e, double v, int satfinite)
{
    unsigned per = per_register(t), bits = ir_type_bits(t);
    uint64_t out;
    switch (t) {
    case IR_T_F16: out = alu_f64_to_f16(v, IR_RND_RN); break;
    case IR_T_F32: out = alu_f32_result((float)v, 0, 0); break;
    case IR_T_F64: out = alu_f64_result(v, 0); break;
    default: { /* s32: the exact integer sum */
        int64_t s = (int64_t)v;
        if (satfinite)
            s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        out = (uint64_t)s & 0xFFFFFFFFu;
        break;
    }
    }
    unsigned shift = bits == 64 ? 0 : (e % per) * bits;
    uint64_t mask = alu_width_mask(bits) << shift;
    regs[e / per] = (regs[e / per] & ~mask) | (out << shift);
}

void alu_mma_multiply(const ir_insn *in, const double *a, const double *b, const double *c,
                      double *d)
{
    unsigned m = 0, n = 0, k = 0, batches = quadpair(in) ? 4 : 1;
    ir_matrix_dims(in->sub, &m, &n, &k);
    bool f64 = in->type2 == IR_T_F64;
    int saved = fegetround();
    if (f64 && alu_rnd_is_directed(in->rnd))
        fesetround(alu_fe_mode(in->rnd));
    for (unsigned q = 0; q < batches; q++) /* computation q: rows q*m.. of a, c, d; b's columns q*n.. */
        for (unsigned i = q * m; i < (q + 1) * m; i++)
            for (unsigned j = 0; j < n; j++) {
                double acc = c[i * n + j];
                for (unsigned kk = 0; kk < k; kk++) {
                    double x = a[i * k + kk], y = b[kk * n * batches + q * n + j];
                    acc = f64 ? fma(x, y, acc) : acc + x * y;
                }
                d[i * n + j] = acc;
            }
    if (f64)
        fesetround(saved);
}
