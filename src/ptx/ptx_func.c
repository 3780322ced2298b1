/* PTX functions: `.entry` and `.func` headers with their performance directives, function
 * bodies (blocks, labels, body directives, the statements that ptx_decl.c and ptx_insn.c parse),
 * `.callprototype` and `.branchtargets`, and finishing a function: resolving its labels, naming its
 * registers and copying it into the module's arena. Scopes, labels and recovery are the shared
 * ones of src/frontend/ (fe_scope.h, fe_labels.h, fe_cursor.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_internal.h"

enum { PTX_MAX_NESTING = 200 };

/* ---- labels (function-wide, may be used before they are defined) ---- */
int32_t ptx_label_get(ptx_parser *p, const char *name, uint32_t len, uint32_t line, uint32_t col)
{
    int32_t l = fe_labels_get(&p->fs.labels, name, len, line, col);
    if (l < 0)
        ptx_oom(p);
    return l;
}

void ptx_add_label_ref(ptx_parser *p, uint32_t insn, int32_t xop, const ptx_name *name)
{
    int32_t l = ptx_label_get(p, name->text, name->len, name->line, name->col);
    if (l >= 0 && fe_labels_add_ref(&p->fs.labels, l, insn, xop) != 0)
        ptx_oom(p);
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
            ptx_parse_pragma(p);
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
    const ptx_binding *b = fe_scope_find(&p->scope, name->text, name->len, PTX_NS_NAME);
    if (b && b->kind == PTX_SYM_FUNC && fe_scope_depth(&p->scope) == 1) {
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

void ptx_parse_function(ptx_parser *p, uint8_t is_extern, uint8_t is_visible, uint8_t is_weak)
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
        if (has_body) {
            ptx_next(p); /* '{' */
            fe_cursor_skip_groups(&p->cur, '{', '}', 1);
        }
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
    p->fs.func = index;
    p->loc_file = p->loc_line = 0;
    ptx_scope_push(p);
    bind_params(p, params, (uint32_t)nparams, PTX_SYM_PARAM);
    bind_params(p, rets, (uint32_t)nrets, PTX_SYM_RET);
    parse_body(p);
    ptx_scope_pop(p);
    finish_function(p, &((ir_func *)p->funcs.data)[index]);
    p->fs.func = -1;
    p->cur.muted = false; /* the body that held the limit error is over */
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
    size_t first = p->fs.labels.lists.count;
    uint32_t n = 0;
    do {
        const ptx_token *t = ptx_next(p);
        if (t->kind != PTX_TOK_IDENT) {
            ptx_error(p, t, "PTX-PARSE-001", "expected a label in .branchtargets");
            ptx_recover(p);
            return;
        }
        int32_t l = ptx_label_get(p, t->text, t->len, t->line, t->col);
        if (l < 0)
            return;
        if (fe_labels_list_add(&p->fs.labels, l) != 0) {
            ptx_oom(p);
            return;
        }
        n++;
    } while (ptx_accept_punct(p, ','));
    ptx_expect_punct(p, ';', "after .branchtargets");
    fe_label *lab = fe_labels_at(&p->fs.labels, self);
    if (lab->list_first >= 0) {
        ptx_error(p, name, "PTX-SYM-004", "redefinition of '%.*s'", (int)name->len, name->text);
        return;
    }
    lab->list_first = (int32_t)first;
    lab->list_count = n;
}

static void parse_label(ptx_parser *p, const ptx_token *name)
{
    int32_t l = ptx_label_get(p, name->text, name->len, name->line, name->col);
    if (l < 0)
        return;
    if (fe_labels_define(&p->fs.labels, l, (uint32_t)p->fs.insns.count, name->line, name->col))
        ptx_error(p, name, "PTX-SYM-004", "redefinition of label '%.*s'", (int)name->len,
                  name->text);
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
        ptx_parse_pragma(p);
    } else if (ptx_is_dot(t, ".loc")) {
        ptx_next(p);
        ptx_parse_loc(p);
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
        if (p->cur.muted) {
            skip_rest_of_body(p, depth, depth - 1);
            return;
        }
        if (t->kind == PTX_TOK_EOF) {
            ptx_error(p, t, "PTX-PARSE-001", "missing '}' at the end of the function body");
            while (--depth > 0)
                ptx_scope_pop(p);
            return;
        }
        if (p->cur.oom)
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
                      fe_token_describe(t, buf, sizeof buf));
            ptx_next(p);
            ptx_recover(p);
        }
    }
}

/* ---- finishing a function: labels, register names, copies into the arena ---- */
/* Where resolved label references are written: the function's instructions and extra
 * operands (the arena copies, or the scratch arrays when the function is not built). */
typedef struct label_sink {
    ptx_parser *p;
    ir_insn *insns;
    ir_operand *xops;
} label_sink;

static void patch_label(void *user, const fe_label_ref *r, uint32_t target)
{
    label_sink *s = user;
    ir_operand *o = r->slot >= 0 ? (s->xops ? &s->xops[r->slot] : NULL)
                                 : (s->insns ? &s->insns[r->insn].src[0] : NULL);
    if (o) /* NULL only when the copy ran out of memory, which is already reported */
        o->imm = target;
}

