/* Modules of the public API (gpumemsim.h; docs/api.md, "Modules" and "Variables"): loading kernel
 * text onto a device, checking it without one, kernel queries, and the module's .global and
 * .const variables.
 *
 * A device holds any number of modules, loaded at any time between launches. The memory system
 * keeps one array of per-instruction counters for the device: a module's instructions take the
 * ids after those of the modules loaded before it (gms_module.insn_base), and a launch makes its
 * module's ids charge that range (memsys_select_insns). Each module's code starts after the
 * others' in the instruction address space, so they do not share instruction-cache lines. */
#include <stdlib.h>
#include <string.h>

#include "sim/gms_internal.h"
#include "ir/ir_print.h"
#include "sim/sim.h"

/* ---- dialects ---- */

const char *gms_dialect_for_path(const char *path)
{
    return sim_dialect_of_path(path);
}

const char *gms_dialect_at(size_t i)
{
    const frontend_registry *reg = frontend_builtin();
    return i < reg->count ? reg->dialects[i]->name : NULL;
}

gms_status gms_dialect_list(const char *dialect, unsigned what, char **text_out,
                            gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    char *text = NULL;
    size_t len = 0;
    FILE *f = text_out ? open_memstream(&text, &len) : NULL;
    if (!text_out) {
        st = gms_bad_argument(dl, "gms_dialect_list", "text_out is NULL");
    } else if (!f) {
        st = GMS_ERR_NOMEM;
    } else if (sim_list_dialects(dialect, (what & GMS_LIST_OPS) != 0, (what & GMS_LIST_RULES) != 0,
                                 f)) {
        sim_dialect_name_error(NULL, dialect, NULL, "", dl);
        st = GMS_ERR_NOT_FOUND;
    }
    if (f && fclose(f) != 0 && st == GMS_OK)
        st = GMS_ERR_NOMEM;
    if (st == GMS_OK)
        *text_out = text;
    else
        free(text);
    gms_sink_close(&s);
    return st;
}

/* ---- loading ---- */

/* Whether a GPU of compute capability `sm_version` (x10) can load a module for target `sm` with
 * arch suffix `suffix` (0, 'a' or 'f'). PTX for a plain target is compiled for any GPU at least
 * that new; an 'a' target only for that exact architecture; an 'f' target for the members of its
 * family (same major version, minor at least the target's). */
static int target_runs_on(uint32_t sm, uint8_t suffix, uint32_t sm_version)
{
    if (suffix == 'a')
        return sm_version == sm;
    if (suffix == 'f')
        return sm_version / 10 == sm / 10 && sm_version >= sm;
    return sm_version >= sm;
}

/* SIM-TARGET-001: the preset is older than (or outside the family of) the module's .target. The
 * executor runs every instruction the checker accepted for the module's target on any preset, so
 * gpumemsim runs the module anyway (comparing presets on one module is what it is for) and warns
 * that the GPU itself would refuse it (docs/launch-files.md, "Checks against the kernel and the
 * GPU"). */
static void check_target(const ir_module *m, const char *path, const gpu_config *g,
                         diag_list *dl)
{
    if (!m->target_sm || target_runs_on(m->target_sm, m->target_arch_specific, g->sm_version))
        return;
    const char *needs = m->target_arch_specific == 'a' ? "exactly"
                        : m->target_arch_specific == 'f' ? "the family of, and at least,"
                                                         : "at least";
    char target[16];
    snprintf(target, sizeof target, "sm_%u%s", m->target_sm,
             m->target_arch_specific == 'a' ? "a" : m->target_arch_specific == 'f' ? "f" : "");
    diag_add(dl, DIAG_WARNING, "SIM-TARGET-001", path, m->target_line, m->target_col,
             ".target %s needs a GPU of compute capability %s %u.%u, but preset %s is %u.%u: the "
             "GPU would refuse to load this module; gpumemsim runs it anyway", target, needs,
             m->target_sm / 10, m->target_sm % 10, g->name, g->sm_version / 10,
             g->sm_version % 10);
}

