// End-to-end surface test (tests/images.cmake): each thread reads one 32-bit texel of `in`
// through its surface object, and writes 3 * v + 1 to the same texel of `out`. The launch files
// give the two images different layouts, so a wrong conversion between the host's texel order
// and either layout shows up as wrong values.
#include <cuda_runtime.h>

__global__ void surf_copy(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned v;
    surf2Dread(&v, in, x * 4, y);
    surf2Dwrite(3 * v + 1, out, x * 4, y);
}
