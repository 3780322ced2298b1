// 2D surface reads and writes on block-linear images: a transpose of a 100 x 40 float image
// (block height 2 GOBs) into a 40 x 100 one (block height 4 GOBs). Neither size is a multiple of
// a GOB, so both images are padded to whole blocks.
#include <cuda_runtime.h>

__global__ void surf_transpose(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float v = surf2Dread<float>(src, x * 4, y);
    surf2Dwrite(v, dst, y * 4, x);
}
