/* Memory calls of gpumemsim's libcudart (docs/cuda-runtime.md, "Runtime API"): device, pinned
 * host and managed allocations, copies of every cudaMemcpyKind, memset, and the symbols of the
 * program's module.
 *
 * Device memory is the simulated GPU's; pinned host memory is ordinary host memory that the
 * table remembers (kernels cannot reach it). Managed memory is device memory whose host mirror
 * is mapped at the same address, so one pointer works on both sides; rt_launch_run copies it
 * to the device before each launch and back after. For the copies below managed memory is host
 * memory: its mirror is current between launches. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/cudart_internal.h"

CUDART_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size);
CUDART_EXPORT cudaError_t cudaFree(void *devPtr);
CUDART_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size);
CUDART_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned flags);
CUDART_EXPORT cudaError_t cudaFreeHost(void *ptr);
CUDART_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags);
CUDART_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                                          size_t height);
CUDART_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind);
CUDART_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                          enum cudaMemcpyKind kind, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                       size_t width, size_t height, enum cudaMemcpyKind kind);
CUDART_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                            size_t spitch, size_t width, size_t height,
                                            enum cudaMemcpyKind kind, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count);
CUDART_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                          cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
CUDART_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                                   const void *ptr);

/* A device or managed address the table knows. */
static int is_device(const void *p, rt_alloc *a)
{
    return rt_alloc_find((uint64_t)(uintptr_t)p, a) == 0 && a->kind == RT_ALLOC_DEVICE;
}

/* Managed memory the table knows (its host mirror is current between launches). */
static int is_managed(const void *p)
{
    rt_alloc a;
    return rt_alloc_find((uint64_t)(uintptr_t)p, &a) == 0 && a.kind == RT_ALLOC_MANAGED;
}

/* Prints the diagnostics of a failed call and returns its CUDA code. */
static cudaError_t failed(const char *call, gms_status st, gms_diag_list *dl)
{
    rt_print_diags(call, dl);
    gms_diag_list_destroy(dl);
    return cudart_set(cudart_from_status(st));
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    if (!devPtr)
        return cudart_set(cudaErrorInvalidValue);
    gms_device *dev = cudart_device();
    if (!dev)
        return cudart_set(cudaErrorInitializationError);
    if (size == 0) {
        *devPtr = NULL;
        return cudaSuccess;
    }
    uint64_t addr;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_device_alloc(dev, size, &addr, dl);
    rt_alloc a = {addr, size, RT_ALLOC_DEVICE, NULL, NULL};
    if (st == GMS_OK && rt_alloc_add(&a))
        st = GMS_ERR_NOMEM;
    if (st != GMS_OK)
        return failed("cudaMalloc", st, dl);
    gms_diag_list_destroy(dl);
    *devPtr = (void *)(uintptr_t)addr;
    return cudaSuccess;
}

cudaError_t cudaFree(void *devPtr)
{
    rt_alloc a;
    if (!devPtr)
        return cudaSuccess;
    if (rt_alloc_find((uint64_t)(uintptr_t)devPtr, &a) || a.kind == RT_ALLOC_HOST ||
        a.addr != (uint64_t)(uintptr_t)devPtr)
        return cudart_set(cudaErrorInvalidDevicePointer);
    /* The simulated address space is not reused: the memory stays mapped on the device. */
    rt_alloc_remove(a.addr, NULL);
    if (a.kind == RT_ALLOC_MANAGED)
        munmap(a.host, a.bytes);
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return cudaHostAlloc(ptr, size, 0);
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned flags)
{
    (void)flags;
    if (!pHost)
        return cudart_set(cudaErrorInvalidValue);
    void *p = malloc(size ? size : 1);
    rt_alloc a = {(uint64_t)(uintptr_t)p, size ? size : 1, RT_ALLOC_HOST, p, NULL};
    if (!p || rt_alloc_add(&a)) {
        free(p);
        return cudart_set(cudaErrorMemoryAllocation);
    }
    *pHost = p;
    return cudaSuccess;
}

cudaError_t cudaFreeHost(void *ptr)
{
    rt_alloc a;
    if (!ptr)
        return cudaSuccess;
    if (rt_alloc_find((uint64_t)(uintptr_t)ptr, &a) || a.kind != RT_ALLOC_HOST ||
        a.host != ptr)
        return cudart_set(cudaErrorInvalidValue);
    rt_alloc_remove(a.addr, NULL);
    free(ptr);
    return cudaSuccess;
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags)
{
    (void)flags;
    gms_device *dev = cudart_device();
    if (!devPtr || !size)
        return cudart_set(cudaErrorInvalidValue);
    if (!dev)
        return cudart_set(cudaErrorInitializationError);
    /* The device allocation is padded by a page so that a page-aligned stretch of `size` bytes
     * lies inside it: the host mirror is mapped there. */
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), addr;
    uint64_t bytes = (size + page - 1) / page * page;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_device_alloc(dev, bytes + page, &addr, dl);
    if (st != GMS_OK)
        return failed("cudaMallocManaged", st, dl);
    gms_diag_list_destroy(dl);
    uint64_t at = (addr + page - 1) / page * page;
    void *host = mmap((void *)(uintptr_t)at, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (host == MAP_FAILED || host != (void *)(uintptr_t)at) {
        if (host != MAP_FAILED)
            munmap(host, bytes);
        fprintf(stderr, "gpumemsim: cudaMallocManaged: host memory at the device address 0x%llx "
                        "is taken; managed memory cannot be mirrored [RT-CUDART-004]\n",
                (unsigned long long)at);
        return cudart_set(cudaErrorMemoryAllocation);
    }
    rt_alloc a = {at, bytes, RT_ALLOC_MANAGED, host, NULL};
    if (rt_alloc_add(&a)) {
        munmap(host, bytes);
        return cudart_set(cudaErrorMemoryAllocation);
    }
    *devPtr = host;
    return cudaSuccess;
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return cudart_set(cudaErrorInvalidValue);
    *pitch = (width + 511) / 512 * 512;
    return cudaMalloc(devPtr, *pitch * height);
}

