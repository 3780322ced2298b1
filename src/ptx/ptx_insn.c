/* PTX instruction words: the optional guard (@p, @!p), the mnemonic (longest match against the
 * table, so "bar.warp.sync" wins over "bar"), and the dotted modifiers, each classified into the
 * modifier group its instruction accepts. It checks the table's .version/.target requirements,
 * then hands the operands to ptx_check.c (semantic rules) and ptx_lower.c (IR operands). */
#include <string.h>

#include "ptx/ptx_internal.h"

/* MAX_MNEMONIC_WORDS: the longest mnemonic, "cp.reduce.async.bulk.tensor" */
enum { MAX_WORDS = 24, MAX_MNEMONIC_WORDS = 5 };

static bool adjacent(const ptx_token *a, const ptx_token *b)
{
    return b->kind == PTX_TOK_DOTNAME && b->offset == a->offset + a->len;
}

static void require(ptx_parser *p, const ptx_insn_ctx *c, uint32_t line, uint32_t col,
                    const char *what, unsigned version, unsigned sm, const char *sm_rule)
{
    if (p->version < version)
        ptx_error_at(p, line, col, "PTX-VER-001", "%s requires PTX ISA %u.%u or later (.version is %u.%u)",
                     what, version / 10, version % 10, p->version / 10, p->version % 10);
    if (p->sm < sm)
        ptx_error_at(p, line, col, sm_rule, "%s requires sm_%u or later (target is sm_%u)", what, sm,
                     p->sm);
    (void)c;
}

/* Picks the meaning of one modifier spelling for this instruction; -1 when none applies. */
static int classify(const ptx_parser *p, const ptx_op_row *row, const ptx_token *w)
{
    for (int i = ptx_find_mod(&p->tables, w->text, w->len); i >= 0; i = p->tables.mod_next[i]) {
        const ptx_mod_row *m = &ptx_mod_rows[i];
        if (m->group == PTX_G_TYPE ? row->types != 0 : (row->groups >> m->group) & 1)
            return i;
    }
    return -1;
}

static bool add_type(ptx_parser *p, ptx_insn_ctx *c, const ptx_token *w, ir_type t)
{
    unsigned want = c->row->types2 ? 2 : 1;
    if (c->ntypes == want) {
        ptx_error(p, w, "PTX-TYPE-001", "too many types on '%.*s' (it takes %u)",
                  (int)c->text_len, c->text, want);
        return false;
    }
    uint32_t mask = c->ntypes == 0 ? c->row->types : c->row->types2;
    if (!(mask & (UINT32_C(1) << t))) {
        ptx_error(p, w, "PTX-TYPE-001", "type %.*s is not allowed for %s", (int)w->len, w->text,
                  c->row->mnemonic);
        return false;
    }
    c->types[c->ntypes++] = t;
    return true;
}

static bool add_modifier(ptx_parser *p, ptx_insn_ctx *c, const ptx_token *w)
{
    int mi = ptx_find_mod(&p->tables, w->text, w->len);
    if (mi < 0) {
        ptx_error(p, w, "PTX-MOD-001", "unknown modifier '%.*s' on %s", (int)w->len, w->text,
                  c->row->mnemonic);
        return false;
    }
    mi = classify(p, c->row, w);
    if (mi < 0) {
        ptx_error(p, w, "PTX-MOD-002", "modifier %.*s is not allowed on %s", (int)w->len, w->text,
                  c->row->mnemonic);
        return false;
    }
    const ptx_mod_row *m = &ptx_mod_rows[mi];
    require(p, c, w->line, w->col, m->text, m->version, m->sm,
            m->group == PTX_G_L2EVM ? "PTX-ARCH-011" : "PTX-ARCH-002");
    if (m->group == PTX_G_TYPE)
        return add_type(p, c, w, (ir_type)m->value);
    if (c->has_group[m->group]) {
        if (m->group == PTX_G_L2EV && c->op == PTX_OP_CREATEPOLICY && !c->secondary_l2) {
            c->secondary_l2 = m->value;
            return true;
        }
        ptx_error(p, w, "PTX-MOD-003", "%.*s repeats or conflicts with an earlier modifier of the "
                  "same kind on %s", (int)w->len, w->text, c->row->mnemonic);
        return false;
    }
    c->has_group[m->group] = 1;
    c->group_value[m->group] = m->value;
    return true;
}

