/* One instruction line of the SASS-style dialect (reference section 1; docs/sass.md, "Lines"):
 *   {prefix} {@{!}Pg} OPCODE{.mod}* {operand {, operand}*} {&req={..}} {&rd=N} {&wr=N} {?sched} ;
 * into a sass_insn. The grammar is generic here: any operand may stand in any slot, and every
 * modifier that belongs to one of the instruction's groups is taken; sass_check.c matches the
 * operands against the instruction's form and applies the rules that span several fields. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sass/sass_internal.h"

static const fe_token *peek(sass_parser *p, size_t ahead) { return fe_cursor_peek(&p->cur, ahead); }
static const fe_token *next(sass_parser *p) { return fe_cursor_next(&p->cur); }
static bool is_punct(const fe_token *t, char c) { return fe_token_is_punct(t, c); }

static void syntax(sass_parser *p, const fe_token *t, const char *what)
{
    char buf[64];
    sass_error(p, t->line, t->col, "SASS-PARSE-001", "expected %s, found %s", what,
               fe_token_describe(t, buf, sizeof buf));
}

/* Whether `t` spells a number in [lo, hi] after `prefix` ("R12" with prefix "R"); sets *n. */
static bool numbered(const fe_token *t, const char *prefix, uint32_t *n)
{
    size_t pl = strlen(prefix);
    if (t->kind != FE_TOK_IDENT || t->len <= pl || t->len > pl + 6 ||
        memcmp(t->text, prefix, pl) != 0)
        return false;
    uint32_t v = 0;
    for (size_t i = pl; i < t->len; i++) {
        if (t->text[i] < '0' || t->text[i] > '9')
            return false;
        v = v * 10 + (uint32_t)(t->text[i] - '0');
    }
    *n = v;
    return true;
}

/* A register name: R0..R254 or RZ into *reg. Returns 0 not a register, 1 valid, -1 out of
 * range (reported). */
static int reg_name(sass_parser *p, const fe_token *t, uint32_t *reg)
{
    if (fe_token_is(t, FE_TOK_IDENT, "RZ")) {
        *reg = SASS_RZ;
        return 1;
    }
    if (!numbered(t, "R", reg))
        return 0;
    if (*reg > 254) {
        sass_error(p, t->line, t->col, "SASS-REG-001", "register '%.*s' is outside R0..R254 "
                   "(and RZ)", (int)t->len, t->text);
        return -1;
    }
    return 1;
}

static int pred_name(sass_parser *p, const fe_token *t, uint32_t *reg)
{
    if (fe_token_is(t, FE_TOK_IDENT, "PT")) {
        *reg = SASS_PT;
        return 1;
    }
    if (!numbered(t, "P", reg))
        return 0;
    if (*reg > 6) {
        sass_error(p, t->line, t->col, "SASS-REG-001", "predicate '%.*s' is outside P0..P6 "
                   "(and PT)", (int)t->len, t->text);
        return -1;
    }
    return 1;
}

/* An integer with an optional leading '-': *v. Reports a syntax error when there is none. */
static bool signed_int(sass_parser *p, int64_t *v)
{
    bool neg = false;
    while (is_punct(peek(p, 0), '-')) {
        neg = !neg;
        next(p);
    }
    const fe_token *t = peek(p, 0);
    if (t->kind != FE_TOK_INT) {
        syntax(p, t, "an integer");
        return false;
    }
    next(p);
    *v = neg ? -(int64_t)t->ivalue : (int64_t)t->ivalue;
    return true;
}

/* The inside of [...] after '[': {Ra} {(+|-) Imm} or Imm, then ']'. */
static bool address(sass_parser *p, sass_opnd *o)
{
    const fe_token *t = peek(p, 0);
    uint32_t reg;
    int r = reg_name(p, t, &reg);
    if (r < 0)
        return false;
    if (r > 0) {
        next(p);
        o->has_base = 1;
        o->reg = reg;
        t = peek(p, 0);
        if (is_punct(t, '+') || is_punct(t, '-')) {
            bool minus = is_punct(t, '-');
            next(p);
            o->imm_line = peek(p, 0)->line;
            o->imm_col = peek(p, 0)->col;
            if (!signed_int(p, &o->imm))
                return false;
            if (minus)
                o->imm = -o->imm;
        }
    } else {
        o->imm_line = t->line;
        o->imm_col = t->col;
        if (!signed_int(p, &o->imm))
            return false;
    }
    if (!is_punct(peek(p, 0), ']')) {
        syntax(p, peek(p, 0), "'+', '-' or ']' in an address");
        return false;
    }
    next(p);
    return true;
}

