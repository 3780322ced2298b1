/* The IR verifier (ir_verify.h). Every check reads the opcode's row of ir_ops.def (shape, mods,
 * subs, mem, flow) rather than naming opcodes, except the operand lists of call and brx.idx,
 * which live outside the instruction. Rule ids and what they mean: docs/architecture.md. */
#include "ir/ir_verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct verifier {
    const ir_module *m;
    const ir_func *fn;
    const ir_insn *in; /* NULL for a problem of the function or the module */
    uint32_t index;    /* of `in` in fn->insns */
    diag_list *dl;
    size_t problems;
} verifier;

static void fail(verifier *v, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reports at the instruction (or the function) with where it is in the module. */
static void fail(verifier *v, const char *rule, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *file = v->m->path ? v->m->path : "";
    const char *name = v->fn && v->fn->name ? v->fn->name : "?";
    v->problems++;
    if (v->in)
        diag_add(v->dl, DIAG_ERROR, rule, file, v->in->line, v->in->col,
                 "IR of function '%s', instruction %u (%s): %s", name, v->index,
                 ir_opcode_name((ir_opcode)v->in->op), msg);
    else if (v->fn)
        diag_add(v->dl, DIAG_ERROR, rule, file, v->fn->line, v->fn->col,
                 "IR of function '%s': %s", name, msg);
    else
        diag_add(v->dl, DIAG_ERROR, rule, file, 0, 0, "IR of the module: %s", msg);
}

/* "register or immediate": the kinds of a slot mask, for messages. */
static const char *kinds_text(uint32_t mask, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = IR_OPND_REG; k <= IR_OPND_SINK; k++) {
        if (!(mask & (1u << k)))
            continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? " or " : "",
                         ir_operand_kind_name((ir_operand_kind)k));
        if (w < 0 || (size_t)w >= size - n)
            break;
        n += (size_t)w;
    }
    return buf;
}

/* ---- IR-VERIFY-001: the instruction's own fields ---- */
static bool check_encoding(verifier *v)
{
    const ir_insn *in = v->in;
    if (in->op >= IR_OP_COUNT) {
        fail(v, "IR-VERIFY-001", "opcode %u is not in ir_ops.def", in->op);
        return false;
    }
    if (in->type >= IR_T_COUNT || in->type2 >= IR_T_COUNT || in->type_b >= IR_T_COUNT ||
        in->type_c >= IR_T_COUNT)
        fail(v, "IR-VERIFY-001", "type %u, second type %u or matrix type %u/%u is not an ir_type",
             in->type, in->type2, in->type_b, in->type_c);
    if (in->frag > IR_FRAG_D)
        fail(v, "IR-VERIFY-001", "matrix fragment %u is not an IR_FRAG_* value", in->frag);
    if (in->rnd > IR_RND_RPI || in->cmp > IR_CMP_NAN || in->boolop > IR_BOOL_XOR)
        fail(v, "IR-VERIFY-001", "rounding %u, comparison %u or boolean operator %u is out of "
             "range", in->rnd, in->cmp, in->boolop);
    if (in->has_guard > 1 || in->guard_neg > 1)
        fail(v, "IR-VERIFY-001", "has_guard and guard_neg are flags (0 or 1)");
    return true;
}

/* ---- IR-VERIFY-004 and -010: numbers that index the function's and the module's tables ---- */
static bool sym_in_range(const verifier *v, uint32_t sym)
{
    if (sym >= IR_SYM_FUNC_BASE)
        return sym - IR_SYM_FUNC_BASE < v->fn->nvars;
    if (sym >= IR_SYM_PARAM_BASE) {
        uint32_t i = sym - IR_SYM_PARAM_BASE;
        return i >= IR_SYM_RET_OFFSET ? i - IR_SYM_RET_OFFSET < v->fn->nrets
                                      : i < v->fn->nparams;
    }
    return sym < v->m->nvars;
}

