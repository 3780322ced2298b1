/* gpumemsim's libcuda.so.1, the driver API subset (docs/cuda-runtime.md, "Driver API"):
 * initialisation, the one device (ordinal 0: the simulated GPU of rt_state), contexts, error
 * names, cuGetProcAddress, and the stubs of every other entry of cuda_driver_entries.def.
 * Modules and launches are in cuda_driver_module.c, memory in cuda_driver_memory.c.
 *
 * Contexts are bookkeeping: there is one device and one address space, so a context is a
 * handle that cuCtxGetCurrent returns and cuCtxDestroy forgets; calls made without a current
 * context use the device all the same. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda_driver_internal.h"

/* The version cuDriverGetVersion reports: CUDA 13.0, as 1000 x major + 10 x minor. */
enum { DRIVER_VERSION_REPORTED = 13000, CTX_MAGIC = 0x43545831 /* "CTX1" */ };

struct CUctx_st {
    unsigned magic;
    int primary;
};

static struct CUctx_st primary_ctx = {CTX_MAGIC, 1};
static _Thread_local CUcontext current_ctx;
/* Process state behind rt_lock: cuInit ran; the sticky error. */
static int initialised;
static CUresult sticky = CUDA_SUCCESS;

/* ---- what the other files share ---- */

CUresult drv_ready(void)
{
    rt_lock();
    CUresult e = !initialised ? CUDA_ERROR_NOT_INITIALIZED : sticky;
    rt_unlock();
    return e;
}

void drv_set_sticky(CUresult e)
{
    rt_lock();
    sticky = e;
    rt_unlock();
}

gms_device *drv_device(void)
{
    return rt_device();
}

CUresult drv_from_status(gms_status st)
{
    switch (st) {
    case GMS_OK: return CUDA_SUCCESS;
    case GMS_ERR_NOMEM: return CUDA_ERROR_OUT_OF_MEMORY;
    case GMS_ERR_CONFIG: return CUDA_ERROR_NOT_INITIALIZED;
    case GMS_ERR_MODULE: return CUDA_ERROR_INVALID_PTX;
    case GMS_ERR_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
    case GMS_ERR_LAUNCH: return CUDA_ERROR_INVALID_VALUE;
    case GMS_ERR_STATE: return CUDA_ERROR_NOT_SUPPORTED;
    case GMS_ERR_FAULT: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case GMS_ERR_KERNEL: return CUDA_ERROR_LAUNCH_FAILED;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult drv_failed(const char *call, gms_status st, gms_diag_list *dl)
{
    rt_print_diags(call, dl);
    gms_diag_list_destroy(dl);
    return drv_from_status(st);
}

/* ---- initialisation and the device ---- */

CUresult cuInit(unsigned flags)
{
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!rt_device())
        return CUDA_ERROR_NO_DEVICE;
    rt_lock();
    initialised = 1;
    rt_unlock();
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = DRIVER_VERSION_REPORTED;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && !count)
        e = CUDA_ERROR_INVALID_VALUE;
    if (e == CUDA_SUCCESS)
        *count = 1;
    return e;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && !device)
        e = CUDA_ERROR_INVALID_VALUE;
    else if (e == CUDA_SUCCESS && ordinal != 0)
        e = CUDA_ERROR_INVALID_DEVICE;
    if (e == CUDA_SUCCESS)
        *device = 0;
    return e;
}

/* drv_ready, a valid ordinal and the device's configuration into *info. */
static CUresult device_info(CUdevice dev, gms_device_info *info)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return gms_device_info_get(drv_device(), info) == GMS_OK ? CUDA_SUCCESS
                                                             : CUDA_ERROR_NO_DEVICE;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    gms_device_info info;
    CUresult e = device_info(dev, &info);
    if (e == CUDA_SUCCESS && (!name || len <= 0))
        e = CUDA_ERROR_INVALID_VALUE;
    if (e == CUDA_SUCCESS)
        snprintf(name, (size_t)len, "gpumemsim %s", info.name);
    return e;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    size_t free_bytes;
    gms_device_info info;
    CUresult e = device_info(dev, &info);
    if (e == CUDA_SUCCESS)
        e = bytes ? cuMemGetInfo_v2(&free_bytes, bytes) : CUDA_ERROR_INVALID_VALUE;
    return e;
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    gms_device_info info;
    CUresult e = device_info(dev, &info);
    if (e == CUDA_SUCCESS && (!major || !minor))
        e = CUDA_ERROR_INVALID_VALUE;
    if (e == CUDA_SUCCESS) {
        *major = (int)(info.sm_version / 10);
        *minor = (int)(info.sm_version % 10);
    }
    return e;
}

/* The value of device attribute `attrib` (CUdevice_attribute; CUDA 13.0 numbers them 1 to
 * 147): from the preset where it has one, CUDA's architectural limits where they do not vary,
 * and 0 for what the simulator does not model (a feature it lacks or a property it has not:
 * clocks, PCI location, ...; docs/cuda-runtime.md, "Driver API"). -1: not an attribute. */
