/* The timing part of the text report (docs/statistics.md, "Text report"): the timing section
 * (cycles, IPC, occupancy, time at the clock, bandwidth per level, stall reasons), the stall
 * figures of an instruction that the hottest table shows, and the lines whose instructions'
 * warps waited longest. Everything here is written only for runs under the timing model. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_text.h"

/* ---- timing ---------------------------------------------------------------------------------- */

/* A share as a percentage rounded to one decimal, "-" when the whole is 0. */
char *report_format_share(uint64_t part, uint64_t whole, char *buf, size_t size)
{
    if (!whole)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.1f%%", (double)part / (double)whole * 100.0);
    return buf;
}

/* "long_scoreboard 97.0%": the reason (not SELECTED) with the most of `stalls`, and its share of
 * their sum; the first in table order on a tie; "-" when there is no stall. */
char *report_format_top_stall(const uint64_t stalls[TIMING_STALL_COUNT], char *buf, size_t size)
{
    uint64_t sum = 0, best = 0;
    size_t top = TIMING_STALL_COUNT;
    for (size_t r = 0; r < TIMING_STALL_COUNT; r++) {
        if (r == TIMING_STALL_SELECTED)
            continue;
        sum = report_add_saturating(sum, stalls[r]);
        if (stalls[r] > best) {
            best = stalls[r];
            top = r;
        }
    }
    if (top == TIMING_STALL_COUNT) {
        snprintf(buf, size, "-");
        return buf;
    }
    char share[32];
    snprintf(buf, size, "%s %s", timing_stall_name((timing_stall)top),
             report_format_share(best, sum, share, sizeof share));
    return buf;
}

int report_text_has_timing(const report_model *m)
{
    for (size_t i = 0; m->launches && i < m->nlaunches; i++)
        if (m->launches[i].timing.enabled)
            return 1;
    return 0;
}

/* A derived figure with `decimals` decimals, "-" where it is undefined (NaN). */
static char *format_real(double v, int decimals, char *buf, size_t size)
{
    if (isfinite(v))
        snprintf(buf, size, "%.*f", decimals, v);
    else
        snprintf(buf, size, "-");
    return buf;
}

/* A fraction as a percentage with one decimal, "-" where it is undefined. */
static char *format_fraction(double v, char *buf, size_t size)
{
    if (isfinite(v))
        snprintf(buf, size, "%.1f%%", v * 100.0);
    else
        snprintf(buf, size, "-");
    return buf;
}

/* Seconds in the unit that keeps three decimals meaningful: "5.835 us". */
static char *format_seconds(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        snprintf(buf, size, "-");
    else if (v < 1e-6)
        snprintf(buf, size, "%.3f ns", v * 1e9);
    else if (v < 1e-3)
        snprintf(buf, size, "%.3f us", v * 1e6);
    else if (v < 1.0)
        snprintf(buf, size, "%.3f ms", v * 1e3);
    else
        snprintf(buf, size, "%.3f s", v);
    return buf;
}

/* The launches that ran under the timing model, summed: cycles, active and resident cycles and
 * stalls add up (launches run one after another); the preset's figures come from the first. */
typedef struct timing_span {
    timing_stats t;
    mem_counters counters;
    uint64_t warp_instructions;
    size_t nlaunches;
} timing_span;

static void sum_timing(const report_model *m, timing_span *span)
{
    memset(span, 0, sizeof *span);
    for (size_t i = 0; m->launches && i < m->nlaunches; i++) {
        const report_launch *l = &m->launches[i];
        const timing_stats *t = &l->timing;
        if (!t->enabled)
            continue;
        if (!span->nlaunches++) {
            span->t.enabled = 1;
            span->t.max_warps_per_sm = t->max_warps_per_sm;
            span->t.sm_count = t->sm_count;
            span->t.clock_mhz = t->clock_mhz;
        }
        span->t.cycles = report_add_saturating(span->t.cycles, t->cycles);
        span->t.sm_active_cycles =
            report_add_saturating(span->t.sm_active_cycles, t->sm_active_cycles);
        span->t.warp_resident_cycles =
            report_add_saturating(span->t.warp_resident_cycles, t->warp_resident_cycles);
        for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
            span->t.stalls[r] = report_add_saturating(span->t.stalls[r], t->stalls[r]);
        mem_counters_add(&span->counters, &l->counters);
        span->warp_instructions =
            report_add_saturating(span->warp_instructions, l->warp_instructions);
    }
}

