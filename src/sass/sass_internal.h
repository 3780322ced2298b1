/* What the SASS front-end's files share: the compiled table (sass_ops.def), the parsed form of a
 * kernel (directives, instructions with their modifiers, operands and control fields), and the
 * entry points of the checker and the lowering. Nothing outside src/sass/ includes this.
 *
 * The pipeline, per kernel: sass_parse.c reads the directives and the lines into sass_insn
 * records; at the kernel's end sass_check.c applies every legality rule (reference sections
 * 2.4, 2.5 and 4, docs/sass.md) and settles the control fields' defaults; sass_lower.c and
 * sass_lower_mem.c turn the records into one ir_func. */
#ifndef GMS_SASS_SASS_INTERNAL_H
#define GMS_SASS_SASS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/dynarray.h"
#include "frontend/fe_cursor.h"
#include "frontend/fe_labels.h"
#include "ir/ir.h"

/* ---- the table ---- */
typedef enum sass_op_id {
#define SASS_OP(id, mn, irop, form, groups, cops, ctrl, stall, rule) SASS_OP_##id,
#include "sass/sass_ops.def"
#undef SASS_OP
    SASS_OP_COUNT
} sass_op_id;

/* Modifier groups: one value per group per instruction. */
typedef enum sass_group {
    SASS_G_SIZE, SASS_G_E, SASS_G_U, SASS_G_COP, SASS_G_CACHE, SASS_G_CCTLOP, SASS_G_ATOMOP,
    SASS_G_SPIN, SASS_G_ATOMSZ, SASS_G_CMP, SASS_G_U32, SASS_G_BOOL, SASS_G_BOOL2, SASS_G_LOPOP,
    SASS_G_LUT, SASS_G_X, SASS_G_CC, SASS_G_PSL, SASS_G_MRG, SASS_G_CBCC, SASS_G_SCOPE,
    SASS_G_IVALL, SASS_G_BAROP, SASS_G_BARRED, SASS_G_DEPBAR, SASS_G_BRAU, SASS_G_LMT,
    SASS_G_KEEP, SASS_G_SUMODE, SASS_G_BA, SASS_G_DIM, SASS_G_CLAMP, SASS_G_CHMASK, SASS_G_COUNT
} sass_group;
#define G_(name) (UINT64_C(1) << SASS_G_##name)
#define G_SIZE G_(SIZE)
#define G_E G_(E)
#define G_U G_(U)
#define G_COP G_(COP)
#define G_CACHE G_(CACHE)
#define G_CCTLOP G_(CCTLOP)
#define G_ATOMOP G_(ATOMOP)
#define G_SPIN G_(SPIN)
#define G_ATOMSZ G_(ATOMSZ)
#define G_CMP G_(CMP)
#define G_U32 G_(U32)
#define G_BOOL G_(BOOL)
#define G_BOOL2 G_(BOOL2)
#define G_LOPOP G_(LOPOP)
#define G_LUT G_(LUT)
#define G_X G_(X)
#define G_CC G_(CC)
#define G_PSL G_(PSL)
#define G_MRG G_(MRG)
#define G_CBCC G_(CBCC)
#define G_SCOPE G_(SCOPE)
#define G_IVALL G_(IVALL)
#define G_BAROP G_(BAROP)
#define G_BARRED G_(BARRED)
#define G_DEPBAR G_(DEPBAR)
#define G_BRAU G_(BRAU)
#define G_LMT G_(LMT)
#define G_KEEP G_(KEEP)
#define G_SUMODE G_(SUMODE)
#define G_BA G_(BA)
#define G_DIM G_(DIM)
#define G_CLAMP G_(CLAMP)
#define G_CHMASK G_(CHMASK)

/* Values of the groups that are not IR enumerations. */
enum { SASS_SZ_32 = 0, SASS_SZ_U8, SASS_SZ_S8, SASS_SZ_U16, SASS_SZ_S16, SASS_SZ_64,
       SASS_SZ_128 };
enum { SASS_COP_CA = 0, SASS_COP_CG, SASS_COP_CS, SASS_COP_LU, SASS_COP_CI, SASS_COP_CV,
       SASS_COP_WB, SASS_COP_WT, SASS_COP_COUNT };
