/* The report layer: turns the counters of a finished run into a text report that a person reads at
 * a glance and a JSON report with the stable schema "gpumemsim-stats/2", including the timing
 * model's cycles, bandwidths and stall reasons when the run had them, and the counters under
 * their Nsight Compute metric names (report_ncu.def).
 *
 * It works from plain data (report_model below) that the sim layer fills from the memory system's
 * counters (src/mem/mem_stats.h); it runs nothing and counts nothing itself. docs/statistics.md
 * defines every line of the text report and every key of the JSON report.
 *
 * Host times (report_launch.seconds) are carried for the command line but appear in neither report:
 * reports must be byte-identical across runs of the same input (DESIGN.md, Invariants).
 *
 * Ownership: every pointer in a report_model is borrowed; the report functions never keep one after
 * they return. Any string may be NULL (shown as "-" in text, null in JSON); an array pointer that
 * is NULL is read as an empty array whatever its count says. */
#ifndef GMS_REPORT_REPORT_H
#define GMS_REPORT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "mem/mem_stats.h"
#include "timing/timing_stats.h"

/* The JSON schema identifier written under the key "schema". */
#define REPORT_SCHEMA "gpumemsim-stats/2"

/* Statuses of the report functions. */
enum {
    REPORT_OK = 0,
    REPORT_ERR_NOMEM = 1,   /* an allocation failed */
    REPORT_ERR_IO = 2,      /* writing the output failed */
    REPORT_ERR_INVALID = 3, /* a required argument was NULL */
};

/* One static instruction and the counters charged to it over the whole run. */
typedef struct report_insn {
    uint32_t id;             /* the instruction's id on the device: its module's first id plus its
                                id in the module (IR attribution id); the module's id when one */
    const char *module;      /* path of its module when the device holds several; NULL when one */
    const char *kernel;      /* the kernel (entry or function) it belongs to */
    uint32_t ptx_line;       /* 1-based line in the module file; 0 when unknown */
    const char *source_file; /* high-level source file from .loc; NULL when there is no .loc */
    uint32_t source_line;    /* 1-based line in source_file */
    const char *text;        /* the instruction as written in the module, trimmed */
    uint64_t executions;     /* warp-level executions (a warp with any active lane counts once) */
    mem_counters counters;   /* charged to this instruction; the l2 lines_* fields are not used */
    uint64_t stalls[TIMING_STALL_COUNT]; /* timing model: warp-cycles charged to each stall
                                            reason while this was the warp's next instruction
                                            (all 0 with timing off) */
} report_insn;

/* One kernel launch of the launch file. */
typedef struct report_launch {
    const char *kernel;
    uint32_t grid[3], block[3]; /* CTAs per grid and threads per CTA, x y z */
    uint64_t warp_instructions, thread_instructions;
    uint64_t printf_bad_strings; /* device printf %s arguments with a NULL, unreadable or
                                    unterminated pointer */
    uint64_t thread_instructions_pred_on; /* active lanes whose guard predicate was true */
    uint64_t window_errors;     /* lanes with a window error (docs/faults.md, "Window errors") */
    timing_stats timing;        /* timing model (timing.enabled 0: functional mode) */
    mem_counters counters;      /* this launch only */
    double seconds;             /* host time; not reported (see the file comment) */
} report_launch;

/* Everything a report shows. */
typedef struct report_model {
    const char *gpu;         /* preset name, e.g. "h100" */
    const char *launch_file; /* path of the launch file as given */
    const char *module;      /* path of the kernel file (the first module when several) */
    const char *const *modules; /* nmodules paths in load order when the device held several */
    size_t nmodules;            /* 0 or 1: one module, named by `module` */
    report_launch *launches; /* nlaunches entries, in launch order */
    size_t nlaunches;
    uint64_t warp_instructions, thread_instructions; /* over all launches */
    uint64_t printf_bad_strings;                     /* over all launches */
    uint64_t thread_instructions_pred_on;            /* over all launches */
    uint64_t window_errors;                          /* over all launches */
    int timing;              /* 1: the launches ran under the timing model */
    mem_counters totals;                             /* over all launches */
    report_insn *insns;      /* ninsns entries; those with executions == 0 are left out */
    size_t ninsns;
    uint64_t l2_persisting_bytes; /* L2 set-aside for persisting accesses in effect, bytes */
    int hints_stripped;           /* nonzero: the run ignored every cache hint (baseline run) */
    uint32_t l1_sector_bytes, l2_sector_bytes; /* the preset's sector sizes, for bytes and
                                                  bandwidths; 0 is read as 32 */
} report_model;

