/* The kernel IR: what every front-end (PTX, SASS-style, vISA) produces and what the executor runs.
 *
 * A module holds module-scope variables and functions; a function holds a flat instruction array
 * with branch targets resolved to instruction indices, typed virtual registers numbered into
 * "slots", and its own variables (local depots, body .param/.shared). Memory instructions carry a
 * dialect-neutral ir_mem_attrs (DESIGN.md, "The memory access contract").
 *
 * Registers: every non-predicate register is one 64-bit slot per lane; narrower types live in the
 * low bits (the executor keeps values zero-extended to the register's declared width). Predicate
 * registers are numbered separately (pred slots) and held by the executor as 32-bit lane masks.
 * What the dialect's machine is like besides (register-file shape, condition flags, instruction
 * size, calling convention) is the module's ir_machine.
 * All storage belongs to the module's arena; ir_module_destroy frees everything. */
#ifndef GMS_IR_IR_H
#define GMS_IR_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"

/* ---- operations: the rows of ir_ops.def (the columns are described there) ---- */
typedef enum ir_opcode {
#define IR_OP(name, text, cls, family, flow, mem, subs, shape, mods) IR_##name,
#include "ir/ir_ops.def"
#undef IR_OP
    IR_OP_COUNT
} ir_opcode;

typedef enum ir_op_class { IR_CLASS_ALU, IR_CLASS_MEM, IR_CLASS_CTRL, IR_CLASS_WARP,
                           IR_CLASS_SYNC, IR_CLASS_MISC } ir_op_class;

/* Handler families: the executor runs every op of a family with one handler. */
typedef enum ir_family {
#define IR_FAMILY(name) IR_FAM_##name,
#include "ir/ir_ops.def"
#undef IR_FAMILY
    IR_FAM_COUNT
} ir_family;

/* Control flow of an op. Every value but NONE means that the executor's handler chooses the next
 * instruction itself. */
typedef enum ir_flow {
    IR_FLOW_NONE,  /* falls through to the next instruction */
    IR_FLOW_JUMP,  /* to its label operands (a guarded bra may fall through) */
    IR_FLOW_CALL,  /* enters a function; execution comes back after the call */
    IR_FLOW_END,   /* ret, exit, trap: never falls through */
    IR_FLOW_WAIT   /* may block the warp at a barrier before going on */
} ir_flow;

/* What ir_insn.mem means for an op. */
typedef enum ir_mem_use {
    IR_MEM_NONE,   /* nothing: every field is at its default */
    IR_MEM_ACCESS, /* a data access: space, element bytes, vector width, hints */
    IR_MEM_ATTRS   /* some fields: cache control, fence order, barrier scope, cvta window */
} ir_mem_use;

/* Which set of sub-operations ir_insn.sub holds (the IR_<set>_* enums below). */
typedef enum ir_subs {
    IR_SUBS_NONE, IR_SUBS_SHFL, IR_SUBS_VOTE, IR_SUBS_MATCH, IR_SUBS_REDUX, IR_SUBS_ATOM,
    IR_SUBS_BAR, IR_SUBS_TESTP, IR_SUBS_PRMT, IR_SUBS_POLICY, IR_SUBS_SUQ, IR_SUBS_TLD4,
    IR_SUBS_TXQ, IR_SUBS_MATRIX,
    IR_SUBS_MBAR,
    IR_SUBS_BULK,
    IR_SUBS_VIDEO,
    IR_SUBS_COUNT
} ir_subs;

/* One row of ir_ops.def. */
typedef struct ir_op_info {
    const char *name;  /* printed name ("ld", "shfl.sync") */
    uint8_t cls;       /* ir_op_class */
    uint8_t family;    /* ir_family */
    uint8_t flow;      /* ir_flow */
    uint8_t mem;       /* ir_mem_use */
    uint8_t subs;      /* ir_subs */
    const char *shape; /* operand shape string (ir_ops.def; parsed by ir_op_shape) */
    uint32_t mods;     /* IR_MOD_* flags the op may carry */
} ir_op_info;

/* The row of `op`, or NULL when op >= IR_OP_COUNT. The table is static and immutable. */
const ir_op_info *ir_op_info_of(ir_opcode op);
const char *ir_opcode_name(ir_opcode op);   /* "?" when out of range */
ir_op_class ir_opcode_class(ir_opcode op);  /* MISC when out of range */

/* The operand shape of an op, parsed from its shape column: per slot, a mask of the operand kinds
 * it takes (bit 1 << ir_operand_kind; the IR_OPND_NONE bit when it may be empty) plus
 * IR_SLOT_HINT when it is the L2 policy operand, present exactly when mem.has_policy is set.
 * ndst/nsrc: the slots written in the shape (the rest must be empty). */
enum { IR_SLOT_HINT = 1u << 15 };
typedef struct ir_shape {
    uint8_t ndst, nsrc;
    uint16_t dst[2], src[4];
} ir_shape;
/* Fills *out for `op`. Returns false when op is out of range or its shape column is malformed
 * (the table self-test checks that none is). */
bool ir_op_shape(ir_opcode op, ir_shape *out);

/* ---- types ---- */
typedef enum ir_type {
    IR_T_NONE = 0,
    IR_T_PRED,
    IR_T_B8, IR_T_B16, IR_T_B32, IR_T_B64, IR_T_B128,
    IR_T_U8, IR_T_U16, IR_T_U32, IR_T_U64,
    IR_T_S8, IR_T_S16, IR_T_S32, IR_T_S64,
    IR_T_F16, IR_T_F16X2, IR_T_BF16, IR_T_BF16X2, IR_T_TF32,
    IR_T_F32, IR_T_F64,
    IR_T_U16X2, IR_T_S16X2, /* two 16-bit integers in 32 bits (packed add/sub/min/max only) */
    IR_T_COUNT
} ir_type;

const char *ir_type_name(ir_type t); /* "u32", "f16x2", "u16x2", ... */
unsigned ir_type_bits(ir_type t);    /* 1 for pred, 8..128 */
bool ir_type_is_float(ir_type t);    /* f16, f16x2, bf16, bf16x2, tf32, f32, f64 */
bool ir_type_is_signed(ir_type t);   /* s8..s64 */

/* Rounding modifiers. The *I forms round a float to an integral value (cvt.rni etc.). */
typedef enum ir_round {
    IR_RND_NONE = 0, IR_RND_RN, IR_RND_RZ, IR_RND_RM, IR_RND_RP, IR_RND_RNA, IR_RND_RS,
    IR_RND_RNI, IR_RND_RZI, IR_RND_RMI, IR_RND_RPI
} ir_round;

