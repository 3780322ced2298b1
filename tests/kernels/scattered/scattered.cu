// Scattered global accesses, for the memory model's per-line cost (bench/kernels/matvec_cols_4k.json,
// aos_update_1m.json) and checked end to end here at small sizes.
//
// matvec_cols: y = A^T x with A stored column-major (column j at A[j * n ...]); thread j walks
// its own column, so the lanes of a warp are n floats apart and every warp load of A touches 32
// different lines (for n >= 32), while the load of x[i] is one address for the whole warp.
__global__ void matvec_cols(const float *__restrict__ a, const float *__restrict__ x,
                            float *__restrict__ y, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    const float *col = a + (size_t)j * n;
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc = fmaf(col[i], x[i], acc);
    y[j] = acc;
}

// aos_update: particles as an array of 32-byte structures (4-byte aligned, so every field is its
// own 4-byte load or store); thread i moves particle i one step in a uniform field. Each warp
// load or store of one field touches 32 different sectors of 8 lines.
struct particle {
    float x, y, z, vx, vy, vz, m, q;
};

__global__ void aos_update(particle *__restrict__ p, int n, float dt, float ex, float ey, float ez)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = dt * p[i].q / p[i].m;
    float vx = fmaf(s, ex, p[i].vx), vy = fmaf(s, ey, p[i].vy), vz = fmaf(s, ez, p[i].vz);
    p[i].x = fmaf(dt, vx, p[i].x);
    p[i].y = fmaf(dt, vy, p[i].y);
    p[i].z = fmaf(dt, vz, p[i].z);
    p[i].vx = vx;
    p[i].vy = vy;
    p[i].vz = vz;
}
