// Device-side memcpy and memset. nvcc 13 calls no library function for them: it expands each
// into loads and stores (a byte loop for a run-time length, unrolled bytes for a small constant
// one, a word loop for a struct assignment), so the simulator runs what it emits as ordinary
// code. Thread t copies t % 29 bytes of its source row and fills the rest of its 32-byte row
// with the byte `fill`; every thread also copies a 16-byte header and a 40-int struct.
#include <cstring>

struct Record {
    int words[40];
};

__global__ void device_memcpy(const unsigned char *__restrict__ src, unsigned char *rows,
                              unsigned char *headers, Record *records, const Record *proto,
                              int fill)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    size_t n = t % 29;
    unsigned char *row = rows + 32 * t;
    memcpy(row, src + 32 * t, n);
    memset(row + n, fill, 32 - n);
    memcpy(headers + 16 * t, src + t, 16);
    records[t] = proto[t % 3];
}
