// Heap misuse: thread 37 of block 1 frees its block twice, a kernel fault (EXEC-HEAP-002).
__global__ void double_free(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(4 * sizeof(int));
    p[0] = i;
    out[i] = p[0];
    free(p);
    if (blockIdx.x == 1 && threadIdx.x == 37)
        free(p);
}
