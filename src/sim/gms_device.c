/* Devices of the public API (gpumemsim.h; docs/api.md, "Devices" and "Memory"): presets, device
 * creation from a preset or a configuration override, settings, and device memory.
 *
 * The memory system is built on first use (an allocation, a variable access, a launch), so that
 * the settings that shape it (the L1/shared carve-out, hint modes, the persisting set-aside) can
 * be made first in any order, as the launch-file runner does. Host copies go straight to the
 * DRAM store beneath the caches: a read after a launch flushes the caches first, and a write to
 * memory that a launch may have cached is refused (API-MEM-002) until the memory system offers
 * a coherent host write. */
#include <stdlib.h>
#include <string.h>

#include "sim/gms_internal.h"
#include "sim/sim.h"

/* ---- presets ---- */

static void preset_info(const gpu_config *g, gms_preset_info *out)
{
    out->name = g->name;
    out->description = g->description;
    out->is_default = g == gpu_preset_default();
}

size_t gms_preset_count(void)
{
    return gpu_preset_count();
}

gms_status gms_preset_at(size_t i, gms_preset_info *out)
{
    const gpu_config *g = gpu_preset_at(i);
    if (!g || !out)
        return GMS_ERR_ARGUMENT;
    preset_info(g, out);
    return GMS_OK;
}

gms_status gms_preset_find(const char *name, gms_preset_info *out)
{
    const gpu_config *g = name ? gpu_preset_find(name) : NULL;
    if (!g)
        return GMS_ERR_NOT_FOUND;
    if (out)
        preset_info(g, out);
    return GMS_OK;
}

/* SIM-GPU-001 for an unknown preset, naming the known ones. */
static gms_status unknown_preset(const char *name, diag_list *dl)
{
    char known[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < gpu_preset_count() && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 gpu_preset_at(i)->name);
    diag_add(dl, DIAG_ERROR, "SIM-GPU-001", "", 0, 0, "unknown GPU preset '%s' (presets: %s)",
             name, known);
    return GMS_ERR_CONFIG;
}

gms_status gms_preset_json(const char *name, char **json_out, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    const gpu_config *g = name ? gpu_preset_find(name) : NULL;
    if (!json_out)
        st = gms_bad_argument(dl, "gms_preset_json", "json_out is NULL");
    else if (!name)
        st = gms_bad_argument(dl, "gms_preset_json", "name is NULL");
    else if (!g)
        st = unknown_preset(name, dl);
    else if (!(*json_out = gpu_config_to_json(g)))
        st = GMS_ERR_NOMEM;
    gms_sink_close(&s);
    return st;
}

/* ---- creation ---- */

static gms_status new_device(const gpu_config *g, gms_device **out, diag_list *dl)
{
    gms_device *dev = calloc(1, sizeof *dev);
    if (!dev) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0, "out of memory creating a device");
        return GMS_ERR_NOMEM;
    }
    dev->gpu = *g;
    dev->max_instructions = SIM_DEFAULT_MAX_INSTRUCTIONS;
    dev->quantum = 256;
    dev->timing = 1;
    dev->heap_bytes = SIM_DEFAULT_HEAP_BYTES;
    *out = dev;
    return GMS_OK;
}

gms_status gms_device_create(const char *preset, gms_device **out, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st;
    const gpu_config *g = preset ? gpu_preset_find(preset) : gpu_preset_default();
    if (!out)
        st = gms_bad_argument(dl, "gms_device_create", "out is NULL");
    else if (!g)
        st = unknown_preset(preset, dl);
    else
        st = new_device(g, out, dl);
    gms_sink_close(&s);
    return st;
}

gms_status gms_device_create_from_config(const char *path, const char *text, size_t len,
                                         gms_device **out, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    gpu_config g;
    if (!out)
        st = gms_bad_argument(dl, "gms_device_create_from_config", "out is NULL");
    else if (!text && !path)
        st = gms_bad_argument(dl, "gms_device_create_from_config", "both path and text are NULL");
    else if (text ? gpu_config_parse_override(text, len, path, &g, dl)
                  : gpu_config_load_override(path, &g, dl))
        st = GMS_ERR_CONFIG;
    else
        st = new_device(&g, out, dl);
    gms_sink_close(&s);
    return st;
}

