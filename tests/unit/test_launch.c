/* Unit tests for src/launch: parsing and validation of launch files, the exact bytes of every
 * initial-contents form, atomic output files and expectation checks.
 *
 * The random-generator constants below were computed outside this code base, by an independent
 * Python implementation of the definition in docs/launch-files.md ("Random"); they pin the
 * generator bit for bit. The file tests/launch_bad/ holds one bad launch file per diagnostic rule
 * with the exact expected diagnostic beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch/launch.h"

#ifndef GMS_SOURCE_DIR
#define GMS_SOURCE_DIR "."
#endif

static char scratch[256]; /* a fresh folder per run, for launch files and data files */

/* ---- helpers ---- */

static void scratch_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", scratch, name);
}

static void write_file(const char *name, const void *data, size_t bytes)
{
    char path[512];
    scratch_path(path, sizeof path, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, bytes, f), bytes);
    assert_int_equal(fclose(f), 0);
}

static launch_desc *load(const char *json, diag_list *dl)
{
    char path[512];
    scratch_path(path, sizeof path, "launch.json");
    diag_list_init(dl);
    return launch_load_text(path, json, strlen(json), dl);
}

/* Loads `json`, expects failure, and checks the first diagnostic's rule and message. */
static void expect_error(const char *json, const char *rule, const char *message)
{
    diag_list dl;
    launch_desc *d = load(json, &dl);
    if (d || !dl.count || strcmp(dl.items[0].rule, rule) != 0 ||
        strcmp(dl.items[0].message, message) != 0) {
        print_error("json: %s\n", json);
        for (size_t i = 0; i < dl.count; i++)
            print_error("got: %s %s\n", dl.items[i].rule, dl.items[i].message);
    }
    assert_null(d);
    assert_true(dl.count >= 1);
    assert_string_equal(dl.items[0].rule, rule);
    assert_string_equal(dl.items[0].message, message);
    diag_list_fini(&dl);
}

/* Loads `json` (which must be valid) and returns the initial contents of buffer 0. */
static uint8_t *init_bytes(const char *json, size_t *bytes)
{
    diag_list dl;
    launch_desc *d = load(json, &dl);
    if (!d)
        diag_list_print(&dl, stderr);
    assert_non_null(d);
    *bytes = d->buffers[0].bytes;
    uint8_t *p = malloc(*bytes);
    assert_non_null(p);
    assert_int_equal(launch_init_buffer(d, 0, p, &dl), 0);
    launch_destroy(d);
    diag_list_fini(&dl);
    return p;
}

#define HEAD "{\"module\":\"m.ptx\",\"launches\":[{\"kernel\":\"k\",\"grid\":[1],\"block\":[32]}],"
#define BUF(body) HEAD "\"buffers\":{\"x\":" body "}}"

/* Checks the first `n` elements (`elem_bytes` each, little-endian) of buffer x. */
static void check_elements(const char *json, const uint64_t *want, size_t n, size_t elem_bytes)
{
    size_t bytes;
    uint8_t *p = init_bytes(json, &bytes);
    assert_true(bytes >= n * elem_bytes);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (size_t k = 0; k < elem_bytes; k++)
            v |= (uint64_t)p[i * elem_bytes + k] << (8 * k);
        assert_int_equal(v, want[i]);
    }
    free(p);
}

/* ---- element types ---- */

static void test_elem_table(void **state)
{
    (void)state;
    static const char *names[] = {"i8", "u8", "i16", "u16", "i32", "u32",
                                  "i64", "u64", "f16", "bf16", "f32", "f64"};
    static const size_t bytes[] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8};
    for (int i = 0; i < LAUNCH_ELEM_COUNT; i++) {
        launch_elem e;
        assert_int_equal(launch_elem_from_name(names[i], &e), 0);
        assert_int_equal(e, i);
        assert_string_equal(launch_elem_name(e), names[i]);
        assert_int_equal(launch_elem_bytes(e), bytes[i]);
        assert_int_equal(launch_elem_is_float(e), i >= LAUNCH_F16);
        assert_int_equal(launch_elem_is_signed(e), i < LAUNCH_F16 && i % 2 == 0);
    }
    launch_elem e;
    assert_int_equal(launch_elem_from_name("float", &e), -1);
    assert_int_equal(launch_elem_bytes(LAUNCH_ELEM_COUNT), 0);
    assert_string_equal(launch_elem_name(LAUNCH_ELEM_COUNT), "?");
}

/* ---- a complete file ---- */

static void check_full_top(const launch_desc *d);
static void check_full_launches(const launch_desc *d);

