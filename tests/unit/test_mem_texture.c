/* Unit tests of the sampler model (src/mem/mem_texture.c; docs/images.md, "Textures"): each
 * address mode at negative and too-large coordinates, point sampling, linear filtering between
 * known texels with the 8-bit-fraction weights and the half-texel offset, read modes and the
 * fill of missing channels, sampler checks and the sampler table. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ir/ir.h"
#include "mem/mem_texture.h"

static mem_image_desc image_1d(uint8_t bits, uint8_t kind, uint8_t channels, uint32_t width)
{
    mem_image_desc d = {.dim = IR_IMAGE_1D, .channels = channels, .bits = bits, .kind = kind,
                        .width = width, .height = 1, .depth = 1, .layers = 1,
                        .layout = MEM_IMAGE_PITCH, .pitch_bytes = 4096};
    return d;
}

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Samples a 1D f32 image of `n` texels at x: footprint, decode (texels from v[]), blend. */
static float sample_1d(const mem_sampler *s, const float *v, uint32_t n, float x)
{
    mem_image_desc img = image_1d(32, MEM_IMAGE_FLOAT, 1, n);
    mem_tex_footprint fp;
    mem_tex_footprint_of(s, &img, 1, &x, NULL, 0, 0, &fp);
    uint32_t t[MEM_TEX_MAX_FOOTPRINT][4], out[4];
    for (uint32_t i = 0; i < fp.count; i++)
        mem_tex_decode(s, &img, fp.outside[i] ? NULL : (const uint8_t *)&v[fp.x[i]], 1, t[i]);
    mem_tex_blend(&fp, (const uint32_t(*)[4])t, out);
    return as_float(out[0]);
}

static const float ramp[4] = {10, 20, 30, 40};

static void test_address_modes(void **state)
{
    (void)state;
    mem_sampler s = {.normalized = 1, .filter = MEM_TEX_POINT, .border = {-1, -2, -3, -4}};
    /* x = -0.25 is texel -1, x = 1.25 texel 5 of a 4-texel image. */
    s.address[0] = MEM_TEX_WRAP;
    assert_true(sample_1d(&s, ramp, 4, -0.25f) == 40);
    assert_true(sample_1d(&s, ramp, 4, 1.25f) == 20);
    s.address[0] = MEM_TEX_CLAMP;
    assert_true(sample_1d(&s, ramp, 4, -0.25f) == 10);
    assert_true(sample_1d(&s, ramp, 4, 1.25f) == 40);
    s.address[0] = MEM_TEX_MIRROR;
    assert_true(sample_1d(&s, ramp, 4, -0.25f) == 10);
    assert_true(sample_1d(&s, ramp, 4, 1.25f) == 30);
    s.address[0] = MEM_TEX_BORDER;
    assert_true(sample_1d(&s, ramp, 4, -0.25f) == -1);
    assert_true(sample_1d(&s, ramp, 4, 1.25f) == -1);
    assert_true(sample_1d(&s, ramp, 4, 0.5f) == 30);
    /* Unnormalized coordinates: wrap and mirror act as clamp. */
    s.normalized = 0;
    s.address[0] = MEM_TEX_WRAP;
    assert_true(sample_1d(&s, ramp, 4, -3.0f) == 10);
    assert_true(sample_1d(&s, ramp, 4, 9.0f) == 40);
    s.address[0] = MEM_TEX_MIRROR;
    assert_true(sample_1d(&s, ramp, 4, 5.5f) == 40);
    assert_true(sample_1d(&s, ramp, 4, 2.99f) == 30); /* point: floor */
}

