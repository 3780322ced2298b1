/* What the simulated GPU says about itself (docs/cuda-runtime.md, "Runtime API"):
 * cudaGetDeviceProperties and cudaDeviceGetAttribute, both from one filled cudaDeviceProp, with
 * the preset's figures where gpumemsim models them (SMs, compute capability, threads and
 * shared memory per CTA, L2, persisting set-aside, window size) and those of a current NVIDIA
 * GPU elsewhere. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "runtime/cudart_internal.h"

CUDART_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
CUDART_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);

/* Fills *p for the process's device; -1 when there is none. */
static int fill(struct cudaDeviceProp *p)
{
    gms_device *dev = cudart_device();
    gms_device_info info;
    if (!dev || gms_device_info_get(dev, &info) != GMS_OK)
        return -1;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "gpumemsim %s", info.name);
    p->totalGlobalMem = 80ull << 30;
    p->sharedMemPerBlock = 48 * 1024;
    p->sharedMemPerBlockOptin = info.max_shared_per_cta_bytes;
    p->sharedMemPerMultiprocessor = info.max_shared_per_cta_bytes + 1024;
    p->reservedSharedMemPerBlock = 1024;
    p->regsPerBlock = p->regsPerMultiprocessor = 65536;
    p->warpSize = 32;
    p->memPitch = 1ull << 31;
    p->maxThreadsPerBlock = (int)info.max_threads_per_cta;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 64 * 1024;
    p->major = (int)info.sm_version / 10;
    p->minor = (int)info.sm_version % 10;
    p->textureAlignment = 512;
    p->texturePitchAlignment = p->surfaceAlignment = 32;
    p->multiProcessorCount = (int)info.sm_count;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxBlocksPerMultiProcessor = 32;
    p->l2CacheSize = (int)info.l2_bytes;
    p->persistingL2CacheMaxSize = (int)info.l2_persisting_max_bytes;
    p->accessPolicyMaxWindowSize = (int)info.access_policy_max_window_bytes;
    p->memoryBusWidth = 5120;
    p->concurrentKernels = p->unifiedAddressing = p->managedMemory = 1;
    p->concurrentManagedAccess = p->cooperativeLaunch = p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = p->canMapHostMemory = 0;
    p->clusterLaunch = info.sm_version >= 90;
    p->deviceNumaId = p->hostNumaId = -1;
    return 0;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (!prop)
        return cudart_set(cudaErrorInvalidValue);
    if (device != 0)
        return cudart_set(cudaErrorInvalidDevice);
    return fill(prop) ? cudart_set(cudaErrorInitializationError) : cudaSuccess;
}

/* cudaDeviceAttr ids and the int field of cudaDeviceProp each one reads. */
static const struct {
    int attr;
    size_t offset;
    int is_size; /* the field is a size_t */
} attrs[] = {
#define INT_ATTR(id, field) {id, offsetof(struct cudaDeviceProp, field), 0},
#define SIZE_ATTR(id, field) {id, offsetof(struct cudaDeviceProp, field), 1},
    INT_ATTR(1, maxThreadsPerBlock) INT_ATTR(2, maxThreadsDim[0]) INT_ATTR(3, maxThreadsDim[1])
    INT_ATTR(4, maxThreadsDim[2]) INT_ATTR(5, maxGridSize[0]) INT_ATTR(6, maxGridSize[1])
    INT_ATTR(7, maxGridSize[2]) SIZE_ATTR(8, sharedMemPerBlock) SIZE_ATTR(9, totalConstMem)
    INT_ATTR(10, warpSize) SIZE_ATTR(11, memPitch) INT_ATTR(12, regsPerBlock)
    INT_ATTR(16, multiProcessorCount) INT_ATTR(31, concurrentKernels)
    INT_ATTR(37, memoryBusWidth) INT_ATTR(38, l2CacheSize)
    INT_ATTR(39, maxThreadsPerMultiProcessor) INT_ATTR(41, unifiedAddressing)
    INT_ATTR(75, major) INT_ATTR(76, minor) SIZE_ATTR(81, sharedMemPerMultiprocessor)
    INT_ATTR(82, regsPerMultiprocessor) INT_ATTR(83, managedMemory)
    INT_ATTR(89, concurrentManagedAccess) INT_ATTR(95, cooperativeLaunch)
    SIZE_ATTR(97, sharedMemPerBlockOptin) INT_ATTR(106, maxBlocksPerMultiProcessor)
    INT_ATTR(108, persistingL2CacheMaxSize) INT_ATTR(109, accessPolicyMaxWindowSize)
#undef INT_ATTR
#undef SIZE_ATTR
};

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    struct cudaDeviceProp p;
    if (!value)
        return cudart_set(cudaErrorInvalidValue);
    if (device != 0)
        return cudart_set(cudaErrorInvalidDevice);
    if (fill(&p))
        return cudart_set(cudaErrorInitializationError);
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        if (attrs[i].attr != attr)
            continue;
        const char *f = (const char *)&p + attrs[i].offset;
        size_t z;
        int v;
        if (attrs[i].is_size)
            memcpy(&z, f, sizeof z), v = (int)z;
        else
            memcpy(&v, f, sizeof v);
        *value = v;
        return cudaSuccess;
    }
    *value = 0; /* attributes gpumemsim does not describe read as 0 */
    return cudaSuccess;
}
