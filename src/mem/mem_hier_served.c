/* The served records of a warp's global or local access (mem.h, mem_access.served; docs/
 * timing.md, "Memory"): every touched sector of its line requests with the level that served
 * it (a read) or accepted it (a write), written once the access's lines went through the
 * hierarchy (mem_hier.c), and the surface counters drawn from them. */
#include <string.h>

#include "mem/mem_hier.h"

void hier_count_surface(mem_request *rq, const mem_access *acc)
{
    rq->counters->surface.requests++;
    for (uint32_t i = 0; i < acc->nserved; i++) {
        if (acc->served[i].level == MEM_LEVEL_L2)
            rq->counters->surface.sectors_l2++;
        else if (acc->served[i].level == MEM_LEVEL_DRAM)
            rq->counters->surface.sectors_dram++;
    }
}

/* The counts and bases live in locals: the entries' one-byte level fields may alias anything,
 * so the compiler would otherwise load them again after every entry. */
void hier_report_levels(memsys *ms, mem_access *acc, uint32_t l1_lines)
{
    const uint32_t sector = ms->cfg.l1.sector_bytes, nreqs = ms->nreqs;
    const uint32_t per_line = ms->line_bytes >> ms->l1_sector_shift; /* most sectors a line has */
    const line_req *reqs = ms->reqs;
    mem_served *served = acc->served;
    uint32_t levels = 0, n = acc->nserved, i = 0;
    if (l1_lines && n + (uint64_t)l1_lines * per_line <= MEM_MAX_SERVED) {
        /* Lines [0, l1_lines) are all L1 (their line_level not written), with room for all:
         * each entry a copy of one template with its address. */
        mem_served e, *out = served + n;
        memset(&e, 0, sizeof e); /* padding too: entries are compared as bytes by twin tests */
        e.level = MEM_LEVEL_L1;
        const unsigned shift = ms->l1_sector_shift;
        for (; i < l1_lines; i++) {
            uint64_t line_addr = reqs[i].line_addr, s = reqs[i].sectors;
            do { /* a held line has a sector */
                e.addr = line_addr + ((uint64_t)__builtin_ctzll(s) << shift);
                *out++ = e;
                s &= s - 1;
            } while (s);
        }
        n = (uint32_t)(out - served);
        levels |= 1u << MEM_LEVEL_L1; /* every line has a sector */
    }
    for (; i < nreqs; i++) {
        const line_req *r = &reqs[i];
        uint64_t line_addr = r->line_addr, s = r->sectors;
        if (r->line_level == MEM_LEVEL_L1 || i < l1_lines) { /* L1 hits, stores the L1 kept */
            if (s && n < MEM_MAX_SERVED)
                levels |= 1u << MEM_LEVEL_L1;
            if (n + per_line <= MEM_MAX_SERVED) { /* room for every sector: no test per entry */
                for (; s; s &= s - 1)
                    served[n++] = (mem_served){line_addr + (unsigned)__builtin_ctzll(s) * sector,
                                               MEM_LEVEL_L1, 0};
            } else {
                for (; s && n < MEM_MAX_SERVED; s &= s - 1)
                    served[n++] = (mem_served){line_addr + (unsigned)__builtin_ctzll(s) * sector,
                                               MEM_LEVEL_L1, 0};
            }
            continue;
        }
        if (r->line_level != MEM_LEVEL_NONE) { /* one level below: its slice looked up once */
            mem_served e;
            memset(&e, 0, sizeof e); /* padding too, as above */
            e.level = r->line_level;
            if (s && n < MEM_MAX_SERVED) {
                levels |= 1u << e.level;
                e.l2_slice = r->l2_slice != HIER_SLICE_UNKNOWN
                                 ? r->l2_slice
                                 : (uint16_t)cache_slice_of(ms->l2, line_addr);
            }
            if (n + per_line <= MEM_MAX_SERVED) { /* room for every sector: no test per entry */
                for (; s; s &= s - 1) {
                    e.addr = line_addr + (unsigned)__builtin_ctzll(s) * sector;
                    served[n++] = e;
                }
            } else {
                for (; s && n < MEM_MAX_SERVED; s &= s - 1) {
                    e.addr = line_addr + (unsigned)__builtin_ctzll(s) * sector;
                    served[n++] = e;
                }
            }
            continue;
        }
        int32_t slice = -1;
        uint16_t l2_slice = 0;
        if (n + per_line <= MEM_MAX_SERVED) { /* room for every sector: no test per entry */
            for (; s; s &= s - 1) {
                unsigned k = (unsigned)__builtin_ctzll(s);
                uint8_t lv = r->level[k];
                if (lv != MEM_LEVEL_L1 && slice < 0) {
                    slice = (int32_t)cache_slice_of(ms->l2, line_addr);
                    l2_slice = (uint16_t)slice;
                }
                served[n++] = (mem_served){line_addr + k * sector, lv, l2_slice};
                levels |= 1u << lv;
            }
            continue;
        }
        for (; s && n < MEM_MAX_SERVED; s &= s - 1) {
            unsigned k = (unsigned)__builtin_ctzll(s);
            uint8_t lv = r->level[k];
            if (lv != MEM_LEVEL_L1 && slice < 0)
                slice = (int32_t)cache_slice_of(ms->l2, line_addr);
            served[n++] = (mem_served){line_addr + k * sector, lv,
                                       (uint16_t)(slice < 0 ? 0 : slice)};
            levels |= 1u << lv;
        }
    }
    acc->nserved = n;
    acc->levels |= (uint8_t)levels;
}
