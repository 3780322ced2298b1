/* Device-side printf (vprintf) and assertion failures (__assertfail).
 *
 * CUDA's printf passes the format string's generic address and a buffer of arguments, each
 * aligned to its own size. This module reads the format and a bounded copy of the buffer through
 * the memory system (without statistics), has exec_printf_format.c format each active lane's call,
 * and keeps the text as a record that is printed after the kernel, ordered by CTA, warp, call
 * order and lane. A %n conversion is a kernel fault (EXEC-PRINTF-002), as is a format string that
 * is unreadable (EXEC-PRINTF-001) or longer than EXEC_PRINTF_FORMAT_BYTES (EXEC-PRINTF-003). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "exec/exec_printf_format.h"
#include "mem/memsys.h"

/* Reads a NUL-terminated string at a generic address into buf (max bytes, NUL included).
 * Returns 0; 1 when there was no NUL within max bytes (buf then holds the first max-1); -1 when a
 * byte before the NUL is not readable. */
static int read_string(exec_warp *w, uint32_t lane, uint64_t addr, char *buf, size_t max)
{
    for (size_t i = 0; i < max; i++) {
        if (memsys_peek(w->run->ms, &w->mctx, lane, addr + i, &buf[i], 1))
            return -1;
        if (!buf[i])
            return 0;
    }
    buf[max - 1] = '\0';
    return 1;
}

/* The formatter's view of one lane's device memory. */
typedef struct lane_reader {
    exec_warp *w;
    uint32_t lane;
} lane_reader;

static int read_lane_bytes(void *ctx, uint64_t address, void *out, uint32_t bytes)
{
    const lane_reader *r = ctx;
    return memsys_peek(r->w->run->ms, &r->w->mctx, r->lane, address, out, bytes);
}

/* Copies the readable prefix of the argument buffer at `addr`, at most EXEC_PRINTF_ARG_BYTES
 * (32 arguments of 8 bytes): the call does not say how long the buffer is, and arguments the
 * format asks for past what is readable are printed as missing, never read from the host. */
static size_t copy_args(exec_warp *w, uint32_t lane, uint64_t addr, uint8_t *buf)
{
    if (!addr)
        return 0;
    if (!memsys_peek(w->run->ms, &w->mctx, lane, addr, buf, EXEC_PRINTF_ARG_BYTES))
        return EXEC_PRINTF_ARG_BYTES;
    size_t n = 0;
    while (n < EXEC_PRINTF_ARG_BYTES &&
           !memsys_peek(w->run->ms, &w->mctx, lane, addr + n, &buf[n], 1))
        n++;
    return n;
}

/* `format` quoted for a fault message: escapes for control and non-ASCII bytes, cut with "..."
 * to fit `size` bytes. */
