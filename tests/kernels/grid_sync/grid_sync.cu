// Grid-wide synchronisation with cooperative groups (a cooperative launch): every thread writes
// its value, the whole grid syncs, then each thread adds the value its right neighbour in the
// grid wrote (wrapping around), twice over with a second grid.sync() between the rounds, so a
// missing or early sync shows up as a wrong sum.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_sync(const int *__restrict__ in, int *stage, int *out)
{
    cg::grid_group grid = cg::this_grid();
    unsigned long long n = grid.size(), r = grid.thread_rank();
    stage[r] = in[r];
    grid.sync();
    int v = stage[r] + stage[(r + 1) % n];
    grid.sync();
    stage[r] = v;
    grid.sync();
    out[r] = stage[r] + stage[(r + 7) % n];
}
