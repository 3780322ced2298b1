/* Executor internals shared by the files of src/exec/: decoded instructions, warps, frames, CTAs
 * and the run state. Not part of the executor's interface (exec.h). */
#ifndef GMS_EXEC_EXEC_INTERNAL_H
#define GMS_EXEC_EXEC_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "exec/alu.h"
#include "exec/exec.h"
#include "mem/mem.h"
#include "mem/memsys.h"

/* Function "addresses" for indirect calls: a range that no memory window uses. */
#define FUNC_ADDRESS_BASE 0x0000500000000000ull

enum { LANES = 32, FULL_MASK = 0xFFFFFFFFu, BARRIER_IDS = 16, LOCAL_CALL_RESERVE = 16384 };
/* Launch constants: byte offsets in constant bank 0 of the values a launch puts there when its
 * machine reads kernel parameters from a bank (ir_machine.params_in_bank; docs/architecture.md,
 * "Launch constants"). 32-bit words: the block and grid sizes, the per-thread local bytes of the
 * entry function (SASS sm_5x code starts its stack pointer R1 there) and the shared bytes per
 * CTA. EXEC_LC_BYTES: the bytes the launch constants take. */
enum {
    EXEC_LC_NTID_X = 0x0, EXEC_LC_NTID_Y = 0x4, EXEC_LC_NTID_Z = 0x8,
    EXEC_LC_NCTAID_X = 0xc, EXEC_LC_NCTAID_Y = 0x10, EXEC_LC_NCTAID_Z = 0x14,
    EXEC_LC_LOCAL_BYTES = 0x20, EXEC_LC_SHARED_BYTES = 0x24, EXEC_LC_BYTES = 0x28
};
/* Condition flags a warp holds (ir_machine.flag_count may not exceed it). */
enum { EXEC_MAX_FLAGS = 4 };

typedef struct exec_warp exec_warp;
typedef struct exec_xinsn exec_xinsn;
typedef struct exec_crs exec_crs;         /* a warp's call-return stacks (exec_crs.c) */
typedef struct exec_hazards exec_hazards; /* a warp's pending scoreboards (exec_hazard.c) */
typedef struct exec_async exec_async;     /* a warp's pending async copies (exec_async.c) */
typedef void (*exec_handler)(exec_warp *w, const exec_xinsn *x, uint32_t mask);

/* One instruction prepared for execution. */
struct exec_xinsn {
    exec_handler fn;
    alu_fn alu;               /* ALU semantics, when the handler uses them */
    const ir_insn *in;
    const uint64_t *imm[4];   /* 32-lane broadcast of IMM sources; NULL for other kinds */
    uint8_t is_ctrl;          /* the handler sets the next pc itself */
    uint8_t dst_bits;         /* declared width of dst[0]'s register (loads extend to it) */
    uint8_t dst_signed;       /* loads: sign-extend to dst_bits */
    uint8_t glue;             /* ir_insn.glue: not counted, fetched at its instruction's address */
    uint8_t serial;           /* it may touch what other SMs share (the memory system beyond the
                                 SM's instruction cache, the device heap, printf, the launch's
                                 clock): with SMs on several host threads it runs only while no
                                 other thread does (exec_window.c) */
    uint8_t may_park;         /* a load or store that is not serial but may park at run time: a
                                 load that would reach the L2, a store whose SM's log is full */
    uint8_t beyond_sm;        /* it may touch what other SMs share whenever it runs: serial, or a
                                 load or store not only of the SM's own spaces (shared, constant,
                                 parameter). The timing model runs such an instruction at the end
                                 of its cycle, after every SM's others (docs/timing.md, "Model") */
    uint8_t loop;             /* XL_* bits: what run_16's turn tests of the instruction, in
                                 one byte (exec_xinsn_loop_bits) */
    uint16_t run;             /* 0 with any of XL_BREAK; else how many instructions from this
                                 one on have none (at most UINT16_MAX): run_16's stretch */
    uint32_t aux;             /* handler-specific: a call's ir_syscall, memory flags, ... */
    uint32_t id;              /* in->id, where the executions are counted */
    uint32_t guard;           /* in->guard, with XL_GUARD */
    uint64_t fetch_line;      /* the instruction-cache line it is fetched from (its code address
                                 >> 7, exec_code_address), kept by exec_program_place_code */
};

/* exec_xinsn.loop: the instruction is serial (exec_xinsn.serial), runs in every live lane
 * (ir_insn.nomask), has a guard predicate (negated), may park (exec_xinsn.may_park), or sets the
 * next pc itself (exec_xinsn.is_ctrl). */
enum {
    XL_SERIAL = 1u,
    XL_NOMASK = 2u,
    XL_GUARD = 4u,
    XL_GUARD_NEG = 8u,
    XL_MAY_PARK = 16u,
    XL_CTRL = 32u,
    /* What ends run_16's stretch of instructions that run in the warp's active lanes, fall
     * through and touch no more than the warp's registers, its SM and its CTA. */
    XL_BREAK = XL_SERIAL | XL_NOMASK | XL_GUARD | XL_CTRL,
};

/* The XL_* bits of `x` from its fields and its instruction's (exec_decode.c sets them once the
 * instruction is decoded). */
