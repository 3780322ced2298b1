/* PTX module structure: the module header, module-level directives, functions and their bodies,
 * lexical scopes and the symbol table, labels, and the final copy of everything into the module's
 * arena. Declarations are in ptx_decl.c and instructions in ptx_insn.c; this file decides which of
 * them a statement is. It is a recursive-descent parser over the token array of ptx_lex.c that
 * recovers at the next ';' or '}' after an error. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/ptx_internal.h"

enum { PTX_MAX_NESTING = 200 };

/* ---- tokens and errors ---- */
const ptx_token *ptx_peek(const ptx_parser *p, size_t ahead)
{
    size_t i = p->pos + ahead;
    return &p->tok[i < p->ntok ? i : p->ntok - 1];
}

const ptx_token *ptx_next(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (p->pos + 1 < p->ntok)
        p->pos++;
    return t;
}

bool ptx_is_punct(const ptx_token *t, char c) { return t->kind == PTX_TOK_PUNCT && t->punct == c; }

bool ptx_is_dot(const ptx_token *t, const char *text)
{
    return t->kind == PTX_TOK_DOTNAME && strlen(text) == t->len && memcmp(t->text, text, t->len) == 0;
}

bool ptx_accept_punct(ptx_parser *p, char c)
{
    if (!ptx_is_punct(ptx_peek(p, 0), c))
        return false;
    ptx_next(p);
    return true;
}

static const char *token_desc(const ptx_token *t, char *buf, size_t size)
{
    if (t->kind == PTX_TOK_EOF)
        return "end of file";
    snprintf(buf, size, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
    return buf;
}

bool ptx_expect_punct(ptx_parser *p, char c, const char *what)
{
    if (ptx_accept_punct(p, c))
        return true;
    char buf[64];
    ptx_error(p, ptx_peek(p, 0), "PTX-PARSE-001", "expected '%c' %s, found %s", c, what,
              token_desc(ptx_peek(p, 0), buf, sizeof buf));
    return false;
}

static void verror(ptx_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt,
                   va_list ap)
{
    if (p->limit_hit)
        return; /* a follow-on error of a limit error */
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    diag_add(p->dl, DIAG_ERROR, rule, p->path, line, col, "%s", msg);
}

void ptx_limit_error(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(p, line, col, "PTX-LIMIT-001", fmt, ap);
    va_end(ap);
    p->limit_hit = true;
}

void ptx_error(ptx_parser *p, const ptx_token *t, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(p, t->line, t->col, rule, fmt, ap);
    va_end(ap);
}

void ptx_error_at(ptx_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(p, line, col, rule, fmt, ap);
    va_end(ap);
}

void ptx_oom(ptx_parser *p)
{
    if (!p->oom)
        diag_add(p->dl, DIAG_ERROR, "PTX-LIMIT-002", p->path, ptx_peek(p, 0)->line, 0,
                 "out of memory");
    p->oom = true;
}

void ptx_recover(ptx_parser *p)
{
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        if (t->kind == PTX_TOK_EOF || ptx_is_punct(t, '}') || ptx_is_punct(t, '{'))
            return;
        ptx_next(p);
        if (ptx_is_punct(t, ';'))
            return;
    }
}

void ptx_recover_from(ptx_parser *p, size_t start)
{
    if (start < p->pos)
        p->pos = start;
    int depth = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        if (t->kind == PTX_TOK_EOF || (depth == 0 && ptx_is_punct(t, '}')))
            return;
        ptx_next(p);
        if (ptx_is_punct(t, '{'))
            depth++;
        else if (ptx_is_punct(t, '}'))
            depth--;
        else if (ptx_is_punct(t, ';'))
            return;
    }
}

/* ---- symbols: chained hash, innermost binding first, popped in LIFO order ---- */
void ptx_scope_push(ptx_parser *p)
{
    size_t *s = ptx_vec_push(&p->scopes);
    if (!s) {
        ptx_oom(p);
        return;
    }
    *s = p->bindings.count;
}

static uint32_t bucket_of(const char *name, uint32_t len, bool is_range)
{
    return (ptx_hash(name, len) + (is_range ? 7919u : 0u)) & (PTX_SYM_BUCKETS - 1);
}

