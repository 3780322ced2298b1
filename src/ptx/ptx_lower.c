/* Lowering of PTX operands into IR operands, one routine per operand shape (ptx_form). It resolves
 * names (registers, variables, parameters, functions, labels, special registers), converts
 * immediates to the instruction type's bits, checks register types with PTX's relaxed rules, and
 * fills the operand layout documented above `ir_insn` in ir/ir.h. Modifier rules are checked
 * before this, in ptx_check.c. */
#include <string.h>

#include "ptx/ptx_internal.h"

typedef struct lower {
    ptx_parser *p;
    ptx_insn_ctx *c;
    ir_insn *in;
    ptx_popnd *ops;
} lower;

/* Source operand permissions. */
enum { A_REG = 1, A_IMM = 2, A_SREG = 4, A_SYM = 8, A_WIDE = 16, A_NOT = 32, A_SINK = 64 };

static bool err(lower *L, const ptx_popnd *o, const char *rule, const char *msg)
{
    ptx_error_at(L->p, o->line, o->col, rule, "'%.*s': %s", (int)L->c->text_len, L->c->text, msg);
    return false;
}

static bool count_is(lower *L, uint32_t lo, uint32_t hi)
{
    if (L->c->nops >= lo && L->c->nops <= hi)
        return true;
    if (lo == hi)
        ptx_error_at(L->p, L->c->line, L->c->col, "PTX-OPND-001",
                     "'%.*s' takes %u operand%s, found %u", (int)L->c->text_len, L->c->text, lo,
                     lo == 1 ? "" : "s", L->c->nops);
    else
        ptx_error_at(L->p, L->c->line, L->c->col, "PTX-OPND-001",
                     "'%.*s' takes %u to %u operands, found %u", (int)L->c->text_len, L->c->text,
                     lo, hi, L->c->nops);
    return false;
}

/* ---- special registers ---- */
static const struct {
    const char *name;
    uint8_t id, bits;
} sregs[] = {
    {"%tid.x", IR_SREG_TID_X, 32}, {"%tid.y", IR_SREG_TID_Y, 32}, {"%tid.z", IR_SREG_TID_Z, 32},
    {"%ntid.x", IR_SREG_NTID_X, 32}, {"%ntid.y", IR_SREG_NTID_Y, 32}, {"%ntid.z", IR_SREG_NTID_Z, 32},
    {"%ctaid.x", IR_SREG_CTAID_X, 32}, {"%ctaid.y", IR_SREG_CTAID_Y, 32},
    {"%ctaid.z", IR_SREG_CTAID_Z, 32}, {"%nctaid.x", IR_SREG_NCTAID_X, 32},
    {"%nctaid.y", IR_SREG_NCTAID_Y, 32}, {"%nctaid.z", IR_SREG_NCTAID_Z, 32},
    {"%laneid", IR_SREG_LANEID, 32}, {"%warpid", IR_SREG_WARPID, 32},
    {"%nwarpid", IR_SREG_NWARPID, 32}, {"%smid", IR_SREG_SMID, 32}, {"%nsmid", IR_SREG_NSMID, 32},
    {"%gridid", IR_SREG_GRIDID, 64}, {"%lanemask_eq", IR_SREG_LANEMASK_EQ, 32},
    {"%lanemask_le", IR_SREG_LANEMASK_LE, 32}, {"%lanemask_lt", IR_SREG_LANEMASK_LT, 32},
    {"%lanemask_ge", IR_SREG_LANEMASK_GE, 32}, {"%lanemask_gt", IR_SREG_LANEMASK_GT, 32},
    {"%clock", IR_SREG_CLOCK, 32}, {"%clock_hi", IR_SREG_CLOCK_HI, 32},
    {"%clock64", IR_SREG_CLOCK64, 64}, {"%globaltimer", IR_SREG_GLOBALTIMER, 64},
    {"%globaltimer_lo", IR_SREG_GLOBALTIMER_LO, 32}, {"%globaltimer_hi", IR_SREG_GLOBALTIMER_HI, 32},
    {"%dynamic_smem_size", IR_SREG_DYNAMIC_SMEM_SIZE, 32},
    {"%total_smem_size", IR_SREG_TOTAL_SMEM_SIZE, 32},
    {"%aggr_smem_size", IR_SREG_AGGR_SMEM_SIZE, 32}, {"WARP_SZ", IR_SREG_WARPSZ, 32},
};

/* Special registers that need a PTX ISA version and a target (PTX ISA 9.1 §10: the reserved
 * shared memory registers arrived in PTX 7.6 for sm_80; ptxas rejects them before). */
static const struct {
    const char *name;
    uint8_t id;
    uint8_t version, sm; /* major*10+minor; sm number */
} sregs_since[] = {
    {"%reserved_smem_offset_begin", IR_SREG_RESERVED_SMEM_BEGIN, 76, 80},
    {"%reserved_smem_offset_end", IR_SREG_RESERVED_SMEM_END, 76, 80},
    {"%reserved_smem_offset_cap", IR_SREG_RESERVED_SMEM_CAP, 76, 80},
    {"%reserved_smem_offset_0", IR_SREG_RESERVED_SMEM_0, 76, 80},
    {"%reserved_smem_offset_1", IR_SREG_RESERVED_SMEM_1, 76, 80},
};

static int find_sreg(const ptx_name *n, unsigned *bits)
{
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
        if (strlen(sregs[i].name) == n->len && !memcmp(sregs[i].name, n->text, n->len)) {
            *bits = sregs[i].bits;
            return sregs[i].id;
        }
    for (size_t i = 0; i < sizeof sregs_since / sizeof sregs_since[0]; i++)
        if (strlen(sregs_since[i].name) == n->len && !memcmp(sregs_since[i].name, n->text, n->len)) {
            *bits = 32;
            return sregs_since[i].id;
        }
    if (n->len >= 8 && n->len <= 9 && !memcmp(n->text, "%envreg", 7)) {
        unsigned v = 0;
        for (uint32_t i = 7; i < n->len; i++) {
            if (n->text[i] < '0' || n->text[i] > '9')
                return -1;
            v = v * 10 + (unsigned)(n->text[i] - '0');
        }
        if (v < 32 && !(n->len == 9 && n->text[7] == '0')) {
            *bits = 32;
            return IR_SREG_ENVREG0 + (int)v;
        }
    }
    return -1;
}