#define C_(name) (1u << SASS_COP_##name)
#define C_CA C_(CA)
#define C_CG C_(CG)
#define C_CS C_(CS)
#define C_LU C_(LU)
#define C_CI C_(CI)
#define C_CV C_(CV)
#define C_WB C_(WB)
#define C_WT C_(WT)
enum { SASS_CACHE_D = 0, SASS_CACHE_U, SASS_CACHE_C, SASS_CACHE_I, SASS_CACHE_CRS };
enum { SASS_CCTL_NONE = 0, SASS_CCTL_PF1, SASS_CCTL_PF2, SASS_CCTL_WB, SASS_CCTL_IV,
       SASS_CCTL_RS, SASS_CCTL_IVALL, SASS_CCTL_WBALL, SASS_CCTL_QRY1, SASS_CCTL_PF1_5,
       SASS_CCTL_RSLB };
enum { SASS_ATOM_SAFEADD = 32, SASS_ATOM_CAST };
enum { SASS_ASZ_U32 = 0, SASS_ASZ_S32, SASS_ASZ_U64, SASS_ASZ_S64, SASS_ASZ_F32,
       SASS_ASZ_F16X2, SASS_ASZ_F16X2_FTZ, SASS_ASZ_SD32, SASS_ASZ_SD64 }; /* F16X2..: surfaces */
enum { SASS_SU_D = 1, SASS_SU_P };
enum { SASS_LOP_AND = 0, SASS_LOP_OR, SASS_LOP_XOR, SASS_LOP_PASS_B };
enum { SASS_SCOPE_VC = 16 };
enum { SASS_BAR_RED = 16, SASS_BAR_SCAN, SASS_BAR_SYNCALL };
enum { SASS_DEPBAR_LE = 1, SASS_DEPBAR_ALL };

/* Operand shapes (the FORM column). */
typedef enum sass_form {
    SASS_FORM_MOV,      /* Rd, Rb | ImmS20 | c[b][o] */
    SASS_FORM_MOV32I,   /* Rd, Imm32 */
    SASS_FORM_S2R,      /* Rd, SR_name */
    SASS_FORM_IADD,     /* Rd, {-}Ra, {-}Rb | ImmS20 | c[b][o] */
    SASS_FORM_IADD32I,  /* Rd, Ra, Imm32 */
    SASS_FORM_ISCADD,   /* Rd, Ra, Rb | ImmS20 | c[b][o], Sh5 */
    SASS_FORM_BINARY,   /* Rd, Ra, Rb | ImmS20 | c[b][o] */
    SASS_FORM_TERNARY,  /* Rd, Ra, Rb | ImmS20 | c[b][o], Rc */
    SASS_FORM_LOP,      /* Rd, Ra, {~}Rb | ImmS20 | c[b][o] */
    SASS_FORM_LOP32I,   /* Rd, Ra, Imm32 */
    SASS_FORM_LOP3,     /* Rd, Ra, Rb | ImmS20 | c[b][o], Rc, LUT */
    SASS_FORM_XMAD,     /* Rd, Ra{.H1}, Rb{.H1} | Imm16 | c[b][o]{.H1}, Rc */
    SASS_FORM_IMNMX,    /* Rd, Ra, Rb | ImmS20 | c[b][o], PT | !PT */
    SASS_FORM_ISETP,    /* Pd, Pn, Ra, Rb | ImmS20 | c[b][o], {!}Pa */
    SASS_FORM_PSETP,    /* Pd, Pn, {!}Pa, {!}Pb, {!}Pc */
    SASS_FORM_SEL,      /* Rd, Ra, Rb | ImmS20 | c[b][o], {!}Pa */
    SASS_FORM_LOAD,     /* Rd, [Ra + Imm] */
    SASS_FORM_STORE,    /* [Ra + Imm], Rb */
    SASS_FORM_LDC,      /* Rd, c[b][Ra + Imm] */
    SASS_FORM_ATOM,     /* Rd, [Ra + Imm], Rb {, Rc} */
    SASS_FORM_RED,      /* [Ra + Imm], Rb */
    SASS_FORM_CCTL,     /* [Ra + Imm] | [Imm] | nothing (IVALL, WBALL) */
    SASS_FORM_BAR,      /* {Rd | Pd,} a {, b} {, {!}Pa} */
    SASS_FORM_DEPBAR,   /* SBn, k {, {sb...}} | {sb...} | nothing (.ALL) */
    SASS_FORM_LABEL,    /* label */
    SASS_FORM_NONE,     /* no operands */
    SASS_FORM_SRC1,     /* Ra | Imm */
    SASS_FORM_DST1,     /* Rd */
    SASS_FORM_SURFACE,  /* SUATOM {Ps,} Rd, [Ra], Rb, Rc | ImmU13; SULD Rd, [Ra], Rc | ImmU13;
                           SUST and SURED [Ra], Rb, Rc | ImmU13 */
} sass_form;

