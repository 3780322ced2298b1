/* PTX declarations: register declarations (.reg, with %r<N> ranges), variables in every state space
 * at module and function scope with their alignment, array dimensions and initialisers (numbers,
 * addresses of variables and functions, generic(var)), parameter lists, and integer constant
 * expressions, and the machine a PTX module is written for. It does not parse instructions
 * (ptx_insn.c) or function structure (ptx_parse.c). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_internal.h"

enum { MAX_INIT_BYTES = 64u << 20, MAX_DIMS = 8 };

bool ptx_is_type_name(const ptx_token *t, ir_type *out)
{
    if (t->kind != PTX_TOK_DOTNAME)
        return false;
    /* u16x2/s16x2 are instruction types only (their operands are .b32); no variable has them */
    for (int i = IR_T_PRED; i < IR_T_COUNT; i++) {
        if (i == IR_T_U16X2 || i == IR_T_S16X2)
            continue;
        const char *n = ir_type_name((ir_type)i);
        if (strlen(n) + 1 == t->len && memcmp(t->text + 1, n, t->len - 1) == 0) {
            *out = (ir_type)i;
            return true;
        }
    }
    return false;
}

bool ptx_is_space_name(const ptx_token *t, ir_space *out)
{
    static const struct {
        const char *name;
        ir_space space;
    } spaces[] = {{".global", IR_SPACE_GLOBAL}, {".shared", IR_SPACE_SHARED},
                  {".local", IR_SPACE_LOCAL},   {".const", IR_SPACE_CONST},
                  {".param", IR_SPACE_PARAM}};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (ptx_is_dot(t, spaces[i].name)) {
            *out = spaces[i].space;
            return true;
        }
    return false;
}

static unsigned type_bytes(ir_type t)
{
    unsigned bits = ir_type_bits(t);
    return bits < 8 ? 1 : bits / 8;
}

/* ---- constant expressions ---- */
static bool parse_binary(ptx_parser *p, int min_prec, uint64_t *out, int depth);

static bool parse_primary(ptx_parser *p, uint64_t *out, int depth)
{
    const ptx_token *t = ptx_next(p);
    if (depth > 64) {
        ptx_limit_error(p, t->line, t->col, "constant expression nested too deeply");
        return false;
    }
    if (t->kind == PTX_TOK_INT) {
        *out = t->ivalue;
        return true;
    }
    if (t->kind == PTX_TOK_IDENT && t->len == 7 && !memcmp(t->text, "WARP_SZ", 7)) {
        *out = 32;
        return true;
    }
    if (ptx_is_punct(t, '(')) {
        if (!parse_binary(p, 0, out, depth + 1))
            return false;
        return ptx_expect_punct(p, ')', "to close the expression");
    }
    if (ptx_is_punct(t, '-') || ptx_is_punct(t, '~') || ptx_is_punct(t, '!') ||
        ptx_is_punct(t, '+')) {
        uint64_t v;
        if (!parse_primary(p, &v, depth + 1))
            return false;
        *out = t->punct == '-' ? (uint64_t)0 - v : t->punct == '~' ? ~v : t->punct == '!' ? !v : v;
        return true;
    }
    ptx_error(p, t, "PTX-PARSE-004", "expected an integer constant expression");
    return false;
}

/* Returns the precedence of the binary operator at the cursor (0: none) and its width in tokens. */
static int binary_prec(const ptx_parser *p, char *op, int *width)
{
    const ptx_token *t = ptx_peek(p, 0), *u = ptx_peek(p, 1);
    *width = 1;
    if (t->kind != PTX_TOK_PUNCT)
        return 0;
    *op = t->punct;
    if ((t->punct == '<' || t->punct == '>') && ptx_is_punct(u, t->punct) &&
        u->offset == t->offset + 1) {
        *width = 2;
        return 5;
    }
    switch (t->punct) {
    case '*': case '/': case '%': return 7;
    case '+': case '-': return 6;
    case '&': return 4;
    case '^': return 3;
    case '|': return 2;
    default: return 0;
    }
}

