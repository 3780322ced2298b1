/* Texture sampling: what a texture instruction (tex, tld4; SASS TEX, TLD4) computes from an image
 * and a sampler (docs/images.md, "Textures").
 *
 * A texture is an image (mem_image.h) read through a sampler: per-dimension address modes
 * (cudaAddressMode: wrap, clamp, mirror, border), a filter (cudaFilterMode: point, linear),
 * normalized or texel coordinates, and a read mode (cudaReadMode: the element type, or 8- and
 * 16-bit integers as normalized floats). This module is the sampler model, pure arithmetic: it
 * turns coordinates into the texels of the filter's footprint with their 8-bit-fraction weights,
 * decodes texels and blends them. It lives in mem/ beside the image layout because the API and
 * launch layers check samplers with it and the memory system keeps the sampler table; it moves
 * no data (the executor fetches the footprint through memsys_texture_read).
 *
 * A texture's handle is `sampler index << 20 | image header index`, the layout of a SASS bindless
 * handle's low 32 bits (samplerPtr[31:20] | headerPtr[19:0]); sampler index 0 names no sampler. */
#ifndef GMS_MEM_MEM_TEXTURE_H
#define GMS_MEM_MEM_TEXTURE_H

#include <stdint.h>

#include "mem/mem_image.h"

/* cudaTextureAddressMode, with the same numeric values. */
typedef enum mem_tex_address {
    MEM_TEX_WRAP = 0, MEM_TEX_CLAMP = 1, MEM_TEX_MIRROR = 2, MEM_TEX_BORDER = 3
} mem_tex_address;
/* cudaTextureFilterMode. */
typedef enum mem_tex_filter { MEM_TEX_POINT = 0, MEM_TEX_LINEAR = 1 } mem_tex_filter;
/* cudaTextureReadMode. */
typedef enum mem_tex_read { MEM_TEX_ELEMENT = 0, MEM_TEX_NORMALIZED_FLOAT = 1 } mem_tex_read;

enum {
    MEM_TEX_SAMPLER_SHIFT = 20,   /* handle bits 31:20: the sampler index */
    MEM_TEX_MAX_SAMPLER = 0xFFF,  /* 4095 samplers */
    MEM_TEX_MAX_FOOTPRINT = 8,    /* texels of a 3D linear fetch of one mipmap level */
    MEM_TEX_MAX_FETCH = 16,       /* texels of one lane's fetch: two levels' footprints */
    MEM_TEX_WEIGHT_ONE = 256,     /* a weight of 1.0: 9-bit fixed point, 8 fractional bits */
};

typedef struct mem_sampler {
    uint8_t address[3];  /* mem_tex_address per dimension (x, y, z) */
    uint8_t filter;      /* mem_tex_filter */
    uint8_t normalized;  /* 1: coordinates in [0, 1) span the image */
    uint8_t read;        /* mem_tex_read */
    float border[4];     /* the value of a texel outside the image in border mode, per channel */
    uint8_t mip_filter;  /* mem_tex_filter between mipmap levels (mipmapFilterMode) */
    float lod_bias;      /* added to every level of detail (mipmapLevelBias) */
    float min_lod, max_lod; /* the level of detail is clamped to these (min/maxMipmapLevelClamp) */
} mem_sampler;

/* The mipmap levels one fetch reads: level[0] alone (count 1), or level[0] and level[0] + 1
 * blended, the upper weighing frac / 256 (count 2; linear mipmap filtering). */
typedef struct mem_tex_lod {
    uint32_t count;
    uint32_t level[2];
    uint16_t frac;
} mem_tex_lod;

/* The level of detail of gradients: with the texel-space derivatives along x and along y
 * (each derivative times the level-0 size of its dimension when the sampler's coordinates are
 * normalized), the log2 of the longer of the two vectors' lengths; -infinity when both are 0
 * (docs/images.md, "Mipmap levels"). dims: 1 to 3; dx, dy: dims derivatives each. */
float mem_tex_lod_of_gradients(const mem_sampler *s, const mem_image_desc *img, uint32_t dims,
                               const float *dx, const float *dy);
/* The levels a fetch at level of detail `lod` reads: lod + the sampler's bias, clamped to
 * [min_lod, max_lod] and to [0, levels - 1]; point mipmap filtering takes the nearest level
 * (round half down), linear the two levels around it with the fraction in 1/256 steps. NaN
 * reads level 0. */
