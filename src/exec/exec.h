/* The executor: runs a kernel of a loaded module over a grid of CTAs of 32-lane warps on the SMs
 * of a GPU, with SIMT divergence and reconvergence, barriers, warp-synchronous operations, calls,
 * and every memory access sent through the memory system's access contract (mem/mem.h).
 *
 * Reconvergence: each warp runs the group of lanes with the lowest program counter; groups that
 * reach the same instruction merge. For the structured control flow compilers emit (forward
 * if/else, loops with backward branches, break, early return) this reconverges exactly at the
 * immediate post-dominator, without a precomputed CFG. Calls push a frame: the callee's lanes
 * reconverge at its return.
 *
 * Scheduling is deterministic: CTAs are dispatched in linear order to SMs round-robin up to the
 * occupancy limit; resident warps run in a fixed order, each for a quantum of instructions or
 * until it blocks at a barrier. exec_run runs those turns in phases so that the SMs can be
 * simulated on several host threads with the same results (exec_machine.host_threads;
 * exec_window.c, docs/architecture.md "SMs on several host threads"). */
#ifndef GMS_EXEC_EXEC_H
#define GMS_EXEC_EXEC_H

#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "ir/ir.h"
#include "mem/memsys.h"

typedef struct exec_program exec_program;

/* Prepares every function of `m` for execution: chooses the semantics of each instruction and
 * rejects any the executor cannot run (rule EXEC-UNSUP-001, naming the instruction and its line),
 * a machine (m->machine) it does not model yet (EXEC-UNSUP-005 register file, -006 condition
 * flags, -007 calling convention, -008 instruction size; EXEC-REG-001 a function with more
 * registers than the machine has), constant banks out of range (EXEC-CONST-001), and calls to
 * body-less functions that are not system calls of the machine (EXEC-EXTERN-001); docs/faults.md
 * "Modules the executor refuses".
 * `m` is borrowed and must outlive the program. Returns NULL when there were errors (reported to
 * dl) or when out of memory (EXEC-NOMEM-001). */
exec_program *exec_program_create(const ir_module *m, diag_list *dl);
void exec_program_destroy(exec_program *p);

/* The machine the kernel runs on. */
typedef struct exec_machine {
    uint32_t sm_count;          /* SMs */
    uint32_t max_threads_per_sm;
    uint32_t max_ctas_per_sm;
    uint32_t shared_bytes_per_sm; /* shared memory available for CTAs on one SM */
    uint32_t max_shared_per_cta;
    uint32_t shared_reserved_per_cta; /* bytes the system reserves per CTA (%reserved_smem_*) */
    uint32_t quantum;           /* warp instructions a warp runs before the next warp's turn */
    uint32_t host_threads;      /* exec_run: host threads that simulate the SMs (0 is 1); the
                                   results do not depend on it (docs/architecture.md, "SMs on
                                   several host threads") */
} exec_machine;

/* How far a running launch has got, for a progress display. */
typedef struct exec_progress {
    uint64_t warp_instructions; /* issued so far by this launch */
    uint32_t ctas_done;         /* CTAs that finished */
    uint32_t ctas_total;        /* CTAs in the grid */
} exec_progress;

/* Called by exec_run between scheduling rounds (never inside an instruction), at most once per
 * EXEC_PROGRESS_INSTRUCTIONS warp instructions issued, so the hook costs the simulation
 * nothing measurable; it reads the clock itself if it wants to throttle further. `p` is
 * borrowed for the call; `user` is exec_launch.progress_user. It must not call the executor. */
typedef void (*exec_progress_fn)(const exec_progress *p, void *user);
#define EXEC_PROGRESS_INSTRUCTIONS (1u << 18)

/* Called right after the memory system performed warp-level access `a` (its results filled:
 * levels, served sectors), from inside the instruction that sent it, before the instruction
 * goes on. `a` is borrowed for the call; `user` is exec_launch.access_user. The timing model
 * uses it to time the access (docs/timing.md, "Model"); it must not call the executor. */
