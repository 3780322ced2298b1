/* The device printf formatter (exec_printf_format.h): parses each conversion of a kernel's format
 * string itself and prints it from the argument buffer with bounded fields.
 *
 * The host's snprintf is used for numbers only, through a format of at most 13 bytes built here
 * from a fixed alphabet (the flags a conversion defines, "*.*", "ll", the letter); widths and
 * precisions travel as int arguments already capped at EXEC_PRINTF_FIELD_MAX, so the longest
 * number (%f of DBL_MAX with 512 decimals) fits NUMBER_BYTES. Strings, characters and pointers
 * are padded here. What the C standard leaves undefined (a flag on a conversion that has no use
 * for it, a %c of 0) is decided here rather than left to the host's C library. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "exec/exec_printf_format.h"

enum { NUMBER_BYTES = 1024, SPEC_BYTES = 16, MARKER_BYTES = 64 };

enum { FLAG_MINUS = 1, FLAG_PLUS = 2, FLAG_SPACE = 4, FLAG_HASH = 8, FLAG_ZERO = 16 };
static const char flag_chars[] = "-+ #0"; /* bit k of the flags is flag_chars[k] */

/* Length modifiers; from LEN_L on, integer arguments are 8 bytes (LP64, as nvcc on Linux). */
enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T, LEN_BIG_L };

/* One parsed conversion spec, format[start, end). */
typedef struct conversion {
    unsigned flags;                 /* FLAG_* */
    int width;                      /* 0 ..FIELD_MAX once '*' is resolved */
    int precision;                  /* -1: none; else 0 ..FIELD_MAX */
    int width_star, precision_star; /* the field comes from the argument buffer */
    int length;                     /* LEN_* */
    char letter;                    /* conversion letter, or 0 when the spec is malformed */
    size_t end;                     /* offset just past the spec's last byte */
} conversion;

/* The output: at most cap - 1 bytes and a NUL; `overflow` once anything did not fit. */
typedef struct sink {
    char *buf;
    size_t cap, len;
    int overflow;
} sink;

/* Where the next argument is read and how many have been. */
typedef struct arg_reader {
    const uint8_t *args;
    size_t bytes, offset;
    uint32_t used;
} arg_reader;

static void sink_put(sink *s, const char *text, size_t n)
{
    size_t room = s->cap - 1 - s->len;
    if (n > room) {
        n = room;
        s->overflow = 1;
    }
    memcpy(s->buf + s->len, text, n);
    s->len += n;
}

static void sink_pad(sink *s, size_t n)
{
    static const char spaces[] = "                                ";
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        sink_put(s, spaces, k);
        n -= k;
    }
}

/* `text` in a field of `width` columns, padded with spaces on the left, or on the right when
 * `left`. */
static void sink_field(sink *s, const char *text, size_t n, int width, int left)
{
    size_t pad = (size_t)width > n ? (size_t)width - n : 0;
    if (!left)
        sink_pad(s, pad);
    sink_put(s, text, n);
    if (left)
        sink_pad(s, pad);
}

/* Decimal digits at format[j..], saturating above EXEC_PRINTF_FIELD_MAX. Returns the offset past
 * them. */
static size_t parse_number(const char *f, size_t n, size_t j, int *value)
{
    int v = 0;
    for (; j < n && f[j] >= '0' && f[j] <= '9'; j++)
        if (v <= EXEC_PRINTF_FIELD_MAX)
            v = v * 10 + (f[j] - '0');
    *value = v > EXEC_PRINTF_FIELD_MAX ? EXEC_PRINTF_FIELD_MAX : v;
    return j;
}

static size_t parse_length(const char *f, size_t n, size_t j, int *length)
{
    *length = LEN_NONE;
    if (j >= n)
        return j;
    switch (f[j]) {
    case 'h':
        if (j + 1 < n && f[j + 1] == 'h') {
            *length = LEN_HH;
            return j + 2;
        }
        *length = LEN_H;
        return j + 1;
    case 'l':
        if (j + 1 < n && f[j + 1] == 'l') {
            *length = LEN_LL;
            return j + 2;
        }
        *length = LEN_L;
        return j + 1;
    case 'z': *length = LEN_Z; return j + 1;
    case 'j': *length = LEN_J; return j + 1;
    case 't': *length = LEN_T; return j + 1;
    case 'L': *length = LEN_BIG_L; return j + 1;
    default: return j;
    }
}

/* Parses the spec that starts with the '%' at format[i] (not "%%"). A spec is malformed (letter 0)
 * when the byte after its fields is not a conversion letter; `end` then includes that byte. */
