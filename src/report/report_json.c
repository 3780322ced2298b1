/* The JSON report: schema "gpumemsim-stats/2", built with jansson and dumped with sorted keys so
 * that the same run gives byte-identical text.
 *
 * Keys listed as stable in docs/statistics.md are never removed or renamed; new keys may be added.
 * This file only builds and writes the document; the numbers come from report_model as given. */
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

/* Builders return NULL only when out of memory. A builder that receives NULL children passes the
 * failure up, so one check at the top catches every allocation failure below it. */

static json_t *json_count(uint64_t value)
{
    /* JSON integers are signed 64-bit in jansson; counts beyond that cannot occur in a run of
     * practical length, and are clamped rather than wrapped if they ever do. */
    return json_integer(value > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)value);
}

/* A string, or null for NULL. Bytes that are not valid UTF-8 become '?' so that the report is
 * still valid JSON. */
static json_t *json_text(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    size_t len = strlen(s);
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i <= len; i++)
        copy[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
    j = json_string(copy);
    free(copy);
    return j;
}

static json_t *json_rate(uint64_t hits, uint64_t accesses)
{
    double rate;
    return report_hit_rate(hits, accesses, &rate) ? json_real(rate) : json_null();
}

/* Sets obj[key] = value, taking the reference; records a failure in *ok. */
static void put(json_t *obj, const char *key, json_t *value, int *ok)
{
    if (!obj) {
        json_decref(value);
        *ok = 0;
    } else if (json_object_set_new(obj, key, value) != 0) { /* releases value itself */
        *ok = 0;
    }
}

/* A derived figure: null where it is undefined (NaN, from a zero divisor); jansson refuses NaN
 * and infinities. */
