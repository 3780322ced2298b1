/* Internal interfaces of the PTX front-end: the parser state shared by ptx_parse.c (the module
 * and its directives), ptx_func.c (functions, bodies and labels), ptx_decl.c (declarations and
 * initialisers), ptx_insn.c (instruction words and modifiers), ptx_operand.c (operand syntax),
 * ptx_lower.c and ptx_lower_opnd.c (instruction forms and operands into IR) and ptx_table.c
 * (the hashed views of ptx_ops.def). The token cursor, error recovery, scopes and labels are the shared ones of src/frontend/; the
 * ptx_* helpers below only bind them to the PTX parser and its rule ids. Not a public header:
 * only src/ptx/ includes it. */
#ifndef GMS_PTX_PTX_INTERNAL_H
#define GMS_PTX_PTX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/dynarray.h"
#include "frontend/fe_cursor.h"
#include "frontend/fe_labels.h"
#include "frontend/fe_scope.h"
#include "ir/ir.h"
#include "ptx/ptx_lex.h"

/* ---- the table (ptx_ops.def) ---- */
typedef enum ptx_group {
    PTX_G_TYPE, PTX_G_SPACE, PTX_G_SEM, PTX_G_SCOPE, PTX_G_MEMBAR, PTX_G_COP, PTX_G_NC,
    PTX_G_L1EV, PTX_G_L2EV, PTX_G_L2EVM, PTX_G_PFSIZE, PTX_G_HINT, PTX_G_LEVEL, PTX_G_TENSORMAP,
    PTX_G_POLICY, PTX_G_VEC, PTX_G_RND, PTX_G_FTZ, PTX_G_SAT, PTX_G_APPROX, PTX_G_FULL,
    PTX_G_HILO, PTX_G_WIDE, PTX_G_CC, PTX_G_NAN, PTX_G_RELU, PTX_G_XORSIGN, PTX_G_ABS,
    PTX_G_NOFTZ, PTX_G_SATFINITE, PTX_G_SHIFTAMT, PTX_G_CLAMP, PTX_G_DIR, PTX_G_TO, PTX_G_UNI,
    PTX_G_ALIGNED, PTX_G_SYNC, PTX_G_CMP, PTX_G_BOOL, PTX_G_ATOM, PTX_G_REDUX, PTX_G_SHFL,
    PTX_G_VOTE, PTX_G_MATCH, PTX_G_BAROP, PTX_G_BARRED, PTX_G_TESTP, PTX_G_PRMT, PTX_G_MMIO,
    PTX_G_GEOM, PTX_G_SUMODE, PTX_G_SUQ, PTX_G_TLD4, PTX_G_TXQ, PTX_G_TEXFORM, PTX_G_TEXLOD,
    PTX_G_CPDST, PTX_G_CPSRC, PTX_G_NOINC,
    PTX_G_MBAR,
    PTX_G_COUNT
} ptx_group;

