/* The LSC (load/store cache) family of Intel vISA: lsc_load, lsc_store, lsc_atomic_* and
 * lsc_fence as IGC 1.0.12504 prints them (docs/visa.md, "LSC instructions";
 * ../shared/reference/visa-lsc.md).
 *
 * An LSC instruction is read in two steps. The text is first parsed into a visa_lsc_msg, a
 * plain record of what was written (the mnemonic's parts, the ExecSize, the data shape, the
 * address, the atomic sources), then visa_lsc_check applies the verifier rules of the reference
 * (section 5 and 6) for the target platform. Both steps are pure: they know nothing of the
 * module, report through a callback and allocate nothing, so the unit tests drive them
 * directly. The parts of the text are taken from the spelling tables of visa_ops.def (the LSC
 * block); nothing else lists them.
 *
 * visa_lsc_msg, at the end, is the parser's entry: the instruction dispatcher (visa_insn.c)
 * hands it every mnemonic that starts with `lsc_` once it has read the predicate, the mnemonic
 * with its dotted modifiers and the execution size (when present); visa_lsc.c binds the pure
 * readers to the parser, checks for the kernel's platform and lowers to the IR. */
#ifndef GMS_VISA_VISA_LSC_H
#define GMS_VISA_VISA_LSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "visa/visa_internal.h"

/* The platforms whose rules differ: the payload limit is 8 GRFs of 32 bytes on Xe-HPG (DG2,
 * Arc) and of 64 bytes on Xe-HPC (PVC); the Xe2 cache pairs are refused on both. */
typedef enum visa_platform {
    VISA_PLATFORM_DG2 = 0, /* Xe-HPG: acm-g10; GenX_IR -platform DG2 */
    VISA_PLATFORM_PVC,     /* Xe-HPC: pvc, pvc-2t; GenX_IR -platform PVC */
    VISA_PLATFORM_COUNT
} visa_platform;

/* Bytes of one general register (GRF) on `p`: 32 (DG2) or 64 (PVC). */
unsigned visa_platform_grf_bytes(visa_platform p);

/* What an LSC mnemonic does (the table's KIND column). */
typedef enum visa_lsc_kind {
    VISA_LSC_LOAD = 0,  /* lsc_load: SIMT or transposed (block) load; %null destination:
                           prefetch */
    VISA_LSC_STORE,     /* lsc_store */
    VISA_LSC_ATOMIC,    /* lsc_atomic_<op> */
    VISA_LSC_FENCE,     /* lsc_fence.SFID.OP.SCOPE */
    VISA_LSC_LOAD_FORM, /* another load message (quad, strided, block2d, status): parsed to
                           the end of its mnemonic, then rejected by name */
    VISA_LSC_STORE_FORM /* another store message (quad, strided, block2d, uncompressed) */
} visa_lsc_kind;

/* The SFIDs (shared functions) an LSC message goes to; values as IGC's LSC_SFID. */
typedef enum visa_lsc_sfid {
    VISA_LSC_SFID_UGM = 0, /* untyped global memory */
    VISA_LSC_SFID_UGML,    /* low-bandwidth untyped global memory (cross-tile) */
    VISA_LSC_SFID_TGM,     /* typed global memory: fences only in gpumemsim */
    VISA_LSC_SFID_SLM,     /* shared local memory */
    VISA_LSC_SFID_COUNT
} visa_lsc_sfid;

/* Per-level cache controls; values as IGC's LSC_CACHE_OPT. */
typedef enum visa_lsc_cache {
    VISA_LSC_CACHE_DF = 0, /* default (the surface's MOCS) */
    VISA_LSC_CACHE_UC,     /* uncached */
    VISA_LSC_CACHE_CA,     /* cached */
    VISA_LSC_CACHE_WB,     /* write-back */
    VISA_LSC_CACHE_WT,     /* write-through */
    VISA_LSC_CACHE_ST,     /* streaming */
    VISA_LSC_CACHE_RI,     /* read-invalidate (last use) */
    VISA_LSC_CACHE_CC,     /* constant-cached (Xe2+) */
    VISA_LSC_CACHE_COUNT
} visa_lsc_cache;

