/* Unit tests for gpumemsim's libcuda.so.1 (src/runtime/cuda_driver*.c), linked as a program
 * linking -lcuda would be, with no nvcc: every row of cuda_driver_entries.def is defined and the
 * STUB rows answer CUDA_ERROR_NOT_SUPPORTED; then the driver path on PTX text written for this
 * test (init, device queries, a context, module load, functions and globals, allocations,
 * copies, memset, launches by kernelParams and by `extra`, a second module loaded after
 * launches of the first, function attributes, error names)
 * with its results checked value by value; last, a kernel fault, after which the context stays
 * broken (sticky CUDA_ERROR_ILLEGAL_ADDRESS). The tests run in order and share the process's
 * one device (ctest sets GPUMEMSIM_GPU=h100 and GPUMEMSIM_QUIET=1). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpumemsim/gpumemsim.h"
#include "runtime/cuda_driver_abi.h"
#include "runtime/rt_state.h"

/* axpb: x[i] = fma(a, x[i], b) for i < n, and one atomic increment of `hits` per element;
 * poke: stores 1 at the address it is given (a fault when that is not device memory). */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".global .align 4 .u32 hits;\n"
    ".const .align 4 .u32 limit = 7;\n"
    ".visible .entry axpb(.param .u64 x, .param .f32 a, .param .f32 b, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [x];\n"
    "  ld.param.f32 %f1, [a];\n"
    "  ld.param.f32 %f2, [b];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p, %r5, %r1;\n"
    "  @%p bra DONE;\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r5, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.f32 %f3, [%rd3];\n"
    "  fma.rn.f32 %f4, %f1, %f3, %f2;\n"
    "  st.global.f32 [%rd3], %f4;\n"
    "  atom.global.add.u32 %r2, [hits], 1;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry poke(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r;\n"
    "  .reg .b64 %rd;\n"
    "  ld.param.u64 %rd, [p];\n"
    "  mov.u32 %r, 1;\n"
    "  st.global.u32 [%rd], %r;\n"
    "  ret;\n"
    "}\n";

enum { N = 1000 };

typedef CUresult (*no_args_fn)(void);

static const struct {
    const char *name;
    int implemented;
} entries[] = {
#define IMPL 1
#define STUB 0
#define CUDRV_ENTRY(name, how) {#name, how},
#include "runtime/cuda_driver_entries.def"
#undef CUDRV_ENTRY
#undef IMPL
#undef STUB
};

