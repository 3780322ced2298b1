/* The SASS checker: every legality rule of the dialect on one kernel's parsed instructions
 * (../reference/sass-dialect.md sections 1, 2.4, 2.5 and 4; the CCTL/CCTLL and LDL/LDS seed pages;
 * docs/sass.md, "Rules"), then the control fields' defaults. Operands are matched against the
 * instruction's form (sass_internal.h) written as a small slot string; the memory, cache-control
 * and atomic rules live in sass_check_mem.c. */
#include <stdio.h>
#include <string.h>

#include "sass/sass_check.h"

/* Slot strings, one word per operand: kind letters R P I C M S L B (SB) T (SB set), then the
 * flags the slot allows: '-' negation, '~' inversion, '!' predicate negation, 'h' .H1,
 * '?' optional (only at the end). */
static const char *const form_slots[] = {
    [SASS_FORM_MOV] = "R RIC",          [SASS_FORM_MOV32I] = "R I",
    [SASS_FORM_S2R] = "R S",            [SASS_FORM_IADD] = "R R- RIC-",
    [SASS_FORM_IADD32I] = "R R I",      [SASS_FORM_ISCADD] = "R R RIC I",
    [SASS_FORM_BINARY] = "R R RIC",     [SASS_FORM_TERNARY] = "R R RIC R",
    [SASS_FORM_LOP] = "R R RIC~",       [SASS_FORM_LOP32I] = "R R I",
    [SASS_FORM_LOP3] = "R R RIC R I",   [SASS_FORM_XMAD] = "R Rh RICh R",
    [SASS_FORM_IMNMX] = "R R RIC P!",   [SASS_FORM_ISETP] = "P P R RIC P!",
    [SASS_FORM_PSETP] = "P P P! P! P!", [SASS_FORM_SEL] = "R R RIC P!",
    [SASS_FORM_LOAD] = "R M",           [SASS_FORM_STORE] = "M R",
    [SASS_FORM_LDC] = "R C",            [SASS_FORM_ATOM] = "R M R R?",
    [SASS_FORM_RED] = "M R",            [SASS_FORM_CCTL] = "M?",
    [SASS_FORM_BAR] = "RI? RI?",        [SASS_FORM_DEPBAR] = "T",
    [SASS_FORM_LABEL] = "L",            [SASS_FORM_NONE] = "",
    [SASS_FORM_SRC1] = "RI",            [SASS_FORM_DST1] = "R",
    [SASS_FORM_SURFACE] = "R M R RI",
};

static const char kind_letter[] = {
    [SASS_O_REG] = 'R', [SASS_O_PRED] = 'P', [SASS_O_IMM] = 'I', [SASS_O_CBANK] = 'C',
    [SASS_O_MEM] = 'M', [SASS_O_SREG] = 'S', [SASS_O_LABEL] = 'L', [SASS_O_SB] = 'B',
    [SASS_O_SBSET] = 'T',
};

static const char *const kind_words[] = {
    ['R'] = "a register", ['P'] = "a predicate", ['I'] = "an immediate",
    ['C'] = "a constant-bank operand c[b][o]", ['M'] = "an address [Ra + imm]",
    ['S'] = "a special register", ['L'] = "a label", ['B'] = "a scoreboard SBn",
    ['T'] = "a scoreboard set {sb, ...}",
};

/* The slot string of `in`: its form's, or the one its modifiers choose (BAR, DEPBAR). */
static const char *slots_of(const sass_insn *in)
{
    const sass_op_row *row = &sass_op_rows[in->op];
    if (row->form == SASS_FORM_BAR) {
        if (in->val[SASS_G_BAROP] == IR_BAR_ARRIVE)
            return "RI RI";
        if (in->val[SASS_G_BAROP] == SASS_BAR_RED) {
            const char *d = in->val[SASS_G_BARRED] == IR_BAR_RED_POPC ? "R" : "P";
            if (in->nopnd == 4)
                return d[0] == 'R' ? "R RI RI P!" : "P RI RI P!";
            return d[0] == 'R' ? "R RI P!" : "P RI P!";
        }
        return form_slots[SASS_FORM_BAR];
    }
    if (row->form == SASS_FORM_SURFACE) {
        /* a leading predicate is SUATOM's sparse status Ps (the checker rejects it elsewhere) */
        static const char *const su[2][3] = {{"R M R RI", "R M RI", "M R RI"},
                                             {"P R M R RI", "P R M RI", "P M R RI"}};
        unsigned kind = in->op == SASS_OP_SUATOM ? 0 : in->op == SASS_OP_SULD ? 1 : 2;
        return su[in->nopnd && in->o[0].kind == SASS_O_PRED][kind];
    }
    if (row->form == SASS_FORM_DEPBAR) {
        if (!in->has[SASS_G_DEPBAR])
            return "T";
        return in->val[SASS_G_DEPBAR] == SASS_DEPBAR_LE ? "B I T?" : "";
    }
    return form_slots[row->form];
}

