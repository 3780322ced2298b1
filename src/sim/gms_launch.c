/* Launches of the public API (gpumemsim.h; docs/api.md, "Launches" and "Faults"): the checks a
 * CUDA driver makes before it starts a kernel (the kernel exists, its arguments fit, the launch
 * fits the GPU), running it, and what a launch leaves behind (statistics, fault, printf output).
 *
 * Diagnostics point where the caller says the launch came from (gms_origin: the launch-file
 * runner passes the fields of the launch file, so its messages name "launches[0].block"), or,
 * without an origin, at the kernel's declaration in the module. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/gms_internal.h"
#include "sim/sim.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- where diagnostics point ---- */

typedef struct where {
    const char *file;
    unsigned line, col;
} where;

/* The launch as a whole: its origin, or the kernel's declaration (fn may be NULL). */
static where at_launch(const gms_module *m, const ir_func *fn, const gms_launch_config *c)
{
    if (c->origin.file)
        return (where){c->origin.file, c->origin.line, c->origin.col};
    return (where){m->path, fn ? fn->line : 0, fn ? fn->col : 0};
}

/* The name of part `part` of the launch in messages: "launches[0].block" with a field, "block"
 * without; part NULL names the launch itself. */
static const char *subject(char *buf, size_t size, const gms_launch_config *c, const char *part)
{
    const char *field = c->origin.field;
    if (field && part)
        snprintf(buf, size, "%s.%s", field, part);
    else
        snprintf(buf, size, "%s", field ? field : part ? part : "launch");
    return buf;
}

/* ---- the GPU's limits (docs/launch-files.md, "Checks against the kernel and the GPU") ---- */

/* A note at the directive the launch violated, attached to the error just added (unless the
 * list dropped that error for being past its limit: the note would land on another one). */
static void directive_note(diag_list *dl, const char *module, unsigned line, unsigned col,
                           const char *directive)
{
    if (!dl->max_errors || dl->errors <= dl->max_errors)
        diag_add_note(dl, module, line, col, "%s is declared here", directive);
}

/* The kernel's .reqntid and .maxntid against the block (SIM-LAUNCH-003, -004). */
static int check_ntid(const gms_module *m, const ir_func *fn, const gms_launch_config *c,
                      where w, uint64_t threads, diag_list *dl)
{
    const uint32_t *req = fn->reqntid, *max = fn->maxntid, *b = c->block;
    char name[160];
    if (req[0] && (req[0] != b[0] || req[1] != b[1] || req[2] != b[2])) {
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-003", w.file, w.line, w.col,
                 "%s is [%u, %u, %u], but kernel %s requires exactly [%u, %u, %u] (.reqntid)",
                 subject(name, sizeof name, c, "block"), b[0], b[1], b[2], fn->name, req[0],
                 req[1], req[2]);
        directive_note(dl, m->path, fn->reqntid_line, fn->reqntid_col, ".reqntid");
        return -1;
    }
    uint64_t most = (uint64_t)max[0] * max[1] * max[2];
    if (most && threads > most) {
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-004", w.file, w.line, w.col,
                 "%s has %llu threads, but kernel %s allows at most %llu (.maxntid %u, %u, %u)",
                 subject(name, sizeof name, c, "block"), (unsigned long long)threads, fn->name,
                 (unsigned long long)most, max[0], max[1], max[2]);
        directive_note(dl, m->path, fn->maxntid_line, fn->maxntid_col, ".maxntid");
        return -1;
    }
    return 0;
}

/* Threads and shared memory per CTA (SIM-LAUNCH-001..004). Returns 0 or -1 after reporting every
 * problem. */