/* Runs `fn` with stderr going to a buffer, returned (static, NUL-terminated). */
static const char *captured(void (*fn)(void))
{
    static char text[4096];
    FILE *f = tmpfile();
    assert_non_null(f);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(f), 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static CUresult stub_result[2];

static void call_stub_twice(void)
{
    CUresult (*managed)(void) = (no_args_fn)dlsym(RTLD_DEFAULT, "cuMemAllocManaged");
    stub_result[0] = managed();
    stub_result[1] = managed();
}

/* A stub says so once, and answers 801 every time. */
static void test_stub_message(void **state)
{
    (void)state;
    assert_string_equal(captured(call_stub_twice),
                        "gpumemsim: cuMemAllocManaged is not supported by gpumemsim's CUDA "
                        "driver API; it returns CUDA_ERROR_NOT_SUPPORTED [RT-DRIVER-001]\n");
    assert_int_equal(stub_result[0], CUDA_ERROR_NOT_SUPPORTED);
    assert_int_equal(stub_result[1], CUDA_ERROR_NOT_SUPPORTED);
}

/* Every row is defined; every stub answers 801 (their one-time messages go to /dev/null). */
static void test_entry_table(void **state)
{
    (void)state;
    size_t count = sizeof entries / sizeof entries[0], implemented = 0;
    assert_int_equal(count, 637);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    for (size_t i = 0; i < count; i++) {
        void *fn = dlsym(RTLD_DEFAULT, entries[i].name);
        if (!fn)
            fail_msg("%s is not defined", entries[i].name);
        if (i > 0 && strcmp(entries[i - 1].name, entries[i].name) >= 0)
            fail_msg("%s is out of order", entries[i].name);
        if (entries[i].implemented)
            implemented++;
        else
            assert_int_equal(((no_args_fn)fn)(), CUDA_ERROR_NOT_SUPPORTED);
    }
    dup2(saved, 2);
    close(null);
    close(saved);
    assert_int_equal(implemented, 56);
}

static void test_before_init_and_errors(void **state)
{
    (void)state;
    int n = -1;
    const char *s = NULL;
    assert_int_equal(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(cuDriverGetVersion(&n), CUDA_SUCCESS);
    assert_int_equal(n, 13000);
    assert_int_equal(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s), CUDA_SUCCESS);
    assert_string_equal(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
    assert_int_equal(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &s), CUDA_SUCCESS);
    assert_string_equal(s, "illegal address");
    assert_int_equal(cuGetErrorString(CUDA_SUCCESS, &s), CUDA_SUCCESS);
    assert_string_equal(s, "no error");
    assert_int_equal(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    assert_null(s);
    assert_int_equal(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
}

static void test_device_and_context(void **state)
{
    (void)state;
    int n = 0, v = 0, major = 0, minor = 0;
    CUdevice dev = -1;
    char name[64];
    size_t total = 0;
    assert_int_equal(cuDeviceGetCount(&n), CUDA_SUCCESS);
    assert_int_equal(n, 1);
    assert_int_equal(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    assert_int_equal(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    assert_int_equal(dev, 0);
    assert_int_equal(cuDeviceGetName(name, sizeof name, dev), CUDA_SUCCESS);
    assert_string_equal(name, "gpumemsim h100");
    assert_int_equal(cuDeviceComputeCapability(&major, &minor, dev), CUDA_SUCCESS);
    assert_int_equal(major * 10 + minor, 90);
    assert_int_equal(cuDeviceGetAttribute(&v, 16, dev), CUDA_SUCCESS); /* SM count */
    assert_int_equal(v, 132);
    assert_int_equal(cuDeviceGetAttribute(&v, 1, dev), CUDA_SUCCESS); /* threads per block */
    assert_int_equal(v, 1024);
    assert_int_equal(cuDeviceGetAttribute(&v, 10, dev), CUDA_SUCCESS); /* warp size */
    assert_int_equal(v, 32);
    assert_int_equal(cuDeviceGetAttribute(&v, 38, dev), CUDA_SUCCESS); /* L2 bytes */
    assert_int_equal(v, 50 << 20);
    assert_int_equal(cuDeviceGetAttribute(&v, 148, dev), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuDeviceTotalMem_v2(&total, dev), CUDA_SUCCESS);
    assert_int_equal(total, 80ull << 30);

    CUcontext ctx = NULL, cur = NULL, primary = NULL;
    assert_int_equal(cuCtxCreate_v4(&ctx, NULL, 0, dev), CUDA_SUCCESS);
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, ctx);
    assert_int_equal(cuDevicePrimaryCtxRetain(&primary, dev), CUDA_SUCCESS);
    assert_int_equal(cuCtxSetCurrent(primary), CUDA_SUCCESS);
    assert_int_equal(cuCtxDestroy_v2(primary), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, primary);
    assert_int_equal(cuCtxSynchronize(), CUDA_SUCCESS);
}

/* The bytes of tests/fatbin/<name> (malloc'd). */
static void *load_blob(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/fatbin/%s", GMS_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    void *bytes = malloc(16384);
    assert_non_null(bytes);
    assert_true(fread(bytes, 1, 16384, f) > 16);
    fclose(f);
    return bytes;
}

static CUresult load_results[4];
static CUmodule fat_module;

static void load_modules(void)
{
    static const unsigned char cubin[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    CUmodule m = NULL;
    load_results[0] = cuModuleLoadData(&m, ".version 8.0\n.target sm_80\n.address_size 64\n"
                                           ".visible .entry k() { frobnicate; }\n");
    load_results[1] = cuModuleLoadData(&m, cubin);
    void *noptx = load_blob("noptx.fatbin"), *multi = load_blob("multi.fatbin");
    load_results[2] = cuModuleLoadData(&m, noptx);
    assert_null(m);
    load_results[3] = cuModuleLoadData(&fat_module, multi);
    free(noptx);
    free(multi);
}

/* Refused modules leave nothing behind; a fat binary adds its PTX for the device (sm_90). */
static void test_modules_before_use(void **state)
{
    (void)state;
    const char *err = captured(load_modules);
    assert_int_equal(load_results[0], CUDA_ERROR_INVALID_PTX);
    assert_int_equal(load_results[1], CUDA_ERROR_NOT_SUPPORTED);
    assert_int_equal(load_results[2], CUDA_ERROR_INVALID_IMAGE);
    assert_int_equal(load_results[3], CUDA_SUCCESS);
    assert_non_null(strstr(err, "cuModuleLoadData1.ptx:4:"));
    assert_non_null(strstr(err, "gpumemsim: cuModuleLoadData: module 2 is a cubin, machine code "
                                "the simulator cannot run; load its PTX instead "
                                "[RT-DRIVER-002]\n"));
    assert_non_null(strstr(err, "gpumemsim: cuModuleLoadData: the fat binary holds no PTX, only "
                                "machine code for real GPUs, and the simulator runs PTX: compile "
                                "with nvcc -gencode arch=compute_80,code=compute_80 added (or "
                                "-arch=sm_80, which embeds both) [RT-FATBIN-009]\n"));
    CUmodule m = NULL;
    assert_int_equal(cuModuleLoadData(&m, NULL), CUDA_ERROR_INVALID_VALUE);
}

static CUmodule module;
static CUfunction axpb, poke;
static CUdeviceptr x;

static void test_load_and_launch(void **state)
{
    (void)state;
    char info_log[16] = "stale", error_log[16] = "stale";
    CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER};
    void *values[] = {info_log, error_log};
    assert_int_equal(cuModuleLoadDataEx(&module, ptx, 2, options, values), CUDA_SUCCESS);
    assert_string_equal(info_log, "");
    assert_string_equal(error_log, "");
    assert_int_equal(cuModuleGetFunction(&axpb, module, "axpb"), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&poke, module, "poke"), CUDA_SUCCESS);
    CUfunction none;
    assert_int_equal(cuModuleGetFunction(&none, module, "nothing"), CUDA_ERROR_NOT_FOUND);

    float host[N], expect[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i * 0.25f - 3.0f;
    float a = 1.5f, b = -0.125f;
    assert_int_equal(cuMemAlloc_v2(&x, N * sizeof(float)), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc_v2(&x, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyHtoD_v2(x, host, sizeof host), CUDA_SUCCESS);
    unsigned n = N;
    void *params[] = {&x, &a, &b, &n};
    assert_int_equal(cuLaunchKernel(axpb, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params,
                                    NULL), CUDA_SUCCESS);
    float back[N];
    assert_int_equal(cuMemcpyDtoH_v2(back, x, sizeof back), CUDA_SUCCESS);
    for (int i = 0; i < N; i++) {
        expect[i] = fmaf(a, host[i], b);
        if (back[i] != expect[i])
            fail_msg("x[%d] = %g, expected %g", i, back[i], expect[i]);
    }
    CUdeviceptr hits;
    size_t bytes = 0;
    unsigned count = 0;
    assert_int_equal(cuModuleGetGlobal_v2(&hits, &bytes, module, "hits"), CUDA_SUCCESS);
    assert_int_equal(bytes, 4);
    assert_int_equal(cuMemcpyDtoH_v2(&count, hits, 4), CUDA_SUCCESS);
    assert_int_equal(count, N);
    assert_int_equal(cuModuleGetGlobal_v2(&hits, &bytes, module, "nothing"), CUDA_ERROR_NOT_FOUND);

    /* the fat binary's kernel: x[i] *= a for i < n */
    CUfunction scale;
    assert_int_equal(cuModuleGetFunction(&scale, fat_module, "_Z5scalePffi"), CUDA_SUCCESS);
    float two = 2.0f;
    int count_n = N;
    void *scale_params[] = {&x, &two, &count_n};
    assert_int_equal(cuLaunchKernel(scale, 8, 1, 1, 128, 1, 1, 0, NULL, scale_params, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH_v2(back, x, sizeof back), CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        if (back[i] != 2.0f * expect[i])
            fail_msg("scaled x[%d] = %g, expected %g", i, back[i], 2.0f * expect[i]);
}

/* A second module, as a JIT compiler hands one over after launches of the first: its own
 * `hits` and its own `axpb` (x[i] += 1 for i < n, on one block; 2 added to `hits` per element). */
static const char ptx_later[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".global .align 4 .u32 hits;\n"
    ".visible .entry axpb(.param .u64 x, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .f32 %f<3>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [x];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  setp.ge.u32 %p, %r2, %r1;\n"
    "  @%p bra DONE;\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.f32 %f1, [%rd3];\n"
    "  add.f32 %f2, %f1, 0f3F800000;\n"
    "  st.global.f32 [%rd3], %f2;\n"
    "  atom.global.add.u32 %r3, [hits], 2;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* `hits` of module m, read from the device. */
static unsigned hits_of(CUmodule m)
{
    CUdeviceptr hits;
    size_t bytes = 0;
    unsigned count = 0;
    assert_int_equal(cuModuleGetGlobal_v2(&hits, &bytes, m, "hits"), CUDA_SUCCESS);
    assert_int_equal(bytes, 4);
    assert_int_equal(cuMemcpyDtoH_v2(&count, hits, 4), CUDA_SUCCESS);
    return count;
}

static CUresult const_result;

static void const_call(void)
{
    CUdeviceptr limit;
    const_result = cuModuleGetGlobal_v2(&limit, NULL, module, "limit");
}

/* A .const variable has no device address. A module loaded after launches of the others loads
 * as a module of its own: its functions and variables are its own, same names included, and
 * the first module's kernel runs as before with its own variable. */
static void test_const_and_later_module(void **state)
{
    (void)state;
    const char *err = captured(const_call);
    assert_int_equal(const_result, CUDA_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(err, "gpumemsim: cuModuleGetGlobal: limit is a .const variable, which "
                                "has no device address in the simulator [RT-DRIVER-003]\n"));

    CUmodule later = NULL;
    CUfunction later_axpb, none;
    assert_int_equal(cuModuleLoadData(&later, ptx_later), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&later_axpb, later, "axpb"), CUDA_SUCCESS);
    assert_ptr_not_equal(later_axpb, axpb);
    assert_int_equal(cuModuleGetFunction(&none, later, "poke"), CUDA_ERROR_NOT_FOUND);
    assert_int_equal(cuModuleGetFunction(&none, fat_module, "axpb"), CUDA_ERROR_NOT_FOUND);
    assert_int_equal(hits_of(later), 0);

    CUdeviceptr y;
    unsigned n = N;
    assert_int_equal(cuMemAlloc_v2(&y, N * sizeof(float)), CUDA_SUCCESS);
    assert_int_equal(cuMemsetD32_v2(y, 0, N), CUDA_SUCCESS);
    void *later_params[] = {&y, &n};
    assert_int_equal(cuLaunchKernel(later_axpb, 1, 1, 1, N, 1, 1, 0, NULL, later_params, NULL),
                     CUDA_SUCCESS);
    float back[N];
    assert_int_equal(cuMemcpyDtoH_v2(back, y, sizeof back), CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        if (back[i] != 1.0f)
            fail_msg("later y[%d] = %g, expected 1", i, back[i]);
    assert_int_equal(hits_of(later), 2 * N);
    assert_int_equal(hits_of(module), N); /* the first module's, from test_load_and_launch */

    /* The first module's axpb again, after the later module ran: y = 2y + 0.5. */
    float a = 2.0f, b = 0.5f;
    void *params[] = {&y, &a, &b, &n};
    assert_int_equal(cuLaunchKernel(axpb, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params,
                                    NULL), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH_v2(back, y, sizeof back), CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        if (back[i] != 2.5f)
            fail_msg("y[%d] = %g, expected 2.5", i, back[i]);
    assert_int_equal(hits_of(module), 2 * N);
    assert_int_equal(hits_of(later), 2 * N);
    /* Unloading forgets the handle; the function found in it stays launchable. */
    assert_int_equal(cuModuleUnload(later), CUDA_SUCCESS);
    assert_int_equal(cuLaunchKernel(later_axpb, 1, 1, 1, N, 1, 1, 0, NULL, later_params, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH_v2(back, y, sizeof back), CUDA_SUCCESS);
    assert_true(back[0] == 3.5f && back[N - 1] == 3.5f);
    assert_int_equal(cuMemFree_v2(y), CUDA_SUCCESS);
}

/* The same kernel through cuLaunchKernel's `extra` parameter block, on memory set by memset. */
static void test_extra_and_memset(void **state)
{
    (void)state;
    CUdeviceptr y, z;
    assert_int_equal(cuMemAlloc_v2(&y, N * sizeof(float)), CUDA_SUCCESS);
    assert_int_equal(cuMemsetD32_v2(y, 0x40000000u, N), CUDA_SUCCESS); /* 2.0f */
    struct {
        CUdeviceptr x;
        float a, b;
        unsigned n;
    } block = {y, 3.0f, 1.0f, N};
    size_t size = sizeof block;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &block, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    assert_int_equal(cuLaunchKernel(axpb, 4, 1, 1, 256, 1, 1, 0, NULL, NULL, extra),
                     CUDA_SUCCESS);
    float back[N];
    assert_int_equal(cuMemcpyDtoH_v2(back, y, sizeof back), CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        if (back[i] != 7.0f)
            fail_msg("y[%d] = %g, expected 7", i, back[i]);
    assert_int_equal(cuMemAlloc_v2(&z, 16), CUDA_SUCCESS);
    assert_int_equal(cuMemsetD8_v2(z, 0xab, 16), CUDA_SUCCESS);
    unsigned char bytes[16];
    assert_int_equal(cuMemcpyDtoH_v2(bytes, z, 16), CUDA_SUCCESS);
    for (int i = 0; i < 16; i++)
        assert_int_equal(bytes[i], 0xab);
    assert_int_equal(cuMemFree_v2(z + 4), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemFree_v2(z), CUDA_SUCCESS);
    assert_int_equal(cuMemFree_v2(z), CUDA_ERROR_INVALID_VALUE);
}

static void test_function_attributes(void **state)
{
    (void)state;
    int v = -1;
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, axpb),
                     CUDA_SUCCESS);
    assert_int_equal(v, 1024);
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, axpb),
                     CUDA_SUCCESS);
    assert_int_equal(v, 0);
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, axpb),
                     CUDA_SUCCESS);
    assert_int_equal(v, 90);
    assert_int_equal(cuFuncSetAttribute(axpb, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        65536), CUDA_SUCCESS);
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        axpb), CUDA_SUCCESS);
    assert_int_equal(v, 65536);
    assert_int_equal(cuFuncGetAttribute(&v, 99, axpb), CUDA_ERROR_INVALID_VALUE);
    void *fn = NULL;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    assert_int_equal(cuGetProcAddress_v2("cuMemAlloc", &fn, 13000, 0, &found), CUDA_SUCCESS);
    assert_ptr_equal(fn, (void *)cuMemAlloc_v2);
    assert_int_equal(found, CU_GET_PROC_ADDRESS_SUCCESS);
    assert_int_equal(cuGetProcAddress_v2("cuCtxCreate", &fn, 13000, 0, &found), CUDA_SUCCESS);
    assert_ptr_equal(fn, (void *)cuCtxCreate_v4);
    assert_int_equal(cuGetProcAddress_v2("cuNothing", &fn, 13000, 0, &found),
                     CUDA_ERROR_NOT_FOUND);
    assert_int_equal(found, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
}

/* A store to an address that is no allocation faults; the context stays broken. */
static void test_fault_is_sticky(void **state)
{
    (void)state;
    CUdeviceptr bad = 0x10;
    void *params[] = {&bad};
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    CUresult e = cuLaunchKernel(poke, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);
    dup2(saved, 2);
    close(null);
    close(saved);
    assert_int_equal(e, CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    CUdeviceptr p;
    assert_int_equal(cuMemAlloc_v2(&p, 4), CUDA_ERROR_ILLEGAL_ADDRESS);
}

/* The device's timing-model cycles so far (gms_totals.cycles). */
static uint64_t device_cycles(void)
{
    gms_totals t;
    assert_int_equal(gms_device_totals(rt_device(), &t), GMS_OK);
    return t.cycles;
}

/* Events around a launch: the elapsed time is the launch's cycles at the preset's clock (h100:
 * 1980 MHz), and the checks of bad handles, unrecorded events and NULL outputs. */
static void test_events(void **state)
{
    (void)state;
    CUevent start, end, unrecorded;
    assert_int_equal(cuEventCreate(&start, 0), CUDA_SUCCESS);
    assert_int_equal(cuEventCreate(&end, 0), CUDA_SUCCESS);
    assert_int_equal(cuEventCreate(&unrecorded, 0), CUDA_SUCCESS);
    assert_int_equal(cuEventCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    float ms = -1.0f;
    assert_int_equal(cuEventElapsedTime(&ms, start, end), CUDA_ERROR_NOT_READY);

    assert_int_equal(cuEventRecord(start, NULL), CUDA_SUCCESS);
    uint64_t before = device_cycles();
    float a = 1.0f, b = 0.5f;
    unsigned n = N;
    void *params[] = {&x, &a, &b, &n};
    assert_int_equal(cuLaunchKernel(axpb, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params,
                                    NULL), CUDA_SUCCESS);
    assert_int_equal(cuEventRecord(end, NULL), CUDA_SUCCESS);
    assert_int_equal(cuEventSynchronize(end), CUDA_SUCCESS);
    assert_int_equal(cuEventQuery(end), CUDA_SUCCESS);
    uint64_t cycles = device_cycles() - before;
    assert_true(cycles > 0); /* timing is on by default */
    gms_device_info info;
    assert_int_equal(gms_device_info_get(rt_device(), &info), GMS_OK);
    assert_int_equal(info.clock_mhz, 1980);
    assert_int_equal(cuEventElapsedTime(&ms, start, end), CUDA_SUCCESS);
    assert_true(ms == (float)((double)cycles / 1980.0 / 1000.0));
    float ms2 = -1.0f;
    assert_int_equal(cuEventElapsedTime_v2(&ms2, start, end), CUDA_SUCCESS);
    assert_true(ms2 == ms);
    assert_int_equal(cuEventElapsedTime(&ms2, end, start), CUDA_SUCCESS);
    assert_true(ms2 == -ms);

    assert_int_equal(cuEventElapsedTime(NULL, start, end), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuEventElapsedTime(&ms, start, unrecorded), CUDA_ERROR_NOT_READY);
    assert_int_equal(cuEventElapsedTime(&ms, start, NULL), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuEventRecord(NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuEventSynchronize(NULL), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuEventDestroy(unrecorded), CUDA_SUCCESS);
    assert_int_equal(cuEventDestroy_v2(start), CUDA_SUCCESS);
    assert_int_equal(cuEventDestroy(end), CUDA_SUCCESS);
    assert_int_equal(cuEventDestroy(NULL), CUDA_ERROR_INVALID_HANDLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stub_message),
        cmocka_unit_test(test_entry_table),
        cmocka_unit_test(test_before_init_and_errors),
        cmocka_unit_test(test_device_and_context),
        cmocka_unit_test(test_modules_before_use),
        cmocka_unit_test(test_load_and_launch),
        cmocka_unit_test(test_const_and_later_module),
        cmocka_unit_test(test_extra_and_memset),
        cmocka_unit_test(test_function_attributes),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_fault_is_sticky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
