// SIMD video arithmetic on packed bytes and half-words: the CUDA SIMD intrinsics (nvcc 13 lowers
// __vabsdiffu4 and __vsadu4 to vabsdiff4; the others to plain integer code) and, through inline
// assembly, the video instructions nvcc has no intrinsic for: scalar forms with byte/half-word
// selectors, saturation, secondary operations and merges, the shifts, vmad, vset, vavrg and the
// SIMD masks and selectors. One row of 26 results per element, checked against ref/video_simd.c.
#include <cstdint>

#define OUTS 26

__device__ unsigned asm_vadd4_sat_s(unsigned a, unsigned b)
{
    unsigned d;
    asm("vadd4.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0u));
    return d;
}

__device__ unsigned asm_vavrg2_merge(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vavrg2.s32.s32.s32 %0.h1, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vset4_add(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vset4.u32.u32.gt.add %0.b210, %1.b0123, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vsub2_sel(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vsub2.u32.s32.s32.sat %0, %1.h32, %2.h10, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vadd_scalar(unsigned a, unsigned b)
{
    unsigned d;
    asm("vadd.s32.u32.s32.sat %0, %1.b2, %2.h1;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

__device__ unsigned asm_vsub_merge(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vsub.s32.s32.s32.sat %0.b1, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vabsdiff_min(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vabsdiff.u32.s32.s32.min %0, %1.h0, %2.h0, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vmax_add(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vmax.u32.u32.u32.add %0, %1.b3, %2.b0, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vshl_clamp(unsigned a, unsigned b)
{
    unsigned d;
    asm("vshl.u32.u32.u32.clamp.sat %0, %1, %2.b0;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

__device__ unsigned asm_vshr_wrap(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vshr.s32.s32.u32.wrap.max %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vmad_shr7(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vmad.s32.s32.u32.sat.shr7 %0, %1.h1, %2.b1, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vmad_neg_product(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vmad.s32.u32.u32.shr15 %0, %1.h0, -%2.h1, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vmad_neg_c(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vmad.u32.u32.u32.sat %0, %1, %2.b2, -%3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned asm_vset_merge(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("vset.s32.u32.le %0.h0, %1.b3, %2.b3, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__global__ void video_simd(const unsigned *x, const unsigned *y, const unsigned *z,
                           unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned a = x[i], b = y[i], c = z[i];
    unsigned *o = out + (size_t)i * OUTS;
    o[0] = __vabsdiffu4(a, b);
    o[1] = __vsadu4(a, b);
    o[2] = __vadd2(a, b);
    o[3] = __vsub4(a, b);
    o[4] = __vmaxs2(a, b);
    o[5] = __vcmpgeu4(a, b);
    o[6] = __sad(a, b, c);
    o[7] = __vavgu4(a, b);
    o[8] = __vabsdiffs2(a, b);
    o[9] = asm_vadd4_sat_s(a, b);
    o[10] = asm_vavrg2_merge(a, b, c);
    o[11] = asm_vset4_add(a, b, c);
    o[12] = asm_vsub2_sel(a, b, c);
    o[13] = asm_vadd_scalar(a, b);
    o[14] = asm_vsub_merge(a, b, c);
    o[15] = asm_vabsdiff_min(a, b, c);
    o[16] = asm_vmax_add(a, b, c);
    o[17] = asm_vshl_clamp(a, b);
    o[18] = asm_vshr_wrap(a, b, c);
    o[19] = asm_vmad_shr7(a, b, c);
    o[20] = asm_vset_merge(a, b, c);
    // a sum of absolute differences over a row of four words, as stereoDisparity does
    unsigned sad = 0;
    for (int k = 0; k < 4; k++)
        sad = __vabsdiffu4(x[(i + k) % n], y[(i + 2 * k) % n]) + sad;
    o[21] = sad;
    o[22] = __vsadu4(a, c) + __vsadu4(b, c);
    o[23] = __vabsdiffu4(a ^ c, b);
    o[24] = asm_vmad_neg_product(a, b, c);
    o[25] = asm_vmad_neg_c(a, b, c);
}
