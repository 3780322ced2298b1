/* The LSC block of visa_ops.def as C tables: the mnemonic rows, the spellings of each part of
 * an instruction and the legal cache pairs, with the lookups the parser and the checker use.
 * Nothing here parses or reports. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "visa/visa_lsc.h"
#include "visa/visa_lsc_internal.h"

unsigned visa_platform_grf_bytes(visa_platform p)
{
    return p == VISA_PLATFORM_PVC ? 64 : 32;
}

/* ---- mnemonics ---- */

#define KIND_LOAD VISA_LSC_LOAD
#define KIND_STORE VISA_LSC_STORE
#define KIND_FENCE VISA_LSC_FENCE
#define KIND_LOAD_FORM VISA_LSC_LOAD_FORM
#define KIND_STORE_FORM VISA_LSC_STORE_FORM
#define ATOM_NONE 0
#define ATOM_ADD IR_ATOM_ADD
#define ATOM_MIN IR_ATOM_MIN
#define ATOM_MAX IR_ATOM_MAX
#define ATOM_CAS IR_ATOM_CAS
#define ATOM_EXCH IR_ATOM_EXCH
#define ATOM_AND IR_ATOM_AND
#define ATOM_OR IR_ATOM_OR
#define ATOM_XOR IR_ATOM_XOR

static const visa_lsc_op ops[] = {
#define VISA_LSC_OP(id, text, kind, support, why) \
    {text, KIND_##kind, VISA_LSC_##support, 0, 0, 0, why},
#define VISA_LSC_ATOMIC(id, text, arity, atom, is_float, support, why) \
    {"lsc_atomic_" text, VISA_LSC_ATOMIC, VISA_LSC_##support, VISA_LSC_##arity, ATOM_##atom, \
     is_float, why},
#include "visa/visa_ops.def"
#undef VISA_LSC_OP
#undef VISA_LSC_ATOMIC
};

const visa_lsc_op *visa_lsc_ops(size_t *count)
{
    *count = sizeof ops / sizeof ops[0];
    return ops;
}

const visa_lsc_op *visa_lsc_find_op(const char *text, size_t len)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i].mnemonic) == len && memcmp(ops[i].mnemonic, text, len) == 0)
            return &ops[i];
    return NULL;
}

/* ---- spellings ---- */

static const visa_lsc_word words[] = {
#define VISA_LSC_WORD(group, text, value) {VISA_LSC_GROUP_##group, text, value},
#include "visa/visa_ops.def"
#undef VISA_LSC_WORD
};

int visa_lsc_word_lookup(unsigned group, const char *text, size_t len)
{
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (words[i].group == group && strlen(words[i].text) == len &&
            memcmp(words[i].text, text, len) == 0)
            return (int)words[i].value;
    return -1;
}

/* The canonical spelling of `value` in `group`: its first row (the `u32` data-size spellings
 * come before the 2022 `c32` aliases), or "?". */
static const char *word_name(unsigned group, unsigned value)
{
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (words[i].group == group && words[i].value == value)
            return words[i].text;
    return "?";
}

const visa_lsc_word *visa_lsc_words(size_t *count)
{
    *count = sizeof words / sizeof words[0];
    return words;
}

const char *visa_lsc_sfid_name(unsigned v) { return word_name(VISA_LSC_GROUP_SFID, v); }
const char *visa_lsc_cache_name(unsigned v) { return word_name(VISA_LSC_GROUP_CACHE, v); }
const char *visa_lsc_fence_op_name(unsigned v) { return word_name(VISA_LSC_GROUP_FENCE_OP, v); }
const char *visa_lsc_scope_name(unsigned v) { return word_name(VISA_LSC_GROUP_SCOPE, v); }
const char *visa_lsc_data_size_name(unsigned v) { return word_name(VISA_LSC_GROUP_DATA, v); }
const char *visa_lsc_addr_size_name(unsigned v) { return word_name(VISA_LSC_GROUP_ADDR_SIZE, v); }
const char *visa_lsc_model_name(unsigned v) { return word_name(VISA_LSC_GROUP_MODEL, v); }

unsigned visa_lsc_addr_size_from(const char *text, size_t len)
{
    int v = visa_lsc_word_lookup(VISA_LSC_GROUP_ADDR_SIZE, text, len);
    return v < 0 ? 0 : (unsigned)v;
}

unsigned visa_lsc_model_from(const char *text, size_t len)
{
    int v = visa_lsc_word_lookup(VISA_LSC_GROUP_MODEL, text, len);
    return v < 0 ? 0 : (unsigned)v;
}