void gms_device_destroy(gms_device *dev)
{
    if (!dev)
        return;
    for (size_t i = 0; i < dev->nmodules; i++) gms_module_free(dev->modules[i]);
    free(dev->modules);
    memsys_destroy(dev->ms);
    free(dev->allocs);
    free(dev->launches);
    free(dev->printf_text);
    free(dev->image_pool);
    timing_destroy(dev->tm);
    free(dev);
}

gms_status gms_device_info_get(const gms_device *dev, gms_device_info *out)
{
    if (!dev || !out)
        return GMS_ERR_ARGUMENT;
    const gpu_config *g = &dev->gpu;
    out->name = g->name;
    out->sm_version = g->sm_version;
    out->sm_count = g->sm.count;
    out->max_threads_per_cta = g->sm.max_threads_per_cta;
    out->max_shared_per_cta_bytes = g->l1.max_shared_per_cta_bytes;
    out->l2_bytes = g->l2.size_bytes;
    out->l2_persisting_max_bytes = g->l2.persisting_max_bytes;
    out->access_policy_max_window_bytes = g->l2.access_policy_max_window_bytes;
    out->clock_mhz = g->sm.clock_mhz;
    return GMS_OK;
}

/* ---- settings ---- */

gms_status gms_device_memory(gms_device *dev, diag_list *dl)
{
    if (dev->ms)
        return GMS_OK;
    memsys_config mc;
    if (sim_memsys_config(&dev->gpu, dev->shared_per_cta, &mc, "", dl))
        return GMS_ERR_LAUNCH;
    size_t errors = dl->errors;
    memsys *ms = memsys_create(&mc, dl);
    if (!ms) {
        if (dl->errors > errors)
            return GMS_ERR_CONFIG;
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "out of memory creating the memory system of %s", dev->gpu.name);
        return GMS_ERR_NOMEM;
    }
    memsys_set_hint_mode(ms, dev->strip_hints, dev->poison_discard);
    if (dev->has_persisting)
        memsys_set_persisting_bytes(ms, dev->persisting_request);
    if (memsys_set_insn_count(ms, dev->ninsns_total)) {
        memsys_destroy(ms);
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "out of memory for the per-instruction counters");
        return GMS_ERR_NOMEM;
    }
    dev->ms = ms;
    dev->mc = mc;
    return GMS_OK;
}

/* The settings that shape the memory system: refused once it exists. */
static int before_memory(gms_setting what)
{
    return what == GMS_SET_STRIP_HINTS || what == GMS_SET_POISON_DISCARD ||
           what == GMS_SET_SHARED_PER_CTA;
}

static gms_status set_shared(gms_device *dev, uint64_t bytes, diag_list *dl)
{
    memsys_config mc;
    if (bytes > UINT32_MAX || sim_memsys_config(&dev->gpu, (uint32_t)bytes, &mc, "", NULL)) {
        diag_add(dl, DIAG_ERROR, "SIM-SHARED-001", "", 0, 0,
                 "a launch needs %llu bytes of shared memory per SM, more than %s can provide",
                 (unsigned long long)bytes, dev->gpu.name);
        return GMS_ERR_LAUNCH;
    }
    dev->shared_per_cta = (uint32_t)bytes;
    return GMS_OK;
}

