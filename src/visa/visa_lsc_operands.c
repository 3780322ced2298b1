/* The operands of an LSC instruction, read from the text after its ExecSize (reference section 2):
 *
 *   lsc_load     DATA ADDR              DATA  := (VAR | %null) ':' SHAPE
 *   lsc_store    ADDR DATA              ADDR  := [MODEL ['(' SURFACE ')']] '[' [SCALE '*'] VAR
 *   lsc_atomic_* DATA ADDR SRC SRC                {('+' | '-') IMM} ']' ':' SIZE
 *                                       SRC   := VAR | %null
 *
 * The operands are read as characters, not as the lexer's tokens, so that the way a lexer cuts
 * `VD:d32x16t` or `flat[0x4*V-0x10]:a64` does not matter and every column is exact. Variables
 * are looked up through the caller's callback (the front-end's declarations). A line comment
 * (`//`) ends the operands. */
#include <string.h>

#include "visa/visa_lsc.h"
#include "visa/visa_lsc_internal.h"

typedef struct reader {
    const char *s;
    size_t len, pos;
    visa_lsc_pos at; /* of s[0] */
    visa_lsc_msg *in;
    const visa_lsc_lookup *look;
    visa_lsc_report_fn report;
    void *user;
} reader;

static visa_lsc_pos here(const reader *r)
{
    return (visa_lsc_pos){r->at.line, r->at.col + (uint32_t)r->pos};
}

static int at_end(const reader *r)
{
    return r->pos >= r->len || (r->s[r->pos] == '/' && r->pos + 1 < r->len &&
                                r->s[r->pos + 1] == '/');
}

static void skip_space(reader *r)
{
    while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' ||
                               r->s[r->pos] == '\r'))
        r->pos++;
}

static int accept(reader *r, char c)
{
    if (r->pos < r->len && r->s[r->pos] == c) {
        r->pos++;
        return 1;
    }
    return 0;
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '%' || c == '$' || c == '.';
}

/* A name (a variable, %null, a model or a shape): its length at r->pos (0: none). */
static size_t name_len(const reader *r)
{
    size_t n = 0;
    while (r->pos + n < r->len && is_name_char(r->s[r->pos + n]))
        n++;
    return n;
}