/* c[bank][offset] or c[bank][Ra + offset] (LDC), the 'c' consumed. */
static bool cbank(sass_parser *p, sass_opnd *o)
{
    int64_t bank;
    o->kind = SASS_O_CBANK;
    if (!fe_cursor_expect_punct(&p->cur, '[', "after 'c'") || !signed_int(p, &bank) ||
        !fe_cursor_expect_punct(&p->cur, ']', "after the bank") ||
        !fe_cursor_expect_punct(&p->cur, '[', "before the offset"))
        return false;
    o->bank = bank < 0 || bank > 0xFFFF ? 0xFFFF : (uint32_t)bank;
    return address(p, o);
}

/* Operand suffixes: .reuse (a scheduling hint without effect in the model) and .H1 (XMAD). */
static bool suffixes(sass_parser *p, sass_opnd *o)
{
    for (const fe_token *t; (t = peek(p, 0))->kind == FE_TOK_DOTNAME; next(p)) {
        if (fe_token_is(t, FE_TOK_DOTNAME, ".reuse") && o->kind == SASS_O_REG)
            continue;
        if (fe_token_is(t, FE_TOK_DOTNAME, ".H1") &&
            (o->kind == SASS_O_REG || o->kind == SASS_O_CBANK)) {
            o->h1 = 1;
            continue;
        }
        if (fe_token_is(t, FE_TOK_DOTNAME, ".CC") && o->kind == SASS_O_REG) {
            o->cc = 1;
            continue;
        }
        if (fe_token_is(t, FE_TOK_DOTNAME, ".H0") &&
            (o->kind == SASS_O_REG || o->kind == SASS_O_CBANK))
            continue; /* the default half, as disassemblers sometimes print it */
        sass_error(p, t->line, t->col, "SASS-OPND-002", "operand suffix '%.*s' is not one this "
                   "operand takes", (int)t->len, t->text);
        return false;
    }
    return true;
}

static const struct {
    const char *name;
    uint32_t sreg;
} sreg_names[] = {
    {"SR_TID.X", IR_SREG_TID_X},     {"SR_TID.Y", IR_SREG_TID_Y},
    {"SR_TID.Z", IR_SREG_TID_Z},     {"SR_CTAID.X", IR_SREG_CTAID_X},
    {"SR_CTAID.Y", IR_SREG_CTAID_Y}, {"SR_CTAID.Z", IR_SREG_CTAID_Z},
    {"SR_LANEID", IR_SREG_LANEID},   {"SR_CLOCKLO", IR_SREG_CLOCK},
};

static bool special(sass_parser *p, const fe_token *t, sass_opnd *o)
{
    char name[48];
    size_t n = t->len < 32 ? t->len : 32;
    memcpy(name, t->text, n);
    const fe_token *d = peek(p, 0);
    if (d->kind == FE_TOK_DOTNAME && d->offset == t->offset + t->len && d->len < 8) {
        memcpy(name + n, d->text, d->len);
        n += d->len;
        next(p);
    }
    name[n] = '\0';
    for (size_t i = 0; i < sizeof sreg_names / sizeof sreg_names[0]; i++)
        if (strcmp(name, sreg_names[i].name) == 0) {
            o->kind = SASS_O_SREG;
            o->reg = sreg_names[i].sreg;
            return true;
        }
    sass_error(p, t->line, t->col, "SASS-SREG-001", "unknown special register '%s'", name);
    return false;
}

/* {sb, ...} after '{'. */
static bool sb_set(sass_parser *p, sass_opnd *o)
{
    o->kind = SASS_O_SBSET;
    if (is_punct(peek(p, 0), '}')) {
        next(p);
        return true;
    }
    do {
        const fe_token *t = peek(p, 0);
        int64_t v;
        uint32_t sb;
        if (numbered(t, "SB", &sb)) {
            next(p);
            v = sb;
        } else if (!signed_int(p, &v)) {
            return false;
        }
        if (v < 0 || v > 5) {
            sass_error(p, t->line, t->col, "SASS-CTRL-003", "scoreboard %lld is outside 0..5",
                       (long long)v);
            return false;
        }
        o->sbmask |= (uint8_t)(1u << v);
    } while (fe_cursor_accept_punct(&p->cur, ','));
    return fe_cursor_expect_punct(&p->cur, '}', "after the scoreboards");
}

