/* Work-group sum of 64 ints in shared local memory: a tree with a barrier per level. */
__kernel void slm_reduce(__global const int *in, __global int *out)
{
    __local int part[64];
    int lid = get_local_id(0);
    part[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 32; s > 0; s >>= 1) {
        if (lid < s)
            part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = part[0];
}
