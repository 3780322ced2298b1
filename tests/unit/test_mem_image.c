/* Unit tests of image descriptors (src/mem/mem_image.c): exact texel byte offsets in the
 * pitch-linear and block-linear layouts (docs/images.md), layer sizes, descriptor checks and the
 * image table's header indices and pool maximum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ir/ir.h"
#include "mem/mem_image.h"

static mem_image_desc pitch_2d(void)
{
    mem_image_desc d = {.dim = IR_IMAGE_2D, .channels = 1, .bits = 32, .kind = MEM_IMAGE_UNSIGNED,
                        .width = 64, .height = 32, .depth = 1, .layers = 1,
                        .layout = MEM_IMAGE_PITCH, .pitch_bytes = 256};
    return d;
}

static mem_image_desc block_2d(void)
{
    mem_image_desc d = pitch_2d();
    d.layout = MEM_IMAGE_BLOCK_LINEAR;
    d.pitch_bytes = 0;
    d.block_height = 2;
    d.block_depth = 1;
    return d;
}

static void test_pitch_offsets(void **state)
{
    (void)state;
    mem_image_desc d = pitch_2d();
    assert_null(mem_image_check(&d));
    assert_int_equal(mem_image_texel_bytes(&d), 4);
    assert_int_equal(mem_image_byte_offset(&d, 12, 5, 0, 0), 5 * 256 + 12);
    assert_int_equal(mem_image_bytes(&d), 256 * 32);
    mem_image_desc v = {.dim = IR_IMAGE_3D, .channels = 2, .bits = 16, .kind = MEM_IMAGE_SIGNED,
                        .width = 4, .height = 2, .depth = 3, .layers = 1,
                        .layout = MEM_IMAGE_PITCH, .pitch_bytes = 16};
    assert_null(mem_image_check(&v));
    assert_int_equal(mem_image_byte_offset(&v, 4, 1, 2, 0), 84);
    mem_image_desc a = v;
    a.dim = IR_IMAGE_2D_ARRAY;
    a.depth = 1;
    a.layers = 2;
    assert_null(mem_image_check(&a));
    assert_int_equal(mem_image_layer_bytes(&a), 32);
    assert_int_equal(mem_image_byte_offset(&a, 0, 1, 0, 1), 48);
}

static void test_block_linear_offsets(void **state)
{
    (void)state;
    mem_image_desc d = block_2d(); /* rows of 256 bytes: 4 GOBs wide; blocks of 2 GOBs: 1 KiB */
    assert_null(mem_image_check(&d));
    assert_int_equal(mem_image_layer_bytes(&d), 8192);
    assert_int_equal(mem_image_byte_offset(&d, 0, 0, 0, 0), 0);
    assert_int_equal(mem_image_byte_offset(&d, 16, 0, 0, 0), 32);   /* second 16 B: x bit 4 */
    assert_int_equal(mem_image_byte_offset(&d, 32, 0, 0, 0), 256);  /* x bit 5: upper half */
    assert_int_equal(mem_image_byte_offset(&d, 48, 0, 0, 0), 288);
    assert_int_equal(mem_image_byte_offset(&d, 0, 1, 0, 0), 16);    /* y bit 0 */
    assert_int_equal(mem_image_byte_offset(&d, 0, 2, 0, 0), 64);    /* y bits 2:1 */
    assert_int_equal(mem_image_byte_offset(&d, 0, 7, 0, 0), 208);
    assert_int_equal(mem_image_byte_offset(&d, 0, 8, 0, 0), 512);   /* second GOB of block 0 */
    assert_int_equal(mem_image_byte_offset(&d, 64, 0, 0, 0), 1024); /* block 1 */
    assert_int_equal(mem_image_byte_offset(&d, 0, 16, 0, 0), 4096); /* second row of blocks */
    assert_int_equal(mem_image_byte_offset(&d, 84, 13, 0, 0), 1024 + 512 + 180);
    mem_image_desc v = d; /* 3D: 64-byte rows, 8 rows, 4 slices in blocks of 2 slices */
    v.dim = IR_IMAGE_3D;
    v.width = 16;
    v.height = 8;
    v.depth = 4;
    v.block_height = 1;
    v.block_depth = 2;
    assert_null(mem_image_check(&v));
    assert_int_equal(mem_image_layer_bytes(&v), 2048);
    assert_int_equal(mem_image_byte_offset(&v, 4, 0, 3, 0), 1024 + 512 + 4);
    v.width = 20; /* 80-byte rows round up to 2 GOBs */
    assert_int_equal(mem_image_layer_bytes(&v), 4096);
}

