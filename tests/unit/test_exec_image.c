/* Unit tests of the image family of the executor (src/exec/exec_image.c) on hand-built IR:
 * suld/sust/sured/suatom/suq through image handles and SASS header-pool slots, on pitch-linear
 * and block-linear images: values in memory at the layouts' exact addresses, the out-of-bounds
 * modes, byte and element x, invalid headers and disabled images, the L1 bypass (an L1 line of
 * the same address stays stale) and the surface counters (docs/images.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ir_build.h"
#include "exec_test.h"
#include "mem/mem_image.h"

enum { IMG_BYTES = 8192 };

/* What a run gives back: exec_test_out's fields and the first image's bytes in memory. */
typedef struct img_out {
    exec_test_out t;
    uint8_t image[IMG_BYTES];
    uint64_t base;
} img_out;

typedef struct img_setup {
    mem_image_desc desc;      /* the first image: header index (and handle) 1 */
    int second_disabled;      /* a second image, index 2, a disabled copy of the first */
    uint32_t pool_max;        /* 0: the default */
    const uint32_t *pool;     /* header pool words (machines with an image bank) */
    uint32_t pool_words;
    uint32_t fill;            /* every 32-bit word of the image's initial contents */
    uint32_t helper_lanes;    /* exec_launch.helper_lanes */
} img_setup;

static img_out *run_images(const ir_module *m, uint32_t block, const img_setup *s)
{
    img_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx ctx;
    exec_test_begin(&ctx, m, &o->t);
    memsys *ms = ctx.ms;
    mem_image_desc d = s->desc;
    assert_null(mem_image_check(&d));
    uint64_t bytes = mem_image_bytes(&d);
    assert_true(bytes <= IMG_BYTES);
    assert_int_equal(memsys_alloc(ms, bytes, 512, &d.base), 0);
    for (uint64_t i = 0; i < bytes / 4; i++)
        assert_int_equal(memsys_host_write(ms, d.base + 4 * i, &s->fill, 4), 0);
    /* the image's address in out words 254 and 255, for kernels that read it with ld.global */
    assert_int_equal(memsys_host_write(ms, ctx.buf + 1016, &d.base, 8), 0);
    mem_image_table *tab = memsys_images(ms);
    assert_int_equal(mem_image_table_add(tab, &d), 1);
    if (s->second_disabled) {
        mem_image_desc off = d;
        off.disabled = 1;
        assert_int_equal(mem_image_table_add(tab, &off), 2);
    }
    if (s->pool_max)
        tab->pool_max = s->pool_max;
    exec_launch L = exec_test_launch_of(&ctx, block);
    L.helper_lanes = s->helper_lanes;
    L.image_pool = s->pool;
    L.image_pool_words = s->pool_words;
    exec_test_launch(&ctx, m, &o->t, &L);
    assert_int_equal(memsys_host_read(ms, d.base, o->image, bytes), 0);
    o->base = d.base;
    exec_test_end(&ctx);
    return o;
}

static uint32_t word_at(const img_out *o, uint64_t offset)
{
    uint32_t v;
    memcpy(&v, o->image + offset, 4);
    return v;
}

/* 2D image of 8 x 4 texels of one u32: pitch 64 bytes, or block-linear with 1-GOB blocks. */
static mem_image_desc image_8x4(int block_linear)
{
    mem_image_desc d = {.dim = IR_IMAGE_2D, .channels = 1, .bits = 32, .kind = MEM_IMAGE_UNSIGNED,
                        .width = 8, .height = 4, .depth = 1, .layers = 1};
    if (block_linear) {
        d.layout = MEM_IMAGE_BLOCK_LINEAR;
        d.block_height = d.block_depth = 1;
    } else {
        d.layout = MEM_IMAGE_PITCH;
        d.pitch_bytes = 64;
    }
    return d;
}

