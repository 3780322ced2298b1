/* The words of an LSC instruction that are read as text rather than as tokens: the dotted
 * mnemonic (lsc_load.ugm.ca.ca, lsc_fence.ugm.evict.gpu) and the data shape after `VAR:`
 * (d32x4t). Both are split here by hand, whatever way the lexer cut them, so that a column in
 * a diagnostic points at the part it is about. Case-sensitive, as IGC's lexer (CISA.l) is. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "visa/visa_lsc.h"
#include "visa/visa_lsc_internal.h"

void visa_lsc_reportf(visa_lsc_report_fn report, void *user, const char *rule, visa_lsc_pos at,
                      int warning, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    report(user, rule, at, warning, msg);
}

/* One dotted part of a mnemonic: its text without the dot and its position. */
typedef struct part {
    const char *text;
    size_t len;
    visa_lsc_pos at; /* of the dot */
} part;

enum { MAX_PARTS = 8 };

/* Splits text at its dots: parts[0] is the base mnemonic; returns how many parts (at most
 * MAX_PARTS; the last one keeps the rest). */
static size_t split_parts(const char *text, size_t len, visa_lsc_pos at, part *parts)
{
    size_t n = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && (text[i] != '.' || n == MAX_PARTS - 1))
            continue;
        parts[n].text = text + start;
        parts[n].len = i - start;
        parts[n].at = (visa_lsc_pos){at.line, at.col + (uint32_t)(start ? start - 1 : 0)};
        n++;
        start = i + 1;
    }
    return n;
}

static int lookup(unsigned group, const part *p)
{
    return visa_lsc_word_lookup(group, p->text, p->len);
}

/* lsc_fence.SFID.OP.SCOPE: exactly three parts (reference section 6). */
static int parse_fence(const part *parts, size_t n, visa_lsc_msg *out,
                       visa_lsc_report_fn report, void *user)
{
    static const char fence_ops[] =
        "fence operation (none, evict, invalidate, discard, clean, flushl3)";
    static const char *const what[] = {"SFID (ugm, ugml, tgm, slm)", fence_ops,
                                       "scope (group, local, tile, gpu, gpus, sysrel, sysacq)"};
    static const char *const rule[] = {"VISA-LSC-003", "VISA-LSC-007", "VISA-LSC-008"};
    static const unsigned group[] = {VISA_LSC_GROUP_SFID, VISA_LSC_GROUP_FENCE_OP,
                                     VISA_LSC_GROUP_SCOPE};
    for (size_t k = 0; k < 3; k++) {
        if (k + 1 >= n) {
            visa_lsc_reportf(report, user, rule[k], parts[n - 1].at, 0,
                             "lsc_fence needs a %s after '%.*s'", what[k], (int)parts[n - 1].len,
                             parts[n - 1].text);
            return 1;
        }
        const part *p = &parts[k + 1];
        int v = lookup(group[k], p);
        if (v < 0 && k == 2 && p->len == 6 && memcmp(p->text, "system", 6) == 0) {
            visa_lsc_reportf(report, user, "VISA-LSC-009", p->at, 1,
                             "fence scope '.system' read as '.sysrel' (Intel's assembler "
                             "rejects '.system'; write .sysrel or .sysacq)");
            out->scope_system = 1;
            v = VISA_LSC_SCOPE_SYSREL;
        }
        if (v < 0 && k == 1 && p->len == 5 && memcmp(p->text, "type6", 5) == 0) {
            visa_lsc_reportf(report, user, rule[k], p->at, 0,
                             "fence operation '.type6' is undocumented (IGA calls it invalid "
                             "on PVC); gpumemsim does not model it");
            return 1;
        }
        if (v < 0) {
            visa_lsc_reportf(report, user, rule[k], p->at, 0, "unknown %s '.%.*s'; expected a %s",
                             k == 0 ? "SFID" : k == 1 ? "fence operation" : "fence scope",
                             (int)p->len, p->text, what[k]);
            return 1;
        }
        if (k == 0)
            out->sfid = (uint8_t)v;
        else if (k == 1)
            out->fence_op = (uint8_t)v;
        else {
            out->scope = (uint8_t)v;
            out->at_scope = p->at;
        }
    }
    if (n > 4) {
        visa_lsc_reportf(report, user, "VISA-LSC-008", parts[4].at, 0,
                         "unexpected '.%.*s' after the fence scope", (int)parts[4].len,
                         parts[4].text);
        return 1;
    }
    return 0;
}

