/* Five-point stencil on a width x height grid; the border is copied. */
__kernel void stencil2d(__global const float *in, __global float *out, int width, int height)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}
