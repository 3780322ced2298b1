/* Lowering of PTX operands into IR operands (ptx_lower_internal.h): resolves names (registers,
 * variables, parameters, functions, special registers), converts immediates to the instruction
 * type's bits, checks register types with PTX's relaxed rules (PTX ISA 9.1 §6.4.2, as ptxas
 * accepts them) and fills the operand layout documented above `ir_insn` in ir/ir.h. The
 * instruction forms that call these are in ptx_lower.c. */
#include <string.h>

#include "ptx/ptx_lower_internal.h"

bool lower_err(lower *L, const ptx_popnd *o, const char *rule, const char *msg)
{
    ptx_error_at(L->p, o->line, o->col, rule, "'%.*s': %s", (int)L->c->text_len, L->c->text, msg);
    return false;
}

bool lower_count_is(lower *L, uint32_t lo, uint32_t hi)
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
bool lower_is_bit_type(ir_type t) { return t >= IR_T_B8 && t <= IR_T_B128; }

static bool reg_compat(ir_type want, ir_type have, bool wide_ok)
{
    if (want == have)
        return true;
    if (want == IR_T_PRED || have == IR_T_PRED)
        return false;
    unsigned wb = ir_type_bits(want), hb = ir_type_bits(have);
    bool wf = ir_type_is_float(want), hf = ir_type_is_float(have);
    if (wb == hb)
        return lower_is_bit_type(want) || lower_is_bit_type(have) || (!wf && !hf);
    return wide_ok && hb > wb && !hf;
}

ir_type lower_wide_type(ir_type t)
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
const ptx_binding *lower_resolve(lower *L, const ptx_name *n, uint32_t *slot)
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

uint32_t lower_sym_ref(const ptx_binding *b)
{
    switch (b->kind) {
    case PTX_SYM_VAR: return b->index;
    case PTX_SYM_FVAR: return IR_SYM_FUNC_BASE + b->index;
    case PTX_SYM_PARAM: return IR_SYM_PARAM_BASE + b->index;
    case PTX_SYM_RET: return IR_SYM_PARAM_BASE + IR_SYM_RET_OFFSET + b->index;
    default: return IR_SYM_NONE;
    }
}

bool lower_is_var_kind(uint8_t k)
{
    return k == PTX_SYM_VAR || k == PTX_SYM_FVAR || k == PTX_SYM_PARAM || k == PTX_SYM_RET;
}

/* A register or predicate name checked against type `t`. */
bool lower_reg_operand(lower *L, const ptx_name *n, ir_type t, unsigned flags, ir_operand *out)
{
    uint32_t slot = 0;
    const ptx_binding *b = lower_resolve(L, n, &slot);
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
            return lower_err(L, o, "PTX-OPND-003", "a .pred immediate must be 0, 1 or -1");
        if (t == IR_T_F16X2 || t == IR_T_BF16X2 || t == IR_T_B128 || t == IR_T_U16X2 ||
            t == IR_T_S16X2)
            return lower_err(L, o, "PTX-OPND-003", "an immediate is not allowed for this type");
        if (!is_float) {
            if (!fits_bits(o->ival, bits))
                return lower_err(L, o, "PTX-OPND-003", "immediate does not fit the instruction type");
            out->imm = (int64_t)((uint64_t)o->ival & mask);
            return true;
        }
        d = (double)o->ival;
        break;
    case PTX_P_FLOAT:
        if (!is_float)
            return lower_err(L, o, "PTX-OPND-003", "floating-point literal for an integer instruction");
        d = o->fval;
        break;
    case PTX_P_F32BITS:
        if (!is_float && bits == 32) {
            out->imm = o->ival & 0xFFFFFFFF;
            return true;
        }
        if (!is_float)
            return lower_err(L, o, "PTX-OPND-003", "0f literal does not fit the instruction type");
        d = ptx_bits_f32((uint32_t)o->ival);
        break;
    default: /* F64BITS */
        if (!is_float && bits == 64) {
            out->imm = o->ival;
            return true;
        }
        if (!is_float)
            return lower_err(L, o, "PTX-OPND-003", "0d literal does not fit the instruction type");
        d = ptx_bits_f64((uint64_t)o->ival);
        break;
    }
    switch (t) {
    case IR_T_F64: out->imm = (int64_t)ptx_f64_bits(d); break;
    case IR_T_F32: case IR_T_TF32: out->imm = ptx_f32_bits((float)d); break;
    case IR_T_F16: out->imm = ptx_f32_to_f16_bits((float)d); break;
    case IR_T_BF16: out->imm = ptx_f32_to_bf16_bits((float)d); break;
    default: return lower_err(L, o, "PTX-OPND-003", "an immediate is not allowed for this type");
    }
    return true;
}

