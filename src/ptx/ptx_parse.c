/* PTX module structure: the module header and module-level directives, which statement a
 * module-level item is, the symbol table of nested scopes, and the final copy of the module into
 * its arena. Functions and their bodies are in ptx_func.c, declarations in ptx_decl.c and
 * instructions in ptx_insn.c. It is a recursive-descent parser over the token array of ptx_lex.c,
 * reading it with the shared cursor of src/frontend/ (fe_cursor.h), which recovers at the next
 * ';' or '}' after an error. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/ptx_internal.h"
#include "frontend/frontend.h"

/* ---- errors ---- */
void ptx_limit_error(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fe_cursor_verror_at(&p->cur, line, col, "PTX-LIMIT-001", fmt, ap);
    va_end(ap);
    p->cur.muted = true;
}

void ptx_error(ptx_parser *p, const ptx_token *t, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fe_cursor_verror_at(&p->cur, t->line, t->col, rule, fmt, ap);
    va_end(ap);
}

void ptx_error_at(ptx_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fe_cursor_verror_at(&p->cur, line, col, rule, fmt, ap);
    va_end(ap);
}

/* ---- symbols: the shared scope stack (fe_scope.h), with PTX's register ranges ---- */
void ptx_scope_push(ptx_parser *p)
{
    if (fe_scope_push(&p->scope) != 0)
        ptx_oom(p);
}

void ptx_scope_pop(ptx_parser *p) { fe_scope_pop(&p->scope); }

ptx_binding *ptx_declare(ptx_parser *p, const char *name, uint32_t len, ptx_sym_kind kind,
                         bool is_range, uint32_t line, uint32_t col)
{
    const fe_symbol *previous;
    ptx_binding *b = fe_scope_declare(&p->scope, name, len, is_range ? PTX_NS_RANGE : PTX_NS_NAME,
                                      line, col, &previous);
    if (b) {
        b->kind = (uint8_t)kind;
        return b;
    }
    if (!previous) {
        ptx_oom(p);
        return NULL;
    }
    ptx_error_at(p, line, col, "PTX-SYM-004", "redefinition of '%.*s'", (int)len, name);
    if (!p->cur.muted)
        diag_add_note(p->cur.dl, p->cur.path, previous->line, previous->col,
                      "previous declaration is here");
    return NULL;
}

const ptx_binding *ptx_lookup(const ptx_parser *p, const char *name, uint32_t len, uint32_t *slot)
{
    const ptx_binding *b = fe_scope_find(&p->scope, name, len, PTX_NS_NAME);
    if (b) {
        if (slot)
            *slot = b->index;
        return b;
    }
    uint32_t digits = 0;
    while (digits < len && name[len - 1 - digits] >= '0' && name[len - 1 - digits] <= '9')
        digits++;
    if (digits == 0 || digits == len || digits > 9 || (digits > 1 && name[len - digits] == '0'))
        return NULL;
    uint32_t number = 0;
    for (uint32_t i = len - digits; i < len; i++)
        number = number * 10 + (uint32_t)(name[i] - '0');
    b = fe_scope_find(&p->scope, name, len - digits, PTX_NS_RANGE);
    if (!b || number >= b->count)
        return NULL;
    if (slot)
        *slot = b->index + number;
    return b;
}

/* ---- header directives ---- */
static void parse_version(ptx_parser *p)
{
    const ptx_token *t = ptx_next(p);
    unsigned major = 0, minor = 0;
    size_t i = 0;
    if (t->kind == PTX_TOK_FLOAT || t->kind == PTX_TOK_INT) {
        while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && major < 1000)
            major = major * 10 + (unsigned)(t->text[i++] - '0');
        if (i < t->len && t->text[i] == '.')
            for (i++; i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && minor < 1000; i++)
                minor = minor * 10 + (unsigned)(t->text[i] - '0');
    }
    if (i != t->len || i == 0 || minor > 9 || major > 99) {
        ptx_error(p, t, "PTX-PARSE-002", "malformed .version: expected MAJOR.MINOR such as 9.0");
        return;
    }
    if (p->has_version)
        ptx_error(p, t, "PTX-PARSE-002", ".version given twice");
    p->m->version_major = major;
    p->m->version_minor = minor;
    p->version = major * 10 + minor;
    p->has_version = true;
}

