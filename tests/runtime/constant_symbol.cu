// __constant__ data set with cudaMemcpyToSymbol (which a launch file cannot express), changed
// between two launches and read back with cudaMemcpyFromSymbol; the kernel evaluates a
// polynomial whose coefficients every thread reads at the same constant address.
#include <cmath>
#include "rt_check.h"

__constant__ float coeffs[8];
__constant__ int degree;

__global__ void poly(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = i * 0.01f, acc = 0.0f;
    for (int k = degree; k >= 0; k--)
        acc = acc * x + coeffs[k];
    y[i] = acc;
}

// The host's Horner loop with the fused multiply-add that nvcc makes of acc * x + coeffs[k]:
// both round once per step, so the results are equal bit for bit.
static float host_poly(const float *c, int d, int i)
{
    float x = i * 0.01f, acc = 0.0f;
    for (int k = d; k >= 0; k--)
        acc = std::fmaf(acc, x, c[k]);
    return acc;
}

int main()
{
    const int n = 512;
    float c[8] = {1, -2, 0.5f, 0.25f, 0, 0, 0, 0}, y[n], check[8];
    int d = 3;
    float *dy;
    CHECK(cudaMalloc(&dy, sizeof y));
    for (int round = 0; round < 2; round++) {
        CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
        CHECK(cudaMemcpyToSymbol(degree, &d, sizeof d));
        poly<<<n / 128, 128>>>(dy, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            EXPECT(y[i] == host_poly(c, d, i), "round %d y[%d] = %.9g, host %.9g", round, i,
                   y[i], host_poly(c, d, i));
        c[4] = 3.0f; // a higher degree for the second round, at an offset of the symbol
        d = 4;
    }
    CHECK(cudaMemcpyFromSymbol(check, coeffs, sizeof check));
    EXPECT(check[4] == 3.0f && check[0] == 1.0f, "coeffs read back %g %g", check[0], check[4]);
    float one = 7.0f;
    CHECK(cudaMemcpyToSymbol(coeffs, &one, sizeof one, 2 * sizeof(float)));
    CHECK(cudaMemcpyFromSymbol(&one, coeffs, sizeof one, 2 * sizeof(float)));
    EXPECT(one == 7.0f, "coeffs[2] = %g after a copy at an offset", one);
    CHECK(cudaFree(dy));
    std::printf("constant_symbol: ok\n");
    return 0;
}