static bool parse_binary(ptx_parser *p, int min_prec, uint64_t *out, int depth)
{
    if (!parse_primary(p, out, depth))
        return false;
    for (;;) {
        char op = 0;
        int width;
        int prec = binary_prec(p, &op, &width);
        if (prec == 0 || prec <= min_prec)
            return true;
        const ptx_token *at = ptx_peek(p, 0);
        for (int i = 0; i < width; i++)
            ptx_next(p);
        uint64_t rhs;
        if (!parse_binary(p, prec, &rhs, depth + 1))
            return false;
        uint64_t l = *out;
        if ((op == '/' || op == '%') && rhs == 0) {
            ptx_error(p, at, "PTX-PARSE-004", "division by zero in a constant expression");
            return false;
        }
        switch (op) {
        case '*': *out = l * rhs; break;
        case '/': *out = (rhs == UINT64_MAX && l == (UINT64_C(1) << 63)) ? l
                          : (uint64_t)((int64_t)l / (int64_t)rhs); break;
        case '%': *out = rhs == UINT64_MAX ? 0 : (uint64_t)((int64_t)l % (int64_t)rhs); break;
        case '+': *out = l + rhs; break;
        case '-': *out = l - rhs; break;
        case '<': *out = rhs >= 64 ? 0 : l << rhs; break;
        case '>': *out = rhs >= 64 ? ((int64_t)l < 0 ? UINT64_MAX : 0)
                          : (uint64_t)((int64_t)l >> rhs); break;
        case '&': *out = l & rhs; break;
        case '^': *out = l ^ rhs; break;
        default: *out = l | rhs; break;
        }
    }
}

bool ptx_parse_const_expr(ptx_parser *p, int64_t *out)
{
    uint64_t v = 0;
    bool ok = parse_binary(p, 0, &v, 0);
    *out = (int64_t)v;
    return ok;
}

/* ---- registers ---- */
static void *push_n(ptx_parser *p, ptx_vec *v, size_t n)
{
    if (v->count + n > v->capacity) {
        size_t cap = v->capacity ? v->capacity : 16;
        while (cap < v->count + n)
            cap *= 2;
        void *grown = realloc(v->data, cap * v->elem);
        if (!grown) {
            ptx_oom(p);
            return NULL;
        }
        v->data = grown;
        v->capacity = cap;
    }
    void *e = (char *)v->data + v->count * v->elem;
    memset(e, 0, n * v->elem);
    v->count += n;
    return e;
}

static void declare_register(ptx_parser *p, const ptx_token *name, ir_type type, bool is_range,
                             uint32_t count)
{
    bool is_pred = type == IR_T_PRED;
    size_t used = is_pred ? p->fs.npreds : p->fs.reg_types.count;
    if (used + count > PTX_MAX_FUNC_SLOTS) {
        ptx_limit_error(p, name->line, name->col,
                        "too many registers in one function (limit %u)",
                        (unsigned)PTX_MAX_FUNC_SLOTS);
        return;
    }
    ptx_binding *b = ptx_declare(p, name->text, name->len, is_pred ? PTX_SYM_PRED : PTX_SYM_REG,
                                 is_range, name->line, name->col);
    if (!b)
        return;
    uint32_t n = is_range ? count : 1;
    b->type = (uint8_t)type;
    b->count = n;
    ptx_reg_range *r = ptx_vec_push(is_pred ? &p->fs.pred_ranges : &p->fs.reg_ranges);
    if (!r) {
        ptx_oom(p);
        return;
    }
    r->name = name->text;
    r->len = name->len;
    r->count = is_range ? count : 0;
    if (is_pred) {
        b->index = r->first = p->fs.npreds;
        p->fs.npreds += n;
    } else {
        b->index = r->first = (uint32_t)p->fs.reg_types.count;
        uint8_t *types = n ? push_n(p, &p->fs.reg_types, n) : NULL;
        if (types)
            memset(types, type, n);
    }
}

