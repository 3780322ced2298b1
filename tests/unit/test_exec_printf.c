/* Unit tests for the device printf formatter (src/exec/exec_printf_format.c): exact text for each
 * conversion, flag, length and '*' field read from an argument buffer laid out as nvcc lays out
 * vprintf's; %n refused; widths, precisions, strings and output capped; missing arguments,
 * malformed specs and bad %s pointers printed as docs/semantics.md ("Device printf") says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_printf_format.h"

/* A fake device: `bytes` readable bytes at address DEVICE_BASE, nothing else. */
enum { DEVICE_BASE = 0x1000, DEVICE_BYTES = 8192 };
static char device[DEVICE_BYTES];

static int read_device(void *ctx, uint64_t address, void *out, uint32_t bytes)
{
    (void)ctx;
    if (address < DEVICE_BASE || address - DEVICE_BASE > DEVICE_BYTES ||
        DEVICE_BYTES - (address - DEVICE_BASE) < bytes)
        return -1;
    memcpy(out, device + (address - DEVICE_BASE), bytes);
    return 0;
}

/* An argument buffer built like nvcc's: each value aligned to its own size. */
typedef struct arg_buffer {
    uint8_t bytes[EXEC_PRINTF_ARG_BYTES * 2];
    size_t len;
} arg_buffer;

static void put(arg_buffer *b, uint64_t v, size_t size)
{
    b->len = (b->len + size - 1) / size * size;
    assert_true(b->len + size <= sizeof b->bytes);
    for (size_t k = 0; k < size; k++)
        b->bytes[b->len + k] = (uint8_t)(v >> (8 * k));
    b->len += size;
}
static void put32(arg_buffer *b, uint32_t v) { put(b, v, 4); }
static void put64(arg_buffer *b, uint64_t v) { put(b, v, 8); }
static void put_double(arg_buffer *b, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    put(b, v, 8);
}

static char out[EXEC_PRINTF_OUTPUT_BYTES];
static exec_printf_result result;

/* Formats `format` with `b` (NULL: no buffer) into `out`; returns the status. */
static int format_with(const char *format, const arg_buffer *b, size_t out_size)
{
    memset(out, 'Z', sizeof out);
    return exec_printf_format(format, strlen(format) + 1, b ? b->bytes : NULL, b ? b->len : 0,
                              read_device, NULL, out, out_size, &result);
}

/* Checks that `format` with `b` prints exactly `want`. */
static void check(const char *format, const arg_buffer *b, const char *want)
{
    assert_int_equal(format_with(format, b, sizeof out), EXEC_PRINTF_OK);
    assert_string_equal(out, want);
    assert_int_equal(result.length, strlen(want));
    assert_false(result.truncated);
}

static void test_integers(void **state)
{
    (void)state;
    arg_buffer b = {0};
    put32(&b, 42);
    check("[%d] [%i]", NULL, "[%d] [%i]"); /* no buffer: printed as written */
    arg_buffer many = {0};
    for (int k = 0; k < 8; k++)
        put32(&many, 42);
    check("[%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%.4d] [%i]", &many,
          "[42] [   42] [42   ] [00042] [+42] [ 42] [0042] [42]");
    assert_int_equal(result.args_used, 8);

    arg_buffer neg = {0};
    put32(&neg, (uint32_t)-7);
    put32(&neg, (uint32_t)-7);
    put32(&neg, (uint32_t)-7);
    check("%d %u %x", &neg, "-7 4294967289 fffffff9");

    arg_buffer narrow = {0};
    put32(&narrow, 0x1ff);
    put32(&narrow, 70000);
    put32(&narrow, 300);
    put32(&narrow, 0xabcd1234);
    check("%hhd %hd %hhu %hX", &narrow, "-1 4464 44 1234");

    arg_buffer wide = {0};
    put32(&wide, 1);
    put64(&wide, (uint64_t)-5000000000ll); /* aligned to 8: at offset 8 */
    put32(&wide, 2);
    put64(&wide, 1ull << 40);
    put64(&wide, UINT64_MAX);
    put64(&wide, 077);
    put64(&wide, 0xbeef);
    put64(&wide, 3);
    put64(&wide, 4);
    check("%d %lld %d %ld %llu %#lo %#zx %jd %td", &wide,
          "1 -5000000000 2 1099511627776 18446744073709551615 077 0xbeef 3 4");

    arg_buffer hex = {0};
    put32(&hex, 255);
    put32(&hex, 255);
    put32(&hex, 8);
    put32(&hex, 0);
    check("%x %#X %o %#x", &hex, "ff 0XFF 10 0");
}

