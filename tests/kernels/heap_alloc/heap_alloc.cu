// Device heap: per-thread malloc, write, read back and free; C++ new[]/delete[] and new/delete
// (which nvcc lowers to calls of malloc and free); and a heap that runs out, where malloc
// returns NULL. The launch file sets "heap_bytes" to 65536.
#include <cstdint>

// Thread i allocates 1 + i % 7 ints, fills them from in[i], sums them back, frees them; then
// does the same with new[]/delete[] and a single new int. out[i] is the sum of all three, or
// -1 when an allocation failed.
__global__ void heap_roundtrip(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int count = 1 + i % 7;
    int *p = (int *)malloc(count * sizeof(int));
    if (!p) {
        out[i] = -1;
        return;
    }
    for (int k = 0; k < count; ++k)
        p[k] = in[i] * (k + 1);
    int *q = new int[count];
    for (int k = 0; k < count; ++k)
        q[k] = p[count - 1 - k] + k;
    int *one = new int;
    *one = in[i] ^ 0x55;
    int sum = 0;
    for (int k = 0; k < count; ++k)
        sum += p[k] + 3 * q[k];
    sum += *one;
    delete one;
    delete[] q;
    free(p);
    out[i] = sum;
}

// Each thread asks for `size` bytes and keeps its block to the end of the launch, so the
// 65536-byte heap holds 65536 / size of them and the other requests return NULL; thread 0 first
// asks for more than the whole heap. granted[0] counts the blocks granted (the launch file runs
// this kernel twice: each launch starts with an empty heap); huge[0] counts the oversized
// requests that returned NULL.
__global__ void heap_exhaust(int *granted, int *huge, unsigned size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        void *big = malloc((size_t)1 << 20);
        atomicAdd(huge, big == nullptr);
    }
    char *p = (char *)malloc(size);
    if (p) {
        p[size - 1] = (char)i;
        atomicAdd(granted, p[size - 1] == (char)i);
    }
}
