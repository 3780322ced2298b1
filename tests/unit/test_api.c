/* Unit tests of the public C API (include/gpumemsim/gpumemsim.h, docs/api.md), using nothing but
 * the public header: saxpy of examples/saxpy/ end to end with exact values and the exact counters
 * of `gpumemsim run examples/saxpy/saxpy.json --json`, module variables, and every error status
 * with its rule id and location. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumemsim/gpumemsim.h"

#define SAXPY_PATH GMS_SOURCE_DIR "/examples/saxpy/saxpy.ptx"
#define SAXPY "_Z5saxpyifPKfPf" /* saxpy(int n, float a, const float *x, float *y) */
enum { N = 4096, BLOCK = 256 };

/* The whole of a text file, NUL-terminated; *len gets its bytes. */
static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = malloc(1 << 20);
    assert_non_null(text);
    *len = fread(text, 1, (1 << 20) - 1, f);
    text[*len] = '\0';
    fclose(f);
    return text;
}

/* A device with saxpy loaded from its text, as the tests below start. */
typedef struct fixture {
    gms_device *dev;
    gms_module *m;
    gms_diag_list *dl;
    uint64_t x, y; /* N floats each */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dl = gms_diag_list_create();
    size_t len;
    char *text = read_text(SAXPY_PATH, &len);
    assert_int_equal(gms_device_create("h100", &f->dev, f->dl), GMS_OK);
    assert_int_equal(gms_module_load(f->dev, "saxpy.ptx", text, len, NULL, &f->m, f->dl),
                     GMS_OK);
    free(text);
    assert_int_equal(gms_device_alloc(f->dev, N * sizeof(float), &f->x, f->dl), GMS_OK);
    assert_int_equal(gms_device_alloc(f->dev, N * sizeof(float), &f->y, f->dl), GMS_OK);
    assert_int_equal(gms_diag_list_count(f->dl), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    gms_device_destroy(f->dev);
    gms_diag_list_destroy(f->dl);
    free(f);
    return 0;
}

/* saxpy's launch over n elements with `nargs` of its four arguments. */
static gms_launch_config saxpy_launch(const fixture *f, uint32_t n, gms_arg *args, size_t nargs)
{
    args[0] = gms_arg_u32(n);
    args[1] = gms_arg_f32(2.0f);
    args[2] = gms_arg_address(f->x);
    args[3] = gms_arg_address(f->y);
    gms_launch_config c = {.grid = {(n + BLOCK - 1) / BLOCK, 1, 1}, .block = {BLOCK, 1, 1},
                           .args = args, .nargs = nargs};
    return c;
}

/* The diagnostic of `rule` in the list (it must be there). */
static gms_diag find(const gms_diag_list *dl, const char *rule)
{
    long i = gms_diag_list_find(dl, rule);
    assert_true(i >= 0);
    gms_diag d;
    assert_int_equal(gms_diag_list_get(dl, (size_t)i, &d), GMS_OK);
    return d;
}

/* x[i] = i and y[i] = 3i into the fixture's buffers. */
static void write_inputs(fixture *f)
{
    static float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = (float)(3 * i);
    }
    assert_int_equal(gms_device_write(f->dev, f->x, x, sizeof x, f->dl), GMS_OK);
    assert_int_equal(gms_device_write(f->dev, f->y, y, sizeof y, f->dl), GMS_OK);
}

/* y = 2x + y on 4096 elements: every value exact (small integers), and the counters of the
 * launch those of the launch file examples/saxpy/saxpy.json (same buffers, same grid). */
static void test_saxpy_values_and_counters(void **state)
{
    fixture *f = *state;
    static float y[N];
    write_inputs(f);
    gms_arg args[4];
    gms_launch_config c = saxpy_launch(f, N, args, 4);
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_OK);
    assert_int_equal(gms_device_read(f->dev, f->y, y, sizeof y, f->dl), GMS_OK);
    for (int i = 0; i < N; i++)
        assert_true(y[i] == (float)(5 * i));
    assert_int_equal(gms_diag_list_count(f->dl), 0);

    assert_int_equal(gms_device_launch_count(f->dev), 1);
    gms_launch_stats s;
    assert_int_equal(gms_device_launch_stats(f->dev, 0, &s), GMS_OK);
    assert_string_equal(s.kernel, SAXPY);
    assert_int_equal(s.grid[0], 16);
    assert_int_equal(s.block[0], 256);
    assert_int_equal(s.warp_instructions, 2560);
    assert_int_equal(s.thread_instructions, 81920);
    assert_int_equal(s.counters.l1.requests, 384);
    assert_int_equal(s.counters.l1.sector_accesses, 1536);
    assert_int_equal(s.counters.l1.sector_hits, 512);
    assert_int_equal(s.counters.l1.sector_misses, 1024);
    assert_int_equal(s.counters.l2.sector_accesses, 1536);
    assert_int_equal(s.counters.l2.sector_hits, 512);
    assert_int_equal(s.counters.l2.sector_misses, 1024);
    assert_int_equal(s.counters.l2.lines_evict_normal, 256);
    assert_int_equal(s.counters.dram.read_bytes, 32768);
    assert_int_equal(s.counters.dram.write_bytes, 0);
    assert_int_equal(s.counters.constant.requests, 512);
    assert_int_equal(s.counters.icache.fetches, 384);
    assert_false(s.faulted);

    /* The read flushed the caches: the totals hold the write-back of y, as a run's do. */
    gms_totals t;
    assert_int_equal(gms_device_totals(f->dev, &t), GMS_OK);
    assert_int_equal(t.launches, 1);
    assert_int_equal(t.warp_instructions, 2560);
    assert_int_equal(t.counters.l2.writeback_bytes, 16384);
    assert_int_equal(t.counters.dram.write_bytes, 16384);
    assert_int_equal(t.counters.dram.read_bytes, 32768);

    char *json = NULL;
    assert_int_equal(gms_device_report(f->dev, GMS_REPORT_JSON, 0, NULL, &json, f->dl), GMS_OK);
    assert_non_null(strstr(json, "\"schema\": \"gpumemsim-stats/2\""));
    assert_non_null(strstr(json, "\"sector_accesses\": 1536"));
    gms_free(json);
    char *text = NULL;
    assert_int_equal(gms_device_report(f->dev, GMS_REPORT_TEXT, 2, "api", &text, f->dl), GMS_OK);
    assert_non_null(strstr(text, "saxpy.ptx:48"));
    gms_free(text);
    assert_int_equal(gms_device_fault(f->dev, &(gms_fault){0}), GMS_ERR_NOT_FOUND);
}

