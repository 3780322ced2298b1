/* The texture instructions of PTX (PTX ISA 9.1, "Texture Instructions": tex, tld4, txq) in
 * unified texture mode, where the sampler is part of the texture: their modifier rules as ptxas 13 enforces them
 * and their operands lowered to the IR's texture ops (ir_ops.def "textures"; docs/ptx.md,
 * "Textures"). The texture is a .u64 register (a texture object) or a .texref variable. tex
 * takes the cube geometries (.cube, .acube) and a mipmap level of detail (.base, .level with its
 * operand, .grad with two gradient vectors), txq.level the level of a width/height/depth
 * query. Forms gpumemsim does not model are rejected by name: multisample geometries, cube
 * geometries of tld4 and of tex.grad, half-precision results, an explicit sampler, the offset
 * and depth-compare operands, and the sampler-only and layout queries of txq. */
#include "ptx/ptx_internal.h"

#define HAS(g) (c->has_group[PTX_G_##g])
#define VAL(g) (c->group_value[PTX_G_##g])

static bool unmodelled(ptx_parser *p, const ptx_insn_ctx *c, const char *what)
{
    ptx_error_at(p, c->line, c->col, "PTX-UNSUP-002", "'%.*s': %s not modelled by gpumemsim",
                 (int)c->text_len, c->text, what);
    return false;
}

static bool check_txq(ptx_parser *p, const ptx_insn_ctx *c)
{
    if (HAS(TEXFORM) || (HAS(TEXLOD) && VAL(TEXLOD) != PTX_TEXLOD_LEVEL))
        return ptx_insn_fail(p, c, "PTX-TEX-003", "txq takes no geometry and no level of detail but "
                    ".level");
    if (!HAS(TXQ))
        return ptx_insn_fail(p, c, "PTX-TEX-003", "txq needs a query (.width, .height, .filter_mode, ...)");
    if (VAL(TXQ) == 0)
        return unmodelled(p, c, "the queries .force_unnormalized_coords (of a sampler) and "
                          ".memory_layout are");
    if (HAS(TEXLOD) && VAL(TXQ) != IR_TXQ_WIDTH && VAL(TXQ) != IR_TXQ_HEIGHT &&
        VAL(TXQ) != IR_TXQ_DEPTH)
        return ptx_insn_fail(p, c, "PTX-TEX-004", "txq.level queries only .width, .height and .depth");
    return true;
}

/* The geometry: .1d ... .a2d, or the cube ones (tex only; the multisample ones are rejected). */
static bool geometry(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_mem_attrs *m = &c->insn->mem;
    if (HAS(TEXFORM)) {
        if (VAL(TEXFORM) == PTX_TEXFORM_2DMS || VAL(TEXFORM) == PTX_TEXFORM_A2DMS)
            return unmodelled(p, c, VAL(TEXFORM) == PTX_TEXFORM_2DMS
                                        ? "multisample textures (.2dms) are"
                                        : "multisample array textures (.a2dms) are");
        if (c->op == PTX_OP_TLD4)
            return unmodelled(p, c, "tld4 of cube textures is");
        if (HAS(TEXLOD) && VAL(TEXLOD) == PTX_TEXLOD_GRAD)
            return unmodelled(p, c, "the level of detail of cube textures from gradients "
                              "(tex.grad.cube, tex.grad.acube) is");
        if (c->types[1] != IR_T_F32)
            return ptx_insn_fail(p, c, "PTX-TEX-004", "cube textures take .f32 coordinates");
        m->image_dim = VAL(TEXFORM) == PTX_TEXFORM_CUBE ? IR_IMAGE_CUBE : IR_IMAGE_CUBE_ARRAY;
        return true;
    }
    if (!HAS(GEOM))
        return ptx_insn_fail(p, c, "PTX-TEX-003", "needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube or "
                    ".acube)");
    m->image_dim = (uint8_t)VAL(GEOM);
    return true;
}

