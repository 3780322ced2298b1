// Twin kernel (tests/twins/README.md): transpose of a w x h matrix of words through an unpadded
// 32x32 shared tile: the column reads of the tile are 32-way bank conflicts. Blocks of 32x8
// threads, each moving four rows; w and h are multiples of 32. transpose.sass is its hand
// translation.
extern "C" __global__ void transpose(unsigned *out, const unsigned *in, unsigned w, unsigned h)
{
    __shared__ unsigned tile[32][32];
    unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
    for (unsigned j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
    for (unsigned j = 0; j < 32; j += 8)
        out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