static gms_status apply_setting(gms_device *dev, gms_setting what, uint64_t value, diag_list *dl)
{
    static const char *const names[GMS_SETTING_COUNT] = {
        "GMS_SET_MAX_INSTRUCTIONS", "GMS_SET_QUANTUM", "GMS_SET_STRIP_HINTS",
        "GMS_SET_POISON_DISCARD", "GMS_SET_SHARED_PER_CTA", "GMS_SET_MISALIGNED_ERRORS",
        "GMS_SET_STRICT_HAZARDS", "GMS_SET_IMAGE_POOL_MAX", "GMS_SET_HEAP_BYTES",
        "GMS_SET_SYNCED_WRITES", "GMS_SET_TIMING", "GMS_SET_SCHEDULER", "GMS_SET_THREADS"};
    if ((unsigned)what >= GMS_SETTING_COUNT)
        return gms_bad_argument(dl, "gms_device_set", "unknown setting");
    if (before_memory(what) && dev->ms) {
        diag_add(dl, DIAG_ERROR, "API-STATE-002", "", 0, 0,
                 "gms_device_set: %s shapes the memory system and must be set before the first "
                 "allocation, variable access or launch", names[what]);
        return GMS_ERR_STATE;
    }
    switch (what) {
    case GMS_SET_MAX_INSTRUCTIONS:
        if (value == 0)
            return gms_bad_argument(dl, "gms_device_set", "GMS_SET_MAX_INSTRUCTIONS must be >= 1");
        dev->max_instructions = value;
        return GMS_OK;
    case GMS_SET_THREADS:
        if (value > SIM_MAX_THREADS)
            return gms_bad_argument(dl, "gms_device_set",
                                    "GMS_SET_THREADS must be from 0 to 1024");
        dev->threads = (uint32_t)value;
        return GMS_OK;
    case GMS_SET_QUANTUM:
        if (value == 0 || value > UINT32_MAX)
            return gms_bad_argument(dl, "gms_device_set",
                                    "GMS_SET_QUANTUM must be from 1 to 4294967295");
        dev->quantum = (uint32_t)value;
        return GMS_OK;
    case GMS_SET_STRIP_HINTS:
    case GMS_SET_POISON_DISCARD:
        if (value > 1)
            return gms_bad_argument(dl, "gms_device_set", "a flag setting takes 0 or 1");
        *(what == GMS_SET_STRIP_HINTS ? &dev->strip_hints : &dev->poison_discard) = (int)value;
        return GMS_OK;
    case GMS_SET_SHARED_PER_CTA: return set_shared(dev, value, dl);
    case GMS_SET_MISALIGNED_ERRORS:
        if (value > 1)
            return gms_bad_argument(dl, "gms_device_set", "a flag setting takes 0 or 1");
        dev->misaligned_errors = (int)value;
        return GMS_OK;
    case GMS_SET_STRICT_HAZARDS:
    case GMS_SET_SYNCED_WRITES:
        if (value > 1)
            return gms_bad_argument(dl, "gms_device_set", "a flag setting takes 0 or 1");
        *(what == GMS_SET_STRICT_HAZARDS ? &dev->strict_hazards : &dev->synced_writes) =
            (int)value;
        return GMS_OK;
    case GMS_SET_IMAGE_POOL_MAX:
        if (value > MEM_IMAGE_MAX_INDEX)
            return gms_bad_argument(dl, "gms_device_set",
                                    "GMS_SET_IMAGE_POOL_MAX must be from 0 to 1048575");
        dev->has_image_pool_max = 1;
        dev->image_pool_max = (uint32_t)value;
        return GMS_OK;
    case GMS_SET_HEAP_BYTES:
        if (value > SIM_MAX_HEAP_BYTES)
            return gms_bad_argument(dl, "gms_device_set",
                                    "GMS_SET_HEAP_BYTES must be from 0 to 1073741824");
        if (value > dev->heap_region_bytes)
            dev->heap_base = 0; /* the next launch that needs it allocates a larger region */
        dev->heap_bytes = value;
        return GMS_OK;
    case GMS_SET_TIMING:
    case GMS_SET_SCHEDULER:
        if (value > 1)
            return gms_bad_argument(dl, "gms_device_set", what == GMS_SET_TIMING
                                        ? "a flag setting takes 0 or 1"
                                        : "GMS_SET_SCHEDULER takes 0 (GTO) or 1 (LRR)");
        *(what == GMS_SET_TIMING ? &dev->timing : &dev->scheduler) = (int)value;
        return GMS_OK;
    default: return gms_bad_argument(dl, "gms_device_set", "unknown setting");
    }
}

