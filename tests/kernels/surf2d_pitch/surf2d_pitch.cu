// 2D surface reads and writes on pitch-linear images: each texel of `dst` combines texels of
// `src` read with the three boundary modes of surf2Dread (trap, clamp, zero). The right
// neighbour of the last column clamps to the last column; the lower neighbour of the last row
// reads 0. Coordinates are (byte x, row y), as the surface API takes them.
#include <cuda_runtime.h>

__global__ void surf_stencil(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned centre = surf2Dread<unsigned>(src, x * 4, y);
    unsigned right = surf2Dread<unsigned>(src, (x + 1) * 4, y, cudaBoundaryModeClamp);
    unsigned below = surf2Dread<unsigned>(src, x * 4, y + 1, cudaBoundaryModeZero);
    surf2Dwrite(centre + 2u * right + 4u * below, dst, x * 4, y);
}