void ptx_scope_pop(ptx_parser *p)
{
    if (!p->scopes.count)
        return;
    size_t start = ((size_t *)p->scopes.data)[--p->scopes.count];
    ptx_binding *b = p->bindings.data;
    while (p->bindings.count > start) {
        ptx_binding *top = &b[p->bindings.count - 1];
        p->sym_bucket[bucket_of(top->name, top->len, top->is_range)] = top->next;
        p->bindings.count--;
    }
}

ptx_binding *ptx_declare(ptx_parser *p, const char *name, uint32_t len, ptx_sym_kind kind,
                         bool is_range, uint32_t line, uint32_t col)
{
    uint32_t h = bucket_of(name, len, is_range);
    size_t scope_start = p->scopes.count ? ((size_t *)p->scopes.data)[p->scopes.count - 1] : 0;
    ptx_binding *all = p->bindings.data;
    for (int32_t i = p->sym_bucket[h]; i >= 0; i = all[i].next) {
        if ((size_t)i < scope_start)
            break;
        if (all[i].len == len && all[i].is_range == is_range && memcmp(all[i].name, name, len) == 0) {
            ptx_error_at(p, line, col, "PTX-SYM-004", "redefinition of '%.*s'", (int)len, name);
            if (!p->limit_hit)
                diag_add_note(p->dl, p->path, all[i].line, all[i].col,
                              "previous declaration is here");
            return NULL;
        }
    }
    ptx_binding *b = ptx_vec_push(&p->bindings);
    if (!b) {
        ptx_oom(p);
        return NULL;
    }
    b->name = name;
    b->len = len;
    b->kind = (uint8_t)kind;
    b->is_range = is_range;
    b->line = line;
    b->col = col;
    b->next = p->sym_bucket[h];
    p->sym_bucket[h] = (int32_t)(p->bindings.count - 1);
    return b;
}

static const ptx_binding *find_exact(const ptx_parser *p, const char *name, uint32_t len,
                                     bool is_range)
{
    const ptx_binding *all = p->bindings.data;
    for (int32_t i = p->sym_bucket[bucket_of(name, len, is_range)]; i >= 0; i = all[i].next)
        if (all[i].len == len && all[i].is_range == is_range && memcmp(all[i].name, name, len) == 0)
            return &all[i];
    return NULL;
}

const ptx_binding *ptx_lookup(const ptx_parser *p, const char *name, uint32_t len, uint32_t *slot)
{
    const ptx_binding *b = find_exact(p, name, len, false);
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
    b = find_exact(p, name, len - digits, true);
    if (!b || number >= b->count)
        return NULL;
    if (slot)
        *slot = b->index + number;
    return b;
}

/* ---- labels (function-wide, may be used before they are defined) ---- */
int32_t ptx_label_get(ptx_parser *p, const char *name, uint32_t len, uint32_t line, uint32_t col)
{
    uint32_t h = ptx_hash(name, len) & 255u;
    ptx_label *all = p->fs.labels.data;
    for (int32_t i = p->fs.label_bucket[h]; i >= 0; i = all[i].next)
        if (all[i].len == len && memcmp(all[i].name, name, len) == 0)
            return i;
    ptx_label *l = ptx_vec_push(&p->fs.labels);
    if (!l) {
        ptx_oom(p);
        return -1;
    }
    l->name = name;
    l->len = len;
    l->insn = -1;
    l->line = line;
    l->col = col;
    l->targets_first = -1;
    l->next = p->fs.label_bucket[h];
    p->fs.label_bucket[h] = (int32_t)(p->fs.labels.count - 1);
    return (int32_t)(p->fs.labels.count - 1);
}

void ptx_add_label_ref(ptx_parser *p, uint32_t insn, int32_t xop, const ptx_name *name)
{
    int32_t l = ptx_label_get(p, name->text, name->len, name->line, name->col);
    ptx_label_ref *r = l >= 0 ? ptx_vec_push(&p->fs.label_refs) : NULL;
    if (l >= 0 && !r) {
        ptx_oom(p);
        return;
    }
    if (!r)
        return;
    r->insn = insn;
    r->xop = xop;
    r->label = (uint32_t)l;
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
                      token_desc(t, buf, sizeof buf));
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
static void parse_loc(ptx_parser *p)
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

/* Skips a balanced { ... } group; the current token is the '{'. */
static void skip_braces(ptx_parser *p)
{
    ptx_next(p);
    int depth = 1;
    while (depth > 0 && ptx_peek(p, 0)->kind != PTX_TOK_EOF) {
        const ptx_token *t = ptx_next(p);
        depth += ptx_is_punct(t, '{') - ptx_is_punct(t, '}');
    }
}

