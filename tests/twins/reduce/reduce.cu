// Twin kernel (tests/twins/README.md): per-block sum of 256 unsigned values by a tree in shared
// memory, one __syncthreads after every level. reduce.sass is its hand translation.
extern "C" __global__ void reduce(unsigned *out, const unsigned *in)
{
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
#pragma unroll
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
