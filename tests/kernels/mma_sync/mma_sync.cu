// Matrix multiply-accumulate on the tensor-core paths nvcc emits: a wmma GEMM (f16 -> f32), and
// mma.sync through inline PTX for f16 (fragments loaded with ldmatrix, B with .trans), tf32,
// f64 (m8n8k4, and m16n8k16 on sm_90), s8 x u8 -> s32 with .satfinite, and the sm_70 form
// m8n8k4 with f16 inputs (four MMAs, one per quadpair, in .row.col and .col.row layouts). One warp per 16x16 (wmma) or per mma tile; fragments
// of the mma kernels are loaded and stored by the lane layouts of the PTX ISA.
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

// C (32x32, f32, row-major) = A (32x32 f16, row-major) * B (32x32 f16, column-major): four warps,
// one 16x16 tile each, two k steps.
__global__ void wmma_gemm(const half *A, const half *B, float *C)
{
    int warp = threadIdx.x / 32, tm = warp / 2, tn = warp % 2;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k = 0; k < 32; k += 16) {
        wmma::load_matrix_sync(fa, A + tm * 16 * 32 + k, 32);
        wmma::load_matrix_sync(fb, B + tn * 16 * 32 + k, 32);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(C + tm * 16 * 32 + tn * 16, fc, 32, wmma::mem_row_major);
}

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// D (16x8 f32) = A (16x16 f16, row-major) * B (16x8 f16, row-major k x n) + C, one warp. A comes
// from shared memory with ldmatrix.x4, B with ldmatrix.x2.trans (B is stored k-major).
__global__ void mma_f16(const half *A, const half *B, const float *C, float *D)
{
    __shared__ __align__(16) half sA[16 * 16];
    __shared__ __align__(16) half sB[16 * 8];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) sA[i] = A[i];
    for (int i = lane; i < 128; i += 32) sB[i] = B[i];
    __syncwarp();
    unsigned a[4], b[2];
    float c[4], d[4];
    unsigned pa = smem_addr(&sA[(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned pb = smem_addr(&sB[(lane % 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)] = d[i];
}

// D (16x8 f32) = A (16x8) * B (8x8) + C with tf32 inputs (rounded from f32 with cvt.rna.tf32).
__global__ void mma_tf32(const float *A, const float *B, const float *C, float *D)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned a[4], b[2];
    float c[4], d[4];
    for (int i = 0; i < 4; i++) {
        float v = A[(g + 8 * (i % 2)) * 8 + t + 4 * (i / 2)];
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a[i]) : "f"(v));
    }
    for (int i = 0; i < 2; i++) {
        float v = B[(t + 4 * i) * 8 + g];
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(b[i]) : "f"(v));
    }
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)] = d[i];
}

// D (8x8 f64) = A (8x4) * B (4x8) + C.
__global__ void mma_f64(const double *A, const double *B, const double *C, double *D)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    double a = A[g * 4 + t], b = B[t * 8 + g], c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1];
    double d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
}

__device__ __forceinline__ unsigned pack4(const uint8_t *p, int stride)
{
    return p[0] | (p[stride] << 8) | (p[2 * stride] << 16) | ((unsigned)p[3 * stride] << 24);
}

// D (16x8 s32) = A (16x32 s8) * B (32x8 u8) + C, saturated to the s32 range.
__global__ void mma_s8(const int8_t *A, const uint8_t *B, const int *C, int *D)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned a[4], b[2];
    int c[4], d[4];
    for (int i = 0; i < 4; i++) // a[i] holds a(4i .. 4i+3): row g + 8 (i % 2), cols 4t + 16 (i / 2)
        a[i] = pack4((const uint8_t *)A + (g + 8 * (i % 2)) * 32 + 4 * t + 16 * (i / 2), 1);
    for (int i = 0; i < 2; i++) // b[i]: rows 4t + 16 i .. +3, column g
        b[i] = pack4(B + (4 * t + 16 * i) * 8 + g, 8);
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)] = d[i];
}

