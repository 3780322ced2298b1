/* Unit tests for src/report: formatting helpers, instruction ranking, the JSON schema's keys and
 * values, golden text and JSON reports of three synthetic runs, and failure paths (allocation
 * failure inside jansson, unwritable files and streams).
 *
 * Golden files live in tests/golden/report_<name>.{txt,json}. Run with GMS_UPDATE_GOLDEN=1 to
 * rewrite them from the current output (then review the diff before committing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "report/report.h"

#ifndef GMS_SOURCE_DIR
#error "GMS_SOURCE_DIR must name the repository root"
#endif

/* ---- synthetic runs -------------------------------------------------------------------------- */

/* One launch of a streaming kernel: known totals and six static instructions, of which one never
 * executed (and must not appear) and two tie on misses (broken by PTX line). */
static report_insn single_insns[6];
static report_launch single_launch;
static report_model single_model;

static void build_single(void)
{
    memset(single_insns, 0, sizeof single_insns);
    report_insn *i = single_insns;
    i[0] = (report_insn){.id = 0, .kernel = "saxpy", .ptx_line = 20, .source_file = NULL,
                         .text = "ld.param.u64 %rd1, [saxpy_param_0];", .executions = 64};
    i[0].counters.constant = (mem_const_counters){64, 0, 63, 1};
    i[1] = (report_insn){.id = 1, .kernel = "saxpy", .ptx_line = 31,
                         .source_file = "/home/dev/saxpy.cu", .source_line = 7,
                         .text = "ld.global.cs.f32 %f1, [%rd8];", .executions = 64};
    i[1].counters.l1 = (mem_l1_counters){256, 1024, 0, 1024, 0, 0};
    i[1].counters.l2.sector_accesses = 1024;
    i[1].counters.l2.sector_misses = 1024;
    i[1].counters.dram.read_bytes = 32768;
    i[2] = (report_insn){.id = 2, .kernel = "saxpy", .ptx_line = 33,
                         .source_file = "/home/dev/saxpy.cu", .source_line = 7,
                         .text = "ld.global.cs.f32 %f2, [%rd10];", .executions = 64};
    i[2].counters.l1 = (mem_l1_counters){256, 1024, 0, 1024, 0, 0};
    i[2].counters.l2 = (mem_l2_counters){.sector_accesses = 1024, .sector_hits = 1024};
    i[3] = (report_insn){.id = 3, .kernel = "saxpy", .ptx_line = 32, .source_file = NULL,
                         .text = "st.global.wt.f32 [%rd10], %f3;", .executions = 64};
    i[3].counters.l2 = (mem_l2_counters){.sector_accesses = 2048, .sector_hits = 1024,
                                         .sector_misses = 1024, .writeback_bytes = 32768};
    i[3].counters.dram = (mem_dram_counters){32768, 32768};
    i[4] = (report_insn){.id = 4, .kernel = "saxpy", .ptx_line = 35,
                         .text = "st.global.f32 [%rd12], %f4;", .executions = 0};
    i[4].counters.l1.sector_misses = 99999; /* never executed: must be ignored everywhere */
    i[5] = (report_insn){.id = 5, .kernel = "saxpy", .ptx_line = 36, .text = "ret;",
                         .executions = 64};

    mem_counters t;
    memset(&t, 0, sizeof t);
    t.l1 = (mem_l1_counters){512, 2048, 0, 2048, 0, 0};
    t.l2 = (mem_l2_counters){4096, 2048, 2048, 0, 32768, 12, 300, 0, 0};
    t.dram = (mem_dram_counters){65536, 32768};
    t.constant = (mem_const_counters){64, 0, 63, 1};
    t.icache = (mem_icache_counters){12288, 12280, 8};

    single_launch = (report_launch){.kernel = "saxpy", .grid = {64, 1, 1}, .block = {256, 1, 1},
                                    .warp_instructions = 12288, .thread_instructions = 393216,
                                    .counters = t, .seconds = 0.25};
    single_model = (report_model){.gpu = "h100",
                                  .launch_file = "tests/kernels/saxpy_cs/saxpy_cs.json",
                                  .module = "tests/kernels/saxpy_cs/saxpy_cs.ptx",
                                  .launches = &single_launch, .nlaunches = 1,
                                  .warp_instructions = 12288, .thread_instructions = 393216,
                                  .totals = t, .insns = single_insns, .ninsns = 6};
}