/* Reports a special register that the module's .version or .target is too old for. */
static void sreg_requirement(lower *L, const ptx_name *n, int id)
{
    for (size_t i = 0; i < sizeof sregs_since / sizeof sregs_since[0]; i++) {
        if (sregs_since[i].id != id)
            continue;
        unsigned v = sregs_since[i].version, sm = sregs_since[i].sm;
        if (L->p->version < v)
            ptx_error_at(L->p, n->line, n->col, "PTX-VER-001",
                         "'%.*s' requires PTX ISA %u.%u or later (.version is %u.%u)", (int)n->len,
                         n->text, v / 10, v % 10, L->p->version / 10, L->p->version % 10);
        if (L->p->sm < sm)
            ptx_error_at(L->p, n->line, n->col, "PTX-ARCH-001",
                         "'%.*s' requires sm_%u or later (target is sm_%u)", (int)n->len, n->text,
                         sm, L->p->sm);
    }
}

/* PTX special registers outside the IR (clusters, performance counters, graphs). */
static bool is_unmodelled_sreg(const ptx_name *n)
{
    static const char *const prefixes[] = {"%cluster", "%nclusterid",
                                           "%is_explicit_cluster", "%pm", "%current_graph_exec"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t k = strlen(prefixes[i]);
        if (n->len >= k && !memcmp(n->text, prefixes[i], k))
            return true;
    }
    return false;
}

/* ---- type compatibility (PTX ISA 9.1 §6.4.2, relaxed as ptxas accepts) ---- */
static bool is_bit_type(ir_type t) { return t >= IR_T_B8 && t <= IR_T_B128; }

static bool reg_compat(ir_type want, ir_type have, bool wide_ok)
{
    if (want == have)
        return true;
    if (want == IR_T_PRED || have == IR_T_PRED)
        return false;
    unsigned wb = ir_type_bits(want), hb = ir_type_bits(have);
    bool wf = ir_type_is_float(want), hf = ir_type_is_float(have);
    if (wb == hb)
        return is_bit_type(want) || is_bit_type(have) || (!wf && !hf);
    return wide_ok && hb > wb && !hf;
}

static ir_type wide_type(ir_type t)
{
    switch (t) {
    case IR_T_U16: return IR_T_U32;
    case IR_T_U32: return IR_T_U64;
    case IR_T_S16: return IR_T_S32;
    case IR_T_S32: return IR_T_S64;
    default: return t;
    }
}

/* ---- names ---- */
static const ptx_binding *resolve(lower *L, const ptx_name *n, uint32_t *slot)
{
    const ptx_binding *b = ptx_lookup(L->p, n->text, n->len, slot);
    if (!b) {
        unsigned bits;
        if (find_sreg(n, &bits) >= 0)
            return NULL;
        if (is_unmodelled_sreg(n)) {
            bool graph = n->len == 19 && !memcmp(n->text, "%current_graph_exec", 19);
            ptx_error_at(L->p, n->line, n->col, "PTX-UNSUP-002",
                         "special register '%.*s' is not modelled by gpumemsim%s", (int)n->len,
                         n->text, graph ? " (it belongs to CUDA graphs' device API)" : "");
            return NULL;
        }
        ptx_error_at(L->p, n->line, n->col, n->text[0] == '%' ? "PTX-SYM-001" : "PTX-SYM-002",
                     "undeclared %s '%.*s'", n->text[0] == '%' ? "register" : "identifier",
                     (int)n->len, n->text);
    }
    return b;
}

static uint32_t sym_ref(const ptx_binding *b)
{
    switch (b->kind) {
    case PTX_SYM_VAR: return b->index;
    case PTX_SYM_FVAR: return IR_SYM_FUNC_BASE + b->index;
    case PTX_SYM_PARAM: return IR_SYM_PARAM_BASE + b->index;
    case PTX_SYM_RET: return IR_SYM_PARAM_BASE + IR_SYM_RET_OFFSET + b->index;
    default: return IR_SYM_NONE;
    }
}

static bool is_var_kind(uint8_t k)
{
    return k == PTX_SYM_VAR || k == PTX_SYM_FVAR || k == PTX_SYM_PARAM || k == PTX_SYM_RET;
}

/* A register or predicate name checked against type `t`. */
static bool reg_operand(lower *L, const ptx_name *n, ir_type t, unsigned flags, ir_operand *out)
{
    uint32_t slot = 0;
    const ptx_binding *b = resolve(L, n, &slot);
    if (!b) {
        unsigned bits;
        if (find_sreg(n, &bits) >= 0)
            ptx_error_at(L->p, n->line, n->col, "PTX-OPND-002",
                         "special register '%.*s' can only be read with mov", (int)n->len, n->text);
        return false;
    }
    if (b->kind != PTX_SYM_REG && b->kind != PTX_SYM_PRED) {
        ptx_error_at(L->p, n->line, n->col, "PTX-OPND-002", "'%.*s' is not a register", (int)n->len,
                     n->text);
        return false;
    }
    if (!reg_compat(t, (ir_type)b->type, (flags & A_WIDE) != 0)) {
        ptx_error_at(L->p, n->line, n->col, "PTX-TYPE-002",
                     "register '%.*s' of type .%s does not fit instruction type .%s", (int)n->len,
                     n->text, ir_type_name((ir_type)b->type), ir_type_name(t));
        return false;
    }
    out->kind = b->kind == PTX_SYM_PRED ? IR_OPND_PRED : IR_OPND_REG;
    out->reg = slot;
    out->sym = IR_SYM_NONE;
    return true;
}

static bool fits_bits(int64_t v, unsigned bits)
{
    if (bits >= 64)
        return true;
    int64_t hi = v >> bits; /* arithmetic shift: implementation-defined but universal */
    if (hi == 0 || hi == -1)
        return true;
    return false;
}

static bool immediate(lower *L, const ptx_popnd *o, ir_type t, ir_operand *out)
{
    unsigned bits = ir_type_bits(t);
    uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    double d = 0;
    bool is_float = ir_type_is_float(t);
    out->kind = IR_OPND_IMM;
    out->sym = IR_SYM_NONE;
    switch (o->kind) {
    case PTX_P_INT:
        if (t == IR_T_PRED && (o->ival == 0 || o->ival == 1 || o->ival == -1)) {
            out->imm = o->ival != 0;
            return true;
        }
        if (t == IR_T_PRED)
            return err(L, o, "PTX-OPND-003", "a .pred immediate must be 0, 1 or -1");
        if (t == IR_T_F16X2 || t == IR_T_BF16X2 || t == IR_T_B128 || t == IR_T_U16X2 ||
            t == IR_T_S16X2)
            return err(L, o, "PTX-OPND-003", "an immediate is not allowed for this type");
        if (!is_float) {
            if (!fits_bits(o->ival, bits))
                return err(L, o, "PTX-OPND-003", "immediate does not fit the instruction type");
            out->imm = (int64_t)((uint64_t)o->ival & mask);
            return true;
        }
        d = (double)o->ival;
        break;
    case PTX_P_FLOAT:
        if (!is_float)
            return err(L, o, "PTX-OPND-003", "floating-point literal for an integer instruction");
        d = o->fval;
        break;
    case PTX_P_F32BITS:
        if (!is_float && bits == 32) {
            out->imm = o->ival & 0xFFFFFFFF;
            return true;
        }
        if (!is_float)
            return err(L, o, "PTX-OPND-003", "0f literal does not fit the instruction type");
        d = ptx_bits_f32((uint32_t)o->ival);
        break;
    default: /* F64BITS */
        if (!is_float && bits == 64) {
            out->imm = o->ival;
            return true;
        }
        if (!is_float)
            return err(L, o, "PTX-OPND-003", "0d literal does not fit the instruction type");
        d = ptx_bits_f64((uint64_t)o->ival);
        break;
    }
    switch (t) {
    case IR_T_F64: out->imm = (int64_t)ptx_f64_bits(d); break;
    case IR_T_F32: case IR_T_TF32: out->imm = ptx_f32_bits((float)d); break;
    case IR_T_F16: out->imm = ptx_f32_to_f16_bits((float)d); break;
    case IR_T_BF16: out->imm = ptx_f32_to_bf16_bits((float)d); break;
    default: return err(L, o, "PTX-OPND-003", "an immediate is not allowed for this type");
    }
    return true;
}

