/* IR helpers: the opcode table of ir_ops.def and its parsed shapes, names of opcodes, modifiers,
 * sub-operations, operand kinds, types and memory attributes, module lookup and destruction.
 * Nothing here validates a module: that is ir_verify.c. */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

static const ir_op_info op_table[IR_OP_COUNT] = {
#define IR_OP(name, text, cls, family, flow, mem, subs, shape, mods)                              \
    [IR_##name] = {text,          IR_CLASS_##cls, IR_FAM_##family, IR_FLOW_##flow,                \
                   IR_MEM_##mem,  IR_SUBS_##subs, shape,           mods},
#include "ir/ir_ops.def"
#undef IR_OP
};

const ir_op_info *ir_op_info_of(ir_opcode op) { return op < IR_OP_COUNT ? &op_table[op] : NULL; }
const char *ir_opcode_name(ir_opcode op) { return op < IR_OP_COUNT ? op_table[op].name : "?"; }
ir_op_class ir_opcode_class(ir_opcode op)
{
    return op < IR_OP_COUNT ? (ir_op_class)op_table[op].cls : IR_CLASS_MISC;
}

/* The letters of the shape column, indexed by operand kind. */
static const char kind_letters[] = {
    [IR_OPND_REG] = 'R',   [IR_OPND_PRED] = 'P', [IR_OPND_IMM] = 'I',   [IR_OPND_SREG] = 'S',
    [IR_OPND_ADDR] = 'A',  [IR_OPND_VEC] = 'V',  [IR_OPND_LABEL] = 'L', [IR_OPND_FUNC] = 'F',
    [IR_OPND_SYM] = 'Y',   [IR_OPND_SINK] = '_',
};

/* One slot of a shape string at *p (letters, then '-' or 'h'); advances *p past it. Returns the
 * kind mask, or 0 when the slot is malformed. */
static uint16_t shape_slot(const char **p)
{
    uint16_t mask = 0;
    const char *s = *p;
    for (; *s && *s != ' ' && *s != '-' && *s != 'h'; s++) {
        /* kind_letters[IR_OPND_NONE] is '\0', which *s never is */
        const char *k = memchr(kind_letters, *s, sizeof kind_letters);
        if (!k || (mask & (1u << (k - kind_letters))))
            return 0;
        mask |= (uint16_t)(1u << (k - kind_letters));
    }
    if (!mask)
        return 0;
    if (*s == '-' || *s == 'h') {
        mask |= (uint16_t)((1u << IR_OPND_NONE) | (*s == 'h' ? IR_SLOT_HINT : 0));
        s++;
    }
    if (*s && *s != ' ')
        return 0;
    *p = s;
    return mask;
}

bool ir_op_shape(ir_opcode op, ir_shape *out)
{
    memset(out, 0, sizeof *out);
    if (op >= IR_OP_COUNT)
        return false;
    const char *s = op_table[op].shape;
    int src = 0;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (*s == '=') {
            if (src)
                return false;
            src = 1;
            s++;
            continue;
        }
        uint16_t slot = shape_slot(&s);
        if (!slot || (src ? out->nsrc >= 4 : out->ndst >= 2))
            return false;
        if (src)
            out->src[out->nsrc++] = slot;
        else
            out->dst[out->ndst++] = slot;
    }
    return src == 1;
}

static const char *const modifier_names[IR_MODBIT_COUNT] = {
#define IR_MODIFIER(name, text) [IR_MODBIT_##name] = text,
#include "ir/ir_ops.def"
#undef IR_MODIFIER
};

const char *ir_modifier_name(unsigned bit)
{
    return bit < IR_MODBIT_COUNT ? modifier_names[bit] : NULL;
}

/* ---- sub-operations ---- */
static const char *const shfl_names[] = {[IR_SHFL_UP] = "up", [IR_SHFL_DOWN] = "down",
                                         [IR_SHFL_BFLY] = "bfly", [IR_SHFL_IDX] = "idx"};
static const char *const vote_names[] = {[IR_VOTE_ALL] = "all", [IR_VOTE_ANY] = "any",
                                         [IR_VOTE_UNI] = "uni", [IR_VOTE_BALLOT] = "ballot"};
