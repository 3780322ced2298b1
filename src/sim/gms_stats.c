/* Statistics of the public API (gpumemsim.h; docs/api.md, "Statistics"): the counters of each
 * launch and of the whole device, and the text and JSON reports of docs/statistics.md, built
 * from the same numbers by the report layer (src/report/). */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "sim/gms_internal.h"
#include "sim/sim.h"

/* gms_counters repeats mem_counters field by field, so that a counter added to one and not the
 * other stops the build here instead of going missing from the API. */
_Static_assert(sizeof(gms_counters) == sizeof(mem_counters),
               "gms_counters (gpumemsim.h) and mem_counters (mem/mem_stats.h) differ");

void gms_counters_from_mem(gms_counters *o, const mem_counters *c)
{
    o->l1.requests = c->l1.requests;
    o->l1.sector_accesses = c->l1.sector_accesses;
    o->l1.sector_hits = c->l1.sector_hits;
    o->l1.sector_misses = c->l1.sector_misses;
    o->l1.evictions = c->l1.evictions;
    o->l1.writeback_bytes = c->l1.writeback_bytes;
    o->l2.sector_accesses = c->l2.sector_accesses;
    o->l2.sector_hits = c->l2.sector_hits;
    o->l2.sector_misses = c->l2.sector_misses;
    o->l2.evictions = c->l2.evictions;
    o->l2.writeback_bytes = c->l2.writeback_bytes;
    o->l2.lines_evict_first = c->l2.lines_evict_first;
    o->l2.lines_evict_normal = c->l2.lines_evict_normal;
    o->l2.lines_evict_last = c->l2.lines_evict_last;
    o->l2.peak_evict_last_lines = c->l2.peak_evict_last_lines;
    o->dram.read_bytes = c->dram.read_bytes;
    o->dram.write_bytes = c->dram.write_bytes;
    o->shared.requests = c->shared.requests;
    o->shared.wavefronts = c->shared.wavefronts;
    o->shared.bank_conflicts = c->shared.bank_conflicts;
    o->shared.uniform_hinted = c->shared.uniform_hinted;
    o->shared.uniform_unmet = c->shared.uniform_unmet;
    o->constant.requests = c->constant.requests;
    o->constant.serialized = c->constant.serialized;
    o->constant.hits = c->constant.hits;
    o->constant.misses = c->constant.misses;
    o->icache.fetches = c->icache.fetches;
    o->icache.hits = c->icache.hits;
    o->icache.misses = c->icache.misses;
    o->surface.requests = c->surface.requests;
    o->surface.sectors_l2 = c->surface.sectors_l2;
    o->surface.sectors_dram = c->surface.sectors_dram;
    o->texture.requests = c->texture.requests;
    o->texture.sectors_l1 = c->texture.sectors_l1;
    o->texture.sectors_l2 = c->texture.sectors_l2;
    o->texture.sectors_dram = c->texture.sectors_dram;
    o->lsu.global_load_requests = c->lsu.global_load_requests;
    o->lsu.global_load_sectors = c->lsu.global_load_sectors;
    o->lsu.global_load_sector_hits = c->lsu.global_load_sector_hits;
    o->lsu.global_store_requests = c->lsu.global_store_requests;
    o->lsu.global_store_sectors = c->lsu.global_store_sectors;
    o->lsu.local_load_requests = c->lsu.local_load_requests;
    o->lsu.local_load_sectors = c->lsu.local_load_sectors;
    o->lsu.local_load_sector_hits = c->lsu.local_load_sector_hits;
    o->lsu.local_store_requests = c->lsu.local_store_requests;
    o->lsu.local_store_sectors = c->lsu.local_store_sectors;
}

_Static_assert((int)GMS_STALL_COUNT == (int)TIMING_STALL_COUNT,
               "gms_stall (gpumemsim.h) and timing_stalls.def differ");