/* Reads (text NULL) or copies the text, parses it and prepares it for the executor. On success
 * *m_out holds path, text, ir and program. */
static gms_status prepare(const char *path, const char *text, size_t len, const char *dialect,
                          gms_module *m, diag_list *dl)
{
    if (!text) {
        if (!dialect && !sim_dialect_of_path(path)) {
            sim_dialect_error(path, NULL, dl); /* before reading: the suffix alone decides */
            return GMS_ERR_MODULE;
        }
        if (!(m->text = sim_read_module(path, NULL, &m->text_len, dl)))
            return GMS_ERR_IO;
    } else {
        if (!(m->text = malloc(len + 1)))
            return GMS_ERR_NOMEM;
        memcpy(m->text, text, len);
        m->text[len] = '\0';
        m->text_len = len;
    }
    if (!(m->path = strdup(path)))
        return GMS_ERR_NOMEM;
    size_t errors = dl->errors;
    m->ir = sim_parse_module(m->path, m->text, m->text_len, dialect, dl);
    if (!m->ir)
        return GMS_ERR_MODULE;
    m->program = exec_program_create(m->ir, dl);
    return m->program && dl->errors == errors ? GMS_OK : GMS_ERR_MODULE;
}

void gms_module_free(gms_module *m)
{
    if (!m)
        return;
    exec_program_destroy(m->program);
    ir_module_destroy(m->ir);
    free(m->text);
    free(m->path);
    free(m->stalls);
    free(m);
}

static gms_status load(gms_device *dev, const char *path, const char *text, size_t len,
                       const char *dialect, gms_module **out, diag_list *dl)
{
    if (!dev || !path || !out)
        return gms_bad_argument(dl, "gms_module_load", !dev    ? "dev is NULL"
                                                       : !path ? "path is NULL"
                                                               : "out is NULL");
    if (dev->nmodules == dev->modules_cap) {
        size_t cap = dev->modules_cap ? dev->modules_cap * 2 : 4;
        gms_module **mods = realloc(dev->modules, cap * sizeof *mods);
        if (!mods)
            return GMS_ERR_NOMEM;
        dev->modules = mods;
        dev->modules_cap = cap;
    }
    gms_module *m = calloc(1, sizeof *m);
    if (!m)
        return GMS_ERR_NOMEM;
    gms_status st = prepare(path, text, len, dialect, m, dl);
    if (st == GMS_OK && m->ir->ninsns_total > UINT32_MAX - dev->ninsns_total)
        st = GMS_ERR_NOMEM; /* the device's instruction ids would wrap */
    if (st == GMS_OK && dev->ms &&
        memsys_grow_insns(dev->ms, dev->ninsns_total + m->ir->ninsns_total))
        st = GMS_ERR_NOMEM;
    if (st != GMS_OK) {
        if (st == GMS_ERR_NOMEM)
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", path, 0, 0, "out of memory loading the "
                     "module");
        gms_module_free(m);
        return st;
    }
    check_target(m->ir, m->path, &dev->gpu, dl);
    m->dev = dev;
    m->insn_base = dev->ninsns_total;
    dev->ninsns_total += m->ir->ninsns_total;
    dev->code_end += exec_program_place_code(m->program, dev->code_end);
    dev->modules[dev->nmodules++] = m;
    *out = m;
    return GMS_OK;
}

