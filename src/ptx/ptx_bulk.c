/* The bulk copies of PTX (PTX ISA 9.1 §9.7.9.25.4-5: cp.async.bulk, cp.async.bulk.tensor,
 * cp.reduce.async.bulk{.tensor}, cp.async.bulk.prefetch{.tensor}, cp.async.bulk.commit_group and
 * wait_group; §9.7.13.4 fence.proxy) lowered to the IR's BULK family (ir_ops.def "bulk copies";
 * docs/ptx.md, "Bulk copies"). Their modifiers are many and come in a fixed set of forms, so
 * this file reads them from the opcode text itself, with its own table of spellings, instead of
 * the modifier groups: a form needs its destination and source spaces, its completion
 * mechanism and, by instruction, its dimension, operation, type or level. Forms gpumemsim does
 * not model (multicast, another CTA's shared memory, im2col and gather/scatter modes, sm_100
 * additions, tensor-map proxy fences) are rejected by name (PTX-BULK-001). ptxas 13 is the
 * reference for what is valid (tests/diff, the bulk generators). */
#include <string.h>

#include "ptx/ptx_internal.h"

/* What a modifier word is. */
typedef enum word_kind {
    W_SPACE, W_COMPLETE, W_HINT, W_DIM, W_MODE, W_LEVEL, W_REDOP, W_TYPE, W_NOFTZ, W_READ,
    W_PROXY, W_UNMODELLED
} word_kind;

enum { COMPLETE_MBAR = 1, COMPLETE_GROUP };
enum { PROXY_ASYNC = 1, PROXY_ALIAS };

static const struct {
    const char *text;
    uint8_t kind;   /* word_kind */
    uint8_t value;  /* ir_space, COMPLETE_*, dimension, IR_ATOM_*, ir_type, PROXY_*; W_MODE: 1
                       for .tile, 0 for the modes gpumemsim rejects */
    uint16_t version, sm;
} words[] = {
    {".shared::cluster", W_SPACE, IR_SPACE_SHARED_CLUSTER, 80, 90},
    {".shared::cta", W_SPACE, IR_SPACE_SHARED, 80, 90},
    {".global", W_SPACE, IR_SPACE_GLOBAL, 80, 90},
    {".mbarrier::complete_tx::bytes", W_COMPLETE, COMPLETE_MBAR, 80, 90},
    {".bulk_group", W_COMPLETE, COMPLETE_GROUP, 80, 90},
    {".L2::cache_hint", W_HINT, 1, 80, 90},
    {".1d", W_DIM, 1, 80, 90}, {".2d", W_DIM, 2, 80, 90}, {".3d", W_DIM, 3, 80, 90},
    {".4d", W_DIM, 4, 80, 90}, {".5d", W_DIM, 5, 80, 90},
    {".tile", W_MODE, 1, 80, 90},
    {".im2col", W_MODE, 0, 80, 90}, {".im2col::w", W_MODE, 0, 86, 100},
    {".im2col::w::128", W_MODE, 0, 86, 100}, {".tile::gather4", W_MODE, 0, 86, 100},
    {".tile::scatter4", W_MODE, 0, 86, 100}, {".im2col_no_offs", W_MODE, 0, 86, 100},
    {".L2", W_LEVEL, 1, 80, 90},
    {".add", W_REDOP, IR_ATOM_ADD, 80, 90}, {".min", W_REDOP, IR_ATOM_MIN, 80, 90},
    {".max", W_REDOP, IR_ATOM_MAX, 80, 90}, {".inc", W_REDOP, IR_ATOM_INC, 80, 90},
    {".dec", W_REDOP, IR_ATOM_DEC, 80, 90}, {".and", W_REDOP, IR_ATOM_AND, 80, 90},
    {".or", W_REDOP, IR_ATOM_OR, 80, 90}, {".xor", W_REDOP, IR_ATOM_XOR, 80, 90},
    {".b32", W_TYPE, IR_T_B32, 80, 90}, {".u32", W_TYPE, IR_T_U32, 80, 90},
    {".s32", W_TYPE, IR_T_S32, 80, 90}, {".b64", W_TYPE, IR_T_B64, 80, 90},
    {".u64", W_TYPE, IR_T_U64, 80, 90}, {".s64", W_TYPE, IR_T_S64, 80, 90},
    {".f32", W_TYPE, IR_T_F32, 80, 90}, {".f64", W_TYPE, IR_T_F64, 80, 90},
    {".f16", W_TYPE, IR_T_F16, 80, 90}, {".bf16", W_TYPE, IR_T_BF16, 80, 90},
    {".noftz", W_NOFTZ, 1, 80, 90},
    {".read", W_READ, 1, 80, 90},
    {".async", W_PROXY, PROXY_ASYNC, 80, 90}, {".alias", W_PROXY, PROXY_ALIAS, 75, 70},
    {".multicast::cluster", W_UNMODELLED, 0, 80, 90},
    {".cta_group::1", W_UNMODELLED, 0, 86, 100}, {".cta_group::2", W_UNMODELLED, 0, 86, 100},
    {".cp_mask", W_UNMODELLED, 0, 86, 100},
    {".tensormap::generic", W_UNMODELLED, 0, 83, 90},
    {".async::generic", W_UNMODELLED, 0, 86, 90},
};