/* The kernel's registers: out, tid, the handle, coordinates x and y. */
typedef struct kregs {
    uint32_t out, tid, h, x, y, v;
} kregs;

static ir_operand none_opnd(void)
{
    return irb_opnd(IR_OPND_NONE);
}

/* Starts kernel k: out = param, tid = %tid.x, h = handle, x = tid % 8 * xscale + xadd,
 * y = tid / 8, v = tid + 100. */
static kregs start(irb *b, uint64_t handle, uint32_t xscale, uint32_t xadd)
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
    k.v = irb_reg(b, IR_T_U32, "%r3");
    irb_ld(b, IR_SPACE_PARAM, IR_T_U64, irb_r(k.out), irb_addr_sym(out, 0));
    irb_alu(b, IR_MOV, IR_T_U32, irb_r(k.tid), irb_sreg(IR_SREG_TID_X), none_opnd(), none_opnd());
    irb_alu(b, IR_MOV, IR_T_U64, irb_r(k.h), irb_imm((int64_t)handle), none_opnd(), none_opnd());
    irb_alu(b, IR_AND, IR_T_B32, irb_r(k.x), irb_r(k.tid), irb_imm(7), none_opnd());
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(k.x), irb_r(k.x), irb_imm(xscale), none_opnd())->mods =
        IR_MOD_LO;
    irb_alu(b, IR_ADD, IR_T_U32, irb_r(k.x), irb_r(k.x), irb_imm(xadd), none_opnd());
    irb_alu(b, IR_SHR, IR_T_U32, irb_r(k.y), irb_r(k.tid), irb_imm(3), none_opnd());
    irb_alu(b, IR_ADD, IR_T_U32, irb_r(k.v), irb_r(k.tid), irb_imm(100), none_opnd());
    return k;
}

static ir_operand coords(const kregs *k)
{
    ir_operand c = irb_opnd(IR_OPND_VEC);
    c.count = 2;
    c.vregs[0] = k->x;
    c.vregs[1] = k->y;
    return c;
}

/* An image op on the image operand `img` at (x, y) with 4-byte data. */
static ir_insn *image_op(irb *b, ir_opcode op, ir_type t, ir_operand img, const kregs *k,
                         uint8_t clamp, uint8_t flags)
{
    ir_insn *in = irb_op(b, op, t);
    irb_src(in, 0, img);
    irb_src(in, 1, coords(k));
    in->mem.space = IR_SPACE_GLOBAL;
    in->mem.elem_bytes = 4;
    in->mem.vec = 1;
    in->mem.image_dim = IR_IMAGE_2D;
    in->mem.image_clamp = clamp;
    in->mem.image_flags = flags;
    return in;
}

/* out[tid] = value. */
static void store_out(irb *b, const kregs *k, uint32_t value)
{
    uint32_t off = irb_reg(b, IR_T_U64, "%rd8"), addr = irb_reg(b, IR_T_U64, "%rd9");
    irb_alu(b, IR_MUL, IR_T_U32, irb_r(off), irb_r(k->tid), irb_imm(4), none_opnd())->mods =
        IR_MOD_WIDE;
    irb_alu(b, IR_ADD, IR_T_S64, irb_r(addr), irb_r(k->out), irb_r(off), none_opnd());
    irb_st(b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(addr, 0), irb_r(value));
}

/* Finishes b's kernel with sust v at (x, y) through `img`, suld of it back and out[tid] = the
 * value loaded, and runs it on 32 threads; the ids of the sust and suld via *sust_id, *suld_id
 * (either may be NULL). */
