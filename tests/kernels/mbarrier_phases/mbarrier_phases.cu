// A block-wide cuda::barrier (an mbarrier in shared memory) drives rounds of a shared-memory
// exchange: each round every thread publishes a value, waits for the phase, reads its neighbour's
// value and waits again before the buffer is reused. After `stay_upper` rounds the upper half of
// the block leaves with arrive_and_drop, so the later phases complete with half the arrivals.
// sm_80 waits with mbarrier.test_wait in a polling loop, sm_90 with mbarrier.try_wait.
#include <cuda/barrier>

__global__ void phases(int *out, const int *in, int rounds, int stay_upper)
{
    __shared__ int buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    unsigned t = threadIdx.x, n = blockDim.x, half = n / 2;
    if (t == 0)
        init(&bar, n);
    __syncthreads();
    const int *mine = in + blockIdx.x * rounds * n;
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        unsigned width = r < stay_upper ? n : half;
        buf[t] = mine[r * n + t];
        bar.arrive_and_wait();
        acc = acc * 3 + buf[(t + 1 + r) % width];
        if (t >= half && r + 1 == stay_upper) {
            bar.arrive_and_drop();
            break;
        }
        bar.arrive_and_wait();
    }
    out[blockIdx.x * n + t] = acc;
}
