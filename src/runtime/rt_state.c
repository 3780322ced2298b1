/* The process's simulated GPU (rt_state.h): the device made from the environment, the joined
 * program module, the driver modules, the registration tables, the allocation table and the
 * report at exit.
 *
 * A CUDA program has one implicit device for its whole life, so this state is a process global
 * behind one recursive lock; it is the one place of the project that needs mutable globals
 * (the public API itself keeps none). */
#define _GNU_SOURCE
#include "runtime/rt_state.h"
#include "runtime/rt_ptxjoin.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct rt_ptx {
    char *name, *text;
    size_t len;
    unsigned sm;
} rt_ptx;

static struct {
    pthread_mutex_t lock;
    int made, failed;        /* rt_device tried; and failed */
    gms_device *dev;
    gms_module *mod;         /* the program's module (the joined registered PTX) */
    int module_tried;
    size_t ndriver_modules;  /* loaded by rt_module_load */
    rt_ptx *ptx;
    size_t nptx;
    rt_kernel **kernels;     /* records never move: their addresses are handles */
    size_t nkernels;
    rt_var *vars;
    size_t nvars;
    rt_alloc *allocs;
    size_t nallocs;
    gms_policy_window window;
    int has_window;
    size_t printf_shown;     /* bytes of gms_device_printf already written to stdout */
} S = {.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP};

void rt_lock(void)
{
    pthread_mutex_lock(&S.lock);
}

void rt_unlock(void)
{
    pthread_mutex_unlock(&S.lock);
}

void rt_print_diags(const char *what, gms_diag_list *dl)
{
    if (!dl || !gms_diag_list_count(dl))
        return;
    fprintf(stderr, "gpumemsim: %s:\n", what);
    gms_diag_list_print(dl, stderr);
}

/* Grows *items (of `size`-byte elements, *n used) by one zeroed element; NULL when out of
 * memory. */
static void *grow(void **items, size_t *n, size_t size)
{
    char *p = realloc(*items, (*n + 1) * size);
    if (!p)
        return NULL;
    *items = p;
    memset(p + *n * size, 0, size);
    return p + (*n)++ * size;
}

/* ---- the report at exit ---- */

/* Writes the device printf output that no earlier call wrote. */
static void show_printf(void)
{
    const char *text = S.dev ? gms_device_printf(S.dev) : "";
    size_t len = strlen(text);
    if (len > S.printf_shown) {
        fwrite(text + S.printf_shown, 1, len - S.printf_shown, stdout);
        fflush(stdout);
        S.printf_shown = len;
    }
}

static void write_text(const char *path, const char *text)
{
    FILE *f = path ? fopen(path, "w") : stderr;
    if (!f) {
        fprintf(stderr, "gpumemsim: cannot write %s\n", path);
        return;
    }
    fputs(text, f);
    if (path)
        fclose(f);
}

/* The program's path, which the report names as its input. */
static void program_name(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0)
        snprintf(buf, size, "cuda-program");
    else
        buf[n] = '\0';
}

static void report_at_exit(void)
{
    rt_lock();
    if (!S.dev || (!S.mod && !S.ndriver_modules)) {
        rt_unlock();
        return;
    }
    show_printf();
    gms_device_flush(S.dev, NULL);
    char name[512];
    program_name(name, sizeof name);
    const char *top_env = getenv("GPUMEMSIM_TOP");
    size_t top = top_env ? (size_t)strtoul(top_env, NULL, 10) : 10;
    const char *quiet = getenv("GPUMEMSIM_QUIET");
    char *text = NULL;
    if (!(quiet && strcmp(quiet, "1") == 0) &&
        gms_device_report(S.dev, GMS_REPORT_TEXT, top, name, &text, NULL) == GMS_OK)
        write_text(getenv("GPUMEMSIM_REPORT"), text);
    gms_free(text);
    const char *json = getenv("GPUMEMSIM_JSON");
    text = NULL;
    if (json && gms_device_report(S.dev, GMS_REPORT_JSON, top, name, &text, NULL) == GMS_OK)
        write_text(json, text);
    gms_free(text);
    rt_unlock();
}

