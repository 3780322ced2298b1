// Fault test (EXEC-MMA-001): mma.sync is executed by a whole warp together; here only the lanes
// below 16 reach it, which is undefined on hardware and a fault in the simulator.
__global__ void mma_partial_warp(const double *in, double *out)
{
    double a = in[threadIdx.x], d0 = 0, d1 = 0;
    if (threadIdx.x < 16)
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                     : "=d"(d0), "=d"(d1) : "d"(a), "d"(a), "d"(a), "d"(a));
    out[threadIdx.x] = d0 + d1;
}
