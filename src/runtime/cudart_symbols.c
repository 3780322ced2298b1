/* The program's module variables by host shadow address (docs/cuda-runtime.md, "Runtime API"):
 * cudaMemcpyToSymbol / FromSymbol and their Async forms, cudaGetSymbolAddress and
 * cudaGetSymbolSize. nvcc's registration code gives every __device__ and __constant__ variable
 * a host shadow whose address the program passes; rt_state maps it to the PTX name. */
#include <stdlib.h>

#include "runtime/cudart_internal.h"

CUDART_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind);
CUDART_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                               size_t offset, enum cudaMemcpyKind kind);
CUDART_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
                                                  size_t count, size_t offset,
                                                  enum cudaMemcpyKind kind, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                    size_t offset, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
CUDART_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* The variable of `symbol` and the loaded module; cudaSuccess or the error to return. */
static cudaError_t lookup(const void *symbol, const rt_var **v, gms_module **m)
{
    if (cudart_sticky())
        return cudart_set(cudart_sticky());
    *v = rt_var_by_host(symbol);
    if (!*v)
        return cudart_set(cudaErrorInvalidSymbol);
    *m = rt_module();
    return *m ? cudaSuccess : cudart_set(cudaErrorInvalidKernelImage);
}

/* Whether `kind` does not fit `other`, the pointer on the far side of the symbol: device (or
 * managed) memory for DeviceToDevice, host (or managed) memory for the host kinds. */
static int bad_kind(enum cudaMemcpyKind kind, const void *other, int to_symbol)
{
    rt_alloc a;
    int known = rt_alloc_find((uint64_t)(uintptr_t)other, &a) == 0;
    int other_dev = known && a.kind == RT_ALLOC_DEVICE;
    int other_managed = known && a.kind == RT_ALLOC_MANAGED; /* fits either kind */
    if ((unsigned)kind > cudaMemcpyDefault)
        return 1;
    if (kind == cudaMemcpyDefault)
        return 0;
    if (kind == cudaMemcpyDeviceToDevice)
        return !other_dev && !other_managed;
    return kind != (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) || other_dev;
}

/* Copies through a host buffer when the other side is device memory. */
static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind)
{
    const rt_var *v = NULL;
    gms_module *m = NULL;
    cudaError_t e = lookup(symbol, &v, &m);
    if (e)
        return e;
    if (bad_kind(kind, src, 1))
        return cudart_set(cudaErrorInvalidMemcpyDirection);
    rt_alloc a;
    void *buf = NULL;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = GMS_OK;
    if (rt_alloc_find((uint64_t)(uintptr_t)src, &a) == 0 && a.kind == RT_ALLOC_DEVICE) {
        buf = malloc(count ? count : 1);
        st = buf ? gms_device_read(cudart_device(), (uint64_t)(uintptr_t)src, buf, count, dl)
                 : GMS_ERR_NOMEM;
        src = buf;
    }
    if (st == GMS_OK)
        st = gms_module_set_var(m, v->name, offset, src, count, dl);
    free(buf);
    if (st != GMS_OK)
        rt_print_diags("cudaMemcpyToSymbol", dl);
    gms_diag_list_destroy(dl);
    return st == GMS_OK ? cudaSuccess : cudart_set(cudaErrorInvalidValue);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    const rt_var *v = NULL;
    gms_module *m = NULL;
    cudaError_t e = lookup(symbol, &v, &m);
    if (e)
        return e;
    if (bad_kind(kind, dst, 0))
        return cudart_set(cudaErrorInvalidMemcpyDirection);
    rt_alloc a;
    int to_dev = rt_alloc_find((uint64_t)(uintptr_t)dst, &a) == 0 && a.kind == RT_ALLOC_DEVICE;
    void *buf = to_dev ? malloc(count ? count : 1) : dst;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = buf ? gms_module_get_var(m, v->name, offset, buf, count, dl) : GMS_ERR_NOMEM;
    if (st == GMS_OK && to_dev)
        st = gms_device_write(cudart_device(), (uint64_t)(uintptr_t)dst, buf, count, dl);
    if (to_dev)
        free(buf);
    if (st != GMS_OK)
        rt_print_diags("cudaMemcpyFromSymbol", dl);
    gms_diag_list_destroy(dl);
    return st == GMS_OK ? cudaSuccess : cudart_set(cudaErrorInvalidValue);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return to_symbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    return from_symbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    (void)stream;
    return to_symbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    (void)stream;
    return from_symbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    const rt_var *v = NULL;
    gms_module *m = NULL;
    cudaError_t e = lookup(symbol, &v, &m);
    if (e)
        return e;
    gms_var_info info;
    if (!devPtr || gms_module_var_info(m, v->name, &info, NULL) != GMS_OK)
        return cudart_set(cudaErrorInvalidSymbol);
    /* A __constant__ variable lives in a constant bank, not at a device address. */
    if (info.space != GMS_VAR_GLOBAL)
        return cudart_set(cudaErrorInvalidSymbol);
    /* Known to the table, the address works in cudaMemcpy like cudaMalloc'd memory. */
    rt_alloc a = {info.address, info.bytes ? info.bytes : 1, RT_ALLOC_DEVICE, NULL, NULL};
    if (rt_alloc_find(info.address, NULL) && rt_alloc_add(&a))
        return cudart_set(cudaErrorMemoryAllocation);
    *devPtr = (void *)(uintptr_t)info.address;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    const rt_var *v = rt_var_by_host(symbol);
    if (!size || !v)
        return cudart_set(!size ? cudaErrorInvalidValue : cudaErrorInvalidSymbol);
    *size = v->bytes;
    return cudaSuccess;
}