/* Comparison operators of setp/set/slct (PTX ISA 9.1 §9.7.7.1). */
typedef enum ir_cmp {
    IR_CMP_NONE = 0, IR_CMP_EQ, IR_CMP_NE, IR_CMP_LT, IR_CMP_LE, IR_CMP_GT, IR_CMP_GE,
    IR_CMP_LO, IR_CMP_LS, IR_CMP_HI, IR_CMP_HS,
    IR_CMP_EQU, IR_CMP_NEU, IR_CMP_LTU, IR_CMP_LEU, IR_CMP_GTU, IR_CMP_GEU,
    IR_CMP_NUM, IR_CMP_NAN
} ir_cmp;

typedef enum ir_boolop { IR_BOOL_NONE = 0, IR_BOOL_AND, IR_BOOL_OR, IR_BOOL_XOR } ir_boolop;

/* Modifier flags (ir_insn.mods): bit IR_MODBIT_<name> of each IR_MODIFIER row of ir_ops.def. */
enum {
#define IR_MODIFIER(name, text) IR_MODBIT_##name,
#include "ir/ir_ops.def"
#undef IR_MODIFIER
    IR_MODBIT_COUNT
};
enum {
#define IR_MODIFIER(name, text) IR_MOD_##name = 1u << IR_MODBIT_##name,
#include "ir/ir_ops.def"
#undef IR_MODIFIER
};
/* Printed name of modifier bit `bit` ("ftz"), or NULL when bit >= IR_MODBIT_COUNT. */
const char *ir_modifier_name(unsigned bit);

/* Sub-operations (ir_insn.sub), meaning depends on the opcode. */
enum { IR_SHFL_UP = 1, IR_SHFL_DOWN, IR_SHFL_BFLY, IR_SHFL_IDX };
enum { IR_VOTE_ALL = 1, IR_VOTE_ANY, IR_VOTE_UNI, IR_VOTE_BALLOT };
enum { IR_MATCH_ANY = 1, IR_MATCH_ALL };
enum { IR_REDUX_ADD = 1, IR_REDUX_MIN, IR_REDUX_MAX, IR_REDUX_AND, IR_REDUX_OR, IR_REDUX_XOR };
enum { IR_ATOM_AND = 1, IR_ATOM_OR, IR_ATOM_XOR, IR_ATOM_CAS, IR_ATOM_EXCH, IR_ATOM_ADD,
       IR_ATOM_INC, IR_ATOM_DEC, IR_ATOM_MIN, IR_ATOM_MAX };
enum { IR_BAR_SYNC = 1, IR_BAR_ARRIVE, IR_BAR_RED_POPC, IR_BAR_RED_AND, IR_BAR_RED_OR };
enum { IR_TESTP_FINITE = 1, IR_TESTP_INFINITE, IR_TESTP_NUMBER, IR_TESTP_NOTANUMBER,
       IR_TESTP_NORMAL, IR_TESTP_SUBNORMAL };
enum { IR_PRMT_DEFAULT = 0, IR_PRMT_F4E, IR_PRMT_B4E, IR_PRMT_RC8, IR_PRMT_ECL, IR_PRMT_ECR,
       IR_PRMT_RC16 };
enum { IR_POLICY_FRACTIONAL = 1, IR_POLICY_RANGE, IR_POLICY_CVT };
/* suq: the image property read (PTX suq .width .height .depth .channel_data_type
 * .channel_order .array_size .memory_layout) */
enum { IR_SUQ_WIDTH = 1, IR_SUQ_HEIGHT, IR_SUQ_DEPTH, IR_SUQ_CHANNEL_DATA_TYPE,
       IR_SUQ_CHANNEL_ORDER, IR_SUQ_ARRAY_SIZE, IR_SUQ_MEMORY_LAYOUT };
/* tld4: the channel gathered (PTX tld4.r/.g/.b/.a) */
enum { IR_TLD4_R = 1, IR_TLD4_G, IR_TLD4_B, IR_TLD4_A };
/* txq: the texture property read (PTX txq .width .height .depth .channel_data_type
 * .channel_order .normalized_coords .filter_mode .addr_mode_0/1/2 .array_size .num_mipmap_levels
 * .num_samples) */
enum { IR_TXQ_WIDTH = 1, IR_TXQ_HEIGHT, IR_TXQ_DEPTH, IR_TXQ_CHANNEL_DATA_TYPE,
       IR_TXQ_CHANNEL_ORDER, IR_TXQ_NORMALIZED_COORDS, IR_TXQ_FILTER_MODE, IR_TXQ_ADDR_MODE_0,
       IR_TXQ_ADDR_MODE_1, IR_TXQ_ADDR_MODE_2, IR_TXQ_ARRAY_SIZE, IR_TXQ_NUM_MIPMAP_LEVELS,
       IR_TXQ_NUM_SAMPLES };
/* Matrix instructions (family MATRIX): the shape (sub), which matrix a wmma.load/store moves
 * (ir_insn.frag), and the fragments' element layout (PTX ISA 9.1 §9.7.14; docs/semantics.md,
 * "Matrix instructions"). */
enum { IR_MATRIX_M8N8 = 1, IR_MATRIX_M16N8K16, IR_MATRIX_M16N8K8, IR_MATRIX_M16N8K4,
       IR_MATRIX_M8N8K4, IR_MATRIX_M16N8K32, IR_MATRIX_M8N8K16, IR_MATRIX_M16N16K16,
       IR_MATRIX_M32N8K16, IR_MATRIX_M8N32K16, IR_MATRIX_M16N16K8, IR_MATRIX_SHAPES };
enum { IR_FRAG_NONE = 0, IR_FRAG_A, IR_FRAG_B, IR_FRAG_C, IR_FRAG_D };
/* The dimensions of shape `shape` (rows of a and d m, columns of b and d n, the inner k; 8, 8, 0
 * for m8n8); false when shape is not an IR_MATRIX_* value. */
bool ir_matrix_dims(unsigned shape, unsigned *m, unsigned *n, unsigned *k);
/* Registers per lane of the fragment `frag` (IR_FRAG_*) of shape `shape` with elements of type
 * `t`, for mma.sync (wmma 0) or wmma (wmma 1): elements per lane (rows * cols / 32, except
 * wmma's f16 a and b fragments, which hold 16, and mma.m8n8k4 with f16, four MMAs of 8 lanes
 * each: rows * cols / 8) times their bits over the register width (32 bits, 64 for f64). 0 when
 * the combination has no fragment. */
unsigned ir_matrix_regs(unsigned shape, unsigned frag, ir_type t, bool wmma);

/* mbarrier: the operation (PTX mbarrier.init, .inval, .arrive, .arrive.noComplete, .arrive_drop,
 * .arrive_drop.noComplete, .expect_tx, .complete_tx, .test_wait{.parity}, .try_wait{.parity},
 * .pending_count) */
enum { IR_MBAR_INIT = 1, IR_MBAR_INVAL, IR_MBAR_ARRIVE, IR_MBAR_ARRIVE_NOCOMPLETE,
       IR_MBAR_ARRIVE_DROP, IR_MBAR_ARRIVE_DROP_NOCOMPLETE, IR_MBAR_EXPECT_TX,
       IR_MBAR_COMPLETE_TX, IR_MBAR_TEST_WAIT, IR_MBAR_TEST_WAIT_PARITY, IR_MBAR_TRY_WAIT,
       IR_MBAR_TRY_WAIT_PARITY, IR_MBAR_PENDING_COUNT };
