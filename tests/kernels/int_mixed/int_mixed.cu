// Integer division and remainder (signed, unsigned, 32- and 64-bit) over mixed-width buffers
// (i8, u8, i16, i32, u64), conversions between them, and the saturating float-to-integer
// conversions (__float2int_rn, __float2uint_rn, __float2ll_rn, __saturatef). Writes 8 i32
// results per element to r32[8*i ..], and one u8, i16, u64 and f32 result per element.
__global__ void mixed_ints(const int *__restrict__ a, const int *__restrict__ b,
                           const signed char *__restrict__ s8, const unsigned char *__restrict__ u8,
                           const short *__restrict__ s16, const unsigned long long *__restrict__ u64,
                           const float *__restrict__ f, int *r32, unsigned char *r8, short *r16,
                           unsigned long long *r64, float *rf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int ai = a[i];
    int bi = b[i];
    if (bi == 0)
        bi = 7;
    float fi = f[i];
    int *o = r32 + 8 * i;

    o[0] = ai / bi;
    o[1] = ai % bi;
    o[2] = (int)((unsigned int)ai / (unsigned int)(bi & 0xff | 1));
    o[3] = (int)s8[i] * 3 + (int)u8[i] - (int)s16[i] % 1000;
    o[4] = __float2int_rn(fi);
    o[5] = (int)__float2uint_rn(fi);
    o[6] = (int)(__float2ll_rn(fi) >> 8);
    o[7] = __float2int_rz(__saturatef(fi * 2e-10f) * 1000.0f);

    int saturated = (int)u8[i] + (int)s8[i] * 2;
    r8[i] = (unsigned char)min(max(saturated, 0), 255);
    r16[i] = (short)(s16[i] * 3 - ai);
    long long wide = (long long)ai * bi;
    r64[i] = u64[i] / (u8[i] + 1ull) + u64[i] % 1000003ull + (unsigned long long)(wide / -7 % 13);
    rf[i] = __ull2float_rn(u64[i]) + __int2float_rn(ai);
}
