// Copies between launches: the host changes the data between kernels (a scale, then a host-side
// update, then a second kernel on a device-to-device copy), every direction of cudaMemcpy
// including cudaMemcpyDefault.
#include "rt_check.h"

__global__ void scale(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

int main()
{
    const int n = 4096;
    static float h[n], back[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    float *x, *y, *z;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    CHECK(cudaMalloc(&z, n * sizeof(float)));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    scale<<<n / 128, 128>>>(y, x, 2.0f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(back, y, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == 2.0f * i, "y[%d] = %g", i, back[i]);
    for (int i = 0; i < n; i++)
        back[i] += 1.0f; // the host's turn
    CHECK(cudaMemcpy(x, back, sizeof back, cudaMemcpyDefault));
    CHECK(cudaMemcpy(z, x, sizeof back, cudaMemcpyDeviceToDevice));
    scale<<<n / 128, 128>>>(y, z, 0.5f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(back, y, sizeof back, cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == 0.5f * (2.0f * i + 1.0f), "second y[%d] = %g", i, back[i]);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
    std::printf("copies_between: ok\n");
    return 0;
}