void ptx_parse_reg_decl(ptx_parser *p)
{
    const ptx_token *kw = ptx_next(p);
    ir_type type = IR_T_NONE;
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_is_dot(t, ".v2") || ptx_is_dot(t, ".v4") || ptx_is_dot(t, ".v8")) {
        ptx_error(p, t, "PTX-UNSUP-002", "vector registers (.reg %.*s) are not supported",
                  (int)t->len, t->text);
        ptx_recover(p);
        return;
    }
    if (!ptx_is_type_name(t, &type)) {
        ptx_error(p, t, "PTX-DECL-001", ".reg needs a type such as .b32 or .pred");
        ptx_recover(p);
        return;
    }
    ptx_next(p);
    if (p->fs.func < 0) {
        ptx_error(p, kw, "PTX-DECL-002", ".reg is only supported inside a function body");
        ptx_recover(p);
        return;
    }
    do {
        const ptx_token *name = ptx_next(p);
        if (name->kind != PTX_TOK_IDENT) {
            ptx_error(p, name, "PTX-PARSE-001", "expected a register name");
            ptx_recover(p);
            return;
        }
        if (ptx_is_punct(ptx_peek(p, 0), '<')) {
            ptx_next(p);
            const ptx_token *n = ptx_next(p);
            if (n->kind != PTX_TOK_INT || !ptx_expect_punct(p, '>', "after the register count")) {
                if (n->kind != PTX_TOK_INT)
                    ptx_error(p, n, "PTX-DECL-001", "expected a register count in <N>");
                ptx_recover(p);
                return;
            }
            declare_register(p, name, type, true,
                             n->ivalue > PTX_MAX_FUNC_SLOTS ? PTX_MAX_FUNC_SLOTS + 1u : (uint32_t)n->ivalue);
        } else {
            declare_register(p, name, type, false, 1);
        }
    } while (ptx_accept_punct(p, ','));
    if (!ptx_expect_punct(p, ';', "after a register declaration"))
        ptx_recover(p);
}

/* ---- variable declarations ---- */
typedef struct var_spec {
    ir_space space;
    ir_type type;
    uint32_t align, vec;
    bool has_align;
    uint8_t image_ref; /* ir_var.image_ref: 1 .surfref, 2 .texref, an opaque 8-byte reference
                          (docs/ptx.md, "Surfaces" and "Textures") */
} var_spec;

static bool parse_align(ptx_parser *p, uint32_t *align)
{
    const ptx_token *n = ptx_next(p);
    if (n->kind != PTX_TOK_INT || n->ivalue == 0 || n->ivalue > 65536 ||
        (n->ivalue & (n->ivalue - 1))) {
        ptx_error(p, n, "PTX-DECL-001", ".align needs a power of two between 1 and 65536");
        return false;
    }
    *align = (uint32_t)n->ivalue;
    return true;
}

static bool parse_var_spec(ptx_parser *p, var_spec *s)
{
    const ptx_token *first = ptx_peek(p, 0);
    s->vec = 1;
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        ir_type ty;
        if (t->kind != PTX_TOK_DOTNAME)
            break;
        ptx_next(p);
        if (ptx_is_dot(t, ".align")) {
            if (!parse_align(p, &s->align))
                return false;
            s->has_align = true;
        } else if (ptx_is_dot(t, ".v2") || ptx_is_dot(t, ".v4")) {
            s->vec = t->text[2] == '2' ? 2 : 4;
        } else if (ptx_is_type_name(t, &ty) && ty != IR_T_PRED) {
            if (s->type != IR_T_NONE || s->image_ref) {
                ptx_error(p, t, "PTX-DECL-001", "two types in one declaration");
                return false;
            }
            s->type = ty;
        } else if ((ptx_is_dot(t, ".surfref") || ptx_is_dot(t, ".texref")) &&
                   s->type == IR_T_NONE) {
            s->type = IR_T_B64;
            s->image_ref = ptx_is_dot(t, ".texref") ? 2 : 1;
        } else if (ptx_is_dot(t, ".texref") || ptx_is_dot(t, ".surfref") ||
                   ptx_is_dot(t, ".samplerref") || ptx_is_dot(t, ".attribute")) {
            ptx_error(p, t, "PTX-UNSUP-002", "%.*s variables are not modelled by gpumemsim",
                      (int)t->len, t->text);
            return false;
        } else {
            ptx_error(p, t, "PTX-DECL-001", "unexpected '%.*s' in a variable declaration",
                      (int)t->len, t->text);
            return false;
        }
    }
    if (s->type == IR_T_NONE) {
        ptx_error(p, first, "PTX-DECL-001", "variable declaration without a type");
        return false;
    }
    uint32_t natural = type_bytes(s->type) * s->vec;
    if (!s->has_align)
        s->align = natural;
    return true;
}

