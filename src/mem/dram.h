/* DRAM backing store: a sparse, paged byte store over the whole 64-bit address space.
 *
 * Pages (64 KiB unless configured) are allocated on first write, so memory use follows the bytes a
 * run touches, not the addresses it could name. Bytes never written read as 0, or as the byte a
 * page was poisoned with (dram_fill_pattern). Counted transfers (dram_read, dram_write) model the
 * traffic between the last cache level and DRAM; dram_peek/dram_poke move data without counting,
 * for loading input buffers and reading outputs.
 *
 * This module is not a timing model (no banks, rows or bandwidth) and knows nothing of caches.
 * It also defines mem_status, the status code shared by the src/mem modules.
 * Implements docs/cache-model.md §"DRAM backing store". */
#ifndef GMS_MEM_DRAM_H
#define GMS_MEM_DRAM_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

/* Status of every src/mem call. */
typedef enum mem_status {
    MEM_OK = 0,
    MEM_ERR_NOMEM,    /* an allocation failed or the configured memory limit was reached */
    MEM_ERR_ARGUMENT, /* bad argument: range wraps past 2^64, crosses a cache line, bad hint */
    MEM_ERR_CONFIG,   /* invalid configuration (a diagnostic names the field) */
} mem_status;

typedef struct dram dram;

typedef struct dram_config {
    uint32_t page_bytes;   /* allocation unit: power of two in [4 KiB, 16 MiB]; 0 means 64 KiB */
    uint64_t limit_bytes;  /* most bytes of page data that may be allocated; 0 means no limit */
} dram_config;

/* Traffic and footprint counters. Only dram_read/dram_write count traffic. */
typedef struct dram_stats {
    uint64_t reads, writes;           /* calls of dram_read / dram_write */
    uint64_t read_bytes, write_bytes; /* bytes requested by those calls (masked-off bytes count:
                                         they were transferred, only not stored) */
    uint64_t pages_allocated;         /* pages holding their own data */
    uint64_t bytes_allocated;         /* pages_allocated * page_bytes */
} dram_stats;

/* Creates an empty store. `config` is borrowed and may be NULL for the defaults; `dl` (borrowed)
 * receives a diagnostic for each error. On success *out (OUT) owns the store; free it with
 * dram_destroy.
 * Returns MEM_OK; MEM_ERR_CONFIG for a bad page size [MEM-DRAM-001]; MEM_ERR_NOMEM when the
 * store itself cannot be allocated [MEM-DRAM-002]. */
mem_status dram_create(const dram_config *config, diag_list *dl, dram **out);
/* Frees the store and every page. NULL is allowed. */
void dram_destroy(dram *d);

/* Reads `bytes` bytes starting at byte address `addr` into `out` (OUT, borrowed, `bytes` long)
 * and counts them as DRAM read traffic. Unwritten bytes read as 0 or as their page's poison byte.
 * Returns MEM_OK, or MEM_ERR_ARGUMENT when addr + bytes wraps past 2^64 (nothing is read). */
mem_status dram_read(dram *d, uint64_t addr, size_t bytes, void *out);
/* Writes `bytes` bytes of `data` (borrowed) at `addr` and counts them as DRAM write traffic.
 * `byte_mask` (borrowed, may be NULL) has one byte per data byte: where it is 0 the stored byte is
 * left unchanged. Pages are allocated first, so a failed write changes no data.
 * Returns MEM_OK; MEM_ERR_ARGUMENT when the range wraps; MEM_ERR_NOMEM when a page cannot be
 * allocated (malloc failure or the configured limit). */
mem_status dram_write(dram *d, uint64_t addr, size_t bytes, const void *data,
                      const uint8_t *byte_mask);
/* A hint without effect on the store or its counters: brings the stored bytes of the aligned
 * 128 bytes holding byte address `addr` towards the host's caches, for a dram_read that will
 * probably follow. Nothing for a page without data. Never fails. A host-speed aid only. */
void dram_prefetch(const dram *d, uint64_t addr);
/* As dram_read and dram_write (unmasked), without counting traffic: for loading kernel inputs and
 * reading results. Same return values. */
mem_status dram_peek(const dram *d, uint64_t addr, size_t bytes, void *out);
mem_status dram_poke(dram *d, uint64_t addr, size_t bytes, const void *data);
/* Sets `bytes` bytes at `addr` to `byte` without counting traffic ("poison discarded data").
 * Whole pages that hold no data only record the byte, so poisoning a large range costs no page
 * memory; whole pages that hold data are released and recorded likewise.
 * Returns MEM_OK; MEM_ERR_ARGUMENT when the range wraps (nothing changes); MEM_ERR_NOMEM when a
 * page or table slot cannot be allocated (pages before the failing one are already poisoned). */
mem_status dram_fill_pattern(dram *d, uint64_t addr, uint64_t bytes, uint8_t byte);

/* Adds `calls` reads of `bytes` bytes in all to the traffic counters, as that many dram_read
 * calls would have counted them (reads made with dram_peek by host threads that may not share
 * the counters: memsys_l2log.c). */
void dram_count_reads(dram *d, uint64_t calls, uint64_t bytes);
/* Counters since creation or the last dram_reset_stats. The pointer is valid until destroy. */
const dram_stats *dram_get_stats(const dram *d);
/* Zeroes the traffic counters (reads, writes, read_bytes, write_bytes); footprint stays. */
void dram_reset_stats(dram *d);
/* The page size in bytes. */
uint32_t dram_page_bytes(const dram *d);

#endif
