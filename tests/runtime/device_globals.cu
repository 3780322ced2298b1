// __device__ globals written by kernels and read back: a counter incremented with atomics, an
// array found with cudaGetSymbolAddress and copied with cudaMemcpy, and a value kept from one
// launch to the next.
#include "rt_check.h"

__device__ unsigned long long hits;
__device__ int squares[256];
__device__ int generation = 41;

__global__ void count(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&hits, 1ULL);
        squares[i % 256] = (i % 256) * (i % 256);
    }
    if (i == 0)
        generation++;
}

int main()
{
    const int n = 1000;
    unsigned long long zero = 0, got = 0;
    CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));
    count<<<(n + 127) / 128, 128>>>(n);
    CHECK(cudaGetLastError());
    count<<<(n + 127) / 128, 128>>>(n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpyFromSymbol(&got, hits, sizeof got));
    EXPECT(got == 2ULL * n, "hits = %llu", got);
    int *sq = nullptr, h[256], gen = 0;
    CHECK(cudaGetSymbolAddress((void **)&sq, squares));
    CHECK(cudaMemcpy(h, sq, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++)
        EXPECT(h[i] == i * i, "squares[%d] = %d", i, h[i]);
    CHECK(cudaMemcpyFromSymbol(&gen, generation, sizeof gen));
    EXPECT(gen == 43, "generation = %d (initialised to 41, two launches)", gen);
    std::printf("device_globals: ok\n");
    return 0;
}