void mem_tex_select_levels(const mem_sampler *s, const mem_image_desc *img, float lod,
                           mem_tex_lod *out);
/* Face selection of a cube map (docs/images.md, "Cube textures"): the face (0 +x, 1 -x, 2 +y,
 * 3 -y, 4 +z, 5 -z) of the direction's largest component by magnitude (ties: z over y over x)
 * and the normalized coordinates (s / m + 1) / 2, (t / m + 1) / 2 of the face, with s and t the
 * face's other two components as CUDA's table orients them and m the largest magnitude. The
 * zero vector reads face 4 at its centre. */
void mem_tex_cube_face(const float dir[3], uint32_t *face, float uv[2]);

/* Returns NULL when the sampler can read image `img`, else a short reason: a mode out of range,
 * linear filtering of integer texels read as integers, a normalized-float read of 32-bit integer
 * texels (CUDA refuses both at texture creation). */
const char *mem_sampler_check(const mem_sampler *s, const mem_image_desc *img);

/* The texels one fetch reads and how much each weighs. count: 1 (point), 2, 4, 8 (linear 1D,
 * 2D, 3D); texel i is (x[i], y[i], z[i]) inside the image unless outside[i] (border mode: it
 * reads the border colour). Its weight is the product over the filtered dimensions of frac[d]
 * / 256 (the upper texel in d) or (256 - frac[d]) / 256 (the lower one). */
typedef struct mem_tex_footprint {
    uint32_t count;
    uint32_t dims;     /* 1, 2 or 3 filtered dimensions */
    int32_t x[MEM_TEX_MAX_FOOTPRINT], y[MEM_TEX_MAX_FOOTPRINT], z[MEM_TEX_MAX_FOOTPRINT];
    uint8_t outside[MEM_TEX_MAX_FOOTPRINT];
    uint16_t frac[3];  /* the per-dimension weight of the upper texel, 0..256 */
} mem_tex_footprint;

/* The footprint of coordinates c[0..dims-1] (texel units, or normalized when s->normalized;
 * `integer` 1: the coordinates are integer texel indices, which point-sample whatever the
 * filter) in image `img` (sizes width, height, depth for dimensions 0, 1, 2). `gather` 1: the
 * 2x2 footprint of tld4 (linear in two dimensions, whatever the filter). Texel order: x fastest,
 * then y, then z, lower index first. */
void mem_tex_footprint_of(const mem_sampler *s, const mem_image_desc *img, uint32_t dims,
                          const float *c, const int32_t *ci, int integer, int gather,
                          mem_tex_footprint *fp);

/* One texel's channels as the read mode returns them: floats (`as_float` 1: float formats, a
 * normalized-float read, or an integer read into a float result) or 32-bit integers (sign- or
 * zero-extended by the kind), with missing channels filled as CUDA does: 0 for the second and
 * third, 1 (1.0f as a float) for the fourth. `raw` holds texel bytes in the image's format;
 * NULL reads the border colour. Returns the four channels as 32-bit patterns in out[]. */
void mem_tex_decode(const mem_sampler *s, const mem_image_desc *img, const uint8_t *raw,
                    int as_float, uint32_t out[4]);

/* The filtered value: sum over the footprint of weight * texel, per channel, in float (texels
 * decoded as floats, bit patterns in t[i][c]). Returns the four channels as float bit patterns
 * in out[]. */
void mem_tex_blend(const mem_tex_footprint *fp, const uint32_t t[][4], uint32_t out[4]);

/* The samplers of one memory system: index i + 1 is samplers[i]. */
typedef struct mem_sampler_table {
    mem_sampler *samplers; /* owned */
    uint32_t count, cap;
} mem_sampler_table;

void mem_sampler_table_init(mem_sampler_table *t);
void mem_sampler_table_fini(mem_sampler_table *t);
/* Appends a copy of *s and returns its index (1..MEM_TEX_MAX_SAMPLER); 0 when out of memory or
 * the table is full. */
uint32_t mem_sampler_table_add(mem_sampler_table *t, const mem_sampler *s);
/* The sampler of `index`, or NULL when none has it (never added, or removed). */
const mem_sampler *mem_sampler_table_get(const mem_sampler_table *t, uint64_t index);
/* Removes the sampler of `index`: the index names none from then on and is not reused. Indices
 * that name none are ignored. */
void mem_sampler_table_remove(mem_sampler_table *t, uint64_t index);

#endif