typedef struct init_state {
    ptx_parser *p;
    ir_type type;
    uint32_t elem_bytes;
    uint8_t *buf;          /* malloc */
    uint64_t capacity;     /* elements allocated */
    uint64_t limit;        /* declared elements, or UINT64_MAX when unsized */
    uint64_t used;         /* highest element index written + 1 */
    uint64_t strides[MAX_DIMS + 1];
    int ndims;
} init_state;

static uint8_t *init_slot(init_state *s, uint64_t index, const ptx_token *at)
{
    if (index >= s->limit) {
        ptx_error(s->p, at, "PTX-PARSE-004", "too many initialisers for the declared size");
        return NULL;
    }
    if ((index + 1) * s->elem_bytes > MAX_INIT_BYTES) {
        ptx_limit_error(s->p, at->line, at->col, "initialised variable larger than %u bytes",
                        MAX_INIT_BYTES);
        return NULL;
    }
    if (index >= s->capacity) {
        uint64_t cap = s->capacity ? s->capacity : 64;
        while (cap <= index)
            cap *= 2;
        uint8_t *grown = realloc(s->buf, cap * s->elem_bytes);
        if (!grown) {
            ptx_oom(s->p);
            return NULL;
        }
        memset(grown + s->capacity * s->elem_bytes, 0, (cap - s->capacity) * s->elem_bytes);
        s->buf = grown;
        s->capacity = cap;
    }
    if (index + 1 > s->used)
        s->used = index + 1;
    return s->buf + index * s->elem_bytes;
}

static void store_bits(uint8_t *dst, uint64_t bits, uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes; i++)
        dst[i] = (uint8_t)(bits >> (8 * i));
}

static uint64_t float_to_type_bits(double v, ir_type t)
{
    switch (t) {
    case IR_T_F64: return ptx_f64_bits(v);
    case IR_T_F16: return ptx_f32_to_f16_bits((float)v);
    case IR_T_BF16: return ptx_f32_to_bf16_bits((float)v);
    default: return ptx_f32_bits((float)v);
    }
}

/* An address element: sym, generic(sym), each with an optional +/- offset. */
static bool parse_address_elem(init_state *s, uint64_t *index, const ptx_token *t)
{
    ptx_parser *p = s->p;
    bool generic = t->len == 7 && !memcmp(t->text, "generic", 7) && ptx_is_punct(ptx_peek(p, 0), '(');
    const ptx_token *name = t;
    if (generic) {
        ptx_next(p);
        name = ptx_next(p);
        if (name->kind != PTX_TOK_IDENT || !ptx_expect_punct(p, ')', "after generic(name"))
            return false;
    }
    const ptx_binding *b = ptx_lookup(p, name->text, name->len, NULL);
    if (!b || (b->kind != PTX_SYM_VAR && b->kind != PTX_SYM_FUNC)) {
        ptx_error(p, name, "PTX-SYM-002", "'%.*s' is not a module variable or function",
                  (int)name->len, name->text);
        return false;
    }
    int64_t addend = 0;
    if (ptx_is_punct(ptx_peek(p, 0), '+') || ptx_is_punct(ptx_peek(p, 0), '-'))
        if (!ptx_parse_const_expr(p, &addend))
            return false;
    uint32_t ptr_bytes = p->m->address_bits / 8u;
    if (s->elem_bytes != ptr_bytes && s->elem_bytes != 1) {
        ptx_error(p, name, "PTX-PARSE-004",
                  "an address initialiser needs %u-byte elements (or a .b8 array)", ptr_bytes);
        return false;
    }
    uint32_t span = s->elem_bytes == 1 ? ptr_bytes : 1;
    if (!init_slot(s, *index + span - 1, name))
        return false;
    ir_reloc *r = ptx_vec_push(&p->relocs);
    if (!r) {
        ptx_oom(p);
        return false;
    }
    r->offset = *index * s->elem_bytes;
    r->sym = b->index;
    r->generic = generic;
    r->addend = addend;
    r->is_func = b->kind == PTX_SYM_FUNC;
    *index += span;
    return true;
}

