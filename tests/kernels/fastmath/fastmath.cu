// Fast-math transcendentals (built with -use_fast_math): the hardware approximations behind
// __expf, __logf, __sinf, __cosf, __fdividef and rsqrtf, plus expf, which fast math also maps to
// the approximate path. Results are compared with a tolerance.
__global__ void fast_transcendentals(const float *__restrict__ x, const float *__restrict__ y,
                                     float *e, float *l, float *s, float *c, float *q, float *r,
                                     float *e2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float xi = x[i];
    float yi = y[i];
    e[i] = __expf(xi);
    l[i] = __logf(yi);
    s[i] = __sinf(xi);
    c[i] = __cosf(xi);
    q[i] = __fdividef(xi, yi);
    r[i] = rsqrtf(yi);
    e2[i] = expf(0.5f * xi);
}