// D (16x8 f64) = A (16x16) * B (16x8) + C with the f64 mma of sm_90; the sm_80 build computes the
// same fragments with a chain of fma in k order.
__global__ void mma_f64_k16(const double *A, const double *B, const double *C, double *D)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    double c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)];
#if __CUDA_ARCH__ >= 900
    double a[8], b[4];
    for (int i = 0; i < 8; i++) a[i] = A[(g + 8 * (i % 2)) * 16 + t + 4 * (i / 2)];
    for (int i = 0; i < 4; i++) b[i] = B[(t + 4 * i) * 8 + g];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]),
                   "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]),
                   "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
#else
    for (int i = 0; i < 4; i++) {
        int row = g + 8 * (i / 2), col = 2 * t + (i % 2);
        d[i] = c[i];
        for (int k = 0; k < 16; k++) d[i] = fma(A[row * 16 + k], B[k * 8 + col], d[i]);
    }
#endif
    for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + 2 * t + (i % 2)] = d[i];
}

__device__ __forceinline__ unsigned pack_h2(half lo, half hi)
{
    return (unsigned)__half_as_ushort(lo) | ((unsigned)__half_as_ushort(hi) << 16);
}

// Four MMAs of shape m8n8k4, one per quadpair q (lanes 4q..4q+3 and 16+4q..16+4q+3): A holds four
// 8x4 matrices (row-major, one after the other), B four 4x8 (row-major), C four 8x8 f32.
// D = A B + C with .row.col and f32 accumulators; H = A B with .col.row and f16 accumulators.
__global__ void mma_m8n8k4_f16(const half *A, const half *B, const float *C, float *D, half *H)
{
    int lane = threadIdx.x, q = (lane >> 2) & 3, hi = lane >= 16 ? 4 : 0, lr = lane & 3;
    const half *a = A + q * 32, *b = B + q * 32;
    const float *c = C + q * 64;
    unsigned ar[2], ac[2], bc[2], br[2], z = 0;
    for (int i = 0; i < 2; i++) {
        ar[i] = pack_h2(a[(lr + hi) * 4 + 2 * i], a[(lr + hi) * 4 + 2 * i + 1]);   // row-major a
        ac[i] = pack_h2(a[(2 * i + hi) * 4 + lr], a[(2 * i + 1 + hi) * 4 + lr]);   // column-major a
        bc[i] = pack_h2(b[(2 * i) * 8 + lr + hi], b[(2 * i + 1) * 8 + lr + hi]);   // column-major b
        br[i] = pack_h2(b[lr * 8 + 2 * i + hi], b[lr * 8 + 2 * i + 1 + hi]);       // row-major b
    }
    float cf[8], df[8];
    for (int i = 0; i < 8; i++)
        cf[i] = c[((lane & 1) + (i & 2) + hi) * 8 + (i & 4) + (lane & 2) + (i & 1)];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                 "{%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};"
                 : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3]), "=f"(df[4]), "=f"(df[5]),
                   "=f"(df[6]), "=f"(df[7])
                 : "r"(ar[0]), "r"(ar[1]), "r"(bc[0]), "r"(bc[1]), "f"(cf[0]), "f"(cf[1]),
                   "f"(cf[2]), "f"(cf[3]), "f"(cf[4]), "f"(cf[5]), "f"(cf[6]), "f"(cf[7]));
    for (int i = 0; i < 8; i++)
        D[q * 64 + ((lane & 1) + (i & 2) + hi) * 8 + (i & 4) + (lane & 2) + (i & 1)] = df[i];
    unsigned h[4];
    asm volatile("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, "
                 "{%6, %7}, {%8, %8, %8, %8};"
                 : "=r"(h[0]), "=r"(h[1]), "=r"(h[2]), "=r"(h[3])
                 : "r"(ac[0]), "r"(ac[1]), "r"(br[0]), "r"(br[1]), "r"(z));
    for (int i = 0; i < 4; i++) {
        H[q * 64 + (lr + hi) * 8 + 2 * i] = __ushort_as_half((unsigned short)(h[i] & 0xffff));
        H[q * 64 + (lr + hi) * 8 + 2 * i + 1] = __ushort_as_half((unsigned short)(h[i] >> 16));
    }
}
