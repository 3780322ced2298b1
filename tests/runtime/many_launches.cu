// A host loop of many launches (issue 14, "Tests"): 200 launches of one kernel, each adding its
// launch number to every element, with the array copied back every 50 launches to check the
// running sum. The check file counts the launches in the report.
#include "rt_check.h"

__global__ void add_step(int *x, int n, int step)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += step + (i & 7);
}

int main()
{
    const int n = 1000, launches = 200;
    int *d = nullptr, h[n];
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemset(d, 0, n * sizeof(int)));
    long long steps = 0;
    for (int k = 1; k <= launches; k++) {
        add_step<<<(n + 255) / 256, 256>>>(d, n, k);
        CHECK(cudaGetLastError());
        steps += k;
        if (k % 50 == 0) {
            CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
            for (int i = 0; i < n; i++)
                EXPECT(h[i] == steps + (long long)k * (i & 7), "x[%d] = %d after %d launches", i,
                       h[i], k);
        }
    }
    CHECK(cudaFree(d));
    std::printf("many_launches: %d launches ok\n", launches);
    return 0;
}
