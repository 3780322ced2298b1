/* Reference for tex_mip: mipmapped and cube textures as docs/images.md ("Mipmap levels",
 * "Cube textures") defines them, written out independently of the simulator's code.
 *   Levels: level k of a W x H image is max(W >> k, 1) x max(H >> k, 1); the host data holds
 *   level 0, then level 1, ... (x fastest).
 *   Level of detail: lambda + bias, clamped to [min, max] and to [0, levels - 1]. Point
 *   mipmap filtering reads the nearest level (a tie to the finer one); linear reads floor and
 *   floor + 1 with the fraction rounded to 1/256, blended as (1 - f) a + f b in f32.
 *   Gradients: lambda = log2 of the longer of the two texel-space gradient vectors (each
 *   component times the level-0 size), computed in double.
 *   Within a level: normalized coordinates times the level's size; point reads floor(x);
 *   linear reads floor(x - 0.5) and the next texel with weights rounded to 1/256 and sums the
 *   four weighted texels in f32 in the order (i, j), (i+1, j), (i, j+1), (i+1, j+1).
 *   Cube: the face of the largest magnitude component (+x 0, -x 1, +y 2, -y 3, +z 4, -z 5),
 *   with (s, t) = (-z, -y), (z, -y), (x, z), (x, -z), (x, -y), (-x, -y) and face coordinates
 *   ((s / m + 1) / 2, (t / m + 1) / 2), clamped to the face. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

enum { W = 16, H = 8, LEVELS = 3, N_LOD = 768, N_GRAD = 256, N_CUBE = 75, CW = 4, AW = 3 };
enum { CLAMP, WRAP };

typedef struct level {
    const float *t;
    int w, h;
} level;

static int address(int i, int n, int mode)
{
    if (mode == WRAP)
        return ((i % n) + n) % n;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static float texel(const level *lv, int x, int y, const int mode[2])
{
    return lv->t[(size_t)address(y, lv->h, mode[1]) * (size_t)lv->w + (size_t)address(x, lv->w,
                                                                                       mode[0])];
}

/* One level's filtered value at normalized (u, v). */
static float sample(const level *lv, float u, float v, int linear, const int mode[2])
{
    double x = (double)u * lv->w, y = (double)v * lv->h;
    if (!linear)
        return texel(lv, (int)floor(x), (int)floor(y), mode);
    x -= 0.5;
    y -= 0.5;
    double fx = floor(x), fy = floor(y);
    long a = lround((x - fx) * 256), b = lround((y - fy) * 256);
    int i = (int)fx, j = (int)fy;
    float wa[2] = {(float)(256 - a) / 256, (float)a / 256};
    float wb[2] = {(float)(256 - b) / 256, (float)b / 256};
    float sum = 0.0f;
    for (int k = 0; k < 4; k++) {
        float w = 1.0f;
        w *= wa[k & 1];
        w *= wb[k >> 1];
        sum += w * texel(lv, i + (k & 1), j + (k >> 1), mode);
    }
    return sum;
}

typedef struct sampler {
    int linear, mip_linear, mode[2];
    float bias, min, max;
} sampler;

static int two_levels, clamped_low, clamped_high; /* coverage */

static float sample_lod(const level *lvs, const sampler *s, float u, float v, float lod)
{
    double l = (double)lod + (double)s->bias;
    if (l < s->min) {
        l = s->min;
        clamped_low++;
    } else if (l > s->max) {
        l = s->max;
        clamped_high++;
    }
    l = l < 0 ? 0 : l > LEVELS - 1 ? LEVELS - 1 : l;
    if (!s->mip_linear)
        return sample(&lvs[(int)ceil(l - 0.5)], u, v, s->linear, s->mode);
    double f = floor(l);
    long frac = lround((l - f) * 256);
    int k = (int)f;
    if (frac == 256)
        k++, frac = 0;
    float a = sample(&lvs[k], u, v, s->linear, s->mode);
    if (!frac)
        return a;
    two_levels++;
    float b = sample(&lvs[k + 1], u, v, s->linear, s->mode), w = (float)frac / 256;
    return (1.0f - w) * a + w * b;
}

static float cube_sample(const float *faces, int n, int layer0, float x, float y, float z,
                         int linear)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
    int face;
    if (az >= ax && az >= ay)
        face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
    else if (ay >= ax)
        face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
    else
        face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
    level lv = {faces + (size_t)(layer0 + face) * n * n, n, n};
    const int mode[2] = {CLAMP, CLAMP};
    return sample(&lv, (sc / m + 1.0f) * 0.5f, (tc / m + 1.0f) * 0.5f, linear, mode);
}

/* Trilinear sample of a cube of n^3 texels (x fastest) at normalized (u, v, w), clamped: the
 * eight texels x fastest, then y, then z, each weighed by the product of its three weights. */