/* GMS_SET_THREADS: 0 to 1024. Launches on 1 and on 3 host threads give the same values,
 * counters and, under the timing model, the same cycles and stall reasons: in each mode the
 * second and third launches below find the same warm L2 (every line of x and y), one runs on 1
 * thread and the other on 3. */
static void test_threads(void **state)
{
    fixture *f = *state;
    static float y[N];
    write_inputs(f);
    assert_int_equal(gms_device_set(f->dev, GMS_SET_THREADS, 1025, f->dl), GMS_ERR_ARGUMENT);
    gms_arg args[4];
    gms_launch_config c = saxpy_launch(f, N, args, 4);
    gms_launch_stats s[6];
    for (unsigned k = 0; k < 6; k++) {
        if (k == 3)
            assert_int_equal(gms_device_set(f->dev, GMS_SET_TIMING, 0, f->dl), GMS_OK);
        assert_int_equal(gms_device_set(f->dev, GMS_SET_THREADS, k % 3 == 2 ? 3 : 1, f->dl),
                         GMS_OK);
        assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_OK);
        assert_int_equal(gms_device_launch_stats(f->dev, k, &s[k]), GMS_OK);
        assert_int_equal(s[k].warp_instructions, 2560);
    }
    assert_int_equal(gms_device_read(f->dev, f->y, y, sizeof y, f->dl), GMS_OK);
    for (int i = 0; i < N; i++)
        assert_true(y[i] == (float)(15 * i));
    for (unsigned k = 1; k < 6; k += 3) {
        assert_int_equal(s[k].counters.l2.sector_hits, 1536);
        assert_memory_equal(&s[k].counters, &s[k + 1].counters, sizeof s[k].counters);
        assert_memory_equal(&s[k].timing, &s[k + 1].timing, sizeof s[k].timing);
    }
    assert_true(s[1].timing.cycles > 0);
    assert_int_equal(s[4].timing.cycles, 0);
}

static void test_unknown_preset(void **state)
{
    (void)state;
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create("h101", &dev, dl), GMS_ERR_CONFIG);
    assert_null(dev);
    gms_diag d = find(dl, "SIM-GPU-001");
    assert_int_equal(d.severity, GMS_ERROR);
    assert_string_equal(d.message,
                        "unknown GPU preset 'h101' (presets: h100, a100, v100, t4, gtx980, "
                        "pvc, pvc-2t, acm-g10)");
    gms_diag_list_destroy(dl);
}

/* A module with an unknown instruction on line 9: GMS_ERR_MODULE, the rule, the position, and no
 * module bound to the device. */
static void test_bad_ptx(void **state)
{
    (void)state;
    static const char text[] = ".version 8.0\n"
                               ".target sm_80\n"
                               ".address_size 64\n"
                               "\n"
                               ".visible .entry k()\n"
                               "{\n"
                               "\t.reg .b32 %r<3>;\n"
                               "\tmov.u32 %r1, 1;\n"
                               "\tbogus.u32 %r2, %r1;\n"
                               "\tret;\n"
                               "}\n";
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    gms_module *m = NULL;
    assert_int_equal(gms_device_create(NULL, &dev, dl), GMS_OK);
    assert_int_equal(gms_module_load(dev, "bad.ptx", text, sizeof text - 1, NULL, &m, dl),
                     GMS_ERR_MODULE);
    assert_null(m);
    gms_diag d = find(dl, "PTX-INSN-001");
    assert_string_equal(d.file, "bad.ptx");
    assert_int_equal(d.line, 9);
    assert_int_equal(d.col, 2);
    assert_string_equal(d.message, "unknown instruction 'bogus.u32'");
    /* The same text checked without a device; a file of no known dialect. */
    gms_diag_list_clear(dl);
    assert_int_equal(gms_module_check("bad.ptx", text, sizeof text - 1, NULL, dl),
                     GMS_ERR_MODULE);
    assert_true(gms_diag_list_find(dl, "PTX-INSN-001") >= 0);
    assert_int_equal(gms_module_load(dev, "bad.cu", text, sizeof text - 1, NULL, &m, dl),
                     GMS_ERR_MODULE);
    assert_true(gms_diag_list_find(dl, "SIM-DIALECT-001") >= 0);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

static void test_unknown_kernel(void **state)
{
    fixture *f = *state;
    gms_arg args[4];
    gms_launch_config c = saxpy_launch(f, N, args, 4);
    assert_int_equal(gms_module_launch(f->m, "saxpy", &c, f->dl), GMS_ERR_NOT_FOUND);
    gms_diag d = find(f->dl, "SIM-KERNEL-001");
    assert_string_equal(d.file, "saxpy.ptx");
    assert_string_equal(d.message, "kernel: no .entry named 'saxpy' in saxpy.ptx");
    assert_int_equal(gms_device_launch_count(f->dev), 0);
    gms_kernel_info k;
    assert_int_equal(gms_module_kernel_find(f->m, "saxpy", &k), GMS_ERR_NOT_FOUND);
    assert_int_equal(gms_module_kernel_count(f->m), 1);
    assert_int_equal(gms_module_kernel_at(f->m, 0, &k), GMS_OK);
    assert_string_equal(k.name, SAXPY);
    assert_int_equal(k.nparams, 4);
    /* saxpy(u32 n, f32 a, u64 x, u64 y): offsets follow each parameter's alignment. */
    gms_param_info p;
    assert_int_equal(gms_module_kernel_param(f->m, SAXPY, 1, &p), GMS_OK);
    assert_int_equal(p.offset, 4);
    assert_int_equal(p.bytes, 4);
    assert_int_equal(gms_module_kernel_param(f->m, SAXPY, 2, &p), GMS_OK);
    assert_int_equal(p.offset, 8);
    assert_int_equal(p.bytes, 8);
    assert_int_equal(p.align, 8);
    assert_int_equal(gms_module_kernel_param(f->m, SAXPY, 4, &p), GMS_ERR_NOT_FOUND);
    assert_int_equal(gms_module_kernel_param(f->m, "saxpy", 0, &p), GMS_ERR_NOT_FOUND);
}

/* Arguments are checked against the kernel's parameters before anything runs; the diagnostics
 * point at the kernel (no origin given) or where the caller says. */
static void test_wrong_arguments(void **state)
{
    fixture *f = *state;
    gms_arg args[4];
    gms_launch_config c = saxpy_launch(f, N, args, 3);
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_ERR_ARGS);
    gms_diag d = find(f->dl, "SIM-ARGS-001");
    assert_string_equal(d.file, "saxpy.ptx");
    assert_int_equal(d.line, 15); /* the kernel's name in .entry */
    assert_int_equal(d.col, 17);
    assert_string_equal(d.message, "args has 3 arguments but kernel " SAXPY " takes 4 parameters");

    gms_diag_list_clear(f->dl);
    c = saxpy_launch(f, N, args, 4);
    args[0] = gms_arg_address(f->x); /* an address for the int n */
    args[1] = gms_arg_u32(2);        /* an integer for the float a */
    args[1].origin = (gms_origin){"host.c", 40, 7, "a"};
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_ERR_ARGS);
    assert_int_equal(gms_diag_list_errors(f->dl), 2);
    d = find(f->dl, "SIM-ARGS-002");
    assert_string_equal(d.message, "args[0] passes a buffer address, but parameter 0 ("
                                   SAXPY "_param_0) is u32 with 4 bytes, not a 64-bit pointer");
    d = find(f->dl, "SIM-ARGS-003");
    assert_string_equal(d.file, "host.c");
    assert_int_equal(d.line, 40);
    assert_int_equal(d.col, 7);
    assert_string_equal(d.message, "a is u32, but parameter 1 (" SAXPY "_param_1) of kernel "
                                   SAXPY " is f32 (4 bytes)");
    assert_int_equal(gms_device_launch_count(f->dev), 0);
}