/* Three launches, stripped hints, a persisting set-aside, shared-memory conflicts, a tab inside an
 * instruction's text and one instruction text longer than a table cell. */
static report_insn multi_insns[5];
static report_launch multi_launches[3];
static report_model multi_model;

static void build_multi_insns(void)
{
    report_insn *i = multi_insns;
    memset(i, 0, sizeof multi_insns);
    i[0] = (report_insn){.id = 3, .kernel = "fill", .ptx_line = 14, .text = "st.global.u32 [%rd4], %r1;",
                         .executions = 4096};
    i[0].counters.l1 = (mem_l1_counters){.requests = 4096, .sector_accesses = 16384,
                                         .sector_misses = 16384};
    i[0].counters.l2 = (mem_l2_counters){.sector_accesses = 16384, .sector_misses = 16384};
    i[1] = (report_insn){.id = 20, .kernel = "stencil", .ptx_line = 60,
                         .source_file = "stencil.cu", .source_line = 41,
                         .text = "ld.shared.f32\t%f7, [%r9+4];", .executions = 2048};
    i[1].counters.shared = (mem_shared_counters){.requests = 2048, .wavefronts = 6144,
                                                 .bank_conflicts = 4096};
    i[1].counters.l1.sector_misses = 7; /* odd but possible after an invalidate: ranks it */
    i[2] = (report_insn){.id = 21, .kernel = "stencil", .ptx_line = 62,
                         .source_file = "stencil.cu", .source_line = 43,
                         .text = "ld.global.nc.L2::256B.v4.f32 {%f10, %f11, %f12, %f13}, "
                                 "[%rd20+1024]; // a comment the lowering kept, making this line "
                                 "longer than one table cell",
                         .executions = 1024};
    i[2].counters.l1 = (mem_l1_counters){1024, 4096, 2048, 2048, 16, 0};
    i[2].counters.l2 = (mem_l2_counters){.sector_accesses = 2048, .sector_hits = 2047,
                                         .sector_misses = 1};
    i[3] = (report_insn){.id = 40, .kernel = "reduce", .ptx_line = 90, .text = "atom.global.add.u32 %r5, [%rd30], %r4;",
                         .executions = 512};
    i[3].counters.l2 = (mem_l2_counters){.sector_accesses = 512, .sector_hits = 511,
                                         .sector_misses = 1};
    i[4] = (report_insn){.id = 41, .kernel = "reduce", .ptx_line = 91, .text = "bar.sync 0;",
                         .executions = 512};
    i[4].counters.icache = (mem_icache_counters){512, 500, 12};
}

