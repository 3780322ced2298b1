/* The simulation layer's helpers (sim.h): the memory system's configuration from a preset, and
 * reading and parsing kernel files. The public API (gms_*.c) and the launch-file runner
 * (sim_run.c) use them. */
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "frontend/frontend.h"

/* Reports "<verb>: <why>" at the kernel file, or "<field>: <verb> "<path>": <why>" at the
 * caller's field; verb may be NULL. */
static void module_error(diag_list *dl, const sim_origin *o, const char *rule, const char *path,
                         const char *verb, const char *why)
{
    if (o && o->file)
        diag_add(dl, DIAG_ERROR, rule, o->file, o->line, o->col, "%s: %s%s\"%s\": %s", o->field,
                 verb ? verb : "", verb ? " " : "", path, why);
    else
        diag_add(dl, DIAG_ERROR, rule, path, 0, 0, "%s%s%s", verb ? verb : "", verb ? ": " : "",
                 why);
}

char *sim_read_module(const char *path, const sim_origin *o, size_t *len, diag_list *dl)
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

const char *sim_dialect_of_path(const char *path)
{
    const frontend_dialect *d = path ? frontend_for_path(frontend_builtin(), path) : NULL;
    return d ? d->name : NULL;
}

/* SIM-DIALECT-001 for `path` at `o`, naming the files the dialects of `reg` read. */
static void suffix_error(const frontend_registry *reg, const char *path, const sim_origin *o,
                         diag_list *dl)
{
    char known[256], why[320];
    snprintf(why, sizeof why, "unknown kernel dialect: gpumemsim reads %s",
             frontend_describe_files(reg, known, sizeof known));
    module_error(dl, o, "SIM-DIALECT-001", path, NULL, why);
}

void sim_dialect_error(const char *path, const sim_origin *o, diag_list *dl)
{
    suffix_error(frontend_builtin(), path, o, dl);
}

void sim_dialect_name_error(const frontend_registry *reg, const char *name, const sim_origin *o,
                            const char *path, diag_list *dl)
{
    char known[256];
    if (!reg)
        reg = frontend_builtin();
    if (o && o->file)
        diag_add(dl, DIAG_ERROR, "SIM-DIALECT-002", o->file, o->line, o->col,
                 "%s: unknown kernel dialect \"%s\"; the dialects are: %s", o->field, name,
                 frontend_describe_names(reg, known, sizeof known));
    else
        diag_add(dl, DIAG_ERROR, "SIM-DIALECT-002", path, 0, 0,
                 "unknown kernel dialect \"%s\"; the dialects are: %s", name,
                 frontend_describe_names(reg, known, sizeof known));
}

ir_module *sim_parse_module_in(const frontend_registry *reg, const char *path, const char *text,
                               size_t len, const char *dialect, diag_list *dl)
{
    if (!reg)
        reg = frontend_builtin();
    const frontend_dialect *d = frontend_choose(reg, path, dialect);
    if (d)
        return d->parse(path, text, len, dl);
    if (dialect)
        sim_dialect_name_error(reg, dialect, NULL, path, dl);
    else
        suffix_error(reg, path, NULL, dl);
    return NULL;
}

ir_module *sim_parse_module(const char *path, const char *text, size_t len, const char *dialect,
                            diag_list *dl)
{
    return sim_parse_module_in(NULL, path, text, len, dialect, dl);
}

/* Appends one line to a memory stream (frontend_line_fn). */
static void emit_line(void *user, const char *line) { fprintf(user, "%s\n", line); }

/* The heading of one dialect in a listing: "# dialect ptx: PTX files (.ptx), docs/ptx.md". */
static void list_heading(const frontend_dialect *d, FILE *out)
{
    frontend_registry one = {{d}, 1};
    char files[256];
    fprintf(out, "# dialect %s: %s%s%s\n", d->name,
            frontend_describe_files(&one, files, sizeof files), d->doc ? ", " : "",
            d->doc ? d->doc : "");
}

int sim_list_dialects(const char *dialect, int ops, int rules, FILE *out)
{
    const frontend_registry *reg = frontend_builtin();
    if (dialect && !frontend_find(reg, dialect))
        return -1;
    for (size_t i = 0; i < reg->count; i++) {
        const frontend_dialect *d = reg->dialects[i];
        if (dialect && strcmp(d->name, dialect) != 0)
            continue;
        list_heading(d, out);
        if (ops && d->list_ops)
            d->list_ops(emit_line, out);
        for (size_t r = 0; rules && r < d->nrules; r++)
            fprintf(out, "%-18s %s\n", d->rules[r].id, d->rules[r].summary);
    }
    return 0;
}

const char *sim_dialect_names(char *buf, size_t size)
{
    return frontend_describe_names(frontend_builtin(), buf, size);
}

char *sim_text_line(const char *text, size_t len, uint32_t line)
{
    size_t pos = 0;
    if (!text || !line)
        return NULL;
    for (uint32_t l = 1; l < line && pos < len; pos++)
        if (text[pos] == '\n')
            l++;
    while (pos < len && (text[pos] == ' ' || text[pos] == '\t')) pos++;
    size_t end = pos;
    while (end < len && text[end] != '\n') end++;
    while (end > pos && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
        end--;
    char *s = malloc(end - pos + 1);
    if (s) {
        memcpy(s, text + pos, end - pos);
        s[end - pos] = '\0';
    }
    return s;
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
    c->tiles = g->sm.tiles;
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
    c->l2.slice_modulo = g->l2.slice_hash == GPU_SLICE_HASH_MODULO;
    c->l2.write_through = g->l2.write_policy == GPU_WRITE_THROUGH;
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