/* An unsigned integer literal (hex 0x.. or decimal) at r->pos; 0 when none. */
static int read_int(reader *r, uint64_t *value)
{
    const char *s = r->s + r->pos;
    size_t n = r->len - r->pos, i = 0;
    uint64_t v = 0;
    int hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex)
        i = 2;
    size_t start = i;
    for (; i < n; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (hex && c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (hex && c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            break;
        v = hex ? (v << 4) | d : v * 10 + d;
    }
    if (i == start || (i < n && is_name_char(s[i]) && s[i] != '.'))
        return 0;
    r->pos += i;
    *value = v;
    return 1;
}

static int fail(reader *r, const char *rule, visa_lsc_pos at, const char *what)
{
    const char *s = r->s + r->pos;
    size_t n = name_len(r);
    if (at_end(r))
        visa_lsc_reportf(r->report, r->user, rule, at, 0, "%s: expected %s, found the end of "
                         "the instruction", r->in->op->mnemonic, what);
    else
        visa_lsc_reportf(r->report, r->user, rule, at, 0, "%s: expected %s, found '%.*s'",
                         r->in->op->mnemonic, what, (int)(n ? n : 1), s);
    return 1;
}

/* A variable or %null at r->pos into *var; *is_null says which. */
static int read_var(reader *r, visa_lsc_var *var, uint8_t *is_null, const char *what)
{
    visa_lsc_pos at = here(r);
    size_t n = name_len(r);
    while (n > 0 && r->s[r->pos + n - 1] == '.')
        n--;
    if (n == 0)
        return fail(r, "VISA-LSC-012", at, what);
    const char *name = r->s + r->pos;
    if (n == 5 && memcmp(name, "%null", 5) == 0) {
        r->pos += n;
        *is_null = 1;
        return 0;
    }
    *is_null = 0;
    if (!r->look->find(r->look->user, name, n, var)) {
        visa_lsc_reportf(r->report, r->user, "VISA-LSC-012", at, 0,
                         "%s: '%.*s' is not a declared general variable", r->in->op->mnemonic,
                         (int)n, name);
        return 1;
    }
    r->pos += n;
    return 0;
}

/* DATA := (VAR | %null) ':' SHAPE */
static int read_data(reader *r)
{
    visa_lsc_msg *in = r->in;
    skip_space(r);
    visa_lsc_pos at = here(r);
    if (read_var(r, &in->data_var, &in->data_null,
                 "a data operand (VAR:shape)"))
        return 1;
    if (in->data_null && in->op->kind == VISA_LSC_STORE) {
        visa_lsc_reportf(r->report, r->user, "VISA-LSC-012", at, 0,
                         "lsc_store: the data to store cannot be %%null");
        return 1;
    }
    if (!accept(r, ':'))
        return fail(r, "VISA-LSC-010", here(r), "':' and a data shape after the data variable");
    visa_lsc_pos shape_at = here(r);
    size_t n = name_len(r);
    if (visa_lsc_parse_shape(r->s + r->pos, n, shape_at, in, r->report, r->user))
        return 1;
    in->at_data = at;
    in->data_var_bytes = in->data_null ? 0 : in->data_var.bytes;
    r->pos += n;
    return 0;
}

/* The bracketed offset: [SCALE '*'] VAR {('+' | '-') IMM} */
static int read_offset(reader *r)
{
    visa_lsc_msg *in = r->in;
    uint64_t v;
    size_t start = r->pos;
    in->scale = 1;
    if (read_int(r, &v)) {
        if (!accept(r, '*')) {
            r->pos = start;
            return fail(r, "VISA-LSC-011", here(r), "an address variable");
        }
        if (v == 0 || v > 0xffff) {
            r->pos = start;
            return fail(r, "VISA-LSC-011", here(r), "a scale from 1 to 65535");
        }
        in->scale = (uint32_t)v;
    }
    uint8_t is_null = 0;
    if (read_var(r, &in->addr_var, &is_null, "an address variable"))
        return 1;
    if (is_null) {
        r->pos = start;
        return fail(r, "VISA-LSC-011", here(r), "an address variable");
    }
    in->addr_var_bytes = in->addr_var.bytes;
    while (r->pos < r->len && (r->s[r->pos] == '+' || r->s[r->pos] == '-')) {
        int minus = r->s[r->pos++] == '-';
        if (!read_int(r, &v))
            return fail(r, "VISA-LSC-011", here(r), "an immediate offset");
        in->offset += minus ? -(int64_t)v : (int64_t)v;
    }
    if (!accept(r, ']'))
        return fail(r, "VISA-LSC-011", here(r), "']' after the address");
    return 0;
}

/* ADDR := [MODEL ['(' SURFACE ')']] '[' OFFSET ']' ':' SIZE */
static int read_address(reader *r)
{
    visa_lsc_msg *in = r->in;
    skip_space(r);
    in->at_addr = here(r);
    size_t n = name_len(r);
    in->model = VISA_LSC_MODEL_FLAT;
    if (n > 0) {
        unsigned model = visa_lsc_model_from(r->s + r->pos, n);
        if (!model)
            return fail(r, "VISA-LSC-011", here(r),
                        "an address model (flat, bss, ss, bti, arg) or '['");
        in->model = (uint8_t)model;
        r->pos += n;
        if (r->pos < r->len && r->s[r->pos] == '(') {
            /* flat(BASE) (current IGC) and the surfaces of bss/ss/bti are all refused below */
            while (r->pos < r->len && r->s[r->pos] != ')' && r->s[r->pos] != '[')
                r->pos++;
            if (!accept(r, ')'))
                return fail(r, "VISA-LSC-011", here(r), "')' after the surface");
            in->has_surface = 1;
        }
    }
    if (!accept(r, '['))
        return fail(r, "VISA-LSC-011", here(r), "'[' and the address");
    if (read_offset(r))
        return 1;
    if (!accept(r, ':'))
        return fail(r, "VISA-LSC-011", here(r), "':' and an address size after the address");
    n = name_len(r);
    unsigned size = visa_lsc_addr_size_from(r->s + r->pos, n);
    if (!size)
        return fail(r, "VISA-LSC-011", here(r), "an address size (a16, a32, a32u, a32s, a64)");
    in->addr_size = (uint8_t)size;
    r->pos += n;
    return 0;
}

static int read_source(reader *r, unsigned k)
{
    visa_lsc_msg *in = r->in;
    skip_space(r);
    in->at_src[k] = here(r);
    uint8_t is_null = 0;
    if (read_var(r, &in->src_var[k], &is_null,
                 k == 0 ? "the first atomic source (a variable or %null)"
                        : "the second atomic source (a variable or %null)"))
        return 1;
    if (k == 0)
        in->src1_null = is_null;
    else
        in->src2_null = is_null;
    in->src_var_bytes[k] = is_null ? 0 : in->src_var[k].bytes;
    return 0;
}

int visa_lsc_parse_operands(const char *text, size_t len, visa_lsc_pos at, visa_lsc_msg *out,
                            const visa_lsc_lookup *look, visa_lsc_report_fn report, void *user)
{
    reader r = {text, len, 0, at, out, look, report, user};
    int bad = 0;
    switch (out->op->kind) {
    case VISA_LSC_LOAD:
        bad = read_data(&r) || read_address(&r);
        break;
    case VISA_LSC_STORE:
        bad = read_address(&r) || read_data(&r);
        break;
    case VISA_LSC_ATOMIC:
        bad = read_data(&r) || read_address(&r) || read_source(&r, 0) || read_source(&r, 1);
        break;
    default: /* fences take no operands */
        break;
    }
    if (bad)
        return 1;
    skip_space(&r);
    if (!at_end(&r)) {
        visa_lsc_reportf(report, user, out->op->kind == VISA_LSC_FENCE ? "VISA-LSC-006"
                                                                       : "VISA-LSC-012",
                         here(&r), 0, "%s: unexpected '%.*s' after the last operand",
                         out->op->mnemonic, (int)(name_len(&r) ? name_len(&r) : 1),
                         text + r.pos);
        return 1;
    }
    return 0;
}