gms_status gms_module_load(gms_device *dev, const char *path, const char *text, size_t len,
                           const char *dialect, gms_module **out, gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = load(dev, path, text, len, dialect, out, gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}

/* gms_module_check, and with ir_out (OUT, may be NULL) the IR listing of a clean module. */
static gms_status check_module(const char *path, const char *text, size_t len,
                               const char *dialect, char **ir_out, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st;
    gms_module *m = NULL;
    if (!path)
        st = gms_bad_argument(dl, "gms_module_check", "path is NULL");
    else if (!(m = calloc(1, sizeof *m)))
        st = GMS_ERR_NOMEM;
    else
        st = prepare(path, text, len, dialect, m, dl);
    if (st == GMS_OK && ir_out) {
        /* The IR listing of the module that checked clean (docs/architecture.md, "The IR
         * printer"). */
        size_t bytes = 0;
        FILE *f = open_memstream(ir_out, &bytes);
        int rc = f ? ir_print_module(f, m->ir) : -1;
        if (f && fclose(f) != 0)
            rc = -1;
        if (rc) {
            free(*ir_out);
            *ir_out = NULL;
            st = GMS_ERR_NOMEM;
        }
    }
    gms_module_free(m);
    gms_sink_close(&s);
    return st;
}

gms_status gms_module_check(const char *path, const char *text, size_t len, const char *dialect,
                            gms_diag_list *caller)
{
    return check_module(path, text, len, dialect, NULL, caller);
}

gms_status gms_module_dump_ir(const char *path, const char *text, size_t len, const char *dialect,
                              char **ir_out, gms_diag_list *caller)
{
    if (!ir_out) {
        gms_sink s;
        gms_status st = gms_bad_argument(gms_sink_open(&s, caller), "gms_module_dump_ir",
                                         "ir_out is NULL");
        gms_sink_close(&s);
        return st;
    }
    *ir_out = NULL;
    return check_module(path, text, len, dialect, ir_out, caller);
}

const char *gms_module_path(const gms_module *m)
{
    return m ? m->path : NULL;
}

gms_status gms_module_line(const gms_module *m, uint32_t line, char **text_out)
{
    if (!m || !text_out)
        return GMS_ERR_ARGUMENT;
    uint32_t lines = 0;
    for (size_t i = 0; i < m->text_len; i++)
        lines += m->text[i] == '\n';
    if (m->text_len && m->text[m->text_len - 1] != '\n')
        lines++;
    if (line == 0 || line > lines)
        return GMS_ERR_RANGE;
    *text_out = sim_text_line(m->text, m->text_len, line);
    return *text_out ? GMS_OK : GMS_ERR_NOMEM;
}

/* ---- kernels ---- */

static void kernel_info(const gms_module *m, const ir_func *fn, gms_kernel_info *out)
{
    out->name = fn->name;
    out->nparams = fn->nparams;
    out->params_bytes = fn->params_bytes;
    out->static_shared_bytes = exec_program_static_shared_bytes(m->program);
    memcpy(out->reqntid, fn->reqntid, sizeof out->reqntid);
    memcpy(out->maxntid, fn->maxntid, sizeof out->maxntid);
    out->line = fn->line;
    out->col = fn->col;
}

size_t gms_module_kernel_count(const gms_module *m)
{
    size_t n = 0;
    for (uint32_t i = 0; m && i < m->ir->nfuncs; i++)
        n += m->ir->funcs[i].is_entry != 0;
    return n;
}

gms_status gms_module_kernel_at(const gms_module *m, size_t i, gms_kernel_info *out)
{
    if (!m || !out)
        return GMS_ERR_ARGUMENT;
    for (uint32_t f = 0; f < m->ir->nfuncs; f++) {
        if (!m->ir->funcs[f].is_entry)
            continue;
        if (i-- == 0) {
            kernel_info(m, &m->ir->funcs[f], out);
            return GMS_OK;
        }
    }
    return GMS_ERR_NOT_FOUND;
}

gms_status gms_module_kernel_find(const gms_module *m, const char *name, gms_kernel_info *out)
{
    if (!m || !name || !out)
        return GMS_ERR_ARGUMENT;
    int fi = ir_module_find_func(m->ir, name);
    if (fi < 0 || !m->ir->funcs[fi].is_entry)
        return GMS_ERR_NOT_FOUND;
    kernel_info(m, &m->ir->funcs[fi], out);
    return GMS_OK;
}

gms_status gms_module_kernel_param(const gms_module *m, const char *name, uint32_t i,
                                   gms_param_info *out)
{
    if (!m || !name || !out)
        return GMS_ERR_ARGUMENT;
    int fi = ir_module_find_func(m->ir, name);
    if (fi < 0 || !m->ir->funcs[fi].is_entry || i >= m->ir->funcs[fi].nparams)
        return GMS_ERR_NOT_FOUND;
    const ir_param *p = &m->ir->funcs[fi].params[i];
    *out = (gms_param_info){p->offset, p->size_bytes, p->align};
    return GMS_OK;
}

/* ---- variables ---- */

/* The module-scope .global or .const variable `name`: its index, or -1 after API-VAR-001. */
static long find_var(const gms_module *m, const char *name, diag_list *dl)
{
    for (uint32_t i = 0; i < m->ir->nvars; i++) {
        const ir_var *v = &m->ir->vars[i];
        if ((v->space == IR_SPACE_GLOBAL || v->space == IR_SPACE_CONST) &&
            strcmp(v->name, name) == 0)
            return (long)i;
    }
    diag_add(dl, DIAG_ERROR, "API-VAR-001", m->path, 0, 0,
             "no module-scope .global or .const variable named '%s'", name);
    return -1;
}

int gms_module_bind_vars(gms_module *m, exec_fault *fault)
{
    gms_device *dev = m->dev;
    memset(fault, 0, sizeof *fault);
    if (m->vars_listed)
        return 0;
    int rc = exec_program_bind(m->program, dev->ms, fault);
    for (uint32_t i = 0; rc == 0 && i < m->ir->nvars; i++) {
        const ir_var *v = &m->ir->vars[i];
        if (v->space == IR_SPACE_GLOBAL &&
            gms_device_note_alloc(dev, exec_program_var_location(m->program, i),
                                  v->size_bytes ? v->size_bytes : 1))
            rc = -1;
    }
    m->vars_listed = rc == 0;
    return rc;
}

gms_status gms_module_bind(gms_module *m, diag_list *dl)
{
    gms_status st = gms_device_memory(m->dev, dl);
    if (st != GMS_OK)
        return st;
    exec_fault fault;
    int rc = gms_module_bind_vars(m, &fault);
    if (rc) {
        diag_add(dl, DIAG_ERROR, rc > 0 ? fault.rule : "SIM-NOMEM-001", m->path, 0, 0, "%s",
                 rc > 0 ? fault.message : "out of memory allocating the module's variables");
        return GMS_ERR_NOMEM;
    }
    return GMS_OK;
}

gms_status gms_module_var_info(gms_module *m, const char *name, gms_var_info *out,
                               gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    long i = -1;
    if (!m || !name || !out)
        st = gms_bad_argument(dl, "gms_module_var_info", "an argument is NULL");
    else if ((i = find_var(m, name, dl)) < 0)
        st = GMS_ERR_NOT_FOUND;
    if (st == GMS_OK) {
        const ir_var *v = &m->ir->vars[i];
        out->space = v->space == IR_SPACE_GLOBAL ? GMS_VAR_GLOBAL : GMS_VAR_CONST;
        out->bytes = v->size_bytes;
        out->address = 0;
        out->surface_ref = v->image_ref == 1;
        out->texture_ref = v->image_ref == 2;
        if (v->space == IR_SPACE_GLOBAL && (st = gms_module_bind(m, dl)) == GMS_OK)
            out->address = exec_program_var_location(m->program, (uint32_t)i);
    }
    gms_sink_close(&s);
    return st;
}

/* gms_module_set_var and gms_module_get_var. */
static gms_status var_copy(gms_module *m, const char *name, uint64_t offset, void *host,
                           uint64_t bytes, int writing, diag_list *dl)
{
    const char *call = writing ? "gms_module_set_var" : "gms_module_get_var";
    if (!m || !name || (!host && bytes))
        return gms_bad_argument(dl, call, "an argument is NULL");
    long i = find_var(m, name, dl);
    if (i < 0)
        return GMS_ERR_NOT_FOUND;
    const ir_var *v = &m->ir->vars[i];
    if (offset > v->size_bytes || bytes > v->size_bytes - offset) {
        diag_add(dl, DIAG_ERROR, "API-VAR-002", m->path, v->line, v->col,
                 "%s: bytes [%llu, %llu) are outside variable %s of %llu bytes", call,
                 (unsigned long long)offset, (unsigned long long)(offset + bytes), v->name,
                 (unsigned long long)v->size_bytes);
        return GMS_ERR_RANGE;
    }
    uint64_t where = exec_program_var_location(m->program, (uint32_t)i) + offset;
    if (v->space == IR_SPACE_CONST) {
        int rc = writing ? exec_program_write_const(m->program, m->dev->ms, where, host, bytes)
                         : exec_program_read_const(m->program, where, host, bytes);
        if (rc)
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", m->path, 0, 0,
                     "out of memory installing the constant bank");
        return rc ? GMS_ERR_NOMEM : GMS_OK;
    }
    gms_status st = gms_module_bind(m, dl);
    if (st != GMS_OK)
        return st;
    where = exec_program_var_location(m->program, (uint32_t)i) + offset;
    st = gms_device_check_range(m->dev, where, bytes, writing, call, dl);
    if (st != GMS_OK)
        return st;
    return writing ? gms_device_copy_in(m->dev, where, host, bytes, dl)
                   : gms_device_copy_out(m->dev, where, host, bytes, dl);
}

