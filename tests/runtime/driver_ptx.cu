// A driver-API program of the kind that JIT-compiles its kernels (NVRTC, Numba, Triton): it
// holds its kernel as PTX text, loads it with cuModuleLoadDataEx, and runs it with
// cuLaunchKernel, checking every result on the host. Run by tests/runtime/driver_ptx.sh under
// gpumemsim's libcuda.so.1 (docs/cuda-runtime.md, "Driver API"). Prints "driver_ptx: ok".
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Written for this test: y[i] = a * x[i] + y[i] (one fma) and the sum of y into `total`
// with one atomic add per element.
static const char kernel_ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".global .align 4 .f32 total;\n"
    ".visible .entry saxpy(.param .u64 px, .param .u64 py, .param .f32 a, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<5>;\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [px];\n"
    "  ld.param.u64 %rd2, [py];\n"
    "  ld.param.f32 %f1, [a];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r2, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p, %r2, %r1;\n"
    "  @%p bra DONE;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.f32 %f2, [%rd4];\n"
    "  ld.global.f32 %f3, [%rd5];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "  st.global.f32 [%rd5], %f4;\n"
    "  red.global.add.f32 [total], %f4;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

#define CHECK(call)                                                                            \
    do {                                                                                       \
        CUresult e_ = (call);                                                                  \
        if (e_ != CUDA_SUCCESS) {                                                              \
            const char *name_ = "?";                                                           \
            cuGetErrorName(e_, &name_);                                                        \
            fprintf(stderr, "driver_ptx: %s failed: %s (%d)\n", #call, name_, (int)e_);       \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main(void)
{
    const unsigned n = 4096;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction saxpy;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    char name[128];
    int major = 0, minor = 0;
    CHECK(cuDeviceGetName(name, sizeof name, dev));
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    printf("driver_ptx: device %s, sm_%d%d\n", name, major, minor);
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    char log[256] = "";
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(size_t)sizeof log};
    CHECK(cuModuleLoadDataEx(&mod, kernel_ptx, 2, opts, vals));
    CHECK(cuModuleGetFunction(&saxpy, mod, "saxpy"));

    float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
    for (unsigned i = 0; i < n; i++) {
        x[i] = (float)(i % 17) - 8.0f;
        y[i] = 0.5f * (float)(i % 5);
    }
    CUdeviceptr dx, dy, dtotal;
    size_t total_bytes;
    CHECK(cuMemAlloc(&dx, n * sizeof(float)));
    CHECK(cuMemAlloc(&dy, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dx, x, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dy, y, n * sizeof(float)));
    CHECK(cuModuleGetGlobal(&dtotal, &total_bytes, mod, "total"));
    float a = 2.0f;
    void *args[] = {&dx, &dy, &a, (void *)&n};
    CUevent start, stop;
    CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CHECK(cuEventRecord(start, NULL));
    CHECK(cuLaunchKernel(saxpy, n / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CHECK(cuEventRecord(stop, NULL));
    CHECK(cuEventSynchronize(stop));
    CHECK(cuCtxSynchronize());
    // the launch's simulated cycles at h100's clock: a few microseconds, never zero
    float ms = -1.0f, back_ms = 1.0f;
    CHECK(cuEventElapsedTime(&ms, start, stop));
    CHECK(cuEventElapsedTime(&back_ms, stop, start));
    if (!(ms > 0.0f && ms < 1.0f) || back_ms != -ms) {
        fprintf(stderr, "driver_ptx: elapsed %g ms (backwards %g ms)\n", ms, back_ms);
        return 1;
    }
    CHECK(cuEventDestroy(start));
    CHECK(cuEventDestroy(stop));

    float *out = (float *)malloc(n * sizeof(float)), total = 0.0f;
    CHECK(cuMemcpyDtoH(out, dy, n * sizeof(float)));
    CHECK(cuMemcpyDtoH(&total, dtotal, sizeof total));
    double sum = 0.0;
    for (unsigned i = 0; i < n; i++) {
        float want = fmaf(a, x[i], y[i]);
        if (out[i] != want) {
            fprintf(stderr, "driver_ptx: y[%u] = %g, expected %g\n", i, out[i], want);
            return 1;
        }
        sum += want;
    }
    // every partial sum is a multiple of 0.5 below 2^24: the float additions are exact
    if (total_bytes != sizeof(float) || total != (float)sum) {
        fprintf(stderr, "driver_ptx: total = %g (%zu bytes), expected %g\n", total,
                total_bytes, sum);
        return 1;
    }
    int regs = -1;
    CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, saxpy));
    CUfunction missing;
    if (cuModuleGetFunction(&missing, mod, "nothing") != CUDA_ERROR_NOT_FOUND) {
        fprintf(stderr, "driver_ptx: a missing function was found\n");
        return 1;
    }
    CHECK(cuMemFree(dx));
    CHECK(cuMemFree(dy));
    CHECK(cuModuleUnload(mod));
    CHECK(cuCtxDestroy(ctx));
    printf("driver_ptx: ok, %u elements, total %g, max threads per block %d\n", n, total, regs);
    free(x);
    free(y);
    free(out);
    return 0;
}
