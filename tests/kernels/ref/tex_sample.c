/* Reference for tex_sample. Texture fetching as the CUDA Programming Guide's appendix "Texture
 * Fetching" defines it, for unnormalized coordinates and clamp addressing:
 *   point:  T[clamp(floor(x))][clamp(floor(y))];
 *   linear: with xB = x - 0.5, yB = y - 0.5, i = floor(xB), j = floor(yB), a = frac(xB),
 *           b = frac(yB): (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a)b T[i,j+1] + ab T[i+1,j+1],
 *           each index clamped, where a and b are held in 9-bit fixed point with 8 fractional
 *           bits (here: rounded to the nearest 1/256) and the sum is computed in f32 in that
 *           order (the hardware's own rounding of the blend is not modelled beyond that).
 * tex1Dfetch reads texel (i * 7) % len of the buffer image. The stale kernel returns the texel's
 * value before the kernel twice, and leaves -1 in every texel of the image. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static float texel(const float *t, int w, int h, int x, int y)
{
    return t[(size_t)clampi(y, h) * (size_t)w + (size_t)clampi(x, w)];
}

/* The 9-bit fixed-point weight of a fraction in [0, 1): a multiple of 1/256 in [0, 1]. */
static float weight(float frac) { return (float)(nearbyint((double)frac * 256.0) / 256.0); }

static float linear(const float *t, int w, int h, float x, float y)
{
    float xb = x - 0.5f, yb = y - 0.5f;
    float fi = floorf(xb), fj = floorf(yb);
    int i = (int)fi, j = (int)fj;
    float a = weight(xb - fi), b = weight(yb - fj);
    float r = (1.0f - a) * (1.0f - b) * texel(t, w, h, i, j);
    r += a * (1.0f - b) * texel(t, w, h, i + 1, j);
    r += (1.0f - a) * b * texel(t, w, h, i, j + 1);
    r += a * b * texel(t, w, h, i + 1, j + 1);
    return r;
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: tex_sample LAUNCH.json");
    ref_open(argv[1]);
    enum { W = 12, H = 9, N = 400, FETCHES = 64, LEN = 50, SW = 16, SH = 6 };
    ref_require(ref_arg_int(0, 4) == N && ref_arg_int(1, 2) == FETCHES &&
                ref_arg_int(1, 3) == LEN && ref_arg_int(2, 3) == SW && ref_arg_int(2, 4) == SH,
                "the launch file's sizes");
    float *img = ref_input("img", "f32", W * H);
    int32_t *buf = ref_input("buf", "i32", LEN);
    float *st = ref_input("st", "f32", SW * SH);
    float out_point[N], out_linear[N], out_stale[2 * SW * SH];
    int32_t out_fetch[FETCHES];
    int outside = 0, inexact = 0;
    for (int i = 0; i < N; ++i) {
        /* the kernel's coordinates: nvcc contracts each into one fma.rn.f32 */
        float x = fmaf((float)(i % 20), 0.7f, -0.9f), y = fmaf((float)(i / 20), 0.55f, -0.35f);
        outside += x < 0.0f || y < 0.0f || x >= W || y >= H;
        float fx = x - 0.5f - floorf(x - 0.5f);
        inexact += weight(fx) != fx;
        out_point[i] = texel(img, W, H, (int)floorf(x), (int)floorf(y));
        out_linear[i] = linear(img, W, H, x, y);
    }
    ref_require(outside > 0 && inexact > 0, "some coordinates clamp and some weights round");
    for (int i = 0; i < FETCHES; ++i)
        out_fetch[i] = buf[(i * 7) % LEN];
    for (int k = 0; k < SW * SH; ++k) {
        out_stale[2 * k] = out_stale[2 * k + 1] = st[k];
        st[k] = -1.0f;
    }
    ref_write_expected("out_point", out_point, sizeof out_point);
    ref_write_expected("out_linear", out_linear, sizeof out_linear);
    ref_write_expected("out_fetch", out_fetch, sizeof out_fetch);
    ref_write_expected("out_stale", out_stale, sizeof out_stale);
    ref_write_expected("st", st, SW * SH * sizeof *st);
    free(img);
    free(buf);
    free(st);
    return 0;
}
