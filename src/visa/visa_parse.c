/* The vISA module reader: directives, declarations and labels (docs/visa.md, "Dialect"). A
 * module is `.version 4.1`, `.kernel "name"`, the kernel's `.decl`, `.input` and `.kernel_attr`
 * lines, then `.function "name"` and the code: labels (`name:`) and one instruction per line
 * (visa_insn.c). A directive ends at the end of its line.
 *
 * The GRF row size that regions count in is not written in the text: it is the platform's
 * (64 bytes on Xe-HPC, 32 on Xe-HPG). visa_payload.c infers it from the payload and the
 * alignments (docs/visa.md, "Registers and regions"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "visa/visa.h"
#include "visa/visa_internal.h"
#include "visa/visa_lower.h"
#include "visa/visa_lower_internal.h"

static const fe_token *peek(visa_parser *p, size_t ahead) { return fe_cursor_peek(&p->cur, ahead); }
static const fe_token *next(visa_parser *p) { return fe_cursor_next(&p->cur); }

void visa_error(visa_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    fe_cursor_verror_at(&p->cur, line, col, rule, fmt, ap);
    va_end(ap);
}

void visa_expected(visa_parser *p, const char *what)
{
    char buf[64];
    const fe_token *t = peek(p, 0);
    visa_error(p, t->line, t->col, "VISA-PARSE-001", "expected %s, found %s", what,
               fe_token_describe(t, buf, sizeof buf));
}

void visa_skip_line(visa_parser *p, uint32_t line)
{
    while (peek(p, 0)->kind != FE_TOK_EOF && peek(p, 0)->line == line)
        next(p);
}

/* ---- variables ---- */
visa_var *visa_var_at(const visa_parser *p, int32_t v) { return &((visa_var *)p->vars.data)[v]; }

int32_t visa_find_var(const visa_parser *p, const fe_token *t)
{
    const visa_var *vs = p->vars.data;
    for (size_t i = p->vars.count; i-- > 0;)
        if (vs[i].len == t->len && memcmp(vs[i].name, t->text, t->len) == 0)
            return (int32_t)i;
    return -1;
}

/* The predefined variables in the order of IGC's comment block; their types are what vISA
 * gives them (ud for the header and ids, the surfaces as T). */
static const struct {
    const char *name;
    uint8_t kind, type;
    uint32_t elts;
} predefs[VISA_PRE_COUNT] = {
    [VISA_PRE_NULL] = {"%null", 'G', VISA_T_UD, 32},
    [VISA_PRE_THREAD_X] = {"%thread_x", 'G', VISA_T_UW, 1},
    [VISA_PRE_THREAD_Y] = {"%thread_y", 'G', VISA_T_UW, 1},
    [VISA_PRE_GROUP_ID_X] = {"%group_id_x", 'G', VISA_T_UD, 1},
    [VISA_PRE_GROUP_ID_Y] = {"%group_id_y", 'G', VISA_T_UD, 1},
    [VISA_PRE_GROUP_ID_Z] = {"%group_id_z", 'G', VISA_T_UD, 1},
    [VISA_PRE_TSC] = {"%tsc", 'G', VISA_T_UD, 5},
    [VISA_PRE_R0] = {"%r0", 'G', VISA_T_UD, 16},
    [VISA_PRE_ARG] = {"%arg", 'G', VISA_T_UD, 256},
    [VISA_PRE_RETVAL] = {"%retval", 'G', VISA_T_UD, 256},
    [VISA_PRE_SP] = {"%sp", 'G', VISA_T_UQ, 1},
    [VISA_PRE_FP] = {"%fp", 'G', VISA_T_UQ, 1},
    [VISA_PRE_HW_ID] = {"%hw_id", 'G', VISA_T_UD, 1},
    [VISA_PRE_SR0] = {"%sr0", 'G', VISA_T_UD, 4},
    [VISA_PRE_CR0] = {"%cr0", 'G', VISA_T_UD, 1},
    [VISA_PRE_CE0] = {"%ce0", 'G', VISA_T_UD, 1},
    [VISA_PRE_DBG0] = {"%dbg0", 'G', VISA_T_UD, 2},
    [VISA_PRE_COLOR] = {"%color", 'G', VISA_T_UW, 1},
    [VISA_PRE_IMPL_ARG_BUF_PTR] = {"%impl_arg_buf_ptr", 'G', VISA_T_UQ, 1},
    [VISA_PRE_LOCAL_ID_BUF_PTR] = {"%local_id_buf_ptr", 'G', VISA_T_UQ, 1},
    [VISA_PRE_MSG0] = {"%msg0", 'G', VISA_T_UD, 12},
    [VISA_PRE_SLM] = {"%slm", 'T', VISA_T_UD, 1},
    [VISA_PRE_BSS] = {"%bss", 'T', VISA_T_UD, 1},
    [VISA_PRE_SCRATCH] = {"%scratch", 'T', VISA_T_UD, 1},
};