/* One element past x is in the gap after its allocation: the kernel faults with EXEC-MEM-001 at
 * the load of x, in the first thread past the end. */
static void test_out_of_bounds_fault(void **state)
{
    fixture *f = *state;
    gms_arg args[4];
    gms_launch_config c = saxpy_launch(f, N + 1, args, 4);
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_ERR_FAULT);
    assert_int_equal(gms_diag_list_count(f->dl), 0);
    gms_fault fault;
    assert_int_equal(gms_device_fault(f->dev, &fault), GMS_OK);
    assert_string_equal(fault.rule, "EXEC-MEM-001");
    assert_string_equal(fault.kernel, SAXPY);
    assert_int_equal(fault.launch, 0);
    assert_int_equal(fault.ctaid[0], 16);
    assert_int_equal(fault.tid[0], 0);
    assert_int_equal(fault.line, 48);
    assert_non_null(strstr(fault.source_file, "saxpy.cu"));
    assert_int_equal(fault.source_line, 7);
    assert_non_null(strstr(fault.message, "global read of size 4"));
    char *line = NULL;
    assert_int_equal(gms_module_line(f->m, fault.line, &line), GMS_OK);
    assert_string_equal(line, "ld.global.f32 \t%f2, [%rd6];");
    gms_free(line);
    gms_launch_stats s;
    assert_int_equal(gms_device_launch_stats(f->dev, 0, &s), GMS_OK);
    assert_true(s.faulted);
}

/* What the GPU cannot start, and settings, memory and module misuse. */
static void test_launch_and_state_errors(void **state)
{
    fixture *f = *state;
    gms_arg args[4];
    gms_launch_config c = saxpy_launch(f, N, args, 4);
    c.block[0] = 2048;
    c.grid[0] = 2;
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_ERR_LAUNCH);
    assert_string_equal(find(f->dl, "SIM-LAUNCH-002").message,
                        "block has 2048 threads, more than h100 allows per CTA (1024)");
    c = saxpy_launch(f, N, args, 4);
    gms_policy_window w = {f->x, 1ull << 40, 1.0, GMS_ACCESS_PERSISTING, GMS_ACCESS_NORMAL};
    c.window = &w;
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_ERR_LAUNCH);
    assert_true(gms_diag_list_find(f->dl, "SIM-WINDOW-001") >= 0);
    c.grid[1] = 0;
    assert_int_equal(gms_module_check_launch(f->m, SAXPY, &c, f->dl), GMS_ERR_ARGUMENT);
    assert_true(gms_diag_list_find(f->dl, "API-ARG-001") >= 0);

    /* The memory system exists (the fixture allocated): settings that shape it are refused. */
    assert_int_equal(gms_device_set(f->dev, GMS_SET_STRIP_HINTS, 1, f->dl), GMS_ERR_STATE);
    assert_true(gms_diag_list_find(f->dl, "API-STATE-002") >= 0);
    assert_int_equal(gms_device_set(f->dev, GMS_SET_QUANTUM, 0, f->dl), GMS_ERR_ARGUMENT);
    assert_int_equal(gms_device_set(f->dev, GMS_SET_QUANTUM, 32, f->dl), GMS_OK);
    /* Strict hazards is a flag of the launches, settable any time. */
    assert_int_equal(gms_device_set(f->dev, GMS_SET_STRICT_HAZARDS, 2, f->dl), GMS_ERR_ARGUMENT);
    assert_int_equal(gms_device_set(f->dev, GMS_SET_STRICT_HAZARDS, 1, f->dl), GMS_OK);
    assert_int_equal(gms_device_set(f->dev, GMS_SET_STRICT_HAZARDS, 0, f->dl), GMS_OK);

    float v[2] = {0};
    assert_int_equal(gms_device_write(f->dev, f->x + N * sizeof(float) - 4, v, 8, f->dl),
                     GMS_ERR_RANGE);
    assert_true(gms_diag_list_find(f->dl, "API-MEM-001") >= 0);
    /* A second module that does not parse leaves the device and its module as they were. */
    gms_module *second = NULL;
    assert_int_equal(gms_module_load(f->dev, "again.ptx", ".version 8.0\nbad", 16, "ptx",
                                     &second, f->dl),
                     GMS_ERR_MODULE);
    assert_null(second);
    assert_int_equal(gms_diag_list_find(f->dl, "API-STATE-001"), -1);

    /* After a launch, memory it may have cached cannot be written; new memory can. */
    c = saxpy_launch(f, N, args, 4);
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_OK);
    assert_int_equal(gms_device_write(f->dev, f->x, v, sizeof v, f->dl), GMS_ERR_STATE);
    assert_true(gms_diag_list_find(f->dl, "API-MEM-002") >= 0);
    uint64_t z;
    assert_int_equal(gms_device_alloc(f->dev, 64, &z, f->dl), GMS_OK);
    assert_int_equal(gms_device_write(f->dev, z, v, sizeof v, f->dl), GMS_OK);
    assert_string_equal(gms_status_name(GMS_ERR_STATE), "GMS_ERR_STATE");
}

/* GMS_SET_SYNCED_WRITES: host writes between launches reach the next launch although the L2
 * holds the old bytes (a stale L2 copy would give y = 2 + 2 * 1 = 4 instead of 8). */
