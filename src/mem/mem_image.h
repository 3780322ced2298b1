/* Image memory: what a surface instruction (suld, sust, sured, suatom, suq; SASS SULD, SUST,
 * SURED, SUATOM) reaches through an image object (docs/images.md).
 *
 * An image is device global memory with a descriptor: its texel format (cudaChannelFormatDesc:
 * channels, bits per channel, kind), its geometry (width, height, depth, array layers) and its
 * layout in memory, pitch-linear (rows `pitch_bytes` apart) or block-linear (NVIDIA's GOBs of
 * 64 bytes x 8 rows gathered into blocks of block_height x block_depth GOBs). This module computes
 * texel byte addresses for both layouts and keeps the table of a memory system's images: each has
 * a header index (1, 2, ... in creation order; a SASS pool entry's headerPtr) which is also its
 * 64-bit handle (what a kernel argument {"surface": NAME} passes), and the pool's maximum valid
 * index. It moves no data: accesses go through memsys_access like any global access. */
#ifndef GMS_MEM_MEM_IMAGE_H
#define GMS_MEM_MEM_IMAGE_H

#include <stdint.h>

/* cudaChannelFormatKind, with the same numeric values. */
typedef enum mem_image_kind {
    MEM_IMAGE_SIGNED = 0,
    MEM_IMAGE_UNSIGNED = 1,
    MEM_IMAGE_FLOAT = 2,
} mem_image_kind;

typedef enum mem_image_layout {
    MEM_IMAGE_PITCH = 0,        /* row y of slice z at (z * height + y) * pitch_bytes */
    MEM_IMAGE_BLOCK_LINEAR = 1, /* GOBs in blocks (docs/images.md, "Block-linear layout") */
} mem_image_layout;

enum {
    MEM_IMAGE_GOB_BYTES_X = 64,  /* bytes of one GOB row */
    MEM_IMAGE_GOB_ROWS = 8,      /* rows of one GOB */
    MEM_IMAGE_GOB_BYTES = 512,
    MEM_IMAGE_MAX_BLOCK_GOBS = 32,   /* block_height and block_depth: 1, 2, 4, ... 32 */
    MEM_IMAGE_MAX_INDEX = 0xFFFFF,   /* header indices fit headerPtr[19:0] */
};

/* One image. Sizes in texels unless named in bytes. */
typedef struct mem_image_desc {
    uint8_t dim;            /* ir_image_dim: 1d, 1d_buffer, 1d_array, 2d, 2d_array, 3d, cube,
                               cube_array (a cube's 6 faces are 6 layers) */
    uint8_t channels;       /* 1, 2 or 4 */
    uint8_t bits;           /* per channel: 8, 16 or 32 (a texel is 1 to 16 bytes) */
    uint8_t kind;           /* mem_image_kind */
    uint32_t width, height, depth, layers; /* >= 1 each; height 1 for 1D, depth 1 unless 3D,
                                              layers 1 unless an array; a cube is square with
                                              6 layers, a cube array 6 per cube */
    uint8_t layout;         /* mem_image_layout */
    uint8_t block_height;   /* BLOCK_LINEAR: GOBs per block vertically, a power of two <= 32 */
    uint8_t block_depth;    /* BLOCK_LINEAR: GOBs per block in depth, a power of two <= 32 */
    uint8_t disabled;       /* 1: stores, reductions and atomics are dropped, loads read 0 */
    uint32_t pitch_bytes;   /* PITCH: bytes from one row to the next, >= width * texel bytes */
    uint64_t base;          /* global address of byte 0 (layer 0, texel 0) */
    uint8_t levels;         /* mipmap levels, level 0 the full size (0 means 1); level k
                               follows level k - 1 in memory (mem_image_level) */
} mem_image_desc;

enum { MEM_IMAGE_LEVEL_ALIGN = 512 }; /* each mipmap level starts on a 512-byte boundary */

/* Bytes of one texel: channels * bits / 8. */
uint32_t mem_image_texel_bytes(const mem_image_desc *d);
/* Returns NULL when `d` is consistent (the ranges above, levels at most mem_image_max_levels;
 * base is not checked), else a short reason ("block_height must be a power of two from 1 to
 * 32"). */
const char *mem_image_check(const mem_image_desc *d);
/* Bytes from one array layer to the next: pitch_bytes * height * depth, or for block-linear
 * images whole blocks: ceil(width bytes / 64) * ceil(height / (8 * block_height)) *
 * ceil(depth / block_depth) * 512 * block_height * block_depth. */
uint64_t mem_image_layer_bytes(const mem_image_desc *d);
/* Bytes the image occupies: layers * mem_image_layer_bytes for one level; with mipmap levels
 * the sum over its levels, each rounded up to MEM_IMAGE_LEVEL_ALIGN bytes but the last. */
uint64_t mem_image_bytes(const mem_image_desc *d);
/* The largest number of mipmap levels an image of d's extents can have: floor(log2(the largest
 * of width, height and (3D) depth)) + 1; 1 for 1d_buffer images. */
uint32_t mem_image_max_levels(const mem_image_desc *d);
/* Level `level` (< the image's levels) of `d` as a one-level image of its own in *out: width,
 * height and (3D) depth halved `level` times, rounded down, at least 1; the same format,
 * layers and layout, a pitch of max(pitch_bytes >> level, a row of the level's texels), and
 * base past the earlier levels (docs/images.md, "Mipmap levels"). */
void mem_image_level(const mem_image_desc *d, uint32_t level, mem_image_desc *out);
/* Byte offset from d->base of byte `x_bytes` of row y of slice z of layer `layer` (all in
 * range: x_bytes < width * texel bytes, y < height, z < depth, layer < layers), by the layout
 * (docs/images.md, "Pitch-linear layout" and "Block-linear layout"). Within a block-linear GOB
 * 16 bytes of a row are contiguous, so an aligned access of up to 16 bytes stays contiguous. */
uint64_t mem_image_byte_offset(const mem_image_desc *d, uint64_t x_bytes, uint32_t y, uint32_t z,
                               uint32_t layer);

/* The images of one memory system: index i + 1 is images[i]. */
typedef struct mem_image_table {
    mem_image_desc *images; /* owned */
    uint32_t count, cap;
    uint32_t pool_max;      /* the largest valid header index (header pointers above it are
                               invalid); mem_image_table_add raises it to the newest index */
} mem_image_table;

void mem_image_table_init(mem_image_table *t);
void mem_image_table_fini(mem_image_table *t);
/* Appends a copy of *d (checked with mem_image_check by the caller) and returns its header
 * index (>= 1), which is also its handle; 0 when out of memory or past MEM_IMAGE_MAX_INDEX. */
uint32_t mem_image_table_add(mem_image_table *t, const mem_image_desc *d);
/* The image of header index `index`, or NULL when the index is 0, above pool_max or names no
 * image (an invalid header: docs/images.md, "Invalid images"). */
const mem_image_desc *mem_image_table_get(const mem_image_table *t, uint64_t index);
/* Removes image `index`: its entry stays (indices are not reused) but names no image, for
 * mem_image_table_get and mem_image_table_at alike. */
void mem_image_table_remove(mem_image_table *t, uint64_t index);
/* As mem_image_table_get, writable, ignoring pool_max (host-side use). */
mem_image_desc *mem_image_table_at(mem_image_table *t, uint64_t index);

#endif
