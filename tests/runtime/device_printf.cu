// Device printf: each of 2 CTAs of 4 threads prints one line with integers, a float and a
// string; the check file matches the lines in the output. The host checks only that the kernel
// ran, as a CUDA program would.
#include "rt_check.h"

__global__ void hello(float scale)
{
    printf("hello from block %d thread %d: %.2f %s\n", blockIdx.x, threadIdx.x,
           scale * threadIdx.x, threadIdx.x % 2 ? "odd" : "even");
}

int main()
{
    hello<<<2, 4>>>(1.5f);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("device_printf: ok\n");
    return 0;
}