static img_out *sust_suld_run(irb *b, const kregs *k, ir_operand img, uint8_t clamp,
                              uint8_t flags, const img_setup *s, uint32_t *sust_id,
                              uint32_t *suld_id)
{
    ir_insn *in = image_op(b, IR_SUST, IR_T_B32, img, k, clamp, flags);
    irb_src(in, 2, irb_r(k->v));
    uint32_t r = irb_reg(b, IR_T_U32, "%r4");
    irb_dst(image_op(b, IR_SULD, IR_T_B32, img, k, clamp, flags), 0, irb_r(r));
    store_out(b, k, r);
    irb_op(b, IR_RET, IR_T_NONE);
    irb_finish(b);
    if (sust_id)
        *sust_id = b->fn->ninsns - 6;
    if (suld_id)
        *suld_id = b->fn->ninsns - 5;
    img_out *o = run_images(b->m, 32, s);
    exec_test_show_fault(&o->t);
    ir_module_destroy(b->m);
    return o;
}

/* sust v at (x, y), then suld it back into out[tid]; returns the sust's id via *sust_id. */
static img_out *store_then_load(const img_setup *s, uint64_t handle, uint32_t xscale,
                                uint32_t xadd, uint8_t clamp, uint8_t flags, uint32_t *sust_id,
                                uint32_t *suld_id)
{
    irb b;
    kregs k = start(&b, handle, xscale, xadd);
    return sust_suld_run(&b, &k, irb_r(k.h), clamp, flags, s, sust_id, suld_id);
}

static void test_pitch_store_load(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(0)};
    uint32_t st, ld;
    img_out *o = store_then_load(&s, 1, 1, 0, IR_CLAMP_TRAP, 0, &st, &ld);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o->t.out[t], t + 100);
        assert_int_equal(word_at(o, (t / 8) * 64 + (t % 8) * 4), t + 100);
    }
    /* One surface request each, no L1 request; 32 lanes x 4 bytes = 4 lines of 32 bytes each
     * in the pitch layout (rows of 32 bytes, 64 apart): 4 sectors. */
    assert_int_equal(o->t.insn[st].surface.requests, 1);
    assert_int_equal(o->t.insn[st].l1.requests, 0);
    assert_int_equal(o->t.insn[st].surface.sectors_l2, 4);
    assert_int_equal(o->t.insn[ld].surface.requests, 1);
    assert_int_equal(o->t.insn[ld].surface.sectors_l2, 4);
    assert_int_equal(o->t.insn[ld].surface.sectors_dram, 0);
    assert_int_equal(o->t.insn[ld].l1.requests, 0);
    assert_int_equal(o->t.insn[ld].l1.sector_accesses, 0);
    free(o);
}

static void test_block_linear_store_load(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(1)};
    uint32_t st, ld;
    img_out *o = store_then_load(&s, 1, 1, 0, IR_CLAMP_TRAP, 0, &st, &ld);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = (t % 8) * 4, y = t / 8;
        /* inside one GOB: 16-byte pieces, rows in pairs (docs/images.md) */
        uint64_t at = ((x >> 5) & 1) * 256 + ((y >> 1) & 3) * 64 + ((x >> 4) & 1) * 32 +
                      (y & 1) * 16 + (x & 15);
        assert_int_equal(word_at(o, at), t + 100);
        assert_int_equal(o->t.out[t], t + 100);
    }
    assert_int_equal(word_at(o, 0x10), 108); /* (0, 1): the second 16 bytes of the GOB */
    assert_int_equal(word_at(o, 0x20), 104); /* (4, 0) */
    free(o);
}

