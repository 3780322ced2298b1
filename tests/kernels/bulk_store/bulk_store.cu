// Bulk copies out of shared memory (sm_90): one thread per CTA copies a 1 KiB shared tile to
// global memory with cp.async.bulk, adds its first 64 floats into a global array with
// cp.reduce.async.bulk, prefetches the array into the L2 with cp.async.bulk.prefetch, and stores
// an 8x16 float box of the tile through a 2D tensor map at (x0, y0 + 8 * blockIdx.x): the box
// hangs over the matrix's right and bottom edges, so only its in-bounds part is written. The
// threads fill the tile, fence.proxy.async makes their writes visible to the bulk copies, and
// wait_group.read keeps the tile alive until the copies have read it.
#include <cuda.h>
#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void bulk_store(const __grid_constant__ CUtensorMap box_map, float *out, float *sum,
                           int x0, int y0)
{
    __shared__ alignas(128) float tile[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        tile[i] = 0.5f * i + 1000.0f * blockIdx.x;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" ::"l"(sum) : "memory");
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + 256 * blockIdx.x, tile,
                           1024);
        ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, sum, tile,
                                  256);
        int32_t coords[2] = {x0, y0 + 8 * (int)blockIdx.x};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &box_map, coords, tile);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}