typedef void (*exec_access_fn)(const mem_access *a, void *user);

/* One kernel launch. */
typedef struct exec_launch {
    int entry;                  /* function index of the .entry in the module */
    uint32_t grid[3], block[3]; /* CTAs per grid and threads per CTA, each dimension >= 1 */
    uint32_t dynamic_shared_bytes;
    const uint8_t *params;      /* borrowed: parameter block laid out as ir_func.params say */
    uint32_t params_bytes;
    uint64_t max_warp_instructions; /* runaway limit for this launch; 0: unlimited */
    exec_progress_fn progress;  /* NULL: no progress reports */
    void *progress_user;        /* borrowed, passed to progress */
    int misaligned_errors;      /* 1: under IR_WINDOW_ZERO, a misaligned local or shared address
                                   (aligned down) is also an error, EXEC-WINDOW-002 */
    uint8_t strict_hazards;     /* 1: on machines with scoreboards, a register read before the
                                   write scoreboard of an earlier instruction writing it was
                                   waited on, or written while the read scoreboard of one
                                   reading it is pending, is a fault (EXEC-HAZARD-001/002,
                                   docs/architecture.md "Issue controls") */
    const uint32_t *image_pool; /* borrowed: on a machine with an image bank (has_image_bank),
                                   the header-pool words written over the module's data of
                                   constant bank image_bank from byte 0 for this launch
                                   (docs/images.md, "Header pool"); NULL: none */
    uint32_t image_pool_words;
    uint64_t heap_base;         /* the device heap's global address (malloc/free system calls,
                                   docs/semantics.md "Device heap"); 16-byte aligned */
    uint64_t heap_bytes;        /* its size; 0: every malloc returns NULL */
    uint32_t helper_lanes;      /* lanes (bit l: lane l of every warp) standing for pixel-shader
                                   helper or killed pixels: SUATOM does nothing for them (seed
                                   004; docs/images.md, "Helper and killed lanes"); 0: none */
    uint64_t grid_sync_base;    /* a cooperative launch's grid-sync workspace (global address,
                                   128 bytes, zero when allocated), which %envreg1:%envreg2 hand to
                                   cooperative groups (docs/semantics.md, "Grid-wide sync");
                                   0: not a cooperative launch */
    exec_access_fn on_access;   /* NULL: none; else called after every warp-level access */
    void *access_user;          /* borrowed, passed to on_access */
    const uint64_t *clock;      /* borrowed: NULL, %clock/%clock64/%globaltimer count the warp
                                   instructions issued so far; else they read the cycle kept
                                   here (the timing model's current cycle) */
} exec_launch;

/* Where a kernel faulted. */
typedef struct exec_fault {
    int faulted;                /* 0 when the launch completed */
    const char *rule;           /* static rule id of the fault, e.g. "EXEC-MEM-001" */
    char message[512];          /* e.g. "invalid global read of size 4 at 0x7f0000001000" */
    uint32_t insn_id;           /* static instruction id (ir_module_insn_by_id) */
    uint32_t ctaid[3], tid[3];  /* first faulting thread */
    uint32_t ptx_line, ptx_col; /* line and column (1-based, bytes) of the instruction in the
                                   kernel text */
    uint32_t loc_file, loc_line;/* source line from .loc, 0 when unknown */
} exec_fault;

/* An error a kernel of a IR_WINDOW_ZERO machine reported without stopping (docs/faults.md,
 * "Window errors"): one warp-level access whose lanes `lanes` went outside their local or shared
 * window (EXEC-WINDOW-001) or were misaligned (EXEC-WINDOW-002, with exec_launch.
 * misaligned_errors). The thread and address are those of the lowest of the lanes. */