/* Debug sections carry DWARF bytes that gpumemsim has no use for: skip them whole. */
static void skip_section(ptx_parser *p)
{
    ptx_next(p); /* section name */
    if (!ptx_expect_punct(p, '{', "to open the section"))
        return;
    int depth = 1;
    while (depth > 0 && ptx_peek(p, 0)->kind != PTX_TOK_EOF) {
        const ptx_token *t = ptx_next(p);
        depth += ptx_is_punct(t, '{') - ptx_is_punct(t, '}');
    }
}

static void parse_pragma(ptx_parser *p)
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

/* ---- functions ---- */
static bool parse_u32_list(ptx_parser *p, uint32_t *out, int max)
{
    for (int i = 0; i < max; i++) {
        int64_t v;
        if (!ptx_parse_const_expr(p, &v))
            return false;
        if (v < 0 || v > UINT32_MAX) {
            ptx_error(p, ptx_peek(p, 0), "PTX-OPND-003", "directive value out of range");
            return false;
        }
        out[i] = (uint32_t)v;
        if (!ptx_accept_punct(p, ','))
            return true;
    }
    return true;
}

static bool parse_perf_directives(ptx_parser *p, ir_func *fn)
{
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        if (t->kind != PTX_TOK_DOTNAME)
            return true;
        if (ptx_is_dot(t, ".maxntid") || ptx_is_dot(t, ".reqntid")) {
            ptx_next(p);
            uint32_t v[3] = {1, 1, 1};
            if (!parse_u32_list(p, v, 3))
                return false;
            int is_max = ptx_is_dot(t, ".maxntid");
            memcpy(is_max ? fn->maxntid : fn->reqntid, v, sizeof v);
            *(is_max ? &fn->maxntid_line : &fn->reqntid_line) = t->line;
            *(is_max ? &fn->maxntid_col : &fn->reqntid_col) = t->col;
        } else if (ptx_is_dot(t, ".minnctapersm") || ptx_is_dot(t, ".maxnctapersm") ||
                   ptx_is_dot(t, ".maxnreg")) {
            ptx_next(p);
            uint32_t v = 0;
            if (!parse_u32_list(p, &v, 1))
                return false;
            if (ptx_is_dot(t, ".minnctapersm"))
                fn->minnctapersm = v;
            else if (ptx_is_dot(t, ".maxnctapersm"))
                fn->maxnctapersm = v;
            else
                fn->maxnreg = v;
        } else if (ptx_is_dot(t, ".noreturn")) {
            ptx_next(p);
            fn->is_noreturn = 1;
        } else if (ptx_is_dot(t, ".pragma")) {
            ptx_next(p);
            parse_pragma(p);
        } else if (ptx_is_dot(t, ".reqnctapercluster") || ptx_is_dot(t, ".maxclusterrank") ||
                   ptx_is_dot(t, ".explicitcluster") || ptx_is_dot(t, ".blocksareclusters") ||
                   ptx_is_dot(t, ".abi_preserve") || ptx_is_dot(t, ".abi_preserve_control")) {
            ptx_error(p, t, "PTX-UNSUP-002", "directive %.*s is not modelled by gpumemsim "
                      "(thread-block clusters and ABI register hints)", (int)t->len, t->text);
            ptx_next(p);
            while (ptx_peek(p, 0)->kind == PTX_TOK_INT || ptx_is_punct(ptx_peek(p, 0), ','))
                ptx_next(p);
        } else {
            return true;
        }
    }
}

/* Finds or creates the module function `name`; returns its index or -1. */
static int32_t function_slot(ptx_parser *p, const ptx_token *name, bool has_body)
{
    const ptx_binding *b = find_exact(p, name->text, name->len, false);
    if (b && b->kind == PTX_SYM_FUNC && p->scopes.count == 1) {
        uint8_t *defined = p->func_has_body.data;
        if (has_body && defined[b->index]) {
            ptx_error(p, name, "PTX-SYM-004", "redefinition of function '%.*s'", (int)name->len,
                      name->text);
            return -1;
        }
        return (int32_t)b->index;
    }
    ptx_binding *nb = ptx_declare(p, name->text, name->len, PTX_SYM_FUNC, false, name->line,
                                  name->col);
    ir_func *fn = nb ? ptx_vec_push(&p->funcs) : NULL;
    uint8_t *flag = fn ? ptx_vec_push(&p->func_has_body) : NULL;
    if (!flag) {
        if (nb)
            ptx_oom(p);
        return -1;
    }
    nb->index = (uint32_t)(p->funcs.count - 1);
    fn->name = arena_strndup(&p->m->arena, name->text, name->len);
    fn->line = name->line;
    fn->col = name->col;
    return (int32_t)nb->index;
}

