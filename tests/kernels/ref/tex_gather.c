/* Reference for tex_gather. A gather returns, unblended, the four texels that bilinear
 * filtering at (x, y) would blend: with i = floor(x - 0.5) and j = floor(y - 0.5) (each index
 * then clamped to the image), the result is (T[i, j+1], T[i+1, j+1], T[i+1, j], T[i, j]) — the
 * order of OpenGL's textureGather and Direct3D's gather4 (counter-clockwise from the texel below
 * and left of the sample point), which PTX tld4 follows (docs/images.md, "Textures"). */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static float texel(const float *t, int w, int h, int x, int y)
{
    return t[(size_t)clampi(y, h) * (size_t)w + (size_t)clampi(x, w)];
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: tex_gather LAUNCH.json");
    ref_open(argv[1]);
    enum { W = 10, H = 7, N = 160 };
    ref_require(ref_arg_int(0, 2) == N, "the launch file's sizes");
    float *img = ref_input("img", "f32", W * H);
    float out[4 * N];
    int edge = 0;
    for (int k = 0; k < N; ++k) {
        /* the kernel's coordinates: nvcc contracts each into one fma.rn.f32 */
        float x = fmaf((float)(k % 16), 0.8f, -1.3f), y = fmaf((float)(k / 16), 0.6f, -0.7f);
        int i = (int)floorf(x - 0.5f), j = (int)floorf(y - 0.5f);
        edge += i < 0 || j < 0 || i + 1 >= W || j + 1 >= H;
        out[4 * k + 0] = texel(img, W, H, i, j + 1);
        out[4 * k + 1] = texel(img, W, H, i + 1, j + 1);
        out[4 * k + 2] = texel(img, W, H, i + 1, j);
        out[4 * k + 3] = texel(img, W, H, i, j);
    }
    ref_require(edge > 0, "some footprints clamp at an edge");
    ref_write_expected("out", out, sizeof out);
    free(img);
    return 0;
}
