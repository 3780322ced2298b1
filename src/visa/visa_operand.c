/* The operand forms of vISA instructions (visa_internal.h): execution size and mask, register
 * regions for destinations and sources, typed immediates, variable names. Each parser reads
 * tokens of the current line and reports its own syntax errors. Region rules (vISA
 * specification, "Operands"): a source region `V(r,c)<v;w,h>` starts at row r, column c of the
 * variable (rows of grf_bytes, columns in elements of the variable's type) and reads element
 * (i / w) * v + (i % w) * h for lane i; a destination `V(r,c)<h>` writes element i * h. */
#include <string.h>

#include "visa/visa_internal.h"

static const fe_token *peek(visa_parser *p, size_t ahead) { return fe_cursor_peek(&p->cur, ahead); }
static const fe_token *next(visa_parser *p) { return fe_cursor_next(&p->cur); }

static bool expect(visa_parser *p, char ch, const char *what)
{
    if (fe_cursor_accept_punct(&p->cur, ch))
        return true;
    visa_expected(p, what);
    return false;
}

/* A small unsigned integer into *v (at most `max`). */
static bool small_int(visa_parser *p, uint32_t max, uint32_t *v, const char *what,
                      const char *rule)
{
    const fe_token *t = peek(p, 0);
    if (t->kind != FE_TOK_INT) {
        visa_expected(p, what);
        return false;
    }
    if (t->ivalue > max) {
        visa_error(p, t->line, t->col, rule, "%s %llu is out of range (at most %u)", what,
                   (unsigned long long)t->ivalue, max);
        return false;
    }
    next(p);
    *v = (uint32_t)t->ivalue;
    return true;
}

static bool is_pow2_size(uint32_t n) { return n == 1 || n == 2 || n == 4 || n == 8 || n == 16 || n == 32; }

bool visa_parse_exec(visa_parser *p, visa_exec *out)
{
    memset(out, 0, sizeof *out);
    const fe_token *open = peek(p, 0);
    if (!expect(p, '(', "'(' of the execution size"))
        return false;
    const fe_token *t = peek(p, 0);
    if (t->kind == FE_TOK_IDENT) {
        /* Mn or Mn_NM: n is 1..8, the group of four lanes the instruction starts at. */
        bool nm = t->len == 5 && memcmp(t->text + 2, "_NM", 3) == 0;
        if (!(t->len == 2 || nm) || t->text[0] != 'M' || t->text[1] < '1' || t->text[1] > '8') {
            visa_error(p, t->line, t->col, "VISA-PARSE-005",
                       "bad execution mask '%.*s' (expected M1..M8, optionally with _NM)",
                       (int)t->len, t->text);
            return false;
        }
        out->lane_offset = (uint8_t)((t->text[1] - '1') * 4);
        out->nomask = nm;
        next(p);
        if (!expect(p, ',', "',' after the execution mask"))
            return false;
    }
    const fe_token *s = peek(p, 0);
    uint32_t size = 0;
    if (!small_int(p, 32, &size, "execution size", "VISA-PARSE-005"))
        return false;
    if (!is_pow2_size(size)) {
        visa_error(p, s->line, s->col, "VISA-PARSE-005",
                   "execution size %u is not 1, 2, 4, 8, 16 or 32", size);
        return false;
    }
    if (out->lane_offset + size > 32) {
        visa_error(p, open->line, open->col, "VISA-PARSE-005",
                   "execution size %u at mask offset %u goes past lane 31", size,
                   out->lane_offset);
        return false;
    }
    out->size = (uint8_t)size;
    out->present = 1;
    return expect(p, ')', "')' after the execution size");
}

int32_t visa_parse_var_name(visa_parser *p)
{
    const fe_token *t = peek(p, 0);
    if (t->kind != FE_TOK_IDENT) {
        visa_expected(p, "a variable");
        return -1;
    }
    int32_t v = visa_find_var(p, t);
    if (v < 0) {
        visa_error(p, t->line, t->col, "VISA-SEM-002", "undeclared variable '%.*s'", (int)t->len,
                   t->text);
        return -1;
    }
    next(p);
    return v;
}

/* `(r,c)` after a variable name. */
static bool row_col(visa_parser *p, visa_operand *o)
{
    if (!expect(p, '(', "'(' of a region's row and column"))
        return false;
    if (!small_int(p, 4095, &o->row, "row", "VISA-PARSE-006") ||
        !expect(p, ',', "',' between row and column") ||
        !small_int(p, 4095, &o->col, "column", "VISA-PARSE-006"))
        return false;
    return expect(p, ')', "')' after the column");
}

/* The variable part of a register operand; sets kind, type, var and the position. */
static bool reg_start(visa_parser *p, visa_operand *o)
{
    const fe_token *t = peek(p, 0);
    int32_t v = visa_parse_var_name(p);
    if (v < 0)
        return false;
    visa_var *var = visa_var_at(p, v);
    o->var = v;
    o->line = t->line;
    o->col_pos = t->col;
    o->type = var->type;
    o->kind = var->predef == VISA_PRE_NULL ? VISA_O_NULL
              : var->kind == VISA_V_PRED   ? VISA_O_PRED
                                           : VISA_O_REG;
    return true;
}