static void test_synced_writes(void **state)
{
    fixture *f = *state;
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = 1.0f, y[i] = 0.0f;
    assert_int_equal(gms_device_write(f->dev, f->x, x, sizeof x, f->dl), GMS_OK);
    assert_int_equal(gms_device_write(f->dev, f->y, y, sizeof y, f->dl), GMS_OK);
    gms_arg args[4];
    gms_launch_config c = saxpy_launch(f, N, args, 4);
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_OK);
    assert_int_equal(gms_device_set(f->dev, GMS_SET_SYNCED_WRITES, 2, f->dl), GMS_ERR_ARGUMENT);
    assert_int_equal(gms_device_set(f->dev, GMS_SET_SYNCED_WRITES, 1, f->dl), GMS_OK);
    for (int i = 0; i < N; i++)
        x[i] = 3.0f;
    assert_int_equal(gms_device_write(f->dev, f->x, x, sizeof x, f->dl), GMS_OK);
    assert_int_equal(gms_module_launch(f->m, SAXPY, &c, f->dl), GMS_OK);
    assert_int_equal(gms_device_read(f->dev, f->y, y, sizeof y, f->dl), GMS_OK);
    for (int i = 0; i < N; i++)
        assert_true(y[i] == 8.0f);
    assert_int_equal(gms_diag_list_errors(f->dl), 1); /* the bad value above */
}

/* .const and .global variables set by name before the launch and read after it. */
static void test_module_variables(void **state)
{
    (void)state;
    static const char text[] = ".version 8.0\n"
                               ".target sm_80\n"
                               ".address_size 64\n"
                               ".const .align 4 .u32 scale;\n"
                               ".global .align 4 .u32 counter[4];\n"
                               ".visible .entry bump(.param .u64 out)\n"
                               "{\n"
                               "\t.reg .b32 %r<4>;\n"
                               "\t.reg .b64 %rd<3>;\n"
                               "\tld.const.u32 %r1, [scale];\n"
                               "\tld.global.u32 %r2, [counter+4];\n"
                               "\tadd.s32 %r3, %r1, %r2;\n"
                               "\tld.param.u64 %rd1, [out];\n"
                               "\tcvta.to.global.u64 %rd2, %rd1;\n"
                               "\tst.global.u32 [%rd2], %r3;\n"
                               "\tst.global.u32 [counter], %r3;\n"
                               "\tret;\n"
                               "}\n";
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    gms_module *m;
    assert_int_equal(gms_device_create("a100", &dev, dl), GMS_OK);
    assert_int_equal(gms_module_load(dev, "vars.ptx", text, sizeof text - 1, "ptx", &m, dl),
                     GMS_OK);
    uint32_t scale = 7, second = 5, got = 0;
    assert_int_equal(gms_module_set_var(m, "scale", 0, &scale, 4, dl), GMS_OK);
    assert_int_equal(gms_module_set_var(m, "counter", 4, &second, 4, dl), GMS_OK);
    assert_int_equal(gms_module_set_var(m, "counter", 14, &second, 4, dl), GMS_ERR_RANGE);
    assert_true(gms_diag_list_find(dl, "API-VAR-002") >= 0);
    assert_int_equal(gms_module_set_var(m, "nothing", 0, &second, 4, dl), GMS_ERR_NOT_FOUND);
    assert_true(gms_diag_list_find(dl, "API-VAR-001") >= 0);
    gms_var_info info;
    assert_int_equal(gms_module_var_info(m, "counter", &info, dl), GMS_OK);
    assert_int_equal(info.space, GMS_VAR_GLOBAL);
    assert_int_equal(info.bytes, 16);
    uint64_t out;
    assert_int_equal(gms_device_alloc(dev, 4, &out, dl), GMS_OK);
    gms_arg arg = gms_arg_address(out);
    gms_launch_config c = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .args = &arg, .nargs = 1};
    assert_int_equal(gms_module_launch(m, "bump", &c, dl), GMS_OK);
    assert_int_equal(gms_device_read(dev, out, &got, 4, dl), GMS_OK);
    assert_int_equal(got, 12);
    assert_int_equal(gms_module_get_var(m, "counter", 0, &got, 4, dl), GMS_OK);
    assert_int_equal(got, 12);
    assert_int_equal(gms_device_read(dev, info.address, &got, 4, dl), GMS_OK);
    assert_int_equal(got, 12);
    /* The constant bank can change between launches; the .global variable cannot yet. */
    scale = 100;
    assert_int_equal(gms_module_set_var(m, "scale", 0, &scale, 4, dl), GMS_OK);
    assert_int_equal(gms_module_set_var(m, "counter", 4, &second, 4, dl), GMS_ERR_STATE);
    assert_int_equal(gms_module_launch(m, "bump", &c, dl), GMS_OK);
    assert_int_equal(gms_device_read(dev, out, &got, 4, dl), GMS_OK);
    assert_int_equal(got, 105);
    assert_int_equal(gms_diag_list_errors(dl), 3);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

/* Two modules on one device (docs/api.md, "Modules"), the second loaded after a launch of the
 * first: each kernel reads its own module's .const and .global variable of the same name, the
 * constant bank follows the module launched, and the report numbers the instructions module by
 * module (a.ptx's 8 are ids 0..7, b.ptx's 9 are 8..16), each naming its module. */
#define TWO_MODULES_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"                   \
                         ".const .align 4 .u32 scale;\n"                                      \
                         ".global .align 4 .u32 counter[4];\n"
static const char module_a[] = TWO_MODULES_HEAD
    ".visible .entry bump(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.const.u32 %r1, [scale];\n"
    "\tld.global.u32 %r2, [counter];\n"
    "\tadd.s32 %r3, %r1, %r2;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tst.global.u32 [%rd2], %r3;\n"
    "\tst.global.u32 [counter], %r3;\n"
    "\tret;\n}\n";
static const char module_b[] = TWO_MODULES_HEAD
    ".visible .entry twice(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.const.u32 %r1, [scale];\n"
    "\tld.global.u32 %r2, [counter];\n"
    "\tshl.b32 %r1, %r1, 1;\n"
    "\tadd.s32 %r3, %r1, %r2;\n"
    "\tld.param.u64 %rd1, [out];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tst.global.u32 [%rd2], %r3;\n"
    "\tst.global.u32 [counter], %r3;\n"
    "\tret;\n}\n";

/* Launches `kernel` of m on one thread writing *out; returns what it wrote. */
static uint32_t run_one(gms_device *dev, gms_module *m, const char *kernel, uint64_t out,
                        gms_diag_list *dl)
{
    gms_arg arg = gms_arg_address(out);
    gms_launch_config c = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .args = &arg, .nargs = 1};
    assert_int_equal(gms_module_launch(m, kernel, &c, dl), GMS_OK);
    uint32_t got = 0;
    assert_int_equal(gms_device_read(dev, out, &got, 4, dl), GMS_OK);
    return got;
}

/* In the JSON report, the instruction object with device id `id`: its kernel, module and
 * executions (keys are sorted: executions < id < kernel < module). */
