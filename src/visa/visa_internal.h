/* What the vISA front-end's files share (and what visa_lsc.c builds on): the compiled table
 * (visa_ops.def), the declarations of a kernel (variables with their aliases and .input
 * offsets), the parsed operand forms (execution size and mask, predicate, register regions,
 * typed immediates), the parser state and the lowering helpers. Nothing outside src/visa/
 * includes this.
 *
 * The pipeline is one pass: visa_parse.c reads the directives; each `.decl` becomes a
 * visa_var; each instruction line is parsed (visa_insn.c: predicate, mnemonic, modifiers,
 * execution size, then the operands of its form with visa_operand.c) and lowered at once
 * (visa_lower.c) into the IR function of the kernel, because every declaration precedes the
 * code in IGC's output. Mnemonics that start with `lsc_` are handed to visa_lsc_insn
 * (visa_lsc.h) after the execution size. docs/visa.md describes the dialect. */
#ifndef GMS_VISA_VISA_INTERNAL_H
#define GMS_VISA_VISA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/dynarray.h"
#include "frontend/fe_cursor.h"
#include "frontend/fe_labels.h"
#include "ir/ir.h"

/* ---- the table ---- */
typedef enum visa_op_id {
#define VISA_OP(id, mn, irop, form, rule) VISA_OP_##id,
#include "visa/visa_ops.def"
#undef VISA_OP
    VISA_OP_COUNT
} visa_op_id;

/* Operand shapes (the FORM column). */
typedef enum visa_form {
    VISA_FORM_NONE,    /* (exec) and nothing else: ret */
    VISA_FORM_NOEXEC,  /* no execution size, no operand: barrier */
    VISA_FORM_UNARY,   /* (exec) dst src0 */
    VISA_FORM_BINARY,  /* (exec) dst src0 src1 */
    VISA_FORM_TERNARY, /* (exec) dst src0 src1 src2 */
    VISA_FORM_CARRY,   /* (exec) dst carry src0 src1 */
    VISA_FORM_CMP,     /* cmp.rel (exec) P src0 src1 */
    VISA_FORM_GOTO     /* (exec) label */
} visa_form;

typedef struct visa_op_row {
    const char *mnemonic;
    uint16_t ir_op; /* ir_opcode, or IR_OP_COUNT: rejected by name */
    uint8_t form;   /* visa_form */
    const char *rule;
} visa_op_row;
extern const visa_op_row visa_op_rows[VISA_OP_COUNT];

/* The row whose mnemonic is text[0, len), or -1. */
int visa_find_op(const char *text, size_t len);

/* ---- types ---- */
typedef enum visa_type {
    VISA_T_UB, VISA_T_B, VISA_T_UW, VISA_T_W, VISA_T_UD, VISA_T_D, VISA_T_UQ, VISA_T_Q,
    VISA_T_HF, VISA_T_BF, VISA_T_F, VISA_T_DF, VISA_T_BOOL, VISA_T_COUNT
} visa_type;

typedef struct visa_type_info {
    const char *name; /* as written after `type=` or `:` of an immediate */
    uint8_t bytes;
    uint8_t ir_type;  /* ir_type */
} visa_type_info;
extern const visa_type_info visa_types[VISA_T_COUNT];

/* The type named text[0, len), or -1. */
int visa_find_type(const char *text, size_t len);

/* ---- declarations ---- */
typedef enum visa_vkind {
    VISA_V_GENERAL = 'G', VISA_V_PRED = 'P', VISA_V_ADDR = 'A', VISA_V_SAMPLER = 'S',
    VISA_V_SURFACE = 'T'
} visa_vkind;

/* The predefined variables (`%null`, `%r0`, ...: the comment block IGC prints at the top). */
typedef enum visa_predef {
    VISA_PRE_NONE = 0, VISA_PRE_NULL, VISA_PRE_THREAD_X, VISA_PRE_THREAD_Y, VISA_PRE_GROUP_ID_X,
    VISA_PRE_GROUP_ID_Y, VISA_PRE_GROUP_ID_Z, VISA_PRE_TSC, VISA_PRE_R0, VISA_PRE_ARG,
    VISA_PRE_RETVAL, VISA_PRE_SP, VISA_PRE_FP, VISA_PRE_HW_ID, VISA_PRE_SR0, VISA_PRE_CR0,
    VISA_PRE_CE0, VISA_PRE_DBG0, VISA_PRE_COLOR, VISA_PRE_IMPL_ARG_BUF_PTR,
    VISA_PRE_LOCAL_ID_BUF_PTR, VISA_PRE_MSG0, VISA_PRE_SLM, VISA_PRE_BSS, VISA_PRE_SCRATCH,
    VISA_PRE_COUNT
} visa_predef;