static bool parse_scalar_elem(init_state *s, uint64_t *index)
{
    ptx_parser *p = s->p;
    const ptx_token *t = ptx_peek(p, 0);
    bool neg = ptx_is_punct(t, '-') && (ptx_peek(p, 1)->kind == PTX_TOK_FLOAT ||
                                        ptx_peek(p, 1)->kind == PTX_TOK_F32BITS ||
                                        ptx_peek(p, 1)->kind == PTX_TOK_F64BITS);
    const ptx_token *v = ptx_peek(p, neg ? 1 : 0);
    if (v->kind == PTX_TOK_IDENT && !(v->len == 7 && !memcmp(v->text, "WARP_SZ", 7))) {
        ptx_next(p);
        return parse_address_elem(s, index, v);
    }
    uint64_t bits;
    if (v->kind == PTX_TOK_FLOAT || v->kind == PTX_TOK_F32BITS || v->kind == PTX_TOK_F64BITS) {
        if (neg)
            ptx_next(p);
        ptx_next(p);
        double d = v->kind == PTX_TOK_FLOAT     ? v->fvalue
                   : v->kind == PTX_TOK_F32BITS ? ptx_bits_f32((uint32_t)v->ivalue)
                                                : ptx_bits_f64(v->ivalue);
        if (neg)
            d = -d;
        if (!ir_type_is_float(s->type)) {
            if (v->kind == PTX_TOK_FLOAT) {
                ptx_error(p, v, "PTX-PARSE-004", "floating-point initialiser for an integer variable");
                return false;
            }
            bits = v->ivalue; /* 0f/0d literals give raw bits */
        } else {
            bits = float_to_type_bits(d, s->type);
        }
    } else {
        int64_t iv;
        if (!ptx_parse_const_expr(p, &iv))
            return false;
        bits = ir_type_is_float(s->type) ? float_to_type_bits((double)iv, s->type) : (uint64_t)iv;
    }
    uint8_t *dst = init_slot(s, *index, t);
    if (!dst)
        return false;
    store_bits(dst, bits, s->elem_bytes);
    (*index)++;
    return true;
}

/* { elem, elem, {nested}, ... } at nesting `level`; elements start at *index. */
static bool parse_init_list(init_state *s, int level, uint64_t *index)
{
    ptx_parser *p = s->p;
    const ptx_token *open = ptx_next(p);
    if (level > MAX_DIMS) {
        ptx_error(p, open, "PTX-PARSE-004", "initialiser braces nested deeper than the array");
        return false;
    }
    uint64_t start = *index;
    if (ptx_accept_punct(p, '}'))
        return true;
    do {
        if (ptx_is_punct(ptx_peek(p, 0), '{')) {
            uint64_t stride = level + 1 <= s->ndims ? s->strides[level + 1] : 1;
            uint64_t sub = *index;
            if (stride > 1 && sub % stride)
                sub += stride - sub % stride;
            uint64_t end = sub;
            if (!parse_init_list(s, level + 1, &end))
                return false;
            *index = sub + stride > end ? sub + stride : end;
        } else if (!parse_scalar_elem(s, index)) {
            return false;
        }
    } while (ptx_accept_punct(p, ','));
    (void)start;
    return ptx_expect_punct(p, '}', "to close the initialiser list");
}

static bool parse_initialiser(ptx_parser *p, ir_var *v, init_state *s)
{
    uint64_t index = 0;
    bool ok = ptx_is_punct(ptx_peek(p, 0), '{') ? parse_init_list(s, 0, &index)
                                                 : parse_scalar_elem(s, &index);
    if (!ok)
        return false;
    if (s->limit == UINT64_MAX)
        v->size_bytes = s->used * s->elem_bytes;
    uint8_t *data = v->size_bytes ? arena_alloc(&p->m->arena, v->size_bytes) : NULL;
    if (v->size_bytes && !data) {
        ptx_oom(p);
        return false;
    }
    if (data && s->buf)
        memcpy(data, s->buf, s->used * s->elem_bytes);
    v->init = data;
    v->nrelocs = (uint32_t)p->relocs.count;
    if (p->relocs.count) {
        v->relocs = arena_alloc(&p->m->arena, p->relocs.count * sizeof(ir_reloc));
        if (!v->relocs) {
            ptx_oom(p);
            return false;
        }
        memcpy(v->relocs, p->relocs.data, p->relocs.count * sizeof(ir_reloc));
    }
    return true;
}