/* The modifiers of one instruction. */
typedef struct bulk_mods {
    uint8_t space[2];   /* destination, source (fence.proxy: the one space) */
    uint8_t nspaces;
    uint8_t complete, hint, dim, tile, level, redop, type, noftz, read, proxy;
} bulk_mods;

/* Which word kinds each instruction takes (bits of word_kind). */
static uint32_t allowed_kinds(ptx_op_id op)
{
#define K(k) (1u << (k))
    switch (op) {
    case PTX_OP_BULK_COPY: return K(W_SPACE) | K(W_COMPLETE) | K(W_HINT) | K(W_UNMODELLED);
    case PTX_OP_BULK_TENSOR:
        return K(W_DIM) | K(W_SPACE) | K(W_MODE) | K(W_COMPLETE) | K(W_HINT) | K(W_UNMODELLED);
    case PTX_OP_BULK_PREFETCH: return K(W_LEVEL) | K(W_SPACE) | K(W_HINT);
    case PTX_OP_BULK_PREFETCH_TENSOR:
        return K(W_DIM) | K(W_LEVEL) | K(W_SPACE) | K(W_MODE) | K(W_HINT);
    case PTX_OP_BULK_REDUCE:
        return K(W_SPACE) | K(W_COMPLETE) | K(W_HINT) | K(W_REDOP) | K(W_TYPE) | K(W_NOFTZ);
    case PTX_OP_BULK_REDUCE_TENSOR:
        return K(W_DIM) | K(W_SPACE) | K(W_REDOP) | K(W_MODE) | K(W_COMPLETE) | K(W_HINT);
    case PTX_OP_BULK_WAIT: return K(W_READ);
    case PTX_OP_FENCE_PROXY: return K(W_PROXY) | K(W_SPACE) | K(W_UNMODELLED);
    default: return 0;
    }
#undef K
}

/* Records word i of the table in m; false after reporting a repeat. */
static bool record(ptx_parser *p, const ptx_insn_ctx *c, bulk_mods *m, int i, const char *w,
                   int len)
{
    uint8_t v = words[i].value, *slot = NULL;
    switch ((word_kind)words[i].kind) {
    case W_SPACE:
        if (m->nspaces == 2)
            break;
        m->space[m->nspaces++] = v;
        return true;
    case W_COMPLETE: slot = &m->complete; break;
    case W_HINT: slot = &m->hint; break;
    case W_DIM: slot = &m->dim; break;
    case W_MODE: slot = &m->tile; v = 1; break;
    case W_LEVEL: slot = &m->level; break;
    case W_REDOP: slot = &m->redop; break;
    case W_TYPE: slot = &m->type; break;
    case W_NOFTZ: slot = &m->noftz; break;
    case W_READ: slot = &m->read; break;
    case W_PROXY: slot = &m->proxy; break;
    default: break;
    }
    if (slot && !*slot) {
        *slot = v;
        return true;
    }
    ptx_error_at(p, c->line, c->col, "PTX-BULK-002", "'%.*s': %.*s repeats a modifier of its kind",
                 (int)c->text_len, c->text, len, w);
    return false;
}