/* Address models; values as IGC's LSC_ADDR_TYPE. */
typedef enum visa_lsc_model {
    VISA_LSC_MODEL_FLAT = 1, /* stateless: the offset is the address */
    VISA_LSC_MODEL_BSS,      /* bindless surface state + offset */
    VISA_LSC_MODEL_SS,       /* surface state + offset */
    VISA_LSC_MODEL_BTI,      /* binding-table index + offset */
    VISA_LSC_MODEL_ARG       /* the kernel-argument (indirect data) base + offset */
} visa_lsc_model;

/* Address sizes; a32u/a32s are the zero- and sign-extended 32-bit offsets of current IGC. */
typedef enum visa_lsc_addr_size {
    VISA_LSC_A16 = 1, VISA_LSC_A32, VISA_LSC_A64, VISA_LSC_A32U, VISA_LSC_A32S
} visa_lsc_addr_size;

/* Data sizes; values as IGC's LSC_DATA_SIZE. The u32 forms widen 8- or 16-bit memory data into
 * 32-bit register lanes (h: the high half). */
typedef enum visa_lsc_data_size {
    VISA_LSC_D8 = 1, VISA_LSC_D16, VISA_LSC_D32, VISA_LSC_D64, VISA_LSC_D8U32, VISA_LSC_D16U32,
    VISA_LSC_D16U32H
} visa_lsc_data_size;

/* Fence operations and scopes; values as IGC's LSC_FENCE_OP and LSC_SCOPE. */
typedef enum visa_lsc_fence_op {
    VISA_LSC_FENCE_NONE = 0, VISA_LSC_FENCE_EVICT, VISA_LSC_FENCE_INVALIDATE,
    VISA_LSC_FENCE_DISCARD, VISA_LSC_FENCE_CLEAN, VISA_LSC_FENCE_FLUSHL3, VISA_LSC_FENCE_TYPE6
} visa_lsc_fence_op;
typedef enum visa_lsc_scope {
    VISA_LSC_SCOPE_GROUP = 0, VISA_LSC_SCOPE_LOCAL, VISA_LSC_SCOPE_TILE, VISA_LSC_SCOPE_GPU,
    VISA_LSC_SCOPE_GPUS, VISA_LSC_SCOPE_SYSREL, VISA_LSC_SCOPE_SYSACQ
} visa_lsc_scope;

/* How many sources an atomic takes (reference section 1): none (`%null %null`), one
 * (`SRC %null`) or two (`CMP NEW`). */
typedef enum visa_lsc_arity { VISA_LSC_UNARY = 0, VISA_LSC_BINARY, VISA_LSC_TERNARY } visa_lsc_arity;

/* What gpumemsim does with a mnemonic of the table: runs it, or rejects it by name. */
typedef enum visa_lsc_support { VISA_LSC_RUN = 0, VISA_LSC_REJECT } visa_lsc_support;

/* One row of the LSC block of visa_ops.def: an untyped/fence mnemonic (VISA_LSC_OP) or an
 * atomic operation (VISA_LSC_ATOMIC, mnemonic "lsc_atomic_<op>"). */
typedef struct visa_lsc_op {
    const char *mnemonic;  /* "lsc_load", "lsc_atomic_iadd" */
    uint8_t kind;          /* visa_lsc_kind */
    uint8_t support;       /* visa_lsc_support */
    uint8_t arity;         /* atomics: visa_lsc_arity */
    uint8_t atom;          /* atomics: the IR_ATOM_* it lowers to (0: glue, see lowering) */
    uint8_t is_float;      /* atomics: the operation is on floating-point data */
    const char *why;       /* VISA_LSC_REJECT: why gpumemsim rejects it ("block 2D messages") */
} visa_lsc_op;

/* The row of the mnemonic `text` (len bytes, without its dotted suffixes), or NULL. */
const visa_lsc_op *visa_lsc_find_op(const char *text, size_t len);
/* Every row in table order; *count receives how many. */
const visa_lsc_op *visa_lsc_ops(size_t *count);

/* Positions of an instruction's parts, for diagnostics: 1-based line and byte column, 0 when
 * the part is absent. */
typedef struct visa_lsc_pos {
    uint32_t line, col;
} visa_lsc_pos;

enum { VISA_LSC_MAX_CACHE_LEVELS = 3 };