static void parse_conversion(const char *f, size_t n, size_t i, conversion *c)
{
    memset(c, 0, sizeof *c);
    c->precision = -1;
    size_t j = i + 1;
    for (const char *flag; j < n && (flag = strchr(flag_chars, f[j])) != NULL; j++)
        c->flags |= 1u << (flag - flag_chars);
    if (j < n && f[j] == '*') {
        c->width_star = 1;
        j++;
    } else {
        j = parse_number(f, n, j, &c->width);
    }
    if (j < n && f[j] == '.') {
        j++;
        if (j < n && f[j] == '*') {
            c->precision_star = 1;
            j++;
        } else {
            j = parse_number(f, n, j, &c->precision);
        }
    }
    j = parse_length(f, n, j, &c->length);
    if (j < n && strchr("diuoxXcsfFeEgGaApn", f[j]))
        c->letter = f[j];
    c->end = j < n ? j + 1 : n;
}

/* Reads the next argument of `bytes` (4 or 8) bytes, aligned to its size from the buffer's start,
 * little-endian. Returns -1 past the buffer or past the argument limit. */
static int take_arg(arg_reader *a, unsigned bytes, uint64_t *value)
{
    size_t at = (a->offset + bytes - 1) / bytes * bytes;
    if (a->used >= EXEC_PRINTF_ARGS_MAX || at > a->bytes || a->bytes - at < bytes)
        return -1;
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes; k++)
        v |= (uint64_t)a->args[at + k] << (8 * k);
    a->offset = at + bytes;
    a->used++;
    *value = v;
    return 0;
}

/* Bytes of the value argument of a well-formed conversion: chars are promoted to int, floats to
 * double; pointers are 8 bytes. */
static unsigned value_bytes(const conversion *c)
{
    switch (c->letter) {
    case 'c': return 4;
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
        return c->length >= LEN_L ? 8 : 4;
    default: return 8;
    }
}

/* Host format "%<flags>*.*<length><letter>" from the parsed flags that `allowed` lists. */
static void host_spec(char spec[SPEC_BYTES], unsigned flags, const char *allowed,
                      const char *length, char letter)
{
    size_t n = 0;
    spec[n++] = '%';
    for (unsigned k = 0; k < sizeof flag_chars - 1; k++)
        if ((flags >> k) & 1u && strchr(allowed, flag_chars[k]))
            spec[n++] = flag_chars[k];
    spec[n++] = '*';
    spec[n++] = '.';
    spec[n++] = '*';
    for (; *length; length++)
        spec[n++] = *length;
    spec[n++] = letter;
    spec[n] = '\0';
}

/* Copies snprintf's result; a result that did not fit NUMBER_BYTES cannot happen with capped
 * fields, but is cut rather than trusted. */
static void sink_number(sink *s, const char *buf, int k)
{
    if (k < 0)
        return;
    sink_put(s, buf, (size_t)k < NUMBER_BYTES ? (size_t)k : NUMBER_BYTES - 1);
}

static void put_integer(sink *s, const conversion *c, uint64_t raw)
{
    if (c->length < LEN_L)
        raw &= c->length == LEN_HH ? 0xffu : c->length == LEN_H ? 0xffffu : 0xffffffffu;
    unsigned bits = c->length == LEN_HH ? 8 : c->length == LEN_H ? 16 : c->length < LEN_L ? 32 : 64;
    char spec[SPEC_BYTES], buf[NUMBER_BYTES];
    int k;
    if (c->letter == 'd' || c->letter == 'i') {
        uint64_t sign = (uint64_t)1 << (bits - 1);
        long long v = (long long)((raw ^ sign) - sign); /* sign-extend without overflow */
        host_spec(spec, c->flags, "-+ 0", "ll", c->letter);
        k = snprintf(buf, sizeof buf, spec, c->width, c->precision, v);
    } else {
        host_spec(spec, c->flags, c->letter == 'u' ? "-0" : "-#0", "ll", c->letter);
        k = snprintf(buf, sizeof buf, spec, c->width, c->precision, (unsigned long long)raw);
    }
    sink_number(s, buf, k);
}

static void put_float(sink *s, const conversion *c, uint64_t raw)
{
    double d;
    memcpy(&d, &raw, sizeof d);
    char spec[SPEC_BYTES], buf[NUMBER_BYTES];
    host_spec(spec, c->flags, "-+ #0", "", c->letter);
    sink_number(s, buf, snprintf(buf, sizeof buf, spec, c->width, c->precision, d));
}

static void put_char(sink *s, const conversion *c, uint64_t raw)
{
    char ch = (char)(unsigned char)raw;
    /* A 0 byte keeps its column but is not written: the output is text. */
    int width = ch || c->width < 1 ? c->width : c->width - 1;
    sink_field(s, &ch, ch ? 1 : 0, width, c->flags & FLAG_MINUS);
}

enum { STRING_OK, STRING_NULL, STRING_INVALID, STRING_UNTERMINATED };

/* Reads the string at `address`: up to `precision` bytes when there is one (no NUL needed), else
 * up to its NUL, which must lie within EXEC_PRINTF_STRING_BYTES. */