/* bulk copies: the direction (cp.async.bulk, cp.async.bulk.tensor) or, for
 * cp.async.bulk.wait_group, READ: wait only until the groups' sources have been read */
enum { IR_BULK_TO_SHARED = 1, IR_BULK_TO_GLOBAL, IR_BULK_TO_L2, IR_BULK_READ };
/* video instructions (IR_VOP, IR_VOP2, IR_VOP4): the operation (PTX vadd, vsub, vabsdiff, vmin,
 * vmax, vavrg2/4, vshl, vshr, vmad, vset) */
enum { IR_VID_ADD = 1, IR_VID_SUB, IR_VID_ABSDIFF, IR_VID_MIN, IR_VID_MAX, IR_VID_AVRG,
       IR_VID_SHL, IR_VID_SHR, IR_VID_MAD, IR_VID_SET };
/* The control word of a video instruction (src[3].imm; docs/semantics.md, "Video
 * instructions"):
 *   ASEL, BSEL  16 bits each. Scalar forms: a selector code in the low 4 bits (IR_VIDSEL_*).
 *               SIMD forms: element i (0..1 or 0..3) of a or b is the half-word (vop2, 0..3) or
 *               byte (vop4, 0..7) of the pair {b, a} (a low) named by the 4-bit digit i.
 *   DSEL        scalar forms: the merge position (IR_VIDSEL_B0..H1), IR_VIDSEL_WORD for none;
 *               SIMD forms: the mask, bit i set when element i is written.
 *   OP2         the secondary operation (IR_VIDOP2_*); SIMD forms: NONE (merge) or ADD.
 *   CLAMP       vshl/vshr: 1 .clamp, 0 .wrap.
 *   SCALE, PO   vmad: the shift of the result (0, 1 .shr7, 2 .shr15) and the plus-one mode.
 *   NEGAB, NEGC vmad: the product a * b (exactly one of a, b written negated) or c is negated. */
enum { IR_VIDSEL_WORD = 0, IR_VIDSEL_B0, IR_VIDSEL_B1, IR_VIDSEL_B2, IR_VIDSEL_B3, IR_VIDSEL_H0,
       IR_VIDSEL_H1 };
enum { IR_VIDOP2_NONE = 0, IR_VIDOP2_ADD, IR_VIDOP2_MIN, IR_VIDOP2_MAX };
enum { IR_VIDCTL_ASEL = 0, IR_VIDCTL_BSEL = 16, IR_VIDCTL_DSEL = 32, IR_VIDCTL_OP2 = 36,
       IR_VIDCTL_CLAMP = 38, IR_VIDCTL_SCALE = 39, IR_VIDCTL_PO = 41, IR_VIDCTL_NEGAB = 42,
       IR_VIDCTL_NEGC = 43 };
/* Printed name of sub-operation `sub` in set `set` ("bfly" in SHFL; "" for 0 in NONE and for
 * PRMT's default mode), or NULL when `sub` is not a member of the set. */
const char *ir_sub_name(ir_subs set, unsigned sub);

/* ---- memory attributes: the dialect-neutral access contract ---- */
typedef enum ir_space {
    IR_SPACE_NONE = 0,
    IR_SPACE_GENERIC, IR_SPACE_GLOBAL, IR_SPACE_SHARED, IR_SPACE_SHARED_CLUSTER, IR_SPACE_LOCAL,
    IR_SPACE_CONST, IR_SPACE_PARAM, IR_SPACE_SURFACE, IR_SPACE_INSTRUCTION, IR_SPACE_CRS
} ir_space;

typedef enum ir_sem {
    IR_SEM_WEAK = 0, IR_SEM_RELAXED, IR_SEM_ACQUIRE, IR_SEM_RELEASE, IR_SEM_ACQ_REL,
    IR_SEM_SC, IR_SEM_VOLATILE, IR_SEM_MMIO
} ir_sem;

/* Scope of an ordering operation. CTA..SYS are narrowest first: the thread group of a CTA (LSC
 * "group"), a cluster of CTAs, the GPU (LSC "gpu"), all GPUs of the system (LSC "gpus"), the
 * system (LSC "sysrel"). The values after SYS were added for Intel LSC fences and do not continue
 * that order; read them with ir_scope_width:
 *   SM      LSC "local": the issuing SM (Xe-core) and its L1 (between CTA and CLUSTER)
 *   TILE    LSC "tile": the SMs of the issuing SM's tile, their L1s and the tile's L2 slice
 *           (between CLUSTER and GPU; on a one-tile GPU it reaches what GPU reaches)
 *   SYSACQ  LSC "sysacq": system scope, acquire side: commits to device memory the writes that
 *           reached the device from the host or a peer, then acts like SYS */
typedef enum ir_scope {
    IR_SCOPE_NONE = 0, IR_SCOPE_CTA, IR_SCOPE_CLUSTER, IR_SCOPE_GPU, IR_SCOPE_GPUS, IR_SCOPE_SYS,
    IR_SCOPE_SM, IR_SCOPE_TILE, IR_SCOPE_SYSACQ
} ir_scope;
/* The width of scope `s` as a rank, narrowest first: NONE 0, CTA 1, SM 2, CLUSTER 3, TILE 4,
 * GPU 5, GPUS 6, SYS 7, SYSACQ 8 (SYS and SYSACQ reach the same caches). 0 when out of range. */
unsigned ir_scope_width(ir_scope s);

/* Intel LSC shared functions (SFIDs) a memory instruction or fence goes through
 * (ir_mem_attrs.sfid; visa-lsc.md section 3). NONE: not an LSC instruction (PTX, SASS). A fence
 * orders only the earlier accesses of its own SFID. */
typedef enum ir_sfid {
    IR_SFID_NONE = 0,
    IR_SFID_UGM,  /* untyped global memory: global data through the SM's L1 and the L2 */
    IR_SFID_UGML, /* low-bandwidth untyped global memory: the same data, the cross-tile path */
    IR_SFID_TGM,  /* typed global memory (surfaces): the same caches as UGM */
    IR_SFID_SLM,  /* shared local memory: the work-group's SLM (the model's shared memory) */
} ir_sfid;

/* The cache operation of an LSC fence (ir_mem_attrs.fence_op; LSC_FENCE, seed page 001). UNSET
 * (0): not an LSC fence. The operation acts on the caches the fence's scope covers (ir_scope
 * and docs/visa.md, "Fences and cache controls"), after the wait for earlier accesses. */