static void test_full_example(void **state)
{
    (void)state;
    float y[4] = {1, 2, 3, 4};
    write_file("y.in.bin", y, sizeof y);
    write_file("y.expected.bin", y, sizeof y);
    static const char json[] =
        "{\n"
        "  \"module\": \"saxpy.sm_80.ptx\",\n"
        "  \"config\": \"cfg/my.json\",\n"
        "  \"max_instructions\": 1000000, \"l2_persisting_bytes\": 4096, \"heap_bytes\": 0,\n"
        "  \"buffers\": {\n"
        "    \"x\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"random\": {\"seed\": 1, "
        "\"min\": -1, \"max\": 1}}},\n"
        "    \"y\": {\"type\": \"f32\", \"count\": 4, \"init\": {\"file\": \"y.in.bin\"}},\n"
        "    \"n\": {\"type\": \"u32\", \"count\": 1}\n"
        "  },\n"
        "  \"launches\": [\n"
        "    {\"kernel\": \"_Z5saxpyifPKfPf\", \"grid\": [16, 2], \"block\": [256],\n"
        "     \"args\": [{\"u32\": 4096}, {\"f32\": 2.0}, {\"buffer\": \"x\"}, {\"buffer\": \"y\", "
        "\"offset\": 8}]},\n"
        "    {\"kernel\": \"k2\", \"grid\": [1, 1, 3], \"block\": [8, 4, 2], \"shared_bytes\": 512,\n"
        "     \"access_policy_window\": {\"buffer\": \"y\", \"offset\": 4, \"hit_ratio\": 0.5, "
        "\"hit_prop\": \"persisting\", \"miss_prop\": \"streaming\"}, \"reset_persisting\": true,\n"
        "     \"cooperative\": true}\n"
        "  ],\n"
        "  \"outputs\": {\"y\": \"y.out.bin\"},\n"
        "  \"expect\": {\"y\": {\"file\": \"y.expected.bin\", \"rtol\": 1e-5, \"atol\": 1e-6}}\n"
        "}\n";
    diag_list dl;
    launch_desc *d = load(json, &dl);
    assert_non_null(d);
    assert_int_equal(dl.count, 0);
    check_full_top(d);
    check_full_launches(d);
    uint8_t ybytes[16];
    assert_int_equal(launch_init_buffer(d, 1, ybytes, &dl), 0);
    assert_memory_equal(ybytes, y, sizeof y);
    assert_int_equal(launch_init_buffer(d, 3, ybytes, &dl), -1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-IO-001");
    launch_destroy(d);
    diag_list_fini(&dl);
}

static void check_full_top(const launch_desc *d)
{
    char want[512];
    scratch_path(want, sizeof want, "saxpy.sm_80.ptx");
    assert_string_equal(d->module_path, want);
    assert_string_equal(d->dir, scratch);
    assert_string_equal(d->gpu, "h100"); /* the default; the configuration chooses the GPU */
    scratch_path(want, sizeof want, "cfg/my.json");
    assert_string_equal(d->config_path, want);
    assert_int_equal(d->max_instructions, 1000000);
    assert_int_equal(d->has_l2_persisting_bytes, 1);
    assert_int_equal(d->l2_persisting_bytes, 4096);
    assert_int_equal(d->has_heap_bytes, 1);
    assert_int_equal(d->heap_bytes, 0);
    assert_int_equal(d->nbuffers, 3);
    assert_string_equal(d->buffers[0].name, "x");
    assert_string_equal(d->buffers[2].name, "n");
    assert_int_equal(d->buffers[2].init.kind, LAUNCH_INIT_ZERO);
    assert_int_equal(d->buffers[1].bytes, 16);
    assert_int_equal(d->total_bytes, 36);
    assert_int_equal(launch_find_buffer(d, "n"), 2);
    assert_int_equal(launch_find_buffer(d, "z"), -1);
    assert_int_equal(d->noutputs, 1);
    assert_int_equal(d->outputs[0].buffer, 1);
    scratch_path(want, sizeof want, "y.out.bin");
    assert_string_equal(d->outputs[0].path, want);
    assert_int_equal(d->nexpects, 1);
    assert_int_equal(d->expects[0].from_file, 1);
    assert_true(d->expects[0].rtol == 1e-5 && d->expects[0].atol == 1e-6);
}

static void check_full_launches(const launch_desc *d)
{
    assert_int_equal(d->nkernels, 2);
    const launch_kernel *k = &d->kernels[0];
    assert_string_equal(k->kernel, "_Z5saxpyifPKfPf");
    assert_int_equal(k->grid[0], 16);
    assert_int_equal(k->grid[1], 2);
    assert_int_equal(k->grid[2], 1);
    assert_int_equal(k->block[0], 256);
    assert_int_equal(k->block[1], 1);
    assert_int_equal(k->shared_bytes, 0);
    assert_int_equal(k->nargs, 4);
    assert_int_equal(k->args[0].kind, LAUNCH_ARG_SCALAR);
    assert_int_equal(k->args[0].type, LAUNCH_U32);
    assert_int_equal(k->args[0].bits, 4096);
    assert_int_equal(k->args[1].bits, 0x40000000);
    assert_int_equal(k->args[3].kind, LAUNCH_ARG_BUFFER);
    assert_int_equal(k->args[3].buffer, 1);
    assert_int_equal(k->args[3].offset, 8);
    assert_string_equal(k->args[3].field, "launches[0].args[3]");
    assert_int_equal(k->args[3].line, 12);
    assert_int_equal(k->args[0].line, 12);
    assert_int_equal(k->args[0].col, 15);
    assert_int_equal(k->has_policy_window, 0);
    assert_int_equal(k->reset_persisting, 0);
    assert_int_equal(k->cooperative, 0);
    assert_string_equal(k->field, "launches[0]");
    assert_int_equal(k->line, 11);
    assert_int_equal(k->col, 5);

    k = &d->kernels[1];
    assert_int_equal(k->block[2], 2);
    assert_int_equal(k->grid[2], 3);
    assert_int_equal(k->shared_bytes, 512);
    assert_int_equal(k->nargs, 0);
    assert_int_equal(k->has_policy_window, 1);
    assert_int_equal(k->policy_window.buffer, 1);
    assert_int_equal(k->policy_window.offset, 4);
    assert_int_equal(k->policy_window.bytes, 12); /* the rest of the buffer */
    assert_true(k->policy_window.hit_ratio == 0.5);
    assert_int_equal(k->policy_window.hit_prop, LAUNCH_ACCESS_PERSISTING);
    assert_int_equal(k->policy_window.miss_prop, LAUNCH_ACCESS_STREAMING);
    assert_int_equal(k->reset_persisting, 1);
    assert_int_equal(k->cooperative, 1);
}

static void test_defaults(void **state)
{
    (void)state;
    diag_list dl;
    launch_desc *d = load(HEAD "\"buffers\":{\"b\":{\"type\":\"u8\",\"count\":3}}}", &dl);
    assert_non_null(d);
    assert_string_equal(d->gpu, "h100");
    assert_null(d->config_path);
    assert_int_equal(d->max_instructions, 0);
    assert_int_equal(d->has_l2_persisting_bytes, 0);
    assert_int_equal(d->has_heap_bytes, 0);
    assert_int_equal(d->noutputs, 0);
    assert_int_equal(d->nexpects, 0);
    uint8_t b[3] = {9, 9, 9};
    assert_int_equal(launch_init_buffer(d, 0, b, &dl), 0);
    assert_int_equal(b[0] | b[1] | b[2], 0);
    launch_destroy(d);
    diag_list_fini(&dl);

    /* A launch file given without a folder resolves paths against the current folder. */
    static const char text[] = HEAD "\"buffers\":{}}";
    diag_list_init(&dl);
    d = launch_load_text("l.json", text, strlen(text), &dl);
    assert_non_null(d);
    assert_string_equal(d->dir, ".");
    assert_string_equal(d->module_path, "m.ptx");
    launch_destroy(d);
    d = launch_load_text("/l.json", text, strlen(text), &dl);
    assert_non_null(d);
    assert_string_equal(d->dir, "/");
    assert_string_equal(d->module_path, "/m.ptx");
    launch_destroy(d);
    diag_list_fini(&dl);
}

/* ---- fill ---- */

static void test_fill_every_type(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        uint64_t bits;
        size_t bytes;
    } cases[] = {
        {BUF("{\"type\":\"i8\",\"count\":2,\"init\":{\"fill\":-5}}"), 0xFB, 1},
        {BUF("{\"type\":\"u8\",\"count\":2,\"init\":{\"fill\":255}}"), 0xFF, 1},
        {BUF("{\"type\":\"i16\",\"count\":2,\"init\":{\"fill\":-32768}}"), 0x8000, 2},
        {BUF("{\"type\":\"u16\",\"count\":2,\"init\":{\"fill\":65535}}"), 0xFFFF, 2},
        {BUF("{\"type\":\"i32\",\"count\":2,\"init\":{\"fill\":-2}}"), 0xFFFFFFFE, 4},
        {BUF("{\"type\":\"u32\",\"count\":2,\"init\":{\"fill\":305419896}}"), 0x12345678, 4},
        {BUF("{\"type\":\"i64\",\"count\":2,\"init\":{\"fill\":-1}}"), UINT64_MAX, 8},
        {BUF("{\"type\":\"i64\",\"count\":2,\"init\":{\"fill\":\"0x8000000000000000\"}}"),
         0x8000000000000000u, 8},
        {BUF("{\"type\":\"u64\",\"count\":2,\"init\":{\"fill\":\"0xFFFFFFFFFFFFFFFF\"}}"),
         UINT64_MAX, 8},
        {BUF("{\"type\":\"u64\",\"count\":2,\"init\":{\"fill\":9223372036854775807}}"),
         0x7FFFFFFFFFFFFFFF, 8},
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":1.5}}"), 0x3E00, 2},
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":65504}}"), 0x7BFF, 2},
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":2049}}"), 0x6800, 2},  /* tie: even */
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":2051}}"), 0x6802, 2},  /* tie: up */
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":5.960464477539063e-08}}"), 0x0001,
         2}, /* 2^-24, the smallest subnormal */
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":2.9802322387695312e-08}}"), 0x0000,
         2}, /* 2^-25: a tie, to even zero */
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":-8.940696716308594e-08}}"), 0x8002,
         2}, /* -3 * 2^-25: a tie, up to -2 * 2^-24 */
        /* 1 + 2^-11 + 2^-40: rounding to f32 first makes it a tie (even: 1.0); a direct rounding
         * to f16 would give 0x3C01. The definition rounds through f32. */
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":1.000488281250909}}"), 0x3C00, 2},
        {BUF("{\"type\":\"f16\",\"count\":2,\"init\":{\"fill\":\"-inf\"}}"), 0xFC00, 2},
        {BUF("{\"type\":\"bf16\",\"count\":2,\"init\":{\"fill\":1.5}}"), 0x3FC0, 2},
        {BUF("{\"type\":\"bf16\",\"count\":2,\"init\":{\"fill\":1.00390625}}"), 0x3F80, 2},
        {BUF("{\"type\":\"bf16\",\"count\":2,\"init\":{\"fill\":1.01171875}}"), 0x3F82, 2},
        {BUF("{\"type\":\"f32\",\"count\":2,\"init\":{\"fill\":0.1}}"), 0x3DCCCCCD, 4},
        {BUF("{\"type\":\"f32\",\"count\":2,\"init\":{\"fill\":\"inf\"}}"), 0x7F800000, 4},
        {BUF("{\"type\":\"f32\",\"count\":2,\"init\":{\"fill\":3}}"), 0x40400000, 4},
        {BUF("{\"type\":\"f64\",\"count\":2,\"init\":{\"fill\":0.1}}"), 0x3FB999999999999A, 8},
        {BUF("{\"type\":\"f64\",\"count\":2,\"init\":{\"fill\":-0.0}}"), 0x8000000000000000u, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t want[2] = {cases[i].bits, cases[i].bits};
        check_elements(cases[i].json, want, 2, cases[i].bytes);
    }
    /* NaN: the exponent is all ones and the mantissa non-zero. */
    size_t bytes;
    uint8_t *p = init_bytes(BUF("{\"type\":\"f16\",\"count\":1,\"init\":{\"fill\":\"nan\"}}"),
                            &bytes);
    assert_int_equal(p[1] & 0x7C, 0x7C);
    assert_true((p[1] & 3) | p[0]);
    free(p);
}

/* ---- iota ---- */