static void build_multi(void)
{
    build_multi_insns();
    memset(multi_launches, 0, sizeof multi_launches);
    report_launch *l = multi_launches;
    l[0] = (report_launch){.kernel = "fill", .grid = {1024, 1, 1}, .block = {128, 1, 1},
                           .warp_instructions = 40960, .thread_instructions = 1310720};
    l[0].counters.l1 = multi_insns[0].counters.l1;
    l[0].counters.l2 = multi_insns[0].counters.l2;
    l[0].counters.l2.lines_evict_first = 4096;
    l[0].counters.dram.write_bytes = 524288;
    l[1] = (report_launch){.kernel = "stencil", .grid = {32, 32, 1}, .block = {16, 16, 1},
                           .warp_instructions = 1500000, .thread_instructions = 48000000};
    l[1].counters.l1 = (mem_l1_counters){1024, 4096, 2048, 2055, 16, 0};
    l[1].counters.l2 = multi_insns[2].counters.l2;
    l[1].counters.shared = multi_insns[1].counters.shared;
    l[1].counters.dram.read_bytes = 32;
    l[2] = (report_launch){.kernel = "reduce", .grid = {8, 1, 1}, .block = {1024, 1, 1},
                           .warp_instructions = 9000, .thread_instructions = 200000,
                           .printf_bad_strings = 3};
    l[2].counters.l2 = multi_insns[3].counters.l2;
    l[2].counters.dram.read_bytes = 32;
    l[2].counters.icache = (mem_icache_counters){512, 500, 12};

    mem_counters t;
    memset(&t, 0, sizeof t);
    t.l1 = (mem_l1_counters){5120, 20480, 2048, 18439, 16, 1536};
    t.l2 = (mem_l2_counters){18944, 2558, 16386, 5000, 1048576, 3000, 900, 196, 200};
    t.dram = (mem_dram_counters){3145728, 1572864};
    t.shared = multi_insns[1].counters.shared;
    t.constant = (mem_const_counters){3000, 250, 2990, 10};
    t.icache = (mem_icache_counters){512, 500, 12};
    multi_model = (report_model){.gpu = "a100", .launch_file = "examples/three.json",
                                 .module = "examples/three.ptx", .launches = multi_launches,
                                 .nlaunches = 3, .warp_instructions = 1549960,
                                 .thread_instructions = 49510720, .printf_bad_strings = 3,
                                 .totals = t,
                                 .insns = multi_insns, .ninsns = 5,
                                 .l2_persisting_bytes = 4u << 20, .hints_stripped = 1};
}

/* Nothing at all: no names, no launches, every counter zero. */
static report_model empty_model;

static int setup(void **state)
{
    (void)state;
    build_single();
    build_multi();
    memset(&empty_model, 0, sizeof empty_model);
    return 0;
}

/* ---- helpers --------------------------------------------------------------------------------- */

static char *text_report(const report_model *m, size_t top_n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(report_write_text(m, top_n, f), REPORT_OK);
    fclose(f);
    return buf;
}

static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf)
        buf = calloc(1, 1);
    else
        buf[len] = '\0';
    return buf;
}

/* Compares `actual` with tests/golden/<name> byte for byte, or rewrites the golden file when
 * GMS_UPDATE_GOLDEN=1. */
static void check_golden(const char *name, const char *actual)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s", GMS_SOURCE_DIR, name);
    const char *update = getenv("GMS_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fputs(actual, f) >= 0, 1);
        assert_int_equal(fclose(f), 0);
        print_message("updated %s\n", path);
        return;
    }
    char *expected = read_whole(path);
    if (!expected)
        fail_msg("missing golden file %s (run with GMS_UPDATE_GOLDEN=1 to create it)", path);
    if (strcmp(expected, actual) != 0)
        print_message("%s differs; actual output:\n%s", path, actual);
    assert_string_equal(actual, expected);
    free(expected);
}

static json_t *parse_report(const report_model *m)
{
    char *text = report_to_json(m);
    assert_non_null(text);
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        fail_msg("report JSON does not parse: %s at %d:%d", err.text, err.line, err.column);
    free(text);
    return root;
}

/* Value at a dotted path such as "totals.l1.sector_hits" (objects only). */
static json_t *at(json_t *root, const char *path)
{
    char key[128];
    const char *full = path;
    json_t *node = root;
    while (node && *path) {
        size_t n = strcspn(path, ".");
        assert_true(n < sizeof key);
        memcpy(key, path, n);
        key[n] = '\0';
        node = json_object_get(node, key);
        path += n + (path[n] == '.');
    }
    if (!node)
        fail_msg("missing JSON key %s", full);
    return node;
}