typedef enum ir_fence_op {
    IR_FENCE_OP_UNSET = 0,
    IR_FENCE_OP_NONE,       /* "none": order only, no cache is touched */
    IR_FENCE_OP_EVICT,      /* "evict": dirty lines written back, then every line invalidated */
    IR_FENCE_OP_INVALIDATE, /* "invalidate": clean lines dropped; dirty lines stay, still dirty */
    IR_FENCE_OP_DISCARD,    /* "discard": clean and dirty lines dropped without write-back; the
                               dirty data is lost */
    IR_FENCE_OP_CLEAN,      /* "clean": dirty lines written back and kept, now clean; clean
                               lines stay */
    IR_FENCE_OP_FLUSHL3,    /* "flushl3": the L2 (LSC's L3) only, within the scope: dirty lines
                               written back and every line invalidated; L1s untouched */
} ir_fence_op;

/* Per-level cache control of an LSC load, store or atomic (ir_mem_attrs.l1_ctl and l2_ctl;
 * visa-lsc.md section 4). LSC writes `.L1.L3`: its L1 is the SM's L1 (l1_ctl) and its L3 is the
 * GPU's last-level cache, the model's L2 (l2_ctl). Which pairs are legal per operation is the
 * front-end's check; mem/ gives every value its effect at either level. */
typedef enum ir_cache_ctl {
    IR_CC_DEFAULT = 0,      /* "df": the GPU's default policy for the line's kind (MOCS) */
    IR_CC_UNCACHED,         /* "uc": loads neither hit nor fill this level (a resident copy is
                               written back if dirty and dropped first, so the read is fresh);
                               stores and atomics pass it without allocating: at the L1 a copy
                               is written back and dropped, at the L2 a copy is updated and the
                               bytes written through to memory */
    IR_CC_CACHED,           /* "ca": loads hit in and fill this level; stores as "wb" */
    IR_CC_WRITE_BACK,       /* "wb": stores are kept dirty at this level (allocating) until
                               eviction or a fence; loads as "ca" */
    IR_CC_WRITE_THROUGH,    /* "wt": stores update this level's copy when present and are
                               written to the next level at once, without allocating; loads as
                               "ca" */
    IR_CC_STREAMING,        /* "st": cached, but the line is allocated evict-first (data used
                               once); stores as "wb" with that class */
    IR_CC_READ_INVALIDATE,  /* "ri": read-invalidate (last use): the load reads through this
                               level and the line is invalidated there afterwards (dirty bytes
                               written back first, so no data is lost); stores as "uc" */
} ir_cache_ctl;

/* Eviction classes a memory access asks for its line (docs/cache-model.md, "Allocation hints").
 * NONE: the access names no class. In L1 all apply; in L2 NORMAL, FIRST, LAST and UNCHANGED. */
typedef enum ir_evict { IR_EVICT_NONE = 0, IR_EVICT_NORMAL, IR_EVICT_UNCHANGED, IR_EVICT_FIRST,
                        IR_EVICT_LAST, IR_EVICT_NO_ALLOCATE } ir_evict;

/* L1 behaviour of reads (ir_mem_attrs.l1, bits). Every one is a hint: --strip-hints clears them. */
enum {
    IR_L1_BYPASS = 1u << 0,     /* cache at L2 only: the read neither hits nor fills the L1 */
    IR_L1_ALLOCATE = 1u << 1,   /* global data is cached in L1 even where the GPU does not
                                   cache plain global reads there */
    IR_L1_INVALIDATE = 1u << 2, /* volatile read: the line is dropped from L1 and L2 (dirty bytes
                                   written back) and fetched from memory, around the L1 */
    IR_L1_LAST_USE = 1u << 3,   /* the last read of the data: a whole thread-private (local)
                                   line read this way is dropped without write-back; a global
                                   line becomes evict-first in L2 unless a class is named */
    IR_L1_READ_ONLY = 1u << 4,  /* the non-coherent read-only path: cached in L1 like ALLOCATE */
};

/* How a store treats the caches (ir_mem_attrs.write_mode). */
typedef enum ir_write_mode {
    IR_WRITE_DEFAULT = 0, /* the GPU's policy for the line's kind */
    IR_WRITE_BACK,        /* kept dirty in the cache, written to the next level on eviction */
    IR_WRITE_THROUGH,     /* written through every level to memory at once */
    IR_WRITE_BYPASS_L1,   /* global lines: the L1 copy is dropped and the bytes go to L2 */
    IR_WRITE_STREAMING,   /* the GPU's policy; lines evict-first in L1 and L2 unless a class
                             is named */
} ir_write_mode;

/* Cache-control operations (ir_mem_attrs.cctl). They act on the caches named by cctl_levels:
 * with cctl_all on every line of them (of the kinds in cctl_lines, for data caches); otherwise on
 * the line holding each active lane's address, in the cache of the hierarchy that address
 * belongs to (lanes naming one line act on it once). */
typedef enum ir_cctl {
    IR_CCTL_NONE = 0,
    IR_CCTL_PREFETCH,         /* bring the line into the levels named (L1 through L2); a hint */
    IR_CCTL_WRITEBACK,        /* write the dirty bytes back, keep the line valid and clean
                                 (with cctl_all: write back all, i.e. clean) */
    IR_CCTL_INVALIDATE,       /* write the dirty bytes back, then drop the line */
    IR_CCTL_DISCARD,          /* drop the line and its dirty bytes (reset; discard) */
    IR_CCTL_INVALIDATE_CLEAN, /* drop the line when it holds no dirty byte, keep it otherwise */
    IR_CCTL_PRIORITY,         /* give a resident line the eviction class l2_evict; a hint */
} ir_cctl;

/* The caches a cache-control operation reaches (bits of cctl_levels): a level of one of the four
 * hierarchies, the data hierarchy (global and local data), the constant hierarchy (constant and
 * kernel-parameter data), the instruction hierarchy and the call-return stack's. A prefetch into
 * the data L1 fills through the L2. */
enum {
    IR_LEVEL_L1 = 1u << 0,       /* data: the issuing SM's L1 */
    IR_LEVEL_L2 = 1u << 1,       /* data: the L2 */
    IR_LEVEL_CONST_L1 = 1u << 2, /* constant: the issuing SM's constant cache */
    IR_LEVEL_CONST_L2 = 1u << 3, /* constant: the levels beyond it (not modelled) */
    IR_LEVEL_INSN_L1 = 1u << 4,  /* instruction: the issuing SM's instruction cache */
    IR_LEVEL_INSN_L2 = 1u << 5,  /* instruction: the levels beyond it (not modelled) */
    IR_LEVEL_CRS = 1u << 6,      /* the call-return stack's cache: write back all of it
                                    (CCTLL.CRS.WBALL) on a machine with the stack */
};
/* Kinds of data lines (bits of cctl_lines): global and local (thread-private) lines. A line op
 * skips lanes whose line is of another kind. */
enum { IR_LINES_GLOBAL = 1u << 0, IR_LINES_LOCAL = 1u << 1 };
/* Side effects of a fence (ir_mem_attrs.fence), in this order. On a load or atomic they are a
 * fence performed right after it (an acquire). */