/* Reads the modifier words after the mnemonic into m; false after reporting. */
static bool read_words(ptx_parser *p, const ptx_insn_ctx *c, bulk_mods *m)
{
    size_t at = strlen(c->row->mnemonic);
    uint32_t kinds = allowed_kinds(c->op);
    while (at < c->text_len) {
        const char *w = c->text + at;
        size_t len = 1;
        while (at + len < c->text_len && w[len] != '.') len++;
        at += len;
        int found = -1;
        for (size_t i = 0; i < sizeof words / sizeof words[0] && found < 0; i++)
            if (strlen(words[i].text) == len && memcmp(words[i].text, w, len) == 0)
                found = (int)i;
        if (found < 0 || !((kinds >> words[found].kind) & 1u)) {
            ptx_error_at(p, c->line, c->col, found < 0 ? "PTX-MOD-001" : "PTX-MOD-002",
                         "'%.*s': modifier %.*s is %s %s", (int)c->text_len, c->text, (int)len,
                         w, found < 0 ? "unknown on" : "not allowed on", c->row->mnemonic);
            return false;
        }
        if (words[found].kind == W_UNMODELLED || (words[found].kind == W_MODE && !words[found].value)) {
            ptx_error_at(p, c->line, c->col, "PTX-BULK-001", "'%.*s': %.*s is not modelled by "
                         "gpumemsim (%s)", (int)c->text_len, c->text, (int)len, w,
                         words[found].kind == W_MODE ? "only the .tile mode is"
                                                     : "clusters of CTAs and the sm_100 forms are not");
            return false;
        }
        if (p->version < words[found].version || p->sm < words[found].sm) {
            ptx_error_at(p, c->line, c->col, p->version < words[found].version ? "PTX-VER-001"
                                                                               : "PTX-ARCH-002",
                         "'%.*s': %.*s requires PTX ISA %u.%u and sm_%u", (int)c->text_len,
                         c->text, (int)len, w, words[found].version / 10,
                         words[found].version % 10, words[found].sm);
            return false;
        }
        if (!record(p, c, m, found, w, (int)len))
            return false;
    }
    return true;
}

/* The destination and source spaces a copy names, checked against the forms of PTX. */
static bool check_spaces(ptx_parser *p, const ptx_insn_ctx *c, const bulk_mods *m, uint8_t *sub)
{
    uint8_t dst = m->space[0], src = m->space[1];
    if (m->nspaces != 2)
        return ptx_insn_fail(p, c, "PTX-BULK-002", "needs a destination and a source state space");
    bool to_shared = (dst == IR_SPACE_SHARED_CLUSTER || dst == IR_SPACE_SHARED) &&
                     src == IR_SPACE_GLOBAL;
    bool to_global = dst == IR_SPACE_GLOBAL && src == IR_SPACE_SHARED;
    if (dst == IR_SPACE_SHARED_CLUSTER && src == IR_SPACE_SHARED)
        return ptx_insn_fail(p, c, "PTX-BULK-001", "a copy into another CTA's shared memory "
                    "(.shared::cluster from .shared::cta) is not modelled: clusters are not");
    if (c->op == PTX_OP_BULK_REDUCE_TENSOR ? !to_global : !to_shared && !to_global)
        return ptx_insn_fail(p, c, "PTX-BULK-002", "these destination and source state spaces do not "
                    "make a form of the instruction");
    if (c->op == PTX_OP_BULK_REDUCE && to_shared)
        return ptx_insn_fail(p, c, "PTX-BULK-002", "a reduction goes from .shared::cta to .global or "
                    ".shared::cluster");
    if (to_shared && dst == IR_SPACE_SHARED && p->version < 86)
        return ptx_insn_fail(p, c, "PTX-VER-001", ".shared::cta as the destination requires PTX ISA 8.6");
    if (m->complete != (to_shared ? COMPLETE_MBAR : COMPLETE_GROUP))
        return ptx_insn_fail(p, c, "PTX-BULK-002", to_shared ? "a copy into shared memory completes "
                    "through .mbarrier::complete_tx::bytes" : "a copy into global memory "
                    "completes through .bulk_group");
    *sub = to_shared ? IR_BULK_TO_SHARED : IR_BULK_TO_GLOBAL;
    return true;
}