static void test_floats_chars_pointers(void **state)
{
    (void)state;
    arg_buffer b = {0};
    put_double(&b, 1.5);
    put_double(&b, 12345.678);
    put_double(&b, 0.0001);
    put_double(&b, 1.0);
    put_double(&b, -2.25);
    put_double(&b, 1.0 / 0.0);
    put_double(&b, 2.5);
    put_double(&b, 3.0);
    check("%f %.2e %g %a %+8.3f %F %Lf %#.0f", &b,
          "1.500000 1.23e+04 0.0001 0x1p+0   -2.250 INF 2.500000 3.");

    arg_buffer c = {0};
    put32(&c, 'A');
    put32(&c, 'B');
    put32(&c, 'C');
    put32(&c, 0);
    put32(&c, 0x141); /* only the low byte is a char */
    check("%c|%3c|%-3c|%3c|%c", &c, "A|  B|C  |  |A");

    arg_buffer p = {0};
    put64(&p, 0x7f0000001234ull);
    put64(&p, 0);
    put64(&p, 0x10);
    check("%p %p [%6p] [%-6p]", &p, "0x7f0000001234 0x0 [  0x10] [%-6p]");
    arg_buffer p2 = {0};
    put64(&p2, 0x10);
    put64(&p2, 0x10);
    check("[%6p] [%-6p]", &p2, "[  0x10] [0x10  ]");
}

static void test_strings(void **state)
{
    (void)state;
    memset(device, 0, sizeof device);
    strcpy(device, "simulator");
    arg_buffer b = {0};
    for (int k = 0; k < 4; k++)
        put64(&b, DEVICE_BASE);
    check("[%s] [%.3s] [%12s] [%-12s]", &b, "[simulator] [sim] [   simulator] [simulator   ]");
    assert_int_equal(result.bad_strings, 0);

    /* NULL, unreadable, running into unreadable memory, and no NUL within the bound. */
    memset(device, 'A', sizeof device);
    arg_buffer bad = {0};
    put64(&bad, 0);
    put64(&bad, 0x10);
    put64(&bad, DEVICE_BASE + DEVICE_BYTES - 3);
    put64(&bad, DEVICE_BASE);
    put64(&bad, DEVICE_BASE);
    put64(&bad, 0x10);
    put64(&bad, 0);
    check("[%s] [%s] [%s] [%s] [%.5s] [%.0s] [%.2s]", &bad,
          "[(null)] [<invalid string 0x10>] [<invalid string 0x2ffd>] "
          "[<unterminated string 0x1000>] [AAAAA] [] [(null)]");
    assert_int_equal(result.bad_strings, 5);

    /* A string of 4095 bytes is the longest that prints. */
    device[EXEC_PRINTF_STRING_BYTES - 1] = '\0';
    arg_buffer longest = {0};
    put64(&longest, DEVICE_BASE);
    assert_int_equal(format_with("%s", &longest, sizeof out), EXEC_PRINTF_OK);
    assert_int_equal(result.length, EXEC_PRINTF_STRING_BYTES - 1);
    assert_int_equal(result.bad_strings, 0);

    /* Markers keep their width but are never cut by a precision. */
    arg_buffer pad = {0};
    put64(&pad, 0);
    put64(&pad, 0);
    check("[%8s] [%-8s|]", &pad, "[  (null)] [(null)  |]");

    /* Without a read callback, every non-NULL pointer is unreadable. */
    arg_buffer one = {0};
    put64(&one, DEVICE_BASE);
    assert_int_equal(exec_printf_format("%s", 2, one.bytes, one.len, NULL, NULL, out, sizeof out,
                                        &result),
                     EXEC_PRINTF_OK);
    assert_string_equal(out, "<invalid string 0x1000>");
    assert_int_equal(result.bad_strings, 1);
}