typedef struct exec_error {
    const char *rule;           /* static: "EXEC-WINDOW-001" or "EXEC-WINDOW-002" */
    char message[200];          /* what happened, e.g. "local load of 4 bytes at window offset
                                   0x100 is outside the 256-byte local allocation: it read 0" */
    uint32_t insn_id;           /* static instruction id */
    uint32_t line, col;         /* the instruction's position in the kernel text */
    uint32_t lanes;             /* lanes of the access with this error */
    uint32_t ctaid[3], tid[3];  /* the lowest such lane's thread */
    uint64_t address;           /* its address as the instruction computed it */
} exec_error;
enum { EXEC_ERRORS_KEPT = 8 };

/* Counters of one launch (the memory system keeps its own). */
typedef struct exec_stats {
    uint64_t warp_instructions;   /* warp-level instructions issued */
    uint64_t thread_instructions; /* sum over issued instructions of the active lanes */
    uint64_t thread_instructions_pred_on; /* of those, the lanes whose guard predicate was true
                                     (all of them for an unguarded instruction) */
    uint64_t printf_bad_strings;  /* device printf %s arguments that were NULL, unreadable or
                                     unterminated (docs/semantics.md, "Device printf") */
    uint64_t *insn_executions;    /* owned by the program: per static instruction id, warp-level
                                     executions accumulated over all launches of the program */
    uint64_t window_errors;       /* lanes with a window error (exec_error), all accesses */
    uint32_t nerrors;             /* entries of errors[] used: the first accesses with one */
    exec_error errors[EXEC_ERRORS_KEPT];
} exec_stats;

/* Runs one launch to completion on `ms`. Window errors (exec_error) do not stop it: they are
 * counted and the first kept in *stats, which the caller zeroes before the launch. Device printf
 * output is appended to *printf_out (a malloc'd, NUL-terminated buffer the caller frees; may be
 * NULL on entry), ordered by CTA, then warp, then call order, then lane. Returns 0 when the kernel completed; 1 when it faulted (details
 * in *fault; memory may be partially updated, as on a GPU); -1 when host memory ran out: then
 * fault->faulted is 0 and fault->rule and fault->message say what could not be allocated and how
 * much (EXEC-NOMEM-003: the register files of the resident warps, per warp and in total;
 * EXEC-NOMEM-004: anything else; docs/faults.md "Host memory"). */
int exec_run(exec_program *p, memsys *ms, const exec_machine *machine, const exec_launch *launch,
             exec_stats *stats, exec_fault *fault, char **printf_out);

/* ---- stepping: one warp instruction at a time (the timing model's side of the executor) ----
 * exec_run is exec_session_open, a loop that starts CTAs and steps their warps, and
 * exec_session_close. A caller that orders the warps itself (src/timing/) uses the same three
 * parts: it opens a session, starts CTAs in resident slots as it chooses, steps warps with
 * exec_step, retires CTAs whose warps are all done, and closes the session. Values, faults,
 * printf output and counters are the executor's own in both ways; only the order in which the
 * warps' instructions run differs. */
typedef struct exec_run_state exec_session;
typedef struct exec_warp exec_warp;

/* Warp states as exec_step reports them. */
typedef enum exec_warp_status {
    EXEC_WARP_READY,    /* may issue its next instruction */
    EXEC_WARP_BARRIER,  /* blocked at a CTA barrier until the other warps arrive */
    EXEC_WARP_DONE,     /* every lane exited */
    EXEC_WARP_FAULTED,  /* stopped by a fault (the session's fault says which) */
    EXEC_WARP_YIELD,    /* polled an mbarrier phase that is still open: ready, but let others
                           run first (exec_warp_resume makes it READY) */
    EXEC_WARP_MBARRIER  /* asleep in an mbarrier try_wait until its phase completes */
} exec_warp_status;

/* What one exec_step did, besides its result's flags (EXEC_STEP_*). ctrl, active and pred_on
 * are set only when insn is not NULL. */
