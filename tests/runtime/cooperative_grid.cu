// A cooperative launch with a grid-wide barrier (cudaLaunchCooperativeKernel, cooperative
// groups' grid.sync()): each of 8 CTAs writes its partial sums, the whole grid waits, then every
// CTA reads all partial sums, which only works if the barrier held for the grid.
#include <cooperative_groups.h>
#include "rt_check.h"

namespace cg = cooperative_groups;

__global__ void sum_all(const int *in, int *partial, int *out, int per_block)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int acc;
    if (threadIdx.x == 0)
        acc = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < per_block; i += blockDim.x)
        atomicAdd(&acc, in[blockIdx.x * per_block + i]);
    __syncthreads();
    if (threadIdx.x == 0)
        partial[blockIdx.x] = acc;
    grid.sync();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int b = 0; b < gridDim.x; b++)
            total += partial[b];
        out[blockIdx.x] = total;
    }
}

int main()
{
    const int blocks = 8, per_block = 512, n = blocks * per_block;
    static int h[n];
    int expected = 0, out[blocks];
    for (int i = 0; i < n; i++) {
        h[i] = i % 97;
        expected += h[i];
    }
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    EXPECT(supported == 1, "cooperative launches supported, got %d", supported);
    int *in, *partial, *dout, pb = per_block;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    void *args[] = {&in, &partial, &dout, &pb};
    CHECK(cudaLaunchCooperativeKernel((const void *)sum_all, dim3(blocks), dim3(128), args, 0, 0));
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        EXPECT(out[b] == expected, "CTA %d saw %d, expected %d", b, out[b], expected);
    std::printf("cooperative_grid: ok\n");
    return 0;
}