enum {
    IR_FENCE_WAIT_WRITES = 1u << 0,   /* earlier writes are visible at the scope (accesses complete
                                         in order in this model: nothing to do) */
    IR_FENCE_WRITEBACK_L1 = 1u << 1,  /* dirty global lines of the SM's L1 are written back */
    IR_FENCE_INVALIDATE_L1 = 1u << 2, /* global lines of the SM's L1 are dropped (dirty bytes
                                         written back first), so later reads see other SMs'
                                         writes */
    IR_FENCE_INVALIDATE_TEX = 1u << 3, /* the lines the SM's L1 filled through the read-only
                                          (texture) path are dropped (SASS MEMBAR .IVALLT) */
};

/* The neutral description of a memory instruction: what every front-end lowers its dialect's
 * modifiers to (DESIGN.md, "The memory access contract"; docs/cache-hints.md has PTX's mapping). */
typedef struct ir_mem_attrs {
    uint8_t space;          /* ir_space as written (GENERIC when no state space) */
    uint8_t sem;            /* ir_sem */
    uint8_t scope;          /* ir_scope */
    uint8_t l1_alloc;       /* ir_evict: the L1 allocation class */
    uint8_t l1;             /* IR_L1_* bits */
    uint8_t l2_evict;       /* ir_evict: the L2 eviction class (createpolicy: primary) */
    uint8_t l2_secondary;   /* ir_evict: createpolicy secondary class (UNCHANGED or FIRST) */
    uint8_t write_mode;     /* ir_write_mode */
    uint16_t fill_bytes;    /* L2 fill size of a miss: 64, 128, 256 bytes; 0: the GPU's */
    uint8_t has_policy;     /* 1: a 64-bit L2 policy descriptor is the last source operand */
    uint8_t elem_bytes;     /* bytes of one element (type width); 16 for .b128 */
    uint8_t vec;            /* elements per lane: 1, 2, 4 (8 for .v8) */
    uint8_t cctl;           /* ir_cctl */
    uint8_t cctl_levels;    /* IR_LEVEL_* bits: the caches it reaches */
    uint8_t cctl_lines;     /* IR_LINES_* bits: the data lines it selects (0: both kinds) */
    uint8_t cctl_all;       /* 1: every line of the selected caches; no address */
    uint8_t fence;          /* IR_FENCE_* bits */
    uint8_t uniform;        /* 1: the addresses are declared uniform across the warp (SASS
                               LDS.U); a hint the statistics check */
    uint8_t image_dim;      /* ir_image_dim: image ops' geometry (IR_IMAGE_NONE otherwise) */
    uint8_t image_clamp;    /* ir_image_clamp: what an out-of-bounds coordinate does */
    uint8_t image_flags;    /* IR_IMAGE_* bits */
    /* Intel LSC (0 elsewhere): the shared function, the fence's cache operation (on FENCE; its
     * scope is `scope`) and the per-level cache controls of loads, stores and atomics. */
    uint8_t sfid;           /* ir_sfid */
    uint8_t fence_op;       /* ir_fence_op: set exactly on an LSC fence (FENCE with sfid) */
    uint8_t l1_ctl;         /* ir_cache_ctl for the SM's L1 (LSC .L1) */
    uint8_t l2_ctl;         /* ir_cache_ctl for the L2 (LSC .L3) */
} ir_mem_attrs;

/* Image geometry of an image op: how many coordinates it takes and what they mean. */
typedef enum ir_image_dim {
    IR_IMAGE_NONE = 0, IR_IMAGE_1D, IR_IMAGE_1D_BUFFER, IR_IMAGE_1D_ARRAY, IR_IMAGE_2D,
    IR_IMAGE_2D_ARRAY, IR_IMAGE_3D,
    IR_IMAGE_CUBE, IR_IMAGE_CUBE_ARRAY /* textures (tex.cube, tex.acube): 6 square faces */
} ir_image_dim;
/* Out-of-bounds coordinates of an image op: fault (PTX .trap, SASS .TRAP), clamp to the edge
 * (PTX .clamp, SASS .NEAR), or ignore: loads give 0, stores and reductions do nothing (PTX .zero,
 * SASS .IGN). */
typedef enum ir_image_clamp { IR_CLAMP_TRAP = 0, IR_CLAMP_NEAR, IR_CLAMP_IGNORE } ir_image_clamp;
enum {
    IR_IMAGE_BYTE_X = 1u << 0,    /* x is a byte offset (PTX .b, SASS .BA); else an element
                                     index scaled by the access size */
    IR_IMAGE_FORMATTED = 1u << 1, /* formatted texels converted to/from the image's format
                                     (PTX sust.p, SASS .P); else raw bits of the access size */
};

/* The fields of ir_mem_attrs as data, for the printer and the verifier, which know no field by
 * name: calls visit(user, field, value, value_name) for every field of `m` that is not at its
 * default (0, or 1 for vec), in declaration order. value_name is the enumerator's printed name,
 * or NULL for a number and for a value outside the field's enumeration; *out_of_range, when
 * given, counts the latter. */
typedef void (*ir_mem_visit_fn)(void *user, const char *field, unsigned value,
                                const char *value_name);
void ir_mem_attrs_visit(const ir_mem_attrs *m, ir_mem_visit_fn visit, void *user,
                        unsigned *out_of_range);

/* ---- operands ---- */
typedef enum ir_operand_kind {
    IR_OPND_NONE = 0,
    IR_OPND_REG,    /* reg = slot */
    IR_OPND_PRED,   /* reg = pred slot; neg = 1 for !p */
    IR_OPND_IMM,    /* imm = raw bits in the instruction's type (floats as their IEEE bits) */
    IR_OPND_SREG,   /* reg = ir_sreg */
    IR_OPND_ADDR,   /* [base + imm]: base is reg (REG slot) when has_reg, sym when sym != NONE;
                       count == 2: the base is the 64-bit pair vregs[0] (low 32 bits) and
                       vregs[1] (high), and reg == vregs[0] (SASS .E) */
    IR_OPND_VEC,    /* {v0, v1, ...}: count element slots in vregs; IR_REG_SINK for '_' */
    IR_OPND_LABEL,  /* imm = instruction index in the function */
    IR_OPND_FUNC,   /* sym = function index in the module */
    IR_OPND_SYM,    /* address of a variable (mov r, var; cvta from var): sym, imm = offset */
    IR_OPND_SINK,   /* '_' destination */
} ir_operand_kind;
/* "register", "immediate", ...; "?" when out of range. */
const char *ir_operand_kind_name(ir_operand_kind k);

enum { IR_REG_SINK = 0xFFFFFFFFu, IR_SYM_NONE = 0xFFFFFFFFu };
/* VEC element that is an immediate (PTX `mov.b32 d, {0, %rs1}`): its bits sit at the element's
 * position in the operand's `imm` (vectors of at most 64 bits in total). */
enum { IR_REG_IMM = 0xFFFFFFFEu };

