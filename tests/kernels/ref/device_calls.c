/* Reference for device_calls. Generates a random binary search tree of 255 nodes (node k holds the
 * k-th inserted random key; left.in.bin/right.in.bin hold child indices, -1 for none), then
 * computes each thread's subtree height, the blend (folded by nvcc into
 * fma(a, 0.25, b * 0.75) * height) and the combined 64-bit value. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

#define NODES 255

static int height(const int32_t *left, const int32_t *right, int node)
{
    if (node < 0)
        return 0;
    int hl = height(left, right, left[node]), hr = height(left, right, right[node]);
    return 1 + (hl > hr ? hl : hr);
}

static void build_tree(int32_t *left, int32_t *right)
{
    int32_t keys[NODES];
    uint64_t state = 2301;
    for (int k = 0; k < NODES; ++k) {
        keys[k] = (int32_t)ref_random_int(&state, 0, 1000000);
        left[k] = right[k] = -1;
        if (k == 0)
            continue;
        int node = 0;
        for (;;) {
            int32_t *child = keys[k] < keys[node] ? &left[node] : &right[node];
            if (*child < 0) {
                *child = k;
                break;
            }
            node = *child;
        }
    }
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: device_calls LAUNCH.json");
    int32_t left_gen[NODES], right_gen[NODES];
    build_tree(left_gen, right_gen);
    ref_write_file("left.in.bin", left_gen, sizeof left_gen);
    ref_write_file("right.in.bin", right_gen, sizeof right_gen);

    ref_open(argv[1]);
    ref_require(ref_arg_int(0, 2) == NODES, "node count argument");
    size_t n = (size_t)ref_arg_int(0, 7);
    int32_t *left = ref_input("left", "i32", NODES), *right = ref_input("right", "i32", NODES);
    float *x = ref_input("x", "f32", n);
    int32_t *heights = ref_input("heights", "i32", n);
    float *blended = ref_input("blended", "f32", n);
    uint64_t *combined = ref_input("combined", "u64", n);
    for (size_t i = 0; i < n; ++i) {
        int node = (int)(i % NODES);
        int h = height(left, right, node);
        float value = fmaf(x[i], 0.25f, x[(i + 1) % n] * 0.75f) * (float)h;
        heights[i] = h;
        blended[i] = value;
        combined[i] = (uint64_t)i * 31u + (uint64_t)h * 1000u + (uint64_t)node +
                      (uint32_t)(int32_t)value;
    }
    ref_require(heights[0] >= 12, "the tree is deep enough to need real recursion");
    ref_write_expected("heights", heights, n * sizeof *heights);
    ref_write_expected("blended", blended, n * sizeof *blended);
    ref_write_expected("combined", combined, n * sizeof *combined);
    free(left), free(right), free(x), free(heights), free(blended), free(combined);
    return 0;
}