/* name[d0][d1]... ; fills dims/strides; unsized (name[]) only as the first dimension. */
static bool parse_dims(ptx_parser *p, init_state *s, bool *unsized, uint64_t *count)
{
    uint64_t dims[MAX_DIMS];
    int n = 0;
    *unsized = false;
    *count = 1;
    while (ptx_is_punct(ptx_peek(p, 0), '[')) {
        const ptx_token *open = ptx_next(p);
        if (n == MAX_DIMS) {
            ptx_limit_error(p, open->line, open->col, "more than %d array dimensions", MAX_DIMS);
            return false;
        }
        if (ptx_accept_punct(p, ']')) {
            if (n != 0) {
                ptx_error(p, open, "PTX-DECL-001", "only the first array dimension may be empty");
                return false;
            }
            *unsized = true;
            dims[n++] = 0;
            continue;
        }
        int64_t v;
        if (!ptx_parse_const_expr(p, &v) || !ptx_expect_punct(p, ']', "after the array size"))
            return false;
        if (v <= 0 || v > (INT64_C(1) << 40)) {
            ptx_error(p, open, "PTX-DECL-001", "array size must be between 1 and 2^40");
            return false;
        }
        dims[n++] = (uint64_t)v;
    }
    s->ndims = n;
    s->strides[n] = 1;
    for (int i = n - 1; i >= 0; i--) {
        uint64_t d = dims[i] ? dims[i] : 1;
        if (s->strides[i + 1] > (UINT64_C(1) << 40) / d) {
            ptx_error(p, ptx_peek(p, 0), "PTX-DECL-001", "array too large");
            return false;
        }
        s->strides[i] = s->strides[i + 1] * d;
    }
    /* strides[0] counts the whole array; strides[k] the elements of one sub-array at level k */
    *count = n ? s->strides[0] : 1;
    return true;
}

static ir_var *new_var(ptx_parser *p, bool in_body, const ptx_token *name, uint32_t *index)
{
    ptx_vec *vec = in_body ? &p->fs.vars : &p->vars;
    ptx_binding *b = ptx_declare(p, name->text, name->len, in_body ? PTX_SYM_FVAR : PTX_SYM_VAR,
                                 false, name->line, name->col);
    if (!b)
        return NULL;
    ir_var *v = ptx_vec_push(vec);
    if (!v) {
        ptx_oom(p);
        return NULL;
    }
    *index = b->index = (uint32_t)(vec->count - 1);
    v->name = arena_strndup(&p->m->arena, name->text, name->len);
    v->line = name->line;
    v->col = name->col;
    return v;
}

/* A .surfref or .texref variable (PTX ISA 9.1 §5.3): a single one, in .global, without an
 * initialiser (ptxas 13 rejects the other spaces and initialisers; arrays of references and the
 * texture-setting initialisers of independent mode are not modelled). */
static bool check_image_ref(ptx_parser *p, const var_spec *spec, const ptx_token *name, bool array)
{
    const char *kind = spec->image_ref == 2 ? ".texref" : ".surfref";
    if (spec->space != IR_SPACE_GLOBAL) {
        ptx_error(p, name, "PTX-DECL-002", "a %s variable must be declared in .global", kind);
        return false;
    }
    if (array) {
        ptx_error(p, name, "PTX-UNSUP-002", "arrays of %s variables are not modelled by "
                  "gpumemsim", kind);
        return false;
    }
    if (ptx_is_punct(ptx_peek(p, 0), '=')) {
        ptx_error(p, name, "PTX-DECL-001", "a %s variable takes no initialiser", kind);
        return false;
    }
    return true;
}