/* A source operand of type t, with the permissions in flags. */
static bool src(lower *L, const ptx_popnd *o, ir_type t, unsigned flags, ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->sym = IR_SYM_NONE;
    switch (o->kind) {
    case PTX_P_NAME: {
        uint32_t slot;
        unsigned bits;
        int sr;
        const ptx_binding *b = ptx_lookup(L->p, o->name.text, o->name.len, &slot);
        if (!b && (sr = find_sreg(&o->name, &bits)) >= 0) {
            if (sr == IR_SREG_WARPSZ && !(flags & A_SREG) && (flags & A_IMM)) {
                ptx_popnd w = *o; /* WARP_SZ is the constant 32 outside mov */
                w.kind = PTX_P_INT;
                w.ival = 32;
                return immediate(L, &w, t, out);
            }
            if (!(flags & A_SREG))
                return err(L, o, "PTX-OPND-002", "special registers can only be read with mov");
            if (bits == 64 && ir_type_bits(t) != 64)
                return err(L, o, "PTX-TYPE-002", "64-bit special register needs a 64-bit mov");
            sreg_requirement(L, &o->name, sr);
            out->kind = IR_OPND_SREG;
            out->reg = (uint32_t)sr;
            return true;
        }
        if (b && (b->kind == PTX_SYM_FUNC || is_var_kind(b->kind))) {
            if (!(flags & A_SYM))
                return err(L, o, "PTX-OPND-002", "a variable or function name is not allowed here");
            out->kind = b->kind == PTX_SYM_FUNC ? IR_OPND_FUNC : IR_OPND_SYM;
            out->sym = b->kind == PTX_SYM_FUNC ? b->index : sym_ref(b);
            out->imm = o->ival;
            if (b->kind == PTX_SYM_FUNC && L->p->funcs.count > b->index &&
                ((ir_func *)L->p->funcs.data)[b->index].has_callprototype)
                return err(L, o, "PTX-OPND-002", "a .callprototype has no address");
            return true;
        }
        if (o->ival)
            return err(L, o, "PTX-OPND-002", "only variables take an offset");
        if (!(flags & A_REG))
            return err(L, o, "PTX-OPND-002", "a register is not allowed here");
        return reg_operand(L, &o->name, t, flags, out);
    }
    case PTX_P_NOT:
        if (!(flags & A_NOT) || t != IR_T_PRED)
            return err(L, o, "PTX-OPND-002", "a negated predicate is not allowed here");
        if (!reg_operand(L, &o->name, IR_T_PRED, flags, out))
            return false;
        out->neg = 1;
        return true;
    case PTX_P_INT: case PTX_P_FLOAT: case PTX_P_F32BITS: case PTX_P_F64BITS:
        if (!(flags & A_IMM))
            return err(L, o, "PTX-OPND-002", "an immediate is not allowed here");
        return immediate(L, o, t, out);
    case PTX_P_SINK:
        if (!(flags & A_SINK))
            return err(L, o, "PTX-OPND-002", "'_' is not allowed here");
        out->kind = IR_OPND_SINK;
        out->reg = IR_REG_SINK;
        return true;
    default:
        return err(L, o, "PTX-OPND-002", "expected a register or an immediate");
    }
}

static bool dst(lower *L, const ptx_popnd *o, ir_type t, unsigned flags, ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->sym = IR_SYM_NONE;
    if (o->kind == PTX_P_SINK && (flags & A_SINK)) {
        out->kind = IR_OPND_SINK;
        out->reg = IR_REG_SINK;
        return true;
    }
    if (o->kind != PTX_P_NAME || o->ival)
        return err(L, o, "PTX-OPND-002", "the destination must be a register");
    return reg_operand(L, &o->name, t, flags, out);
}

/* The shared-immediate source: a 32-bit integer register or immediate (shift amounts, masks). */
static bool u32src(lower *L, const ptx_popnd *o, ir_operand *out)
{
    return src(L, o, IR_T_U32, A_REG | A_IMM, out);
}

static bool vector(lower *L, const ptx_popnd *o, ir_type t, unsigned count, unsigned flags,
                   ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->sym = IR_SYM_NONE;
    if (o->kind != PTX_P_VEC)
        return err(L, o, "PTX-OPND-002", "expected a vector operand {a, b, ...}");
    if (count && o->count != count)
        return err(L, o, "PTX-OPND-001", "vector operand has the wrong number of elements");
    out->kind = IR_OPND_VEC;
    out->count = o->count;
    unsigned elem_bits = ir_type_bits(t);
    for (unsigned i = 0; i < o->count; i++) {
        if (o->elem_is_imm[i]) {
            /* immediate parts are packed into imm at their bit position (IR_REG_IMM) */
            if (!(flags & A_IMM) || elem_bits * o->count > 64 || !fits_bits(o->elem_imm[i], elem_bits))
                return err(L, o, "PTX-OPND-003", "an immediate vector element is allowed only in "
                           "source vectors of at most 64 bits and must fit its element");
            uint64_t mask = elem_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << elem_bits) - 1;
            out->imm = (int64_t)((uint64_t)out->imm | (((uint64_t)o->elem_imm[i] & mask) << (elem_bits * i)));
            out->vregs[i] = IR_REG_IMM;
            continue;
        }
        if (!o->elems[i].text) {
            if (!(flags & A_SINK))
                return err(L, o, "PTX-OPND-002", "'_' is not allowed in this vector");
            out->vregs[i] = IR_REG_SINK;
            continue;
        }
        ir_operand r;
        if (!reg_operand(L, &o->elems[i], t, flags, &r))
            return false;
        if (r.kind != IR_OPND_REG)
            return err(L, o, "PTX-OPND-002", "vector elements must be registers");
        out->vregs[i] = r.reg;
    }
    return true;
}

