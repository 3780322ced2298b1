/* The simulation driver (sim.h). */
#include "sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/file.h"
#include "frontend/frontend.h"
#include "mem/memsys.h"
#include "sim/sim_internal.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Where a problem with a kernel file is reported: at a field of the launch file ("module") when
 * the launch file named it, at the kernel file itself (file == NULL) for `check`. */
typedef struct module_origin {
    const char *file;
    unsigned line, col;
    const char *field;
} module_origin;

/* Reports "<verb>: <why>" at the kernel file, or "<field>: <verb> "<path>": <why>" at the launch
 * file's field; verb may be NULL. */
static void module_error(diag_list *dl, const module_origin *o, const char *rule,
                         const char *path, const char *verb, const char *why)
{
    if (o && o->file)
        diag_add(dl, DIAG_ERROR, rule, o->file, o->line, o->col, "%s: %s%s\"%s\": %s", o->field,
                 verb ? verb : "", verb ? " " : "", path, why);
    else
        diag_add(dl, DIAG_ERROR, rule, path, 0, 0, "%s%s%s", verb ? verb : "", verb ? ": " : "",
                 why);
}

static char *read_module(const char *path, const module_origin *o, size_t *len, diag_list *dl)
{
    file_error e;
    char *text = file_read_all(path, SIM_MAX_MODULE_BYTES, len, &e);
    if (!text) {
        char why[160];
        const char *rule = e.status == FILE_ERR_NOT_REGULAR ? "SIM-IO-002"
                           : e.status == FILE_ERR_TOO_LARGE ? "SIM-IO-003"
                                                            : "SIM-IO-001";
        module_error(dl, o, rule, path, e.status == FILE_ERR_OPEN ? "cannot open" : "cannot read",
                     file_error_text(&e, why, sizeof why));
    }
    return text;
}

char *sim_read_file(const char *path, size_t *len, diag_list *dl)
{
    return read_module(path, NULL, len, dl);
}

/* Where a kernel's dialect was named, if it was: the dialect's name, and the launch file's
 * "dialect" value (file NULL: a caller's sim_options.dialect, blamed on the kernel file). */
typedef struct dialect_choice {
    const char *name; /* NULL: choose by the file's suffix */
    const char *file;
    unsigned line, col;
} dialect_choice;

/* The front-end that reads `path`, from the registry of opt (docs/launch-files.md, "Kernel
 * dialects"); NULL after reporting SIM-DIALECT-001 (no dialect claims the suffix) or
 * SIM-DIALECT-002 (no dialect has the name). */
static const frontend_dialect *choose_dialect(const char *path, const module_origin *o,
                                              const dialect_choice *c, const sim_options *opt,
                                              diag_list *dl)
{
    const frontend_registry *reg = opt && opt->dialects ? opt->dialects : frontend_builtin();
    const frontend_dialect *d = frontend_choose(reg, path, c->name);
    if (d)
        return d;
    char known[256], why[320];
    if (!c->name) {
        snprintf(why, sizeof why, "unknown kernel dialect: gpumemsim reads %s",
                 frontend_describe_files(reg, known, sizeof known));
        module_error(dl, o, "SIM-DIALECT-001", path, NULL, why);
    } else if (c->file) {
        diag_add(dl, DIAG_ERROR, "SIM-DIALECT-002", c->file, c->line, c->col,
                 "dialect: unknown kernel dialect \"%s\"; the dialects are: %s", c->name,
                 frontend_describe_names(reg, known, sizeof known));
    } else {
        diag_add(dl, DIAG_ERROR, "SIM-DIALECT-002", path, 0, 0,
                 "unknown kernel dialect \"%s\"; the dialects are: %s", c->name,
                 frontend_describe_names(reg, known, sizeof known));
    }
    return NULL;
}

static ir_module *load_module(const char *path, const module_origin *o, const dialect_choice *c,
                              const sim_options *opt, diag_list *dl, char **text_out,
                              size_t *len_out)
{
    const frontend_dialect *d = choose_dialect(path, o, c, opt, dl);
    if (!d)
        return NULL;
    size_t len;
    char *text = read_module(path, o, &len, dl);
    if (!text)
        return NULL;
    ir_module *m = d->parse(path, text, len, dl);
    if (text_out && m) {
        *text_out = text;
        *len_out = len;
    } else {
        free(text);
    }
    return m;
}