static void test_linear_1d(void **state)
{
    (void)state;
    mem_sampler s = {.filter = MEM_TEX_LINEAR, .address = {MEM_TEX_CLAMP}};
    assert_true(sample_1d(&s, ramp, 4, 1.5f) == 20);   /* a texel centre: that texel alone */
    assert_true(sample_1d(&s, ramp, 4, 1.75f) == 22.5f); /* a quarter of the way to the next */
    /* x - 0.5 = 1.2: the weight 0.2 becomes 51/256 in 8 fractional bits. */
    assert_true(sample_1d(&s, ramp, 4, 1.7f) == 21.9921875f);
    assert_true(sample_1d(&s, ramp, 4, 0.25f) == 10);  /* clamp: both texels are texel 0 */
    s.address[0] = MEM_TEX_BORDER;                      /* texel -1 reads the border 0 */
    assert_true(sample_1d(&s, ramp, 4, 0.25f) == 7.5f);
    assert_true(sample_1d(&s, ramp, 4, 4.0f) == 20);    /* 40 and the border, half each */
    /* Normalized and wrapped: x = 0 is between texels 3 and 0. */
    s.normalized = 1;
    s.address[0] = MEM_TEX_WRAP;
    assert_true(sample_1d(&s, ramp, 4, 0.0f) == 25);
}

static void test_linear_2d(void **state)
{
    (void)state;
    mem_image_desc img = image_1d(32, MEM_IMAGE_FLOAT, 1, 2);
    img.dim = IR_IMAGE_2D;
    img.height = 2;
    const float v[2][2] = {{1, 2}, {3, 4}};
    mem_sampler s = {.filter = MEM_TEX_LINEAR, .address = {MEM_TEX_CLAMP, MEM_TEX_CLAMP}};
    const float c[2] = {1.0f, 1.25f}; /* x - 0.5 = 0.5, y - 0.5 = 0.75 */
    mem_tex_footprint fp;
    mem_tex_footprint_of(&s, &img, 2, c, NULL, 0, 0, &fp);
    assert_int_equal(fp.count, 4);
    assert_int_equal(fp.frac[0], 128);
    assert_int_equal(fp.frac[1], 192);
    uint32_t t[4][4], out[4];
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(fp.x[i], i & 1);
        assert_int_equal(fp.y[i], i >> 1);
        mem_tex_decode(&s, &img, (const uint8_t *)&v[fp.y[i]][fp.x[i]], 1, t[i]);
    }
    mem_tex_blend(&fp, (const uint32_t(*)[4])t, out);
    assert_true(as_float(out[0]) == 3.0f); /* 1.5 * 0.25 + 3.5 * 0.75 */
    assert_true(as_float(out[3]) == 1.0f); /* the missing fourth channel reads 1 */
    /* tld4 gathers the 2x2 footprint whatever the filter; integer coordinates point-sample. */
    s.filter = MEM_TEX_POINT;
    mem_tex_footprint_of(&s, &img, 2, c, NULL, 0, 1, &fp);
    assert_int_equal(fp.count, 4);
    const int32_t ci[2] = {7, -2};
    mem_tex_footprint_of(&s, &img, 2, NULL, ci, 1, 0, &fp);
    assert_int_equal(fp.count, 1);
    assert_int_equal(fp.x[0], 1);
    assert_int_equal(fp.y[0], 0);
}