static bool address(lower *L, const ptx_popnd *o, ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->sym = IR_SYM_NONE;
    if (o->kind != PTX_P_ADDR)
        return err(L, o, "PTX-OPND-002", "expected an address [base+offset]");
    out->kind = IR_OPND_ADDR;
    out->imm = o->ival;
    if (!o->has_base)
        return true;
    uint32_t slot;
    const ptx_binding *b = resolve(L, &o->name, &slot);
    if (!b)
        return false;
    if (b->kind == PTX_SYM_REG) {
        unsigned bits = ir_type_bits((ir_type)b->type);
        if ((bits != 32 && bits != 64) || ir_type_is_float((ir_type)b->type))
            return err(L, o, "PTX-TYPE-002", "an address register must be a 32- or 64-bit integer");
        out->has_reg = 1;
        out->reg = slot;
        return true;
    }
    if (!is_var_kind(b->kind))
        return err(L, o, "PTX-OPND-002", "an address base must be a register or a variable");
    out->sym = sym_ref(b);
    uint32_t space = L->in->mem.space;
    bool is_param = b->kind == PTX_SYM_PARAM || b->kind == PTX_SYM_RET;
    if (b->kind == PTX_SYM_FVAR || b->kind == PTX_SYM_VAR) {
        const ptx_vec *v = b->kind == PTX_SYM_FVAR ? &L->p->fs.vars : &L->p->vars;
        uint32_t vs = ((const ir_var *)v->data)[b->index].space;
        if (vs == IR_SPACE_SHARED && space == IR_SPACE_SHARED_CLUSTER)
            vs = space;
        if (space != IR_SPACE_GENERIC && space != IR_SPACE_NONE && vs != space)
            return err(L, o, "PTX-MEM-002", "the variable is in a different state space");
        if (space == IR_SPACE_GENERIC && vs == IR_SPACE_PARAM)
            return err(L, o, "PTX-MEM-002", "a .param variable needs a .param access");
    } else if (is_param && space != IR_SPACE_PARAM) {
        return err(L, o, "PTX-MEM-002", "a parameter is accessed with a .param instruction");
    }
    if (b->kind == PTX_SYM_PARAM && L->c->op == PTX_OP_ST)
        return err(L, o, "PTX-MEM-004", "an input parameter of the function cannot be written");
    return true;
}

/* ---- forms ---- */
static bool lower_alu(lower *L, unsigned nsrc)
{
    ptx_insn_ctx *c = L->c;
    ir_type t = c->types[0];
    if (!count_is(L, nsrc + 1, nsrc + 1))
        return false;
    ir_type dt = (c->insn->mods & IR_MOD_WIDE) ? wide_type(t) : t;
    if (c->row->form == PTX_FORM_COUNT)
        dt = IR_T_U32;
    /* .pred logic ops take 0, 1 or -1 and negated predicates !p, as ptxas does (docs/ptx.md) */
    unsigned imm = A_IMM | (t == IR_T_PRED ? A_NOT : 0);
    if (!dst(L, &L->ops[0], dt, 0, &L->in->dst[0]))
        return false;
    for (unsigned i = 0; i < nsrc; i++) {
        ir_type st = t;
        if (i == 1 && c->row->form == PTX_FORM_SHIFT)
            st = IR_T_U32;
        if (i == 2 && (c->op == PTX_OP_MAD || c->op == PTX_OP_MADC))
            st = dt;
        bool ok = st == IR_T_U32 && c->row->form == PTX_FORM_SHIFT ? u32src(L, &L->ops[i + 1], &L->in->src[i])
                                                                     : src(L, &L->ops[i + 1], st, A_REG | imm, &L->in->src[i]);
        if (!ok)
            return false;
    }
    L->in->ndst = 1;
    L->in->nsrc = (uint8_t)nsrc;
    return true;
}

/* Operands of a fixed list of (type, kind) pairs after the destination. */
static bool lower_fixed(lower *L, ir_type dt, const ir_type *types, unsigned n)
{
    if (!count_is(L, n + 1, n + 1) || !dst(L, &L->ops[0], dt, 0, &L->in->dst[0]))
        return false;
    for (unsigned i = 0; i < n; i++)
        if (!src(L, &L->ops[i + 1], types[i], A_REG | A_IMM, &L->in->src[i]))
            return false;
    L->in->ndst = 1;
    L->in->nsrc = (uint8_t)n;
    return true;
}

static bool lower_bits(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_type t = c->types[0];
    switch (c->row->form) {
    case PTX_FORM_SHF: { ir_type ts[3] = {t, t, IR_T_U32}; return lower_fixed(L, t, ts, 3); }
    case PTX_FORM_BFE: { ir_type ts[3] = {t, IR_T_U32, IR_T_U32}; return lower_fixed(L, t, ts, 3); }
    case PTX_FORM_BFI: { ir_type ts[4] = {t, t, IR_T_U32, IR_T_U32}; return lower_fixed(L, t, ts, 4); }
    case PTX_FORM_BMSK: { ir_type ts[2] = {c->op == PTX_OP_BMSK ? IR_T_U32 : t, IR_T_U32}; return lower_fixed(L, t, ts, 2); }
    case PTX_FORM_FNS: { ir_type ts[3] = {IR_T_B32, IR_T_U32, IR_T_S32}; return lower_fixed(L, IR_T_B32, ts, 3); }
    case PTX_FORM_PRMT: { ir_type ts[3] = {t, t, t}; return lower_fixed(L, t, ts, 3); }
    case PTX_FORM_LOP3: {
        ir_type ts[4] = {t, t, t, IR_T_U32};
        if (!lower_fixed(L, t, ts, 4))
            return false;
        if (L->in->src[3].kind != IR_OPND_IMM || L->in->src[3].imm > 255)
            return err(L, &L->ops[4], "PTX-OPND-003", "the lop3 table must be an immediate 0..255");
        return true;
    }
    default: { /* DP */
        bool sgn = c->types[0] == IR_T_S32 || c->types[1] == IR_T_S32;
        ir_type dt = sgn ? IR_T_S32 : IR_T_U32;
        ir_type ts[3] = {c->types[0], c->types[1], dt};
        return lower_fixed(L, dt, ts, 3);
    }
    }
}