static visa_var *add_var(visa_parser *p)
{
    visa_var *v = dynarray_push(&p->vars);
    if (!v)
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
    else {
        v->alias = -1;
        v->root = (int32_t)(p->vars.count - 1);
    }
    return v;
}

static bool add_predefs(visa_parser *p)
{
    for (int i = 1; i < VISA_PRE_COUNT; i++) {
        visa_var *v = add_var(p);
        if (!v)
            return false;
        v->name = predefs[i].name;
        v->len = (uint32_t)strlen(predefs[i].name);
        v->kind = predefs[i].kind;
        v->type = predefs[i].type;
        v->num_elts = predefs[i].elts;
        v->predef = (uint8_t)i;
        v->align_bytes = 4;
    }
    return true;
}

/* ---- .decl ---- */
static uint32_t align_bytes(const fe_token *t)
{
    static const struct { const char *name; uint32_t bytes; } names[] = {
        {"byte", 1}, {"word", 2}, {"dword", 4}, {"qword", 8}, {"oword", 16}, {"hword", 32},
        {"wordx32", 64}, {"wordx64", 128}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (fe_token_is(t, FE_TOK_IDENT, names[i].name))
            return names[i].bytes;
    return 0;
}

/* `alias=<V, off>`: the cursor is after '='. */
static bool decl_alias(visa_parser *p, visa_var *v)
{
    if (!fe_cursor_accept_punct(&p->cur, '<')) {
        visa_expected(p, "'<' of an alias");
        return false;
    }
    const fe_token *b = peek(p, 0);
    int32_t base = b->kind == FE_TOK_IDENT ? visa_find_var(p, b) : -1;
    if (base < 0) {
        visa_error(p, b->line, b->col, "VISA-SEM-005", "alias of an undeclared variable");
        return false;
    }
    next(p);
    if (!fe_cursor_accept_punct(&p->cur, ',') || peek(p, 0)->kind != FE_TOK_INT) {
        visa_expected(p, "', offset>' of an alias");
        return false;
    }
    v->alias = base;
    v->alias_offset = (uint32_t)next(p)->ivalue;
    if (!fe_cursor_accept_punct(&p->cur, '>')) {
        visa_expected(p, "'>' closing an alias");
        return false;
    }
    return true;
}

/* One `key=value` of a .decl. */
static bool decl_attr(visa_parser *p, visa_var *v)
{
    const fe_token *key = next(p);
    if (key->kind != FE_TOK_IDENT || !fe_cursor_accept_punct(&p->cur, '=')) {
        visa_error(p, key->line, key->col, "VISA-PARSE-003", "expected key=value in .decl");
        return false;
    }
    const fe_token *val = peek(p, 0);
    if (fe_token_is(key, FE_TOK_IDENT, "alias"))
        return decl_alias(p, v);
    next(p);
    if (fe_token_is(key, FE_TOK_IDENT, "v_type")) {
        if (val->kind != FE_TOK_IDENT || val->len != 1 || !strchr("GPAST", val->text[0]))
            goto bad;
        v->kind = (uint8_t)val->text[0];
    } else if (fe_token_is(key, FE_TOK_IDENT, "type")) {
        int t = val->kind == FE_TOK_IDENT ? visa_find_type(val->text, val->len) : -1;
        if (t < 0) {
            visa_error(p, val->line, val->col, "VISA-PARSE-007", "unknown type '%.*s'",
                       (int)val->len, val->text);
            return false;
        }
        v->type = (uint8_t)t;
    } else if (fe_token_is(key, FE_TOK_IDENT, "num_elts")) {
        if (val->kind != FE_TOK_INT || val->ivalue == 0 || val->ivalue > 65536)
            goto bad;
        v->num_elts = (uint32_t)val->ivalue;
    } else if (fe_token_is(key, FE_TOK_IDENT, "align")) {
        if (!(v->align_bytes = align_bytes(val)))
            goto bad;
    } else if (fe_token_is(key, FE_TOK_IDENT, "v_name")) {
        /* the name a T, S or predefined variable prints under: nothing to keep */
    } else {
        visa_error(p, key->line, key->col, "VISA-PARSE-003", "unknown .decl attribute '%.*s'",
                   (int)key->len, key->text);
        return false;
    }
    return true;
bad:
    visa_error(p, val->line, val->col, "VISA-PARSE-003", "bad value for .decl %.*s",
               (int)key->len, key->text);
    return false;
}

/* Follows v's alias to the storage owner; checks that it stays inside. */
static bool settle_alias(visa_parser *p, int32_t vi)
{
    visa_var *v = visa_var_at(p, vi);
    if (v->alias < 0)
        return true;
    visa_var *base = visa_var_at(p, v->alias);
    uint32_t bytes = v->num_elts * visa_types[v->type].bytes;
    uint32_t base_bytes = base->num_elts * visa_types[base->type].bytes;
    if (v->alias_offset + bytes > base_bytes || base->kind != VISA_V_GENERAL) {
        visa_error(p, v->line, v->col, "VISA-SEM-005",
                   "alias of %u bytes at offset %u does not fit in '%.*s' (%u bytes)", bytes,
                   v->alias_offset, (int)base->len, base->name, base_bytes);
        return false;
    }
    v->root = base->root;
    v->root_offset = base->root_offset + v->alias_offset;
    return true;
}

static void parse_decl(visa_parser *p, const fe_token *dir)
{
    const fe_token *name = peek(p, 0);
    if (name->kind != FE_TOK_IDENT) {
        visa_expected(p, "a variable name after .decl");
        return;
    }
    if (visa_find_var(p, name) >= 0) {
        visa_error(p, name->line, name->col, "VISA-SEM-002", "'%.*s' is declared twice",
                   (int)name->len, name->text);
        return;
    }
    next(p);
    visa_var *v = add_var(p);
    if (!v)
        return;
    v->name = name->text;
    v->len = name->len;
    v->line = name->line;
    v->col = name->col;
    v->kind = VISA_V_GENERAL;
    v->type = VISA_T_UD;
    v->num_elts = 1;
    int32_t vi = (int32_t)(p->vars.count - 1);
    while (peek(p, 0)->kind != FE_TOK_EOF && peek(p, 0)->line == dir->line)
        if (!decl_attr(p, visa_var_at(p, vi)))
            return;
    v = visa_var_at(p, vi);
    if (v->kind == VISA_V_PRED)
        v->type = VISA_T_BOOL;
    if (!v->align_bytes)
        v->align_bytes = visa_types[v->type].bytes;
    settle_alias(p, vi);
}

/* `.input V offset=N size=N`. */
static void parse_input(visa_parser *p)
{
    int32_t vi = visa_parse_var_name(p);
    if (vi < 0)
        return;
    uint64_t vals[2] = {0, 0};
    static const char *const keys[2] = {"offset", "size"};
    for (int k = 0; k < 2; k++) {
        const fe_token *key = peek(p, 0);
        if (!fe_token_is(key, FE_TOK_IDENT, keys[k]) || !fe_token_is_punct(peek(p, 1), '=') ||
            peek(p, 2)->kind != FE_TOK_INT) {
            visa_error(p, key->line, key->col, "VISA-PARSE-003", "expected %s=N in .input",
                       keys[k]);
            return;
        }
        vals[k] = peek(p, 2)->ivalue;
        next(p), next(p), next(p);
    }
    visa_var *v = visa_var_at(p, vi);
    uint32_t bytes = v->num_elts * visa_types[v->type].bytes;
    if (vals[1] == 0 || vals[1] > bytes || vals[0] + vals[1] > 4096 || v->alias >= 0) {
        visa_error(p, v->line, v->col, "VISA-SEM-006",
                   ".input of %llu bytes at %llu does not fit '%.*s' or the 4 KiB payload",
                   (unsigned long long)vals[1], (unsigned long long)vals[0], (int)v->len, v->name);
        return;
    }
    v->is_input = 1;
    v->input_offset = (uint32_t)vals[0];
    v->input_size = (uint32_t)vals[1];
}

/* `.kernel_attr Name=Value`. SimdSize and PerThreadInputSize matter to the execution model;
 * the others (Target, ...) describe the compile and are accepted as written. */
static void parse_kernel_attr(visa_parser *p)
{
    const fe_token *key = next(p);
    if (key->kind != FE_TOK_IDENT || !fe_cursor_accept_punct(&p->cur, '=')) {
        visa_error(p, key->line, key->col, "VISA-PARSE-003", "expected Name=Value after .kernel_attr");
        return;
    }
    const fe_token *val = next(p);
    bool simd = fe_token_is(key, FE_TOK_IDENT, "SimdSize");
    bool ptis = fe_token_is(key, FE_TOK_IDENT, "PerThreadInputSize");
    if (!simd && !ptis)
        return;
    uint64_t n = val->kind == FE_TOK_INT ? val->ivalue : UINT64_MAX;
    if (simd && n != 1 && n != 8 && n != 16 && n != 32) {
        visa_error(p, val->line, val->col, "VISA-SEM-006", "SimdSize must be 1, 8, 16 or 32");
        return;
    }
    if (ptis && n > 4096) {
        visa_error(p, val->line, val->col, "VISA-SEM-006", "bad PerThreadInputSize");
        return;
    }
    if (simd)
        p->simd_size = (uint32_t)n;
    else
        p->per_thread_input_bytes = (uint32_t)n;
}

static void parse_version(visa_parser *p, const fe_token *dir)
{
    const fe_token *v = peek(p, 0);
    if (!(v->kind == FE_TOK_FLOAT && v->len == 3 && memcmp(v->text, "4.1", 3) == 0)) {
        visa_error(p, dir->line, dir->col, "VISA-PARSE-008",
                   ".version must be 4.1 (the vISA of IGC 1.0.12504)");
        return;
    }
    next(p);
    p->version_seen = true;
}

static void parse_kernel(visa_parser *p, const fe_token *dir)
{
    const fe_token *n = peek(p, 0);
    if (n->kind != FE_TOK_STRING || n->len < 3) {
        visa_expected(p, "the kernel's name in quotes");
        return;
    }
    if (p->kernel_name) {
        visa_error(p, dir->line, dir->col, "VISA-PARSE-008", "a second .kernel in one module");
        return;
    }
    next(p);
    p->kernel_name = n->text + 1;
    p->kernel_len = n->len - 2;
    p->kernel_line = dir->line;
    p->kernel_col = dir->col;
}

static void parse_directive(visa_parser *p)
{
    const fe_token *dir = next(p);
    bool need_kernel = !fe_token_is(dir, FE_TOK_DOTNAME, ".version") &&
                       !fe_token_is(dir, FE_TOK_DOTNAME, ".kernel");
    if (need_kernel && !p->kernel_name) {
        visa_error(p, dir->line, dir->col, "VISA-PARSE-008", "%.*s before .kernel",
                   (int)dir->len, dir->text);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".version")) {
        parse_version(p, dir);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".kernel")) {
        parse_kernel(p, dir);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".decl")) {
        parse_decl(p, dir);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".input")) {
        parse_input(p);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".kernel_attr")) {
        parse_kernel_attr(p);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".function")) {
        if (peek(p, 0)->kind == FE_TOK_STRING)
            next(p);
        else
            visa_expected(p, "the function's name in quotes");
        if (!p->in_function)
            visa_begin_function(p, dir);
    } else {
        visa_error(p, dir->line, dir->col, "VISA-PARSE-002", "unknown directive '%.*s'",
                   (int)dir->len, dir->text);
    }
    visa_skip_line(p, dir->line);
}

