/* Each work-group's first work-item publishes data and a flag ordered by a global fence;
 * all work-items then read the data back after a global work-group barrier. */
__kernel void fence_flag(__global int *data, __global int *flag, __global int *out)
{
    int lid = get_local_id(0);
    int g = get_group_id(0);
    if (lid == 0) {
        data[g] = g * 7 + 1;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        flag[g] = 1;
    }
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] = data[g] + flag[g];
}