/* The types each reduction takes into global memory (PTX ISA 9.1 §9.7.9.25.4.2, as ptxas 13
 * enforces it): add f32 f64 u32 s32 u64 (f16 and bf16 with .noftz); min and max u32 s32 u64
 * s64 f16 bf16; inc and dec u32; and, or, xor b32 b64. */
static bool check_reduction_type(ptx_parser *p, const ptx_insn_ctx *c, const bulk_mods *m)
{
    uint32_t t = UINT32_C(1) << m->type, ok;
    switch (m->redop) {
    case IR_ATOM_ADD:
        ok = TM(F32) | TM(F64) | TM(U32) | TM(S32) | TM(U64) | TM(F16) | TM(BF16);
        break;
    case IR_ATOM_MIN: case IR_ATOM_MAX:
        ok = TM(U32) | TM(S32) | TM(U64) | TM(S64) | TM(F16) | TM(BF16);
        break;
    case IR_ATOM_INC: case IR_ATOM_DEC: ok = TM(U32); break;
    default: ok = TM(B32) | TM(B64); break;
    }
    if (!(ok & t))
        return ptx_insn_fail(p, c, "PTX-BULK-004", "this reduction is not defined for this type");
    bool half = m->type == IR_T_F16 || m->type == IR_T_BF16;
    if (m->noftz && (!half || m->redop != IR_ATOM_ADD))
        return ptx_insn_fail(p, c, "PTX-BULK-002", ".noftz applies to add of .f16 and .bf16 only");
    if (half && m->redop == IR_ATOM_ADD && !m->noftz)
        return ptx_insn_fail(p, c, "PTX-BULK-004", "add of .f16 or .bf16 needs .noftz");
    return true;
}

static bool check_fence(ptx_parser *p, ptx_insn_ctx *c, const bulk_mods *m)
{
    ir_mem_attrs *a = &c->insn->mem;
    if (!m->proxy)
        return ptx_insn_fail(p, c, "PTX-BULK-002", "needs a proxy kind (.alias or .async)");
    if (m->nspaces > 1 || (m->nspaces && m->proxy != PROXY_ASYNC))
        return ptx_insn_fail(p, c, "PTX-BULK-002", "only fence.proxy.async names one state space");
    a->space = m->nspaces ? m->space[0] : IR_SPACE_GENERIC;
    c->insn->sub = 0;
    return true;
}

/* The prefetches: .L2 and .global. */
static bool check_prefetch(ptx_parser *p, ptx_insn_ctx *c, const bulk_mods *m)
{
    if (!m->level || m->nspaces != 1 || m->space[0] != IR_SPACE_GLOBAL)
        return ptx_insn_fail(p, c, "PTX-BULK-002", "a bulk prefetch is written .L2.global");
    c->insn->sub = c->op == PTX_OP_BULK_PREFETCH ? 0 : IR_BULK_TO_L2;
    return true;
}

