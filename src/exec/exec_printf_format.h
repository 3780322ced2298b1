/* The device printf formatter: turns one lane's printf call (a format string and the argument
 * buffer nvcc built for vprintf) into text, with every field parsed and bounded here.
 *
 * Kernel-controlled text never reaches the host's formatter as a format: each conversion is parsed
 * into flags, width, precision, length and conversion letter, and numbers are printed through a
 * host format assembled from those validated fields only. The module knows nothing of warps or
 * the memory system: strings behind %s pointers are read through a caller-supplied callback, so
 * unit tests and the fuzzer (tests/fuzz/fuzz_printf.c) call it directly.
 *
 * Rules (docs/semantics.md, "Device printf"): conversions follow CUDA's device printf (CUDA C++
 * Programming Guide, "Formatted Output"): %[flags][width][.precision][length]conversion with flags
 * "-+ #0", '*' widths and precisions read as 4-byte ints from the argument buffer, lengths
 * hh h l ll z j t L and conversions d i u o x X c s f F e E g G a A p, plus %%. Each argument is
 * aligned, from the start of the buffer, to its own size (4 or 8 bytes); at most 32 arguments are
 * read per call. */
#ifndef GMS_EXEC_EXEC_PRINTF_FORMAT_H
#define GMS_EXEC_EXEC_PRINTF_FORMAT_H

#include <stddef.h>
#include <stdint.h>

enum {
    EXEC_PRINTF_FORMAT_BYTES = 4096, /* longest format string the executor reads, NUL included */
    EXEC_PRINTF_FIELD_MAX = 512,     /* widths and precisions above this are lowered to it */
    EXEC_PRINTF_STRING_BYTES = 4096, /* %s without precision: the NUL must lie within these bytes */
    EXEC_PRINTF_OUTPUT_BYTES = 8192, /* output of one call in one lane, NUL included */
    EXEC_PRINTF_ARGS_MAX = 32,       /* arguments read per call, as in CUDA */
    EXEC_PRINTF_ARG_BYTES = 256,     /* room for EXEC_PRINTF_ARGS_MAX arguments of 8 bytes */
};

/* Statuses of exec_printf_format. */
enum {
    EXEC_PRINTF_OK = 0,
    EXEC_PRINTF_ERR_N = 1, /* the format has a %n conversion (the caller makes it a kernel fault) */
};

/* Reads `bytes` bytes of device memory at `address` into `out`. Returns 0, or nonzero when any of
 * them is not readable (the contents of `out` are then unspecified). `ctx` is the caller's. */
typedef int (*exec_printf_read_fn)(void *ctx, uint64_t address, void *out, uint32_t bytes);

typedef struct exec_printf_result {
    size_t length;        /* bytes written to out, NUL excluded */
    uint32_t args_used;   /* arguments read from the buffer ('*' values included): what CUDA's
                             printf returns */
    uint32_t bad_strings; /* %s arguments that were NULL, unreadable or unterminated */
    int truncated;        /* the output reached its cap and ends with EXEC_PRINTF_TRUNCATED */
    size_t n_offset;      /* EXEC_PRINTF_ERR_N: byte offset of the '%' that starts the %n */
} exec_printf_result;

/* Appended to an output that hit the out_size cap. */
#define EXEC_PRINTF_TRUNCATED "<printf output truncated>"

/* Formats one printf call.
 *   format, format_bytes: the format's bytes (borrowed); formatting stops at the first NUL or
 *     after format_bytes bytes, whichever comes first.
 *   args, args_bytes: the argument buffer (borrowed; NULL only when args_bytes is 0). A conversion
 *     whose argument would lie past args_bytes, or past the 32nd argument, is printed as written.
 *   read, read_ctx: how %s strings are read from device memory (read may be NULL: then every
 *     non-NULL string pointer is unreadable).
 *   out, out_size: caller storage for the NUL-terminated text (out_size >= 1; the executor passes
 *     EXEC_PRINTF_OUTPUT_BYTES). Longer output is cut and ends with EXEC_PRINTF_TRUNCATED when
 *     out_size leaves room for it. The text holds no NUL byte (a %c of 0 writes nothing).
 *   result: OUT, always filled.
 * Returns EXEC_PRINTF_OK, or EXEC_PRINTF_ERR_N (result->n_offset says where) when the format has a
 * %n conversion; then `out` holds no meaningful text. Never reads outside format[0..format_bytes),
 * args[0..args_bytes) and out[0..out_size), whatever the bytes. */
int exec_printf_format(const char *format, size_t format_bytes, const uint8_t *args,
                       size_t args_bytes, exec_printf_read_fn read, void *read_ctx, char *out,
                       size_t out_size, exec_printf_result *result);

#endif
