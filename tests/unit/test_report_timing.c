/* Unit tests for the timing part of src/report and its Nsight Compute metric mapping: the derived
 * figures (IPC, occupancy, time, bandwidth per level, stall shares) of synthetic timing_stats with
 * exact expected values, the "timing", "stalls" and "ncu" keys of the JSON report, the text
 * report's timing section, stall columns and lines by stall cycles, functional runs without any
 * of it, and the metric table itself (unique names, every row documented in docs/statistics.md).
 *
 * Golden files: tests/golden/report_timing.{txt,json} (GMS_UPDATE_GOLDEN=1 rewrites them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/report.h"

#ifndef GMS_SOURCE_DIR
#error "GMS_SOURCE_DIR must name the repository root"
#endif

/* ---- a synthetic timed run ------------------------------------------------------------------- */

/* One launch on 100 SMs of 64 warp slots at 1000 MHz: 10,000 cycles, 1,000,000 SM active cycles,
 * 16,000,000 resident warp-cycles (occupancy 25 %), 500,000 warp instructions (IPC 0.5). */
static report_insn insns[5];
static report_launch launches[3];
static report_model model;

static void set_stall(uint64_t *stalls, timing_stall r, uint64_t cycles)
{
    stalls[r] = cycles;
}

static void build_insns(void)
{
    memset(insns, 0, sizeof insns);
    report_insn *i = insns;
    i[0] = (report_insn){.id = 4, .kernel = "saxpy", .ptx_line = 31, .source_file = "/src/saxpy.cu",
                         .source_line = 7, .text = "ld.global.f32 %f1, [%rd8];",
                         .executions = 1000};
    i[0].counters.l1 = (mem_l1_counters){.requests = 1000, .sector_accesses = 4000,
                                         .sector_misses = 4000};
    set_stall(i[0].stalls, TIMING_STALL_LONG_SCOREBOARD, 11000000);
    set_stall(i[0].stalls, TIMING_STALL_SELECTED, 100000);
    i[1] = (report_insn){.id = 6, .kernel = "saxpy", .ptx_line = 33, .source_file = "/src/saxpy.cu",
                         .source_line = 7, .text = "ld.global.f32 %f2, [%rd10];",
                         .executions = 1000};
    i[1].counters.l1 = (mem_l1_counters){.requests = 1000, .sector_accesses = 4000,
                                         .sector_misses = 2000, .sector_hits = 2000};
    set_stall(i[1].stalls, TIMING_STALL_LONG_SCOREBOARD, 1000000);
    set_stall(i[1].stalls, TIMING_STALL_NOT_SELECTED, 500000);
    i[2] = (report_insn){.id = 9, .kernel = "saxpy", .ptx_line = 40, .text = "bar.sync 0;",
                         .executions = 1000};
    set_stall(i[2].stalls, TIMING_STALL_BARRIER, 2000000);
    i[3] = (report_insn){.id = 7, .kernel = "saxpy", .ptx_line = 34, .source_file = "/src/saxpy.cu",
                         .source_line = 8, .text = "fma.rn.f32 %f3, %f1, %f2, %f0;",
                         .executions = 1000};
    set_stall(i[3].stalls, TIMING_STALL_NOT_SELECTED, 1000000);
    set_stall(i[3].stalls, TIMING_STALL_SELECTED, 400000);
    i[4] = (report_insn){.id = 12, .kernel = "saxpy", .ptx_line = 50, .text = "ret;",
                         .executions = 0}; /* never ran: in no table */
    set_stall(i[4].stalls, TIMING_STALL_WAIT, 99999999);
}

static timing_stats timed(uint64_t cycles, uint64_t active, uint64_t resident)
{
    timing_stats t;
    memset(&t, 0, sizeof t);
    t.enabled = 1;
    t.cycles = cycles;
    t.sm_active_cycles = active;
    t.warp_resident_cycles = resident;
    t.max_warps_per_sm = 64;
    t.sm_count = 100;
    t.clock_mhz = 1000.0;
    return t;
}