/* Writes the text report of `m` to `out` (docs/statistics.md, "Text report"): header, totals per
 * level, per-launch lines when there are several launches, and the `top_n` instructions with the
 * most L1 + L2 sector misses (ties broken by PTX line, then id; top_n == 0 leaves the section
 * out). Flushes `out` before returning.
 * Returns REPORT_OK; REPORT_ERR_INVALID when m or out is NULL; REPORT_ERR_NOMEM when the ranking
 * buffer cannot be allocated (nothing is written then); REPORT_ERR_IO when the stream reports a
 * write error. */
int report_write_text(const report_model *m, size_t top_n, FILE *out);

/* Returns the JSON report of `m` (schema REPORT_SCHEMA, docs/statistics.md "JSON report") as
 * malloc'd, NUL-terminated text with sorted keys and two-space indentation, ending in a newline.
 * The caller frees it with free(). Returns NULL when m is NULL or when out of memory. */
char *report_to_json(const report_model *m);

/* Writes the JSON report of `m` to `path` atomically: to a temporary file in the same folder,
 * then renamed over `path`, so a reader never sees half a report. The file gets mode 0644.
 * Returns REPORT_OK; REPORT_ERR_INVALID when an argument is NULL (no diagnostic when dl is NULL);
 * REPORT_ERR_NOMEM with REPORT-NOMEM-001 when out of memory; REPORT_ERR_IO with REPORT-IO-001
 * (naming the path and the system's reason) when the file cannot be created, written or renamed,
 * in which case `path` is left as it was. */
int report_write_json_file(const report_model *m, const char *path, diag_list *dl);

/* Ranks the executed instructions of `m` by L1 + L2 sector misses, most first; ties go to the
 * lower PTX line, then the lower id, then the earlier array position. Instructions with no miss
 * are not ranked. Writes at most `top_n` indices into m->insns to `order` (room for top_n
 * entries) and their number to *count.
 * Returns REPORT_OK, REPORT_ERR_INVALID when m or count is NULL (or order is NULL with
 * top_n > 0), or REPORT_ERR_NOMEM. */
int report_hottest(const report_model *m, size_t top_n, size_t *order, size_t *count);

/* The misses that rank an instruction: l1.sector_misses + l2.sector_misses, saturating. */
uint64_t report_insn_misses(const report_insn *insn);

/* Hit rate as a fraction: stores hits / accesses in *rate and returns 1; returns 0 (and leaves
 * *rate alone) when accesses is 0, where the rate is undefined. */
int report_hit_rate(uint64_t hits, uint64_t accesses, double *rate);

/* Formatting helpers of the text report. Each writes a NUL-terminated string into buf (truncated
 * to `size` bytes; size 0 writes nothing) and returns buf.
 * report_format_count: decimal with a comma every three digits, "12,288".
 * report_format_bytes: below 1024 "512 B"; otherwise one decimal in the largest binary unit that
 *   keeps the value below 1024 after rounding half up: "32.0 KiB", "1.5 MiB" (KiB to EiB).
 * report_format_rate: hits / accesses as a percentage truncated (not rounded) to one decimal, so
 *   "100.0%" means every access hit and "0.0%" only that under 0.1% did; "-" when accesses is 0;
 *   "?" when hits > accesses (inconsistent counters). */
char *report_format_count(uint64_t value, char *buf, size_t size);
char *report_format_bytes(uint64_t bytes, char *buf, size_t size);
char *report_format_rate(uint64_t hits, uint64_t accesses, char *buf, size_t size);