static void check_reg(verifier *v, const char *what, uint32_t reg)
{
    if (reg >= v->fn->nregs)
        fail(v, "IR-VERIFY-004", "%s uses register %u; the function has %u", what, reg,
             v->fn->nregs);
}

static void check_vector(verifier *v, const char *what, const ir_operand *o, bool is_dst)
{
    if (o->count < 1 || o->count > 8) {
        fail(v, "IR-VERIFY-003", "%s is a vector of %u elements (1 to 8)", what, o->count);
        return;
    }
    for (unsigned e = 0; e < o->count; e++) {
        uint32_t r = o->vregs[e];
        if (r == (is_dst ? IR_REG_SINK : IR_REG_IMM))
            continue;
        if (r == IR_REG_SINK || r == IR_REG_IMM)
            fail(v, "IR-VERIFY-003", "%s element %u is %s, which only a %s vector has", what, e,
                 is_dst ? "an immediate" : "a sink", is_dst ? "source" : "destination");
        else
            check_reg(v, what, r);
    }
}

/* The numbers inside one operand: registers, predicates, special registers, labels, symbols. */
static void check_refs(verifier *v, const char *what, const ir_operand *o, bool is_dst)
{
    switch ((ir_operand_kind)o->kind) {
    case IR_OPND_REG: check_reg(v, what, o->reg); break;
    case IR_OPND_PRED:
        if (o->reg >= v->fn->npreds)
            fail(v, "IR-VERIFY-004", "%s uses predicate %u; the function has %u", what, o->reg,
                 v->fn->npreds);
        break;
    case IR_OPND_SREG:
        if (o->reg >= IR_SREG_COUNT)
            fail(v, "IR-VERIFY-004", "%s names special register %u of %u", what, o->reg,
                 (unsigned)IR_SREG_COUNT);
        break;
    case IR_OPND_ADDR:
        if (o->has_reg)
            check_reg(v, what, o->reg);
        if (o->sym != IR_SYM_NONE && !sym_in_range(v, o->sym))
            fail(v, "IR-VERIFY-010", "%s refers to variable 0x%x, which does not exist", what,
                 o->sym);
        break;
    case IR_OPND_SYM:
        if (!sym_in_range(v, o->sym))
            fail(v, "IR-VERIFY-010", "%s refers to variable 0x%x, which does not exist", what,
                 o->sym);
        break;
    case IR_OPND_FUNC:
        if (o->sym >= v->m->nfuncs)
            fail(v, "IR-VERIFY-010", "%s refers to function %u; the module has %u", what, o->sym,
                 v->m->nfuncs);
        break;
    case IR_OPND_LABEL:
        if (o->imm < 0 || o->imm >= (int64_t)v->fn->ninsns)
            fail(v, "IR-VERIFY-005", "%s branches to instruction %lld; the function has %u",
                 what, (long long)o->imm, v->fn->ninsns);
        break;
    case IR_OPND_VEC: check_vector(v, what, o, is_dst); break;
    default: break;
    }
}

/* ---- IR-VERIFY-002 and -003: one operand slot against its shape ---- */
static void check_slot(verifier *v, const char *what, const ir_operand *o, uint32_t mask,
                       bool counted, bool is_dst)
{
    char kinds[128];
    if (o->kind > IR_OPND_SINK) {
        fail(v, "IR-VERIFY-003", "%s has operand kind %u, which is not an ir_operand_kind", what,
             o->kind);
        return;
    }
    if (o->kind == IR_OPND_NONE) {
        if (!(mask & (1u << IR_OPND_NONE)))
            fail(v, "IR-VERIFY-002", "%s is missing: it must be %s", what,
                 kinds_text(mask, kinds, sizeof kinds));
        return;
    }
    if (!counted) {
        fail(v, "IR-VERIFY-002", "%s is set beyond the instruction's operand count", what);
        return;
    }
    if (!(mask & (1u << o->kind))) {
        if (!(mask & ~(1u << IR_OPND_NONE) & ~(uint32_t)IR_SLOT_HINT))
            fail(v, "IR-VERIFY-002", "%s is set, but %s takes no %s", what,
                 ir_opcode_name((ir_opcode)v->in->op), what);
        else
            fail(v, "IR-VERIFY-003", "%s is a %s; it must be %s", what,
                 ir_operand_kind_name((ir_operand_kind)o->kind),
                 kinds_text(mask, kinds, sizeof kinds));
        return;
    }
    check_refs(v, what, o, is_dst);
}