/* x = tid % 8 * 2: lanes with x >= 8 are outside the 8-texel rows. */
static void test_clamp_modes(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(0), .fill = 7};
    uint32_t st, ld;
    img_out *o = store_then_load(&s, 1, 2, 0, IR_CLAMP_IGNORE, 0, &st, &ld);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = (t % 8) * 2, y = t / 8;
        assert_int_equal(o->t.out[t], x < 8 ? t + 100 : 0);
        if (x < 8)
            assert_int_equal(word_at(o, y * 64 + x * 4), t + 100);
    }
    assert_int_equal(word_at(o, 4), 7); /* x = 1 was never written */
    free(o);
    o = store_then_load(&s, 1, 2, 0, IR_CLAMP_NEAR, 0, &st, &ld);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = (t % 8) * 2, y = t / 8;
        /* the four lanes x >= 8 of a row all store to x = 7; lane order leaves the last */
        uint32_t at7 = y * 8 + 7 + 100;
        assert_int_equal(o->t.out[t], x < 8 ? t + 100 : at7);
    }
    free(o);
    o = store_then_load(&s, 1, 2, 0, IR_CLAMP_TRAP, 0, &st, &ld);
    assert_int_equal(o->t.rc, 1); /* faulted */
    assert_string_equal(o->t.fault.rule, "EXEC-IMAGE-001");
    assert_int_equal(o->t.fault.tid[0], 4);
    assert_string_equal(o->t.fault.message, "sust: texel (x 32 bytes, y 0, z 0, layer 0) of 4 "
                                            "bytes is outside the 8x4x1 image of 1 layers");
    free(o);
}

/* x = tid % 8 - 8: every coordinate is negative. Coordinates are signed: NEAR clamps them to
 * the left edge (read as unsigned they would have gone to the right edge, x = 7). */
static void test_negative_coordinates_clamp_to_zero(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(0), .fill = 7};
    uint32_t st, ld;
    img_out *o = store_then_load(&s, 1, 1, 0xFFFFFFF8u, IR_CLAMP_NEAR, 0, &st, &ld);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t y = t / 8, last = y * 8 + 7 + 100; /* the row's last lane stores last */
        assert_int_equal(o->t.out[t], last);
        assert_int_equal(word_at(o, y * 64), last);
        assert_int_equal(word_at(o, y * 64 + 7 * 4), 7);
    }
    free(o);
    o = store_then_load(&s, 1, 1, 0xFFFFFFF8u, IR_CLAMP_TRAP, 0, &st, &ld);
    assert_int_equal(o->t.rc, 1);
    assert_string_equal(o->t.fault.rule, "EXEC-IMAGE-001");
    free(o);
}

static void test_byte_x(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(0)};
    uint32_t st, ld;
    img_out *o = store_then_load(&s, 1, 4, 0, IR_CLAMP_TRAP, IR_IMAGE_BYTE_X, &st, &ld);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++)
        assert_int_equal(word_at(o, (t / 8) * 64 + (t % 8) * 4), t + 100);
    free(o);
    o = store_then_load(&s, 1, 4, 2, IR_CLAMP_TRAP, IR_IMAGE_BYTE_X, &st, &ld);
    assert_int_equal(o->t.rc, 1); /* faulted */
    assert_string_equal(o->t.fault.rule, "EXEC-IMAGE-003");
    assert_string_equal(o->t.fault.message,
                        "sust: byte coordinate x = 2 is not a multiple of the 4-byte access");
    free(o);
}

/* Handle 9 names no image, handle 2 a disabled one: loads read 0, stores are dropped. */
static void test_invalid_and_disabled(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(0), .fill = 5, .second_disabled = 1};
    uint32_t st, ld;
    for (uint64_t h = 2; h <= 9; h += 7) {
        img_out *o = store_then_load(&s, h, 1, 0, IR_CLAMP_TRAP, 0, &st, &ld);
        assert_int_equal(o->t.rc, 0);
        for (uint32_t t = 0; t < 32; t++) {
            assert_int_equal(o->t.out[t], 0);
            assert_int_equal(word_at(o, (t / 8) * 64 + (t % 8) * 4), 5);
        }
        assert_int_equal(o->t.insn[st].surface.requests, 0);
        free(o);
    }
}

/* A machine with a header pool in bank 1: an IMM slot names pool word 3 (header 1); a register
 * handle uses its low 20 bits only (sampler bits above); pool_max 0... below the index makes
 * the header invalid. */