static void test_checks(void **state)
{
    (void)state;
    mem_image_desc d = block_2d();
    d.block_height = 3;
    assert_string_equal(mem_image_check(&d),
                        "block_height and block_depth must be powers of two from 1 to 32");
    d = pitch_2d();
    d.pitch_bytes = 255;
    assert_string_equal(mem_image_check(&d), "pitch is smaller than a row of texels");
    d = pitch_2d();
    d.channels = 3;
    assert_string_equal(mem_image_check(&d), "channels must be 1, 2 or 4");
    d = pitch_2d();
    d.dim = IR_IMAGE_1D;
    assert_string_equal(mem_image_check(&d),
                        "height is 1 for 1D images, depth 1 unless 3D, layers 1 unless an array");
}

static void test_table(void **state)
{
    (void)state;
    mem_image_table t;
    mem_image_table_init(&t);
    mem_image_desc d = pitch_2d();
    d.base = 0x1000;
    assert_int_equal(mem_image_table_add(&t, &d), 1);
    d.base = 0x2000;
    assert_int_equal(mem_image_table_add(&t, &d), 2);
    assert_int_equal(t.pool_max, 2);
    assert_null(mem_image_table_get(&t, 0));
    assert_null(mem_image_table_get(&t, 3));
    assert_int_equal(mem_image_table_get(&t, 2)->base, 0x2000);
    t.pool_max = 1; /* header pointers above the pool's maximum are invalid */
    assert_null(mem_image_table_get(&t, 2));
    assert_non_null(mem_image_table_at(&t, 2));
    assert_int_equal(mem_image_table_get(&t, 1)->base, 0x1000);
    mem_image_table_fini(&t);
}

/* Mipmap levels: extents halved (at least 1), pitch max(pitch >> k, row), each level on a
 * 512-byte boundary after the one before; the level limit and the cube rules of the check. */
static void test_levels(void **state)
{
    (void)state;
    mem_image_desc d = {.dim = IR_IMAGE_2D, .channels = 1, .bits = 32, .kind = MEM_IMAGE_FLOAT,
                        .width = 16, .height = 8, .depth = 1, .layers = 1,
                        .layout = MEM_IMAGE_PITCH, .pitch_bytes = 80, .base = 4096, .levels = 3};
    assert_null(mem_image_check(&d));
    assert_int_equal(mem_image_max_levels(&d), 5);
    mem_image_desc lv;
    mem_image_level(&d, 1, &lv);
    assert_true(lv.width == 8 && lv.height == 4 && lv.pitch_bytes == 40 && lv.levels == 1);
    assert_int_equal(lv.base, 4096 + 1024); /* 640 bytes of level 0, rounded to 512 */
    mem_image_level(&d, 2, &lv);
    assert_true(lv.width == 4 && lv.height == 2 && lv.pitch_bytes == 20);
    assert_int_equal(lv.base, 4096 + 1024 + 512);
    assert_int_equal(mem_image_bytes(&d), 1024 + 512 + 40);
    d.width = 1, d.pitch_bytes = 4, d.levels = 4; /* 1 x 8: the width stays 1 */
    mem_image_level(&d, 3, &lv);
    assert_true(lv.width == 1 && lv.height == 1 && lv.pitch_bytes == 4);
    d.levels = 5;
    assert_non_null(mem_image_check(&d));
    mem_image_desc c = {.dim = IR_IMAGE_CUBE, .channels = 1, .bits = 32, .kind = MEM_IMAGE_FLOAT,
                        .width = 4, .height = 4, .depth = 1, .layers = 6,
                        .layout = MEM_IMAGE_PITCH, .pitch_bytes = 16};
    assert_null(mem_image_check(&c));
    c.layers = 12;
    assert_non_null(mem_image_check(&c)); /* a cube has 6 layers */
    c.dim = IR_IMAGE_CUBE_ARRAY;
    assert_null(mem_image_check(&c));
    c.layers = 9;
    assert_non_null(mem_image_check(&c));
    c.layers = 6, c.height = 2;
    assert_non_null(mem_image_check(&c)); /* square faces */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pitch_offsets),
        cmocka_unit_test(test_block_linear_offsets),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