static int check_limits(const gms_module *m, const ir_func *fn, const gms_launch_config *c,
                        diag_list *dl)
{
    const gpu_config *g = &m->dev->gpu;
    char name[160];
    int rc = 0;
    where w = c->origin.file ? (where){c->origin.file, c->block_line, c->block_col}
                             : at_launch(m, fn, c);
    uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
    if (threads > g->sm.max_threads_per_cta) {
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-002", w.file, w.line, w.col,
                 "%s has %llu threads, more than %s allows per CTA (%u)",
                 subject(name, sizeof name, c, "block"), (unsigned long long)threads, g->name,
                 g->sm.max_threads_per_cta);
        rc = -1;
    } else if (check_ntid(m, fn, c, w, threads, dl)) {
        rc = -1;
    }
    uint64_t fixed = exec_program_static_shared_bytes(m->program);
    uint64_t shared = fixed + c->shared_bytes;
    if (shared > g->l1.max_shared_per_cta_bytes) {
        /* Without a position of shared_bytes the static shared memory alone is too large, or
         * the caller did not say: blame the launch. */
        int at_shared = c->origin.file && c->shared_line;
        where s = at_shared ? (where){c->origin.file, c->shared_line, c->shared_col}
                            : at_launch(m, fn, c);
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-001", s.file, s.line, s.col,
                 "%s: %u bytes of dynamic shared memory plus %llu static bytes of the module "
                 "need %llu bytes per CTA, more than %s allows (%u)",
                 subject(name, sizeof name, c,
                         at_shared || !c->origin.file ? "shared_bytes" : NULL),
                 c->shared_bytes, (unsigned long long)fixed, (unsigned long long)shared, g->name,
                 g->l1.max_shared_per_cta_bytes);
        rc = -1;
    }
    return rc;
}

/* The entry `name`, or NULL after SIM-KERNEL-001. */
static const ir_func *find_kernel(const gms_module *m, const char *name,
                                  const gms_launch_config *c, int *index, diag_list *dl)
{
    int fi = ir_module_find_func(m->ir, name);
    if (fi >= 0 && m->ir->funcs[fi].is_entry) {
        *index = fi;
        return &m->ir->funcs[fi];
    }
    char what[160];
    where w = c->origin.file ? at_launch(m, NULL, c) : (where){m->path, 0, 0};
    diag_add(dl, DIAG_ERROR, "SIM-KERNEL-001", w.file, w.line, w.col,
             "%s: no .entry named '%s' in %s", subject(what, sizeof what, c, "kernel"), name,
             m->path);
    return NULL;
}

/* API-ARG-001 for a missing pointer or a zero extent. */
static gms_status check_config(const char *call, const gms_module *m, const char *name,
                               const gms_launch_config *c, diag_list *dl)
{
    if (!m || !name || !c)
        return gms_bad_argument(dl, call, "the module, kernel name or configuration is NULL");
    for (int d = 0; d < 3; d++)
        if (!c->grid[d] || !c->block[d])
            return gms_bad_argument(dl, call, "every grid and block extent must be at least 1");
    if (c->nargs && !c->args)
        return gms_bad_argument(dl, call, "args is NULL but nargs is not 0");
    return GMS_OK;
}

gms_status gms_module_check_launch(const gms_module *m, const char *name,
                                   const gms_launch_config *cfg, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = check_config("gms_module_check_launch", m, name, cfg, dl);
    int fi;
    const ir_func *fn = st == GMS_OK ? find_kernel(m, name, cfg, &fi, dl) : NULL;
    if (st == GMS_OK && !fn)
        st = GMS_ERR_NOT_FOUND;
    if (fn && check_limits(m, fn, cfg, dl))
        st = GMS_ERR_LAUNCH;
    gms_sink_close(&s);
    return st;
}

/* ---- arguments ---- */

/* Bytes of each argument type, and whether it is a float. */
static const uint8_t type_bytes[GMS_TYPE_COUNT] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8, 8, 0};

static int is_float(gms_type t)
{
    return t == GMS_F16 || t == GMS_BF16 || t == GMS_F32 || t == GMS_F64;
}

/* Whether a scalar of `type` may be passed to parameter `p`: the same size, and a bit type or a
 * parameter of the same kind (signedness is the kernel's interpretation). */