static void check_operands(verifier *v, const ir_shape *shape)
{
    const ir_insn *in = v->in;
    const char *op = ir_opcode_name((ir_opcode)in->op);
    if (in->ndst > shape->ndst || in->nsrc > shape->nsrc) {
        fail(v, "IR-VERIFY-002", "ndst %u and nsrc %u; %s has %u destination and %u source "
             "slots", in->ndst, in->nsrc, op, shape->ndst, shape->nsrc);
        return;
    }
    const uint32_t empty = 1u << IR_OPND_NONE;
    char what[16];
    for (unsigned i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "dst[%u]", i);
        check_slot(v, what, &in->dst[i], i < shape->ndst ? shape->dst[i] : empty, i < in->ndst,
                   true);
    }
    for (unsigned i = 0; i < 4; i++) {
        snprintf(what, sizeof what, "src[%u]", i);
        check_slot(v, what, &in->src[i], i < shape->nsrc ? shape->src[i] : empty, i < in->nsrc,
                   false);
    }
    if (in->has_guard && in->guard >= v->fn->npreds)
        fail(v, "IR-VERIFY-004", "the guard uses predicate %u; the function has %u", in->guard,
             v->fn->npreds);
}

/* ---- IR-VERIFY-006, -007: modifiers and sub-operation against the row ---- */
static void check_mods_and_sub(verifier *v, const ir_op_info *info)
{
    const ir_insn *in = v->in;
    uint32_t extra = in->mods & ~info->mods;
    if (extra) {
        unsigned bit = (unsigned)__builtin_ctz(extra);
        const char *name = ir_modifier_name(bit);
        if (name)
            fail(v, "IR-VERIFY-006", "modifier .%s is not one %s may carry", name, info->name);
        else
            fail(v, "IR-VERIFY-006", "modifier bit %u is not an IR modifier", bit);
    }
    if (!ir_sub_name((ir_subs)info->subs, in->sub))
        fail(v, "IR-VERIFY-007", "sub-operation %u is not one of %s's", in->sub, info->name);
}

/* ---- IR-VERIFY-008: memory attributes against the row and the operands ---- */
typedef struct mem_seen {
    unsigned count;
    const char *first;
    unsigned first_value;
} mem_seen;

static void note_field(void *user, const char *field, unsigned value, const char *value_name)
{
    (void)value_name;
    mem_seen *s = user;
    if (!s->count++) {
        s->first = field;
        s->first_value = value;
    }
}

/* The operand in a slot whose shape allows a vector must be one exactly when mem.vec > 1. */
static void check_vector_width(verifier *v, const ir_shape *shape)
{
    const ir_insn *in = v->in;
    unsigned vec = in->mem.vec ? in->mem.vec : 1;
    if (vec != 1 && vec != 2 && vec != 4 && vec != 8) {
        fail(v, "IR-VERIFY-008", "vector width %u (1, 2, 4 or 8)", vec);
        return;
    }
    for (unsigned i = 0; i < shape->ndst + shape->nsrc; i++) {
        bool is_dst = i < shape->ndst;
        uint32_t mask = is_dst ? shape->dst[i] : shape->src[i - shape->ndst];
        const ir_operand *o = is_dst ? &in->dst[i] : &in->src[i - shape->ndst];
        if (!(mask & (1u << IR_OPND_VEC)) || o->kind == IR_OPND_NONE)
            continue;
        unsigned have = o->kind == IR_OPND_VEC ? o->count : 1;
        if (have != vec)
            fail(v, "IR-VERIFY-008", "vector width %u, but the data operand has %u element%s", vec,
                 have, have == 1 ? "" : "s");
    }
}

