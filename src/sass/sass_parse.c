/* The SASS-style module reader: directives, labels and the kernel life cycle (docs/sass.md,
 * "Directives"). A module is a sequence of lines; `.kernel NAME` opens a kernel whose directives
 * and instructions follow until the next `.kernel` or the end of the file. When a kernel ends, its
 * labels are resolved, sass_check.c applies the rules and sass_lower.c turns it into an IR
 * function. Directives end at the end of their line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "sass/sass.h"
#include "sass/sass_internal.h"

void sass_error(sass_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    fe_cursor_verror_at(&p->cur, line, col, rule, fmt, ap);
    va_end(ap);
}

static const fe_token *peek(sass_parser *p, size_t ahead) { return fe_cursor_peek(&p->cur, ahead); }
static const fe_token *next(sass_parser *p) { return fe_cursor_next(&p->cur); }

/* Skips the rest of the line of token `t` (a directive's or a bad line's). */
static void skip_line(sass_parser *p, uint32_t line)
{
    while (peek(p, 0)->kind != FE_TOK_EOF && peek(p, 0)->line == line)
        next(p);
}

/* An unsigned integer operand of a directive into *v; reports a syntax error. */
static bool dir_int(sass_parser *p, uint64_t *v, const char *what)
{
    const fe_token *t = peek(p, 0);
    if (t->kind != FE_TOK_INT) {
        char buf[64];
        sass_error(p, t->line, t->col, "SASS-PARSE-001", "expected %s, found %s", what,
                   fe_token_describe(t, buf, sizeof buf));
        return false;
    }
    next(p);
    *v = t->ivalue;
    return true;
}

/* ---- kernels ---- */
static void kernel_reset(sass_kernel *k)
{
    k->params.count = 0;
    k->insns.count = 0;
    fe_labels_reset(&k->labels);
    k->registers = k->reg_line = k->reg_col = 0;
    k->shared_bytes = k->local_bytes = 0;
    k->seen_shared = k->seen_local = 0;
    k->max_reg = 0;
}

static void patch_label(void *user, const fe_label_ref *ref, uint32_t target)
{
    sass_kernel *k = user;
    sass_insn *in = &((sass_insn *)k->insns.data)[ref->insn];
    in->o[ref->slot].imm = target;
}

static void finish_kernel(sass_parser *p)
{
    sass_kernel *k = &p->k;
    size_t errors = p->dl->errors;
    fe_label_resolver r = {patch_label, NULL, k};
    fe_labels_resolve(&k->labels, &p->cur, "SASS-LABEL-001", &r);
    if (k->insns.count == 0 && p->dl->errors == errors)
        sass_error(p, k->line, k->col, "SASS-DIR-007", "kernel '%.*s' has no instructions",
                   (int)k->name_len, k->name);
    if (p->dl->errors == errors && sass_check_kernel(p) == 0 && p->dl->errors == errors)
        sass_lower_kernel(p);
    p->in_kernel = false;
}

static void start_kernel(sass_parser *p, const fe_token *dir)
{
    const fe_token *name = peek(p, 0);
    if (name->kind != FE_TOK_IDENT) {
        char buf[64];
        sass_error(p, name->line, name->col, "SASS-PARSE-001", "expected a kernel name, found %s",
                   fe_token_describe(name, buf, sizeof buf));
        return;
    }
    next(p);
    ir_func *fs = p->funcs.data;
    for (size_t i = 0; i < p->funcs.count; i++)
        if (strlen(fs[i].name) == name->len && memcmp(fs[i].name, name->text, name->len) == 0)
            sass_error(p, name->line, name->col, "SASS-DIR-006", "kernel '%.*s' is defined "
                       "twice", (int)name->len, name->text);
    kernel_reset(&p->k);
    p->k.name = name->text;
    p->k.name_len = name->len;
    p->k.line = dir->line;
    p->k.col = dir->col;
    p->in_kernel = true;
}

