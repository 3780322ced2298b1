/* Unit tests of the texture family of the executor (src/exec/exec_texture.c) on hand-built IR:
 * tex with point and linear filtering through a texture handle (image index | sampler index <<
 * 20) and a SASS pool slot, tld4's gather order, txq, the residency predicate, the read-only
 * path through the L1 (a surface write leaves a texture's L1 line stale until MEMBAR .IVALLT)
 * and the texture counters (docs/images.md, "Textures"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ir_build.h"
#include "exec_test.h"
#include "mem/mem_texture.h"

enum { IMG_BYTES = 4096, COORDS_AT = 128 /* out[] word of lane 0's coordinates */ };

typedef struct tex_out {
    exec_test_out t;
    uint8_t image[IMG_BYTES];
} tex_out;

/* The image: 8 x 4 f32 texels, pitch 64 bytes, texel (x, y) = x + 10 y. */
static mem_image_desc image_8x4(void)
{
    mem_image_desc d = {.dim = IR_IMAGE_2D, .channels = 1, .bits = 32, .kind = MEM_IMAGE_FLOAT,
                        .width = 8, .height = 4, .depth = 1, .layers = 1,
                        .layout = MEM_IMAGE_PITCH, .pitch_bytes = 64};
    return d;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Runs `m` on 32 threads with the image (index 1) and sampler *s (index 1), so the texture
 * handle is 1 << 20 | 1; coords[2 t], coords[2 t + 1]: lane t's coordinates at out[COORDS_AT].
 * `pool`: header-pool words for machines with an image bank. */
static tex_out *run_texture(const ir_module *m, const mem_sampler *s, const uint32_t *coords,
                            const uint32_t *pool, uint32_t pool_words)
{
    tex_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx ctx;
    exec_test_begin(&ctx, m, &o->t);
    memsys *ms = ctx.ms;
    assert_int_equal(memsys_host_write(ms, ctx.buf + 4 * COORDS_AT, coords, 64 * 4), 0);
    mem_image_desc d = image_8x4();
    uint64_t bytes = mem_image_bytes(&d);
    assert_int_equal(memsys_alloc(ms, bytes, 512, &d.base), 0);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++) {
            float v = (float)(x + 10 * y);
            assert_int_equal(memsys_host_write(ms, d.base + y * 64 + x * 4, &v, 4), 0);
        }
    assert_int_equal(mem_image_table_add(memsys_images(ms), &d), 1);
    assert_null(mem_sampler_check(s, &d));
    assert_int_equal(mem_sampler_table_add(memsys_samplers(ms), s), 1);
    exec_launch L = exec_test_launch_of(&ctx, 32);
    L.image_pool = pool;
    L.image_pool_words = pool_words;
    exec_test_launch(&ctx, m, &o->t, &L);
    exec_test_show_fault(&o->t);
    assert_int_equal(memsys_host_read(ms, d.base, o->image, bytes), 0);
    exec_test_end(&ctx);
    return o;
}

static ir_operand none_opnd(void)
{
    return irb_opnd(IR_OPND_NONE);
}

/* The kernel's registers. */
typedef struct kregs {
    uint32_t out, tid, h, x, y, lane_out, p;
    uint32_t r[4];
} kregs;

