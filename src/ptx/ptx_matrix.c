/* The matrix instructions of PTX (PTX ISA 9.1 §9.7.14, "Warp-level matrix instructions"):
 * ldmatrix, stmatrix, mma.sync and wmma.load/store/mma, in the forms nvcc emits for sm_80 and
 * sm_90. Their modifiers do not fit the modifier groups of ptx_ops.def (mma names four types in
 * order, two layouts in order, a shape spelled as a word), so the instruction parser hands them
 * over unread and this file reads them from the opcode text: every word is classified, each
 * instruction's required words are checked, and the combination of shape and types against the
 * table of what PTX defines. Forms gpumemsim does not model (sparse mma, sub-byte and fp8 types,
 * block scaling, the b8 ldmatrix/stmatrix forms of sm_100) are
 * rejected by name with PTX-UNSUP-002; wgmma stays a family rejected as a whole (PTX-UNSUP-001).
 * The operands are lowered to the IR rows of the MATRIX family (ir_ops.def). */
#include <stdio.h>
#include <string.h>

#include "ptx/ptx_internal.h"

enum { MAX_TYPES = 4 };

/* The modifiers of one matrix instruction as written. */
typedef struct matrix_words {
    uint32_t col;            /* column of the word being read */
    bool sync, aligned, trans, satfinite, has_num, has_space;
    unsigned shape;          /* IR_MATRIX_*, 0 when absent */
    unsigned nlayouts;       /* .row/.col in order: 1 = col */
    uint8_t layouts[2];
    unsigned num;            /* .x1 .x2 .x4 */
    uint8_t space;           /* ir_space */
    unsigned ntypes;
    ir_type types[MAX_TYPES];
    uint8_t rnd;             /* ir_round */
} matrix_words;

static bool fail_at(ptx_parser *p, const ptx_insn_ctx *c, uint32_t col, const char *rule,
                    const char *fmt, const char *word)
{
    char msg[160];
    snprintf(msg, sizeof msg, fmt, word);
    ptx_error_at(p, c->line, col, rule, "'%.*s': %s", (int)c->text_len, c->text, msg);
    return false;
}

static bool fail(ptx_parser *p, const ptx_insn_ctx *c, const char *rule, const char *msg)
{
    return fail_at(p, c, c->col, rule, "%s", msg);
}

static bool unmodelled(ptx_parser *p, const ptx_insn_ctx *c, uint32_t col, const char *what)
{
    return fail_at(p, c, col, "PTX-UNSUP-002", "%s not modelled by gpumemsim", what);
}

/* The version and target a form needs (PTX-VER-001, PTX-ARCH-001). */
/* ---- reading the words ---- */
static const struct {
    const char *name;
    uint8_t shape;
} shapes[] = {
    {"m8n8", IR_MATRIX_M8N8},         {"m16n8k16", IR_MATRIX_M16N8K16},
    {"m16n8k8", IR_MATRIX_M16N8K8},   {"m16n8k4", IR_MATRIX_M16N8K4},
    {"m8n8k4", IR_MATRIX_M8N8K4},     {"m16n8k32", IR_MATRIX_M16N8K32},
    {"m8n8k16", IR_MATRIX_M8N8K16},   {"m16n16k16", IR_MATRIX_M16N16K16},
    {"m32n8k16", IR_MATRIX_M32N8K16}, {"m8n32k16", IR_MATRIX_M8N32K16},
    {"m16n16k8", IR_MATRIX_M16N16K8},
};

static const struct {
    const char *name;
    uint8_t type;
} types[] = {
    {"f16", IR_T_F16}, {"bf16", IR_T_BF16}, {"tf32", IR_T_TF32}, {"f32", IR_T_F32},
    {"f64", IR_T_F64}, {"s8", IR_T_S8},     {"u8", IR_T_U8},     {"s32", IR_T_S32},
    {"b16", IR_T_B16},
};