static int scalar_fits(gms_type type, const ir_param *p)
{
    if (p->size_bytes != type_bytes[type])
        return 0;
    ir_type t = (ir_type)p->type;
    if (t >= IR_T_B8 && t <= IR_T_B128)
        return 1;
    if (ir_type_is_float(t) != is_float(type))
        return 0;
    if (is_float(type))
        return (type == GMS_F16 && t == IR_T_F16) || (type == GMS_BF16 && t == IR_T_BF16) ||
               (type == GMS_F32 && t == IR_T_F32) || (type == GMS_F64 && t == IR_T_F64);
    return 1;
}

static where at_arg(const gms_module *m, const ir_func *fn, const gms_launch_config *c,
                    const gms_arg *a)
{
    return a->origin.file ? (where){a->origin.file, a->origin.line, a->origin.col}
                          : at_launch(m, fn, c);
}

/* Checks one argument against parameter i (SIM-ARGS-002, -003). Returns 0 or -1. */
static int check_arg(const gms_module *m, const ir_func *fn, const gms_launch_config *c,
                     size_t i, diag_list *dl)
{
    const gms_arg *a = &c->args[i];
    const ir_param *p = &fn->params[i];
    char name[160];
    if (a->origin.field)
        snprintf(name, sizeof name, "%s", a->origin.field);
    else
        snprintf(name, sizeof name, "args[%zu]", i);
    where w = at_arg(m, fn, c, a);
    if ((unsigned)a->type >= GMS_TYPE_COUNT) {
        diag_add(dl, DIAG_ERROR, "API-ARG-001", w.file, w.line, w.col,
                 "gms_module_launch: %s has no valid gms_type", name);
        return -1;
    }
    if (a->type == GMS_ADDRESS) {
        if (p->size_bytes == 8 && !ir_type_is_float((ir_type)p->type))
            return 0;
        diag_add(dl, DIAG_ERROR, "SIM-ARGS-002", w.file, w.line, w.col,
                 "%s passes a buffer address, but parameter %zu (%s) is %s with %llu bytes, not "
                 "a 64-bit pointer", name, i, p->name, ir_type_name((ir_type)p->type),
                 (unsigned long long)p->size_bytes);
        return -1;
    }
    if (a->type == GMS_BYTES) {
        if (a->bytes && a->nbytes == p->size_bytes)
            return 0;
        diag_add(dl, DIAG_ERROR, "SIM-ARGS-003", w.file, w.line, w.col,
                 "%s passes %zu bytes, but parameter %zu (%s) of kernel %s has %llu bytes", name,
                 a->bytes ? a->nbytes : 0, i, p->name, fn->name,
                 (unsigned long long)p->size_bytes);
        return -1;
    }
    if (scalar_fits(a->type, p))
        return 0;
    diag_add(dl, DIAG_ERROR, "SIM-ARGS-003", w.file, w.line, w.col,
             "%s is %s, but parameter %zu (%s) of kernel %s is %s (%llu bytes)", name,
             gms_type_name(a->type), i, p->name, fn->name, ir_type_name((ir_type)p->type),
             (unsigned long long)p->size_bytes);
    return -1;
}

/* The parameter block of a launch (malloc'd), or NULL after SIM-ARGS-* (*st: GMS_ERR_ARGS) or
 * when out of memory (*st: GMS_ERR_NOMEM). */
