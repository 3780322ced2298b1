/* The simulation driver: runs a launch file end to end (load the module, check it, allocate and
 * initialise buffers, match arguments to kernel parameters, run each launch, check expectations,
 * write outputs) and checks kernel files. It sits above every other part and below tools/.
 * It never prints: results and diagnostics go to the caller. */
#ifndef GMS_SIM_SIM_H
#define GMS_SIM_SIM_H

#include <stdint.h>

#include "base/diag.h"
#include "config/gpu_config.h"
#include "exec/exec.h"
#include "frontend/frontend.h"
#include "ir/ir.h"
#include "launch/launch.h"
#include "mem/memsys.h"
#include "mem/mem_stats.h"
#include "report/report.h"

/* How far a run has got (sim_options.progress). */
typedef struct sim_progress {
    size_t launch;                  /* the running launch, 0-based */
    size_t nlaunches;               /* launches in the launch file */
    const char *kernel;             /* borrowed: the running launch's kernel */
    uint32_t ctas_done, ctas_total; /* CTAs of this launch that finished; in its grid */
    uint64_t warp_instructions;     /* issued by this launch so far */
    uint64_t max_instructions;      /* this launch's runaway limit */
    double seconds;                 /* host time since this launch started */
} sim_progress;

/* A progress hook: called while a launch runs, about once per 2^18 warp instructions
 * (exec_progress_fn); `p` is borrowed for the call. It must not call back into the sim. */
typedef void (*sim_progress_fn)(const sim_progress *p, void *user);

typedef struct sim_options {
    const char *gpu;           /* preset name overriding the launch file's "gpu"; NULL: keep */
    const char *config_path;   /* GPU override file (--config); NULL: the launch file's, if any */
    uint64_t max_instructions; /* warp-instruction limit per launch; 0: the launch file's or
                                  SIM_DEFAULT_MAX_INSTRUCTIONS */
    uint32_t quantum;          /* warp instructions per scheduling turn; 0: default */
    int strip_hints;           /* run with every cache hint treated as the default */
    int poison_discard;        /* discarded L2 lines read back as 0xFF bytes */
    sim_progress_fn progress;  /* NULL: no progress reports */
    void *progress_user;       /* borrowed, passed to progress */
    const char *json_path;     /* also write the JSON report here (--json); NULL: none */
    /* The kernel dialects to choose from (borrowed); NULL: frontend_builtin(). */
    const frontend_registry *dialects;
    /* The dialect of the kernel file by name (`check --dialect`), overriding a launch file's
     * "dialect" and the file's suffix; NULL: those decide (docs/launch-files.md, "Kernel
     * dialects"). */
    const char *dialect;
} sim_options;

#define SIM_DEFAULT_MAX_INSTRUCTIONS 2000000000ull
/* The largest kernel file read, bytes (SIM-IO-003; docs/launch-files.md, "Checks of a run"). */
#define SIM_MAX_MODULE_BYTES (256ull << 20)

/* Exit statuses of a run, as the command line reports them. */
enum { SIM_OK = 0, SIM_FAILED = 1, SIM_BAD_INPUT = 2 };

typedef struct sim_launch_stats {
    const char *kernel;
    uint32_t grid[3], block[3];
    uint64_t warp_instructions, thread_instructions;
    uint64_t printf_bad_strings; /* exec_stats.printf_bad_strings of this launch */
    mem_counters counters;     /* memory counters of this launch */
    double seconds;            /* host time spent executing */
} sim_launch_stats;

typedef struct sim_result {
    int status;                /* SIM_OK, SIM_FAILED (fault or expectation) or SIM_BAD_INPUT */
    gpu_config gpu;            /* the configuration the run used */
    ir_module *module;         /* owned */
    char *module_text;         /* owned: the kernel text, for quoting faulting lines */
    size_t module_text_len;
    launch_desc *launch;       /* owned */
    exec_program *program;     /* owned */
    sim_launch_stats *launches;/* one per launch that ran */
    size_t nlaunches;
    int faulted;
    exec_fault fault;
    size_t fault_launch;       /* index of the launch that faulted */
    launch_expect_result *expects; /* launch->nexpects entries when expectations were checked */
    int expects_failed;
    char *printf_text;         /* owned, device printf output; may be NULL */
    mem_counters totals;       /* whole run, final write-back included */
    mem_counters *insn_counters; /* owned: per static instruction (module->ninsns_total) */
    uint64_t l2_persisting_bytes; /* set-aside in effect */
    int hints_stripped;
    uint64_t warp_instructions, thread_instructions;
    uint64_t printf_bad_strings; /* over all launches */
    double seconds;
} sim_result;