static bool parse_sm_name(const ptx_token *t, unsigned *sm, uint8_t *suffix)
{
    if (t->kind != PTX_TOK_IDENT || t->len < 5 || memcmp(t->text, "sm_", 3) != 0)
        return false;
    unsigned v = 0;
    size_t i = 3;
    while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && v < 10000)
        v = v * 10 + (unsigned)(t->text[i++] - '0');
    *suffix = 0;
    if (i + 1 == t->len && (t->text[i] == 'a' || t->text[i] == 'f'))
        *suffix = (uint8_t)t->text[i++];
    *sm = v;
    return i == t->len && i > 3;
}

/* The oldest PTX ISA version (major*10+minor) that knows a target; 0 for a number no PTX
 * release names (PTX ISA 9.1 §11.2 "PTX module directives: .target", release history). */
static unsigned target_min_version(unsigned sm, uint8_t suffix)
{
    static const struct { uint16_t sm, version, version_a, version_f; } targets[] = {
        {50, 40, 0, 0}, {52, 41, 0, 0}, {53, 42, 0, 0}, {60, 50, 0, 0}, {61, 50, 0, 0},
        {62, 50, 0, 0}, {70, 60, 0, 0}, {72, 61, 0, 0}, {75, 63, 0, 0}, {80, 70, 0, 0},
        {86, 71, 0, 0}, {87, 74, 0, 0}, {88, 90, 0, 0}, {89, 78, 0, 0}, {90, 78, 80, 0},
        {100, 86, 86, 88}, {101, 86, 86, 88}, {103, 88, 88, 88}, {110, 90, 90, 90},
        {120, 87, 87, 88}, {121, 88, 88, 88},
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (targets[i].sm == sm)
            return suffix == 'a' ? targets[i].version_a : suffix == 'f' ? targets[i].version_f
                                                                         : targets[i].version;
    return 0;
}

static void parse_target(ptx_parser *p)
{
    bool first = true;
    do {
        const ptx_token *t = ptx_next(p);
        unsigned sm;
        uint8_t suffix;
        if (parse_sm_name(t, &sm, &suffix)) {
            if (sm < 50 || sm > 121)
                ptx_error(p, t, "PTX-PARSE-002",
                          "target sm_%u is outside the range gpumemsim supports (sm_50..sm_121)", sm);
            if (p->has_target && first)
                ptx_error(p, t, "PTX-PARSE-002", ".target given twice");
            unsigned needed = target_min_version(sm, suffix);
            if (suffix && needed == 0)
                ptx_error(p, t, "PTX-PARSE-002", "target sm_%u has no '%c' variant", sm, suffix);
            else if (p->has_version && p->version < needed)
                ptx_error(p, t, "PTX-VER-002", "PTX ISA %u.%u does not know target %.*s: it needs "
                          ".version %u.%u or later", p->version / 10, p->version % 10,
                          (int)t->len, t->text, needed / 10, needed % 10);
            p->m->target_sm = sm;
            p->m->target_arch_specific = suffix;
            p->m->target_line = t->line;
            p->m->target_col = t->col;
            p->sm = sm;
            p->has_target = true;
        } else if (t->kind == PTX_TOK_IDENT &&
                   ((t->len == 5 && !memcmp(t->text, "debug", 5)) ||
                    (t->len == 15 && !memcmp(t->text, "texmode_unified", 15)) ||
                    (t->len == 19 && !memcmp(t->text, "texmode_independent", 19)))) {
            /* debug information and texture modes do not change what the kernel computes */
        } else if (t->kind == PTX_TOK_IDENT && t->len == 15 &&
                   !memcmp(t->text, "map_f64_to_f32", 14)) {
            ptx_error(p, t, "PTX-UNSUP-002", "target option map_f64_to_f32 is not modelled");
        } else {
            char buf[64];
            ptx_error(p, t, "PTX-PARSE-002", "unknown .target option %s",
                      fe_token_describe(t, buf, sizeof buf));
        }
        first = false;
    } while (ptx_accept_punct(p, ','));
}

static void parse_file(ptx_parser *p)
{
    const ptx_token *n = ptx_next(p), *s = ptx_next(p);
    if (n->kind != PTX_TOK_INT || s->kind != PTX_TOK_STRING || n->ivalue > 100000) {
        ptx_error(p, n, "PTX-PARSE-001", "expected .file NUMBER \"path\"");
        return;
    }
    while (ptx_accept_punct(p, ','))
        if (ptx_peek(p, 0)->kind == PTX_TOK_INT)
            ptx_next(p);
    while (p->files.count <= n->ivalue)
        if (!ptx_vec_push(&p->files)) {
            ptx_oom(p);
            return;
        }
    char *path = arena_strndup(&p->m->arena, s->text + 1, s->len >= 2 ? s->len - 2 : 0);
    if (!path)
        ptx_oom(p);
    ((const char **)p->files.data)[n->ivalue] = path;
}

/* .loc FILE LINE COL [, function_name NAME, inlined_at FILE LINE COL] (no semicolon) */
void ptx_parse_loc(ptx_parser *p)
{
    const ptx_token *f = ptx_next(p), *l = ptx_next(p), *c = ptx_next(p);
    if (f->kind != PTX_TOK_INT || l->kind != PTX_TOK_INT || c->kind != PTX_TOK_INT) {
        ptx_error(p, f, "PTX-PARSE-001", "expected .loc FILE LINE COLUMN");
        ptx_recover(p);
        return;
    }
    p->loc_file = (uint32_t)(f->ivalue > UINT32_MAX ? UINT32_MAX : f->ivalue);
    p->loc_line = (uint32_t)(l->ivalue > UINT32_MAX ? UINT32_MAX : l->ivalue);
    while (ptx_accept_punct(p, ',')) {
        const ptx_token *k = ptx_next(p);
        if (k->kind == PTX_TOK_IDENT && k->len == 13 && !memcmp(k->text, "function_name", 13)) {
            ptx_next(p);
            if (ptx_accept_punct(p, '+'))
                ptx_next(p);
        } else if (k->kind == PTX_TOK_IDENT && k->len == 10 && !memcmp(k->text, "inlined_at", 10)) {
            /* Code inlined from a header (an intrinsic, a library template) is attributed to the
             * line that called it: that is the line in the user's own source. */
            uint64_t v[3] = {0, 0, 0};
            int n = 0;
            for (; n < 3 && ptx_peek(p, 0)->kind == PTX_TOK_INT; n++) v[n] = ptx_next(p)->ivalue;
            if (n >= 2 && v[0] <= UINT32_MAX && v[1] <= UINT32_MAX) {
                p->loc_file = (uint32_t)v[0];
                p->loc_line = (uint32_t)v[1];
            }
        } else {
            ptx_error(p, k, "PTX-PARSE-001", "expected function_name or inlined_at in .loc");
            return;
        }
    }
}


/* Debug sections carry DWARF bytes that gpumemsim has no use for: skip them whole. */
static void skip_section(ptx_parser *p)
{
    ptx_next(p); /* section name */
    if (!ptx_expect_punct(p, '{', "to open the section"))
        return;
    fe_cursor_skip_groups(&p->cur, '{', '}', 1);
}

void ptx_parse_pragma(ptx_parser *p)
{
    /* Pragmas are ptxas optimisation hints (nounroll, used_bytes_mask, ...): by the PTX ISA an
     * unknown pragma is ignored, and none changes what a kernel computes. */
    const ptx_token *s = ptx_next(p);
    if (s->kind != PTX_TOK_STRING)
        ptx_error(p, s, "PTX-PARSE-001", "expected a string after .pragma");
    while (ptx_accept_punct(p, ','))
        ptx_next(p);
    ptx_expect_punct(p, ';', "after .pragma");
}

void *ptx_arena_copy(ptx_parser *p, const ptx_vec *v)
{
    if (!v->count)
        return NULL;
    void *dst = arena_alloc(&p->m->arena, v->count * v->elem);
    if (!dst) {
        ptx_oom(p);
        return NULL;
    }
    memcpy(dst, v->data, v->count * v->elem);
    return dst;
}

/* ---- module ---- */
static void require_header(ptx_parser *p, const ptx_token *t)
{
    if (p->has_version && p->has_target)
        return;
    ptx_error(p, t, "PTX-PARSE-002", "%s must come before any declaration",
              p->has_version ? ".target" : ".version");
    /* Assume the newest PTX so that one missing line does not cascade into many errors. */
    if (!p->has_version)
        p->version = 91;
    if (!p->has_target)
        p->sm = 120;
    p->has_version = p->has_target = true;
}

static void parse_module_item(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TOK_DOTNAME) {
        char buf[64];
        ptx_error(p, t, "PTX-PARSE-001", "expected a directive at module level, found %s",
                  fe_token_describe(t, buf, sizeof buf));
        ptx_next(p);
        ptx_recover(p);
        if (ptx_is_punct(ptx_peek(p, 0), '{') || ptx_is_punct(ptx_peek(p, 0), '}'))
            ptx_next(p);
        return;
    }
    if (ptx_is_dot(t, ".version")) {
        ptx_next(p);
        parse_version(p);
    } else if (ptx_is_dot(t, ".target")) {
        ptx_next(p);
        if (!p->has_version)
            ptx_error(p, t, "PTX-PARSE-002", ".target must follow .version");
        parse_target(p);
    } else if (ptx_is_dot(t, ".address_size")) {
        ptx_next(p);
        const ptx_token *v = ptx_next(p);
        if (v->kind != PTX_TOK_INT || (v->ivalue != 32 && v->ivalue != 64))
            ptx_error(p, v, "PTX-PARSE-002", ".address_size must be 32 or 64");
        else
            p->m->address_bits = (uint8_t)v->ivalue;
    } else if (ptx_is_dot(t, ".file")) {
        ptx_next(p);
        parse_file(p);
    } else if (ptx_is_dot(t, ".section")) {
        ptx_next(p);
        skip_section(p);
    } else if (ptx_is_dot(t, ".pragma")) {
        ptx_next(p);
        ptx_parse_pragma(p);
    } else if (ptx_is_dot(t, ".loc")) {
        ptx_next(p);
        ptx_parse_loc(p);
    } else {
        require_header(p, t);
        uint8_t is_extern = 0, is_visible = 0, is_weak = 0;
        for (;; t = ptx_peek(p, 0)) {
            if (ptx_is_dot(t, ".extern"))
                is_extern = 1;
            else if (ptx_is_dot(t, ".visible"))
                is_visible = 1;
            else if (ptx_is_dot(t, ".weak") || ptx_is_dot(t, ".common"))
                is_weak = 1;
            else
                break;
            ptx_next(p);
        }
        if (ptx_is_dot(t, ".entry") || ptx_is_dot(t, ".func"))
            ptx_parse_function(p, is_extern, is_visible, is_weak);
        else if (ptx_is_dot(t, ".global") || ptx_is_dot(t, ".const") || ptx_is_dot(t, ".shared") ||
                 ptx_is_dot(t, ".local"))
            ptx_parse_var_decl(p, false, is_extern, is_visible);
        else {
            ptx_error(p, t, "PTX-PARSE-003", "unknown or misplaced module directive '%.*s'",
                      (int)t->len, t->text);
            ptx_next(p);
            ptx_recover(p);
        }
    }
}