/* d or d|p destination pair; second may be NONE. */
static bool pred_pair(lower *L, const ptx_popnd *o, ir_type first_type, bool allow_pair)
{
    if (o->kind == PTX_P_PAIR) {
        if (!allow_pair)
            return err(L, o, "PTX-OPND-002", "a second destination is not allowed here");
        ptx_popnd a = *o, b = *o;
        a.kind = PTX_P_NAME;
        b.kind = PTX_P_NAME;
        b.name = o->name2;
        if (a.name.len == 1 && a.name.text[0] == '_')
            a.kind = PTX_P_SINK;
        if (!dst(L, &a, first_type, A_SINK, &L->in->dst[0]) ||
            !dst(L, &b, IR_T_PRED, 0, &L->in->dst[1]))
            return false;
        L->in->ndst = 2;
        return true;
    }
    L->in->ndst = 1;
    return dst(L, o, first_type, 0, &L->in->dst[0]);
}

static bool lower_compare(lower *L)
{
    ptx_insn_ctx *c = L->c;
    bool boolop = c->has_group[PTX_G_BOOL];
    unsigned n = boolop ? 4 : 3;
    ir_type t = c->op == PTX_OP_SET ? c->types[1] : c->types[0];
    if (!count_is(L, n, n))
        return false;
    if (!pred_pair(L, &L->ops[0], c->op == PTX_OP_SET ? c->types[0] : IR_T_PRED,
                   c->op == PTX_OP_SETP))
        return false;
    if (!src(L, &L->ops[1], t, A_REG | A_IMM, &L->in->src[0]) ||
        !src(L, &L->ops[2], t, A_REG | A_IMM, &L->in->src[1]))
        return false;
    L->in->nsrc = 2;
    if (boolop) {
        L->in->nsrc = 3;
        return src(L, &L->ops[3], IR_T_PRED, A_REG | A_NOT, &L->in->src[2]);
    }
    return true;
}

static bool lower_select(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_type t = c->types[0];
    if (!count_is(L, 4, 4) || !dst(L, &L->ops[0], t, 0, &L->in->dst[0]) ||
        !src(L, &L->ops[1], t, A_REG | A_IMM, &L->in->src[0]) ||
        !src(L, &L->ops[2], t, A_REG | A_IMM, &L->in->src[1]))
        return false;
    L->in->ndst = 1;
    L->in->nsrc = 3;
    if (c->op == PTX_OP_SELP)
        return src(L, &L->ops[3], IR_T_PRED, A_REG | A_NOT, &L->in->src[2]);
    return src(L, &L->ops[3], c->types[1], A_REG | A_IMM, &L->in->src[2]);
}

static bool lower_mov(lower *L)
{
    ir_type t = L->c->types[0];
    if (!count_is(L, 2, 2))
        return false;
    L->in->ndst = L->in->nsrc = 1;
    const ptx_popnd *d = &L->ops[0], *s = &L->ops[1];
    if (d->kind == PTX_P_VEC || s->kind == PTX_P_VEC) {
        const ptx_popnd *v = d->kind == PTX_P_VEC ? d : s, *w = d->kind == PTX_P_VEC ? s : d;
        if (w->kind == PTX_P_VEC || (v->count != 2 && v->count != 4) || !is_bit_type(t))
            return err(L, v, "PTX-OPND-002", "mov packs or unpacks 2 or 4 parts of a .b type");
        ir_type part = ir_type_bits(t) / v->count == 8 ? IR_T_B8 : ir_type_bits(t) / v->count == 16 ? IR_T_B16
                     : ir_type_bits(t) / v->count == 32 ? IR_T_B32 : IR_T_B64;
        if (ir_type_bits(t) / v->count == 8)
            part = IR_T_B16; /* bytes of a .b32 live in 16-bit registers */
        bool ok = vector(L, v, part, v->count, v == d ? A_SINK | A_WIDE : A_WIDE | A_IMM,
                         v == d ? &L->in->dst[0] : &L->in->src[0]);
        return ok && (v == d ? src(L, w, t, A_REG, &L->in->src[0]) : dst(L, w, t, 0, &L->in->dst[0]));
    }
    if (!dst(L, d, t, 0, &L->in->dst[0]))
        return false;
    unsigned flags = A_REG | A_IMM | A_SREG | (ir_type_bits(t) >= 32 && t != IR_T_F32 && t != IR_T_F64 ? A_SYM : 0);
    if (t == IR_T_PRED)
        flags = A_REG | A_IMM;
    return src(L, s, t, flags, &L->in->src[0]);
}

static bool lower_cvt(lower *L)
{
    ptx_insn_ctx *c = L->c;
    bool pack = c->types[0] == IR_T_F16X2 || c->types[0] == IR_T_BF16X2;
    unsigned n = pack ? 3 : 2;
    if (!count_is(L, n, n) || !dst(L, &L->ops[0], c->types[0], A_WIDE, &L->in->dst[0]))
        return false;
    L->in->ndst = 1;
    L->in->nsrc = (uint8_t)(n - 1);
    for (unsigned i = 1; i < n; i++)
        if (!src(L, &L->ops[i], c->types[1], A_REG | A_IMM | A_WIDE, &L->in->src[i - 1]))
            return false;
    return true;
}

static bool lower_cvta(lower *L)
{
    ir_type t = L->c->types[0];
    if (!count_is(L, 2, 2) || !dst(L, &L->ops[0], t, 0, &L->in->dst[0]))
        return false;
    L->in->ndst = L->in->nsrc = 1;
    if (!src(L, &L->ops[1], t, A_REG | A_SYM, &L->in->src[0]))
        return false;
    if (L->in->src[0].kind == IR_OPND_FUNC)
        return err(L, &L->ops[1], "PTX-OPND-002", "cvta takes a variable, not a function");
    return true;
}

static bool policy_operand(lower *L, unsigned index, ir_operand *out)
{
    return src(L, &L->ops[index], IR_T_B64, A_REG | A_IMM, out);
}

static bool lower_ld(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_mem_attrs *m = &L->in->mem;
    unsigned n = 2 + m->has_policy;
    if (!count_is(L, n, n))
        return false;
    L->in->ndst = 1;
    L->in->nsrc = (uint8_t)(1 + m->has_policy);
    bool ok = m->vec > 1 ? vector(L, &L->ops[0], c->types[0], m->vec, A_WIDE | A_SINK, &L->in->dst[0])
                         : dst(L, &L->ops[0], c->types[0], A_WIDE, &L->in->dst[0]);
    if (!ok || !address(L, &L->ops[1], &L->in->src[0]))
        return false;
    return !m->has_policy || policy_operand(L, 2, &L->in->src[1]);
}

static bool lower_st(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_mem_attrs *m = &L->in->mem;
    unsigned n = 2 + m->has_policy;
    if (!count_is(L, n, n) || !address(L, &L->ops[0], &L->in->src[0]))
        return false;
    L->in->nsrc = (uint8_t)n;
    bool ok = m->vec > 1 ? vector(L, &L->ops[1], c->types[0], m->vec, A_WIDE | A_IMM, &L->in->src[1])
                         : src(L, &L->ops[1], c->types[0], A_REG | A_IMM | A_WIDE, &L->in->src[1]);
    return ok && (!m->has_policy || policy_operand(L, 2, &L->in->src[2]));
}