/* Finds the longest table mnemonic among the first words; returns the op or -1. */
static int find_mnemonic(const ptx_parser *p, const ptx_token *const *words, int nwords,
                         int *used)
{
    for (int k = nwords < MAX_MNEMONIC_WORDS ? nwords : MAX_MNEMONIC_WORDS; k >= 1; k--) {
        const ptx_token *last = words[k - 1];
        size_t len = (size_t)(last->text + last->len - words[0]->text);
        int op = ptx_find_op(&p->tables, words[0]->text, len);
        if (op >= 0) {
            *used = k;
            return op;
        }
    }
    return -1;
}

/* vote, shfl and redux take their .sync anywhere among the modifiers ("vote.ballot.sync.b32"),
 * as ptxas accepts (docs/ptx.md, "Modifier order"). When .sync follows another modifier, returns
 * the op of "<base>.sync" and stores the index of that .sync word in *sync_word; else -1. */
static int find_late_sync(const ptx_parser *p, const ptx_token *const *words, int nwords,
                          int *sync_word)
{
    static const char *const names[] = {"vote.sync", "shfl.sync", "redux.sync"};
    const ptx_token *w0 = words[0];
    for (size_t b = 0; b < sizeof names / sizeof names[0]; b++) {
        size_t n = strlen(names[b]) - 5; /* the base, without ".sync" */
        if (w0->len != n || memcmp(w0->text, names[b], n) != 0)
            continue;
        for (int i = 2; i < nwords; i++)
            if (words[i]->len == 5 && memcmp(words[i]->text, ".sync", 5) == 0) {
                *sync_word = i;
                return ptx_find_op(&p->tables, names[b], strlen(names[b]));
            }
    }
    return -1;
}

static bool parse_guard(ptx_parser *p, ir_insn *insn)
{
    if (!ptx_accept_punct(p, '@'))
        return true;
    insn->guard_neg = ptx_accept_punct(p, '!');
    const ptx_token *g = ptx_next(p);
    uint32_t slot = 0;
    const ptx_binding *b = g->kind == PTX_TOK_IDENT ? ptx_lookup(p, g->text, g->len, &slot) : NULL;
    if (g->kind != PTX_TOK_IDENT) {
        ptx_error(p, g, "PTX-PARSE-001", "expected a predicate register after '@'");
        return false;
    }
    if (!b) {
        ptx_error(p, g, "PTX-SYM-001", "undeclared register '%.*s'", (int)g->len, g->text);
        return false;
    }
    if (b->kind != PTX_SYM_PRED) {
        ptx_error(p, g, "PTX-TYPE-002", "guard '%.*s' is not a predicate register", (int)g->len,
                  g->text);
        return false;
    }
    insn->has_guard = 1;
    insn->guard = slot;
    return true;
}

static bool check_row_and_types(ptx_parser *p, ptx_insn_ctx *c)
{
    const ptx_op_row *row = c->row;
    if (c->op == PTX_OP_U_SHFL) {
        ptx_error_at(p, c->line, c->col, "PTX-ARCH-003",
                     "'%.*s': shfl without .sync is not available on sm_70 and later; use shfl.sync",
                     (int)c->text_len, c->text);
        return false;
    }
    if (row->form == PTX_FORM_UNSUPPORTED) {
        ptx_error_at(p, c->line, c->col, row->rule,
                     "'%.*s': the %s family is not modelled by gpumemsim", (int)c->text_len,
                     c->text, row->mnemonic);
        return false;
    }
    require(p, c, c->line, c->col, row->mnemonic, row->version, row->sm, row->rule);
    if (c->op == PTX_OP_VOTE && p->sm >= 70 && p->version >= 64) {
        ptx_error_at(p, c->line, c->col, "PTX-ARCH-003",
                     "vote without .sync is not available on sm_70 and later; use vote.sync");
        return false;
    }
    return true;
}