static bool name_operand(sass_parser *p, const fe_token *t, sass_opnd *o)
{
    uint32_t n;
    int r;
    if ((r = reg_name(p, t, &n)) != 0) {
        o->kind = SASS_O_REG;
        o->reg = n;
        return r > 0 && suffixes(p, o);
    }
    if ((r = pred_name(p, t, &n)) != 0) {
        o->kind = SASS_O_PRED;
        o->reg = n;
        return r > 0;
    }
    if (numbered(t, "SB", &n)) {
        o->kind = SASS_O_SB;
        o->reg = n;
        return true;
    }
    if (t->len == 1 && t->text[0] == 'c' && is_punct(peek(p, 0), '['))
        return cbank(p, o) && suffixes(p, o);
    if (t->len > 3 && memcmp(t->text, "SR_", 3) == 0)
        return special(p, t, o);
    o->kind = SASS_O_LABEL;
    o->label = fe_labels_get(&p->k.labels, t->text, t->len, t->line, t->col);
    if (o->label < 0) {
        fe_cursor_oom(&p->cur, "SASS-LIMIT-001");
        return false;
    }
    return true;
}

/* One operand with its prefixes ('-', '~', '!') and suffixes. */
static bool operand(sass_parser *p, sass_opnd *o)
{
    const fe_token *t = peek(p, 0);
    o->line = t->line;
    o->col = t->col;
    if (is_punct(t, '-') || is_punct(t, '~') || is_punct(t, '!')) {
        const fe_token *after = peek(p, 1);
        if (is_punct(t, '-') && (after->kind == FE_TOK_INT || is_punct(after, '-'))) {
            o->kind = SASS_O_IMM;
            return signed_int(p, &o->imm);
        }
        next(p);
        next(p);
        if (after->kind != FE_TOK_IDENT || !name_operand(p, after, o)) {
            if (after->kind != FE_TOK_IDENT)
                syntax(p, after, "a register after the prefix");
            return false;
        }
        bool ok = is_punct(t, '!') ? o->kind == SASS_O_PRED : o->kind == SASS_O_REG;
        if (!ok) {
            sass_error(p, t->line, t->col, "SASS-OPND-002", "prefix '%c' does not apply to "
                       "this operand", t->punct);
            return false;
        }
        o->neg = is_punct(t, '-');
        o->inv = is_punct(t, '~');
        o->not_ = is_punct(t, '!');
        return true;
    }
    next(p);
    if (t->kind == FE_TOK_INT) {
        o->kind = SASS_O_IMM;
        o->imm = (int64_t)t->ivalue;
        return true;
    }
    if (is_punct(t, '[')) {
        o->kind = SASS_O_MEM;
        return address(p, o);
    }
    if (is_punct(t, '{'))
        return sb_set(p, o);
    if (t->kind == FE_TOK_IDENT)
        return name_operand(p, t, o);
    syntax(p, t, "an operand");
    return false;
}

/* ---- modifiers ---- */
/* Whether tokens ahead..ahead+n-1 are adjacent dotted names spelling `text` together. */
static bool spells(sass_parser *p, size_t n, const char *text)
{
    size_t at = 0, len = strlen(text);
    for (size_t i = 0; i < n; i++) {
        const fe_token *t = peek(p, i);
        if (t->kind != FE_TOK_DOTNAME ||
            (i && t->offset != peek(p, i - 1)->offset + peek(p, i - 1)->len))
            return false;
        if (at + t->len > len || memcmp(text + at, t->text, t->len) != 0)
            return false;
        at += t->len;
    }
    return at == len;
}