/* Words of forms gpumemsim does not model, with what to call them. */
static const struct {
    const char *prefix;
    const char *what;
} unmodelled_words[] = {
    {"sp", "sparse mma (mma.sp) is"},
    {"kind::", "mma with .kind (fp8/fp6/fp4 and block scaling) is"},
    {"block_scale", "block-scaled mma is"},
    {"scale_vec", "block-scaled mma is"},
    {"s4", "sub-byte integer matrices (.s4, .u4) are"},
    {"u4", "sub-byte integer matrices (.s4, .u4) are"},
    {"b1", "single-bit matrices (.b1) are"},
    {"xor", "single-bit matrices (.b1 with .xor/.and.popc) are"},
    {"and", "single-bit matrices (.b1 with .xor/.and.popc) are"},
    {"popc", "single-bit matrices (.b1 with .xor/.and.popc) are"},
    {"e4m3", "fp8 and narrower float matrices are"},
    {"e5m2", "fp8 and narrower float matrices are"},
    {"e3m2", "fp8 and narrower float matrices are"},
    {"e2m3", "fp8 and narrower float matrices are"},
    {"e2m1", "fp8 and narrower float matrices are"},
    {"b8", "the 8-bit ldmatrix/stmatrix forms (.b8, sm_100 and later) are"},
    {"b8x16", "the 8-bit ldmatrix forms (.b8x16, sm_100 and later) are"},
    {"m16n16", "the 8-bit ldmatrix/stmatrix shapes (.m16n16, .m8n16, .m16n8; sm_100) are"},
    {"m8n16", "the 8-bit ldmatrix/stmatrix shapes (.m16n16, .m8n16, .m16n8; sm_100) are"},
    {"m16n8", "the 8-bit ldmatrix/stmatrix shapes (.m16n16, .m8n16, .m16n8; sm_100) are"},
    {"shared::cluster", "another CTA's shared memory (.shared::cluster) is"},
};

static bool word_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* The shape and type words; *done says whether w was one of them. */
static bool read_shape_or_type(ptx_parser *p, const ptx_insn_ctx *c, matrix_words *mw,
                               const char *w, size_t n, const char *text, bool *done)
{
    *done = true;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (word_is(w, n, shapes[i].name)) {
            if (mw->shape)
                return fail_at(p, c, mw->col, "PTX-MMA-001", "a second shape %s", text);
            mw->shape = shapes[i].shape;
            return true;
        }
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (word_is(w, n, types[i].name)) {
            if (mw->ntypes == MAX_TYPES)
                return fail_at(p, c, mw->col, "PTX-MMA-001", "too many types (%s)", text);
            mw->types[mw->ntypes++] = (ir_type)types[i].type;
            return true;
        }
    *done = false;
    return true;
}

/* .sync .aligned .trans .satfinite, .row/.col, .x1/.x2/.x4 and the state space. */
static bool read_flag(ptx_parser *p, const ptx_insn_ctx *c, matrix_words *mw, const char *w,
                      size_t n, const char *text, bool *done)
{
    *done = true;
    bool *flag = word_is(w, n, "sync") ? &mw->sync : word_is(w, n, "aligned") ? &mw->aligned
               : word_is(w, n, "trans") ? &mw->trans : word_is(w, n, "satfinite") ? &mw->satfinite
               : NULL;
    if (flag) {
        if (*flag)
            return fail_at(p, c, mw->col, "PTX-MMA-001", "%s repeated", text);
        *flag = true;
        return true;
    }
    if (word_is(w, n, "row") || word_is(w, n, "col")) {
        if (mw->nlayouts == 2)
            return fail_at(p, c, mw->col, "PTX-MMA-001", "a third layout %s", text);
        mw->layouts[mw->nlayouts++] = word_is(w, n, "col");
        return true;
    }
    if (word_is(w, n, "x1") || word_is(w, n, "x2") || word_is(w, n, "x4")) {
        if (mw->has_num)
            return fail_at(p, c, mw->col, "PTX-MMA-001", "a second count %s", text);
        mw->has_num = true;
        mw->num = (unsigned)(w[1] - '0');
        return true;
    }
    uint8_t space = word_is(w, n, "shared") || word_is(w, n, "shared::cta") ? IR_SPACE_SHARED
                  : word_is(w, n, "global") ? IR_SPACE_GLOBAL : IR_SPACE_NONE;
    if (space) {
        if (mw->has_space)
            return fail_at(p, c, mw->col, "PTX-MMA-001", "a second state space %s", text);
        mw->has_space = true;
        mw->space = space;
        return true;
    }
    *done = false;
    return true;
}

