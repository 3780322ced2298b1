/* libFuzzer target for the device printf formatter (src/exec/exec_printf_format.c): one input is
 * a kernel's printf call. The bytes before the first NUL are the format string, the bytes after
 * it the argument buffer; the whole input is also the device memory that %s pointers read, at
 * address 0x1000 (so a pointer 0x1000 + k reads input byte k; any other address is unreadable).
 * Format and arguments are copied to buffers of their exact size, so ASan catches a read one
 * byte past either. Each input is formatted twice, into an output of the executor's size and into
 * a small one, and the result must hold the formatter's promises (a NUL-terminated text of the
 * reported length, within the output, the truncation marker where it fits); a broken promise
 * aborts, so the fuzzer reports it like a crash.
 * Seeds: tests/fuzz/corpus_printf/; crashes found so far: tests/fuzz/regressions_printf/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_printf_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { DEVICE_BASE = 0x1000 };

typedef struct device_memory {
    const uint8_t *bytes;
    size_t size;
} device_memory;

static int read_device(void *ctx, uint64_t address, void *out, uint32_t bytes)
{
    const device_memory *d = ctx;
    if (address < DEVICE_BASE || address - DEVICE_BASE > d->size ||
        d->size - (address - DEVICE_BASE) < bytes)
        return -1;
    memcpy(out, d->bytes + (address - DEVICE_BASE), bytes);
    return 0;
}

/* Formats into a malloc'd output of exactly out_size bytes, checks the result and returns the
 * output (the caller frees it). */
static char *format_checked(const char *format, size_t format_bytes, const uint8_t *args,
                            size_t args_bytes, device_memory *device, size_t out_size,
                            exec_printf_result *r, int *status)
{
    char *out = malloc(out_size);
    if (!out)
        abort();
    *status = exec_printf_format(format, format_bytes, args, args_bytes, read_device, device, out,
                                 out_size, r);
    if (*status == EXEC_PRINTF_OK) {
        size_t marker = strlen(EXEC_PRINTF_TRUNCATED);
        if (r->length >= out_size || out[r->length] != '\0' || strlen(out) != r->length)
            abort();
        if (r->args_used > EXEC_PRINTF_ARGS_MAX || r->bad_strings > r->args_used)
            abort();
        if (r->truncated && out_size > marker + 1 &&
            memcmp(out + r->length - marker, EXEC_PRINTF_TRUNCATED, marker) != 0)
            abort();
    } else if (*status != EXEC_PRINTF_ERR_N || r->n_offset >= format_bytes ||
               format[r->n_offset] != '%') {
        abort();
    }
    return out;
}

/* The small output must be the start of the full one (before its truncation marker), and both
 * must agree on everything but the text. */
static void compare(const char *full, const exec_printf_result *rf, const char *small,
                    const exec_printf_result *rs)
{
    size_t kept = rs->length;
    if (rs->truncated) {
        size_t marker = strlen(EXEC_PRINTF_TRUNCATED);
        kept = kept >= marker && memcmp(small + kept - marker, EXEC_PRINTF_TRUNCATED, marker) == 0
                   ? kept - marker
                   : kept;
    }
    if (kept > rf->length || memcmp(full, small, kept) != 0)
        abort();
    if (!rs->truncated && (rs->length != rf->length || rf->truncated))
        abort();
    if (rs->args_used != rf->args_used || rs->bad_strings != rf->bad_strings)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t format_bytes = nul ? (size_t)(nul - data) : size;
    size_t args_bytes = nul ? size - format_bytes - 1 : 0;
    char *format = malloc(format_bytes ? format_bytes : 1);
    uint8_t *args = calloc(args_bytes ? args_bytes : 1, 1); /* defined bytes even when empty */
    if (!format || !args)
        abort();
    memcpy(format, data, format_bytes);
    if (args_bytes)
        memcpy(args, data + format_bytes + 1, args_bytes);
    device_memory device = {data, size};
    exec_printf_result rf, rs;
    int full_status, small_status;
    char *full = format_checked(format, format_bytes, args, args_bytes, &device,
                                EXEC_PRINTF_OUTPUT_BYTES, &rf, &full_status);
    char *small = format_checked(format, format_bytes, args, args_bytes, &device, 1 + size % 61,
                                 &rs, &small_status);
    if (full_status != small_status)
        abort(); /* %n is refused whatever the output size */
    if (full_status == EXEC_PRINTF_OK)
        compare(full, &rf, small, &rs);
    free(full);
    free(small);
    free(format);
    free(args);
    return 0;
}
