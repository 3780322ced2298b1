/* Reference for matmul_tiled: each C element is a chain of fused multiply-adds over k in order,
 * including the zero products that pad the last tile (fma(0, 0, acc) leaves acc unchanged). */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

#define TILE 16

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: matmul_tiled LAUNCH.json");
    ref_open(argv[1]);
    int M = (int)ref_arg_int(0, 3), N = (int)ref_arg_int(0, 4), K = (int)ref_arg_int(0, 5);
    float *A = ref_input("A", "f32", (size_t)M * K);
    float *B = ref_input("B", "f32", (size_t)K * N);
    float *C = ref_input("C", "f32", (size_t)M * N);
    int padded_k = (K + TILE - 1) / TILE * TILE;
    for (int row = 0; row < M; ++row)
        for (int col = 0; col < N; ++col) {
            float acc = 0.0f;
            for (int k = 0; k < padded_k; ++k) {
                float a = k < K ? A[row * K + k] : 0.0f;
                float b = k < K ? B[k * N + col] : 0.0f;
                acc = fmaf(a, b, acc);
            }
            C[row * N + col] = acc;
        }
    ref_write_expected("C", C, sizeof(float) * (size_t)M * N);
    free(A);
    free(B);
    free(C);
    return 0;
}