static img_out *slot_run(const img_setup *s, int use_slot, uint64_t handle)
{
    irb b;
    kregs k = start(&b, handle, 1, 0);
    b.m->machine.has_image_bank = 1;
    b.m->machine.image_bank = 1;
    ir_operand img = use_slot ? irb_imm(3) : irb_r(k.h);
    return sust_suld_run(&b, &k, img, IR_CLAMP_TRAP, 0, s, NULL, NULL);
}

static void test_slots_and_pool(void **state)
{
    (void)state;
    static const uint32_t pool[4] = {0, 0, 0, 0x00300001u}; /* sampler 3, header 1 */
    img_setup s = {.desc = image_8x4(1), .pool = pool, .pool_words = 4};
    img_out *o = slot_run(&s, 1, 0);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o->t.out[t], t + 100);
    free(o);
    o = slot_run(&s, 0, 0xABC00001u); /* bindless: headerPtr 1 under samplerPtr bits */
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o->t.out[t], t + 100);
    free(o);
    static const uint32_t bad_pool[4] = {0, 0, 0, 2}; /* header 2: no such image */
    s.pool = bad_pool;
    o = slot_run(&s, 1, 0);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o->t.out[t], 0);
    free(o);
    s.pool = pool;
    s.second_disabled = 1;
    s.pool_max = 1; /* index 2 exists but lies beyond the pool's maximum */
    o = slot_run(&s, 0, 2);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(o->t.out[t], 0);
    free(o);
}

/* ld.global fills the L1 line of texel (0..7, 0); sust rewrites it at L2; a second ld.global
 * hits the stale L1 copy, while suld sees the new data. */
static void test_l1_bypass(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(0), .fill = 42};
    irb b;
    kregs k = start(&b, 1, 1, 0);
    uint32_t a = irb_reg(&b, IR_T_U64, "%rd2"), r1 = irb_reg(&b, IR_T_U32, "%r5");
    uint32_t r2 = irb_reg(&b, IR_T_U32, "%r6"), r3 = irb_reg(&b, IR_T_U32, "%r7");
    uint32_t sum = irb_reg(&b, IR_T_U32, "%r8");
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U64, irb_r(a), irb_addr_reg(k.out, 1016));
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(r1), irb_addr_reg(a, 0))->mem.l1 = IR_L1_ALLOCATE;
    irb_src(image_op(&b, IR_SUST, IR_T_B32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0), 2, irb_r(k.v));
    uint32_t st = b.fn->ninsns - 1;
    irb_ld(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_r(r2), irb_addr_reg(a, 0))->mem.l1 = IR_L1_ALLOCATE;
    uint32_t ld2 = b.fn->ninsns - 1;
    irb_dst(image_op(&b, IR_SULD, IR_T_B32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0), 0, irb_r(r3));
    /* out[tid] = r1 + r2 * 1000 + r3 * 1000000 */
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(sum), irb_r(r2), irb_imm(1000), irb_r(r1))->mods =
        IR_MOD_LO;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(sum), irb_r(r3), irb_imm(1000000), irb_r(sum))->mods =
        IR_MOD_LO;
    store_out(&b, &k, sum);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    img_out *o = run_images(b.m, 32, &s);
    exec_test_show_fault(&o->t);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++)
        assert_int_equal(o->t.out[t], 42 + 42 * 1000 + (t + 100) * 1000000);
    assert_int_equal(word_at(o, 0), 100); /* the clean stale L1 line wrote nothing back */
    assert_int_equal(o->t.insn[ld2].l1.sector_hits, 1);
    assert_int_equal(o->t.insn[st].l1.sector_accesses, 0);
    assert_int_equal(o->t.insn[st].l1.evictions, 0);
    free(o);
    ir_module_destroy(b.m);
}

/* suatom.add returns the old texel (fill 10) and sets the sparse predicate false; sured.add then
 * adds 1000; suatom.cas swaps where the texel equals the compare value; suq reads the width and
 * memory layout. out[t] = old + 1000 * sparse; the image ends at 10 + t + 1000 (+ cas). */
