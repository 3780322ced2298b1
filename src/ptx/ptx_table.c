/* The PTX table (ptx_ops.def) compiled into arrays, the hashed lookups built from it for each parse,
 * `--list-ops` output, the dialect's registry entry, and float-bit helpers shared by the
 * front-end. It holds no grammar: the parser decides what a looked-up row means. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

#include "ptx/ptx.h"
#include "ptx/ptx_internal.h"

#define IR_NONE IR_OP_COUNT
const ptx_op_row ptx_op_rows[PTX_OP_COUNT] = {
#define PTX_OP(id, mn, irop, form, groups, types, types2, ver, sm, rule) \
    [PTX_OP_##id] = {mn, IR_##irop, PTX_FORM_##form, groups, types, types2, ver, sm, rule},
#include "ptx/ptx_ops.def"
#undef PTX_OP
};
#undef IR_NONE

const ptx_mod_row ptx_mod_rows[] = {
#define PTX_MOD(text, group, value, ver, sm) {text, PTX_G_##group, (uint32_t)(value), ver, sm, {0}},
#define PTX_CMOD(text, group, value, ver, sm, ...) \
    {text, PTX_G_##group, (uint32_t)(value), ver, sm, {__VA_ARGS__}},
#include "ptx/ptx_ops.def"
#undef PTX_CMOD
#undef PTX_MOD
};
const size_t ptx_mod_row_count = sizeof ptx_mod_rows / sizeof ptx_mod_rows[0];

const ir_mem_attrs *ptx_mod_map(ptx_group group, uint32_t value)
{
    static const ir_mem_attrs none;
    for (size_t i = 0; i < ptx_mod_row_count; i++)
        if (ptx_mod_rows[i].group == group && ptx_mod_rows[i].value == value)
            return memcmp(&ptx_mod_rows[i].map, &none, sizeof none) ? &ptx_mod_rows[i].map : NULL;
    return NULL;
}

static const struct {
    uint16_t op;
    uint8_t type;
    uint16_t version, sm;
} type_requirements[] = {
#define PTX_TYPEREQ(id, type, ver, sm) {PTX_OP_##id, IR_T_##type, ver, sm},
#include "ptx/ptx_ops.def"
#undef PTX_TYPEREQ
};

static const frontend_rule rule_rows[] = {
#define PTX_RULE(id, summary) {id, summary},
#include "ptx/ptx_ops.def"
#undef PTX_RULE
};

uint32_t ptx_hash(const char *s, size_t len) { return hash_bytes(s, len); }

static bool same_text(const char *a, size_t alen, const char *b)
{
    return strlen(b) == alen && memcmp(a, b, alen) == 0;
}

int ptx_tables_init(ptx_tables *t)
{
    memset(t->op_bucket, 0xFF, sizeof t->op_bucket);
    memset(t->mod_bucket, 0xFF, sizeof t->mod_bucket);
    t->mod_next = malloc(ptx_mod_row_count * sizeof *t->mod_next);
    if (!t->mod_next)
        return -1;
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        const char *mn = ptx_op_rows[i].mnemonic;
        uint32_t h = ptx_hash(mn, strlen(mn)) & (PTX_OP_BUCKETS - 1);
        while (t->op_bucket[h] >= 0)
            h = (h + 1) & (PTX_OP_BUCKETS - 1);
        t->op_bucket[h] = (int16_t)i;
    }
    /* Rows sharing a spelling are chained in table order, so the first matching group wins. */
    for (size_t i = ptx_mod_row_count; i-- > 0;) {
        const char *tx = ptx_mod_rows[i].text;
        uint32_t h = ptx_hash(tx, strlen(tx)) & (PTX_MOD_BUCKETS - 1);
        while (t->mod_bucket[h] >= 0 && strcmp(ptx_mod_rows[t->mod_bucket[h]].text, tx) != 0)
            h = (h + 1) & (PTX_MOD_BUCKETS - 1);
        t->mod_next[i] = t->mod_bucket[h];
        t->mod_bucket[h] = (int16_t)i;
    }
    return 0;
}

void ptx_tables_fini(ptx_tables *t)
{
    free(t->mod_next);
    t->mod_next = NULL;
}

int ptx_find_op(const ptx_tables *t, const char *text, size_t len)
{
    uint32_t h = ptx_hash(text, len) & (PTX_OP_BUCKETS - 1);
    while (t->op_bucket[h] >= 0) {
        if (same_text(text, len, ptx_op_rows[t->op_bucket[h]].mnemonic))
            return t->op_bucket[h];
        h = (h + 1) & (PTX_OP_BUCKETS - 1);
    }
    return -1;
}

int ptx_find_mod(const ptx_tables *t, const char *text, size_t len)
{
    uint32_t h = ptx_hash(text, len) & (PTX_MOD_BUCKETS - 1);
    while (t->mod_bucket[h] >= 0) {
        if (same_text(text, len, ptx_mod_rows[t->mod_bucket[h]].text))
            return t->mod_bucket[h];
        h = (h + 1) & (PTX_MOD_BUCKETS - 1);
    }
    return -1;
}