bool ptx_check_bulk(ptx_parser *p, ptx_insn_ctx *c)
{
    bulk_mods m = {{0, 0}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (!read_words(p, c, &m))
        return false;
    ir_insn *in = c->insn;
    ir_mem_attrs *a = &in->mem;
    bool tensor = c->op == PTX_OP_BULK_TENSOR || c->op == PTX_OP_BULK_PREFETCH_TENSOR ||
                  c->op == PTX_OP_BULK_REDUCE_TENSOR;
    if (tensor && !m.dim)
        return ptx_insn_fail(p, c, "PTX-BULK-002", "needs a dimension (.1d to .5d)");
    in->mods = 0;
    if (ir_opcode_class((ir_opcode)in->op) == IR_CLASS_MEM) {
        a->space = IR_SPACE_GLOBAL; /* the global side; the other is the CTA's shared memory */
        a->has_policy = m.hint;
    }
    switch (c->op) {
    case PTX_OP_BULK_COMMIT:
        return true;
    case PTX_OP_BULK_WAIT:
        in->sub = m.read ? IR_BULK_READ : 0;
        return true;
    case PTX_OP_FENCE_PROXY:
        return check_fence(p, c, &m);
    case PTX_OP_BULK_PREFETCH: case PTX_OP_BULK_PREFETCH_TENSOR:
        return check_prefetch(p, c, &m);
    case PTX_OP_BULK_REDUCE: case PTX_OP_BULK_REDUCE_TENSOR:
        if (!m.redop)
            return ptx_insn_fail(p, c, "PTX-BULK-002", "needs an operation (.add, .min, .max, .inc, .dec, "
                        ".and, .or, .xor)");
        if (c->op == PTX_OP_BULK_REDUCE && !m.type)
            return ptx_insn_fail(p, c, "PTX-TYPE-001", "needs the element type");
        if (c->op == PTX_OP_BULK_REDUCE && !check_reduction_type(p, c, &m))
            return false;
        if (!check_spaces(p, c, &m, &in->sub))
            return false;
        in->sub = m.redop;
        in->type = m.type;
        in->mods = m.noftz ? IR_MOD_NOFTZ : 0;
        return true;
    default:
        return check_spaces(p, c, &m, &in->sub);
    }
}

/* ---- operands ---- */

static bool count_is(ptx_parser *p, const ptx_insn_ctx *c, unsigned n)
{
    if (c->nops == n)
        return true;
    ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes %u operands, found %u",
                 (int)c->text_len, c->text, n, c->nops);
    return false;
}

static bool opnd_err(ptx_parser *p, const ptx_popnd *o, const char *rule, const char *msg)
{
    ptx_error_at(p, o->line, o->col, rule, "%s", msg);
    return false;
}

/* A plain address [a] (no coordinates) in `space`. */
static bool plain_address(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_space space,
                          ir_operand *out)
{
    if (o->kind == PTX_P_IMAGE)
        return opnd_err(p, o, "PTX-OPND-002", "expected an address [a], not [a, {...}]");
    return ptx_lower_addr_in(p, c, o, space, out);
}

/* The size operand: a .u32 register or an immediate multiple of 16. */
static bool size_operand(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    if (o->kind == PTX_P_INT && (o->ival < 0 || o->ival % 16 != 0 || o->ival > UINT32_MAX))
        return opnd_err(p, o, "PTX-BULK-003", "the size of a bulk copy is a multiple of 16 "
                        "bytes");
    return ptx_lower_src(p, c, o, IR_T_U32, out);
}

/* [tensorMap, {c0, ...}]: the map's address register, then one s32 coordinate per dimension,
 * into one VEC operand (ir_ops.def). */