static void test_atomics_and_query(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(1), .fill = 10};
    irb b;
    kregs k = start(&b, 1, 1, 0);
    uint32_t old = irb_reg(&b, IR_T_U32, "%r5"), sum = irb_reg(&b, IR_T_U32, "%r6");
    uint32_t w = irb_reg(&b, IR_T_U32, "%r7"), lay = irb_reg(&b, IR_T_U32, "%r8");
    uint32_t p = irb_pred(&b, "%p0");
    ir_insn *in = image_op(&b, IR_SUATOM, IR_T_U32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0);
    in->sub = IR_ATOM_ADD;
    irb_dst(irb_dst(irb_src(in, 2, irb_r(k.tid)), 0, irb_r(old)), 1, irb_p(p));
    uint32_t atom_id = b.fn->ninsns - 1;
    in = image_op(&b, IR_SURED, IR_T_U32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0);
    in->sub = IR_ATOM_ADD;
    irb_src(in, 2, irb_imm(1000));
    /* cas: lane 0's texel is now 1010: swap it for 7; the others do not match */
    in = image_op(&b, IR_SUATOM, IR_T_B32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0);
    in->sub = IR_ATOM_CAS;
    irb_dst(irb_src(irb_src(in, 2, irb_imm(1010)), 3, irb_imm(7)), 0, irb_r(sum));
    in = irb_op(&b, IR_SUQ, IR_T_B32);
    irb_src(irb_dst(in, 0, irb_r(w)), 0, irb_r(k.h));
    in->sub = IR_SUQ_WIDTH;
    in->mem.space = IR_SPACE_GLOBAL;
    in->mem.image_dim = IR_IMAGE_2D;
    in = irb_op(&b, IR_SUQ, IR_T_B32);
    irb_src(irb_dst(in, 0, irb_r(lay)), 0, irb_r(k.h));
    in->sub = IR_SUQ_MEMORY_LAYOUT;
    in->mem.space = IR_SPACE_GLOBAL;
    in->mem.image_dim = IR_IMAGE_2D;
    /* out = old + 100000 * width + 10000000 * layout (+ 1 where the sparse predicate is set) */
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(old), irb_r(w), irb_imm(100000), irb_r(old))->mods =
        IR_MOD_LO;
    irb_alu(&b, IR_MAD, IR_T_U32, irb_r(old), irb_r(lay), irb_imm(10000000), irb_r(old))->mods =
        IR_MOD_LO;
    irb_guard(irb_alu(&b, IR_ADD, IR_T_U32, irb_r(old), irb_r(old), irb_imm(1), none_opnd()), p,
              0);
    store_out(&b, &k, old);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    img_out *o = run_images(b.m, 32, &s);
    exec_test_show_fault(&o->t);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = (t % 8) * 4, y = t / 8;
        uint64_t at = ((x >> 5) & 1) * 256 + ((y >> 1) & 3) * 64 + ((x >> 4) & 1) * 32 +
                      (y & 1) * 16 + (x & 15);
        /* width 8, block-linear (memory_layout 0), sparse false */
        assert_int_equal(o->t.out[t], 10 + 8 * 100000);
        assert_int_equal(word_at(o, at), t == 0 ? 7 : 10 + t + 1000);
    }
    assert_int_equal(o->t.insn[atom_id].surface.requests, 1);
    assert_int_equal(o->t.insn[atom_id].l1.requests, 0);
    free(o);
    ir_module_destroy(b.m);
}

/* Lanes 16..31 stand for helper or killed pixels: their SUATOM does nothing (seed 004) — no
 * texel changes and the destination keeps its value — while their SURED still adds, and lanes
 * 0..15 do both. */