static bool parse_one_var(ptx_parser *p, const var_spec *spec, bool in_body, uint8_t is_extern,
                          uint8_t is_visible)
{
    const ptx_token *name = ptx_next(p);
    if (name->kind != PTX_TOK_IDENT) {
        ptx_error(p, name, "PTX-PARSE-001", "expected a variable name");
        return false;
    }
    init_state s = {.p = p, .type = spec->type, .elem_bytes = type_bytes(spec->type)};
    bool unsized;
    uint64_t count;
    bool over_limit = false;
    if (!parse_dims(p, &s, &unsized, &count)) {
        if (!p->cur.muted)
            return false;
        /* Too many dimensions: declare the name anyway, without a size, so that its uses do not
         * cascade into undeclared-identifier errors (the limit error fails the module). */
        over_limit = true;
        unsized = true;
        count = 0;
    }
    count *= spec->vec;
    if (spec->image_ref && !over_limit && !check_image_ref(p, spec, name, unsized || count != 1))
        return false;
    uint32_t index;
    ir_var *v = new_var(p, in_body, name, &index);
    if (!v)
        return false;
    v->space = (uint8_t)spec->space;
    v->type = (uint8_t)spec->type;
    v->is_extern = is_extern;
    v->is_visible = is_visible;
    v->align = spec->align;
    v->size_bytes = unsized ? 0 : count * s.elem_bytes;
    v->image_ref = spec->image_ref;
    if (over_limit)
        return false;
    if (!ptx_accept_punct(p, '='))
        return true;
    if (spec->space != IR_SPACE_GLOBAL && spec->space != IR_SPACE_CONST) {
        ptx_error(p, name, "PTX-DECL-002", "only .global and .const variables may be initialised");
        return false;
    }
    s.limit = unsized ? UINT64_MAX : count;
    p->relocs.count = 0;
    bool ok = parse_initialiser(p, &((ir_var *)(in_body ? p->fs.vars.data : p->vars.data))[index], &s);
    free(s.buf);
    return ok;
}

void ptx_parse_var_decl(ptx_parser *p, bool in_body, uint8_t is_extern, uint8_t is_visible)
{
    const ptx_token *kw = ptx_next(p);
    var_spec spec = {0};
    if (!ptx_is_space_name(kw, &spec.space)) {
        ptx_error(p, kw, "PTX-DECL-001", "expected a state space");
        ptx_recover(p);
        return;
    }
    if ((!in_body && spec.space == IR_SPACE_PARAM) || (!in_body && spec.space == IR_SPACE_LOCAL)) {
        ptx_error(p, kw, "PTX-DECL-002", "%.*s variables are not allowed at module scope",
                  (int)kw->len, kw->text);
        ptx_recover(p);
        return;
    }
    if (!parse_var_spec(p, &spec)) {
        ptx_recover(p);
        return;
    }
    do {
        if (!parse_one_var(p, &spec, in_body, is_extern, is_visible)) {
            ptx_recover(p);
            return;
        }
    } while (ptx_accept_punct(p, ','));
    if (!ptx_expect_punct(p, ';', "after a variable declaration"))
        ptx_recover(p);
}

/* ---- parameter lists ---- */
static bool parse_param(ptx_parser *p, ir_param *prm, uint64_t *offset)
{
    const ptx_token *kw = ptx_next(p);
    if (ptx_is_dot(kw, ".reg")) {
        ptx_error(p, kw, "PTX-UNSUP-002", ".reg parameters are not supported; use .param");
        return false;
    }
    if (!ptx_is_dot(kw, ".param")) {
        ptx_error(p, kw, "PTX-PARSE-001", "expected .param in a parameter list");
        return false;
    }
    ir_type type = IR_T_NONE;
    uint32_t align = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        ir_space sp;
        if (t->kind != PTX_TOK_DOTNAME)
            break;
        ptx_next(p);
        if (ptx_is_dot(t, ".align")) {
            if (!parse_align(p, &align))
                return false;
        } else if (ptx_is_dot(t, ".ptr")) {
            prm->is_ptr = 1;
        } else if (prm->is_ptr && ptx_is_space_name(t, &sp) && sp != IR_SPACE_PARAM) {
            prm->ptr_space = (uint8_t)sp;
        } else if (ptx_is_type_name(t, &type) && type != IR_T_PRED && type != IR_T_NONE) {
            prm->type = (uint8_t)type;
        } else {
            ptx_error(p, t, "PTX-DECL-001", "unexpected '%.*s' in a parameter declaration",
                      (int)t->len, t->text);
            return false;
        }
    }
    if (prm->type == IR_T_NONE) {
        ptx_error(p, kw, "PTX-DECL-001", "parameter without a type");
        return false;
    }
    const ptx_token *name = ptx_next(p);
    if (name->kind != PTX_TOK_IDENT) {
        ptx_error(p, name, "PTX-PARSE-001", "expected a parameter name");
        return false;
    }
    init_state s = {.p = p};
    bool unsized;
    uint64_t count;
    if (!parse_dims(p, &s, &unsized, &count))
        return false;
    prm->name = arena_strndup(&p->m->arena, name->text, name->len);
    prm->line = name->line;
    prm->col = name->col;
    prm->size_bytes = count * type_bytes((ir_type)prm->type);
    prm->align = align ? align : type_bytes((ir_type)prm->type);
    *offset = (*offset + prm->align - 1) / prm->align * prm->align;
    prm->offset = *offset;
    *offset += prm->size_bytes;
    return true;
}