/* Intel LSC attributes (ir.h, ir_sfid and after): a fence operation exactly on an LSC fence, with
 * a scope; per-level cache controls only on an LSC memory instruction (access or prefetch). */
static void check_lsc(verifier *v, const ir_op_info *info)
{
    const ir_insn *in = v->in;
    bool is_fence = in->op == IR_FENCE;
    if (in->mem.fence_op && !(is_fence && in->mem.sfid))
        fail(v, "IR-VERIFY-008", "fence_op is set, but %s is not an LSC fence (fence with sfid)",
             info->name);
    if (is_fence && in->mem.sfid && (!in->mem.fence_op || !in->mem.scope))
        fail(v, "IR-VERIFY-008", "an LSC fence needs fence_op and scope");
    if ((in->mem.l1_ctl || in->mem.l2_ctl) && !(in->mem.sfid && info->cls == IR_CLASS_MEM))
        fail(v, "IR-VERIFY-008", "l1_ctl/l2_ctl are set, but %s is not an LSC memory instruction",
             info->name);
}

static void check_mem(verifier *v, const ir_op_info *info, const ir_shape *shape)
{
    const ir_insn *in = v->in;
    mem_seen seen = {0, NULL, 0};
    unsigned out_of_range = 0;
    ir_mem_attrs_visit(&in->mem, note_field, &seen, &out_of_range);
    if (out_of_range)
        fail(v, "IR-VERIFY-008", "%u memory attribute%s outside %s enumeration", out_of_range,
             out_of_range == 1 ? " is" : "s are", out_of_range == 1 ? "its" : "their");
    if (info->mem == IR_MEM_NONE && seen.count)
        fail(v, "IR-VERIFY-008", "%s has no memory attributes, but %s is %u", info->name,
             seen.first, seen.first_value);
    if (info->cls == IR_CLASS_MEM && in->mem.space == IR_SPACE_NONE)
        fail(v, "IR-VERIFY-008", "a memory instruction needs a state space (generic when none "
             "was written)");
    if (info->mem == IR_MEM_ACCESS) {
        unsigned bits = ir_type_bits((ir_type)in->type);
        if (bits >= 8 && in->mem.elem_bytes != bits / 8)
            fail(v, "IR-VERIFY-008", "element size %u bytes for type %s", in->mem.elem_bytes,
                 ir_type_name((ir_type)in->type));
        check_vector_width(v, shape);
    }
    bool hint_slot = false;
    for (unsigned i = 0; i < shape->nsrc; i++) {
        if (!(shape->src[i] & IR_SLOT_HINT))
            continue;
        hint_slot = true;
        if ((in->src[i].kind != IR_OPND_NONE) != (in->mem.has_policy != 0))
            fail(v, "IR-VERIFY-008", "src[%u] is the L2 policy operand: present exactly when "
                 "has_policy is set (it is %u)", i, in->mem.has_policy);
    }
    if (!hint_slot && in->mem.has_policy && info->mem != IR_MEM_NONE)
        fail(v, "IR-VERIFY-008", "has_policy is set, but %s has no policy operand", info->name);
    check_lsc(v, info);
}

/* ---- IR-VERIFY-009 (call) and the operand lists of call and brx.idx ---- */
static bool list_in_range(const verifier *v, uint32_t first, uint32_t count)
{
    return (uint64_t)first + count <= v->fn->nxops && (count == 0 || v->fn->xops);
}

