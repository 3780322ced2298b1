/* Reference for device_memcpy: thread t's 32-byte row holds the first t % 29 bytes of its source
 * row and then the fill byte; its 16-byte header is src[t .. t+15]; its record is proto record
 * t % 3 (40 ints). */
#include "ref_common.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: device_memcpy LAUNCH.json");
    ref_open(argv[1]);
    size_t threads = ref_launch_threads(0);
    uint8_t *src = ref_input("src", "u8", 32 * threads + 16);
    uint8_t *rows = ref_input("rows", "u8", 32 * threads);
    uint8_t *headers = ref_input("headers", "u8", 16 * threads);
    int32_t *records = ref_input("records", "i32", 40 * threads);
    int32_t *proto = ref_input("proto", "i32", 120);
    uint8_t fill = (uint8_t)ref_arg_int(0, 5);
    for (size_t t = 0; t < threads; ++t) {
        size_t n = t % 29;
        memcpy(rows + 32 * t, src + 32 * t, n);
        memset(rows + 32 * t + n, fill, 32 - n);
        memcpy(headers + 16 * t, src + t, 16);
        memcpy(records + 40 * t, proto + 40 * (t % 3), 40 * sizeof(int32_t));
    }
    ref_write_expected("rows", rows, 32 * threads);
    ref_write_expected("headers", headers, 16 * threads);
    ref_write_expected("records", records, 40 * threads * sizeof(int32_t));
    free(src), free(rows), free(headers), free(records), free(proto);
    return 0;
}