bool ptx_check_texture(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_mem_attrs *m = &c->insn->mem;
    m->space = IR_SPACE_SURFACE; /* image memory, as the surface instructions */
    if (c->op == PTX_OP_TXQ)
        return check_txq(p, c);
    if (HAS(TEXFORM) && HAS(GEOM))
        return ptx_insn_fail(p, c, "PTX-TEX-003", "two geometries");
    if (!geometry(p, c))
        return false;
    if (HAS(TEXLOD) && VAL(TEXLOD) == PTX_TEXLOD_LEVEL && c->types[1] != IR_T_F32)
        return ptx_insn_fail(p, c, "PTX-TEX-004", "tex.level takes .f32 coordinates");
    if (c->op == PTX_OP_TLD4) {
        if (!HAS(TLD4))
            return ptx_insn_fail(p, c, "PTX-TEX-003", "tld4 needs the channel it gathers (.r, .g, .b or "
                        ".a)");
        if (m->image_dim != IR_IMAGE_2D && m->image_dim != IR_IMAGE_2D_ARRAY)
            return ptx_insn_fail(p, c, "PTX-TEX-003", "tld4 takes only the .2d and .a2d geometries");
    }
    if (c->types[0] == IR_T_F16 || c->types[0] == IR_T_F16X2)
        return unmodelled(p, c, "half-precision texture results (.f16, .f16x2) are");
    if (!HAS(VEC) || VAL(VEC) != 4)
        return ptx_insn_fail(p, c, "PTX-TEX-003", "the result is a .v4 vector");
    m->elem_bytes = 4;
    m->vec = 4;
    return true;
}

/* ---- operands ---- */
static const ptx_image_kind texture = {
    .noun = "texture", .ref = ".texref", .query = "txq", .handle_rule = "PTX-TEX-002",
    .coord_rule = "PTX-TEX-001", .image_ref = 2, .integer_layer = true,
};

bool ptx_no_texture_operands(ptx_parser *p, const ptx_insn_ctx *c)
{
    for (uint32_t i = 0; i < c->nops; i++) {
        const ptx_popnd *o = &p->ops[i];
        if (o->kind == PTX_P_VEC && o->name2.text)
            return ptx_image_opnd_err(p, c, o, "PTX-OPND-002", "a vector result with a "
                                      "predicate {...}|p belongs to tex and tld4");
        if (o->kind == PTX_P_IMAGE && o->has_sampler)
            return ptx_image_opnd_err(p, c, o, "PTX-OPND-002", "a sampler operand [a, s, b] "
                                      "belongs to tex and tld4");
    }
    return true;
}

/* The result: {a, b, c, d} of 32-bit registers ('_' discards a channel), and the optional
 * predicate of {a, b, c, d}|p (PTX ISA 7.1), which says whether the texels were resident. */
static bool result(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_insn *in)
{
    if (o->kind != PTX_P_VEC || o->count != 4)
        return ptx_image_opnd_err(p, c, o, "PTX-OPND-002", "the result is a vector of four "
                                  "registers {a, b, c, d}");
    ir_operand *d = &in->dst[0];
    d->kind = IR_OPND_VEC;
    d->sym = IR_SYM_NONE;
    d->count = 4;
    for (unsigned i = 0; i < 4; i++) {
        if (!o->elems[i].text) {
            if (o->elem_is_imm[i])
                return ptx_image_opnd_err(p, c, o, "PTX-OPND-002",
                                          "the result vector holds registers");
            d->vregs[i] = IR_REG_SINK;
            continue;
        }
        ir_operand r = {0};
        if (!ptx_lower_reg(p, c, &o->elems[i], IR_T_B32, false, &r))
            return false;
        d->vregs[i] = r.reg;
    }
    in->ndst = 1;
    if (!o->name2.text)
        return true;
    if (p->version < 71)
        return ptx_image_opnd_err(p, c, o, "PTX-VER-001", "the predicate result {...}|p "
                                  "requires PTX ISA 7.1 or later");
    if (!ptx_lower_reg(p, c, &o->name2, IR_T_PRED, false, &in->dst[1]))
        return false;
    in->ndst = 2;
    return true;
}