static bool read_word(ptx_parser *p, const ptx_insn_ctx *c, matrix_words *mw, const char *w,
                      size_t n)
{
    char text[40];
    snprintf(text, sizeof text, ".%.*s", (int)(n < 30 ? n : 30), w);
    bool done, ok = read_shape_or_type(p, c, mw, w, n, text, &done);
    if (!ok || done)
        return ok;
    ok = read_flag(p, c, mw, w, n, text, &done);
    if (!ok || done)
        return ok;
    static const struct { const char *name; uint8_t rnd; } rnds[] = {
        {"rn", IR_RND_RN}, {"rz", IR_RND_RZ}, {"rm", IR_RND_RM}, {"rp", IR_RND_RP}};
    for (size_t i = 0; i < sizeof rnds / sizeof rnds[0]; i++)
        if (word_is(w, n, rnds[i].name)) {
            if (mw->rnd)
                return fail_at(p, c, mw->col, "PTX-MMA-001", "a second rounding mode %s", text);
            mw->rnd = rnds[i].rnd;
            return true;
        }
    for (size_t i = 0; i < sizeof unmodelled_words / sizeof unmodelled_words[0]; i++) {
        size_t len = strlen(unmodelled_words[i].prefix);
        bool prefix = unmodelled_words[i].prefix[len - 1] == ':';
        if (prefix ? n >= len && memcmp(w, unmodelled_words[i].prefix, len) == 0
                   : word_is(w, n, unmodelled_words[i].prefix) ||
                         (n > len && memcmp(w, unmodelled_words[i].prefix, len) == 0 &&
                          w[len] == ':'))
            return unmodelled(p, c, mw->col, unmodelled_words[i].what);
    }
    if (n > 1 && w[0] == 'm' && w[1] >= '0' && w[1] <= '9')
        return unmodelled(p, c, mw->col, "this matrix shape is");
    return fail_at(p, c, mw->col, "PTX-MOD-001", "unknown modifier %s on a matrix instruction",
                   text);
}

/* Splits the words after the mnemonic (".sync.aligned.m8n8.x4.shared::cta.b16") and reads each. */
static bool read_words(ptx_parser *p, const ptx_insn_ctx *c, matrix_words *mw)
{
    size_t start = strlen(c->row->mnemonic);
    const char *t = c->text;
    size_t len = c->text_len;
    bool ok = true;
    for (size_t i = start; ok && i < len;) {
        if (t[i] != '.')
            return fail_at(p, c, c->col + (uint32_t)i, "PTX-PARSE-001", "%s", "expected '.'");
        size_t j = i + 1;
        while (j < len && t[j] != '.') j++;
        mw->col = c->col + (uint32_t)i;
        ok = read_word(p, c, mw, t + i + 1, j - i - 1);
        i = j;
    }
    return ok;
}

/* ---- the forms PTX defines ---- */
static bool is_int8(ir_type t) { return t == IR_T_S8 || t == IR_T_U8; }

/* Whether PTX defines mma.sync with `shape` and the types d.a.b.c (k: c's type), and the
 * version and target it needs (PTX ISA 9.1 §9.7.14.5.14). */
