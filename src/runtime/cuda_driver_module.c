/* Modules, functions and launches of gpumemsim's libcuda.so.1 (docs/cuda-runtime.md, "Driver
 * API"). cuModuleLoadData takes PTX text (what NVRTC, Numba and Triton hand it) or a fat binary
 * (its PTX for the device, through the fat binary reader); a cubin cannot run on the simulator.
 * Each text loads at once as a module of its own on the device (rt_module_load), so a bad module
 * fails its load as on a GPU and a program may load modules at any time, between launches (as
 * JIT compilers do). A CUmodule holds its gms_module; a CUfunction is rt_state's kernel record
 * of that module and name. cuModuleUnload forgets the handle only: the device keeps the module,
 * so functions found in it stay launchable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda_driver_internal.h"
#include "runtime/fatbin.h"

enum { MOD_MAGIC = 0x4d4f4431 /* "MOD1" */, ELF_MAGIC = 0x464c457f };

struct CUmod_st {
    unsigned magic;
    int index;
    gms_module *mod; /* the device's */
};

/* Modules loaded so far (names them in diagnostics); behind rt_lock. */
static int modules_loaded;

static int valid_module(CUmodule m)
{
    return m && m->magic == MOD_MAGIC;
}

/* Loads `len` bytes of PTX `text` as module `name` of the device (*mod). */
static CUresult add_ptx(const char *name, const char *text, size_t len, gms_module **mod)
{
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = rt_module_load(name, text, len, mod, dl);
    if (st != GMS_OK)
        return drv_failed("cuModuleLoadData", st, dl);
    gms_diag_list_destroy(dl);
    return CUDA_SUCCESS;
}

/* The PTX of a fat binary that suits the device: the highest target not above it, else the
 * lowest. */
static CUresult add_fatbin(const char *name, const void *image, gms_module **mod)
{
    rt_ptx_list l;
    char err[512];
    if (rt_fatbin_ptx(image, &l, err, sizeof err) != 0) {
        fprintf(stderr, "gpumemsim: cuModuleLoadData: %s\n", err);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    gms_device_info info = {0};
    gms_device_info_get(drv_device(), &info);
    const rt_ptx_module *best = NULL, *lowest = NULL;
    for (size_t i = 0; i < l.count; i++) {
        const rt_ptx_module *p = &l.items[i];
        if (p->sm <= info.sm_version && (!best || p->sm > best->sm))
            best = p;
        if (!lowest || p->sm < lowest->sm)
            lowest = p;
    }
    best = best ? best : lowest;
    CUresult e = add_ptx(name, best->text, best->len, mod);
    rt_ptx_list_free(&l);
    return e;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && (!module || !image))
        e = CUDA_ERROR_INVALID_VALUE;
    if (e != CUDA_SUCCESS)
        return e;
    uint32_t magic;
    memcpy(&magic, image, sizeof magic);
    rt_lock();
    int index = ++modules_loaded;
    rt_unlock();
    char name[64];
    snprintf(name, sizeof name, "cuModuleLoadData%d.ptx", index);
    if (magic == ELF_MAGIC) {
        fprintf(stderr, "gpumemsim: cuModuleLoadData: module %d is a cubin, machine code the "
                        "simulator cannot run; load its PTX instead [RT-DRIVER-002]\n", index);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    gms_module *mod = NULL;
    if (magic == 0x466243B1u || magic == 0xBA55ED50u)
        e = add_fatbin(name, image, &mod);
    else
        e = add_ptx(name, image, strlen(image), &mod);
    if (e != CUDA_SUCCESS)
        return e;
    CUmodule m = malloc(sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *m = (struct CUmod_st){MOD_MAGIC, index, mod};
    *module = m;
    return CUDA_SUCCESS;
}

/* Sets the JIT log buffers a caller passed to empty texts: a load that fails has printed its
 * diagnostics on stderr instead. */
static void clear_logs(unsigned n, const CUjit_option *options, void **values)
{
    for (unsigned i = 0; options && values && i < n; i++)
        if ((options[i] == CU_JIT_INFO_LOG_BUFFER || options[i] == CU_JIT_ERROR_LOG_BUFFER) &&
            values[i])
            *(char *)values[i] = '\0';
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned numOptions,
                            CUjit_option *options, void **optionValues)
{
    clear_logs(numOptions, options, optionValues);
    return cuModuleLoadData(module, image);
}

CUresult cuModuleUnload(CUmodule hmod)
{
    /* The module stays on the device (its functions remain launchable): only the handle goes. */
    if (!valid_module(hmod))
        return CUDA_ERROR_INVALID_HANDLE;
    hmod->magic = 0;
    free(hmod);
    return CUDA_SUCCESS;
}

/* drv_ready, a valid handle, and its module into *m. */
static CUresult loaded_module(CUmodule hmod, gms_module **m)
{
    CUresult e = drv_ready();
    if (e != CUDA_SUCCESS)
        return e;
    if (!valid_module(hmod))
        return CUDA_ERROR_INVALID_HANDLE;
    *m = hmod->mod;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    gms_module *m;
    gms_kernel_info ki;
    CUresult e = loaded_module(hmod, &m);
    if (e == CUDA_SUCCESS && (!hfunc || !name))
        e = CUDA_ERROR_INVALID_VALUE;
    if (e == CUDA_SUCCESS && gms_module_kernel_find(m, name, &ki) != GMS_OK)
        e = CUDA_ERROR_NOT_FOUND;
    if (e != CUDA_SUCCESS)
        return e;
    rt_kernel *k = rt_kernel_by_name(m, name);
    if (!k)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *hfunc = (CUfunction)k;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    gms_module *m;
    gms_var_info v;
    CUresult e = loaded_module(hmod, &m);
    if (e == CUDA_SUCCESS && !name)
        e = CUDA_ERROR_INVALID_VALUE;
    if (e != CUDA_SUCCESS)
        return e;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_module_var_info(m, name, &v, dl);
    gms_diag_list_destroy(dl);
    if (st != GMS_OK)
        return st == GMS_ERR_NOT_FOUND ? CUDA_ERROR_NOT_FOUND : drv_from_status(st);
    if (v.space == GMS_VAR_CONST) {
        fprintf(stderr, "gpumemsim: cuModuleGetGlobal: %s is a .const variable, which has no "
                        "device address in the simulator [RT-DRIVER-003]\n", name);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (dptr)
        *dptr = v.address;
    if (bytes)
        *bytes = (size_t)v.bytes;
    return CUDA_SUCCESS;
}

/* ---- launches ---- */

/* cuLaunchKernel's `extra`: the parameter block's address and size, 0; or -1 when malformed. */
static int extra_buffer(void **extra, char **buffer, size_t *size)
{
    *buffer = NULL;
    *size = 0;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            *buffer = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
            *size = *(size_t *)extra[i + 1];
        else
            return -1;
    }
    return *buffer ? 0 : -1;
}

/* The argument pointers of a launch given by `extra`: each parameter's bytes at its offset in
 * the caller's parameter block (malloc'd array into *args). */
static CUresult args_from_extra(const rt_kernel *k, void **extra, void ***args)
{
    gms_module *m = rt_kernel_module(k);
    gms_kernel_info ki;
    char *buffer;
    size_t size;
    if (!m || gms_module_kernel_find(m, k->name, &ki) != GMS_OK)
        return CUDA_ERROR_INVALID_HANDLE;
    if (extra_buffer(extra, &buffer, &size) || size < ki.params_bytes)
        return CUDA_ERROR_INVALID_VALUE;
    *args = calloc(ki.nparams ? ki.nparams : 1, sizeof **args);
    if (!*args)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < ki.nparams; i++) {
        gms_param_info p;
        if (gms_module_kernel_param(m, k->name, i, &p) != GMS_OK) {
            free(*args);
            return CUDA_ERROR_INVALID_VALUE;
        }
        (*args)[i] = buffer + p.offset;
    }
    return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gridDimX, unsigned gridDimY, unsigned gridDimZ,
                        unsigned blockDimX, unsigned blockDimY, unsigned blockDimZ,
                        unsigned sharedMemBytes, CUstream hStream, void **kernelParams,
                        void **extra)
{
    (void)hStream;
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && !f)
        e = CUDA_ERROR_INVALID_HANDLE;
    if (e == CUDA_SUCCESS && kernelParams && extra)
        e = CUDA_ERROR_INVALID_VALUE;
    if (e != CUDA_SUCCESS)
        return e;
    const rt_kernel *k = (const rt_kernel *)f;
    void **from_extra = NULL;
    if (extra && (e = args_from_extra(k, extra, &from_extra)) != CUDA_SUCCESS)
        return e;
    rt_launch l = {.kernel = k, .grid = {gridDimX, gridDimY, gridDimZ},
                   .block = {blockDimX, blockDimY, blockDimZ}, .shared_bytes = sharedMemBytes,
                   .args = extra ? from_extra : kernelParams};
    gms_status st = rt_launch_run(&l);
    free(from_extra);
    e = drv_from_status(st);
    if (st == GMS_ERR_FAULT)
        drv_set_sticky(e);
    return e;
}