/* ---- the device ---- */

static gms_status make_device(gms_diag_list *dl)
{
    const char *config = getenv("GPUMEMSIM_CONFIG");
    const char *gpu = getenv("GPUMEMSIM_GPU");
    gms_status st = config && *config
                        ? gms_device_create_from_config(config, NULL, 0, &S.dev, dl)
                        : gms_device_create(gpu && *gpu ? gpu : NULL, &S.dev, dl);
    /* cudaMemcpy may write memory that earlier kernels cached. */
    if (st == GMS_OK)
        st = gms_device_set(S.dev, GMS_SET_SYNCED_WRITES, 1, dl);
    const char *strip = getenv("GPUMEMSIM_STRIP_HINTS");
    if (st == GMS_OK && strip && strcmp(strip, "1") == 0)
        st = gms_device_set(S.dev, GMS_SET_STRIP_HINTS, 1, dl);
    return st;
}

gms_device *rt_device(void)
{
    rt_lock();
    if (!S.made) {
        S.made = 1;
        gms_diag_list *dl = gms_diag_list_create();
        if (make_device(dl) != GMS_OK) {
            rt_print_diags("cannot create the simulated GPU", dl);
            gms_device_destroy(S.dev);
            S.dev = NULL;
            S.failed = 1;
        } else {
            atexit(report_at_exit);
        }
        gms_diag_list_destroy(dl);
    }
    gms_device *dev = S.dev;
    rt_unlock();
    return dev;
}

int rt_module_add(const char *name, const char *text, size_t len, unsigned sm)
{
    rt_lock();
    int rc = -1;
    if (S.module_tried)
        fprintf(stderr, "gpumemsim: %s: PTX was registered after the program's first launch or "
                        "symbol use, when its registered PTX was loaded as one module; it is "
                        "not loaded [RT-CUDART-001]\n",
                name);
    else {
        rt_ptx *p = grow((void **)&S.ptx, &S.nptx, sizeof *S.ptx);
        if (p) {
            p->name = strdup(name);
            p->text = malloc(len + 1);
            if (p->text)
                memcpy(p->text, text, len), p->text[len] = '\0';
            p->len = len;
            p->sm = sm;
            rc = p->name && p->text ? 0 : -1;
        }
    }
    rt_unlock();
    return rc;
}

/* Every added text in one (rt_ptx_join; malloc'd), or NULL when out of memory. */
static char *joined_text(size_t *len)
{
    const char **texts = malloc(S.nptx * sizeof *texts);
    size_t *lens = malloc(S.nptx * sizeof *lens);
    char *out = NULL;
    if (texts && lens) {
        for (size_t i = 0; i < S.nptx; i++)
            texts[i] = S.ptx[i].text, lens[i] = S.ptx[i].len;
        out = rt_ptx_join(texts, lens, S.nptx, len);
    }
    free(texts);
    free(lens);
    return out;
}

/* Maps host memory over the pages of [addr, addr + bytes), pages this function mapped before
 * included. 0, or -1 when the host uses one of them. */
