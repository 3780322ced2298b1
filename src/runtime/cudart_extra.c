/* Calls of gpumemsim's libcudart that need little more than what the others do
 * (docs/cuda-runtime.md, "Runtime API"): stream-ordered allocation (the stream is ignored: work
 * runs in issue order), host callbacks (run at once, as the stream is always idle), prefetch and
 * advice hints for managed memory (nothing to do: managed memory is synchronised at every
 * launch), host registration, 2D memset, and queries with one answer on a one-GPU process. */
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart_internal.h"

/* The managed-memory location structure is passed by value; its contents do not matter here. */
struct cudaMemLocation {
    int type, id;
};

CUDART_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                               struct cudaMemLocation location, unsigned flags,
                                               cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                                        struct cudaMemLocation location);
CUDART_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, void (*fn)(void *),
                                             void *userData);
CUDART_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                                void (*callback)(cudaStream_t, cudaError_t,
                                                                 void *),
                                                void *userData, unsigned flags);
CUDART_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags);
CUDART_EXPORT cudaError_t cudaHostUnregister(void *ptr);
CUDART_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func);
CUDART_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                       size_t height);
CUDART_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                            size_t height, cudaStream_t stream);
CUDART_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                                  int peerDevice);
CUDART_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
CUDART_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus);
CUDART_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode);
CUDART_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size);
CUDART_EXPORT cudaError_t cudaFree(void *devPtr);
CUDART_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count);
CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream);

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    (void)stream;
    return cudaMalloc(devPtr, size);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    (void)stream;
    return cudaFree(devPtr);
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                 struct cudaMemLocation location, unsigned flags,
                                 cudaStream_t stream)
{
    (void)devPtr, (void)count, (void)location, (void)flags, (void)stream;
    return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                          struct cudaMemLocation location)
{
    (void)devPtr, (void)count, (void)advice, (void)location;
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, void (*fn)(void *), void *userData)
{
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e == cudaErrorInvalidResourceHandle || !fn)
        return cudart_set(fn ? e : cudaErrorInvalidValue);
    fn(userData);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                  void (*callback)(cudaStream_t, cudaError_t, void *),
                                  void *userData, unsigned flags)
{
    (void)flags;
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e == cudaErrorInvalidResourceHandle || !callback)
        return cudart_set(callback ? e : cudaErrorInvalidValue);
    callback(stream, e, userData); /* e: the sticky error of a faulted kernel, as CUDA passes */
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags)
{
    (void)flags;
    if (!ptr || !size)
        return cudart_set(cudaErrorInvalidValue);
    if (rt_alloc_find((uint64_t)(uintptr_t)ptr, NULL) == 0)
        return cudart_set(cudaErrorHostMemoryAlreadyRegistered);
    rt_alloc a = {(uint64_t)(uintptr_t)ptr, size, RT_ALLOC_HOST, ptr, NULL};
    return rt_alloc_add(&a) ? cudart_set(cudaErrorMemoryAllocation) : cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr)
{
    rt_alloc a;
    if (rt_alloc_find((uint64_t)(uintptr_t)ptr, &a) || a.kind != RT_ALLOC_HOST ||
        a.host != ptr)
        return cudart_set(cudaErrorHostMemoryNotRegistered);
    rt_alloc_remove(a.addr, NULL);
    return cudaSuccess;
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    rt_kernel *k = rt_kernel_by_stub(func);
    if (!name)
        return cudart_set(cudaErrorInvalidValue);
    if (!k)
        return cudart_set(cudaErrorInvalidDeviceFunction);
    *name = k->name;
    return cudaSuccess;
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch)
        return cudart_set(cudaErrorInvalidPitchValue);
    for (size_t row = 0; row < height; row++) {
        cudaError_t e = cudaMemset((char *)devPtr + row * pitch, value, width);
        if (e)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                              size_t height, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return cudart_set(cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0)
        return cudart_set(cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop)
        return cudart_set(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus)
{
    if (!pCaptureStatus)
        return cudart_set(cudaErrorInvalidValue);
    *pCaptureStatus = 0; /* cudaStreamCaptureStatusNone: graphs are not supported */
    (void)stream;
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    if (!mode)
        return cudart_set(cudaErrorInvalidValue);
    return cudaSuccess;
}