static void test_iota(void **state)
{
    (void)state;
    static const uint64_t i16[] = {0xFFFD, 0xFFFF, 0x0001, 0x0003};
    check_elements(BUF("{\"type\":\"i16\",\"count\":4,\"init\":{\"iota\":{\"start\":-3,"
                       "\"step\":2}}}"), i16, 4, 2);
    static const uint64_t u8[] = {255, 254, 253, 252, 251};
    check_elements(BUF("{\"type\":\"u8\",\"count\":5,\"init\":{\"iota\":{\"start\":255,"
                       "\"step\":-1}}}"), u8, 5, 1);
    static const uint64_t u64[] = {0xFFFFFFFFFFFFFFF0u, 0xFFFFFFFFFFFFFFF8u, 0xFFFFFFFFFFFFFFFFu - 0};
    check_elements(BUF("{\"type\":\"u64\",\"count\":2,\"init\":{\"iota\":{\"start\":"
                       "\"0xFFFFFFFFFFFFFFF0\",\"step\":8}}}"), u64, 2, 8);
    static const uint64_t i8[] = {0x80, 0x80, 0x80};
    check_elements(BUF("{\"type\":\"i8\",\"count\":3,\"init\":{\"iota\":{\"start\":-128,"
                       "\"step\":0}}}"), i8, 3, 1);
    static const uint64_t f32[] = {0x3F000000, 0x3F400000, 0x3F800000}; /* 0.5, 0.75, 1.0 */
    check_elements(BUF("{\"type\":\"f32\",\"count\":3,\"init\":{\"iota\":{\"start\":0.5,"
                       "\"step\":0.25}}}"), f32, 3, 4);
    static const uint64_t f16[] = {0x4000, 0x3E00, 0x3C00, 0x3800, 0x0000, 0xB800}; /* 2 .. -0.5 */
    check_elements(BUF("{\"type\":\"f16\",\"count\":6,\"init\":{\"iota\":{\"start\":2,"
                       "\"step\":-0.5}}}"), f16, 6, 2);
    static const uint64_t f64[] = {0x3FF0000000000000, 0x4000000000000000, 0x4008000000000000};
    check_elements(BUF("{\"type\":\"f64\",\"count\":3,\"init\":{\"iota\":{\"start\":1,"
                       "\"step\":1}}}"), f64, 3, 8);
    /* Exactly at the edges of the type is fine; one step beyond is not. */
    static const uint64_t edge[] = {0x7FFFFFFFFFFFFFFEu, 0x7FFFFFFFFFFFFFFFu};
    check_elements(BUF("{\"type\":\"i64\",\"count\":2,\"init\":{\"iota\":{\"start\":"
                       "9223372036854775806,\"step\":1}}}"), edge, 2, 8);
    expect_error(BUF("{\"type\":\"i64\",\"count\":3,\"init\":{\"iota\":{\"start\":"
                     "9223372036854775806,\"step\":1}}}"), "LAUNCH-INIT-002",
                 "buffers.x.init.iota: the sequence start + i*step for i < 3 leaves the range of "
                 "i64");
    expect_error(BUF("{\"type\":\"u8\",\"count\":2,\"init\":{\"iota\":{\"start\":0,"
                     "\"step\":-1}}}"), "LAUNCH-INIT-002",
                 "buffers.x.init.iota: the sequence start + i*step for i < 2 leaves the range of "
                 "u8");
    expect_error(BUF("{\"type\":\"u32\",\"count\":4294967297,\"init\":{\"iota\":{\"start\":0,"
                     "\"step\":-9223372036854775808}}}"), "LAUNCH-SIZE-001",
                 "buffers.x.count: 4294967297 x 4 bytes takes the buffers past the limit of "
                 "1073741824 bytes in total");
    expect_error(BUF("{\"type\":\"f16\",\"count\":3,\"init\":{\"iota\":{\"start\":65000,"
                     "\"step\":1000}}}"), "LAUNCH-INIT-002",
                 "buffers.x.init.iota: the sequence start + i*step for i < 3 leaves the range of "
                 "f16");
    expect_error(BUF("{\"type\":\"f32\",\"count\":3,\"init\":{\"iota\":{\"start\":\"nan\","
                     "\"step\":1}}}"), "LAUNCH-INIT-002",
                 "buffers.x.init.iota: the sequence start + i*step for i < 3 leaves the range of "
                 "f32");
    expect_error(BUF("{\"type\":\"i32\",\"count\":3,\"init\":{\"iota\":{\"start\":0,"
                     "\"step\":0.5}}}"), "LAUNCH-VALUE-002",
                 "buffers.x.init.iota.step: the step of an integer iota must be a JSON integer");
    expect_error(BUF("{\"type\":\"i32\",\"count\":3,\"init\":{\"iota\":{\"start\":0}}}"),
                 "LAUNCH-KEY-002", "buffers.x.init.iota.step: required key \"step\" is missing");
}

/* ---- random ---- */

static void test_random_generator_constants(void **state)
{
    (void)state;
    /* The first outputs of the generator for seed 1 and seed 0. */
    static const uint64_t seed1[] = {0x910A2DEC89025CC1u, 0xBEEB8DA1658EEC67u,
                                     0xF893A2EEFB32555Eu, 0x71C18690EE42C90Bu};
    check_elements(BUF("{\"type\":\"u64\",\"count\":4,\"init\":{\"random\":{\"seed\":1,"
                       "\"min\":0,\"max\":\"0xFFFFFFFFFFFFFFFF\"}}}"), seed1, 4, 8);
    static const uint64_t seed0[] = {0xE220A8397B1DCDAFu, 0x6E789E6AA1B965F4u};
    check_elements(BUF("{\"type\":\"u64\",\"count\":2,\"init\":{\"random\":{\"seed\":0,"
                       "\"min\":0,\"max\":\"0xFFFFFFFFFFFFFFFF\"}}}"), seed0, 2, 8);
    /* Full i64 range: range wraps to 0 and the raw output is added to min. */
    static const uint64_t i64[] = {0x175835DE1C9756CEu, 0x3FC846100BFC1E42u};
    check_elements(BUF("{\"type\":\"i64\",\"count\":2,\"init\":{\"random\":{\"seed\":2,"
                       "\"min\":-9223372036854775808,\"max\":9223372036854775807}}}"), i64, 2, 8);
}

/* f32 random contents (four draws at a time on AVX2 hosts, launch_values.c) against the
 * definition one draw at a time: SplitMix64 from the seed, lo + (top 53 bits / 2^53) x (hi - lo)
 * with the product and the sum rounded apart, rounded to float. The whole buffer (1,003
 * elements: a remainder after the groups of four) and the same buffer in chunks of 5, 3, 1 and
 * 994 elements (groups starting at every offset) must give these bits. */
static void test_random_f32_every_element(void **state)
{
    (void)state;
    enum { N = 1003 };
    const double lo = -3.5, width = 1.25 - -3.5;
    uint32_t want[N];
    uint64_t st = 77;
    for (size_t i = 0; i < N; i++) {
        st += UINT64_C(0x9E3779B97F4A7C15);
        uint64_t z = st;
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        z ^= z >> 31;
        double u = (double)(z >> 11) * 0x1.0p-53;
        volatile double scaled = u * width; /* rounded before the sum */
        float f = (float)(lo + scaled);
        memcpy(&want[i], &f, 4);
    }
    const char *json = BUF("{\"type\":\"f32\",\"count\":1003,\"init\":{\"random\":{\"seed\":77,"
                           "\"min\":-3.5,\"max\":1.25}}}");
    size_t bytes;
    uint8_t *whole = init_bytes(json, &bytes);
    assert_int_equal(bytes, sizeof want);
    assert_memory_equal(whole, want, sizeof want);
    free(whole);
    diag_list dl;
    launch_desc *d = load(json, &dl);
    assert_non_null(d);
    uint8_t got[sizeof want];
    launch_init_stream s;
    assert_int_equal(launch_init_begin(d, 0, &s, &dl), 0);
    static const size_t chunks[] = {5, 3, 1, 994};
    size_t at = 0;
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(launch_init_next(&s, got + at * 4, chunks[k] * 4, &dl), 0);
        at += chunks[k];
    }
    assert_int_equal(at, N);
    assert_int_equal(launch_init_end(&s, &dl), 0);
    assert_memory_equal(got, want, sizeof want);
    launch_destroy(d);
    diag_list_fini(&dl);
}

static void test_random_every_kind(void **state)
{
    (void)state;
    static const uint64_t f32[] = {0x3E08516F, 0x3EFBAE37, 0x3F712746, 0xBDE3E797};
    check_elements(BUF("{\"type\":\"f32\",\"count\":4,\"init\":{\"random\":{\"seed\":1,"
                       "\"min\":-1,\"max\":1}}}"), f32, 4, 4);
    static const uint64_t f16[] = {0xB30D, 0xBBBB, 0x3A6A, 0x314F};
    check_elements(BUF("{\"type\":\"f16\",\"count\":4,\"init\":{\"random\":{\"seed\":7,"
                       "\"min\":-1,\"max\":1}}}"), f16, 4, 2);
    static const uint64_t bf16[] = {0x421C, 0x3FD7, 0x42B4, 0x4269};
    check_elements(BUF("{\"type\":\"bf16\",\"count\":4,\"init\":{\"random\":{\"seed\":7,"
                       "\"min\":0,\"max\":100}}}"), bf16, 4, 2);
    static const uint64_t f64[] = {0x3FBD0B14E4DB0188u, 0x3FE668CDF14F7035u, 0x3FE39D7D14DA0A1Bu};
    check_elements(BUF("{\"type\":\"f64\",\"count\":3,\"init\":{\"random\":{\"seed\":3,"
                       "\"min\":0,\"max\":1}}}"), f64, 3, 8);
    static const uint64_t i8[] = {0x07, 0x09, 0xF8, 0xF8};
    check_elements(BUF("{\"type\":\"i8\",\"count\":4,\"init\":{\"random\":{\"seed\":5,"
                       "\"min\":-10,\"max\":10}}}"), i8, 4, 1);
    static const uint64_t u32[] = {128, 106, 138, 184};
    check_elements(BUF("{\"type\":\"u32\",\"count\":4,\"init\":{\"random\":{\"seed\":9,"
                       "\"min\":100,\"max\":199}}}"), u32, 4, 4);
    static const uint64_t u16[] = {0x309D, 0x13A1, 0x126D};
    check_elements(BUF("{\"type\":\"u16\",\"count\":3,\"init\":{\"random\":{\"seed\":11,"
                       "\"min\":0,\"max\":65535}}}"), u16, 3, 2);
    /* A hex seed is the same seed. */
    check_elements(BUF("{\"type\":\"u16\",\"count\":3,\"init\":{\"random\":{\"seed\":\"0xb\","
                       "\"min\":0,\"max\":65535}}}"), u16, 3, 2);
    /* min == max gives that value everywhere. */
    static const uint64_t same[] = {42, 42, 42};
    check_elements(BUF("{\"type\":\"i32\",\"count\":3,\"init\":{\"random\":{\"seed\":4,"
                       "\"min\":42,\"max\":42}}}"), same, 3, 4);
    expect_error(BUF("{\"type\":\"i32\",\"count\":3,\"init\":{\"random\":{\"seed\":4,"
                     "\"min\":43,\"max\":42}}}"), "LAUNCH-INIT-003",
                 "buffers.x.init.random: min is greater than max");
    expect_error(BUF("{\"type\":\"f32\",\"count\":3,\"init\":{\"random\":{\"seed\":4,"
                     "\"min\":1,\"max\":-1}}}"), "LAUNCH-INIT-003",
                 "buffers.x.init.random: min 1 is not <= max -1");
    expect_error(BUF("{\"type\":\"f64\",\"count\":3,\"init\":{\"random\":{\"seed\":4,"
                     "\"min\":-1e308,\"max\":1e308}}}"), "LAUNCH-INIT-004",
                 "buffers.x.init.random: max - min must be finite");
    expect_error(BUF("{\"type\":\"f32\",\"count\":3,\"init\":{\"random\":{\"seed\":-1,"
                     "\"min\":0,\"max\":1}}}"), "LAUNCH-VALUE-001",
                 "buffers.x.init.random.seed: -1 does not fit in u64");
    expect_error(BUF("{\"type\":\"f32\",\"count\":3,\"init\":{\"random\":{\"min\":0,"
                     "\"max\":1}}}"), "LAUNCH-KEY-002",
                 "buffers.x.init.random.seed: required key \"seed\" is missing");
}

