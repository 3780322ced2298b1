/* Reference for scan_block: the full inclusive prefix sum the three launches build, the per-block
 * totals of the first launch (the last, partial block counts padding as zero), their inclusive
 * scan, and the grand total written by the single-block second launch. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: scan_block LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 3), block_dim = 256, blocks = (n + block_dim - 1) / block_dim;
    ref_require(ref_launch_threads(0) == blocks * block_dim, "first launch covers n exactly");
    ref_require((size_t)ref_arg_int(1, 3) == blocks, "second launch scans the block totals");
    int32_t *in = ref_input("in", "i32", n);
    int32_t *out = ref_input("out", "i32", n);
    int32_t *totals = ref_input("block_totals", "i32", blocks);
    int32_t *scanned = ref_input("scanned_totals", "i32", blocks);
    int32_t *grand = ref_input("grand_total", "i32", 1);
    int32_t running = 0;
    for (size_t i = 0; i < n; ++i) {
        running += in[i];
        out[i] = running;
        totals[i / block_dim] += in[i];
    }
    running = 0;
    for (size_t b = 0; b < blocks; ++b) {
        running += totals[b];
        scanned[b] = running;
    }
    grand[0] = running;
    ref_write_expected("out", out, n * sizeof(int32_t));
    ref_write_expected("block_totals", totals, blocks * sizeof(int32_t));
    ref_write_expected("scanned_totals", scanned, blocks * sizeof(int32_t));
    ref_write_expected("grand_total", grand, sizeof(int32_t));
    free(in);
    free(out);
    free(totals);
    free(scanned);
    free(grand);
    return 0;
}
