// Shared-memory figures (docs/timing.md, "Validation"; gpu-figures.md §2 "Shared bank-conflict
// cost" and §9 "Shared-memory conflicts").
//
// smem_conflict_chase: one warp, each lane following a one-word chain in shared memory (the word
// holds its own shared address), so that every step is one ld.shared whose address is the value
// the step before loaded: the latency of a shared load. Lane l uses word (l mod n) * 32 + l / n:
// lanes l / n = b share bank b with n different words, an n-way bank conflict (n = 1: every
// lane its own bank), for any n from 1 to 32.
//
// smem_bandwidth: every warp of one CTA reads 32 consecutive words (one conflict-free wavefront
// of 128 bytes), 16 independent loads per loop trip issued ahead of the adds that consume them
// (as ptxas schedules such a loop): the SM's shared-memory bandwidth in bytes per cycle.
// Outputs are 1 (chase) and 0 (bandwidth) for every thread when every load read the right word.

extern "C" __global__ void smem_conflict_chase(unsigned int n, unsigned int steps,
                                               unsigned int *out)
{
    __shared__ unsigned int words[32 * 32];
    unsigned int lane = threadIdx.x;
    unsigned int word = (lane % n) * 32 + lane / n;
    unsigned int p = (unsigned int)__cvta_generic_to_shared(&words[word]);
    words[word] = p;
    __syncwarp();
    unsigned int start = p;
    for (unsigned int s = 0; s < steps; s += 16) {
#pragma unroll
        for (int u = 0; u < 16; u++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
    }
    // 1 when the chain held: every load returned the lane's own word address.
    out[lane] = p == start ? 1u : 0u;
}

extern "C" __global__ void smem_bandwidth(unsigned int trips, float *out)
{
    __shared__ float words[1024];
    unsigned int t = threadIdx.x;
    words[t] = (float)(t % 32);
    __syncthreads();
    unsigned int p = (unsigned int)__cvta_generic_to_shared(&words[t]);
    float acc = 0.0f;
    for (unsigned int i = 0; i < trips; i++) {
        float v[16];
#pragma unroll
        for (int u = 0; u < 16; u++)
            asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v[u]) : "r"(p));
#pragma unroll
        for (int u = 0; u < 16; u++)
            acc += v[u];
    }
    // 0 when every load returned the warp's own words: acc is 16 * trips * (t % 32), exactly.
    out[blockIdx.x * blockDim.x + t] = acc - (float)(16 * trips) * (float)(t % 32);
}
