/* Lowering of PTX instructions into IR, one routine per operand shape (ptx_form): the forms call
 * the operand routines of ptx_lower_opnd.c and fill the instruction's operand counts and fields.
 * Modifier rules are checked before this, in ptx_check.c. */
#include <string.h>

#include "ptx/ptx_lower_internal.h"

/* ---- forms ---- */
static bool lower_alu(lower *L, unsigned nsrc)
{
    ptx_insn_ctx *c = L->c;
    ir_type t = c->types[0];
    if (!lower_count_is(L, nsrc + 1, nsrc + 1))
        return false;
    ir_type dt = (c->insn->mods & IR_MOD_WIDE) ? lower_wide_type(t) : t;
    if (c->row->form == PTX_FORM_COUNT)
        dt = IR_T_U32;
    /* .pred logic ops take 0, 1 or -1 and negated predicates !p, as ptxas does (docs/ptx.md) */
    unsigned imm = A_IMM | (t == IR_T_PRED ? A_NOT : 0);
    if (!lower_dst(L, &L->ops[0], dt, 0, &L->in->dst[0]))
        return false;
    for (unsigned i = 0; i < nsrc; i++) {
        ir_type st = t;
        if (i == 1 && c->row->form == PTX_FORM_SHIFT)
            st = IR_T_U32;
        if (i == 2 && (c->op == PTX_OP_MAD || c->op == PTX_OP_MADC))
            st = dt;
        bool ok = st == IR_T_U32 && c->row->form == PTX_FORM_SHIFT ? lower_u32src(L, &L->ops[i + 1], &L->in->src[i])
                                                                     : lower_src(L, &L->ops[i + 1], st, A_REG | imm, &L->in->src[i]);
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
    if (!lower_count_is(L, n + 1, n + 1) || !lower_dst(L, &L->ops[0], dt, 0, &L->in->dst[0]))
        return false;
    for (unsigned i = 0; i < n; i++)
        if (!lower_src(L, &L->ops[i + 1], types[i], A_REG | A_IMM, &L->in->src[i]))
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
            return lower_err(L, &L->ops[4], "PTX-OPND-003", "the lop3 table must be an immediate 0..255");
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
            return lower_err(L, o, "PTX-OPND-002", "a second destination is not allowed here");
        ptx_popnd a = *o, b = *o;
        a.kind = PTX_P_NAME;
        b.kind = PTX_P_NAME;
        b.name = o->name2;
        if (a.name.len == 1 && a.name.text[0] == '_')
            a.kind = PTX_P_SINK;
        if (!lower_dst(L, &a, first_type, A_SINK, &L->in->dst[0]) ||
            !lower_dst(L, &b, IR_T_PRED, 0, &L->in->dst[1]))
            return false;
        L->in->ndst = 2;
        return true;
    }
    L->in->ndst = 1;
    return lower_dst(L, o, first_type, 0, &L->in->dst[0]);
}

static bool lower_compare(lower *L)
{
    ptx_insn_ctx *c = L->c;
    bool boolop = c->has_group[PTX_G_BOOL];
    unsigned n = boolop ? 4 : 3;
    ir_type t = c->op == PTX_OP_SET ? c->types[1] : c->types[0];
    if (!lower_count_is(L, n, n))
        return false;
    if (!pred_pair(L, &L->ops[0], c->op == PTX_OP_SET ? c->types[0] : IR_T_PRED,
                   c->op == PTX_OP_SETP))
        return false;
    if (!lower_src(L, &L->ops[1], t, A_REG | A_IMM, &L->in->src[0]) ||
        !lower_src(L, &L->ops[2], t, A_REG | A_IMM, &L->in->src[1]))
        return false;
    L->in->nsrc = 2;
    if (boolop) {
        L->in->nsrc = 3;
        return lower_src(L, &L->ops[3], IR_T_PRED, A_REG | A_NOT, &L->in->src[2]);
    }
    return true;
}

static bool lower_select(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_type t = c->types[0];
    if (!lower_count_is(L, 4, 4) || !lower_dst(L, &L->ops[0], t, 0, &L->in->dst[0]) ||
        !lower_src(L, &L->ops[1], t, A_REG | A_IMM, &L->in->src[0]) ||
        !lower_src(L, &L->ops[2], t, A_REG | A_IMM, &L->in->src[1]))
        return false;
    L->in->ndst = 1;
    L->in->nsrc = 3;
    if (c->op == PTX_OP_SELP)
        return lower_src(L, &L->ops[3], IR_T_PRED, A_REG | A_NOT, &L->in->src[2]);
    return lower_src(L, &L->ops[3], c->types[1], A_REG | A_IMM, &L->in->src[2]);
}