static float sample3d(const float *t, int n, float u, float v, float w)
{
    const float c[3] = {u, v, w};
    int base[3];
    float wt[3][2];
    for (int d = 0; d < 3; d++) {
        double x = (double)c[d] * n - 0.5, f = floor(x);
        long a = lround((x - f) * 256);
        base[d] = (int)f;
        wt[d][0] = (float)(256 - a) / 256;
        wt[d][1] = (float)a / 256;
    }
    float sum = 0.0f;
    for (int k = 0; k < 8; k++) {
        int at[3];
        float wk = 1.0f;
        for (int d = 0; d < 3; d++) {
            at[d] = address(base[d] + ((k >> d) & 1), n, CLAMP);
            wk *= wt[d][(k >> d) & 1];
        }
        sum += wk * t[((size_t)at[2] * n + (size_t)at[1]) * n + (size_t)at[0]];
    }
    return sum;
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: tex_mip LAUNCH.json");
    ref_open(argv[1]);
    ref_require(ref_arg_int(0, 4) == N_LOD && ref_arg_int(1, 2) == N_GRAD &&
                ref_arg_int(2, 4) == N_CUBE, "the launch file's sizes");
    float *mip = ref_input("mip", "f32", W * H + (W / 2) * (H / 2) + (W / 4) * (H / 4));
    float *cube = ref_input("cube", "f32", 6 * CW * CW);
    float *cubes = ref_input("cubes", "f32", 12 * AW * AW);
    level lvs[LEVELS] = {{mip, W, H}, {mip + W * H, W / 2, H / 2},
                         {mip + W * H + (W / 2) * (H / 2), W / 4, H / 4}};
    const sampler point = {1, 0, {CLAMP, CLAMP}, 0.25f, 0.0f, 2.0f};
    const sampler linear = {1, 1, {WRAP, CLAMP}, -0.1f, 0.2f, 1.75f};
    const sampler grad = {0, 1, {CLAMP, CLAMP}, 0.0f, 0.0f, 2.0f};
    static float out_point[N_LOD], out_linear[N_LOD], out_grad[N_GRAD], out_cube[N_CUBE],
        out_cubes[N_CUBE];
    for (int i = 0; i < N_LOD; i++) {
        float u = fmaf((float)(i % 16), 0.07f, -0.05f);
        float v = fmaf((float)(i / 16 % 8), 0.13f, 0.02f);
        float lod = fmaf((float)(i / 128), 0.45f, -0.3f);
        out_point[i] = sample_lod(lvs, &point, u, v, lod);
        out_linear[i] = sample_lod(lvs, &linear, u, v, lod);
    }
    ref_require(two_levels > 0 && clamped_low > 0 && clamped_high > 0,
                "some lanes blend two levels and both clamps act");
    int below = 0;
    for (int i = 0; i < N_GRAD; i++) {
        float u = fmaf((float)(i % 8), 0.11f, 0.03f);
        float v = fmaf((float)(i / 8 % 4), 0.21f, 0.05f);
        float g = (float)(i / 32) * 0.02f;
        float dx[2] = {g, g * 0.5f}, dy[2] = {g * -0.25f, g * 1.5f};
        double lx = 0, ly = 0;
        const double size[2] = {W, H};
        for (int d = 0; d < 2; d++) {
            lx += (double)dx[d] * size[d] * ((double)dx[d] * size[d]);
            ly += (double)dy[d] * size[d] * ((double)dy[d] * size[d]);
        }
        double rho2 = lx > ly ? lx : ly;
        float lod = rho2 == 0 ? -INFINITY : (float)(0.5 * log2(rho2));
        below += lod < 0;
        out_grad[i] = sample_lod(lvs, &grad, u, v, lod);
    }
    ref_require(below > 0, "some gradients magnify");
    for (int i = 0; i < N_CUBE; i++) {
        float x = fmaf((float)(i % 5), 0.5f, -1.0f);
        float y = fmaf((float)(i / 5 % 5), 0.45f, -0.9f);
        float z = fmaf((float)(i / 25 % 3), 0.8f, -0.8f);
        if (x == 0.0f && y == 0.0f && z == 0.0f)
            z = 0.25f;
        out_cube[i] = cube_sample(cube, CW, 0, x, y, z, 1);
        out_cubes[i] = cube_sample(cubes, AW, 6 * (i % 2), x, y, z, 0);
    }
    /* txq per level 0..3: width, height, the level count 3, the cube array's 2 cubes; level 3
     * does not exist and reads 0 extents. */
    int32_t out_query[16];
    for (int k = 0; k < 4; k++) {
        out_query[4 * k] = k < LEVELS ? W >> k : 0;
        out_query[4 * k + 1] = k < LEVELS ? H >> k : 0;
        out_query[4 * k + 2] = LEVELS;
        out_query[4 * k + 3] = 2;
    }
    ref_write_expected("out_query", out_query, sizeof out_query);
    /* The volume between its two levels at level of detail 0.5: half of each. */
    enum { VN = 64 };
    float *vol = ref_input("vol", "f32", VN * VN * VN + (VN / 2) * (VN / 2) * (VN / 2));
    float out_volume[32];
    for (int i = 0; i < 32; i++) {
        float v = (float)(2 * i + 1) / 64.0f;
        float a = sample3d(vol, VN, 0.5f, v, 0.5f);
        float b = sample3d(vol + VN * VN * VN, VN / 2, 0.5f, v, 0.5f);
        out_volume[i] = (1.0f - 0.5f) * a + 0.5f * b;
    }
    ref_write_expected("out_volume", out_volume, sizeof out_volume);
    free(vol);
    ref_write_expected("out_point", out_point, sizeof out_point);
    ref_write_expected("out_linear", out_linear, sizeof out_linear);
    ref_write_expected("out_grad", out_grad, sizeof out_grad);
    ref_write_expected("out_cube", out_cube, sizeof out_cube);
    ref_write_expected("out_cubes", out_cubes, sizeof out_cubes);
    free(mip);
    free(cube);
    free(cubes);
    return 0;
}