static inline uint8_t exec_xinsn_loop_bits(const exec_xinsn *x)
{
    const ir_insn *in = x->in;
    return (uint8_t)((x->serial ? XL_SERIAL : 0u) | (in->nomask ? XL_NOMASK : 0u) |
                     (in->has_guard ? XL_GUARD : 0u) |
                     (in->has_guard && in->guard_neg ? XL_GUARD_NEG : 0u) |
                     (x->may_park ? XL_MAY_PARK : 0u) | (x->is_ctrl ? XL_CTRL : 0u));
}

/* A function prepared for execution. */
typedef struct exec_func {
    const ir_func *ir;
    exec_xinsn *code;         /* ir->ninsns entries */
    ir_insn *insns;           /* owned: ir->insns with register numbers replaced by slots; code[i].in
                                 points here (the module itself is never changed) */
    ir_operand *xops;         /* owned: ir->xops, likewise */
    uint32_t reg_slots;       /* 64-bit register slots per lane a frame of this function holds */
    uint32_t param_area_bytes;/* per lane: own params, then return values, then body .param vars */
    uint32_t rets_offset;     /* where return values start in the param area */
    uint32_t *var_offsets;    /* per body var: offset in its area (param area, local frame or
                                 CTA shared memory) */
    uint32_t local_frame_bytes; /* per thread: this function's .local variables */
    uint32_t *ret_offsets;    /* per return value: offset in the param area */
    uint32_t *param_offsets;  /* per parameter: offset in the param area */
    uint64_t *imm_pool;       /* owned: the broadcast immediates of code[] */
    uint64_t code_base;       /* instruction address of the function's first instruction */
    uint32_t *fetch_offsets;  /* owned, ir->ninsns entries: the byte offset from code_base at
                                 which instruction i is fetched (exec_code_address) */
} exec_func;

/* Where instructions sit in the instruction address space (ir_machine): the k-th instruction of
 * a function that is not glue is at code_base + exec_insn_offset(layout, k), and a glue
 * instruction is fetched at the address of the instruction it serves (exec_func.fetch_offsets,
 * computed once when the module is prepared). */
typedef struct exec_insn_layout {
    uint32_t insn_bytes;      /* bytes per instruction */
    uint32_t ctrl_group;      /* 0, or instructions per control word */
    uint32_t ctrl_bytes;      /* bytes of a control word */
} exec_insn_layout;

/* Byte offset of instruction `pc` from its function's code_base: groups of ctrl_group
 * instructions each preceded by a control word, or plain consecutive instructions. */
static inline uint64_t exec_insn_offset(const exec_insn_layout *k, uint32_t pc)
{
    if (!k->ctrl_group)
        return (uint64_t)pc * k->insn_bytes;
    uint64_t group_bytes = k->ctrl_bytes + (uint64_t)k->ctrl_group * k->insn_bytes;
    return pc / k->ctrl_group * group_bytes + k->ctrl_bytes +
           (uint64_t)(pc % k->ctrl_group) * k->insn_bytes;
}

/* The code address of instruction `pc` of `fn` (a glue instruction: the address of the
 * dialect's instruction it serves). */
static inline uint64_t exec_code_address(const exec_func *fn, uint32_t pc)
{
    return fn->code_base + fn->fetch_offsets[pc];
}

struct exec_program {
    const ir_module *module;
    exec_func *funcs;
    uint64_t *insn_counts;    /* per static id */
    uint64_t *module_var_addr;/* per module var: global address, shared offset or const-window
                                 offset (its bank << MEM_CONST_BANK_SHIFT + offset in the bank) */
    uint8_t *const_bank;      /* module .const data of bank 0 */
    uint32_t const_bytes;
    uint8_t *bank_data[MEM_CONST_BANKS];  /* banks 1.. (index 0 unused: const_bank); NULL when
                                             the module puts nothing there */
    uint32_t bank_bytes[MEM_CONST_BANKS];
    exec_insn_layout layout;  /* the module's instruction layout (ir_machine) */
    uint8_t has_glue;         /* some instruction is glue: the run loop checks for it */
    uint32_t static_shared_bytes; /* module-scope .shared variables */
    uint64_t code_bytes;      /* instruction bytes of every function, each a multiple of 128 */
    uint32_t dynamic_shared_offset; /* where extern .shared arrays start */
    uint8_t uses_reserved_smem; /* some instruction reads a %reserved_smem_offset_* register: CTAs
                                   get the reserved shared region (exec_device.c) */
    int globals_ready;        /* module .global variables allocated in the memsys */
    memsys *globals_ms;       /* the memsys they live in */
    uint8_t *reg_arena;       /* register files lent to launches (mmap), reused across them */
    size_t reg_arena_bytes;
    uint8_t *slot_arena;      /* CTA slots' blocks lent to launches (mmap), reused across them */
    size_t slot_arena_bytes;
    uint8_t host_avx2;        /* exec_host_avx2() when the program was prepared: lane_addresses
                                 takes its AVX2 loop (exec_mem.c) */
};

/* The program's image of a const-window offset (bank << MEM_CONST_BANK_SHIFT + offset in the
 * bank) that lies inside its bank's data. */
