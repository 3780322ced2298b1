/* Field paths and source positions for launch-file diagnostics.
 *
 * jansson keeps no source positions for parsed values, so a diagnostic about a value finds it
 * again in the text: launch_locate() walks the raw JSON along the field path. It only ever runs on
 * text that jansson has accepted, but it still checks every bound so that no input can make it
 * read outside the buffer. This file does not validate anything itself. */
#include "launch/launch_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

launch_path launch_path_key(const launch_path *p, const char *key)
{
    launch_path q = *p;
    if (q.depth >= 0 && q.depth < LAUNCH_PATH_DEPTH) {
        q.seg[q.depth].key = key;
        q.seg[q.depth].index = 0;
    }
    q.depth++;
    return q;
}

launch_path launch_path_index(const launch_path *p, size_t index)
{
    launch_path q = *p;
    if (q.depth >= 0 && q.depth < LAUNCH_PATH_DEPTH) {
        q.seg[q.depth].key = NULL;
        q.seg[q.depth].index = index;
    }
    q.depth++;
    return q;
}

void launch_path_format(const launch_path *p, char *buf, size_t size)
{
    if (!size)
        return;
    buf[0] = '\0';
    size_t used = 0;
    int depth = p->depth < LAUNCH_PATH_DEPTH ? p->depth : LAUNCH_PATH_DEPTH;
    for (int i = 0; i < depth && used < size; i++) {
        int n;
        if (p->seg[i].key)
            n = snprintf(buf + used, size - used, "%s%s", i ? "." : "", p->seg[i].key);
        else
            n = snprintf(buf + used, size - used, "[%zu]", p->seg[i].index);
        if (n < 0)
            return;
        used += (size_t)n;
    }
    if (!depth)
        snprintf(buf, size, "(top level)");
}

/* ---- the locator ---- */

static size_t skip_space(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* i is at an opening quote; returns the offset just past the closing quote (or len). */
static size_t skip_string(const char *t, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == '"')
            return i + 1;
    }
    return len;
}

static size_t skip_value(const char *t, size_t len, size_t i)
{
    if (i >= len)
        return len;
    if (t[i] == '"')
        return skip_string(t, len, i);
    if (t[i] == '{' || t[i] == '[') {
        size_t depth = 0;
        while (i < len) {
            char ch = t[i];
            if (ch == '"') {
                i = skip_string(t, len, i);
                continue;
            }
            if (ch == '{' || ch == '[')
                depth++;
            else if ((ch == '}' || ch == ']') && --depth == 0)
                return i + 1;
            i++;
        }
        return len;
    }
    while (i < len && !strchr(",]} \t\r\n", t[i]))
        i++;
    return i;
}

static unsigned hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return (unsigned)(ch - '0');
    if (ch >= 'a' && ch <= 'f')
        return (unsigned)(ch - 'a' + 10);
    if (ch >= 'A' && ch <= 'F')
        return (unsigned)(ch - 'A' + 10);
    return 16;
}

/* Reads \uXXXX at t[i] (i at the 'u'); returns the code unit or -1. */
static long read_u_escape(const char *t, size_t len, size_t i)
{
    if (i + 4 >= len)
        return -1;
    long v = 0;
    for (size_t k = 1; k <= 4; k++) {
        unsigned d = hex_digit(t[i + k]);
        if (d > 15)
            return -1;
        v = v * 16 + (long)d;
    }
    return v;
}

