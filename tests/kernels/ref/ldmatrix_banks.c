/* Reference for ldmatrix_banks: register i of lane l holds row l / 4 of 8x8 matrix i (rows
 * 8i..8i+7 of the tile, their first 8 elements), elements 2 (l % 4) (low half) and 2 (l % 4) + 1;
 * the swizzled tile holds the same rows, so both outputs are equal. The x1.trans load of
 * columns 8-15 of rows 0-7 gives lane l the column 8 + l / 4, rows 2 (l % 4) and 2 (l % 4) + 1;
 * the x2 load of columns 16-23 of rows 0-15 gives register i row 8i + l / 4. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: ldmatrix_banks LAUNCH.json");
    ref_open(argv[1]);
    uint16_t *in = ref_input("in", "u16", 2048);
    uint32_t out[128];
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) {
            const uint16_t *row = in + (8 * i + lane / 4) * 64 + 2 * (lane % 4);
            out[lane * 4 + i] = row[0] | (uint32_t)row[1] << 16;
        }
    ref_write_expected("plain", out, sizeof out);
    ref_write_expected("swizzled", out, sizeof out);
    uint32_t x1[32], x2[64];
    for (int lane = 0; lane < 32; lane++) {
        int col = 8 + lane / 4, r0 = 2 * (lane % 4);
        x1[lane] = in[r0 * 64 + col] | (uint32_t)in[(r0 + 1) * 64 + col] << 16;
        for (int i = 0; i < 2; i++) {
            const uint16_t *row = in + (8 * i + lane / 4) * 64 + 16 + 2 * (lane % 4);
            x2[lane * 2 + i] = row[0] | (uint32_t)row[1] << 16;
        }
    }
    ref_write_expected("x1", x1, sizeof x1);
    ref_write_expected("x2", x2, sizeof x2);
    free(in);
    return 0;
}
