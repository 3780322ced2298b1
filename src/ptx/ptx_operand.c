/* PTX operand syntax: registers and names, special registers such as %tid.x, immediates in every
 * literal form, address expressions [base+offset] and [image, coordinates], vector braces
 * {a, b, _}, dual destinations d|p and {a, b, c, d}|p, negated predicates !p, negated registers
 * -%r (vmad), and the
 * parenthesised argument lists of call. It produces ptx_popnd records only; what an operand
 * means for an instruction is decided in ptx_lower.c. */
#include <string.h>

#include "ptx/ptx_internal.h"

static void set_name(ptx_name *n, const ptx_token *t)
{
    n->text = t->text;
    n->len = t->len;
    n->line = t->line;
    n->col = t->col;
}

/* %tid.x and friends: a %-name directly followed by a dotted component is one name. */
static void parse_name(ptx_parser *p, ptx_name *n)
{
    const ptx_token *t = ptx_next(p);
    set_name(n, t);
    const ptx_token *d = ptx_peek(p, 0);
    if (t->text[0] == '%' && d->kind == PTX_TOK_DOTNAME && d->offset == t->offset + t->len) {
        ptx_next(p);
        n->len += d->len;
    }
}

static bool parse_name_list(ptx_parser *p, ptx_popnd *o, char close, bool allow_sink);

/* The coordinates of a surface address [a, b]: a vector {x, y, ...} or one register or integer. */
static bool parse_image_coords(ptx_parser *p, ptx_popnd *o)
{
    o->kind = PTX_P_IMAGE;
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_is_punct(t, '{'))
        return parse_name_list(p, o, '}', false);
    o->count = 1;
    if (t->kind == PTX_TOK_IDENT) {
        parse_name(p, &o->elems[0]);
        return true;
    }
    set_name(&o->elems[0], t);
    o->elems[0].text = NULL;
    o->elem_is_imm[0] = 1;
    return ptx_parse_const_expr(p, &o->elem_imm[0]);
}

static bool parse_address(ptx_parser *p, ptx_popnd *o)
{
    ptx_next(p); /* '[' */
    o->kind = PTX_P_ADDR;
    const ptx_token *t = ptx_peek(p, 0);
    if (t->kind == PTX_TOK_IDENT && !(t->len == 7 && !memcmp(t->text, "WARP_SZ", 7))) {
        parse_name(p, &o->name);
        o->has_base = 1;
        if (ptx_accept_punct(p, '+')) {
            if (!ptx_parse_const_expr(p, &o->ival))
                return false;
        } else if (ptx_is_punct(ptx_peek(p, 0), '-')) {
            if (!ptx_parse_const_expr(p, &o->ival))
                return false;
        }
        if (ptx_accept_punct(p, ',')) {
            if (!parse_image_coords(p, o))
                return false;
            if (ptx_accept_punct(p, ',')) { /* [a, s, b]: an explicit sampler s */
                o->has_sampler = 1;
                memset(o->elems, 0, sizeof o->elems);
                memset(o->elem_is_imm, 0, sizeof o->elem_is_imm);
                if (!parse_image_coords(p, o))
                    return false;
            }
            return ptx_expect_punct(p, ']', "to close the address");
        }
    } else if (!ptx_parse_const_expr(p, &o->ival)) {
        return false;
    }
    return ptx_expect_punct(p, ']', "to close the address");
}

/* {a, b, _, d} and (a, b): element names, '_' stored with text NULL. */
static bool parse_name_list(ptx_parser *p, ptx_popnd *o, char close, bool allow_sink)
{
    const ptx_token *open = ptx_next(p);
    o->count = 0;
    if (close == ')' && ptx_accept_punct(p, ')'))
        return true;
    do {
        const ptx_token *t = ptx_peek(p, 0);
        unsigned most = close == '}' ? PTX_MAX_VEC_ELEMS : PTX_MAX_LIST_ELEMS;
        if (o->count == most) {
            ptx_limit_error(p, open->line, open->col, "more than %u elements in a %s", most,
                            close == '}' ? "vector operand" : "call argument list");
            return false;
        }
        if (close == '}' && t->kind != PTX_TOK_IDENT) {
            ptx_name *e = &o->elems[o->count];
            set_name(e, t);
            e->text = NULL;
            o->elem_is_imm[o->count++] = 1;
            if (!ptx_parse_const_expr(p, &o->elem_imm[o->count - 1]))
                return false;
            continue;
        }
        if (t->kind != PTX_TOK_IDENT) {
            ptx_error(p, t, "PTX-OPND-002", "expected a register or parameter name in %s",
                      close == '}' ? "a vector operand" : "an argument list");
            return false;
        }
        ptx_name *e = &o->elems[o->count++];
        parse_name(p, e);
        if (e->len == 1 && e->text[0] == '_') {
            if (!allow_sink) {
                ptx_error(p, t, "PTX-OPND-002", "'_' is not allowed here");
                return false;
            }
            e->text = NULL;
        }
    } while (ptx_accept_punct(p, ','));
    char what[32];
    snprintf(what, sizeof what, "to close the %s", close == '}' ? "vector" : "list");
    return ptx_expect_punct(p, close, what);
}

