// Producer-consumer between two blocks through global memory. Block 0 writes a payload and
// publishes a flag; block 1 reads the payload once early (so its SM may cache stale lines), waits
// for the flag, then reads the payload again and must see the new values. Mode 0 publishes with a
// GPU-scope release store and waits with acquire loads (st.release / ld.acquire); mode 1 uses the
// older idiom: __threadfence() then a volatile store, volatile spinning, then __threadfence().
#include <cuda/atomic>

__global__ void handoff(int *payload, int *flag, int *received, int *early, int mode)
{
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        payload[t] = t * 3 + 1;
        __syncthreads();
        if (t == 0) {
            if (mode == 0) {
                cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
                ready.store(1, cuda::memory_order_release);
            } else {
                __threadfence();
                *(volatile int *)flag = 1;
            }
        }
    } else {
        early[t] = payload[t];
        if (t == 0) {
            if (mode == 0) {
                cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
                while (ready.load(cuda::memory_order_acquire) == 0) {
                }
            } else {
                while (*(volatile int *)flag == 0) {
                }
                __threadfence();
            }
        }
        __syncthreads();
        received[t] = payload[t];
    }
}