/* Runs the launch file at `path`. Always returns a result (NULL only when out of memory) whose
 * status says what happened; input errors are diagnostics in dl (rules LAUNCH-*, PTX-*, EXEC-*,
 * CONFIG-*, SIM-*). Before anything runs, every output (the launch file's and opt->json_path) is
 * checked to be a new or regular file that is none of the inputs and whose folder takes a new
 * file (SIM-OUT-001..003). The outputs are written all-or-nothing once every launch ran to its
 * end, also when an expectation failed; after a fault or an input error none is written
 * (docs/launch-files.md, "Outputs"). Free the result with sim_result_destroy. */
sim_result *sim_run_file(const char *path, const sim_options *opt, diag_list *dl);
void sim_result_destroy(sim_result *r);

/* The memory system's geometry and policies from a preset, with the L1/shared split chosen for
 * `shared_per_sm` bytes of shared memory (the largest need of any launch; 0: the preset's default
 * carve-out). Returns 0, or -1 with SIM-SHARED-001 (naming `path`; dl may be NULL) when no
 * carve-out holds it. */
int sim_memsys_config(const gpu_config *g, uint32_t shared_per_sm, memsys_config *c,
                      const char *path, diag_list *dl);

/* Checks every launch of r->launch against its kernel in r->module (compiled into r->program)
 * and the GPU r->gpu before anything runs (docs/launch-files.md, "Checks against the kernel and
 * the GPU"). Errors, at the launch file's "block" or "shared_bytes" value:
 *   SIM-LAUNCH-001 static plus dynamic shared memory per CTA above l1.max_shared_per_cta_bytes
 *   SIM-LAUNCH-002 threads per CTA above sm.max_threads_per_cta
 *   SIM-LAUNCH-003 a block that differs from the kernel's .reqntid
 *   SIM-LAUNCH-004 a block with more threads than the kernel's .maxntid allows
 * and the warning SIM-TARGET-001 (at the module's .target) when the preset could not load the
 * module. Launches of kernels the module lacks are skipped (run_launches reports them). Returns
 * 0, or -1 after an error; *shared_per_cta (OUT) gets the largest shared bytes per CTA of any
 * checked launch (for choosing the carve-out, sim_memsys_config). */
int sim_check_launches(const sim_result *r, uint32_t *shared_per_cta, diag_list *dl);

/* Line `line` (1-based) of the run's kernel text without surrounding blanks, malloc'd (the
 * caller frees it); NULL when there is no such line or out of memory. */
char *sim_module_line(const sim_result *r, uint32_t line);

/* Builds the report model of a finished run (borrowing strings from r; the arrays are malloc'd
 * into *m and freed by sim_report_model_fini). Returns 0 or -1 when out of memory. */
int sim_report_model(const sim_result *r, report_model *m);
void sim_report_model_fini(report_model *m);

/* Parses and checks a kernel file in the dialect that opt->dialect names or, when NULL, whose
 * suffix the file has, from opt->dialects (opt may be NULL: the built-in dialects, by suffix).
 * Returns SIM_OK when clean, SIM_BAD_INPUT otherwise, with every problem in dl (those of
 * sim_load_module, and EXEC-* of preparing the module for execution). */
int sim_check_file(const char *path, const sim_options *opt, diag_list *dl);

/* Loads a kernel file into a module; the dialect is chosen as for sim_check_file
 * (docs/launch-files.md, "Kernel dialects"). Returns NULL with diagnostics on error:
 * SIM-DIALECT-001 (no dialect has the file's suffix), SIM-DIALECT-002 (opt->dialect names none),
 * those of sim_read_file, and the dialect's own (PTX-*). *text_out (may be NULL) receives the
 * malloc'd file text. */
ir_module *sim_load_module(const char *path, const sim_options *opt, diag_list *dl,
                           char **text_out, size_t *len_out);

/* Reads a whole kernel file into a malloc'd, NUL-terminated buffer; *len receives its bytes.
 * Only a regular file of at most SIM_MAX_MODULE_BYTES is read (a FIFO or device is refused
 * without blocking). Returns NULL with SIM-IO-001 (cannot open or read), SIM-IO-002 (not a
 * regular file) or SIM-IO-003 (too large), naming `path`. */
char *sim_read_file(const char *path, size_t *len, diag_list *dl);

#endif
