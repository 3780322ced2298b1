// Managed memory used by pointer from the host and the device: an array from cudaMallocManaged
// filled by the host, doubled by a kernel and read by the host after cudaDeviceSynchronize,
// twice, and a __managed__ variable written by the host and updated by a kernel.
#include "rt_check.h"

__managed__ int total;

__global__ void twice(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= 2;
        atomicAdd(&total, 1);
    }
}

int main()
{
    const int n = 3000;
    int *x = nullptr;
    CHECK(cudaMallocManaged(&x, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        x[i] = i - 7;
    total = 100;
    for (int round = 1; round <= 2; round++) {
        twice<<<(n + 255) / 256, 256>>>(x, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < n; i++)
            EXPECT(x[i] == (i - 7) * (1 << round), "round %d x[%d] = %d", round, i, x[i]);
        EXPECT(total == 100 + round * n, "total = %d after round %d", total, round);
    }
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, x));
    EXPECT(attr.type == cudaMemoryTypeManaged, "a managed pointer's type, got %d", (int)attr.type);
    CHECK(cudaFree(x));
    std::printf("managed_memory: ok\n");
    return 0;
}