/* ---- copies ---- */

/* Copies `count` bytes between any two of host, device and managed memory. */
static cudaError_t copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    if (cudart_sticky())
        return cudart_set(cudart_sticky());
    if ((unsigned)kind > cudaMemcpyDefault || (count && (!dst || !src)))
        return cudart_set(cudaErrorInvalidValue);
    if (!count)
        return cudaSuccess;
    rt_alloc da, sa;
    int dst_dev = is_device(dst, &da), src_dev = is_device(src, &sa);
    /* Managed memory may stand on either side of any kind. */
    int dst_managed = !dst_dev && is_managed(dst), src_managed = !src_dev && is_managed(src);
    int dst_gpu = dst_dev || dst_managed, src_gpu = src_dev || src_managed;
    if ((kind == cudaMemcpyHostToDevice && (!dst_gpu || src_dev)) ||
        (kind == cudaMemcpyDeviceToHost && (dst_dev || !src_gpu)) ||
        (kind == cudaMemcpyDeviceToDevice && (!dst_gpu || !src_gpu)) ||
        (kind == cudaMemcpyHostToHost && (dst_dev || src_dev)))
        return cudart_set(cudaErrorInvalidMemcpyDirection);
    gms_device *dev = cudart_device();
    if (!dst_dev && !src_dev) {
        memmove(dst, src, count);
        return cudaSuccess;
    }
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = GMS_OK;
    uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
    if (dst_dev && src_dev) {
        void *buf = malloc(count);
        st = buf ? gms_device_read(dev, s, buf, count, dl) : GMS_ERR_NOMEM;
        if (st == GMS_OK)
            st = gms_device_write(dev, d, buf, count, dl);
        free(buf);
    } else if (dst_dev) {
        st = gms_device_write(dev, d, src, count, dl);
    } else {
        st = gms_device_read(dev, s, dst, count, dl);
    }
    if (st != GMS_OK)
        return failed("cudaMemcpy", st, dl);
    gms_diag_list_destroy(dl);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return copy(dst, src, count, kind);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream; /* work runs in issue order, at once */
    return copy(dst, src, count, kind);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch)
        return cudart_set(cudaErrorInvalidPitchValue);
    for (size_t row = 0; row < height; row++) {
        cudaError_t e = copy((char *)dst + row * dpitch, (const char *)src + row * spitch, width,
                             kind);
        if (e)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    rt_alloc a;
    if (cudart_sticky())
        return cudart_set(cudart_sticky());
    if (!count)
        return cudaSuccess;
    if (rt_alloc_find((uint64_t)(uintptr_t)devPtr, &a) || a.kind == RT_ALLOC_HOST)
        return cudart_set(cudaErrorInvalidValue);
    if (a.kind == RT_ALLOC_MANAGED) {
        memset(devPtr, value, count);
        return cudaSuccess;
    }
    void *buf = malloc(count);
    if (!buf)
        return cudart_set(cudaErrorMemoryAllocation);
    memset(buf, value, count);
    cudaError_t e = copy(devPtr, buf, count, cudaMemcpyHostToDevice);
    free(buf);
    return e;
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    /* A simulated GPU has the address space of gms_device_alloc (1 TiB per allocation); report
     * 80 GiB, less what the program holds. */
    const uint64_t capacity = 80ull << 30;
    uint64_t used = rt_alloc_device_bytes();
    if (free_bytes)
        *free_bytes = used < capacity ? capacity - used : 0;
    if (total)
        *total = capacity;
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    rt_alloc a;
    if (!attributes)
        return cudart_set(cudaErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    if (rt_alloc_find((uint64_t)(uintptr_t)ptr, &a)) {
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = -2;
        attributes->hostPointer = (void *)ptr;
        return cudaSuccess;
    }
    attributes->type = a.kind == RT_ALLOC_DEVICE ? cudaMemoryTypeDevice
                       : a.kind == RT_ALLOC_HOST ? cudaMemoryTypeHost
                                                 : cudaMemoryTypeManaged;
    attributes->devicePointer = a.kind == RT_ALLOC_HOST ? NULL : (void *)ptr;
    attributes->hostPointer = a.kind == RT_ALLOC_DEVICE ? NULL : (void *)ptr;
    return cudaSuccess;
}