static bool lower_mov(lower *L)
{
    ir_type t = L->c->types[0];
    if (!lower_count_is(L, 2, 2))
        return false;
    L->in->ndst = L->in->nsrc = 1;
    const ptx_popnd *d = &L->ops[0], *s = &L->ops[1];
    if (d->kind == PTX_P_VEC || s->kind == PTX_P_VEC) {
        const ptx_popnd *v = d->kind == PTX_P_VEC ? d : s, *w = d->kind == PTX_P_VEC ? s : d;
        if (w->kind == PTX_P_VEC || (v->count != 2 && v->count != 4) || !lower_is_bit_type(t))
            return lower_err(L, v, "PTX-OPND-002", "mov packs or unpacks 2 or 4 parts of a .b type");
        ir_type part = ir_type_bits(t) / v->count == 8 ? IR_T_B8 : ir_type_bits(t) / v->count == 16 ? IR_T_B16
                     : ir_type_bits(t) / v->count == 32 ? IR_T_B32 : IR_T_B64;
        if (ir_type_bits(t) / v->count == 8)
            part = IR_T_B16; /* bytes of a .b32 live in 16-bit registers */
        bool ok = lower_vector(L, v, part, v->count, v == d ? A_SINK | A_WIDE : A_WIDE | A_IMM,
                         v == d ? &L->in->dst[0] : &L->in->src[0]);
        return ok && (v == d ? lower_src(L, w, t, A_REG, &L->in->src[0]) : lower_dst(L, w, t, 0, &L->in->dst[0]));
    }
    if (!lower_dst(L, d, t, 0, &L->in->dst[0]))
        return false;
    unsigned flags = A_REG | A_IMM | A_SREG | (ir_type_bits(t) >= 32 && t != IR_T_F32 && t != IR_T_F64 ? A_SYM : 0);
    if (t == IR_T_PRED)
        flags = A_REG | A_IMM;
    return lower_src(L, s, t, flags, &L->in->src[0]);
}

static bool lower_cvt(lower *L)
{
    ptx_insn_ctx *c = L->c;
    bool pack = c->types[0] == IR_T_F16X2 || c->types[0] == IR_T_BF16X2;
    unsigned n = pack ? 3 : 2;
    if (!lower_count_is(L, n, n) || !lower_dst(L, &L->ops[0], c->types[0], A_WIDE, &L->in->dst[0]))
        return false;
    L->in->ndst = 1;
    L->in->nsrc = (uint8_t)(n - 1);
    for (unsigned i = 1; i < n; i++)
        if (!lower_src(L, &L->ops[i], c->types[1], A_REG | A_IMM | A_WIDE, &L->in->src[i - 1]))
            return false;
    return true;
}

static bool lower_cvta(lower *L)
{
    ir_type t = L->c->types[0];
    if (!lower_count_is(L, 2, 2) || !lower_dst(L, &L->ops[0], t, 0, &L->in->dst[0]))
        return false;
    L->in->ndst = L->in->nsrc = 1;
    if (!lower_src(L, &L->ops[1], t, A_REG | A_SYM, &L->in->src[0]))
        return false;
    if (L->in->src[0].kind == IR_OPND_FUNC)
        return lower_err(L, &L->ops[1], "PTX-OPND-002", "cvta takes a variable, not a function");
    return true;
}

static bool policy_operand(lower *L, unsigned index, ir_operand *out)
{
    return lower_src(L, &L->ops[index], IR_T_B64, A_REG | A_IMM, out);
}

static bool lower_ld(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_mem_attrs *m = &L->in->mem;
    unsigned n = 2 + m->has_policy;
    if (!lower_count_is(L, n, n))
        return false;
    L->in->ndst = 1;
    L->in->nsrc = (uint8_t)(1 + m->has_policy);
    bool ok = m->vec > 1 ? lower_vector(L, &L->ops[0], c->types[0], m->vec, A_WIDE | A_SINK, &L->in->dst[0])
                         : lower_dst(L, &L->ops[0], c->types[0], A_WIDE, &L->in->dst[0]);
    if (!ok || !lower_address(L, &L->ops[1], &L->in->src[0]))
        return false;
    return !m->has_policy || policy_operand(L, 2, &L->in->src[1]);
}