static void timing_to_public(gms_timing_stats *o, const timing_stats *t)
{
    memset(o, 0, sizeof *o);
    o->enabled = t->enabled;
    o->cycles = t->cycles;
    o->sm_active_cycles = t->sm_active_cycles;
    o->warp_resident_cycles = t->warp_resident_cycles;
    o->max_warps_per_sm = t->max_warps_per_sm;
    o->sm_count = t->sm_count;
    o->clock_mhz = t->clock_mhz;
    for (int i = 0; i < GMS_STALL_COUNT; i++) o->stalls[i] = t->stalls[i];
}

size_t gms_device_launch_count(const gms_device *dev)
{
    return dev ? dev->nlaunches : 0;
}

gms_status gms_device_launch_stats(const gms_device *dev, size_t i, gms_launch_stats *out)
{
    if (!dev || !out || i >= dev->nlaunches)
        return GMS_ERR_ARGUMENT;
    const gms_launch_record *r = &dev->launches[i];
    out->kernel = r->kernel;
    memcpy(out->grid, r->grid, sizeof out->grid);
    memcpy(out->block, r->block, sizeof out->block);
    out->warp_instructions = r->warp_instructions;
    out->thread_instructions = r->thread_instructions;
    out->printf_bad_strings = r->printf_bad_strings;
    out->thread_instructions_pred_on = r->thread_instructions_pred_on;
    timing_to_public(&out->timing, &r->timing);
    gms_counters_from_mem(&out->counters, &r->counters);
    out->seconds = r->seconds;
    out->faulted = r->faulted;
    out->window_errors = r->window_errors;
    return GMS_OK;
}

/* Sums over the launches; the memory counters of the whole device (flushes included). */
static void totals(const gms_device *dev, gms_totals *t, mem_counters *counters)
{
    memset(t, 0, sizeof *t);
    memset(counters, 0, sizeof *counters);
    t->launches = dev->nlaunches;
    for (size_t i = 0; i < dev->nlaunches; i++) {
        const gms_launch_record *r = &dev->launches[i];
        t->warp_instructions += r->warp_instructions;
        t->thread_instructions += r->thread_instructions;
        t->printf_bad_strings += r->printf_bad_strings;
        t->thread_instructions_pred_on += r->thread_instructions_pred_on;
        t->cycles += r->timing.cycles;
        t->seconds += r->seconds;
    }
    if (dev->ms)
        memsys_total_counters(dev->ms, counters);
    gms_counters_from_mem(&t->counters, counters);
    t->l2_persisting_bytes = dev->has_persisting ? dev->l2_persisting_bytes : 0;
    t->hints_stripped = dev->strip_hints;
}

gms_status gms_device_totals(const gms_device *dev, gms_totals *out)
{
    if (!dev || !out)
        return GMS_ERR_ARGUMENT;
    mem_counters c;
    totals(dev, out, &c);
    return GMS_OK;
}

/* ---- reports ---- */

/* The executed instructions of module `mod` with their counters, appended to m->insns (room for
 * every instruction of the device). */
static void module_insns(const gms_device *dev, const gms_module *mod, report_model *m)
{
    const ir_module *ir = mod->ir;
    const uint64_t *execs = exec_program_insn_counts(mod->program);
    const mem_counters *counters = dev->ms ? memsys_insn_counters(dev->ms) : NULL;
    for (uint32_t id = 0; id < ir->ninsns_total; id++) {
        if (!execs[id])
            continue;
        const ir_func *fn;
        const ir_insn *in = ir_module_insn_by_id(ir, id, &fn);
        if (!in)
            continue;
        report_insn *ri = &m->insns[m->ninsns++];
        ri->id = mod->insn_base + id;
        ri->module = dev->nmodules > 1 ? mod->path : NULL;
        ri->kernel = fn->name;
        ri->ptx_line = in->line;
        if (in->loc_line && in->loc_file < ir->nfiles && ir->files[in->loc_file]) {
            ri->source_file = ir->files[in->loc_file];
            ri->source_line = in->loc_line;
        }
        ri->text = sim_text_line(mod->text, mod->text_len, in->line);
        ri->executions = execs[id];
        ri->counters = counters ? counters[ri->id] : (mem_counters){0};
        if (mod->stalls)
            memcpy(ri->stalls, mod->stalls[id], sizeof ri->stalls);
    }
}

/* The executed instructions of every module, in device id order, with their counters (m->insns,
 * malloc'd) and the modules' paths (m->modules, malloc'd, when several). */