/* ---- directives ---- */
static const struct {
    const char *name;
    uint8_t type;
} param_types[] = {
    {".b32", IR_T_B32}, {".u32", IR_T_U32}, {".s32", IR_T_S32}, {".f32", IR_T_F32},
    {".b64", IR_T_B64}, {".u64", IR_T_U64}, {".s64", IR_T_S64}, {".f64", IR_T_F64},
};

static void dir_param(sass_parser *p)
{
    const fe_token *ty = peek(p, 0), *name = peek(p, 1);
    int type = -1;
    for (size_t i = 0; i < sizeof param_types / sizeof param_types[0]; i++)
        if (fe_token_is(ty, FE_TOK_DOTNAME, param_types[i].name))
            type = param_types[i].type;
    if (type < 0) {
        sass_error(p, ty->line, ty->col, "SASS-DIR-003", "'%.*s' is not a parameter type (.b32 "
                   ".u32 .s32 .f32 .b64 .u64 .s64 .f64)", (int)ty->len, ty->text);
        return;
    }
    if (name->kind != FE_TOK_IDENT || name->line != ty->line) {
        char buf[64];
        sass_error(p, name->line, name->col, "SASS-PARSE-001", "expected a parameter name, "
                   "found %s", fe_token_describe(name, buf, sizeof buf));
        return;
    }
    next(p);
    next(p);
    const sass_param *ps = p->k.params.data;
    for (size_t i = 0; i < p->k.params.count; i++)
        if (ps[i].len == name->len && memcmp(ps[i].name, name->text, name->len) == 0) {
            sass_error(p, name->line, name->col, "SASS-DIR-003", "parameter '%.*s' is declared "
                       "twice", (int)name->len, name->text);
            return;
        }
    sass_param *prm = dynarray_push(&p->k.params);
    if (!prm) {
        fe_cursor_oom(&p->cur, "SASS-LIMIT-001");
        return;
    }
    *prm = (sass_param){name->text, name->len, (uint8_t)type, name->line, name->col};
}

/* .registers N, .shared N, .local N */
static void dir_size(sass_parser *p, const fe_token *dir, int which)
{
    static const char *const names[] = {".registers", ".shared", ".local"};
    static const uint64_t limits[] = {255, 16u << 20, 16u << 20};
    uint8_t *seen[] = {NULL, &p->k.seen_shared, &p->k.seen_local};
    uint64_t v;
    if (!dir_int(p, &v, "a number"))
        return;
    if ((which == 0 && p->k.reg_line) || (which && *seen[which])) {
        sass_error(p, dir->line, dir->col, "SASS-DIR-006", "%s is given twice in kernel '%.*s'",
                   names[which], (int)p->k.name_len, p->k.name);
        return;
    }
    if (v > limits[which] || (which == 0 && v == 0)) {
        sass_error(p, dir->line, dir->col, "SASS-DIR-004", "%s %llu is out of range (%s..%llu)",
                   names[which], (unsigned long long)v, which ? "0" : "1",
                   (unsigned long long)limits[which]);
        return;
    }
    if (which == 0) {
        p->k.registers = (uint32_t)v;
        p->k.reg_line = dir->line;
        p->k.reg_col = dir->col;
    } else if (which == 1) {
        p->k.shared_bytes = (uint32_t)v;
        p->k.seen_shared = 1;
    } else {
        p->k.local_bytes = (uint32_t)v;
        p->k.seen_local = 1;
    }
}