gms_status gms_device_set(gms_device *dev, gms_setting what, uint64_t value,
                          gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = dev ? apply_setting(dev, what, value, dl)
                        : gms_bad_argument(dl, "gms_device_set", "dev is NULL");
    gms_sink_close(&s);
    return st;
}

gms_status gms_device_set_l2_persisting(gms_device *dev, uint64_t bytes, gms_diag_list *caller)
{
    if (!dev) {
        gms_sink s;
        gms_bad_argument(gms_sink_open(&s, caller), "gms_device_set_l2_persisting",
                         "dev is NULL");
        gms_sink_close(&s);
        return GMS_ERR_ARGUMENT;
    }
    dev->has_persisting = 1;
    dev->persisting_request = bytes;
    uint64_t most = dev->gpu.l2.persisting_max_bytes;
    dev->l2_persisting_bytes = bytes < most ? bytes : most;
    if (dev->ms)
        memsys_set_persisting_bytes(dev->ms, bytes);
    return GMS_OK;
}

gms_status gms_device_reset_persisting(gms_device *dev, gms_diag_list *caller)
{
    if (!dev) {
        gms_sink s;
        gms_bad_argument(gms_sink_open(&s, caller), "gms_device_reset_persisting",
                         "dev is NULL");
        gms_sink_close(&s);
        return GMS_ERR_ARGUMENT;
    }
    if (dev->ms) /* without a memory system no line is persisting yet */
        memsys_reset_persisting(dev->ms);
    return GMS_OK;
}

gms_status gms_device_set_progress(gms_device *dev, gms_progress_fn fn, void *user)
{
    if (!dev)
        return GMS_ERR_ARGUMENT;
    dev->progress = fn;
    dev->progress_user = user;
    return GMS_OK;
}

/* ---- memory ---- */

int gms_device_note_alloc(gms_device *dev, uint64_t addr, uint64_t bytes)
{
    if (dev->nallocs == dev->allocs_cap) {
        size_t cap = dev->allocs_cap ? dev->allocs_cap * 2 : 16;
        gms_alloc *a = realloc(dev->allocs, cap * sizeof *a);
        if (!a)
            return -1;
        dev->allocs = a;
        dev->allocs_cap = cap;
    }
    /* The memory system hands out rising addresses, so appending keeps the list sorted. */
    dev->allocs[dev->nallocs++] = (gms_alloc){addr, bytes, dev->nlaunches};
    return 0;
}

static const gms_alloc *find_alloc(const gms_device *dev, uint64_t addr)
{
    size_t lo = 0, hi = dev->nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const gms_alloc *a = &dev->allocs[mid];
        if (addr < a->addr)
            hi = mid;
        else if (addr - a->addr >= a->bytes)
            lo = mid + 1;
        else
            return a;
    }
    return NULL;
}

gms_status gms_device_check_range(const gms_device *dev, uint64_t addr, uint64_t bytes,
                                  int writing, const char *call, diag_list *dl)
{
    const gms_alloc *a = find_alloc(dev, addr);
    if (!a || bytes > a->bytes - (addr - a->addr)) {
        diag_add(dl, DIAG_ERROR, "API-MEM-001", "", 0, 0,
                 "%s: [0x%llx, 0x%llx) is not inside one allocation", call,
                 (unsigned long long)addr, (unsigned long long)(addr + bytes));
        return GMS_ERR_RANGE;
    }
    if (writing && a->launches_before < dev->nlaunches && !dev->synced_writes) {
        diag_add(dl, DIAG_ERROR, "API-MEM-002", "", 0, 0,
                 "%s: the allocation at 0x%llx existed when a kernel ran, and writing memory that "
                 "the caches may hold is not modelled yet; write it before the first launch",
                 call, (unsigned long long)a->addr);
        return GMS_ERR_STATE;
    }
    return GMS_OK;
}

