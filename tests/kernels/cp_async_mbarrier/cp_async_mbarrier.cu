// cp.async completion tracked by an mbarrier instead of cp.async.wait_group (PTX ISA 9.1
// "cp.async.mbarrier.arrive"; docs/semantics.md, "Asynchronous copies").
//
// barrier_copy: a block-wide cuda::barrier tracks the copies, as cuda::memcpy_async does it on
//   sm_80 (on sm_90 that call becomes a bulk copy, so the copy is written out here): cp.async,
//   cp.async.mbarrier.arrive on the barrier's mbarrier (without .noinc: its pending count rises
//   by one first, so the copy's arrival changes nothing net), then the thread's own arrival and
//   wait (arrive_and_wait). Each thread then reads the element of the next thread, which
//   another warp copied.
// noinc_copy: the same with inline PTX and .noinc: the barrier expects two arrivals per thread,
//   its copies' and its own, so the phase completes only after both.
// Both run `rounds` rounds on one barrier (its phase flips each round) over consecutive tiles.
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void barrier_copy(const float4 *in, float4 *out, int rounds)
{
    __shared__ float4 s[64];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        unsigned d = (unsigned)__cvta_generic_to_shared(&s[t]);
        unsigned b = (unsigned)__cvta_generic_to_shared(cuda::device::barrier_native_handle(bar));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(&in[r * 64 + t])
                     : "memory");
        asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(b) : "memory");
        bar.arrive_and_wait();
        float4 v = s[(t + 1) % 64];
        out[r * 64 + t] = v;
        bar.arrive_and_wait(); // nobody overwrites s while a neighbour still reads it
    }
}

__global__ void noinc_copy(const float4 *in, float4 *out, int rounds)
{
    __shared__ float4 s[64];
    __shared__ unsigned long long bar;
    int t = threadIdx.x;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned d = (unsigned)__cvta_generic_to_shared(&s[t]);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(2 * blockDim.x)
                     : "memory");
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(d), "l"(&in[r * 64 + t])
                     : "memory");
        asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(b) : "memory");
        unsigned long long state;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
        asm volatile("{\n\t.reg .pred done;\n"
                     "wait%=:\n\t"
                     "mbarrier.test_wait.shared.b64 done, [%0], %1;\n\t"
                     "@!done bra wait%=;\n\t}"
                     :: "r"(b), "l"(state) : "memory");
        out[r * 64 + t] = s[(t + 1) % 64];
        __syncthreads();
    }
}