static bool tensor_operand(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, unsigned dim,
                           ir_operand *out)
{
    if (o->kind != PTX_P_IMAGE || o->has_sampler)
        return opnd_err(p, o, "PTX-BULK-003", "expected the tensor map and its coordinates "
                        "[map, {x, ...}]");
    if (o->count != dim)
        return opnd_err(p, o, "PTX-BULK-003", "the tensor coordinates do not match the "
                        "dimension (.1d: one, ... .5d: five)");
    memset(out, 0, sizeof *out);
    out->kind = IR_OPND_VEC;
    out->sym = IR_SYM_NONE;
    out->count = (uint8_t)(dim + 1);
    ir_operand r;
    uint32_t slot;
    const ptx_binding *b = ptx_lookup(p, o->name.text, o->name.len, &slot);
    if (!b || b->kind != PTX_SYM_REG || o->ival != 0)
        return opnd_err(p, o, "PTX-BULK-003", "the tensor map is the generic address of the map "
                        "in a 64-bit register (ptxas refuses a variable name)");
    if (!ptx_lower_reg(p, c, &o->name, IR_T_B64, false, &r))
        return false;
    out->vregs[0] = r.reg;
    for (unsigned i = 0; i < dim; i++) {
        if (o->elem_is_imm[i] || !o->elems[i].text)
            return opnd_err(p, o, "PTX-BULK-003", "tensor coordinates are 32-bit registers");
        if (!ptx_lower_reg(p, c, &o->elems[i], IR_T_B32, false, &r))
            return false;
        out->vregs[i + 1] = r.reg;
    }
    return true;
}

static bool policy(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    return ptx_lower_src(p, c, o, IR_T_B64, out);
}

/* cp.async.bulk: [dst], [src], size, [mbar] (into shared memory) {, policy}. With a policy the
 * size operand becomes the VEC {size, policy} (ir_ops.def) and has_policy stays clear. */
static void lower_copy(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    const ptx_popnd *o = p->ops;
    bool to_shared = in->sub == IR_BULK_TO_SHARED, hint = in->mem.has_policy;
    if (!count_is(p, c, 3u + to_shared + hint))
        return;
    ir_space dsp = to_shared ? IR_SPACE_SHARED : IR_SPACE_GLOBAL;
    ir_space ssp = to_shared ? IR_SPACE_GLOBAL : IR_SPACE_SHARED;
    ir_operand size, pol;
    if (!plain_address(p, c, &o[0], dsp, &in->src[0]) ||
        !plain_address(p, c, &o[1], ssp, &in->src[1]) || !size_operand(p, c, &o[2], &size) ||
        (to_shared && !plain_address(p, c, &o[3], IR_SPACE_SHARED, &in->src[3])) ||
        (hint && !policy(p, c, &o[3 + to_shared], &pol)))
        return;
    if (hint && pol.kind != IR_OPND_REG) {
        opnd_err(p, &o[3 + to_shared], "PTX-OPND-002", "the cache policy of cp.async.bulk is a "
                 "64-bit register");
        return;
    }
    in->mem.has_policy = 0;
    in->src[2] = size;
    if (hint) {
        memset(&in->src[2], 0, sizeof in->src[2]);
        in->src[2].kind = IR_OPND_VEC;
        in->src[2].sym = IR_SYM_NONE;
        in->src[2].count = 2;
        in->src[2].vregs[0] = size.kind == IR_OPND_REG ? size.reg : IR_REG_IMM;
        in->src[2].imm = size.kind == IR_OPND_REG ? 0 : (int64_t)(uint32_t)size.imm;
        in->src[2].vregs[1] = pol.reg;
    }
    in->nsrc = to_shared ? 4 : 3;
}

/* cp.async.bulk.tensor: load [dst], [map, coords], [mbar] {, policy}; store [map, coords],
 * [src] {, policy}; prefetch [map, coords] {, policy}. */
