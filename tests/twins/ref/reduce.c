/* Reference for the reduce twin: out[b] = sum of in[256 b .. 256 b + 255] (mod 2^32). */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: reduce LAUNCH.json");
    ref_open(argv[1]);
    size_t blocks = ref_launch_threads(0) / 256;
    uint32_t *in = ref_input("in", "u32", blocks * 256), *out = ref_input("out", "u32", blocks);
    for (size_t b = 0; b < blocks; b++) {
        uint32_t s = 0;
        for (size_t t = 0; t < 256; t++)
            s += in[b * 256 + t];
        out[b] = s;
    }
    ref_write_expected("out", out, sizeof *out * blocks);
    free(in);
    free(out);
    return 0;
}