static bool mma_defined(unsigned shape, ir_type d, ir_type a, ir_type b, ir_type k,
                        unsigned *version, unsigned *sm)
{
    bool f16 = a == IR_T_F16 && b == a && (d == IR_T_F16 || d == IR_T_F32) && k == d;
    bool f32 = d == IR_T_F32 && k == d && b == a; /* bf16, tf32 */
    bool f64 = a == IR_T_F64 && b == a && d == a && k == a;
    bool s8 = is_int8(a) && is_int8(b) && d == IR_T_S32 && k == d;
    *version = 70;
    *sm = 80;
    switch (shape) {
    case IR_MATRIX_M16N8K16:
        if (f64)
            *version = 78, *sm = 90;
        return f16 || (f32 && a == IR_T_BF16) || s8 || f64;
    case IR_MATRIX_M16N8K8:
        if (f16)
            *version = 65, *sm = 75;
        if (f64)
            *version = 78, *sm = 90;
        return f16 || (f32 && (a == IR_T_BF16 || a == IR_T_TF32)) || f64;
    case IR_MATRIX_M16N8K4:
        if (f64)
            *version = 78, *sm = 90;
        return (f32 && a == IR_T_TF32) || f64;
    case IR_MATRIX_M8N8K4:
        if (a == IR_T_F16) /* the sm_70 form: any of f16 and f32 for d and c */
            *version = 64, *sm = 70;
        return f64 || (a == IR_T_F16 && b == a && (d == IR_T_F16 || d == IR_T_F32) &&
                       (k == IR_T_F16 || k == IR_T_F32));
    case IR_MATRIX_M16N8K32: return s8;
    case IR_MATRIX_M8N8K16:
        *version = 65, *sm = 75;
        return s8;
    default: return false;
    }
}

/* mma.sync: the shape and the four types d.a.b.c. */
static bool check_mma_types(ptx_parser *p, const ptx_insn_ctx *c, const matrix_words *mw)
{
    ir_type d = mw->types[0], a = mw->types[1], b = mw->types[2], k = mw->types[3];
    unsigned version, sm;
    if (mw->shape == IR_MATRIX_M8N8 || mw->shape > IR_MATRIX_M8N8K16)
        return fail(p, c, "PTX-MMA-002", "mma takes the shapes .m16n8k16, .m16n8k8, .m16n8k4, "
                    ".m8n8k4, .m16n8k32 and .m8n8k16");
    if (!mma_defined(mw->shape, d, a, b, k, &version, &sm))
        return fail(p, c, "PTX-MMA-002", "these types are not defined for this mma shape");
    if (mw->satfinite && d != IR_T_S32)
        return fail(p, c, "PTX-MMA-002", ".satfinite applies to integer mma only");
    if (mw->rnd && d != IR_T_F64)
        return fail(p, c, "PTX-MMA-002", "a rounding mode applies to f64 mma only");
    return ptx_insn_require(p, c, "mma", version, sm);
}

/* The element types each wmma shape takes for a and b (PTX ISA 9.1 §9.7.14.4). */
static bool wmma_ab_type(unsigned shape, ir_type t)
{
    switch (shape) {
    case IR_MATRIX_M16N16K16: case IR_MATRIX_M32N8K16: case IR_MATRIX_M8N32K16:
        return t == IR_T_F16 || t == IR_T_BF16 || is_int8(t);
    case IR_MATRIX_M16N16K8: return t == IR_T_TF32;
    case IR_MATRIX_M8N8K4: return t == IR_T_F64;
    default: return false;
    }
}

static bool wmma_cd_type(unsigned shape, ir_type t)
{
    if (shape == IR_MATRIX_M8N8K4)
        return t == IR_T_F64;
    if (shape == IR_MATRIX_M16N16K8)
        return t == IR_T_F32;
    return t == IR_T_F16 || t == IR_T_F32 || t == IR_T_S32;
}

/* What a wmma form needs beyond PTX 6.0 and sm_70. */
static bool wmma_require(ptx_parser *p, const ptx_insn_ctx *c, ir_type t)
{
    if (t == IR_T_BF16 || t == IR_T_TF32 || t == IR_T_F64)
        return ptx_insn_require(p, c, "wmma with .bf16, .tf32 or .f64", 70, 80);
    if (is_int8(t) || t == IR_T_S32)
        return ptx_insn_require(p, c, "wmma with integer matrices", 63, 72);
    return true;
}