/* Variable references: module-scope variables are 0..nvars-1 of the module; function-scope ones
 * are IR_SYM_FUNC_BASE + index into ir_func.vars. */
enum { IR_SYM_FUNC_BASE = 0x40000000u, IR_SYM_PARAM_BASE = 0x20000000u };
/* IR_SYM_PARAM_BASE + i: the function's i-th parameter; IR_SYM_PARAM_BASE + 0x10000 + i: its i-th
 * return value. */
enum { IR_SYM_RET_OFFSET = 0x10000u };

/* Special registers; the executor materialises them per warp. */
typedef enum ir_sreg {
    IR_SREG_TID_X, IR_SREG_TID_Y, IR_SREG_TID_Z,
    IR_SREG_NTID_X, IR_SREG_NTID_Y, IR_SREG_NTID_Z,
    IR_SREG_CTAID_X, IR_SREG_CTAID_Y, IR_SREG_CTAID_Z,
    IR_SREG_NCTAID_X, IR_SREG_NCTAID_Y, IR_SREG_NCTAID_Z,
    IR_SREG_LANEID, IR_SREG_WARPID, IR_SREG_NWARPID, IR_SREG_SMID, IR_SREG_NSMID, IR_SREG_GRIDID,
    IR_SREG_LANEMASK_EQ, IR_SREG_LANEMASK_LE, IR_SREG_LANEMASK_LT, IR_SREG_LANEMASK_GE,
    IR_SREG_LANEMASK_GT,
    IR_SREG_CLOCK, IR_SREG_CLOCK_HI, IR_SREG_CLOCK64, IR_SREG_GLOBALTIMER,
    IR_SREG_GLOBALTIMER_LO, IR_SREG_GLOBALTIMER_HI,
    IR_SREG_DYNAMIC_SMEM_SIZE, IR_SREG_TOTAL_SMEM_SIZE, IR_SREG_AGGR_SMEM_SIZE,
    IR_SREG_WARPSZ, /* WARP_SZ constant */
    /* heapcg: the CTA's reserved shared memory (docs/semantics.md, "Reserved shared memory") */
    IR_SREG_RESERVED_SMEM_BEGIN, IR_SREG_RESERVED_SMEM_END, IR_SREG_RESERVED_SMEM_CAP,
    IR_SREG_RESERVED_SMEM_0, IR_SREG_RESERVED_SMEM_1,
    IR_SREG_ENVREG0, /* %envreg0..31 follow */
    IR_SREG_COUNT = IR_SREG_ENVREG0 + 32
} ir_sreg;

typedef struct ir_operand {
    uint8_t kind;    /* ir_operand_kind */
    uint8_t neg;     /* PRED: negated; IMM/REG in float ops: never (neg is an instruction) */
    uint8_t has_reg; /* ADDR: base register present */
    uint8_t count;   /* VEC: number of elements (1..8) */
    uint32_t reg;    /* REG/PRED slot, SREG id, ADDR base slot */
    uint32_t sym;    /* ADDR/SYM/FUNC: variable or function reference; IR_SYM_NONE otherwise */
    uint32_t bank;   /* ADDR of a const-space access: the constant bank c[bank][...] its offset is
                        in (0 for PTX; a variable's bank is ir_var.const_bank) */
    int64_t imm;     /* IMM bits, ADDR/SYM byte offset, LABEL target index */
    uint32_t vregs[8]; /* VEC element slots */
} ir_operand;

/* ---- instructions ----
 * Operand layout per opcode (what the front-ends produce and the executor expects):
 *   ALU ops          dst[0]; src[0..2] in PTX order. type = the type suffix as written (mul.wide.s32:
 *                    S32, the result is 64-bit). cvt: type = destination, type2 = source.
 *                    cvt.rn.f16x2.f32 d, a, b: src[0] = a (upper half), src[1] = b (lower half).
 *                    set: type = destination, type2 = compared type. slct: type2 = type of c.
 *                    lop3: src[3] = IMM lut. Float immediates hold the IEEE bits of the type.
 *   SETP             dst[0] PRED, dst[1] PRED or NONE; src[0], src[1]; src[2] PRED when boolop.
 *   SELP             dst[0]; src[0], src[1]; src[2] PRED.
 *   TESTP            dst[0] PRED; src[0].
 *   MOV              dst[0] REG/PRED/VEC; src[0] REG/PRED/IMM/SREG/SYM/VEC/FUNC. A VEC on either side
 *                    packs or unpacks (element 0 is the least significant part).
 *   CVTA             dst[0]; src[0] REG or SYM; mem.space = window; IR_MOD_TO for cvta.to.
 *   LD, LDU          dst[0] REG or VEC; src[0] ADDR; src[1] policy when mem.has_policy.
 *   ST               src[0] ADDR; src[1] REG/IMM/VEC value; src[2] policy when mem.has_policy.
 *   ATOM             dst[0] REG; src[0] ADDR; src[1] b; src[2] c (cas) ; src[3] policy.
 *   RED              src[0] ADDR; src[1] b; src[2] policy.
 *   PREFETCH(U)      src[0] ADDR. The cache control is mem.cctl (PREFETCH), its cctl_levels,
 *                    cctl_lines and mem.l2_evict.
 *   APPLYPRIORITY,   src[0] ADDR; src[1] IMM size (128): the bytes the operation covers.
 *   DISCARD          mem.cctl (PRIORITY with mem.l2_evict, or DISCARD) and its selectors.
 *   CREATEPOLICY     dst[0]; sub = IR_POLICY_*; mem.l2_evict primary, mem.l2_secondary.
 *                    FRACTIONAL: src[0] fraction (IMM f32 bits or REG), NONE means 1.0.
 *                    RANGE: src[0] ADDR, src[1] primary size, src[2] total size.
 *                    CVT: src[0] access property (REG or IMM).
 *   BRA              src[0] LABEL.      BRX: src[0] REG index; xops = LABEL operands.
 *   CALL             src[0] FUNC (direct) or REG (indirect; src[1] FUNC of the .callprototype or
 *                    NONE); xops = arguments (SYM of a caller .param variable, REG or IMM);
 *                    xrets = return operands (SYM of a caller .param variable or REG).
 *   RET, EXIT, TRAP  no operands.       NANOSLEEP: src[0].
 *   BAR              sub = IR_BAR_*; src[0] barrier id (IMM/REG); src[1] thread count or NONE;
 *                    bar.red: dst[0] REG (popc) or PRED (and/or), src[2] PRED operand.
 *   BAR_WARP         src[0] member mask.
 *   MEMBAR, FENCE    mem.scope (membar.cta/gl/sys -> CTA/GPU/SYS), mem.sem for fence, mem.fence
 *                    the side effects.
 *   SHFL             dst[0] REG, dst[1] PRED or NONE; src[0] a, src[1] b, src[2] c, src[3] mask.
 *   VOTE             dst[0] PRED (all/any/uni) or REG (ballot); src[0] PRED; src[1] mask.
 *   MATCH            dst[0] REG, dst[1] PRED or NONE; src[0] value (type B32/B64); src[1] mask.
 *   REDUX            dst[0] REG; src[0] value; src[1] mask.
 *   ACTIVEMASK       dst[0] REG.
 *   MBARRIER         sub = IR_MBAR_*; the slots are listed with its row in ir_ops.def.
 *   CP_ASYNC, CP_ASYNC_COMMIT, CP_ASYNC_WAIT, CP_ASYNC_MBAR_ARRIVE: the slots are listed with
 *                    their rows in ir_ops.def ("asynchronous copies").
 */