ir_module *sim_load_module(const char *path, const sim_options *opt, diag_list *dl,
                           char **text_out, size_t *len_out)
{
    dialect_choice c = {opt ? opt->dialect : NULL, NULL, 0, 0};
    return load_module(path, NULL, &c, opt, dl, text_out, len_out);
}

int sim_check_file(const char *path, const sim_options *opt, diag_list *dl)
{
    ir_module *m = sim_load_module(path, opt, dl, NULL, NULL);
    if (!m)
        return SIM_BAD_INPUT;
    exec_program *p = exec_program_create(m, dl);
    int rc = p && dl->errors == 0 ? SIM_OK : SIM_BAD_INPUT;
    exec_program_destroy(p);
    ir_module_destroy(m);
    return rc;
}

static int choose_gpu(sim_result *r, const launch_desc *L, const sim_options *opt, diag_list *dl)
{
    const char *config = opt->config_path ? opt->config_path : L->config_path;
    if (config)
        return gpu_config_load_override(config, &r->gpu, dl) == 0 ? 0 : -1;
    const char *name = opt->gpu ? opt->gpu : L->gpu;
    const gpu_config *g = gpu_preset_find(name);
    if (!g && opt->gpu) /* blame the flag, not the launch file */
        diag_add(dl, DIAG_ERROR, "SIM-GPU-001", "gpumemsim", 0, 0,
                 "--gpu %s: unknown GPU preset; `gpumemsim presets` lists them", name);
    else if (!g)
        diag_add(dl, DIAG_ERROR, "SIM-GPU-001", L->path, L->gpu_line, L->gpu_col,
                 "gpu: unknown GPU preset '%s'; `gpumemsim presets` lists them", name);
    if (!g)
        return -1;
    r->gpu = *g;
    return 0;
}

/* Whether a scalar argument of `type` may be passed to parameter `p`. */
static int scalar_fits(launch_elem type, const ir_param *p)
{
    if (p->size_bytes != launch_elem_bytes(type))
        return 0;
    ir_type t = (ir_type)p->type;
    if (t >= IR_T_B8 && t <= IR_T_B128)
        return 1;
    int is_float = launch_elem_is_float(type);
    if (ir_type_is_float(t) != is_float)
        return 0;
    if (is_float)
        return (type == LAUNCH_F16 && t == IR_T_F16) || (type == LAUNCH_BF16 && t == IR_T_BF16) ||
               (type == LAUNCH_F32 && t == IR_T_F32) || (type == LAUNCH_F64 && t == IR_T_F64);
    return 1; /* integers of the same width: signedness is the kernel's interpretation */
}

/* Builds the parameter block of one launch; reports mismatches against the kernel's parameters. */
static uint8_t *build_params(const launch_desc *L, const launch_kernel *k, const ir_func *fn,
                             const uint64_t *buffer_addr, diag_list *dl)
{
    if (k->nargs != fn->nparams) {
        diag_add(dl, DIAG_ERROR, "SIM-ARGS-001", L->path, k->line, k->col,
                 "%s.args has %zu arguments but kernel %s takes %u parameters", k->field,
                 k->nargs, fn->name, fn->nparams);
        return NULL;
    }
    uint8_t *block = calloc(fn->params_bytes ? fn->params_bytes : 1, 1);
    if (!block)
        return NULL;
    int bad = 0;
    for (size_t i = 0; i < k->nargs; i++) {
        const launch_arg *a = &k->args[i];
        const ir_param *p = &fn->params[i];
        uint64_t v;
        if (a->kind == LAUNCH_ARG_BUFFER) {
            if (p->size_bytes != 8 || ir_type_is_float((ir_type)p->type)) {
                diag_add(dl, DIAG_ERROR, "SIM-ARGS-002", L->path, a->line, a->col,
                         "%s passes a buffer address, but parameter %zu (%s) is %s with %llu "
                         "bytes, not a 64-bit pointer", a->field, i, p->name,
                         ir_type_name((ir_type)p->type), (unsigned long long)p->size_bytes);
                bad = 1;
                continue;
            }
            v = buffer_addr[a->buffer] + a->offset;
        } else {
            if (!scalar_fits(a->type, p)) {
                diag_add(dl, DIAG_ERROR, "SIM-ARGS-003", L->path, a->line, a->col,
                         "%s is %s, but parameter %zu (%s) of kernel %s is %s (%llu bytes)",
                         a->field, launch_elem_name(a->type), i, p->name, fn->name,
                         ir_type_name((ir_type)p->type), (unsigned long long)p->size_bytes);
                bad = 1;
                continue;
            }
            v = a->bits;
        }
        memcpy(block + p->offset, &v, p->size_bytes < 8 ? p->size_bytes : 8);
    }
    if (bad) {
        free(block);
        return NULL;
    }
    return block;
}

