/* Reference for surf2d_block: dst (h x w) is the transpose of src (w x h), bit for bit. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: surf2d_block LAUNCH.json");
    ref_open(argv[1]);
    size_t w = (size_t)ref_arg_int(0, 2), h = (size_t)ref_arg_int(0, 3);
    ref_require(ref_launch_threads(0) >= w * h, "the grid covers the image");
    float *src = ref_input("src", "f32", w * h);
    float *dst = ref_input("dst", "f32", w * h);
    for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w; ++x)
            dst[x * h + y] = src[y * w + x];
    ref_write_expected("dst", dst, w * h * sizeof *dst);
    free(src);
    free(dst);
    return 0;
}
