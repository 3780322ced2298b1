/* Image descriptors, texel addresses in the pitch-linear and block-linear layouts, and the
 * image table of a memory system (mem_image.h; docs/images.md). */
#include <stdlib.h>

#include "mem/mem_image.h"

uint32_t mem_image_texel_bytes(const mem_image_desc *d)
{
    return (uint32_t)d->channels * d->bits / 8;
}

static int power_of_two_upto(uint32_t v, uint32_t max)
{
    return v >= 1 && v <= max && (v & (v - 1)) == 0;
}

const char *mem_image_check(const mem_image_desc *d)
{
    if (d->channels != 1 && d->channels != 2 && d->channels != 4)
        return "channels must be 1, 2 or 4";
    if (d->bits != 8 && d->bits != 16 && d->bits != 32)
        return "bits must be 8, 16 or 32";
    if (d->kind > MEM_IMAGE_FLOAT || (d->kind == MEM_IMAGE_FLOAT && d->bits == 8))
        return "kind must be signed, unsigned or float (float needs 16 or 32 bits)";
    if (d->dim < 1 || d->dim > 8)
        return "dim must be 1d, 1d_buffer, 1d_array, 2d, 2d_array, 3d, cube or cube_array";
    if (!d->width || !d->height || !d->depth || !d->layers)
        return "width, height, depth and layers must be at least 1";
    int one_d = d->dim <= 3, array = d->dim == 3 || d->dim == 5 || d->dim >= 7;
    if ((one_d && d->height != 1) || (d->dim != 6 && d->depth != 1) || (!array && d->layers != 1))
        return "height is 1 for 1D images, depth 1 unless 3D, layers 1 unless an array";
    if (d->dim >= 7 && (d->width != d->height || d->layers % 6 || (d->dim == 7 && d->layers != 6)))
        return "a cube is square with 6 layers, a cube array 6 layers per cube";
    if (d->levels > mem_image_max_levels(d))
        return "more mipmap levels than halving the largest extent down to 1 gives";
    if (d->width > 0xFFFFFFFFu / 16 || d->layers > 0xFFFF)
        return "width is at most 268435455 texels and layers at most 65535";
    if (d->layout == MEM_IMAGE_PITCH) {
        if ((uint64_t)d->pitch_bytes < (uint64_t)d->width * mem_image_texel_bytes(d))
            return "pitch is smaller than a row of texels";
    } else if (d->layout == MEM_IMAGE_BLOCK_LINEAR) {
        if (!power_of_two_upto(d->block_height, MEM_IMAGE_MAX_BLOCK_GOBS) ||
            !power_of_two_upto(d->block_depth, MEM_IMAGE_MAX_BLOCK_GOBS))
            return "block_height and block_depth must be powers of two from 1 to 32";
    } else {
        return "layout must be pitch-linear or block-linear";
    }
    return NULL;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

uint64_t mem_image_layer_bytes(const mem_image_desc *d)
{
    if (d->layout == MEM_IMAGE_PITCH)
        return (uint64_t)d->pitch_bytes * d->height * d->depth;
    uint64_t row_bytes = (uint64_t)d->width * mem_image_texel_bytes(d);
    uint64_t gobs_x = ceil_div(row_bytes, MEM_IMAGE_GOB_BYTES_X);
    uint64_t blocks_y = ceil_div(d->height, (uint64_t)MEM_IMAGE_GOB_ROWS * d->block_height);
    uint64_t blocks_z = ceil_div(d->depth, d->block_depth);
    return gobs_x * blocks_y * blocks_z * MEM_IMAGE_GOB_BYTES * d->block_height * d->block_depth;
}

static uint64_t level_bytes(const mem_image_desc *d)
{
    return mem_image_layer_bytes(d) * d->layers;
}

uint32_t mem_image_max_levels(const mem_image_desc *d)
{
    if (d->dim == 2) /* 1d_buffer: a plain buffer of texels */
        return 1;
    uint32_t n = d->width > d->height ? d->width : d->height, levels = 1;
    if (d->dim == 6 && d->depth > n)
        n = d->depth;
    while (n >>= 1) levels++;
    return levels;
}

/* The level's extents and pitch; base and levels are left to the caller. */
static void shrink(const mem_image_desc *d, uint32_t level, mem_image_desc *out)
{
    *out = *d;
    out->levels = 1;
    out->width = d->width >> level ? d->width >> level : 1;
    out->height = d->height >> level ? d->height >> level : 1;
    if (d->dim == 6)
        out->depth = d->depth >> level ? d->depth >> level : 1;
    uint64_t row = (uint64_t)out->width * mem_image_texel_bytes(d);
    out->pitch_bytes = (d->pitch_bytes >> level) > row ? d->pitch_bytes >> level : (uint32_t)row;
}

void mem_image_level(const mem_image_desc *d, uint32_t level, mem_image_desc *out)
{
    uint64_t at = 0;
    for (uint32_t k = 0; k < level; k++) {
        shrink(d, k, out);
        at += ceil_div(level_bytes(out), MEM_IMAGE_LEVEL_ALIGN) * MEM_IMAGE_LEVEL_ALIGN;
    }
    shrink(d, level, out);
    out->base = d->base + at;
}

uint64_t mem_image_bytes(const mem_image_desc *d)
{
    uint32_t levels = d->levels ? d->levels : 1;
    if (levels == 1)
        return level_bytes(d);
    mem_image_desc last;
    mem_image_level(d, levels - 1, &last);
    return last.base - d->base + level_bytes(&last);
}

/* Byte offset inside one 512-byte GOB of byte x (0..63) of row y (0..7): the GOB is two
 * 256-byte halves (x bit 5), each four 64-byte pairs of rows (y bits 2:1), each two 32-byte
 * halves (x bit 4), each two 16-byte rows (y bit 0) of 16 bytes (x bits 3:0). */
static uint32_t gob_offset(uint32_t x, uint32_t y)
{
    return ((x >> 5) & 1u) * 256 + ((y >> 1) & 3u) * 64 + ((x >> 4) & 1u) * 32 + (y & 1u) * 16 +
           (x & 15u);
}

uint64_t mem_image_byte_offset(const mem_image_desc *d, uint64_t x_bytes, uint32_t y, uint32_t z,
                               uint32_t layer)
{
    uint64_t layer_base = (uint64_t)layer * mem_image_layer_bytes(d);
    if (d->layout == MEM_IMAGE_PITCH)
        return layer_base + ((uint64_t)z * d->height + y) * d->pitch_bytes + x_bytes;
    uint64_t row_bytes = (uint64_t)d->width * mem_image_texel_bytes(d);
    uint64_t gobs_x = ceil_div(row_bytes, MEM_IMAGE_GOB_BYTES_X);
    uint32_t bh = d->block_height, bd = d->block_depth;
    uint64_t blocks_y = ceil_div(d->height, (uint64_t)MEM_IMAGE_GOB_ROWS * bh);
    uint64_t block_bytes = (uint64_t)MEM_IMAGE_GOB_BYTES * bh * bd;
    /* Blocks are one GOB wide and lie in row-major order: x fastest, then y, then z. */
    uint64_t block = ((uint64_t)(z / bd) * blocks_y + y / (MEM_IMAGE_GOB_ROWS * bh)) * gobs_x +
                     x_bytes / MEM_IMAGE_GOB_BYTES_X;
    /* Inside a block, GOBs stack vertically first, then in depth. */
    uint64_t gob = (uint64_t)(z % bd) * bh + (y / MEM_IMAGE_GOB_ROWS) % bh;
    return layer_base + block * block_bytes + gob * MEM_IMAGE_GOB_BYTES +
           gob_offset((uint32_t)(x_bytes % MEM_IMAGE_GOB_BYTES_X), y % MEM_IMAGE_GOB_ROWS);
}

void mem_image_table_init(mem_image_table *t)
{
    t->images = NULL;
    t->count = t->cap = t->pool_max = 0;
}

void mem_image_table_fini(mem_image_table *t)
{
    free(t->images);
    mem_image_table_init(t);
}

uint32_t mem_image_table_add(mem_image_table *t, const mem_image_desc *d)
{
    if (t->count >= MEM_IMAGE_MAX_INDEX)
        return 0;
    if (t->count == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 8;
        mem_image_desc *n = realloc(t->images, (size_t)cap * sizeof *n);
        if (!n)
            return 0;
        t->images = n;
        t->cap = cap;
    }
    t->images[t->count++] = *d;
    t->pool_max = t->count;
    return t->count;
}

const mem_image_desc *mem_image_table_get(const mem_image_table *t, uint64_t index)
{
    if (index == 0 || index > t->pool_max || index > t->count || !t->images[index - 1].width)
        return NULL;
    return &t->images[index - 1];
}

/* A removed entry keeps its place with width 0, which no live image has. */
void mem_image_table_remove(mem_image_table *t, uint64_t index)
{
    if (index >= 1 && index <= t->count)
        t->images[index - 1].width = 0;
}

mem_image_desc *mem_image_table_at(mem_image_table *t, uint64_t index)
{
    return index == 0 || index > t->count || !t->images[index - 1].width ? NULL
                                                                         : &t->images[index - 1];
}
