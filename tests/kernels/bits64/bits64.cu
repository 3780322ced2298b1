// 64-bit integer arithmetic and bit manipulation intrinsics. Per element i, from 32-bit inputs
// a, b and 64-bit inputs c, d, writes 9 32-bit results to out32[9*i ..] and 8 64-bit results to
// out64[8*i ..] (see the reference program for the exact list).
__global__ void bit_tricks(const unsigned int *__restrict__ a, const unsigned int *__restrict__ b,
                           const unsigned long long *__restrict__ c,
                           const unsigned long long *__restrict__ d, unsigned int *out32,
                           unsigned long long *out64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int ai = a[i], bi = b[i];
    unsigned long long ci = c[i], di = d[i];
    unsigned int *o32 = out32 + 9 * i;
    unsigned long long *o64 = out64 + 8 * i;

    o32[0] = __brev(ai);
    o32[1] = __popc(ai);
    o32[2] = __clz((int)ai);
    o32[3] = __ffs((int)ai);
    o32[4] = __byte_perm(ai, bi, 0x7531);
    o32[5] = __byte_perm(ai, bi, bi & 0x7777);
    o32[6] = __funnelshift_l(ai, bi, (unsigned int)ci);
    o32[7] = __funnelshift_r(ai, bi, (unsigned int)di);
    o32[8] = __funnelshift_lc(ai, bi, (unsigned int)(ci >> 58));

    // 128-bit addition (ci, ai) + (di, bi) written with plain 64-bit adds and a carry compare.
    unsigned long long low = ci + di;
    unsigned long long carry = low < ci;
    unsigned long long high = (unsigned long long)ai + bi + carry;
    unsigned int rot = ai & 63;

    o64[0] = ci * di;
    o64[1] = __umul64hi(ci, di);
    o64[2] = (unsigned long long)__mul64hi((long long)ci, (long long)di);
    o64[3] = low ^ (high << 40);
    o64[4] = __brevll(ci);
    o64[5] = (unsigned long long)__popcll(ci) | ((unsigned long long)__clzll((long long)di) << 8) |
             ((unsigned long long)__ffsll((long long)ci) << 16);
    o64[6] = (ci << rot) | (ci >> ((64 - rot) & 63));
    o64[7] = ci / ((di >> 40) | 1) + ci % ((di >> 20) | 3);
}