/* out = param; h = handle; x, y = lane's coordinates; lane_out = out + 16 * tid. */
static kregs start(irb *b, uint64_t handle)
{
    kregs k;
    irb_module(b);
    irb_func(b, "k", 1);
    uint32_t out = irb_param(b, "out", IR_T_U64);
    k.out = irb_reg(b, IR_T_U64, "%rd0");
    k.tid = irb_reg(b, IR_T_U32, "%r0");
    k.h = irb_reg(b, IR_T_U64, "%rd1");
    k.x = irb_reg(b, IR_T_U32, "%r1");
    k.y = irb_reg(b, IR_T_U32, "%r2");
    k.lane_out = irb_reg(b, IR_T_U64, "%rd2");
    uint32_t off = irb_reg(b, IR_T_U64, "%rd3"), at = irb_reg(b, IR_T_U64, "%rd4");
    for (unsigned i = 0; i < 4; i++) {
        char name[8] = {'%', 'f', (char)('0' + i), 0};
        k.r[i] = irb_reg(b, IR_T_U32, name);
    }
    k.p = irb_pred(b, "%p0");
    irb_ld(b, IR_SPACE_PARAM, IR_T_U64, irb_r(k.out), irb_addr_sym(out, 0));
    irb_alu(b, IR_MOV, IR_T_U32, irb_r(k.tid), irb_sreg(IR_SREG_TID_X), none_opnd(), none_opnd());
    irb_alu(b, IR_MOV, IR_T_U64, irb_r(k.h), irb_imm((int64_t)handle), none_opnd(), none_opnd());
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(off), irb_r(k.tid), irb_imm(8), none_opnd())->mods =
        IR_MOD_WIDE;
    irb_alu(b, IR_ADD, IR_T_S64, irb_r(at), irb_r(k.out), irb_r(off), none_opnd());
    irb_ld(b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(k.x), irb_addr_reg(at, 4 * COORDS_AT));
    irb_ld(b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(k.y), irb_addr_reg(at, 4 * COORDS_AT + 4));
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(off), irb_r(k.tid), irb_imm(16), none_opnd())->mods =
        IR_MOD_WIDE;
    irb_alu(b, IR_ADD, IR_T_S64, irb_r(k.lane_out), irb_r(k.out), irb_r(off), none_opnd());
    return k;
}

/* A texture op on `tex` at (x, y) into r[0..3] and p. */
static ir_insn *texture_op(irb *b, ir_opcode op, ir_type t, ir_type ct, ir_operand tex,
                           const kregs *k)
{
    ir_insn *in = irb_op(b, op, t);
    ir_operand d = irb_opnd(IR_OPND_VEC), c = irb_opnd(IR_OPND_VEC);
    d.count = 4;
    for (unsigned i = 0; i < 4; i++) d.vregs[i] = k->r[i];
    c.count = 2;
    c.vregs[0] = k->x;
    c.vregs[1] = k->y;
    irb_dst(in, 0, d);
    irb_dst(in, 1, irb_p(k->p));
    irb_src(in, 0, tex);
    irb_src(in, 1, c);
    in->type2 = ct;
    in->mem.space = IR_SPACE_GLOBAL;
    in->mem.image_dim = IR_IMAGE_2D;
    return in;
}

/* out[4 tid .. 4 tid + 3] = r[0..3]. */
static void store_result(irb *b, const kregs *k)
{
    for (unsigned i = 0; i < 4; i++)
        irb_st(b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(k->lane_out, 4 * i), irb_r(k->r[i]));
}

/* The static id of the n-th instruction of op `op` (ids are given at irb_finish). */
static uint32_t op_id(const irb *b, ir_opcode op, unsigned n)
{
    for (uint32_t i = 0; i < b->fn->ninsns; i++)
        if (b->fn->insns[i].op == op && n-- == 0)
            return b->fn->insns[i].id;
    fail();
    return 0;
}

/* One tex (f32 result, coordinates of type ct), results stored; returns the tex's id. */
static tex_out *one_fetch(ir_opcode op, unsigned sub, ir_type ct, const mem_sampler *s,
                          const uint32_t *coords, uint32_t *id)
{
    irb b;
    kregs k = start(&b, 1u << 20 | 1u);
    ir_insn *in = texture_op(&b, op, IR_T_F32, ct, irb_r(k.h), &k);
    in->sub = (uint8_t)sub;
    store_result(&b, &k);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    *id = op_id(&b, op, 0);
    tex_out *o = run_texture(b.m, s, coords, NULL, 0);
    ir_module_destroy(b.m);
    return o;
}

static float out_float(const tex_out *o, unsigned lane, unsigned ch)
{
    float f;
    memcpy(&f, &o->t.out[4 * lane + ch], 4);
    return f;
}

