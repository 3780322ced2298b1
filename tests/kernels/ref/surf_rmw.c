/* Reference for surf_rmw: each launch adds delta (x + 1) - y to texel (x, y), in 32-bit
 * unsigned arithmetic, starting from the image's init. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: surf_rmw LAUNCH.json");
    ref_open(argv[1]);
    size_t w = (size_t)ref_arg_int(0, 1), h = (size_t)ref_arg_int(0, 2);
    uint32_t *img = ref_input("img", "u32", w * h);
    for (size_t k = 0; k < ref_launch_count(); ++k) {
        ref_require(ref_launch_threads(k) >= w * h, "the grid covers the image");
        uint32_t delta = (uint32_t)ref_arg_int(k, 3);
        for (size_t y = 0; y < h; ++y)
            for (size_t x = 0; x < w; ++x)
                img[y * w + x] += delta * (uint32_t)(x + 1) - (uint32_t)y;
    }
    ref_write_expected("img", img, w * h * sizeof *img);
    free(img);
    return 0;
}