static uint8_t *build_params(const gms_module *m, const ir_func *fn, const gms_launch_config *c,
                             gms_status *st, diag_list *dl)
{
    *st = GMS_ERR_ARGS;
    if (c->nargs != fn->nparams) {
        char what[160];
        where w = at_launch(m, fn, c);
        diag_add(dl, DIAG_ERROR, "SIM-ARGS-001", w.file, w.line, w.col,
                 "%s has %zu arguments but kernel %s takes %u parameters",
                 subject(what, sizeof what, c, "args"), c->nargs, fn->name, fn->nparams);
        return NULL;
    }
    int bad = 0;
    for (size_t i = 0; i < c->nargs; i++)
        bad |= check_arg(m, fn, c, i, dl);
    if (bad)
        return NULL;
    uint8_t *block = calloc(fn->params_bytes ? fn->params_bytes : 1, 1);
    if (!block) {
        *st = GMS_ERR_NOMEM;
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", m->path, fn->line, fn->col,
                 "out of memory for the %llu-byte parameter block of %s",
                 (unsigned long long)fn->params_bytes, fn->name);
        return NULL;
    }
    for (size_t i = 0; i < c->nargs; i++) {
        const ir_param *p = &fn->params[i];
        if (c->args[i].type == GMS_BYTES)
            memcpy(block + p->offset, c->args[i].bytes, c->args[i].nbytes);
        else
            memcpy(block + p->offset, &c->args[i].bits, p->size_bytes < 8 ? p->size_bytes : 8);
    }
    *st = GMS_OK;
    return block;
}

/* SIM-WINDOW-001 and the window's own values (API-ARG-001). */
static gms_status check_window(const gms_module *m, const ir_func *fn,
                               const gms_launch_config *c, diag_list *dl)
{
    const gms_policy_window *pw = c->window;
    if (!pw)
        return GMS_OK;
    if (!pw->bytes || !(pw->hit_ratio >= 0 && pw->hit_ratio <= 1) ||
        (unsigned)pw->hit_prop > GMS_ACCESS_PERSISTING ||
        (unsigned)pw->miss_prop > GMS_ACCESS_STREAMING)
        return gms_bad_argument(dl, "gms_module_launch",
                                "the policy window needs bytes >= 1, hit_ratio in [0, 1], a "
                                "valid hit_prop and a NORMAL or STREAMING miss_prop");
    const gpu_config *g = &m->dev->gpu;
    if (pw->bytes <= g->l2.access_policy_max_window_bytes)
        return GMS_OK;
    char what[160];
    where w = at_launch(m, fn, c);
    diag_add(dl, DIAG_ERROR, "SIM-WINDOW-001", w.file, w.line, w.col,
             "%s is %llu, more than %s allows (%llu)",
             subject(what, sizeof what, c, "access_policy_window.bytes"),
             (unsigned long long)pw->bytes, g->name,
             (unsigned long long)g->l2.access_policy_max_window_bytes);
    return GMS_ERR_LAUNCH;
}

/* ---- running ---- */

static void machine_of(const gms_device *dev, exec_machine *m)
{
    const gpu_config *g = &dev->gpu;
    m->sm_count = g->sm.count;
    m->max_threads_per_sm = g->sm.max_threads_per_sm;
    m->max_ctas_per_sm = g->sm.max_ctas_per_sm;
    m->shared_bytes_per_sm = g->l1.default_shared_carveout_bytes > g->l1.max_shared_per_cta_bytes
                                 ? g->l1.default_shared_carveout_bytes
                                 : g->l1.max_shared_per_cta_bytes;
    m->max_shared_per_cta = g->l1.max_shared_per_cta_bytes;
    m->shared_reserved_per_cta = g->l1.shared_reserved_per_cta_bytes;
    m->quantum = dev->quantum;
    /* Unset, functional launches take a thread per CPU and timed ones one thread: the timing
     * model hands over between its threads every cycle, which on hosts like the development
     * machine costs more than the second core gives (docs/timing.md, "Host threads"). */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    m->host_threads = dev->threads ? dev->threads
                      : dev->timing ? 1
                      : online > 0  ? (uint32_t)online
                                    : 1;
}

/* What forward_progress needs besides the executor's counts. */
typedef struct progress_ctx {
    gms_device *dev;
    gms_progress p;
    double start;
} progress_ctx;

static void forward_progress(const exec_progress *e, void *user)
{
    progress_ctx *c = user;
    c->p.ctas_done = e->ctas_done;
    c->p.ctas_total = e->ctas_total;
    c->p.warp_instructions = e->warp_instructions;
    c->p.seconds = now_seconds() - c->start;
    c->dev->progress(&c->p, c->dev->progress_user);
}

