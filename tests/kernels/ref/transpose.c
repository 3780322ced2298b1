/* Reference for transpose_naive and transpose_padded: out[x][y] = in[y][x]. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: transpose LAUNCH.json");
    ref_open(argv[1]);
    int width = (int)ref_arg_int(0, 2), height = (int)ref_arg_int(0, 3);
    float *in = ref_input("in", "f32", (size_t)width * height);
    float *out = ref_input("out", "f32", (size_t)width * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            out[x * height + y] = in[y * width + x];
    ref_write_expected("out", out, sizeof(float) * (size_t)width * height);
    free(in);
    free(out);
    return 0;
}
