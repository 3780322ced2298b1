// 2D 5-point stencil over a width x height grid of floats. Each 16x16 block stages its tile plus
// a one-cell halo in shared memory; reads outside the grid are clamped to the edge.
#define TILE_X 16
#define TILE_Y 16

__device__ __forceinline__ float load_clamped(const float *in, int x, int y, int width, int height)
{
    x = min(max(x, 0), width - 1);
    y = min(max(y, 0), height - 1);
    return in[y * width + x];
}

__global__ void stencil5(const float *__restrict__ in, float *__restrict__ out, int width,
                         int height, float center_weight, float neighbour_weight)
{
    __shared__ float tile[TILE_Y + 2][TILE_X + 2];
    int gx = blockIdx.x * TILE_X + threadIdx.x;
    int gy = blockIdx.y * TILE_Y + threadIdx.y;
    int lx = threadIdx.x + 1;
    int ly = threadIdx.y + 1;

    tile[ly][lx] = load_clamped(in, gx, gy, width, height);
    if (threadIdx.x == 0)
        tile[ly][0] = load_clamped(in, gx - 1, gy, width, height);
    if (threadIdx.x == TILE_X - 1)
        tile[ly][TILE_X + 1] = load_clamped(in, gx + 1, gy, width, height);
    if (threadIdx.y == 0)
        tile[0][lx] = load_clamped(in, gx, gy - 1, width, height);
    if (threadIdx.y == TILE_Y - 1)
        tile[TILE_Y + 1][lx] = load_clamped(in, gx, gy + 1, width, height);
    __syncthreads();

    if (gx < width && gy < height) {
        float around = tile[ly - 1][lx] + tile[ly + 1][lx] + tile[ly][lx - 1] + tile[ly][lx + 1];
        out[gy * width + gx] = center_weight * tile[ly][lx] + neighbour_weight * around;
    }
}