/* A variable an operand names, as the front-end's declarations describe it. */
typedef struct visa_lsc_var {
    uint32_t bytes; /* bytes from the operand's first element to the end of the variable */
    uint32_t id;    /* the front-end's handle (for the lowering) */
} visa_lsc_var;

/* How the operand reader finds variables: find(user, name, len, out) fills *out and returns 1
 * for a declared general (v_type=G) variable, 0 otherwise (the reader reports VISA-LSC-012). */
typedef struct visa_lsc_lookup {
    int (*find)(void *user, const char *name, size_t len, visa_lsc_var *out);
    void *user;
} visa_lsc_lookup;

/* What an LSC instruction says, as written (parsed, not yet checked). */
typedef struct visa_lsc_msg {
    const visa_lsc_op *op;    /* the mnemonic's row (never NULL once parsed) */
    uint8_t sfid;             /* visa_lsc_sfid */
    uint8_t ncache;           /* cache suffixes written: 0, 2 (.L1.L3) or 3 (.L1.L2.L3) */
    uint8_t cache[VISA_LSC_MAX_CACHE_LEVELS]; /* visa_lsc_cache, L1 first */
    uint8_t has_pred;         /* a predicate precedes the mnemonic */
    uint8_t has_exec;         /* an ExecSize was written */
    uint8_t exec_size;        /* lanes: 1, 2, 4, 8, 16 or 32 */
    uint8_t fence_op;         /* fences: visa_lsc_fence_op */
    uint8_t scope;            /* fences: visa_lsc_scope */
    uint8_t scope_system;     /* fences: the scope was written `.system` (read as .sysrel) */
    uint8_t data_null;        /* the data operand is %null (a load: prefetch) */
    uint8_t data_size;        /* visa_lsc_data_size */
    uint8_t vec;              /* elements per lane (transposed: per message): 1..64 */
    uint8_t transposed;       /* the shape ends in `t` */
    uint8_t model;            /* visa_lsc_model */
    uint8_t has_surface;      /* a parenthesised surface or base followed the model */
    uint8_t addr_size;        /* visa_lsc_addr_size */
    uint8_t src1_null, src2_null; /* atomics: whether each source is %null */
    uint32_t scale;           /* address scale (1 when none written) */
    int64_t offset;           /* immediate address offset in bytes */
    uint32_t data_var_bytes;  /* bytes of the data variable from its first element; 0: unknown */
    uint32_t addr_var_bytes;  /* bytes of the address variable; 0: unknown */
    uint32_t src_var_bytes[2]; /* atomics: bytes of each source variable; 0: unknown or %null */
    visa_lsc_var data_var;    /* the data variable (unless data_null) */
    visa_lsc_var addr_var;    /* the address variable */
    visa_lsc_var src_var[2];  /* atomics: the sources (unless %null) */
    visa_lsc_pos at;          /* the mnemonic */
    visa_lsc_pos at_cache;    /* the first cache suffix */
    visa_lsc_pos at_exec;     /* the ExecSize */
    visa_lsc_pos at_pred;     /* the predicate */
    visa_lsc_pos at_data;     /* the data operand (destination of loads/atomics, source of
                                 stores) */
    visa_lsc_pos at_addr;     /* the address operand */
    visa_lsc_pos at_src[2];   /* atomics' sources */
    visa_lsc_pos at_scope;    /* fences: the scope */
} visa_lsc_msg;

/* Receives one diagnostic: `rule` ("VISA-LSC-020"), where (`at`), `warning` (0: an error) and
 * the message (NUL-terminated, borrowed for the call). */
typedef void (*visa_lsc_report_fn)(void *user, const char *rule, visa_lsc_pos at, int warning,
                                   const char *message);

/* Splits the dotted mnemonic `text` (len bytes: "lsc_load.ugm.ca.ca", "lsc_fence.ugm.evict.gpu")
 * into `out` (op, sfid, cache controls, fence op and scope; the rest of `out` is untouched),
 * case-sensitively as IGC's lexer does. `at` is the position of the mnemonic; part k's column is
 * at.col plus its byte offset. Reports VISA-LSC-001 (unknown mnemonic), -002 (a form gpumemsim
 * rejects by name), -003 (SFID), -004 (cache suffixes), -007/-008 (fence op and scope) and the
 * warning -009 (.system read as .sysrel). Returns the number of errors (warnings not counted).
 * Implements reference sections 1, 3, 4 and 6. */
