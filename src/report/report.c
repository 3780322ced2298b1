/* The text report and the pieces both reports share: number, byte and rate formatting, the
 * ranking of instructions by misses, and a small column-aligned table writer.
 *
 * The text report is for a person: compact, aligned, with thousands separators and binary byte
 * units. It is not a machine interface; programs read the JSON report (report_json.c), whose keys
 * are stable. docs/statistics.md defines every line written here. The timing section and the
 * lines by stall cycles are in report_text_timing.c. */
#include "report/report.h"
#include "report/report_text.h"

#include <stdlib.h>
#include <string.h>

/* ---- formatting ------------------------------------------------------------------------------ */

char *report_format_count(uint64_t value, char *buf, size_t size)
{
    char digits[32]; /* 20 digits and 6 commas at most */
    size_t n = 0;
    unsigned group = 0;
    if (!size)
        return buf;
    do {
        if (group == 3) {
            digits[n++] = ',';
            group = 0;
        }
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
        group++;
    } while (value);
    size_t out = 0;
    while (n && out + 1 < size)
        buf[out++] = digits[--n];
    buf[out] = '\0';
    return buf;
}

char *report_format_bytes(uint64_t bytes, char *buf, size_t size)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (!size)
        return buf;
    if (bytes < 1024) {
        snprintf(buf, size, "%u B", (unsigned)bytes);
        return buf;
    }
    /* Integer arithmetic keeps the rounding exact: whole units, then tenths rounded half up. The
     * remainder is below 2^60, so remainder * 10 cannot overflow. */
    size_t u = 0;
    uint64_t unit = 1024;
    for (;;) {
        uint64_t whole = bytes / unit, remainder = bytes % unit;
        uint64_t tenths = (remainder * 10 + unit / 2) / unit;
        if (tenths == 10) {
            whole++;
            tenths = 0;
        }
        if (whole < 1024 || u + 1 == sizeof units / sizeof units[0]) {
            snprintf(buf, size, "%llu.%u %s", (unsigned long long)whole, (unsigned)tenths,
                     units[u]);
            return buf;
        }
        u++;
        unit *= 1024;
    }
}

char *report_format_rate(uint64_t hits, uint64_t accesses, char *buf, size_t size)
{
    if (!size)
        return buf;
    if (!accesses) {
        snprintf(buf, size, "-");
        return buf;
    }
    if (hits > accesses) {
        snprintf(buf, size, "?");
        return buf;
    }
    /* Truncate to per mille. The exact integer form works while accesses * 1000 fits in 64 bits;
     * beyond that (never in practice) a double is close enough, capped so that a rate below one
     * never prints as 100.0%. */
    uint64_t per_mille;
    if (accesses <= UINT64_MAX / 1000) {
        per_mille = hits * 1000 / accesses;
    } else {
        per_mille = (uint64_t)((double)hits / (double)accesses * 1000.0);
        if (per_mille > 1000 || (per_mille == 1000 && hits < accesses))
            per_mille = 999;
    }
    snprintf(buf, size, "%u.%u%%", (unsigned)(per_mille / 10), (unsigned)(per_mille % 10));
    return buf;
}

int report_hit_rate(uint64_t hits, uint64_t accesses, double *rate)
{
    if (!accesses)
        return 0;
    if (rate)
        *rate = (double)hits / (double)accesses;
    return 1;
}

uint64_t report_insn_misses(const report_insn *insn)
{
    uint64_t l1 = insn->counters.l1.sector_misses, l2 = insn->counters.l2.sector_misses;
    return l1 > UINT64_MAX - l2 ? UINT64_MAX : l1 + l2;
}

/* ---- ranking --------------------------------------------------------------------------------- */

typedef struct ranked_insn {
    uint64_t misses;
    uint32_t ptx_line, id;
    size_t index; /* into report_model.insns */
} ranked_insn;