int sim_memsys_config(const gpu_config *g, uint32_t shared_per_sm, memsys_config *c,
                      const char *path, diag_list *dl)
{
    uint32_t carveout = g->l1.default_shared_carveout_bytes;
    if (shared_per_sm > carveout && gpu_config_pick_carveout(g, shared_per_sm, &carveout)) {
        if (dl)
            diag_add(dl, DIAG_ERROR, "SIM-SHARED-001", path, 0, 0,
                 "a launch needs %u bytes of shared memory per SM, more than %s can provide",
                 shared_per_sm, g->name);
        return -1;
    }
    memset(c, 0, sizeof *c);
    c->sm_count = g->sm.count;
    c->l1.bytes = gpu_config_l1_data_bytes(g, carveout);
    c->l1.line_bytes = g->l1.line_bytes;
    c->l1.sector_bytes = g->l1.sector_bytes;
    c->l1.ways = g->l1.ways;
    c->l1.cache_global_loads = g->l1.cache_global_loads;
    c->l1.global_store_write_through = g->l1.global_store_policy == GPU_WRITE_THROUGH;
    c->l1.global_store_allocate = g->l1.global_store_allocate;
    c->l1.local_write_back = g->l1.local_store_policy == GPU_WRITE_BACK;
    c->l2.bytes = g->l2.size_bytes;
    c->l2.line_bytes = g->l2.line_bytes;
    c->l2.sector_bytes = g->l2.sector_bytes;
    c->l2.ways = g->l2.ways;
    c->l2.slices = g->l2.slices;
    c->l2.dram_fill_bytes = g->l2.dram_fill_bytes;
    c->l2.persisting_max_bytes = g->l2.persisting_max_bytes;
    c->shared.banks = g->shared.banks;
    c->shared.bank_width_bytes = g->shared.bank_width_bytes;
    c->constant.bytes = g->constant.l1_bytes;
    c->constant.line_bytes = g->constant.l1_line_bytes;
    c->constant.ways = g->constant.l1_ways;
    c->icache.bytes = g->instruction.l1_bytes;
    c->icache.line_bytes = g->instruction.l1_line_bytes;
    c->icache.ways = g->instruction.l1_ways;
    c->dram_page_bytes = g->dram.page_bytes;
    return 0;
}

static void machine_from_gpu(const gpu_config *g, uint32_t quantum, exec_machine *m)
{
    m->sm_count = g->sm.count;
    m->max_threads_per_sm = g->sm.max_threads_per_sm;
    m->max_ctas_per_sm = g->sm.max_ctas_per_sm;
    m->shared_bytes_per_sm = g->l1.default_shared_carveout_bytes > g->l1.max_shared_per_cta_bytes
                                 ? g->l1.default_shared_carveout_bytes
                                 : g->l1.max_shared_per_cta_bytes;
    m->max_shared_per_cta = g->l1.max_shared_per_cta_bytes;
    m->quantum = quantum ? quantum : 256;
}

/* Allocates and initialises every buffer; fills addr[]. */
static int setup_buffers(const launch_desc *L, memsys *ms, uint64_t *addr, diag_list *dl)
{
    for (size_t b = 0; b < L->nbuffers; b++) {
        const launch_buffer *buf = &L->buffers[b];
        if (buf->init.kind == LAUNCH_INIT_ZERO) {
            /* Device memory never written reads as zero: nothing to copy, nothing to page in. */
            if (memsys_alloc(ms, buf->bytes, 256, &addr[b]) == 0)
                continue;
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", L->path, 0, 0,
                     "cannot allocate buffer %s (%llu bytes)", buf->name,
                     (unsigned long long)buf->bytes);
            return -1;
        }
        uint8_t *data = malloc(buf->bytes);
        if (!data || memsys_alloc(ms, buf->bytes, 256, &addr[b])) {
            free(data);
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", L->path, 0, 0,
                     "cannot allocate buffer %s (%llu bytes)", buf->name,
                     (unsigned long long)buf->bytes);
            return -1;
        }
        int rc = launch_init_buffer(L, b, data, dl);
        if (rc == 0)
            rc = memsys_host_write(ms, addr[b], data, buf->bytes);
        free(data);
        if (rc)
            return -1;
    }
    return 0;
}