/* Matches the operands against the slot string. Reports SASS-OPND-001/-002 or SASS-FLOW-002. */
static bool check_form(sass_parser *p, const sass_insn *in)
{
    const sass_op_row *row = &sass_op_rows[in->op];
    const char *s = slots_of(in);
    unsigned slot = 0, required = 0, total = 0;
    for (const char *c = s; *c; c++)
        if (c == s || c[-1] == ' ') {
            total++;
            const char *end = strchr(c, ' ');
            if (!memchr(c, '?', end ? (size_t)(end - c) : strlen(c)))
                required++;
        }
    bool label_form = row->form == SASS_FORM_LABEL;
    for (const char *c = s; slot < in->nopnd && *c; slot++) {
        const sass_opnd *o = &in->o[slot];
        size_t n = strcspn(c, " ");
        char letter = kind_letter[o->kind];
        size_t kinds = strcspn(c, "-~!h? ");
        if (!memchr(c, letter, kinds)) {
            const char *rule = label_form || o->kind == SASS_O_LABEL ? "SASS-FLOW-002"
                                                                       : "SASS-OPND-001";
            sass_error(p, o->line, o->col, rule, "operand %u of %s must be %s", slot + 1,
                       row->mnemonic, kind_words[(unsigned char)c[0]]);
            return false;
        }
        bool bad = (o->neg && !memchr(c, '-', n)) || (o->inv && !memchr(c, '~', n)) ||
                   (o->not_ && !memchr(c, '!', n)) || (o->h1 && !memchr(c, 'h', n));
        if (bad) {
            sass_error(p, o->line, o->col, "SASS-OPND-002", "operand %u of %s does not take "
                       "its %s", slot + 1, row->mnemonic,
                       o->h1 ? ".H1" : o->not_ ? "'!'" : o->inv ? "'~'" : "'-'");
            return false;
        }
        c += n;
        while (*c == ' ')
            c++;
    }
    if (in->nopnd < required || in->nopnd > total) {
        const sass_opnd *o = in->nopnd > total ? &in->o[total] : NULL;
        sass_error(p, o ? o->line : in->line, o ? o->col : in->col,
                   label_form ? "SASS-FLOW-002" : "SASS-OPND-001",
                   "%s takes %u%s operand%s, not %u", row->mnemonic, required,
                   total > required ? " or more" : "", total == 1 ? "" : "s", in->nopnd);
        return false;
    }
    return true;
}

/* ---- immediates and constant-bank operands ---- */
bool sass_imm_fits(sass_parser *p, const sass_opnd *o, int64_t lo, int64_t hi, const char *field)
{
    if (o->imm >= lo && o->imm <= hi)
        return true;
    sass_error(p, o->line, o->col, "SASS-IMM-001", "immediate %lld does not fit %s (%lld..%lld)",
               (long long)o->imm, field, (long long)lo, (long long)hi);
    return false;
}

static bool check_cbank(sass_parser *p, const sass_opnd *o, bool ldc)
{
    if (o->bank > 31 || (!ldc && o->has_base) || (!ldc && (o->imm < 0 || o->imm > 0xFFFF)) ||
        (!ldc && o->imm % 4)) {
        sass_error(p, o->line, o->col, "SASS-ADDR-003", "c[0x%x][...]: the bank must be 0..31 "
                   "and the offset a multiple of 4 in 0..0xffff%s", o->bank,
                   ldc ? "" : ", without a register");
        return false;
    }
    if (ldc && (o->imm < -0x8000 || o->imm > 0xFFFF)) {
        sass_error(p, o->imm_line ? o->imm_line : o->line, o->imm_col ? o->imm_col : o->col,
                   "SASS-ADDR-002", "LDC offset %lld does not fit ImmS16", (long long)o->imm);
        return false;
    }
    return true;
}