static inline uint8_t *exec_const_byte(exec_program *p, uint64_t window_offset)
{
    uint64_t bank = window_offset >> MEM_CONST_BANK_SHIFT;
    uint64_t in_bank = window_offset & ((1ull << MEM_CONST_BANK_SHIFT) - 1);
    return (bank ? p->bank_data[bank] : p->const_bank) + in_bank;
}

typedef struct exec_group {
    uint32_t pc;
    uint32_t mask;
} exec_group;

/* A call frame: the function, its registers and per-lane parameter storage, and the lane groups
 * waiting inside it. */
typedef struct exec_frame {
    const exec_func *fn;
    uint64_t *regs;           /* fn->reg_slots x 32 lanes */
    uint32_t *preds;          /* npreds masks */
    uint8_t *params;          /* param_area_bytes x 32, lane-major */
    uint32_t regs_cap, preds_cap, params_cap; /* allocated sizes, reused across calls */
    exec_group *waiting;      /* sorted by pc, distinct pcs */
    uint32_t nwaiting, waiting_cap;
    uint32_t returned;        /* lanes that executed ret in this frame */
    uint32_t call_mask;       /* lanes that entered the frame */
    uint32_t ret_pc;          /* caller instruction to resume at */
    uint32_t call_pc;         /* caller's CALL instruction */
    uint32_t local_base;      /* per-thread local offset of this frame's variables */
    uint8_t borrowed;         /* regs/preds belong to the launch's register arena */
    uint8_t params_lent;      /* params belong to the CTA slot's block (the entry frame) */
} exec_frame;

/* WARP_YIELD: ready, but done with this scheduling round (an mbarrier wait that found its
 * phase open); WARP_MBARRIER: asleep in an mbarrier try_wait until its phase completes
 * (exec_mbarrier.c). */
typedef enum warp_state { WARP_READY, WARP_BARRIER, WARP_DONE, WARP_FAULTED, WARP_YIELD,
                          WARP_MBARRIER } warp_state;

/* A warp asleep in an mbarrier try_wait (WARP_MBARRIER), or the last poll of an open phase of a
 * warp that yielded (WARP_YIELD): the wait, its lanes, and per lane the barrier's shared offset
 * and what the lane waits for (exec_mbarrier.c). */
typedef struct exec_mbar_wait {
    const exec_xinsn *insn;   /* the try_wait: its predicate is written when the warp wakes */
    uint32_t lanes;           /* the lanes that executed it */
    uint32_t open;            /* of those, the ones whose phase has not completed yet */
    uint32_t offset[32];      /* per lane: the barrier's shared offset */
    uint64_t operand[32];     /* per lane: the state token, or the phase parity (.parity) */
} exec_mbar_wait;

typedef struct exec_cta exec_cta;
typedef struct exec_run_state exec_run_state;

struct exec_warp {
    uint32_t pc, active;      /* the running group */
    uint32_t live;            /* lanes that exist and have not exited */
    uint32_t next_wait_pc;    /* lowest pc among the waiting groups of the top frame */
    uint8_t state;            /* warp_state */
    uint8_t bar_id;           /* barrier the warp waits at */
    uint8_t bar_red_mode;     /* IR_BAR_RED_* or 0 */
    uint8_t frames_lent;      /* `frames` is the entry frame in the CTA slot's block
                                 (exec_device.c), not an allocation of its own */
    uint32_t bar_mask;        /* lanes blocked at the barrier */
    uint32_t bar_resume_pc;
    const ir_operand *bar_dst;/* bar.red destination */
    uint64_t *regs;           /* == top frame's */
    uint32_t *preds;
    const exec_xinsn *code;   /* == top frame's function code */
    uint64_t code_base;       /* == top frame's function code_base */
    const uint32_t *fetch_offsets; /* == top frame's function fetch_offsets */
    uint64_t fetch_line;      /* instruction line of the last fetch */
    exec_frame *frames;
    uint32_t depth, frames_cap; /* frames[depth-1] is the top */
    uint32_t warp_in_cta;
    uint32_t local_slot;
    uint32_t local_sp;        /* per-thread local bytes in use by frames */
    uint32_t printf_seq;
    exec_cta *cta;
    exec_run_state *run;
    mem_ctx mctx;             /* who this warp is, for the memory system */
    uint32_t flags[EXEC_MAX_FLAGS]; /* condition flag n (ir_insn.flag_in/out) is flags[n-1],
                                 a lane mask; PTX's carry is flag 1 */
    exec_crs *crs;            /* owned: the call-return stacks of the warp's threads; NULL until
                                 the warp first uses one */
    exec_hazards *hazards;    /* owned: pending scoreboards under --strict-hazards; NULL until
                                 first needed */
    exec_async *async;        /* owned: cp.async copies not yet landed; NULL until the warp
                                 first issues one */
    exec_mbar_wait *mbar;     /* owned: the try_wait the warp sleeps in (WARP_MBARRIER); NULL
                                 until the warp first waits (400 bytes that most warps never
                                 use, kept out of the CTA slots' warps) */
    uint32_t turn_left;       /* windowed scheduling (exec_window.c): instructions left of the
                                 warp's turn in the current round */
    uint8_t parked;           /* set by a load in a parallel phase that needs the L2: it did
                                 nothing, and the warp stops before it (exec_window.c) */
};

