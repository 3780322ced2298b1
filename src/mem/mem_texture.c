/* The sampler model: address modes, point and linear footprints with 8-bit-fraction weights,
 * texel decoding by read mode, blending, and the sampler table (mem_texture.h; docs/images.md,
 * "Textures"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem_texture.h"

const char *mem_sampler_check(const mem_sampler *s, const mem_image_desc *img)
{
    for (unsigned d = 0; d < 3; d++)
        if (s->address[d] > MEM_TEX_BORDER)
            return "address modes must be wrap, clamp, mirror or border";
    if (s->filter > MEM_TEX_LINEAR || s->read > MEM_TEX_NORMALIZED_FLOAT || s->normalized > 1 ||
        s->mip_filter > MEM_TEX_LINEAR)
        return "filter must be point or linear, read element or normalized_float";
    int integer = img->kind != MEM_IMAGE_FLOAT;
    if (s->read == MEM_TEX_NORMALIZED_FLOAT && integer && img->bits == 32)
        return "normalized_float reads need 8- or 16-bit integer texels";
    if ((s->filter == MEM_TEX_LINEAR || s->mip_filter == MEM_TEX_LINEAR) && integer &&
        s->read == MEM_TEX_ELEMENT)
        return "linear filtering needs float texels or a normalized_float read";
    if (!(s->min_lod <= s->max_lod) || s->lod_bias != s->lod_bias)
        return "the minimum level clamp is above the maximum, or a level value is NaN";
    return NULL;
}

/* Texel index i of a dimension of n texels under address mode `mode`: 1 when it falls outside
 * (border), else 0 with *i moved inside. Wrap and mirror repeat the image every n (wrap) or 2n
 * (mirror, the odd copies reversed) texels; they need normalized coordinates, and without them
 * act as clamp, as CUDA supports them only for normalized coordinates. */
static int address(int64_t *i, int64_t n, uint8_t mode, int normalized)
{
    if (!normalized && (mode == MEM_TEX_WRAP || mode == MEM_TEX_MIRROR))
        mode = MEM_TEX_CLAMP;
    switch (mode) {
    case MEM_TEX_WRAP: *i = ((*i % n) + n) % n; return 0;
    case MEM_TEX_MIRROR: {
        int64_t m = ((*i % (2 * n)) + 2 * n) % (2 * n);
        *i = m < n ? m : 2 * n - 1 - m;
        return 0;
    }
    case MEM_TEX_BORDER: return *i < 0 || *i >= n;
    default: *i = *i < 0 ? 0 : *i >= n ? n - 1 : *i; return 0;
    }
}

/* A float coordinate's texel index and upper weight along one dimension of n texels: point:
 * floor(x); linear: floor(x - 0.5) and frac(x - 0.5) rounded to 8 fractional bits (the texel
 * centre is at +0.5). NaN reads texel 0; huge values saturate. */
static int64_t locate(float c, int64_t n, int normalized, int linear, uint16_t *frac)
{
    double x = normalized ? (double)c * (double)n : (double)c;
    if (x != x)
        x = 0;
    if (linear)
        x -= 0.5;
    if (x < -4e18)
        x = -4e18;
    if (x > 4e18)
        x = 4e18;
    double f = floor(x);
    *frac = linear ? (uint16_t)lround((x - f) * MEM_TEX_WEIGHT_ONE) : 0;
    return (int64_t)f;
}

