/* Device-side printf (vprintf) and assertion failures (__assertfail).
 *
 * CUDA's printf passes the format string's generic address and a buffer of arguments, each
 * aligned to its own size. This module reads both through the memory system (without statistics),
 * formats each active lane's output like the host C library would, and keeps it as a record that
 * is printed after the kernel, ordered by CTA, warp, call order and lane. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "mem/memsys.h"

enum { FORMAT_MAX = 4096, OUTPUT_MAX = 8192 };

/* Reads a NUL-terminated string at a generic address (at most max-1 bytes). */
static int read_string(exec_warp *w, uint32_t lane, uint64_t addr, char *buf, size_t max)
{
    for (size_t i = 0; i + 1 < max; i++) {
        if (memsys_peek(w->run->ms, &w->mctx, lane, addr + i, &buf[i], 1))
            return -1;
        if (!buf[i])
            return 0;
    }
    buf[max - 1] = '\0';
    return 0;
}

typedef struct arg_cursor {
    exec_warp *w;
    uint32_t lane;
    uint64_t base, offset;
    int bad;
} arg_cursor;

static uint64_t next_arg(arg_cursor *c, unsigned bytes)
{
    uint64_t v = 0;
    c->offset = (c->offset + bytes - 1) / bytes * bytes;
    if (!c->base || memsys_peek(c->w->run->ms, &c->w->mctx, c->lane, c->base + c->offset, &v,
                                bytes))
        c->bad = 1;
    c->offset += bytes;
    return v;
}

/* Formats one conversion spec (text between '%' and the conversion character, inclusive). */
static int format_one(arg_cursor *c, const char *spec, size_t len, char *out, size_t room)
{
    char fmt[64];
    if (len >= sizeof fmt - 2)
        return snprintf(out, room, "%.*s", (int)len, spec);
    char conv = spec[len - 1];
    int longs = 0;
    for (size_t i = 0; i < len; i++) longs += spec[i] == 'l';
    /* Rebuild the spec without length modifiers, then add the host's 64-bit one. */
    size_t n = 0;
    fmt[n++] = '%';
    for (size_t i = 0; i + 1 < len; i++)
        if (spec[i] != 'l' && spec[i] != 'h' && spec[i] != 'z' && spec[i] != 'j' && spec[i] != 't')
            fmt[n++] = spec[i];
    switch (conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
        uint64_t v = next_arg(c, longs ? 8 : 4);
        int is_signed = conv == 'd' || conv == 'i';
        if (conv == 'c') {
            fmt[n++] = 'c';
            fmt[n] = '\0';
            return snprintf(out, room, fmt, (int)(unsigned char)v);
        }
        fmt[n++] = 'l';
        fmt[n++] = 'l';
        fmt[n++] = conv;
        fmt[n] = '\0';
        if (!longs)
            v = is_signed ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
        if (is_signed)
            return snprintf(out, room, fmt, (long long)v);
        return snprintf(out, room, fmt, (unsigned long long)v);
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        uint64_t v = next_arg(c, 8);
        double d;
        memcpy(&d, &v, sizeof d);
        fmt[n++] = conv;
        fmt[n] = '\0';
        return snprintf(out, room, fmt, d);
    }
    case 's': {
        uint64_t p = next_arg(c, 8);
        char s[FORMAT_MAX];
        if (read_string(c->w, c->lane, p, s, sizeof s))
            snprintf(s, sizeof s, "%s", "(null)");
        fmt[n++] = 's';
        fmt[n] = '\0';
        return snprintf(out, room, fmt, s);
    }
    case 'p': {
        uint64_t p = next_arg(c, 8);
        return snprintf(out, room, "0x%llx", (unsigned long long)p);
    }
    default:
        return snprintf(out, room, "%.*s", (int)len, spec);
    }
}

static char *format_lane(exec_warp *w, uint32_t lane, const char *f, uint64_t args, int *nargs)
{
    char *out = malloc(OUTPUT_MAX);
    if (!out)
        return NULL;
    size_t pos = 0;
    arg_cursor c = {w, lane, args, 0, 0};
    *nargs = 0;
    for (const char *p = f; *p && pos + 1 < OUTPUT_MAX;) {
        if (*p != '%') {
            out[pos++] = *p++;
            continue;
        }
        if (p[1] == '%') {
            out[pos++] = '%';
            p += 2;
            continue;
        }
        size_t len = 1;
        while (p[len] && !strchr("diuxXocfFeEgGaAsp", p[len])) len++;
        if (!p[len])
            break;
        len++;
        int k = format_one(&c, p + 1, len - 1, out + pos, OUTPUT_MAX - pos);
        if (k > 0)
            pos += (size_t)k < OUTPUT_MAX - pos ? (size_t)k : OUTPUT_MAX - pos - 1;
        (*nargs)++;
        p += len;
    }
    out[pos] = '\0';
    return out;
}

int exec_vprintf(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint64_t fmt_lanes[32],
                 uint64_t args_lanes[32])
{
    exec_run_state *rs = w->run;
    uint32_t seq = w->printf_seq++;
    int nargs = 0;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        char f[FORMAT_MAX];
        if (read_string(w, l, fmt_lanes[l], f, sizeof f)) {
            warp_fault(w, x, l, "EXEC-PRINTF-001", "printf format string at 0x%llx is not readable",
                       (unsigned long long)fmt_lanes[l]);
            return -1;
        }
        char *text = format_lane(w, l, f, args_lanes[l], &nargs);
        if (!text) {
            rs->oom = 1;
            return -1;
        }
        if (rs->nprintfs == rs->printfs_cap) {
            uint32_t cap = rs->printfs_cap ? rs->printfs_cap * 2 : 64;
            printf_record *r = realloc(rs->printfs, cap * sizeof *r);
            if (!r) {
                free(text);
                rs->oom = 1;
                return -1;
            }
            rs->printfs = r;
            rs->printfs_cap = cap;
        }
        rs->printfs[rs->nprintfs++] =
            (printf_record){w->cta->linear, w->warp_in_cta, seq, l, text};
    }
    return nargs;
}

void exec_assertfail(exec_warp *w, const exec_xinsn *x, uint32_t mask, const uint64_t *const *args)
{
    unsigned l = (unsigned)__builtin_ctz(mask);
    char msg[512], file[512], func[256];
    if (read_string(w, l, args[0][l], msg, sizeof msg))
        snprintf(msg, sizeof msg, "%s", "?");
    if (read_string(w, l, args[1][l], file, sizeof file))
        snprintf(file, sizeof file, "%s", "?");
    if (read_string(w, l, args[3][l], func, sizeof func))
        snprintf(func, sizeof func, "%s", "?");
    warp_fault(w, x, l, "EXEC-ASSERT-001", "device assertion failed: %s:%u: %s: Assertion `%s` failed.", file,
               (unsigned)args[2][l], func, msg);
}
