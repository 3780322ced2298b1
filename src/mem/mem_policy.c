/* L2 cache-policy descriptors and access-policy windows (mem_policy.h). */
#include "mem/mem_policy.h"

#include <math.h>

static uint64_t code_of(uint8_t evict)
{
    switch (evict) {
    case IR_EVICT_FIRST: return POLICY_CODE_FIRST;
    case IR_EVICT_LAST: return POLICY_CODE_LAST;
    case IR_EVICT_NORMAL: return POLICY_CODE_NORMAL;
    default: return POLICY_CODE_UNCHANGED;
    }
}

static uint8_t evict_of(uint64_t code)
{
    static const uint8_t map[4] = {IR_EVICT_UNCHANGED, IR_EVICT_FIRST, IR_EVICT_LAST,
                                   IR_EVICT_NORMAL};
    return map[code & 3];
}

uint64_t policy_encode_fractional(uint8_t primary, uint8_t secondary, float fraction)
{
    if (!(fraction > 0.0f))
        fraction = 1.0f / 16;
    if (fraction > 1.0f)
        fraction = 1.0f;
    uint64_t f = (uint64_t)ceilf(16.0f * fraction) - 1;
    return (2ull << 59) | (code_of(primary) << 57) |
           ((uint64_t)(secondary == IR_EVICT_FIRST) << 56) | (f << 52);
}

static unsigned ceil_log2(uint64_t x)
{
    unsigned k = 0;
    while (k < 63 && (1ull << k) < x) k++;
    return k;
}

uint64_t policy_encode_range(uint8_t primary, uint8_t secondary, uint64_t base,
                             uint32_t primary_bytes, uint32_t total_bytes)
{
    unsigned log2b = ceil_log2(total_bytes ? total_bytes : 1);
    log2b = log2b > 19 ? log2b - 7 : 12;
    if (log2b > 25)
        log2b = 25;
    uint64_t block = 1ull << log2b;
    uint64_t start = base >> log2b;
    uint64_t end = (base + primary_bytes + block - 1) >> log2b;
    uint64_t count = end > start ? end - start : 1;
    if (count > 127)
        count = 127;
    return (3ull << 59) | (code_of(primary) << 57) |
           ((uint64_t)(secondary == IR_EVICT_FIRST) << 56) | ((uint64_t)(log2b - 12) << 52) |
           ((start & 0x7F) << 44) | (count << 37);
}

int policy_line_selected(uint64_t addr, uint32_t parts)
{
    uint64_t h = (addr >> 7) * 0x9E3779B97F4A7C15ull;
    return (h >> 60) < parts;
}

uint8_t policy_priority(uint64_t desc, uint64_t addr, int *valid)
{
    uint64_t mode = (desc >> 59) & 3;
    *valid = mode != 1;
    if (mode == 0 || mode == 1)
        return IR_EVICT_NONE;
    uint8_t primary = evict_of(desc >> 57);
    uint8_t secondary = (desc >> 56) & 1 ? IR_EVICT_FIRST : IR_EVICT_UNCHANGED;
    if (mode == 2)
        return policy_line_selected(addr, (uint32_t)((desc >> 52) & 0xF) + 1) ? primary : secondary;
    unsigned log2b = 12 + (unsigned)((desc >> 52) & 0xF);
    uint64_t start = (desc >> 44) & 0x7F, count = (desc >> 37) & 0x7F;
    uint64_t rel = ((addr >> log2b) - start) & 0x7F;
    return rel < count ? primary : secondary;
}

uint8_t policy_window_priority(const policy_window *w, uint64_t addr)
{
    if (!w || !w->bytes || addr - w->base >= w->bytes)
        return IR_EVICT_NONE;
    static const uint8_t prop[3] = {IR_EVICT_NORMAL, IR_EVICT_FIRST, IR_EVICT_LAST};
    uint32_t parts = (uint32_t)lround(w->hit_ratio * 16.0);
    int hit = w->hit_ratio >= 1.0 || policy_line_selected(addr, parts);
    uint8_t p = hit ? w->hit_prop : w->miss_prop;
    return p < 3 ? prop[p] : IR_EVICT_NONE;
}