static void parse_body(ptx_parser *p);
static void finish_function(ptx_parser *p, ir_func *fn);

static void bind_params(ptx_parser *p, const ir_param *params, uint32_t n, ptx_sym_kind kind)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!params[i].name || !strcmp(params[i].name, "_"))
            continue;
        ptx_binding *b = ptx_declare(p, params[i].name, (uint32_t)strlen(params[i].name), kind,
                                     false, params[i].line, params[i].col);
        if (b) {
            b->index = i;
            b->type = params[i].type;
        }
    }
}

static void parse_function(ptx_parser *p, uint8_t is_extern, uint8_t is_visible, uint8_t is_weak)
{
    bool is_entry = ptx_is_dot(ptx_next(p), ".entry");
    ir_param *rets = NULL, *params = NULL;
    int nrets = 0, nparams = 0;
    if (!is_entry && ptx_is_punct(ptx_peek(p, 0), '('))
        nrets = ptx_parse_params(p, &rets, true, -1);
    const ptx_token *name = ptx_next(p);
    if (name->kind != PTX_TOK_IDENT) {
        ptx_error(p, name, "PTX-PARSE-001", "expected a function name");
        ptx_recover(p);
        return;
    }
    if (ptx_is_punct(ptx_peek(p, 0), '('))
        nparams = ptx_parse_params(p, &params, false, -1);
    ir_func scratch = {0};
    if (nrets < 0 || nparams < 0 || !parse_perf_directives(p, &scratch)) {
        ptx_recover(p);
        return;
    }
    bool has_body = ptx_is_punct(ptx_peek(p, 0), '{');
    int32_t index = function_slot(p, name, has_body);
    if (index < 0) {
        if (has_body)
            skip_braces(p);
        else
            ptx_recover(p);
        return;
    }
    ir_func *fn = &((ir_func *)p->funcs.data)[index];
    const char *fname = fn->name;
    memcpy(fn->maxntid, scratch.maxntid, sizeof fn->maxntid);
    memcpy(fn->reqntid, scratch.reqntid, sizeof fn->reqntid);
    fn->maxntid_line = scratch.maxntid_line;
    fn->maxntid_col = scratch.maxntid_col;
    fn->reqntid_line = scratch.reqntid_line;
    fn->reqntid_col = scratch.reqntid_col;
    fn->minnctapersm = scratch.minnctapersm;
    fn->maxnctapersm = scratch.maxnctapersm;
    fn->maxnreg = scratch.maxnreg;
    fn->is_noreturn = scratch.is_noreturn;
    fn->name = fname;
    fn->is_entry = is_entry;
    fn->is_extern = is_extern;
    fn->is_visible = is_visible;
    fn->is_weak = is_weak;
    fn->params = params;
    fn->nparams = (uint32_t)nparams;
    fn->rets = rets;
    fn->nrets = (uint32_t)nrets;
    fn->params_bytes = 0;
    for (int i = 0; i < nparams; i++)
        if (params[i].offset + params[i].size_bytes > fn->params_bytes)
            fn->params_bytes = params[i].offset + params[i].size_bytes;
    if (!has_body) {
        ptx_expect_punct(p, ';', "after a function declaration");
        return;
    }
    if (is_extern)
        ptx_error(p, name, "PTX-DECL-002", ".extern function '%.*s' must not have a body",
                  (int)name->len, name->text);
    ((uint8_t *)p->func_has_body.data)[index] = 1;
    ptx_next(p); /* '{' */
    memset(&p->fs.label_bucket, 0xFF, sizeof p->fs.label_bucket);
    p->fs.func = index;
    p->loc_file = p->loc_line = 0;
    ptx_scope_push(p);
    bind_params(p, params, (uint32_t)nparams, PTX_SYM_PARAM);
    bind_params(p, rets, (uint32_t)nrets, PTX_SYM_RET);
    parse_body(p);
    ptx_scope_pop(p);
    finish_function(p, &((ir_func *)p->funcs.data)[index]);
    p->fs.func = -1;
    p->limit_hit = false; /* the body that held the limit error is over */
}

