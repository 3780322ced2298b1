// Cooperative groups: the block is split into tiles of 16 and of 8 threads. Tiles of 16 reduce
// with cg::reduce (plus), tiles of 8 reduce with tile.shfl_down and also take the maximum with
// cg::reduce (greater). Each thread also records its ranks within the partitions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_reductions(const int *__restrict__ in, int *sum16, int *sum8, int *max8,
                                int *ranks)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    int gid = blockIdx.x * block.size() + block.thread_rank();
    int v = in[gid];

    int s16 = cg::reduce(tile16, v, cg::plus<int>());
    int s8 = v;
    for (int offset = tile8.size() / 2; offset > 0; offset /= 2)
        s8 += tile8.shfl_down(s8, offset);
    int m8 = cg::reduce(tile8, v, cg::greater<int>());

    if (tile16.thread_rank() == 0)
        sum16[gid / 16] = s16;
    if (tile8.thread_rank() == 0) {
        sum8[gid / 8] = s8;
        max8[gid / 8] = m8;
    }
    ranks[gid] = tile16.meta_group_rank() * 100 + tile8.thread_rank();
}
