/* IR helpers: names and properties of opcodes and types, module lookup and destruction. */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

static const char *const opcode_names[IR_OP_COUNT] = {
#define IR_OP(name, text, cls) [IR_##name] = text,
#include "ir/ir_ops.def"
#undef IR_OP
};

static const unsigned char opcode_classes[IR_OP_COUNT] = {
#define IR_OP(name, text, cls) [IR_##name] = IR_CLASS_##cls,
#include "ir/ir_ops.def"
#undef IR_OP
};

const char *ir_opcode_name(ir_opcode op) { return op < IR_OP_COUNT ? opcode_names[op] : "?"; }
ir_op_class ir_opcode_class(ir_opcode op)
{
    return op < IR_OP_COUNT ? (ir_op_class)opcode_classes[op] : IR_CLASS_MISC;
}

static const struct {
    const char *name;
    unsigned bits;
} type_info[IR_T_COUNT] = {
    [IR_T_NONE] = {"", 0},       [IR_T_PRED] = {"pred", 1},   [IR_T_B8] = {"b8", 8},
    [IR_T_B16] = {"b16", 16},    [IR_T_B32] = {"b32", 32},    [IR_T_B64] = {"b64", 64},
    [IR_T_B128] = {"b128", 128}, [IR_T_U8] = {"u8", 8},       [IR_T_U16] = {"u16", 16},
    [IR_T_U32] = {"u32", 32},    [IR_T_U64] = {"u64", 64},    [IR_T_S8] = {"s8", 8},
    [IR_T_S16] = {"s16", 16},    [IR_T_S32] = {"s32", 32},    [IR_T_S64] = {"s64", 64},
    [IR_T_F16] = {"f16", 16},    [IR_T_F16X2] = {"f16x2", 32}, [IR_T_BF16] = {"bf16", 16},
    [IR_T_BF16X2] = {"bf16x2", 32}, [IR_T_TF32] = {"tf32", 32}, [IR_T_F32] = {"f32", 32},
    [IR_T_F64] = {"f64", 64},
};

const char *ir_type_name(ir_type t) { return t < IR_T_COUNT ? type_info[t].name : "?"; }
unsigned ir_type_bits(ir_type t) { return t < IR_T_COUNT ? type_info[t].bits : 0; }
bool ir_type_is_float(ir_type t) { return t >= IR_T_F16 && t <= IR_T_F64; }
bool ir_type_is_signed(ir_type t) { return t >= IR_T_S8 && t <= IR_T_S64; }

void ir_module_destroy(ir_module *m)
{
    if (!m)
        return;
    arena a = m->arena; /* the module itself lives in its arena or in malloc'd storage */
    arena_fini(&a);
    free(m);
}

int ir_module_find_func(const ir_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

const ir_insn *ir_module_insn_by_id(const ir_module *m, uint32_t id, const ir_func **func_out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_func *fn = &m->funcs[f];
        if (fn->ninsns && id >= fn->insns[0].id && id < fn->insns[0].id + fn->ninsns) {
            if (func_out)
                *func_out = fn;
            return &fn->insns[id - fn->insns[0].id];
        }
    }
    return NULL;
}