/* `name: .callprototype (rets) _ (params);` declares a signature for indirect calls. */
static void parse_callprototype(ptx_parser *p, const ptx_token *name)
{
    ptx_next(p); /* .callprototype */
    ir_param *rets = NULL, *params = NULL;
    int nrets = 0, nparams = 0;
    if (ptx_is_punct(ptx_peek(p, 0), '('))
        nrets = ptx_parse_params(p, &rets, true, -1);
    const ptx_token *u = ptx_next(p);
    if (u->kind != PTX_TOK_IDENT || u->len != 1 || u->text[0] != '_') {
        ptx_error(p, u, "PTX-PARSE-001", "expected '_' in .callprototype");
        ptx_recover(p);
        return;
    }
    if (ptx_is_punct(ptx_peek(p, 0), '('))
        nparams = ptx_parse_params(p, &params, false, -1);
    while (ptx_is_dot(ptx_peek(p, 0), ".noreturn"))
        ptx_next(p);
    if (nrets < 0 || nparams < 0 || !ptx_expect_punct(p, ';', "after .callprototype")) {
        ptx_recover(p);
        return;
    }
    ptx_binding *b = ptx_declare(p, name->text, name->len, PTX_SYM_FUNC, false, name->line,
                                 name->col);
    ir_func *fn = b ? ptx_vec_push(&p->funcs) : NULL;
    uint8_t *flag = fn ? ptx_vec_push(&p->func_has_body) : NULL;
    if (!flag) {
        if (b)
            ptx_oom(p);
        return;
    }
    b->index = (uint32_t)(p->funcs.count - 1);
    fn->name = arena_strndup(&p->m->arena, name->text, name->len);
    fn->line = name->line;
    fn->col = name->col;
    fn->has_callprototype = 1;
    fn->params = params;
    fn->nparams = (uint32_t)nparams;
    fn->rets = rets;
    fn->nrets = (uint32_t)nrets;
    for (int i = 0; i < nparams; i++)
        if (params[i].offset + params[i].size_bytes > fn->params_bytes)
            fn->params_bytes = params[i].offset + params[i].size_bytes;
}

/* `name: .branchtargets L1, L2, ...;` a label table for brx.idx. */
static void parse_branchtargets(ptx_parser *p, const ptx_token *name)
{
    ptx_next(p);
    int32_t self = ptx_label_get(p, name->text, name->len, name->line, name->col);
    if (self < 0)
        return;
    size_t first = p->fs.label_lists.count;
    uint32_t n = 0;
    do {
        const ptx_token *t = ptx_next(p);
        if (t->kind != PTX_TOK_IDENT) {
            ptx_error(p, t, "PTX-PARSE-001", "expected a label in .branchtargets");
            ptx_recover(p);
            return;
        }
        int32_t l = ptx_label_get(p, t->text, t->len, t->line, t->col);
        uint32_t *slot = l >= 0 ? ptx_vec_push(&p->fs.label_lists) : NULL;
        if (!slot)
            return;
        *slot = (uint32_t)l;
        n++;
    } while (ptx_accept_punct(p, ','));
    ptx_expect_punct(p, ';', "after .branchtargets");
    ptx_label *lab = &((ptx_label *)p->fs.labels.data)[self];
    if (lab->targets_first >= 0) {
        ptx_error(p, name, "PTX-SYM-004", "redefinition of '%.*s'", (int)name->len, name->text);
        return;
    }
    lab->targets_first = (int32_t)first;
    lab->targets_count = n;
}

static void parse_label(ptx_parser *p, const ptx_token *name)
{
    int32_t l = ptx_label_get(p, name->text, name->len, name->line, name->col);
    if (l < 0)
        return;
    ptx_label *lab = &((ptx_label *)p->fs.labels.data)[l];
    if (lab->insn >= 0) {
        ptx_error(p, name, "PTX-SYM-004", "redefinition of label '%.*s'", (int)name->len,
                  name->text);
        return;
    }
    lab->insn = (int32_t)p->fs.insns.count;
    lab->line = name->line;
    lab->col = name->col;
}

