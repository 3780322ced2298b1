/* Per-lane atomics: a histogram in SLM merged into a global histogram. */
__kernel void atomics(__global const uint *in, __global uint *hist, __global int *maxv)
{
    __local uint bins[16];
    int lid = get_local_id(0);
    if (lid < 16)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = in[get_global_id(0)];
    atomic_add(&bins[v & 15], 1u);
    atomic_max(maxv, (int)v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16)
        atomic_add(&hist[lid], bins[lid]);
}