gms_status gms_module_set_var(gms_module *m, const char *name, uint64_t offset, const void *src,
                              uint64_t bytes, gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = var_copy(m, name, offset, (void *)src, bytes, 1, gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}

gms_status gms_module_get_var(gms_module *m, const char *name, uint64_t offset, void *dst,
                              uint64_t bytes, gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = var_copy(m, name, offset, dst, bytes, 0, gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}

/* Whether `handle` names a live image (kind 1) or texture (kind 2) of m's device. */
static int live_handle(const gms_module *m, int kind, uint64_t handle)
{
    if (kind == 1)
        return mem_image_table_at(memsys_images(m->dev->ms), handle) != NULL;
    return !(handle >> 32) &&
           mem_sampler_table_get(memsys_samplers(m->dev->ms), handle >> MEM_TEX_SAMPLER_SHIFT);
}

/* Binds `handle` to the reference variable `name` of `kind` (ir_var.image_ref: 1 .surfref,
 * 2 .texref) for gms_module_bind_surface and gms_module_bind_texture (`call`). */
static gms_status bind_reference(gms_module *m, const char *name, uint64_t handle, int kind,
                                 const char *call, diag_list *dl)
{
    static const char *const what[3] = {"", ".surfref", ".texref"};
    long i = -1;
    gms_status st = GMS_OK;
    if (!m || !name) {
        st = gms_bad_argument(dl, call, "an argument is NULL");
    } else if ((i = find_var(m, name, dl)) < 0) {
        st = GMS_ERR_NOT_FOUND;
    } else if (m->ir->vars[i].image_ref != kind) {
        const ir_var *v = &m->ir->vars[i];
        diag_add(dl, DIAG_ERROR, kind == 1 ? "API-VAR-003" : "API-VAR-004", m->path, v->line,
                 v->col, "%s: variable %s is not a %s", call, v->name, what[kind]);
        st = GMS_ERR_ARGUMENT;
    } else if ((st = gms_module_bind(m, dl)) == GMS_OK && !live_handle(m, kind, handle)) {
        diag_add(dl, DIAG_ERROR, kind == 1 ? "API-IMAGE-002" : "API-TEX-002", "", 0, 0,
                 "%s: no %s has handle %llu", call, kind == 1 ? "image" : "texture",
                 (unsigned long long)handle);
        st = GMS_ERR_NOT_FOUND;
    }
    if (st == GMS_OK)
        st = var_copy(m, name, 0, &handle, sizeof handle, 1, dl);
    return st;
}

gms_status gms_module_bind_surface(gms_module *m, const char *name, uint64_t handle,
                                   gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = bind_reference(m, name, handle, 1, "gms_module_bind_surface",
                                   gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}

gms_status gms_module_bind_texture(gms_module *m, const char *name, uint64_t handle,
                                   gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = bind_reference(m, name, handle, 2, "gms_module_bind_texture",
                                   gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}
