// The wmma shapes and types besides the f16 -> f32 GEMM of mma_sync, one warp each: m32n8k16 with
// f16 accumulators (a column-major, b row-major, d stored column-major), bf16 -> f32, tf32 -> f32
// (the inputs rounded with __float_to_tf32 through the fragment's elements), f64 m8n8k4, and
// s8 -> s32; then stmatrix (sm_90; the sm_80 build stores the same layout with plain stores).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

__global__ void wmma_h(const half *a, const half *b, const half *c, half *d)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, half> fc;
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 32, wmma::mem_col_major);
}

__global__ void wmma_bf(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.5f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

__global__ void wmma_tf(const float *a, const float *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

__global__ void wmma_d(const double *a, const double *b, double *d)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::fill_fragment(fc, 1.0);
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

__global__ void wmma_s8(const signed char *a, const signed char *b, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, -7);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// Each lane holds register i = lane * 4 + i + 1 (elements ((lane*4+i+1) & 0xffff, ... + 0x100));
// stmatrix.x4 (and .x2.trans) writes them as 8x8 matrices of a 32 x 8 tile in shared memory,
// which goes out whole.
__global__ void stmatrix_tile(uint32_t *out)
{
    __shared__ __align__(16) uint16_t tile[2][32 * 8];
    int lane = threadIdx.x;
    uint32_t r[4];
    for (int i = 0; i < 4; i++) {
        uint32_t v = lane * 4 + i + 1;
        r[i] = v | ((v + 0x100) << 16);
    }
#if __CUDA_ARCH__ >= 900
    unsigned p = (unsigned)__cvta_generic_to_shared(&tile[0][lane * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(p), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
    unsigned q = (unsigned)__cvta_generic_to_shared(&tile[1][(lane % 16) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};"
                 :: "r"(q), "r"(r[0]), "r"(r[1]));
#else
    for (int i = 0; i < 4; i++)
        for (int h = 0; h < 2; h++) {
            tile[0][(8 * i + lane / 4) * 8 + 2 * (lane % 4) + h] = (uint16_t)(r[i] >> (16 * h));
            if (i < 2)
                tile[1][(8 * i + 2 * (lane % 4) + h) * 8 + lane / 4] = (uint16_t)(r[i] >> (16 * h));
        }
#endif
    __syncwarp();
    for (int i = lane; i < 2 * 32 * 8 / 2; i += 32)
        out[i] = ((const uint32_t *)tile)[i];
}
