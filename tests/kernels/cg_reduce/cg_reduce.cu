// Cooperative groups reductions across warps: cg::reduce over tiled_partition<32> (one warp,
// redux.sync) and over tiled_partition<128> (four warps: on sm_80+ cooperative groups keep the
// multi-warp tile's barrier and per-warp partial sums in the CTA's reserved shared memory, found
// through %reserved_smem_offset_1), then a block-wide total of the warp sums combined through a
// __shared__ array after block.sync(). A second kernel reports the reserved-region registers.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void cg_reduce(const int *__restrict__ in, int *sum32, int *sum128, int *max128,
                          int *block_sum)
{
    __shared__ int warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<128> quad = cg::tiled_partition<128>(block);
    int gid = blockIdx.x * block.size() + block.thread_rank();
    int v = in[gid];

    int s32 = cg::reduce(warp, v, cg::plus<int>());
    int s128 = cg::reduce(quad, v, cg::plus<int>());
    int m128 = cg::reduce(quad, v, cg::greater<int>());
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = s32;
    if (quad.thread_rank() == 0) {
        sum128[gid / 128] = s128;
        max128[gid / 128] = m128;
    }
    block.sync();
    if (block.thread_rank() == 0) {
        int total = 0;
        for (unsigned w = 0; w < warp.meta_group_size(); ++w)
            total += warp_sums[w];
        block_sum[blockIdx.x] = total;
    }
    if (warp.thread_rank() == 0)
        sum32[gid / 32] = s32;
}

__global__ void reserved_regs(unsigned *out)
{
    unsigned b, e, c, o0, o1;
    asm("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(b));
    asm("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(e));
    asm("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(c));
    asm("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(o0));
    asm("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(o1));
    out[0] = b, out[1] = e, out[2] = c, out[3] = o0, out[4] = o1;
}