static bool lower_st(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_mem_attrs *m = &L->in->mem;
    unsigned n = 2 + m->has_policy;
    if (!lower_count_is(L, n, n) || !lower_address(L, &L->ops[0], &L->in->src[0]))
        return false;
    L->in->nsrc = (uint8_t)n;
    bool ok = m->vec > 1 ? lower_vector(L, &L->ops[1], c->types[0], m->vec, A_WIDE | A_IMM, &L->in->src[1])
                         : lower_src(L, &L->ops[1], c->types[0], A_REG | A_IMM | A_WIDE, &L->in->src[1]);
    return ok && (!m->has_policy || policy_operand(L, 2, &L->in->src[2]));
}

static bool lower_atom(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_type t = c->types[0];
    bool is_red = c->op == PTX_OP_RED, cas = L->in->sub == IR_ATOM_CAS;
    unsigned hint = L->in->mem.has_policy;
    unsigned n = (is_red ? 2 : 3) + (cas ? 1 : 0) + hint;
    if (!lower_count_is(L, n, n))
        return false;
    unsigned i = 0;
    if (!is_red) {
        if (!lower_dst(L, &L->ops[i++], t, 0, &L->in->dst[0]))
            return false;
        L->in->ndst = 1;
    }
    if (!lower_address(L, &L->ops[i++], &L->in->src[0]) ||
        !lower_src(L, &L->ops[i++], t, A_REG | A_IMM, &L->in->src[1]))
        return false;
    if (cas && !lower_src(L, &L->ops[i++], t, A_REG | A_IMM, &L->in->src[2]))
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
        return lower_count_is(L, 1, 1) && lower_address(L, &L->ops[0], &L->in->src[0]);
    }
    if (!lower_count_is(L, 2, 2) || !lower_address(L, &L->ops[0], &L->in->src[0]) ||
        !lower_src(L, &L->ops[1], IR_T_U32, A_IMM, &L->in->src[1]))
        return false;
    L->in->nsrc = 2;
    if (L->in->src[1].imm != 128)
        return lower_err(L, &L->ops[1], "PTX-CACHEOP-003", "the size operand must be 128");
    return true;
}

static bool lower_createpolicy(lower *L)
{
    ir_insn *in = L->in;
    L->in->ndst = 1;
    if (in->sub == IR_POLICY_FRACTIONAL) {
        if (!lower_count_is(L, 1, 2) || !lower_dst(L, &L->ops[0], IR_T_B64, 0, &in->dst[0]))
            return false;
        if (L->c->nops == 1)
            return true; /* src[0] NONE: fraction 1.0 */
        in->nsrc = 1;
        if (L->ops[1].kind == PTX_P_INT) /* ptxas wants the fraction as a floating-point literal */
            return lower_err(L, &L->ops[1], "PTX-OPND-002", "the fraction must be a floating-point "
                       "literal or an .f32 register");
        if (!lower_src(L, &L->ops[1], IR_T_F32, A_REG | A_IMM, &in->src[0]))
            return false;
        if (in->src[0].kind == IR_OPND_IMM) {
            float f = ptx_bits_f32((uint32_t)in->src[0].imm);
            if (!(f > 0.0f && f <= 1.0f))
                return lower_err(L, &L->ops[1], "PTX-OPND-003", "the fraction must be in (0, 1]");
        }
        return true;
    }
    if (in->sub == IR_POLICY_RANGE) {
        if (!lower_count_is(L, 4, 4) || !lower_dst(L, &L->ops[0], IR_T_B64, 0, &in->dst[0]) ||
            !lower_address(L, &L->ops[1], &in->src[0]) || !lower_u32src(L, &L->ops[2], &in->src[1]) ||
            !lower_u32src(L, &L->ops[3], &in->src[2]))
            return false;
        in->nsrc = 3;
        if (in->src[1].kind == IR_OPND_IMM && in->src[2].kind == IR_OPND_IMM &&
            in->src[1].imm > in->src[2].imm)
            return lower_err(L, &L->ops[2], "PTX-OPND-003", "the primary size exceeds the total size");
        return true;
    }
    in->nsrc = 1;
    return lower_count_is(L, 2, 2) && lower_dst(L, &L->ops[0], IR_T_B64, 0, &in->dst[0]) &&
           lower_src(L, &L->ops[1], IR_T_B64, A_REG | A_IMM, &in->src[0]);
}