static bool check_wmma_mma(ptx_parser *p, ptx_insn_ctx *c, const matrix_words *mw)
{
    ir_insn *in = c->insn;
    ir_type d = mw->types[0], a, b, k;
    if (mw->ntypes == 2) { /* f16 inputs: .dtype.ctype */
        a = b = IR_T_F16;
        k = mw->types[1];
        if ((d != IR_T_F16 && d != IR_T_F32) || (k != IR_T_F16 && k != IR_T_F32))
            return fail(p, c, "PTX-MMA-002", "wmma.mma with two types takes .f16 inputs and "
                        ".f16/.f32 accumulators");
    } else if (mw->ntypes == 4) {
        a = mw->types[1], b = mw->types[2], k = mw->types[3];
        bool ok = a == b && wmma_ab_type(mw->shape, a) &&
                  (is_int8(a) ? d == IR_T_S32 && k == IR_T_S32
                   : a == IR_T_F64 ? d == IR_T_F64 && k == IR_T_F64
                                   : a != IR_T_F16 && d == IR_T_F32 && k == IR_T_F32);
        if (!ok)
            return fail(p, c, "PTX-MMA-002", "these types are not defined for this wmma shape");
    } else {
        return fail(p, c, "PTX-MMA-001", "wmma.mma needs .dtype.ctype (f16 inputs) or "
                    ".dtype.atype.btype.ctype");
    }
    if (!wmma_ab_type(mw->shape, a) || !wmma_cd_type(mw->shape, d))
        return fail(p, c, "PTX-MMA-002", "these types are not defined for this wmma shape");
    if (mw->rnd && d != IR_T_F64)
        return fail(p, c, "PTX-MMA-002", "a rounding mode applies to f64 wmma only");
    if (mw->satfinite && d != IR_T_S32)
        return unmodelled(p, c, c->col, ".satfinite on floating-point wmma.mma is");
    in->type = (uint8_t)d;
    in->type2 = (uint8_t)a;
    in->type_b = (uint8_t)b;
    in->type_c = (uint8_t)k;
    return wmma_require(p, c, a);
}

static bool check_wmma_move(ptx_parser *p, ptx_insn_ctx *c, const matrix_words *mw,
                            unsigned frag)
{
    ir_insn *in = c->insn;
    if (mw->nlayouts != 1)
        return fail(p, c, "PTX-MMA-001", "wmma.load/store needs one layout, .row or .col");
    if (mw->ntypes != 1)
        return fail(p, c, "PTX-MMA-001", "wmma.load/store needs one element type");
    ir_type t = mw->types[0];
    bool ok = frag == IR_FRAG_A || frag == IR_FRAG_B ? wmma_ab_type(mw->shape, t)
                                                     : wmma_cd_type(mw->shape, t);
    if (!ok)
        return fail(p, c, "PTX-MMA-002", "this element type is not defined for this wmma shape "
                    "and matrix");
    if (mw->trans || mw->satfinite || mw->rnd)
        return fail(p, c, "PTX-MMA-001", "wmma.load/store takes no .trans, .satfinite or "
                    "rounding mode");
    in->frag = (uint8_t)frag;
    in->type = (uint8_t)t;
    if (mw->layouts[0])
        in->mods |= IR_MOD_COL;
    in->mem.space = mw->has_space ? mw->space : IR_SPACE_GENERIC;
    in->mem.elem_bytes = (uint8_t)(ir_type_bits(t) / 8);
    return wmma_require(p, c, t);
}

/* ldmatrix/stmatrix: .m8n8 .x1/.x2/.x4 {.trans} {.shared{::cta}} .b16. */
static bool check_ldst_matrix(ptx_parser *p, ptx_insn_ctx *c, const matrix_words *mw)
{
    ir_insn *in = c->insn;
    if (mw->shape != IR_MATRIX_M8N8)
        return fail(p, c, "PTX-MMA-002", "ldmatrix and stmatrix take the shape .m8n8");
    if (!mw->has_num || mw->ntypes != 1 || mw->types[0] != IR_T_B16)
        return fail(p, c, "PTX-MMA-001", "needs .x1, .x2 or .x4 and the type .b16");
    if (mw->nlayouts || mw->satfinite || mw->rnd || (mw->has_space && mw->space != IR_SPACE_SHARED))
        return fail(p, c, "PTX-MMA-001", "takes no layout, .satfinite, rounding mode or state "
                    "space other than .shared{::cta}");
    in->type = IR_T_B16;
    if (mw->trans)
        in->mods |= IR_MOD_TRANS;
    in->mem.space = mw->has_space ? IR_SPACE_SHARED : IR_SPACE_GENERIC;
    in->mem.elem_bytes = 16; /* one 8-element row of 16-bit elements per lane */
    in->mem.vec = (uint8_t)mw->num;
    return true;
}