static void test_star_fields(void **state)
{
    (void)state;
    memset(device, 0, sizeof device);
    strcpy(device, "simulator");
    arg_buffer b = {0};
    put32(&b, 6);
    put32(&b, 42);
    put32(&b, (uint32_t)-6);
    put32(&b, 42);
    put32(&b, 3);
    put64(&b, DEVICE_BASE); /* aligned to 8 */
    put32(&b, 2);
    put_double(&b, 3.14159); /* aligned to 8 */
    put32(&b, 8);
    put32(&b, 4);
    put64(&b, DEVICE_BASE);
    put32(&b, (uint32_t)-1);
    put32(&b, 5);
    check("[%*d] [%*d] [%.*s] [%.*f] [%*.*s] [%.*d]", &b,
          "[    42] [42    ] [sim] [3.14] [    simu] [5]");
    assert_int_equal(result.args_used, 13);
}

static void test_caps(void **state)
{
    (void)state;
    arg_buffer b = {0};
    put32(&b, 1);
    assert_int_equal(format_with("%600d", &b, sizeof out), EXEC_PRINTF_OK);
    assert_int_equal(result.length, EXEC_PRINTF_FIELD_MAX);
    assert_int_equal(format_with("%.99999999999999999999d", &b, sizeof out), EXEC_PRINTF_OK);
    assert_int_equal(result.length, EXEC_PRINTF_FIELD_MAX);
    assert_int_equal(out[0], '0');

    arg_buffer star = {0};
    put32(&star, 100000);
    put32(&star, 7);
    put32(&star, 0x80000000u); /* INT_MIN: left-justified, capped */
    put32(&star, 7);
    assert_int_equal(format_with("%*d|%*d|", &star, sizeof out), EXEC_PRINTF_OK);
    assert_int_equal(result.length, 2 * EXEC_PRINTF_FIELD_MAX + 2);
    assert_int_equal(out[EXEC_PRINTF_FIELD_MAX - 1], '7');
    assert_int_equal(out[EXEC_PRINTF_FIELD_MAX + 1], '7');
    assert_int_equal(out[2 * EXEC_PRINTF_FIELD_MAX], ' ');

    /* The longest number: DBL_MAX with the largest precision. */
    arg_buffer big = {0};
    put_double(&big, 1.7976931348623157e308);
    assert_int_equal(format_with("%+.1000f", &big, sizeof out), EXEC_PRINTF_OK);
    assert_int_equal(result.length, 1 + 309 + 1 + EXEC_PRINTF_FIELD_MAX);
    assert_false(result.truncated);
}

static void test_long_conversions(void **state)
{
    (void)state;
    arg_buffer b = {0};
    put32(&b, 42);
    /* 61 bytes from the first flag to the letter: the spec that overflowed the old 64-byte copy. */
    check("[%00000000000000000000000000000000000000000000000000000000012.5d]", &b,
          "[       00042]");
    char format[400];
    strcpy(format, "%");
    for (int k = 0; k < 70; k++)
        strcat(format, "-+ 0");
    strcat(format, "8d|");
    check(format, &b, "+42     |");
}

