// Heap misuse: thread 5 of block 0 frees a pointer into the middle of its block, a kernel fault
// (EXEC-HEAP-001); the other threads free their blocks as they should.
__global__ void bad_free(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(8 * sizeof(int));
    p[1] = i;
    out[i] = p[1];
    free(blockIdx.x == 0 && threadIdx.x == 5 ? p + 1 : p);
}