typedef struct exec_step_info {
    const ir_insn *insn;   /* the instruction it issued (NULL: none; the warp was not READY or
                              the launch stopped) */
    const ir_insn *next;   /* the instruction the warp issues next, what exec_warp_next says
                              after the step (NULL: it is not READY or YIELD) */
    const ir_ctrl *ctrl;   /* its issue controls (SASS control codes), NULL when the module has
                              none (ir_machine.scoreboards == 0) */
    uint32_t active;       /* lanes of the running group that issued it */
    uint32_t pred_on;      /* of those, the lanes whose guard was true */
} exec_step_info;

/* exec_step's result: the warp's status after the step in the low byte, and flags, so that a
 * caller tests them in a register rather than reading stores of the step back from memory. */
enum {
    EXEC_STEP_STATUS = 0xffu,     /* mask of the exec_warp_status after the step */
    EXEC_STEP_COUNTED = 1u << 8,  /* it issued a warp instruction (not glue of the dialect's
                                     next one) */
    EXEC_STEP_FETCHED = 1u << 9,  /* the warp fetched a new instruction-cache line for it */
    EXEC_STEP_FETCH_MISS = 1u << 10, /* that fetch missed in the instruction cache */
    EXEC_STEP_WOKE = 1u << 11,    /* during the step a barrier of the warp's CTA completed or an
                                     mbarrier phase woke a sleeper, so other warps of the CTA
                                     may be READY again */
    EXEC_STEP_TAKEN = 1u << 12,   /* it was a control-flow instruction (branch, call, return)
                                     after which the warp, still READY, goes on elsewhere than at
                                     the next instruction of its function: a taken branch
                                     (docs/timing.md, "Pipes"); not for a branch that fell
                                     through, or whose running lanes are the ones that fell
                                     through after a divergence */
    EXEC_STEP_STOPPED = 1u << 13, /* the launch has stopped (exec_session_stopped): a fault or
                                     host memory, in this step or before it */
};

/* Launch shape of an open session. */
typedef struct exec_session_shape {
    uint32_t ctas_per_sm;   /* resident CTA slots per SM the executor allows (threads, CTAs,
                               shared memory); a caller may use fewer */
    uint32_t warps_per_cta;
    uint32_t total_ctas;    /* CTAs in the grid; exec_session_start_cta hands them out in linear
                               order */
    uint32_t regs_per_thread; /* the entry function's 64-bit register slots (an estimate of its
                                 hardware registers for occupancy; docs/timing.md) */
    uint32_t shared_bytes;  /* shared memory per CTA (static, dynamic, reserved) */
} exec_session_shape;

/* Prepares launch `launch` as exec_run does, up to its first CTA: same arguments, same checks
 * and faults (EXEC-LAUNCH-001/002), same host-memory failures (EXEC-NOMEM-003/004).
 * Returns 0 with *out (OUT) the session; 1 when the launch faulted before it started (*fault);
 * -1 when host memory ran out. On a non-zero return *out is NULL and nothing needs closing. */
int exec_session_open(exec_program *p, memsys *ms, const exec_machine *machine,
                      const exec_launch *launch, exec_stats *stats, exec_fault *fault,
                      exec_session **out);
void exec_session_shape_of(const exec_session *s, exec_session_shape *out);
/* Starts the grid's next CTA (linear order) in resident slot `slot` (0 .. ctas_per_sm-1) of SM
 * `sm`, which must be free. Returns 0, or -1 when host memory ran out (the session stops). */
int exec_session_start_cta(exec_session *s, uint32_t sm, uint32_t slot);
/* Warp `i` of the CTA in slot `slot` of SM `sm` (started, not yet retired). */
exec_warp *exec_session_warp(exec_session *s, uint32_t sm, uint32_t slot, uint32_t i);
/* Frees the slot of a CTA whose warps are all done. */
void exec_session_retire_cta(exec_session *s, uint32_t sm, uint32_t slot);
/* 1 once the launch faulted or host memory ran out: the caller stops stepping and closes. */
int exec_session_stopped(const exec_session *s);
/* mbarrier phases completed so far in the launch (for deadlock detection of polling loops). */
uint64_t exec_session_mbar_phases(const exec_session *s);
/* Records the fault of a launch in which no warp can go on (EXEC-BAR-004, EXEC-MBAR-*,
 * EXEC-BAR-005; docs/faults.md), as exec_run does. */