static void test_read_modes(void **state)
{
    (void)state;
    mem_sampler norm = {.read = MEM_TEX_NORMALIZED_FLOAT}, elem = {.read = MEM_TEX_ELEMENT};
    uint32_t out[4];
    mem_image_desc u8 = image_1d(8, MEM_IMAGE_UNSIGNED, 2, 4);
    const uint8_t texel_u8[2] = {255, 51};
    mem_tex_decode(&norm, &u8, texel_u8, 1, out);
    assert_true(as_float(out[0]) == 1.0f);
    assert_true(as_float(out[1]) == 0.2f);
    assert_int_equal(out[2], 0);
    assert_true(as_float(out[3]) == 1.0f);
    mem_tex_decode(&elem, &u8, texel_u8, 0, out);
    assert_int_equal(out[0], 255);
    assert_int_equal(out[1], 51);
    assert_int_equal(out[3], 1);
    mem_image_desc s8 = image_1d(8, MEM_IMAGE_SIGNED, 2, 4);
    const uint8_t texel_s8[2] = {0x80, 0x7F}; /* -128 clamps to -1; 127 is 1 */
    mem_tex_decode(&norm, &s8, texel_s8, 1, out);
    assert_true(as_float(out[0]) == -1.0f);
    assert_true(as_float(out[1]) == 1.0f);
    mem_image_desc s16 = image_1d(16, MEM_IMAGE_SIGNED, 4, 4);
    const int16_t texel_s16[4] = {-5, 32767, -16384, 0};
    mem_tex_decode(&elem, &s16, (const uint8_t *)texel_s16, 0, out);
    assert_int_equal(out[0], 0xFFFFFFFBu);
    assert_int_equal(out[1], 32767);
    mem_tex_decode(&norm, &s16, (const uint8_t *)texel_s16, 1, out);
    assert_true(as_float(out[2]) == -16384.0f / 32767.0f);
    mem_image_desc u16 = image_1d(16, MEM_IMAGE_UNSIGNED, 1, 4);
    const uint16_t texel_u16 = 65535;
    mem_tex_decode(&norm, &u16, (const uint8_t *)&texel_u16, 1, out);
    assert_true(as_float(out[0]) == 1.0f);
    mem_image_desc f16 = image_1d(16, MEM_IMAGE_FLOAT, 2, 4);
    const uint16_t texel_f16[2] = {0x3C00, 0xC000};
    mem_tex_decode(&elem, &f16, (const uint8_t *)texel_f16, 1, out);
    assert_true(as_float(out[0]) == 1.0f);
    assert_true(as_float(out[1]) == -2.0f);
}

static void test_checks_and_table(void **state)
{
    (void)state;
    mem_image_desc u32 = image_1d(32, MEM_IMAGE_UNSIGNED, 1, 4);
    mem_image_desc u8 = image_1d(8, MEM_IMAGE_UNSIGNED, 1, 4);
    mem_sampler s = {.filter = MEM_TEX_LINEAR, .read = MEM_TEX_ELEMENT};
    assert_string_equal(mem_sampler_check(&s, &u8),
                        "linear filtering needs float texels or a normalized_float read");
    s.read = MEM_TEX_NORMALIZED_FLOAT;
    assert_null(mem_sampler_check(&s, &u8));
    assert_string_equal(mem_sampler_check(&s, &u32),
                        "normalized_float reads need 8- or 16-bit integer texels");
    s.address[1] = 4;
    assert_non_null(mem_sampler_check(&s, &u8));
    mem_sampler_table t;
    mem_sampler_table_init(&t);
    assert_null(mem_sampler_table_get(&t, 1));
    s.address[1] = MEM_TEX_MIRROR;
    assert_int_equal(mem_sampler_table_add(&t, &s), 1);
    assert_int_equal(mem_sampler_table_add(&t, &s), 2);
    assert_int_equal(mem_sampler_table_get(&t, 2)->address[1], MEM_TEX_MIRROR);
    assert_null(mem_sampler_table_get(&t, 0));
    assert_null(mem_sampler_table_get(&t, 3));
    mem_sampler_table_fini(&t);
}

/* Level selection: bias, the two clamps, the last level, point mipmap filtering's rounding
 * (a tie to the finer level) and linear's 1/256 fraction (docs/images.md, "Mipmap levels"). */
