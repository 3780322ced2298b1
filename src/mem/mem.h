/* The memory access contract between the executor and the memory system (DESIGN.md, "The memory
 * access contract"): one warp-level access at a time, described neutrally, whatever the dialect.
 *
 * Address spaces and the generic address map:
 *   global   allocations at MEM_GLOBAL_BASE and above (device buffers, module .global variables)
 *   shared   per CTA, window offsets 0..shared_bytes-1; generic MEM_SHARED_WINDOW + offset
 *   local    per thread, window offsets 0..local_bytes-1; generic MEM_LOCAL_WINDOW + offset
 *   const    constant banks: bank b's offset o is window offset (b << MEM_CONST_BANK_SHIFT) + o,
 *            so bank 0 (a module's .const data) starts the window; generic MEM_CONST_WINDOW + offset
 *   param    kernel parameters, offsets; generic MEM_PARAM_WINDOW + offset
 * Generic addresses outside every window are global addresses. */
#ifndef GMS_MEM_MEM_H
#define GMS_MEM_MEM_H

#include <stdint.h>

#include "ir/ir.h"

#define MEM_WINDOW_BYTES 0x1000000ull /* 16 MiB per window (the const window: per bank) */
#define MEM_SHARED_WINDOW 0x0000100000000000ull
#define MEM_LOCAL_WINDOW 0x0000200000000000ull
#define MEM_CONST_WINDOW 0x0000300000000000ull
#define MEM_PARAM_WINDOW 0x0000400000000000ull
#define MEM_GLOBAL_BASE 0x00007f0000000000ull
/* Local memory is backed by device memory: each resident warp slot owns local_bytes * 32 bytes
 * there, interleaved so that the same 4-byte word of every lane forms one 128-byte line. */
#define MEM_LOCAL_BACKING_BASE 0x0000600000000000ull

/* Constant banks (c[bank][offset]): MEM_CONST_BANKS of at most MEM_WINDOW_BYTES each, laid end
 * to end in the const window. */
enum { MEM_CONST_BANKS = 32, MEM_CONST_BANK_SHIFT = 24 };
#define MEM_CONST_WINDOW_BYTES ((uint64_t)MEM_CONST_BANKS << MEM_CONST_BANK_SHIFT)

/* 64 bytes per lane: Intel LSC loads up to eight 64-bit elements per lane. */
enum { MEM_LANES = 32, MEM_MAX_LANE_BYTES = 64 };

/* Generic address of offset 0 of a space's window: 0 for global (generic global addresses are
 * global addresses) and for spaces without a window. */
static inline uint64_t mem_window_base(ir_space space)
{
    switch (space) {
    case IR_SPACE_SHARED: return MEM_SHARED_WINDOW;
    case IR_SPACE_LOCAL: return MEM_LOCAL_WINDOW;
    case IR_SPACE_CONST: return MEM_CONST_WINDOW;
    case IR_SPACE_PARAM: return MEM_PARAM_WINDOW;
    default: return 0;
    }
}

typedef enum mem_op {
    MEM_OP_LOAD,
    MEM_OP_STORE,
    MEM_OP_ATOMIC,        /* read-modify-write; returns the old value (atom) or nothing (red) */
    MEM_OP_CACHE_CONTROL, /* attrs->cctl on the lines of the lanes' addresses, or on every line
                             of the selected caches (attrs->cctl_all) */
    MEM_OP_FENCE,         /* attrs->scope and the side effects attrs->fence; no lanes */
} mem_op;

/* The level that served (loads, atomics) or accepted (stores) data, nearest first for the cached
 * spaces: an SM's L1, the L2, DRAM; shared memory and the constant cache (constant and kernel
 * parameter data) serve their spaces alone. */
typedef enum mem_level {
    MEM_LEVEL_NONE = 0, MEM_LEVEL_L1, MEM_LEVEL_L2, MEM_LEVEL_DRAM, MEM_LEVEL_SHARED,
    MEM_LEVEL_CONSTANT
} mem_level;

typedef enum mem_fault_kind {
    MEM_FAULT_NONE = 0,
    MEM_FAULT_OUT_OF_BOUNDS, /* outside every allocation / the window's allocated size */
    MEM_FAULT_MISALIGNED,    /* address not a multiple of the access size */
    MEM_FAULT_READ_ONLY,     /* store to const or kernel param space */
    MEM_FAULT_UNSUPPORTED,   /* an operation/space pair, or a cache the model does not have */
    MEM_FAULT_NOMEM,         /* backing store could not grow */
} mem_fault_kind;

typedef struct mem_fault {
    mem_fault_kind kind;
    uint32_t lane;      /* first faulting lane */
    uint64_t address;   /* its address in the access's space (generic when space is generic) */
    uint32_t bytes;     /* access size per lane in bytes */
    uint8_t space;      /* ir_space the address resolved to */
    char what[96];      /* short explanation */
} mem_fault;

/* Who is accessing: selects the SM's caches, the CTA's shared memory and the warp's local slot. */
typedef struct mem_ctx {
    uint32_t sm;             /* SM index */
    uint8_t *shared;         /* borrowed: the CTA's shared memory */
    uint32_t shared_bytes;   /* its size (static + dynamic) */
    uint64_t local_backing;  /* backing address of the warp slot's local memory */
    uint32_t local_bytes;    /* per-thread local window size */
    struct memsys_store_log *store_log; /* memsys_store_deferred's log for the SM; NULL else */
} mem_ctx;

