// A fence is charged for its own work. On a GPU whose L1 keeps global stores (write-back and
// allocating: tests/hier/write_back_l1.json), a store leaves one dirty 128-byte line in its L1.
// __threadfence() (membar.gl) at GPU scope then drops the SM's L1 global lines, writing that line
// back first: those 128 bytes belong to the membar's record, not to the shared-memory load issued
// just before it. One warp; lane i reads its neighbour's shared word: a[i] = v, b[i] = v + 1.
__global__ void fence_charge(int *a, int *b, int v)
{
    __shared__ int s[32];
    unsigned i = threadIdx.x;
    s[i] = v + 1;
    __syncwarp();
    a[i] = v;
    int x = s[i ^ 1];
    __threadfence();
    b[i] = x;
}