static void test_n_refused(void **state)
{
    (void)state;
    arg_buffer b = {0};
    put32(&b, 1);
    put64(&b, DEVICE_BASE);
    assert_int_equal(format_with("x=%d%n\n", &b, sizeof out), EXEC_PRINTF_ERR_N);
    assert_int_equal(result.n_offset, 4);
    assert_string_equal(out, "");
    assert_int_equal(format_with("%-5lln", &b, sizeof out), EXEC_PRINTF_ERR_N);
    assert_int_equal(result.n_offset, 0);
    assert_int_equal(format_with("%hhn", NULL, sizeof out), EXEC_PRINTF_ERR_N);
    check("100%%n", NULL, "100%n"); /* not a conversion */
}

static void test_malformed_and_missing(void **state)
{
    (void)state;
    check("%y %5%|%-|%hhhd|%", NULL, "%y %5%|%-|%hhhd|%");
    check("%%|%d|%s|%*d", NULL, "%|%d|%s|%*d");
    assert_int_equal(result.args_used, 0);

    arg_buffer b = {0};
    put32(&b, 7);
    check("%d %d %lld", &b, "7 %d %lld");
    assert_int_equal(result.args_used, 1);
    /* '*' present but the value missing: the whole spec prints, nothing is consumed. */
    check("%*d %d", &b, "%*d 7");

    /* At most 32 arguments per call. */
    arg_buffer full = {0};
    char format[200] = "";
    for (int k = 0; k < 33; k++) {
        put32(&full, (uint32_t)k % 10);
        strcat(format, "%d");
    }
    check(format, &full, "01234567890123456789012345678901%d");
    assert_int_equal(result.args_used, 32);

    /* The format ends at its first NUL or after format_bytes bytes. */
    assert_int_equal(exec_printf_format("abc%d", 4, b.bytes, b.len, read_device, NULL, out,
                                        sizeof out, &result),
                     EXEC_PRINTF_OK);
    assert_string_equal(out, "abc%");
    assert_int_equal(exec_printf_format("ab\0%d", 5, b.bytes, b.len, read_device, NULL, out,
                                        sizeof out, &result),
                     EXEC_PRINTF_OK);
    assert_string_equal(out, "ab");
}

static void test_truncation(void **state)
{
    (void)state;
    arg_buffer b = {0};
    for (int k = 0; k < 20; k++)
        put32(&b, (uint32_t)k);
    char format[200] = "";
    for (int k = 0; k < 20; k++)
        strcat(format, "%512d");
    assert_int_equal(format_with(format, &b, sizeof out), EXEC_PRINTF_OK);
    assert_true(result.truncated);
    assert_int_equal(result.length, EXEC_PRINTF_OUTPUT_BYTES - 1);
    assert_string_equal(out + result.length - strlen(EXEC_PRINTF_TRUNCATED),
                        EXEC_PRINTF_TRUNCATED);
    assert_int_equal(result.args_used, 20);

    /* Exactly full is not truncated; one byte more is. */
    assert_int_equal(format_with("0123456789", NULL, 11), EXEC_PRINTF_OK);
    assert_false(result.truncated);
    assert_string_equal(out, "0123456789");
    assert_int_equal(format_with("0123456789abcdefghijklmnopqrstuvwxyz", NULL, 36),
                     EXEC_PRINTF_OK);
    assert_true(result.truncated);
    assert_string_equal(out, "0123456789<printf output truncated>");
    /* Too small for the marker: cut, still NUL-terminated, never written past out_size. */
    assert_int_equal(format_with("0123456789", NULL, 5), EXEC_PRINTF_OK);
    assert_true(result.truncated);
    assert_string_equal(out, "0123");
    assert_int_equal(out[5], 'Z');
    assert_int_equal(format_with("0123456789", NULL, 1), EXEC_PRINTF_OK);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_floats_chars_pointers),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_star_fields),
        cmocka_unit_test(test_caps),
        cmocka_unit_test(test_long_conversions),
        cmocka_unit_test(test_n_refused),
        cmocka_unit_test(test_malformed_and_missing),
        cmocka_unit_test(test_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