static void assert_count_at(json_t *root, const char *path, long long expected)
{
    json_t *v = at(root, path);
    if (!json_is_integer(v))
        fail_msg("%s is not an integer", path);
    assert_int_equal(json_integer_value(v), expected);
}

/* ---- formatting ------------------------------------------------------------------------------ */

static void test_format_count(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(report_format_count(0, b, sizeof b), "0");
    assert_string_equal(report_format_count(999, b, sizeof b), "999");
    assert_string_equal(report_format_count(1000, b, sizeof b), "1,000");
    assert_string_equal(report_format_count(12288, b, sizeof b), "12,288");
    assert_string_equal(report_format_count(393216, b, sizeof b), "393,216");
    assert_string_equal(report_format_count(1000000, b, sizeof b), "1,000,000");
    assert_string_equal(report_format_count(UINT64_MAX, b, sizeof b),
                        "18,446,744,073,709,551,615");
    assert_string_equal(report_format_count(123456, b, 4), "123"); /* truncated, terminated */
    b[0] = 'x';
    report_format_count(5, b, 0);
    assert_int_equal(b[0], 'x');
}

static void test_format_bytes(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(report_format_bytes(0, b, sizeof b), "0 B");
    assert_string_equal(report_format_bytes(1023, b, sizeof b), "1023 B");
    assert_string_equal(report_format_bytes(1024, b, sizeof b), "1.0 KiB");
    assert_string_equal(report_format_bytes(1536, b, sizeof b), "1.5 KiB");
    assert_string_equal(report_format_bytes(1075, b, sizeof b), "1.0 KiB");  /* 1.0498 */
    assert_string_equal(report_format_bytes(1076, b, sizeof b), "1.1 KiB");  /* 1.0508 */
    assert_string_equal(report_format_bytes(32768, b, sizeof b), "32.0 KiB");
    assert_string_equal(report_format_bytes(1048524, b, sizeof b), "1023.9 KiB");
    assert_string_equal(report_format_bytes(1048575, b, sizeof b), "1.0 MiB"); /* not 1024.0 KiB */
    assert_string_equal(report_format_bytes(3u << 20, b, sizeof b), "3.0 MiB");
    assert_string_equal(report_format_bytes(5ull << 30, b, sizeof b), "5.0 GiB");
    assert_string_equal(report_format_bytes(UINT64_MAX, b, sizeof b), "16.0 EiB");
}

static void test_format_rate(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(report_format_rate(0, 0, b, sizeof b), "-");
    assert_string_equal(report_format_rate(7, 0, b, sizeof b), "-");
    assert_string_equal(report_format_rate(0, 5, b, sizeof b), "0.0%");
    assert_string_equal(report_format_rate(2048, 4096, b, sizeof b), "50.0%");
    assert_string_equal(report_format_rate(1, 3, b, sizeof b), "33.3%");
    assert_string_equal(report_format_rate(2, 3, b, sizeof b), "66.6%"); /* truncated */
    assert_string_equal(report_format_rate(9999, 10000, b, sizeof b), "99.9%");
    assert_string_equal(report_format_rate(5, 5, b, sizeof b), "100.0%");
    assert_string_equal(report_format_rate(6, 5, b, sizeof b), "?");
    assert_string_equal(report_format_rate(UINT64_MAX - 1, UINT64_MAX, b, sizeof b), "99.9%");
    assert_string_equal(report_format_rate(UINT64_MAX, UINT64_MAX, b, sizeof b), "100.0%");
    assert_string_equal(report_format_rate(UINT64_MAX / 2, UINT64_MAX, b, sizeof b), "50.0%");

    double r = -1;
    assert_int_equal(report_hit_rate(3, 0, &r), 0);
    assert_true(r == -1);
    assert_int_equal(report_hit_rate(1, 4, &r), 1);
    assert_true(r == 0.25);
}

