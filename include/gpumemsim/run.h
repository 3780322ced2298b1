/* gpumemsim: running launch files (docs/launch-files.md) through the public API (docs/api.md,
 * "Launch files").
 *
 * gms_run_file does what `gpumemsim run LAUNCH.json` does: it loads the launch file, creates the
 * device it names, loads its module, checks every launch against the kernel and the GPU,
 * allocates and fills the buffers, runs the launches in order, checks the expectations and writes
 * the outputs and the JSON report all-or-nothing. It is built on gpumemsim.h alone; the run keeps
 * its device, so every query of gpumemsim.h (statistics, faults, printf output, reports) applies
 * to it. */
#ifndef GPUMEMSIM_RUN_H
#define GPUMEMSIM_RUN_H

#include "gpumemsim/gpumemsim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gms_run gms_run;

typedef struct gms_run_options {
    const char *preset;        /* borrowed: preset overriding the launch file's "gpu"; NULL: keep
                                  (an unknown name is blamed on the flag "--gpu") */
    const char *config_path;   /* borrowed: configuration override file (--config); NULL: the
                                  launch file's "config", if any */
    uint64_t max_instructions; /* per launch; 0: the launch file's or the default 2000000000 */
    uint32_t quantum;          /* warp instructions per scheduling turn; 0: 256 */
    int strip_hints;           /* run with every cache hint treated as the default */
    int poison_discard;        /* discarded L2 lines read back as 0xFF bytes */
    int misaligned_errors;     /* report misaligned local/shared addresses of kernels whose
                                  window errors do not fault (GMS_SET_MISALIGNED_ERRORS) */
    int strict_hazards;        /* register hazards of the issue controls are kernel faults
                                  (GMS_SET_STRICT_HAZARDS) */
    int no_timing;             /* 1: functional mode, no timing model (GMS_SET_TIMING 0) */
    int scheduler;             /* timing model's warp scheduler: 0 GTO, 1 LRR (GMS_SET_SCHEDULER) */
    uint32_t threads;          /* host threads for functional launches (GMS_SET_THREADS); 0: one
                                  per CPU online */
    gms_progress_fn progress;  /* NULL: none; gms_progress.launch and .nlaunches count the
                                  launches of the launch file */
    void *progress_user;       /* borrowed, passed to progress */
    const char *json_path;     /* borrowed: also write the JSON report here (--json); NULL: none */
} gms_run_options;

/* Runs the launch file at `path` (borrowed). *out (OUT, owned by the caller: gms_run_destroy)
 * receives the run whatever happened, so that its printf output and fault can be read; NULL only
 * when out of memory. Before anything runs, every output is checked to be a new or regular file
 * that is none of the inputs, in a folder that takes a new file (SIM-OUT-001..003); after the
 * last launch the outputs and the JSON report are written all or nothing, also when an
 * expectation failed or a kernel reported window errors; after a fault or an input error none
 * is (docs/launch-files.md, "Outputs"). Launches go on after one that reported window errors.
 * Returns GMS_OK; GMS_ERR_FAULT (a kernel faulted: gms_device_fault on gms_run_device);
 * GMS_ERR_KERNEL (a kernel reported window errors, as diagnostics; the outputs were written and
 * the expectations checked, which did not fail);
 * GMS_ERR_EXPECT (an expectation failed: gms_run_expect); GMS_ERR_INPUT (LAUNCH-*, SIM-OUT-*);
 * or any status of gpumemsim.h that a step returned, with its diagnostics. */
gms_status gms_run_file(const char *path, const gms_run_options *opt, gms_run **out,
                        gms_diag_list *dl);
/* Frees the run and its device. NULL is allowed. */
void gms_run_destroy(gms_run *r);

/* The run's device and module (borrowed from the run; NULL when the run stopped before making
 * them). */
gms_device *gms_run_device(const gms_run *r);
gms_module *gms_run_module(const gms_run *r);
/* Launches in the launch file (0 when it could not be loaded). */
size_t gms_run_launch_count(const gms_run *r);

/* One expectation's result (docs/launch-files.md, "Expectations"). */
enum { GMS_MISMATCHES_SHOWN = 10 };
typedef struct gms_expect_result {
    const char *buffer;   /* borrowed from the run */
    uint64_t elements;    /* compared */
    uint64_t mismatches;  /* elements outside tolerance */
    size_t shown;         /* entries of first[] used */
    struct {
        uint64_t index;
        char got[48], expected[48]; /* formatted as the element type prints */
    } first[GMS_MISMATCHES_SHOWN];
} gms_expect_result;
/* Expectations checked (0 when the run did not get that far), and result i into *out (OUT).
 * gms_run_expect returns GMS_OK or GMS_ERR_ARGUMENT. */
size_t gms_run_expect_count(const gms_run *r);
gms_status gms_run_expect(const gms_run *r, size_t i, gms_expect_result *out);
/* Output files of the launch file, written when gms_run_file returned GMS_OK, GMS_ERR_EXPECT
 * or GMS_ERR_KERNEL
 * (borrowed from the run; NULL for i out of range). */
size_t gms_run_output_count(const gms_run *r);
const char *gms_run_output_path(const gms_run *r, size_t i);

#ifdef __cplusplus
}
#endif

#endif