int visa_lsc_parse_mnemonic(const char *text, size_t len, visa_lsc_pos at, visa_lsc_msg *out,
                            visa_lsc_report_fn report, void *user);

/* Reads the data shape after `VAR:` (len bytes: "d32x4t", "d8c32", "u16") into out->data_size,
 * out->vec and out->transposed. Returns 0, or 1 after reporting VISA-LSC-010 at `at`. Quad
 * channel masks (".xyzw") and block-2D shapes are not shapes of the forms gpumemsim runs and are
 * refused here. Implements reference section 2, "Data operand". */
int visa_lsc_parse_shape(const char *text, size_t len, visa_lsc_pos at, visa_lsc_msg *out,
                         visa_lsc_report_fn report, void *user);

/* Reads the operands of a parsed load, store or atomic from `text` (len bytes: the rest of the
 * line after the ExecSize; a `//` comment ends it), whose first byte is at `at`: the data
 * operand and shape, the address (model, surface, scale, variable, offsets, size) and the atomic
 * sources, into `out`, looking variables up through `look`. A fence takes no operands. Reports
 * VISA-LSC-010 (shape), -011 (address), -012 (operands; unknown variables) or, for a fence,
 * -006, and returns the number of errors (0 or 1: reading stops at the first). */
int visa_lsc_parse_operands(const char *text, size_t len, visa_lsc_pos at, visa_lsc_msg *out,
                            const visa_lsc_lookup *look, visa_lsc_report_fn report, void *user);

/* The address size spelled `text` (len bytes: "a64"), or 0. */
unsigned visa_lsc_addr_size_from(const char *text, size_t len);
/* The address model spelled `text` (len bytes: "flat", "bti"), or 0. */
unsigned visa_lsc_model_from(const char *text, size_t len);

/* Applies the verifier rules (reference sections 4, 5 and 6) to a parsed instruction for
 * platform `p`: cache pairs per operation, SFID and platform; address sizes; vector, transpose
 * and payload limits; atomic data sizes and sources; the SLM fence rule; the predicate and
 * ExecSize a fence may not have. Reports each broken rule once (VISA-LSC-005, -006 and
 * -020 ... -041) and returns the number of errors. */
int visa_lsc_check(const visa_lsc_msg *in, visa_platform p, visa_lsc_report_fn report,
                   void *user);

/* Bytes of one element in registers (d8u32: 4) and in memory (d8u32: 1) for data size `ds`. */
unsigned visa_lsc_reg_bytes(unsigned ds);
unsigned visa_lsc_mem_bytes(unsigned ds);

/* Printed names, for messages and listings: "ugm", "ca", "evict", "sysrel", "d8u32", "a32u",
 * "bti"; "?" when out of range. */
const char *visa_lsc_sfid_name(unsigned v);
const char *visa_lsc_cache_name(unsigned v);
const char *visa_lsc_fence_op_name(unsigned v);
const char *visa_lsc_scope_name(unsigned v);
const char *visa_lsc_data_size_name(unsigned v);
const char *visa_lsc_addr_size_name(unsigned v);
const char *visa_lsc_model_name(unsigned v);

/* Reads the LSC instruction `h` (the cursor is after its execution size, or after its
 * modifiers when the line has none), checks its rules for the kernel's platform (the parser's
 * grf_bytes: 64 is PVC, 32 DG2) and lowers it with visa_emit and the storage map.
 *   p  borrowed; the parser (diagnostics go to its list)
 *   h  borrowed; the instruction head (mnemonic token, modifiers, predicate, execution size)
 * Returns true when the instruction was lowered; false after at least one diagnostic. Either way
 * the cursor is past the line. Reports the VISA-LSC rules (docs/visa.md, "LSC instructions"). */
bool visa_lsc_insn(visa_parser *p, const visa_insn_head *h);

/* Writes the LSC rows of visa_ops.def for `check --list-ops`: each mnemonic with its operands or
 * its rejection, then the spellings of each part and the legal cache pairs. */
void visa_lsc_list_ops(void (*emit)(void *user, const char *line), void *user);

#endif
