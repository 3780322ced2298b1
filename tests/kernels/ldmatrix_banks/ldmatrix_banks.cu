// ldmatrix.x4 from a 32 x 64 tile of 16-bit elements in shared memory (128-byte rows), each lane
// naming the first 16 bytes of one row: without a swizzle the 8 rows of each phase sit in the
// same four banks (8 wavefronts a phase), with the 16-byte chunks of row r stored at chunk
// c ^ (r % 8) they cover all 32 banks (one wavefront a phase). Both write the registers out.
// Then an ldmatrix.x1.trans of the plain tile (one phase of 8 rows, lanes 0-7) and an
// ldmatrix.x2 of the swizzled one (two phases, lanes 0-15).
#include <stdint.h>

__device__ __forceinline__ void ldmatrix_x4(unsigned *r, const void *p)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}

__global__ void ldmatrix_banks(const uint16_t *in, unsigned *plain, unsigned *swizzled,
                               unsigned *x1, unsigned *x2)
{
    __shared__ __align__(128) uint16_t tile[32 * 64];
    __shared__ __align__(128) uint16_t tile_sw[32 * 64];
    int lane = threadIdx.x;
    for (int i = lane; i < 32 * 64; i += 32) {
        int row = i / 64, col = i % 64, chunk = col / 8;
        tile[i] = in[i];
        tile_sw[row * 64 + ((chunk ^ (row % 8)) * 8) + col % 8] = in[i];
    }
    __syncwarp();
    unsigned r[4];
    ldmatrix_x4(r, &tile[lane * 64]);
    for (int i = 0; i < 4; i++) plain[lane * 4 + i] = r[i];
    ldmatrix_x4(r, &tile_sw[lane * 64 + (lane % 8) * 8]);
    for (int i = 0; i < 4; i++) swizzled[lane * 4 + i] = r[i];
    // x1.trans: rows 0-7 of the plain tile, their second 16-byte chunk (columns 8-15)
    unsigned a1 = (unsigned)__cvta_generic_to_shared(&tile[(lane % 8) * 64 + 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a1));
    x1[lane] = r[0];
    // x2: rows 0-15 of the swizzled tile, their logical chunk 2 (columns 16-23)
    int row = lane % 16;
    unsigned a2 = (unsigned)__cvta_generic_to_shared(&tile_sw[row * 64 + ((2 ^ (row % 8)) * 8)]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(a2));
    x2[lane * 2] = r[0];
    x2[lane * 2 + 1] = r[1];
}
