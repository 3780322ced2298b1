// Device printf from a few threads: every 20th thread prints its element, then lane 0 of every
// warp prints the warp's sum (computed with __shfl_xor_sync) in several formats.
#include <cstdio>

__global__ void printf_warp_sums(const int *__restrict__ data, int *warp_sums)
{
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int value = data[gid];
    if (tid % 20 == 0)
        printf("block %d thread %d value %d\n", blockIdx.x, tid, value);

    int sum = value;
    for (int mask = 16; mask > 0; mask >>= 1)
        sum += __shfl_xor_sync(0xffffffffu, sum, mask);

    if ((tid & 31) == 0) {
        int warp = gid >> 5;
        warp_sums[warp] = sum;
        long long scaled = (long long)sum * 1000000007LL;
        printf("block %u warp %u sum %d hex %08x mean %.3f scaled %lld\n", blockIdx.x, tid >> 5,
               sum, (unsigned int)sum, sum / 32.0f, scaled);
    }
}