/* .constbank B, OFFSET, WORD {, WORD} */
static void dir_constbank(sass_parser *p, const fe_token *dir)
{
    uint64_t bank, off, word;
    if (!dir_int(p, &bank, "a bank number") ||
        !fe_cursor_expect_punct(&p->cur, ',', "after the bank") ||
        !dir_int(p, &off, "a byte offset"))
        return;
    if (bank < 1 || bank > 31 || off % 4 || off >= 0x10000) {
        sass_error(p, dir->line, dir->col, "SASS-DIR-005", ".constbank %llu, %llu: the bank must "
                   "be 1..31 and the offset a multiple of 4 below 64 KB", (unsigned long long)bank,
                   (unsigned long long)off);
        return;
    }
    sass_bank *b = &p->banks[bank];
    while (fe_cursor_accept_punct(&p->cur, ',')) {
        const fe_token *t = peek(p, 0);
        if (!dir_int(p, &word, "a 32-bit word"))
            return;
        if (word > UINT32_MAX || off + 4 > 0x10000) {
            sass_error(p, t->line, t->col, "SASS-DIR-005", "constant word 0x%llx at 0x%llx: "
                       "words are 32-bit and a bank holds 64 KB", (unsigned long long)word,
                       (unsigned long long)off);
            return;
        }
        if (off + 4 > b->size) {
            uint8_t *grown = realloc(b->bytes, off + 4);
            if (!grown) {
                fe_cursor_oom(&p->cur, "SASS-LIMIT-001");
                return;
            }
            memset(grown + b->size, 0, off + 4 - b->size);
            b->bytes = grown;
            b->size = (uint32_t)off + 4;
        }
        for (int i = 0; i < 4; i++)
            b->bytes[off + (uint64_t)i] = (uint8_t)(word >> (8 * i));
        off += 4;
    }
}

static void dir_target(sass_parser *p, const fe_token *dir)
{
    static const unsigned sms[] = {50, 52, 53, 60, 61, 62};
    const fe_token *t = peek(p, 0);
    if (p->m->target_line) {
        sass_error(p, dir->line, dir->col, "SASS-DIR-006", ".target is given twice");
        return;
    }
    for (size_t i = 0; i < sizeof sms / sizeof sms[0]; i++) {
        char name[8];
        snprintf(name, sizeof name, "sm_%u", sms[i]);
        if (fe_token_is(t, FE_TOK_IDENT, name)) {
            next(p);
            p->m->target_sm = sms[i];
            p->m->target_line = t->line;
            p->m->target_col = t->col;
            return;
        }
    }
    sass_error(p, t->line, t->col, "SASS-DIR-002", "'%.*s' is not a target of the dialect "
               "(sm_50 sm_52 sm_53 sm_60 sm_61 sm_62)", (int)t->len, t->text);
}

static void directive(sass_parser *p)
{
    const fe_token *dir = next(p);
    size_t errors = p->dl->errors;
    bool kernel_only = !fe_token_is(dir, FE_TOK_DOTNAME, ".kernel") &&
                       !fe_token_is(dir, FE_TOK_DOTNAME, ".target") &&
                       !fe_token_is(dir, FE_TOK_DOTNAME, ".constbank");
    static const char *const sizes[] = {".registers", ".shared", ".local"};
    int size = -1;
    for (int i = 0; i < 3; i++)
        if (fe_token_is(dir, FE_TOK_DOTNAME, sizes[i]))
            size = i;
    if (fe_token_is(dir, FE_TOK_DOTNAME, ".kernel")) {
        if (p->in_kernel)
            finish_kernel(p);
        start_kernel(p, dir);
    } else if (kernel_only && size < 0 && !fe_token_is(dir, FE_TOK_DOTNAME, ".param")) {
        sass_error(p, dir->line, dir->col, "SASS-DIR-001", "unknown directive '%.*s'",
                   (int)dir->len, dir->text);
    } else if (kernel_only && !p->in_kernel) {
        sass_error(p, dir->line, dir->col, "SASS-PARSE-005", "%.*s outside a .kernel",
                   (int)dir->len, dir->text);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".target")) {
        dir_target(p, dir);
    } else if (fe_token_is(dir, FE_TOK_DOTNAME, ".constbank")) {
        dir_constbank(p, dir);
    } else if (size >= 0) {
        dir_size(p, dir, size);
    } else {
        dir_param(p);
    }
    fe_cursor_accept_punct(&p->cur, ';');
    if (peek(p, 0)->line == dir->line && peek(p, 0)->kind != FE_TOK_EOF) {
        const fe_token *t = peek(p, 0);
        char buf[64];
        if (p->dl->errors == errors) /* a bad directive costs one diagnostic */
            sass_error(p, t->line, t->col, "SASS-PARSE-001", "expected the end of the line, "
                       "found %s", fe_token_describe(t, buf, sizeof buf));
        skip_line(p, dir->line);
    }
}

