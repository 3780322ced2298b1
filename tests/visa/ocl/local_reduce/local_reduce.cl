/* Work-group sum of 64 floats whose scratch is a __local argument (dynamic SLM), beside a static
 * __local array and a second __local argument: IGC folds the first argument's offset (it follows
 * the static SLM) but reads the second's from the payload, so both the layout and the value
 * must be right or the sums go wrong. */
__kernel void local_reduce(__global const float *in, __global float *out, __local float *scratch,
                           __local float *twice)
{
    __local float first[64];
    first[get_local_id(0)] = 1.0f;
    int lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    twice[lid] = 2.0f * in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 32; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0] + twice[63] + first[5];
}
