// Matrix transpose (width x height floats in, height x width out) through a 32x33 shared tile: the extra column shifts each row by one bank, so the column-wise reads are conflict-free.
// Blocks are 32x8 threads, each moving a 32x32 tile in four rows-steps.
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_padded(float *__restrict__ out, const float *__restrict__ in, int width,
                               int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
