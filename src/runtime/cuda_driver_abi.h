/* The part of CUDA's driver API (cuda.h, CUDA 13.0) that gpumemsim's libcuda.so.1 implements,
 * spelled out here so that the runtime builds where no CUDA toolkit is installed: the types a
 * program passes, the numeric codes it compares with, and the implemented entry points
 * (docs/cuda-runtime.md, "Driver API"). The values are CUDA's: a program compiled against the
 * real cuda.h calls these functions. */
#ifndef GMS_RUNTIME_CUDA_DRIVER_ABI_H
#define GMS_RUNTIME_CUDA_DRIVER_ABI_H

#include <stddef.h>
#include <stdint.h>

typedef enum cudaError_enum {
#define CUDRV_ERROR(name, value) name = value,
#include "runtime/cuda_driver_errors.def"
#undef CUDRV_ERROR
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUdevice_attribute; /* CU_DEVICE_ATTRIBUTE_*: cuda_driver.c, attribute_value */
typedef int CUfunction_attribute;
typedef int CUjit_option;

/* CUfunction_attribute values the driver answers. */
enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
    CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9
};

/* cuLaunchKernel's `extra` array: pairs of a marker and a value, ended by CU_LAUNCH_PARAM_END. */
#define CU_LAUNCH_PARAM_END ((void *)0x00)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define CU_LAUNCH_PARAM_END_AS_INT 0x00

/* cuModuleLoadDataEx's JIT options that carry output: the log buffers are set to empty texts. */
enum {
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};

/* cuGetProcAddress_v2's symbolStatus. */
typedef enum {
    CU_GET_PROC_ADDRESS_SUCCESS = 0,
    CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
    CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} CUdriverProcAddressQueryResult;

#define CUDRV_EXPORT __attribute__((visibility("default")))

/* The implemented entry points, with cuda.h's signatures (cuda_driver*.c define them). */
CUDRV_EXPORT CUresult cuInit(unsigned flags);
CUDRV_EXPORT CUresult cuDriverGetVersion(int *driverVersion);
CUDRV_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUDRV_EXPORT CUresult cuDeviceGetCount(int *count);
CUDRV_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUDRV_EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUDRV_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUDRV_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
CUDRV_EXPORT CUresult cuCtxCreate(CUcontext *pctx, unsigned flags, CUdevice dev);
CUDRV_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned flags, CUdevice dev);
CUDRV_EXPORT CUresult cuCtxCreate_v3(CUcontext *pctx, void *paramsArray, int numParams,
                                     unsigned flags, CUdevice dev);
CUDRV_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, void *ctxCreateParams, unsigned flags,
                                     CUdevice dev);
CUDRV_EXPORT CUresult cuCtxDestroy(CUcontext ctx);
CUDRV_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx);
CUDRV_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx);
CUDRV_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx);
CUDRV_EXPORT CUresult cuCtxGetDevice(CUdevice *device);
CUDRV_EXPORT CUresult cuCtxSynchronize(void);
CUDRV_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUDRV_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUDRV_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUDRV_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUDRV_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                         unsigned numOptions, CUjit_option *options,
                                         void **optionValues);
CUDRV_EXPORT CUresult cuModuleUnload(CUmodule hmod);
CUDRV_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUDRV_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                           const char *name);
CUDRV_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
CUDRV_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr);
CUDRV_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total);
CUDRV_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes);
CUDRV_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes);
CUDRV_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
CUDRV_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes,
                                           CUstream stream);
CUDRV_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes,
                                           CUstream stream);
CUDRV_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                           CUstream stream);
CUDRV_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count);
CUDRV_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count);
CUDRV_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count,
                                      CUstream stream);
CUDRV_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                                       CUstream stream);
CUDRV_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gridDimX, unsigned gridDimY,
                                     unsigned gridDimZ, unsigned blockDimX, unsigned blockDimY,
                                     unsigned blockDimZ, unsigned sharedMemBytes,
                                     CUstream hStream, void **kernelParams, void **extra);
CUDRV_EXPORT CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
CUDRV_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
                                         int value);
CUDRV_EXPORT CUresult cuStreamSynchronize(CUstream hStream);
/* Events (cuda_driver_event.c): the timing model's cycles at the preset's clock. */
CUDRV_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned Flags);
CUDRV_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
CUDRV_EXPORT CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream);
CUDRV_EXPORT CUresult cuEventSynchronize(CUevent hEvent);
CUDRV_EXPORT CUresult cuEventQuery(CUevent hEvent);
CUDRV_EXPORT CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUDRV_EXPORT CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUDRV_EXPORT CUresult cuEventDestroy(CUevent hEvent);
CUDRV_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent);
CUDRV_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr);
CUDRV_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr);
CUDRV_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                                       uint64_t flags);
CUDRV_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                          uint64_t flags,
                                          CUdriverProcAddressQueryResult *symbolStatus);

#endif
