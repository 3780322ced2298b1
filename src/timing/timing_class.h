/* Instruction classes of the timing model (docs/timing.md, "Pipes"; values in docs/presets.md):
 * which execution pipe an IR instruction uses, its result latency and the pipe's issue interval,
 * from the preset.
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
    TIMING_PIPE_SFU,    /* MUFU: rcp, sqrt, sin, cos, ex2, lg2; conversions of 64-bit types */
    TIMING_PIPE_TENSOR, /* mma, wmma */
    TIMING_PIPE_BRANCH, /* branches, calls, returns, exit, barriers' issue */
    TIMING_PIPE_MEM,    /* every instruction that sends a mem_access (timing_mem says when) */
    TIMING_PIPE_COUNT
} timing_pipe;

typedef struct timing_cost {
    uint8_t pipe;       /* timing_pipe */
    uint16_t latency;   /* cycles from issue until a dependent instruction may issue (ALU
                           pipes; for MEM the cycles before the access reaches the LSU) */
    uint16_t interval;  /* cycles the pipe of one scheduler is busy per warp instruction
                           (32 lanes / lanes per cycle of the pipe) */
    uint8_t variable;   /* 1: variable latency (SFU, FP64 on consumer parts, MEM): a dependent
                           waits as SHORT_SCOREBOARD (MEM: per timing_mem_reply), else WAIT */
} timing_cost;

/* The cost of instruction `in` on GPU `cfg` (both borrowed). Never fails: an op the tables do
 * not name gets the integer pipe's cost. */
timing_cost timing_cost_of(const gpu_config *cfg, const ir_insn *in);

#endif