void exec_session_deadlock(exec_session *s);
/* Calls the launch's progress hook when EXEC_PROGRESS_INSTRUCTIONS more warp instructions were
 * issued since its last call; cheap otherwise. */
void exec_session_progress(exec_session *s);
/* Ends the session: collects device printf output into *printf_out (as exec_run) and frees
 * everything. Returns exec_run's 0, 1 or -1. */
int exec_session_close(exec_session *s, char **printf_out);

/* ---- parts: the SMs of a session stepped on several host threads (exec_part.c) ----
 * A part is a host thread's copy of the session's run state. A warp bound to a part
 * (exec_warp_bind) counts its warp and thread instructions and per-instruction executions in the
 * part, records its fault there, calls the part's access hook user and reads the part's clock;
 * its memory accesses go through the part's tally of the memory system (memsys_tally_view), so
 * it may run only work that stays in its SM (shared, constant and parameter accesses, instruction
 * fetches; no instruction with exec_xinsn.beyond_sm). Several threads may step warps of
 * different parts' SMs at once. For the rest, the caller binds the warp to the session itself
 * and steps it on one thread while no part steps. A part's runaway budget is unlimited until set.
 * The caller binds each warp after exec_session_start_cta (which binds it to the session). */
typedef struct exec_part exec_part;
/* A part of session s whose warps' access hook gets `access_user` and whose %clock reads
 * *clock (NULL: the session's). Returns NULL when host memory ran out. */
exec_part *exec_part_create(exec_session *s, void *access_user, const uint64_t *clock);
/* The part's run state, for exec_session_take_stop and the budget functions below. */
exec_session *exec_part_session(exec_part *p);
/* Adds the part's warp and thread instruction counts to the session's statistics and zeroes
 * them (one thread at a time, while no warp of the part steps). */
void exec_part_gather(exec_session *s, exec_part *p);
/* Gathers the part, adds its per-instruction executions and memory counters to the session's
 * and frees it (NULL: nothing). */
void exec_part_destroy(exec_session *s, exec_part *p);
/* Binds warp w to part p (NULL: to session s itself). */
void exec_warp_bind(exec_session *s, exec_warp *w, exec_part *p);
/* When a warp of run state s (a session, or a part's: exec_part_session) faulted or ran out of
 * host memory since the last call: copies the record into *out (OUT), clears it so that its
 * other warps may step on, and returns 1 (fault) or -1 (host memory); 0: nothing. */
int exec_session_take_stop(exec_session *s, exec_fault *out);
/* Stops session s with the record f (exec_session_take_stop's): a fault, or with oom 1 a
 * host-memory failure. Nothing when it stopped already. */
void exec_session_stop_with(exec_session *s, const exec_fault *f, int oom);
/* The warp instructions run state s may still issue before the runaway limit (EXEC-LIMIT-001):
 * set, and what is left. */
void exec_session_set_budget(exec_session *s, uint64_t budget);
uint64_t exec_session_budget(const exec_session *s);

/* Runs the next instruction of warp `w` (status READY) and says what it did in *info (OUT) and
 * in its result: the warp's status after the step (result & EXEC_STEP_STATUS, an
 * exec_warp_status) with the EXEC_STEP_* flags. A warp that is not READY issues nothing
 * (info->insn NULL, no flag but STOPPED). Faults and the instruction limit (EXEC-LIMIT-001)
 * stop the session as in exec_run. */
