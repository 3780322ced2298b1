/* Launch checks: what a CUDA driver refuses at module load or kernel launch, checked before the
 * first launch runs, so that a launch the modelled GPU could not start is an input error at the
 * launch file's field (docs/launch-files.md, "Checks against the kernel and the GPU") instead of
 * a fault in the middle of a run. It checks only; it neither runs nor changes anything. */
#include <stdio.h>

#include "sim/sim.h"

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
 * that the GPU itself would refuse it. */
static void check_target(const sim_result *r, diag_list *dl)
{
    const ir_module *m = r->module;
    const gpu_config *g = &r->gpu;
    if (!m->target_sm || target_runs_on(m->target_sm, m->target_arch_specific, g->sm_version))
        return;
    const char *needs = m->target_arch_specific == 'a' ? "exactly"
                        : m->target_arch_specific == 'f' ? "the family of, and at least,"
                                                         : "at least";
    char target[16];
    snprintf(target, sizeof target, "sm_%u%s", m->target_sm,
             m->target_arch_specific == 'a' ? "a" : m->target_arch_specific == 'f' ? "f" : "");
    diag_add(dl, DIAG_WARNING, "SIM-TARGET-001", r->launch->module_path, m->target_line,
             m->target_col,
             ".target %s needs a GPU of compute capability %s %u.%u, but preset %s is %u.%u: the "
             "GPU would refuse to load this module; gpumemsim runs it anyway", target, needs,
             m->target_sm / 10, m->target_sm % 10, g->name, g->sm_version / 10,
             g->sm_version % 10);
}

/* A note at the directive the launch violated, attached to the error just added (unless the
 * list dropped that error for being past its limit: the note would land on another one). */
static void directive_note(diag_list *dl, const char *module, unsigned line, unsigned col,
                           const char *directive)
{
    if (!dl->max_errors || dl->errors <= dl->max_errors)
        diag_add_note(dl, module, line, col, "%s is declared here", directive);
}

/* The kernel's .reqntid and .maxntid against the launch's block (SIM-LAUNCH-003, -004). */
static int check_ntid(const sim_result *r, const launch_kernel *k, const ir_func *fn,
                      uint64_t threads, diag_list *dl)
{
    const launch_desc *L = r->launch;
    const uint32_t *req = fn->reqntid, *max = fn->maxntid;
    if (req[0] && (req[0] != k->block[0] || req[1] != k->block[1] || req[2] != k->block[2])) {
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-003", L->path, k->block_line, k->block_col,
                 "%s.block is [%u, %u, %u], but kernel %s requires exactly [%u, %u, %u] "
                 "(.reqntid)", k->field, k->block[0], k->block[1], k->block[2], fn->name, req[0],
                 req[1], req[2]);
        directive_note(dl, L->module_path, fn->reqntid_line, fn->reqntid_col, ".reqntid");
        return -1;
    }
    uint64_t most = (uint64_t)max[0] * max[1] * max[2];
    if (most && threads > most) {
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-004", L->path, k->block_line, k->block_col,
                 "%s.block has %llu threads, but kernel %s allows at most %llu (.maxntid %u, %u, "
                 "%u)", k->field, (unsigned long long)threads, fn->name, (unsigned long long)most,
                 max[0], max[1], max[2]);
        directive_note(dl, L->module_path, fn->maxntid_line, fn->maxntid_col, ".maxntid");
        return -1;
    }
    return 0;
}

/* One launch against the preset's per-CTA limits and its kernel's directives. *shared_out gets
 * the shared bytes one CTA holds (static + dynamic). */
static int check_launch(const sim_result *r, const launch_kernel *k, const ir_func *fn,
                        uint64_t *shared_out, diag_list *dl)
{
    const launch_desc *L = r->launch;
    const gpu_config *g = &r->gpu;
    int rc = 0;
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    if (threads > g->sm.max_threads_per_cta) {
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-002", L->path, k->block_line, k->block_col,
                 "%s.block has %llu threads, more than %s allows per CTA (%u)", k->field,
                 (unsigned long long)threads, g->name, g->sm.max_threads_per_cta);
        rc = -1;
    } else if (check_ntid(r, k, fn, threads, dl)) {
        rc = -1;
    }
    uint64_t fixed = exec_program_static_shared_bytes(r->program);
    uint64_t shared = fixed + k->shared_bytes;
    *shared_out = shared;
    if (shared > g->l1.max_shared_per_cta_bytes) {
        /* Without a "shared_bytes" key the static shared memory alone is too large: blame the
         * launch object. */
        unsigned line = k->shared_line ? k->shared_line : k->line;
        unsigned col = k->shared_line ? k->shared_col : k->col;
        diag_add(dl, DIAG_ERROR, "SIM-LAUNCH-001", L->path, line, col,
                 "%s%s: %u bytes of dynamic shared memory plus %llu static bytes of the module "
                 "need %llu bytes per CTA, more than %s allows (%u)", k->field,
                 k->shared_line ? ".shared_bytes" : "", k->shared_bytes, (unsigned long long)fixed, (unsigned long long)shared, g->name,
                 g->l1.max_shared_per_cta_bytes);
        rc = -1;
    }
    return rc;
}

int sim_check_launches(const sim_result *r, uint32_t *shared_per_cta, diag_list *dl)
{
    const launch_desc *L = r->launch;
    int rc = 0;
    uint64_t most = 0;
    check_target(r, dl);
    for (size_t i = 0; i < L->nkernels; i++) {
        const launch_kernel *k = &L->kernels[i];
        int fi = ir_module_find_func(r->module, k->kernel);
        if (fi < 0 || !r->module->funcs[fi].is_entry)
            continue; /* SIM-KERNEL-001 when the launch comes to run */
        uint64_t shared = 0;
        if (check_launch(r, k, &r->module->funcs[fi], &shared, dl))
            rc = -1;
        else if (shared > most)
            most = shared;
    }
    *shared_per_cta = (uint32_t)most;
    return rc;
}