static void lower_tensor(ptx_parser *p, ptx_insn_ctx *c, unsigned dim)
{
    ir_insn *in = c->insn;
    const ptx_popnd *o = p->ops;
    bool hint = in->mem.has_policy;
    unsigned n = (in->sub == IR_BULK_TO_SHARED ? 3u : in->sub == IR_BULK_TO_GLOBAL ? 2u : 1u);
    if (!count_is(p, c, n + hint))
        return;
    bool ok;
    if (in->sub == IR_BULK_TO_SHARED)
        ok = plain_address(p, c, &o[0], IR_SPACE_SHARED, &in->src[0]) &&
             tensor_operand(p, c, &o[1], dim, &in->src[1]) &&
             plain_address(p, c, &o[2], IR_SPACE_SHARED, &in->src[2]);
    else if (in->sub == IR_BULK_TO_GLOBAL)
        ok = tensor_operand(p, c, &o[0], dim, &in->src[1]) &&
             plain_address(p, c, &o[1], IR_SPACE_SHARED, &in->src[0]);
    else
        ok = tensor_operand(p, c, &o[0], dim, &in->src[1]);
    if (ok && hint && !policy(p, c, &o[n], &in->src[3]))
        return;
    if (ok)
        in->nsrc = 4;
}

/* cp.reduce.async.bulk: [dst], [src], size {, policy}; .tensor: [map, coords], [src] {,
 * policy}. */
static void lower_reduce(ptx_parser *p, ptx_insn_ctx *c, unsigned dim)
{
    ir_insn *in = c->insn;
    const ptx_popnd *o = p->ops;
    bool hint = in->mem.has_policy, tensor = dim != 0;
    unsigned n = tensor ? 2u : 3u;
    if (!count_is(p, c, n + hint))
        return;
    bool ok = tensor ? tensor_operand(p, c, &o[0], dim, &in->src[0])
                     : plain_address(p, c, &o[0], IR_SPACE_GLOBAL, &in->src[0]);
    ok = ok && plain_address(p, c, &o[1], IR_SPACE_SHARED, &in->src[1]) &&
         (tensor || size_operand(p, c, &o[2], &in->src[2]));
    if (ok && hint && !policy(p, c, &o[n], &in->src[3]))
        return;
    if (ok)
        in->nsrc = 4;
}

static unsigned dimension_of(const ptx_insn_ctx *c)
{
    for (uint32_t i = 0; i + 2 < c->text_len; i++)
        if (c->text[i] == '.' && c->text[i + 1] >= '1' && c->text[i + 1] <= '5' &&
            c->text[i + 2] == 'd' && (i + 3 == c->text_len || c->text[i + 3] == '.'))
            return (unsigned)(c->text[i + 1] - '0');
    return 0;
}

void ptx_lower_bulk(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    const ptx_popnd *o = p->ops;
    switch (c->op) {
    case PTX_OP_BULK_COPY: lower_copy(p, c); break;
    case PTX_OP_BULK_TENSOR: case PTX_OP_BULK_PREFETCH_TENSOR:
        lower_tensor(p, c, dimension_of(c));
        break;
    case PTX_OP_BULK_REDUCE: lower_reduce(p, c, 0); break;
    case PTX_OP_BULK_REDUCE_TENSOR: lower_reduce(p, c, dimension_of(c)); break;
    case PTX_OP_BULK_PREFETCH:
        if (count_is(p, c, 2u + in->mem.has_policy) &&
            plain_address(p, c, &o[0], IR_SPACE_GLOBAL, &in->src[0]) &&
            size_operand(p, c, &o[1], &in->src[1]) &&
            (!in->mem.has_policy || policy(p, c, &o[2], &in->src[2])))
            in->nsrc = (uint8_t)(2 + in->mem.has_policy);
        break;
    case PTX_OP_BULK_WAIT:
        if (!count_is(p, c, 1))
            return;
        if (o[0].kind != PTX_P_INT || o[0].ival < 0 || o[0].ival > 63) {
            opnd_err(p, &o[0], "PTX-BULK-003", "the count of wait_group is an integer constant "
                     "0..63");
            return;
        }
        ptx_lower_src(p, c, &o[0], IR_T_U32, &in->src[0]);
        in->nsrc = 1;
        break;
    default: /* commit_group, fence.proxy */
        count_is(p, c, 0);
        break;
    }
}