typedef enum sass_ctrl_class { SASS_CT_ALU, SASS_CT_VAR, SASS_CT_NORES } sass_ctrl_class;

typedef struct sass_op_row {
    const char *mnemonic;
    uint16_t ir_op;   /* ir_opcode; IR_OP_COUNT for none */
    uint8_t form;     /* sass_form */
    uint8_t ctrl;     /* sass_ctrl_class */
    uint64_t groups;  /* G_* bits */
    uint32_t cops;    /* C_* bits */
    uint8_t stall;    /* minimum stall */
    const char *rule;
} sass_op_row;

typedef struct sass_mod_row {
    const char *text; /* ".F32.FTZ.RN": dots included */
    uint8_t group;    /* sass_group */
    uint32_t value;
} sass_mod_row;

extern const sass_op_row sass_op_rows[SASS_OP_COUNT];
extern const sass_mod_row sass_mod_rows[];
extern const size_t sass_mod_row_count;
extern const char *const sass_group_names[SASS_G_COUNT];
extern const char *const sass_cop_names[SASS_COP_COUNT];

/* The row of mnemonic `text` (len bytes), or -1. */
int sass_find_op(const char *text, size_t len);

/* ---- lexer ---- */
typedef enum sass_tok_kind {
    SASS_TOK_MAXAS = FE_TOK_DIALECT, /* a maxas control prefix ww:r:w:y:s (raw text) */
    SASS_TOK_CUAS,                   /* a CuAssembler control prefix [B......:R.:W.:.:S..] */
} sass_tok_kind;

/* Lexes `len` bytes of `text` into `out` (free with fe_token_list_free). Lexical errors go to dl
 * (SASS-LEX-001..003) and are skipped. Returns 0, or -1 when out of memory (SASS-LIMIT-001). */
int sass_lex(const char *path, const char *text, size_t len, fe_token_list *out, diag_list *dl);

/* ---- parsed instructions ---- */
enum { SASS_RZ = 255, SASS_PT = 7, SASS_MAX_OPNDS = 6 };

typedef enum sass_opnd_kind {
    SASS_O_NONE, SASS_O_REG, SASS_O_PRED, SASS_O_IMM, SASS_O_CBANK, SASS_O_MEM, SASS_O_SREG,
    SASS_O_LABEL, SASS_O_SB, SASS_O_SBSET
} sass_opnd_kind;

typedef struct sass_opnd {
    uint8_t kind;      /* sass_opnd_kind */
    uint8_t neg;       /* REG: '-' */
    uint8_t inv;       /* REG: '~' */
    uint8_t not_;      /* PRED: '!' */
    uint8_t h1;        /* REG, CBANK: .H1 (XMAD) */
    uint8_t cc;        /* REG: .CC on a destination (IADD R4.CC, ...: writes the carry) */
    uint8_t has_base;  /* MEM, CBANK: a register inside the brackets (RZ included) */
    uint8_t sbmask;    /* SBSET: bit i = SBi */
    uint32_t reg;      /* REG 0..254 or SASS_RZ; PRED 0..7; SREG ir_sreg; SB n; MEM/CBANK base */
    int64_t imm;       /* IMM value; MEM/CBANK offset; LABEL: target instruction index */
    uint32_t bank;     /* CBANK */
    int32_t label;     /* LABEL: fe_labels index */
    uint32_t line, col;
    uint32_t imm_line, imm_col; /* MEM/CBANK: where the offset is written */
} sass_opnd;