/* ---- ranking --------------------------------------------------------------------------------- */

static void test_hottest_order_and_ties(void **state)
{
    (void)state;
    size_t order[8], n = 99;
    /* misses: id1 2048 (line 31); id3 1024 (line 32); id2 1024 (line 33); id4 never ran. */
    assert_int_equal(report_hottest(&single_model, 8, order, &n), REPORT_OK);
    assert_int_equal(n, 3);
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 3); /* tie on 1024 misses: lower PTX line first */
    assert_int_equal(order[2], 2);

    assert_int_equal(report_hottest(&single_model, 2, order, &n), REPORT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(order[1], 3);
    assert_int_equal(report_hottest(&single_model, 0, NULL, &n), REPORT_OK);
    assert_int_equal(n, 0);

    /* Same misses and same line (a macro expansion): the lower id wins, whatever the order. */
    report_insn tie[3];
    memset(tie, 0, sizeof tie);
    tie[0] = (report_insn){.id = 9, .ptx_line = 5, .executions = 1};
    tie[1] = (report_insn){.id = 2, .ptx_line = 5, .executions = 1};
    tie[2] = (report_insn){.id = 4, .ptx_line = 4, .executions = 1};
    for (int i = 0; i < 3; i++)
        tie[i].counters.l2.sector_misses = 10;
    tie[2].counters.l2.sector_misses = 9;
    tie[2].counters.l1.sector_misses = 1; /* L1 + L2: also 10 */
    report_model m = {.insns = tie, .ninsns = 3};
    assert_int_equal(report_hottest(&m, 3, order, &n), REPORT_OK);
    assert_int_equal(n, 3);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 0);

    /* Saturating sum. */
    tie[0].counters.l1.sector_misses = UINT64_MAX;
    assert_true(report_insn_misses(&tie[0]) == UINT64_MAX);
    assert_int_equal(report_hottest(&m, 1, order, &n), REPORT_OK);
    assert_int_equal(order[0], 0);

    assert_int_equal(report_hottest(NULL, 1, order, &n), REPORT_ERR_INVALID);
    assert_int_equal(report_hottest(&m, 1, NULL, &n), REPORT_ERR_INVALID);
    m.insns = NULL; /* NULL array with a count: read as empty */
    assert_int_equal(report_hottest(&m, 3, order, &n), REPORT_OK);
    assert_int_equal(n, 0);
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static const char *const level_keys[] = {
    "l1.requests",     "l1.sector_accesses", "l1.sector_hits",     "l1.sector_misses",
    "l1.evictions",    "l2.sector_accesses", "l2.sector_hits",     "l2.sector_misses",
    "l2.evictions",    "l2.writeback_bytes", "dram.read_bytes",    "dram.write_bytes",
    "shared.requests", "shared.wavefronts",  "shared.bank_conflicts"};

static void assert_levels_present(json_t *obj)
{
    for (size_t k = 0; k < sizeof level_keys / sizeof level_keys[0]; k++)
        assert_true(json_is_integer(at(obj, level_keys[k])));
}

/* Every stable key of gpumemsim-stats/2, for each of the three runs. */
static void test_json_stable_keys(void **state)
{
    (void)state;
    const report_model *models[] = {&single_model, &multi_model, &empty_model};
    for (size_t i = 0; i < 3; i++) {
        json_t *root = parse_report(models[i]);
        assert_string_equal(json_string_value(at(root, "schema")), "gpumemsim-stats/2");
        assert_non_null(at(root, "gpu"));
        assert_true(json_is_integer(at(root, "totals.warp_instructions")));
        assert_true(json_is_integer(at(root, "totals.thread_instructions")));
        assert_levels_present(at(root, "totals"));
        json_t *launches = at(root, "launches"), *insns = at(root, "instructions"), *v;
        size_t j;
        assert_true(json_is_array(launches));
        assert_true(json_is_array(insns));
        json_array_foreach(launches, j, v) {
            assert_non_null(at(v, "kernel"));
            assert_int_equal(json_array_size(at(v, "grid")), 3);
            assert_int_equal(json_array_size(at(v, "block")), 3);
            assert_true(json_is_integer(at(v, "warp_instructions")));
            assert_true(json_is_integer(at(v, "thread_instructions")));
            assert_levels_present(v);
        }
        json_array_foreach(insns, j, v) {
            assert_non_null(at(v, "kernel"));
            assert_true(json_is_integer(at(v, "ptx_line")));
            assert_true(json_is_string(at(v, "source")) || json_is_null(at(v, "source")));
            assert_true(json_is_string(at(v, "text")));
            assert_true(json_integer_value(at(v, "executions")) > 0);
            assert_levels_present(v);
        }
        json_decref(root);
    }
}

