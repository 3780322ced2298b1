/* The driver API's names (docs/cuda-runtime.md, "Driver API"): cuGetErrorName and
 * cuGetErrorString from cuda_driver_errors.def, cuGetProcAddress over this library's own
 * symbols, and the stubs generated from the STUB rows of cuda_driver_entries.def: each prints
 * its name once on stderr and returns CUDA_ERROR_NOT_SUPPORTED (801), whatever arguments it was
 * given. Taking no parameters is safe in the C calling convention: the caller's arguments are
 * left unread. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "runtime/cuda_driver_internal.h"

static const struct {
    const char *name;
    int value;
} errors[] = {
#define CUDRV_ERROR(name, value) {#name, value},
#include "runtime/cuda_driver_errors.def"
#undef CUDRV_ERROR
};
enum { ERROR_COUNT = sizeof errors / sizeof errors[0] };

/* cuGetErrorString's texts: the words of each name after CUDA_ERROR_, in lower case, made on
 * first use ("CUDA_ERROR_ILLEGAL_ADDRESS": "illegal address"; CUDA_SUCCESS: "no error"). */
static char descriptions[ERROR_COUNT][64];
static int described;

static int error_index(CUresult error)
{
    for (int i = 0; i < ERROR_COUNT; i++)
        if (errors[i].value == (int)error)
            return i;
    return -1;
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    int i = error_index(error);
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = i < 0 ? NULL : errors[i].name;
    return i < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static void describe_all(void)
{
    for (int i = 0; i < ERROR_COUNT; i++) {
        const char *words = errors[i].name + strlen("CUDA_ERROR_");
        if (errors[i].value == CUDA_SUCCESS)
            words = "NO_ERROR";
        size_t n = 0;
        for (; words[n] && n + 1 < sizeof descriptions[i]; n++)
            descriptions[i][n] = words[n] == '_' ? ' ' : (char)tolower((unsigned char)words[n]);
        descriptions[i][n] = '\0';
    }
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    int i = error_index(error);
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    if (!described)
        describe_all(), described = 1;
    rt_unlock();
    *pStr = i < 0 ? NULL : descriptions[i];
    return i < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

/* ---- cuGetProcAddress ---- */

/* This library's own definition of `name`, or NULL. */
static void *own_symbol(const char *name)
{
    Dl_info self;
    if (!dladdr((void *)cuInit, &self) || !self.dli_fname)
        return NULL;
    void *lib = dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        return NULL;
    void *fn = dlsym(lib, name);
    dlclose(lib);
    return fn;
}

/* The function a program built for CUDA `cudaVersion` means by `symbol`: the newest _vN form
 * whose signature cuda.h gave the name in that version (cuCtxCreate is _v4 from CUDA 13.0 and
 * _v2 before; every other name here is _v2 where it has one), else the name itself. */
static void *versioned(const char *symbol, int cudaVersion)
{
    char name[128];
    const char *suffix = strcmp(symbol, "cuCtxCreate") == 0 && cudaVersion >= 13000 ? "_v4"
                                                                                    : "_v2";
    if (snprintf(name, sizeof name, "%s%s", symbol, suffix) >= (int)sizeof name)
        return NULL;
    void *fn = own_symbol(name);
    return fn ? fn : own_symbol(symbol);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, uint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    (void)flags;
    if (!symbol || !pfn)
        return CUDA_ERROR_INVALID_VALUE;
    *pfn = versioned(symbol, cudaVersion);
    if (symbolStatus)
        *symbolStatus = *pfn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, uint64_t flags)
{
    return cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, NULL);
}

/* ---- the stubs ---- */

/* Prints "gpumemsim: NAME is not supported ..." the first time `*said` is 0. */
static CUresult unsupported(const char *name, int *said)
{
    rt_lock();
    if (!*said)
        fprintf(stderr, "gpumemsim: %s is not supported by gpumemsim's CUDA driver API; it "
                        "returns CUDA_ERROR_NOT_SUPPORTED [RT-DRIVER-001]\n", name);
    *said = 1;
    rt_unlock();
    return CUDA_ERROR_NOT_SUPPORTED;
}

#define IMPL(name)
#define STUB(name)                                                                              \
    CUDRV_EXPORT CUresult name(void);                                                           \
    CUresult name(void)                                                                         \
    {                                                                                           \
        static int said;                                                                        \
        return unsupported(#name, &said);                                                       \
    }
#define CUDRV_ENTRY(name, how) how(name)
#include "runtime/cuda_driver_entries.def"
