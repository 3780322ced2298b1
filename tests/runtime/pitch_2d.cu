// Pitched 2D memory: cudaMallocPitch, cudaMemset over a whole pitched block and cudaMemcpy2D both
// ways; a kernel maps each element of a 37 x 50 float matrix to y - v, row by row, into a second
// pitched allocation.
#include "rt_check.h"

__global__ void negate_rows(float *dst, size_t dpitch, const float *src, size_t spitch, int w,
                            int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        const float *srow = (const float *)((const char *)src + y * spitch);
        float *drow = (float *)((char *)dst + y * dpitch);
        drow[x] = -srow[x] + y;
    }
}

int main()
{
    const int w = 37, h = 50;
    static float host[h][w], back[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            host[y][x] = (float)(y * 100 + x);
    float *src, *dst;
    size_t spitch = 0, dpitch = 0;
    CHECK(cudaMallocPitch((void **)&src, &spitch, w * sizeof(float), h));
    CHECK(cudaMallocPitch((void **)&dst, &dpitch, w * sizeof(float), h));
    EXPECT(spitch >= w * sizeof(float) && spitch % 128 == 0, "pitch %zu", spitch);
    CHECK(cudaMemset(dst, 0, dpitch * h));
    CHECK(cudaMemcpy2D(src, spitch, host, w * sizeof(float), w * sizeof(float), h,
                       cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    negate_rows<<<grid, block>>>(dst, dpitch, src, spitch, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(back, w * sizeof(float), dst, dpitch, w * sizeof(float), h,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            EXPECT(back[y][x] == -host[y][x] + y, "(%d,%d) = %g", x, y, back[y][x]);
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    std::printf("pitch_2d: ok\n");
    return 0;
}