#define PTX_GBIT(g) (UINT64_C(1) << PTX_G_##g)
#define G_SPACE PTX_GBIT(SPACE)
#define G_SEM PTX_GBIT(SEM)
#define G_SCOPE PTX_GBIT(SCOPE)
#define G_MEMBAR PTX_GBIT(MEMBAR)
#define G_COP PTX_GBIT(COP)
#define G_NC PTX_GBIT(NC)
#define G_L1EV PTX_GBIT(L1EV)
#define G_L2EV PTX_GBIT(L2EV)
#define G_L2EVM PTX_GBIT(L2EVM)
#define G_PFSIZE PTX_GBIT(PFSIZE)
#define G_HINT PTX_GBIT(HINT)
#define G_LEVEL PTX_GBIT(LEVEL)
#define G_TENSORMAP PTX_GBIT(TENSORMAP)
#define G_POLICY PTX_GBIT(POLICY)
#define G_VEC PTX_GBIT(VEC)
#define G_RND PTX_GBIT(RND)
#define G_FTZ PTX_GBIT(FTZ)
#define G_SAT PTX_GBIT(SAT)
#define G_APPROX PTX_GBIT(APPROX)
#define G_FULL PTX_GBIT(FULL)
#define G_HILO PTX_GBIT(HILO)
#define G_WIDE PTX_GBIT(WIDE)
#define G_CC PTX_GBIT(CC)
#define G_NAN PTX_GBIT(NAN)
#define G_RELU PTX_GBIT(RELU)
#define G_XORSIGN PTX_GBIT(XORSIGN)
#define G_ABS PTX_GBIT(ABS)
#define G_NOFTZ PTX_GBIT(NOFTZ)
#define G_SATFINITE PTX_GBIT(SATFINITE)
#define G_SHIFTAMT PTX_GBIT(SHIFTAMT)
#define G_CLAMP PTX_GBIT(CLAMP)
#define G_DIR PTX_GBIT(DIR)
#define G_TO PTX_GBIT(TO)
#define G_UNI PTX_GBIT(UNI)
#define G_ALIGNED PTX_GBIT(ALIGNED)
#define G_SYNC PTX_GBIT(SYNC)
#define G_CMP PTX_GBIT(CMP)
#define G_BOOL PTX_GBIT(BOOL)
#define G_ATOM PTX_GBIT(ATOM)
#define G_REDUX PTX_GBIT(REDUX)
#define G_SHFL PTX_GBIT(SHFL)
#define G_VOTE PTX_GBIT(VOTE)
#define G_MATCH PTX_GBIT(MATCH)
#define G_BAROP PTX_GBIT(BAROP)
#define G_BARRED PTX_GBIT(BARRED)
#define G_TESTP PTX_GBIT(TESTP)
#define G_PRMT PTX_GBIT(PRMT)
#define G_MMIO PTX_GBIT(MMIO)
#define G_GEOM PTX_GBIT(GEOM)
#define G_SUMODE PTX_GBIT(SUMODE)
#define G_SUQ PTX_GBIT(SUQ)
#define G_TLD4 PTX_GBIT(TLD4)
#define G_TXQ PTX_GBIT(TXQ)
#define G_TEXFORM PTX_GBIT(TEXFORM)
#define G_TEXLOD PTX_GBIT(TEXLOD) /* tex, txq: the mipmap level of detail */
#define G_CPDST PTX_GBIT(CPDST) /* cp.async: the destination's state space */
#define G_CPSRC PTX_GBIT(CPSRC) /* cp.async: the source's state space */
#define G_NOINC PTX_GBIT(NOINC) /* cp.async.mbarrier.arrive.noinc */
#define G_MBAR PTX_GBIT(MBAR)

#define TM(t) (UINT32_C(1) << IR_T_##t)
#define TM_BITS (TM(B16) | TM(B32) | TM(B64))
#define TM_I8 (TM(U8) | TM(S8))
#define TM_I32 (TM(U32) | TM(S32))
#define TM_I64 (TM(U64) | TM(S64))
#define TM_SINT (TM(S16) | TM(S32) | TM(S64))
#define TM_INT (TM(U16) | TM(U32) | TM(U64) | TM_SINT)
#define TM_FLOAT (TM(F32) | TM(F64))
#define TM_HALF (TM(F16) | TM(F16X2) | TM(BF16) | TM(BF16X2))
#define TM_I16X2 (TM(U16X2) | TM(S16X2)) /* packed integer add/min/max (PTX 8.0, sm_90) */
#define TM_MEM (TM(B8) | TM_BITS | TM(B128) | TM_I8 | TM_INT | TM_FLOAT)
#define TM_ATOM (TM(B16) | TM(B32) | TM(B64) | TM_I32 | TM_I64 | TM_FLOAT | TM_HALF)

/* Operand shapes; each has one lowering routine in ptx_lower.c. */
typedef enum ptx_form {
    PTX_FORM_UNARY, PTX_FORM_BINARY, PTX_FORM_TERNARY, PTX_FORM_COUNT, PTX_FORM_SHIFT,
    PTX_FORM_SHF, PTX_FORM_BFE, PTX_FORM_BFI, PTX_FORM_BMSK, PTX_FORM_FNS, PTX_FORM_PRMT,
    PTX_FORM_LOP3, PTX_FORM_DP, PTX_FORM_TESTP, PTX_FORM_SETP, PTX_FORM_SET, PTX_FORM_SELP,
    PTX_FORM_SLCT, PTX_FORM_MOV, PTX_FORM_CVT, PTX_FORM_CVTA, PTX_FORM_LD, PTX_FORM_ST,
    PTX_FORM_ATOM, PTX_FORM_RED, PTX_FORM_PREFETCH, PTX_FORM_SIZED, PTX_FORM_CREATEPOLICY,
    PTX_FORM_BRA, PTX_FORM_BRX, PTX_FORM_CALL, PTX_FORM_NONE, PTX_FORM_NANOSLEEP, PTX_FORM_BAR,
    PTX_FORM_BARWARP, PTX_FORM_SHFL, PTX_FORM_VOTE, PTX_FORM_MATCH, PTX_FORM_REDUX,
    PTX_FORM_ACTIVEMASK, PTX_FORM_SURF, PTX_FORM_SUQ, PTX_FORM_TEX, PTX_FORM_TXQ,
    PTX_FORM_MATRIX,
    PTX_FORM_ASYNC,
    PTX_FORM_MBAR,
    PTX_FORM_BULK,
    PTX_FORM_VIDEO,
    PTX_FORM_UNSUPPORTED
} ptx_form;