static int compare_ranked(const void *a, const void *b)
{
    const ranked_insn *x = a, *y = b;
    if (x->misses != y->misses)
        return x->misses > y->misses ? -1 : 1;
    if (x->ptx_line != y->ptx_line)
        return x->ptx_line < y->ptx_line ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Ranks every executed instruction that missed. *ranked is malloc'd (NULL when none missed).
 * Returns REPORT_OK or REPORT_ERR_NOMEM. */
static int rank_insns(const report_model *m, ranked_insn **ranked, size_t *count)
{
    size_t n = 0, ninsns = m->insns ? m->ninsns : 0;
    *ranked = NULL;
    *count = 0;
    for (size_t i = 0; i < ninsns; i++)
        if (m->insns[i].executions && report_insn_misses(&m->insns[i]))
            n++;
    if (!n)
        return REPORT_OK;
    ranked_insn *r = malloc(n * sizeof *r);
    if (!r)
        return REPORT_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < ninsns; i++) {
        const report_insn *insn = &m->insns[i];
        if (!insn->executions || !report_insn_misses(insn))
            continue;
        r[k++] = (ranked_insn){report_insn_misses(insn), insn->ptx_line, insn->id, i};
    }
    qsort(r, n, sizeof *r, compare_ranked);
    *ranked = r;
    *count = n;
    return REPORT_OK;
}

int report_hottest(const report_model *m, size_t top_n, size_t *order, size_t *count)
{
    if (!m || !count || (!order && top_n))
        return REPORT_ERR_INVALID;
    ranked_insn *ranked;
    size_t n;
    *count = 0;
    int status = rank_insns(m, &ranked, &n);
    if (status != REPORT_OK)
        return status;
    if (n > top_n)
        n = top_n;
    for (size_t i = 0; i < n; i++)
        order[i] = ranked[i].index;
    *count = n;
    free(ranked);
    return REPORT_OK;
}

/* ---- tables ---------------------------------------------------------------------------------- */

/* Copies s into a cell, replacing control characters with spaces so that a row stays one line. */
void report_cell_copy(char *cell, const char *s)
{
    size_t n = 0;
    if (!s)
        s = "-";
    for (; s[n] && n < CELL_MAX_CHARS; n++)
        cell[n] = (unsigned char)s[n] < 0x20 || s[n] == 0x7f ? ' ' : s[n];
    if (s[n]) {
        memcpy(cell + CELL_MAX_CHARS - 3, "...", 3);
        n = CELL_MAX_CHARS;
    }
    cell[n] = '\0';
}

static void table_write_line(const text_table *t, const size_t *width, const char *const *cell,
                             FILE *out)
{
    fputs(t->indent, out);
    for (size_t c = 0; c < t->ncolumns; c++) {
        int last = c + 1 == t->ncolumns;
        if (c)
            fputs("  ", out);
        if (t->align[c] == 'r')
            fprintf(out, "%*s", (int)width[c], cell[c]);
        else if (last) /* no trailing spaces */
            fputs(cell[c], out);
        else
            fprintf(out, "%-*s", (int)width[c], cell[c]);
    }
    fputc('\n', out);
}

void report_table_write(const report_model *m, const text_table *t, FILE *out)
{
    size_t width[TABLE_MAX_COLUMNS] = {0};
    const char *cell[TABLE_MAX_COLUMNS];
    table_cells cells;
    for (size_t c = 0; c < t->ncolumns; c++)
        width[c] = strlen(t->headers[c]);
    if (width[0] < t->first_width)
        width[0] = t->first_width;
    for (size_t r = 0; r < t->nrows; r++) {
        memset(&cells, 0, sizeof cells);
        t->fill(m, t->rows, r, &cells);
        for (size_t c = 0; c < t->ncolumns; c++) {
            size_t len = strlen(cells.text[c]);
            if (len > width[c])
                width[c] = len;
        }
    }
    table_write_line(t, width, t->headers, out);
    for (size_t r = 0; r < t->nrows; r++) {
        memset(&cells, 0, sizeof cells);
        t->fill(m, t->rows, r, &cells);
        for (size_t c = 0; c < t->ncolumns; c++)
            cell[c] = cells.text[c];
        table_write_line(t, width, cell, out);
    }
}

/* ---- sections -------------------------------------------------------------------------------- */

static const char *text_or_dash(const char *s)
{
    return s ? s : "-";
}

/* The last path component, so that long absolute paths do not crowd a table. */
static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}