/* ---- timing figures (docs/statistics.md, "Timing") ---- */

/* One level's achieved bandwidth over a launch (or a run). */
typedef struct report_bandwidth {
    uint64_t bytes;         /* bytes the level moved (see report_timing_derive) */
    double bytes_per_cycle; /* bytes / cycles: the whole GPU per SM clock cycle */
    double gb_per_s;        /* bytes / seconds_at_clock / 1e9 */
} report_bandwidth;

/* The figures derived from a timing_stats and the counters of the same launch. Fields that are
 * undefined (a zero divisor) are NaN; the reports show them as "-" and null. */
typedef struct report_timing {
    double ipc;                /* warp_instructions / sm_active_cycles: warp instructions per
                                  SM per active cycle (ncu
                                  sm__inst_executed.avg.per_cycle_active) */
    double achieved_occupancy; /* warp_resident_cycles / (sm_active_cycles * max_warps_per_sm),
                                  a fraction of the warp slots */
    double seconds_at_clock;   /* cycles / (clock_mhz * 1e6) */
    report_bandwidth l1;       /* l1.sector_accesses * L1 sector bytes */
    report_bandwidth l2;       /* l2.sector_accesses * L2 sector bytes */
    report_bandwidth dram;     /* dram.read_bytes + dram.write_bytes */
    report_bandwidth shared;   /* shared.wavefronts * 128 (32 banks of 4 bytes per pass) */
    uint64_t stall_total;      /* the sum of t->stalls: warp-resident cycles */
    double stall_shares[TIMING_STALL_COUNT]; /* stalls[r] / stall_total */
} report_timing;

/* Derives the figures of `t` (a launch's timing_stats, or a sum of several) from the counters
 * `c` and warp instruction count of the same span, using the sector sizes of `m` (which may be
 * NULL: 32 bytes). Every field of *out is written. */
void report_timing_derive(const report_model *m, const timing_stats *t, const mem_counters *c,
                          uint64_t warp_instructions, report_timing *out);

/* ---- Nsight Compute metrics (docs/statistics.md, "Nsight Compute metrics") ---- */

/* One row of the mapping (report_ncu.def, then one row per stall reason). */
typedef struct report_ncu_metric {
    const char *name;  /* the ncu metric name, "dram__bytes_read.sum" */
    const char *unit;  /* "bytes", "sectors", "%", ... */
    const char *how;   /* how gpumemsim computes it, one line */
    int needs_timing;  /* 1: computed only for launches that ran under the timing model */
} report_ncu_metric;

typedef enum report_ncu_kind {
    REPORT_NCU_ABSENT = 0, /* not computed for this launch (needs timing; timing was off) */
    REPORT_NCU_INTEGER,    /* exact count in .count */
    REPORT_NCU_REAL,       /* ratio in .real */
    REPORT_NCU_UNDEFINED,  /* a ratio whose divisor is 0 (JSON null) */
} report_ncu_kind;

typedef struct report_ncu_value {
    report_ncu_kind kind;
    uint64_t count;
    double real;
} report_ncu_value;

/* Number of metrics in the mapping; metric i (0 <= i < count) is report_ncu_metric_at(i), in
 * the table's order. report_ncu_metric_at returns NULL for i out of range. The table is static:
 * the pointers stay valid for the life of the program. */
size_t report_ncu_count(void);
const report_ncu_metric *report_ncu_metric_at(size_t i);

/* The index of the metric named `name` (exact match), or (size_t)-1 when there is none. */
size_t report_ncu_find(const char *name);

/* Computes metric i for launch `l` of model `m` (m gives the sector sizes; it may be NULL) and
 * returns its kind (also stored in out->kind). Returns REPORT_NCU_ABSENT for i out of range, for
 * l NULL, and for a timing metric of a launch that ran without timing. */
report_ncu_kind report_ncu_evaluate(const report_model *m, const report_launch *l, size_t i,
                                    report_ncu_value *out);

#endif