/* ---- file init ---- */

static void test_file_init(void **state)
{
    (void)state;
    static const uint8_t data[6] = {1, 2, 3, 4, 5, 6};
    write_file("h.bin", data, sizeof data);
    size_t bytes;
    uint8_t *p = init_bytes(BUF("{\"type\":\"i16\",\"count\":3,\"init\":{\"file\":\"h.bin\"}}"),
                            &bytes);
    assert_int_equal(bytes, 6);
    assert_memory_equal(p, data, 6);
    free(p);

    char path[512], message[1024];
    scratch_path(path, sizeof path, "h.bin");
    snprintf(message, sizeof message, "buffers.x.init.file: \"%s\" has 6 bytes; expected 8 "
             "(count x element size)", path);
    expect_error(BUF("{\"type\":\"i16\",\"count\":4,\"init\":{\"file\":\"h.bin\"}}"),
                 "LAUNCH-FILE-002", message);
    scratch_path(path, sizeof path, "none.bin");
    snprintf(message, sizeof message, "buffers.x.init.file: cannot open \"%s\": No such file or "
             "directory", path);
    expect_error(BUF("{\"type\":\"i16\",\"count\":4,\"init\":{\"file\":\"none.bin\"}}"),
                 "LAUNCH-FILE-001", message);
    snprintf(message, sizeof message, "buffers.x.init.file: \"%s\" is not a regular file",
             scratch);
    expect_error(BUF("{\"type\":\"i16\",\"count\":4,\"init\":{\"file\":\"/tmp/../tmp/..\"}}"),
                 "LAUNCH-FILE-001", "buffers.x.init.file: \"/tmp/../tmp/..\" is not a regular "
                 "file");

    /* The file shrank between loading and initialising: the size is checked again. */
    write_file("s.bin", data, 4);
    diag_list dl;
    launch_desc *d = load(BUF("{\"type\":\"u8\",\"count\":4,\"init\":{\"file\":\"s.bin\"}}"), &dl);
    assert_non_null(d);
    write_file("s.bin", data, 3);
    uint8_t out[4];
    assert_int_equal(launch_init_buffer(d, 0, out, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-FILE-002");
    write_file("s.bin", data, 5);
    assert_int_equal(launch_init_buffer(d, 0, out, &dl), -1);
    assert_int_equal(dl.count, 2);
    assert_string_equal(dl.items[1].rule, "LAUNCH-FILE-002");
    launch_destroy(d);
    diag_list_fini(&dl);
}

/* ---- streamed initial contents ---- */

/* Buffer x's contents produced in chunks of `chunk_elems` elements equal the whole-buffer form. */
static void check_stream_matches(const char *json, uint64_t chunk_elems)
{
    diag_list dl;
    launch_desc *d = load(json, &dl);
    assert_non_null(d);
    const launch_buffer *b = &d->buffers[0];
    size_t elem = launch_elem_bytes(b->type);
    uint8_t *whole = malloc(b->bytes), *parts = malloc(b->bytes);
    assert_non_null(whole);
    assert_non_null(parts);
    assert_int_equal(launch_init_buffer(d, 0, whole, &dl), 0);
    memset(parts, 0xA5, b->bytes);
    launch_init_stream s;
    assert_int_equal(launch_init_begin(d, 0, &s, &dl), 0);
    for (uint64_t off = 0; off < b->bytes; off += chunk_elems * elem) {
        uint64_t n = b->bytes - off < chunk_elems * elem ? b->bytes - off : chunk_elems * elem;
        assert_int_equal(launch_init_next(&s, parts + off, n, &dl), 0);
    }
    assert_int_equal(launch_init_end(&s, &dl), 0);
    assert_int_equal(dl.count, 0);
    assert_memory_equal(parts, whole, b->bytes);
    free(whole);
    free(parts);
    launch_destroy(d);
    diag_list_fini(&dl);
}

static void test_init_stream(void **state)
{
    (void)state;
    /* Element 6 of seed 1's f32 sequence starts the second chunk: it continues the draws. */
    check_stream_matches(BUF("{\"type\":\"f32\",\"count\":1000,\"init\":{\"random\":{\"seed\":1,"
                             "\"min\":-2,\"max\":3}}}"), 6);
    check_stream_matches(BUF("{\"type\":\"u16\",\"count\":999,\"init\":{\"random\":{\"seed\":7,"
                             "\"min\":3,\"max\":900}}}"), 64);
    check_stream_matches(BUF("{\"type\":\"f64\",\"count\":100,\"init\":{\"iota\":{\"start\":0.25,"
                             "\"step\":0.1}}}"), 7);
    check_stream_matches(BUF("{\"type\":\"i8\",\"count\":300,\"init\":{\"fill\":-3}}"), 256);
    check_stream_matches(BUF("{\"type\":\"u32\",\"count\":10}"), 3);
    uint8_t data[600];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7);
    write_file("st.bin", data, sizeof data);
    check_stream_matches(BUF("{\"type\":\"u16\",\"count\":300,\"init\":{\"file\":\"st.bin\"}}"),
                         100);

    /* The file changed after loading: shorter is reported by the chunk that runs out, longer by
     * the end; each once. */
    diag_list dl;
    launch_desc *d = load(BUF("{\"type\":\"u16\",\"count\":300,\"init\":{\"file\":\"st.bin\"}}"),
                          &dl);
    assert_non_null(d);
    write_file("st.bin", data, 599);
    uint8_t out[600];
    launch_init_stream s;
    assert_int_equal(launch_init_begin(d, 0, &s, &dl), 0);
    assert_int_equal(launch_init_next(&s, out, 400, &dl), 0);
    assert_int_equal(launch_init_next(&s, out + 400, 200, &dl), -1);
    assert_int_equal(launch_init_end(&s, &dl), 0);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-FILE-002");
    assert_non_null(strstr(dl.items[0].message, "has fewer bytes than the 600 expected"));
    write_file("st.bin", data, sizeof data); /* whole again, then one byte more */
    FILE *f = fopen(d->buffers[0].init.path, "ab");
    assert_non_null(f);
    fputc(1, f);
    fclose(f);
    assert_int_equal(launch_init_begin(d, 0, &s, &dl), 0);
    assert_int_equal(launch_init_next(&s, out, 600, &dl), 0);
    assert_memory_equal(out, data, 600);
    assert_int_equal(launch_init_end(&s, &dl), -1);
    assert_int_equal(dl.count, 2);
    assert_non_null(strstr(dl.items[1].message, "has more bytes than the 600 expected"));
    assert_int_equal(launch_init_begin(d, 1, &s, &dl), -1);
    assert_string_equal(dl.items[2].rule, "LAUNCH-IO-001");
    launch_destroy(d);
    diag_list_fini(&dl);
}

/* ---- outputs and expectations from a reader ---- */

enum { BIG_COUNT = 786432 }; /* 3 MiB of u32: several chunks of either size */

/* A reader that computes buffer 0's element i as i * 3 (element 20000 and the last are 1), and
 * records the largest chunk asked for and how many reads were made. */
typedef struct counting_reader {
    uint64_t largest, reads;
    int fail_at; /* fail the n-th read (1-based); 0: never */
} counting_reader;

static uint32_t big_element(uint64_t i)
{
    return i == 20000 || i == BIG_COUNT - 1 ? 1u : (uint32_t)(i * 3);
}

static int computed_read(void *ctx, size_t buffer, uint64_t offset, uint64_t bytes,
                         uint8_t *out)
{
    counting_reader *c = ctx;
    assert_int_equal(buffer, 0);
    assert_int_equal(offset % 4, 0);
    c->reads++;
    if (bytes > c->largest)
        c->largest = bytes;
    if (c->fail_at && c->reads == (uint64_t)c->fail_at)
        return -1;
    for (uint64_t k = 0; k < bytes / 4; k++) {
        uint32_t v = big_element(offset / 4 + k);
        memcpy(out + 4 * k, &v, 4);
    }
    return 0;
}

static void test_outputs_and_expectations_from_reader(void **state)
{
    (void)state;
    uint32_t *want = malloc((size_t)BIG_COUNT * 4);
    assert_non_null(want);
    for (uint64_t i = 0; i < BIG_COUNT; i++) want[i] = i * 3;
    write_file("big.expected", want, (size_t)BIG_COUNT * 4);
    diag_list dl;
    launch_desc *d = load(HEAD "\"buffers\":{\"a\":{\"type\":\"u32\",\"count\":786432}},"
                          "\"outputs\":{\"a\":\"big.out\"},"
                          "\"expect\":{\"a\":{\"file\":\"big.expected\"}}}", &dl);
    assert_non_null(d);
    counting_reader c = {0, 0, 0};
    launch_buffer_reader reader = {computed_read, &c};
    launch_expect_result r[1];
    /* The two wrong elements are found with their indices, across chunks. */
    assert_int_equal(launch_check_expectations_from(d, &reader, r, &dl), 1);
    assert_int_equal(r[0].mismatches, 2);
    assert_int_equal(r[0].first[0].index, 20000);
    assert_string_equal(r[0].first[0].got, "1");
    assert_string_equal(r[0].first[0].expected, "60000");
    assert_int_equal(r[0].first[1].index, BIG_COUNT - 1);
    assert_int_equal(c.largest, 64 * 1024);
    assert_int_equal(c.reads, BIG_COUNT * 4 / (64 * 1024));
    /* The output file holds the reader's bytes, written 1 MiB at a time. */
    c = (counting_reader){0, 0, 0};
    file_group g;
    file_group_init(&g);
    assert_int_equal(launch_stage_outputs_from(d, &reader, &g, &dl), 0);
    size_t failed;
    file_error fe;
    assert_int_equal(file_group_commit(&g, &failed, &fe), 0);
    file_group_fini(&g);
    assert_int_equal(c.largest, 1024 * 1024);
    assert_int_equal(c.reads, 3);
    char path[512];
    scratch_path(path, sizeof path, "big.out");
    size_t len;
    char *back = file_read_all(path, UINT64_MAX, &len, &fe);
    assert_non_null(back);
    assert_int_equal(len, (size_t)BIG_COUNT * 4);
    want[20000] = want[BIG_COUNT - 1] = 1;
    assert_memory_equal(back, want, len);
    free(back);
    /* A failed read: the expectation reports LAUNCH-IO-001, the output LAUNCH-IO-002 and is not
     * staged. */
    c = (counting_reader){0, 0, 5};
    assert_int_equal(launch_check_expectations_from(d, &reader, r, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-IO-001");
    assert_string_equal(dl.items[0].message, "expect.a: cannot read the buffer back");
    c = (counting_reader){0, 0, 2};
    file_group_init(&g);
    assert_int_equal(launch_stage_outputs_from(d, &reader, &g, &dl), -1);
    assert_int_equal(g.count, 0);
    file_group_fini(&g);
    assert_int_equal(dl.count, 2);
    assert_string_equal(dl.items[1].rule, "LAUNCH-IO-002");
    assert_non_null(strstr(dl.items[1].message, "outputs.a: cannot write"));
    free(want);
    launch_destroy(d);
    diag_list_fini(&dl);
}

/* ---- arguments ---- */

#define ARGS(list) "{\"module\":\"m\",\"buffers\":{\"b\":{\"type\":\"u32\",\"count\":4}}," \
                   "\"launches\":[{\"kernel\":\"k\",\"grid\":[1],\"block\":[1],\"args\":" list "}]}"

static void test_args(void **state)
{
    (void)state;
    diag_list dl;
    launch_desc *d = load(ARGS("[{\"u64\":\"0xFFFFFFFFFFFFFFFF\"},{\"i64\":\"0x8000000000000000\"},"
                               "{\"i64\":-2},{\"i8\":-1},{\"f16\":1},{\"bf16\":-2},{\"f64\":0.5},"
                               "{\"buffer\":\"b\",\"offset\":15},{\"u64\":\"0x0\"}]"), &dl);
    assert_non_null(d);
    const launch_arg *a = d->kernels[0].args;
    assert_int_equal(d->kernels[0].nargs, 9);
    assert_int_equal(a[0].bits, UINT64_MAX);
    assert_int_equal(a[0].type, LAUNCH_U64);
    assert_int_equal(a[1].bits, 0x8000000000000000u);
    assert_int_equal(a[2].bits, 0xFFFFFFFFFFFFFFFEu);
    assert_int_equal(a[3].bits, 0xFF); /* upper bits zero */
    assert_int_equal(a[4].bits, 0x3C00);
    assert_int_equal(a[5].bits, 0xC000);
    assert_int_equal(a[6].bits, 0x3FE0000000000000u);
    assert_int_equal(a[7].kind, LAUNCH_ARG_BUFFER);
    assert_int_equal(a[7].offset, 15);
    assert_int_equal(a[8].bits, 0);
    launch_destroy(d);
    diag_list_fini(&dl);

    expect_error(ARGS("[{\"u32\":\"0x1\"}]"), "LAUNCH-VALUE-003",
                 "launches[0].args[0].u32: string \"0x1\" is not a u32 value (hex strings are "
                 "accepted for u64 and i64 only; write other integers as JSON integers)");
    expect_error(ARGS("[{\"u64\":\"0x1G\"}]"), "LAUNCH-VALUE-003",
                 "launches[0].args[0].u64: string \"0x1G\" is not a hex integer \"0x...\"");
    expect_error(ARGS("[{\"u64\":\"0x10000000000000000\"}]"), "LAUNCH-VALUE-003",
                 "launches[0].args[0].u64: hex string \"0x10000000000000000\" has more than 16 "
                 "digits");
    expect_error(ARGS("[{\"u64\":-1}]"), "LAUNCH-VALUE-001",
                 "launches[0].args[0].u64: -1 does not fit in u64");
    expect_error(ARGS("[{\"i16\":32768}]"), "LAUNCH-VALUE-001",
                 "launches[0].args[0].i16: 32768 does not fit in i16");
    expect_error(ARGS("[{\"u32\":4294967296}]"), "LAUNCH-VALUE-001",
                 "launches[0].args[0].u32: 4294967296 does not fit in u32");
    expect_error(ARGS("[{\"u32\":2.0}]"), "LAUNCH-VALUE-002",
                 "launches[0].args[0].u32: u32 needs a JSON integer, not the real number 2");
    expect_error(ARGS("[{\"f32\":1e39}]"), "LAUNCH-VALUE-004",
                 "launches[0].args[0].f32: 1e+39 overflows f32");
    expect_error(ARGS("[{\"f32\":\"1.5\"}]"), "LAUNCH-VALUE-003",
                 "launches[0].args[0].f32: string \"1.5\" is not a f32 value (use a number, "
                 "\"nan\", \"inf\" or \"-inf\")");
    expect_error(ARGS("[{\"f32\":true}]"), "LAUNCH-TYPE-001",
                 "launches[0].args[0].f32: expected a f32 value (number)");
    expect_error(ARGS("[{\"u32\":1,\"f32\":2}]"), "LAUNCH-ARG-001",
                 "launches[0].args[0]: an argument has exactly one key: a type name (\"u32\": 7) or "
                 "\"buffer\" (found 2 keys)");
    expect_error(ARGS("[{}]"), "LAUNCH-ARG-001",
                 "launches[0].args[0]: an argument has exactly one key: a type name (\"u32\": 7) or "
                 "\"buffer\" (found 0 keys)");
    expect_error(ARGS("[{\"int\":1}]"), "LAUNCH-ELEM-001",
                 "launches[0].args[0].int: \"int\" is neither \"buffer\" nor an element type");
    expect_error(ARGS("[{\"buffer\":\"b\",\"offset\":16}]"), "LAUNCH-ARG-002",
                 "launches[0].args[0].offset: offset 16 is not inside buffer \"b\" (16 bytes)");
    expect_error(ARGS("[{\"buffer\":\"c\"}]"), "LAUNCH-REF-001",
                 "launches[0].args[0].buffer: no buffer named \"c\" is declared");
    expect_error(ARGS("[{\"buffer\":\"b\",\"offst\":4}]"), "LAUNCH-KEY-001",
                 "launches[0].args[0].offst: unknown key \"offst\"");
    expect_error(ARGS("[7]"), "LAUNCH-TYPE-001", "launches[0].args[0]: expected an object");
    expect_error(ARGS("{}"), "LAUNCH-TYPE-001", "launches[0].args: expected an array");
}

/* ---- launch shape and top-level fields ---- */

#define LAUNCH(fields) "{\"module\":\"m\",\"buffers\":{\"b\":{\"type\":\"u8\",\"count\":64}}," \
                       "\"launches\":[{\"kernel\":\"k\"," fields "}]}"

static void test_launch_fields(void **state)
{
    (void)state;
    expect_error(LAUNCH("\"grid\":[],\"block\":[1]"), "LAUNCH-DIM-001",
                 "launches[0].grid: needs 1 to 3 dimensions, not 0");
    expect_error(LAUNCH("\"grid\":[1,1,1,1],\"block\":[1]"), "LAUNCH-DIM-001",
                 "launches[0].grid: needs 1 to 3 dimensions, not 4");
    expect_error(LAUNCH("\"grid\":[1,65536],\"block\":[1]"), "LAUNCH-DIM-002",
                 "launches[0].grid[1]: 65536 is outside 1..65535");
    expect_error(LAUNCH("\"grid\":[2147483648],\"block\":[1]"), "LAUNCH-DIM-002",
                 "launches[0].grid[0]: 2147483648 is outside 1..2147483647");
    expect_error(LAUNCH("\"grid\":[0],\"block\":[1]"), "LAUNCH-DIM-002",
                 "launches[0].grid[0]: 0 is outside 1..2147483647");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1,1,65]"), "LAUNCH-DIM-003",
                 "launches[0].block[2]: 65 is outside 1..64");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[32,32,2]"), "LAUNCH-DIM-004",
                 "launches[0].block: 2048 threads per block; at most 1024");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1.5]"), "LAUNCH-TYPE-001",
                 "launches[0].block[0]: expected an integer");
    expect_error(LAUNCH("\"grid\":1,\"block\":[1]"), "LAUNCH-TYPE-001",
                 "launches[0].grid: expected an array of 1 to 3 integers");
    expect_error(LAUNCH("\"block\":[1]"), "LAUNCH-KEY-002",
                 "launches[0].grid: required key \"grid\" is missing");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"shared_bytes\":-1"), "LAUNCH-RANGE-001",
                 "launches[0].shared_bytes: -1 is outside the allowed range 0..4294967295");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"reset_persisting\":1"), "LAUNCH-TYPE-001",
                 "launches[0].reset_persisting: expected true or false");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"cooperative\":\"yes\""), "LAUNCH-TYPE-001",
                 "launches[0].cooperative: expected true or false");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"access_policy_window\":{\"buffer\":\"b\","
                        "\"hit_ratio\":1.5}"),
                 "LAUNCH-APW-001", "launches[0].access_policy_window.hit_ratio: 1.5 is outside "
                 "[0, 1]");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"access_policy_window\":{\"buffer\":\"b\","
                        "\"miss_prop\":\"persisting\"}"),
                 "LAUNCH-APW-002", "launches[0].access_policy_window.miss_prop: \"persisting\" is "
                 "not normal or streaming");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"access_policy_window\":{\"buffer\":\"b\","
                        "\"hit_prop\":\"sticky\"}"),
                 "LAUNCH-APW-002", "launches[0].access_policy_window.hit_prop: \"sticky\" is "
                 "not normal, streaming or persisting");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"access_policy_window\":{\"buffer\":\"b\","
                        "\"offset\":32,\"bytes\":33}"),
                 "LAUNCH-APW-003", "launches[0].access_policy_window: the window [32, 65) is not "
                 "inside buffer \"b\" (64 bytes)");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"access_policy_window\":{\"buffer\":\"b\","
                        "\"bytes\":0}"),
                 "LAUNCH-RANGE-001", "launches[0].access_policy_window.bytes: 0 is outside the "
                 "allowed range 1..18446744073709551615");
    expect_error(LAUNCH("\"grid\":[1],\"block\":[1],\"access_policy_window\":{\"offset\":0}"),
                 "LAUNCH-KEY-002", "launches[0].access_policy_window.buffer: required key "
                 "\"buffer\" is missing");
    expect_error("{\"module\":\"m\",\"launches\":[]}", "LAUNCH-KERNEL-001",
                 "launches: needs at least one launch");
    expect_error("{\"module\":\"m\"}", "LAUNCH-KEY-002",
                 "launches: required key \"launches\" is missing");
    expect_error(HEAD "\"gpu\":5}", "LAUNCH-TYPE-001", "gpu: expected a string");
    expect_error(HEAD "\"gpu\":\"\"}", "LAUNCH-STR-001", "gpu: must not be empty");
    expect_error(HEAD "\"max_instructions\":0}", "LAUNCH-RANGE-001",
                 "max_instructions: 0 is outside the allowed range 1..18446744073709551615");
    expect_error(HEAD "\"l2_persisting_bytes\":-4}", "LAUNCH-RANGE-001",
                 "l2_persisting_bytes: -4 is outside the allowed range 0..18446744073709551615");
    expect_error(HEAD "\"heap_bytes\":1073741825}", "LAUNCH-RANGE-001",
                 "heap_bytes: 1073741825 is outside the allowed range 0..1073741824");
    expect_error(HEAD "\"modul\":\"x\"}", "LAUNCH-KEY-001", "modul: unknown key \"modul\"");
    expect_error("[]", "LAUNCH-JSON-002", "a launch file is one JSON object");

    /* A good window with every field, and the access property numbering of CUDA. */
    diag_list dl;
    launch_desc *d = load(LAUNCH("\"grid\":[1],\"block\":[1],\"access_policy_window\":{\"buffer\":"
                                 "\"b\",\"offset\":8,\"bytes\":56,\"hit_ratio\":0,\"hit_prop\":"
                                 "\"streaming\",\"miss_prop\":\"normal\"}"), &dl);
    assert_non_null(d);
    const launch_policy_window *w = &d->kernels[0].policy_window;
    assert_int_equal(w->offset, 8);
    assert_int_equal(w->bytes, 56);
    assert_true(w->hit_ratio == 0);
    assert_int_equal(w->hit_prop, 1);
    assert_int_equal(w->miss_prop, 0);
    launch_destroy(d);
    diag_list_fini(&dl);
}