static void parse_body_directive(ptx_parser *p, const ptx_token *t)
{
    if (ptx_is_dot(t, ".reg")) {
        ptx_parse_reg_decl(p);
    } else if (ptx_is_dot(t, ".local") || ptx_is_dot(t, ".shared") || ptx_is_dot(t, ".param") ||
               ptx_is_dot(t, ".const") || ptx_is_dot(t, ".global")) {
        ptx_parse_var_decl(p, true, 0, 0);
    } else if (ptx_is_dot(t, ".pragma")) {
        ptx_next(p);
        parse_pragma(p);
    } else if (ptx_is_dot(t, ".loc")) {
        ptx_next(p);
        parse_loc(p);
    } else if (ptx_is_dot(t, ".extern")) {
        ptx_next(p);
        if (ptx_is_dot(ptx_peek(p, 0), ".shared"))
            ptx_parse_var_decl(p, true, 1, 0);
        else {
            ptx_error(p, t, "PTX-DECL-002", ".extern in a function body must declare .shared");
            ptx_recover(p);
        }
    } else {
        ptx_error(p, t, "PTX-PARSE-003", "unknown or misplaced directive '%.*s' in a function body",
                  (int)t->len, t->text);
        ptx_next(p);
        ptx_recover(p);
    }
}

/* After a limit error in a body: skips to the '}' that closes the function (`depth` blocks are
 * open) and pops the scopes of the inner blocks (depth - 1 of them were pushed). */
static void skip_rest_of_body(ptx_parser *p, int depth, int scopes)
{
    while (depth > 0 && ptx_peek(p, 0)->kind != PTX_TOK_EOF) {
        const ptx_token *t = ptx_next(p);
        depth += ptx_is_punct(t, '{') - ptx_is_punct(t, '}');
    }
    while (scopes-- > 0)
        ptx_scope_pop(p);
}

static void parse_body(ptx_parser *p)
{
    int depth = 1;
    while (depth > 0) {
        const ptx_token *t = ptx_peek(p, 0);
        if (p->limit_hit) {
            skip_rest_of_body(p, depth, depth - 1);
            return;
        }
        if (t->kind == PTX_TOK_EOF) {
            ptx_error(p, t, "PTX-PARSE-001", "missing '}' at the end of the function body");
            while (--depth > 0)
                ptx_scope_pop(p);
            return;
        }
        if (p->oom)
            return;
        if (ptx_is_punct(t, '}')) {
            ptx_next(p);
            if (--depth > 0)
                ptx_scope_pop(p);
        } else if (ptx_is_punct(t, '{')) {
            ptx_next(p);
            if (depth >= PTX_MAX_NESTING) {
                ptx_limit_error(p, t->line, t->col, "blocks nested deeper than %d",
                                PTX_MAX_NESTING);
                skip_rest_of_body(p, depth + 1, depth - 1); /* this '{' is open too */
                return;
            }
            depth++;
            ptx_scope_push(p);
        } else if (t->kind == PTX_TOK_DOTNAME) {
            parse_body_directive(p, t);
        } else if (t->kind == PTX_TOK_IDENT && ptx_is_punct(ptx_peek(p, 1), ':')) {
            ptx_next(p);
            ptx_next(p);
            if (ptx_is_dot(ptx_peek(p, 0), ".callprototype"))
                parse_callprototype(p, t);
            else if (ptx_is_dot(ptx_peek(p, 0), ".branchtargets"))
                parse_branchtargets(p, t);
            else if (ptx_is_dot(ptx_peek(p, 0), ".calltargets")) {
                ptx_error(p, ptx_peek(p, 0), "PTX-UNSUP-002", ".calltargets is not modelled");
                ptx_recover(p);
            } else
                parse_label(p, t);
        } else if (t->kind == PTX_TOK_IDENT || ptx_is_punct(t, '@')) {
            ptx_parse_instruction(p);
        } else {
            char buf[64];
            ptx_error(p, t, "PTX-PARSE-001", "expected an instruction, declaration or label, found %s",
                      token_desc(t, buf, sizeof buf));
            ptx_next(p);
            ptx_recover(p);
        }
    }
}

/* ---- finishing a function: labels, register names, copies into the arena ---- */
static void *arena_copy(ptx_parser *p, const ptx_vec *v)
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