static const char *const match_names[] = {[IR_MATCH_ANY] = "any", [IR_MATCH_ALL] = "all"};
static const char *const redux_names[] = {[IR_REDUX_ADD] = "add", [IR_REDUX_MIN] = "min",
                                          [IR_REDUX_MAX] = "max", [IR_REDUX_AND] = "and",
                                          [IR_REDUX_OR] = "or",   [IR_REDUX_XOR] = "xor"};
static const char *const atom_names[] = {
    [IR_ATOM_AND] = "and", [IR_ATOM_OR] = "or",   [IR_ATOM_XOR] = "xor", [IR_ATOM_CAS] = "cas",
    [IR_ATOM_EXCH] = "exch", [IR_ATOM_ADD] = "add", [IR_ATOM_INC] = "inc", [IR_ATOM_DEC] = "dec",
    [IR_ATOM_MIN] = "min", [IR_ATOM_MAX] = "max"};
static const char *const bar_names[] = {[IR_BAR_SYNC] = "sync", [IR_BAR_ARRIVE] = "arrive",
                                        [IR_BAR_RED_POPC] = "red.popc",
                                        [IR_BAR_RED_AND] = "red.and", [IR_BAR_RED_OR] = "red.or"};
static const char *const testp_names[] = {
    [IR_TESTP_FINITE] = "finite", [IR_TESTP_INFINITE] = "infinite",
    [IR_TESTP_NUMBER] = "number", [IR_TESTP_NOTANUMBER] = "notanumber",
    [IR_TESTP_NORMAL] = "normal", [IR_TESTP_SUBNORMAL] = "subnormal"};
static const char *const prmt_names[] = {[IR_PRMT_DEFAULT] = "",   [IR_PRMT_F4E] = "f4e",
                                         [IR_PRMT_B4E] = "b4e",    [IR_PRMT_RC8] = "rc8",
                                         [IR_PRMT_ECL] = "ecl",    [IR_PRMT_ECR] = "ecr",
                                         [IR_PRMT_RC16] = "rc16"};
static const char *const policy_names[] = {[IR_POLICY_FRACTIONAL] = "fractional",
                                           [IR_POLICY_RANGE] = "range", [IR_POLICY_CVT] = "cvt"};
static const char *const suq_names[] = {
    [IR_SUQ_WIDTH] = "width", [IR_SUQ_HEIGHT] = "height", [IR_SUQ_DEPTH] = "depth",
    [IR_SUQ_CHANNEL_DATA_TYPE] = "channel_data_type", [IR_SUQ_CHANNEL_ORDER] = "channel_order",
    [IR_SUQ_ARRAY_SIZE] = "array_size", [IR_SUQ_MEMORY_LAYOUT] = "memory_layout"};
static const char *const tld4_names[] = {[IR_TLD4_R] = "r", [IR_TLD4_G] = "g",
                                         [IR_TLD4_B] = "b", [IR_TLD4_A] = "a"};
static const char *const txq_names[] = {
    [IR_TXQ_WIDTH] = "width", [IR_TXQ_HEIGHT] = "height", [IR_TXQ_DEPTH] = "depth",
    [IR_TXQ_CHANNEL_DATA_TYPE] = "channel_data_type", [IR_TXQ_CHANNEL_ORDER] = "channel_order",
    [IR_TXQ_NORMALIZED_COORDS] = "normalized_coords", [IR_TXQ_FILTER_MODE] = "filter_mode",
    [IR_TXQ_ADDR_MODE_0] = "addr_mode_0", [IR_TXQ_ADDR_MODE_1] = "addr_mode_1",
    [IR_TXQ_ADDR_MODE_2] = "addr_mode_2", [IR_TXQ_ARRAY_SIZE] = "array_size",
    [IR_TXQ_NUM_MIPMAP_LEVELS] = "num_mipmap_levels", [IR_TXQ_NUM_SAMPLES] = "num_samples"};