static void test_point(void **state)
{
    (void)state;
    uint32_t coords[64], id;
    for (unsigned t = 0; t < 32; t++) {
        coords[2 * t] = fbits((float)(t % 8) + 0.5f);
        coords[2 * t + 1] = fbits((float)(t / 8) + 0.9f);
    }
    mem_sampler s = {.address = {MEM_TEX_CLAMP, MEM_TEX_CLAMP}};
    tex_out *o = one_fetch(IR_TEX, 0, IR_T_F32, &s, coords, &id);
    assert_int_equal(o->t.rc, 0);
    for (unsigned t = 0; t < 32; t++) {
        assert_true(out_float(o, t, 0) == (float)(t % 8 + 10 * (t / 8)));
        assert_int_equal(o->t.out[4 * t + 1], 0);    /* missing channels: 0, 0, 1 */
        assert_true(out_float(o, t, 3) == 1.0f);
    }
    /* One fetch: one L1 request of 4 sectors (rows of 32 bytes, 64 bytes apart), all from DRAM
     * on a cold hierarchy. */
    assert_int_equal(o->t.insn[id].texture.requests, 1);
    assert_int_equal(o->t.insn[id].l1.requests, 1);
    assert_int_equal(o->t.insn[id].l1.sector_misses, 4);
    assert_int_equal(o->t.insn[id].texture.sectors_dram, 4);
    assert_int_equal(o->t.insn[id].texture.sectors_l1, 0);
    assert_int_equal(o->t.insn[id].surface.requests, 0);
    free(o);
}

static void test_linear_and_integer_coords(void **state)
{
    (void)state;
    uint32_t coords[64] = {0}, id;
    coords[0] = fbits(1.0f), coords[1] = fbits(1.0f);   /* between (0,0) (1,0) (0,1) (1,1) */
    coords[2] = fbits(1.7f), coords[3] = fbits(0.5f);   /* x weight 51/256 */
    coords[4] = fbits(-3.0f), coords[5] = fbits(9.0f);  /* x in the border, y clamped */
    coords[6] = fbits(8.0f), coords[7] = fbits(0.5f);   /* border x: (7,0) and the border */
    mem_sampler s = {.filter = MEM_TEX_LINEAR, .address = {MEM_TEX_BORDER, MEM_TEX_CLAMP},
                     .border = {100, 0, 0, 0}};
    tex_out *o = one_fetch(IR_TEX, 0, IR_T_F32, &s, coords, &id);
    assert_int_equal(o->t.rc, 0);
    assert_true(out_float(o, 0, 0) == 5.5f);
    assert_true(out_float(o, 1, 0) == 1.19921875f);
    assert_true(out_float(o, 2, 0) == 100.0f);
    assert_true(out_float(o, 3, 0) == 53.5f);               /* (7 + 100) / 2 */
    free(o);
    /* Integer coordinates point-sample whatever the filter. */
    uint32_t ic[64] = {0};
    ic[0] = 3, ic[1] = 2;
    ic[2] = (uint32_t)-1, ic[3] = 1;
    s.address[0] = MEM_TEX_CLAMP;
    o = one_fetch(IR_TEX, 0, IR_T_S32, &s, ic, &id);
    assert_int_equal(o->t.rc, 0);
    assert_true(out_float(o, 0, 0) == 23.0f);
    assert_true(out_float(o, 1, 0) == 10.0f);
    free(o);
}

/* Lane t at texel (t % 8, t / 8): tex, sust raw (1000 + t) to the same texel (around the L1),
 * [MEMBAR .IVALLT], tex again; out[] gets the second tex's result. */