/* What forward_progress needs besides the executor's counts. */
typedef struct progress_ctx {
    const sim_options *opt;
    sim_progress p;
    double start;
} progress_ctx;

static void forward_progress(const exec_progress *e, void *user)
{
    progress_ctx *c = user;
    c->p.ctas_done = e->ctas_done;
    c->p.ctas_total = e->ctas_total;
    c->p.warp_instructions = e->warp_instructions;
    c->p.seconds = now_seconds() - c->start;
    c->opt->progress(&c->p, c->opt->progress_user);
}

static int run_launches(sim_result *r, const sim_options *opt, memsys *ms, const uint64_t *addr,
                        diag_list *dl)
{
    const launch_desc *L = r->launch;
    exec_machine machine;
    machine_from_gpu(&r->gpu, opt->quantum, &machine);
    r->launches = calloc(L->nkernels, sizeof *r->launches);
    if (!r->launches)
        return -1;
    for (size_t i = 0; i < L->nkernels; i++) {
        const launch_kernel *k = &L->kernels[i];
        int fi = ir_module_find_func(r->module, k->kernel);
        if (fi < 0 || !r->module->funcs[fi].is_entry) {
            diag_add(dl, DIAG_ERROR, "SIM-KERNEL-001", L->path, k->line, k->col,
                     "%s.kernel: no .entry named '%s' in %s", k->field, k->kernel,
                     L->module_path);
            return -1;
        }
        const ir_func *fn = &r->module->funcs[fi];
        uint8_t *params = build_params(L, k, fn, addr, dl);
        if (!params)
            return -1;
        exec_launch el = {.entry = fi, .dynamic_shared_bytes = k->shared_bytes,
                          .params = params, .params_bytes = (uint32_t)fn->params_bytes};
        memcpy(el.grid, k->grid, sizeof el.grid);
        memcpy(el.block, k->block, sizeof el.block);
        el.max_warp_instructions = opt->max_instructions ? opt->max_instructions
                                   : L->max_instructions ? L->max_instructions
                                                         : SIM_DEFAULT_MAX_INSTRUCTIONS;
        if (k->reset_persisting)
            memsys_reset_persisting(ms);
        if (k->has_policy_window) {
            const launch_policy_window *pw = &k->policy_window;
            if (pw->bytes > r->gpu.l2.access_policy_max_window_bytes) {
                diag_add(dl, DIAG_ERROR, "SIM-WINDOW-001", L->path, k->line, k->col,
                         "%s.access_policy_window.bytes is %llu, more than %s allows (%llu)",
                         k->field, (unsigned long long)pw->bytes, r->gpu.name,
                         (unsigned long long)r->gpu.l2.access_policy_max_window_bytes);
                free(params);
                return -1;
            }
            memsys_set_policy_window(ms, addr[pw->buffer] + pw->offset, pw->bytes, pw->hit_ratio,
                                     (uint8_t)pw->hit_prop, (uint8_t)pw->miss_prop);
        } else {
            memsys_set_policy_window(ms, 0, 0, 0, 0, 0);
        }
        exec_stats st = {0};
        mem_counters before, after;
        memsys_total_counters(ms, &before);
        double t0 = now_seconds();
        progress_ctx pc = {.opt = opt, .start = t0,
                           .p = {.launch = i, .nlaunches = L->nkernels, .kernel = k->kernel,
                                 .max_instructions = el.max_warp_instructions}};
        if (opt->progress) {
            el.progress = forward_progress;
            el.progress_user = &pc;
        }
        int rc = exec_run(r->program, ms, &machine, &el, &st, &r->fault, &r->printf_text);
        sim_launch_stats *ls = &r->launches[r->nlaunches++];
        memsys_total_counters(ms, &after);
        mem_counters_sub(&ls->counters, &after, &before);
        ls->counters.l2.lines_evict_first = after.l2.lines_evict_first;
        ls->counters.l2.lines_evict_normal = after.l2.lines_evict_normal;
        ls->counters.l2.lines_evict_last = after.l2.lines_evict_last;
        ls->counters.l2.peak_evict_last_lines = after.l2.peak_evict_last_lines;
        ls->seconds = now_seconds() - t0;
        ls->kernel = k->kernel;
        memcpy(ls->grid, k->grid, sizeof ls->grid);
        memcpy(ls->block, k->block, sizeof ls->block);
        ls->warp_instructions = st.warp_instructions;
        ls->thread_instructions = st.thread_instructions;
        r->warp_instructions += st.warp_instructions;
        r->thread_instructions += st.thread_instructions;
        ls->printf_bad_strings = st.printf_bad_strings;
        r->printf_bad_strings += st.printf_bad_strings;
        r->seconds += ls->seconds;
        free(params);
        if (rc < 0)
            return -1;
        if (rc > 0) {
            r->faulted = 1;
            r->fault_launch = i;
            return 1;
        }
    }
    return 0;
}