/* Takes the modifiers after the mnemonic; the longest spelling in one of the op's groups wins. */
static bool modifiers(sass_parser *p, sass_insn *in)
{
    const sass_op_row *row = &sass_op_rows[in->op];
    while (peek(p, 0)->kind == FE_TOK_DOTNAME) {
        const fe_token *t = peek(p, 0);
        int best = -1;
        size_t best_n = 0;
        for (size_t i = 0; i < sass_mod_row_count; i++) {
            const sass_mod_row *m = &sass_mod_rows[i];
            bool allowed = row->groups & (UINT64_C(1) << m->group);
            if (m->group == SASS_G_BOOL && (row->groups & G_BOOL2))
                allowed = true;
            for (size_t n = 3; allowed && n >= 1; n--)
                if (n > best_n && spells(p, n, m->text)) {
                    best = (int)i;
                    best_n = n;
                    break;
                }
        }
        if (best < 0) {
            sass_error(p, t->line, t->col, "SASS-PARSE-003", "%s does not take the modifier "
                       "'%.*s'", row->mnemonic, (int)t->len, t->text);
            return false;
        }
        uint8_t g = sass_mod_rows[best].group;
        if (g == SASS_G_BOOL && in->has[g] && (row->groups & G_BOOL2))
            g = SASS_G_BOOL2;
        if (in->has[g]) {
            sass_error(p, t->line, t->col, "SASS-PARSE-004", "a second %s modifier '%.*s'",
                       sass_group_names[g], (int)t->len, t->text);
            return false;
        }
        in->has[g] = 1;
        in->val[g] = sass_mod_rows[best].value;
        in->mod_col[g] = t->col;
        for (size_t i = 0; i < best_n; i++)
            next(p);
    }
    return true;
}

/* ---- control fields ---- */
/* A ?sched spelling into stall and yield (reference 2.2). */
static bool sched(sass_parser *p, sass_ctrl *c)
{
    const fe_token *t = peek(p, 0);
    char s[40];
    unsigned n = 0;
    int used = 0;
    if (t->kind != FE_TOK_IDENT) {
        syntax(p, t, "a ?sched spelling");
        return false;
    }
    next(p);
    size_t len = t->len < sizeof s - 1 ? t->len : sizeof s - 1;
    memcpy(s, t->text, len);
    s[len] = '\0';
    bool ok = false;
    if (strcmp(s, "DRAIN") == 0) {
        c->stall = 0, c->yield = 1, ok = true;
    } else if (sscanf(s, "WAIT%u_END_GROUP%n", &n, &used) == 1 && (size_t)used == len) {
        ok = n <= 15;
        c->stall = (uint8_t)n, c->yield = 1;
    } else if (sscanf(s, "WAIT%u%n", &n, &used) == 1 && (size_t)used == len) {
        ok = n >= 1 && n <= 15;
        c->stall = (uint8_t)n, c->yield = n >= 12;
    } else if (sscanf(s, "W%u%n", &n, &used) == 1 && (size_t)used == len) {
        ok = n >= 1 && n <= 11;
        c->stall = (uint8_t)n, c->yield = 0;
    }
    if (!ok) {
        sass_error(p, t->line, t->col, "SASS-CTRL-006", "'?%s' is not a ?sched spelling "
                   "(WAITn_END_GROUP n 0..15, DRAIN, Wn n 1..11, WAITn n 1..15)", s);
        return false;
    }
    return true;
}

static bool scoreboard(sass_parser *p, uint8_t *sb, uint32_t *line, uint32_t *col)
{
    const fe_token *t = peek(p, 0);
    int64_t v;
    *line = t->line;
    *col = t->col;
    if (!fe_cursor_expect_punct(&p->cur, '=', "after the field name") || !signed_int(p, &v))
        return false;
    if (v < 0 || v > 5) {
        sass_error(p, t->line, t->col + 1, "SASS-CTRL-003", "scoreboard %lld is outside 0..5",
                   (long long)v);
        return false;
    }
    *sb = (uint8_t)v;
    return true;
}