/* ---- buffers, outputs, expectations: validation ---- */

static void test_buffer_and_expect_rules(void **state)
{
    (void)state;
    expect_error(HEAD "\"buffers\":{\"1x\":{\"type\":\"u8\",\"count\":1}}}", "LAUNCH-NAME-001",
                 "buffers.1x: buffer name \"1x\" must be 1 to 64 letters, digits or '_', not "
                 "starting with a digit");
    expect_error(BUF("{\"type\":\"float\",\"count\":1}"), "LAUNCH-ELEM-001",
                 "buffers.x.type: unknown element type \"float\" (expected i8, u8, i16, u16, i32, "
                 "u32, i64, u64, f16, bf16, f32 or f64)");
    expect_error(BUF("{\"type\":\"u8\",\"count\":0}"), "LAUNCH-RANGE-001",
                 "buffers.x.count: 0 is outside the allowed range 1..18446744073709551615");
    expect_error(BUF("{\"type\":\"u8\"}"), "LAUNCH-KEY-002",
                 "buffers.x.count: required key \"count\" is missing");
    expect_error(BUF("{\"type\":\"u8\",\"count\":1,\"init\":{}}"), "LAUNCH-INIT-001",
                 "buffers.x.init: init needs exactly one of \"fill\", \"iota\", \"random\", "
                 "\"file\" (found 0)");
    expect_error(BUF("{\"type\":\"u8\",\"count\":1,\"init\":{\"fill\":1,\"file\":\"a\"}}"),
                 "LAUNCH-INIT-001", "buffers.x.init: init needs exactly one of \"fill\", \"iota\", "
                 "\"random\", \"file\" (found 2)");
    expect_error(BUF("{\"type\":\"u8\",\"count\":1,\"init\":{\"fil\":1}}"), "LAUNCH-KEY-001",
                 "buffers.x.init.fil: unknown key \"fil\"");
    expect_error(BUF("{\"type\":\"u8\",\"count\":1,\"init\":{\"fill\":256}}"), "LAUNCH-VALUE-001",
                 "buffers.x.init.fill: 256 does not fit in u8");
    expect_error(BUF("{\"type\":\"f16\",\"count\":1,\"init\":{\"fill\":65520}}"),
                 "LAUNCH-VALUE-004", "buffers.x.init.fill: 65520 overflows f16");
    expect_error(BUF("{\"type\":\"f64\",\"count\":134217729}"), "LAUNCH-SIZE-001",
                 "buffers.x.count: 134217729 x 8 bytes takes the buffers past the limit of "
                 "1073741824 bytes in total");

    /* The limit is on the sum and is configurable. */
    static const char two[] = HEAD "\"buffers\":{\"a\":{\"type\":\"u32\",\"count\":3},"
                              "\"b\":{\"type\":\"u8\",\"count\":5}}}";
    launch_limits lim = launch_limits_default();
    assert_int_equal(lim.max_total_bytes, 1u << 30);
    lim.max_total_bytes = 16;
    diag_list dl;
    diag_list_init(&dl);
    assert_null(launch_load_text_limits("t.json", two, strlen(two), &lim, &dl));
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].message, "buffers.b.count: 5 x 1 bytes takes the buffers "
                        "past the limit of 16 bytes in total");
    lim.max_total_bytes = 17;
    launch_desc *d = launch_load_text_limits("t.json", two, strlen(two), &lim, &dl);
    assert_non_null(d);
    assert_int_equal(d->total_bytes, 17);
    launch_destroy(d);
    diag_list_fini(&dl);

}

