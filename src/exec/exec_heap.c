/* The device heap of a launch: malloc and free as system calls of the machine (IR_SYSCALL_MALLOC,
 * IR_SYSCALL_FREE; docs/semantics.md, "Device heap"). The heap is one region of device global
 * memory [launch.heap_base, + heap_bytes) that the sim layer allocates; this file only decides
 * which bytes of it each call gets. The blocks' bookkeeping lives on the host, so a kernel that
 * writes outside its block cannot corrupt it, and the allocator is deterministic: first fit in
 * address order, every block a multiple of 16 bytes at a 16-byte aligned offset. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"

enum { HEAP_ALIGN = 16 };

/* Grows an array of `size`-byte elements to hold at least need + 1. Returns 0 or -1. */
static int grow(void **data, uint32_t *cap, uint32_t need, size_t size)
{
    if (need < *cap)
        return 0;
    uint32_t n = *cap ? *cap * 2 : 64;
    void *p = realloc(*data, (size_t)n * size);
    if (!p)
        return -1;
    *data = p;
    *cap = n;
    return 0;
}

/* Index of the first live block whose offset is >= off. */
static uint32_t live_lower_bound(const exec_heap *h, uint64_t off)
{
    uint32_t lo = 0, hi = h->nlive;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->live[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint32_t freed_lower_bound(const exec_heap *h, uint64_t off)
{
    uint32_t lo = 0, hi = h->nfreed;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->freed[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The heap offset a block of `bytes` (rounded up) takes, first fit; *at (OUT) the index its
 * entry takes in live[]. Returns 0, or 1 when no gap is large enough. */
static int first_fit(const exec_heap *h, uint64_t heap_bytes, uint64_t bytes, uint64_t *off,
                     uint32_t *at)
{
    uint64_t cur = 0;
    for (uint32_t i = 0; i <= h->nlive; i++) {
        uint64_t end = i < h->nlive ? h->live[i].offset : heap_bytes;
        if (end - cur >= bytes) {
            *off = cur;
            *at = i;
            return 0;
        }
        if (i < h->nlive)
            cur = h->live[i].offset + h->live[i].bytes;
    }
    return 1;
}

int exec_heap_malloc(exec_run_state *rs, uint64_t size, uint64_t *addr)
{
    exec_heap *h = &rs->heap;
    uint64_t heap_bytes = rs->launch->heap_bytes;
    *addr = 0;
    if (size == 0 || size > heap_bytes)
        return 0;
    uint64_t bytes = (size + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN;
    uint64_t off;
    uint32_t at;
    if (first_fit(h, heap_bytes, bytes, &off, &at))
        return 0;
    if (grow((void **)&h->live, &h->live_cap, h->nlive, sizeof *h->live))
        return -1;
    memmove(&h->live[at + 1], &h->live[at], (size_t)(h->nlive - at) * sizeof *h->live);
    h->live[at] = (exec_heap_block){off, bytes};
    h->nlive++;
    /* Freed starts inside the new block are no longer double frees but bad pointers. */
    uint32_t a = freed_lower_bound(h, off), b = freed_lower_bound(h, off + bytes);
    if (b > a) {
        memmove(&h->freed[a], &h->freed[b], (size_t)(h->nfreed - b) * sizeof *h->freed);
        h->nfreed -= b - a;
    }
    *addr = rs->launch->heap_base + off;
    return 0;
}

int exec_heap_free(exec_run_state *rs, uint64_t addr)
{
    exec_heap *h = &rs->heap;
    uint64_t base = rs->launch->heap_base;
    if (addr == 0)
        return EXEC_HEAP_FREED;
    if (addr < base || addr - base >= rs->launch->heap_bytes)
        return EXEC_HEAP_NOT_HEAP;
    uint64_t off = addr - base;
    uint32_t i = live_lower_bound(h, off);
    if (i < h->nlive && h->live[i].offset == off) {
        uint32_t f = freed_lower_bound(h, off);
        if (grow((void **)&h->freed, &h->freed_cap, h->nfreed, sizeof *h->freed))
            return -1;
        memmove(&h->live[i], &h->live[i + 1], (size_t)(h->nlive - i - 1) * sizeof *h->live);
        h->nlive--;
        memmove(&h->freed[f + 1], &h->freed[f], (size_t)(h->nfreed - f) * sizeof *h->freed);
        h->freed[f] = off;
        h->nfreed++;
        return EXEC_HEAP_FREED;
    }
    uint32_t f = freed_lower_bound(h, off);
    if (f < h->nfreed && h->freed[f] == off)
        return EXEC_HEAP_DOUBLE_FREE;
    return i > 0 && off < h->live[i - 1].offset + h->live[i - 1].bytes ? EXEC_HEAP_INTERIOR
                                                                        : EXEC_HEAP_NOT_BLOCK;
}

void exec_heap_release(exec_heap *h)
{
    free(h->live);
    free(h->freed);
    memset(h, 0, sizeof *h);
}

int exec_program_uses_heap(const exec_program *p)
{
    const ir_module *m = p->module;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f].syscall == IR_SYSCALL_MALLOC || m->funcs[f].syscall == IR_SYSCALL_FREE)
            return 1;
    return 0;
}