bool ptx_check_matrix(ptx_parser *p, ptx_insn_ctx *c)
{
    matrix_words mw = {0};
    ir_insn *in = c->insn;
    in->mem = (ir_mem_attrs){0};
    in->mem.vec = 1;
    if (!read_words(p, c, &mw))
        return false;
    if (!mw.sync || !mw.aligned)
        return fail(p, c, "PTX-MMA-001", "needs .sync.aligned");
    if (!mw.shape)
        return fail(p, c, "PTX-MMA-001", "needs a shape (.m16n8k16, .m8n8, ...)");
    in->sub = (uint8_t)mw.shape;
    in->rnd = mw.rnd;
    if (mw.satfinite)
        in->mods |= IR_MOD_SATFINITE;
    bool is_wmma = c->op >= PTX_OP_WMMA_LOAD_A && c->op <= PTX_OP_WMMA_MMA;
    if (is_wmma && (mw.shape < IR_MATRIX_M16N16K16 && mw.shape != IR_MATRIX_M8N8K4))
        return fail(p, c, "PTX-MMA-002", "wmma takes the shapes .m16n16k16, .m32n8k16, "
                    ".m8n32k16, .m16n16k8 and .m8n8k4");
    if (!is_wmma && c->op != PTX_OP_MMA)
        return check_ldst_matrix(p, c, &mw);
    if (c->op != PTX_OP_MMA && c->op != PTX_OP_WMMA_MMA) {
        static const uint8_t frags[] = {IR_FRAG_A, IR_FRAG_B, IR_FRAG_C, IR_FRAG_D};
        return check_wmma_move(p, c, &mw, frags[c->op - PTX_OP_WMMA_LOAD_A]);
    }
    if (mw.has_num || mw.trans || mw.has_space)
        return fail(p, c, "PTX-MMA-001", "takes no .x1/.x2/.x4, .trans or state space");
    if (mw.nlayouts != 2)
        return fail(p, c, "PTX-MMA-001", "needs the layouts of a and b (.row.col)");
    if (c->op == PTX_OP_WMMA_MMA)
        return check_wmma_mma(p, c, &mw);
    if (mw.ntypes != 4)
        return fail(p, c, "PTX-MMA-001", "mma needs four types .dtype.atype.btype.ctype");
    bool quadpair = mw.shape == IR_MATRIX_M8N8K4 && mw.types[1] == IR_T_F16;
    if (quadpair) /* the sm_70 form takes every layout of a and b */
        in->mods |= (mw.layouts[0] ? IR_MOD_ACOL : 0) | (mw.layouts[1] ? 0 : IR_MOD_BROW);
    else if (mw.layouts[0] != 0 || mw.layouts[1] != 1)
        return fail(p, c, "PTX-MMA-002", "this mma shape takes the layouts .row.col only");
    if (!check_mma_types(p, c, &mw))
        return false;
    in->type = (uint8_t)mw.types[0];
    in->type2 = (uint8_t)mw.types[1];
    in->type_b = (uint8_t)mw.types[2];
    in->type_c = (uint8_t)mw.types[3];
    return true;
}

/* ---- operands ---- */
/* A fragment: a vector of `count` registers of `bits` bits ({%r1} or, for one, %r1 alone). */
static bool fragment(ptx_parser *p, ptx_insn_ctx *c, ptx_popnd *o, unsigned count, unsigned bits,
                     bool is_dst, ir_operand *out)
{
    if (count == 0)
        return fail(p, c, "PTX-MMA-002", "no fragment is defined for this shape and type");
    if (o->kind == PTX_P_NAME && count == 1) { /* a lone register as a one-element vector */
        o->kind = PTX_P_VEC;
        o->count = 1;
        o->elems[0] = o->name;
        o->elem_is_imm[0] = 0;
    }
    if (o->kind != PTX_P_VEC || o->count != count) {
        char msg[96];
        snprintf(msg, sizeof msg, "a vector of %u %u-bit register%s is expected here", count,
                 bits, count == 1 ? "" : "s");
        ptx_error_at(p, o->line, o->col, "PTX-MMA-003", "'%.*s': %s", (int)c->text_len, c->text,
                     msg);
        return false;
    }
    for (unsigned i = 0; i < o->count; i++)
        if (!o->elems[i].text)
            return fail(p, c, "PTX-MMA-003", "fragment vectors hold registers only");
    return ptx_lower_vec(p, c, o, bits == 64 ? IR_T_B64 : IR_T_B32, count, is_dst, out);
}