gms_status gms_device_alloc(gms_device *dev, uint64_t bytes, uint64_t *addr,
                            gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    if (!dev || !addr || bytes == 0)
        st = gms_bad_argument(dl, "gms_device_alloc", !dev    ? "dev is NULL"
                                                      : !addr ? "addr is NULL"
                                                              : "bytes is 0");
    else
        st = gms_device_memory(dev, dl);
    if (st == GMS_OK &&
        (memsys_alloc(dev->ms, bytes, 256, addr) || gms_device_note_alloc(dev, *addr, bytes))) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "cannot allocate %llu bytes of device memory: the simulated address space or "
                 "the host's memory ran out", (unsigned long long)bytes);
        st = GMS_ERR_NOMEM;
    }
    gms_sink_close(&s);
    return st;
}

gms_status gms_device_copy_in(gms_device *dev, uint64_t addr, const void *src, uint64_t bytes,
                              diag_list *dl)
{
    /* Once a launch ran, the caches may hold the bytes (GMS_SET_SYNCED_WRITES allowed it). */
    int synced = dev->synced_writes && dev->nlaunches;
    if (bytes && (synced ? memsys_host_write_synced(dev->ms, addr, src, bytes)
                         : memsys_host_write(dev->ms, addr, src, bytes))) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "out of memory writing %llu bytes of device memory at 0x%llx",
                 (unsigned long long)bytes, (unsigned long long)addr);
        return GMS_ERR_NOMEM;
    }
    if (synced && bytes)
        dev->dirty = 0; /* the write-back before it flushed the caches */
    return GMS_OK;
}

gms_status gms_device_copy_out(gms_device *dev, uint64_t addr, void *dst, uint64_t bytes,
                               diag_list *dl)
{
    gms_status st = GMS_OK;
    if (dev->dirty && memsys_finish(dev->ms)) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "the backing store could not hold the write-back of the caches");
        return GMS_ERR_NOMEM;
    }
    dev->dirty = 0;
    if (bytes && memsys_host_read(dev->ms, addr, dst, bytes)) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "out of memory reading %llu bytes of device memory at 0x%llx",
                 (unsigned long long)bytes, (unsigned long long)addr);
        st = GMS_ERR_NOMEM;
    }
    return st;
}

/* The checks shared by gms_device_write and gms_device_read. */
static gms_status copy_checks(const gms_device *dev, uint64_t addr, const void *host,
                              uint64_t bytes, int writing, diag_list *dl)
{
    const char *call = writing ? "gms_device_write" : "gms_device_read";
    if (!dev || (!host && bytes))
        return gms_bad_argument(dl, call, !dev ? "dev is NULL" : "the host buffer is NULL");
    return gms_device_check_range(dev, addr, bytes, writing, call, dl);
}

gms_status gms_device_write(gms_device *dev, uint64_t addr, const void *src, uint64_t bytes,
                            gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = copy_checks(dev, addr, src, bytes, 1, dl);
    if (st == GMS_OK)
        st = gms_device_copy_in(dev, addr, src, bytes, dl);
    gms_sink_close(&s);
    return st;
}

gms_status gms_device_read(gms_device *dev, uint64_t addr, void *dst, uint64_t bytes,
                           gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = copy_checks(dev, addr, dst, bytes, 0, dl);
    if (st == GMS_OK)
        st = gms_device_copy_out(dev, addr, dst, bytes, dl);
    gms_sink_close(&s);
    return st;
}

gms_status gms_device_flush(gms_device *dev, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    if (!dev) {
        st = gms_bad_argument(dl, "gms_device_flush", "dev is NULL");
    } else if (dev->ms && memsys_finish(dev->ms)) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                 "the backing store could not hold the write-back of the caches");
        st = GMS_ERR_NOMEM;
    } else {
        dev->dirty = 0;
    }
    gms_sink_close(&s);
    return st;
}