static void build_model(void)
{
    build_insns();
    memset(launches, 0, sizeof launches);
    report_launch *l = &launches[0];
    *l = (report_launch){.kernel = "saxpy", .grid = {400, 1, 1}, .block = {256, 1, 1},
                         .warp_instructions = 500000, .thread_instructions = 16000000,
                         .thread_instructions_pred_on = 15000000};
    l->counters.l1 = (mem_l1_counters){.requests = 2000, .sector_accesses = 20000,
                                       .sector_hits = 2000, .sector_misses = 18000};
    l->counters.l2 = (mem_l2_counters){.sector_accesses = 10000, .sector_hits = 2500,
                                       .sector_misses = 7500};
    l->counters.dram = (mem_dram_counters){200000, 56000};
    l->counters.shared = (mem_shared_counters){.requests = 500, .wavefronts = 1000,
                                               .bank_conflicts = 500};
    l->timing = timed(10000, 1000000, 16000000);
    set_stall(l->timing.stalls, TIMING_STALL_SELECTED, 500000);
    set_stall(l->timing.stalls, TIMING_STALL_LONG_SCOREBOARD, 12000000);
    set_stall(l->timing.stalls, TIMING_STALL_NOT_SELECTED, 1500000);
    set_stall(l->timing.stalls, TIMING_STALL_BARRIER, 2000000);
    model = (report_model){.gpu = "h100", .launch_file = "t.json", .module = "k/saxpy.ptx",
                           .launches = launches, .nlaunches = 1,
                           .warp_instructions = 500000, .thread_instructions = 16000000,
                           .thread_instructions_pred_on = 15000000, .timing = 1,
                           .totals = l->counters, .insns = insns, .ninsns = 5};
}