static void test_helper_lanes_skip_suatom(void **state)
{
    (void)state;
    img_setup s = {.desc = image_8x4(0), .fill = 10, .helper_lanes = 0xFFFF0000u};
    irb b;
    kregs k = start(&b, 1, 1, 0);
    uint32_t old = irb_reg(&b, IR_T_U32, "%r5");
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(old), irb_imm(77), none_opnd(), none_opnd());
    ir_insn *in = image_op(&b, IR_SUATOM, IR_T_U32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0);
    in->sub = IR_ATOM_ADD;
    irb_dst(irb_src(in, 2, irb_imm(5)), 0, irb_r(old));
    uint32_t atom_id = b.fn->ninsns - 1;
    in = image_op(&b, IR_SURED, IR_T_U32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0);
    in->sub = IR_ATOM_ADD;
    irb_src(in, 2, irb_imm(1000));
    store_out(&b, &k, old);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    img_out *o = run_images(b.m, 32, &s);
    exec_test_show_fault(&o->t);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t at = (t / 8) * 64 + (t % 8) * 4;
        assert_int_equal(o->t.out[t], t < 16 ? 10 : 77);
        assert_int_equal(word_at(o, at), t < 16 ? 10 + 5 + 1000 : 10 + 1000);
    }
    assert_int_equal(o->t.insn[atom_id].surface.requests, 1);
    free(o);
    ir_module_destroy(b.m);
}

/* sust.p (formatted) of one 32-bit element per texel of 32-bit texels: the conversion is the
 * identity, so it stores the raw texel (x counting texels), which a plain suld reads back. */
static img_out *formatted_store(const mem_image_desc *desc)
{
    img_setup s = {.desc = *desc, .fill = 3};
    irb b;
    kregs k = start(&b, 1, 1, 0);
    ir_insn *in = image_op(&b, IR_SUST, IR_T_B32, irb_r(k.h), &k, IR_CLAMP_TRAP,
                           IR_IMAGE_FORMATTED);
    irb_src(in, 2, irb_r(k.v));
    uint32_t r = irb_reg(&b, IR_T_U32, "%r4");
    irb_dst(image_op(&b, IR_SULD, IR_T_B32, irb_r(k.h), &k, IR_CLAMP_TRAP, 0), 0, irb_r(r));
    store_out(&b, &k, r);
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    img_out *o = run_images(b.m, 32, &s);
    ir_module_destroy(b.m);
    return o;
}

static void test_formatted_store_identity(void **state)
{
    (void)state;
    mem_image_desc d = image_8x4(0);
    img_out *o = formatted_store(&d);
    exec_test_show_fault(&o->t);
    assert_int_equal(o->t.rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(o->t.out[t], t + 100);
        assert_int_equal(word_at(o, (t / 8) * 64 + (t % 8) * 4), t + 100);
    }
    free(o);
    /* 8-bit channels would need a conversion: refused by name */
    d.bits = 8;
    d.channels = 4;
    o = formatted_store(&d);
    assert_int_equal(o->t.rc, 1);
    assert_string_equal(o->t.fault.rule, "EXEC-IMAGE-004");
    assert_string_equal(o->t.fault.message, "sust: a formatted store of 1 32-bit element(s) to "
                                            "texels of 4 channel(s) of 8 bits converts values, "
                                            "which is not modelled (only 32-bit channels, one "
                                            "element each)");
    free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pitch_store_load),
        cmocka_unit_test(test_block_linear_store_load),
        cmocka_unit_test(test_clamp_modes),
        cmocka_unit_test(test_negative_coordinates_clamp_to_zero),
        cmocka_unit_test(test_helper_lanes_skip_suatom),
        cmocka_unit_test(test_formatted_store_identity),
        cmocka_unit_test(test_byte_x),
        cmocka_unit_test(test_invalid_and_disabled),
        cmocka_unit_test(test_slots_and_pool),
        cmocka_unit_test(test_l1_bypass),
        cmocka_unit_test(test_atomics_and_query),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