static void fill_bandwidth_row(const report_model *m, const void *rows, size_t row,
                               table_cells *cells)
{
    (void)m;
    static const char *const names[] = {"L1", "L2", "DRAM", "shared"};
    const report_timing *d = rows;
    const report_bandwidth *b[] = {&d->l1, &d->l2, &d->dram, &d->shared};
    char(*t)[CELL_BYTES] = cells->text;
    snprintf(t[0], CELL_BYTES, "%s", names[row]);
    report_format_bytes(b[row]->bytes, t[1], CELL_BYTES);
    format_real(b[row]->bytes_per_cycle, 2, t[2], CELL_BYTES);
    format_real(b[row]->gb_per_s, 1, t[3], CELL_BYTES);
}

/* The stall reasons with warp-cycles, most first (table order on a tie). */
typedef struct stall_rows {
    const timing_stats *t;
    const report_timing *d;
    size_t order[TIMING_STALL_COUNT];
} stall_rows;

static size_t order_stalls(const timing_stats *t, size_t order[TIMING_STALL_COUNT])
{
    size_t n = 0;
    for (size_t r = 0; r < TIMING_STALL_COUNT; r++) {
        if (!t->stalls[r])
            continue;
        size_t k = n++;
        for (; k > 0 && t->stalls[order[k - 1]] < t->stalls[r]; k--)
            order[k] = order[k - 1];
        order[k] = r;
    }
    return n;
}

static void fill_stall_row(const report_model *m, const void *rows, size_t row,
                           table_cells *cells)
{
    (void)m;
    const stall_rows *s = rows;
    size_t r = s->order[row];
    char(*t)[CELL_BYTES] = cells->text;
    snprintf(t[0], CELL_BYTES, "%s", timing_stall_name((timing_stall)r));
    report_format_count(s->t->stalls[r], t[1], CELL_BYTES);
    format_fraction(s->d->stall_shares[r], t[2], CELL_BYTES);
    report_cell_copy(t[3], timing_stall_meaning((timing_stall)r));
}

/* Cycles, IPC, occupancy, time, bandwidth per level and stall reasons of one span. */
static void write_timing_block(const report_model *m, const timing_stats *t,
                               const mem_counters *c, uint64_t warp_instructions, FILE *out)
{
    static const char *const bw_headers[] = {"level", "bytes", "bytes/cycle", "GB/s"};
    static const char *const stall_headers[] = {"stall reason", "warp-cycles", "share",
                                                "meaning"};
    report_timing d;
    char a[32], b[32], e[32], f[32], g[32];
    report_timing_derive(m, t, c, warp_instructions, &d);
    fprintf(out, "cycles %s   SM active cycles %s   IPC %s   achieved occupancy %s\n",
            report_format_count(t->cycles, a, sizeof a),
            report_format_count(t->sm_active_cycles, b, sizeof b),
            format_real(d.ipc, 2, e, sizeof e), format_fraction(d.achieved_occupancy, f, sizeof f));
    fprintf(out, "time at %s MHz: %s   (%s SMs, %s warp slots each)\n",
            format_real(t->clock_mhz, 0, a, sizeof a),
            format_seconds(d.seconds_at_clock, b, sizeof b),
            report_format_count(t->sm_count, e, sizeof e),
            report_format_count(t->max_warps_per_sm, g, sizeof g));
    const text_table bw = {.ncolumns = 4, .headers = bw_headers, .align = "lrrr", .indent = "",
                           .first_width = LABEL_WIDTH, .nrows = 4, .fill = fill_bandwidth_row,
                           .rows = &d};
    report_table_write(m, &bw, out);
    stall_rows rows = {.t = t, .d = &d};
    size_t n = order_stalls(t, rows.order);
    if (!n) {
        fputs("stall reasons: no resident warp-cycles\n", out);
        return;
    }
    const text_table st = {.ncolumns = 4, .headers = stall_headers, .align = "lrrl", .indent = "",
                           .nrows = n, .fill = fill_stall_row, .rows = &rows};
    report_table_write(m, &st, out);
}