static void test_json_values(void **state)
{
    (void)state;
    json_t *root = parse_report(&single_model);
    assert_string_equal(json_string_value(at(root, "gpu")), "h100");
    assert_count_at(root, "totals.warp_instructions", 12288);
    assert_count_at(root, "totals.thread_instructions", 393216);
    assert_count_at(root, "totals.l1.requests", 512);
    assert_count_at(root, "totals.l1.sector_accesses", 2048);
    assert_count_at(root, "totals.l1.sector_hits", 0);
    assert_count_at(root, "totals.l1.sector_misses", 2048);
    assert_count_at(root, "totals.l2.sector_accesses", 4096);
    assert_count_at(root, "totals.l2.sector_hits", 2048);
    assert_count_at(root, "totals.l2.writeback_bytes", 32768);
    assert_count_at(root, "totals.l2.classes.first", 12);
    assert_count_at(root, "totals.l2.classes.normal", 300);
    assert_count_at(root, "totals.dram.read_bytes", 65536);
    assert_count_at(root, "totals.dram.write_bytes", 32768);
    assert_count_at(root, "totals.icache.misses", 8);
    assert_true(json_real_value(at(root, "totals.l2.hit_rate")) == 0.5);
    assert_true(json_real_value(at(root, "totals.l1.hit_rate")) == 0.0);
    assert_false(json_is_true(at(root, "hints_stripped")));

    json_t *launch = json_array_get(at(root, "launches"), 0);
    assert_string_equal(json_string_value(at(launch, "kernel")), "saxpy");
    assert_int_equal(json_integer_value(json_array_get(at(launch, "grid"), 0)), 64);
    assert_int_equal(json_integer_value(json_array_get(at(launch, "block"), 0)), 256);
    assert_int_equal(json_integer_value(json_array_get(at(launch, "block"), 2)), 1);
    assert_null(json_object_get(launch, "seconds")); /* host time is not deterministic */

    /* Five of six instructions executed; they keep the model's order. */
    json_t *insns = at(root, "instructions");
    assert_int_equal(json_array_size(insns), 5);
    json_t *ld = json_array_get(insns, 1);
    assert_count_at(ld, "id", 1);
    assert_count_at(ld, "ptx_line", 31);
    assert_string_equal(json_string_value(at(ld, "source")), "/home/dev/saxpy.cu:7");
    assert_string_equal(json_string_value(at(ld, "text")), "ld.global.cs.f32 %f1, [%rd8];");
    assert_count_at(ld, "misses", 2048);
    assert_count_at(ld, "l1.sector_misses", 1024);
    assert_null(json_object_get(at(ld, "l2"), "classes"));
    json_t *st = json_array_get(insns, 3);
    assert_count_at(st, "id", 3);
    assert_true(json_is_null(at(st, "source")));
    assert_count_at(json_array_get(insns, 4), "id", 5);
    json_decref(root);
}

