// Two CTAs on two SMs share one word through global memory without coherent L1s. CTA 1 reads the
// value with a plain load (so the line is allocated in its SM's L1), then tells CTA 0 through a
// volatile flag. CTA 0 writes a new value (a store writes through to L2; it does not touch the
// other SM's L1) and raises a second volatile flag. CTA 1 spins on that flag and reads the value
// again. Without a fence (use_fence == 0) the second read hits the SM's stale L1 copy and returns
// the old value; __threadfence() before it drops the SM's L1 global lines, so it returns the new
// one. The empty asm statement only stops the compiler from reusing the first read; it emits no
// instruction. Thread 0 of each CTA does the work; CTA i runs on SM i.
__global__ void stale_read(int *value, volatile int *flags, int *seen, int use_fence)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 1) {
        int first = value[0];
        flags[0] = 1;
        while (flags[1] == 0) {
        }
        if (use_fence)
            __threadfence();
        asm volatile("" ::: "memory");
        int second = value[0];
        seen[0] = first;
        seen[1] = second;
    } else {
        while (flags[0] == 0) {
        }
        value[0] = 2;
        __threadfence();
        flags[1] = 1;
    }
}