static const char *const matrix_names[] = {
    [IR_MATRIX_M8N8] = "m8n8", [IR_MATRIX_M16N8K16] = "m16n8k16", [IR_MATRIX_M16N8K8] = "m16n8k8",
    [IR_MATRIX_M16N8K4] = "m16n8k4", [IR_MATRIX_M8N8K4] = "m8n8k4",
    [IR_MATRIX_M16N8K32] = "m16n8k32", [IR_MATRIX_M8N8K16] = "m8n8k16",
    [IR_MATRIX_M16N16K16] = "m16n16k16", [IR_MATRIX_M32N8K16] = "m32n8k16",
    [IR_MATRIX_M8N32K16] = "m8n32k16", [IR_MATRIX_M16N16K8] = "m16n16k8"};
static const char *const mbar_names[] = {
    [IR_MBAR_INIT] = "init", [IR_MBAR_INVAL] = "inval", [IR_MBAR_ARRIVE] = "arrive",
    [IR_MBAR_ARRIVE_NOCOMPLETE] = "arrive.noComplete", [IR_MBAR_ARRIVE_DROP] = "arrive_drop",
    [IR_MBAR_ARRIVE_DROP_NOCOMPLETE] = "arrive_drop.noComplete",
    [IR_MBAR_EXPECT_TX] = "expect_tx", [IR_MBAR_COMPLETE_TX] = "complete_tx",
    [IR_MBAR_TEST_WAIT] = "test_wait", [IR_MBAR_TEST_WAIT_PARITY] = "test_wait.parity",
    [IR_MBAR_TRY_WAIT] = "try_wait", [IR_MBAR_TRY_WAIT_PARITY] = "try_wait.parity",
    [IR_MBAR_PENDING_COUNT] = "pending_count"};
static const char *const bulk_names[] = {[0] = "", [IR_BULK_TO_SHARED] = "shared",
                                         [IR_BULK_TO_GLOBAL] = "global",
                                         [IR_BULK_TO_L2] = "L2", [IR_BULK_READ] = "read"};
static const char *const video_names[] = {
    [IR_VID_ADD] = "add", [IR_VID_SUB] = "sub", [IR_VID_ABSDIFF] = "absdiff", [IR_VID_MIN] = "min",
    [IR_VID_MAX] = "max", [IR_VID_AVRG] = "avrg", [IR_VID_SHL] = "shl", [IR_VID_SHR] = "shr",
    [IR_VID_MAD] = "mad", [IR_VID_SET] = "set"};
static const char *const none_names[] = {""};

#define SUB_SET(names) {names, sizeof names / sizeof names[0]}
static const struct {
    const char *const *names; /* NULL entries are not members */
    unsigned count;
} sub_sets[IR_SUBS_COUNT] = {
    [IR_SUBS_NONE] = SUB_SET(none_names),   [IR_SUBS_SHFL] = SUB_SET(shfl_names),
    [IR_SUBS_VOTE] = SUB_SET(vote_names),   [IR_SUBS_MATCH] = SUB_SET(match_names),
    [IR_SUBS_REDUX] = SUB_SET(redux_names), [IR_SUBS_ATOM] = SUB_SET(atom_names),
    [IR_SUBS_BAR] = SUB_SET(bar_names),     [IR_SUBS_TESTP] = SUB_SET(testp_names),
    [IR_SUBS_PRMT] = SUB_SET(prmt_names),   [IR_SUBS_POLICY] = SUB_SET(policy_names),
    [IR_SUBS_SUQ] = SUB_SET(suq_names),     [IR_SUBS_TLD4] = SUB_SET(tld4_names),
    [IR_SUBS_TXQ] = SUB_SET(txq_names),     [IR_SUBS_MATRIX] = SUB_SET(matrix_names),
    [IR_SUBS_MBAR] = SUB_SET(mbar_names),
    [IR_SUBS_BULK] = SUB_SET(bulk_names),
    [IR_SUBS_VIDEO] = SUB_SET(video_names),
};
#undef SUB_SET

const char *ir_sub_name(ir_subs set, unsigned sub)
{
    if (set >= IR_SUBS_COUNT || sub >= sub_sets[set].count)
        return NULL;
    return sub_sets[set].names[sub];
}