typedef enum ptx_op_id {
#define PTX_OP(id, mn, irop, form, groups, types, types2, ver, sm, rule) PTX_OP_##id,
#include "ptx/ptx_ops.def"
#undef PTX_OP
    PTX_OP_COUNT
} ptx_op_id;

typedef struct ptx_op_row {
    const char *mnemonic;
    uint16_t ir_op; /* ir_opcode; IR_OP_COUNT for unsupported families */
    uint8_t form;   /* ptx_form */
    uint64_t groups;
    uint32_t types, types2;
    uint16_t version, sm;
    const char *rule;
} ptx_op_row;

/* The texture geometries only textures have (the values of the TEXFORM group): cube and cube
 * array, which run, and the multisample ones, which gpumemsim rejects by name. */
typedef enum ptx_texform {
    PTX_TEXFORM_NONE = 0, PTX_TEXFORM_CUBE, PTX_TEXFORM_ACUBE, PTX_TEXFORM_2DMS,
    PTX_TEXFORM_A2DMS
} ptx_texform;
/* The mipmap level of detail of tex (the values of the TEXLOD group): the base level, an
 * explicit level, or gradients; txq takes .level alone. */
typedef enum ptx_texlod {
    PTX_TEXLOD_NONE = 0, PTX_TEXLOD_BASE, PTX_TEXLOD_LEVEL, PTX_TEXLOD_GRAD
} ptx_texlod;

/* The mbarrier forms (the values of the MBAR group). */
typedef enum ptx_mbar_form { PTX_MBAR_NONE = 0, PTX_MBAR_EXPECT_TX, PTX_MBAR_NOCOMPLETE,
                             PTX_MBAR_PARITY } ptx_mbar_form;

/* Cache operators (the values of the COP group). */
typedef enum ptx_cop { PTX_COP_NONE = 0, PTX_COP_CA, PTX_COP_CG, PTX_COP_CS, PTX_COP_LU, PTX_COP_CV,
                       PTX_COP_WB, PTX_COP_WT } ptx_cop;

typedef struct ptx_mod_row {
    const char *text;
    uint8_t group; /* ptx_group */
    uint32_t value;
    uint16_t version, sm;
    ir_mem_attrs map; /* PTX_CMOD rows: the neutral attributes the modifier lowers to */
} ptx_mod_row;

extern const ptx_op_row ptx_op_rows[PTX_OP_COUNT];
extern const ptx_mod_row ptx_mod_rows[];
extern const size_t ptx_mod_row_count;

/* The neutral attributes of modifier `value` of group `group` (a PTX_CMOD row), or NULL when the
 * row has no mapping. */
const ir_mem_attrs *ptx_mod_map(ptx_group group, uint32_t value);

/* Hashed views of the table, built once per parse (no mutable globals). */
enum { PTX_OP_BUCKETS = 512, PTX_MOD_BUCKETS = 1024 };
typedef struct ptx_tables {
    int16_t op_bucket[PTX_OP_BUCKETS];   /* open addressing: op index or -1 */
    int16_t mod_bucket[PTX_MOD_BUCKETS]; /* first mod row with a spelling, or -1 */
    int16_t *mod_next;                   /* next row with the same spelling, or -1 (malloc) */
} ptx_tables;

int ptx_tables_init(ptx_tables *t);
void ptx_tables_fini(ptx_tables *t);
/* Returns the op index of the exact mnemonic text, or -1. */
int ptx_find_op(const ptx_tables *t, const char *text, size_t len);
/* Returns the first modifier row spelled `text`, or -1; iterate with t->mod_next. */
int ptx_find_mod(const ptx_tables *t, const char *text, size_t len);
uint32_t ptx_hash(const char *s, size_t len);
/* Minimum type/version requirement for a mnemonic with one type; raises version and sm to it. */
void ptx_type_requirement(ptx_op_id op, ir_type t, unsigned *version, unsigned *sm);