/* The immediate fields of the ALU forms. */
static bool check_alu_imms(sass_parser *p, const sass_insn *in)
{
    const int64_t s20_lo = -0x80000, s20_hi = 0x7FFFF;
    bool ok = true;
    for (unsigned i = 0; i < in->nopnd; i++) {
        const sass_opnd *o = &in->o[i];
        if (o->kind == SASS_O_CBANK)
            ok &= check_cbank(p, o, in->op == SASS_OP_LDC);
        if (o->kind != SASS_O_IMM)
            continue;
        switch (sass_op_rows[in->op].form) {
        case SASS_FORM_MOV32I: case SASS_FORM_IADD32I: case SASS_FORM_LOP32I:
            ok &= sass_imm_fits(p, o, -0x80000000LL, 0xFFFFFFFFLL, "Imm32");
            break;
        case SASS_FORM_ISCADD:
            ok &= i == 3 ? sass_imm_fits(p, o, 0, 31, "the shift Sh5")
                         : sass_imm_fits(p, o, s20_lo, s20_hi, "ImmS20");
            break;
        case SASS_FORM_LOP3:
            ok &= i == 4 ? sass_imm_fits(p, o, 0, 255, "the LUT")
                         : sass_imm_fits(p, o, s20_lo, s20_hi, "ImmS20");
            break;
        case SASS_FORM_XMAD: ok &= sass_imm_fits(p, o, 0, 0xFFFF, "Imm16"); break;
        case SASS_FORM_BAR: {
            unsigned id_slot = in->val[SASS_G_BAROP] == SASS_BAR_RED; /* after BAR.RED's Rd */
            ok &= i == id_slot ? sass_imm_fits(p, o, 0, 15, "the barrier Imm4")
                               : sass_imm_fits(p, o, 0, 4095, "the thread count Imm12");
            break;
        }
        case SASS_FORM_DEPBAR: ok &= sass_imm_fits(p, o, 0, 63, "Imm6"); break;
        case SASS_FORM_SRC1: ok &= sass_imm_fits(p, o, 0, 256, "the stack depth"); break;
        case SASS_FORM_SURFACE: break; /* the slot #tsPtrIdxU13: SASS-SURF-008 */
        default: ok &= sass_imm_fits(p, o, s20_lo, s20_hi, "ImmS20"); break;
        }
    }
    return ok;
}

/* ---- the ALU and control rules ---- */
static bool need(sass_parser *p, const sass_insn *in, bool ok, const char *rule, const char *msg)
{
    if (!ok)
        sass_error(p, in->line, in->col, rule, "%s %s", sass_op_rows[in->op].mnemonic, msg);
    return ok;
}

