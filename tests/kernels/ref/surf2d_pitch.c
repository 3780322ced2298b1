/* Reference for surf2d_pitch: dst(x, y) = src(x, y) + 2 src(min(x + 1, w - 1), y)
 * + 4 (y + 1 < h ? src(x, y + 1) : 0), in 32-bit unsigned arithmetic. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: surf2d_pitch LAUNCH.json");
    ref_open(argv[1]);
    size_t w = (size_t)ref_arg_int(0, 2), h = (size_t)ref_arg_int(0, 3);
    ref_require(ref_launch_threads(0) >= w * h, "the grid covers the image");
    uint32_t *src = ref_input("src", "u32", w * h);
    uint32_t *dst = ref_input("dst", "u32", w * h);
    for (size_t y = 0; y < h; ++y) {
        for (size_t x = 0; x < w; ++x) {
            uint32_t right = src[y * w + (x + 1 < w ? x + 1 : w - 1)];
            uint32_t below = y + 1 < h ? src[(y + 1) * w + x] : 0;
            dst[y * w + x] = src[y * w + x] + 2u * right + 4u * below;
        }
    }
    ref_write_expected("dst", dst, w * h * sizeof *dst);
    free(src);
    free(dst);
    return 0;
}
