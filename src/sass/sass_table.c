/* The SASS table (sass_ops.def) compiled into arrays, the mnemonic lookup, `--list-ops` output and
 * the dialect's registry entry. It holds no grammar: the parser and the checker decide what a
 * row means. */
#include <stdio.h>
#include <string.h>

#include "sass/sass.h"
#include "sass/sass_internal.h"

#define IR_NONE IR_OP_COUNT
const sass_op_row sass_op_rows[SASS_OP_COUNT] = {
#define SASS_OP(id, mn, irop, form, groups, cops, ctrl, stall, rule)                                \
    [SASS_OP_##id] = {mn, IR_##irop, SASS_FORM_##form, SASS_CT_##ctrl, groups, cops, stall, rule},
#include "sass/sass_ops.def"
#undef SASS_OP
};
#undef IR_NONE

const sass_mod_row sass_mod_rows[] = {
#define SASS_MOD(text, group, value) {text, SASS_G_##group, (uint32_t)(value)},
#include "sass/sass_ops.def"
#undef SASS_MOD
};
const size_t sass_mod_row_count = sizeof sass_mod_rows / sizeof sass_mod_rows[0];

static const frontend_rule rule_rows[] = {
#define SASS_RULE(id, summary) {id, summary},
#include "sass/sass_ops.def"
#undef SASS_RULE
};

const char *const sass_group_names[SASS_G_COUNT] = {
    "size", "E", "U", "cache-op", "cache", "cctl-op", "atom-op", "spin", "atom-size", "compare",
    "U32", "bool", "bool2", "lop-op", "LUT", "X", "CC", "PSL", "MRG", "CBCC", "scope",
    "invalidate", "bar-op", "bar-red-op", "depbar", "uniform", "LMT", "KEEPREFCOUNT",
    "surface-mode", "BA", "dim", "clamp", "channels"};
const char *const sass_cop_names[SASS_COP_COUNT] = {"CA", "CG", "CS", "LU", "CI", "CV", "WB",
                                                    "WT"};

int sass_find_op(const char *text, size_t len)
{
    for (int i = 0; i < SASS_OP_COUNT; i++)
        if (strlen(sass_op_rows[i].mnemonic) == len &&
            memcmp(sass_op_rows[i].mnemonic, text, len) == 0)
            return i;
    return -1;
}

static const char *const ctrl_names[] = {"&req ?sched", "&req &rd &wr ?sched",
                                         "&req &rd ?sched"};

/* One listing line of an instruction row: mnemonic, IR op, control fields, minimum stall,
 * modifier groups and cache operators. */
static void list_op(char *buf, size_t size, const sass_op_row *r)
{
    size_t n = 0;
    int w;
    if (r->ir_op >= IR_OP_COUNT) {
        snprintf(buf, size, "%-10s rejected: not supported yet [%s]", r->mnemonic, r->rule);
        return;
    }
    w = snprintf(buf, size, "%-10s %-10s stall>=%u  %-20s [", r->mnemonic,
                 ir_opcode_name((ir_opcode)r->ir_op), r->stall, ctrl_names[r->ctrl]);
    n = w > 0 && (size_t)w < size ? (size_t)w : size - 1;
    const char *sep = "";
    for (int g = 0; g < SASS_G_COUNT && n < size; g++)
        if (r->groups & (UINT64_C(1) << g)) {
            w = snprintf(buf + n, size - n, "%s%s", sep, sass_group_names[g]);
            n += w > 0 && (size_t)w < size - n ? (size_t)w : size - n - 1;
            sep = " ";
        }
    w = snprintf(buf + n, size - n, "]");
    n += w > 0 && (size_t)w < size - n ? (size_t)w : size - n - 1;
    for (int c = 0; c < SASS_COP_COUNT && n < size; c++)
        if (r->cops & (1u << c)) {
            w = snprintf(buf + n, size - n, " .%s", sass_cop_names[c]);
            n += w > 0 && (size_t)w < size - n ? (size_t)w : size - n - 1;
        }
}

/* The dialect's list-ops (frontend_list_ops_fn): every instruction row, then every modifier. */
static void sass_list_ops(frontend_line_fn emit, void *user)
{
    char line[512];
    emit(user, "# mnemonic  ir-op  min-stall  control-fields  [modifier groups]  cache-operators");
    for (int i = 0; i < SASS_OP_COUNT; i++) {
        list_op(line, sizeof line, &sass_op_rows[i]);
        emit(user, line);
    }
    emit(user, "# modifiers: spelling group");
    for (size_t i = 0; i < sass_mod_row_count; i++) {
        snprintf(line, sizeof line, "%-14s %s", sass_mod_rows[i].text,
                 sass_group_names[sass_mod_rows[i].group]);
        emit(user, line);
    }
}

static const char *const sass_suffixes[] = {".sass", NULL};

const frontend_dialect sass_dialect = {
    .name = "sass",
    .title = "SASS",
    .suffixes = sass_suffixes,
    .doc = "docs/sass.md",
    .parse = sass_parse_module,
    .list_ops = sass_list_ops,
    .rules = rule_rows,
    .nrules = sizeof rule_rows / sizeof rule_rows[0],
};