/* ---- function attributes ---- */

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    gms_kernel_info ki;
    gms_device_info d;
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && (!pi || !hfunc))
        e = CUDA_ERROR_INVALID_VALUE;
    const rt_kernel *k = (const rt_kernel *)hfunc;
    gms_module *m = e == CUDA_SUCCESS ? rt_kernel_module(k) : NULL;
    if (e == CUDA_SUCCESS && (!m || gms_module_kernel_find(m, k->name, &ki) != GMS_OK))
        e = CUDA_ERROR_INVALID_HANDLE;
    if (e != CUDA_SUCCESS || gms_device_info_get(drv_device(), &d) != GMS_OK)
        return e != CUDA_SUCCESS ? e : CUDA_ERROR_NO_DEVICE;
    uint32_t maxntid = ki.maxntid[0] ? ki.maxntid[0] * (ki.maxntid[1] ? ki.maxntid[1] : 1) *
                                           (ki.maxntid[2] ? ki.maxntid[2] : 1)
                                     : d.max_threads_per_cta;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)maxntid; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)ki.static_shared_bytes; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = (int)d.sm_version; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        *pi = k->max_dynamic_shared >= 0
                  ? k->max_dynamic_shared
                  : (int)(d.max_shared_per_cta_bytes - ki.static_shared_bytes);
        break;
    /* the simulator allocates no registers and no local or constant bank per kernel */
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    CUresult e = drv_ready();
    if (e == CUDA_SUCCESS && (!hfunc || value < 0))
        e = CUDA_ERROR_INVALID_VALUE;
    if (e != CUDA_SUCCESS)
        return e;
    if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
        rt_lock();
        ((rt_kernel *)hfunc)->max_dynamic_shared = value;
        rt_unlock();
        return CUDA_SUCCESS;
    }
    /* the carve-out is a preference the device's launch chooses itself */
    return attrib == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT ? CUDA_SUCCESS
                                                                         : CUDA_ERROR_INVALID_VALUE;
}
