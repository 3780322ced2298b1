// A two-slot producer/consumer pipeline through shared memory synchronised with two pairs of
// mbarriers ("full" and "empty" per slot) and phase parities, and a probe of single-thread
// mbarrier operations whose results are exact.
//
// Pipeline (per block of 128 threads): warp 0 produces, warps 1-3 consume. In round r the
// producer waits until slot r % 2 is empty (parity of the phase before its (r/2)-th use), writes
// 32 values and signals "full"; the consumers wait for that phase, each adds one value of the
// slot to its sum, and arrive on "empty". On sm_90 a round's data is counted in bytes: lane 0's
// arrive carries .expect_tx of 128 bytes and every producer lane reports its 4 bytes with
// mbarrier.complete_tx (before lane 0's expect_tx in lane order, so the tx-count goes negative
// first); the waits are try_wait.parity (the producer's with a suspend-time hint, the
// consumers' through cuda::ptx). On sm_80 "full" simply expects 32 arrivals and the waits poll
// test_wait.parity.
//
// Probe (thread 0 of each block): counts, pending_count of tokens, noComplete arrivals,
// arrive_drop, token and parity waits, inval and a fresh init; ten results per block.
#include <cuda/ptx>
#include <stdint.h>

static __device__ __forceinline__ uint32_t smem(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void mb_init(uint64_t *b, uint32_t count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(b)), "r"(count) : "memory");
}

static __device__ __forceinline__ uint64_t mb_arrive_nc(uint64_t *b, uint32_t count)
{
    uint64_t t;
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;"
                 : "=l"(t) : "r"(smem(b)), "r"(count) : "memory");
    return t;
}

static __device__ __forceinline__ uint64_t mb_arrive(uint64_t *b)
{
    uint64_t t;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(t) : "r"(smem(b)) : "memory");
    return t;
}

static __device__ __forceinline__ uint32_t mb_pending(uint64_t t)
{
    uint32_t n;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n) : "l"(t));
    return n;
}

static __device__ __forceinline__ uint32_t mb_test(uint64_t *b, uint64_t t)
{
    uint32_t done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(b)), "l"(t) : "memory");
    return done;
}

static __device__ __forceinline__ uint32_t mb_test_parity(uint64_t *b, uint32_t parity)
{
    uint32_t done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; "
                 "selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(b)), "r"(parity) : "memory");
    return done;
}

static __device__ __forceinline__ void wait_parity(uint64_t *b, uint32_t parity, bool producer)
{
#if __CUDA_ARCH__ >= 900
    if (producer) {
        uint32_t done;
        do {
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 "
                         "p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(smem(b)), "r"(parity), "r"(1000000u) : "memory");
        } while (!done);
    } else {
        while (!cuda::ptx::mbarrier_try_wait_parity(b, parity)) {
        }
    }
#else
    (void)producer;
    while (!mb_test_parity(b, parity)) {
    }
#endif
}

__global__ void pipeline(int *out, int *probe, const int *in, int rounds)
{
    __shared__ int slot[2][32];
    __shared__ uint64_t full[2], empty[2], pb;
    unsigned t = threadIdx.x, lane = t % 32;
    if (t == 0) {
#if __CUDA_ARCH__ >= 900
        mb_init(&full[0], 1);
        mb_init(&full[1], 1);
#else
        mb_init(&full[0], 32);
        mb_init(&full[1], 32);
#endif
        mb_init(&empty[0], 96);
        mb_init(&empty[1], 96);
#if __CUDA_ARCH__ >= 900
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
    }
    __syncthreads();
    const int *mine = in + blockIdx.x * rounds * 32;
    if (t < 32) {
        for (int r = 0; r < rounds; r++) {
            int s = r % 2;
            wait_parity(&empty[s], ((r / 2) & 1) ^ 1, true);
            slot[s][lane] = mine[r * 32 + lane] * (r + 1);
#if __CUDA_ARCH__ >= 900
            asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 4;"
                         ::"r"(smem(&full[s])) : "memory");
            if (lane == 0)
                asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], 128;"
                             ::"r"(smem(&full[s])) : "memory");
#else
            mb_arrive(&full[s]);
#endif
        }
    } else {
        int acc = 0;
        for (int r = 0; r < rounds; r++) {
            int s = r % 2;
            wait_parity(&full[s], (r / 2) & 1, false);
            acc = acc * 5 + slot[s][(t + r) % 32];
#if __CUDA_ARCH__ >= 900
            asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];"
                         ::"r"(smem(&empty[s])) : "memory");
#else
            mb_arrive(&empty[s]);
#endif
        }
        out[blockIdx.x * 96 + t - 32] = acc;
    }
    if (t == 0) {
        int *p = probe + blockIdx.x * 10;
        mb_init(&pb, 5);
        p[0] = (int)mb_pending(mb_arrive_nc(&pb, 2));         /* 3 */
        uint64_t t2 = mb_arrive_nc(&pb, 1);
        p[1] = (int)mb_pending(t2);                           /* 2 */
        p[2] = (int)mb_test(&pb, t2);                         /* 0: phase 0 open */
        uint64_t t3;
        asm volatile("mbarrier.arrive_drop.noComplete.shared.b64 %0, [%1], 1;"
                     : "=l"(t3) : "r"(smem(&pb)) : "memory");
        p[3] = (int)mb_pending(t3);                           /* 1; later phases expect 4 */
        p[4] = (int)mb_pending(mb_arrive(&pb));               /* 0: completes phase 0 */
        p[5] = (int)mb_test(&pb, t2);                         /* 1 */
        p[6] = (int)(mb_test_parity(&pb, 0) * 10 + mb_test_parity(&pb, 1)); /* 10 */
        p[7] = (int)mb_pending(mb_arrive_nc(&pb, 3));         /* 1 of the 4 expected */
        asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(smem(&pb)) : "memory");
        mb_init(&pb, 2);
        p[8] = (int)mb_pending(mb_arrive(&pb));               /* 1 */
        p[9] = (int)mb_test_parity(&pb, 1);                   /* 1: the phase before phase 0 */
    }
}
