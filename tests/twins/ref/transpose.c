/* Reference for the transpose twin: out[x][y] = in[y][x] for a w x h matrix of words. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: transpose LAUNCH.json");
    ref_open(argv[1]);
    size_t w = (size_t)ref_arg_int(0, 2), h = (size_t)ref_arg_int(0, 3);
    ref_require(w % 32 == 0 && h % 32 == 0 && ref_launch_threads(0) * 4 == w * h,
                "w and h must be multiples of 32 and the grid must cover the matrix");
    uint32_t *in = ref_input("in", "u32", w * h), *out = ref_input("out", "u32", w * h);
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++)
            out[x * h + y] = in[y * w + x];
    ref_write_expected("out", out, sizeof *out * w * h);
    free(in);
    free(out);
    return 0;
}