static bool label_operand(lower *L, const ptx_popnd *o, int32_t xop, ir_operand *out)
{
    if (o->kind != PTX_P_NAME || o->ival)
        return lower_err(L, o, "PTX-OPND-002", "expected a label");
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
    if (!lower_count_is(L, 2, 2) || !lower_u32src(L, &L->ops[0], &L->in->src[0]))
        return false;
    L->in->nsrc = 1;
    const ptx_popnd *o = &L->ops[1];
    if (o->kind != PTX_P_NAME)
        return lower_err(L, o, "PTX-OPND-002", "expected a .branchtargets label");
    int32_t l = ptx_label_get(L->p, o->name.text, o->name.len, o->line, o->col);
    const fe_label *lab = l >= 0 ? fe_labels_at(&L->p->fs.labels, l) : NULL;
    if (!lab || lab->list_first < 0)
        return lower_err(L, o, "PTX-SYM-003", "brx.idx needs a .branchtargets list declared before it");
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
        if (!b || !lower_is_var_kind(b->kind)) {
            if (!b)
                lower_resolve(L, &e.name, &slot);
            else
                lower_err(L, &e, "PTX-OPND-002", "call arguments must be .param variables or registers");
            return false;
        }
        x->kind = IR_OPND_SYM;
        x->sym = lower_sym_ref(b);
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
        return lower_err(L, i < n ? &o[i] : &o[0], "PTX-OPND-002", "expected the called function");
    const ptx_popnd *callee = &o[i++];
    if (i < n && o[i].kind == PTX_P_LIST)
        args = &o[i++];
    if (i < n && o[i].kind == PTX_P_NAME)
        proto = &o[i++];
    if (i != n)
        return lower_err(L, &o[i], "PTX-OPND-001", "unexpected operand in call");
    uint32_t slot;
    const ptx_binding *b = lower_resolve(L, &callee->name, &slot);
    if (!b)
        return false;
    const ir_func *target = NULL;
    if (b->kind == PTX_SYM_FUNC) {
        target = &((const ir_func *)L->p->funcs.data)[b->index];
        if (target->has_callprototype || proto)
            return lower_err(L, callee, "PTX-OPND-002", "a direct call names a function and no prototype");
        L->in->src[0] = (ir_operand){.kind = IR_OPND_FUNC, .sym = b->index};
    } else if (b->kind == PTX_SYM_REG) {
        if (!lower_src(L, callee, IR_T_B64, A_REG, &L->in->src[0]) &&
            !lower_src(L, callee, IR_T_B32, A_REG, &L->in->src[0]))
            return false;
        L->in->src[1] = (ir_operand){.kind = IR_OPND_NONE, .sym = IR_SYM_NONE};
        if (proto) {
            const ptx_binding *pb = lower_resolve(L, &proto->name, &slot);
            if (!pb)
                return false;
            if (pb->kind != PTX_SYM_FUNC)
                return lower_err(L, proto, "PTX-OPND-002", "expected a .callprototype");
            target = &((const ir_func *)L->p->funcs.data)[pb->index];
            L->in->src[1] = (ir_operand){.kind = IR_OPND_FUNC, .sym = pb->index};
        }
    } else {
        return lower_err(L, callee, "PTX-OPND-002", "call needs a function or a register");
    }
    L->in->nsrc = L->in->src[1].kind ? 2 : 1;
    if (target && ((args ? args->count : 0u) != target->nparams ||
                   (rets ? rets->count : 0u) != target->nrets))
        return lower_err(L, callee, "PTX-OPND-001", "argument or result count differs from the callee's declaration");
    if (args && !call_list(L, args, &L->in->xops_first, &L->in->xops_count))
        return false;
    return !rets || call_list(L, rets, &L->in->xrets_first, &L->in->xrets_count);
}

static bool lower_bar(lower *L)
{
    ir_insn *in = L->in;
    bool red = in->sub == IR_BAR_RED_POPC || in->sub == IR_BAR_RED_AND || in->sub == IR_BAR_RED_OR;
    if (red) {
        if (!lower_count_is(L, 3, 4))
            return false;
        ir_type dt = in->sub == IR_BAR_RED_POPC ? IR_T_U32 : IR_T_PRED;
        if (L->c->ntypes != 1 || L->c->types[0] != dt)
            return lower_err(L, &L->ops[0], "PTX-TYPE-001", "bar.red.popc takes .u32 and bar.red.and/.or take .pred");
        unsigned last = L->c->nops - 1;
        if (!lower_dst(L, &L->ops[0], dt, 0, &in->dst[0]) || !lower_u32src(L, &L->ops[1], &in->src[0]) ||
            (last == 3 && !lower_u32src(L, &L->ops[2], &in->src[1])) ||
            !lower_src(L, &L->ops[last], IR_T_PRED, A_REG | A_NOT, &in->src[2]))
            return false;
        in->ndst = 1;
        in->nsrc = 3;
        return true;
    }
    if (L->c->ntypes)
        return lower_err(L, &L->ops[0], "PTX-TYPE-001", "bar.sync and bar.arrive take no type");
    unsigned lo = in->sub == IR_BAR_ARRIVE ? 2 : 1;
    if (!lower_count_is(L, lo, 2) || !lower_u32src(L, &L->ops[0], &in->src[0]) ||
        (L->c->nops == 2 && !lower_u32src(L, &L->ops[1], &in->src[1])))
        return false;
    in->nsrc = (uint8_t)L->c->nops;
    if (in->src[0].kind == IR_OPND_IMM && in->src[0].imm > 15)
        return lower_err(L, &L->ops[0], "PTX-OPND-003", "barrier ids are 0..15");
    return true;
}