/* The cache suffixes after the SFID: none, .L1.L3, or .L1.L2.L3 (Xe3P only, refused). */
static int parse_cache(const part *parts, size_t n, visa_lsc_msg *out,
                       visa_lsc_report_fn report, void *user)
{
    size_t ncache = n - 2;
    if (ncache == 0)
        return 0;
    out->at_cache = parts[2].at;
    for (size_t k = 0; k < ncache; k++) {
        int v = lookup(VISA_LSC_GROUP_CACHE, &parts[k + 2]);
        if (v < 0) {
            visa_lsc_reportf(report, user, "VISA-LSC-004", parts[k + 2].at, 0,
                             "unknown cache control '.%.*s'; expected one of .df .uc .ca .wb "
                             ".wt .st .ri .cc",
                             (int)parts[k + 2].len, parts[k + 2].text);
            return 1;
        }
        if (k < VISA_LSC_MAX_CACHE_LEVELS)
            out->cache[k] = (uint8_t)v;
    }
    if (ncache == 1) {
        visa_lsc_reportf(report, user, "VISA-LSC-004", parts[2].at, 0,
                         "one cache control given; write none or both levels (.L1.L3)");
        return 1;
    }
    if (ncache > 2) {
        visa_lsc_reportf(report, user, "VISA-LSC-004", parts[4].at, 0,
                         "%s cache controls given; .L1.L2.L3 is Xe3P only, write none or .L1.L3",
                         ncache == 3 ? "three" : "more than three");
        return 1;
    }
    out->ncache = 2;
    return 0;
}

int visa_lsc_parse_mnemonic(const char *text, size_t len, visa_lsc_pos at, visa_lsc_msg *out,
                            visa_lsc_report_fn report, void *user)
{
    part parts[MAX_PARTS];
    size_t n = split_parts(text, len, at, parts);
    out->at = at;
    out->op = visa_lsc_find_op(parts[0].text, parts[0].len);
    if (!out->op) {
        visa_lsc_reportf(report, user, "VISA-LSC-001", at, 0, "unknown LSC instruction '%.*s'",
                         (int)parts[0].len, parts[0].text);
        return 1;
    }
    if (out->op->support == VISA_LSC_REJECT) {
        visa_lsc_reportf(report, user, "VISA-LSC-002", at, 0,
                         "%.*s: gpumemsim does not model %s", (int)parts[0].len, parts[0].text,
                         out->op->why);
        return 1;
    }
    if (out->op->kind == VISA_LSC_FENCE)
        return parse_fence(parts, n, out, report, user);
    int sfid = n > 1 ? lookup(VISA_LSC_GROUP_SFID, &parts[1]) : -1;
    if (sfid < 0) {
        if (n > 1)
            visa_lsc_reportf(report, user, "VISA-LSC-003", parts[1].at, 0,
                             "unknown SFID '.%.*s'; expected .ugm, .ugml or .slm",
                             (int)parts[1].len, parts[1].text);
        else
            visa_lsc_reportf(report, user, "VISA-LSC-003", at, 0,
                             "%.*s needs an SFID (.ugm, .ugml or .slm)", (int)parts[0].len,
                             parts[0].text);
        return 1;
    }
    out->sfid = (uint8_t)sfid;
    if (sfid == VISA_LSC_SFID_TGM) {
        visa_lsc_reportf(report, user, "VISA-LSC-002", parts[1].at, 0,
                         "%.*s.tgm: gpumemsim does not model typed (surface) LSC messages; "
                         ".tgm is accepted on lsc_fence only",
                         (int)parts[0].len, parts[0].text);
        return 1;
    }
    return parse_cache(parts, n, out, report, user);
}

/* ---- data shapes ---- */

static int vector_size(const char *s, size_t n, unsigned *vec)
{
    if (n == 0 || n > 2)
        return 0;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    switch (v) {
    case 1: case 2: case 3: case 4: case 8: case 16: case 32: case 64:
        *vec = v;
        return 1;
    default:
        return 0;
    }
}

int visa_lsc_parse_shape(const char *text, size_t len, visa_lsc_pos at, visa_lsc_msg *out,
                         visa_lsc_report_fn report, void *user)
{
    size_t base = len, end = len;
    unsigned vec = 1;
    int transposed = 0;
    /* No data-size spelling contains 'x' or ends in 't': the first 'x' starts the vector size
     * and a final 't' is the transposition. */
    const char *x = memchr(text, 'x', len);
    if (len > 0 && text[len - 1] == 't') {
        transposed = 1;
        end = len - 1;
    }
    if (x) {
        base = (size_t)(x - text);
        if (!vector_size(x + 1, end - base - 1, &vec)) {
            visa_lsc_reportf(report, user, "VISA-LSC-010", at, 0,
                             "bad vector size in data shape '%.*s'; expected x1, x2, x3, x4, "
                             "x8, x16, x32 or x64", (int)len, text);
            return 1;
        }
    } else {
        base = end;
    }
    int ds = visa_lsc_word_lookup(VISA_LSC_GROUP_DATA, text, base);
    if (ds < 0) {
        visa_lsc_reportf(report, user, "VISA-LSC-010", at, 0,
                         "unknown data shape '%.*s'; expected dN[xV][t] with N one of 8, 16, 32, "
                         "64, 8u32, 16u32, 16u32h", (int)len, text);
        return 1;
    }
    out->data_size = (uint8_t)ds;
    out->vec = (uint8_t)vec;
    out->transposed = (uint8_t)transposed;
    out->at_data = at;
    return 0;
}
