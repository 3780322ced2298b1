// Streams and events: two streams each copy their half in, run a kernel and copy it out
// asynchronously from pinned memory; stream 2 waits for an event of stream 1 before a kernel
// that reads stream 1's result. Events are recorded, synchronised and timed (simulated time,
// never negative).
#include "rt_check.h"

__global__ void add_one(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1;
}

__global__ void add_from(int *x, const int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += y[i];
}

int main()
{
    const int n = 2048, half = n / 2;
    int *h, *d;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        h[i] = i;
    cudaStream_t s1, s2;
    cudaEvent_t start, done1, stop;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&done1));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, s1));
    CHECK(cudaMemcpyAsync(d, h, half * sizeof(int), cudaMemcpyHostToDevice, s1));
    CHECK(cudaMemcpyAsync(d + half, h + half, half * sizeof(int), cudaMemcpyHostToDevice, s2));
    add_one<<<half / 256, 256, 0, s1>>>(d, half);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(done1, s1));
    add_one<<<half / 256, 256, 0, s2>>>(d + half, half);
    CHECK(cudaStreamWaitEvent(s2, done1, 0));
    add_from<<<half / 256, 256, 0, s2>>>(d + half, d, half); // needs stream 1's half
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CHECK(cudaEventRecord(stop, s2));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaStreamSynchronize(s1));
    EXPECT(cudaEventQuery(stop) == cudaSuccess, "the stop event is complete");
    for (int i = 0; i < half; i++)
        EXPECT(h[i] == i + 1, "h[%d] = %d", i, h[i]);
    for (int i = half; i < n; i++)
        EXPECT(h[i] == (i + 1) + (i - half + 1), "h[%d] = %d", i, h[i]);
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0.0f, "elapsed %g ms", ms);
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(done1));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    std::printf("streams_events: ok\n");
    return 0;
}