/* Control fields as written (and, after the checker, as settled). */
typedef struct sass_ctrl {
    uint8_t has_req, has_rd, has_wr, has_sched, has_prefix;
    uint8_t req;       /* wait mask */
    uint8_t rd, wr;    /* scoreboards; IR_SB_NONE when absent */
    uint8_t stall, yield;
    uint32_t rd_line, rd_col, wr_line, wr_col, sched_line, sched_col;
} sass_ctrl;

typedef struct sass_insn {
    uint16_t op;                 /* sass_op_id */
    uint8_t has_guard, guard_neg, guard;
    uint8_t nopnd;
    uint8_t has[SASS_G_COUNT];   /* the modifier of each group was written */
    uint32_t mod_col[SASS_G_COUNT];
    uint32_t val[SASS_G_COUNT];
    uint32_t line, col;          /* the mnemonic */
    uint32_t guard_col;
    sass_opnd o[SASS_MAX_OPNDS];
    sass_ctrl ctrl;
} sass_insn;

typedef struct sass_param {
    const char *name;
    uint32_t len;
    uint8_t type; /* ir_type */
    uint32_t line, col;
} sass_param;

/* One .kernel while it is read. */
typedef struct sass_kernel {
    const char *name;
    uint32_t name_len, line, col;
    dynarray params;            /* sass_param */
    dynarray insns;             /* sass_insn */
    fe_labels labels;
    uint32_t registers;         /* .registers; 0 when not given */
    uint32_t reg_line, reg_col; /* where .registers is; 0 when not given */
    uint32_t shared_bytes, local_bytes;
    uint8_t seen_shared, seen_local;
    uint32_t max_reg;           /* highest register named + 1 */
} sass_kernel;

/* A module's constant bank initialisation (.constbank). */
typedef struct sass_bank {
    uint8_t *bytes; /* malloc'd */
    uint32_t size;
} sass_bank;

typedef struct sass_parser {
    fe_cursor cur;
    diag_list *dl;
    ir_module *m;
    dynarray funcs;             /* ir_func of the finished kernels */
    sass_kernel k;
    bool in_kernel;
    sass_bank banks[32];
    uint32_t insn_ids;          /* module-wide ids handed out so far */
    uint32_t max_nregs;
} sass_parser;

/* Reports at line:col with rule `rule`. */
void sass_error(sass_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));

/* Reads one instruction line (the cursor at its first token after labels) into *in. Returns
 * false after a syntax error (reported; the cursor recovered past the ';'). sass_parse_line.c */
bool sass_parse_insn(sass_parser *p, sass_insn *in);

/* Applies every legality rule to the kernel's instructions and settles the control fields'
 * defaults (docs/sass.md, "Control fields"). Returns the number of errors reported. */
unsigned sass_check_kernel(sass_parser *p);

/* Whether memory operand `o` has a register base: not RZ, and not beyond the kernel's explicit
 * .registers (such an address is absolute, as the seed pages say). sass_check_mem.c */
bool sass_has_base(const sass_kernel *k, const sass_opnd *o);

/* The effective size of a memory instruction's data in bytes (1, 2, 4, 8, 16). */
unsigned sass_data_bytes(const sass_insn *in);

/* How many registers the memory operand of `in` reads from its base: the coordinate count of a
 * surface instruction's dimension (1, 2 or 3), 2 for a .E pair, else 1. sass_check_mem.c */
unsigned sass_addr_regs(const sass_insn *in);

/* The operand index of a surface instruction's first operand after SUATOM's optional sparse
 * predicate Ps (1 when Ps is written, else 0); 0 for every other instruction. */
unsigned sass_ps_shift(const sass_insn *in);

/* Lowers the checked kernel into one ir_func appended to p->funcs. Returns false when out of
 * memory (reported). sass_lower.c */
bool sass_lower_kernel(sass_parser *p);

#endif