#define TWO HEAD "\"buffers\":{\"a\":{\"type\":\"u8\",\"count\":1},\"f\":{\"type\":\"f32\"," \
    "\"count\":2}},"

static void test_output_and_expect_rules(void **state)
{
    (void)state;
    char message[1024], path[512];
    scratch_path(path, sizeof path, "o.bin");
    snprintf(message, sizeof message, "outputs.f: \"%s\" is also the output of buffer \"a\"",
             path);
    expect_error(TWO "\"outputs\":{\"a\":\"o.bin\",\"f\":\"o.bin\"}}", "LAUNCH-OUT-001", message);
    expect_error(TWO "\"outputs\":{\"y\":\"y.bin\"}}", "LAUNCH-REF-001",
                 "outputs.y: no buffer named \"y\" is declared");
    expect_error(TWO "\"outputs\":{\"a\":\"\"}}", "LAUNCH-STR-001", "outputs.a: must not be empty");
    expect_error(TWO "\"outputs\":{\"a\":1}}", "LAUNCH-TYPE-001", "outputs.a: expected a string");
    expect_error(TWO "\"expect\":{\"y\":{\"fill\":1}}}", "LAUNCH-REF-001",
                 "expect.y: no buffer named \"y\" is declared");
    expect_error(TWO "\"expect\":{\"a\":{}}}", "LAUNCH-EXPECT-001",
                 "expect.a: needs exactly one of \"file\" and \"fill\"");
    expect_error(TWO "\"expect\":{\"a\":{\"fill\":1,\"file\":\"e.bin\"}}}", "LAUNCH-EXPECT-001",
                 "expect.a: needs exactly one of \"file\" and \"fill\"");
    expect_error(TWO "\"expect\":{\"f\":{\"fill\":1,\"rtol\":-1e-3}}}", "LAUNCH-EXPECT-002",
                 "expect.f.rtol: -0.001 is negative");
    expect_error(TWO "\"expect\":{\"f\":{\"fill\":1,\"atol\":\"1\"}}}", "LAUNCH-TYPE-001",
                 "expect.f.atol: expected a number");
    expect_error(TWO "\"expect\":{\"a\":{\"fill\":-1}}}", "LAUNCH-VALUE-001",
                 "expect.a.fill: -1 does not fit in u8");
    expect_error(TWO "\"expect\":{\"a\":{\"fill\":1,\"rtl\":1}}}", "LAUNCH-KEY-001",
                 "expect.a.rtl: unknown key \"rtl\"");
    scratch_path(path, sizeof path, "e3.bin");
    write_file("e3.bin", "abc", 3);
    snprintf(message, sizeof message, "expect.f.file: \"%s\" has 3 bytes; expected 8 (count x "
             "element size)", path);
    expect_error(TWO "\"expect\":{\"f\":{\"file\":\"e3.bin\"}}}", "LAUNCH-FILE-002", message);
}

