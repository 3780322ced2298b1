/* A faster peek of a run for the parked loads by SMs (cache.h, cache_peek_run): the common
 * cases, a line absent, holding every byte of the run or none, without cache_peek's byte
 * loop. Kept apart from cache.c; it reaches the line only through cache_ops.h's accessors. */
#include <string.h>

#include "mem/cache.h"
#include "mem/cache_ops.h"

int cache_peek_run(const cache *c, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    uint32_t line = lookup_line(c, addr);
    if (line == NO_INDEX)
        return -1;
    uint32_t offset = (uint32_t)(addr & ((UINT64_C(1) << c->line_shift) - 1));
    if (offset + bytes > c->config.line_bytes)
        return 0;
    uint64_t *valid = valid_bits(c, line);
    if (bits_apply(valid, offset, bytes, BITS_ALL)) {
        memcpy(out, line_data(c, line) + offset, bytes);
        return 1;
    }
    /* a line held without a valid byte of the run (a sector not yet filled) gives nothing */
    return bits_apply(valid, offset, bytes, BITS_ANY) ? 0 : -1;
}