/* One declared (or predefined) variable. Element e of a variable with an alias lives at byte
 * alias_offset + e * bytes of its base; root and root_offset follow the aliases down to the
 * variable that owns the storage. */
typedef struct visa_var {
    const char *name;     /* borrowed from the module text */
    uint32_t len;
    uint8_t kind;         /* visa_vkind */
    uint8_t type;         /* visa_type (G, A); VISA_T_BOOL for P */
    uint8_t predef;       /* visa_predef, or 0 for a declared variable */
    uint8_t is_input;
    uint32_t num_elts;
    uint32_t align_bytes;
    int32_t alias;        /* index of the base variable, or -1 */
    uint32_t alias_offset;/* bytes into the base */
    int32_t root;         /* index of the storage owner (itself without an alias) */
    uint32_t root_offset; /* bytes into the root */
    uint32_t input_offset, input_size; /* .input: bytes in the thread payload */
    uint32_t line, col;
    uint8_t mode;         /* root only: how its storage is lowered (visa_lower.c): 0 not yet
                             accessed, 1 uniform (scalar) slots, 2 per-lane (vector) slots */
    uint8_t slot_bytes;   /* root only: bytes of one slot, the widest element type of the root
                             and its aliases */
} visa_var;

/* ---- operands ---- */
/* The execution size and mask of an instruction: `(M5_NM, 16)`. */
typedef struct visa_exec {
    uint8_t present;
    uint8_t size;         /* 1, 2, 4, 8, 16, 32 lanes */
    uint8_t lane_offset;  /* first lane: (n - 1) * 4 for Mn */
    uint8_t nomask;       /* _NM: runs whatever the execution mask */
} visa_exec;

/* A predicate `(P1)`, `(!P1)`, `(P1.any)`, `(P1.all)`. */
typedef struct visa_pred {
    uint8_t present, neg;
    uint8_t ctrl;         /* 0, 'y' (.any), 'l' (.all) */
    int32_t var;          /* index of a P variable */
    uint32_t line, col;
} visa_pred;

typedef enum visa_opnd_kind {
    VISA_O_NONE = 0, VISA_O_REG, VISA_O_IMM, VISA_O_PRED, VISA_O_NULL, VISA_O_LABEL
} visa_opnd_kind;

/* A register region `(-)V(r,c)<v;w,h>` (source), `V(r,c)<h>` (destination), a typed immediate
 * `0x4c0:ud`, a predicate variable or `%null`. Elements are counted in the operand's type, which
 * is its variable's; rows are GRF rows of visa_parser.grf_bytes. */
typedef struct visa_operand {
    uint8_t kind;          /* visa_opnd_kind */
    uint8_t type;          /* visa_type: the variable's, or the immediate's */
    uint8_t neg, abs;      /* source modifiers (-) (abs) (-abs) */
    uint8_t is_dst;
    int32_t var;           /* REG, PRED: the variable */
    uint32_t row, col;     /* REG */
    uint32_t vstride, width, hstride; /* REG: source <v;w,h>; destination: hstride only */
    uint64_t imm;          /* IMM: bits, zero-extended */
    int32_t label;         /* LABEL: index in the parser's labels */
    uint32_t line, col_pos;
} visa_operand;

/* The head of an instruction as the dispatcher saw it: what precedes the operands. */
typedef struct visa_insn_head {
    const fe_token *mnemonic; /* the first word: `lsc_load`, `cmp`, `add` */
    const fe_token *mods[8];  /* the dotted words after it, in order: `.ugm`, `.ca`, `.lt` */
    uint32_t nmods;
    uint8_t sat;              /* `.sat` was among the modifiers (not kept in mods) */
    visa_pred pred;
    visa_exec exec;           /* exec.present is 0 when the line has none (lsc_fence) */
    uint32_t line, col;
} visa_insn_head;

