/* Reference for grid_sync: over the n threads of the grid, v[r] = in[r] + in[(r + 1) % n], then
 * out[r] = v[r] + v[(r + 7) % n]. Both launches compute the same from the same input (8 x 128
 * and 4 x 256 threads), so the expected output is that of either. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: grid_sync LAUNCH.json");
    ref_open(argv[1]);
    size_t n = ref_launch_threads(0);
    ref_require(n == ref_launch_threads(1), "grid_sync's launches must have as many threads");
    int32_t *in = ref_input("in", "i32", n);
    int32_t *v = ref_input("stage", "i32", n);
    int32_t *out = ref_input("out", "i32", n);
    for (size_t r = 0; r < n; ++r)
        v[r] = in[r] + in[(r + 1) % n];
    for (size_t r = 0; r < n; ++r)
        out[r] = v[r] + v[(r + 7) % n];
    ref_write_expected("out", out, n * sizeof(int32_t));
    free(in), free(v), free(out);
    return 0;
}
