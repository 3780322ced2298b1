// Half and bfloat16 arithmetic with the cuda_fp16.h / cuda_bf16.h intrinsics: packed f16x2 add,
// multiply and fma, scalar f16 fma, packed bf16x2 add and fma, and the conversions between f32,
// f16 and bf16. Buffers of pairs are passed as __half2 / __nv_bfloat162.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void half_ops(const __half2 *__restrict__ a, const __half2 *__restrict__ b,
                         const __half2 *__restrict__ c, const __nv_bfloat162 *__restrict__ ba,
                         const __nv_bfloat162 *__restrict__ bb, const float *__restrict__ f,
                         __half2 *h_sum, __half2 *h_prod, __half2 *h_fma, __half *h_scalar,
                         __nv_bfloat162 *b_sum, __nv_bfloat162 *b_fma, __half *f_to_h,
                         __nv_bfloat16 *f_to_b, float *widened, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n2)
        return;
    __half2 ai = a[i], bi = b[i], ci = c[i];
    __nv_bfloat162 bai = ba[i], bbi = bb[i];
    h_sum[i] = __hadd2(ai, bi);
    h_prod[i] = __hmul2(ai, bi);
    h_fma[i] = __hfma2(ai, bi, ci);
    h_scalar[i] = __hfma(__low2half(ai), __high2half(bi), __high2half(ci));
    b_sum[i] = __hadd2(bai, bbi);
    b_fma[i] = __hfma2(bai, bbi, bai);
    f_to_h[i] = __float2half_rn(f[i]);
    f_to_b[i] = __float2bfloat16_rn(f[i]);
    widened[i] = __half2float(__high2half(ai)) + __bfloat162float(__low2bfloat16(bbi));
}