void mem_tex_footprint_of(const mem_sampler *s, const mem_image_desc *img, uint32_t dims,
                          const float *c, const int32_t *ci, int integer, int gather,
                          mem_tex_footprint *fp)
{
    const int64_t size[3] = {img->width, img->height, img->depth};
    int linear = !integer && (gather || s->filter == MEM_TEX_LINEAR);
    int64_t base[3] = {0, 0, 0};
    memset(fp, 0, sizeof *fp);
    fp->dims = dims;
    for (uint32_t d = 0; d < dims; d++)
        base[d] = integer ? ci[d] : locate(c[d], size[d], s->normalized, linear, &fp->frac[d]);
    fp->count = linear ? 1u << dims : 1;
    for (uint32_t t = 0; t < fp->count; t++) {
        int64_t at[3] = {base[0], base[1], base[2]};
        int out = 0;
        for (uint32_t d = 0; d < dims; d++) {
            at[d] += (t >> d) & 1u;
            out |= address(&at[d], size[d], s->address[d], s->normalized && !integer);
        }
        fp->x[t] = (int32_t)at[0];
        fp->y[t] = (int32_t)at[1];
        fp->z[t] = (int32_t)at[2];
        fp->outside[t] = (uint8_t)out;
    }
}

/* IEEE half to float, exactly. */
static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    float v = e == 0 ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(m | 0x400), e - 25);
    return (h & 0x8000) ? -v : v;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Channel `ch` of a texel as float or integer bits by the read mode. */
static uint32_t channel(const mem_sampler *s, const mem_image_desc *img, const uint8_t *raw,
                        unsigned ch, int as_float)
{
    unsigned bytes = img->bits / 8;
    uint32_t u = 0;
    memcpy(&u, raw + ch * bytes, bytes);
    if (img->kind == MEM_IMAGE_FLOAT)
        return bytes == 2 ? float_bits(half_to_float((uint16_t)u)) : u;
    int32_t v = (int32_t)u;
    if (img->kind == MEM_IMAGE_SIGNED && bytes < 4)
        v = bytes == 1 ? (int8_t)u : (int16_t)u;
    if (s->read == MEM_TEX_NORMALIZED_FLOAT && bytes < 4) {
        /* Unsigned to [0, 1], signed to [-1, 1]: the most negative value clamps to -1. */
        float max = bytes == 1 ? (img->kind == MEM_IMAGE_SIGNED ? 127.0f : 255.0f)
                               : (img->kind == MEM_IMAGE_SIGNED ? 32767.0f : 65535.0f);
        float f = (img->kind == MEM_IMAGE_SIGNED ? (float)v : (float)u) / max;
        return float_bits(f < -1.0f ? -1.0f : f);
    }
    if (as_float)
        return float_bits(img->kind == MEM_IMAGE_SIGNED ? (float)v : (float)u);
    return (uint32_t)v;
}

void mem_tex_decode(const mem_sampler *s, const mem_image_desc *img, const uint8_t *raw,
                    int as_float, uint32_t out[4])
{
    for (unsigned ch = 0; ch < 4; ch++) {
        if (!raw) /* the border colour: floats, or their integer values for integer reads */
            out[ch] = as_float ? float_bits(s->border[ch]) : (uint32_t)(int32_t)s->border[ch];
        else if (ch < img->channels)
            out[ch] = channel(s, img, raw, ch, as_float);
        else
            out[ch] = ch < 3 ? 0 : as_float ? float_bits(1.0f) : 1;
    }
}

void mem_tex_blend(const mem_tex_footprint *fp, const uint32_t t[][4], uint32_t out[4])
{
    float sum[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < fp->count; i++) {
        float w = 1.0f;
        for (uint32_t d = 0; d < fp->dims && fp->count > 1; d++) {
            unsigned upper = (i >> d) & 1u;
            w *= (float)(upper ? fp->frac[d] : MEM_TEX_WEIGHT_ONE - fp->frac[d]) /
                 MEM_TEX_WEIGHT_ONE;
        }
        for (unsigned ch = 0; ch < 4; ch++) sum[ch] += w * bits_float(t[i][ch]);
    }
    for (unsigned ch = 0; ch < 4; ch++) out[ch] = float_bits(sum[ch]);
}