/* The JSON report of a finished run, malloc'd; NULL when out of memory. */
static char *report_json_text(const sim_result *r)
{
    report_model m;
    char *text = sim_report_model(r, &m) == 0 ? report_to_json(&m) : NULL;
    sim_report_model_fini(&m);
    return text;
}

/* After the last launch: final write-back, counters, expectations, then every output (the
 * launch file's and the JSON report at json_path, NULL: none) all-or-nothing. */
static int finish_outputs(sim_result *r, memsys *ms, const uint64_t *addr, const char *json_path,
                          diag_list *dl)
{
    const launch_desc *L = r->launch;
    if (memsys_finish(ms)) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", L->path, 0, 0,
                 "the backing store could not hold the final write-back");
        return -1;
    }
    memsys_total_counters(ms, &r->totals);
    uint32_t n = r->module->ninsns_total;
    r->insn_counters = malloc((n ? n : 1) * sizeof *r->insn_counters);
    if (!r->insn_counters)
        return -1;
    memcpy(r->insn_counters, memsys_insn_counters(ms), n * sizeof *r->insn_counters);
    uint8_t **data = calloc(L->nbuffers + 1, sizeof *data);
    int rc = data ? 0 : -1;
    for (size_t b = 0; !rc && b < L->nbuffers; b++) {
        data[b] = malloc(L->buffers[b].bytes);
        if (!data[b] || memsys_host_read(ms, addr[b], data[b], L->buffers[b].bytes))
            rc = -1;
    }
    if (!rc && L->nexpects) {
        r->expects = calloc(L->nexpects, sizeof *r->expects);
        int failed = r->expects ? launch_check_expectations(L, (const uint8_t *const *)data,
                                                            r->expects, dl)
                                : -1;
        if (failed < 0)
            rc = -1;
        else
            r->expects_failed = failed;
    }
    char *json = NULL;
    if (!rc && json_path && !(json = report_json_text(r))) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", L->path, 0, 0, "out of memory building the "
                 "JSON report");
        rc = -1;
    }
    if (!rc && sim_outputs_write(L, (const uint8_t *const *)data, json_path, json, dl))
        rc = -1;
    free(json);
    for (size_t b = 0; data && b < L->nbuffers; b++) free(data[b]);
    free(data);
    return rc;
}

sim_result *sim_run_file(const char *path, const sim_options *opt, diag_list *dl)
{
    sim_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->status = SIM_BAD_INPUT;
    r->launch = launch_load(path, dl);
    if (!r->launch || choose_gpu(r, r->launch, opt, dl) ||
        sim_outputs_check(r->launch, opt, dl))
        return r;
    module_origin origin = {r->launch->path, r->launch->module_line, r->launch->module_col,
                            "module"};
    dialect_choice dialect = {opt->dialect, NULL, 0, 0};
    if (!opt->dialect && r->launch->dialect)
        dialect = (dialect_choice){r->launch->dialect, r->launch->path, r->launch->dialect_line,
                                   r->launch->dialect_col};
    r->module = load_module(r->launch->module_path, &origin, &dialect, opt, dl, &r->module_text,
                            &r->module_text_len);
    if (!r->module)
        return r;
    r->program = exec_program_create(r->module, dl);
    if (!r->program)
        return r;
    uint32_t shared_per_sm = 0;
    if (sim_check_launches(r, &shared_per_sm, dl))
        return r;
    memsys_config mc;
    if (sim_memsys_config(&r->gpu, shared_per_sm, &mc, r->launch->path, dl))
        return r;
    memsys *ms = memsys_create(&mc, dl);
    uint64_t *addr = calloc(r->launch->nbuffers + 1, sizeof *addr);
    if (ms)
        memsys_set_hint_mode(ms, opt->strip_hints, opt->poison_discard);
    r->hints_stripped = opt->strip_hints;
    if (ms && r->launch->has_l2_persisting_bytes) {
        memsys_set_persisting_bytes(ms, r->launch->l2_persisting_bytes);
        r->l2_persisting_bytes = r->launch->l2_persisting_bytes < mc.l2.persisting_max_bytes
                                     ? r->launch->l2_persisting_bytes
                                     : mc.l2.persisting_max_bytes;
    }
    if (!ms || !addr || memsys_set_insn_count(ms, r->module->ninsns_total) ||
        setup_buffers(r->launch, ms, addr, dl)) {
        memsys_destroy(ms);
        free(addr);
        return r;
    }
    int rc = run_launches(r, opt, ms, addr, dl);
    if (rc == 0) {
        rc = finish_outputs(r, ms, addr, opt->json_path, dl);
        r->status = rc ? SIM_BAD_INPUT : r->expects_failed ? SIM_FAILED : SIM_OK;
    } else {
        r->status = rc > 0 ? SIM_FAILED : SIM_BAD_INPUT;
    }
    memsys_destroy(ms);
    free(addr);
    return r;
}