unsigned visa_lsc_reg_bytes(unsigned ds)
{
    switch (ds) {
    case VISA_LSC_D8: return 1;
    case VISA_LSC_D16: return 2;
    case VISA_LSC_D64: return 8;
    default: return 4; /* d32 and the widening sizes */
    }
}

unsigned visa_lsc_mem_bytes(unsigned ds)
{
    switch (ds) {
    case VISA_LSC_D8: case VISA_LSC_D8U32: return 1;
    case VISA_LSC_D16: case VISA_LSC_D16U32: case VISA_LSC_D16U32H: return 2;
    case VISA_LSC_D64: return 8;
    default: return 4;
    }
}

/* ---- cache pairs ---- */

#define LD VISA_LSC_PAIR_LOAD
#define ST VISA_LSC_PAIR_STORE
#define AT VISA_LSC_PAIR_ATOMIC
static const visa_lsc_pair pairs[] = {
#define VISA_LSC_PAIR(kinds, l1, l3, xe2) \
    {kinds, VISA_LSC_CACHE_##l1, VISA_LSC_CACHE_##l3, xe2},
#include "visa/visa_ops.def"
#undef VISA_LSC_PAIR
};
#undef LD
#undef ST
#undef AT

const visa_lsc_pair *visa_lsc_find_pair(unsigned l1, unsigned l3)
{
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].l1 == l1 && pairs[i].l3 == l3)
            return &pairs[i];
    return NULL;
}

const visa_lsc_pair *visa_lsc_pairs(size_t *count)
{
    *count = sizeof pairs / sizeof pairs[0];
    return pairs;
}

/* ---- rules ---- */

/* The dialect's rules (VISA_RULE rows); the LSC ones are those whose id starts VISA-LSC-. */
static const visa_lsc_rule rules[] = {
#define VISA_RULE(id, summary) {id, summary},
#include "visa/visa_ops.def"
#undef VISA_RULE
};

const visa_lsc_rule *visa_lsc_rules(size_t *count)
{
    size_t first = 0, n = sizeof rules / sizeof rules[0];
    while (first < n && strncmp(rules[first].id, "VISA-LSC-", 9) != 0)
        first++;
    size_t last = first;
    while (last < n && strncmp(rules[last].id, "VISA-LSC-", 9) == 0)
        last++;
    *count = last - first;
    return rules + first;
}

void visa_lsc_list_ops(void (*emit)(void *user, const char *line), void *user)
{
    static const char *const forms[] = {
        [VISA_LSC_LOAD] = "[(P)] .SFID[.L1.L3] (exec) DATA:SHAPE ADDR",
        [VISA_LSC_STORE] = "[(P)] .SFID[.L1.L3] (exec) ADDR DATA:SHAPE",
        [VISA_LSC_ATOMIC] = "[(P)] .SFID[.L1.L3] (exec) DATA:SHAPE ADDR SRC1 SRC2",
        [VISA_LSC_FENCE] = ".SFID.OP.SCOPE",
    };
    static const char *const groups[] = {"sfid", "cache", "fence-op", "scope", "data",
                                         "addr-size", "addr-model"};
    char line[256];
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const visa_lsc_op *o = &ops[i];
        if (o->support == VISA_LSC_REJECT)
            snprintf(line, sizeof line, "%-24s rejected: %s [VISA-LSC-002]", o->mnemonic, o->why);
        else
            snprintf(line, sizeof line, "%-24s %s", o->mnemonic, forms[o->kind]);
        emit(user, line);
    }
    for (unsigned g = 0; g <= VISA_LSC_GROUP_MODEL; g++) {
        int n = snprintf(line, sizeof line, "# lsc %s:", groups[g]);
        for (size_t i = 0; i < sizeof words / sizeof words[0] && n < (int)sizeof line; i++)
            if (words[i].group == g)
                n += snprintf(line + n, sizeof line - (size_t)n, " %s", words[i].text);
        emit(user, line);
    }
    int n = snprintf(line, sizeof line, "# lsc cache pairs (L1.L3: ld st at; * Xe2 only):");
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0] && n < (int)sizeof line; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s.%s:%s%s%s%s",
                      visa_lsc_cache_name(pairs[i].l1), visa_lsc_cache_name(pairs[i].l3),
                      pairs[i].kinds & VISA_LSC_PAIR_LOAD ? "l" : "",
                      pairs[i].kinds & VISA_LSC_PAIR_STORE ? "s" : "",
                      pairs[i].kinds & VISA_LSC_PAIR_ATOMIC ? "a" : "", pairs[i].xe2 ? "*" : "");
    emit(user, line);
}