static long long attribute_value(int attrib, const gms_device_info *d)
{
    uint32_t sm = d->sm_version;
    switch (attrib) {
    case 1: return d->max_threads_per_cta;                /* MAX_THREADS_PER_BLOCK */
    case 2: case 3: return d->max_threads_per_cta;        /* MAX_BLOCK_DIM_X, _Y */
    case 4: return 64;                                    /* MAX_BLOCK_DIM_Z */
    case 5: return 2147483647;                            /* MAX_GRID_DIM_X */
    case 6: case 7: return 65535;                         /* MAX_GRID_DIM_Y, _Z */
    case 8:                                               /* MAX_SHARED_MEMORY_PER_BLOCK */
        return d->max_shared_per_cta_bytes < 49152 ? d->max_shared_per_cta_bytes : 49152;
    case 9: return 65536;                                 /* TOTAL_CONSTANT_MEMORY */
    case 10: return 32;                                   /* WARP_SIZE */
    case 12: case 82: return 65536;                       /* MAX_REGISTERS_PER_BLOCK, _PER_SM */
    case 16: return d->sm_count;                          /* MULTIPROCESSOR_COUNT */
    case 38: return (long long)d->l2_bytes;               /* L2_CACHE_SIZE */
    case 39:                                              /* MAX_THREADS_PER_MULTIPROCESSOR */
        return sm == 86 || sm == 89 ? 1536 : sm < 80 ? 1024 : 2048;
    case 41: return 1;                                    /* UNIFIED_ADDRESSING */
    case 75: return sm / 10;                              /* COMPUTE_CAPABILITY_MAJOR */
    case 76: return sm % 10;                              /* COMPUTE_CAPABILITY_MINOR */
    case 97: return d->max_shared_per_cta_bytes;          /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    case 108: return (long long)d->l2_persisting_max_bytes; /* MAX_PERSISTING_L2_CACHE_SIZE */
    case 109:                                             /* MAX_ACCESS_POLICY_WINDOW_SIZE */
        return (long long)d->access_policy_max_window_bytes;
    default: return attrib >= 1 && attrib <= 147 ? 0 : -1;
    }
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    gms_device_info info;
    CUresult e = device_info(dev, &info);
    if (e != CUDA_SUCCESS)
        return e;
    long long v = attribute_value(attrib, &info);
    if (!pi || v < 0)
        return CUDA_ERROR_INVALID_VALUE;
    *pi = v > 2147483647 ? 2147483647 : (int)v;
    return CUDA_SUCCESS;
}

/* ---- contexts ---- */

static int valid_ctx(CUcontext ctx)
{
    return ctx && ctx->magic == CTX_MAGIC;
}

/* Every cuCtxCreate version: a new context on device `dev`, made current. */
static CUresult create_context(CUcontext *pctx, CUdevice dev)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && !pctx)
        e = CUDA_ERROR_INVALID_VALUE;
    else if (e == CUDA_SUCCESS && dev != 0)
        e = CUDA_ERROR_INVALID_DEVICE;
    if (e != CUDA_SUCCESS)
        return e;
    CUcontext ctx = malloc(sizeof *ctx);
    if (!ctx)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *ctx = (struct CUctx_st){CTX_MAGIC, 0};
    *pctx = current_ctx = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxCreate(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    (void)flags;
    return create_context(pctx, dev);
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    (void)flags;
    return create_context(pctx, dev);
}

CUresult cuCtxCreate_v3(CUcontext *pctx, void *paramsArray, int numParams, unsigned flags,
                        CUdevice dev)
{
    (void)paramsArray, (void)numParams, (void)flags;
    return create_context(pctx, dev);
}

CUresult cuCtxCreate_v4(CUcontext *pctx, void *ctxCreateParams, unsigned flags, CUdevice dev)
{
    (void)ctxCreateParams, (void)flags;
    return create_context(pctx, dev);
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    if (!valid_ctx(ctx) || ctx->primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (current_ctx == ctx)
        current_ctx = NULL;
    ctx->magic = 0;
    free(ctx);
    return CUDA_SUCCESS;
}

CUresult cuCtxDestroy(CUcontext ctx)
{
    return cuCtxDestroy_v2(ctx);
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && !pctx)
        e = CUDA_ERROR_INVALID_VALUE;
    if (e == CUDA_SUCCESS)
        *pctx = current_ctx;
    return e;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && ctx && !valid_ctx(ctx))
        e = CUDA_ERROR_INVALID_CONTEXT;
    if (e == CUDA_SUCCESS)
        current_ctx = ctx;
    return e;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && !device)
        e = CUDA_ERROR_INVALID_VALUE;
    if (e == CUDA_SUCCESS)
        *device = 0;
    return e;
}

CUresult cuCtxSynchronize(void)
{
    /* Every call runs its work to the end before it returns: only a fault is left to report. */
    return drv_ready();
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    (void)hStream;
    return drv_ready();
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && !pctx)
        e = CUDA_ERROR_INVALID_VALUE;
    else if (e == CUDA_SUCCESS && dev != 0)
        e = CUDA_ERROR_INVALID_DEVICE;
    if (e == CUDA_SUCCESS)
        *pctx = &primary_ctx;
    return e;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    CUresult e = drv_ready();
    return e == CUDA_SUCCESS && dev != 0 ? CUDA_ERROR_INVALID_DEVICE : e;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return cuDevicePrimaryCtxRelease_v2(dev);
}
