/* Unit tests for the tensor map (src/exec/tensor_map.c) and its public encoder
 * (gms_tensor_map_encode): the 128-byte layout field by field, a round trip, every check of
 * tensor_map_check, the box bytes with element strides, and the API's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "exec/tensor_map.h"
#include "gpumemsim/gpumemsim.h"

static tensor_map valid_2d(void)
{
    tensor_map m;
    memset(&m, 0, sizeof m);
    m.type = TMAP_FLOAT32;
    m.rank = 2;
    m.address = 0x7f0000000100ull;
    m.dims[0] = 40;
    m.dims[1] = 20;
    m.strides[0] = 4;
    m.strides[1] = 160;
    m.box[0] = 16;
    m.box[1] = 8;
    m.elem_strides[0] = m.elem_strides[1] = 1;
    return m;
}

static void test_layout_and_round_trip(void **state)
{
    (void)state;
    tensor_map m = valid_2d(), back;
    m.swizzle = TMAP_SWIZZLE_64B;
    m.l2_promotion = TMAP_L2_128B;
    uint8_t raw[TENSOR_MAP_BYTES];
    assert_null(tensor_map_encode(&m, raw));
    assert_memory_equal(raw, "GMTM", 4);
    assert_int_equal(raw[4], 1);
    assert_int_equal(raw[5], TMAP_FLOAT32);
    assert_int_equal(raw[6], 2);
    assert_int_equal(raw[7], TMAP_SWIZZLE_64B);
    assert_int_equal(raw[8], TMAP_L2_128B);
    assert_int_equal(raw[16], 0x00);
    assert_int_equal(raw[17], 0x01);
    assert_int_equal(raw[21], 0x7f);
    assert_int_equal(raw[24], 40);
    assert_int_equal(raw[32], 20);
    assert_int_equal(raw[64], 160);
    assert_int_equal(raw[96], 16);
    assert_int_equal(raw[100], 8);
    assert_int_equal(raw[116], 1);
    for (unsigned i = 121; i < TENSOR_MAP_BYTES; i++) assert_int_equal(raw[i], 0);
    assert_null(tensor_map_decode(raw, &back));
    assert_memory_equal(&back.dims, &m.dims, 2 * sizeof m.dims[0]);
    assert_int_equal(back.strides[1], 160);
    assert_int_equal(back.address, m.address);
    assert_int_equal(tensor_map_box_bytes(&back), 16 * 8 * 4);
    raw[0] = 'X';
    assert_non_null(tensor_map_decode(raw, &back));
}

static void expect_refused(tensor_map m, const char *words)
{
    uint8_t raw[TENSOR_MAP_BYTES];
    memset(raw, 0xAB, sizeof raw);
    const char *why = tensor_map_encode(&m, raw);
    assert_non_null(why);
    assert_non_null(strstr(why, words));
    assert_int_equal(raw[0], 0xAB); /* untouched */
}

static void test_checks(void **state)
{
    (void)state;
    tensor_map m = valid_2d();
    m.type = TMAP_TYPE_COUNT;
    expect_refused(m, "data type");
    m = valid_2d(), m.rank = 6;
    expect_refused(m, "rank");
    m = valid_2d(), m.address += 8;
    expect_refused(m, "global address");
    m = valid_2d(), m.box[1] = 257;
    expect_refused(m, "box dimension");
    m = valid_2d(), m.elem_strides[0] = 9;
    expect_refused(m, "element stride");
    m = valid_2d(), m.strides[1] = 168;
    expect_refused(m, "global stride");
    m = valid_2d(), m.box[0] = 3;
    expect_refused(m, "multiple of 16 bytes");
    m = valid_2d(), m.swizzle = TMAP_SWIZZLE_32B;
    expect_refused(m, "wider than the swizzle span");
    m = valid_2d(), m.type = TMAP_INT32, m.oob_fill = TMAP_OOB_NAN;
    expect_refused(m, "NaN OOB fill");
    m = valid_2d(), m.dims[0] = 0;
    expect_refused(m, "dimension is outside");
}

static void test_box_bytes_with_element_strides(void **state)
{
    (void)state;
    tensor_map m = valid_2d();
    m.type = TMAP_UINT32;
    m.rank = 3;
    m.dims[2] = 3;
    m.strides[2] = 3200;
    m.box[0] = 4, m.box[1] = 2, m.box[2] = 3;
    m.elem_strides[0] = 2, m.elem_strides[1] = 1, m.elem_strides[2] = 2;
    assert_int_equal(tensor_map_box_bytes(&m), 2 * 2 * 2 * 4);
}

static void test_public_encoder(void **state)
{
    (void)state;
    gms_tensor_map_desc d;
    memset(&d, 0, sizeof d);
    d.data_type = 7;
    d.rank = 1;
    d.global_address = 0x7f0000000000ull;
    d.dims[0] = 64;
    d.box[0] = 32;
    d.element_strides[0] = 1;
    uint8_t out[GMS_TENSOR_MAP_BYTES];
    gms_diag_list *dl = gms_diag_list_create();
    assert_int_equal(gms_tensor_map_encode(&d, out, dl), GMS_OK);
    assert_memory_equal(out, "GMTM", 4);
    d.interleave = 1;
    assert_int_equal(gms_tensor_map_encode(&d, out, dl), GMS_ERR_ARGUMENT);
    d.interleave = 0;
    d.swizzle = 3; /* 128 bytes of inner box, which is exactly the span: accepted */
    assert_int_equal(gms_tensor_map_encode(&d, out, dl), GMS_OK);
    d.swizzle = 2; /* wider than the 64-byte span */
    assert_int_equal(gms_tensor_map_encode(&d, out, dl), GMS_ERR_ARGUMENT);
    d.box[0] = 8, d.swizzle = 3; /* 32 bytes under a 128-byte span: not modelled */
    assert_int_equal(gms_tensor_map_encode(&d, out, dl), GMS_ERR_ARGUMENT);
    assert_int_equal(gms_tensor_map_encode(NULL, out, dl), GMS_ERR_ARGUMENT);
    gms_diag_list_destroy(dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_and_round_trip),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_box_bytes_with_element_strides),
        cmocka_unit_test(test_public_encoder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
