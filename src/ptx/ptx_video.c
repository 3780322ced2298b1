/* The video instructions of PTX (PTX ISA 9.1 "Video Instructions"; docs/ptx.md, "Video
 * instructions"): the scalar vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad, vset and the
 * SIMD vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4, vset2/4. Their modifiers are
 * read from the opcode text here (three types, or two for vset, .sat, the secondary operation,
 * the shift mode, vmad's scale and .po, vset's comparison) and checked as ptxas 13 checks them
 * for sm_80 (tests/diff/gen_video_cases.c asks it); the operand selectors (%r1.b0, %r2.b3210,
 * d.h10) are split off the register names, and vmad's negated operands (-%r2) become the
 * control word's negation of the product or of c. Everything lowers to IR_VOP, IR_VOP2 or IR_VOP4
 * with the selectors, mask and secondary operation in the control word src[3] (ir.h,
 * IR_VIDCTL_*); the arithmetic is src/exec/alu_video.c's. */
#include <string.h>

#include "ptx/ptx_internal.h"

typedef struct video_form {
    unsigned lanes;   /* 1 scalar, 2 or 4 SIMD */
    unsigned op;      /* IR_VID_* */
    unsigned ntypes;  /* 3, or 2 for vset */
    ir_type types[3]; /* d, a, b (vset: a, b) */
    unsigned op2;     /* IR_VIDOP2_* */
    int sat, clamp, wrap, po;
    unsigned scale;   /* 0, 1 .shr7, 2 .shr15 */
    unsigned cmp;     /* ir_cmp, vset */
} video_form;

static bool word_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* The operation and lane count from the mnemonic. */
static void parse_mnemonic(const char *mn, video_form *f)
{
    static const struct { const char *name; unsigned op; } ops[] = {
        {"vadd", IR_VID_ADD}, {"vsub", IR_VID_SUB}, {"vabsdiff", IR_VID_ABSDIFF},
        {"vmin", IR_VID_MIN}, {"vmax", IR_VID_MAX}, {"vavrg", IR_VID_AVRG},
        {"vshl", IR_VID_SHL}, {"vshr", IR_VID_SHR}, {"vmad", IR_VID_MAD}, {"vset", IR_VID_SET}};
    size_t n = strlen(mn);
    char last = mn[n - 1];
    f->lanes = last == '2' ? 2u : last == '4' ? 4u : 1u;
    if (f->lanes > 1)
        n--;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i].name) == n && memcmp(ops[i].name, mn, n) == 0)
            f->op = ops[i].op;
    f->ntypes = f->op == IR_VID_SET ? 2u : 3u;
}

/* One modifier word (without its dot); false when it is not a video modifier or repeats one. */
static bool take_word(video_form *f, const char *w, size_t n, unsigned *ntypes)
{
    static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static const char *const op2s[] = {"add", "min", "max"};
    if (word_is(w, n, "u32") || word_is(w, n, "s32")) {
        if (*ntypes == 3)
            return false;
        f->types[(*ntypes)++] = w[0] == 's' ? IR_T_S32 : IR_T_U32;
        return true;
    }
    for (unsigned i = 0; i < 6; i++)
        if (word_is(w, n, cmps[i]) && f->op == IR_VID_SET && !f->cmp) {
            f->cmp = IR_CMP_EQ + i;
            return true;
        }
    for (unsigned i = 0; i < 3; i++)
        if (word_is(w, n, op2s[i]) && !f->op2) {
            f->op2 = IR_VIDOP2_ADD + i;
            return true;
        }
    if (word_is(w, n, "sat")) { /* ptxas takes .sat more than once */
        f->sat = 1;
        return true;
    }
    int *flag = word_is(w, n, "clamp") ? &f->clamp
              : word_is(w, n, "wrap") ? &f->wrap : word_is(w, n, "po") ? &f->po : NULL;
    if (flag && !*flag) {
        *flag = 1;
        return true;
    }
    if ((word_is(w, n, "shr7") || word_is(w, n, "shr15")) && !f->scale) {
        f->scale = n == 4 ? 1u : 2u;
        return true;
    }
    return false;
}