/* txq, and txq.level's level operand (an integer register or immediate) as src[1]. */
static void lower_query(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    if (!HAS(TEXLOD)) {
        ptx_lower_image_query(p, c, &texture);
        return;
    }
    if (c->nops != 3) {
        ptx_error_at(p, c->line, c->col, "PTX-TEX-004", "'%.*s': txq.level takes the level "
                     "operand: d, [a], level", (int)c->text_len, c->text);
        return;
    }
    c->nops = 2; /* the query itself, then the level */
    ptx_lower_image_query(p, c, &texture);
    c->nops = 3;
    if (in->nsrc == 1 && ptx_lower_src(p, c, &p->ops[2], IR_T_U32, &in->src[1]))
        in->nsrc = 2;
}

/* Gradient vectors of tex.grad: as many elements as the filtered dimensions (1d: {dx},
 * 2d and a2d: {dx, dy}, 3d: four, the fourth ignored). */
static bool gradient(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    unsigned dim = c->insn->mem.image_dim;
    unsigned want = dim == IR_IMAGE_3D ? 4 : (dim == IR_IMAGE_2D || dim == IR_IMAGE_2D_ARRAY) ? 2
                                                                                            : 1;
    if (o->kind != PTX_P_VEC || o->count != want)
        return ptx_image_opnd_err(p, c, o, "PTX-TEX-004", "the gradients are vectors of the "
                                  "geometry's size (1d, a1d: {d}, 2d, a2d: {dx, dy}, 3d: four "
                                  "elements)");
    return ptx_lower_vec(p, c, o, IR_T_F32, want, false, out);
}

/* The level-of-detail operands after [a, {x, ...}]: .level's f32 level, .grad's two vectors,
 * none otherwise (.base reads level 0: lowered as an explicit level 0.0). */
static bool level_of_detail(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    unsigned lod = HAS(TEXLOD) ? VAL(TEXLOD) : PTX_TEXLOD_NONE;
    unsigned want = lod == PTX_TEXLOD_LEVEL ? 3 : lod == PTX_TEXLOD_GRAD ? 4 : 2;
    if (c->nops > want) {
        unmodelled(p, c, "the offset and depth-compare operands are");
        return false;
    }
    if (c->nops < want) {
        ptx_error_at(p, c->line, c->col, "PTX-TEX-004", "'%.*s': %s", (int)c->text_len, c->text,
                     lod == PTX_TEXLOD_LEVEL ? "tex.level takes the level operand: d, [a, c], "
                                               "level"
                                             : "tex.grad takes two gradient vectors: d, [a, c], "
                                               "dPdx, dPdy");
        return false;
    }
    if (lod == PTX_TEXLOD_BASE) {
        in->src[2] = (ir_operand){.kind = IR_OPND_IMM, .sym = IR_SYM_NONE, .imm = 0};
        return true;
    }
    if (lod == PTX_TEXLOD_LEVEL)
        return ptx_lower_src(p, c, &p->ops[2], IR_T_F32, &in->src[2]);
    if (lod == PTX_TEXLOD_GRAD)
        return gradient(p, c, &p->ops[2], &in->src[2]) && gradient(p, c, &p->ops[3], &in->src[3]);
    return true;
}

void ptx_lower_texture(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->op == PTX_OP_TXQ) {
        lower_query(p, c);
        return;
    }
    if (c->nops > 2 && !HAS(TEXLOD)) {
        unmodelled(p, c, "the offset and depth-compare operands are");
        return;
    }
    if (c->nops < 2 || ops[1].kind != PTX_P_IMAGE) {
        ptx_image_opnd_err(p, c, c->nops < 2 ? &ops[0] : &ops[1], "PTX-TEX-001",
                           "expected the result and the texture with its coordinates "
                           "d, [a, {x, ...}]");
        return;
    }
    if (ops[1].has_sampler) {
        unmodelled(p, c, "an explicit sampler [a, s, {x, ...}] (independent texture mode) is");
        return;
    }
    if (ptx_lower_image_handle(p, c, &texture, &ops[1], &in->src[0]) &&
        ptx_lower_image_coords(p, c, &texture, &ops[1], &in->src[1]) &&
        result(p, c, &ops[0], in) && level_of_detail(p, c)) {
        unsigned lod = HAS(TEXLOD) ? VAL(TEXLOD) : PTX_TEXLOD_NONE;
        in->nsrc = lod == PTX_TEXLOD_GRAD ? 4 : lod != PTX_TEXLOD_NONE ? 3 : 2;
    }
}