static int map_mirror(uint64_t addr, uint64_t bytes)
{
    static uint64_t *mapped; /* pages mapped so far */
    static size_t nmapped;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    for (uint64_t p = addr / page * page; p < addr + bytes; p += page) {
        int known = 0;
        for (size_t i = 0; i < nmapped && !known; i++)
            known = mapped[i] == p;
        if (known)
            continue;
        void *h = mmap((void *)(uintptr_t)p, page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        uint64_t *grown = realloc(mapped, (nmapped + 1) * sizeof *mapped);
        if (h != (void *)(uintptr_t)p || !grown) {
            if (h != MAP_FAILED && h != (void *)(uintptr_t)p)
                munmap(h, page);
            if (grown)
                mapped = grown;
            return -1;
        }
        mapped = grown;
        mapped[nmapped++] = p;
    }
    return 0;
}

/* Gives every __managed__ variable a host mirror at its device address, holding its initial
 * bytes, and points the program's pointer at it (nvcc's code reads the variable through it). */
static void bind_managed_vars(void)
{
    for (size_t i = 0; i < S.nvars; i++) {
        rt_var *v = &S.vars[i];
        gms_var_info info;
        if (!v->managed || gms_module_var_info(S.mod, v->name, &info, NULL) != GMS_OK ||
            info.space != GMS_VAR_GLOBAL)
            continue;
        if (map_mirror(info.address, info.bytes)) {
            fprintf(stderr, "gpumemsim: __managed__ %s: host memory at its device address "
                            "0x%llx is taken [RT-CUDART-004]\n",
                    v->name, (unsigned long long)info.address);
            continue;
        }
        void *host = (void *)(uintptr_t)info.address;
        rt_alloc a = {info.address, info.bytes, RT_ALLOC_MANAGED, host, NULL};
        if (gms_device_read(S.dev, info.address, host, info.bytes, NULL) != GMS_OK ||
            rt_alloc_add(&a))
            continue;
        *(void **)(uintptr_t)v->host_var = host;
    }
}

gms_module *rt_module(void)
{
    rt_lock();
    gms_device *dev = rt_device();
    if (!S.module_tried && dev && S.nptx) {
        S.module_tried = 1;
        size_t len;
        char *text = joined_text(&len);
        char path[600];
        snprintf(path, sizeof path, "%s%s", S.ptx[0].name, S.nptx > 1 ? "+" : "");
        gms_diag_list *dl = gms_diag_list_create();
        gms_status st = text ? gms_module_load(dev, path, text, len, "ptx", &S.mod, dl)
                             : GMS_ERR_NOMEM;
        if (st != GMS_OK) {
            rt_print_diags("the program's PTX does not load [RT-CUDART-003]", dl);
            S.mod = NULL;
        } else {
            bind_managed_vars();
        }
        gms_diag_list_destroy(dl);
        free(text);
    }
    gms_module *m = S.mod;
    rt_unlock();
    return m;
}

gms_status rt_module_load(const char *name, const char *text, size_t len, gms_module **out,
                          gms_diag_list *dl)
{
    rt_lock();
    gms_device *dev = rt_device();
    gms_status st = dev ? gms_module_load(dev, name, text, len, "ptx", out, dl) : GMS_ERR_NOMEM;
    if (st == GMS_OK)
        S.ndriver_modules++;
    rt_unlock();
    return st;
}

gms_module *rt_kernel_module(const rt_kernel *k)
{
    return k->module ? k->module : rt_module();
}

/* ---- kernels and variables ---- */

static rt_kernel *new_kernel(const void *stub, const char *name)
{
    rt_kernel *k = calloc(1, sizeof *k);
    rt_kernel **slot = k ? grow((void **)&S.kernels, &S.nkernels, sizeof *S.kernels) : NULL;
    if (!slot || !(k->name = strdup(name))) {
        if (slot)
            S.nkernels--;
        free(k);
        return NULL;
    }
    k->host_stub = stub;
    k->max_dynamic_shared = -1;
    *slot = k;
    return k;
}

rt_kernel *rt_kernel_by_stub(const void *stub)
{
    rt_lock();
    rt_kernel *k = NULL;
    for (size_t i = 0; stub && i < S.nkernels && !k; i++)
        if (S.kernels[i]->host_stub == stub)
            k = S.kernels[i];
    rt_unlock();
    return k;
}

rt_kernel *rt_kernel_register(const void *stub, const char *name)
{
    rt_lock();
    rt_kernel *k = rt_kernel_by_stub(stub);
    if (!k)
        k = new_kernel(stub, name);
    rt_unlock();
    return k;
}

rt_kernel *rt_kernel_by_name(gms_module *m, const char *name)
{
    rt_lock();
    rt_kernel *k = NULL;
    for (size_t i = 0; i < S.nkernels && !k; i++)
        if (S.kernels[i]->module == m && strcmp(S.kernels[i]->name, name) == 0)
            k = S.kernels[i];
    if (!k && (k = new_kernel(NULL, name)))
        k->module = m;
    rt_unlock();
    return k;
}

int rt_var_register(const void *host_var, const char *name, uint64_t bytes, int constant,
                    int managed)
{
    rt_lock();
    rt_var *v = grow((void **)&S.vars, &S.nvars, sizeof *S.vars);
    int rc = -1;
    if (v && (v->name = strdup(name))) {
        v->host_var = host_var;
        v->bytes = bytes;
        v->constant = constant;
        v->managed = managed;
        rc = 0;
    } else if (v) {
        S.nvars--;
    }
    rt_unlock();
    return rc;
}

const rt_var *rt_var_by_host(const void *host_var)
{
    rt_lock();
    const rt_var *v = NULL;
    for (size_t i = 0; i < S.nvars && !v; i++)
        if (S.vars[i].host_var == host_var)
            v = &S.vars[i];
    rt_unlock();
    return v;
}

/* ---- memory ---- */

int rt_alloc_add(const rt_alloc *a)
{
    rt_lock();
    rt_alloc *slot = grow((void **)&S.allocs, &S.nallocs, sizeof *S.allocs);
    if (slot) {
        *slot = *a;
        slot->shadow = NULL;
    }
    rt_unlock();
    return slot ? 0 : -1;
}

int rt_alloc_find(uint64_t addr, rt_alloc *out)
{
    rt_lock();
    int rc = -1;
    for (size_t i = 0; i < S.nallocs && rc; i++)
        if (addr >= S.allocs[i].addr && addr - S.allocs[i].addr < S.allocs[i].bytes) {
            if (out)
                *out = S.allocs[i];
            rc = 0;
        }
    rt_unlock();
    return rc;
}

int rt_alloc_remove(uint64_t addr, rt_alloc *out)
{
    rt_lock();
    int rc = -1;
    for (size_t i = 0; i < S.nallocs && rc; i++)
        if (S.allocs[i].addr == addr) {
            free(S.allocs[i].shadow);
            S.allocs[i].shadow = NULL;
            if (out)
                *out = S.allocs[i];
            S.allocs[i] = S.allocs[--S.nallocs];
            rc = 0;
        }
    rt_unlock();
    return rc;
}

uint64_t rt_alloc_device_bytes(void)
{
    rt_lock();
    uint64_t n = 0;
    for (size_t i = 0; i < S.nallocs; i++)
        if (S.allocs[i].kind != RT_ALLOC_HOST)
            n += S.allocs[i].bytes;
    rt_unlock();
    return n;
}

/* Writes the runs of 128-byte blocks where a's host bytes differ from its shadow (all of them
 * when it has none yet). Returns the status of the first write that failed, or GMS_OK. */
static gms_status write_changes(const rt_alloc *a, gms_diag_list *dl)
{
    enum { BLOCK = 128 };
    const uint8_t *host = a->host, *old = a->shadow;
    if (!old)
        return gms_device_write(S.dev, a->addr, host, a->bytes, dl);
    uint64_t at = 0;
    while (at < a->bytes) {
        uint64_t n = a->bytes - at < BLOCK ? a->bytes - at : BLOCK;
        if (memcmp(host + at, old + at, n) == 0) {
            at += n;
            continue;
        }
        uint64_t end = at + n;
        while (end < a->bytes) {
            uint64_t m = a->bytes - end < BLOCK ? a->bytes - end : BLOCK;
            if (memcmp(host + end, old + end, m) == 0)
                break;
            end += m;
        }
        gms_status st = gms_device_write(S.dev, a->addr + at, host + at, end - at, dl);
        if (st != GMS_OK)
            return st;
        at = end;
    }
    return GMS_OK;
}

/* Records a's host bytes as synchronised. */
static void keep_shadow(rt_alloc *a)
{
    if (!a->shadow)
        a->shadow = malloc(a->bytes);
    if (a->shadow)
        memcpy(a->shadow, a->host, a->bytes);
}

int rt_managed_to_device(void)
{
    rt_lock();
    int rc = 0;
    gms_diag_list *dl = gms_diag_list_create();
    for (size_t i = 0; i < S.nallocs; i++) {
        if (S.allocs[i].kind != RT_ALLOC_MANAGED)
            continue;
        if (write_changes(&S.allocs[i], dl) != GMS_OK)
            rc = -1;
        else
            keep_shadow(&S.allocs[i]);
    }
    if (rc)
        rt_print_diags("managed memory could not reach the device", dl);
    gms_diag_list_destroy(dl);
    rt_unlock();
    return rc;
}

int rt_managed_to_host(void)
{
    rt_lock();
    int rc = 0;
    for (size_t i = 0; i < S.nallocs; i++) {
        rt_alloc *a = &S.allocs[i];
        if (a->kind != RT_ALLOC_MANAGED)
            continue;
        if (gms_device_read(S.dev, a->addr, a->host, a->bytes, NULL) != GMS_OK)
            rc = -1;
        else
            keep_shadow(a);
    }
    rt_unlock();
    return rc;
}

/* ---- launches ---- */

void rt_set_default_window(const gms_policy_window *w)
{
    rt_lock();
    S.has_window = w != NULL;
    if (w)
        S.window = *w;
    rt_unlock();
}

/* The fault of the latest launch, on stderr. */
static void report_fault(void)
{
    gms_fault f;
    if (gms_device_fault(S.dev, &f) != GMS_OK)
        return;
    fprintf(stderr,
            "gpumemsim: kernel %s faulted in launch %zu: %s [%s]\n"
            "  first faulting thread: block (%u,%u,%u) thread (%u,%u,%u)",
            f.kernel, f.launch, f.message, f.rule, f.ctaid[0], f.ctaid[1], f.ctaid[2], f.tid[0],
            f.tid[1], f.tid[2]);
    if (f.source_file)
        fprintf(stderr, ", %s:%u", f.source_file, f.source_line);
    fprintf(stderr, "\n");
}

/* The launch's arguments as byte blocks sized by the kernel's parameters; 0 or -1
 * (RT-CUDART-002: the kernel is not in the module). */
static int build_args(gms_module *m, const rt_launch *l, gms_arg *args, uint32_t nparams)
{
    for (uint32_t i = 0; i < nparams; i++) {
        gms_param_info p;
        if (gms_module_kernel_param(m, l->kernel->name, i, &p) != GMS_OK)
            return -1;
        args[i] = (gms_arg){.type = GMS_BYTES, .bytes = l->args[i], .nbytes = p.bytes};
    }
    return 0;
}

gms_status rt_launch_run(const rt_launch *l)
{
    rt_lock();
    gms_module *m = rt_kernel_module(l->kernel);
    gms_kernel_info ki;
    if (!m || gms_module_kernel_find(m, l->kernel->name, &ki) != GMS_OK) {
        if (m)
            fprintf(stderr, "gpumemsim: no kernel %s in %s [RT-CUDART-002]\n", l->kernel->name,
                    l->kernel->module ? gms_module_path(m) : "the program's PTX");
        rt_unlock();
        return GMS_ERR_NOT_FOUND;
    }
    gms_arg *args = calloc(ki.nparams ? ki.nparams : 1, sizeof *args);
    gms_status st = args ? GMS_OK : GMS_ERR_NOMEM;
    if (st == GMS_OK && ki.nparams && (!l->args || build_args(m, l, args, ki.nparams)))
        st = GMS_ERR_ARGS;
    if (st == GMS_OK && rt_managed_to_device())
        st = GMS_ERR_STATE;
    if (st == GMS_OK) {
        gms_launch_config c = {.args = args, .nargs = ki.nparams,
                               .shared_bytes = l->shared_bytes,
                               .cooperative = l->cooperative};
        memcpy(c.grid, l->grid, sizeof c.grid);
        memcpy(c.block, l->block, sizeof c.block);
        c.window = l->window ? l->window : S.has_window ? &S.window : NULL;
        gms_diag_list *dl = gms_diag_list_create();
        st = gms_module_launch(m, l->kernel->name, &c, dl);
        show_printf();
        if (st == GMS_ERR_FAULT)
            report_fault();
        else if (st != GMS_OK)
            rt_print_diags(l->kernel->name, dl);
        gms_diag_list_destroy(dl);
        rt_managed_to_host();
    }
    free(args);
    rt_unlock();
    return st;
}
