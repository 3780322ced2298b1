// Twin kernel (tests/twins/README.md): a per-thread array of 16 words read back with indices
// computed from the data, so nvcc keeps it in local memory (st.local/ld.local).
// local_array.sass is its hand translation.
extern "C" __global__ void local_array(unsigned *out, const unsigned *in)
{
    unsigned a[16];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
#pragma unroll
    for (unsigned j = 0; j < 16; j++)
        a[j] = v + j;
    unsigned s = 0;
#pragma unroll
    for (unsigned j = 0; j < 4; j++)
        s += a[(v + 5 * j) & 15];
    out[i] = s;
}