/* After a limit error in a module-level statement (a variable or a function header): skips what
 * is left of it, up to a ';' or the '}' that closes its initialiser or body at brace depth 0, and
 * ends the suppression of diagnostics. A statement whose ';' was already read is complete. */
static void skip_rest_of_statement(ptx_parser *p)
{
    int depth = 0;
    const ptx_token *last = fe_cursor_previous(&p->cur);
    if (!(last && ptx_is_punct(last, ';'))) {
        while (ptx_peek(p, 0)->kind != PTX_TOK_EOF) {
            const ptx_token *t = ptx_next(p);
            if (ptx_is_punct(t, ';') && depth == 0)
                break;
            depth += ptx_is_punct(t, '{') - ptx_is_punct(t, '}');
            if (depth == 0 && ptx_is_punct(t, '}')) {
                ptx_accept_punct(p, ';');
                break;
            }
        }
    }
    p->cur.muted = false;
}

static bool parser_init(ptx_parser *p, const char *path, diag_list *dl)
{
    memset(p, 0, sizeof *p);
    p->cur.path = path ? path : ""; /* the tokens come after lexing (ptx_parse_module) */
    p->cur.dl = dl;
    p->fs.func = -1;
    dynarray_init(&p->funcs, sizeof(ir_func));
    dynarray_init(&p->func_has_body, 1);
    dynarray_init(&p->vars, sizeof(ir_var));
    dynarray_init(&p->relocs, sizeof(ir_reloc));
    dynarray_init(&p->files, sizeof(const char *));
    dynarray_init(&p->fs.insns, sizeof(ir_insn));
    dynarray_init(&p->fs.xops, sizeof(ir_operand));
    dynarray_init(&p->fs.vars, sizeof(ir_var));
    dynarray_init(&p->fs.reg_types, 1);
    dynarray_init(&p->fs.reg_ranges, sizeof(ptx_reg_range));
    dynarray_init(&p->fs.pred_ranges, sizeof(ptx_reg_range));
    fe_labels_init(&p->fs.labels);
    p->m = calloc(1, sizeof *p->m);
    if (fe_scope_init(&p->scope) != 0 || !p->m || ptx_tables_init(&p->tables) != 0)
        return false;
    arena_init(&p->m->arena);
    p->m->address_bits = 64;
    p->m->path = arena_strndup(&p->m->arena, p->cur.path, strlen(p->cur.path));
    return p->m->path != NULL;
}