/* The combinations ptxas rejects, by form. */
static const char *form_error(const video_form *f, unsigned ntypes)
{
    int shift = f->op == IR_VID_SHL || f->op == IR_VID_SHR, mad = f->op == IR_VID_MAD;
    if (ntypes != f->ntypes)
        return f->ntypes == 2 ? "vset takes two types, .atype.btype (.u32 or .s32)"
                              : "a video instruction takes three types, .dtype.atype.btype "
                                "(.u32 or .s32)";
    if (f->op == IR_VID_SET && !f->cmp)
        return "vset needs a comparison: .eq, .ne, .lt, .le, .gt or .ge";
    if (f->op == IR_VID_SET && f->sat)
        return ".sat does not apply to vset";
    if (shift && f->clamp == f->wrap)
        return "vshl and vshr need one shift mode, .clamp or .wrap";
    if (shift && f->types[2] != IR_T_U32)
        return "the shift amount of vshl and vshr is .u32";
    if (!shift && (f->clamp || f->wrap))
        return ".clamp and .wrap apply to vshl and vshr only";
    if (!mad && (f->po || f->scale))
        return ".po, .shr7 and .shr15 apply to vmad only";
    if (mad && f->op2)
        return "vmad takes no secondary operation";
    if (f->lanes > 1 && f->op2 > IR_VIDOP2_ADD)
        return "the SIMD video instructions' only secondary operation is .add";
    if (f->lanes > 1 && f->op2 && f->sat)
        return ".sat and .add do not go together";
    return NULL;
}

bool ptx_check_video(ptx_parser *p, ptx_insn_ctx *c)
{
    video_form f = {0};
    parse_mnemonic(c->row->mnemonic, &f);
    size_t skip = strlen(c->row->mnemonic);
    unsigned ntypes = 0;
    for (size_t i = skip; i < c->text_len;) {
        size_t j = i + 1;
        while (j < c->text_len && c->text[j] != '.') j++;
        if (!take_word(&f, c->text + i + 1, j - i - 1, &ntypes)) {
            char msg[96];
            snprintf(msg, sizeof msg, "'%.*s' is not a modifier of this video instruction or "
                     "repeats one", (int)(j - i), c->text + i);
            return ptx_insn_fail(p, c, "PTX-VIDEO-001", msg);
        }
        i = j;
    }
    const char *err = form_error(&f, ntypes);
    if (err)
        return ptx_insn_fail(p, c, "PTX-VIDEO-001", err);
    ir_insn *in = c->insn;
    in->sub = (uint8_t)f.op;
    in->type = (uint8_t)(f.ntypes == 2 ? IR_T_U32 : f.types[0]);
    in->type2 = (uint8_t)f.types[f.ntypes - 2];
    in->type_b = (uint8_t)f.types[f.ntypes - 1];
    in->cmp = (uint8_t)f.cmp;
    in->mods = f.sat ? IR_MOD_SAT : 0;
    uint64_t w = (uint64_t)f.op2 << IR_VIDCTL_OP2 | (uint64_t)f.clamp << IR_VIDCTL_CLAMP |
                 (uint64_t)f.scale << IR_VIDCTL_SCALE | (uint64_t)f.po << IR_VIDCTL_PO;
    in->src[3] = (ir_operand){.kind = IR_OPND_IMM, .sym = IR_SYM_NONE, .imm = (int64_t)w};
    return true;
}

/* The selector suffix of operand o (".b0", ".b3210", ".h10"), or an empty name: a register name
 * with a trailing dotted word made of a 'b' or 'h' and digits. *base gets the name without it. */