static int setup(void **state)
{
    (void)state;
    build_model();
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
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void check_golden(const char *name, const char *actual)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s", GMS_SOURCE_DIR, name);
    const char *update = getenv("GMS_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_true(fputs(actual, f) >= 0);
        assert_int_equal(fclose(f), 0);
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

/* Value at a dotted path; a key may contain dots when written as "a.b|key.with.dots". */
static json_t *at(json_t *node, const char *path)
{
    char key[160];
    const char *full = path;
    while (node && *path) {
        size_t n = strcspn(path, *path == '|' ? "" : ".|");
        if (*path == '|') {
            path++;
            n = strlen(path);
        }
        assert_true(n < sizeof key);
        memcpy(key, path, n);
        key[n] = '\0';
        node = json_object_get(node, key);
        path += n;
        if (*path == '.')
            path++;
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

static void assert_real_at(json_t *root, const char *path, double expected)
{
    json_t *v = at(root, path);
    if (!json_is_real(v))
        fail_msg("%s is not a real", path);
    if (fabs(json_real_value(v) - expected) > 1e-9 * fabs(expected))
        fail_msg("%s is %.17g, expected %.17g", path, json_real_value(v), expected);
}

/* ---- derived figures ------------------------------------------------------------------------- */

static void test_derive(void **state)
{
    (void)state;
    report_timing d;
    const report_launch *l = &launches[0];
    report_timing_derive(&model, &l->timing, &l->counters, l->warp_instructions, &d);
    assert_true(d.ipc == 0.5);
    assert_true(d.achieved_occupancy == 0.25);
    assert_true(fabs(d.seconds_at_clock - 1e-5) < 1e-18);
    assert_int_equal(d.l1.bytes, 640000); /* 20,000 sectors of 32 bytes */
    assert_true(d.l1.bytes_per_cycle == 64.0);
    assert_true(fabs(d.l1.gb_per_s - 64.0) < 1e-9);
    assert_int_equal(d.l2.bytes, 320000);
    assert_int_equal(d.dram.bytes, 256000);
    assert_true(d.dram.bytes_per_cycle == 25.6);
    assert_int_equal(d.shared.bytes, 128000); /* 1,000 wavefronts of 128 bytes */
    assert_int_equal(d.stall_total, 16000000);
    assert_true(d.stall_shares[TIMING_STALL_LONG_SCOREBOARD] == 0.75);
    assert_true(d.stall_shares[TIMING_STALL_BARRIER] == 0.125);
    assert_true(d.stall_shares[TIMING_STALL_SELECTED] == 0.03125);
    assert_true(d.stall_shares[TIMING_STALL_WAIT] == 0.0);

    /* The preset's sector size counts: 64-byte L2 sectors double the L2 bytes. */
    report_model wide = model;
    wide.l2_sector_bytes = 64;
    report_timing_derive(&wide, &l->timing, &l->counters, l->warp_instructions, &d);
    assert_int_equal(d.l2.bytes, 640000);

    /* Zero divisors give NaN, never a division by zero. */
    timing_stats idle;
    memset(&idle, 0, sizeof idle);
    idle.enabled = 1;
    report_timing_derive(NULL, &idle, &l->counters, 7, &d);
    assert_true(isnan(d.ipc));
    assert_true(isnan(d.achieved_occupancy));
    assert_true(isnan(d.seconds_at_clock));
    assert_true(isnan(d.l1.bytes_per_cycle));
    assert_true(isnan(d.l1.gb_per_s));
    assert_true(isnan(d.stall_shares[0]));
    assert_int_equal(d.l1.bytes, 640000); /* NULL model: 32-byte sectors */
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static void test_json_timing(void **state)
{
    (void)state;
    json_t *root = parse_report(&model);
    assert_string_equal(json_string_value(at(root, "schema")), "gpumemsim-stats/2");
    json_t *l = json_array_get(at(root, "launches"), 0);
    assert_count_at(l, "thread_instructions_pred_on", 15000000);
    assert_count_at(root, "totals.thread_instructions_pred_on", 15000000);
    assert_count_at(l, "timing.cycles", 10000);
    assert_count_at(l, "timing.sm_active_cycles", 1000000);
    assert_count_at(l, "timing.warp_resident_cycles", 16000000);
    assert_real_at(l, "timing.ipc", 0.5);
    assert_real_at(l, "timing.achieved_occupancy", 0.25);
    assert_real_at(l, "timing.clock_mhz", 1000.0);
    assert_real_at(l, "timing.seconds_at_clock", 1e-5);
    assert_count_at(l, "timing.bandwidth.l1.bytes", 640000);
    assert_real_at(l, "timing.bandwidth.l1.bytes_per_cycle", 64.0);
    assert_real_at(l, "timing.bandwidth.l1.gb_per_s", 64.0);
    assert_count_at(l, "timing.bandwidth.l2.bytes", 320000);
    assert_real_at(l, "timing.bandwidth.l2.gb_per_s", 32.0);
    assert_count_at(l, "timing.bandwidth.dram.bytes", 256000);
    assert_real_at(l, "timing.bandwidth.dram.bytes_per_cycle", 25.6);
    assert_count_at(l, "timing.bandwidth.shared.bytes", 128000);
    assert_real_at(l, "timing.bandwidth.shared.gb_per_s", 12.8);
    assert_count_at(l, "timing.stalls.long_scoreboard", 12000000);
    assert_count_at(l, "timing.stalls.wait", 0);
    assert_int_equal(json_object_size(at(l, "timing.stalls")), TIMING_STALL_COUNT);
    assert_real_at(l, "timing.stall_shares.long_scoreboard", 0.75);
    assert_real_at(l, "timing.stall_shares.not_selected", 0.09375);
    assert_real_at(l, "timing.stall_shares.wait", 0.0);

    /* Per instruction: every reason, the never-executed one left out. */
    json_t *insns_json = at(root, "instructions");
    assert_int_equal(json_array_size(insns_json), 4);
    json_t *ld = json_array_get(insns_json, 0);
    assert_count_at(ld, "stalls.long_scoreboard", 11000000);
    assert_count_at(ld, "stalls.selected", 100000);
    assert_int_equal(json_object_size(at(ld, "stalls")), TIMING_STALL_COUNT);
    json_decref(root);
}

static void test_json_ncu(void **state)
{
    (void)state;
    json_t *root = parse_report(&model);
    json_t *l = json_array_get(at(root, "launches"), 0);
    assert_count_at(l, "ncu|launch__grid_size", 400);
    assert_count_at(l, "ncu|launch__block_size", 256);
    assert_count_at(l, "ncu|smsp__inst_executed.sum", 500000);
    assert_count_at(l, "ncu|smsp__thread_inst_executed_pred_on.sum", 15000000);
    assert_count_at(l, "ncu|l1tex__t_sectors.sum", 20000);
    assert_count_at(l, "ncu|l1tex__t_bytes.sum", 640000);
    assert_real_at(l, "ncu|l1tex__t_sector_hit_rate.pct", 10.0);
    assert_real_at(l, "ncu|lts__t_sector_hit_rate.pct", 25.0);
    assert_count_at(l, "ncu|dram__bytes_read.sum", 200000);
    assert_count_at(l, "ncu|dram__sectors_write.sum", 1750);
    assert_count_at(l, "ncu|l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 500);
    assert_count_at(l, "ncu|sm__cycles_elapsed.max", 10000);
    assert_count_at(l, "ncu|sm__cycles_active.sum", 1000000);
    assert_real_at(l, "ncu|sm__cycles_active.avg", 10000.0);
    assert_count_at(l, "ncu|sm__warps_active.sum", 16000000);
    assert_real_at(l, "ncu|sm__warps_active.avg.pct_of_peak_sustained_active", 25.0);
    assert_real_at(l, "ncu|sm__inst_executed.avg.per_cycle_active", 0.5);
    assert_real_at(l, "ncu|sm__inst_executed.avg.per_cycle_elapsed", 0.5);
    assert_real_at(l, "ncu|gpu__time_duration.sum", 10000.0);
    assert_real_at(l, "ncu|dram__bytes.sum.per_second", 2.56e10);
    assert_real_at(l, "ncu|lts__t_bytes.sum.per_second", 3.2e10);
    assert_real_at(l, "ncu|smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", 75.0);
    assert_real_at(l, "ncu|smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct", 0.0);
    assert_real_at(l, "ncu|smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct", 0.0);
    assert_real_at(l, "ncu|smsp__warp_issue_stalled_selected_per_warp_active.pct", 3.125);
    assert_int_equal(json_object_size(at(l, "ncu")), report_ncu_count());
    json_decref(root);
}

/* Functional mode: no "timing", no per-instruction "stalls", no timing metric; the rest of
 * "ncu" is there. A ratio with a zero divisor is null. */
static void test_json_functional(void **state)
{
    (void)state;
    report_model m = model;
    report_launch l = launches[0];
    memset(&l.timing, 0, sizeof l.timing);
    memset(&l.counters.l2, 0, sizeof l.counters.l2);
    m.launches = &l;
    m.timing = 0;
    json_t *root = parse_report(&m);
    json_t *jl = json_array_get(at(root, "launches"), 0);
    assert_null(json_object_get(jl, "timing"));
    assert_null(json_object_get(json_array_get(at(root, "instructions"), 0), "stalls"));
    json_t *ncu = at(jl, "ncu");
    assert_null(json_object_get(ncu, "sm__cycles_elapsed.max"));
    assert_null(json_object_get(ncu, "gpu__time_duration.sum"));
    assert_null(json_object_get(ncu, "smsp__warp_issue_stalled_barrier_per_warp_active.pct"));
    assert_true(json_is_null(at(jl, "ncu|lts__t_sector_hit_rate.pct")));
    assert_count_at(jl, "ncu|dram__bytes_write.sum", 56000);
    size_t functional = 0;
    for (size_t i = 0; i < report_ncu_count(); i++)
        functional += !report_ncu_metric_at(i)->needs_timing;
    assert_int_equal(json_object_size(ncu), functional);
    json_decref(root);

    /* Timing on but nothing resident: the shares and rates are null, the counts 0. */
    l.timing = timed(0, 0, 0);
    m.timing = 1;
    root = parse_report(&m);
    jl = json_array_get(at(root, "launches"), 0);
    assert_true(json_is_null(at(jl, "timing.ipc")));
    assert_true(json_is_null(at(jl, "timing.stall_shares.selected")));
    assert_true(json_is_null(at(jl, "timing.bandwidth.dram.gb_per_s")));
    assert_true(json_is_null(at(jl, "ncu|sm__inst_executed.avg.per_cycle_active")));
    assert_count_at(jl, "ncu|sm__cycles_elapsed.max", 0);
    json_decref(root);
}

/* ---- the metric table ------------------------------------------------------------------------ */

static void test_ncu_table(void **state)
{
    (void)state;
    size_t n = report_ncu_count();
    assert_true(n >= 40);
    assert_null(report_ncu_metric_at(n));
    for (size_t i = 0; i < n; i++) {
        const report_ncu_metric *mi = report_ncu_metric_at(i);
        assert_non_null(mi);
        assert_true(strlen(mi->name) > 4 && strlen(mi->unit) > 0 && strlen(mi->how) > 0);
        assert_int_equal(report_ncu_find(mi->name), i); /* names are unique */
        for (const char *p = mi->name; *p; p++)
            assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
                        *p == '.');
    }
    assert_true(report_ncu_find("no_such__metric.sum") == (size_t)-1);
    assert_true(report_ncu_find(NULL) == (size_t)-1);
    /* The metrics the issue names. */
    static const char *const named[] = {
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "lts__t_sector_hit_rate.pct",
        "dram__bytes_read.sum", "smsp__thread_inst_executed_pred_on.sum",
        "sm__cycles_elapsed.max"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (report_ncu_find(named[i]) == (size_t)-1)
            fail_msg("%s is not in the mapping", named[i]);
    report_ncu_value v;
    assert_int_equal(report_ncu_evaluate(&model, &launches[0], n, &v), REPORT_NCU_ABSENT);
    assert_int_equal(report_ncu_evaluate(&model, NULL, 0, &v), REPORT_NCU_ABSENT);
    assert_int_equal(report_ncu_evaluate(NULL, &launches[0], 0, NULL), REPORT_NCU_INTEGER);
}

/* docs/statistics.md lists every metric of the table, each in backquotes. */
static void test_ncu_documented(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/statistics.md", GMS_SOURCE_DIR);
    char *doc = read_whole(path);
    assert_non_null(doc);
    for (size_t i = 0; i < report_ncu_count(); i++) {
        char quoted[200];
        snprintf(quoted, sizeof quoted, "`%s`", report_ncu_metric_at(i)->name);
        if (!strstr(doc, quoted))
            fail_msg("docs/statistics.md does not list %s", quoted);
    }
    free(doc);
}

/* ---- text ------------------------------------------------------------------------------------ */

static void test_text_timing(void **state)
{
    (void)state;
    char *text = text_report(&model, 10);
    assert_non_null(strstr(text, "\ntiming:\ncycles 10,000   SM active cycles 1,000,000   IPC 0.50"
                                 "   achieved occupancy 25.0%\n"));
    assert_non_null(
        strstr(text, "\ntime at 1000 MHz: 10.000 us   (100 SMs, 64 warp slots each)\n"));
    assert_non_null(strstr(text, "\nDRAM      250.0 KiB        25.60  25.6\n"));
    assert_non_null(strstr(text, "\nlong_scoreboard   12,000,000  75.0%  waiting for the result of a "
                                 "global, local, texture or surface access\n"));
    assert_null(strstr(text, "\nwait ")); /* reasons without cycles are left out */
    /* The hottest table gains the instruction's share of stall cycles and its top reason. */
    assert_non_null(strstr(text, "stalls  top stall"));
    assert_non_null(strstr(text, "  71.0%  long_scoreboard 100.0%  saxpy.ptx:31"));
    /* Lines: saxpy.cu:7 holds 12.5 of 15.5 million stall cycles in two instructions. */
    assert_non_null(strstr(text, "lines by warp stall cycles (3 of 3 that stalled):\n"));
    assert_non_null(strstr(text, "  1   80.6%   12,500,000  long_scoreboard 96.0%  saxpy.cu:7"));
    assert_non_null(strstr(text, "saxpy.ptx:40")); /* bar.sync has no .loc: its kernel line */
    assert_null(strstr(text, " \n"));
    free(text);
}

/* Functional mode prints no timing at all: the section, the stall columns and the lines table
 * are absent. */
static void test_text_functional(void **state)
{
    (void)state;
    report_model m = model;
    report_launch l = launches[0];
    memset(&l.timing, 0, sizeof l.timing);
    m.launches = &l;
    m.timing = 0;
    char *text = text_report(&m, 10);
    assert_null(strstr(text, "timing"));
    assert_null(strstr(text, "top stall"));
    assert_null(strstr(text, "lines by warp stall"));
    assert_null(strstr(text, "IPC"));
    free(text);
}

/* Several launches: a row each (a launch without the model shows "-"), then the sums. */
static void test_text_multi(void **state)
{
    (void)state;
    report_model m = model;
    launches[1] = launches[0];
    launches[1].kernel = "scale";
    launches[1].timing = timed(30000, 3000000, 48000000);
    set_stall(launches[1].timing.stalls, TIMING_STALL_MEMORY_THROTTLE, 48000000);
    launches[2] = launches[0];
    launches[2].kernel = "plain";
    memset(&launches[2].timing, 0, sizeof launches[2].timing);
    m.nlaunches = 3;
    char *text = text_report(&m, 2);
    if (getenv("GMS_SHOW_REPORT"))
        fprintf(stderr, "%s", text);
    assert_non_null(strstr(text, "timing per launch:\n"));
    assert_non_null(strstr(text, "\n  1  saxpy   10,000  0.50      25.0%     32.0       25.6  "
                                 "long_scoreboard 77.4%\n"));
    assert_non_null(strstr(text, "\n  2  scale   30,000  0.17      25.0%     10.7        8.5  "
                                 "memory_throttle 100.0%\n"));
    assert_non_null(
        strstr(text, "\n  3  plain        -     -          -        -          -  -\n"));
    assert_non_null(strstr(text, "timing over the 2 launches with timing:\ncycles 40,000   SM "
                                 "active cycles 4,000,000   IPC 0.25   achieved occupancy "
                                 "25.0%\n"));
    assert_non_null(strstr(text, "lines by warp stall cycles (2 of 3 that stalled):\n"));
    assert_null(strstr(text, " \n"));
    free(text);
    build_model();
}

/* jansson's allocator fails the N-th allocation: the timing, stalls and ncu builders pass every
 * failure up (NULL, no leak under ASan), and a large enough N gives the full report. */
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
    char *reference = report_to_json(&model);
    assert_non_null(reference);
    json_set_alloc_funcs(failing_malloc, free);
    long n;
    char *text = NULL;
    for (n = 0; n < 100000; n++) {
        allocations_left = n;
        text = report_to_json(&model);
        if (text)
            break;
    }
    json_set_alloc_funcs(malloc, free);
    assert_true(n > 200); /* the timing and ncu objects add many allocations */
    assert_non_null(text);
    assert_string_equal(text, reference);
    free(text);
    free(reference);
}

static void test_golden(void **state)
{
    (void)state;
    char *text = text_report(&model, 10);
    check_golden("report_timing.txt", text);
    free(text);
    text = report_to_json(&model);
    assert_non_null(text);
    check_golden("report_timing.json", text);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_derive),          cmocka_unit_test(test_json_timing),
        cmocka_unit_test(test_json_ncu),        cmocka_unit_test(test_json_functional),
        cmocka_unit_test(test_ncu_table),       cmocka_unit_test(test_ncu_documented),
        cmocka_unit_test(test_text_timing),     cmocka_unit_test(test_text_functional),
        cmocka_unit_test(test_text_multi),      cmocka_unit_test(test_json_out_of_memory),
        cmocka_unit_test(test_golden),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
