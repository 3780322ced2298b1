/* The process state of the runtime libraries (src/runtime/rt_state.c; docs/cuda-runtime.md,
 * "Runtime API") without nvcc: two PTX texts joined into one module, a launch whose arguments
 * are read by the kernel's parameter sizes, a __managed__ variable mirrored at its device
 * address and kept in step across launches, and the allocation table. The state is one per
 * process, so the steps run in order in one test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/rt_ptxjoin.h"
#include "runtime/rt_state.h"

#define SAXPY "_Z5saxpyifPKfPf" /* saxpy(int n, float a, const float *x, float *y) */

/* A second translation unit: a managed variable and kernels that write and read it. */
static const char second_tu[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".global .attribute(.managed) .align 4 .u32 mv = 7;\n"
    ".visible .entry setmv(.param .u32 setmv_param_0)\n"
    "{\n"
    "\t.reg .b32 %r<2>;\n"
    "\tld.param.u32 %r1, [setmv_param_0];\n"
    "\tst.global.u32 [mv], %r1;\n"
    "\tret;\n"
    "}\n"
    ".visible .entry getmv(.param .u64 getmv_param_0)\n"
    "{\n"
    "\t.reg .b32 %r<2>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [getmv_param_0];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tld.global.u32 %r1, [mv];\n"
    "\tst.global.u32 [%rd2], %r1;\n"
    "\tret;\n"
    "}\n";

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = malloc(1 << 20);
    assert_non_null(text);
    *len = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    return text;
}

/* Runs kernel `name` on one CTA of `threads` threads with the argument pointers `args`. */
static gms_status run(const char *name, uint32_t threads, void **args)
{
    rt_launch l = {.kernel = rt_kernel_by_name(NULL, name), .grid = {1, 1, 1},
                   .block = {threads, 1, 1}, .args = args};
    return rt_launch_run(&l);
}