static bool lower_warp(lower *L)
{
    ptx_insn_ctx *c = L->c;
    ir_insn *in = L->in;
    ir_type t = c->ntypes ? c->types[0] : IR_T_NONE;
    switch (c->row->form) {
    case PTX_FORM_SHFL:
        if (!lower_count_is(L, 5, 5) || !pred_pair(L, &L->ops[0], t, true) ||
            !lower_src(L, &L->ops[1], t, A_REG | A_IMM, &in->src[0]) || !lower_u32src(L, &L->ops[2], &in->src[1]) ||
            !lower_u32src(L, &L->ops[3], &in->src[2]) || !lower_u32src(L, &L->ops[4], &in->src[3]))
            return false;
        in->nsrc = 4;
        return true;
    case PTX_FORM_VOTE: {
        bool sync = c->op == PTX_OP_VOTE_SYNC;
        bool ballot = in->sub == IR_VOTE_BALLOT;
        if ((ballot && t != IR_T_B32) || (!ballot && t != IR_T_PRED))
            return lower_err(L, &L->ops[0], "PTX-TYPE-001", "vote.ballot takes .b32, the others .pred");
        if (!lower_count_is(L, sync ? 3 : 2, sync ? 3 : 2) || !lower_dst(L, &L->ops[0], t, 0, &in->dst[0]) ||
            !lower_src(L, &L->ops[1], IR_T_PRED, A_REG | A_NOT, &in->src[0]) ||
            (sync && !lower_u32src(L, &L->ops[2], &in->src[1])))
            return false;
        in->ndst = 1;
        in->nsrc = sync ? 2 : 1;
        return true;
    }
    case PTX_FORM_MATCH:
        if (!lower_count_is(L, 3, 3) || !pred_pair(L, &L->ops[0], IR_T_B32, in->sub == IR_MATCH_ALL) ||
            !lower_src(L, &L->ops[1], t, A_REG | A_IMM, &in->src[0]) || !lower_u32src(L, &L->ops[2], &in->src[1]))
            return false;
        in->nsrc = 2;
        return true;
    case PTX_FORM_REDUX:
        if ((in->sub == IR_REDUX_AND || in->sub == IR_REDUX_OR || in->sub == IR_REDUX_XOR) != (t == IR_T_B32))
            return lower_err(L, &L->ops[0], "PTX-TYPE-001", "redux .and/.or/.xor take .b32, .add/.min/.max take .u32/.s32");
        if (!lower_count_is(L, 3, 3) || !lower_dst(L, &L->ops[0], t, 0, &in->dst[0]) ||
            !lower_src(L, &L->ops[1], t, A_REG, &in->src[0]) || !lower_u32src(L, &L->ops[2], &in->src[1]))
            return false;
        in->ndst = 1;
        in->nsrc = 2;
        return true;
    case PTX_FORM_ACTIVEMASK:
        in->ndst = 1;
        return lower_count_is(L, 1, 1) && lower_dst(L, &L->ops[0], IR_T_B32, 0, &in->dst[0]);
    default: /* BARWARP */
        in->nsrc = 1;
        return lower_count_is(L, 1, 1) && lower_u32src(L, &L->ops[0], &in->src[0]);
    }
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
        if (lower_count_is(&L, 2, 2) && lower_dst(&L, &L.ops[0], IR_T_PRED, 0, &c->insn->dst[0]))
            lower_src(&L, &L.ops[1], c->types[0], A_REG | A_IMM, &c->insn->src[0]);
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
        if (lower_count_is(&L, 1, 1) && label_operand(&L, &L.ops[0], -1, &c->insn->src[0]))
            c->insn->nsrc = 1;
        break;
    case PTX_FORM_BRX: lower_brx(&L); break;
    case PTX_FORM_CALL: lower_call(&L); break;
    case PTX_FORM_NONE: lower_count_is(&L, 0, 0); break;
    case PTX_FORM_NANOSLEEP:
        if (lower_count_is(&L, 1, 1) && lower_u32src(&L, &L.ops[0], &c->insn->src[0]))
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
