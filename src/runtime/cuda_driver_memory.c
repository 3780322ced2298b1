/* Device memory of gpumemsim's libcuda.so.1 (docs/cuda-runtime.md, "Driver API"): allocations
 * in rt_state's table, shared with libcudart, so a pointer from either library works with the
 * other; copies and memset through the public API. Every call runs to the end before it
 * returns, so the Async forms are the synchronous ones and ignore their stream. */
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda_driver_internal.h"

/* The capacity cuMemGetInfo and cuDeviceTotalMem report, as libcudart's cudaMemGetInfo: the
 * simulated address space has no fixed size. */
#define REPORTED_CAPACITY_BYTES (80ull << 30)

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && (!dptr || bytesize == 0))
        e = CUDA_ERROR_INVALID_VALUE;
    if (e != CUDA_SUCCESS)
        return e;
    uint64_t addr;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_device_alloc(drv_device(), bytesize, &addr, dl);
    rt_alloc a = {addr, bytesize, RT_ALLOC_DEVICE, NULL, NULL};
    if (st == GMS_OK && rt_alloc_add(&a))
        st = GMS_ERR_NOMEM;
    if (st != GMS_OK)
        return drv_failed("cuMemAlloc", st, dl);
    gms_diag_list_destroy(dl);
    *dptr = addr;
    return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    rt_alloc a;
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    if (rt_alloc_find(dptr, &a) || a.kind != RT_ALLOC_DEVICE || a.addr != dptr)
        return CUDA_ERROR_INVALID_VALUE;
    /* The simulated address space is not reused: the memory stays mapped on the device. */
    rt_alloc_remove(dptr, NULL);
    return CUDA_SUCCESS;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    uint64_t used = rt_alloc_device_bytes();
    if (free_bytes)
        *free_bytes = used < REPORTED_CAPACITY_BYTES ? REPORTED_CAPACITY_BYTES - used : 0;
    if (total)
        *total = REPORTED_CAPACITY_BYTES;
    return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS || bytes == 0)
        return e;
    if (!src)
        return CUDA_ERROR_INVALID_VALUE;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_device_write(drv_device(), dst, src, bytes, dl);
    if (st != GMS_OK)
        return drv_failed("cuMemcpyHtoD", st, dl);
    gms_diag_list_destroy(dl);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS || bytes == 0)
        return e;
    if (!dst)
        return CUDA_ERROR_INVALID_VALUE;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_device_read(drv_device(), src, dst, bytes, dl);
    if (st != GMS_OK)
        return drv_failed("cuMemcpyDtoH", st, dl);
    gms_diag_list_destroy(dl);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS || bytes == 0)
        return e;
    void *staging = malloc(bytes);
    if (!staging)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e = cuMemcpyDtoH_v2(staging, src, bytes);
    if (e == CUDA_SUCCESS)
        e = cuMemcpyHtoD_v2(dst, staging, bytes);
    free(staging);
    return e;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream)
{
    (void)stream;
    return cuMemcpyHtoD_v2(dst, src, bytes);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    (void)stream;
    return cuMemcpyDtoH_v2(dst, src, bytes);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream)
{
    (void)stream;
    return cuMemcpyDtoD_v2(dst, src, bytes);
}

/* Writes `count` elements of `size` bytes (1 or 4), each `value`, at `dst`. */
static CUresult fill(CUdeviceptr dst, unsigned value, size_t count, size_t size)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS || count == 0)
        return e;
    if (count > SIZE_MAX / size)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned char *bytes = malloc(count * size);
    if (!bytes)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (size == 1)
        memset(bytes, (int)(value & 0xff), count);
    else
        for (size_t i = 0; i < count; i++)
            memcpy(bytes + 4 * i, &value, 4);
    e = cuMemcpyHtoD_v2(dst, bytes, count * size);
    free(bytes);
    return e;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count)
{
    return fill(dst, value, count, 1);
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count)
{
    return fill(dst, value, count, 4);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream)
{
    (void)stream;
    return fill(dst, value, count, 1);
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count, CUstream stream)
{
    (void)stream;
    return fill(dst, value, count, 4);
}