static bool parse_float_literal(ptx_parser *p, ptx_popnd *o, bool neg)
{
    const ptx_token *t = ptx_next(p);
    if (t->kind == PTX_TOK_FLOAT) {
        o->kind = PTX_P_FLOAT;
        o->fval = neg ? -t->fvalue : t->fvalue;
    } else if (t->kind == PTX_TOK_F32BITS) {
        o->kind = PTX_P_F32BITS;
        o->ival = (int64_t)(t->ivalue ^ (neg ? 0x80000000u : 0));
    } else {
        o->kind = PTX_P_F64BITS;
        o->ival = (int64_t)(t->ivalue ^ (neg ? UINT64_C(0x8000000000000000) : 0));
    }
    return true;
}

static bool is_float_token(const ptx_token *t)
{
    return t->kind == PTX_TOK_FLOAT || t->kind == PTX_TOK_F32BITS || t->kind == PTX_TOK_F64BITS;
}

static bool parse_named(ptx_parser *p, ptx_popnd *o, bool call_lists)
{
    parse_name(p, &o->name);
    o->kind = PTX_P_NAME;
    if (o->name.len == 1 && o->name.text[0] == '_') {
        o->kind = PTX_P_SINK;
        return true;
    }
    const ptx_token *n = ptx_peek(p, 0);
    if (ptx_is_punct(n, '|')) {
        ptx_next(p);
        const ptx_token *t = ptx_peek(p, 0);
        if (t->kind != PTX_TOK_IDENT) {
            ptx_error(p, t, "PTX-OPND-002", "expected a predicate after '|'");
            return false;
        }
        parse_name(p, &o->name2);
        o->kind = PTX_P_PAIR;
        return true;
    }
    if (!call_lists && (ptx_is_punct(n, '+') || ptx_is_punct(n, '-')) &&
        (ptx_peek(p, 1)->kind == PTX_TOK_INT || ptx_is_punct(ptx_peek(p, 1), '('))) {
        if (ptx_is_punct(n, '+'))
            ptx_next(p);
        return ptx_parse_const_expr(p, &o->ival);
    }
    return true;
}

static bool parse_one(ptx_parser *p, ptx_popnd *o, bool call_lists)
{
    const ptx_token *t = ptx_peek(p, 0);
    memset(o, 0, sizeof *o);
    o->line = t->line;
    o->col = t->col;
    if (ptx_is_punct(t, '['))
        return parse_address(p, o);
    if (ptx_is_punct(t, '{')) {
        o->kind = PTX_P_VEC;
        if (!parse_name_list(p, o, '}', true))
            return false;
        if (ptx_accept_punct(p, '|')) { /* {a, b, c, d}|p of tex and tld4 */
            if (ptx_peek(p, 0)->kind != PTX_TOK_IDENT) {
                ptx_error(p, ptx_peek(p, 0), "PTX-OPND-002", "expected a predicate after '|'");
                return false;
            }
            parse_name(p, &o->name2);
        }
        return true;
    }
    if (call_lists && ptx_is_punct(t, '(')) {
        o->kind = PTX_P_LIST;
        return parse_name_list(p, o, ')', false);
    }
    if (ptx_is_punct(t, '-') && ptx_peek(p, 1)->kind == PTX_TOK_IDENT &&
        ptx_peek(p, 1)->text[0] == '%') {
        ptx_next(p);
        o->kind = PTX_P_NEG;
        parse_name(p, &o->name);
        return true;
    }
    if (ptx_is_punct(t, '!') && ptx_peek(p, 1)->kind == PTX_TOK_IDENT) {
        ptx_next(p);
        o->kind = PTX_P_NOT;
        parse_name(p, &o->name);
        return true;
    }
    if (t->kind == PTX_TOK_IDENT && !(t->len == 7 && !memcmp(t->text, "WARP_SZ", 7) &&
                                      !ptx_is_punct(ptx_peek(p, 1), ',') &&
                                      !ptx_is_punct(ptx_peek(p, 1), ';')))
        return parse_named(p, o, call_lists);
    if (is_float_token(t))
        return parse_float_literal(p, o, false);
    if (ptx_is_punct(t, '-') && is_float_token(ptx_peek(p, 1))) {
        ptx_next(p);
        return parse_float_literal(p, o, true);
    }
    o->kind = PTX_P_INT;
    return ptx_parse_const_expr(p, &o->ival);
}

int ptx_parse_operands(ptx_parser *p, bool call_lists, uint32_t *count)
{
    *count = 0;
    if (ptx_is_punct(ptx_peek(p, 0), ';'))
        return 0;
    do {
        if (*count == PTX_MAX_OPERANDS) {
            ptx_error(p, ptx_peek(p, 0), "PTX-OPND-001", "more than %d operands",
                      PTX_MAX_OPERANDS);
            return -1;
        }
        if (!parse_one(p, &p->ops[*count], call_lists))
            return -1;
        (*count)++;
    } while (ptx_accept_punct(p, ','));
    return 0;
}