/* One row per launch: its timing figures, "-" for a launch that ran without the model. */
static void fill_launch_timing_row(const report_model *m, const void *rows, size_t row,
                                   table_cells *cells)
{
    (void)rows;
    const report_launch *l = &m->launches[row];
    char(*t)[CELL_BYTES] = cells->text;
    report_format_count(row + 1, t[0], CELL_BYTES);
    report_cell_copy(t[1], l->kernel);
    if (!l->timing.enabled) {
        for (size_t c = 2; c < 8; c++)
            snprintf(t[c], CELL_BYTES, "-");
        return;
    }
    report_timing d;
    report_timing_derive(m, &l->timing, &l->counters, l->warp_instructions, &d);
    report_format_count(l->timing.cycles, t[2], CELL_BYTES);
    format_real(d.ipc, 2, t[3], CELL_BYTES);
    format_fraction(d.achieved_occupancy, t[4], CELL_BYTES);
    format_real(d.l2.gb_per_s, 1, t[5], CELL_BYTES);
    format_real(d.dram.gb_per_s, 1, t[6], CELL_BYTES);
    report_format_top_stall(l->timing.stalls, t[7], CELL_BYTES);
}

void report_text_write_timing(const report_model *m, FILE *out)
{
    timing_span span;
    sum_timing(m, &span);
    if (m->nlaunches == 1) {
        fputs("timing:\n", out);
    } else {
        static const char *const headers[] = {"#",        "kernel",    "cycles",
                                              "IPC",      "occupancy", "L2 GB/s",
                                              "DRAM GB/s", "top stall"};
        const text_table table = {.ncolumns = 8, .headers = headers, .align = "rlrrrrrl",
                                  .indent = "  ", .nrows = m->nlaunches,
                                  .fill = fill_launch_timing_row};
        fputs("timing per launch:\n", out);
        report_table_write(m, &table, out);
        char a[32];
        fprintf(out, "timing over the %s launches with timing:\n",
                report_format_count(span.nlaunches, a, sizeof a));
    }
    write_timing_block(m, &span.t, &span.counters, span.warp_instructions, out);
}

/* Warp-cycles an instruction's warps spent waiting (every reason but SELECTED). */
uint64_t report_insn_stall_cycles(const report_insn *insn)
{
    uint64_t sum = 0;
    for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
        if (r != TIMING_STALL_SELECTED)
            sum = report_add_saturating(sum, insn->stalls[r]);
    return sum;
}

/* The stall cycles of every executed instruction of the run. */
uint64_t report_run_stall_cycles(const report_model *m)
{
    uint64_t sum = 0;
    for (size_t i = 0; m->insns && i < m->ninsns; i++)
        if (m->insns[i].executions)
            sum = report_add_saturating(sum, report_insn_stall_cycles(&m->insns[i]));
    return sum;
}

/* ---- stalls by source line ------------------------------------------------------------------- */

/* The instructions of one line: a source line from .loc, or for instructions without one, their
 * line in the kernel file. */
typedef struct line_stalls {
    const report_insn *first; /* names the line */
    uint64_t stalls[TIMING_STALL_COUNT];
    uint64_t total; /* every reason but SELECTED */
    size_t ninsns;
} line_stalls;

/* Orders instructions by their line: source lines first (by file, then line), then kernel
 * lines (by module, then line). An instruction names its module only when the device held
 * several, and then every one does, so a NULL module is the one module of the run. */
static int compare_line_key(const report_insn *x, const report_insn *y)
{
    if (!x->source_file != !y->source_file)
        return x->source_file ? -1 : 1;
    int c;
    if (x->source_file) {
        c = strcmp(x->source_file, y->source_file);
        if (c)
            return c;
        return x->source_line < y->source_line ? -1 : x->source_line > y->source_line;
    }
    c = strcmp(x->module ? x->module : "", y->module ? y->module : "");
    if (c)
        return c;
    return x->ptx_line < y->ptx_line ? -1 : x->ptx_line > y->ptx_line;
}

