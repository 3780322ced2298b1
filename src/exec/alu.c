/* alu_lookup: picks, once per instruction at load time, the specialised lane function that
 * computes an ALU-class instruction, and implements the scalar form of mov.
 *
 * Families: integer arithmetic (alu_int.c), logic and bits (alu_bits.c), f32/f64 arithmetic
 * (alu_float.c) and special functions (alu_approx.c), half formats (alu_half.c), cvt
 * (alu_cvt.c), comparison/selection/min/max (alu_cmp.c), video instructions (alu_video.c).
 * Not here: cvta and createpolicy (they need the address map and the policy encoder;
 * alu_lookup returns NULL for them), and mov with a
 * vector operand: the executor packs and unpacks VEC operands itself, gathering or scattering the
 * element registers, so only scalar mov reaches this module. */
#include "exec/alu_internal.h"

/* mov: a copy truncated to the type's width (predicates are 0/1 lanes, so width 1). */
ALU_INLINE void mov_lanes(const alu_args *a, uint64_t mask)
{
    const uint64_t *s0 = a->src[0];
    ALU_FOR_LANES(l) a->dst[l] = s0[l] & mask;
}

static void mov_pred(const ir_insn *in, const alu_args *a) { (void)in; mov_lanes(a, 1u); }
static void mov_8(const ir_insn *in, const alu_args *a) { (void)in; mov_lanes(a, 0xFFu); }
static void mov_16(const ir_insn *in, const alu_args *a) { (void)in; mov_lanes(a, 0xFFFFu); }
static void mov_32(const ir_insn *in, const alu_args *a) { (void)in; mov_lanes(a, 0xFFFFFFFFu); }
static void mov_64(const ir_insn *in, const alu_args *a) { (void)in; mov_lanes(a, ~UINT64_C(0)); }

#ifdef ALU_AVX2_VARIANTS
ALU_TARGET_AVX2 static void mov_32_avx2(const ir_insn *in, const alu_args *a)
{
    (void)in;
    mov_lanes(a, 0xFFFFFFFFu);
}

ALU_TARGET_AVX2 static void mov_64_avx2(const ir_insn *in, const alu_args *a)
{
    (void)in;
    mov_lanes(a, ~UINT64_C(0));
}
#endif

static alu_fn mov_lookup(const ir_insn *in)
{
    if (in->dst[0].kind == IR_OPND_VEC || in->src[0].kind == IR_OPND_VEC)
        return NULL; /* the executor's job, see above */
#ifdef ALU_AVX2_VARIANTS
    unsigned bits = ir_type_bits((ir_type)in->type);
    if ((bits == 32 || bits == 64) && cpu_has_avx2())
        return bits == 32 ? mov_32_avx2 : mov_64_avx2;
#endif
    switch (ir_type_bits((ir_type)in->type)) {
    case 1: return mov_pred;
    case 8: return mov_8;
    case 16: return mov_16;
    case 32: return mov_32;
    case 64: return mov_64;
    default: return NULL; /* b128 does not fit a 64-bit lane */
    }
}

static int is_half_type(ir_type t)
{
    return t == IR_T_F16 || t == IR_T_F16X2 || t == IR_T_BF16 || t == IR_T_BF16X2;
}

alu_fn alu_lookup(const ir_insn *in)
{
    if (!in || in->op >= IR_OP_COUNT || ir_opcode_class((ir_opcode)in->op) != IR_CLASS_ALU ||
        in->type >= IR_T_COUNT || in->type2 >= IR_T_COUNT)
        return NULL;
    ir_type t = (ir_type)in->type;
    /* the mods column of ir_ops.def: flags the opcode can carry at all (per type the families
     * check further); anything else is rejected rather than ignored */
    if (in->mods & ~ir_op_info_of((ir_opcode)in->op)->mods)
        return NULL;
    /* Condition flags: only integer add, sub and mad read or write one (the carry), an integer
     * setp may read it (the extended comparison of SASS ISETP.X, alu_cmp.c), and PTX's .cc /
     * addc spelling must name the flag it means (ir_insn.flag_out / flag_in). */
    int carry_op = in->op == IR_ADD || in->op == IR_SUB || in->op == IR_MAD ||
                   (in->op == IR_SETP && !in->flag_out);
    if ((in->flag_in || in->flag_out) && (!carry_op || ir_type_is_float(t)))
        return NULL;
    if (((in->mods & IR_MOD_CC) && !in->flag_out) || ((in->mods & IR_MOD_CARRY_IN) && !in->flag_in))
        return NULL;
    /* rounding modifiers belong to float operations and cvt */
    if (in->rnd != IR_RND_NONE && in->op != IR_CVT && !ir_type_is_float(t))
        return NULL;
    switch (in->op) {
    case IR_CVTA: case IR_CREATEPOLICY: return NULL;
    case IR_MOV: return mov_lookup(in);
    case IR_CVT: return alu_cvt_lookup(in);
    case IR_SETP: case IR_SET: case IR_SELP: case IR_SLCT: case IR_TESTP: case IR_MIN:
    case IR_MAX:
        return alu_cmp_lookup(in);
    case IR_AND: case IR_OR: case IR_XOR: case IR_NOT: case IR_CNOT: case IR_LOP3: case IR_SHL:
    case IR_SHR: case IR_SHF: case IR_BFE: case IR_BFI: case IR_BMSK: case IR_SZEXT:
    case IR_BREV: case IR_POPC: case IR_CLZ: case IR_BFIND: case IR_FNS: case IR_PRMT:
    case IR_DP4A: case IR_DP2A:
        return alu_bits_lookup(in);
    case IR_RCP: case IR_SQRT: case IR_RSQRT: case IR_SIN: case IR_COS: case IR_LG2: case IR_EX2:
    case IR_TANH:
        return is_half_type(t) ? alu_half_lookup(in) : alu_approx_lookup(in);
    case IR_VOP: case IR_VOP2: case IR_VOP4:
        return alu_video_lookup(in);
    default:
        break;
    }
    if (t == IR_T_F32 || t == IR_T_F64)
        return alu_float_lookup(in);
    if (is_half_type(t))
        return alu_half_lookup(in);
    return alu_int_lookup(in);
}
