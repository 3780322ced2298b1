// Twin kernel (tests/twins/README.md): a store, __threadfence (membar.gl), then a volatile load
// of the neighbour lane's word (ld.volatile.global), an __ldcv load of the word two lanes away
// (ld.global.cv) and a plain reload of the thread's own word. volatile_fence.sass is its hand
// translation.
extern "C" __global__ void volatile_fence(unsigned *data, unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = data[i];
    data[i] = v + 1;
    __threadfence();
    unsigned a = ((volatile unsigned *)data)[i ^ 1];
    unsigned b = __ldcv(&data[i ^ 2]);
    unsigned c = data[i];
    out[i] = a + b + c;
}
