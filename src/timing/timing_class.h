/* Instruction classes of the timing model (docs/timing.md, "Pipes"; values in docs/presets.md):
 * which execution pipe an IR instruction uses, its result latency and the pipe's issue interval,
 * from the preset (gpu_config.pipe).
 *
 * Owner: timing_class.c. Caller: timing.c. */
#ifndef GMS_TIMING_TIMING_CLASS_H
#define GMS_TIMING_TIMING_CLASS_H

#include <stdint.h>

#include "config/gpu_config.h"
#include "ir/ir.h"

typedef enum timing_pipe {
    TIMING_PIPE_INT,    /* integer and logic ALU, moves, predicates */
    TIMING_PIPE_FP32,   /* single-precision and half-precision arithmetic */
    TIMING_PIPE_FP64,   /* double precision */
    TIMING_PIPE_SFU,    /* MUFU: rcp, sqrt, sin, cos, ex2, lg2; conversions between integer and
                           floating point; divisions; warp shuffles, match, redux */
    TIMING_PIPE_TENSOR, /* mma, wmma */
    TIMING_PIPE_BRANCH, /* branches, calls, returns, exit, barriers' and fences' issue */
    TIMING_PIPE_MEM,    /* every instruction that sends a mem_access (timing_mem says when) */
    TIMING_PIPE_COUNT
} timing_pipe;

typedef struct timing_cost {
    uint8_t pipe;       /* timing_pipe */
    uint32_t latency;   /* cycles from issue until a dependent instruction may issue (ALU
                           pipes; BRANCH: until the warp's next instruction may issue; MEM: the
                           cycles until the instruction has read its source registers, when
                           its read scoreboard clears; the access's own latency counts from
                           issue and includes these cycles) */
    uint32_t interval;  /* cycles the pipe of one scheduler is busy per warp instruction
                           (32 lanes / lanes per cycle of the pipe); MEM: ticks of 1/schedulers
                           cycle the instruction holds the SM's memory-issue resource
                           (timing_pipe.h), not the scheduler's pipe */
    uint8_t variable;   /* 1: variable latency (SFU, FP64 on parts with a low-rate FP64 unit,
                           MEM): a dependent waits as SHORT_SCOREBOARD (MEM: per
                           timing_mem_reply), else WAIT */
} timing_cost;

/* FP64 counts as variable latency when its interval exceeds this many cycles (GPUs whose FP64
 * runs at 1/32 of FP32 or less: T4, GTX 980). */
enum { TIMING_FP64_VARIABLE_INTERVAL = 8 };

/* The cost of instruction `in` on GPU `cfg` (both borrowed): the pipe timing_pipe_of names and
 * that pipe's cfg->pipe latency and interval (docs/timing.md, "Pipes"); shared-memory accesses
 * take pipe.mem_shared_latency_cycles; an MMA of m*n*k multiply-adds scales the tensor interval
 * by m*n*k / 2048 (the m16n8k16 the keys describe; at least 1 cycle) and adds the extra cycles
 * to its latency. Never fails: an op the tables do not name gets the integer pipe's cost. */
timing_cost timing_cost_of(const gpu_config *cfg, const ir_insn *in);

/* The pipe of instruction `in` (borrowed), from its opcode, class and types alone. */
timing_pipe timing_pipe_of(const ir_insn *in);

/* "int", "fp32", "fp64", "sfu", "tensor", "branch", "mem"; "?" out of range. */
const char *timing_pipe_name(timing_pipe p);

#endif