static unsigned reg_bits(ir_type t) { return t == IR_T_F64 ? 64 : 32; }

static void lower_mma(ptx_parser *p, ptx_insn_ctx *c, bool wmma)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->nops != 4) {
        fail(p, c, "PTX-OPND-001", "expected d, a, b, c");
        return;
    }
    ir_type t[4] = {(ir_type)in->type, (ir_type)in->type2, (ir_type)in->type_b,
                    (ir_type)in->type_c};
    static const uint8_t frags[4] = {IR_FRAG_D, IR_FRAG_A, IR_FRAG_B, IR_FRAG_C};
    ir_operand *slots[4] = {&in->dst[0], &in->src[0], &in->src[1], &in->src[2]};
    for (unsigned i = 0; i < 4; i++) {
        unsigned regs = ir_matrix_regs(in->sub, frags[i], t[i], wmma);
        if (!fragment(p, c, &ops[i], regs, reg_bits(t[i]), i == 0, slots[i]))
            return;
    }
    in->ndst = 1;
    in->nsrc = 3;
}

static void lower_wmma_move(ptx_parser *p, ptx_insn_ctx *c, bool store)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->nops != 2 && c->nops != 3) {
        fail(p, c, "PTX-OPND-001", store ? "expected [p], d{, stride}" : "expected d, [p]{, stride}");
        return;
    }
    ir_type t = (ir_type)in->type;
    unsigned regs = ir_matrix_regs(in->sub, in->frag, t, true);
    ptx_popnd *frag = &ops[store ? 1 : 0], *addr = &ops[store ? 0 : 1];
    if (!ptx_lower_address(p, c, addr, &in->src[0]))
        return;
    ir_operand *f = store ? &in->src[1] : &in->dst[0];
    if (!fragment(p, c, frag, regs, reg_bits(t), !store, f))
        return;
    unsigned stride_slot = store ? 2 : 1;
    if (c->nops == 3 && !ptx_lower_src(p, c, &ops[2], IR_T_U32, &in->src[stride_slot]))
        return;
    in->ndst = store ? 0 : 1;
    in->nsrc = (uint8_t)(stride_slot + (c->nops == 3));
}

static void lower_ldst_matrix(ptx_parser *p, ptx_insn_ctx *c, bool store)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->nops != 2) {
        fail(p, c, "PTX-OPND-001", store ? "expected [p], r" : "expected d, [p]");
        return;
    }
    ptx_popnd *frag = &ops[store ? 1 : 0], *addr = &ops[store ? 0 : 1];
    unsigned num = in->mem.vec; /* .x1/.x2/.x4: one register per 8x8 matrix */
    if (!ptx_lower_address(p, c, addr, &in->src[0]))
        return;
    ir_operand *f = store ? &in->src[1] : &in->dst[0];
    if (!fragment(p, c, frag, num, 32, !store, f))
        return;
    in->ndst = store ? 0 : 1;
    in->nsrc = store ? 2 : 1;
}

void ptx_lower_matrix(ptx_parser *p, ptx_insn_ctx *c)
{
    switch (c->op) {
    case PTX_OP_LDMATRIX: lower_ldst_matrix(p, c, false); break;
    case PTX_OP_STMATRIX: lower_ldst_matrix(p, c, true); break;
    case PTX_OP_MMA: lower_mma(p, c, false); break;
    case PTX_OP_WMMA_MMA: lower_mma(p, c, true); break;
    case PTX_OP_WMMA_STORE_D: lower_wmma_move(p, c, true); break;
    default: lower_wmma_move(p, c, false); break;
    }
}
