/* The handles of the public API (include/gpumemsim/gpumemsim.h) and what the files implementing it
 * (gms_diag.c, gms_device.c, gms_module.c, gms_launch.c, gms_stats.c) share. Nothing outside
 * src/sim/ includes this header. */
#ifndef GMS_SIM_GMS_INTERNAL_H
#define GMS_SIM_GMS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "config/gpu_config.h"
#include "exec/exec.h"
#include "gpumemsim/gpumemsim.h"
#include "ir/ir.h"
#include "mem/mem_stats.h"
#include "mem/memsys.h"
#include "sim/gms_diag.h"
#include "timing/timing.h"

/* A device allocation, for the check that host writes go to memory no launch may have cached
 * (API-MEM-002). */
typedef struct gms_alloc {
    uint64_t addr, bytes;
    size_t launches_before; /* launches that had run when it was made */
} gms_alloc;

/* One launch that ran. */
typedef struct gms_launch_record {
    const char *kernel; /* borrowed from the module */
    const gms_module *module; /* the module launched */
    uint32_t grid[3], block[3];
    uint64_t warp_instructions, thread_instructions, printf_bad_strings;
    uint64_t thread_instructions_pred_on;
    timing_stats timing;  /* timing.enabled 0: functional mode */
    mem_counters counters;
    double seconds;
    int faulted;
    uint64_t window_errors; /* exec_stats.window_errors */
} gms_launch_record;

/* GMS_SET_THREADS's largest value. */
enum { SIM_MAX_THREADS = 1024 };

struct gms_device {
    gpu_config gpu;
    memsys *ms;           /* NULL until the first operation that needs memory */
    memsys_config mc;     /* valid once ms exists */
    gms_module **modules; /* owned, in load order (docs/api.md, "Modules") */
    size_t nmodules, modules_cap;
    uint32_t ninsns_total; /* the modules' instructions: the next one's ids start here */
    uint64_t code_end;    /* the modules' instruction bytes: the next one's code starts here */
    /* settings */
    uint64_t max_instructions;
    uint32_t quantum;
    int strip_hints, poison_discard;
    int misaligned_errors; /* GMS_SET_MISALIGNED_ERRORS */
    int strict_hazards;
    int synced_writes;   /* GMS_SET_SYNCED_WRITES */
    int timing;          /* GMS_SET_TIMING */
    int scheduler;       /* GMS_SET_SCHEDULER: timing_policy */
    uint32_t threads;    /* GMS_SET_THREADS: 0 is one per CPU online */
    timing_model *tm;    /* owned; created by the first timed launch */
    uint32_t shared_per_cta;
    int has_persisting;
    uint64_t persisting_request;  /* bytes asked for */
    uint64_t l2_persisting_bytes; /* in effect */
    uint64_t heap_bytes;  /* GMS_SET_HEAP_BYTES */
    uint64_t heap_base;   /* the device heap's region; 0 until a launch needs one */
    uint64_t heap_region_bytes; /* its size */
    uint64_t grid_sync_base; /* cooperative launches' grid-sync workspace; 0 until one needs it */
    gms_progress_fn progress;
    void *progress_user;
    /* memory */
    gms_alloc *allocs;
    size_t nallocs, allocs_cap;
    int dirty; /* a launch ran since the last flush */
    /* images (gms_image.c): the header pool's words, pool[slot] = header index (0: none) */
    uint32_t *image_pool;
    uint32_t image_pool_words;
    int has_image_pool_max;
    uint32_t image_pool_max;
    /* launches */
    gms_launch_record *launches;
    size_t nlaunches, launches_cap;
    exec_fault fault;     /* of the latest launch */
    int last_faulted;
    char *printf_text;    /* owned; NULL when none */
};

struct gms_module {
    gms_device *dev;
    char *path;           /* owned copy */
    char *text;           /* owned copy of the module text, for quoting lines */
    size_t text_len;
    ir_module *ir;        /* owned */
    exec_program *program; /* owned */
    int vars_listed;      /* the bound .global variables are in dev->allocs */
    uint32_t insn_base;   /* device-wide id of its instruction 0 (gms_device_report) */
    timing_insn_stalls *stalls; /* owned, ir->ninsns_total entries once a timed launch ran:
                                   per instruction stall cycles over its launches */
};

/* gms_device.c: creates the device's memory system on first use, with the settings made so far.
 * Returns GMS_OK, GMS_ERR_CONFIG (MEM-*, SIM-SHARED-001) or GMS_ERR_NOMEM, with a diagnostic. */
gms_status gms_device_memory(gms_device *dev, diag_list *dl);
/* Records an allocation made outside gms_device_alloc (module variables). Returns 0 or -1 when
 * out of memory. */
int gms_device_note_alloc(gms_device *dev, uint64_t addr, uint64_t bytes);
/* Checks that [addr, addr + bytes) is inside one allocation (API-MEM-001, GMS_ERR_RANGE) and,
 * when `writing`, that no launch ran since it was made (API-MEM-002, GMS_ERR_STATE). `call`
 * names the API call in messages. */
gms_status gms_device_check_range(const gms_device *dev, uint64_t addr, uint64_t bytes,
                                  int writing, const char *call, diag_list *dl);
/* The copies of gms_device_write / gms_device_read after their checks. */
gms_status gms_device_copy_in(gms_device *dev, uint64_t addr, const void *src, uint64_t bytes,
                              diag_list *dl);
gms_status gms_device_copy_out(gms_device *dev, uint64_t addr, void *dst, uint64_t bytes,
                               diag_list *dl);

/* gms_module.c: frees a module (one of the device's). */
void gms_module_free(gms_module *m);
/* Creates the device's memory system if needed, then allocates the module's .global variables
 * and installs its .const bank (as its first launch would) and records the variables as
 * allocations for the range checks of host copies. Returns GMS_OK, or as gms_device_memory, or
 * GMS_ERR_NOMEM (EXEC-NOMEM-002, SIM-NOMEM-001). */
gms_status gms_module_bind(gms_module *m, diag_list *dl);
/* The same on a device whose memory system exists, reporting as exec_run does: 0, 1 with *fault
 * (EXEC-NOMEM-002), or -1 when host memory ran out. */
int gms_module_bind_vars(gms_module *m, exec_fault *fault);

/* gms_image.c: the image table's pool maximum for the coming launch, and its header pool
 * (*pool, *words: NULL, 0 when none) when the machine of m (the module launched) has one. */
void gms_image_prepare_launch(gms_device *dev, const gms_module *m, const uint32_t **pool,
                              uint32_t *words);
/* gms_image.c: sets header-pool word `slot` (0 to 8191) to `word` (samplerPtr | headerPtr),
 * growing the pool. Returns GMS_OK, GMS_ERR_ARGUMENT (slot out of range) or GMS_ERR_NOMEM, with
 * a diagnostic naming `call`. */
gms_status gms_image_pool_set(gms_device *dev, uint32_t slot, uint32_t word, const char *call,
                              diag_list *dl);
/* Clears every header-pool word equal to `word` (a freed image's or texture's handle, as its pool
 * entry), so that a kernel reaching it through a slot sees an invalid header. */
void gms_image_pool_forget(gms_device *dev, uint32_t word);

/* gms_stats.c: copies memory counters into the public struct. */
void gms_counters_from_mem(gms_counters *out, const mem_counters *c);

#endif