static tex_out *stale(int invalidate, uint32_t *second)
{
    uint32_t coords[64];
    for (unsigned t = 0; t < 32; t++) {
        coords[2 * t] = fbits((float)(t % 8) + 0.5f);
        coords[2 * t + 1] = fbits((float)(t / 8) + 0.5f);
    }
    irb b;
    kregs k = start(&b, 1u << 20 | 1u);
    texture_op(&b, IR_TEX, IR_T_F32, IR_T_F32, irb_r(k.h), &k);
    uint32_t ix = irb_reg(&b, IR_T_U32, "%r8"), iy = irb_reg(&b, IR_T_U32, "%r9");
    uint32_t v = irb_reg(&b, IR_T_U32, "%r10");
    irb_alu(&b, IR_AND, IR_T_B32, irb_r(ix), irb_r(k.tid), irb_imm(7), none_opnd());
    irb_alu(&b, IR_SHR, IR_T_U32, irb_r(iy), irb_r(k.tid), irb_imm(3), none_opnd());
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(v), irb_r(k.tid), irb_imm(1000), none_opnd());
    ir_insn *st = irb_op(&b, IR_SUST, IR_T_B32);
    ir_operand c = irb_opnd(IR_OPND_VEC);
    c.count = 2;
    c.vregs[0] = ix;
    c.vregs[1] = iy;
    irb_src(st, 0, irb_r(k.h));
    irb_src(st, 1, c);
    irb_src(st, 2, irb_r(v));
    st->mem.space = IR_SPACE_GLOBAL;
    st->mem.elem_bytes = 4;
    st->mem.vec = 1;
    st->mem.image_dim = IR_IMAGE_2D;
    if (invalidate) {
        ir_insn *f = irb_op(&b, IR_MEMBAR, IR_T_NONE);
        f->mem.scope = IR_SCOPE_CTA;
        f->mem.fence = IR_FENCE_INVALIDATE_TEX;
    }
    texture_op(&b, IR_TEX, IR_T_U32, IR_T_F32, irb_r(k.h), &k);
    store_result(&b, &k);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    *second = op_id(&b, IR_TEX, 1);
    /* Without a header pool a surface handle is the image index itself: the sust names
     * image 1 by handle 1 (the texture handle carries the sampler in bits 31:20). */
    b.fn->insns[op_id(&b, IR_SUST, 0)].src[0] = irb_imm(1);
    mem_sampler s = {.address = {MEM_TEX_CLAMP, MEM_TEX_CLAMP}};
    tex_out *o = run_texture(b.m, &s, coords, NULL, 0);
    ir_module_destroy(b.m);
    return o;
}

static void test_surface_write_leaves_texture_line_stale(void **state)
{
    (void)state;
    uint32_t second;
    tex_out *o = stale(0, &second);
    assert_int_equal(o->t.rc, 0);
    for (unsigned t = 0; t < 32; t++) {
        uint32_t in_memory;
        memcpy(&in_memory, o->image + (t / 8) * 64 + (t % 8) * 4, 4);
        assert_int_equal(in_memory, 1000 + t);                      /* the write reached L2 */
        assert_true(out_float(o, t, 0) == (float)(t % 8 + 10 * (t / 8))); /* the L1's old texel */
    }
    assert_int_equal(o->t.insn[second].texture.sectors_l1, 4);
    assert_int_equal(o->t.insn[second].texture.sectors_l2, 0);
    free(o);
    /* MEMBAR .IVALLT drops the read-only lines: the second fetch sees the write. */
    o = stale(1, &second);
    assert_int_equal(o->t.rc, 0);
    for (unsigned t = 0; t < 32; t++) assert_int_equal(o->t.out[4 * t], 1000 + t);
    assert_int_equal(o->t.insn[second].texture.sectors_l1, 0);
    assert_int_equal(o->t.insn[second].texture.sectors_l2, 4);
    free(o);
}

static void test_tld4_gather(void **state)
{
    (void)state;
    uint32_t coords[64] = {0}, id;
    for (unsigned t = 0; t < 32; t++) coords[2 * t] = coords[2 * t + 1] = fbits(1.0f);
    coords[2] = fbits(0.2f), coords[3] = fbits(3.9f); /* clamp: (0,3) (0,3) (0,3) (0,3)... */
    mem_sampler s = {.address = {MEM_TEX_CLAMP, MEM_TEX_CLAMP}}; /* point: tld4 gathers anyway */
    tex_out *o = one_fetch(IR_TLD4, IR_TLD4_R, IR_T_F32, &s, coords, &id);
    assert_int_equal(o->t.rc, 0);
    /* (i, j+1), (i+1, j+1), (i+1, j), (i, j) of the footprint at (0, 0) */
    assert_true(out_float(o, 0, 0) == 10.0f);
    assert_true(out_float(o, 0, 1) == 11.0f);
    assert_true(out_float(o, 0, 2) == 1.0f);
    assert_true(out_float(o, 0, 3) == 0.0f);
    /* x - 0.5 = -0.3: texels -1 and 0 clamp to 0; y - 0.5 = 3.4: rows 3 and 4 clamp to 3 */
    for (unsigned e = 0; e < 4; e++) assert_true(out_float(o, 1, e) == 30.0f);
    free(o);
    /* The alpha channel of a one-channel image is 1. */
    o = one_fetch(IR_TLD4, IR_TLD4_A, IR_T_F32, &s, coords, &id);
    for (unsigned e = 0; e < 4; e++) assert_true(out_float(o, 0, e) == 1.0f);
    free(o);
}

