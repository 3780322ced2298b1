/* Internal to src/report: what the files of the text report share. report.c has the sections
 * of the memory counters, the ranking and the table writer; report_text_timing.c the timing
 * section, the stall figures of instructions and the lines by stall cycles (docs/statistics.md,
 * "Text report"). Not part of the report layer's interface (report.h). */
#ifndef GMS_REPORT_REPORT_TEXT_H
#define GMS_REPORT_REPORT_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "report/report.h"

#define TABLE_MAX_COLUMNS 10
#define CELL_BYTES 128
#define CELL_MAX_CHARS 100 /* longer text (an instruction) is cut and ends in "..." */

typedef struct table_cells {
    char text[TABLE_MAX_COLUMNS][CELL_BYTES];
} table_cells;

/* Fills the cells of row `row`. Called twice per row: once to measure, once to write. */
typedef void (*table_row_fn)(const report_model *m, const void *rows, size_t row,
                             table_cells *cells);

typedef struct text_table {
    size_t ncolumns;
    const char *const *headers;
    const char *align; /* one letter per column: 'l' left, 'r' right */
    const char *indent;
    size_t first_width; /* minimum width of the first column */
    size_t nrows;
    table_row_fn fill;
    const void *rows; /* passed through to fill */
} text_table;

/* Width of the level names ("constant"), so that the lines below the level table line up with
 * it. */
#define LABEL_WIDTH 8

/* a + b, or UINT64_MAX when the sum does not fit. */
static inline uint64_t report_add_saturating(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- report.c ---- */

/* Writes table `t` with its columns aligned to their widest cell (headers included); no line ends
 * in a space. */
void report_table_write(const report_model *m, const text_table *t, FILE *out);
/* Copies s (NULL: "-") into a cell, control characters turned into spaces, cut with "..." when
 * longer than a cell shows. */
void report_cell_copy(char *cell, const char *s);
/* Writes where `insn` is into two cells: "module.ptx:31" and "saxpy.cu:7" (or "-" without
 * .loc), file names as their last path component. */
void report_insn_places(const report_model *m, const report_insn *insn, char *kernel_line,
                        char *source);

/* ---- report_text_timing.c ---- */

/* Nonzero when some launch of m ran under the timing model. */
int report_text_has_timing(const report_model *m);
/* The timing section: "timing:" and one block, or with several launches a row per launch and a
 * block for those with timing added up. */
void report_text_write_timing(const report_model *m, FILE *out);
/* The `top_n` lines whose instructions stalled longest, after a blank line. Returns REPORT_OK or
 * REPORT_ERR_NOMEM (nothing written then). */
int report_text_write_stall_lines(const report_model *m, size_t top_n, FILE *out);
/* Warp-cycles an instruction's warps waited at it: every reason but SELECTED (saturating). */
uint64_t report_insn_stall_cycles(const report_insn *insn);
/* The stall cycles of every executed instruction of m. */
uint64_t report_run_stall_cycles(const report_model *m);
/* part / whole as a percentage rounded to one decimal, "-" when whole is 0; returns buf. */
char *report_format_share(uint64_t part, uint64_t whole, char *buf, size_t size);
/* "long_scoreboard 97.0%": the reason (not SELECTED) with the most of `stalls` and its share of
 * their sum, the first in table order on a tie; "-" when none; returns buf. */
char *report_format_top_stall(const uint64_t stalls[TIMING_STALL_COUNT], char *buf, size_t size);

#endif