static void quote_format(const char *format, char *out, size_t size)
{
    size_t n = 0;
    out[n++] = '"';
    for (const unsigned char *p = (const unsigned char *)format; *p; p++) {
        char esc[8];
        if (*p == '\n' || *p == '\t' || *p == '"' || *p == '\\')
            snprintf(esc, sizeof esc, "\\%c", *p == '\n' ? 'n' : *p == '\t' ? 't' : *p);
        else if (*p < 0x20 || *p >= 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", *p);
        else
            snprintf(esc, sizeof esc, "%c", *p);
        size_t k = strlen(esc);
        if (n + k + 5 > size) {
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        memcpy(out + n, esc, k);
        n += k;
    }
    out[n++] = '"';
    out[n] = '\0';
}

/* Formats lane `lane`'s call into a malloc'd record text. Returns 0; -1 after a kernel fault;
 * -2 when out of host memory. */
static int format_lane(exec_warp *w, const exec_xinsn *x, uint32_t lane, uint64_t fmt_addr,
                       uint64_t args_addr, char **text, uint32_t *args_used)
{
    char f[EXEC_PRINTF_FORMAT_BYTES];
    int rc = read_string(w, lane, fmt_addr, f, sizeof f);
    if (rc < 0) {
        warp_fault(w, x, lane, "EXEC-PRINTF-001", "printf format string at 0x%llx is not readable",
                   (unsigned long long)fmt_addr);
        return -1;
    }
    if (rc > 0) {
        warp_fault(w, x, lane, "EXEC-PRINTF-003",
                   "printf format string at 0x%llx has no NUL within %d bytes",
                   (unsigned long long)fmt_addr, EXEC_PRINTF_FORMAT_BYTES);
        return -1;
    }
    uint8_t args[EXEC_PRINTF_ARG_BYTES];
    size_t args_bytes = copy_args(w, lane, args_addr, args);
    char *out = malloc(EXEC_PRINTF_OUTPUT_BYTES);
    if (!out)
        return -2;
    lane_reader reader = {w, lane};
    exec_printf_result res;
    if (exec_printf_format(f, strlen(f), args, args_bytes, read_lane_bytes, &reader, out,
                           EXEC_PRINTF_OUTPUT_BYTES, &res) == EXEC_PRINTF_ERR_N) {
        free(out);
        char quoted[256];
        quote_format(f, quoted, sizeof quoted);
        warp_fault(w, x, lane, "EXEC-PRINTF-002",
                   "printf format %s has a %%n conversion at byte %zu (it would write through a "
                   "pointer argument; not supported)",
                   quoted, res.n_offset);
        return -1;
    }
    w->run->stats->printf_bad_strings += res.bad_strings;
    *args_used = res.args_used;
    char *fitted = realloc(out, res.length + 1); /* records live until the kernel ends */
    *text = fitted ? fitted : out;
    return 0;
}

/* Returns what CUDA's printf returns (the number of arguments the format read, of the last
 * active lane), or -1 after a fault or when out of memory (rs->oom). */
int exec_vprintf(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint64_t fmt_lanes[32],
                 uint64_t args_lanes[32])
{
    exec_run_state *rs = w->run;
    uint32_t seq = w->printf_seq++;
    uint32_t nargs = 0;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        char *text = NULL;
        int rc = format_lane(w, x, l, fmt_lanes[l], args_lanes[l], &text, &nargs);
        if (rc == -2)
            exec_oom(rs, rs->fault, "EXEC-NOMEM-004",
                     "out of host memory formatting device printf output (line %u)", x->in->line);
        if (rc)
            return -1;
        if (rs->nprintfs == rs->printfs_cap) {
            uint32_t cap = rs->printfs_cap ? rs->printfs_cap * 2 : 64;
            printf_record *r = realloc(rs->printfs, cap * sizeof *r);
            if (!r) {
                free(text);
                exec_oom(rs, rs->fault, "EXEC-NOMEM-004",
                         "out of host memory for %u device printf records (%zu bytes)", cap,
                         (size_t)cap * sizeof *r);
                return -1;
            }
            rs->printfs = r;
            rs->printfs_cap = cap;
        }
        rs->printfs[rs->nprintfs++] =
            (printf_record){w->cta->linear, w->warp_in_cta, seq, l, text};
    }
    return (int)nargs;
}

void exec_assertfail(exec_warp *w, const exec_xinsn *x, uint32_t mask, const uint64_t *const *args)
{
    unsigned l = (unsigned)__builtin_ctz(mask);
    char msg[512], file[512], func[256];
    if (read_string(w, l, args[0][l], msg, sizeof msg) < 0)
        snprintf(msg, sizeof msg, "%s", "?");
    if (read_string(w, l, args[1][l], file, sizeof file) < 0)
        snprintf(file, sizeof file, "%s", "?");
    if (read_string(w, l, args[3][l], func, sizeof func) < 0)
        snprintf(func, sizeof func, "%s", "?");
    warp_fault(w, x, l, "EXEC-ASSERT-001", "device assertion failed: %s:%u: %s: Assertion `%s` failed.", file,
               (unsigned)args[2][l], func, msg);
}