/* The control fields after the operands, in the order &req, &rd, &wr, ?sched. */
static bool ctrl_fields(sass_parser *p, sass_ctrl *c)
{
    int last = -1;
    for (;;) {
        const fe_token *t = peek(p, 0);
        int field;
        if (is_punct(t, '&')) {
            const fe_token *n = peek(p, 1);
            field = fe_token_is(n, FE_TOK_IDENT, "req") ? 0
                    : fe_token_is(n, FE_TOK_IDENT, "rd") ? 1
                    : fe_token_is(n, FE_TOK_IDENT, "wr") ? 2 : -1;
            if (field < 0) {
                syntax(p, n, "'req', 'rd' or 'wr' after '&'");
                return false;
            }
        } else if (is_punct(t, '?')) {
            field = 3;
        } else {
            return true;
        }
        if (field <= last) {
            sass_error(p, t->line, t->col, "SASS-CTRL-007", "control field out of order or "
                       "repeated (the order is &req, &rd, &wr, ?sched)");
            return false;
        }
        if (c->has_prefix) {
            sass_error(p, t->line, t->col, "SASS-CTRL-009", "control fields after a control "
                       "prefix: give the controls once");
            return false;
        }
        last = field;
        next(p);
        if (field == 3) {
            c->sched_line = t->line, c->sched_col = t->col, c->has_sched = 1;
            if (!sched(p, c))
                return false;
            continue;
        }
        next(p);
        if (field == 0) {
            sass_opnd set = {0};
            c->has_req = 1;
            if (!fe_cursor_expect_punct(&p->cur, '=', "after &req") ||
                !fe_cursor_expect_punct(&p->cur, '{', "before the scoreboards") ||
                !sb_set(p, &set))
                return false;
            c->req = set.sbmask;
        } else if (field == 1) {
            c->has_rd = 1;
            if (!scoreboard(p, &c->rd, &c->rd_line, &c->rd_col))
                return false;
            c->rd_line = t->line, c->rd_col = t->col;
        } else {
            c->has_wr = 1;
            if (!scoreboard(p, &c->wr, &c->wr_line, &c->wr_col))
                return false;
            c->wr_line = t->line, c->wr_col = t->col;
        }
    }
}

/* ---- control prefixes (reference 2.1) ---- */
static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

/* maxas `ww:r:w:y:s`: hex wait mask, scoreboards + 1, Y for yield, hex stall. */
static bool maxas(const fe_token *t, sass_ctrl *c)
{
    const char *s = t->text;
    int w1 = hexval(s[0]), w0 = hexval(s[1]);
    if (s[0] == '-' && s[1] == '-')
        c->req = 0;
    else if (w1 < 0 || w0 < 0 || (w1 << 4 | w0) > 0x3F)
        return false;
    else
        c->req = (uint8_t)(w1 << 4 | w0);
    for (int i = 0; i < 2; i++) {
        char f = s[3 + 2 * i];
        uint8_t *sb = i ? &c->wr : &c->rd;
        if (f == '-')
            *sb = IR_SB_NONE;
        else if (f >= '1' && f <= '6')
            *sb = (uint8_t)(f - '1');
        else
            return false;
    }
    if (s[7] != '-' && s[7] != 'Y' && s[7] != 'y')
        return false;
    c->yield = s[7] != '-';
    int st = hexval(s[9]);
    if (st < 0)
        return false;
    c->stall = (uint8_t)st;
    return true;
}

/* CuAssembler `[B0--3--:R1:W2:Y:S05]`: scoreboard i at position i of B, raw R and W indices,
 * Y or '-', decimal stall. */
static bool cuas(const fe_token *t, sass_ctrl *c)
{
    char s[48];
    size_t n = t->len < sizeof s - 1 ? t->len : sizeof s - 1;
    memcpy(s, t->text, n);
    s[n] = '\0';
    char b[8], r, w, y;
    unsigned stall;
    int used = 0;
    if (sscanf(s, "[B%6[0-5-]:R%c:W%c:%c:S%2u]%n", b, &r, &w, &y, &stall, &used) != 5 ||
        (size_t)used != n || strlen(b) != 6 || stall > 15 || (y != 'Y' && y != '-'))
        return false;
    c->req = 0;
    for (int i = 0; i < 6; i++) {
        if (b[i] == '-')
            continue;
        if (b[i] != '0' + i)
            return false;
        c->req |= (uint8_t)(1u << i);
    }
    if ((r != '-' && (r < '0' || r > '5')) || (w != '-' && (w < '0' || w > '5')))
        return false;
    c->rd = r == '-' ? IR_SB_NONE : (uint8_t)(r - '0');
    c->wr = w == '-' ? IR_SB_NONE : (uint8_t)(w - '0');
    c->yield = y == 'Y';
    c->stall = (uint8_t)stall;
    return true;
}