static void check_call_list(verifier *v, const char *what, uint32_t first, uint32_t count,
                            uint32_t expected, bool known)
{
    if (!list_in_range(v, first, count)) {
        fail(v, "IR-VERIFY-009", "%s %u..%u are outside the function's %u operand-list entries",
             what, first, first + count, v->fn->nxops);
        return;
    }
    if (known && count != expected)
        fail(v, "IR-VERIFY-009", "%u %s, the callee declares %u", count, what, expected);
    for (uint32_t i = 0; i < count; i++) {
        const ir_operand *o = &v->fn->xops[first + i];
        char item[32];
        snprintf(item, sizeof item, "%s[%u]", what, i);
        if (o->kind != IR_OPND_REG && o->kind != IR_OPND_SYM && o->kind != IR_OPND_IMM)
            fail(v, "IR-VERIFY-009", "%s is a %s; it must be a register, a variable or an "
                 "immediate", item, ir_operand_kind_name((ir_operand_kind)o->kind));
        else
            check_refs(v, item, o, false);
    }
}

static void check_call(verifier *v)
{
    const ir_insn *in = v->in;
    const ir_operand *callee = &in->src[0];
    const ir_func *target = NULL;
    if (callee->kind == IR_OPND_FUNC && callee->sym < v->m->nfuncs) {
        target = &v->m->funcs[callee->sym];
        if (target->has_callprototype)
            fail(v, "IR-VERIFY-009", "a direct call names '%s', which is a prototype",
                 target->name ? target->name : "?");
    } else if (callee->kind == IR_OPND_REG && in->src[1].kind == IR_OPND_FUNC &&
               in->src[1].sym < v->m->nfuncs) {
        target = &v->m->funcs[in->src[1].sym];
        if (!target->has_callprototype)
            fail(v, "IR-VERIFY-009", "an indirect call's src[1] names '%s', which is not a "
                 "prototype", target->name ? target->name : "?");
    } else if (callee->kind == IR_OPND_FUNC && in->src[1].kind != IR_OPND_NONE) {
        fail(v, "IR-VERIFY-009", "a direct call has no prototype operand");
    }
    check_call_list(v, "arguments", in->xops_first, in->xops_count,
                    target ? target->nparams : 0, target != NULL);
    check_call_list(v, "results", in->xrets_first, in->xrets_count, target ? target->nrets : 0,
                    target != NULL);
}

static void check_lists(verifier *v)
{
    const ir_insn *in = v->in;
    if (in->op == IR_CALL) {
        check_call(v);
        return;
    }
    if (in->xrets_count || (in->op != IR_BRX && in->xops_count)) {
        fail(v, "IR-VERIFY-002", "only call and brx.idx have operand lists (xops/xrets)");
        return;
    }
    if (in->op != IR_BRX)
        return;
    if (!in->xops_count || !list_in_range(v, in->xops_first, in->xops_count)) {
        fail(v, "IR-VERIFY-002", "the branch table %u..%u is empty or outside the function's %u "
             "operand-list entries", in->xops_first, in->xops_first + in->xops_count,
             v->fn->nxops);
        return;
    }
    for (uint32_t i = 0; i < in->xops_count; i++) {
        const ir_operand *o = &v->fn->xops[in->xops_first + i];
        char item[32];
        snprintf(item, sizeof item, "target[%u]", i);
        if (o->kind != IR_OPND_LABEL)
            fail(v, "IR-VERIFY-003", "%s is a %s; it must be a label", item,
                 ir_operand_kind_name((ir_operand_kind)o->kind));
        else
            check_refs(v, item, o, false);
    }
}

/* ---- per instruction, per function, per module ---- */
static void check_insn(verifier *v)
{
    if (!check_encoding(v))
        return;
    const ir_op_info *info = ir_op_info_of((ir_opcode)v->in->op);
    ir_shape shape;
    if (!ir_op_shape((ir_opcode)v->in->op, &shape)) {
        fail(v, "IR-VERIFY-001", "the shape column of %s is malformed", info->name);
        return;
    }
    check_operands(v, &shape);
    check_mods_and_sub(v, info);
    check_mem(v, info, &shape);
    check_lists(v);
}