static int report_insns(const gms_device *dev, report_model *m)
{
    m->insns = calloc((size_t)dev->ninsns_total + 1, sizeof *m->insns);
    if (!m->insns)
        return -1;
    if (dev->nmodules > 1) {
        const char **paths = calloc(dev->nmodules, sizeof *paths);
        if (!paths)
            return -1;
        for (size_t i = 0; i < dev->nmodules; i++) paths[i] = dev->modules[i]->path;
        m->modules = paths;
        m->nmodules = dev->nmodules;
    }
    for (size_t i = 0; i < dev->nmodules; i++) module_insns(dev, dev->modules[i], m);
    return 0;
}

static void model_fini(report_model *m)
{
    for (size_t i = 0; i < m->ninsns; i++) free((char *)m->insns[i].text);
    free(m->insns);
    free((void *)m->modules);
    free(m->launches);
}

/* The report model of everything the device ran (strings borrowed from the device). */
static int build_model(const gms_device *dev, const char *launch_file, report_model *m)
{
    memset(m, 0, sizeof *m);
    gms_totals t;
    totals(dev, &t, &m->totals);
    m->gpu = dev->gpu.name;
    m->l1_sector_bytes = dev->gpu.l1.sector_bytes;
    m->l2_sector_bytes = dev->gpu.l2.sector_bytes;
    m->launch_file = launch_file;
    m->module = dev->modules[0]->path;
    m->warp_instructions = t.warp_instructions;
    m->thread_instructions = t.thread_instructions;
    m->printf_bad_strings = t.printf_bad_strings;
    m->thread_instructions_pred_on = t.thread_instructions_pred_on;
    m->l2_persisting_bytes = t.l2_persisting_bytes;
    m->hints_stripped = t.hints_stripped;
    m->launches = calloc(dev->nlaunches + 1, sizeof *m->launches);
    if (!m->launches)
        return -1;
    m->nlaunches = dev->nlaunches;
    for (size_t i = 0; i < dev->nlaunches; i++) {
        const gms_launch_record *s = &dev->launches[i];
        report_launch *l = &m->launches[i];
        l->kernel = s->kernel;
        memcpy(l->grid, s->grid, sizeof l->grid);
        memcpy(l->block, s->block, sizeof l->block);
        l->warp_instructions = s->warp_instructions;
        l->thread_instructions = s->thread_instructions;
        l->printf_bad_strings = s->printf_bad_strings;
        l->thread_instructions_pred_on = s->thread_instructions_pred_on;
        l->window_errors = s->window_errors;
        m->window_errors += s->window_errors;
        l->timing = s->timing;
        m->timing |= s->timing.enabled;
        l->counters = s->counters;
        l->seconds = s->seconds;
    }
    return report_insns(dev, m);
}

/* The text report as a string (report_write_text writes to a stream). */
static char *text_report(const report_model *m, size_t top)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    int rc = report_write_text(m, top, f);
    if (fclose(f) != 0 || rc != REPORT_OK) {
        free(text);
        return NULL;
    }
    return text;
}

gms_status gms_device_report(const gms_device *dev, gms_report_format format, size_t top,
                             const char *launch_file, char **text_out, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    if (!dev || !text_out || (format != GMS_REPORT_TEXT && format != GMS_REPORT_JSON)) {
        st = gms_bad_argument(dl, "gms_device_report", "dev or text_out is NULL, or the "
                              "format is unknown");
    } else if (!dev->nmodules) {
        diag_add(dl, DIAG_ERROR, "API-STATE-003", "", 0, 0,
                 "gms_device_report: the device holds no module, so there is nothing to report");
        st = GMS_ERR_STATE;
    } else {
        report_model m;
        char *text = NULL;
        if (build_model(dev, launch_file, &m) == 0)
            text = format == GMS_REPORT_JSON ? report_to_json(&m) : text_report(&m, top);
        model_fini(&m);
        if (!text) {
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                     "out of memory building the report");
            st = GMS_ERR_NOMEM;
        }
        *text_out = text;
    }
    gms_sink_close(&s);
    return st;
}