static void resolve_labels(ptx_parser *p, ir_insn *insns, ir_operand *xops)
{
    ptx_label *labels = p->fs.labels.data;
    ptx_label_ref *refs = p->fs.label_refs.data;
    for (size_t i = 0; i < p->fs.label_refs.count; i++) {
        ptx_label *l = &labels[refs[i].label];
        if (l->insn < 0) {
            if (!l->targets_count || refs[i].xop >= 0) {
                ptx_error_at(p, l->line, l->col, "PTX-SYM-003", "undefined label '%.*s'",
                             (int)l->len, l->name);
                l->insn = 0; /* report once */
            }
            continue;
        }
        ir_operand *o = refs[i].xop >= 0 ? &xops[refs[i].xop] : &insns[refs[i].insn].src[0];
        o->imm = l->insn;
    }
}

static const char **range_names(ptx_parser *p, const ptx_vec *ranges, uint32_t n)
{
    if (!n)
        return NULL;
    const char **names = arena_alloc(&p->m->arena, n * sizeof *names);
    if (!names) {
        ptx_oom(p);
        return NULL;
    }
    const ptx_reg_range *r = ranges->data;
    for (size_t i = 0; i < ranges->count; i++) {
        if (!r[i].count) {
            if (r[i].first < n)
                names[r[i].first] = arena_strndup(&p->m->arena, r[i].name, r[i].len);
            continue;
        }
        for (uint32_t k = 0; k < r[i].count && r[i].first + k < n; k++) {
            char buf[32];
            int w = snprintf(buf, sizeof buf, "%u", k);
            char *s = arena_alloc(&p->m->arena, r[i].len + (size_t)w + 1);
            if (!s) {
                ptx_oom(p);
                return names;
            }
            memcpy(s, r[i].name, r[i].len);
            memcpy(s + r[i].len, buf, (size_t)w + 1);
            names[r[i].first + k] = s;
        }
    }
    return names;
}