static void parser_fini(ptx_parser *p)
{
    ptx_vec *vecs[] = {&p->funcs, &p->func_has_body, &p->vars, &p->relocs, &p->files,
                       &p->fs.insns, &p->fs.xops, &p->fs.vars, &p->fs.reg_types,
                       &p->fs.reg_ranges, &p->fs.pred_ranges};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        ptx_vec_free(vecs[i]);
    fe_labels_fini(&p->fs.labels);
    fe_scope_fini(&p->scope);
    ptx_tables_fini(&p->tables);
}

static void finish_module(ptx_parser *p)
{
    ir_module *m = p->m;
    m->funcs = ptx_arena_copy(p, &p->funcs);
    m->nfuncs = (uint32_t)p->funcs.count;
    m->vars = ptx_arena_copy(p, &p->vars);
    m->nvars = (uint32_t)p->vars.count;
    m->files = ptx_arena_copy(p, &p->files);
    m->nfiles = (uint32_t)p->files.count;
    m->ninsns_total = p->insn_ids;
    uint8_t *defined = p->func_has_body.data;
    for (uint32_t i = 0; m->funcs && i < m->nfuncs; i++)
        if (!defined[i] && !m->funcs[i].has_callprototype && !m->funcs[i].is_extern)
            m->funcs[i].is_extern = 1; /* declared only: defined elsewhere (a link-time symbol) */
    ptx_declare_machine(m);
}