static void write_header(const report_model *m, FILE *out)
{
    char a[32], b[32], c[32];
    fprintf(out, "gpumemsim report \xe2\x80\x94 %s", text_or_dash(m->gpu));
    if (m->launch_file)
        fprintf(out, ", %s", m->launch_file);
    fputc('\n', out);
    if (m->modules && m->nmodules > 1) {
        fputs("modules:", out);
        for (size_t i = 0; i < m->nmodules; i++)
            fprintf(out, "%s %s", i ? "," : "", m->modules[i]);
        fputc('\n', out);
    } else if (m->module) {
        fprintf(out, "module: %s\n", m->module);
    }
    fprintf(out, "launches: %s   warp instructions: %s   thread instructions: %s\n",
            report_format_count(m->launches ? m->nlaunches : 0, a, sizeof a),
            report_format_count(m->warp_instructions, b, sizeof b),
            report_format_count(m->thread_instructions, c, sizeof c));
    if (m->launches && m->nlaunches == 1) {
        const report_launch *l = &m->launches[0];
        fprintf(out, "kernel: %s   grid (%u,%u,%u)   block (%u,%u,%u)\n", text_or_dash(l->kernel),
                l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
    }
    if (m->printf_bad_strings)
        fprintf(out, "printf bad strings: %s (%%s arguments with a NULL, unreadable or "
                     "unterminated pointer)\n",
                report_format_count(m->printf_bad_strings, a, sizeof a));
    if (m->window_errors)
        fprintf(out, "window errors: %s (lanes whose local or shared access left its window or "
                     "was misaligned; the first are listed as EXEC-WINDOW diagnostics)\n",
                report_format_count(m->window_errors, a, sizeof a));
    if (m->hints_stripped)
        fputs("cache hints stripped: every memory instruction ran with default cache behaviour\n",
              out);
}

static void fill_level_row(const report_model *m, const void *rows, size_t row,
                           table_cells *cells)
{
    (void)rows;
    char(*t)[CELL_BYTES] = cells->text;
    if (row == 0) {
        const mem_l1_counters *l1 = &m->totals.l1;
        snprintf(t[0], CELL_BYTES, "L1");
        report_format_count(l1->requests, t[1], CELL_BYTES);
        report_format_count(l1->sector_accesses, t[2], CELL_BYTES);
        report_format_count(l1->sector_hits, t[3], CELL_BYTES);
        report_format_count(l1->sector_misses, t[4], CELL_BYTES);
        report_format_rate(l1->sector_hits, l1->sector_accesses, t[5], CELL_BYTES);
        report_format_count(l1->evictions, t[6], CELL_BYTES);
        report_format_bytes(l1->writeback_bytes, t[7], CELL_BYTES);
    } else {
        const mem_l2_counters *l2 = &m->totals.l2;
        snprintf(t[0], CELL_BYTES, "L2");
        snprintf(t[1], CELL_BYTES, "-");
        report_format_count(l2->sector_accesses, t[2], CELL_BYTES);
        report_format_count(l2->sector_hits, t[3], CELL_BYTES);
        report_format_count(l2->sector_misses, t[4], CELL_BYTES);
        report_format_rate(l2->sector_hits, l2->sector_accesses, t[5], CELL_BYTES);
        report_format_count(l2->evictions, t[6], CELL_BYTES);
        report_format_bytes(l2->writeback_bytes, t[7], CELL_BYTES);
    }
}

static void write_levels(const report_model *m, FILE *out)
{
    static const char *const headers[] = {"level",  "requests", "sectors",   "hits",
                                          "misses", "hit rate", "evictions", "write-back"};
    const text_table table = {.ncolumns = 8, .headers = headers, .align = "lrrrrrrr", .indent = "",
                              .first_width = LABEL_WIDTH, .nrows = 2, .fill = fill_level_row};
    const mem_counters *t = &m->totals;
    char a[32], b[32], c[32], d[32], e[32];
    report_table_write(m, &table, out);
    fprintf(out, "DRAM      read %s   written %s\n",
            report_format_bytes(t->dram.read_bytes, a, sizeof a),
            report_format_bytes(t->dram.write_bytes, b, sizeof b));
    fprintf(out, "shared    requests %s   wavefronts %s   bank conflicts %s\n",
            report_format_count(t->shared.requests, a, sizeof a),
            report_format_count(t->shared.wavefronts, b, sizeof b),
            report_format_count(t->shared.bank_conflicts, c, sizeof c));
    if (t->shared.uniform_hinted) /* only runs with SASS LDS.U */
        fprintf(out, "          uniform-address hints %s   unmet %s\n",
                report_format_count(t->shared.uniform_hinted, a, sizeof a),
                report_format_count(t->shared.uniform_unmet, b, sizeof b));
    uint64_t lookups = report_add_saturating(t->constant.hits, t->constant.misses);
    fprintf(out, "constant  requests %s   extra passes %s   hits %s   misses %s   hit rate %s\n",
            report_format_count(t->constant.requests, a, sizeof a),
            report_format_count(t->constant.serialized, b, sizeof b),
            report_format_count(t->constant.hits, c, sizeof c),
            report_format_count(t->constant.misses, d, sizeof d),
            report_format_rate(t->constant.hits, lookups, e, sizeof e));
    lookups = report_add_saturating(t->icache.hits, t->icache.misses);
    fprintf(out, "icache    fetches %s   hits %s   misses %s   hit rate %s\n",
            report_format_count(t->icache.fetches, a, sizeof a),
            report_format_count(t->icache.hits, b, sizeof b),
            report_format_count(t->icache.misses, c, sizeof c),
            report_format_rate(t->icache.hits, lookups, d, sizeof d));
    if (t->surface.requests) /* only runs with surface (image) accesses */
        fprintf(out, "surface   requests %s   L2 sectors %s   DRAM sectors %s\n",
                report_format_count(t->surface.requests, a, sizeof a),
                report_format_count(t->surface.sectors_l2, b, sizeof b),
                report_format_count(t->surface.sectors_dram, c, sizeof c));
    if (t->texture.requests) /* only runs with texture fetches */
        fprintf(out, "texture   requests %s   L1 sectors %s   L2 sectors %s   DRAM sectors %s\n",
                report_format_count(t->texture.requests, a, sizeof a),
                report_format_count(t->texture.sectors_l1, b, sizeof b),
                report_format_count(t->texture.sectors_l2, c, sizeof c),
                report_format_count(t->texture.sectors_dram, d, sizeof d));
}

static void write_eviction_classes(const report_model *m, FILE *out)
{
    const mem_l2_counters *l2 = &m->totals.l2;
    char a[32], b[32], c[32], d[32], e[32];
    fprintf(out, "L2 lines by eviction class: first %s   normal %s   last %s   (peak last %s",
            report_format_count(l2->lines_evict_first, a, sizeof a),
            report_format_count(l2->lines_evict_normal, b, sizeof b),
            report_format_count(l2->lines_evict_last, c, sizeof c),
            report_format_count(l2->peak_evict_last_lines, d, sizeof d));
    if (m->l2_persisting_bytes)
        fprintf(out, "; set-aside %s)\n",
                report_format_bytes(m->l2_persisting_bytes, e, sizeof e));
    else
        fputs("; no set-aside)\n", out);
}

static void fill_launch_row(const report_model *m, const void *rows, size_t row,
                            table_cells *cells)
{
    (void)rows;
    const report_launch *l = &m->launches[row];
    const mem_counters *k = &l->counters;
    char(*t)[CELL_BYTES] = cells->text;
    report_format_count(row + 1, t[0], CELL_BYTES);
    report_cell_copy(t[1], l->kernel);
    snprintf(t[2], CELL_BYTES, "(%u,%u,%u)", l->grid[0], l->grid[1], l->grid[2]);
    snprintf(t[3], CELL_BYTES, "(%u,%u,%u)", l->block[0], l->block[1], l->block[2]);
    report_format_count(l->warp_instructions, t[4], CELL_BYTES);
    report_format_rate(k->l1.sector_hits, k->l1.sector_accesses, t[5], CELL_BYTES);
    report_format_rate(k->l2.sector_hits, k->l2.sector_accesses, t[6], CELL_BYTES);
    report_format_bytes(k->dram.read_bytes, t[7], CELL_BYTES);
    report_format_bytes(k->dram.write_bytes, t[8], CELL_BYTES);
    report_format_count(k->shared.bank_conflicts, t[9], CELL_BYTES);
}

static void write_launches(const report_model *m, FILE *out)
{
    static const char *const headers[] = {
        "#",           "kernel",      "grid",      "block",        "warp instructions",
        "L1 hit rate", "L2 hit rate", "DRAM read", "DRAM written", "bank conflicts"};
    const text_table table = {.ncolumns = 10, .headers = headers, .align = "rlllrrrrrr",
                              .indent = "  ", .nrows = m->nlaunches, .fill = fill_launch_row};
    fputs("per launch:\n", out);
    report_table_write(m, &table, out);
}

/* The rows of the hottest table: the ranking, and the run's stall cycles with timing on. */
typedef struct hot_rows {
    const ranked_insn *ranked;
    int timing;
    uint64_t stall_total;
} hot_rows;

/* "module.ptx:31", and "saxpy.cu:7" or "-": where an instruction is. */
void report_insn_places(const report_model *m, const report_insn *insn, char *kernel_line,
                        char *source)
{
    char where[CELL_BYTES];
    const char *module = insn->module ? insn->module : m->module;
    if (module)
        snprintf(where, sizeof where, "%s:%u", base_name(module), insn->ptx_line);
    else
        snprintf(where, sizeof where, "%u", insn->ptx_line);
    report_cell_copy(kernel_line, where);
    if (insn->source_file) {
        snprintf(where, sizeof where, "%s:%u", base_name(insn->source_file), insn->source_line);
        report_cell_copy(source, where);
    } else {
        report_cell_copy(source, "-");
    }
}

static void fill_hottest_row(const report_model *m, const void *rows, size_t row,
                             table_cells *cells)
{
    const hot_rows *h = rows;
    const ranked_insn *r = &h->ranked[row];
    const report_insn *insn = &m->insns[r->index];
    char(*t)[CELL_BYTES] = cells->text;
    size_t c = 0;
    report_format_count(row + 1, t[c++], CELL_BYTES);
    report_format_count(r->misses, t[c++], CELL_BYTES);
    report_format_count(insn->executions, t[c++], CELL_BYTES);
    if (h->timing) {
        report_format_share(report_insn_stall_cycles(insn), h->stall_total, t[c++], CELL_BYTES);
        report_format_top_stall(insn->stalls, t[c++], CELL_BYTES);
    }
    report_insn_places(m, insn, t[c], t[c + 1]);
    report_cell_copy(t[c + 2], insn->text);
}

static void write_hottest(const report_model *m, const ranked_insn *ranked, size_t nranked,
                          size_t top_n, FILE *out)
{
    static const char *const headers[] = {"#",        "misses", "executions",
                                          "kernel line", "source", "instruction"};
    static const char *const timing_headers[] = {"#",           "misses", "executions",
                                                 "stalls",      "top stall", "kernel line",
                                                 "source",      "instruction"};
    char a[32], b[32];
    if (!nranked) {
        fputs("hottest instructions by L1 + L2 sector misses: none missed\n", out);
        return;
    }
    size_t shown = nranked < top_n ? nranked : top_n;
    fprintf(out, "hottest instructions by L1 + L2 sector misses (%s of %s that missed):\n",
            report_format_count(shown, a, sizeof a), report_format_count(nranked, b, sizeof b));
    hot_rows rows = {.ranked = ranked, .timing = m->timing};
    text_table table = {.ncolumns = 6, .headers = headers, .align = "rrrlll", .indent = "  ",
                        .nrows = shown, .fill = fill_hottest_row, .rows = &rows};
    if (m->timing) {
        rows.stall_total = report_run_stall_cycles(m);
        table.ncolumns = 8;
        table.headers = timing_headers;
        table.align = "rrrrllll";
    }
    report_table_write(m, &table, out);
}

int report_write_text(const report_model *m, size_t top_n, FILE *out)
{
    if (!m || !out)
        return REPORT_ERR_INVALID;
    ranked_insn *ranked = NULL;
    size_t nranked = 0;
    if (top_n && rank_insns(m, &ranked, &nranked) != REPORT_OK)
        return REPORT_ERR_NOMEM;
    write_header(m, out);
    fputc('\n', out);
    write_levels(m, out);
    write_eviction_classes(m, out);
    if (m->launches && m->nlaunches > 1) {
        fputc('\n', out);
        write_launches(m, out);
    }
    int status = REPORT_OK;
    if (report_text_has_timing(m)) {
        fputc('\n', out);
        report_text_write_timing(m, out);
    }
    if (top_n) {
        fputc('\n', out);
        write_hottest(m, ranked, nranked, top_n, out);
        if (m->timing)
            status = report_text_write_stall_lines(m, top_n, out);
    }
    free(ranked);
    if (status != REPORT_OK)
        return status;
    if (fflush(out) != 0 || ferror(out))
        return REPORT_ERR_IO;
    return REPORT_OK;
}
