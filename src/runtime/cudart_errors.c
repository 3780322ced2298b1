/* Errors of gpumemsim's libcudart (docs/cuda-runtime.md, "Errors"): the calling thread's last
 * error, the sticky error a kernel fault leaves, names and descriptions from cudart_errors.def,
 * and the codes the public API's statuses become. */
#include "runtime/cudart_internal.h"

CUDART_EXPORT cudaError_t cudaGetLastError(void);
CUDART_EXPORT cudaError_t cudaPeekAtLastError(void);
CUDART_EXPORT const char *cudaGetErrorName(cudaError_t error);
CUDART_EXPORT const char *cudaGetErrorString(cudaError_t error);

static _Thread_local cudaError_t last_error;
static cudaError_t sticky_error; /* written once, under the state's lock */

cudaError_t cudart_set(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

cudaError_t cudart_sticky(void)
{
    rt_lock();
    cudaError_t e = sticky_error;
    rt_unlock();
    return e;
}

void cudart_set_sticky(cudaError_t e)
{
    rt_lock();
    if (sticky_error == cudaSuccess)
        sticky_error = e;
    rt_unlock();
}

cudaError_t cudart_from_status(gms_status st)
{
    switch (st) {
    case GMS_OK: return cudaSuccess;
    case GMS_ERR_NOMEM: return cudaErrorMemoryAllocation;
    case GMS_ERR_CONFIG: return cudaErrorInitializationError;
    case GMS_ERR_MODULE: return cudaErrorInvalidPtx;
    case GMS_ERR_NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case GMS_ERR_ARGS: return cudaErrorInvalidValue;
    case GMS_ERR_LAUNCH: return cudaErrorInvalidConfiguration;
    case GMS_ERR_RANGE: return cudaErrorInvalidValue;
    case GMS_ERR_FAULT: return cudaErrorIllegalAddress;
    case GMS_ERR_KERNEL: return cudaErrorLaunchFailure;
    default: return cudaErrorInvalidValue;
    }
}

gms_device *cudart_device(void)
{
    return rt_device();
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e != cudaSuccess ? e : cudart_sticky();
}

cudaError_t cudaPeekAtLastError(void)
{
    return last_error != cudaSuccess ? last_error : cudart_sticky();
}

const char *cudaGetErrorName(cudaError_t error)
{
    switch (error) {
#define CUDART_ERROR(name, value, text) case name: return #name;
#include "runtime/cudart_errors.def"
#undef CUDART_ERROR
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
    switch (error) {
#define CUDART_ERROR(name, value, text) case name: return text;
#include "runtime/cudart_errors.def"
#undef CUDART_ERROR
    }
    return "unrecognized error code";
}
