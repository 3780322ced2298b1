/* Registration and launches of gpumemsim's libcudart (docs/cuda-runtime.md, "Runtime API"):
 * what nvcc's generated host code calls before main (__cudaRegisterFatBinary and the
 * registrations of kernels and variables) and at every <<<>>> launch (push and pop of the
 * call configuration, __cudaGetKernel, __cudaLaunchKernel), and the launch calls programs make
 * themselves (cudaLaunchKernel, cudaLaunchKernelEx, cudaLaunchCooperativeKernel). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart_internal.h"
#include "runtime/fatbin.h"

CUDART_EXPORT void **__cudaRegisterFatBinary(void *fatCubin);
CUDART_EXPORT void __cudaRegisterFatBinaryEnd(void **handle);
CUDART_EXPORT void __cudaUnregisterFatBinary(void **handle);
CUDART_EXPORT char __cudaInitModule(void **handle);
CUDART_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                          const char *deviceName, int thread_limit, void *tid,
                                          void *bid, void *bDim, void *gDim, int *wSize);
CUDART_EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                                     const char *deviceName, int ext, size_t size, int constant,
                                     int global);
CUDART_EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                            char *deviceAddress, const char *deviceName, int ext,
                                            size_t size, int constant, int global);
CUDART_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                   void *stream);
CUDART_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                     size_t *sharedMem, void *stream);
CUDART_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
CUDART_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
CUDART_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem, cudaStream_t stream);
CUDART_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
                                                  dim3 blockDim, void **args, size_t sharedMem,
                                                  cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                                      dim3 blockDim, void **args,
                                                      size_t sharedMem, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                              void **args);

/* ---- fat binaries ---- */

/* The handle nvcc's code keeps for a registered fat binary; only its address matters. */
typedef struct fatbin_handle {
    void *fatbin;
    int index;
} fatbin_handle;

/* The PTX of the list best for a GPU of compute capability `sm` (x10): the highest target not
 * above it, else the lowest one (which the simulator loads with a warning). */
static const rt_ptx_module *best_ptx(const rt_ptx_list *l, unsigned sm)
{
    const rt_ptx_module *best = NULL, *lowest = NULL;
    for (size_t i = 0; i < l->count; i++) {
        const rt_ptx_module *p = &l->items[i];
        if (p->sm <= sm && (!best || p->sm > best->sm))
            best = p;
        if (!lowest || p->sm < lowest->sm)
            lowest = p;
    }
    return best ? best : lowest;
}

void **__cudaRegisterFatBinary(void *fatCubin)
{
    static int count;
    fatbin_handle *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->fatbin = fatCubin;
    h->index = count++;
    gms_device *dev = cudart_device();
    gms_device_info info = {0};
    if (dev)
        gms_device_info_get(dev, &info);
    rt_ptx_list l = {0};
    char err[256], name[64];
    if (rt_fatbin_ptx(fatCubin, &l, err, sizeof err) != 0) {
        fprintf(stderr, "gpumemsim: fat binary %d: %s\n", h->index, err);
        return (void **)h;
    }
    const rt_ptx_module *p = best_ptx(&l, info.sm_version);
    snprintf(name, sizeof name, "fatbin%d.sm_%u.ptx", h->index, p->sm);
    rt_module_add(name, p->text, p->len, p->sm);
    rt_ptx_list_free(&l);
    return (void **)h;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
    free(handle);
}

char __cudaInitModule(void **handle)
{
    (void)handle;
    return rt_module() != NULL;
}

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize)
{
    (void)handle, (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim,
        (void)gDim, (void)wSize;
    if (!rt_kernel_register(hostFun, deviceFun))
        fprintf(stderr, "gpumemsim: out of memory registering kernel %s\n", deviceFun);
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)handle, (void)deviceName, (void)ext, (void)global;
    if (rt_var_register(hostVar, deviceAddress, size, constant, 0))
        fprintf(stderr, "gpumemsim: out of memory registering variable %s\n", deviceAddress);
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global)
{
    (void)handle, (void)deviceName, (void)ext, (void)global;
    if (rt_var_register(hostVarPtrAddress, deviceAddress, size, constant, 1))
        fprintf(stderr, "gpumemsim: out of memory registering variable %s\n", deviceAddress);
}

/* ---- the call configuration of <<<>>> ---- */

typedef struct call_config {
    dim3 grid, block;
    size_t shared;
    void *stream;
} call_config;

