/* The vISA table (visa_ops.def) compiled into arrays, the type names, the lookups, `--list-ops`
 * output and the dialect's registry entry. It holds no grammar. */
#include <stdio.h>
#include <string.h>

#include "visa/visa.h"
#include "visa/visa_internal.h"
#include "visa/visa_lsc.h"

#define IR_NONE IR_OP_COUNT
const visa_op_row visa_op_rows[VISA_OP_COUNT] = {
#define VISA_OP(id, mn, irop, form, rule) [VISA_OP_##id] = {mn, IR_##irop, VISA_FORM_##form, rule},
#include "visa/visa_ops.def"
#undef VISA_OP
};
#undef IR_NONE

static const frontend_rule rule_rows[] = {
#define VISA_RULE(id, summary) {id, summary},
#include "visa/visa_ops.def"
#undef VISA_RULE
};

/* vISA's element types (vISA specification, "Data types"): the spelling after `type=` and after
 * an immediate's ':'. */
const visa_type_info visa_types[VISA_T_COUNT] = {
    [VISA_T_UB] = {"ub", 1, IR_T_U8},   [VISA_T_B] = {"b", 1, IR_T_S8},
    [VISA_T_UW] = {"uw", 2, IR_T_U16},  [VISA_T_W] = {"w", 2, IR_T_S16},
    [VISA_T_UD] = {"ud", 4, IR_T_U32},  [VISA_T_D] = {"d", 4, IR_T_S32},
    [VISA_T_UQ] = {"uq", 8, IR_T_U64},  [VISA_T_Q] = {"q", 8, IR_T_S64},
    [VISA_T_HF] = {"hf", 2, IR_T_F16},  [VISA_T_BF] = {"bf", 2, IR_T_BF16},
    [VISA_T_F] = {"f", 4, IR_T_F32},    [VISA_T_DF] = {"df", 8, IR_T_F64},
    [VISA_T_BOOL] = {"bool", 1, IR_T_PRED},
};

int visa_find_type(const char *text, size_t len)
{
    for (int i = 0; i < VISA_T_BOOL; i++)
        if (strlen(visa_types[i].name) == len && memcmp(visa_types[i].name, text, len) == 0)
            return i;
    return -1;
}

int visa_find_op(const char *text, size_t len)
{
    for (int i = 0; i < VISA_OP_COUNT; i++)
        if (strlen(visa_op_rows[i].mnemonic) == len &&
            memcmp(visa_op_rows[i].mnemonic, text, len) == 0)
            return i;
    return -1;
}

static const char *const form_names[] = {
    [VISA_FORM_NONE] = "(exec)",
    [VISA_FORM_NOEXEC] = "",
    [VISA_FORM_UNARY] = "(exec) dst src0",
    [VISA_FORM_BINARY] = "(exec) dst src0 src1",
    [VISA_FORM_TERNARY] = "(exec) dst src0 src1 src2",
    [VISA_FORM_CARRY] = "(exec) dst carry src0 src1",
    [VISA_FORM_CMP] = "(exec) P src0 src1",
    [VISA_FORM_GOTO] = "(exec) label",
};

/* The dialect's list-ops (frontend_list_ops_fn): every instruction row, then the types. */
static void visa_list_ops(frontend_line_fn emit, void *user)
{
    char line[256];
    emit(user, "# mnemonic  ir-op  operands");
    for (int i = 0; i < VISA_OP_COUNT; i++) {
        const visa_op_row *r = &visa_op_rows[i];
        if (r->ir_op >= IR_OP_COUNT)
            snprintf(line, sizeof line, "%-12s rejected: not executed [%s]", r->mnemonic, r->rule);
        else
            snprintf(line, sizeof line, "%-12s %-8s %s", r->mnemonic,
                     ir_opcode_name((ir_opcode)r->ir_op), form_names[r->form]);
        emit(user, line);
    }
    visa_lsc_list_ops(emit, user);
    emit(user, "# types: name bytes");
    for (int i = 0; i < VISA_T_BOOL; i++) {
        snprintf(line, sizeof line, "%-4s %u", visa_types[i].name, visa_types[i].bytes);
        emit(user, line);
    }
}

static const char *const visa_suffixes[] = {".visaasm", NULL};

const frontend_dialect visa_dialect = {
    .name = "visa",
    .title = "vISA",
    .suffixes = visa_suffixes,
    .doc = "docs/visa.md",
    .parse = visa_parse_module,
    .list_ops = visa_list_ops,
    .rules = rule_rows,
    .nrules = sizeof rule_rows / sizeof rule_rows[0],
};
