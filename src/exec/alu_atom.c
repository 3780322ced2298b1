/* The arithmetic of atom and red (PTX ISA 9.1 §9.7.13.5 atom, §9.7.13.6 red): the new memory
 * value from the old one and the operands. The memory system calls this per lane while it holds
 * the location; it knows nothing of ordering, scopes or addresses.
 *
 * Rules: inc/dec wrap as PTX defines them; atom.add.f32 rounds to nearest and flushes subnormal
 * operands and results (unless IR_MOD_NOFTZ); f64 and the half formats round to nearest and keep
 * subnormals; float min/max follow min/max (a NaN operand loses, -0 < +0). */
#include "exec/alu_internal.h"

/* Operand width class of a type for bitwise operations: 16, 32, 64 bits, or 0. */
static unsigned atom_bits(ir_type t)
{
    switch (t) {
    case IR_T_B16: case IR_T_U16: case IR_T_S16: return 16;
    case IR_T_B32: case IR_T_U32: case IR_T_S32: return 32;
    case IR_T_B64: case IR_T_U64: case IR_T_S64: return 64;
    default: return 0;
    }
}

static int is_half_format(ir_type t)
{
    return t == IR_T_F16 || t == IR_T_F16X2 || t == IR_T_BF16 || t == IR_T_BF16X2;
}

int alu_atom_supported(uint8_t atom_op, ir_type type)
{
    unsigned bits = atom_bits(type);
    int is_int = type >= IR_T_U8 && type <= IR_T_S64;
    switch (atom_op) {
    case IR_ATOM_AND: case IR_ATOM_OR: case IR_ATOM_XOR: case IR_ATOM_EXCH:
        return bits == 32 || bits == 64;
    case IR_ATOM_CAS:
        return bits != 0;
    case IR_ATOM_ADD:
        return (is_int && (bits == 32 || bits == 64)) || type == IR_T_F32 || type == IR_T_F64 ||
               is_half_format(type);
    case IR_ATOM_INC: case IR_ATOM_DEC:
        return type == IR_T_U32;
    case IR_ATOM_MIN: case IR_ATOM_MAX:
        return (is_int && (bits == 32 || bits == 64)) || is_half_format(type);
    default:
        return 0;
    }
}

/* One half-format element of add/min/max, rounded to nearest, subnormals kept. */
static uint16_t atom_half(uint8_t op, uint16_t x, uint16_t y, int bf)
{
    double a = bf ? alu_bf16_to_f64(x) : alu_f16_to_f64(x);
    double b = bf ? alu_bf16_to_f64(y) : alu_f16_to_f64(y);
    if (op == IR_ATOM_ADD) {
        double s = alu_sum_round_odd(a, b);
        return bf ? alu_f64_to_bf16(s, IR_RND_RN) : alu_f64_to_f16(s, IR_RND_RN);
    }
    int an = isnan(a), bn = isnan(b);
    if (an && bn)
        return bf ? ALU_BF16_NAN : ALU_F16_NAN;
    if (an || bn)
        return an ? y : x;
    /* -0 orders below +0: compare signs first when the values are equal */
    int a_less = a < b || (a == b && (x & 0x8000u) && !(y & 0x8000u));
    return (a_less == (op == IR_ATOM_MIN)) ? x : y;
}

static uint64_t atom_float(uint8_t op, ir_type type, uint32_t mods, uint64_t old, uint64_t b)
{
    if (type == IR_T_F32) {
        int ftz = !(mods & IR_MOD_NOFTZ);
        float r = alu_f32_operand(old, ftz) + alu_f32_operand(b, ftz);
        return alu_f32_result(r, ftz, 0);
    }
    if (type == IR_T_F64)
        return alu_f64_result(alu_f64_from_bits(old) + alu_f64_from_bits(b), 0);
    int bf = type == IR_T_BF16 || type == IR_T_BF16X2;
    uint64_t r = atom_half(op, (uint16_t)old, (uint16_t)b, bf);
    if (type == IR_T_F16X2 || type == IR_T_BF16X2)
        r |= (uint64_t)atom_half(op, (uint16_t)(old >> 16), (uint16_t)(b >> 16), bf) << 16;
    return r;
}

static uint64_t atom_int_minmax(uint8_t op, ir_type type, uint64_t old, uint64_t b, unsigned bits)
{
    int old_less = ir_type_is_signed(type) ? alu_sext(old, bits) < alu_sext(b, bits) : old < b;
    return (old_less == (op == IR_ATOM_MIN)) ? old : b;
}

uint64_t alu_atom_apply(uint8_t atom_op, ir_type type, uint32_t mods, uint64_t old, uint64_t b,
                        uint64_t c, int *ok)
{
    if (!alu_atom_supported(atom_op, type)) {
        if (ok)
            *ok = 0;
        return old;
    }
    if (ok)
        *ok = 1;
    unsigned bits = atom_bits(type);
    uint64_t mask = bits ? alu_width_mask(bits) : alu_width_mask(ir_type_bits(type));
    old &= mask;
    b &= mask;
    c &= mask;
    switch (atom_op) {
    case IR_ATOM_AND: return old & b;
    case IR_ATOM_OR: return old | b;
    case IR_ATOM_XOR: return old ^ b;
    case IR_ATOM_EXCH: return b;
    case IR_ATOM_CAS: return old == b ? c : old;
    case IR_ATOM_INC: return old >= b ? 0 : old + 1;
    case IR_ATOM_DEC: return (old == 0 || old > b) ? b : old - 1;
    case IR_ATOM_ADD:
        if (bits)
            return (old + b) & mask;
        return atom_float(atom_op, type, mods, old, b);
    default: /* MIN, MAX */
        if (bits)
            return atom_int_minmax(atom_op, type, old, b, bits);
        return atom_float(atom_op, type, mods, old, b);
    }
}