/* A label definition `name:` at the start of a line. */
static void parse_label(visa_parser *p)
{
    const fe_token *n = next(p);
    next(p); /* ':' */
    if (!p->in_function) {
        visa_error(p, n->line, n->col, "VISA-PARSE-001", "label before .function");
        return;
    }
    visa_define_label(p, n);
}

static void parse_line(visa_parser *p)
{
    const fe_token *t = peek(p, 0);
    uint32_t line = t->line;
    if (t->kind == FE_TOK_DOTNAME) {
        parse_directive(p);
        return;
    }
    if (t->kind == FE_TOK_IDENT && fe_token_is_punct(peek(p, 1), ':') &&
        peek(p, 1)->line == line && peek(p, 2)->line != line) {
        parse_label(p);
        return;
    }
    if (!p->in_function) {
        visa_error(p, t->line, t->col, "VISA-PARSE-001", "an instruction before .function");
    } else if (!visa_parse_insn(p)) {
        /* the instruction reported; its line is skipped below */
    }
    visa_skip_line(p, line);
}

static bool parser_init(visa_parser *p, const char *path, diag_list *dl)
{
    memset(p, 0, sizeof *p);
    p->dl = dl;
    dynarray_init(&p->vars, sizeof(visa_var));
    dynarray_init(&p->funcs, sizeof(ir_func));
    dynarray_init(&p->insns, sizeof(ir_insn));
    dynarray_init(&p->reg_types, 1);
    dynarray_init(&p->slots, sizeof(visa_slot));
    dynarray_init(&p->prologue, sizeof(ir_insn));
    dynarray_init(&p->params, sizeof(ir_param));
    dynarray_init(&p->post_glue, sizeof(uint32_t));
    fe_labels_init(&p->labels);
    p->m = calloc(1, sizeof *p->m);
    if (!p->m)
        return false;
    arena_init(&p->m->arena);
    p->m->address_bits = 64;
    p->m->path = arena_strndup(&p->m->arena, path, strlen(path));
    return p->m->path != NULL;
}