static bool lower_atom(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_type t = c->types[0];
    bool is_red = c->op == PTX_OP_RED, cas = L->in->sub == IR_ATOM_CAS;
    unsigned hint = L->in->mem.has_policy;
    unsigned n = (is_red ? 2 : 3) + (cas ? 1 : 0) + hint;
    if (!count_is(L, n, n))
        return false;
    unsigned i = 0;
    if (!is_red) {
        if (!dst(L, &L->ops[i++], t, 0, &L->in->dst[0]))
            return false;
        L->in->ndst = 1;
    }
    if (!address(L, &L->ops[i++], &L->in->src[0]) ||
        !src(L, &L->ops[i++], t, A_REG | A_IMM, &L->in->src[1]))
        return false;
    if (cas && !src(L, &L->ops[i++], t, A_REG | A_IMM, &L->in->src[2]))
        return false;
    L->in->nsrc = (uint8_t)(i - (is_red ? 0 : 1));
    if (hint) {
        unsigned slot = is_red ? 2 : 3;
        if (!policy_operand(L, i, &L->in->src[slot]))
            return false;
        L->in->nsrc = (uint8_t)(slot + 1);
    }
    return true;
}

static bool lower_cache_control(lower *L)
{
    ptx_insn_ctx *c = L->c;
    if (c->row->form == PTX_FORM_PREFETCH) {
        L->in->nsrc = 1;
        return count_is(L, 1, 1) && address(L, &L->ops[0], &L->in->src[0]);
    }
    if (!count_is(L, 2, 2) || !address(L, &L->ops[0], &L->in->src[0]) ||
        !src(L, &L->ops[1], IR_T_U32, A_IMM, &L->in->src[1]))
        return false;
    L->in->nsrc = 2;
    if (L->in->src[1].imm != 128)
        return err(L, &L->ops[1], "PTX-CACHEOP-003", "the size operand must be 128");
    return true;
}

static bool lower_createpolicy(lower *L)
{
    ir_insn *in = L->in;
    L->in->ndst = 1;
    if (in->sub == IR_POLICY_FRACTIONAL) {
        if (!count_is(L, 1, 2) || !dst(L, &L->ops[0], IR_T_B64, 0, &in->dst[0]))
            return false;
        if (L->c->nops == 1)
            return true; /* src[0] NONE: fraction 1.0 */
        in->nsrc = 1;
        if (L->ops[1].kind == PTX_P_INT) /* ptxas wants the fraction as a floating-point literal */
            return err(L, &L->ops[1], "PTX-OPND-002", "the fraction must be a floating-point "
                       "literal or an .f32 register");
        if (!src(L, &L->ops[1], IR_T_F32, A_REG | A_IMM, &in->src[0]))
            return false;
        if (in->src[0].kind == IR_OPND_IMM) {
            float f = ptx_bits_f32((uint32_t)in->src[0].imm);
            if (!(f > 0.0f && f <= 1.0f))
                return err(L, &L->ops[1], "PTX-OPND-003", "the fraction must be in (0, 1]");
        }
        return true;
    }
    if (in->sub == IR_POLICY_RANGE) {
        if (!count_is(L, 4, 4) || !dst(L, &L->ops[0], IR_T_B64, 0, &in->dst[0]) ||
            !address(L, &L->ops[1], &in->src[0]) || !u32src(L, &L->ops[2], &in->src[1]) ||
            !u32src(L, &L->ops[3], &in->src[2]))
            return false;
        in->nsrc = 3;
        if (in->src[1].kind == IR_OPND_IMM && in->src[2].kind == IR_OPND_IMM &&
            in->src[1].imm > in->src[2].imm)
            return err(L, &L->ops[2], "PTX-OPND-003", "the primary size exceeds the total size");
        return true;
    }
    in->nsrc = 1;
    return count_is(L, 2, 2) && dst(L, &L->ops[0], IR_T_B64, 0, &in->dst[0]) &&
           src(L, &L->ops[1], IR_T_B64, A_REG | A_IMM, &in->src[0]);
}

static bool label_operand(lower *L, const ptx_popnd *o, int32_t xop, ir_operand *out)
{
    if (o->kind != PTX_P_NAME || o->ival)
        return err(L, o, "PTX-OPND-002", "expected a label");
    memset(out, 0, sizeof *out);
    out->kind = IR_OPND_LABEL;
    out->sym = IR_SYM_NONE;
    ptx_add_label_ref(L->p, L->c->insn_index, xop, &o->name);
    return true;
}

static ir_operand *push_xop(lower *L)
{
    ir_operand *x = ptx_vec_push(&L->p->fs.xops);
    if (!x)
        ptx_oom(L->p);
    return x;
}

static bool lower_brx(lower *L)
{
    if (!count_is(L, 2, 2) || !u32src(L, &L->ops[0], &L->in->src[0]))
        return false;
    L->in->nsrc = 1;
    const ptx_popnd *o = &L->ops[1];
    if (o->kind != PTX_P_NAME)
        return err(L, o, "PTX-OPND-002", "expected a .branchtargets label");
    int32_t l = ptx_label_get(L->p, o->name.text, o->name.len, o->line, o->col);
    const fe_label *lab = l >= 0 ? fe_labels_at(&L->p->fs.labels, l) : NULL;
    if (!lab || lab->list_first < 0)
        return err(L, o, "PTX-SYM-003", "brx.idx needs a .branchtargets list declared before it");
    L->in->xops_first = (uint32_t)L->p->fs.xops.count;
    L->in->xops_count = lab->list_count;
    int32_t first = lab->list_first;
    uint32_t count = lab->list_count;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t target = fe_labels_list_entry(&L->p->fs.labels, (size_t)first + i);
        const fe_label *t = fe_labels_at(&L->p->fs.labels, (int32_t)target);
        ptx_name n = {t->name, t->len, t->line, t->col};
        ir_operand *x = push_xop(L);
        if (!x)
            return false;
        x->kind = IR_OPND_LABEL;
        x->sym = IR_SYM_NONE;
        ptx_add_label_ref(L->p, L->c->insn_index, (int32_t)(L->p->fs.xops.count - 1), &n);
    }
    return true;
}