/* Room for one more launch record. Returns 0 or -1. */
static int reserve_record(gms_device *dev)
{
    if (dev->nlaunches < dev->launches_cap)
        return 0;
    size_t cap = dev->launches_cap ? dev->launches_cap * 2 : 8;
    gms_launch_record *r = realloc(dev->launches, cap * sizeof *r);
    if (!r)
        return -1;
    dev->launches = r;
    dev->launches_cap = cap;
    return 0;
}

/* The window errors of a launch that ran to its end (exec_stats), as diagnostics at their
 * instructions in the module text, and a note with the count when some were not kept. */
static void report_window_errors(const gms_module *m, const ir_func *fn, const exec_stats *st,
                                 diag_list *dl)
{
    for (uint32_t i = 0; i < st->nerrors; i++) {
        const exec_error *e = &st->errors[i];
        diag_add(dl, DIAG_ERROR, e->rule, m->path, e->line, e->col,
                 "kernel %s: %s, by thread (%u,%u,%u) in block (%u,%u,%u)", fn->name, e->message,
                 e->tid[0], e->tid[1], e->tid[2], e->ctaid[0], e->ctaid[1], e->ctaid[2]);
    }
    if (st->window_errors > st->nerrors)
        diag_add(dl, DIAG_NOTE, st->errors[0].rule, m->path, fn->line, fn->col,
                 "kernel %s: %llu lanes had window errors in all; the first %u accesses with "
                 "one are shown", fn->name, (unsigned long long)st->window_errors, st->nerrors);
}

/* The device heap's region of device memory (docs/semantics.md, "Device heap"): allocated by
 * the first launch that needs it, again when GMS_SET_HEAP_BYTES asked for a larger one. Returns
 * 0, or -1 with dev->fault saying what could not be allocated (SIM-NOMEM-001). */
static int heap_region(gms_device *dev)
{
    if (dev->heap_base || !dev->heap_bytes)
        return 0;
    if (memsys_alloc(dev->ms, dev->heap_bytes, 256, &dev->heap_base) ||
        gms_device_note_alloc(dev, dev->heap_base, dev->heap_bytes)) {
        memset(&dev->fault, 0, sizeof dev->fault);
        dev->fault.rule = "SIM-NOMEM-001";
        snprintf(dev->fault.message, sizeof dev->fault.message,
                 "cannot allocate the device heap (%llu bytes of device memory)",
                 (unsigned long long)dev->heap_bytes);
        dev->heap_base = 0;
        return -1;
    }
    dev->heap_region_bytes = dev->heap_bytes;
    return 0;
}

/* A cooperative launch's grid-sync workspace (docs/semantics.md, "Grid-wide sync"): 128 bytes of
 * device memory, zero when the first cooperative launch allocates them. Cooperative groups' sync
 * adds 2^31 in all to its counter, so every completed grid-wide sync leaves the low 31 bits as
 * it found them and the next launch can use the workspace as it is, as CUDA's does. Returns 0,
 * or -1 with dev->fault saying what could not be allocated (SIM-NOMEM-001). */
static int grid_sync_region(gms_device *dev)
{
    enum { GRID_SYNC_BYTES = 128 };
    if (dev->grid_sync_base)
        return 0;
    if (memsys_alloc(dev->ms, GRID_SYNC_BYTES, 256, &dev->grid_sync_base) ||
        gms_device_note_alloc(dev, dev->grid_sync_base, GRID_SYNC_BYTES)) {
        memset(&dev->fault, 0, sizeof dev->fault);
        dev->fault.rule = "SIM-NOMEM-001";
        snprintf(dev->fault.message, sizeof dev->fault.message,
                 "cannot allocate the grid-sync workspace of a cooperative launch (%d bytes of "
                 "device memory)", GRID_SYNC_BYTES);
        dev->grid_sync_base = 0;
        return -1;
    }
    return 0;
}

/* The timing model of the device and the per-instruction stall counters of module m, created
 * when the first timed launch needs them. Returns 0, or -1 with dev->fault saying what could
 * not be allocated (SIM-NOMEM-001). */