/* IR-VERIFY-004 for the register table, IR-VERIFY-011 for the end of the body. */
static void check_func(verifier *v)
{
    const ir_func *fn = v->fn;
    v->in = NULL;
    if (fn->nregs && !fn->reg_types) {
        fail(v, "IR-VERIFY-004", "%u registers but no register types", fn->nregs);
    } else {
        for (uint32_t r = 0; r < fn->nregs; r++) {
            ir_type t = (ir_type)fn->reg_types[r];
            if (t == IR_T_NONE || t == IR_T_PRED || t >= IR_T_COUNT) {
                fail(v, "IR-VERIFY-004", "register %u has type %u, not a value type", r, t);
                break;
            }
        }
    }
    if (!fn->ninsns || fn->has_callprototype)
        return;
    if (!fn->insns) {
        fail(v, "IR-VERIFY-002", "%u instructions but no instruction array", fn->ninsns);
        return;
    }
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        v->in = &fn->insns[i];
        v->index = i;
        check_insn(v);
    }
    const ir_insn *last = &fn->insns[fn->ninsns - 1];
    const ir_op_info *info = ir_op_info_of((ir_opcode)last->op);
    if (info && (last->has_guard || (info->flow != IR_FLOW_END && info->flow != IR_FLOW_JUMP)))
        fail(v, "IR-VERIFY-011", "the last instruction of the function can fall through past its "
             "end (it must be an unguarded ret, exit, trap or branch)");
    v->in = NULL;
}

/* IR-VERIFY-012: static ids are consecutive within a function and cover 0..ninsns_total-1 once;
 * a glue instruction has instead the id of the instruction it helps, which is not glue and ends or
 * starts the run of glue it sits in. */
static void check_ids(verifier *v)
{
    const ir_module *m = v->m;
    uint64_t total = 0;
    uint8_t *seen = calloc(m->ninsns_total / 8 + 1, 1);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_func *fn = &m->funcs[f];
        if (!fn->ninsns || !fn->insns || fn->has_callprototype)
            continue;
        v->fn = fn;
        uint32_t first = UINT32_MAX, own = 0;
        for (uint32_t i = 0; i < fn->ninsns; i++)
            total += !fn->insns[i].glue;
        for (uint32_t i = 0; i < fn->ninsns; i++) {
            const ir_insn *in = &fn->insns[i];
            if (in->glue) {
                uint32_t after = i + 1, before = i;
                while (after < fn->ninsns && fn->insns[after].glue)
                    after++;
                while (before > 0 && fn->insns[before - 1].glue)
                    before--;
                int ok = (after < fn->ninsns && fn->insns[after].id == in->id) ||
                         (before > 0 && fn->insns[before - 1].id == in->id);
                if (!ok) {
                    fail(v, "IR-VERIFY-012", "glue instruction %u has id %u, which is not the "
                         "id of the instruction next to its run of glue", i, in->id);
                    break;
                }
                continue;
            }
            uint32_t id = in->id;
            if (first == UINT32_MAX)
                first = id;
            if (id != first + own++ || id >= m->ninsns_total) {
                fail(v, "IR-VERIFY-012", "instruction %u has id %u; ids run consecutively from "
                     "%u and stay below the module's %u", i, id, first, m->ninsns_total);
                break;
            }
            if (seen && (seen[id / 8] >> (id % 8) & 1u)) {
                fail(v, "IR-VERIFY-012", "instruction %u has id %u, which another instruction "
                     "has too", i, id);
                break;
            }
            if (seen)
                seen[id / 8] |= (uint8_t)(1u << (id % 8));
        }
    }
    free(seen);
    v->fn = NULL;
    if (total != m->ninsns_total)
        fail(v, "IR-VERIFY-012", "the functions have %llu instructions besides glue, "
             "ninsns_total says %u",
             (unsigned long long)total, m->ninsns_total);
}

size_t ir_verify(const ir_module *m, diag_list *dl)
{
    verifier v = {m, NULL, NULL, 0, dl, 0};
    if (m->nfuncs && !m->funcs) {
        fail(&v, "IR-VERIFY-002", "%u functions but no function array", m->nfuncs);
        return v.problems;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        v.fn = &m->funcs[f];
        check_func(&v);
    }
    v.fn = NULL;
    check_ids(&v);
    return v.problems;
}