typedef struct exec_barrier {
    uint32_t arrived;         /* warps arrived */
    uint32_t expected;        /* warps needed; 0: all live warps of the CTA */
    uint32_t red_popc;
    uint32_t red_and, red_or;
} exec_barrier;

struct exec_cta {
    uint32_t ctaid[3];
    uint32_t linear;
    uint32_t sm;
    uint32_t slot;            /* resident slot on its SM */
    uint8_t *shared;
    uint32_t shared_bytes;
    uint8_t shared_own;       /* `shared` is an allocation of its own (not the slot block's end) */
    uint8_t block_lent;       /* the slot's block is in the launch's slot arena (not a malloc) */
    exec_warp *warps;
    uint32_t nwarps;
    uint32_t warps_done;
    uint32_t wakes;           /* barrier completions and mbarrier wake-ups so far (exec_step) */
    exec_barrier barriers[BARRIER_IDS];
    uint32_t bars_arrived;    /* bit b: barriers[b].arrived is not 0 (a warp's exit looks only
                                 at those, warp_next_group) */
};

typedef struct printf_record {
    uint32_t cta_linear, warp, seq, lane;
    char *text;
} printf_record;

/* The device heap's bookkeeping for one launch (exec_heap.c): the live blocks in address order
 * and the offsets of freed blocks that no block has reused, to tell a double free. */
typedef struct exec_heap_block {
    uint64_t offset, bytes; /* from the heap's base; bytes a multiple of 16 */
} exec_heap_block;
typedef struct exec_heap {
    exec_heap_block *live;
    uint32_t nlive, live_cap;
    uint64_t *freed;        /* sorted offsets */
    uint32_t nfreed, freed_cap;
} exec_heap;

struct exec_run_state {
    exec_program *prog;
    memsys *ms;
    const exec_machine *machine;
    const exec_launch *launch;
    const exec_func *entry;
    uint32_t threads_per_cta;
    uint32_t warp_lanes;      /* threads per warp: 32, or fewer for a module whose machine says
                                 so (a vISA thread of SimdSize lanes; docs/architecture.md,
                                 "Narrow warps"); lanes above it are never live */
    uint32_t local_bytes;     /* per thread */
    uint32_t warps_per_sm_slots;
    exec_stats *stats;
    exec_fault *fault;
    uint64_t *insn_counts;    /* per static id: where executions are counted (the program's, or
                                 a host thread's own, exec_window.c) */
    memsys_tally *tally;      /* NULL, or in a host thread's copy of the state (SMs in parallel,
                                 exec_window.c) the thread's memory counters; `ms` is then its
                                 view (memsys_tally_view) */
    uint64_t clock_now;       /* windowed scheduling: what %clock reads (warp instructions issued
                                 when the current serial phase began) */
    uint64_t budget;          /* remaining warp instructions before the runaway limit */
    int faulted, oom;
    printf_record *printfs;
    uint32_t nprintfs, printfs_cap;
    uint8_t *slot_busy;       /* per resident CTA slot: holds a running CTA */
    uint8_t *reg_arena;       /* entry-frame register files of all resident warps (borrowed) */
    size_t reg_arena_bytes, warp_regs_bytes, warp_preds_bytes;
    uint8_t reg_arena_fresh;  /* this launch mapped reg_arena: its pages are zero and untouched */
    uint32_t *reg_block;      /* per resident CTA slot (sm * ctas_per_sm + k): the register block
                                 of reg_arena (nwarps warps' entry files) its CTA uses: the
                                 slot's own, k * sm_count + sm, unless the functional window
                                 lent it another (exec_window.c, "register blocks") */
    uint8_t *reg_block_used;  /* per register block: some CTA of this launch used it */
    uint8_t *slot_arena;      /* the CTA slots' blocks, slot_block_bytes each (borrowed; NULL:
                                 each slot's block is a malloc) */
    size_t slot_block_bytes;
    mem_access acc;           /* scratch for memory instructions */
    uint32_t frames_local_end;/* per thread: local bytes call frames may use (local_bytes, or
                                 crs_base on a call-return-stack machine) */
    uint32_t crs_base;        /* per thread: local offset of call-return-stack entry 0 */
    uint8_t strict_hazards;   /* check the issue controls' scoreboards (exec_hazard.c) */
    uint8_t step_layout;      /* exec_step's loop for the launch (exec_step_layout_of), decided
                                 once at open instead of at every step */
    uint8_t step_ctrl;        /* the module has issue controls (ir_machine.scoreboards > 0):
                                 exec_step reports them (exec_step_info.ctrl) */
    exec_heap heap;           /* the device heap's blocks (exec_heap.c) */
    uint32_t reserved_smem_offset; /* shared offset of the CTA's reserved region (its bytes:
                                      reserved_smem_bytes; both 0 when the kernel has none) */
    uint32_t reserved_smem_bytes;
    uint64_t mbar_phases;     /* mbarrier phases completed so far (exec_mbarrier.c) */
    uint32_t mbar_polls;      /* warps whose turn in the current scheduling round ended
                                 polling an open mbarrier phase (WARP_YIELD) */
    const uint64_t *clock;    /* what %clock reads: the launch's clock or warp_instructions */
    /* resident CTAs (exec_device.c) */
    exec_cta **slots;         /* nslots = sm_count x ctas_per_sm; slot sm * ctas_per_sm + k */
    uint32_t nslots, ctas_per_sm, nwarps, shared_bytes;
    uint32_t total_ctas, next_cta, resident;
    uint64_t reported;        /* warp instructions at the last progress report */
};