/* ---- symbols ---- */
typedef enum ptx_sym_kind {
    PTX_SYM_REG, PTX_SYM_PRED, PTX_SYM_VAR, PTX_SYM_FVAR, PTX_SYM_PARAM, PTX_SYM_RET,
    PTX_SYM_FUNC, PTX_SYM_TARGETS
} ptx_sym_kind;

/* A name bound in a PTX scope (fe_scope.h), with PTX's meaning of the payload:
 *   kind   ptx_sym_kind
 *   type   REG/PRED: ir_type; VAR/FVAR/PARAM: element type
 *   index  first slot / var index / param index / func index
 *   count  REG/PRED: slots the name covers
 *   ns     PTX_NS_NAME, or PTX_NS_RANGE for a %r<N> range: its name is the prefix, and it
 *          covers the names prefix0..prefix(N-1) */
typedef fe_symbol ptx_binding;
enum { PTX_NS_NAME = 0, PTX_NS_RANGE = 1 };

enum { PTX_MAX_OPERANDS = 8 };
/* Elements of a {vector} operand, and of a (call argument list): nvcc passes each parameter of a
 * device function in its own .param, and cuda-samples' FunctionPointers calls one with ten. */
enum { PTX_MAX_VEC_ELEMS = 8, PTX_MAX_LIST_ELEMS = 128 };
/* Register slots per function (each kind); real kernels use a few thousand at most. */
enum { PTX_MAX_FUNC_SLOTS = 1u << 16 };

/* A growable malloc'd array (copied into the arena when a function or module is finished). */
typedef dynarray ptx_vec;
static inline void *ptx_vec_push(ptx_vec *v) { return dynarray_push(v); }
static inline void ptx_vec_free(ptx_vec *v) { dynarray_free(v); }

/* ---- parsed operands (syntax only, before lowering) ---- */
typedef enum ptx_popnd_kind {
    PTX_P_NAME, PTX_P_INT, PTX_P_FLOAT, PTX_P_F32BITS, PTX_P_F64BITS, PTX_P_ADDR, PTX_P_VEC,
    PTX_P_SINK, PTX_P_PAIR, PTX_P_NOT, PTX_P_LIST,
    PTX_P_IMAGE, /* [a, b] of the surface and texture instructions: name = a, elems/count = the
                   coordinates (a lone coordinate without braces is one element); [a, s, b]
                   (an explicit sampler s) sets has_sampler */
    PTX_P_NEG    /* -%r: a negated register (vmad's operands; every other instruction refuses
                    it as not a register or immediate) */
} ptx_popnd_kind;

typedef struct ptx_name {
    const char *text;
    uint32_t len, line, col;
} ptx_name;

typedef struct ptx_popnd {
    uint8_t kind;      /* ptx_popnd_kind */
    uint8_t has_base;  /* ADDR: base name present */
    uint8_t count;     /* VEC/LIST element count */
    uint32_t line, col;
    ptx_name name;     /* NAME, NOT, ADDR base, PAIR first */
    ptx_name name2;    /* PAIR second; VEC: the predicate of {a, b, c, d}|p (text NULL: none) */
    uint8_t has_sampler; /* IMAGE: [a, s, b] */
    int64_t ival;      /* INT value, ADDR/NAME offset, F32/F64 bits */
    double fval;       /* FLOAT */
    ptx_name elems[PTX_MAX_LIST_ELEMS]; /* VEC/LIST element names; text NULL for '_' or an
                                           immediate (a VEC has at most PTX_MAX_VEC_ELEMS) */
    uint8_t elem_is_imm[PTX_MAX_VEC_ELEMS];  /* VEC: element i is the integer elem_imm[i] */
    int64_t elem_imm[PTX_MAX_VEC_ELEMS];
} ptx_popnd;

/* ---- parser state ---- */
typedef struct ptx_func_state {
    int32_t func;               /* index in funcs, -1 outside a body */
    ptx_vec insns, xops, vars, reg_types;
    /* The body's labels. A .branchtargets label names a list (fe_label.list_first/list_count)
     * whose entries are the labels brx.idx may jump to; instruction references use slot -1 for
     * src[0] and an index into xops otherwise. */
    fe_labels labels;
    ptx_vec reg_ranges;         /* ptx_reg_range: names of slots, built at the end */
    uint32_t npreds;
    ptx_vec pred_ranges;
} ptx_func_state;

typedef struct ptx_reg_range {
    const char *name;
    uint32_t len;
    uint32_t first, count; /* slots; count 0 for a single name */
} ptx_reg_range;

