// A kernel fault seen by the program as cudaErrorIllegalAddress: a store through a pointer far
// outside every allocation. cudaDeviceSynchronize returns the error, and cudaGetLastError
// returns it too (a fault is sticky: the context is lost). The
// program exits 0 only when it saw exactly that error, and prints its name for the check file.
#include "rt_check.h"

__global__ void wild_store(int *p, long long offset)
{
    if (threadIdx.x == 5 && blockIdx.x == 1)
        p[offset] = 42;
}

int main()
{
    int *d;
    CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
    // 256 GiB past the allocation. The launch may report nothing (a GPU finds the fault while
    // the kernel runs, after the launch has returned), so only the synchronisation is checked.
    wild_store<<<2, 32>>>(d, 1LL << 36);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("kernel_fault: cudaDeviceSynchronize returned %s (%d)\n", cudaGetErrorName(e),
                (int)e);
    EXPECT(e == cudaErrorIllegalAddress, "cudaErrorIllegalAddress, got %s", cudaGetErrorName(e));
    cudaError_t last = cudaGetLastError();
    EXPECT(last == cudaErrorIllegalAddress, "cudaGetLastError returns the fault, got %s",
           cudaGetErrorName(last));
    std::printf("kernel_fault: ok\n");
    return 0;
}