static int read_string(exec_printf_read_fn read, void *ctx, uint64_t address, int precision,
                       char *buf, size_t *len)
{
    *len = 0;
    if (!address)
        return STRING_NULL;
    size_t limit = precision >= 0 ? (size_t)precision : EXEC_PRINTF_STRING_BYTES;
    for (size_t k = 0; k < limit; k++) {
        char ch;
        if (!read || read(ctx, address + k, &ch, 1))
            return STRING_INVALID;
        if (!ch)
            return STRING_OK;
        buf[k] = ch;
        *len = k + 1;
    }
    return precision >= 0 ? STRING_OK : STRING_UNTERMINATED;
}

static void put_string(sink *s, const conversion *c, uint64_t address, exec_printf_read_fn read,
                       void *ctx, exec_printf_result *result)
{
    char buf[EXEC_PRINTF_STRING_BYTES];
    size_t len;
    int status = read_string(read, ctx, address, c->precision, buf, &len);
    if (status != STRING_OK) {
        /* Markers are never cut by the precision: a bad pointer must show. */
        int k = status == STRING_NULL
                    ? snprintf(buf, MARKER_BYTES, "(null)")
                    : snprintf(buf, MARKER_BYTES, "<%s string 0x%llx>",
                               status == STRING_INVALID ? "invalid" : "unterminated",
                               (unsigned long long)address);
        len = (size_t)k;
        result->bad_strings++;
    }
    sink_field(s, buf, len, c->width, c->flags & FLAG_MINUS);
}

static void put_pointer(sink *s, const conversion *c, uint64_t raw)
{
    char buf[MARKER_BYTES];
    int k = snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)raw);
    sink_field(s, buf, (size_t)k, c->width, c->flags & FLAG_MINUS);
}

/* Resolves '*' fields and prints the well-formed conversion `c`. Returns -1, reading nothing,
 * when one of its arguments is missing (the caller prints the spec as written). */
static int convert(sink *s, arg_reader *a, conversion *c, exec_printf_read_fn read, void *ctx,
                   exec_printf_result *result)
{
    arg_reader saved = *a;
    uint64_t star_width = 0, star_precision = 0, value;
    if ((c->width_star && take_arg(a, 4, &star_width)) ||
        (c->precision_star && take_arg(a, 4, &star_precision)) ||
        take_arg(a, value_bytes(c), &value)) {
        *a = saved;
        return -1;
    }
    if (c->width_star) {
        int64_t w = (int32_t)(uint32_t)star_width;
        if (w < 0) {
            c->flags |= FLAG_MINUS;
            w = -w;
        }
        c->width = w > EXEC_PRINTF_FIELD_MAX ? EXEC_PRINTF_FIELD_MAX : (int)w;
    }
    if (c->precision_star) {
        int64_t p = (int32_t)(uint32_t)star_precision;
        c->precision = p < 0 ? -1 : p > EXEC_PRINTF_FIELD_MAX ? EXEC_PRINTF_FIELD_MAX : (int)p;
    }
    switch (c->letter) {
    case 'c': put_char(s, c, value); break;
    case 's': put_string(s, c, value, read, ctx, result); break;
    case 'p': put_pointer(s, c, value); break;
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': put_integer(s, c, value); break;
    default: put_float(s, c, value); break;
    }
    return 0;
}

int exec_printf_format(const char *format, size_t format_bytes, const uint8_t *args,
                       size_t args_bytes, exec_printf_read_fn read, void *read_ctx, char *out,
                       size_t out_size, exec_printf_result *result)
{
    assert(out_size >= 1);
    memset(result, 0, sizeof *result);
    const char *nul = memchr(format, '\0', format_bytes);
    size_t n = nul ? (size_t)(nul - format) : format_bytes;
    sink s = {out, out_size, 0, 0};
    arg_reader a = {args, args ? args_bytes : 0, 0, 0};
    for (size_t i = 0; i < n;) {
        const char *percent = memchr(format + i, '%', n - i);
        size_t literal_end = percent ? (size_t)(percent - format) : n;
        sink_put(&s, format + i, literal_end - i);
        i = literal_end;
        if (i == n)
            break;
        if (i + 1 < n && format[i + 1] == '%') {
            sink_put(&s, "%", 1);
            i += 2;
            continue;
        }
        conversion c;
        parse_conversion(format, n, i, &c);
        if (c.letter == 'n') {
            result->n_offset = i;
            out[0] = '\0';
            return EXEC_PRINTF_ERR_N;
        }
        if (!c.letter || convert(&s, &a, &c, read, read_ctx, result))
            sink_put(&s, format + i, c.end - i);
        i = c.end;
    }
    if (s.overflow) {
        size_t marker = sizeof EXEC_PRINTF_TRUNCATED - 1;
        if (s.cap - 1 >= marker) {
            s.len = s.len < s.cap - 1 - marker ? s.len : s.cap - 1 - marker;
            sink_put(&s, EXEC_PRINTF_TRUNCATED, marker);
        }
        result->truncated = 1;
    }
    s.buf[s.len] = '\0';
    result->length = s.len;
    result->args_used = a.used;
    return EXEC_PRINTF_OK;
}