static ptx_name split_selector(const ptx_popnd *o, ptx_popnd *base)
{
    *base = *o;
    ptx_name sel = {0};
    if (o->kind != PTX_P_NAME || o->ival)
        return sel;
    const char *t = o->name.text;
    uint32_t n = o->name.len, dot = n;
    while (dot > 0 && t[dot - 1] != '.') dot--;
    if (dot < 2 || dot + 1 >= n || (t[dot] != 'b' && t[dot] != 'h'))
        return sel;
    for (uint32_t i = dot + 1; i < n; i++)
        if (t[i] < '0' || t[i] > '9')
            return sel;
    sel = (ptx_name){t + dot, n - dot, o->line, o->col};
    base->name.len = dot - 1;
    return sel;
}

/* A source selector into its control field: scalar b0..b3/h0/h1 (IR_VIDSEL_*); SIMD .hxy (vop2,
 * digits 0..3) or .bxyzw (vop4, digits 0..7), the rightmost digit naming element 0. Returns
 * false when the selector is not one of those. No selector: the word, or the defaults (a:
 * elements of a, b: elements of b). */
static bool source_selector(unsigned lanes, const ptx_name *s, bool is_b, unsigned *out)
{
    if (!s->text) {
        *out = 0;
        for (unsigned i = 0; i < lanes && lanes > 1; i++)
            *out |= (i + (is_b ? lanes : 0)) << (4 * i);
        return true;
    }
    unsigned digits = s->len - 1;
    char kind = s->text[0];
    if (lanes == 1) {
        unsigned d = (unsigned)(s->text[1] - '0');
        if (digits != 1 || (kind == 'b' ? d > 3 : d > 1))
            return false;
        *out = kind == 'b' ? IR_VIDSEL_B0 + d : IR_VIDSEL_H0 + d;
        return true;
    }
    if (digits != lanes || kind != (lanes == 2 ? 'h' : 'b'))
        return false;
    *out = 0;
    for (unsigned i = 0; i < lanes; i++) {
        unsigned d = (unsigned)(s->text[s->len - 1 - i] - '0');
        if (d >= 2 * lanes)
            return false;
        *out |= d << (4 * i);
    }
    return true;
}

/* The destination's selector: scalar merge position (IR_VIDSEL_*), SIMD mask (distinct digits
 * in descending order, each naming an element). */
static bool dest_selector(unsigned lanes, const ptx_name *s, unsigned *out)
{
    if (!s->text) {
        *out = lanes == 1 ? IR_VIDSEL_WORD : (1u << lanes) - 1;
        return true;
    }
    if (lanes == 1)
        return source_selector(1, s, false, out);
    if (s->text[0] != (lanes == 2 ? 'h' : 'b'))
        return false;
    *out = 0;
    int prev = 10;
    for (uint32_t i = 1; i < s->len; i++) {
        int d = s->text[i] - '0';
        if (d >= prev || d >= (int)lanes)
            return false;
        *out |= 1u << d;
        prev = d;
    }
    return true;
}

