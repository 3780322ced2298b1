/* One vISA instruction line: `[(pred)] mnemonic[.mod...] [(exec)] operands` (docs/visa.md,
 * "Instructions"). The head (predicate, mnemonic, dotted modifiers, execution size) is read
 * here for every instruction; mnemonics that start with `lsc_` then go to visa_lsc_insn
 * (visa_lsc.h), the others to the table row of their mnemonic, whose form says which operands
 * follow. A row without an IR operation is rejected by name. */
#include <string.h>

#include "visa/visa_internal.h"
#include "visa/visa_lower.h"
#include "visa/visa_lsc.h"

static const fe_token *peek(visa_parser *p, size_t ahead) { return fe_cursor_peek(&p->cur, ahead); }
static const fe_token *next(visa_parser *p) { return fe_cursor_next(&p->cur); }

/* `(P1)`, `(!P1)`, `(P1.any)`, `(P1.all)` at the start of a line. */
static bool parse_pred(visa_parser *p, visa_pred *out)
{
    const fe_token *open = next(p);
    out->present = 1;
    out->line = open->line;
    out->col = open->col;
    out->neg = fe_cursor_accept_punct(&p->cur, '!');
    const fe_token *t = peek(p, 0);
    int32_t v = t->kind == FE_TOK_IDENT ? visa_find_var(p, t) : -1;
    if (v < 0 || visa_var_at(p, v)->kind != VISA_V_PRED) {
        visa_error(p, t->line, t->col, "VISA-SEM-007", "a predicate must name a P variable");
        return false;
    }
    next(p);
    out->var = v;
    if (fe_token_is(peek(p, 0), FE_TOK_DOTNAME, ".any"))
        out->ctrl = 'y', next(p);
    else if (fe_token_is(peek(p, 0), FE_TOK_DOTNAME, ".all"))
        out->ctrl = 'l', next(p);
    if (!fe_cursor_accept_punct(&p->cur, ')')) {
        visa_expected(p, "')' closing the predicate");
        return false;
    }
    return true;
}

/* Reads the head up to and including the execution size, when the line has one. */
static bool parse_head(visa_parser *p, visa_insn_head *h)
{
    memset(h, 0, sizeof *h);
    const fe_token *first = peek(p, 0);
    h->line = first->line;
    h->col = first->col;
    if (fe_token_is_punct(first, '(') && !parse_pred(p, &h->pred))
        return false;
    const fe_token *mn = peek(p, 0);
    if (mn->kind != FE_TOK_IDENT || mn->line != h->line) {
        visa_expected(p, "an instruction mnemonic");
        return false;
    }
    h->mnemonic = next(p);
    while (peek(p, 0)->kind == FE_TOK_DOTNAME && peek(p, 0)->line == h->line) {
        const fe_token *mod = next(p);
        if (fe_token_is(mod, FE_TOK_DOTNAME, ".sat"))
            h->sat = 1;
        else if (h->nmods == sizeof h->mods / sizeof h->mods[0]) {
            visa_error(p, mod->line, mod->col, "VISA-PARSE-001", "too many modifiers");
            return false;
        } else
            h->mods[h->nmods++] = mod;
    }
    if (fe_token_is_punct(peek(p, 0), '(') && peek(p, 0)->line == h->line)
        return visa_parse_exec(p, &h->exec);
    return true;
}

static bool at_line_end(visa_parser *p, uint32_t line)
{
    const fe_token *t = peek(p, 0);
    return t->kind == FE_TOK_EOF || t->line != line;
}

/* The operands of a table row's form; ops[0] is the destination (or flag, or label). */
static int parse_operands(visa_parser *p, const visa_insn_head *h, int form, visa_operand *ops)
{
    int nsrc = 0;
    switch (form) {
    case VISA_FORM_NONE:
    case VISA_FORM_NOEXEC: return 0;
    case VISA_FORM_UNARY: nsrc = 1; break;
    case VISA_FORM_BINARY:
    case VISA_FORM_CMP: nsrc = 2; break;
    case VISA_FORM_TERNARY: nsrc = 3; break;
    case VISA_FORM_CARRY: nsrc = 3; break;
    case VISA_FORM_GOTO: {
        const fe_token *l = peek(p, 0);
        if (l->kind != FE_TOK_IDENT || l->line != h->line) {
            visa_expected(p, "a label");
            return -1;
        }
        next(p);
        memset(&ops[0], 0, sizeof ops[0]);
        ops[0].kind = VISA_O_LABEL;
        ops[0].label = fe_labels_get(&p->labels, l->text, l->len, l->line, l->col);
        ops[0].line = l->line;
        ops[0].col_pos = l->col;
        return ops[0].label < 0 ? -1 : 1;
    }
    default: return -1;
    }
    if (at_line_end(p, h->line) || !visa_parse_dst(p, &ops[0]))
        return at_line_end(p, h->line) ? (visa_expected(p, "a destination"), -1) : -1;
    int n = 1;
    if (form == VISA_FORM_CARRY) {
        if (!visa_parse_dst(p, &ops[1]))
            return -1;
        n = 2, nsrc = 2;
    }
    for (int i = 0; i < nsrc; i++, n++) {
        if (at_line_end(p, h->line)) {
            visa_expected(p, "a source operand");
            return -1;
        }
        if (!visa_parse_src(p, &ops[n]))
            return -1;
    }
    return n;
}

bool visa_parse_insn(visa_parser *p)
{
    visa_insn_head h;
    if (!parse_head(p, &h))
        return false;
    const fe_token *mn = h.mnemonic;
    /* The dispatch point of the LSC family: everything `lsc_*` belongs to visa_lsc.c. */
    if (mn->len > 4 && memcmp(mn->text, "lsc_", 4) == 0)
        return visa_lsc_insn(p, &h);
    int op = visa_find_op(mn->text, mn->len);
    if (op < 0) {
        visa_error(p, mn->line, mn->col, "VISA-PARSE-004", "unknown instruction '%.*s'",
                   (int)mn->len, mn->text);
        return false;
    }
    const visa_op_row *row = &visa_op_rows[op];
    if (op == VISA_OP_SVM_ATOMIC)
        return h.exec.present ? visa_lower_svm_atomic(p, &h)
                              : (visa_expected(p, "the execution size of svm_atomic"), false);
    if (row->ir_op >= IR_OP_COUNT) {
        visa_error(p, mn->line, mn->col, row->rule, "'%s' is not executed by gpumemsim",
                   row->mnemonic);
        return false;
    }
    bool wants_exec = row->form != VISA_FORM_NOEXEC;
    if (wants_exec != (bool)h.exec.present) {
        visa_error(p, mn->line, mn->col, "VISA-SEM-001", "'%s' %s an execution size",
                   row->mnemonic, wants_exec ? "needs" : "takes no");
        return false;
    }
    visa_operand ops[5];
    int n = parse_operands(p, &h, row->form, ops);
    if (n < 0)
        return false;
    if (!at_line_end(p, h.line)) {
        visa_expected(p, "the end of the instruction");
        return false;
    }
    return visa_lower_insn(p, &h, op, ops, n);
}