typedef struct ptx_parser {
    /* Tokens, position, the diagnostics list and the file name. cur.muted: a PTX-LIMIT-001 error
     * was reported, and every further diagnostic is dropped until the end of the function body or
     * module-level statement it occurred in, whose rest is skipped, so that what the limit left
     * undeclared or unbalanced does not cascade (ptx_limit_error). cur.oom: out of memory
     * (PTX-LIMIT-002) was reported. */
    fe_cursor cur;
    ir_module *m;
    ptx_tables tables;
    ptx_vec funcs;     /* ir_func */
    ptx_vec func_has_body; /* uint8_t per func */
    ptx_vec vars;      /* module ir_var */
    ptx_vec relocs;    /* scratch for one variable */
    ptx_vec files;     /* const char* */
    fe_scope scope;    /* ptx_binding; the module scope is the outermost */
    ptx_func_state fs;
    ptx_popnd ops[PTX_MAX_OPERANDS + 1];
    uint32_t loc_file, loc_line;
    unsigned version;   /* major*10+minor */
    unsigned sm;
    bool has_version, has_target;
    size_t errors_before; /* dl->errors when the parse began */
    uint32_t insn_ids;
} ptx_parser;

/* Token helpers: the shared cursor (fe_cursor.h) with PTX's punctuation and rule ids. */
static inline const ptx_token *ptx_peek(const ptx_parser *p, size_t ahead)
{
    return fe_cursor_peek(&p->cur, ahead);
}
static inline const ptx_token *ptx_next(ptx_parser *p) { return fe_cursor_next(&p->cur); }
static inline bool ptx_is_punct(const ptx_token *t, char c) { return fe_token_is_punct(t, c); }
static inline bool ptx_is_dot(const ptx_token *t, const char *text)
{
    return fe_token_is(t, PTX_TOK_DOTNAME, text);
}
static inline bool ptx_accept_punct(ptx_parser *p, char c)
{
    return fe_cursor_accept_punct(&p->cur, c);
}
/* Reports PTX-PARSE-001 "expected 'c' <what>, found ..." when `c` is not next. */
static inline bool ptx_expect_punct(ptx_parser *p, char c, const char *what)
{
    return fe_cursor_expect_punct(&p->cur, c, what);
}
/* Skips to just after the next ';' at this brace depth, or to a '}' / '{' (not consumed). */
static inline void ptx_recover(ptx_parser *p) { fe_cursor_recover(&p->cur, ';', "{}"); }
/* Rewinds to token `start` of a statement and skips it whole, braces of vector operands
 * included. */
static inline void ptx_recover_from(ptx_parser *p, size_t start)
{
    fe_cursor_recover_from(&p->cur, start, ';', '{', '}');
}
/* Reports PTX-LIMIT-002 (out of memory) once. */
static inline void ptx_oom(ptx_parser *p) { fe_cursor_oom(&p->cur, "PTX-LIMIT-002"); }

