// Device management and errors: the device count, properties filled from the preset (the
// a100, which the check file's run selects with --gpu: its name, compute capability and SMs),
// attributes, memory info, cudaMemset, a launch with too many threads (cudaErrorInvalidConfiguration, which
// cudaPeekAtLastError keeps and cudaGetLastError clears), error names and strings, and
// cudaDeviceReset.
#include <cctype>
#include <cstring>
#include "rt_check.h"

__global__ void fill(unsigned char *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

int main()
{
    int count = 0, dev = -1, cc_major = 0, sms = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count >= 1, "device count %d", count);
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    EXPECT(dev == 0, "device %d", dev);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device_info: %s, sm_%d%d, %d SMs, %d bytes of L2\n", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount, prop.l2CacheSize);
    char lower[sizeof prop.name];
    for (size_t i = 0; i < sizeof lower; i++)
        lower[i] = (char)std::tolower((unsigned char)prop.name[i]);
    EXPECT(std::strstr(lower, "a100") != nullptr, "the a100 preset's name, got %s", prop.name);
    EXPECT(prop.major == 8 && prop.minor == 0, "compute capability 8.0");
    EXPECT(prop.multiProcessorCount == 108, "108 SMs, got %d", prop.multiProcessorCount);
    EXPECT(prop.warpSize == 32, "warp size %d", prop.warpSize);
    CHECK(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(cc_major == 8 && sms == 108, "attributes %d %d", cc_major, sms);
    size_t free_bytes = 0, total_bytes = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    EXPECT(total_bytes > 0 && free_bytes <= total_bytes, "memory %zu of %zu", free_bytes,
           total_bytes);

    const int n = 1000;
    unsigned char *p, h[n];
    CHECK(cudaMalloc(&p, n));
    CHECK(cudaMemset(p, 0x41, n));
    fill<<<1, 2048>>>(p, n); // more threads than a CTA may have
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration, "peek: %s",
           cudaGetErrorName(cudaPeekAtLastError()));
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration, "the error is still there");
    EXPECT(cudaGetLastError() == cudaSuccess, "cudaGetLastError cleared it");
    fill<<<(n + 255) / 256, 256>>>(p, n);
    CHECK(cudaMemcpy(h, p, n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 0x42, "p[%d] = %#x", i, h[i]);
    EXPECT(std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0,
           "the name of error 700");
    EXPECT(std::strcmp(cudaGetErrorName(cudaErrorNotSupported), "cudaErrorNotSupported") == 0,
           "the name of error 801");
    EXPECT(cudaFree(nullptr) == cudaSuccess, "cudaFree(NULL) does nothing");
    CHECK(cudaFree(p));
    CHECK(cudaDeviceReset());
    std::printf("device_info: ok\n");
    return 0;
}
