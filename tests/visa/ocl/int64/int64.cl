/* 64-bit integer arithmetic: a multiply-xorshift hash per element. */
__kernel void int64(__global const ulong *in, __global ulong *out, ulong seed)
{
    size_t i = get_global_id(0);
    ulong v = in[i] ^ seed;
    v = v * 0x9E3779B97F4A7C15UL;
    v ^= v >> 29;
    v += (ulong)i << 32;
    out[i] = v;
}