static int timing_state(gms_device *dev, gms_module *m)
{
    if (!dev->tm)
        dev->tm = timing_create(&dev->gpu);
    if (dev->tm && !m->stalls)
        m->stalls = calloc(m->ir->ninsns_total + 1, sizeof *m->stalls);
    if (dev->tm && m->stalls)
        return 0;
    memset(&dev->fault, 0, sizeof dev->fault);
    dev->fault.rule = "SIM-NOMEM-001";
    snprintf(dev->fault.message, sizeof dev->fault.message,
             "out of host memory for the timing model of %s", dev->gpu.name);
    return -1;
}

/* Runs the launch whose checks passed and records it; reports its window errors to dl.
 * Returns exec_run's 0, 1 or -1. */
static int run(gms_module *m, const ir_func *fn, int fi, const gms_launch_config *c,
               const uint8_t *params, diag_list *dl)
{
    gms_device *dev = m->dev;
    memsys *ms = dev->ms;
    const gms_policy_window *pw = c->window;
    if (pw)
        memsys_set_policy_window(ms, pw->base, pw->bytes, pw->hit_ratio, (uint8_t)pw->hit_prop,
                                 (uint8_t)pw->miss_prop);
    else
        memsys_set_policy_window(ms, 0, 0, 0, 0, 0);
    exec_machine machine;
    machine_of(dev, &machine);
    exec_launch el = {.entry = fi, .dynamic_shared_bytes = c->shared_bytes, .params = params,
                      .params_bytes = (uint32_t)fn->params_bytes,
                      .max_warp_instructions = dev->max_instructions,
                      .misaligned_errors = dev->misaligned_errors,
                      .strict_hazards = (uint8_t)dev->strict_hazards};
    memcpy(el.grid, c->grid, sizeof el.grid);
    el.helper_lanes = c->helper_lanes;
    memcpy(el.block, c->block, sizeof el.block);
    gms_image_prepare_launch(dev, m, &el.image_pool, &el.image_pool_words);
    if (exec_program_uses_heap(m->program)) {
        if (heap_region(dev))
            return -1;
        el.heap_base = dev->heap_base;
        el.heap_bytes = dev->heap_bytes;
    }
    if (c->cooperative) {
        if (grid_sync_region(dev))
            return -1;
        el.grid_sync_base = dev->grid_sync_base;
    }
    exec_stats st = {0};
    mem_counters before, after;
    memsys_total_counters(ms, &before);
    double t0 = now_seconds();
    progress_ctx pc = {.dev = dev, .start = t0,
                       .p = {.launch = dev->nlaunches, .kernel = fn->name,
                             .max_instructions = el.max_warp_instructions}};
    if (dev->progress) {
        el.progress = forward_progress;
        el.progress_user = &pc;
    }
    memsys_select_insns(ms, m->insn_base, m->ir->ninsns_total);
    int rc = gms_module_bind_vars(m, &dev->fault);
    timing_stats ts = {0};
    if (rc == 0 && dev->timing) {
        rc = timing_state(dev, m);
        if (rc == 0)
            rc = timing_run(dev->tm, m->program, m->ir, ms, &machine, &el,
                            (timing_policy)dev->scheduler, &st, &dev->fault, &dev->printf_text,
                            &ts, m->stalls);
    } else if (rc == 0) {
        rc = exec_run(m->program, ms, &machine, &el, &st, &dev->fault, &dev->printf_text);
    }
    gms_launch_record *r = &dev->launches[dev->nlaunches++];
    r->thread_instructions_pred_on = st.thread_instructions_pred_on;
    r->timing = ts;
    memsys_total_counters(ms, &after);
    mem_counters_sub(&r->counters, &after, &before);
    /* The L2's lines per class are state, not traffic: as the launch left them. */
    r->counters.l2.lines_evict_first = after.l2.lines_evict_first;
    r->counters.l2.lines_evict_normal = after.l2.lines_evict_normal;
    r->counters.l2.lines_evict_last = after.l2.lines_evict_last;
    r->counters.l2.peak_evict_last_lines = after.l2.peak_evict_last_lines;
    r->seconds = now_seconds() - t0;
    r->kernel = fn->name;
    r->module = m;
    memcpy(r->grid, c->grid, sizeof r->grid);
    memcpy(r->block, c->block, sizeof r->block);
    r->warp_instructions = st.warp_instructions;
    r->thread_instructions = st.thread_instructions;
    r->printf_bad_strings = st.printf_bad_strings;
    r->faulted = rc > 0;
    r->window_errors = st.window_errors;
    if (rc == 0 && st.window_errors)
        report_window_errors(m, fn, &st, dl);
    dev->last_faulted = rc > 0;
    dev->dirty = 1;
    return rc;
}