int ptx_parse_params(ptx_parser *p, ir_param **out, bool is_ret, int32_t func_index)
{
    (void)is_ret;
    (void)func_index;
    ptx_next(p); /* '(' */
    ptx_vec params = {.elem = sizeof(ir_param)};
    uint64_t offset = 0;
    if (!ptx_is_punct(ptx_peek(p, 0), ')')) {
        do {
            ir_param *prm = ptx_vec_push(&params);
            if (!prm) {
                ptx_oom(p);
                ptx_vec_free(&params);
                return -1;
            }
            if (!parse_param(p, prm, &offset)) {
                ptx_vec_free(&params);
                while (!ptx_is_punct(ptx_peek(p, 0), ')') && ptx_peek(p, 0)->kind != PTX_TOK_EOF &&
                       !ptx_is_punct(ptx_peek(p, 0), '{') && !ptx_is_punct(ptx_peek(p, 0), ';'))
                    ptx_next(p);
                ptx_accept_punct(p, ')');
                return -1;
            }
        } while (ptx_accept_punct(p, ','));
    }
    if (!ptx_expect_punct(p, ')', "to close the parameter list")) {
        ptx_vec_free(&params);
        return -1;
    }
    *out = NULL;
    if (params.count) {
        *out = arena_alloc(&p->m->arena, params.count * sizeof(ir_param));
        if (!*out) {
            ptx_oom(p);
            ptx_vec_free(&params);
            return -1;
        }
        memcpy(*out, params.data, params.count * sizeof(ir_param));
    }
    int n = (int)params.count;
    ptx_vec_free(&params);
    return n;
}

/* Whether a declaration has the signature nvcc gives the heap's system calls (docs/ptx.md,
 * "System calls"): malloc takes and returns one 64-bit value, free takes one and returns
 * nothing. Any other declaration of those names stays an ordinary external function. */
static int heap_signature(const ir_func *fn, ir_syscall call)
{
    if (call != IR_SYSCALL_MALLOC && call != IR_SYSCALL_FREE)
        return 1;
    if (fn->nparams != 1 || fn->params[0].size_bytes != 8)
        return 0;
    return call == IR_SYSCALL_MALLOC ? fn->nrets == 1 && fn->rets[0].size_bytes == 8
                                     : fn->nrets == 0;
}

/* PTX's machine (ir.h, ir_machine): typed virtual registers in any number, no pairs and no zero
 * register; one condition flag, the carry of add.cc/addc (PTX ISA 9.1, "Extended-Precision
 * Integer Arithmetic Instructions"); 16-byte instructions, the size of the SASS of every
 * architecture PTX 9.1 targets; calls with a fresh register file and .param copies. */
void ptx_declare_machine(ir_module *m)
{
    m->machine = (ir_machine){.flag_count = 1, .insn_bytes = 16,
                              .call_conv = IR_CALL_PARAM_FRAME};
    static const struct {
        const char *name;
        ir_syscall call;
    } provided[] = {{"vprintf", IR_SYSCALL_VPRINTF},
                    {"__assertfail", IR_SYSCALL_ASSERTFAIL},
                    {"malloc", IR_SYSCALL_MALLOC},
                    {"free", IR_SYSCALL_FREE}};
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        ir_func *fn = &m->funcs[f];
        if (fn->ninsns || fn->has_callprototype || !fn->name)
            continue;
        for (size_t k = 0; k < sizeof provided / sizeof provided[0]; k++)
            if (strcmp(fn->name, provided[k].name) == 0 && heap_signature(fn, provided[k].call))
                fn->syscall = (uint8_t)provided[k].call;
    }
}
