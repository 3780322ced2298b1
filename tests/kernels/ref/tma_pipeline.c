/* Reference for tma_pipeline: tile t of the 40x20 matrix (16x8 boxes, 3 by 3, row-major) with
 * the elements outside the matrix read as zero (the map's OOB fill), plus the bias, for both
 * launches (plain and 64-byte-swizzled boxes give the same tiles). */
#include "ref_common.h"

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: tma_pipeline LAUNCH.json");
    ref_open(argv[1]);
    float *m = ref_input("matrix", "f32", 800), *bias = ref_input("bias", "f32", 128);
    float *tiles = ref_input("tiles", "f32", 1152);
    int outside = 0;
    for (int t = 0; t < 9; t++)
        for (int i = 0; i < 128; i++) {
            int x = (t % 3) * 16 + i % 16, y = (t / 3) * 8 + i / 16;
            int in = x < 40 && y < 20;
            outside += !in;
            tiles[t * 128 + i] = (in ? m[y * 40 + x] : 0.0f) + bias[i];
        }
    ref_require(outside > 0, "some boxes must hang over the matrix");
    ref_write_expected("tiles", tiles, 1152 * sizeof *tiles);
    return 0;
}
