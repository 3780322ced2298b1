/* The tensor map's fields, their checks and gpumemsim's 128-byte encoding (tensor_map.h). The
 * checks are those cuTensorMapEncodeTiled documents for tiled maps without interleave. */
#include "exec/tensor_map.h"

#include <string.h>

static const uint8_t magic[4] = {'G', 'M', 'T', 'M'};

unsigned tensor_map_elem_bytes(unsigned type)
{
    static const uint8_t bytes[TMAP_TYPE_COUNT] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
    return type < TMAP_TYPE_COUNT ? bytes[type] : 0;
}

/* Bytes of the innermost box row, as the swizzle sees it. */
static uint64_t inner_bytes(const tensor_map *m)
{
    return (uint64_t)m->box[0] * tensor_map_elem_bytes(m->type);
}

const char *tensor_map_check(const tensor_map *m)
{
    unsigned eb = tensor_map_elem_bytes(m->type);
    if (!eb)
        return "the data type is not one of CUtensorMapDataType's 0..12";
    if (m->rank < 1 || m->rank > TENSOR_MAP_MAX_RANK)
        return "the rank is not 1..5";
    if (m->address % 16)
        return "the global address is not a multiple of 16";
    if (m->swizzle > TMAP_SWIZZLE_128B || m->l2_promotion > TMAP_L2_256B ||
        m->oob_fill > TMAP_OOB_NAN)
        return "the swizzle, L2 promotion or OOB fill is outside its enumeration";
    if (m->oob_fill == TMAP_OOB_NAN && m->type != TMAP_FLOAT16 && m->type != TMAP_FLOAT32 &&
        m->type != TMAP_FLOAT64 && m->type != TMAP_BFLOAT16 && m->type != TMAP_FLOAT32_FTZ &&
        m->type != TMAP_TFLOAT32 && m->type != TMAP_TFLOAT32_FTZ)
        return "a NaN OOB fill needs a floating-point data type";
    for (unsigned d = 0; d < m->rank; d++) {
        if (m->dims[d] < 1 || m->dims[d] > (1ull << 32))
            return "a dimension is outside 1..2^32";
        if (m->box[d] < 1 || m->box[d] > 256)
            return "a box dimension is outside 1..256";
        if (m->elem_strides[d] < 1 || m->elem_strides[d] > 8)
            return "an element stride is outside 1..8";
        if (d > 0 && (m->strides[d] % 16 || m->strides[d] >= (1ull << 40) || m->strides[d] == 0))
            return "a global stride is not a multiple of 16 below 2^40";
    }
    if (m->strides[0] != eb)
        return "strides[0] is not the element size";
    if (inner_bytes(m) % 16)
        return "the box's inner dimension is not a multiple of 16 bytes";
    static const unsigned span[] = {0, 32, 64, 128};
    if (m->swizzle != TMAP_SWIZZLE_NONE && inner_bytes(m) > span[m->swizzle])
        return "the box's inner dimension is wider than the swizzle span";
    return NULL;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

const char *tensor_map_encode(const tensor_map *m, uint8_t out[TENSOR_MAP_BYTES])
{
    const char *bad = tensor_map_check(m);
    if (bad)
        return bad;
    memset(out, 0, TENSOR_MAP_BYTES);
    memcpy(out, magic, 4);
    out[4] = 1;
    out[5] = m->type;
    out[6] = m->rank;
    out[7] = m->swizzle;
    out[8] = m->l2_promotion;
    out[9] = m->oob_fill;
    put64(out + 16, m->address);
    for (unsigned d = 0; d < TENSOR_MAP_MAX_RANK; d++) {
        int used = d < m->rank;
        put64(out + 24 + 8 * d, used ? m->dims[d] : 0);
        if (d > 0)
            put64(out + 64 + 8 * (d - 1), used ? m->strides[d] : 0);
        uint32_t box = used ? m->box[d] : 0;
        for (unsigned i = 0; i < 4; i++) out[96 + 4 * d + i] = (uint8_t)(box >> (8 * i));
        out[116 + d] = used ? (uint8_t)m->elem_strides[d] : 0;
    }
    return NULL;
}

const char *tensor_map_decode(const uint8_t in[TENSOR_MAP_BYTES], tensor_map *m)
{
    memset(m, 0, sizeof *m);
    if (memcmp(in, magic, 4) != 0 || in[4] != 1)
        return "the 128 bytes are not a gpumemsim tensor map (a launch file's \"tensor_map\" "
               "argument makes one)";
    m->type = in[5];
    m->rank = in[6];
    m->swizzle = in[7];
    m->l2_promotion = in[8];
    m->oob_fill = in[9];
    m->address = get64(in + 16);
    unsigned rank = m->rank <= TENSOR_MAP_MAX_RANK ? m->rank : TENSOR_MAP_MAX_RANK;
    for (unsigned d = 0; d < rank; d++) {
        m->dims[d] = get64(in + 24 + 8 * d);
        m->strides[d] = d ? get64(in + 64 + 8 * (d - 1)) : tensor_map_elem_bytes(m->type);
        m->box[d] = (uint32_t)in[96 + 4 * d] | (uint32_t)in[97 + 4 * d] << 8 |
                    (uint32_t)in[98 + 4 * d] << 16 | (uint32_t)in[99 + 4 * d] << 24;
        m->elem_strides[d] = in[116 + d];
    }
    return tensor_map_check(m);
}

uint64_t tensor_map_box_bytes(const tensor_map *m)
{
    uint64_t n = tensor_map_elem_bytes(m->type);
    for (unsigned d = 0; d < m->rank; d++)
        n *= (m->box[d] + m->elem_strides[d] - 1) / m->elem_strides[d];
    return n;
}