/* A label definition NAME ':' (the cursor at NAME). */
static void label(sass_parser *p)
{
    const fe_token *name = next(p);
    next(p);
    if (!p->in_kernel) {
        sass_error(p, name->line, name->col, "SASS-PARSE-005", "label '%.*s' outside a .kernel",
                   (int)name->len, name->text);
        return;
    }
    int32_t l = fe_labels_get(&p->k.labels, name->text, name->len, name->line, name->col);
    if (l < 0) {
        fe_cursor_oom(&p->cur, "SASS-LIMIT-001");
        return;
    }
    if (fe_labels_define(&p->k.labels, l, (uint32_t)p->k.insns.count, name->line, name->col))
        sass_error(p, name->line, name->col, "SASS-LABEL-002", "label '%.*s' is defined twice",
                   (int)name->len, name->text);
}

static void instruction(sass_parser *p)
{
    const fe_token *t = peek(p, 0);
    if (!p->in_kernel) {
        sass_error(p, t->line, t->col, "SASS-PARSE-005", "an instruction outside a .kernel");
        skip_line(p, t->line);
        return;
    }
    sass_insn in;
    size_t index = p->k.insns.count;
    if (!sass_parse_insn(p, &in))
        return;
    /* the label references of this instruction now know its index */
    fe_labels *ls = &p->k.labels;
    for (unsigned i = 0; i < in.nopnd; i++)
        if (in.o[i].kind == SASS_O_LABEL &&
            fe_labels_add_ref(ls, in.o[i].label, (uint32_t)index, (int32_t)i)) {
            fe_cursor_oom(&p->cur, "SASS-LIMIT-001");
            return;
        }
    sass_insn *slot = dynarray_push(&p->k.insns);
    if (!slot) {
        fe_cursor_oom(&p->cur, "SASS-LIMIT-001");
        return;
    }
    *slot = in;
}

/* ---- the module ---- */
static bool parser_init(sass_parser *p, const char *path, diag_list *dl)
{
    memset(p, 0, sizeof *p);
    p->dl = dl;
    dynarray_init(&p->funcs, sizeof(ir_func));
    dynarray_init(&p->k.params, sizeof(sass_param));
    dynarray_init(&p->k.insns, sizeof(sass_insn));
    fe_labels_init(&p->k.labels);
    p->m = calloc(1, sizeof *p->m);
    if (!p->m)
        return false;
    arena_init(&p->m->arena);
    p->m->address_bits = 64;
    p->m->target_sm = 52;
    p->m->path = arena_strndup(&p->m->arena, path ? path : "", path ? strlen(path) : 0);
    return p->m->path != NULL;
}

static void parser_fini(sass_parser *p)
{
    dynarray_free(&p->funcs);
    dynarray_free(&p->k.params);
    dynarray_free(&p->k.insns);
    fe_labels_fini(&p->k.labels);
    for (int b = 0; b < 32; b++)
        free(p->banks[b].bytes);
}