static void test_state(void **state)
{
    (void)state;
    static uint32_t *mv; /* the host's pointer to the managed variable, as nvcc's code keeps */
    size_t len;
    char *saxpy = read_text(GMS_SOURCE_DIR "/examples/saxpy/saxpy.ptx", &len);
    assert_int_equal(rt_module_add("saxpy.ptx", saxpy, len, 90), 0);
    assert_int_equal(rt_module_add("second.ptx", second_tu, sizeof second_tu - 1, 80), 0);
    free(saxpy);
    assert_int_equal(rt_var_register(&mv, "mv", 4, 0, 1), 0);
    gms_module *m = rt_module();
    assert_non_null(m);
    assert_int_equal(gms_module_kernel_count(m), 3);
    /* Loaded: later PTX is refused (RT-CUDART-001). */
    assert_int_equal(rt_module_add("late.ptx", second_tu, sizeof second_tu - 1, 80), -1);

    /* The managed variable: its initial value on the host, at its device address. */
    assert_non_null(mv);
    assert_int_equal(*mv, 7);
    rt_alloc a;
    assert_int_equal(rt_alloc_find((uint64_t)(uintptr_t)mv, &a), 0);
    assert_int_equal(a.kind, RT_ALLOC_MANAGED);
    uint32_t v = 42;
    void *set_args[] = {&v};
    assert_int_equal(run("setmv", 1, set_args), GMS_OK);
    assert_int_equal(*mv, 42); /* back on the host after the launch */
    *mv = 5;                   /* and the host's write reaches the next launch */
    uint64_t out;
    assert_int_equal(gms_device_alloc(rt_device(), 4, &out, NULL), GMS_OK);
    void *get_args[] = {&out};
    assert_int_equal(run("getmv", 1, get_args), GMS_OK);
    uint32_t got = 0;
    assert_int_equal(gms_device_read(rt_device(), out, &got, 4, NULL), GMS_OK);
    assert_int_equal(got, 5);
    /* Unchanged on the host, the variable is not written again, so its L2 copy stays; changed,
     * it is written and the next launch misses its sector: exactly one L2 miss more. */
    gms_launch_stats same, changed;
    assert_int_equal(run("getmv", 1, get_args), GMS_OK);
    size_t nl = gms_device_launch_count(rt_device());
    assert_int_equal(gms_device_launch_stats(rt_device(), nl - 1, &same), GMS_OK);
    *mv = 6;
    assert_int_equal(run("getmv", 1, get_args), GMS_OK);
    assert_int_equal(gms_device_launch_stats(rt_device(), nl, &changed), GMS_OK);
    assert_int_equal(changed.counters.l2.sector_misses, same.counters.l2.sector_misses + 1);
    assert_int_equal(gms_device_read(rt_device(), out, &got, 4, NULL), GMS_OK);
    assert_int_equal(got, 6);

    /* saxpy's four arguments of 4, 4, 8 and 8 bytes, read by their parameters' sizes. */
    enum { N = 64 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i, y[i] = 1.0f;
    uint64_t dx, dy;
    assert_int_equal(gms_device_alloc(rt_device(), sizeof x, &dx, NULL), GMS_OK);
    assert_int_equal(gms_device_alloc(rt_device(), sizeof y, &dy, NULL), GMS_OK);
    assert_int_equal(gms_device_write(rt_device(), dx, x, sizeof x, NULL), GMS_OK);
    assert_int_equal(gms_device_write(rt_device(), dy, y, sizeof y, NULL), GMS_OK);
    int n = N;
    float alpha = 2.0f;
    void *saxpy_args[] = {&n, &alpha, &dx, &dy};
    assert_int_equal(run(SAXPY, N, saxpy_args), GMS_OK);
    assert_int_equal(gms_device_read(rt_device(), dy, y, sizeof y, NULL), GMS_OK);
    for (int i = 0; i < N; i++)
        assert_true(y[i] == 2.0f * (float)i + 1.0f);
    assert_int_equal(run("nokernel", 1, NULL), GMS_ERR_NOT_FOUND);

    /* A cooperative launch needs every CTA resident at once: 5000 CTAs are more than h100's
     * 132 SMs hold (EXEC-LAUNCH-002); the same grid launched normally runs. */
    rt_launch l = {.kernel = rt_kernel_by_name(NULL, "setmv"), .grid = {5000, 1, 1},
                   .block = {1, 1, 1}, .args = set_args};
    assert_int_equal(rt_launch_run(&l), GMS_OK);
    l.cooperative = 1;
    assert_int_equal(rt_launch_run(&l), GMS_ERR_FAULT);
    gms_fault fault;
    assert_int_equal(gms_device_fault(rt_device(), &fault), GMS_OK);
    assert_string_equal(fault.rule, "EXEC-LAUNCH-002");

    /* The allocation table. */
    rt_alloc d = {0x1000, 256, RT_ALLOC_DEVICE, NULL, NULL};
    uint64_t before = rt_alloc_device_bytes();
    assert_int_equal(rt_alloc_add(&d), 0);
    assert_int_equal(rt_alloc_device_bytes(), before + 256);
    assert_int_equal(rt_alloc_find(0x10ff, &a), 0);
    assert_int_equal(rt_alloc_find(0x1100, &a), -1);
    assert_int_equal(rt_alloc_remove(0x1000, NULL), 0);
    assert_int_equal(rt_alloc_remove(0x1000, NULL), -1);
}

/* What two translation units that both print give: each its own $str (renamed in the second),
 * one vprintf declaration, one header. */
static void test_join(void **state)
{
    (void)state;
    static const char unit[] =
        ".version 9.0\n"
        ".target sm_75\n"
        ".address_size 64\n"
        ".extern .func  (.param .b32 func_retval0) vprintf\n"
        "(\n"
        "\t.param .b64 vprintf_param_0,\n"
        "\t.param .b64 vprintf_param_1\n"
        ")\n"
        ";\n"
        ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"
        ".func (.param .b32 r) helper(.param .b32 x)\n"
        "{\n"
        "\tmov.u64 %rd1, $str;\n"
        "}\n";
    const char *texts[] = {unit, unit};
    size_t lens[] = {sizeof unit - 1, sizeof unit - 1}, len;
    char *out = rt_ptx_join(texts, lens, 2, &len);
    assert_non_null(out);
    assert_int_equal(strlen(out), len);
    const char *second = strstr(out + 1, ".global");
    assert_non_null(second);
    second = strstr(second + 1, ".global");
    assert_non_null(second);
    assert_non_null(strstr(second, ".global .align 1 .b8 $str_tu1[3] = {104, 105, 0};\n"
                                   ".func (.param .b32 r) helper_tu1(.param .b32 x)\n{\n"
                                   "\tmov.u64 %rd1, $str_tu1;\n}\n"));
    assert_ptr_equal(strstr(out + 1, ".version"), NULL);
    assert_ptr_equal(strstr(strstr(out, ".extern") + 1, ".extern"), NULL);
    assert_ptr_equal(strstr(out, "vprintf_param_1\n)\n;\n.global .align 1 .b8 $str[3]"),
                     strstr(out, "vprintf_param_1"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_join), cmocka_unit_test(test_state)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
