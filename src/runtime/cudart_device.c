/* Device management of gpumemsim's libcudart (docs/cuda-runtime.md, "Runtime API"): one
 * simulated GPU, ordinal 0; synchronisation is immediate, because every call runs its work to
 * the end before it returns. */
#include <string.h>

#include "runtime/cudart_internal.h"

CUDART_EXPORT cudaError_t cudaGetDeviceCount(int *count);
CUDART_EXPORT cudaError_t cudaGetDevice(int *device);
CUDART_EXPORT cudaError_t cudaSetDevice(int device);
CUDART_EXPORT cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags);
CUDART_EXPORT cudaError_t cudaDeviceSynchronize(void);
CUDART_EXPORT cudaError_t cudaDeviceReset(void);
CUDART_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
CUDART_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion);
CUDART_EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags);
CUDART_EXPORT cudaError_t cudaGetDeviceFlags(unsigned *flags);

/* The version both calls report: CUDA 13.0, as 1000 x major + 10 x minor. */
enum { CUDART_VERSION_REPORTED = 13000 };

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return cudart_set(cudaErrorInvalidValue);
    *count = cudart_device() ? 1 : 0;
    return *count ? cudaSuccess : cudart_set(cudaErrorNoDevice);
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return cudart_set(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    if (device != 0)
        return cudart_set(cudaErrorInvalidDevice);
    return cudart_device() ? cudaSuccess : cudart_set(cudaErrorInitializationError);
}

cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags)
{
    (void)deviceFlags, (void)flags;
    return cudaSetDevice(device);
}

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    (void)flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    if (!flags)
        return cudart_set(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    return cudart_sticky() ? cudart_set(cudart_sticky()) : cudaSuccess;
}

cudaError_t cudaDeviceReset(void)
{
    /* The device and its statistics stay for the report at exit. */
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return cudart_set(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION_REPORTED;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return cudart_set(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION_REPORTED;
    return cudaSuccess;
}