/* d, a, b{, c}: registers (scalar a, b, c may be immediates) with their selectors. */
void ptx_lower_video(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    unsigned lanes = in->op == IR_VOP2 ? 2u : in->op == IR_VOP4 ? 4u : 1u;
    unsigned op2 = (unsigned)((uint64_t)in->src[3].imm >> IR_VIDCTL_OP2) & 3u;
    unsigned lo = lanes > 1 || in->sub == IR_VID_MAD || op2 ? 4u : 3u;
    if (c->nops < lo || c->nops > 4) {
        ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes %s operands, found %u",
                     (int)c->text_len, c->text, lo == 4 ? "4" : "3 or 4", c->nops);
        return;
    }
    ptx_popnd ops[4];
    ptx_name sel[4];
    unsigned neg[4] = {0};
    for (unsigned i = 0; i < c->nops; i++) {
        ptx_popnd o = p->ops[i];
        if (o.kind == PTX_P_NEG && i > 0 && in->sub == IR_VID_MAD) {
            o.kind = PTX_P_NAME;
            neg[i] = 1;
        }
        sel[i] = split_selector(&o, &ops[i]);
    }
    if (neg[1] || neg[2] || neg[3]) {
        unsigned po = (unsigned)((uint64_t)in->src[3].imm >> IR_VIDCTL_PO) & 1u;
        unsigned neg_ab = neg[1] ^ neg[2]; /* -a * -b is not negated */
        if ((po && (neg_ab || neg[3])) || (neg_ab && neg[3])) {
            ptx_insn_fail(p, c, "PTX-VIDEO-002", po ? ".po does not go with negated operands"
                 : "vmad negates either the product (one of a, b) or c, not both");
            return;
        }
        in->src[3].imm = (int64_t)((uint64_t)in->src[3].imm |
                                   (uint64_t)neg_ab << IR_VIDCTL_NEGAB |
                                   (uint64_t)neg[3] << IR_VIDCTL_NEGC);
    }
    unsigned dsel, asel, bsel;
    if (!dest_selector(lanes, &sel[0], &dsel) || !source_selector(lanes, &sel[1], false, &asel) ||
        !source_selector(lanes, &sel[2], true, &bsel)) {
        unsigned bad = !dest_selector(lanes, &sel[0], &dsel) ? 0
                     : !source_selector(lanes, &sel[1], false, &asel) ? 1 : 2;
        ptx_insn_fail_at(p, c, &p->ops[bad], "PTX-VIDEO-002", "not a selector this operand takes");
        return;
    }
    if (c->nops > 3 && sel[3].text) {
        ptx_insn_fail_at(p, c, &p->ops[3], "PTX-VIDEO-002", "the third source takes no selector");
        return;
    }
    if (lanes == 1 && sel[0].text && (op2 || c->nops < 4 || in->sub == IR_VID_MAD)) {
        ptx_insn_fail_at(p, c, &p->ops[0], "PTX-VIDEO-002", in->sub == IR_VID_MAD
                ? "vmad takes no destination selector"
                : "a destination selector (merge) needs c and no secondary operation");
        return;
    }
    for (unsigned i = 1; lanes > 1 && i < c->nops; i++)
        if (ops[i].kind != PTX_P_NAME) {
            ptx_insn_fail_at(p, c, &p->ops[i], "PTX-OPND-002", "SIMD video operands are registers");
            return;
        }
    for (unsigned i = 0; i < c->nops; i++) {
        uint32_t slot;
        const ptx_binding *b = ops[i].kind == PTX_P_NAME
                                   ? ptx_lookup(p, ops[i].name.text, ops[i].name.len, &slot)
                                   : NULL;
        if (b && b->kind == PTX_SYM_REG && ir_type_bits((ir_type)b->type) != 32) {
            ptx_insn_fail_at(p, c, &p->ops[i], "PTX-TYPE-002", "video operands are 32-bit registers");
            return;
        }
    }
    ir_type ts[4] = {(ir_type)in->type, (ir_type)in->type2, (ir_type)in->type_b, (ir_type)in->type};
    if (!ptx_lower_dst(p, c, &ops[0], ts[0], &in->dst[0]))
        return;
    for (unsigned i = 1; i < c->nops; i++)
        if (!ptx_lower_src(p, c, &ops[i], ts[i], &in->src[i - 1]))
            return;
    in->ndst = 1;
    in->nsrc = 4;
    if (c->nops == 3 || (lanes == 1 && in->sub != IR_VID_MAD && !op2 && !sel[0].text))
        in->src[2] = (ir_operand){.kind = IR_OPND_NONE, .sym = IR_SYM_NONE}; /* c unused */
    in->src[3].imm = (int64_t)((uint64_t)in->src[3].imm | (uint64_t)asel << IR_VIDCTL_ASEL |
                               (uint64_t)bsel << IR_VIDCTL_BSEL | (uint64_t)dsel << IR_VIDCTL_DSEL);
}
