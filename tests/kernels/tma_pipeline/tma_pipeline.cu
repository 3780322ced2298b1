// TMA producer/consumer pipeline (sm_90): thread 0 of each CTA loads 16x8 float boxes of a
// 40x20 matrix into a two-stage shared ring with cp.async.bulk.tensor, signalling a "full"
// mbarrier per stage through complete_tx, while all 128 threads wait on it (try_wait.parity),
// add a bias row that one plain cp.async.bulk brought in, write the tile out and arrive on the
// stage's "empty" mbarrier, which thread 0 waits on before it reuses the stage. The boxes of the
// last column and row hang over the matrix, so their outside elements arrive as zeros (the
// map's OOB fill). With `swizzle_bytes` 64 the map swizzles the box (CU_TENSOR_MAP_SWIZZLE_64B)
// and the threads read it through the same XOR pattern.
#include <cuda.h>
#include <cuda/ptx>
#include <stdint.h>

namespace ptx = cuda::ptx;

constexpr int BOX_W = 16, BOX_H = 8, TILES_X = 3, TILES_Y = 3, STAGES = 2;

// Byte offset of element i of a box row-major in shared memory under the 64-byte swizzle: the
// 16-byte unit within each 64-byte row is XORed with bits 7..8 of the offset.
__device__ int swizzled(int i, int swizzle_bytes)
{
    int off = 4 * i;
    return swizzle_bytes == 64 ? off ^ (((off >> 7) & 3) << 4) : off;
}

__device__ void wait_parity(uint64_t *bar, uint32_t parity)
{
    while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
    }
}

__global__ void tma_pipeline(const __grid_constant__ CUtensorMap map, const float *bias,
                             float *tiles, int swizzle_bytes)
{
    __shared__ alignas(1024) float ring[STAGES][BOX_H * BOX_W];
    __shared__ alignas(16) float bias_s[BOX_H * BOX_W];
    __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES], bias_bar;
    const int tid = threadIdx.x;
    if (tid == 0) {
        for (int s = 0; s < STAGES; s++) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], blockDim.x);
        }
        ptx::mbarrier_init(&bias_bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (tid == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared,
                                       &bias_bar, sizeof bias_s);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, bias_s, bias, sizeof bias_s,
                           &bias_bar);
    }
    wait_parity(&bias_bar, 0);
    int k = 0;
    for (int t = blockIdx.x; t < TILES_X * TILES_Y; t += gridDim.x, k++) {
        const int s = k % STAGES;
        const uint32_t parity = (k / STAGES) & 1;
        if (tid == 0) {
            if (k >= STAGES)
                wait_parity(&empty[s], parity ^ 1);
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared,
                                           &full[s], sizeof ring[s]);
            const int32_t coords[2] = {(t % TILES_X) * BOX_W, (t / TILES_X) * BOX_H};
            ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, ring[s], &map,
                                      coords, &full[s]);
        }
        wait_parity(&full[s], parity);
        const float *box = ring[s];
        float v = *(const float *)((const char *)box + swizzled(tid, swizzle_bytes));
        tiles[t * BOX_W * BOX_H + tid] = v + bias_s[tid];
        ptx::mbarrier_arrive(&empty[s]);
    }
}