void ptx_type_requirement(ptx_op_id op, ir_type type, unsigned *version, unsigned *sm)
{
    for (size_t i = 0; i < sizeof type_requirements / sizeof type_requirements[0]; i++)
        if (type_requirements[i].op == op && type_requirements[i].type == type) {
            if (type_requirements[i].version > *version)
                *version = type_requirements[i].version;
            if (type_requirements[i].sm > *sm)
                *sm = type_requirements[i].sm;
        }
}

/* One line of the listing, built piece by piece and handed to the caller's emit function. */
typedef struct list_line {
    char text[1024];
    size_t len;
} list_line;

static void line_add(list_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line_add(list_line *l, const char *fmt, ...)
{
    if (l->len + 1 >= sizeof l->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->text + l->len, sizeof l->text - l->len, fmt, ap);
    va_end(ap);
    size_t room = sizeof l->text - l->len - 1;
    l->len += n < 0 ? 0 : (size_t)n < room ? (size_t)n : room;
}

static void line_emit(list_line *l, frontend_line_fn emit, void *user)
{
    emit(user, l->text);
    l->len = 0;
    l->text[0] = '\0';
}

static void list_types(list_line *l, uint32_t mask)
{
    for (int t = 0; t < IR_T_COUNT; t++)
        if (mask & (UINT32_C(1) << t))
            line_add(l, " .%s", ir_type_name((ir_type)t));
}

static const char *const group_names[PTX_G_COUNT] = {
    "type", "space", "sem", "scope", "membar-level", "cache-op", "nc", "L1-evict", "L2-evict",
    "L2-evict(ld/st)", "prefetch-size", "cache-hint", "level", "tensormap", "policy", "vector",
    "rounding", "ftz", "sat", "approx", "full", "hi/lo", "wide", "cc", "NaN", "relu", "xorsign",
    "abs", "noftz", "satfinite", "shiftamt", "clamp/wrap", "l/r", "to", "uni", "aligned", "sync",
    "compare", "bool-op", "atom-op", "redux-op", "shfl-mode", "vote-mode", "match-mode", "bar-op",
    "bar-red-op", "testp-class", "prmt-mode", "mmio", "geometry", "surface-oob-mode",
    "surface-query", "tld4-channel", "texture-query", "texture-form",
    "mbarrier-form"};

static void list_op(list_line *l, const ptx_op_row *r)
{
    if (r->form == PTX_FORM_UNSUPPORTED) {
        line_add(l, "%-16s rejected: not modelled by gpumemsim [%s]", r->mnemonic, r->rule);
        return;
    }
    line_add(l, "%-16s %-14s %u.%u sm_%u [", r->mnemonic, ir_opcode_name((ir_opcode)r->ir_op),
             r->version / 10, r->version % 10, r->sm);
    const char *sep = "";
    for (int g = 0; g < PTX_G_COUNT; g++)
        if (r->groups & (UINT64_C(1) << g)) {
            line_add(l, "%s%s", sep, group_names[g]);
            sep = " ";
        }
    line_add(l, "]");
    list_types(l, r->types);
    if (r->types2) {
        line_add(l, " /");
        list_types(l, r->types2);
    }
}

/* The dialect's list-ops (frontend_list_ops_fn): every row of ptx_ops.def, then every modifier. */
static void ptx_list_ops(frontend_line_fn emit, void *user)
{
    list_line l = {.len = 0};
    line_add(&l, "# mnemonic  ir-op  min-ptx  min-sm  [modifier groups]  types");
    line_emit(&l, emit, user);
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        list_op(&l, &ptx_op_rows[i]);
        line_emit(&l, emit, user);
    }
    line_add(&l, "# modifiers: spelling group min-ptx min-sm");
    line_emit(&l, emit, user);
    for (size_t i = 0; i < ptx_mod_row_count; i++) {
        const ptx_mod_row *r = &ptx_mod_rows[i];
        line_add(&l, "%-22s %-16s %u.%u sm_%u", r->text, group_names[r->group], r->version / 10,
                 r->version % 10, r->sm);
        line_emit(&l, emit, user);
    }
}

static const char *const ptx_suffixes[] = {".ptx", NULL};

const frontend_dialect ptx_dialect = {
    .name = "ptx",
    .title = "PTX",
    .suffixes = ptx_suffixes,
    .doc = "docs/ptx.md",
    .parse = ptx_parse_module,
    .list_ops = ptx_list_ops,
    .rules = rule_rows,
    .nrules = sizeof rule_rows / sizeof rule_rows[0],
};

/* ---- float bits ---- */
uint32_t ptx_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
uint64_t ptx_f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}
float ptx_bits_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
double ptx_bits_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Round-to-nearest-even narrowing of an IEEE single to half precision. */
uint16_t ptx_f32_to_f16_bits(float f)
{
    uint32_t x = ptx_f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xFFu, mant = x & 0x7FFFFFu;
    if (exp == 0xFF)
        return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10)
            return sign;
        mant |= 0x800000u;
        unsigned shift = (unsigned)(14 - e);
        uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
        half++;
    return (uint16_t)(sign | half);
}

uint16_t ptx_f32_to_bf16_bits(float f)
{
    uint32_t x = ptx_f32_bits(f);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu))
        return (uint16_t)((x >> 16) | 0x40u);
    uint32_t rounding = 0x7FFFu + ((x >> 16) & 1u);
    return (uint16_t)((x + rounding) >> 16);
}