uint32_t exec_step(exec_warp *w, exec_step_info *info);
/* The warp's status now (barrier and mbarrier waits end when other warps act). */
exec_warp_status exec_warp_status_of(const exec_warp *w);
/* The instruction a READY or YIELD warp issues next (NULL otherwise); its guard and operands
 * name the register slots it reads, for a scoreboard. */
const ir_insn *exec_warp_next(const exec_warp *w);
/* The issue controls of the instruction exec_warp_next names, or when that is glue, of the
 * first instruction after it that is not (whose issue steps the glue too); NULL when it names
 * none or the module has no controls. */
const ir_ctrl *exec_warp_next_ctrl(const exec_warp *w);
/* Makes a YIELD warp READY again. */
void exec_warp_resume(exec_warp *w);
/* A hint, for a caller that knows which warp it will step soon: asks the host CPU to bring
 * what exec_step reads first of warp `w` (NULL: nothing) into its caches. Changes nothing. */
void exec_warp_prefetch(const exec_warp *w);

/* 1 when the module of `p` declares malloc or free as system calls (IR_SYSCALL_MALLOC/FREE), so
 * its launches need a device heap (exec_launch.heap_base); 0 otherwise. */
int exec_program_uses_heap(const exec_program *p);

/* Bytes of shared memory each CTA of any kernel of `p` holds before its dynamic shared memory:
 * the static .shared variables of the module and of every function, rounded up to 16. A launch
 * needs this plus its dynamic shared bytes per CTA. */
uint32_t exec_program_static_shared_bytes(const exec_program *p);

/* Moves the program's code, which starts at instruction address 0, to start at `origin` (bytes, a
 * multiple of 128), so that modules sharing a device do not share instruction-cache lines
 * (docs/api.md, "Modules"). Call once, before the first launch. Returns the code's bytes (a
 * multiple of 128): where the next module's code may start, after origin. */
uint64_t exec_program_place_code(exec_program *p, uint64_t origin);

/* 64-bit register slots per lane that a frame of function `func` (an index into the module's
 * functions) holds: the registers its instructions reference, those whose live ranges do not
 * overlap sharing a slot (docs/architecture.md, "Registers"). A warp's register file is this
 * many slots x 32 lanes x 8 bytes. 0 for a function without a body or out of range. */
uint32_t exec_program_register_slots(const exec_program *p, uint32_t func);
/* The instructions of function `func` as the executor runs them (the module's with register
 * numbers replaced by slots): those exec_step reports (exec_step_info.insn). *n (OUT) gets their
 * count; NULL and 0 for a function without a body or out of range. */
const ir_insn *exec_program_insns(const exec_program *p, uint32_t func, uint32_t *n);

/* Allocates and initialises the module's .global variables in `ms` and installs its .const bank,
 * as the first exec_run on `ms` does (runs after it find them in place): for callers that read
 * or write module variables before a launch. Returns 0; 1 with *fault (EXEC-NOMEM-002: the
 * device's address space ran out); -1 when host memory ran out. */
int exec_program_bind(exec_program *p, memsys *ms, exec_fault *fault);

/* Where module variable `var` (an index into the module's vars) lives: a .global variable's
 * device address once bound (exec_program_bind; 0 before), a .const variable's byte offset in
 * the constant bank. */
uint64_t exec_program_var_location(const exec_program *p, uint32_t var);

/* Copies `bytes` between `buf` and the program's constant bank at byte `offset`: into the bank
 * (exec_program_write_const, which also installs the changed bank in `ms` when the program is
 * bound to it; ms may be NULL) or out of it (exec_program_read_const). Returns 0, or -1 when the
 * range is outside the bank or host memory ran out. */
int exec_program_write_const(exec_program *p, memsys *ms, uint64_t offset, const void *buf,
                             uint64_t bytes);
int exec_program_read_const(const exec_program *p, uint64_t offset, void *buf, uint64_t bytes);

/* Per-instruction execution counts accumulated so far (indexed by static id, ninsns_total
 * entries). */
const uint64_t *exec_program_insn_counts(const exec_program *p);

#endif
