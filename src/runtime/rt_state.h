/* The process's simulated GPU, shared by the CUDA runtime (libcudart.so.13) and driver API
 * (libcuda.so.1) replacements: libgpumemsim_rt.so (docs/cuda-runtime.md, "Runtime API").
 *
 * One gms_device per process, created on first use from the environment that `gpumemsim exec`
 * sets (GPUMEMSIM_GPU, _CONFIG, _STRIP_HINTS; docs/cuda-runtime.md, "Environment"). Around it:
 * the PTX of every registered fat binary (joined into one text, the program's module, loaded
 * when first needed), the driver modules (each loaded on its own when the program loads it; the
 * device holds any number, docs/api.md "Modules"), the host stubs and host
 * variables the program registered, the allocations the program made (device, pinned host,
 * managed), the current error, and the report written at process exit.
 *
 * This is the program's side of the public API: it may print to stderr (the report, fault
 * reports, unsupported-entry messages). Every call takes the state's lock itself; the rt_*
 * functions are safe to call from several host threads. Nothing here knows CUDA's types: the
 * callers translate. */
#ifndef GMS_RUNTIME_RT_STATE_H
#define GMS_RUNTIME_RT_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "gpumemsim/gpumemsim.h"

/* What an allocation of the table is. */
typedef enum rt_alloc_kind {
    RT_ALLOC_DEVICE,  /* device memory (cudaMalloc, cuMemAlloc) */
    RT_ALLOC_HOST,    /* page-locked host memory (cudaMallocHost, cudaHostAlloc): host memory */
    RT_ALLOC_MANAGED  /* managed memory: device memory mirrored at the same host address */
} rt_alloc_kind;

typedef struct rt_alloc {
    uint64_t addr, bytes; /* device address (host address for RT_ALLOC_HOST) and size */
    rt_alloc_kind kind;
    void *host;           /* RT_ALLOC_HOST and RT_ALLOC_MANAGED: the host memory */
    void *shadow;         /* RT_ALLOC_MANAGED: the bytes as last synchronised (owned by the
                             table; NULL: not yet), so only what the host changed is written */
} rt_alloc;

/* A kernel the program can launch: a registered host stub (cudart) or a function looked up in
 * a module (driver). The record lives until the process ends, so its address is a handle
 * (cudaKernel_t, cudaFunction_t, CUfunction). */
typedef struct rt_kernel {
    const void *host_stub; /* NULL for driver-API functions */
    gms_module *module;    /* the driver module it was found in; NULL: the program's (rt_module) */
    char *name;            /* mangled .entry name, owned */
    int max_dynamic_shared;/* cudaFuncAttributeMaxDynamicSharedMemorySize, bytes; -1: unset */
} rt_kernel;

/* A module-scope variable the program registered by host address. */
typedef struct rt_var {
    const void *host_var; /* the host shadow's address */
    char *name;           /* owned */
    uint64_t bytes;
    int constant;         /* 1: __constant__ */
    int managed;          /* 1: __managed__; host_var is the `void **` to point at it */
} rt_var;

/* One launch request (cudaLaunchKernel, cuLaunchKernel): `args[i]` points at the bytes of
 * parameter i, whose size the module's kernel says. */
typedef struct rt_launch {
    const rt_kernel *kernel;
    uint32_t grid[3], block[3];
    uint32_t shared_bytes;
    void **args;
    const gms_policy_window *window; /* NULL: the stream's, if any */
    int cooperative;
} rt_launch;

/* ---- the device ---- */
/* The process's device, created on first call from the environment; NULL when it could not be
 * made (the reason was printed once, prefixed "gpumemsim: "). */
gms_device *rt_device(void);
/* The device's module, loading the joined PTX of every rt_module_add on the first call; NULL
 * when none was added or it does not load (the diagnostics were printed once). */
gms_module *rt_module(void);
/* Adds `len` bytes of PTX `text` (borrowed, copied) for sm `sm`, named `name` (borrowed) in
 * diagnostics, to the program's module. Returns 0, or -1 when the program's module was already
 * loaded (RT-CUDART-001, printed) or host memory ran out. */
int rt_module_add(const char *name, const char *text, size_t len, unsigned sm);
/* Loads `len` bytes of PTX `text` (borrowed, copied) named `name` (borrowed) as a module of its
 * own on the device, now, whatever ran before (cuModuleLoadData). Returns GMS_OK with *out (the
 * device's, freed with it); GMS_ERR_NOMEM when there is no device; or gms_module_load's status
 * with its diagnostics in `dl` (may be NULL). */
gms_status rt_module_load(const char *name, const char *text, size_t len, gms_module **out,
                          gms_diag_list *dl);
/* The module kernel `k` lives in: its driver module, or the program's (loading it). NULL as
 * rt_module. */
gms_module *rt_kernel_module(const rt_kernel *k);

/* ---- kernels and variables ---- */
/* Registers host stub `stub` as kernel `name` (borrowed, copied). Returns the record, or NULL
 * when out of memory. Registering a stub again returns its record. */
rt_kernel *rt_kernel_register(const void *stub, const char *name);
/* The record of stub `stub`, or NULL. */
rt_kernel *rt_kernel_by_stub(const void *stub);
/* The record of kernel `name` of driver module `m` (NULL: the program's module), made if needed
 * (driver API): one record per module and name. NULL when out of memory. */
rt_kernel *rt_kernel_by_name(gms_module *m, const char *name);
/* Registers a host shadow variable; returns 0 or -1 (out of memory). */
int rt_var_register(const void *host_var, const char *name, uint64_t bytes, int constant,
                    int managed);
/* The variable whose shadow starts at `host_var`, or NULL. The record is borrowed until exit. */
const rt_var *rt_var_by_host(const void *host_var);

/* ---- memory ---- */
/* Records an allocation. Returns 0 or -1 (out of memory). */
int rt_alloc_add(const rt_alloc *a);
/* The allocation holding address `addr` (device or host, by kind) into *out; 0, or -1 when none
 * does. */
int rt_alloc_find(uint64_t addr, rt_alloc *out);
/* Forgets the allocation starting at `addr` into *out (OUT, may be NULL). 0 or -1 (none). */
int rt_alloc_remove(uint64_t addr, rt_alloc *out);
/* Bytes of device memory the table holds (device and managed). */
uint64_t rt_alloc_device_bytes(void);
/* Copies the host bytes of every managed allocation that the host changed since the last
 * synchronisation to the device, in runs of changed 128-byte blocks (before a launch; 0 or -1
 * with the diagnostics printed), and every managed allocation back (after one). */
int rt_managed_to_device(void);
int rt_managed_to_host(void);

/* ---- launches ---- */
/* Runs launch `l` on the device, moving the arguments into the kernel's parameters and the
 * managed memory both ways. Returns the launch's status; a fault has been reported on stderr
 * (rule, kernel, thread, source line). */
gms_status rt_launch_run(const rt_launch *l);
/* The policy window given to launches that name none (cudaStreamSetAttribute); NULL clears. */
void rt_set_default_window(const gms_policy_window *w);

/* ---- errors ---- */
/* Prints `dl`'s diagnostics on stderr, prefixed by "gpumemsim: <what>:". */
void rt_print_diags(const char *what, gms_diag_list *dl);

/* ---- locking ---- */
void rt_lock(void);
void rt_unlock(void);

#endif