ir_module *ptx_parse_module(const char *path, const char *text, size_t len, diag_list *dl)
{
    ptx_parser p;
    size_t errors_before = dl->errors;
    ptx_token_list tokens = {0};
    if (!parser_init(&p, path, dl)) {
        diag_add(dl, DIAG_ERROR, "PTX-LIMIT-002", path ? path : "", 0, 0, "out of memory");
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    if (ptx_lex(p.cur.path, text ? text : "", text ? len : 0, &tokens, dl) != 0) {
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    fe_cursor_init(&p.cur, tokens.items, tokens.count, p.cur.path, dl, "PTX-PARSE-001");
    p.errors_before = errors_before;
    ptx_scope_push(&p);
    while (ptx_peek(&p, 0)->kind != PTX_TOK_EOF && !p.cur.oom) {
        size_t before = p.cur.pos;
        parse_module_item(&p);
        if (p.cur.pos == before)
            ptx_next(&p); /* guarantee progress on any input */
        if (p.cur.muted)
            skip_rest_of_statement(&p);
    }
    if (!p.has_version || !p.has_target)
        require_header(&p, ptx_peek(&p, 0));
    if (!p.cur.oom)
        finish_module(&p);
    ir_module *m = frontend_finish_module(p.m, dl, errors_before, p.cur.oom);
    ptx_tokens_free(&tokens);
    parser_fini(&p);
    return m;
}