/* txq of `sub` into out[tid] through handle register h (texture 1 << 20 | 1). */
static uint32_t query(unsigned sub, const mem_sampler *s)
{
    irb b;
    uint32_t coords[64] = {0};
    kregs k = start(&b, 1u << 20 | 1u);
    ir_insn *q = irb_op(&b, IR_TXQ, IR_T_B32);
    irb_dst(q, 0, irb_r(k.r[0]));
    irb_src(q, 0, irb_r(k.h));
    q->sub = (uint8_t)sub;
    q->mem.space = IR_SPACE_GLOBAL;
    store_result(&b, &k);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    tex_out *o = run_texture(b.m, s, coords, NULL, 0);
    ir_module_destroy(b.m);
    assert_int_equal(o->t.rc, 0);
    uint32_t v = o->t.out[4 * 5];
    free(o);
    return v;
}

static void test_txq(void **state)
{
    (void)state;
    mem_sampler s = {.address = {MEM_TEX_BORDER, MEM_TEX_MIRROR}, .filter = MEM_TEX_LINEAR,
                     .normalized = 1};
    assert_int_equal(query(IR_TXQ_WIDTH, &s), 8);
    assert_int_equal(query(IR_TXQ_HEIGHT, &s), 4);
    assert_int_equal(query(IR_TXQ_FILTER_MODE, &s), 1);
    assert_int_equal(query(IR_TXQ_NORMALIZED_COORDS, &s), 1);
    assert_int_equal(query(IR_TXQ_ADDR_MODE_0, &s), 4); /* clamp_to_border */
    assert_int_equal(query(IR_TXQ_ADDR_MODE_1, &s), 1); /* mirror */
    assert_int_equal(query(IR_TXQ_CHANNEL_DATA_TYPE, &s), 0x10DE); /* CL_FLOAT */
}

/* A SASS-style slot: the pool entry's samplerPtr[31:20] | headerPtr[19:0]; the residency
 * predicate is true; an entry naming no sampler reads zeros. */
static void test_pool_slot_and_predicate(void **state)
{
    (void)state;
    static const uint32_t pool[4] = {0, 0x00100001u, 0x00000001u, 0};
    uint32_t coords[64];
    for (unsigned t = 0; t < 32; t++) {
        coords[2 * t] = fbits(2.5f);
        coords[2 * t + 1] = fbits(1.5f);
    }
    mem_sampler s = {.address = {MEM_TEX_CLAMP, MEM_TEX_CLAMP}};
    for (unsigned slot = 1; slot <= 2; slot++) {
        irb b;
        kregs k = start(&b, 0);
        b.m->machine.has_image_bank = 1;
        b.m->machine.image_bank = 1;
        texture_op(&b, IR_TEX, IR_T_F32, IR_T_F32, irb_imm(slot), &k);
        store_result(&b, &k);
        uint32_t pv = irb_reg(&b, IR_T_U32, "%r11");
        irb_alu(&b, IR_SELP, IR_T_U32, irb_r(pv), irb_imm(7), irb_imm(9), irb_p(k.p));
        irb_st(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(k.out, 4 * 200), irb_r(pv));
        irb_op(&b, IR_RET, IR_T_NONE);
        irb_finish(&b);
        tex_out *o = run_texture(b.m, &s, coords, pool, 4);
        ir_module_destroy(b.m);
        assert_int_equal(o->t.rc, 0);
        assert_true(out_float(o, 3, 0) == (slot == 1 ? 12.0f : 0.0f));
        assert_int_equal(o->t.out[200], 7);
        free(o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point),
        cmocka_unit_test(test_linear_and_integer_coords),
        cmocka_unit_test(test_surface_write_leaves_texture_line_stale),
        cmocka_unit_test(test_tld4_gather),
        cmocka_unit_test(test_txq),
        cmocka_unit_test(test_pool_slot_and_predicate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
