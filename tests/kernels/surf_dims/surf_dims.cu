// Surface geometries other than 2D, one kernel each: a 1D read and reversed write of signed
// 32-bit texels (surf1Dread/surf1Dwrite), a 3D image of 16-bit texels written from a 3D grid
// (surf3Dwrite), and a layered 2D float image written one layer per grid z (surf2DLayeredwrite).
#include <cuda_runtime.h>

__global__ void surf_reverse1d(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = surf1Dread<int>(src, i * 4);
    surf1Dwrite(v * 3 - 7, dst, (n - 1 - i) * 4);
}

__global__ void surf_fill3d(cudaSurfaceObject_t dst, int width, int height, int depth)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= width || y >= height || z >= depth)
        return;
    surf3Dwrite((unsigned short)(x + 64 * y + 1024 * z), dst, x * 2, y, z);
}

__global__ void surf_fill_layers(cudaSurfaceObject_t dst, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int layer = blockIdx.z;
    if (x >= width || y >= height)
        return;
    surf2DLayeredwrite(0.5f * x - 0.25f * y + 100.0f * layer, dst, x * 4, y, layer);
}