static size_t utf8_encode(unsigned long cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes one character of a JSON string at t[*i] into out; advances *i. Returns bytes or 0. */
static size_t decode_char(const char *t, size_t len, size_t *i, char out[4])
{
    if (t[*i] != '\\') {
        out[0] = t[(*i)++];
        return 1;
    }
    if (*i + 1 >= len)
        return 0;
    char e = t[*i + 1];
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *hit = strchr(from, e);
    if (e && hit) {
        out[0] = to[hit - from];
        *i += 2;
        return 1;
    }
    long cp = read_u_escape(t, len, *i + 1);
    if (e != 'u' || cp < 0)
        return 0;
    *i += 6;
    if (cp >= 0xD800 && cp < 0xDC00 && *i + 1 < len && t[*i] == '\\' && t[*i + 1] == 'u') {
        long low = read_u_escape(t, len, *i + 1);
        if (low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            *i += 6;
        }
    }
    return utf8_encode((unsigned long)cp, out);
}

/* Compares the JSON string at t[i] (an opening quote) with `key`; sets *end past the string. */
static int string_equals(const char *t, size_t len, size_t i, const char *key, size_t *end)
{
    *end = skip_string(t, len, i);
    size_t stop = *end > i + 1 ? *end - 1 : i + 1; /* the closing quote */
    size_t k = 0, keylen = strlen(key);
    i++;
    while (i < stop) {
        char buf[4];
        size_t n = decode_char(t, stop, &i, buf);
        if (!n || k + n > keylen || memcmp(key + k, buf, n) != 0)
            return 0;
        k += n;
    }
    return k == keylen;
}

/* Steps from the object or array at t[*pos] into the member named by one path segment. */
static int step_into(const char *t, size_t len, size_t *pos, const char *key, size_t index,
                     size_t *key_pos)
{
    size_t i = *pos;
    char open = key ? '{' : '[', close = key ? '}' : ']';
    if (i >= len || t[i] != open)
        return -1;
    i++;
    for (size_t n = 0;; n++) {
        i = skip_space(t, len, i);
        if (i >= len || t[i] == close)
            return -1;
        size_t member = i, value = i;
        int hit;
        if (key) {
            if (t[i] != '"')
                return -1;
            hit = string_equals(t, len, i, key, &i);
            i = skip_space(t, len, i);
            if (i >= len || t[i] != ':')
                return -1;
            value = skip_space(t, len, i + 1);
        } else {
            hit = n == index;
        }
        if (hit) {
            *pos = value;
            *key_pos = member;
            return 0;
        }
        i = skip_space(t, len, skip_value(t, len, value));
        if (i >= len || t[i] != ',')
            return -1;
        i++;
    }
}

int launch_locate(const char *text, size_t len, const launch_path *p, size_t *value_offset,
                  size_t *key_offset)
{
    if (!text || p->depth > LAUNCH_PATH_DEPTH)
        return -1;
    size_t pos = skip_space(text, len, 0), key_pos = pos;
    for (int d = 0; d < p->depth; d++) {
        if (step_into(text, len, &pos, p->seg[d].key, p->seg[d].index, &key_pos) != 0)
            return -1;
    }
    *value_offset = pos;
    *key_offset = key_pos;
    return 0;
}

void launch_line_col(const char *text, size_t len, size_t offset, unsigned *line, unsigned *col)
{
    unsigned l = 1, c = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

enum { LOCATED_ERRORS = 256 };

void launch_error(launch_ctx *c, const char *rule, const launch_path *p, int at_key,
                  const char *fmt, ...)
{
    char field[256], message[512];
    launch_path_format(p, field, sizeof field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    /* A missing field has no position: point at the closest enclosing value that exists. Each
     * search rescans the text, so past a few hundred errors positions are left out. */
    unsigned line = 0, col = 0;
    launch_path where = *p;
    for (; where.depth >= 0 && c->errors < LOCATED_ERRORS; where.depth--, at_key = 0) {
        size_t value_offset, key_offset;
        if (launch_locate(c->text, c->len, &where, &value_offset, &key_offset) == 0) {
            launch_line_col(c->text, c->len, at_key ? key_offset : value_offset, &line, &col);
            break;
        }
    }
    diag_add(c->dl, DIAG_ERROR, rule, c->file, line, col, "%s: %s", field, message);
    c->errors++;
}