typedef struct ir_insn {
    uint16_t op;     /* ir_opcode */
    uint8_t type;    /* ir_type of the result / operation */
    uint8_t type2;   /* second type: cvt source, set/slct source, dp4a b, mul.wide source width */
    uint32_t mods;   /* IR_MOD_* */
    uint8_t rnd;     /* ir_round */
    uint8_t cmp;     /* ir_cmp */
    uint8_t boolop;  /* ir_boolop */
    uint8_t sub;     /* opcode-specific sub-operation (IR_SHFL_*, IR_ATOM_*, ...) */
    uint8_t ndst, nsrc;
    uint8_t guard_neg;   /* 1: @!p */
    uint8_t has_guard;
    uint32_t guard;      /* pred slot of the guard */
    uint8_t flag_in;     /* condition flag the instruction reads (1..ir_machine.flag_count), or
                            IR_FLAG_NONE; PTX addc/subc/madc read IR_FLAG_CARRY */
    uint8_t flag_out;    /* condition flag it writes, or IR_FLAG_NONE; PTX .cc writes the carry.
                            The flags, not PTX's spelling of them in mods (IR_MOD_CC,
                            IR_MOD_CARRY_IN), are what the executor reads */
    uint8_t frag;        /* wmma.load/store: the matrix it moves (IR_FRAG_*); 0 otherwise */
    uint8_t type_b;      /* mma, wmma.mma: the element types of b and c (type: d, type2: a) */
    uint8_t type_c;
    uint8_t glue;        /* 1: an instruction the front-end added to carry out part of one of the
                            dialect's instructions (a constant-bank operand's load, packing a
                            register pair): it has the id of that instruction, which is not glue
                            and is next to it in the same run, and it is neither counted as a
                            warp instruction nor fetched on its own */
    uint8_t nomask;      /* 1: runs in every live lane of the warp (lanes that exist and have not
                            exited), whichever side of a divergent branch they wait on (vISA's
                            _NM execution mask; docs/visa.md, "Execution model"); the guard
                            still applies */
    ir_operand dst[2];   /* dst[1]: second result (setp p|q, shfl d|p, atom with no result: NONE) */
    ir_operand src[4];
    ir_mem_attrs mem;    /* memory ops, fences, cvta (space) */
    uint32_t xops_first, xops_count; /* CALL/BRX: operands in ir_func.xops */
    uint32_t xrets_first, xrets_count; /* CALL: return-value operands in ir_func.xops */
    uint32_t line, col;  /* position in the kernel text */
    uint32_t loc_file, loc_line; /* source position from .loc (file index, line); 0 when none */
    uint32_t id;         /* module-wide static instruction id (for counters) */
} ir_insn;

/* ---- the machine a module is written for ----
 * What the executor must know about the dialect's programmer-visible machine besides its
 * instructions. Each front-end fills ir_module.machine (PTX's values: ptx_lower.c,
 * ptx_lower_module); the executor honours every field or rejects the module when it prepares
 * it, naming the field (EXEC-UNSUP-005..008, docs/faults.md). */

/* How calls pass arguments and where the caller's state lives while the callee runs. */
typedef enum ir_call_conv {
    IR_CALL_PARAM_FRAME = 0, /* PTX: each call gets a fresh register file; arguments and return
                                values are copied through .param storage */
    IR_CALL_RETURN_STACK,    /* SASS CAL/RET: one register file; a call pushes its return
                                address on the call-return stack and ret pops it */
} ir_call_conv;

/* External functions the machine itself provides ("system calls"): a front-end marks the
 * declarations it knows (ir_func.syscall); the executor never recognises a function by name. */
typedef enum ir_syscall {
    IR_SYSCALL_NONE = 0,
    IR_SYSCALL_VPRINTF,    /* vprintf(format, argument buffer) -> int: device printf */
    IR_SYSCALL_ASSERTFAIL, /* __assertfail(message, file, line, function, char size) */
    IR_SYSCALL_MALLOC,     /* malloc(size in bytes, .b64) -> .b64 address: device heap */
    IR_SYSCALL_FREE,       /* free(address, .b64): device heap */
    IR_SYSCALL_COUNT
} ir_syscall;

/* Issue control of one instruction (SASS control codes, ../reference/sass-dialect.md section 2):
 * the stall after it, the yield hint, the scoreboards it sets and the ones it waits on, and the
 * dialect's registers it reads and writes, for the hazard checks and the timing model.
 * ir_func.ctrl has one per instruction when the dialect has control codes (NULL otherwise); glue
 * instructions have present == 0. */
enum { IR_SB_NONE = 7, IR_SCOREBOARDS = 6, IR_CTRL_REG_WORDS = 8 };
typedef struct ir_ctrl {
    uint8_t present;     /* 0: no control (glue) */
    uint8_t stall;       /* cycles 0..15 before the warp's next instruction may issue */
    uint8_t yield;       /* 1: the scheduler may switch warps */
    uint8_t wr_sb;       /* scoreboard raised until the results are written, or IR_SB_NONE */
    uint8_t rd_sb;       /* scoreboard raised until the sources are read, or IR_SB_NONE */
    uint8_t wait_mask;   /* bit i: issue waits until scoreboard i is clear */
    uint8_t depbar_sb;   /* DEPBAR.LE SBn, k: n, or IR_SB_NONE */
    uint8_t depbar_le;   /*   and k: wait until at most k of n's operations are pending */
    uint32_t reads[IR_CTRL_REG_WORDS];  /* bit r: register r (0..255) is read */
    uint32_t writes[IR_CTRL_REG_WORDS]; /* bit r: register r is written */
} ir_ctrl;

/* Condition flags are numbered 1..ir_machine.flag_count; 0 names none. */
enum { IR_FLAG_NONE = 0, IR_FLAG_CARRY = 1 /* PTX's only flag: the carry of add.cc/addc */ };