/* ---- the parser ---- */
typedef struct visa_parser {
    fe_cursor cur;
    diag_list *dl;
    ir_module *m;
    dynarray vars;        /* visa_var: the predefined ones first, then each .decl */
    dynarray funcs;       /* ir_func */
    dynarray insns;       /* ir_insn of the function being read */
    dynarray reg_types;   /* uint8_t ir_type per IR register of the function */
    fe_labels labels;
    uint32_t insn_ids;    /* module-wide instruction ids given out */
    uint32_t grf_bytes;   /* 32 (Xe-HPG) or 64 (Xe-HPC): see visa_parse.c */
    uint32_t simd_size;   /* .kernel_attr SimdSize; 0 until given */
    uint32_t per_thread_input_bytes; /* .kernel_attr PerThreadInputSize */
    uint32_t npreds;
    const char *kernel_name; /* borrowed; NULL before .kernel */
    uint32_t kernel_len, kernel_line, kernel_col;
    dynarray slots;       /* visa_slot (visa_lower.c): storage -> IR register */
    dynarray prologue;    /* ir_insn: the payload prologue placed before the body */
    dynarray params;      /* ir_param: the cross-thread .inputs */
    dynarray post_glue;   /* uint32_t: body indices of glue that finishes the instruction before
                             it (a bit-field insert) rather than preparing the next one */
    uint32_t nregs;       /* IR registers of the function (reg_types.count) */
    uint32_t laneid_reg;  /* the register that holds %laneid; UINT32_MAX until needed */
    uint32_t range_pred[8][6]; /* pred + 1 for lanes [4i, 4i + 2^j); 0 until needed */
    uint32_t func_line, func_col;
    bool in_function;
    bool version_seen;
} visa_parser;

/* Reports an error with `rule` at line:col (muted cursors drop it). */
void visa_error(visa_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));
/* A syntax error (VISA-PARSE-001) at the current token: "expected <what>, found <token>". */
void visa_expected(visa_parser *p, const char *what);
/* Skips the rest of the current line (recovery after an error on it). */
void visa_skip_line(visa_parser *p, uint32_t line);

/* The variable named by token `t` (an IDENT: `V0042`, `P1`, `%r0`), or -1 (unreported). */
int32_t visa_find_var(const visa_parser *p, const fe_token *t);
/* The variable at index `v` (valid until the next declaration). */
visa_var *visa_var_at(const visa_parser *p, int32_t v);

/* ---- operand parsers (visa_operand.c): each returns false after reporting ---- */
/* `(Mn[_NM], size)`; the cursor is at '('. VISA-PARSE-005. */
bool visa_parse_exec(visa_parser *p, visa_exec *out);
/* A destination `V(r,c)<h>` or `%null`. */
bool visa_parse_dst(visa_parser *p, visa_operand *out);
/* A source: an optional modifier `(-)`, `(abs)`, `(-abs)`, then `V(r,c)<v;w,h>`, or a typed
 * immediate `0x..:type` / `-5:d`, or `%null`. */
bool visa_parse_src(visa_parser *p, visa_operand *out);
/* A variable name alone (LSC data and address operands: `V0057` in `V0057:d32`), kind checked by
 * the caller. Returns its index or -1 after VISA-SEM-002. */
int32_t visa_parse_var_name(visa_parser *p);

/* ---- lowering (visa_lower.c) ---- */
/* Appends an IR instruction of `op` with the head's predicate as its guard and its position;
 * NULL after out of memory. Valid until the next append. */
ir_insn *visa_emit(visa_parser *p, uint16_t op, const visa_insn_head *h);
/* The IR operand that reads source `o` for the lanes of `ex` as `want` (an ir_type), emitting
 * glue before the instruction where the region needs it. False after a diagnostic
 * (VISA-UNSUP-005 for cross-lane regions). */
bool visa_lower_src(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                    uint8_t want, ir_operand *out);
/* The IR register operand that receives destination `o` for the lanes of h->exec. */
bool visa_lower_dst(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                    ir_operand *out);
/* The register that holds elements [elem, elem + lanes) of variable `var`, lane L of the thread
 * holding element elem + (L - ex->lane_offset): what LSC data and address operands use. An LSC
 * vector of k components per lane is laid out component after component, each starting on a GRF
 * boundary: component j at element j * roundup(ex->size * size, grf_bytes) / size. False after a
 * diagnostic (VISA-UNSUP-005 when those elements are held by other lanes, VISA-UNSUP-006 when
 * they are part of a wider register slot). */
bool visa_lane_reg(visa_parser *p, int32_t var, uint32_t elem, const visa_exec *ex,
                   uint32_t line, uint32_t col, ir_operand *out);

/* A memory access of execution size 1 happens once per thread, not once per lane (the IR runs
 * every active lane): emits glue computing a predicate that holds in the thread's lowest active
 * lane only (activemask & lanemask_lt == 0) and returns it in *pred, for the access's guard.
 * False after out of memory or for a predicated head (VISA-UNSUP-006). (visa_svm.c) */
bool visa_elect_lane(visa_parser *p, const visa_insn_head *h, uint32_t *pred);

#endif
