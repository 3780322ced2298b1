// Fault test (EXEC-MMA-002): ldmatrix reads shared memory; a generic address into global memory
// (here the kernel's input buffer) is not one.
__global__ void ldmatrix_global_fault(const unsigned short *in, unsigned *out)
{
    const unsigned short *row = in + (threadIdx.x % 8) * 8;
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.b16 {%0}, [%1];" : "=r"(r) : "l"(row));
    out[threadIdx.x] = r;
}
