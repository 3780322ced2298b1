// An access-policy window that changes DRAM traffic (docs/cache-hints.md, "The persisting
// set-aside and access-policy windows"): each of 4 launches reads a 512 KiB hot table and then
// streams 4 MiB through an L2 of 2 MiB (tests/runtime/small_l2.json). With the argument
// `window` the hot table is a persisting window of the stream (cudaStreamSetAttribute) inside a
// persisting set-aside (cudaDeviceSetLimit), so it stays in the L2 from launch to launch; with
// `none` the stream evicts it each time. The check file compares the DRAM reads of both runs.
#include <cstring>
#include "rt_check.h"

__global__ void sum_both(float *out, const float *hot, int hot_n, const float *stream, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int k = i; k < hot_n; k += stride)
        acc += hot[k];
    for (int k = i; k < n; k += stride)
        acc += stream[k];
    out[i] = acc;
}

int main(int argc, char **argv)
{
    const int hot_n = 128 * 1024, n = 1024 * 1024, threads = 256, blocks = 64;
    const int total = threads * blocks;
    bool window = argc > 1 && std::strcmp(argv[1], "window") == 0;
    float *hot, *stream, *out;
    CHECK(cudaMalloc(&hot, hot_n * sizeof(float)));
    CHECK(cudaMalloc(&stream, n * sizeof(float)));
    CHECK(cudaMalloc(&out, total * sizeof(float)));
    static float ones[1024 * 1024];
    for (int i = 0; i < n; i++)
        ones[i] = 1.0f; // each thread sums hot_n / total + n / total ones: exact in a float
    CHECK(cudaMemcpy(hot, ones, hot_n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(stream, ones, n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    if (window) {
        CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1024 * 1024));
        cudaStreamAttrValue attr = {};
        attr.accessPolicyWindow.base_ptr = hot;
        attr.accessPolicyWindow.num_bytes = hot_n * sizeof(float);
        attr.accessPolicyWindow.hitRatio = 1.0f;
        attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
    }
    for (int k = 0; k < 4; k++) {
        sum_both<<<blocks, threads, 0, s>>>(out, hot, hot_n, stream, n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaStreamSynchronize(s));
    static float back[threads * blocks];
    CHECK(cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < total; i++)
        EXPECT(back[i] == (float)(hot_n / total + n / total), "out[%d] = %g", i, back[i]);
    if (window)
        CHECK(cudaCtxResetPersistingL2Cache());
    CHECK(cudaStreamDestroy(s));
    std::printf("access_policy: %s ok\n", window ? "window" : "none");
    return 0;
}
