/* Reference for cp_async_stale: what each thread reads before and after its waits. n is t^1 (same warp). Both blocks
 * write the same values (out is indexed by thread only). Before any wait the markers
 * (-1, -4, -5); after wait_group 1 the 16-byte copy has landed (4t, 4t+3) but not the 4-byte
 * one (-5); after wait_group 0 both. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: cp_async_stale LAUNCH.json");
    ref_open(argv[1]);
    int32_t *src = ref_input("src", "i32", 256), *words = ref_input("words", "i32", 64);
    int32_t out[512];
    for (int t = 0; t < 64; t++) {
        int n = t ^ 1;
        out[0 * 64 + t] = -1;
        out[1 * 64 + t] = -4;
        out[2 * 64 + t] = -5;
        out[3 * 64 + t] = src[4 * t];
        out[4 * 64 + t] = src[4 * t + 3];
        out[5 * 64 + t] = -5;
        out[6 * 64 + t] = words[t];
        out[7 * 64 + t] = src[4 * n + 1] + words[n];
    }
    ref_write_expected("out", out, sizeof out);
    free(src);
    free(words);
    return 0;
}
