// Surface read-modify-write: each thread reads its texel, adds to it and writes it back, in
// three launches on the same image, so the image keeps its contents across launches.
#include <cuda_runtime.h>

__global__ void surf_add(cudaSurfaceObject_t img, int width, int height, int delta)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned v = surf2Dread<unsigned>(img, x * 4, y);
    surf2Dwrite(v + (unsigned)delta * (x + 1) - (unsigned)y, img, x * 4, y);
}
