/* Reference for bulk_store: each CTA's tile (0.5 i + 1000 b) copied to out, its first 64 floats
 * added into sum (whose start is i), and its 8x16 box stored into the 20x12 matrix at
 * (x0, y0 + 8 b), clipped at the matrix's edges (the rest of the matrix keeps its -1). */
#include "ref_common.h"

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: bulk_store LAUNCH.json");
    ref_open(argv[1]);
    float *out = ref_input("out", "f32", 512), *sum = ref_input("sum", "f32", 64);
    float *mat = ref_input("mat", "f32", 240);
    int x0 = (int)ref_arg_int(0, 3), y0 = (int)ref_arg_int(0, 4), clipped = 0;
    for (int b = 0; b < 2; b++) {
        float tile[256];
        for (int i = 0; i < 256; i++) tile[i] = 0.5f * (float)i + 1000.0f * (float)b;
        for (int i = 0; i < 256; i++) out[256 * b + i] = tile[i];
        for (int i = 0; i < 64; i++) sum[i] += tile[i];
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 16; c++) {
                int x = x0 + c, y = y0 + 8 * b + r;
                if (x >= 20 || y >= 12) {
                    clipped++;
                    continue;
                }
                mat[y * 20 + x] = tile[r * 16 + c];
            }
    }
    ref_require(clipped > 0, "the boxes must hang over the matrix's edges");
    ref_write_expected("out", out, 512 * sizeof *out);
    ref_write_expected("sum", sum, 64 * sizeof *sum);
    ref_write_expected("mat", mat, 240 * sizeof *mat);
    return 0;
}