/* call arguments and results: caller .param variables or registers. */
static bool call_list(lower *L, const ptx_popnd *o, uint32_t *first, uint32_t *count)
{
    *first = (uint32_t)L->p->fs.xops.count;
    *count = o->count;
    for (unsigned i = 0; i < o->count; i++) {
        ptx_popnd e = {.kind = PTX_P_NAME, .line = o->elems[i].line, .col = o->elems[i].col,
                       .name = o->elems[i]};
        ir_operand *x = push_xop(L);
        if (!x)
            return false;
        uint32_t slot;
        const ptx_binding *b = ptx_lookup(L->p, e.name.text, e.name.len, &slot);
        if (b && b->kind == PTX_SYM_REG) {
            x->kind = IR_OPND_REG;
            x->reg = slot;
            x->sym = IR_SYM_NONE;
            continue;
        }
        if (!b || !is_var_kind(b->kind)) {
            if (!b)
                resolve(L, &e.name, &slot);
            else
                err(L, &e, "PTX-OPND-002", "call arguments must be .param variables or registers");
            return false;
        }
        x->kind = IR_OPND_SYM;
        x->sym = sym_ref(b);
    }
    return true;
}

static bool lower_call(lower *L)
{
    ptx_popnd *o = L->ops;
    unsigned n = L->c->nops, i = 0;
    const ptx_popnd *rets = NULL, *args = NULL, *proto = NULL;
    if (i < n && o[i].kind == PTX_P_LIST)
        rets = &o[i++];
    if (i >= n || o[i].kind != PTX_P_NAME)
        return err(L, i < n ? &o[i] : &o[0], "PTX-OPND-002", "expected the called function");
    const ptx_popnd *callee = &o[i++];
    if (i < n && o[i].kind == PTX_P_LIST)
        args = &o[i++];
    if (i < n && o[i].kind == PTX_P_NAME)
        proto = &o[i++];
    if (i != n)
        return err(L, &o[i], "PTX-OPND-001", "unexpected operand in call");
    uint32_t slot;
    const ptx_binding *b = resolve(L, &callee->name, &slot);
    if (!b)
        return false;
    const ir_func *target = NULL;
    if (b->kind == PTX_SYM_FUNC) {
        target = &((const ir_func *)L->p->funcs.data)[b->index];
        if (target->has_callprototype || proto)
            return err(L, callee, "PTX-OPND-002", "a direct call names a function and no prototype");
        L->in->src[0] = (ir_operand){.kind = IR_OPND_FUNC, .sym = b->index};
    } else if (b->kind == PTX_SYM_REG) {
        if (!src(L, callee, IR_T_B64, A_REG, &L->in->src[0]) &&
            !src(L, callee, IR_T_B32, A_REG, &L->in->src[0]))
            return false;
        L->in->src[1] = (ir_operand){.kind = IR_OPND_NONE, .sym = IR_SYM_NONE};
        if (proto) {
            const ptx_binding *pb = resolve(L, &proto->name, &slot);
            if (!pb)
                return false;
            if (pb->kind != PTX_SYM_FUNC)
                return err(L, proto, "PTX-OPND-002", "expected a .callprototype");
            target = &((const ir_func *)L->p->funcs.data)[pb->index];
            L->in->src[1] = (ir_operand){.kind = IR_OPND_FUNC, .sym = pb->index};
        }
    } else {
        return err(L, callee, "PTX-OPND-002", "call needs a function or a register");
    }
    L->in->nsrc = L->in->src[1].kind ? 2 : 1;
    if (target && ((args ? args->count : 0u) != target->nparams ||
                   (rets ? rets->count : 0u) != target->nrets))
        return err(L, callee, "PTX-OPND-001", "argument or result count differs from the callee's declaration");
    if (args && !call_list(L, args, &L->in->xops_first, &L->in->xops_count))
        return false;
    return !rets || call_list(L, rets, &L->in->xrets_first, &L->in->xrets_count);
}

static bool lower_bar(lower *L)
{
    ir_insn *in = L->in;
    bool red = in->sub == IR_BAR_RED_POPC || in->sub == IR_BAR_RED_AND || in->sub == IR_BAR_RED_OR;
    if (red) {
        if (!count_is(L, 3, 4))
            return false;
        ir_type dt = in->sub == IR_BAR_RED_POPC ? IR_T_U32 : IR_T_PRED;
        if (L->c->ntypes != 1 || L->c->types[0] != dt)
            return err(L, &L->ops[0], "PTX-TYPE-001", "bar.red.popc takes .u32 and bar.red.and/.or take .pred");
        unsigned last = L->c->nops - 1;
        if (!dst(L, &L->ops[0], dt, 0, &in->dst[0]) || !u32src(L, &L->ops[1], &in->src[0]) ||
            (last == 3 && !u32src(L, &L->ops[2], &in->src[1])) ||
            !src(L, &L->ops[last], IR_T_PRED, A_REG | A_NOT, &in->src[2]))
            return false;
        in->ndst = 1;
        in->nsrc = 3;
        return true;
    }
    if (L->c->ntypes)
        return err(L, &L->ops[0], "PTX-TYPE-001", "bar.sync and bar.arrive take no type");
    unsigned lo = in->sub == IR_BAR_ARRIVE ? 2 : 1;
    if (!count_is(L, lo, 2) || !u32src(L, &L->ops[0], &in->src[0]) ||
        (L->c->nops == 2 && !u32src(L, &L->ops[1], &in->src[1])))
        return false;
    in->nsrc = (uint8_t)L->c->nops;
    if (in->src[0].kind == IR_OPND_IMM && in->src[0].imm > 15)
        return err(L, &L->ops[0], "PTX-OPND-003", "barrier ids are 0..15");
    return true;
}