/* Line order, then id, so that the order is total. */
static int compare_insn_lines(const void *a, const void *b)
{
    const report_insn *x = *(const report_insn *const *)a, *y = *(const report_insn *const *)b;
    int c = compare_line_key(x, y);
    return c ? c : (x->id < y->id ? -1 : x->id > y->id);
}

static int compare_line_stalls(const void *a, const void *b)
{
    const line_stalls *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return compare_line_key(x->first, y->first);
}

typedef struct line_rows {
    const line_stalls *lines;
    uint64_t stall_total;
} line_rows;

static void fill_line_row(const report_model *m, const void *rows, size_t row,
                          table_cells *cells)
{
    const line_rows *lr = rows;
    const line_stalls *ls = &lr->lines[row];
    char(*t)[CELL_BYTES] = cells->text;
    char kernel_line[CELL_BYTES], source[CELL_BYTES];
    report_format_count(row + 1, t[0], CELL_BYTES);
    report_format_share(ls->total, lr->stall_total, t[1], CELL_BYTES);
    report_format_count(ls->total, t[2], CELL_BYTES);
    report_format_top_stall(ls->stalls, t[3], CELL_BYTES);
    report_insn_places(m, ls->first, kernel_line, source);
    report_cell_copy(t[4], ls->first->source_file ? source : kernel_line);
    report_format_count(ls->ninsns, t[5], CELL_BYTES);
}

/* Groups the executed instructions that stalled by line into *lines (malloc'd, most stall
 * cycles first). Returns REPORT_OK or REPORT_ERR_NOMEM. */
static int group_lines(const report_model *m, line_stalls **lines, size_t *nlines)
{
    size_t n = 0, ninsns = m->insns ? m->ninsns : 0;
    *lines = NULL;
    *nlines = 0;
    for (size_t i = 0; i < ninsns; i++)
        n += m->insns[i].executions && report_insn_stall_cycles(&m->insns[i]);
    if (!n)
        return REPORT_OK;
    const report_insn **by_line = malloc(n * sizeof *by_line);
    line_stalls *out = calloc(n, sizeof *out);
    if (!by_line || !out) {
        free(by_line);
        free(out);
        return REPORT_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < ninsns; i++)
        if (m->insns[i].executions && report_insn_stall_cycles(&m->insns[i]))
            by_line[k++] = &m->insns[i];
    qsort(by_line, n, sizeof *by_line, compare_insn_lines);
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!count || compare_line_key(out[count - 1].first, by_line[i]) != 0)
            out[count++].first = by_line[i];
        line_stalls *ls = &out[count - 1];
        for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
            ls->stalls[r] = report_add_saturating(ls->stalls[r], by_line[i]->stalls[r]);
        ls->total = report_add_saturating(ls->total, report_insn_stall_cycles(by_line[i]));
        ls->ninsns++;
    }
    qsort(out, count, sizeof *out, compare_line_stalls);
    free(by_line);
    *lines = out;
    *nlines = count;
    return REPORT_OK;
}

/* The lines whose instructions' warps waited longest. Returns REPORT_OK or REPORT_ERR_NOMEM
 * (nothing written then). */
int report_text_write_stall_lines(const report_model *m, size_t top_n, FILE *out)
{
    static const char *const headers[] = {"#",    "stalls", "warp-cycles", "top stall",
                                          "line", "instructions"};
    line_stalls *lines;
    size_t nlines;
    char a[32], b[32];
    if (group_lines(m, &lines, &nlines) != REPORT_OK)
        return REPORT_ERR_NOMEM;
    fputc('\n', out);
    if (!nlines) {
        fputs("lines by warp stall cycles: no instruction stalled\n", out);
        return REPORT_OK;
    }
    size_t shown = nlines < top_n ? nlines : top_n;
    fprintf(out, "lines by warp stall cycles (%s of %s that stalled):\n",
            report_format_count(shown, a, sizeof a), report_format_count(nlines, b, sizeof b));
    line_rows rows = {.lines = lines, .stall_total = report_run_stall_cycles(m)};
    const text_table table = {.ncolumns = 6, .headers = headers, .align = "rrrllr",
                              .indent = "  ", .nrows = shown, .fill = fill_line_row,
                              .rows = &rows};
    report_table_write(m, &table, out);
    free(lines);
    return REPORT_OK;
}