/* The constant banks given by .constbank as module variables of the const space. */
static bool finish_banks(sass_parser *p)
{
    ir_module *m = p->m;
    uint32_t n = 0;
    for (int b = 0; b < 32; b++)
        n += p->banks[b].size > 0;
    if (!n)
        return true;
    m->vars = arena_alloc(&m->arena, n * sizeof *m->vars);
    if (!m->vars)
        return false;
    for (int b = 0; b < 32; b++) {
        const sass_bank *bk = &p->banks[b];
        if (!bk->size)
            continue;
        ir_var *v = &m->vars[m->nvars++];
        char name[16];
        snprintf(name, sizeof name, "bank%d", b);
        v->name = arena_strndup(&m->arena, name, strlen(name));
        uint8_t *init = arena_alloc(&m->arena, bk->size);
        if (!v->name || !init)
            return false;
        memcpy(init, bk->bytes, bk->size);
        v->space = IR_SPACE_CONST;
        v->type = IR_T_B32;
        v->align = 4;
        v->size_bytes = bk->size;
        v->init = init;
        v->const_bank = (uint8_t)b;
    }
    return true;
}

static bool finish_module(sass_parser *p)
{
    ir_module *m = p->m;
    if (p->funcs.count) {
        m->funcs = arena_alloc(&m->arena, p->funcs.count * sizeof *m->funcs);
        if (!m->funcs)
            return false;
        memcpy(m->funcs, p->funcs.data, p->funcs.count * sizeof *m->funcs);
        m->nfuncs = (uint32_t)p->funcs.count;
    }
    m->ninsns_total = p->insn_ids;
    ir_machine *mc = &m->machine;
    mc->reg_count = p->max_nregs;
    mc->reg_bits = 32;
    mc->reg_pairs = 1;
    mc->has_zero_reg = 0;
    mc->flag_count = 1;
    mc->insn_bytes = 8;
    mc->ctrl_group = 3;
    mc->ctrl_bytes = 8;
    mc->call_conv = IR_CALL_RETURN_STACK;
    mc->window_errors = IR_WINDOW_ZERO;
    mc->scoreboards = IR_SCOREBOARDS;
    mc->params_in_bank = 1;
    mc->params_bank = 0;
    mc->params_offset = 0x140;
    mc->has_image_bank = 1; /* #tsPtrIdxU13 slots index header-pool words in c[0x1] */
    mc->image_bank = 1;
    mc->crs_cached = 16;
    mc->crs_max = 256;
    return finish_banks(p);
}

static void parse_line(sass_parser *p)
{
    const fe_token *t = peek(p, 0);
    if (t->kind == FE_TOK_DOTNAME)
        directive(p);
    else if (t->kind == FE_TOK_IDENT && fe_token_is_punct(peek(p, 1), ':') &&
             peek(p, 1)->line == t->line)
        label(p);
    else
        instruction(p);
}

ir_module *sass_parse_module(const char *path, const char *text, size_t len, diag_list *dl)
{
    sass_parser p;
    size_t errors_before = dl->errors;
    fe_token_list tokens = {0};
    if (!path)
        path = "";
    if (!parser_init(&p, path, dl)) {
        diag_add(dl, DIAG_ERROR, "SASS-LIMIT-001", path, 0, 0, "out of memory");
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    if (sass_lex(p.m->path, text ? text : "", text ? len : 0, &tokens, dl) != 0) {
        ir_module_destroy(p.m);
        parser_fini(&p);
        return NULL;
    }
    fe_cursor_init(&p.cur, tokens.items, tokens.count, p.m->path, dl, "SASS-PARSE-001");
    while (peek(&p, 0)->kind != FE_TOK_EOF && !p.cur.oom) {
        size_t before = p.cur.pos;
        parse_line(&p);
        if (p.cur.pos == before)
            next(&p); /* progress on any input */
    }
    if (p.in_kernel && !p.cur.oom)
        finish_kernel(&p);
    if (!p.cur.oom && !finish_module(&p))
        fe_cursor_oom(&p.cur, "SASS-LIMIT-001");
    ir_module *m = frontend_finish_module(p.m, dl, errors_before, p.cur.oom);
    fe_token_list_free(&tokens);
    parser_fini(&p);
    return m;
}