static bool check_type_count(ptx_parser *p, ptx_insn_ctx *c)
{
    const ptx_op_row *row = c->row;
    unsigned want = row->types == 0 ? 0 : row->types2 ? 2 : 1;
    if (row->form == PTX_FORM_BAR)
        want = c->ntypes; /* bar.red takes a type, bar.sync none: checked with the operands */
    if (c->ntypes != want) {
        ptx_error_at(p, c->line, c->col, "PTX-TYPE-001", "'%.*s' needs %u type%s, found %u",
                     (int)c->text_len, c->text, want, want == 1 ? "" : "s", c->ntypes);
        return false;
    }
    for (unsigned i = 0; i < c->ntypes; i++) {
        unsigned version = 0, sm = 0;
        ptx_type_requirement(c->op, c->types[i], &version, &sm);
        if (version || sm) {
            char what[64];
            snprintf(what, sizeof what, "%s.%s", row->mnemonic, ir_type_name(c->types[i]));
            require(p, c, c->line, c->col, what, version, sm, "PTX-ARCH-001");
        }
    }
    return true;
}

static ir_insn *new_insn(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *insn = ptx_vec_push(&p->fs.insns);
    if (!insn) {
        ptx_oom(p);
        return NULL;
    }
    c->insn_index = (uint32_t)(p->fs.insns.count - 1);
    return insn;
}

void ptx_parse_instruction(ptx_parser *p)
{
    ir_insn scratch = {0};
    size_t start = p->cur.pos;
    if (!parse_guard(p, &scratch)) {
        ptx_recover(p);
        return;
    }
    const ptx_token *words[MAX_WORDS];
    int nwords = 0;
    words[nwords++] = ptx_next(p);
    if (words[0]->kind != PTX_TOK_IDENT) {
        ptx_error(p, words[0], "PTX-PARSE-001", "expected an instruction after the guard");
        ptx_recover(p);
        return;
    }
    while (nwords < MAX_WORDS && adjacent(words[nwords - 1], ptx_peek(p, 0)))
        words[nwords++] = ptx_next(p);
    ptx_insn_ctx c = {0};
    c.line = words[0]->line;
    c.col = words[0]->col;
    c.text = words[0]->text;
    c.text_len = (uint32_t)(words[nwords - 1]->text + words[nwords - 1]->len - words[0]->text);
    int used = 0, sync_word = -1;
    int op = find_late_sync(p, words, nwords, &sync_word);
    if (op >= 0)
        used = 1;
    else
        op = find_mnemonic(p, words, nwords, &used);
    if (op < 0) {
        ptx_error(p, words[0], "PTX-INSN-001", "unknown instruction '%.*s'", (int)c.text_len, c.text);
        ptx_recover_from(p, start); /* whole, vector braces of its operands included */
        return;
    }
    c.op = (ptx_op_id)op;
    c.row = &ptx_op_rows[op];
    bool ok = check_row_and_types(p, &c);
    /* the bulk copies, the matrix and the video instructions read their modifiers themselves
     * (ptx_bulk.c, ptx_matrix.c, ptx_video.c) */
    for (int i = used; ok && c.row->form != PTX_FORM_BULK && c.row->form != PTX_FORM_MATRIX &&
                       c.row->form != PTX_FORM_VIDEO && i < nwords; i++)
        ok = i == sync_word || add_modifier(p, &c, words[i]);
    ok = ok && check_type_count(p, &c);
    uint32_t nops = 0;
    if (!ok || ptx_parse_operands(p, c.row->form == PTX_FORM_CALL, &nops) != 0 ||
        !ptx_expect_punct(p, ';', "at the end of the instruction")) {
        ptx_recover_from(p, start);
        return;
    }
    c.nops = nops;
    ir_insn *insn = new_insn(p, &c);
    if (!insn)
        return;
    *insn = scratch;
    insn->op = c.row->ir_op;
    insn->line = c.line;
    insn->col = c.col;
    insn->loc_file = p->loc_file;
    insn->loc_line = p->loc_line;
    insn->type = c.ntypes ? (uint8_t)c.types[0] : IR_T_NONE;
    insn->type2 = c.ntypes > 1 ? (uint8_t)c.types[1] : IR_T_NONE;
    c.insn = insn;
    if (ptx_check_insn(p, &c))
        ptx_lower(p, &c);
}