/* A .branchtargets label names a list, not an instruction: brx.idx takes it (its entries must
 * label instructions), but `bra` needs a label of an instruction, as ptxas says too
 * (PTX-SYM-005, reported here; the reference is then not also an undefined label). */
static bool excuse_table(void *user, const fe_label *l, const fe_label_ref *r)
{
    label_sink *s = user;
    if (!l->list_count || r->slot >= 0)
        return false;
    const ir_insn *in = s->insns ? &s->insns[r->insn] : NULL;
    if (in && in->op == IR_BRA)
        ptx_error_at(s->p, in->line, in->col, "PTX-SYM-005",
                     "bra needs the label of an instruction; '%.*s' names a .branchtargets list, "
                     "which only brx.idx takes", (int)l->len, l->name);
    return true;
}

static void resolve_labels(ptx_parser *p, ir_insn *insns, ir_operand *xops)
{
    label_sink sink = {p, insns, xops};
    fe_label_resolver r = {patch_label, excuse_table, &sink};
    fe_labels_resolve(&p->fs.labels, &p->cur, "PTX-SYM-003", &r);
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

/* Whether the body's last instruction may fall through to what follows it. */
static bool falls_through(const ir_insn *last)
{
    switch (last->op) {
    case IR_RET: case IR_EXIT: case IR_TRAP: case IR_BRA: case IR_BRX: return last->has_guard;
    default: return true;
    }
}

/* PTX lets control reach a body's closing brace: ptxas accepts a function without a final `ret`
 * and a label just before the brace. Reaching the brace returns from a function and ends the
 * thread of an entry, so the lowering makes that explicit with a trailing `ret` or `exit` at the
 * brace; no instruction can then run past the end of the code. */
static void add_implicit_return(ptx_parser *p, ir_func *fn)
{
    ptx_func_state *fs = &p->fs;
    size_t n = fs->insns.count;
    bool needed = n == 0 || falls_through(&((const ir_insn *)fs->insns.data)[n - 1]);
    const fe_label *labels = p->fs.labels.labels.data;
    for (size_t i = 0; !needed && i < p->fs.labels.labels.count; i++)
        needed = labels[i].target >= 0 && (size_t)labels[i].target == n;
    if (!needed)
        return;
    ir_insn *in = ptx_vec_push(&fs->insns);
    if (!in) {
        ptx_oom(p);
        return;
    }
    const ptx_token *brace = fe_cursor_previous(&p->cur);
    memset(in, 0, sizeof *in);
    in->op = fn->is_entry ? IR_EXIT : IR_RET;
    in->line = brace ? brace->line : fn->line;
    in->col = brace ? brace->col : fn->col;
    if (n) {
        const ir_insn *prev = &((const ir_insn *)fs->insns.data)[n - 1];
        in->loc_file = prev->loc_file;
        in->loc_line = prev->loc_line;
    }
}

static void finish_function(ptx_parser *p, ir_func *fn)
{
    ptx_func_state *fs = &p->fs;
    if (!p->cur.oom && p->cur.dl->errors == p->errors_before)
        add_implicit_return(p, fn);
    if (fs->insns.count && fs->insns.count + p->insn_ids > UINT32_MAX / 2)
        ptx_limit_error(p, fn->line, fn->col, "too many instructions");
    if (fs->reg_types.count > PTX_MAX_FUNC_SLOTS || fs->npreds > PTX_MAX_FUNC_SLOTS)
        ptx_limit_error(p, fn->line, fn->col, "function '%s' declares more than %u registers",
                        fn->name ? fn->name : "?", PTX_MAX_FUNC_SLOTS);
    else if (!p->cur.oom && p->cur.dl->errors == p->errors_before) {
        ir_insn *insns = ptx_arena_copy(p, &fs->insns);
        ir_operand *xops = ptx_arena_copy(p, &fs->xops);
        resolve_labels(p, insns, xops);
        for (size_t i = 0; insns && i < fs->insns.count; i++)
            insns[i].id = p->insn_ids++;
        fn->insns = insns;
        fn->ninsns = (uint32_t)fs->insns.count;
        fn->xops = xops;
        fn->nxops = (uint32_t)fs->xops.count;
        fn->vars = ptx_arena_copy(p, &fs->vars);
        fn->nvars = (uint32_t)fs->vars.count;
        fn->reg_types = ptx_arena_copy(p, &fs->reg_types);
        fn->nregs = (uint32_t)fs->reg_types.count;
        fn->npreds = fs->npreds;
        fn->reg_names = range_names(p, &fs->reg_ranges, fn->nregs);
        fn->pred_names = range_names(p, &fs->pred_ranges, fn->npreds);
    } else {
        /* Errors already: still report undefined labels, but build nothing. */
        resolve_labels(p, fs->insns.data, fs->xops.data);
    }
    fs->insns.count = fs->xops.count = fs->vars.count = fs->reg_types.count = 0;
    fe_labels_reset(&fs->labels);
    fs->reg_ranges.count = fs->pred_ranges.count = 0;
    fs->npreds = 0;
}