static void json_insn_is(const char *json, unsigned id, const char *kernel, const char *module,
                         unsigned executions)
{
    char key[64], want[128];
    snprintf(key, sizeof key, "\"id\": %u,", id);
    const char *at = strstr(json, key);
    assert_non_null(at);
    const char *next = strstr(at + 1, "\"id\": ");
    const char *exec = NULL;
    for (const char *p = json; (p = strstr(p, "\"executions\": ")) && p < at; p++) exec = p;
    assert_non_null(exec);
    assert_int_equal(strtoul(exec + strlen("\"executions\": "), NULL, 10), executions);
    snprintf(want, sizeof want, "\"kernel\": \"%s\"", kernel);
    const char *k = strstr(at, want);
    assert_true(k && (!next || k < next));
    snprintf(want, sizeof want, "\"module\": \"%s\"", module);
    const char *mo = strstr(at, want);
    assert_true(mo && (!next || mo < next));
}

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++) n++;
    return n;
}

static void test_two_modules(void **state)
{
    (void)state;
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    gms_module *a, *b = NULL;
    assert_int_equal(gms_device_create("a100", &dev, dl), GMS_OK);
    assert_int_equal(gms_module_load(dev, "a.ptx", module_a, sizeof module_a - 1, "ptx", &a, dl),
                     GMS_OK);
    uint32_t scale = 7, got = 0;
    uint64_t out_a, out_b;
    assert_int_equal(gms_device_alloc(dev, 4, &out_a, dl), GMS_OK);
    assert_int_equal(gms_module_set_var(a, "scale", 0, &scale, 4, dl), GMS_OK);
    assert_int_equal(run_one(dev, a, "bump", out_a, dl), 7);

    /* The second module arrives after a launch of the first, as JIT-compiled code does. */
    assert_int_equal(gms_module_load(dev, "b.ptx", module_b, sizeof module_b - 1, "ptx", &b, dl),
                     GMS_OK);
    assert_ptr_not_equal(a, b);
    assert_string_equal(gms_module_path(b), "b.ptx");
    assert_int_equal(gms_module_kernel_find(a, "twice", &(gms_kernel_info){0}),
                     GMS_ERR_NOT_FOUND);
    assert_int_equal(gms_module_kernel_find(b, "bump", &(gms_kernel_info){0}), GMS_ERR_NOT_FOUND);
    gms_var_info va, vb;
    assert_int_equal(gms_module_var_info(a, "counter", &va, dl), GMS_OK);
    assert_int_equal(gms_module_var_info(b, "counter", &vb, dl), GMS_OK);
    assert_true(vb.address >= va.address + 16 || va.address >= vb.address + 16);
    scale = 50;
    assert_int_equal(gms_module_set_var(b, "scale", 0, &scale, 4, dl), GMS_OK);
    assert_int_equal(gms_device_alloc(dev, 4, &out_b, dl), GMS_OK);
    assert_int_equal(run_one(dev, b, "twice", out_b, dl), 100); /* 2 * 50 + b's counter 0 */
    /* a's kernel again: a's scale (7) and a's counter (7), whatever b installed. */
    assert_int_equal(run_one(dev, a, "bump", out_a, dl), 14);
    assert_int_equal(gms_module_get_var(a, "counter", 0, &got, 4, dl), GMS_OK);
    assert_int_equal(got, 14);
    assert_int_equal(gms_module_get_var(b, "counter", 0, &got, 4, dl), GMS_OK);
    assert_int_equal(got, 100);
    assert_int_equal(gms_module_get_var(b, "scale", 0, &got, 4, dl), GMS_OK);
    assert_int_equal(got, 50);
    gms_launch_stats s;
    assert_int_equal(gms_device_launch_stats(dev, 1, &s), GMS_OK);
    assert_string_equal(s.kernel, "twice");
    assert_int_equal(s.warp_instructions, 9);
    assert_int_equal(s.counters.constant.requests, 2); /* ld.const and ld.param */
    /* b's code lies after a's: its two 128-byte lines are cold, not a's lines again. */
    assert_int_equal(s.counters.icache.fetches, 2);
    assert_int_equal(s.counters.icache.hits, 0);
    assert_int_equal(s.counters.icache.misses, 2);

    /* Per-instruction statistics of both modules, by device id. */
    char *json = NULL;
    assert_int_equal(gms_device_report(dev, GMS_REPORT_JSON, 0, NULL, &json, dl), GMS_OK);
    assert_non_null(strstr(json, "\"module\": \"a.ptx\",\n  \"modules\": [\n    \"a.ptx\",\n"
                                 "    \"b.ptx\"\n  ]"));
    json_insn_is(json, 0, "bump", "a.ptx", 2);
    json_insn_is(json, 7, "bump", "a.ptx", 2);
    json_insn_is(json, 8, "twice", "b.ptx", 1);
    json_insn_is(json, 16, "twice", "b.ptx", 1);
    assert_null(strstr(json, "\"id\": 17,"));
    assert_int_equal(count_of(json, "\"module\": \"b.ptx\""), 9);
    assert_int_equal(count_of(json, "\"module\": \"a.ptx\""), 8 + 1); /* and the top level's */
    gms_free(json);
    char *text = NULL;
    assert_int_equal(gms_device_report(dev, GMS_REPORT_TEXT, 20, "two", &text, dl), GMS_OK);
    assert_non_null(strstr(text, "\nmodules: a.ptx, b.ptx\n"));
    assert_null(strstr(text, "\nmodule: "));
    assert_non_null(strstr(text, "b.ptx:11"));  /* b's ld.global.u32, which missed */
    gms_free(text);
    assert_int_equal(gms_diag_list_errors(dl), 0);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

/* Images: a 3D block-linear image of two u16 channels, written and read in texel order, read by
 * a kernel through its handle at texels (x, 1, 2); the image rules; freeing. */
/* Mipmap levels and cubes through the API (docs/images.md, "Mipmap levels"): every level's
 * texels in the host order, level 1 at the next 512-byte boundary, the level limit; a cube
 * needs square faces and 6 layers. */
static void test_image_levels(void **state)
{
    (void)state;
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    assert_int_equal(gms_device_create("h100", &dev, dl), GMS_OK);
    gms_image_desc d = {GMS_IMAGE_2D, 1, 32, GMS_IMAGE_FLOAT, 8, 4, 1, 1, 0, 32, 0, 0, 0, 3};
    uint64_t h, bad;
    assert_int_equal(gms_image_create(dev, &d, &h, dl), GMS_OK);
    gms_image_info info;
    assert_int_equal(gms_image_info_get(dev, h, &info), GMS_OK);
    assert_int_equal(info.texels, 32 + 8 + 2);
    assert_int_equal(info.bytes, 512 + 512 + 8); /* 128 and 32 bytes rounded up, then 8 */
    float texels[42], back[42];
    for (unsigned i = 0; i < 42; i++) texels[i] = (float)i + 0.5f;
    assert_int_equal(gms_image_write(dev, h, texels, sizeof texels, dl), GMS_OK);
    assert_int_equal(gms_image_read(dev, h, back, sizeof back, dl), GMS_OK);
    assert_memory_equal(texels, back, sizeof texels);
    float first;
    assert_int_equal(gms_device_read(dev, info.base + 512 + 16, &first, 4, dl), GMS_OK);
    assert_true(first == texels[32 + 4]); /* level 1, row 1 (pitch 16) */
    d.levels = 5; /* 8 x 4 has 4 levels at most */
    assert_int_equal(gms_image_create(dev, &d, &bad, dl), GMS_ERR_ARGUMENT);
    assert_true(gms_diag_list_find(dl, "API-IMAGE-001") >= 0);
    gms_image_desc c = {GMS_IMAGE_CUBE, 1, 32, GMS_IMAGE_FLOAT, 4, 4, 1, 6, 0, 16, 0, 0, 0, 1};
    assert_int_equal(gms_image_create(dev, &c, &h, dl), GMS_OK);
    c.height = 2;
    assert_int_equal(gms_image_create(dev, &c, &bad, dl), GMS_ERR_ARGUMENT);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

static void test_images(void **state)
{
    (void)state;
    static const char text[] = ".version 8.0\n"
                               ".target sm_80\n"
                               ".address_size 64\n"
                               ".visible .entry peek(.param .u64 img, .param .u64 out)\n"
                               "{\n"
                               "\t.reg .b32 %r<8>;\n"
                               "\t.reg .b64 %rd<5>;\n"
                               "\tld.param.u64 %rd1, [img];\n"
                               "\tld.param.u64 %rd2, [out];\n"
                               "\tmov.u32 %r1, %tid.x;\n"
                               "\tshl.b32 %r2, %r1, 2;\n"
                               "\tmov.u32 %r3, 1;\n"
                               "\tmov.u32 %r4, 2;\n"
                               "\tsuld.b.3d.b32.zero {%r5}, [%rd1, {%r2, %r3, %r4, %r4}];\n"
                               "\tmul.wide.u32 %rd3, %r1, 4;\n"
                               "\tadd.s64 %rd4, %rd2, %rd3;\n"
                               "\tst.global.u32 [%rd4], %r5;\n"
                               "\tret;\n"
                               "}\n";
    enum { W = 20, H = 10, D = 3 };
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    gms_module *m;
    assert_int_equal(gms_device_create("h100", &dev, dl), GMS_OK);
    assert_int_equal(gms_module_load(dev, "img.ptx", text, sizeof text - 1, "ptx", &m, dl),
                     GMS_OK);
    gms_image_desc d = {GMS_IMAGE_3D, 2, 16, GMS_IMAGE_UNSIGNED, W, H, D, 1, 1, 0, 2, 2, 0, 1};
    uint64_t h, freed;
    assert_int_equal(gms_image_create(dev, &d, &h, dl), GMS_OK);
    assert_int_equal(h, 1);
    gms_image_info info;
    assert_int_equal(gms_image_info_get(dev, h, &info), GMS_OK);
    /* 80-byte rows: 2 GOBs across; 1 block of 16 rows; 2 blocks of 2 slices: 2*1*2 blocks of
     * 4 GOBs of 512 bytes. */
    assert_int_equal(info.bytes, 8192);
    assert_int_equal(info.texel_bytes, 4);
    assert_int_equal(info.texels, W * H * D);
    static uint16_t texels[W * H * D * 2], back[W * H * D * 2];
    for (unsigned i = 0; i < W * H * D * 2; i++) texels[i] = (uint16_t)(i * 7 + 3);
    assert_int_equal(gms_image_write(dev, h, texels, sizeof texels - 2, dl), GMS_ERR_RANGE);
    assert_true(gms_diag_list_find(dl, "API-IMAGE-003") >= 0);
    assert_int_equal(gms_image_write(dev, h, texels, sizeof texels, dl), GMS_OK);
    assert_int_equal(gms_image_read(dev, h, back, sizeof back, dl), GMS_OK);
    assert_memory_equal(texels, back, sizeof texels);
    /* The layout is not the texel order: texel (0, 1, 0) sits 16 bytes in (GOB row 1). */
    uint32_t raw;
    assert_int_equal(gms_device_read(dev, info.base + 16, &raw, 4, dl), GMS_OK);
    assert_int_equal(raw, (uint32_t)texels[2 * W] | (uint32_t)texels[2 * W + 1] << 16);
    assert_int_equal(gms_image_create(dev, &d, &freed, dl), GMS_OK);
    assert_int_equal(gms_image_free(dev, freed, dl), GMS_OK);
    assert_int_equal(gms_image_info_get(dev, freed, &info), GMS_ERR_NOT_FOUND);
    uint64_t out;
    assert_int_equal(gms_device_alloc(dev, 2 * W * 4, &out, dl), GMS_OK);
    gms_arg args[2] = {gms_arg_u64(h), gms_arg_address(out)};
    gms_launch_config c = {.grid = {1, 1, 1}, .block = {W, 1, 1}, .args = args, .nargs = 2};
    assert_int_equal(gms_module_launch(m, "peek", &c, dl), GMS_OK);
    uint32_t got[W];
    assert_int_equal(gms_device_read(dev, out, got, sizeof got, dl), GMS_OK);
    for (unsigned x = 0; x < W; x++) {
        unsigned t = ((2 * H + 1) * W + x) * 2;
        assert_int_equal(got[x], (uint32_t)texels[t] | (uint32_t)texels[t + 1] << 16);
    }
    /* A freed image's handle is an invalid header: the load reads 0. */
    args[0] = gms_arg_u64(freed);
    args[1] = gms_arg_address(out + W * 4);
    assert_int_equal(gms_module_launch(m, "peek", &c, dl), GMS_OK);
    assert_int_equal(gms_device_read(dev, out + W * 4, got, sizeof got, dl), GMS_OK);
    for (unsigned x = 0; x < W; x++) assert_int_equal(got[x], 0);
    /* Errors: written after a launch, a freed handle, a bad descriptor, a bad slot. */
    assert_int_equal(gms_image_write(dev, h, texels, sizeof texels, dl), GMS_ERR_STATE);
    assert_true(gms_diag_list_find(dl, "API-MEM-002") >= 0);
    assert_int_equal(gms_image_read(dev, freed, back, sizeof back, dl), GMS_ERR_NOT_FOUND);
    assert_true(gms_diag_list_find(dl, "API-IMAGE-002") >= 0);
    d.block_height = 3;
    assert_int_equal(gms_image_create(dev, &d, &freed, dl), GMS_ERR_ARGUMENT);
    assert_true(gms_diag_list_find(dl, "API-IMAGE-001") >= 0);
    assert_int_equal(gms_image_set_slot(dev, h, 8192, dl), GMS_ERR_ARGUMENT);
    assert_int_equal(gms_image_set_slot(dev, h, 3, dl), GMS_OK);
    assert_int_equal(gms_diag_list_errors(dl), 5);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

/* Texture objects: handles `sampler << 20 | image`, the sampler rules of mem_sampler_check
 * (API-TEX-001), a dead image (API-IMAGE-002), slots, and freeing (API-TEX-002 after). */
static void test_texture_objects(void **state)
{
    (void)state;
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    assert_int_equal(gms_device_create("h100", &dev, dl), GMS_OK);
    gms_image_desc fd = {GMS_IMAGE_2D, 1, 32, GMS_IMAGE_FLOAT, 8, 4, 1, 1, 0, 64, 1, 1, 0, 1};
    gms_image_desc ud = fd;
    ud.kind = GMS_IMAGE_UNSIGNED;
    uint64_t fimg, uimg, t1, t2, t3 = 77;
    assert_int_equal(gms_image_create(dev, &fd, &fimg, dl), GMS_OK);
    assert_int_equal(gms_image_create(dev, &ud, &uimg, dl), GMS_OK);
    gms_texture_desc td = {fimg, {GMS_TEX_CLAMP, GMS_TEX_BORDER, GMS_TEX_WRAP}, GMS_TEX_LINEAR,
                           0, GMS_TEX_ELEMENT, {1, 2, 3, 4}, GMS_TEX_POINT, 0, 0, 0};
    assert_int_equal(gms_texture_create(dev, &td, &t1, dl), GMS_OK);
    assert_int_equal(t1, (1u << 20) | fimg);
    td.image = uimg;
    td.filter = GMS_TEX_POINT;
    assert_int_equal(gms_texture_create(dev, &td, &t2, dl), GMS_OK);
    assert_int_equal(t2, (2u << 20) | uimg);
    assert_int_equal(gms_diag_list_errors(dl), 0);
    /* Linear filtering of unsigned texels read as elements; a mode out of range. */
    td.filter = GMS_TEX_LINEAR;
    assert_int_equal(gms_texture_create(dev, &td, &t3, dl), GMS_ERR_ARGUMENT);
    assert_true(gms_diag_list_find(dl, "API-TEX-001") >= 0);
    td.filter = GMS_TEX_POINT;
    td.address[1] = (gms_tex_address)4;
    assert_int_equal(gms_texture_create(dev, &td, &t3, dl), GMS_ERR_ARGUMENT);
    td.address[1] = GMS_TEX_CLAMP;
    td.image = 99;
    assert_int_equal(gms_texture_create(dev, &td, &t3, dl), GMS_ERR_NOT_FOUND);
    assert_true(gms_diag_list_find(dl, "API-IMAGE-002") >= 0);
    assert_int_equal(t3, 77);
    assert_int_equal(gms_diag_list_errors(dl), 3);
    /* Slots; freeing leaves the other texture and the image alive. */
    assert_int_equal(gms_texture_set_slot(dev, t1, 5, dl), GMS_OK);
    assert_int_equal(gms_texture_set_slot(dev, t1, 8192, dl), GMS_ERR_ARGUMENT);
    assert_int_equal(gms_texture_free(dev, t1, dl), GMS_OK);
    assert_int_equal(gms_texture_free(dev, t1, dl), GMS_ERR_NOT_FOUND);
    assert_true(gms_diag_list_find(dl, "API-TEX-002") >= 0);
    assert_int_equal(gms_texture_set_slot(dev, t1, 5, dl), GMS_ERR_NOT_FOUND);
    assert_int_equal(gms_texture_free(dev, fimg, dl), GMS_ERR_NOT_FOUND); /* sampler 0 */
    assert_int_equal(gms_texture_set_slot(dev, t2, 5, dl), GMS_OK);
    gms_image_info info;
    assert_int_equal(gms_image_info_get(dev, fimg, &info), GMS_OK);
    assert_int_equal(gms_diag_list_errors(dl), 7);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

/* A PTX .surfref bound through the API: the kernel reads texel x of the image bound to `sref`;
 * binding refuses a variable that is not a .surfref, an unknown name and a dead handle. */
static void test_surface_reference(void **state)
{
    (void)state;
    static const char text[] = ".version 8.0\n"
                               ".target sm_80\n"
                               ".address_size 64\n"
                               ".global .surfref sref;\n"
                               ".global .align 4 .u32 plain;\n"
                               ".visible .entry peek(.param .u64 out)\n"
                               "{\n"
                               "\t.reg .b32 %r<4>;\n"
                               "\t.reg .b64 %rd<4>;\n"
                               "\tld.param.u64 %rd1, [out];\n"
                               "\tmov.u32 %r1, %tid.x;\n"
                               "\tshl.b32 %r2, %r1, 2;\n"
                               "\tsuld.b.1d.b32.trap {%r3}, [sref, {%r2}];\n"
                               "\tmul.wide.u32 %rd2, %r1, 4;\n"
                               "\tadd.s64 %rd3, %rd1, %rd2;\n"
                               "\tst.global.u32 [%rd3], %r3;\n"
                               "\tret;\n"
                               "}\n";
    enum { W = 8 };
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    gms_module *m;
    assert_int_equal(gms_device_create("h100", &dev, dl), GMS_OK);
    assert_int_equal(gms_module_load(dev, "ref.ptx", text, sizeof text - 1, "ptx", &m, dl),
                     GMS_OK);
    gms_image_desc d = {GMS_IMAGE_1D, 1, 32, GMS_IMAGE_UNSIGNED, W, 1, 1, 1, 0, 64, 0, 0, 0, 1};
    uint64_t h, dead, out;
    uint32_t texels[W], got[W];
    for (unsigned i = 0; i < W; i++) texels[i] = 1000 + 3 * i;
    assert_int_equal(gms_image_create(dev, &d, &dead, dl), GMS_OK);
    assert_int_equal(gms_image_create(dev, &d, &h, dl), GMS_OK);
    assert_int_equal(gms_image_write(dev, h, texels, sizeof texels, dl), GMS_OK);
    assert_int_equal(gms_image_free(dev, dead, dl), GMS_OK);
    gms_var_info info;
    assert_int_equal(gms_module_var_info(m, "sref", &info, dl), GMS_OK);
    assert_int_equal(info.surface_ref, 1);
    assert_int_equal(info.bytes, 8);
    assert_int_equal(gms_module_var_info(m, "plain", &info, dl), GMS_OK);
    assert_int_equal(info.surface_ref, 0);
    assert_int_equal(gms_module_bind_surface(m, "plain", h, dl), GMS_ERR_ARGUMENT);
    assert_true(gms_diag_list_find(dl, "API-VAR-003") >= 0);
    assert_int_equal(gms_module_bind_surface(m, "nothing", h, dl), GMS_ERR_NOT_FOUND);
    assert_true(gms_diag_list_find(dl, "API-VAR-001") >= 0);
    assert_int_equal(gms_module_bind_surface(m, "sref", dead, dl), GMS_ERR_NOT_FOUND);
    assert_true(gms_diag_list_find(dl, "API-IMAGE-002") >= 0);
    assert_int_equal(gms_module_bind_surface(m, "sref", h, dl), GMS_OK);
    uint64_t held = 0;
    assert_int_equal(gms_module_get_var(m, "sref", 0, &held, 8, dl), GMS_OK);
    assert_int_equal(held, h);
    assert_int_equal(gms_device_alloc(dev, sizeof got, &out, dl), GMS_OK);
    gms_arg arg = gms_arg_address(out);
    gms_launch_config c = {.grid = {1, 1, 1}, .block = {W, 1, 1}, .args = &arg, .nargs = 1};
    assert_int_equal(gms_module_launch(m, "peek", &c, dl), GMS_OK);
    assert_int_equal(gms_device_read(dev, out, got, sizeof got, dl), GMS_OK);
    assert_memory_equal(got, texels, sizeof got);
    assert_int_equal(gms_diag_list_errors(dl), 3);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

/* A PTX .texref bound through the API: the kernel fetches texel x of the texture bound to
 * `tref`; binding refuses a .surfref and a plain variable (not a .texref), an image handle and
 * a freed texture (no live texture), and var_info tells the two references apart. */
static void test_texture_reference(void **state)
{
    (void)state;
    static const char text[] = ".version 8.0\n"
                               ".target sm_80\n"
                               ".address_size 64\n"
                               ".global .texref tref;\n"
                               ".global .surfref sref;\n"
                               ".visible .entry peek(.param .u64 out)\n"
                               "{\n"
                               "\t.reg .b32 %r<6>;\n"
                               "\t.reg .b64 %rd<4>;\n"
                               "\tld.param.u64 %rd1, [out];\n"
                               "\tmov.u32 %r1, %tid.x;\n"
                               "\ttex.1d.v4.u32.s32 {%r2, %r3, %r4, %r5}, [tref, {%r1}];\n"
                               "\tmul.wide.u32 %rd2, %r1, 4;\n"
                               "\tadd.s64 %rd3, %rd1, %rd2;\n"
                               "\tst.global.u32 [%rd3], %r2;\n"
                               "\tret;\n"
                               "}\n";
    enum { W = 8 };
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    gms_module *m;
    assert_int_equal(gms_device_create("h100", &dev, dl), GMS_OK);
    assert_int_equal(gms_module_load(dev, "tref.ptx", text, sizeof text - 1, "ptx", &m, dl),
                     GMS_OK);
    gms_image_desc d = {GMS_IMAGE_1D, 1, 32, GMS_IMAGE_UNSIGNED, W, 1, 1, 1, 0, 64, 0, 0, 0, 1};
    uint64_t h, t, dead, out;
    uint32_t texels[W], got[W];
    for (unsigned i = 0; i < W; i++) texels[i] = 500 + 7 * i;
    assert_int_equal(gms_image_create(dev, &d, &h, dl), GMS_OK);
    assert_int_equal(gms_image_write(dev, h, texels, sizeof texels, dl), GMS_OK);
    gms_texture_desc td = {h, {GMS_TEX_CLAMP, GMS_TEX_CLAMP, GMS_TEX_CLAMP}, GMS_TEX_POINT, 0,
                           GMS_TEX_ELEMENT, {0, 0, 0, 0}, GMS_TEX_POINT, 0, 0, 0};
    assert_int_equal(gms_texture_create(dev, &td, &dead, dl), GMS_OK);
    assert_int_equal(gms_texture_create(dev, &td, &t, dl), GMS_OK);
    assert_int_equal(gms_texture_free(dev, dead, dl), GMS_OK);
    gms_var_info info;
    assert_int_equal(gms_module_var_info(m, "tref", &info, dl), GMS_OK);
    assert_int_equal(info.texture_ref, 1);
    assert_int_equal(info.surface_ref, 0);
    assert_int_equal(gms_module_var_info(m, "sref", &info, dl), GMS_OK);
    assert_int_equal(info.texture_ref, 0);
    assert_int_equal(info.surface_ref, 1);
    assert_int_equal(gms_module_bind_texture(m, "sref", t, dl), GMS_ERR_ARGUMENT);
    assert_true(gms_diag_list_find(dl, "API-VAR-004") >= 0);
    assert_int_equal(gms_module_bind_surface(m, "tref", h, dl), GMS_ERR_ARGUMENT);
    assert_true(gms_diag_list_find(dl, "API-VAR-003") >= 0);
    assert_int_equal(gms_module_bind_texture(m, "tref", dead, dl), GMS_ERR_NOT_FOUND);
    assert_true(gms_diag_list_find(dl, "API-TEX-002") >= 0);
    assert_int_equal(gms_module_bind_texture(m, "tref", h, dl), GMS_ERR_NOT_FOUND);
    assert_int_equal(gms_module_bind_texture(m, "tref", t, dl), GMS_OK);
    uint64_t held = 0;
    assert_int_equal(gms_module_get_var(m, "tref", 0, &held, 8, dl), GMS_OK);
    assert_int_equal(held, t);
    assert_int_equal(gms_device_alloc(dev, sizeof got, &out, dl), GMS_OK);
    gms_arg arg = gms_arg_address(out);
    gms_launch_config c = {.grid = {1, 1, 1}, .block = {W, 1, 1}, .args = &arg, .nargs = 1};
    assert_int_equal(gms_module_launch(m, "peek", &c, dl), GMS_OK);
    assert_int_equal(gms_device_read(dev, out, got, sizeof got, dl), GMS_OK);
    assert_memory_equal(got, texels, sizeof got);
    assert_int_equal(gms_diag_list_errors(dl), 4);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_saxpy_values_and_counters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
        cmocka_unit_test(test_unknown_preset),
        cmocka_unit_test(test_bad_ptx),
        cmocka_unit_test_setup_teardown(test_unknown_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_synced_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrong_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_out_of_bounds_fault, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_and_state_errors, setup, teardown),
        cmocka_unit_test(test_module_variables),
        cmocka_unit_test(test_two_modules),
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_image_levels),
        cmocka_unit_test(test_surface_reference),
        cmocka_unit_test(test_texture_reference),
        cmocka_unit_test(test_texture_objects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