/* A source operand of type t, with the permissions in flags. */
bool lower_src(lower *L, const ptx_popnd *o, ir_type t, unsigned flags, ir_operand *out)
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
                return lower_err(L, o, "PTX-OPND-002", "special registers can only be read with mov");
            if (bits == 64 && ir_type_bits(t) != 64)
                return lower_err(L, o, "PTX-TYPE-002", "64-bit special register needs a 64-bit mov");
            sreg_requirement(L, &o->name, sr);
            out->kind = IR_OPND_SREG;
            out->reg = (uint32_t)sr;
            return true;
        }
        if (b && (b->kind == PTX_SYM_FUNC || lower_is_var_kind(b->kind))) {
            if (!(flags & A_SYM))
                return lower_err(L, o, "PTX-OPND-002", "a variable or function name is not allowed here");
            out->kind = b->kind == PTX_SYM_FUNC ? IR_OPND_FUNC : IR_OPND_SYM;
            out->sym = b->kind == PTX_SYM_FUNC ? b->index : lower_sym_ref(b);
            out->imm = o->ival;
            if (b->kind == PTX_SYM_FUNC && L->p->funcs.count > b->index &&
                ((ir_func *)L->p->funcs.data)[b->index].has_callprototype)
                return lower_err(L, o, "PTX-OPND-002", "a .callprototype has no address");
            return true;
        }
        if (o->ival)
            return lower_err(L, o, "PTX-OPND-002", "only variables take an offset");
        if (!(flags & A_REG))
            return lower_err(L, o, "PTX-OPND-002", "a register is not allowed here");
        return lower_reg_operand(L, &o->name, t, flags, out);
    }
    case PTX_P_NOT:
        if (!(flags & A_NOT) || t != IR_T_PRED)
            return lower_err(L, o, "PTX-OPND-002", "a negated predicate is not allowed here");
        if (!lower_reg_operand(L, &o->name, IR_T_PRED, flags, out))
            return false;
        out->neg = 1;
        return true;
    case PTX_P_INT: case PTX_P_FLOAT: case PTX_P_F32BITS: case PTX_P_F64BITS:
        if (!(flags & A_IMM))
            return lower_err(L, o, "PTX-OPND-002", "an immediate is not allowed here");
        return immediate(L, o, t, out);
    case PTX_P_SINK:
        if (!(flags & A_SINK))
            return lower_err(L, o, "PTX-OPND-002", "'_' is not allowed here");
        out->kind = IR_OPND_SINK;
        out->reg = IR_REG_SINK;
        return true;
    default:
        return lower_err(L, o, "PTX-OPND-002", "expected a register or an immediate");
    }
}

bool lower_dst(lower *L, const ptx_popnd *o, ir_type t, unsigned flags, ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->sym = IR_SYM_NONE;
    if (o->kind == PTX_P_SINK && (flags & A_SINK)) {
        out->kind = IR_OPND_SINK;
        out->reg = IR_REG_SINK;
        return true;
    }
    if (o->kind != PTX_P_NAME || o->ival)
        return lower_err(L, o, "PTX-OPND-002", "the destination must be a register");
    return lower_reg_operand(L, &o->name, t, flags, out);
}

/* The shared-immediate source: a 32-bit integer register or immediate (shift amounts, masks). */
bool lower_u32src(lower *L, const ptx_popnd *o, ir_operand *out)
{
    return lower_src(L, o, IR_T_U32, A_REG | A_IMM, out);
}

