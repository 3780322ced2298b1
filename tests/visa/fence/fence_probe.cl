/* The skeleton of the hand-written LSC fence kernels (tools/visa/fence_kernels.py): IGC
 * compiles it for pvc into fence_probe.pvc.visaasm, whose loads and stores the generator gives
 * cache controls and between whose stores it puts one lsc_fence. */
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void fence_probe(__global int *buf, __global int *l2buf, __global int *out)
{
    int i = get_local_id(0);
    buf[i] = buf[i] + 100;
    l2buf[i] = l2buf[i] + 1000;
    out[i] = buf[i];
    out[16 + i] = l2buf[i];
}
