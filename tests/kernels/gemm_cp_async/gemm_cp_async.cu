// Double-buffered GEMM on the tensor cores: C (M x N, f32) = A (M x K, f16, row-major) * B (K x N,
// f16, row-major). Each block of four warps computes a 32 x 32 tile of C; the 32-wide k slices of
// A and B go into shared memory with 16-byte cp.async.cg copies, two buffers deep (the next slice
// is in flight while the warps multiply the current one: cp.async.wait_group 1), and the warps
// read their fragments with ldmatrix (.x4 for A, .x2.trans for B) into mma.sync.m16n8k16 with
// f32 accumulators.
#include <cuda_fp16.h>

enum { BM = 32, BN = 32, BK = 32 };

__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void copy16(void *dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem(dst)), "l"(src));
}

// One k slice of A (BM x BK) and B (BK x BN): one 16-byte copy of each per thread.
__device__ __forceinline__ void load_slice(half (*sA)[BK], half (*sB)[BN], const half *A,
                                           const half *B, int K, int N, int m0, int n0, int k0)
{
    int t = threadIdx.x, row = t / 4, col = (t % 4) * 8;
    copy16(&sA[row][col], A + (size_t)(m0 + row) * K + k0 + col);
    copy16(&sB[row][col], B + (size_t)(k0 + row) * N + n0 + col);
    asm volatile("cp.async.commit_group;");
}

__global__ void gemm_cp_async(const half *A, const half *B, float *C, int M, int N, int K)
{
    __shared__ __align__(128) half sA[2][BM][BK];
    __shared__ __align__(128) half sB[2][BK][BN];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int wm = warp / 2, wn = warp % 2, g = lane / 4, t = lane % 4;
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    float acc[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    int slices = K / BK;
    load_slice(sA[0], sB[0], A, B, K, N, m0, n0, 0);
    for (int s = 0; s < slices; s++) {
        int buf = s & 1;
        if (s + 1 < slices) {
            load_slice(sA[buf ^ 1], sB[buf ^ 1], A, B, K, N, m0, n0, (s + 1) * BK);
            asm volatile("cp.async.wait_group 1;");
        } else {
            asm volatile("cp.async.wait_group 0;");
        }
        __syncthreads();
        for (int kk = 0; kk < BK; kk += 16) {
            unsigned a[4];
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                         : "r"(smem(&sA[buf][wm * 16 + lane % 16][kk + (lane / 16) * 8])));
            for (int j = 0; j < 2; j++) {
                unsigned b[2];
                asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                             : "=r"(b[0]), "=r"(b[1])
                             : "r"(smem(&sB[buf][kk + lane % 16][wn * 16 + j * 8])));
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                             "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                             : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
            }
        }
        __syncthreads();
    }
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 4; i++) {
            int row = m0 + wm * 16 + g + 8 * (i / 2), col = n0 + wn * 16 + j * 8 + 2 * t + i % 2;
            C[(size_t)row * N + col] = acc[j][i];
        }
    (void)M;
}