float mem_tex_lod_of_gradients(const mem_sampler *s, const mem_image_desc *img, uint32_t dims,
                               const float *dx, const float *dy)
{
    const double size[3] = {img->width, img->height, img->depth};
    double lx = 0, ly = 0;
    for (uint32_t d = 0; d < dims && d < 3; d++) {
        double scale = s->normalized ? size[d] : 1.0;
        lx += (double)dx[d] * scale * ((double)dx[d] * scale);
        ly += (double)dy[d] * scale * ((double)dy[d] * scale);
    }
    double rho2 = lx > ly ? lx : ly; /* a NaN derivative gives NaN, which reads level 0 */
    if (rho2 == 0)
        return -INFINITY;
    return (float)(0.5 * log2(rho2));
}

void mem_tex_select_levels(const mem_sampler *s, const mem_image_desc *img, float lod,
                           mem_tex_lod *out)
{
    double top = img->levels > 1 ? img->levels - 1 : 0;
    double l = (double)lod + (double)s->lod_bias;
    if (l != l)
        l = 0;
    l = l < s->min_lod ? s->min_lod : l > s->max_lod ? s->max_lod : l;
    l = l < 0 ? 0 : l > top ? top : l;
    memset(out, 0, sizeof *out);
    out->count = 1;
    if (s->mip_filter == MEM_TEX_POINT) {
        out->level[0] = (uint32_t)ceil(l - 0.5); /* nearest, a tie to the finer level */
        return;
    }
    double f = floor(l);
    long frac = lround((l - f) * MEM_TEX_WEIGHT_ONE);
    out->level[0] = (uint32_t)f;
    if (frac == MEM_TEX_WEIGHT_ONE) { /* rounds up to the next level exactly */
        out->level[0]++;
        frac = 0;
    }
    if (frac) {
        out->count = 2;
        out->level[1] = out->level[0] + 1;
        out->frac = (uint16_t)frac;
    }
}

void mem_tex_cube_face(const float dir[3], uint32_t *face, float uv[2])
{
    float x = dir[0], y = dir[1], z = dir[2];
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
    if (az >= ax && az >= ay) {
        *face = z >= 0 ? 4 : 5;
        m = az, sc = z >= 0 ? x : -x, tc = -y;
    } else if (ay >= ax) {
        *face = y >= 0 ? 2 : 3;
        m = ay, sc = x, tc = y >= 0 ? z : -z;
    } else {
        *face = x >= 0 ? 0 : 1;
        m = ax, sc = x >= 0 ? -z : z, tc = -y;
    }
    if (!(m > 0)) { /* the zero vector (or NaN): the centre of +z */
        *face = 4;
        uv[0] = uv[1] = 0.5f;
        return;
    }
    uv[0] = (sc / m + 1.0f) * 0.5f;
    uv[1] = (tc / m + 1.0f) * 0.5f;
}

void mem_sampler_table_init(mem_sampler_table *t)
{
    memset(t, 0, sizeof *t);
}

void mem_sampler_table_fini(mem_sampler_table *t)
{
    free(t->samplers);
    memset(t, 0, sizeof *t);
}

uint32_t mem_sampler_table_add(mem_sampler_table *t, const mem_sampler *s)
{
    if (t->count >= MEM_TEX_MAX_SAMPLER)
        return 0;
    if (t->count == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 8;
        mem_sampler *n = realloc(t->samplers, cap * sizeof *n);
        if (!n)
            return 0;
        t->samplers = n;
        t->cap = cap;
    }
    t->samplers[t->count++] = *s;
    return t->count;
}

/* A removed entry keeps its place (indices are not reused) with this filter, which no checked
 * sampler has. */
enum { FILTER_REMOVED = 0xFF };

const mem_sampler *mem_sampler_table_get(const mem_sampler_table *t, uint64_t index)
{
    return index >= 1 && index <= t->count && t->samplers[index - 1].filter != FILTER_REMOVED
               ? &t->samplers[index - 1]
               : NULL;
}

void mem_sampler_table_remove(mem_sampler_table *t, uint64_t index)
{
    if (index >= 1 && index <= t->count)
        t->samplers[index - 1].filter = FILTER_REMOVED;
}
