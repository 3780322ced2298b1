/* Plain C references of the OpenCL C kernels under tests/visa/ocl/ (their .cl files): computes
 * each kernel's outputs for the inputs its launch files give (iota and fill initialisers,
 * docs/launch-files.md) and writes them as <kernel>/<buffer>.expected.bin under the folder named
 * by argv[1]. The test run.visa.reference rebuilds them and compares with the committed files. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *out_dir;

static int save(const char *kernel, const char *buffer, const void *data, size_t bytes)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s.expected.bin", out_dir, kernel, buffer);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, bytes, f) != bytes) {
        fprintf(stderr, "reference: cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

/* vadd: a = iota(0, 1), b = iota(1000, -1) as f32, n = 1000, 1024 work-items. */
static int vadd(void)
{
    static float c[1024];
    for (int i = 0; i < 1000; i++)
        c[i] = (float)i + (float)(1000 - i);
    return save("vadd", "c", c, sizeof c);
}

/* saxpy: alpha = 2.5, x = iota(0, 0.5), y = iota(1, 1), n = 1000, 1024 work-items. */
static int saxpy(void)
{
    static float y[1024];
    for (int i = 0; i < 1024; i++) {
        float x = (float)i * 0.5f, y0 = 1.0f + (float)i;
        y[i] = i < 1000 ? 2.5f * x + y0 : y0;
    }
    return save("saxpy", "y", y, sizeof y);
}

/* slm_reduce: in = iota(0, 1) as i32, 256 work-items in work-groups of 64. */
static int slm_reduce(void)
{
    int32_t out[4] = {0};
    for (int i = 0; i < 256; i++)
        out[i / 64] += i;
    return save("slm_reduce", "out", out, sizeof out);
}

/* atomics: in = iota(0, 7) as u32, 256 work-items in work-groups of 64; maxv starts at 0. */
static int atomics(void)
{
    uint32_t hist[16] = {0};
    int32_t maxv = 0;
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t v = i * 7;
        hist[v & 15]++;
        if ((int32_t)v > maxv)
            maxv = (int32_t)v;
    }
    return save("atomics", "hist", hist, sizeof hist) | save("atomics", "maxv", &maxv, 4);
}

/* counter: in = iota(0, 1), 256 work-items: the odd values are appended; only the count is
 * fixed (the order of the appended values is that of the atomics). */
static int counter(void)
{
    int32_t count = 0;
    for (int i = 0; i < 256; i++)
        count += i & 1;
    return save("counter", "count", &count, 4);
}

/* stencil2d: a 64 x 16 grid, in = iota(0, 0.25) as f32 (every value and sum below is exact). */
static int stencil2d(void)
{
    enum { W = 64, H = 16 };
    static float in[W * H], out[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = (float)i * 0.25f;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                out[i] = in[i];
            else
                out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - W] + in[i + W]);
        }
    return save("stencil2d", "out", out, sizeof out);
}

/* fence_flag: 256 work-items in work-groups of 64. */
static int fence_flag(void)
{
    int32_t data[4], flag[4], out[256];
    for (int g = 0; g < 4; g++)
        data[g] = g * 7 + 1, flag[g] = 1;
    for (int i = 0; i < 256; i++)
        out[i] = data[i / 64] + flag[i / 64];
    return save("fence_flag", "data", data, sizeof data) | save("fence_flag", "flag", flag, sizeof flag) |
           save("fence_flag", "out", out, sizeof out);
}

/* int64: in = iota(1, 3) as u64, seed 0x123456789, 256 work-items. */
static int int64(void)
{
    uint64_t out[256];
    for (uint64_t i = 0; i < 256; i++) {
        uint64_t v = (1 + 3 * i) ^ UINT64_C(0x123456789);
        v = v * UINT64_C(0x9E3779B97F4A7C15);
        v ^= v >> 29;
        v += i << 32;
        out[i] = v;
    }
    return save("int64", "out", out, sizeof out);
}

/* local_reduce: in = iota(0, 1) as f32, 256 work-items in work-groups of 64, the scratch and
 * `twice` 256-byte __local arguments after the static 256-byte array `first` (all ones); each
 * work-group's sum plus twice its last input plus one (exact in f32: all below 2^24). */
static int local_reduce(void)
{
    float out[4] = {0};
    for (int i = 0; i < 256; i++)
        out[i / 64] += (float)i;
    for (int g = 0; g < 4; g++)
        out[g] += 2.0f * (float)(64 * g + 63) + 1.0f;
    return save("local_reduce", "out", out, sizeof out);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: reference OUT_DIR\n");
        return 2;
    }
    out_dir = argv[1];
    return vadd() | saxpy() | slm_reduce() | atomics() | counter() | stencil2d() | fence_flag() |
           int64() | local_reduce();
}