bool visa_parse_dst(visa_parser *p, visa_operand *out)
{
    memset(out, 0, sizeof *out);
    out->is_dst = 1;
    out->hstride = 1;
    if (!reg_start(p, out))
        return false;
    if (out->kind == VISA_O_PRED && !fe_token_is_punct(peek(p, 0), '('))
        return true;
    if (!row_col(p, out) || !expect(p, '<', "'<' of the destination stride") ||
        !small_int(p, 16, &out->hstride, "destination stride", "VISA-PARSE-006") ||
        !expect(p, '>', "'>' after the destination stride"))
        return false;
    if (out->hstride == 0) {
        visa_error(p, out->line, out->col_pos, "VISA-SEM-003", "a destination stride of 0");
        return false;
    }
    return true;
}

/* `(-)`, `(abs)` or `(-abs)` before a source. */
static bool source_modifier(visa_parser *p, visa_operand *o)
{
    const fe_token *a = peek(p, 1), *b = peek(p, 2);
    if (!fe_token_is_punct(peek(p, 0), '('))
        return true;
    if (fe_token_is_punct(a, '-') && fe_token_is_punct(b, ')')) {
        o->neg = 1;
        next(p), next(p), next(p);
    } else if (fe_token_is(a, FE_TOK_IDENT, "abs") && fe_token_is_punct(b, ')')) {
        o->abs = 1;
        next(p), next(p), next(p);
    } else if (fe_token_is_punct(a, '-') && fe_token_is(b, FE_TOK_IDENT, "abs") &&
               fe_token_is_punct(peek(p, 3), ')')) {
        o->neg = o->abs = 1;
        next(p), next(p), next(p), next(p);
    }
    return true;
}

/* A typed immediate: [-]number ':' type. Integers keep their bits zero-extended to 64; a
 * negative decimal is negated in the type's width. */
static bool immediate(visa_parser *p, visa_operand *o)
{
    const fe_token *first = peek(p, 0);
    bool minus = fe_cursor_accept_punct(&p->cur, '-');
    const fe_token *t = peek(p, 0);
    if (t->kind != FE_TOK_INT && t->kind != FE_TOK_FLOAT) {
        visa_expected(p, "a source operand");
        return false;
    }
    next(p);
    if (!expect(p, ':', "':' and the type of an immediate"))
        return false;
    const fe_token *ty = peek(p, 0);
    int type = ty->kind == FE_TOK_IDENT ? visa_find_type(ty->text, ty->len) : -1;
    if (type < 0) {
        char buf[64];
        visa_error(p, ty->line, ty->col, "VISA-PARSE-007", "unknown immediate type %s",
                   fe_token_describe(ty, buf, sizeof buf));
        return false;
    }
    next(p);
    o->kind = VISA_O_IMM;
    o->type = (uint8_t)type;
    o->line = first->line;
    o->col_pos = first->col;
    unsigned bits = visa_types[type].bytes * 8u;
    uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (t->kind == FE_TOK_FLOAT) {
        float f = (float)(minus ? -t->fvalue : t->fvalue);
        double d = minus ? -t->fvalue : t->fvalue;
        uint32_t fb;
        memcpy(&fb, &f, 4);
        if (type == VISA_T_DF)
            memcpy(&o->imm, &d, 8);
        else if (type == VISA_T_F)
            o->imm = fb;
        else {
            visa_error(p, t->line, t->col, "VISA-PARSE-007",
                       "a decimal fraction needs type f or df");
            return false;
        }
        return true;
    }
    o->imm = (minus ? (uint64_t)0 - t->ivalue : t->ivalue) & mask;
    return true;
}

bool visa_parse_src(visa_parser *p, visa_operand *out)
{
    memset(out, 0, sizeof *out);
    const fe_token *t = peek(p, 0);
    if (t->kind == FE_TOK_INT || t->kind == FE_TOK_FLOAT || fe_token_is_punct(t, '-'))
        return immediate(p, out);
    if (!source_modifier(p, out) || !reg_start(p, out))
        return false;
    if (out->kind != VISA_O_REG || !fe_token_is_punct(peek(p, 0), '('))
        return true;
    if (!row_col(p, out) || !expect(p, '<', "'<' of a source region") ||
        !small_int(p, 32, &out->vstride, "vertical stride", "VISA-PARSE-006") ||
        !expect(p, ';', "';' after the vertical stride") ||
        !small_int(p, 16, &out->width, "width", "VISA-PARSE-006") ||
        !expect(p, ',', "',' after the width") ||
        !small_int(p, 16, &out->hstride, "horizontal stride", "VISA-PARSE-006") ||
        !expect(p, '>', "'>' after the region"))
        return false;
    if (out->width == 0) {
        visa_error(p, out->line, out->col_pos, "VISA-PARSE-006", "a region of width 0");
        return false;
    }
    return true;
}