/* Zero accesses: the rate is null, never a division by zero. */
static void test_json_empty_and_multi(void **state)
{
    (void)state;
    json_t *root = parse_report(&empty_model);
    assert_true(json_is_null(at(root, "totals.l1.hit_rate")));
    assert_true(json_is_null(at(root, "totals.l2.hit_rate")));
    assert_true(json_is_null(at(root, "totals.constant.hit_rate")));
    assert_true(json_is_null(at(root, "gpu")));
    assert_int_equal(json_array_size(at(root, "launches")), 0);
    assert_int_equal(json_array_size(at(root, "instructions")), 0);
    json_decref(root);

    root = parse_report(&multi_model);
    assert_true(json_is_true(at(root, "hints_stripped")));
    assert_count_at(root, "l2_persisting_bytes", 4 << 20);
    assert_count_at(root, "totals.shared.bank_conflicts", 4096);
    assert_count_at(root, "totals.l2.classes.peak_last", 200);
    assert_count_at(root, "totals.printf_bad_strings", 3);
    assert_count_at(json_array_get(at(root, "launches"), 0), "printf_bad_strings", 0);
    assert_count_at(json_array_get(at(root, "launches"), 2), "printf_bad_strings", 3);
    json_decref(root);
}

static void test_json_clamp_and_bad_utf8(void **state)
{
    (void)state;
    report_insn insn = {.id = 1, .kernel = "k\xff", .ptx_line = 2, .text = "ld\xc3(",
                        .executions = UINT64_MAX};
    report_model m = {.gpu = "h100", .insns = &insn, .ninsns = 1};
    m.totals.dram.read_bytes = (uint64_t)INT64_MAX + 1;
    json_t *root = parse_report(&m);
    assert_count_at(root, "totals.dram.read_bytes", INT64_MAX);
    json_t *v = json_array_get(at(root, "instructions"), 0);
    assert_count_at(v, "executions", INT64_MAX);
    assert_string_equal(json_string_value(at(v, "kernel")), "k?");
    assert_string_equal(json_string_value(at(v, "text")), "ld?(");
    json_decref(root);
    assert_null(report_to_json(NULL));
}

/* jansson's allocator fails the N-th allocation; each N must give NULL without a leak (run under
 * ASan to check the leak half), and a large enough N must succeed. */
static long allocations_left;

static void *failing_malloc(size_t n)
{
    if (allocations_left-- <= 0)
        return NULL;
    return malloc(n);
}

static void test_json_out_of_memory(void **state)
{
    (void)state;
    char *reference = report_to_json(&multi_model);
    assert_non_null(reference);
    json_set_alloc_funcs(failing_malloc, free);
    long n;
    char *text = NULL;
    for (n = 0; n < 100000; n++) {
        allocations_left = n;
        text = report_to_json(&multi_model);
        if (text)
            break;
    }
    json_set_alloc_funcs(malloc, free);
    assert_true(n > 100); /* many allocations were each made to fail in turn */
    assert_non_null(text);
    assert_string_equal(text, reference);
    free(text);
    free(reference);
}

static void test_json_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/gms_report_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    diag_list dl;
    diag_list_init(&dl);

    assert_int_equal(report_write_json_file(&single_model, path, &dl), REPORT_OK);
    assert_int_equal(dl.count, 0);
    char *written = read_whole(path), *expected = report_to_json(&single_model);
    assert_non_null(written);
    assert_string_equal(written, expected);
    free(written);
    free(expected);
    /* Overwrite in place: the new content replaces the old one entirely. */
    assert_int_equal(report_write_json_file(&empty_model, path, &dl), REPORT_OK);
    written = read_whole(path);
    expected = report_to_json(&empty_model);
    assert_string_equal(written, expected);
    free(written);
    free(expected);
    assert_int_equal(unlink(path), 0);

    snprintf(path, sizeof path, "%s/no/such/folder/stats.json", dir);
    assert_int_equal(report_write_json_file(&single_model, path, &dl), REPORT_ERR_IO);
    assert_int_equal(dl.errors, 1);
    const diag *d = diag_find(&dl, "REPORT-IO-001");
    assert_non_null(d);
    assert_string_equal(d->file, path);
    assert_non_null(strstr(d->message, "No such file or directory"));
    assert_int_equal(rmdir(dir), 0); /* empty: no temporary file was left behind */

    assert_int_equal(report_write_json_file(NULL, path, &dl), REPORT_ERR_INVALID);
    assert_int_equal(report_write_json_file(&single_model, NULL, &dl), REPORT_ERR_INVALID);
    assert_int_equal(dl.count, 1);
    diag_list_fini(&dl);
}