bool lower_vector(lower *L, const ptx_popnd *o, ir_type t, unsigned count, unsigned flags,
                   ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->sym = IR_SYM_NONE;
    if (o->kind != PTX_P_VEC)
        return lower_err(L, o, "PTX-OPND-002", "expected a vector operand {a, b, ...}");
    if (count && o->count != count)
        return lower_err(L, o, "PTX-OPND-001", "vector operand has the wrong number of elements");
    out->kind = IR_OPND_VEC;
    out->count = o->count;
    unsigned elem_bits = ir_type_bits(t);
    for (unsigned i = 0; i < o->count; i++) {
        if (o->elem_is_imm[i]) {
            /* immediate parts are packed into imm at their bit position (IR_REG_IMM) */
            if (!(flags & A_IMM) || elem_bits * o->count > 64 || !fits_bits(o->elem_imm[i], elem_bits))
                return lower_err(L, o, "PTX-OPND-003", "an immediate vector element is allowed only in "
                           "source vectors of at most 64 bits and must fit its element");
            uint64_t mask = elem_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << elem_bits) - 1;
            out->imm = (int64_t)((uint64_t)out->imm | (((uint64_t)o->elem_imm[i] & mask) << (elem_bits * i)));
            out->vregs[i] = IR_REG_IMM;
            continue;
        }
        if (!o->elems[i].text) {
            if (!(flags & A_SINK))
                return lower_err(L, o, "PTX-OPND-002", "'_' is not allowed in this vector");
            out->vregs[i] = IR_REG_SINK;
            continue;
        }
        ir_operand r;
        if (!lower_reg_operand(L, &o->elems[i], t, flags, &r))
            return false;
        if (r.kind != IR_OPND_REG)
            return lower_err(L, o, "PTX-OPND-002", "vector elements must be registers");
        out->vregs[i] = r.reg;
    }
    return true;
}

bool lower_address(lower *L, const ptx_popnd *o, ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->sym = IR_SYM_NONE;
    if (o->kind != PTX_P_ADDR)
        return lower_err(L, o, "PTX-OPND-002", "expected an address [base+offset]");
    out->kind = IR_OPND_ADDR;
    out->imm = o->ival;
    if (!o->has_base)
        return true;
    uint32_t slot;
    const ptx_binding *b = lower_resolve(L, &o->name, &slot);
    if (!b)
        return false;
    if (b->kind == PTX_SYM_REG) {
        unsigned bits = ir_type_bits((ir_type)b->type);
        if ((bits != 32 && bits != 64) || ir_type_is_float((ir_type)b->type))
            return lower_err(L, o, "PTX-TYPE-002", "an address register must be a 32- or 64-bit integer");
        out->has_reg = 1;
        out->reg = slot;
        return true;
    }
    if (!lower_is_var_kind(b->kind))
        return lower_err(L, o, "PTX-OPND-002", "an address base must be a register or a variable");
    out->sym = lower_sym_ref(b);
    uint32_t space = L->in->mem.space;
    bool is_param = b->kind == PTX_SYM_PARAM || b->kind == PTX_SYM_RET;
    if (b->kind == PTX_SYM_FVAR || b->kind == PTX_SYM_VAR) {
        const ptx_vec *v = b->kind == PTX_SYM_FVAR ? &L->p->fs.vars : &L->p->vars;
        uint32_t vs = ((const ir_var *)v->data)[b->index].space;
        if (vs == IR_SPACE_SHARED && space == IR_SPACE_SHARED_CLUSTER)
            vs = space;
        if (space != IR_SPACE_GENERIC && space != IR_SPACE_NONE && vs != space)
            return lower_err(L, o, "PTX-MEM-002", "the variable is in a different state space");
        if (space == IR_SPACE_GENERIC && vs == IR_SPACE_PARAM)
            return lower_err(L, o, "PTX-MEM-002", "a .param variable needs a .param access");
    } else if (is_param && space != IR_SPACE_PARAM) {
        return lower_err(L, o, "PTX-MEM-002", "a parameter is accessed with a .param instruction");
    }
    if (b->kind == PTX_SYM_PARAM && L->c->op == PTX_OP_ST)
        return lower_err(L, o, "PTX-MEM-004", "an input parameter of the function cannot be written");
    return true;
}

bool ptx_lower_reg(ptx_parser *p, ptx_insn_ctx *c, const ptx_name *n, ir_type t, bool wide,
                   ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return lower_reg_operand(&L, n, t, wide ? A_WIDE : 0, out);
}

bool ptx_lower_src(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return lower_src(&L, o, t, A_REG | A_IMM | A_WIDE, out);
}

bool ptx_lower_dst(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return lower_dst(&L, o, t, A_WIDE, out);
}

bool ptx_lower_vec(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t, unsigned count,
                   bool is_dst, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return lower_vector(&L, o, t, count, is_dst ? A_WIDE | A_SINK : A_WIDE | A_IMM, out);
}

bool ptx_lower_addr_in(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_space space,
                       ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    uint8_t written = c->insn->mem.space; /* lower_address() checks a variable against it */
    c->insn->mem.space = (uint8_t)space;
    bool ok = lower_address(&L, o, out);
    c->insn->mem.space = written;
    return ok;
}

bool ptx_lower_pred_src(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return lower_src(&L, o, IR_T_PRED, A_REG | A_NOT, out);
}

bool ptx_lower_address(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    lower L = {p, c, c->insn, p->ops};
    return lower_address(&L, o, out);
}