static bool prefix(sass_parser *p, sass_ctrl *c)
{
    const fe_token *t = next(p);
    bool ok = t->kind == SASS_TOK_MAXAS ? maxas(t, c) : cuas(t, c);
    if (!ok) {
        sass_error(p, t->line, t->col, "SASS-CTRL-008", "malformed %s control prefix '%.*s'",
                   t->kind == SASS_TOK_MAXAS ? "maxas" : "CuAssembler", (int)t->len, t->text);
        return false;
    }
    c->has_prefix = c->has_sched = c->has_req = 1;
    c->has_rd = c->rd != IR_SB_NONE;
    c->has_wr = c->wr != IR_SB_NONE;
    c->rd_line = c->wr_line = c->sched_line = t->line;
    c->rd_col = c->wr_col = c->sched_col = t->col;
    return true;
}

bool sass_parse_insn(sass_parser *p, sass_insn *in)
{
    size_t start = p->cur.pos;
    memset(in, 0, sizeof *in);
    in->ctrl.rd = in->ctrl.wr = IR_SB_NONE;
    bool ok = true;
    if (peek(p, 0)->kind == SASS_TOK_MAXAS || peek(p, 0)->kind == SASS_TOK_CUAS)
        ok = prefix(p, &in->ctrl);
    if (ok && is_punct(peek(p, 0), '@')) {
        next(p);
        in->has_guard = 1;
        in->guard_neg = fe_cursor_accept_punct(&p->cur, '!');
        const fe_token *g = peek(p, 0);
        uint32_t reg;
        int r = pred_name(p, g, &reg);
        in->guard_col = g->col;
        if (r == 0)
            syntax(p, g, "a predicate after '@'");
        ok = r > 0;
        if (ok)
            next(p);
        in->guard = (uint8_t)reg;
    }
    const fe_token *mn = peek(p, 0);
    if (ok && mn->kind != FE_TOK_IDENT) {
        syntax(p, mn, "an instruction");
        ok = false;
    }
    int op = ok ? sass_find_op(mn->text, mn->len) : -1;
    if (ok && op < 0) {
        sass_error(p, mn->line, mn->col, "SASS-PARSE-002", "unknown instruction '%.*s'",
                   (int)mn->len, mn->text);
        ok = false;
    }
    if (ok) {
        next(p);
        in->op = (uint16_t)op;
        in->line = mn->line;
        in->col = mn->col;
    }
    ok = ok && modifiers(p, in);
    const fe_token *t = peek(p, 0);
    if (ok && !is_punct(t, ';') && !is_punct(t, '&') && !is_punct(t, '?')) {
        do {
            if (in->nopnd == SASS_MAX_OPNDS) {
                sass_error(p, peek(p, 0)->line, peek(p, 0)->col, "SASS-OPND-001",
                           "more than %d operands", SASS_MAX_OPNDS);
                ok = false;
                break;
            }
            ok = operand(p, &in->o[in->nopnd++]);
        } while (ok && fe_cursor_accept_punct(&p->cur, ','));
    }
    for (unsigned i = 0; ok && i < in->nopnd; i++) {
        /* `IADD R4.CC, ...`, as disassemblers print it, is IADD.CC R4, ... */
        if (!in->o[i].cc)
            continue;
        if (i != 0 || !(sass_op_rows[in->op].groups & G_CC) || in->has[SASS_G_CC]) {
            sass_error(p, in->o[i].line, in->o[i].col, "SASS-OPND-002", ".CC belongs to the "
                       "destination of IADD or IADD32I, once");
            ok = false;
        }
        in->has[SASS_G_CC] = 1;
        in->mod_col[SASS_G_CC] = in->o[i].col;
    }
    ok = ok && ctrl_fields(p, &in->ctrl);
    if (ok && !is_punct(peek(p, 0), ';')) {
        syntax(p, peek(p, 0), "',', a control field or ';'");
        ok = false;
    }
    if (!ok) {
        /* one bad line costs one diagnostic: skip to its ';' or to the end of its line */
        uint32_t line = p->cur.tok[start].line;
        p->cur.pos = start;
        while (peek(p, 0)->kind != FE_TOK_EOF && peek(p, 0)->line == line &&
               !is_punct(peek(p, 0), ';'))
            next(p);
        fe_cursor_accept_punct(&p->cur, ';');
        return false;
    }
    next(p);
    return true;
}