const char *ir_operand_kind_name(ir_operand_kind k)
{
    static const char *const names[] = {
        [IR_OPND_NONE] = "none",          [IR_OPND_REG] = "register",
        [IR_OPND_PRED] = "predicate",     [IR_OPND_IMM] = "immediate",
        [IR_OPND_SREG] = "special register", [IR_OPND_ADDR] = "address",
        [IR_OPND_VEC] = "vector",         [IR_OPND_LABEL] = "label",
        [IR_OPND_FUNC] = "function",      [IR_OPND_SYM] = "variable address",
        [IR_OPND_SINK] = "sink"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
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
    [IR_T_F64] = {"f64", 64},    [IR_T_U16X2] = {"u16x2", 32}, [IR_T_S16X2] = {"s16x2", 32},
};

const char *ir_type_name(ir_type t) { return t < IR_T_COUNT ? type_info[t].name : "?"; }
unsigned ir_type_bits(ir_type t) { return t < IR_T_COUNT ? type_info[t].bits : 0; }
bool ir_type_is_float(ir_type t) { return t >= IR_T_F16 && t <= IR_T_F64; }
bool ir_type_is_signed(ir_type t) { return t >= IR_T_S8 && t <= IR_T_S64; }

/* ---- memory attributes ---- */
static const char *const space_names[] = {"",      "generic", "global", "shared",  "shared::cluster",
                                          "local", "const",   "param",  "surface", "instruction",
                                          "crs"};
static const char *const sem_names[] = {"weak", "relaxed", "acquire", "release",
                                        "acq_rel", "sc", "volatile", "mmio"};
static const char *const scope_names[] = {"",    "cta", "cluster", "gpu",   "gpus",
                                          "sys", "sm",  "tile",    "sysacq"};
static const char *const sfid_names[] = {"", "ugm", "ugml", "tgm", "slm"};
static const char *const fence_op_names[] = {"",        "none",  "evict",  "invalidate",
                                             "discard", "clean", "flushl3"};
static const char *const cache_ctl_names[] = {"", "uc", "ca", "wb", "wt", "st", "ri"};

unsigned ir_scope_width(ir_scope s)
{
    static const uint8_t width[] = {[IR_SCOPE_NONE] = 0, [IR_SCOPE_CTA] = 1, [IR_SCOPE_SM] = 2,
                                    [IR_SCOPE_CLUSTER] = 3, [IR_SCOPE_TILE] = 4,
                                    [IR_SCOPE_GPU] = 5, [IR_SCOPE_GPUS] = 6, [IR_SCOPE_SYS] = 7,
                                    [IR_SCOPE_SYSACQ] = 8};
    return (unsigned)s < sizeof width ? width[s] : 0;
}
static const char *const evict_names[] = {"",     "normal", "unchanged",
                                          "first", "last",  "no_allocate"};
static const char *const write_mode_names[] = {"", "write_back", "write_through", "bypass_l1",
                                               "streaming"};
static const char *const image_dim_names[] = {"", "1d", "1d_buffer", "1d_array", "2d",
                                              "2d_array", "3d", "cube",
                                              "cube_array"};
static const char *const cctl_names[] = {"",        "prefetch",         "writeback", "invalidate",
                                         "discard", "invalidate_clean", "priority"};

/* One field: visits it when it is not at its default. `names` is NULL for a number. */
static void visit_field(ir_mem_visit_fn visit, void *user, unsigned *bad, const char *field,
                        unsigned value, unsigned dflt, const char *const *names, size_t nnames)
{
    if (value == 0 || value == dflt)
        return;
    const char *name = names && value < nnames ? names[value] : NULL;
    if (names && !name && bad)
        ++*bad;
    visit(user, field, value, name);
}

/* The only function that names the fields of ir_mem_attrs: the printer and the verifier go
 * through it, so a change of the contract's fields changes this function and nothing there. */
void ir_mem_attrs_visit(const ir_mem_attrs *m, ir_mem_visit_fn visit, void *user,
                        unsigned *out_of_range)
{
#define ENUM_FIELD(f, names) visit_field(visit, user, out_of_range, #f, m->f, 0, names, \
                                         sizeof names / sizeof names[0])
#define NUMBER_FIELD(f, dflt) visit_field(visit, user, out_of_range, #f, m->f, dflt, NULL, 0)
    ENUM_FIELD(space, space_names);
    ENUM_FIELD(sem, sem_names);
    ENUM_FIELD(scope, scope_names);
    ENUM_FIELD(l1_alloc, evict_names);
    NUMBER_FIELD(l1, 0); /* IR_L1_* bits */
    ENUM_FIELD(l2_evict, evict_names);
    ENUM_FIELD(l2_secondary, evict_names);
    ENUM_FIELD(write_mode, write_mode_names);
    NUMBER_FIELD(fill_bytes, 0);
    NUMBER_FIELD(has_policy, 0);
    NUMBER_FIELD(elem_bytes, 0);
    NUMBER_FIELD(vec, 1);
    ENUM_FIELD(cctl, cctl_names);
    NUMBER_FIELD(cctl_levels, 0); /* IR_LEVEL_* bits */
    NUMBER_FIELD(cctl_lines, 0);  /* IR_LINES_* bits */
    NUMBER_FIELD(cctl_all, 0);
    NUMBER_FIELD(fence, 0);       /* IR_FENCE_* bits */
    NUMBER_FIELD(uniform, 0);
    ENUM_FIELD(image_dim, image_dim_names);
    NUMBER_FIELD(image_clamp, 0);  /* ir_image_clamp */
    NUMBER_FIELD(image_flags, 0);  /* IR_IMAGE_* bits */
    ENUM_FIELD(sfid, sfid_names);
    ENUM_FIELD(fence_op, fence_op_names);
    ENUM_FIELD(l1_ctl, cache_ctl_names);
    ENUM_FIELD(l2_ctl, cache_ctl_names);
#undef ENUM_FIELD
#undef NUMBER_FIELD
}

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
        if (!fn->ninsns || id < fn->insns[0].id || id > fn->insns[fn->ninsns - 1].id)
            continue;
        /* Ids never decrease along a function (glue has the id of its neighbour): bisect for
         * the first instruction with this id, then step over glue to the one that owns it. */
        uint32_t lo = 0, hi = fn->ninsns;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (fn->insns[mid].id < id)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < fn->ninsns && fn->insns[lo].id == id; lo++) {
            if (!fn->insns[lo].glue) {
                if (func_out)
                    *func_out = fn;
                return &fn->insns[lo];
            }
        }
    }
    return NULL;
}

