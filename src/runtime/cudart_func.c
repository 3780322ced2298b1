/* Kernel attributes, occupancy, limits and the L2's persisting set-aside in gpumemsim's
 * libcudart (docs/cuda-runtime.md, "Runtime API"). */
#include "runtime/cudart_internal.h"

CUDART_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                                const void *func);
CUDART_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
CUDART_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig);
CUDART_EXPORT cudaError_t cudaDeviceSetCacheConfig(int cacheConfig);
CUDART_EXPORT cudaError_t cudaDeviceGetCacheConfig(int *pCacheConfig);
CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                        const void *func,
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize);
CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned flags);
CUDART_EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value);
CUDART_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, int limit);
CUDART_EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void);

/* The dynamic shared memory a kernel may use unless cudaFuncSetAttribute raised it. */
enum { DEFAULT_DYNAMIC_SHARED = 48 * 1024 };

/* The module's description of the kernel behind host stub `func`; cudaSuccess or the error. */
static cudaError_t kernel_of(const void *func, rt_kernel **k, gms_kernel_info *info)
{
    *k = rt_kernel_by_stub(func);
    if (!*k)
        return cudaErrorInvalidDeviceFunction;
    gms_module *m = rt_module();
    if (!m)
        return cudaErrorInvalidKernelImage;
    return gms_module_kernel_find(m, (*k)->name, info) == GMS_OK ? cudaSuccess
                                                                  : cudaErrorInvalidDeviceFunction;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    rt_kernel *k;
    gms_kernel_info info;
    gms_device_info dev;
    if (!attr)
        return cudart_set(cudaErrorInvalidValue);
    cudaError_t e = kernel_of(func, &k, &info);
    if (e)
        return cudart_set(e);
    gms_device_info_get(cudart_device(), &dev);
    *attr = (struct cudaFuncAttributes){0};
    attr->sharedSizeBytes = info.static_shared_bytes;
    uint32_t limit = dev.max_threads_per_cta;
    if (info.maxntid[0])
        limit = info.maxntid[0] * (info.maxntid[1] ? info.maxntid[1] : 1) *
                (info.maxntid[2] ? info.maxntid[2] : 1);
    if (info.reqntid[0])
        limit = info.reqntid[0] * (info.reqntid[1] ? info.reqntid[1] : 1) *
                (info.reqntid[2] ? info.reqntid[2] : 1);
    attr->maxThreadsPerBlock = (int)limit;
    attr->numRegs = 32; /* PTX has no register allocation; a typical figure */
    attr->ptxVersion = attr->binaryVersion = (int)dev.sm_version;
    attr->maxDynamicSharedSizeBytes =
        k->max_dynamic_shared >= 0 ? k->max_dynamic_shared
                                   : DEFAULT_DYNAMIC_SHARED - (int)info.static_shared_bytes;
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    rt_kernel *k = rt_kernel_by_stub(func);
    if (!k)
        return cudart_set(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        gms_device_info dev;
        if (value < 0 || !cudart_device() ||
            gms_device_info_get(cudart_device(), &dev) != GMS_OK ||
            (uint32_t)value > dev.max_shared_per_cta_bytes)
            return cudart_set(cudaErrorInvalidValue);
        rt_lock();
        k->max_dynamic_shared = value;
        rt_unlock();
        return cudaSuccess;
    }
    /* The carve-out preference and the others change nothing the simulator models. */
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    (void)cacheConfig;
    return rt_kernel_by_stub(func) ? cudaSuccess : cudart_set(cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaDeviceSetCacheConfig(int cacheConfig)
{
    (void)cacheConfig;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(int *pCacheConfig)
{
    if (!pCacheConfig)
        return cudart_set(cudaErrorInvalidValue);
    *pCacheConfig = 0; /* cudaFuncCachePreferNone */
    return cudaSuccess;
}

/* CTAs of `threads` threads and `shared` bytes of shared memory one SM holds at once, by the
 * limits an NVIDIA SM of compute capability 7.0 and later has: 2048 threads, 32 CTAs, and the
 * shared memory of the preset. */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned flags)
{
    (void)flags;
    rt_kernel *k;
    gms_kernel_info info;
    gms_device_info dev;
    if (!numBlocks || blockSize <= 0)
        return cudart_set(cudaErrorInvalidValue);
    cudaError_t e = kernel_of(func, &k, &info);
    if (e)
        return cudart_set(e);
    gms_device_info_get(cudart_device(), &dev);
    uint64_t warps = ((uint64_t)blockSize + 31) / 32;
    uint64_t by_threads = 64 / warps, n = by_threads < 32 ? by_threads : 32;
    uint64_t shared = info.static_shared_bytes + dynamicSMemSize;
    uint64_t per_sm = dev.max_shared_per_cta_bytes + 1024;
    if (shared && (shared + 1024) * n > per_sm)
        n = per_sm / (shared + 1024);
    if ((uint32_t)blockSize > dev.max_threads_per_cta)
        n = 0;
    *numBlocks = (int)n;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, 0);
}

/* ---- limits and the persisting L2 ---- */

static size_t persisting_bytes, heap_bytes = 8u << 20;

cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    gms_device *dev = cudart_device();
    if (!dev)
        return cudart_set(cudaErrorInitializationError);
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = GMS_OK;
    cudaError_t e = cudaSuccess;
    rt_lock();
    if (limit == cudaLimitPersistingL2CacheSize) {
        st = gms_device_set_l2_persisting(dev, value, dl);
        if (st == GMS_OK)
            persisting_bytes = value;
    } else if (limit == cudaLimitMallocHeapSize) {
        st = gms_device_set(dev, GMS_SET_HEAP_BYTES, value, dl);
        if (st == GMS_OK)
            heap_bytes = value;
    } else if (limit != cudaLimitStackSize && limit != cudaLimitPrintfFifoSize) {
        e = cudaErrorUnsupportedLimit;
    }
    rt_unlock();
    if (st != GMS_OK) {
        rt_print_diags("cudaDeviceSetLimit", dl);
        e = cudaErrorInvalidValue;
    }
    gms_diag_list_destroy(dl);
    return e ? cudart_set(e) : cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, int limit)
{
    if (!pValue)
        return cudart_set(cudaErrorInvalidValue);
    rt_lock();
    switch (limit) {
    case cudaLimitPersistingL2CacheSize: *pValue = persisting_bytes; break;
    case cudaLimitMallocHeapSize: *pValue = heap_bytes; break;
    case cudaLimitStackSize: *pValue = 1024; break;
    case cudaLimitPrintfFifoSize: *pValue = 1u << 20; break;
    default: rt_unlock(); return cudart_set(cudaErrorUnsupportedLimit);
    }
    rt_unlock();
    return cudaSuccess;
}

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    gms_device *dev = cudart_device();
    if (!dev)
        return cudart_set(cudaErrorInitializationError);
    return gms_device_reset_persisting(dev, NULL) == GMS_OK ? cudaSuccess
                                                            : cudart_set(cudaErrorUnknown);
}