/* ---- diagnostics: positions and several errors per file ---- */

static void test_positions_and_recovery(void **state)
{
    (void)state;
    diag_list dl;
    launch_desc *d = load("{\n  \"module\": \"m\",\n  \"launches\": [\n    {\"kernel\": \"k\",\n"
                          "     \"grid\": [1, 0], \"block\": [1]}],\n  \"oops\": 1,\n"
                          "  \"buffers\": {\"x\": {\"type\": \"u8\", \"count\": 1, \"init\": "
                          "{\"fill\": 300}}}\n}\n", &dl);
    assert_null(d);
    assert_int_equal(dl.errors, 3);
    const diag *e = diag_find(&dl, "LAUNCH-KEY-001");
    assert_non_null(e);
    assert_int_equal(e->line, 6); /* at the key */
    assert_int_equal(e->col, 3);
    e = diag_find(&dl, "LAUNCH-DIM-002");
    assert_non_null(e);
    assert_string_equal(e->message, "launches[0].grid[1]: 0 is outside 1..65535");
    assert_int_equal(e->line, 5);
    assert_int_equal(e->col, 18);
    e = diag_find(&dl, "LAUNCH-VALUE-001");
    assert_non_null(e);
    assert_int_equal(e->line, 7);
    assert_int_equal(e->col, 64);
    char path[512];
    scratch_path(path, sizeof path, "launch.json");
    assert_string_equal(e->file, path);
    diag_list_fini(&dl);

    /* A missing key points at the object that lacks it. */
    d = load("{\"module\": \"m\",\n \"launches\": [\n  {\"grid\": [1], \"block\": [1]}]}", &dl);
    assert_null(d);
    e = diag_find(&dl, "LAUNCH-KEY-002");
    assert_non_null(e);
    assert_string_equal(e->message, "launches[0].kernel: required key \"kernel\" is missing");
    assert_int_equal(e->line, 3);
    assert_int_equal(e->col, 3);
    diag_list_fini(&dl);

    /* Keys with escapes are found too. */
    d = load("{\"module\": \"m\", \"\\u006Dodul\\u00e9\": 1, \"launches\": []}", &dl);
    assert_null(d);
    e = diag_find(&dl, "LAUNCH-KEY-001");
    assert_non_null(e);
    assert_string_equal(e->message, "modul\xc3\xa9: unknown key \"modul\xc3\xa9\"");
    assert_int_equal(e->line, 1);
    assert_int_equal(e->col, 17);
    diag_list_fini(&dl);

    /* JSON syntax: jansson's line and column, and duplicate keys. */
    d = load("{\"module\": \"m\",\n  \"launches\": [}\n", &dl);
    assert_null(d);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-JSON-001");
    assert_int_equal(dl.items[0].line, 2);
    assert_int_equal(dl.items[0].col, 16);
    diag_list_fini(&dl);
    d = load("{\"module\": \"m\", \"module\": \"n\"}", &dl);
    assert_null(d);
    assert_string_equal(dl.items[0].rule, "LAUNCH-JSON-001");
    assert_non_null(strstr(dl.items[0].message, "duplicate object key"));
    diag_list_fini(&dl);
    d = load("", &dl);
    assert_null(d);
    assert_string_equal(dl.items[0].rule, "LAUNCH-JSON-001");
    diag_list_fini(&dl);

    /* Reading a launch file that is not there. */
    diag_list_init(&dl);
    scratch_path(path, sizeof path, "absent.json");
    assert_null(launch_load(path, &dl));
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-IO-001");
    assert_string_equal(dl.items[0].message, "cannot open the launch file: No such file or "
                        "directory");
    diag_list_fini(&dl);
}

static void test_load_from_file(void **state)
{
    (void)state;
    static const char json[] = HEAD "\"buffers\":{\"x\":{\"type\":\"u8\",\"count\":2}}}";
    write_file("real.json", json, strlen(json));
    char path[512];
    scratch_path(path, sizeof path, "real.json");
    diag_list dl;
    diag_list_init(&dl);
    launch_desc *d = launch_load(path, &dl);
    assert_non_null(d);
    assert_string_equal(d->path, path);
    assert_int_equal(d->buffers[0].count, 2);
    launch_destroy(d);
    launch_limits lim = launch_limits_default();
    lim.max_file_bytes = 10;
    assert_null(launch_load_limits(path, &lim, &dl));
    assert_string_equal(dl.items[0].rule, "LAUNCH-IO-001");
    assert_string_equal(dl.items[0].message, "the launch file is larger than the limit of 10 bytes");
    diag_list_fini(&dl);
}

/* ---- outputs ---- */

static int count_temporaries(void)
{
    DIR *dir = opendir(scratch);
    assert_non_null(dir);
    int n = 0;
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL)
        n += strstr(ent->d_name, ".gpumemsim-") != NULL;
    closedir(dir);
    return n;
}

static void test_write_outputs(void **state)
{
    (void)state;
    diag_list dl;
    launch_desc *d = load(HEAD "\"buffers\":{\"a\":{\"type\":\"u16\",\"count\":2},\"b\":{"
                          "\"type\":\"u8\",\"count\":3},\"c\":{\"type\":\"u8\",\"count\":1}},"
                          "\"outputs\":{\"a\":\"a.out\",\"b\":\"sub/b.out\"}}", &dl);
    assert_non_null(d);
    static const uint8_t a[4] = {1, 2, 3, 4}, b[3] = {7, 8, 9};
    const uint8_t *data[3] = {a, b, NULL};
    char path[512];
    /* The folder of b.out does not exist: b reports, and a is not written either (all or
     * nothing); no temporary file is left behind. */
    assert_int_equal(launch_write_outputs(d, data, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-IO-002");
    scratch_path(path, sizeof path, "a.out");
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(count_temporaries(), 0);
    scratch_path(path, sizeof path, "sub");
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(launch_write_outputs(d, data, &dl), 0);
    assert_int_equal(dl.count, 1);
    uint8_t back[8];
    scratch_path(path, sizeof path, "a.out");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(back, 1, sizeof back, f), 4);
    fclose(f);
    assert_memory_equal(back, a, 4);
    scratch_path(path, sizeof path, "sub/b.out");
    f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(back, 1, sizeof back, f), 3);
    fclose(f);
    assert_memory_equal(back, b, 3);
    assert_int_equal(count_temporaries(), 0);

    /* An output path that is a folder cannot be replaced: the folder stays, no temporary stays. */
    scratch_path(path, sizeof path, "sub/b.out");
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(launch_write_outputs(d, data, &dl), -1);
    assert_int_equal(dl.count, 2);
    assert_string_equal(dl.items[1].rule, "LAUNCH-IO-002");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    DIR *sub = opendir(path);
    assert_non_null(sub);
    closedir(sub);
    scratch_path(path, sizeof path, "sub");
    sub = opendir(path);
    int entries = 0;
    struct dirent *ent;
    while ((ent = readdir(sub)) != NULL)
        entries += ent->d_name[0] != '.';
    closedir(sub);
    assert_int_equal(entries, 1); /* only b.out */
    scratch_path(path, sizeof path, "sub/b.out");
    assert_int_equal(rmdir(path), 0);

    /* Missing contents for an output buffer are reported. */
    const uint8_t *none[3] = {NULL, b, NULL};
    assert_int_equal(launch_write_outputs(d, none, &dl), -1);
    char message[1024];
    scratch_path(path, sizeof path, "a.out");
    snprintf(message, sizeof message, "outputs.a: cannot write \"%s\": no contents were given for "
             "the buffer", path);
    assert_string_equal(dl.items[2].message, message);
    launch_destroy(d);
    diag_list_fini(&dl);
}


/* ---- expectations ---- */

static void store_f32(uint8_t *p, float v) { memcpy(p, &v, 4); } /* the tests run little-endian */

static void test_expect_floats(void **state)
{
    (void)state;
    float want[6] = {1.0f, -2.0f, NAN, INFINITY, 0.0f, 100.0f};
    write_file("f.exp", want, sizeof want);
    diag_list dl;
    launch_desc *d = load(HEAD "\"buffers\":{\"v\":{\"type\":\"f32\",\"count\":6}},"
                          "\"expect\":{\"v\":{\"file\":\"f.exp\",\"rtol\":0.01,\"atol\":0.001}}}",
                          &dl);
    assert_non_null(d);
    uint8_t got[24];
    float g[6] = {1.0005f, -2.02f, NAN, INFINITY, -0.0f, 101.5f};
    for (int i = 0; i < 6; i++)
        store_f32(got + 4 * i, g[i]);
    const uint8_t *data[1] = {got};
    launch_expect_result r[1];
    /* 1.0005: |d| 5e-4 <= 1e-3 + 1e-2; -2.02: 0.02 <= 0.021; NaN = NaN; inf = inf; -0 = 0;
     * 101.5: 1.5 > 1.001. */
    assert_int_equal(launch_check_expectations(d, data, r, &dl), 1);
    assert_string_equal(r[0].buffer_name, "v");
    assert_int_equal(r[0].elements, 6);
    assert_int_equal(r[0].mismatches, 1);
    assert_int_equal(r[0].shown, 1);
    assert_int_equal(r[0].first[0].index, 5);
    assert_string_equal(r[0].first[0].got, "101.5");
    assert_string_equal(r[0].first[0].expected, "100");
    /* A NaN where a number is expected, and a number where NaN is expected, both mismatch. */
    store_f32(got + 0, NAN);
    store_f32(got + 8, 3.0f);
    store_f32(got + 20, 100.0f);
    assert_int_equal(launch_check_expectations(d, data, r, &dl), 1);
    assert_int_equal(r[0].mismatches, 2);
    assert_string_equal(r[0].first[0].got, "nan");
    assert_string_equal(r[0].first[0].expected, "1");
    assert_int_equal(r[0].first[1].index, 2);
    assert_string_equal(r[0].first[1].got, "3");
    assert_string_equal(r[0].first[1].expected, "nan");
    /* -inf against inf mismatches. */
    store_f32(got + 0, 1.0f);
    store_f32(got + 8, NAN);
    store_f32(got + 12, -INFINITY);
    assert_int_equal(launch_check_expectations(d, data, r, &dl), 1);
    assert_int_equal(r[0].mismatches, 1);
    assert_string_equal(r[0].first[0].got, "-inf");
    assert_int_equal(dl.count, 0);
    /* The file changed size after loading. */
    write_file("f.exp", want, 20);
    assert_int_equal(launch_check_expectations(d, data, r, &dl), -1);
    assert_string_equal(dl.items[0].rule, "LAUNCH-FILE-002");
    launch_destroy(d);
    diag_list_fini(&dl);
}