typedef struct ir_machine {
    /* register file */
    uint32_t reg_count;   /* registers per thread; 0: virtual, as many as a function declares */
    uint8_t reg_bits;     /* width of one register, 32 or 64; 0: typed virtual registers, each as
                             wide as its declared type (PTX) */
    uint8_t reg_pairs;    /* 1: a 64-bit value occupies an aligned pair of registers and a 128-bit
                             value an aligned quad (SASS R2:R3) */
    uint8_t has_zero_reg; /* 1: register zero_reg reads as zero and ignores writes (SASS RZ) */
    uint8_t flag_count;   /* condition flags per thread (PTX: 1, IR_FLAG_CARRY) */
    uint32_t zero_reg;
    /* instruction layout, for instruction fetch addresses: instructions of insn_bytes each, and
     * when ctrl_group > 0 a control word of ctrl_bytes before every ctrl_group instructions
     * (SASS of sm_50..sm_62: 8-byte instructions, one 8-byte control word per 3) */
    uint16_t insn_bytes;  /* PTX: 16, the size of the SASS instructions it becomes */
    uint8_t ctrl_group;
    uint8_t ctrl_bytes;
    uint8_t call_conv;    /* ir_call_conv */
    uint8_t warp_lanes;   /* lanes of the warp-like unit the executor runs: 0 reads as 32 (PTX,
                             SASS); a vISA thread's SimdSize, 1 to 32 (docs/architecture.md,
                             "Narrow warps") */
    uint8_t window_errors;/* ir_window_errors: an access outside the local or shared window or
                             its allocation */
    uint8_t scoreboards;  /* dependency scoreboards per warp (SASS: 6); 0: none, ir_func.ctrl
                             is NULL */
    uint8_t params_in_bank; /* 1: kernel parameters sit in constant bank params_bank at
                             params_offset, beside the launch constants (SASS: bank 0, 0x140) */
    uint8_t params_bank;
    uint32_t params_offset;
    uint32_t crs_cached;  /* call-return stack: entries per thread held in the SM's CRS cache
                             before older ones spill to local memory (0 with PARAM_FRAME) */
    uint32_t crs_max;     /* entries per thread the stack may hold in all */
    uint8_t has_image_bank; /* 1: image ops' IMM operands are word indices of 32-bit header-pool
                             entries (samplerPtr[31:20] | headerPtr[19:0]) in constant bank
                             image_bank, which the launch fills (SASS #tsPtrIdxU13) */
    uint8_t image_bank;
} ir_machine;

/* What an access outside the local or shared window, or outside its allocation, does. */
typedef enum ir_window_errors {
    IR_WINDOW_FAULT = 0,  /* the kernel faults (PTX) */
    IR_WINDOW_ZERO,       /* loads return 0, stores are dropped, and the error is reported
                             after the kernel (SASS LDL/LDS/STL/STS); misaligned addresses are
                             aligned down to the access size */
} ir_window_errors;

/* ---- variables ---- */
/* An address initialiser: the element at byte `offset` receives the address of `sym` + addend,
 * converted to generic when `generic` (PTX `generic(var)`). */
typedef struct ir_reloc {
    uint64_t offset;
    uint32_t sym;
    uint8_t generic;
    int64_t addend;
    uint8_t is_func; /* sym is a function index (PTX `{fn, fn}` tables of function addresses) */
} ir_reloc;

typedef struct ir_var {
    const char *name;
    uint8_t space;       /* ir_space */
    uint8_t type;        /* element type */
    uint8_t is_extern;   /* .extern (dynamic .shared arrays, external globals) */
    uint8_t is_visible;
    uint32_t align;      /* bytes; at least the element size */
    uint64_t size_bytes; /* total bytes; 0 for an unsized extern .shared array */
    const uint8_t *init; /* size_bytes of initial data, or NULL (zero) */
    ir_reloc *relocs;
    uint32_t nrelocs;
    uint32_t line, col;
    uint8_t const_bank;  /* .const variables: the constant bank that holds them (0 for PTX) */
    uint8_t image_ref;   /* 1: a PTX .surfref, 2: a PTX .texref: 8 bytes (type b64) that hold
                            the 64-bit handle of the image (texture) the launch binds to it;
                            image (texture) ops name it as SYM */
} ir_var;

typedef struct ir_param {
    const char *name;
    uint8_t type;       /* element type (.b8 for byte arrays) */
    uint8_t is_ptr;     /* .ptr attribute */
    uint8_t ptr_space;  /* .ptr.global etc. */
    uint32_t align;
    uint64_t size_bytes;
    uint64_t offset;    /* byte offset in the parameter block, aligned */
    uint32_t line, col;
} ir_param;

typedef struct ir_func {
    const char *name;
    uint8_t is_entry, is_extern, is_visible, is_weak, is_noreturn;
    uint32_t line, col;
    ir_param *params; uint32_t nparams; uint64_t params_bytes;
    ir_param *rets; uint32_t nrets;
    ir_insn *insns; uint32_t ninsns;
    ir_operand *xops; uint32_t nxops;  /* call argument/return operands */
    ir_var *vars; uint32_t nvars;      /* .local/.shared/.param/.reg-free vars declared in the body */
    uint32_t nregs;                    /* 64-bit register slots */
    uint32_t npreds;                   /* predicate slots */
    uint8_t *reg_types;                /* nregs: declared ir_type of each slot */
    const char **reg_names;            /* nregs: names for printing and diagnostics */
    const char **pred_names;           /* npreds */
    /* performance directives; 0 when absent */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg, maxnctapersm;
    uint32_t maxntid_line, maxntid_col, reqntid_line, reqntid_col; /* where they are; 0: absent */
    uint8_t has_callprototype;         /* this is a .callprototype, not a callable function */
    uint8_t syscall;                   /* ir_syscall: a body-less function the machine provides
                                          (the front-end marks it); IR_SYSCALL_NONE otherwise */
    ir_ctrl *ctrl;                     /* ninsns issue controls when machine.scoreboards > 0;
                                          NULL otherwise */
} ir_func;

typedef struct ir_module {
    arena arena;              /* owns everything below */
    const char *path;         /* file name used in diagnostics */
    uint32_t version_major, version_minor; /* .version */
    uint32_t target_sm;       /* e.g. 80 for sm_80, 90 for sm_90a */
    uint8_t target_arch_specific; /* sm_90a: 'a'; sm_100f: 'f'; 0 otherwise */
    uint32_t target_line, target_col; /* position of the sm_ name in .target; 0 when absent */
    uint8_t address_bits;     /* 32 or 64 */
    ir_var *vars; uint32_t nvars;
    ir_func *funcs; uint32_t nfuncs;
    const char **files; uint32_t nfiles; /* .file table: index -> path; index 0 unused */
    uint32_t ninsns_total;    /* static instruction ids are 0..ninsns_total-1 */
    ir_machine machine;       /* the machine the module is written for (filled by the front-end) */
} ir_module;

/* Frees a module and everything it owns. NULL is allowed. */
void ir_module_destroy(ir_module *m);
/* Looks up a function by name; returns its index or -1. */
int ir_module_find_func(const ir_module *m, const char *name);
/* Finds the instruction with module-wide id `id`; sets *func_out. Returns NULL when out of range. */
const ir_insn *ir_module_insn_by_id(const ir_module *m, uint32_t id, const ir_func **func_out);

#endif
