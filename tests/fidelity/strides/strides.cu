// Strided L1 throughput (docs/timing.md, "Validation"; gpu-figures.md §9 "Strided L1
// throughput"): every warp of one CTA loads 32 floats whose word addresses are lane * stride,
// 16 loads per loop trip, over and over. All warps read the same few lines, so after the first
// trip every load hits L1 and the SM's L1 throughput (bank conflicts, tag lookups) sets the pace:
// cycles per warp load instruction. A trip issues its 16 loads first and then the adds that
// consume them (which keep them alive), as ptxas schedules such a loop and as gpu-strides'
// kernel runs: the loads are independent, so a warp does not wait for one load's data before it
// issues the next, and the figure is the L1's throughput, not its latency.

extern "C" __global__ void strided_loads(const float *data, unsigned int stride,
                                         unsigned int trips, float *out)
{
    unsigned int lane = threadIdx.x % 32;
    unsigned long long p = (unsigned long long)__cvta_generic_to_global(data + lane * stride);
    float acc = 0.0f;
    for (unsigned int t = 0; t < trips; t++) {
        float v[16];
#pragma unroll
        for (int u = 0; u < 16; u++)
            asm volatile("ld.global.f32 %0, [%1];" : "=f"(v[u]) : "l"(p));
#pragma unroll
        for (int u = 0; u < 16; u++)
            acc += v[u];
    }
    // With data[i] = i, acc is 16 * trips * lane * stride exactly (below 2^24 for trips <= 1024
    // and stride <= 33), so every thread writes 0 when every load read its own word.
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        acc - (float)(16 * trips) * (float)(lane * stride);
}