void sim_result_destroy(sim_result *r)
{
    if (!r)
        return;
    exec_program_destroy(r->program);
    ir_module_destroy(r->module);
    launch_destroy(r->launch);
    free(r->module_text);
    free(r->launches);
    free(r->expects);
    free(r->printf_text);
    free(r->insn_counters);
    free(r);
}

char *sim_module_line(const sim_result *r, uint32_t line)
{
    const char *t = r->module_text;
    size_t len = r->module_text_len, pos = 0;
    if (!t || !line)
        return NULL;
    for (uint32_t l = 1; l < line && pos < len; pos++)
        if (t[pos] == '\n')
            l++;
    while (pos < len && (t[pos] == ' ' || t[pos] == '\t')) pos++;
    size_t end = pos;
    while (end < len && t[end] != '\n') end++;
    while (end > pos && (t[end - 1] == ' ' || t[end - 1] == '\t' || t[end - 1] == '\r')) end--;
    char *s = malloc(end - pos + 1);
    if (s) {
        memcpy(s, t + pos, end - pos);
        s[end - pos] = '\0';
    }
    return s;
}

int sim_report_model(const sim_result *r, report_model *m)
{
    memset(m, 0, sizeof *m);
    m->gpu = r->gpu.name;
    m->launch_file = r->launch->path;
    m->module = r->launch->module_path;
    m->warp_instructions = r->warp_instructions;
    m->thread_instructions = r->thread_instructions;
    m->printf_bad_strings = r->printf_bad_strings;
    m->totals = r->totals;
    m->l2_persisting_bytes = r->l2_persisting_bytes;
    m->hints_stripped = r->hints_stripped;
    m->launches = calloc(r->nlaunches + 1, sizeof *m->launches);
    if (!m->launches)
        return -1;
    m->nlaunches = r->nlaunches;
    for (size_t i = 0; i < r->nlaunches; i++) {
        const sim_launch_stats *s = &r->launches[i];
        report_launch *l = &m->launches[i];
        l->kernel = s->kernel;
        memcpy(l->grid, s->grid, sizeof l->grid);
        memcpy(l->block, s->block, sizeof l->block);
        l->warp_instructions = s->warp_instructions;
        l->thread_instructions = s->thread_instructions;
        l->printf_bad_strings = s->printf_bad_strings;
        l->counters = s->counters;
        l->seconds = s->seconds;
    }
    const uint64_t *execs = exec_program_insn_counts(r->program);
    uint32_t n = r->module->ninsns_total;
    m->insns = calloc(n + 1, sizeof *m->insns);
    if (!m->insns)
        return -1;
    for (uint32_t id = 0; id < n; id++) {
        if (!execs[id])
            continue;
        const ir_func *fn;
        const ir_insn *in = ir_module_insn_by_id(r->module, id, &fn);
        if (!in)
            continue;
        report_insn *ri = &m->insns[m->ninsns++];
        ri->id = id;
        ri->kernel = fn->name;
        ri->ptx_line = in->line;
        if (in->loc_line && in->loc_file < r->module->nfiles && r->module->files[in->loc_file]) {
            ri->source_file = r->module->files[in->loc_file];
            ri->source_line = in->loc_line;
        }
        ri->text = sim_module_line(r, in->line);
        ri->executions = execs[id];
        ri->counters = r->insn_counters ? r->insn_counters[id] : (mem_counters){0};
    }
    return 0;
}

void sim_report_model_fini(report_model *m)
{
    for (size_t i = 0; i < m->ninsns; i++) free((char *)m->insns[i].text);
    free(m->insns);
    free(m->launches);
    memset(m, 0, sizeof *m);
}