enum { MAX_CONFIGS = 32 }; /* nesting depth of <<<>>> inside argument expressions */
static _Thread_local call_config configs[MAX_CONFIGS];
static _Thread_local unsigned nconfigs;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, void *stream)
{
    if (nconfigs == MAX_CONFIGS)
        return 1;
    configs[nconfigs++] = (call_config){gridDim, blockDim, sharedMem, stream};
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream)
{
    if (!nconfigs)
        return cudart_set(cudaErrorMissingConfiguration);
    call_config c = configs[--nconfigs];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    memcpy(stream, &c.stream, sizeof c.stream);
    return cudaSuccess;
}

/* ---- launches ---- */

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    rt_kernel *k = rt_kernel_by_stub(hostFun);
    if (!kernel)
        return cudart_set(cudaErrorInvalidValue);
    *kernel = k;
    return cudart_set(k ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    return __cudaGetKernel(kernel, hostFun);
}

/* Whether `shared` bytes of dynamic shared memory are more than kernel k may use: as on a GPU,
 * more than 48 KiB per CTA (static and dynamic) needs cudaFuncSetAttribute's
 * cudaFuncAttributeMaxDynamicSharedMemorySize first (RT-CUDART-006, printed). */
static int dynamic_shared_refused(const rt_kernel *k, size_t shared)
{
    gms_kernel_info info;
    gms_module *m = rt_module();
    if (!m || gms_module_kernel_find(m, k->name, &info) != GMS_OK)
        return 0; /* the launch reports it */
    size_t limit = k->max_dynamic_shared >= 0 ? (size_t)k->max_dynamic_shared
                   : info.static_shared_bytes < 48 * 1024 ? 48 * 1024 - info.static_shared_bytes
                                                          : 0;
    if (shared <= limit)
        return 0;
    fprintf(stderr, "gpumemsim: kernel %s: %zu bytes of dynamic shared memory, more than the "
                    "%zu it may use; raise the limit with cudaFuncSetAttribute("
                    "cudaFuncAttributeMaxDynamicSharedMemorySize) [RT-CUDART-006]\n",
            k->name, shared, limit);
    return 1;
}

/* Runs kernel `k` with the configuration given; the error code of the launch. */
static cudaError_t launch(const rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                          cudaStream_t stream, const gms_policy_window *window, int cooperative)
{
    gms_policy_window stream_window;
    if (!window && cudart_stream_window(stream, &stream_window))
        window = &stream_window;
    if (cudart_sticky())
        return cudart_set(cudart_sticky());
    if (!k)
        return cudart_set(cudaErrorInvalidDeviceFunction);
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z || shared > UINT32_MAX)
        return cudart_set(cudaErrorInvalidConfiguration);
    if (!cudart_device())
        return cudart_set(cudaErrorInitializationError);
    if (!rt_module()) /* no PTX (reported at registration), or it did not load */
        return cudart_set(cudaErrorNoKernelImageForDevice);
    if (dynamic_shared_refused(k, shared))
        return cudart_set(cudaErrorInvalidValue);
    rt_launch l = {.kernel = k, .grid = {grid.x, grid.y, grid.z},
                   .block = {block.x, block.y, block.z}, .shared_bytes = (uint32_t)shared,
                   .args = args, .window = window, .cooperative = cooperative};
    gms_status st = rt_launch_run(&l);
    cudaError_t e = cudart_from_status(st);
    if (st == GMS_ERR_FAULT)
        cudart_set_sticky(e);
    return cudart_set(e);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
    /* streams run in issue order, each launch to its end */
    return launch(kernel, gridDim, blockDim, args, sharedMem, stream, NULL, 0);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                    void **args, size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
    return launch(rt_kernel_by_stub(func), gridDim, blockDim, args, sharedMem, stream, NULL, 0);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream)
{
    return launch(rt_kernel_by_stub(func), gridDim, blockDim, args, sharedMem, stream, NULL, 1);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (!config)
        return cudart_set(cudaErrorInvalidValue);
    gms_policy_window w, *window = NULL;
    int cooperative = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeCooperative) {
            cooperative = a->val.cooperative != 0;
        } else if (a->id == cudaLaunchAttributeAccessPolicyWindow) {
            const struct cudaAccessPolicyWindow *p = &a->val.accessPolicyWindow;
            w = (gms_policy_window){(uint64_t)(uintptr_t)p->base_ptr, p->num_bytes, p->hitRatio,
                                   (gms_access_prop)p->hitProp, (gms_access_prop)p->missProp};
            window = &w;
        }
    }
    rt_kernel *k = rt_kernel_by_stub(func);
    return launch(k, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                  config->stream, window, cooperative);
}