/* rtol on integer buffers (LAUNCH-EXPECT-003 is retired): |got - exp| <= atol + rtol * |exp|,
 * the tolerance in double and the distance exact, as numpy's allclose with integer arrays. */
static void test_expect_integer_rtol(void **state)
{
    (void)state;
    diag_list dl;
    launch_desc *d = load(HEAD "\"buffers\":{\"s\":{\"type\":\"i32\",\"count\":4},"
                          "\"u\":{\"type\":\"u64\",\"count\":2},\"t\":{\"type\":\"u8\",\"count\":2}},"
                          "\"expect\":{\"s\":{\"fill\":-100,\"rtol\":0.05},"
                          "\"u\":{\"fill\":\"0xFFFFFFFFFFFFFFFF\",\"rtol\":1e-9,\"atol\":1},"
                          "\"t\":{\"fill\":0,\"rtol\":0.5}}}", &dl);
    assert_non_null(d);
    assert_int_equal(dl.count, 0);
    int32_t sv[4] = {-105, -95, -106, -94}; /* |exp| = 100: tolerance 5 either side */
    uint64_t uv[2] = {UINT64_MAX - 18446744074u, UINT64_MAX - 18446744075u}; /* 1 + 1e-9 * 2^64 */
    uint8_t tv[2] = {0, 1}; /* exp 0: rtol adds nothing, atol is 0 */
    const uint8_t *data[3] = {(const uint8_t *)sv, (const uint8_t *)uv, tv};
    launch_expect_result r[3];
    assert_int_equal(launch_check_expectations(d, data, r, &dl), 3);
    assert_int_equal(r[0].mismatches, 2);
    assert_int_equal(r[0].first[0].index, 2);
    assert_string_equal(r[0].first[0].got, "-106");
    assert_int_equal(r[0].first[1].index, 3);
    assert_int_equal(r[1].mismatches, 1);
    assert_int_equal(r[1].first[0].index, 1);
    assert_int_equal(r[2].mismatches, 1);
    assert_int_equal(r[2].first[0].index, 1);
    launch_destroy(d);
    diag_list_fini(&dl);
}

static void test_expect_exact_and_fill(void **state)
{
    (void)state;
    diag_list dl;
    launch_desc *d = load(HEAD "\"buffers\":{\"a\":{\"type\":\"i32\",\"count\":25},"
                          "\"b\":{\"type\":\"u64\",\"count\":2},\"h\":{\"type\":\"f16\",\"count\":2},"
                          "\"e\":{\"type\":\"f64\",\"count\":1}},"
                          "\"expect\":{\"a\":{\"fill\":-3},\"b\":{\"fill\":\"0xFFFFFFFFFFFFFFFF\","
                          "\"atol\":2},\"h\":{\"fill\":0.1},\"e\":{\"fill\":0.1}}}", &dl);
    assert_non_null(d);
    assert_int_equal(d->nexpects, 4);
    uint8_t a[100], b[16], h[4], e[8];
    for (int i = 0; i < 25; i++) {
        int32_t v = i % 2 ? -3 : -i; /* even indices mismatch */
        memcpy(a + 4 * i, &v, 4);
    }
    uint64_t bv[2] = {UINT64_MAX - 2, 0}; /* distance 2: within atol; 0: distance 2^64-1 */
    memcpy(b, bv, sizeof b);
    uint16_t hv[2] = {0x2E66, 0x2E67}; /* 0.1 in f16 is 0x2E66 */
    memcpy(h, hv, sizeof h);
    double ev = 0.1;
    memcpy(e, &ev, sizeof e);
    const uint8_t *data[4] = {a, b, h, e};
    launch_expect_result r[4];
    assert_int_equal(launch_check_expectations(d, data, r, &dl), 3);
    assert_int_equal(r[0].mismatches, 13);
    assert_int_equal(r[0].shown, LAUNCH_MISMATCHES_SHOWN);
    assert_int_equal(r[0].first[0].index, 0);
    assert_string_equal(r[0].first[0].got, "0");
    assert_int_equal(r[0].first[1].index, 2);
    assert_string_equal(r[0].first[1].got, "-2");
    assert_string_equal(r[0].first[1].expected, "-3");
    assert_int_equal(r[0].first[9].index, 18);
    assert_int_equal(r[1].mismatches, 1);
    assert_int_equal(r[1].first[0].index, 1);
    assert_string_equal(r[1].first[0].got, "0");
    assert_string_equal(r[1].first[0].expected, "18446744073709551615");
    assert_int_equal(r[2].mismatches, 1);
    assert_string_equal(r[2].first[0].got, "0.10004");
    assert_string_equal(r[2].first[0].expected, "0.099976");
    assert_int_equal(r[3].mismatches, 0);
    assert_string_equal(r[3].buffer_name, "e");
    launch_destroy(d);
    diag_list_fini(&dl);
}

/* ---- tests/launch_bad: one bad file per rule, the expected diagnostic beside it ---- */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    return buf;
}

/* Removes every "<dir>/" from text: messages name files by their resolved paths. */
static void strip_all(char *text, const char *dir)
{
    char prefix[1024];
    snprintf(prefix, sizeof prefix, "%s/", dir);
    size_t n = strlen(prefix);
    char *hit;
    while ((hit = strstr(text, prefix)) != NULL)
        memmove(hit, hit + n, strlen(hit + n) + 1);
}

static int check_bad_file(const char *dir, const char *name)
{
    char path[1024], want_path[1024], got[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(want_path, sizeof want_path, "%s/%.*s.expected", dir, (int)(strlen(name) - 5), name);
    char *want = read_text(want_path);
    if (!want) {
        print_error("%s: no .expected file\n", name);
        return 1;
    }
    diag_list dl;
    diag_list_init(&dl);
    launch_desc *d = launch_load(path, &dl);
    int bad = d != NULL || dl.count == 0;
    if (!bad) {
        diag first = dl.items[0];
        first.file = name; /* the golden text names the file without its folder */
        diag_format(&first, got, sizeof got);
        strip_all(got, dir);
        bad = strcmp(got, want) != 0;
        /* The rule in the golden text must also be the file name's prefix. */
        bad |= strncmp(name, first.rule, strlen(first.rule)) != 0;
    }
    if (bad)
        print_error("%s:\n  want: %s\n  got:  %s\n", name, want, d ? "(accepted)" : got);
    launch_destroy(d);
    diag_list_fini(&dl);
    free(want);
    return bad;
}

static void test_launch_bad_files(void **state)
{
    (void)state;
    const char *dir = GMS_SOURCE_DIR "/tests/launch_bad";
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    struct dirent *ent;
    int files = 0, failures = 0;
    while ((ent = readdir(dp)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n < 6 || strcmp(ent->d_name + n - 5, ".json") != 0)
            continue;
        files++;
        failures += check_bad_file(dir, ent->d_name);
    }
    closedir(dp);
    assert_int_equal(failures, 0);
    assert_true(files >= 30);
}

/* ---- fixture ---- */

static int remove_tree(const char *path)
{
    DIR *dp = opendir(path);
    if (!dp)
        return unlink(path);
    struct dirent *ent;
    while ((ent = readdir(dp)) != NULL) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", path, ent->d_name);
        remove_tree(sub);
    }
    closedir(dp);
    return rmdir(path);
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/gms_launch_XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(scratch))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elem_table),
        cmocka_unit_test(test_full_example),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_fill_every_type),
        cmocka_unit_test(test_iota),
        cmocka_unit_test(test_random_generator_constants),
        cmocka_unit_test(test_random_every_kind),
        cmocka_unit_test(test_random_f32_every_element),
        cmocka_unit_test(test_file_init),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_launch_fields),
        cmocka_unit_test(test_buffer_and_expect_rules),
        cmocka_unit_test(test_output_and_expect_rules),
        cmocka_unit_test(test_positions_and_recovery),
        cmocka_unit_test(test_load_from_file),
        cmocka_unit_test(test_write_outputs),
        cmocka_unit_test(test_expect_floats),
        cmocka_unit_test(test_expect_exact_and_fill),
        cmocka_unit_test(test_expect_integer_rtol),
        cmocka_unit_test(test_launch_bad_files),
        cmocka_unit_test(test_init_stream),
        cmocka_unit_test(test_outputs_and_expectations_from_reader),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove_tree(scratch);
    return rc;
}