/* Errors (ptx_parse.c): at a token or at line:col, dropped while p->cur.muted. */
void ptx_error(ptx_parser *p, const ptx_token *t, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ptx_error_at(ptx_parser *p, uint32_t line, uint32_t col, const char *rule, const char *fmt,
                  ...) __attribute__((format(printf, 5, 6)));
/* Reports PTX-LIMIT-001 at line:col (a size limit of the simulator: registers, nesting, array
 * dimensions, initialiser bytes, vector elements) and mutes the cursor: the limit error is the
 * only diagnostic of its function body or module-level statement (docs/ptx.md, "What is
 * rejected, and why"). */
void ptx_limit_error(ptx_parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Symbols (ptx_parse.c), in p->scope. */
void ptx_scope_push(ptx_parser *p);
void ptx_scope_pop(ptx_parser *p);
/* Declares a name in the innermost scope; reports PTX-SYM-004 for a redefinition and returns
 * NULL (also when out of memory). */
ptx_binding *ptx_declare(ptx_parser *p, const char *name, uint32_t len, ptx_sym_kind kind,
                         bool is_range, uint32_t line, uint32_t col);
/* Finds the innermost binding of a name (a %r57 also matches a %r<N> range). *slot receives the
 * slot/index for registers (range base + number). Returns NULL when undeclared. */
const ptx_binding *ptx_lookup(const ptx_parser *p, const char *name, uint32_t len, uint32_t *slot);

/* Module-level directives that may also stand in a function body (ptx_parse.c); the directive's
 * own token has been consumed. */
void ptx_parse_pragma(ptx_parser *p);
void ptx_parse_loc(ptx_parser *p);
/* Copies a scratch array into the module's arena; NULL when empty or out of memory. */
void *ptx_arena_copy(ptx_parser *p, const ptx_vec *v);

/* Functions (ptx_func.c): `.entry`/`.func` with its body (the current token is the
 * .entry/.func directive, after any linkage), and the end of the module (declared-only
 * functions become external). */
void ptx_parse_function(ptx_parser *p, uint8_t is_extern, uint8_t is_visible, uint8_t is_weak);
void ptx_finish_functions(ptx_parser *p);

/* Declarations (ptx_decl.c). */
bool ptx_is_type_name(const ptx_token *t, ir_type *out);
bool ptx_is_space_name(const ptx_token *t, ir_space *out);
/* Parses `.space [.align N] [.vN] .type name[dims] [= init] {, name...};` after any linkage; the
 * current token is the state-space directive. in_body selects func vars (FVAR) or module vars. */
void ptx_parse_var_decl(ptx_parser *p, bool in_body, uint8_t is_extern, uint8_t is_visible);
/* Parses `.reg .type name, name<N>, ...;` (current token .reg). */
void ptx_parse_reg_decl(ptx_parser *p);
/* Parses a parenthesised parameter list into a new arena array; returns count or -1. */
int ptx_parse_params(ptx_parser *p, ir_param **out, bool is_ret, int32_t func_index);
/* Constant expressions (integers only; WARP_SZ is 32). Returns false after reporting. */
bool ptx_parse_const_expr(ptx_parser *p, int64_t *out);
/* Fills m->machine with PTX's machine and marks the external functions the machine provides
 * (vprintf, __assertfail) as system calls; run once the module's functions are complete. */
void ptx_declare_machine(ir_module *m);

/* Instructions (ptx_insn.c, ptx_operand.c, ptx_lower.c). */
void ptx_parse_instruction(ptx_parser *p);
int ptx_parse_operands(ptx_parser *p, bool call_lists, uint32_t *count);

typedef struct ptx_insn_ctx {
    const ptx_op_row *row;
    ptx_op_id op;
    ir_insn *insn;          /* being built (in p->fs.insns) */
    uint32_t insn_index;
    uint32_t nops;
    uint8_t has_group[PTX_G_COUNT];
    uint32_t group_value[PTX_G_COUNT];
    uint32_t secondary_l2; /* createpolicy secondary priority (second .L2::evict_*) */
    ir_type types[2];
    uint32_t ntypes;
    uint32_t line, col;     /* of the mnemonic */
    const char *text;       /* full opcode text, for messages */
    uint32_t text_len;
} ptx_insn_ctx;

/* Applies the modifiers to c->insn and checks modifier rules; false after reporting. */
bool ptx_check_insn(ptx_parser *p, ptx_insn_ctx *c);
/* Lowers the parsed operands into c->insn by the row's form; reports operand errors. */
void ptx_lower(ptx_parser *p, ptx_insn_ctx *c);
/* Operand lowering shared with ptx_surf.c, ptx_tex.c and ptx_image.c (ptx_lower_opnd.c), with PTX's
 * register rules: a register of type `t` (a wider integer register too when `wide`); a source
 * register or immediate of type `t` (wider registers allowed); a destination register; a vector
 * of `count` elements. Each reports PTX-OPND-*, PTX-TYPE-002 or PTX-SYM-* and returns false on
 * error. */
bool ptx_lower_reg(ptx_parser *p, ptx_insn_ctx *c, const ptx_name *n, ir_type t, bool wide,
                   ir_operand *out);
bool ptx_lower_src(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t,
                   ir_operand *out);
bool ptx_lower_dst(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t,
                   ir_operand *out);
bool ptx_lower_vec(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_type t, unsigned count,
                   bool is_dst, ir_operand *out);
/* Image operands shared by the surface and texture instructions (ptx_image.c; PTX ISA 9.1
 * §9.7.10 and "Texture Instructions"; docs/ptx.md, "Surfaces" and "Textures"). A kind holds what
 * differs between the two: the words of the diagnostics, the ir_var.image_ref value of the
 * reference variable (1 .surfref, 2 .texref), the rule ids of a bad handle (PTX-SURF-002,
 * PTX-TEX-002) and of bad coordinates (PTX-SURF-001, PTX-TEX-001), and whether the layer of an
 * a1d/a2d coordinate vector must be an integer register. */
typedef struct ptx_image_kind {
    const char *noun;        /* "surface" or "texture" */
    const char *ref;         /* ".surfref" or ".texref" */
    const char *query;       /* the query instruction: "suq" or "txq" */
    const char *handle_rule; /* a bad handle */
    const char *coord_rule;  /* bad coordinates */
    uint8_t image_ref;       /* ir_var.image_ref of the reference variable */
    bool integer_layer;      /* the array layer must be an integer register */
} ptx_image_kind;
/* Reports `rule` with "'insn': msg" at operand o; returns false. */
bool ptx_image_opnd_err(ptx_parser *p, const ptx_insn_ctx *c, const ptx_popnd *o,
                        const char *rule, const char *msg);
/* The handle [a] of operand o: a 64-bit integer register (an image object, PTX ISA 3.1 and
 * later; PTX-VER-001 before) into a register operand, or a reference variable of k's kind into
 * an IR_OPND_SYM; anything else (an offset too) is k->handle_rule. False after an error. */
bool ptx_lower_image_handle(ptx_parser *p, ptx_insn_ctx *c, const ptx_image_kind *k,
                            const ptx_popnd *o, ir_operand *out);
/* The coordinates of operand o for the geometry c->insn->mem.image_dim: PTX's 1d {x}, 2d {x, y},
 * a1d {layer, x}, 3d {x, y, z, w}, a2d {layer, x, y, w} become the IR vector (x), (x, y),
 * (x, layer), (x, y, z), (x, y, layer) of 32-bit registers; immediates (1d, 2d, a1d only, else
 * PTX-OPND-003) are packed 32 bits a slot into out->imm. As ptxas 13 does, a vector of 2 or 4
 * elements longer than the geometry needs is accepted, its further elements checked as
 * registers and ignored; another count is k->coord_rule. False after an error. */
bool ptx_lower_image_coords(ptx_parser *p, ptx_insn_ctx *c, const ptx_image_kind *k,
                            const ptx_popnd *o, ir_operand *out);
/* suq/txq d, [a]: the 32-bit destination register into dst[0] and the handle into src[0];
 * reports PTX-OPND-001 (not two operands), k->handle_rule (no [a]), PTX-OPND-002 (d not a
 * register) and the errors of ptx_lower_image_handle. */
void ptx_lower_image_query(ptx_parser *p, ptx_insn_ctx *c, const ptx_image_kind *k);
/* Surfaces (ptx_surf.c): the modifier rules of suld/sust/sured/suq (after the common checks),
 * and their operands. */
bool ptx_check_surface(ptx_parser *p, ptx_insn_ctx *c);
void ptx_lower_surface(ptx_parser *p, ptx_insn_ctx *c);
/* Textures (ptx_tex.c): the modifier rules of tex/tld4/txq (after the common checks), and their
 * operands. */
bool ptx_check_texture(ptx_parser *p, ptx_insn_ctx *c);
void ptx_lower_texture(ptx_parser *p, ptx_insn_ctx *c);
/* Matrix instructions (ptx_matrix.c; PTX ISA 9.1 §9.7.14; docs/ptx.md, "Matrix instructions"):
 * ldmatrix, stmatrix, mma, wmma.load/store/mma. Their modifiers are read from the opcode text
 * c->text (the parser hands none to the modifier groups), checked (PTX-MMA-001/002, PTX-UNSUP-002,
 * PTX-ARCH-001, PTX-VER-001) and written into c->insn (sub, type, type2, type_b, type_c, frag,
 * mods, rnd, mem); then the operands. */
bool ptx_check_matrix(ptx_parser *p, ptx_insn_ctx *c);
void ptx_lower_matrix(ptx_parser *p, ptx_insn_ctx *c);
/* Asynchronous copies (ptx_async.c; PTX ISA 9.1 §9.7.9.25 cp.async, cp.async.commit_group,
 * cp.async.wait_group, cp.async.wait_all; docs/ptx.md, "Asynchronous copies"): their modifier
 * rules as ptxas 13 enforces them (after the common checks), and their operands. */
bool ptx_check_async(ptx_parser *p, ptx_insn_ctx *c);
void ptx_lower_async(ptx_parser *p, ptx_insn_ctx *c);
/* Operand lowering for ptx_async.c and ptx_bulk.c (ptx_lower_opnd.c): an address operand
 * [base+offset] as if the instruction were written in state space `space` (a variable base must
 * live there, PTX-MEM-002); a predicate source, `!p` allowed. Each reports and returns false on error. */
bool ptx_lower_addr_in(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_space space,
                       ir_operand *out);
bool ptx_lower_pred_src(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out);
/* mbarrier (ptx_mbarrier.c; PTX ISA 9.1 "mbarrier", docs/ptx.md "mbarrier"): the modifier rules
 * of mbarrier.* and fence.mbarrier_init as ptxas 13 enforces them (after the common checks),
 * sub and the oldest .version/.target of the form; and the operands. */
bool ptx_check_mbarrier(ptx_parser *p, ptx_insn_ctx *c);
void ptx_lower_mbarrier(ptx_parser *p, ptx_insn_ctx *c);
/* An address operand [base+offset] of instruction c into out (the space checks of ld/st against
 * c->insn->mem.space); reports PTX-OPND-002, PTX-MEM-002, PTX-TYPE-002 or PTX-SYM-* and returns
 * false on error. */
bool ptx_lower_address(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out);
/* Bulk copies (ptx_bulk.c; PTX ISA 9.1 §9.7.9.25.4-5 cp.async.bulk, cp.async.bulk.tensor,
 * cp.reduce.async.bulk{.tensor}, cp.async.bulk.prefetch{.tensor}, commit_group, wait_group;
 * §9.7.13.4 fence.proxy; docs/ptx.md, "Bulk copies"): they read their modifiers from the opcode
 * text c->text themselves (none go to the modifier groups), check them (PTX-BULK-001..004,
 * PTX-ARCH-002, PTX-VER-001) and write them into c->insn (op, sub, type, mem); then the
 * operands. */
bool ptx_check_bulk(ptx_parser *p, ptx_insn_ctx *c);
void ptx_lower_bulk(ptx_parser *p, ptx_insn_ctx *c);
/* Video instructions (ptx_video.c; PTX ISA 9.1 "Video Instructions"; docs/ptx.md, "Video
 * instructions"): they read their modifiers from the opcode text c->text (none go to the
 * modifier groups), check them (PTX-VIDEO-001) and write sub, type (d), type2 (a), type_b (b),
 * cmp, mods and the control word src[3] into c->insn; then the operands and their selectors
 * (PTX-VIDEO-002, PTX-OPND-001/002). */
bool ptx_check_video(ptx_parser *p, ptx_insn_ctx *c);
void ptx_lower_video(ptx_parser *p, ptx_insn_ctx *c);
/* For every other instruction: false after reporting PTX-OPND-002 when an operand has a form
 * only tex and tld4 take (a predicate after a vector {...}|p, a sampler [a, s, b]). */
bool ptx_no_texture_operands(ptx_parser *p, const ptx_insn_ctx *c);
/* Lowers the memory modifiers of c into the neutral c->insn->mem (ptx_lower_mem.c). */
void ptx_lower_mem(ptx_insn_ctx *c);
/* Labels (ptx_func.c). Registers a pending label reference for instruction `insn` (xop -1:
 * src[0]); the index of label `name` (created on first mention), or -1 when out of memory. */
void ptx_add_label_ref(ptx_parser *p, uint32_t insn, int32_t xop, const ptx_name *name);
int32_t ptx_label_get(ptx_parser *p, const char *name, uint32_t len, uint32_t line, uint32_t col);
/* Half-precision conversions for immediates. */
uint16_t ptx_f32_to_f16_bits(float f);
uint16_t ptx_f32_to_bf16_bits(float f);
uint32_t ptx_f32_bits(float f);
uint64_t ptx_f64_bits(double d);
float ptx_bits_f32(uint32_t b);
double ptx_bits_f64(uint64_t b);

/* Instruction diagnostics shared by the checkers of every family (ptx_check.c): each reports
 * `msg` under `rule`, prefixed with the instruction's text, at the instruction (ptx_insn_fail)
 * or at one of its operands (ptx_insn_fail_at), and returns false. ptx_insn_require reports
 * PTX-VER-001 when .version is below `version` (major*10+minor) and PTX-ARCH-001 when the target
 * is below sm_`sm`, naming `what` needs it; it returns true when neither applies. */
bool ptx_insn_fail(ptx_parser *p, const ptx_insn_ctx *c, const char *rule, const char *msg);
bool ptx_insn_fail_at(ptx_parser *p, const ptx_insn_ctx *c, const ptx_popnd *o, const char *rule,
                      const char *msg);
bool ptx_insn_require(ptx_parser *p, const ptx_insn_ctx *c, const char *what, unsigned version,
                      unsigned sm);

#endif