static json_t *json_number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *json_triple(const uint32_t v[3])
{
    json_t *a = json_array();
    for (int i = 0; a && i < 3; i++)
        if (json_array_append_new(a, json_integer(v[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *json_l1(const mem_l1_counters *c)
{
    json_t *o = json_object();
    int ok = o != NULL;
    put(o, "requests", json_count(c->requests), &ok);
    put(o, "sector_accesses", json_count(c->sector_accesses), &ok);
    put(o, "sector_hits", json_count(c->sector_hits), &ok);
    put(o, "sector_misses", json_count(c->sector_misses), &ok);
    put(o, "evictions", json_count(c->evictions), &ok);
    put(o, "writeback_bytes", json_count(c->writeback_bytes), &ok);
    put(o, "hit_rate", json_rate(c->sector_hits, c->sector_accesses), &ok);
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

/* with_classes: the end-of-run line counts by eviction class, which are not charged per
 * instruction and so appear only in totals and launches. */
static json_t *json_l2(const mem_l2_counters *c, int with_classes)
{
    json_t *o = json_object();
    int ok = o != NULL;
    put(o, "sector_accesses", json_count(c->sector_accesses), &ok);
    put(o, "sector_hits", json_count(c->sector_hits), &ok);
    put(o, "sector_misses", json_count(c->sector_misses), &ok);
    put(o, "evictions", json_count(c->evictions), &ok);
    put(o, "writeback_bytes", json_count(c->writeback_bytes), &ok);
    put(o, "hit_rate", json_rate(c->sector_hits, c->sector_accesses), &ok);
    if (with_classes) {
        json_t *k = json_object();
        put(k, "first", json_count(c->lines_evict_first), &ok);
        put(k, "normal", json_count(c->lines_evict_normal), &ok);
        put(k, "last", json_count(c->lines_evict_last), &ok);
        put(k, "peak_last", json_count(c->peak_evict_last_lines), &ok);
        put(o, "classes", k, &ok);
    }
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

/* Adds the per-level objects of one set of counters to obj. */
static void put_levels(json_t *obj, const mem_counters *c, int with_classes, int *ok)
{
    put(obj, "l1", json_l1(&c->l1), ok);
    put(obj, "l2", json_l2(&c->l2, with_classes), ok);

    json_t *dram = json_object();
    put(dram, "read_bytes", json_count(c->dram.read_bytes), ok);
    put(dram, "write_bytes", json_count(c->dram.write_bytes), ok);
    put(obj, "dram", dram, ok);

    json_t *shared = json_object();
    put(shared, "requests", json_count(c->shared.requests), ok);
    put(shared, "wavefronts", json_count(c->shared.wavefronts), ok);
    put(shared, "bank_conflicts", json_count(c->shared.bank_conflicts), ok);
    /* Only where some access carried the hint: the statistics of runs without it (every PTX
     * run) keep their keys. */
    if (c->shared.uniform_hinted) {
        put(shared, "uniform_hinted", json_count(c->shared.uniform_hinted), ok);
        put(shared, "uniform_unmet", json_count(c->shared.uniform_unmet), ok);
    }
    put(obj, "shared", shared, ok);

    uint64_t lookups = c->constant.hits + c->constant.misses;
    if (lookups < c->constant.hits)
        lookups = UINT64_MAX;
    json_t *constant = json_object();
    put(constant, "requests", json_count(c->constant.requests), ok);
    put(constant, "serialized", json_count(c->constant.serialized), ok);
    put(constant, "hits", json_count(c->constant.hits), ok);
    put(constant, "misses", json_count(c->constant.misses), ok);
    put(constant, "hit_rate", json_rate(c->constant.hits, lookups), ok);
    put(obj, "constant", constant, ok);

    lookups = c->icache.hits + c->icache.misses;
    if (lookups < c->icache.hits)
        lookups = UINT64_MAX;
    json_t *icache = json_object();
    put(icache, "fetches", json_count(c->icache.fetches), ok);
    put(icache, "hits", json_count(c->icache.hits), ok);
    put(icache, "misses", json_count(c->icache.misses), ok);
    put(icache, "hit_rate", json_rate(c->icache.hits, lookups), ok);
    put(obj, "icache", icache, ok);

    /* Only where some surface access ran: the statistics of other runs keep their keys. */
    if (c->surface.requests) {
        json_t *surface = json_object();
        put(surface, "requests", json_count(c->surface.requests), ok);
        put(surface, "sectors_l2", json_count(c->surface.sectors_l2), ok);
        put(surface, "sectors_dram", json_count(c->surface.sectors_dram), ok);
        put(obj, "surface", surface, ok);
    }
    if (c->texture.requests) {
        json_t *texture = json_object();
        put(texture, "requests", json_count(c->texture.requests), ok);
        put(texture, "sectors_l1", json_count(c->texture.sectors_l1), ok);
        put(texture, "sectors_l2", json_count(c->texture.sectors_l2), ok);
        put(texture, "sectors_dram", json_count(c->texture.sectors_dram), ok);
        put(obj, "texture", texture, ok);
    }
}

/* {"<reason>": warp-cycles, ...} over every stall reason of timing_stalls.def. */
static json_t *json_stalls(const uint64_t stalls[TIMING_STALL_COUNT])
{
    json_t *o = json_object();
    int ok = o != NULL;
    for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
        put(o, timing_stall_name((timing_stall)r), json_count(stalls[r]), &ok);
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

static json_t *json_bandwidth(const report_bandwidth *b)
{
    json_t *o = json_object();
    int ok = o != NULL;
    put(o, "bytes", json_count(b->bytes), &ok);
    put(o, "bytes_per_cycle", json_number(b->bytes_per_cycle), &ok);
    put(o, "gb_per_s", json_number(b->gb_per_s), &ok);
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

/* The "timing" object of a launch that ran under the timing model. */
static json_t *json_timing(const report_model *m, const report_launch *l)
{
    const timing_stats *t = &l->timing;
    report_timing d;
    report_timing_derive(m, t, &l->counters, l->warp_instructions, &d);
    json_t *o = json_object();
    int ok = o != NULL;
    put(o, "cycles", json_count(t->cycles), &ok);
    put(o, "sm_active_cycles", json_count(t->sm_active_cycles), &ok);
    put(o, "warp_resident_cycles", json_count(t->warp_resident_cycles), &ok);
    put(o, "ipc", json_number(d.ipc), &ok);
    put(o, "achieved_occupancy", json_number(d.achieved_occupancy), &ok);
    put(o, "clock_mhz", json_number(t->clock_mhz), &ok);
    put(o, "seconds_at_clock", json_number(d.seconds_at_clock), &ok);
    json_t *bw = json_object();
    put(bw, "l1", json_bandwidth(&d.l1), &ok);
    put(bw, "l2", json_bandwidth(&d.l2), &ok);
    put(bw, "dram", json_bandwidth(&d.dram), &ok);
    put(bw, "shared", json_bandwidth(&d.shared), &ok);
    put(o, "bandwidth", bw, &ok);
    put(o, "stalls", json_stalls(t->stalls), &ok);
    json_t *shares = json_object();
    for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
        put(shares, timing_stall_name((timing_stall)r), json_number(d.stall_shares[r]), &ok);
    put(o, "stall_shares", shares, &ok);
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

/* The "ncu" object: every metric of the mapping this launch has (report_ncu.def). */
static json_t *json_ncu(const report_model *m, const report_launch *l)
{
    json_t *o = json_object();
    int ok = o != NULL;
    for (size_t i = 0; i < report_ncu_count(); i++) {
        report_ncu_value v;
        json_t *value;
        switch (report_ncu_evaluate(m, l, i, &v)) {
        case REPORT_NCU_INTEGER:
            value = json_count(v.count);
            break;
        case REPORT_NCU_REAL:
            value = json_number(v.real);
            break;
        case REPORT_NCU_UNDEFINED:
            value = json_null();
            break;
        default:
            continue;
        }
        put(o, report_ncu_metric_at(i)->name, value, &ok);
    }
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

static json_t *json_launch(const report_model *m, const report_launch *l)
{
    json_t *o = json_object();
    int ok = o != NULL;
    put(o, "kernel", json_text(l->kernel), &ok);
    put(o, "grid", json_triple(l->grid), &ok);
    put(o, "block", json_triple(l->block), &ok);
    put(o, "warp_instructions", json_count(l->warp_instructions), &ok);
    put(o, "thread_instructions", json_count(l->thread_instructions), &ok);
    put(o, "thread_instructions_pred_on", json_count(l->thread_instructions_pred_on), &ok);
    put(o, "printf_bad_strings", json_count(l->printf_bad_strings), &ok);
    put(o, "window_errors", json_count(l->window_errors), &ok);
    put_levels(o, &l->counters, 1, &ok);
    if (l->timing.enabled)
        put(o, "timing", json_timing(m, l), &ok);
    put(o, "ncu", json_ncu(m, l), &ok);
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

static json_t *json_source(const report_insn *insn)
{
    if (!insn->source_file)
        return json_null();
    size_t len = strlen(insn->source_file) + 12; /* ':' + up to 10 digits + NUL */
    char *s = malloc(len);
    if (!s)
        return NULL;
    snprintf(s, len, "%s:%u", insn->source_file, insn->source_line);
    json_t *j = json_text(s);
    free(s);
    return j;
}

/* with_stalls: the run had the timing model, so each instruction says where its warps waited. */
static json_t *json_insn(const report_insn *insn, int with_stalls)
{
    json_t *o = json_object();
    int ok = o != NULL;
    put(o, "id", json_count(insn->id), &ok);
    if (insn->module) /* the device held several modules */
        put(o, "module", json_text(insn->module), &ok);
    put(o, "kernel", json_text(insn->kernel), &ok);
    put(o, "ptx_line", json_count(insn->ptx_line), &ok);
    put(o, "source", json_source(insn), &ok);
    put(o, "text", json_text(insn->text), &ok);
    put(o, "executions", json_count(insn->executions), &ok);
    put(o, "misses", json_count(report_insn_misses(insn)), &ok);
    put_levels(o, &insn->counters, 0, &ok);
    if (with_stalls)
        put(o, "stalls", json_stalls(insn->stalls), &ok);
    if (!ok)
        json_decref(o);
    return ok ? o : NULL;
}

static json_t *json_launches(const report_model *m)
{
    json_t *a = json_array();
    size_t n = m->launches ? m->nlaunches : 0;
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_launch(m, &m->launches[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* Instructions in the model's order (instruction-id order as the simulator lists them); those
 * that never executed are left out. */
static json_t *json_insns(const report_model *m)
{
    json_t *a = json_array();
    size_t n = m->insns ? m->ninsns : 0;
    for (size_t i = 0; a && i < n; i++) {
        if (!m->insns[i].executions)
            continue;
        if (json_array_append_new(a, json_insn(&m->insns[i], m->timing)) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *json_report(const report_model *m)
{
    json_t *root = json_object();
    int ok = root != NULL;
    put(root, "schema", json_string(REPORT_SCHEMA), &ok);
    put(root, "gpu", json_text(m->gpu), &ok);
    put(root, "launch_file", json_text(m->launch_file), &ok);
    put(root, "module", json_text(m->module), &ok);
    if (m->modules && m->nmodules > 1) {
        json_t *mods = json_array();
        for (size_t i = 0; mods && i < m->nmodules; i++)
            if (json_array_append_new(mods, json_text(m->modules[i])) != 0) {
                json_decref(mods);
                mods = NULL;
            }
        put(root, "modules", mods, &ok);
    }
    put(root, "hints_stripped", json_boolean(m->hints_stripped), &ok);
    put(root, "l2_persisting_bytes", json_count(m->l2_persisting_bytes), &ok);
    put(root, "launches", json_launches(m), &ok);

    json_t *totals = json_object();
    put(totals, "warp_instructions", json_count(m->warp_instructions), &ok);
    put(totals, "thread_instructions", json_count(m->thread_instructions), &ok);
    put(totals, "thread_instructions_pred_on", json_count(m->thread_instructions_pred_on), &ok);
    put(totals, "printf_bad_strings", json_count(m->printf_bad_strings), &ok);
    put(totals, "window_errors", json_count(m->window_errors), &ok);
    put_levels(totals, &m->totals, 1, &ok);
    put(root, "totals", totals, &ok);

    put(root, "instructions", json_insns(m), &ok);
    if (!ok)
        json_decref(root);
    return ok ? root : NULL;
}

char *report_to_json(const report_model *m)
{
    if (!m)
        return NULL;
    json_t *root = json_report(m);
    if (!root)
        return NULL;
    char *body = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2));
    json_decref(root);
    if (!body)
        return NULL;
    /* A text file ends in a newline; json_dumps does not add one. */
    size_t len = strlen(body);
    char *text = malloc(len + 2);
    if (text) {
        memcpy(text, body, len);
        memcpy(text + len, "\n", 2);
    }
    /* json_dumps allocates with jansson's allocator, which may not be malloc. */
    json_free_t free_fn;
    json_get_alloc_funcs(NULL, &free_fn);
    free_fn(body);
    return text;
}

/* Writes all of text to fd. Returns 0, or -1 with errno set. */
static int write_all(int fd, const char *text, size_t len)
{
    while (len) {
        ssize_t n = write(fd, text, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

int report_write_json_file(const report_model *m, const char *path, diag_list *dl)
{
    if (!m || !path || !dl)
        return REPORT_ERR_INVALID;
    char *text = report_to_json(m);
    size_t path_len = strlen(path);
    char *temp = malloc(path_len + 8);
    if (!text || !temp) {
        diag_add(dl, DIAG_ERROR, "REPORT-NOMEM-001", path, 0, 0,
                 "out of memory while building the JSON report");
        free(text);
        free(temp);
        return REPORT_ERR_NOMEM;
    }
    memcpy(temp, path, path_len);
    memcpy(temp + path_len, ".XXXXXX", 8);
    const char *step = "create a temporary file for";
    int fd = mkstemp(temp), status = REPORT_ERR_IO;
    if (fd >= 0) {
        step = "write";
        int failed = write_all(fd, text, strlen(text)) != 0 || fchmod(fd, 0644) != 0 ||
                     fsync(fd) != 0;
        int saved = errno;
        if (close(fd) != 0 && !failed) {
            failed = 1;
            saved = errno;
        }
        if (!failed) {
            step = "rename the temporary file onto";
            failed = rename(temp, path) != 0;
            saved = errno;
        }
        if (failed)
            unlink(temp);
        else
            status = REPORT_OK;
        errno = saved;
    }
    if (status != REPORT_OK)
        diag_add(dl, DIAG_ERROR, "REPORT-IO-001", path, 0, 0, "cannot %s the JSON report: %s", step,
                 strerror(errno));
    free(text);
    free(temp);
    return status;
}