static bool check_alu(sass_parser *p, const sass_insn *in)
{
    const uint32_t *v = in->val;
    switch (in->op) {
    case SASS_OP_LOP:
        return need(p, in, in->has[SASS_G_LOPOP], "SASS-LOP-001",
                    "needs an operation: .AND, .OR, .XOR or .PASS_B");
    case SASS_OP_LOP32I:
        return need(p, in, in->has[SASS_G_LOPOP] && v[SASS_G_LOPOP] != SASS_LOP_PASS_B,
                    "SASS-LOP-001", "needs an operation: .AND, .OR or .XOR");
    case SASS_OP_LOP3:
        return need(p, in, in->has[SASS_G_LUT], "SASS-LOP-001", "is written LOP3.LUT");
    case SASS_OP_ISETP:
        if (!need(p, in, in->has[SASS_G_CMP] && in->has[SASS_G_BOOL], "SASS-ISETP-002",
                  "needs a comparison (.LT .EQ .LE .GT .NE .GE) and a boolean operator "
                  "(.AND .OR .XOR)"))
            return false;
        if (in->has[SASS_G_X] && v[SASS_G_CMP] != IR_CMP_LT && v[SASS_G_CMP] != IR_CMP_GE) {
            sass_error(p, in->line, in->mod_col[SASS_G_CMP], "SASS-ISETP-001", "ISETP.X is "
                       "modelled with .LT and .GE only");
            return false;
        }
        return true;
    case SASS_OP_PSETP:
        return need(p, in, in->has[SASS_G_BOOL] && in->has[SASS_G_BOOL2], "SASS-ISETP-002",
                    "needs two boolean operators (PSETP.AND.OR ...)");
    case SASS_OP_IMNMX:
        if (in->nopnd == 4 && in->o[3].reg != SASS_PT) {
            sass_error(p, in->o[3].line, in->o[3].col, "SASS-IMNMX-001", "IMNMX selects min "
                       "with PT and max with !PT; a register predicate is not modelled");
            return false;
        }
        return true;
    case SASS_OP_MEMBAR:
        return need(p, in, in->has[SASS_G_SCOPE], "SASS-MEMBAR-001",
                    "needs a scope: .CTA, .GL, .SYS or .VC");
    case SASS_OP_BAR:
        if (!need(p, in, in->has[SASS_G_BAROP], "SASS-BAR-001",
                  "needs an operation: .SYNC, .ARV or .RED"))
            return false;
        if (v[SASS_G_BAROP] == SASS_BAR_SCAN || v[SASS_G_BAROP] == SASS_BAR_SYNCALL) {
            sass_error(p, in->line, in->mod_col[SASS_G_BAROP], "SASS-UNSUP-001", "BAR.SCAN and "
                       "BAR.SYNCALL are not modelled");
            return false;
        }
        return need(p, in, in->has[SASS_G_BARRED] == (v[SASS_G_BAROP] == SASS_BAR_RED),
                    "SASS-BAR-001", ".RED needs .POPC, .AND or .OR, and only .RED takes one");
    case SASS_OP_BRA:
        return need(p, in, !in->has[SASS_G_LMT], "SASS-UNSUP-001", ".LMT is not modelled");
    case SASS_OP_EXIT:
        return need(p, in, !in->has[SASS_G_KEEP], "SASS-UNSUP-001",
                    ".KEEPREFCOUNT is not modelled");
    default:
        return true;
    }
}

/* A label after the kernel's last instruction labels nothing a branch could reach. */
static bool check_label(sass_parser *p, const sass_insn *in, size_t n)
{
    for (unsigned i = 0; i < in->nopnd; i++) {
        const sass_opnd *o = &in->o[i];
        if (o->kind != SASS_O_LABEL || o->imm < (int64_t)n)
            continue;
        const fe_label *l = fe_labels_at(&p->k.labels, o->label);
        sass_error(p, o->line, o->col, "SASS-LABEL-001", "label '%.*s' labels no instruction "
                   "(it follows the kernel's last one)", (int)l->len, l->name);
        return false;
    }
    return true;
}

/* DEPBAR.LE SBn, k {, {...}}: the scoreboard of its first operand. */
static bool check_depbar(sass_parser *p, const sass_insn *in)
{
    if (in->op != SASS_OP_DEPBAR)
        return true;
    if (in->nopnd >= 1 && in->o[0].kind == SASS_O_SB && in->o[0].reg > 5) {
        sass_error(p, in->o[0].line, in->o[0].col, "SASS-DEPBAR-001", "scoreboard SB%u is "
                   "outside SB0..SB5", in->o[0].reg);
        return false;
    }
    return true;
}

/* The scoreboards instruction `in` waits on before it issues. */
static uint8_t waits_of(const sass_insn *in)
{
    uint8_t w = in->ctrl.req;
    if (in->op == SASS_OP_DEPBAR) {
        if (in->has[SASS_G_DEPBAR] && in->val[SASS_G_DEPBAR] == SASS_DEPBAR_ALL)
            w |= 0x3F;
        for (unsigned i = 0; i < in->nopnd; i++)
            w |= in->o[i].kind == SASS_O_SBSET ? in->o[i].sbmask
                 : in->o[i].kind == SASS_O_SB  ? (uint8_t)(1u << (in->o[i].reg & 7)) : 0;
    }
    return w;
}