/* Atomic arithmetic, supplied by the executor (exec/alu.h alu_atom_apply) so that the memory
 * system performs read-modify-writes without depending on the executor. */
typedef uint64_t (*mem_atom_fn)(uint8_t atom_op, ir_type type, uint32_t mods, uint64_t old,
                                uint64_t b, uint64_t c, int *ok);

/* One 32-byte sector of global or local data and the level that served it. */
typedef struct mem_served {
    uint64_t addr;     /* sector address: global address, or local backing address */
    uint8_t level;     /* mem_level: L1, L2 or DRAM */
    uint16_t l2_slice; /* L2 slice holding the sector when level is L2 or DRAM */
} mem_served;

enum { MEM_MAX_SERVED = 128 };

/* One warp-level access: a request that travels down the hierarchy with its attributes, its
 * instruction and its SM (mem_ctx), and comes back with the data and where each part came from.
 * Data is little-endian bytes, lane-major: lane l's bytes are data[l][0 .. elem_bytes*vec-1];
 * element e starts at byte e*elem_bytes. */
typedef struct mem_access {
    uint8_t op;          /* mem_op */
    uint8_t space;       /* ir_space: GENERIC, GLOBAL, SHARED, LOCAL, CONST or PARAM */
    uint8_t elem_bytes;  /* 1, 2, 4, 8 or 16; cache control: the bytes it covers per lane (its
                            address must be aligned to them) */
    uint8_t vec;         /* elements per lane, 1..8; elem_bytes*vec <= MEM_MAX_LANE_BYTES */
    uint8_t atom_op;     /* IR_ATOM_* for MEM_OP_ATOMIC */
    uint8_t atom_type;   /* ir_type for MEM_OP_ATOMIC */
    uint8_t atom_returns;/* atom (1) or red (0) */
    uint32_t atom_mods;  /* IR_MOD_* of the atomic */
    mem_atom_fn atom_fn; /* MEM_OP_ATOMIC: computes the new value */
    uint32_t active;     /* lanes that take part */
    uint32_t insn_id;    /* static instruction id: every counter the access causes is its */
    uint64_t time;       /* reserved for the timing model: the cycle the access is issued */
    const ir_mem_attrs *attrs; /* borrowed: allocation classes, write mode, cache control, fence */
    uint8_t window_errors; /* ir_window_errors of the kernel's machine: IR_WINDOW_FAULT (a lane
                              outside its local or shared window faults the access) or
                              IR_WINDOW_ZERO (see window_lanes, misaligned_lanes) */
    uint64_t policy;     /* L2 policy descriptor when attrs->has_policy (uniform across the warp) */
    uint8_t skip_served; /* 1: the caller reads neither served[] nor levels (the executor when no
                            observer watches the launch), so the memory system may leave out the
                            global and local data's entries and bits and the work of finding
                            them; 0 (a zeroed record's): every result below is filled. Nothing
                            else the access does or counts depends on it. */
    uint64_t addr[MEM_LANES];
    uint64_t operand_b[MEM_LANES]; /* atomics: b per lane */
    uint64_t operand_c[MEM_LANES]; /* atomics: c per lane (cas) */
    uint8_t data[MEM_LANES][MEM_MAX_LANE_BYTES];
    /* Results of loads, stores and atomics: which levels served (a store: accepted) the data.
     * levels: bit (1 << mem_level) for every level that served some of it, shared memory and the
     * constant cache included. served[0..nserved): every sector of global or local data the
     * access touched and its level; an atomic lists each lane's sector, as each lane is its own
     * operation at L2. */
    uint8_t levels;
    /* Results with window_errors == IR_WINDOW_ZERO, for lanes whose address resolved to the
     * local or shared window (docs/faults.md, "Window errors"): window_lanes, the lanes outside
     * the 16 MiB window or the allocation in it, which did nothing (a load or atomic returned
     * zeros in data[], a store or atomic wrote nothing, a cache control skipped the line);
     * misaligned_lanes, the lanes whose address was not a multiple of the access size and was
     * aligned down to it before anything else. The others stay 0. */
    uint32_t window_lanes;
    uint32_t misaligned_lanes;
    /* Results the timing model reads (docs/timing.md, "Memory"), 0 where the access has no such
     * part: shared_wavefronts, the bank passes its shared-memory lanes needed (the count
     * mem_shared_counters.wavefronts adds); l1_tags, the 128-byte lines its global and local
     * lanes touched (one L1 tag lookup each; an atomic: its lanes, each its own operation);
     * const_lookups, const_misses and const_addresses, the constant-cache lines it looked up,
     * how many of them missed, and the distinct constant or parameter addresses it read;
     * dram_read_bytes and dram_write_bytes, the DRAM traffic it caused (fills, and write-backs
     * of the dirty lines it evicted), as mem_dram_counters counts them. */
    uint16_t shared_wavefronts;
    uint16_t l1_tags;
    uint8_t const_lookups, const_misses, const_addresses;
    uint32_t dram_read_bytes, dram_write_bytes;
    uint32_t nserved;
    mem_served served[MEM_MAX_SERVED];
} mem_access;

#endif
