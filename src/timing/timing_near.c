/* The near-partition copies of the L2 (timing_near.h): creation and the moves within a set. */
#include "timing/timing_near.h"

#include <stdlib.h>
#include <string.h>

#include "base/pages.h"

/* The bytes of d's ways: every partition's sets of nways. */
static size_t ways_bytes(const near_dir *d)
{
    return (size_t)(d->sets * d->partitions * d->nways) * sizeof *d->ways;
}

int near_dir_init(near_dir *d, uint32_t partitions, uint64_t sets, uint32_t nways)
{
    memset(d, 0, sizeof *d);
    d->partitions = partitions ? partitions : 1;
    d->sets = sets ? sets : 1;
    d->nways = nways ? nways : 1;
    uint64_t all_sets = d->sets * d->partitions;
    /* Pages of sets never read stay unmapped (the bits keep them unread too); a kernel that
     * reaches the L2 touches the sets all over, so they take 2 MiB pages when there is one's
     * worth (base/pages.h: 3,300 faults of 4 KiB pages for the h100's 13 MiB in a 1 Mi-element
     * saxpy). */
    d->ways = pages_alloc_dense(ways_bytes(d));
    d->written = calloc((size_t)((all_sets + 63) / 64), sizeof *d->written);
    if (!d->ways || !d->written) {
        near_dir_fini(d);
        return -1;
    }
    return 0;
}

void near_dir_fini(near_dir *d)
{
    pages_free(d->ways, ways_bytes(d));
    free(d->written);
    memset(d, 0, sizeof *d);
}

near_way *near_dir_move(near_dir *d, near_way *s, uint64_t line1)
{
    uint32_t w = 1;
    near_way e = {line1, 0};
    for (; w < d->nways; w++) {
        if (s[w].line1 == line1) {
            e = s[w];
            break;
        }
        if (!s[w].line1)
            break;
    }
    /* w: the way that leaves its place (found, first empty, or past the last: the least recent
     * way, which is dropped); the ones before it move back by one. */
    if (w == d->nways)
        w = d->nways - 1;
    memmove(s + 1, s, w * sizeof *s);
    s[0] = e;
    return s;
}
