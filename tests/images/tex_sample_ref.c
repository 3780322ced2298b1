/* The reference of tex_sample.check: what tex_sample (tex_sample.ptx) writes for the 8x4 f32
 * image of texels y * 8 + x read through the point texture (clamp, clamp) and the linear texture
 * (clamp, border with border colour 100) of tex_sample.json, computed from docs/images.md's
 * sampler rules (linear: x' = x - 0.5, weights frac(x') rounded to 1/256). Every weight is k/256
 * and every texel a small integer, so the sums are exact in any order.
 * Build and run: cc -std=c11 -ffp-contract=off tex_sample_ref.c -lm && ./a.out
 * (writes tex_sample_point.expected.bin and tex_sample_linear.expected.bin, 64 f32 each). */
#include <math.h>
#include <stdio.h>

enum { W = 8, H = 4, THREADS = 64 };

static float texel(long x, long y, int border_y)
{
    x = x < 0 ? 0 : x >= W ? W - 1 : x; /* clamp */
    if (border_y && (y < 0 || y >= H))
        return 100.0f;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return (float)(y * W + x);
}

static float linear(float fx, float fy)
{
    double x = (double)fx - 0.5, y = (double)fy - 0.5;
    double bx = floor(x), by = floor(y);
    long ax = lround((x - bx) * 256), ay = lround((y - by) * 256);
    float sum = 0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            float w = (float)(i ? ax : 256 - ax) / 256 * ((float)(j ? ay : 256 - ay) / 256);
            sum += w * texel((long)bx + i, (long)by + j, 1);
        }
    return sum;
}

static int write(const char *path, const float *v)
{
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(v, sizeof *v, THREADS, f) != THREADS;
    return (f && fclose(f)) || bad;
}

int main(void)
{
    float point[THREADS], lin[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
        float fx = (float)(t % 16) * 0.55f + -0.3f, fy = (float)(t / 16) * 1.15f + -0.3f;
        point[t] = texel((long)floorf(fx), (long)floorf(fy), 0);
        lin[t] = linear(fx, fy);
    }
    return write("tex_sample_point.expected.bin", point) ||
           write("tex_sample_linear.expected.bin", lin);
}