/* exec_xinsn.aux of an instruction h_alu or exec_h_alu_plain runs: ALU_AUX_DIRECT, its one
 * destination is a register that no source reads, so that with every lane active the lane
 * function may write the register itself (exec_decode.c alu_aux). */
enum { ALU_AUX_DIRECT = 1u };

/* The ALU handlers of the common shapes (exec_alu_fast.c), chosen at decode: exec_h_alu_plain
 * for sources that are registers or immediates, one register destination and no flags;
 * exec_h_setp_int for setp of 32-bit integers without a combine operand (x->aux from
 * exec_decode.c setp_int_aux). The _avx2 builds blend or compare with AVX2 where
 * exec_program.host_avx2 says so, and otherwise do what the others do. */
void exec_h_alu_plain(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_alu_plain_avx2(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_setp_int(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_setp_int_avx2(exec_warp *w, const exec_xinsn *x, uint32_t mask);

/* exec_decode.c */
int exec_decode_program(exec_program *p, diag_list *dl);
/* The handler of a family of ir_ops.def (ALU and MOV: the one that calls exec_xinsn.alu), or NULL
 * when family is out of range. For the table self-tests: every family has one. */
exec_handler exec_family_handler(ir_family family);

/* exec_regalloc.c */
enum { EXEC_NO_SLOT = 0xFFFFFFFFu };
/* Maps the virtual registers of `fn` onto slots from their liveness (registers whose live ranges
 * do not overlap share one): slot_of[r] (fn->nregs entries, OUT) is register r's slot, or
 * EXEC_NO_SLOT when no instruction references it; *nslots (OUT) is the number of slots. Returns 0,
 * or -1 when out of memory. */
int exec_regalloc(const ir_func *fn, uint32_t *slot_of, uint32_t *nslots);

/* exec_mem_same.c: 0 (the default): a load of a kernel parameter by name that an observer watches
 * takes h_ld_param_observed; 1: h_ld_same, the general path. For the twin test of the two
 * (tests/unit/test_exec_param_observed.c); nothing else sets it. */
extern int exec_ld_param_general_only;
/* exec_mem.c: 0 (the default): a full warp's shared load of a 32-bit register plus an offset
 * without an observer takes mem_shared_load_reg32_quiet (h_ld_shared_quiet32); 1, when the
 * program is prepared: mem_shared_load_reg32 with the whole access record (h_ld_shared_reg).
 * For the twin test of the two (tests/unit/test_exec_shared_quiet.c); nothing else sets it. */
extern int exec_ld_shared_general_only;

/* exec_warp.c: the SIMT core */
/* The layouts that exec_step (and warp_run) tell apart: 16-byte instructions without control
 * words or glue; any other; any under --strict-hazards (exec_warp.c, step_one). */
enum { EXEC_LAYOUT_16, EXEC_LAYOUT_GENERAL, EXEC_LAYOUT_HAZARDS };
/* Which of them program p runs as, with strict_hazards (exec_run_state.strict_hazards). */
uint8_t exec_step_layout_of(const exec_program *p, int strict_hazards);
void warp_run(exec_warp *w, uint32_t quantum);
/* Runs warp w for at most `quantum` instructions on a host thread that shares the launch with
 * others (w->run is the thread's copy of the state, with its tally and memory view): stops
 * before an instruction marked serial and before a load that would reach the L2, leaving the
 * warp ready at it (parked). Returns the instructions executed. */
uint32_t warp_run_parallel(exec_warp *w, uint32_t quantum);

/* exec_window.c: the functional scheduler, SMs on one or several host threads */
/* Runs the session's launch to its end (every CTA done, a fault, a deadlock or no memory) with
 * `threads` host threads (1 or more; docs/architecture.md, "SMs on several host threads").
 * Results do not depend on `threads`. */
void exec_window_run(exec_run_state *rs, uint32_t threads);
/* exec_device.c, for exec_window.c */
int exec_start_cta(exec_run_state *rs, uint32_t sm, uint32_t k);
/* Initialises CTA `linear` of the grid in slot k of SM `sm` (rs->slots[sm * ctas_per_sm + k]),
 * leaving the slot's busy flag, rs->next_cta and rs->resident to the caller, which chose the
 * CTA. Only that slot's CTA, its warps and their part of the register arena are written (rs is
 * read), so different SMs may start CTAs on different threads at once (docs/architecture.md,
 * "SMs on several host threads"). Returns 0, or -1 when out of host memory, with err->oom set
 * and, if err->fault held no rule yet, EXEC-NOMEM-004 and its message there (the slot keeps
 * its earlier CTA, or none). */
int exec_init_cta(exec_run_state *rs, exec_run_state *err, uint32_t linear, uint32_t sm,
                  uint32_t k);
void exec_report_deadlock(exec_run_state *rs);
void warp_set_pc(exec_warp *w, uint32_t pc);
void warp_push_waiting(exec_warp *w, uint32_t pc, uint32_t mask);
void warp_retire_lanes(exec_warp *w, uint32_t mask);
void warp_next_group(exec_warp *w);
/* Stops the warp and, for the first fault of the launch, records `rule` (a static EXEC-* rule id,
 * docs/faults.md), the message and the faulting thread and instruction in the run's exec_fault. */
void warp_fault(exec_warp *w, const exec_xinsn *x, uint32_t lane, const char *rule,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A host thread's copy of run state rs (exec_window.c's workers, exec_part.c's parts; exec_part.c):
 * *copy gets rs with its own statistics *stats and fault record *fault (both zeroed), no fault,
 * no budget, its own per-instruction counts (copy->insn_counts) and a memory tally
 * (copy->tally), whose view is copy->ms. Returns 0, or -1 when host memory ran out (what was
 * made is in *copy, for exec_run_copy_fini). */
int exec_run_copy_init(exec_run_state *copy, const exec_run_state *rs, exec_stats *stats,
                       exec_fault *fault);
/* Adds the copy's per-instruction counts and memory tally (either may be NULL) to rs's, frees
 * them and clears copy->insn_counts and copy->tally. */
void exec_run_copy_fini(const exec_run_state *rs, exec_run_state *copy);
/* Moves a copy's warp and thread instruction counts into `to` (and zeroes them in `from`). */
void exec_stats_gather(exec_stats *to, exec_stats *from);
/* Records a host allocation failure: sets rs->oom (rs may be NULL) so that the launch stops, and
 * for the first failure puts `rule` (a static EXEC-NOMEM-* id, docs/faults.md) and the message,
 * which names what could not be allocated and how much, in *f; f->faulted stays 0, and exec_run
 * returns -1. */
void exec_oom(exec_run_state *rs, exec_fault *f, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const uint64_t *warp_src_slow(exec_warp *w, const exec_xinsn *x, int i, uint64_t *tmp);
/* Handlers exec_decode.c chooses for two shapes h_alu would otherwise run (same results):
 * exec_h_mov_sreg, a mov of a special register into a register, writes the register's lanes in
 * place (x->aux: the move's width, 32 or 64) instead of through the operand's temporary lanes
 * and the mov lane function; exec_h_pred_logic, and/or/xor/not of predicates (x->aux: the
 * opcode), combines the lane masks as 32-bit words instead of spreading each into 32 lanes of 0
 * or 1 and packing the result back. */
void exec_h_mov_sreg(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_pred_logic(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void warp_write_dst_slow(exec_warp *w, const ir_operand *d, const uint64_t *val, uint32_t mask);
uint64_t warp_symbol_address(exec_warp *w, uint32_t sym, ir_space *space);
int warp_frame_push(exec_warp *w, const exec_func *fn);

/* exec_mem.c */
/* The exec_xinsn.aux of ld, st, atom, red and the cache family, decided once at decode from the
 * machine `k`, the instruction and its function's register types (fn->reg_types): flags read by
 * the memory handlers (whether the address is 32-bit arithmetic, or its base a register pair);
 * 0 for every other case. */
uint32_t exec_mem_decode_aux(const ir_machine *k, const ir_func *fn, const ir_insn *in);
/* exec_mem_decode_aux's flags: EXEC_MEM_AUX_ADDR32, the address is [reg32 + imm] taken modulo
 * 2^32; EXEC_MEM_AUX_PAIR, its base is a register pair (vregs[0] low, vregs[1] high);
 * EXEC_MEM_AUX_SAME, no register in the address (every lane reads the same bytes). */
enum { EXEC_MEM_AUX_ADDR32 = 1u, EXEC_MEM_AUX_PAIR = 2u, EXEC_MEM_AUX_SAME = 4u };
/* 1 when the host CPU runs AVX2 and this build has exec_mem.c's AVX2 address loop (x86-64, GCC
 * or Clang, not already built for AVX2); exec_program_create keeps it in
 * exec_program.host_avx2. No errors. */
int exec_host_avx2(void);
void exec_h_ld(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* The handler of ld instruction x once exec_mem_decode_aux has set x->aux (exec_mem.c): for
 * loads whose lanes all read one address, h_ld_const_same (const space, one register) or
 * h_ld_same (one lane's access for the warp); for a 4-byte zero-extended or 8-byte load into
 * one register without a policy or fence, h_ld_scalar_global (global or generic: it may park
 * in a parallel phase after looking at its lowest lane), h_ld_scalar_shared (a full warp through
 * mem_shared_warp into the register; h_ld_shared_reg or h_ld_shared_quiet32 for a register plus
 * an offset) or h_ld_scalar; exec_h_ld otherwise. */
exec_handler exec_ld_handler(const exec_xinsn *x);
/* exec_ld_handler's choice for a load with EXEC_MEM_AUX_SAME (exec_mem_same.c): h_ld_const_same,
 * h_ld_param_same (a kernel parameter by name into one register) or h_ld_same. */
exec_handler exec_ld_same_handler(const exec_xinsn *x);
void exec_h_st(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_atom(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_prefetch(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_cvta(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_createpolicy(exec_warp *w, const exec_xinsn *x, uint32_t mask);

/* exec_sync.c: barriers and warp-wide operations */
void exec_h_bar(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_bar_warp(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_fence(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_shfl(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_vote(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_match(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_redux(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_activemask(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void cta_barrier_check(exec_cta *cta, uint32_t id);

/* exec_ctrl.c: branches, calls, returns */
void exec_h_bra(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_brx(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_call(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_ret(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_exit(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_trap(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_h_nop(exec_warp *w, const exec_xinsn *x, uint32_t mask);

/* exec_crs.c: the call-return stack (machine.call_conv == IR_CALL_RETURN_STACK) */
/* ssy, pbk, sync, brk, cal, ret.crs, setcrsptr, getcrsptr */
void exec_h_crs(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* exec_image.c: suld, sust, sured, suatom, suq: texel accesses through image objects
 * (docs/images.md) */
void exec_h_image(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* Coordinate element i (0..2) of an image or texture instruction's src[1] per lane, as 32-bit
 * patterns (c: 32 lanes, OUT); 0 when the operand has no such element (exec_image.c). */
void exec_image_coordinate(exec_warp *w, const exec_xinsn *x, unsigned i, uint32_t *c);
/* tex, tld4, txq: filtered reads through texture objects */
void exec_h_texture(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* exec_bulk.c: the bulk copies, their groups and the proxy fence (docs/semantics.md, "Bulk
 * copies and tensor maps"). */
void exec_h_bulk(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* exec_mem.c, for exec_image.c: memsys_access with the executor's fault and window-error
 * handling (0, or -1 after faulting the warp); the loaded data of `mask`'s lanes into dst[0]; the
 * value operand src[src_index] into acc->data. */
int exec_mem_access(exec_warp *w, const exec_xinsn *x, mem_access *acc);
void exec_mem_unpack(exec_warp *w, const exec_xinsn *x, uint32_t mask, const mem_access *acc);
void exec_mem_pack(exec_warp *w, const exec_xinsn *x, uint32_t mask, mem_access *acc,
                   int src_index);
/* exec_mem.c, for exec_async.c and exec_matrix.c: the 32 lanes' addresses (addr, OUT) of ADDR
 * operand `o` written in state space `written`, with exec_mem_decode_aux's flags `aux` for it;
 * returns the space they are in (a variable's, for a variable base). */
ir_space exec_mem_addresses(exec_warp *w, const ir_operand *o, ir_space written, uint32_t aux,
                            uint64_t *addr);
/* exec_matrix.c: ldmatrix, stmatrix, wmma.load/store/mma, mma.sync (docs/semantics.md, "Matrix
 * instructions"): warp-wide, every lane of the warp must execute them together (EXEC-MMA-001). */
void exec_h_matrix(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* Decode-time part of exec_decode_program for instruction `in` of module `m`: a call-return-stack
 * instruction on a machine without the stack is refused (EXEC-CRS-004, reported to dl), and a
 * cctl on the call-return stack's cache gets its handler in x->fn (NULL, refused as
 * EXEC-UNSUP-001 by the caller, unless it is the write-back of the whole cache,
 * CCTLL.CRS.WBALL). Returns the errors. */
int exec_crs_decode(const ir_module *m, const ir_insn *in, exec_xinsn *x, diag_list *dl);
/* The machine's stack sizes (crs_max 1..65536 entries per thread on a call-return-stack
 * machine) are ones the executor holds; else EXEC-CRS-004 at the module's target. Returns the
 * errors. */
int exec_crs_check_machine(const ir_module *m, diag_list *dl);
/* Empties the stacks of a warp that starts a new CTA; frees them with the warp. */
void exec_crs_reset(exec_warp *w);
void exec_crs_free(exec_warp *w);

/* exec_hazard.c: the issue controls' scoreboards under --strict-hazards */
/* Called before instruction x runs for the lanes in `mask` (its guard applied): applies its
 * waits, checks its register reads and writes against the pending scoreboards, and records the
 * scoreboards it sets. Returns 0, or 1 after a fault (EXEC-HAZARD-001/002) or a host allocation
 * failure; the instruction must then not run. */
int exec_hazard_issue(exec_warp *w, const exec_xinsn *x, uint32_t mask);
void exec_hazard_reset(exec_warp *w);
void exec_hazard_free(exec_warp *w);

/* exec_heap.c: the device heap (docs/semantics.md, "Device heap"). */
/* One malloc(size bytes): *addr (OUT) the block's global address, or 0 when size is 0 or no
 * free range of the heap holds it (first fit in address order, 16-byte granules). Returns 0,
 * or -1 when host memory ran out. */
int exec_heap_malloc(exec_run_state *rs, uint64_t size, uint64_t *addr);
enum { EXEC_HEAP_FREED, EXEC_HEAP_NOT_HEAP, EXEC_HEAP_DOUBLE_FREE, EXEC_HEAP_INTERIOR,
       EXEC_HEAP_NOT_BLOCK };
/* One free(addr): EXEC_HEAP_FREED when addr is 0 or the start of a live block (which is then
 * free); otherwise, changing nothing, EXEC_HEAP_NOT_HEAP (outside the heap), _DOUBLE_FREE (the
 * start of a block already freed), _INTERIOR (inside a live block) or _NOT_BLOCK (in free space).
 * Returns -1 when host memory ran out. */
int exec_heap_free(exec_run_state *rs, uint64_t addr);
/* Frees the bookkeeping; the heap is empty again. */
void exec_heap_release(exec_heap *h);

/* exec_async.c: cp.async, cp.async.commit_group, cp.async.wait_group/wait_all (docs/semantics.md,
 * "Asynchronous copies") */
void exec_h_async(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* The x->aux of an async-family instruction `in` of `fn` on machine `k`, decided at decode:
 * cp.async's exec_mem_decode_aux flags for its shared destination (bits 0..7) and its global
 * source (bits 8..15); 0 for the others. */
uint32_t exec_async_decode_aux(const ir_machine *k, const ir_func *fn, const ir_insn *in);
/* Lands every copy the warp still holds (its threads never waited for them), as its last
 * lanes finish; the shared stores are counted against the cp.async instructions. */
void exec_async_drain(exec_warp *w);
/* Forgets the pending copies and group counts of a warp that starts a new CTA; frees them with
 * the warp. */
void exec_async_reset(exec_warp *w);
void exec_async_free(exec_warp *w);

/* exec_printf.c */
int exec_vprintf(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint64_t fmt_lanes[32],
                 uint64_t args_lanes[32]);
void exec_assertfail(exec_warp *w, const exec_xinsn *x, uint32_t mask, const uint64_t *const *args);
char *exec_printf_collect(exec_run_state *rs);

/* A lane mask as 32 lanes of 0/1 (predicates, carry flags read by an instruction): four lanes
 * at a time from a table of the 16 nibbles. */
static inline void exec_mask_to_lanes(uint32_t m, uint64_t *out)
{
    static const uint64_t nibble[16][4] = {
        {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 1, 0},
        {0, 1, 1, 0}, {1, 1, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 1},
        {0, 0, 1, 1}, {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}};
    if (m == 0 || m == ~0u) { /* the common cases: no lane or every lane */
        for (unsigned l = 0; l < 32; l++) out[l] = m & 1u;
        return;
    }
    for (unsigned k = 0; k < 32; k += 4) memcpy(out + k, nibble[(m >> k) & 15u], sizeof nibble[0]);
}

/* The inverse: bit l of the result is bit 0 of lane l (predicate and carry results). Eight
 * lanes at a time: their bit 0s gathered into the bytes of one word, then into one byte by a
 * multiplication that moves byte j's bit 0 to bit 56 + j without carries. */
static inline uint32_t exec_lanes_to_mask(const uint64_t *v)
{
    uint64_t any = 0, all = 1;
    for (unsigned l = 0; l < 32; l++) {
        any |= v[l];
        all &= v[l];
    }
    if (!(any & 1u) || (all & 1u)) /* the common cases: no lane or every lane */
        return (all & 1u) ? ~0u : 0;
    uint32_t m = 0;
    for (unsigned k = 0; k < 32; k += 8) {
        uint64_t bytes = 0;
        for (unsigned j = 0; j < 8; j++) bytes |= (v[k + j] & 1u) << (8 * j);
        m |= (uint32_t)((bytes * 0x0102040810204080ull) >> 56) << k;
    }
    return m;
}

/* Set bits of a lane mask (0..32), inline (base/bits.h): without -mpopcnt __builtin_popcount is
 * a libgcc call, and the instruction loop counts the active lanes of every partial-mask
 * instruction. */
static inline uint32_t exec_lane_count(uint32_t m) { return bits_popcount32(m); }

/* 32 lanes of source operand i: registers and immediates inline, the rest computed into tmp. */
static inline const uint64_t *warp_src(exec_warp *w, const exec_xinsn *x, int i, uint64_t *tmp)
{
    const ir_operand *o = &x->in->src[i];
    if (o->kind == IR_OPND_REG)
        return w->regs + (size_t)o->reg * LANES;
    if (x->imm[i])
        return x->imm[i];
    return warp_src_slow(w, x, i, tmp);
}


/* Writes 32 result lanes to a destination operand for the lanes in `mask` (registers inline;
 * predicates are packed from 0/1 lanes). `bits` documents the result width; values arrive
 * already zero-extended. */
static inline void warp_write_dst(exec_warp *w, const ir_operand *d, const uint64_t *val,
                                  uint32_t mask, unsigned bits)
{
    (void)bits;
    if (d->kind == IR_OPND_REG) {
        uint64_t *r = w->regs + (size_t)d->reg * LANES;
        if (mask == FULL_MASK) {
            for (unsigned l = 0; l < LANES; l++) r[l] = val[l];
        } else {
            for (unsigned l = 0; l < LANES; l++) r[l] = ((mask >> l) & 1u) ? val[l] : r[l];
        }
        return;
    }
    warp_write_dst_slow(w, d, val, mask);
}

#endif