/* ---- matrix shapes ---- */
bool ir_matrix_dims(unsigned shape, unsigned *m, unsigned *n, unsigned *k)
{
    static const uint8_t dims[IR_MATRIX_SHAPES][3] = {
        [IR_MATRIX_M8N8] = {8, 8, 0},        [IR_MATRIX_M16N8K16] = {16, 8, 16},
        [IR_MATRIX_M16N8K8] = {16, 8, 8},    [IR_MATRIX_M16N8K4] = {16, 8, 4},
        [IR_MATRIX_M8N8K4] = {8, 8, 4},      [IR_MATRIX_M16N8K32] = {16, 8, 32},
        [IR_MATRIX_M8N8K16] = {8, 8, 16},    [IR_MATRIX_M16N16K16] = {16, 16, 16},
        [IR_MATRIX_M32N8K16] = {32, 8, 16},  [IR_MATRIX_M8N32K16] = {8, 32, 16},
        [IR_MATRIX_M16N16K8] = {16, 16, 8}};
    if (shape == 0 || shape >= IR_MATRIX_SHAPES)
        return false;
    *m = dims[shape][0];
    *n = dims[shape][1];
    *k = dims[shape][2];
    return true;
}

unsigned ir_matrix_regs(unsigned shape, unsigned frag, ir_type t, bool wmma)
{
    unsigned m, n, k, bits = ir_type_bits(t);
    if (!ir_matrix_dims(shape, &m, &n, &k) || k == 0 || bits < 8 || bits > 64)
        return 0;
    unsigned rows = frag == IR_FRAG_B ? k : m, cols = frag == IR_FRAG_A ? k : n;
    unsigned elems = rows * cols / 32;
    if (wmma && t == IR_T_F16 && (frag == IR_FRAG_A || frag == IR_FRAG_B))
        elems = 16;
    if (!wmma && shape == IR_MATRIX_M8N8K4 && t != IR_T_F64) /* four MMAs, 8 lanes each */
        elems = rows * cols / 8;
    unsigned reg_bits = bits == 64 ? 64 : 32;
    return elems * bits / reg_bits;
}