static bool lower_warp(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_insn *in = L->in;
    ir_type t = c->ntypes ? c->types[0] : IR_T_NONE;
    switch (c->row->form) {
    case PTX_FORM_SHFL:
        if (!count_is(L, 5, 5) || !pred_pair(L, &L->ops[0], t, true) ||
            !src(L, &L->ops[1], t, A_REG | A_IMM, &in->src[0]) || !u32src(L, &L->ops[2], &in->src[1]) ||
            !u32src(L, &L->ops[3], &in->src[2]) || !u32src(L, &L->ops[4], &in->src[3]))
            return false;
        in->nsrc = 4;
        return true;
    case PTX_FORM_VOTE: {
        bool sync = c->op == PTX_OP_VOTE_SYNC;
        bool ballot = in->sub == IR_VOTE_BALLOT;
        if ((ballot && t != IR_T_B32) || (!ballot && t != IR_T_PRED))
            return err(L, &L->ops[0], "PTX-TYPE-001", "vote.ballot takes .b32, the others .pred");
        if (!count_is(L, sync ? 3 : 2, sync ? 3 : 2) || !dst(L, &L->ops[0], t, 0, &in->dst[0]) ||
            !src(L, &L->ops[1], IR_T_PRED, A_REG | A_NOT, &in->src[0]) ||
            (sync && !u32src(L, &L->ops[2], &in->src[1])))
            return false;
        in->ndst = 1;
        in->nsrc = sync ? 2 : 1;
        return true;
    }
    case PTX_FORM_MATCH:
        if (!count_is(L, 3, 3) || !pred_pair(L, &L->ops[0], IR_T_B32, in->sub == IR_MATCH_ALL) ||
            !src(L, &L->ops[1], t, A_REG | A_IMM, &in->src[0]) || !u32src(L, &L->ops[2], &in->src[1]))
            return false;
        in->nsrc = 2;
        return true;
    case PTX_FORM_REDUX:
        if ((in->sub == IR_REDUX_AND || in->sub == IR_REDUX_OR || in->sub == IR_REDUX_XOR) != (t == IR_T_B32))
            return err(L, &L->ops[0], "PTX-TYPE-001", "redux .and/.or/.xor take .b32, .add/.min/.max take .u32/.s32");
        if (!count_is(L, 3, 3) || !dst(L, &L->ops[0], t, 0, &in->dst[0]) ||
            !src(L, &L->ops[1], t, A_REG, &in->src[0]) || !u32src(L, &L->ops[2], &in->src[1]))
            return false;
        in->ndst = 1;
        in->nsrc = 2;
        return true;
    case PTX_FORM_ACTIVEMASK:
        in->ndst = 1;
        return count_is(L, 1, 1) && dst(L, &L->ops[0], IR_T_B32, 0, &in->dst[0]);
    default: /* BARWARP */
        in->nsrc = 1;
        return count_is(L, 1, 1) && u32src(L, &L->ops[0], &in->src[0]);
    }
}

bool ptx_lower_reg(ptx_parser *p, ptx_insn_ctx *c, const ptx_name *n, ir_type t, bool wide,
                   ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return reg_operand(&L, n, t, wide ? A_WIDE : 0, out);
}

bool ptx_lower_src(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return src(&L, o, t, A_REG | A_IMM | A_WIDE, out);
}

bool ptx_lower_dst(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return dst(&L, o, t, A_WIDE, out);
}

bool ptx_lower_vec(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t, unsigned count,
                   bool is_dst, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return vector(&L, o, t, count, is_dst ? A_WIDE | A_SINK : A_WIDE | A_IMM, out);
}

bool ptx_lower_addr_in(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_space space,
                       ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    uint8_t written = c->insn->mem.space; /* address() checks a variable against it */
    c->insn->mem.space = (uint8_t)space;
    bool ok = address(&L, o, out);
    c->insn->mem.space = written;
    return ok;
}

bool ptx_lower_pred_src(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return src(&L, o, IR_T_PRED, A_REG | A_NOT, out);
}

bool ptx_lower_address(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return address(&L, o, out);
}

static void clear_operands(ir_insn *in)
{
    for (int i = 0; i < 2; i++)
        in->dst[i].sym = IR_SYM_NONE;
    for (int i = 0; i < 4; i++)
        in->src[i].sym = IR_SYM_NONE;
}

void ptx_lower(ptx_parser *p, ptx_insn_ctx *c)
{
    lower L = {p, c, c->insn, p->ops};
    if (c->row->form != PTX_FORM_TEX && !ptx_no_texture_operands(p, c))
        return;
    clear_operands(c->insn);
    ptx_lower_mem(c);
    switch (c->row->form) {
    case PTX_FORM_UNARY: case PTX_FORM_COUNT: lower_alu(&L, 1); break;
    case PTX_FORM_BINARY: case PTX_FORM_SHIFT: lower_alu(&L, 2); break;
    case PTX_FORM_TERNARY: lower_alu(&L, 3); break;
    case PTX_FORM_SHF: case PTX_FORM_BFE: case PTX_FORM_BFI: case PTX_FORM_BMSK:
    case PTX_FORM_FNS: case PTX_FORM_PRMT: case PTX_FORM_LOP3: case PTX_FORM_DP:
        lower_bits(&L);
        break;
    case PTX_FORM_TESTP:
        if (count_is(&L, 2, 2) && dst(&L, &L.ops[0], IR_T_PRED, 0, &c->insn->dst[0]))
            src(&L, &L.ops[1], c->types[0], A_REG | A_IMM, &c->insn->src[0]);
        c->insn->ndst = c->insn->nsrc = 1;
        break;
    case PTX_FORM_SETP: case PTX_FORM_SET: lower_compare(&L); break;
    case PTX_FORM_SELP: case PTX_FORM_SLCT: lower_select(&L); break;
    case PTX_FORM_MOV: lower_mov(&L); break;
    case PTX_FORM_CVT: lower_cvt(&L); break;
    case PTX_FORM_CVTA: lower_cvta(&L); break;
    case PTX_FORM_LD: lower_ld(&L); break;
    case PTX_FORM_ST: lower_st(&L); break;
    case PTX_FORM_ATOM: case PTX_FORM_RED: lower_atom(&L); break;
    case PTX_FORM_PREFETCH: case PTX_FORM_SIZED: lower_cache_control(&L); break;
    case PTX_FORM_CREATEPOLICY: lower_createpolicy(&L); break;
    case PTX_FORM_BRA:
        if (count_is(&L, 1, 1) && label_operand(&L, &L.ops[0], -1, &c->insn->src[0]))
            c->insn->nsrc = 1;
        break;
    case PTX_FORM_BRX: lower_brx(&L); break;
    case PTX_FORM_CALL: lower_call(&L); break;
    case PTX_FORM_NONE: count_is(&L, 0, 0); break;
    case PTX_FORM_NANOSLEEP:
        if (count_is(&L, 1, 1) && u32src(&L, &L.ops[0], &c->insn->src[0]))
            c->insn->nsrc = 1;
        break;
    case PTX_FORM_BAR: lower_bar(&L); break;
    case PTX_FORM_SURF: case PTX_FORM_SUQ: ptx_lower_surface(p, c); break;
    case PTX_FORM_TEX: case PTX_FORM_TXQ: ptx_lower_texture(p, c); break;
    case PTX_FORM_MATRIX: ptx_lower_matrix(p, c); break;
    case PTX_FORM_ASYNC: ptx_lower_async(p, c); break;
    case PTX_FORM_MBAR: ptx_lower_mbarrier(p, c); break;
    case PTX_FORM_BULK: ptx_lower_bulk(p, c); break;
    case PTX_FORM_VIDEO: ptx_lower_video(p, c); break;
    default: lower_warp(&L); break;
    }
    /* PTX has one condition flag, the carry: .cc writes it, addc/subc/madc read it. */
    if (c->insn->mods & IR_MOD_CC)
        c->insn->flag_out = IR_FLAG_CARRY;
    if (c->insn->mods & IR_MOD_CARRY_IN)
        c->insn->flag_in = IR_FLAG_CARRY;
}
