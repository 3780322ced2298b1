/* Which execution pipe each IR instruction uses, and its latency and issue interval from the
 * preset (docs/timing.md, "Pipes"; the values and their sources are in docs/presets.md, "pipe").
 *
 * The classes follow the units of an NVIDIA SM sub-partition: the integer ALU, the FP32 and FP64
 * units, the SFU (multi-function unit), the tensor cores, the branch unit and the load/store
 * path. The choice depends only on the opcode, its class and its types, so the PTX, SASS and
 * vISA front-ends share it. Dialect instructions that the hardware runs as several instructions
 * (an integer division, an f64 square root) are charged as one instruction of the pipe that does
 * the bulk of the work; docs/timing.md lists them under "Differences from hardware". */
#include "timing/timing_class.h"

static const char *const pipe_names[TIMING_PIPE_COUNT] = {
    "int", "fp32", "fp64", "sfu", "tensor", "branch", "mem",
};

const char *timing_pipe_name(timing_pipe p)
{
    return (unsigned)p < TIMING_PIPE_COUNT ? pipe_names[p] : "?";
}

/* The arithmetic pipe of a type: FP64, FP32 for the other floating-point types, else INT. */
static timing_pipe type_pipe(unsigned t)
{
    if (t == IR_T_F64)
        return TIMING_PIPE_FP64;
    return ir_type_is_float((ir_type)t) ? TIMING_PIPE_FP32 : TIMING_PIPE_INT;
}

/* cvt: anything touching f64 runs on the FP64 unit; integer <-> floating point conversions on
 * the SFU (a quarter-rate unit in the CUDA guide's throughput table); float <-> float on FP32;
 * integer width changes on the integer ALU. */
static timing_pipe cvt_pipe(const ir_insn *in)
{
    if (in->type == IR_T_F64 || in->type2 == IR_T_F64)
        return TIMING_PIPE_FP64;
    bool to_float = ir_type_is_float((ir_type)in->type);
    bool from_float = ir_type_is_float((ir_type)in->type2);
    if (to_float != from_float)
        return TIMING_PIPE_SFU;
    return to_float ? TIMING_PIPE_FP32 : TIMING_PIPE_INT;
}

static timing_pipe alu_pipe(const ir_insn *in)
{
    switch ((ir_opcode)in->op) {
    case IR_CVT:
        return cvt_pipe(in);
    case IR_RCP: case IR_SQRT: case IR_RSQRT: case IR_SIN: case IR_COS: case IR_LG2:
    case IR_EX2: case IR_TANH:
        return in->type == IR_T_F64 ? TIMING_PIPE_FP64 : TIMING_PIPE_SFU;
    case IR_DIV:
        return in->type == IR_T_F64 ? TIMING_PIPE_FP64 : TIMING_PIPE_SFU;
    case IR_REM:
        return TIMING_PIPE_SFU;
    case IR_SET:
        return type_pipe(in->type2);
    case IR_MOV: case IR_SELP: case IR_CVTA: case IR_CREATEPOLICY: case IR_AND: case IR_OR:
    case IR_XOR: case IR_NOT: case IR_CNOT: case IR_LOP3:
        return TIMING_PIPE_INT;
    default:
        return type_pipe(in->type);
    }
}

timing_pipe timing_pipe_of(const ir_insn *in)
{
    switch ((ir_opcode)in->op) {
    case IR_MMA: case IR_WMMA_MMA:
        return TIMING_PIPE_TENSOR;
    case IR_SHFL: case IR_MATCH: case IR_REDUX:
        return TIMING_PIPE_SFU;
    case IR_CP_ASYNC_MBAR_ARRIVE: /* an arrive-on in shared memory */
        return TIMING_PIPE_MEM;
    default:
        break;
    }
    switch ((ir_op_class)ir_opcode_class((ir_opcode)in->op)) {
    case IR_CLASS_ALU: return alu_pipe(in);
    case IR_CLASS_MEM: return TIMING_PIPE_MEM;
    case IR_CLASS_CTRL: return TIMING_PIPE_BRANCH;
    case IR_CLASS_SYNC: return TIMING_PIPE_BRANCH;
    case IR_CLASS_WARP: return TIMING_PIPE_INT; /* vote, activemask */
    case IR_CLASS_MISC: return TIMING_PIPE_INT; /* nanosleep, depbar, griddepcontrol */
    }
    return TIMING_PIPE_INT;
}

/* The m*n*k multiply-adds of an MMA instruction, 0 when its shape is unknown. */
static uint64_t mma_size(const ir_insn *in)
{
    unsigned m, n, k;
    if (!ir_matrix_dims(in->sub, &m, &n, &k))
        return 0;
    return (uint64_t)m * n * k;
}

enum { TENSOR_REFERENCE_MACS = 16 * 8 * 16 }; /* the m16n8k16 the tensor keys describe */

timing_cost timing_cost_of(const gpu_config *cfg, const ir_insn *in)
{
    const gpu_pipe_config *p = &cfg->pipe;
    timing_pipe pipe = timing_pipe_of(in);
    timing_cost c = {.pipe = (uint8_t)pipe};
    switch (pipe) {
    case TIMING_PIPE_INT:
        c.latency = p->int_latency_cycles, c.interval = p->int_interval_cycles;
        break;
    case TIMING_PIPE_FP32:
        c.latency = p->fp32_latency_cycles, c.interval = p->fp32_interval_cycles;
        break;
    case TIMING_PIPE_FP64:
        c.latency = p->fp64_latency_cycles, c.interval = p->fp64_interval_cycles;
        c.variable = p->fp64_interval_cycles > TIMING_FP64_VARIABLE_INTERVAL;
        break;
    case TIMING_PIPE_SFU:
        c.latency = p->sfu_latency_cycles, c.interval = p->sfu_interval_cycles, c.variable = 1;
        break;
    case TIMING_PIPE_TENSOR: {
        uint64_t macs = mma_size(in), base = p->tensor_interval_cycles;
        uint64_t scaled = macs ? (base * macs + TENSOR_REFERENCE_MACS - 1) / TENSOR_REFERENCE_MACS
                               : base;
        if (scaled < 1)
            scaled = 1;
        c.interval = (uint32_t)scaled;
        c.latency = p->tensor_latency_cycles + (scaled > base ? (uint32_t)(scaled - base) : 0);
        break;
    }
    case TIMING_PIPE_BRANCH:
        c.latency = p->branch_latency_cycles, c.interval = p->branch_interval_cycles;
        break;
    case TIMING_PIPE_MEM:
    default:
        c.pipe = TIMING_PIPE_MEM;
        c.latency = in->mem.space == IR_SPACE_SHARED || in->mem.space == IR_SPACE_SHARED_CLUSTER
                        ? p->mem_shared_latency_cycles
                        : p->mem_latency_cycles;
        c.interval = p->mem_interval_cycles, c.variable = 1;
        break;
    }
    return c;
}