static void parser_fini(visa_parser *p)
{
    dynarray_free(&p->vars);
    dynarray_free(&p->funcs);
    dynarray_free(&p->insns);
    dynarray_free(&p->reg_types);
    visa_lower_fini(p);
    fe_labels_fini(&p->labels);
}

ir_module *visa_parse_module(const char *path, const char *text, size_t len, diag_list *dl)
{
    visa_parser p;
    size_t errors_before = dl->errors;
    fe_token_list tokens = {0};
    if (!path)
        path = "";
    if (!parser_init(&p, path, dl)) {
        diag_add(dl, DIAG_ERROR, "VISA-LIMIT-001", path, 0, 0, "out of memory");
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    if (visa_lex(p.m->path, text ? text : "", text ? len : 0, &tokens, dl) != 0) {
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    fe_cursor_init(&p.cur, tokens.items, tokens.count, p.m->path, dl, "VISA-PARSE-001");
    if (add_predefs(&p)) {
        while (peek(&p, 0)->kind != FE_TOK_EOF && !p.cur.oom) {
            size_t before = p.cur.pos;
            parse_line(&p);
            if (p.cur.pos == before)
                next(&p); /* progress on any input */
        }
    }
    if (!p.cur.oom && !p.version_seen && dl->errors == errors_before)
        visa_error(&p, 1, 1, "VISA-PARSE-008", "missing .version 4.1");
    if (!p.cur.oom && p.kernel_name && !p.in_function && dl->errors == errors_before)
        visa_error(&p, p.kernel_line, p.kernel_col, "VISA-PARSE-008", "kernel without .function");
    if (p.in_function && !p.cur.oom)
        visa_end_function(&p);
    if (!p.cur.oom && !visa_finish_module(&p))
        fe_cursor_oom(&p.cur, "VISA-LIMIT-001");
    ir_module *m = frontend_finish_module(p.m, dl, errors_before, p.cur.oom);
    fe_token_list_free(&tokens);
    parser_fini(&p);
    return m;
}