static void test_select_levels(void **state)
{
    (void)state;
    mem_image_desc img = {.dim = IR_IMAGE_2D, .channels = 1, .bits = 32, .kind = MEM_IMAGE_FLOAT,
                          .width = 16, .height = 8, .depth = 1, .layers = 1, .levels = 4};
    mem_sampler s = {.mip_filter = MEM_TEX_POINT, .max_lod = 10};
    mem_tex_lod l;
    mem_tex_select_levels(&s, &img, 1.5f, &l);
    assert_true(l.count == 1 && l.level[0] == 1); /* 1.5: the tie goes to level 1 */
    mem_tex_select_levels(&s, &img, 1.51f, &l);
    assert_true(l.count == 1 && l.level[0] == 2);
    mem_tex_select_levels(&s, &img, 9.0f, &l);
    assert_int_equal(l.level[0], 3); /* past the last level */
    mem_tex_select_levels(&s, &img, -INFINITY, &l);
    assert_int_equal(l.level[0], 0);
    mem_tex_select_levels(&s, &img, NAN, &l);
    assert_int_equal(l.level[0], 0);
    s.lod_bias = 1.0f;
    s.max_lod = 1.25f;
    mem_tex_select_levels(&s, &img, 0.75f, &l); /* 1.75 clamped to 1.25 */
    assert_true(l.count == 1 && l.level[0] == 1);
    s.mip_filter = MEM_TEX_LINEAR;
    mem_tex_select_levels(&s, &img, 0.75f, &l);
    assert_true(l.count == 2 && l.level[0] == 1 && l.level[1] == 2 && l.frac == 64);
    s.lod_bias = 0;
    s.min_lod = 0.5f;
    s.max_lod = 10;
    mem_tex_select_levels(&s, &img, 0.0f, &l); /* raised to the minimum */
    assert_true(l.count == 2 && l.level[0] == 0 && l.frac == 128);
    mem_tex_select_levels(&s, &img, 2.999f, &l); /* the fraction rounds up to level 3 */
    assert_true(l.count == 1 && l.level[0] == 3);
    img.levels = 1; /* one level: always level 0 */
    mem_tex_select_levels(&s, &img, 2.5f, &l);
    assert_true(l.count == 1 && l.level[0] == 0);
}

/* The level of detail of gradients: the longer texel-space vector, normalized coordinates
 * scaled by the level-0 size. */
static void test_lod_of_gradients(void **state)
{
    (void)state;
    mem_image_desc img = {.dim = IR_IMAGE_2D, .width = 16, .height = 8, .depth = 1};
    mem_sampler s = {.normalized = 1};
    const float dx[2] = {0.25f, 0}, dy[2] = {0, 0.25f}; /* 4 texels along x, 2 along y */
    assert_true(mem_tex_lod_of_gradients(&s, &img, 2, dx, dy) == 2.0f);
    s.normalized = 0; /* texel units: 0.25 texels */
    assert_true(mem_tex_lod_of_gradients(&s, &img, 2, dx, dy) == -2.0f);
    const float zero[2] = {0, 0};
    assert_true(mem_tex_lod_of_gradients(&s, &img, 2, zero, zero) == -INFINITY);
    const float d3[2] = {3, 4};
    assert_true(mem_tex_lod_of_gradients(&s, &img, 2, d3, zero) == (float)log2(5.0));
}

/* Cube faces: each major axis and sign, the face coordinates of CUDA's table, and the ties
 * (z over y over x). */
static void test_cube_faces(void **state)
{
    (void)state;
    static const struct {
        float dir[3];
        uint32_t face;
        float u, v;
    } cases[] = {
        {{1, 0.5f, -0.5f}, 0, 0.75f, 0.25f},  {{-1, 0.5f, -0.5f}, 1, 0.25f, 0.25f},
        {{0.5f, 1, -0.5f}, 2, 0.75f, 0.25f},  {{0.5f, -1, -0.5f}, 3, 0.75f, 0.75f},
        {{0.5f, -0.5f, 1}, 4, 0.75f, 0.75f},  {{0.5f, -0.5f, -1}, 5, 0.25f, 0.75f},
        {{1, 1, 0}, 2, 1.0f, 0.5f},           {{1, 1, -1}, 5, 0.0f, 0.0f},
        {{0, 0, 0}, 4, 0.5f, 0.5f},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t face = 99;
        float uv[2];
        mem_tex_cube_face(cases[i].dir, &face, uv);
        assert_int_equal(face, cases[i].face);
        assert_true(uv[0] == cases[i].u && uv[1] == cases[i].v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_address_modes),
        cmocka_unit_test(test_linear_1d),
        cmocka_unit_test(test_linear_2d),
        cmocka_unit_test(test_read_modes),
        cmocka_unit_test(test_checks_and_table),
        cmocka_unit_test(test_select_levels),
        cmocka_unit_test(test_lod_of_gradients),
        cmocka_unit_test(test_cube_faces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