/* &rd and &wr against the instruction's class (reference 2.4). */
static bool check_fields(sass_parser *p, const sass_insn *in)
{
    const sass_op_row *row = &sass_op_rows[in->op];
    const sass_ctrl *c = &in->ctrl;
    if (c->has_wr && row->ctrl != SASS_CT_VAR) {
        sass_error(p, c->wr_line, c->wr_col, "SASS-CTRL-001", "%s writes no register through a "
                   "scoreboard: it takes no &wr", row->mnemonic);
        return false;
    }
    if (c->has_rd && sass_cctl_is_dispatch_ivall(in)) {
        sass_error(p, c->rd_line, c->rd_col, "SASS-CCTL-005", "CCTL.C.IVALL and CCTL.I.IVALL "
                   "run in dispatch: they take no &rd");
        return false;
    }
    if (c->has_rd && row->ctrl == SASS_CT_ALU) {
        sass_error(p, c->rd_line, c->rd_col, "SASS-CTRL-002", "%s has fixed latency: it takes "
                   "no &rd", row->mnemonic);
        return false;
    }
    return true;
}

/* Minimum stalls (reference 2.5) and the defaults of missing fields (docs/sass.md). */
static unsigned check_stalls(sass_parser *p, sass_insn *ins, size_t n)
{
    unsigned errors = 0;
    for (size_t i = 0; i < n; i++) {
        sass_insn *in = &ins[i];
        sass_ctrl *c = &in->ctrl;
        unsigned min = sass_op_rows[in->op].stall;
        if (sass_cctl_is_dispatch_ivall(in) || sass_cctl_is_crs_wball(in))
            min = 5;
        uint8_t sets = 0;
        if (c->wr != IR_SB_NONE)
            sets |= (uint8_t)(1u << c->wr);
        if (c->rd != IR_SB_NONE)
            sets |= (uint8_t)(1u << c->rd);
        bool activation = i + 1 < n && (waits_of(&ins[i + 1]) & sets);
        if (!c->has_sched) {
            c->stall = (uint8_t)(activation && min < 2 ? 2 : min);
            c->yield = 0;
            continue;
        }
        if (c->stall < min) {
            sass_error(p, c->sched_line, c->sched_col, "SASS-CTRL-004", "%s needs a stall of at "
                       "least %u (it has %u)", sass_op_rows[in->op].mnemonic, min, c->stall);
            errors++;
        } else if (activation && c->stall < 2) {
            sass_error(p, c->sched_line, c->sched_col, "SASS-CTRL-005", "the next instruction "
                       "waits on a scoreboard this one sets: it needs a stall of at least 2 (it "
                       "has %u)", c->stall);
            errors++;
        }
    }
    return errors;
}

/* The kernel's last instruction must not fall through (the IR's end rule). */
static bool check_end(sass_parser *p, const sass_insn *last)
{
    static const uint16_t ends[] = {SASS_OP_EXIT, SASS_OP_BRA, SASS_OP_RET, SASS_OP_SYNC,
                                    SASS_OP_BRK, SASS_OP_CAL};
    bool end = false;
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        end |= last->op == ends[i];
    bool always = !last->has_guard || (last->guard == SASS_PT && !last->guard_neg);
    if (end && always)
        return true;
    sass_error(p, last->line, last->col, "SASS-FLOW-001", "the kernel's last instruction can "
               "fall through past its end (end it with an unpredicated EXIT, BRA, RET, SYNC, BRK "
               "or CAL)");
    return false;
}

unsigned sass_check_kernel(sass_parser *p)
{
    sass_kernel *k = &p->k;
    sass_insn *ins = k->insns.data;
    size_t n = k->insns.count;
    unsigned errors = 0;
    for (size_t i = 0; i < n; i++) {
        sass_insn *in = &ins[i];
        if (!check_form(p, in)) {
            errors++;
            continue;
        }
        bool ok = check_alu_imms(p, in) && check_label(p, in, n);
        ok = ok && check_alu(p, in) && check_depbar(p, in);
        ok = ok && sass_check_mem(p, in);
        ok = ok && check_fields(p, in);
        errors += !ok;
    }
    if (errors)
        return errors;
    errors += check_stalls(p, ins, n);
    errors += sass_check_registers(p);
    if (n && !check_end(p, &ins[n - 1]))
        errors++;
    return errors;
}
