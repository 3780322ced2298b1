/* The IR printer (ir_print.h). Lines are built in a bounded buffer (`line`), which counts what it
 * could not store so that ir_print_insn can say how long the whole line is. */
#include "ir/ir_print.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct line {
    char *buf;
    size_t size, len; /* len may exceed size - 1: the length the text would have */
} line;

static void put(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = l->len < l->size ? l->size - l->len : 0;
    int n = vsnprintf(room ? l->buf + l->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n;
}

/* Pads with spaces up to column `col` (at least one space). */
static void pad_to(line *l, size_t col)
{
    do
        put(l, " ");
    while (l->len < col);
}

/* ---- names ---- */
static const char *const sreg_names[IR_SREG_ENVREG0] = {
    [IR_SREG_TID_X] = "tid.x",         [IR_SREG_TID_Y] = "tid.y",
    [IR_SREG_TID_Z] = "tid.z",         [IR_SREG_NTID_X] = "ntid.x",
    [IR_SREG_NTID_Y] = "ntid.y",       [IR_SREG_NTID_Z] = "ntid.z",
    [IR_SREG_CTAID_X] = "ctaid.x",     [IR_SREG_CTAID_Y] = "ctaid.y",
    [IR_SREG_CTAID_Z] = "ctaid.z",     [IR_SREG_NCTAID_X] = "nctaid.x",
    [IR_SREG_NCTAID_Y] = "nctaid.y",   [IR_SREG_NCTAID_Z] = "nctaid.z",
    [IR_SREG_LANEID] = "laneid",       [IR_SREG_WARPID] = "warpid",
    [IR_SREG_NWARPID] = "nwarpid",     [IR_SREG_SMID] = "smid",
    [IR_SREG_NSMID] = "nsmid",         [IR_SREG_GRIDID] = "gridid",
    [IR_SREG_LANEMASK_EQ] = "lanemask_eq", [IR_SREG_LANEMASK_LE] = "lanemask_le",
    [IR_SREG_LANEMASK_LT] = "lanemask_lt", [IR_SREG_LANEMASK_GE] = "lanemask_ge",
    [IR_SREG_LANEMASK_GT] = "lanemask_gt", [IR_SREG_CLOCK] = "clock",
    [IR_SREG_CLOCK_HI] = "clock_hi",   [IR_SREG_CLOCK64] = "clock64",
    [IR_SREG_GLOBALTIMER] = "globaltimer", [IR_SREG_GLOBALTIMER_LO] = "globaltimer_lo",
    [IR_SREG_GLOBALTIMER_HI] = "globaltimer_hi",
    [IR_SREG_DYNAMIC_SMEM_SIZE] = "dynamic_smem_size",
    [IR_SREG_TOTAL_SMEM_SIZE] = "total_smem_size", [IR_SREG_AGGR_SMEM_SIZE] = "aggr_smem_size",
    [IR_SREG_WARPSZ] = "warp_sz",
    [IR_SREG_RESERVED_SMEM_BEGIN] = "reserved_smem_offset_begin",
    [IR_SREG_RESERVED_SMEM_END] = "reserved_smem_offset_end",
    [IR_SREG_RESERVED_SMEM_CAP] = "reserved_smem_offset_cap",
    [IR_SREG_RESERVED_SMEM_0] = "reserved_smem_offset_0",
    [IR_SREG_RESERVED_SMEM_1] = "reserved_smem_offset_1",
};
static const char *const cmp_names[] = {"",    "eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                        "lo",  "ls",  "hi",  "hs",  "equ", "neu", "ltu",
                                        "leu", "gtu", "geu", "num", "nan"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rna", "rs",
                                        "rni", "rzi", "rmi", "rpi"};
static const char *const bool_names[] = {"", "and", "or", "xor"};
static const char *const space_words[] = {"", "generic", "global", "shared", "shared::cluster",
                                          "local", "const", "param", "surface", "instruction",
                                          "crs"};

#define NAME_OF(table, i) ((size_t)(i) < sizeof table / sizeof table[0] ? table[i] : NULL)

static void put_reg(line *l, const ir_func *fn, uint32_t reg)
{
    const char *name = fn->reg_names && reg < fn->nregs ? fn->reg_names[reg] : NULL;
    if (name)
        put(l, "%s", name);
    else
        put(l, "r%u", reg);
}

static void put_pred(line *l, const ir_func *fn, uint32_t reg)
{
    const char *name = fn->pred_names && reg < fn->npreds ? fn->pred_names[reg] : NULL;
    if (name)
        put(l, "%s", name);
    else
        put(l, "p%u", reg);
}

/* A variable reference (ir.h: module variable, function variable, parameter or return value). */
static void put_sym(line *l, const ir_module *m, const ir_func *fn, uint32_t sym)
{
    const char *name = NULL;
    if (sym >= IR_SYM_FUNC_BASE) {
        if (sym - IR_SYM_FUNC_BASE < fn->nvars)
            name = fn->vars[sym - IR_SYM_FUNC_BASE].name;
    } else if (sym >= IR_SYM_PARAM_BASE) {
        uint32_t i = sym - IR_SYM_PARAM_BASE;
        if (i >= IR_SYM_RET_OFFSET && i - IR_SYM_RET_OFFSET < fn->nrets)
            name = fn->rets[i - IR_SYM_RET_OFFSET].name;
        else if (i < fn->nparams)
            name = fn->params[i].name;
    } else if (sym < m->nvars) {
        name = m->vars[sym].name;
    }
    if (name)
        put(l, "%s", name);
    else
        put(l, "sym0x%x", sym);
}

static void put_offset(line *l, int64_t off)
{
    if (off > 0)
        put(l, "+%lld", (long long)off);
    else if (off < 0)
        put(l, "-%llu", (unsigned long long)-(uint64_t)off);
}

/* Immediates are raw bits: small ones in decimal, the rest (floats among them) in hex. */
static void put_imm(line *l, uint64_t bits)
{
    if (bits <= 0xFFFF)
        put(l, "%llu", (unsigned long long)bits);
    else
        put(l, "0x%llx", (unsigned long long)bits);
}

static void put_vec(line *l, const ir_func *fn, const ir_insn *in, const ir_operand *o)
{
    unsigned count = o->count <= 8 ? o->count : 8;
    unsigned bits = ir_type_bits((ir_type)in->type);
    unsigned eb = in->op == IR_MOV && count ? bits / count : bits;
    put(l, "{");
    for (unsigned e = 0; e < count; e++) {
        put(l, "%s", e ? ", " : "");
        if (o->vregs[e] == IR_REG_SINK) {
            put(l, "_");
        } else if (o->vregs[e] == IR_REG_IMM) {
            uint64_t v = eb && eb < 64 && e * eb < 64
                             ? ((uint64_t)o->imm >> (e * eb)) & ((1ull << eb) - 1)
                             : (uint64_t)o->imm;
            put_imm(l, v);
        } else {
            put_reg(l, fn, o->vregs[e]);
        }
    }
    put(l, "}");
}

static void put_operand(line *l, const ir_module *m, const ir_func *fn, const ir_insn *in,
                        const ir_operand *o)
{
    switch ((ir_operand_kind)o->kind) {
    case IR_OPND_NONE: put(l, "-"); break;
    case IR_OPND_REG: put_reg(l, fn, o->reg); break;
    case IR_OPND_PRED:
        put(l, "%s", o->neg ? "!" : "");
        put_pred(l, fn, o->reg);
        break;
    case IR_OPND_IMM: put_imm(l, (uint64_t)o->imm); break;
    case IR_OPND_SREG:
        if (o->reg >= IR_SREG_ENVREG0 && o->reg < IR_SREG_COUNT)
            put(l, "%%envreg%u", o->reg - IR_SREG_ENVREG0);
        else if (o->reg < IR_SREG_ENVREG0 && sreg_names[o->reg])
            put(l, "%%%s", sreg_names[o->reg]);
        else
            put(l, "%%sreg%u", o->reg);
        break;
    case IR_OPND_ADDR:
        if (o->bank) /* a constant bank other than the launch's (SASS c[b][...]) */
            put(l, "c%u", o->bank);
        put(l, "[");
        if (o->has_reg && o->count == 2) { /* a 64-bit pair base (SASS .E) */
            put_reg(l, fn, o->vregs[0]);
            put(l, ":");
            put_reg(l, fn, o->vregs[1]);
        } else if (o->has_reg)
            put_reg(l, fn, o->reg);
        else if (o->sym != IR_SYM_NONE)
            put_sym(l, m, fn, o->sym);
        if (o->has_reg || o->sym != IR_SYM_NONE)
            put_offset(l, o->imm);
        else
            put_imm(l, (uint64_t)o->imm);
        put(l, "]");
        break;
    case IR_OPND_VEC: put_vec(l, fn, in, o); break;
    case IR_OPND_LABEL: put(l, "L%lld", (long long)o->imm); break;
    case IR_OPND_FUNC:
        if (o->sym < m->nfuncs && m->funcs[o->sym].name)
            put(l, "%s", m->funcs[o->sym].name);
        else
            put(l, "func%u", o->sym);
        break;
    case IR_OPND_SYM:
        put_sym(l, m, fn, o->sym);
        put_offset(l, o->imm);
        break;
    case IR_OPND_SINK: put(l, "_"); break;
    default: put(l, "?kind%u", o->kind); break;
    }
}

/* ---- one instruction ---- */
static void put_opcode(line *l, const ir_insn *in)
{
    const ir_op_info *info = ir_op_info_of((ir_opcode)in->op);
    if (!info) {
        put(l, "op%u", in->op);
        return;
    }
    put(l, "%s", info->name);
    if (in->frag >= IR_FRAG_A && in->frag <= IR_FRAG_D)
        put(l, ".%c", "abcd"[in->frag - IR_FRAG_A]);
    const char *sub = ir_sub_name((ir_subs)info->subs, in->sub);
    if (!sub)
        put(l, ".sub%u", in->sub);
    else if (*sub)
        put(l, ".%s", sub);
    const char *words[] = {NAME_OF(cmp_names, in->cmp), NAME_OF(bool_names, in->boolop),
                           NAME_OF(rnd_names, in->rnd)};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (words[i] && *words[i])
            put(l, ".%s", words[i]);
    for (unsigned bit = 0; bit < 32; bit++) {
        if (!(in->mods & (1u << bit)))
            continue;
        const char *name = ir_modifier_name(bit);
        if (name)
            put(l, ".%s", name);
        else
            put(l, ".mod%u", bit);
    }
    if (in->type)
        put(l, ".%s", ir_type_name((ir_type)in->type));
    if (in->type2)
        put(l, ".%s", ir_type_name((ir_type)in->type2));
    if (in->type_b)
        put(l, ".%s", ir_type_name((ir_type)in->type_b));
    if (in->type_c)
        put(l, ".%s", ir_type_name((ir_type)in->type_c));
}

/* An operand list of call or brx.idx in fn->xops, as "(a, b)" or "[L1, L2]". */
static void put_list(line *l, const ir_module *m, const ir_func *fn, const ir_insn *in,
                     uint32_t first, uint32_t count, const char *open, const char *close)
{
    put(l, "%s", open);
    for (uint32_t i = 0; i < count; i++) {
        put(l, "%s", i ? ", " : "");
        if (fn->xops && (uint64_t)first + i < fn->nxops)
            put_operand(l, m, fn, in, &fn->xops[first + i]);
        else
            put(l, "?");
    }
    put(l, "%s", close);
}

static void put_mem_field(void *user, const char *field, unsigned value, const char *value_name)
{
    line *l = user;
    if (value_name)
        put(l, " %s=%s", field, value_name);
    else
        put(l, " %s=%u", field, value);
}

size_t ir_print_insn(char *buf, size_t size, const ir_module *m, const ir_func *fn,
                     const ir_insn *in)
{
    line l = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    if (in->glue) /* carries out part of the dialect instruction next to it */
        put(&l, "glue ");
    if (in->has_guard) {
        put(&l, "@%s", in->guard_neg ? "!" : "");
        put_pred(&l, fn, in->guard);
        put(&l, " ");
    }
    put_opcode(&l, in);
    pad_to(&l, 24);
    unsigned ndst = in->ndst <= 2 ? in->ndst : 2, nsrc = in->nsrc <= 4 ? in->nsrc : 4;
    for (unsigned i = 0; i < ndst + nsrc; i++) {
        put(&l, "%s", i ? ", " : "");
        put_operand(&l, m, fn, in, i < ndst ? &in->dst[i] : &in->src[i - ndst]);
    }
    if (in->op == IR_BRX)
        put_list(&l, m, fn, in, in->xops_first, in->xops_count, " [", "]");
    else if (in->op == IR_CALL || in->xops_count)
        put_list(&l, m, fn, in, in->xops_first, in->xops_count, " (", ")");
    if (in->xrets_count)
        put_list(&l, m, fn, in, in->xrets_first, in->xrets_count, " -> (", ")");
    size_t before = l.len;
    put(&l, ndst + nsrc ? " {" : "{"); /* without operands the padding separates already */
    size_t open = l.len;
    ir_mem_attrs_visit(&in->mem, put_mem_field, &l, NULL);
    if (l.len == open) { /* no attributes: take the " {" back */
        l.len = before;
        if (l.len < l.size)
            l.buf[l.len] = '\0';
    } else {
        put(&l, " }");
    }
    pad_to(&l, 64);
    put(&l, "; %u:%u", in->line, in->col);
    if (in->loc_line)
        put(&l, " .loc %u:%u", in->loc_file, in->loc_line);
    return l.len;
}

/* ---- issue controls ---- */
/* A register set of ir_ctrl as ranges: "R0,R2-R3" (the register names of the function). */
static void put_reg_set(line *l, const ir_func *fn, const uint32_t *set)
{
    const char *sep = "";
    for (uint32_t r = 0; r < 32u * IR_CTRL_REG_WORDS; r++) {
        if (!(set[r / 32] >> (r % 32) & 1u))
            continue;
        uint32_t last = r;
        while (last + 1 < 32u * IR_CTRL_REG_WORDS && (set[(last + 1) / 32] >> ((last + 1) % 32) & 1u))
            last++;
        put(l, "%s", sep);
        put_reg(l, fn, r);
        if (last > r) {
            put(l, "-");
            put_reg(l, fn, last);
        }
        sep = ",";
        r = last;
    }
}

/* The issue control of one instruction, compactly: " [S6 Y wr=0 rd=1 req=0,2 r=R0 w=R4]". */
static void put_ctrl(line *l, const ir_func *fn, const ir_ctrl *c)
{
    if (!c->present)
        return;
    put(l, " [S%u%s", c->stall, c->yield ? " Y" : "");
    if (c->wr_sb != IR_SB_NONE)
        put(l, " wr=%u", c->wr_sb);
    if (c->rd_sb != IR_SB_NONE)
        put(l, " rd=%u", c->rd_sb);
    if (c->wait_mask) {
        put(l, " req=");
        const char *sep = "";
        for (unsigned b = 0; b < 8; b++)
            if (c->wait_mask >> b & 1u) {
                put(l, "%s%u", sep, b);
                sep = ",";
            }
    }
    if (c->depbar_sb != IR_SB_NONE)
        put(l, " le=SB%u,%u", c->depbar_sb, c->depbar_le);
    static const uint32_t empty[IR_CTRL_REG_WORDS];
    if (memcmp(c->reads, empty, sizeof empty)) {
        put(l, " r=");
        put_reg_set(l, fn, c->reads);
    }
    if (memcmp(c->writes, empty, sizeof empty)) {
        put(l, " w=");
        put_reg_set(l, fn, c->writes);
    }
    put(l, "]");
}

/* ---- functions and the module ---- */
static int print_insn_line(FILE *out, const ir_module *m, const ir_func *fn, uint32_t index)
{
    char small[512];
    const ir_insn *in = &fn->insns[index];
    if (fn->ctrl) { /* the issue control follows the instruction */
        char whole[1024];
        size_t n = ir_print_insn(whole, sizeof whole, m, fn, in);
        line l = {whole, sizeof whole, n};
        put_ctrl(&l, fn, &fn->ctrl[index]);
        return fprintf(out, "%5u  %s\n", index, whole) < 0 ? -1 : 0;
    }
    size_t n = ir_print_insn(small, sizeof small, m, fn, in);
    char *text = small;
    if (n >= sizeof small) {
        text = malloc(n + 1);
        if (!text)
            return -1;
        ir_print_insn(text, n + 1, m, fn, in);
    }
    int rc = fprintf(out, "%5u  %s\n", index, text) < 0 ? -1 : 0;
    if (text != small)
        free(text);
    return rc;
}

static void print_var(FILE *out, const char *indent, uint32_t i, const ir_var *v)
{
    const char *space = NAME_OF(space_words, v->space);
    fprintf(out, "%svar %u %s: %s %s, %llu bytes, align %u%s%s", indent, i,
            v->name ? v->name : "?", space && *space ? space : "?",
            ir_type_name((ir_type)v->type), (unsigned long long)v->size_bytes, v->align,
            v->is_extern ? ", extern" : "", v->init ? ", initialised" : "");
    if (v->nrelocs)
        fprintf(out, ", %u address%s", v->nrelocs, v->nrelocs == 1 ? "" : "es");
    fputc('\n', out);
}

static void print_params(FILE *out, const char *what, const ir_param *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        fprintf(out, "  %s %u %s: %s%s, %llu bytes at %llu, align %u\n", what, i,
                p[i].name ? p[i].name : "?", ir_type_name((ir_type)p[i].type),
                p[i].is_ptr ? " pointer" : "", (unsigned long long)p[i].size_bytes,
                (unsigned long long)p[i].offset, p[i].align);
}

int ir_print_func(FILE *out, const ir_module *m, const ir_func *fn)
{
    const char *kind = fn->has_callprototype ? "prototype"
                       : fn->is_entry        ? "entry"
                       : fn->ninsns          ? "function"
                                             : "external function";
    fprintf(out, "%s %s: %u instruction%s, %u register%s, %u predicate%s; line %u\n", kind,
            fn->name ? fn->name : "?", fn->ninsns, fn->ninsns == 1 ? "" : "s", fn->nregs,
            fn->nregs == 1 ? "" : "s", fn->npreds, fn->npreds == 1 ? "" : "s", fn->line);
    print_params(out, "param", fn->params, fn->nparams);
    print_params(out, "result", fn->rets, fn->nrets);
    for (uint32_t i = 0; i < fn->nvars; i++)
        print_var(out, "  ", i, &fn->vars[i]);
    if (fn->has_callprototype || !fn->insns)
        return ferror(out) ? -1 : 0;
    for (uint32_t i = 0; i < fn->ninsns; i++)
        if (print_insn_line(out, m, fn, i))
            return -1;
    return ferror(out) ? -1 : 0;
}

int ir_print_module(FILE *out, const ir_module *m)
{
    char suffix[2] = {(char)m->target_arch_specific, '\0'}; /* sm_90a: 'a' */
    fprintf(out, "; IR of %s: version %u.%u, target sm_%u%s, %u-bit addresses, %u function%s, "
            "%u variable%s, %u instruction%s\n", m->path ? m->path : "?", m->version_major,
            m->version_minor, m->target_sm, suffix, m->address_bits, m->nfuncs,
            m->nfuncs == 1 ? "" : "s", m->nvars, m->nvars == 1 ? "" : "s", m->ninsns_total,
            m->ninsns_total == 1 ? "" : "s");
    const ir_machine *mc = &m->machine;
    if (mc->reg_bits || mc->scoreboards || mc->call_conv || mc->params_in_bank)
        fprintf(out, "; machine: %u registers of %u bits%s, %u flag%s, %u-byte instructions "
                "(control word of %u bytes per %u), %s, %u scoreboards, parameters at "
                "c%u[0x%x], window errors %s\n", mc->reg_count, mc->reg_bits,
                mc->reg_pairs ? " in pairs" : "", mc->flag_count, mc->flag_count == 1 ? "" : "s",
                mc->insn_bytes, mc->ctrl_bytes, mc->ctrl_group,
                mc->call_conv == IR_CALL_RETURN_STACK ? "call-return stack" : "parameter frames",
                mc->scoreboards, mc->params_bank, mc->params_offset,
                mc->window_errors == IR_WINDOW_ZERO ? "read zero" : "fault");
    for (uint32_t i = 0; i < m->nvars; i++)
        print_var(out, "", i, &m->vars[i]);
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        fputc('\n', out);
        if (ir_print_func(out, m, &m->funcs[f]))
            return -1;
    }
    return ferror(out) ? -1 : 0;
}
