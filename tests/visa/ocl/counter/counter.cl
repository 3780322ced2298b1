/* An atomic counter hands out slots: each work-item with an odd value appends it. */
__kernel void counter(__global const int *in, __global int *out, __global int *count)
{
    int v = in[get_global_id(0)];
    if (v & 1) {
        int slot = atomic_inc(count);
        out[slot] = v;
    }
}