static gms_status launch(gms_module *m, const char *name, const gms_launch_config *c,
                         diag_list *dl)
{
    gms_status st = check_config("gms_module_launch", m, name, c, dl);
    int fi;
    const ir_func *fn = st == GMS_OK ? find_kernel(m, name, c, &fi, dl) : NULL;
    if (st == GMS_OK && !fn)
        return GMS_ERR_NOT_FOUND;
    uint8_t *params = st == GMS_OK ? build_params(m, fn, c, &st, dl) : NULL;
    if (st == GMS_OK && check_limits(m, fn, c, dl))
        st = GMS_ERR_LAUNCH;
    if (st == GMS_OK)
        st = check_window(m, fn, c, dl);
    if (st == GMS_OK)
        st = gms_device_memory(m->dev, dl);
    if (st == GMS_OK && reserve_record(m->dev)) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "out of memory for the statistics of a launch");
        st = GMS_ERR_NOMEM;
    }
    if (st != GMS_OK) {
        free(params);
        return st;
    }
    int rc = run(m, fn, fi, c, params, dl);
    free(params);
    if (rc < 0) {
        /* Host memory ran out: the executor may say what it could not allocate. */
        exec_fault *f = &m->dev->fault;
        where w = at_launch(m, fn, c);
        char what[160];
        diag_add(dl, DIAG_ERROR, f->rule ? f->rule : "SIM-NOMEM-001", w.file, w.line, w.col,
                 "%s: %s", subject(what, sizeof what, c, NULL),
                 f->rule ? f->message : "out of host memory during the launch");
        memset(f, 0, sizeof *f);
        return GMS_ERR_NOMEM;
    }
    if (rc > 0)
        return GMS_ERR_FAULT;
    return m->dev->launches[m->dev->nlaunches - 1].window_errors ? GMS_ERR_KERNEL : GMS_OK;
}

gms_status gms_module_launch(gms_module *m, const char *name, const gms_launch_config *cfg,
                             gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = launch(m, name, cfg, gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}

/* ---- what launches leave ---- */

gms_status gms_device_fault(const gms_device *dev, gms_fault *out)
{
    if (!dev || !out)
        return GMS_ERR_ARGUMENT;
    if (!dev->last_faulted || !dev->nlaunches)
        return GMS_ERR_NOT_FOUND;
    const exec_fault *f = &dev->fault;
    const ir_module *ir = dev->launches[dev->nlaunches - 1].module->ir;
    out->rule = f->rule;
    out->message = f->message;
    out->kernel = dev->launches[dev->nlaunches - 1].kernel;
    out->launch = dev->nlaunches - 1;
    memcpy(out->ctaid, f->ctaid, sizeof out->ctaid);
    memcpy(out->tid, f->tid, sizeof out->tid);
    out->line = f->ptx_line;
    out->column = f->ptx_line ? f->ptx_col : 0;
    out->source_file = NULL;
    out->source_line = 0;
    if (f->loc_line && f->loc_file < ir->nfiles && ir->files[f->loc_file]) {
        out->source_file = ir->files[f->loc_file];
        out->source_line = f->loc_line;
    }
    return GMS_OK;
}

const char *gms_device_printf(const gms_device *dev)
{
    return dev && dev->printf_text ? dev->printf_text : "";
}