static void finish_function(ptx_parser *p, ir_func *fn)
{
    ptx_func_state *fs = &p->fs;
    if (fs->insns.count && fs->insns.count + p->insn_ids > UINT32_MAX / 2)
        ptx_limit_error(p, fn->line, fn->col, "too many instructions");
    if (fs->reg_types.count > PTX_MAX_FUNC_SLOTS || fs->npreds > PTX_MAX_FUNC_SLOTS)
        ptx_limit_error(p, fn->line, fn->col, "function '%s' declares more than %u registers",
                        fn->name ? fn->name : "?", PTX_MAX_FUNC_SLOTS);
    else if (!p->oom && p->dl->errors == p->errors_before) {
        ir_insn *insns = arena_copy(p, &fs->insns);
        ir_operand *xops = arena_copy(p, &fs->xops);
        resolve_labels(p, insns, xops);
        for (size_t i = 0; insns && i < fs->insns.count; i++)
            insns[i].id = p->insn_ids++;
        fn->insns = insns;
        fn->ninsns = (uint32_t)fs->insns.count;
        fn->xops = xops;
        fn->nxops = (uint32_t)fs->xops.count;
        fn->vars = arena_copy(p, &fs->vars);
        fn->nvars = (uint32_t)fs->vars.count;
        fn->reg_types = arena_copy(p, &fs->reg_types);
        fn->nregs = (uint32_t)fs->reg_types.count;
        fn->npreds = fs->npreds;
        fn->reg_names = range_names(p, &fs->reg_ranges, fn->nregs);
        fn->pred_names = range_names(p, &fs->pred_ranges, fn->npreds);
    } else {
        /* Errors already: still report undefined labels, but build nothing. */
        resolve_labels(p, fs->insns.data, fs->xops.data);
    }
    fs->insns.count = fs->xops.count = fs->vars.count = fs->reg_types.count = 0;
    fs->labels.count = fs->label_refs.count = fs->label_lists.count = 0;
    fs->reg_ranges.count = fs->pred_ranges.count = 0;
    fs->npreds = 0;
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
                  token_desc(t, buf, sizeof buf));
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
        parse_pragma(p);
    } else if (ptx_is_dot(t, ".loc")) {
        ptx_next(p);
        parse_loc(p);
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
            parse_function(p, is_extern, is_visible, is_weak);
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
    if (!(p->pos > 0 && ptx_is_punct(&p->tok[p->pos - 1], ';'))) {
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
    p->limit_hit = false;
}

static bool parser_init(ptx_parser *p, const char *path, const char *text, diag_list *dl)
{
    memset(p, 0, sizeof *p);
    p->path = path ? path : "";
    p->text = text;
    p->dl = dl;
    p->fs.func = -1;
    p->funcs.elem = sizeof(ir_func);
    p->func_has_body.elem = 1;
    p->vars.elem = sizeof(ir_var);
    p->relocs.elem = sizeof(ir_reloc);
    p->files.elem = sizeof(const char *);
    p->bindings.elem = sizeof(ptx_binding);
    p->scopes.elem = sizeof(size_t);
    p->fs.insns.elem = sizeof(ir_insn);
    p->fs.xops.elem = sizeof(ir_operand);
    p->fs.vars.elem = sizeof(ir_var);
    p->fs.reg_types.elem = 1;
    p->fs.labels.elem = sizeof(ptx_label);
    p->fs.label_refs.elem = sizeof(ptx_label_ref);
    p->fs.label_lists.elem = sizeof(uint32_t);
    p->fs.reg_ranges.elem = sizeof(ptx_reg_range);
    p->fs.pred_ranges.elem = sizeof(ptx_reg_range);
    p->sym_bucket = malloc(PTX_SYM_BUCKETS * sizeof *p->sym_bucket);
    p->m = calloc(1, sizeof *p->m);
    if (!p->sym_bucket || !p->m || ptx_tables_init(&p->tables) != 0)
        return false;
    memset(p->sym_bucket, 0xFF, PTX_SYM_BUCKETS * sizeof *p->sym_bucket);
    arena_init(&p->m->arena);
    p->m->address_bits = 64;
    p->m->path = arena_strndup(&p->m->arena, p->path, strlen(p->path));
    return p->m->path != NULL;
}

static void parser_fini(ptx_parser *p)
{
    ptx_vec *vecs[] = {&p->funcs, &p->func_has_body, &p->vars, &p->relocs, &p->files,
                       &p->bindings, &p->scopes, &p->fs.insns, &p->fs.xops, &p->fs.vars,
                       &p->fs.reg_types, &p->fs.labels, &p->fs.label_refs, &p->fs.label_lists,
                       &p->fs.reg_ranges, &p->fs.pred_ranges};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        ptx_vec_free(vecs[i]);
    free(p->sym_bucket);
    ptx_tables_fini(&p->tables);
}

static void finish_module(ptx_parser *p)
{
    ir_module *m = p->m;
    m->funcs = arena_copy(p, &p->funcs);
    m->nfuncs = (uint32_t)p->funcs.count;
    m->vars = arena_copy(p, &p->vars);
    m->nvars = (uint32_t)p->vars.count;
    m->files = arena_copy(p, &p->files);
    m->nfiles = (uint32_t)p->files.count;
    m->ninsns_total = p->insn_ids;
    uint8_t *defined = p->func_has_body.data;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!defined[i] && !m->funcs[i].has_callprototype && !m->funcs[i].is_extern)
            m->funcs[i].is_extern = 1; /* declared only: defined elsewhere (a link-time symbol) */
    ptx_declare_machine(m);
}

ir_module *ptx_parse_module(const char *path, const char *text, size_t len, diag_list *dl)
{
    ptx_parser p;
    size_t errors_before = dl->errors;
    ptx_token_list tokens = {0};
    if (!parser_init(&p, path, text, dl)) {
        diag_add(dl, DIAG_ERROR, "PTX-LIMIT-002", path ? path : "", 0, 0, "out of memory");
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    if (ptx_lex(p.path, text ? text : "", text ? len : 0, &tokens, dl) != 0) {
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    p.tok = tokens.items;
    p.ntok = tokens.count;
    p.errors_before = errors_before;
    ptx_scope_push(&p);
    while (ptx_peek(&p, 0)->kind != PTX_TOK_EOF && !p.oom) {
        size_t before = p.pos;
        parse_module_item(&p);
        if (p.pos == before)
            ptx_next(&p); /* guarantee progress on any input */
        if (p.limit_hit)
            skip_rest_of_statement(&p);
    }
    if (!p.has_version || !p.has_target)
        require_header(&p, ptx_peek(&p, 0));
    if (!p.oom)
        finish_module(&p);
    ir_module *m = p.m;
    if (dl->errors != errors_before || p.oom) {
        ir_module_destroy(m);
        m = NULL;
    }
    ptx_tokens_free(&tokens);
    parser_fini(&p);
    return m;
}