/* ---- text ------------------------------------------------------------------------------------ */

static void test_text_sections(void **state)
{
    (void)state;
    char *text = text_report(&empty_model, 10);
    /* No accesses: every rate is "-", and nothing missed. */
    assert_non_null(strstr(text, "\nL1               0        0     0       0         -          0"
                                 "         0 B\n"));
    assert_non_null(strstr(text, "\nL2               -        0     0       0         -          0"
                                 "         0 B\n"));
    assert_non_null(strstr(text, "icache    fetches 0   hits 0   misses 0   hit rate -\n"));
    assert_non_null(strstr(text, "hottest instructions by L1 + L2 sector misses: none missed\n"));
    assert_null(strstr(text, "per launch"));
    assert_null(strstr(text, " \n")); /* no trailing spaces */
    free(text);

    text = text_report(&single_model, 0); /* top_n 0 leaves the section out */
    assert_null(strstr(text, "hottest"));
    assert_non_null(strstr(text, "kernel: saxpy   grid (64,1,1)   block (256,1,1)\n"));
    assert_null(strstr(text, "printf bad strings")); /* only shown when there were some */
    free(text);

    text = text_report(&multi_model, 3);
    assert_non_null(strstr(text, "(3 of 4 that missed)"));
    assert_non_null(strstr(text, "cache hints stripped"));
    assert_non_null(strstr(text, "\nprintf bad strings: 3 (%s arguments with a NULL, unreadable "
                                 "or unterminated pointer)\n"));
    assert_non_null(strstr(text, "ld.shared.f32 %f7")); /* the tab became a space */
    assert_non_null(strstr(text, "per launch:\n"));
    assert_null(strstr(text, " \n"));
    free(text);
}

static void test_text_errors(void **state)
{
    (void)state;
    assert_int_equal(report_write_text(NULL, 1, stdout), REPORT_ERR_INVALID);
    assert_int_equal(report_write_text(&single_model, 1, NULL), REPORT_ERR_INVALID);
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    assert_int_equal(report_write_text(&single_model, 5, full), REPORT_ERR_IO);
    fclose(full);
}

static void test_golden(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const report_model *model;
        size_t top_n;
    } runs[] = {{"single", &single_model, 10}, {"multi", &multi_model, 3},
                {"empty", &empty_model, 10}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char name[64];
        char *text = text_report(runs[i].model, runs[i].top_n);
        snprintf(name, sizeof name, "report_%s.txt", runs[i].name);
        check_golden(name, text);
        free(text);
        text = report_to_json(runs[i].model);
        assert_non_null(text);
        snprintf(name, sizeof name, "report_%s.json", runs[i].name);
        check_golden(name, text);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_count),
        cmocka_unit_test(test_format_bytes),
        cmocka_unit_test(test_format_rate),
        cmocka_unit_test(test_hottest_order_and_ties),
        cmocka_unit_test(test_json_stable_keys),
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_json_empty_and_multi),
        cmocka_unit_test(test_json_clamp_and_bad_utf8),
        cmocka_unit_test(test_json_out_of_memory),
        cmocka_unit_test(test_json_file),
        cmocka_unit_test(test_text_sections),
        cmocka_unit_test(test_text_errors),
        cmocka_unit_test(test_golden),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
