/* The memory system: device allocations, the generic address map, the per-space windows and the
 * backing store, behind the warp-level access contract of mem.h.
 *
 * This layer resolves every lane's address to a space and a backing location, checks bounds and
 * alignment (faults are reported, never performed), moves the data, and performs atomics in lane
 * order. The cache hierarchy sits between this layer and the backing store. It is not an
 * executor: it knows nothing of registers, warps' control flow or instructions beyond mem_access. */
#ifndef GMS_MEM_MEMSYS_H
#define GMS_MEM_MEMSYS_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "mem/mem.h"
#include "mem/mem_image.h"
#include "mem/mem_stats.h"
#include "mem/mem_texture.h"

typedef struct memsys memsys;
typedef struct memsys_tally memsys_tally; /* counters kept apart (memsys_tally_create) */
typedef struct memsys_store_log memsys_store_log; /* deferred L2 writes (memsys_store_deferred) */

/* Geometry and policies of the modelled hierarchy (filled from a GPU preset by the sim layer,
 * sim_memsys_config; docs/presets.md explains each field). Sizes in bytes. */
typedef struct memsys_config {
    uint32_t sm_count;
    uint32_t tiles;           /* 0 or 1: one tile; n: the SMs and the L2 slices form n equal,
                                 consecutive groups (Intel LSC tile scope; mem_lsc.c) */
    struct {
        uint32_t bytes, line_bytes, sector_bytes, ways;
        uint8_t cache_global_loads;        /* plain global loads allocate in L1 */
        uint8_t global_store_write_through;
        uint8_t global_store_allocate;
        uint8_t local_write_back;
    } l1;
    struct {
        uint64_t bytes;
        uint32_t line_bytes, sector_bytes, ways, slices;
        uint32_t dram_fill_bytes;
        uint64_t persisting_max_bytes;
        uint8_t slice_modulo, write_through; /* slice = line mod slices; stores reach DRAM */
    } l2;
    struct {
        uint32_t banks, bank_width_bytes;
    } shared;
    struct {
        uint32_t bytes, line_bytes, ways;
    } constant, icache;
    uint32_t dram_page_bytes;
} memsys_config;

/* Creates a memory system with cold caches. Returns NULL with a diagnostic (MEM-CACHE-*,
 * MEM-DRAM-*, MEM-SYS-001 for an inconsistent configuration) or when out of memory. */
memsys *memsys_create(const memsys_config *cfg, diag_list *dl);
void memsys_destroy(memsys *ms);

/* Sizes the per-instruction counters for static ids 0..ninsns-1 (clears them). Returns 0 or -1
 * when out of memory. Counters of accesses with ids outside the range are not kept. */
int memsys_set_insn_count(memsys *ms, uint32_t ninsns);
/* A device holding several modules (docs/api.md, "Modules") numbers their instructions one after
 * another: memsys_grow_insns sizes the counters for `total` ids, keeping those kept so far (the new
 * ones start at zero; -1 when out of memory), and memsys_select_insns makes the coming accesses'
 * ids 0..ninsns-1 charge the counters base..base+ninsns-1 (the running module's). After
 * memsys_set_insn_count the window is every id. */
int memsys_grow_insns(memsys *ms, uint32_t total);
void memsys_select_insns(memsys *ms, uint32_t base, uint32_t ninsns);
/* Whoever installed the constant banks last (an exec_program), so that a launch of another
 * module installs its own again; NULL until someone says. */
const void *memsys_const_owner(const memsys *ms);
void memsys_set_const_owner(memsys *ms, const void *owner);
/* Counters per static instruction (every id memsys_set_insn_count or _grow_insns sized) and of work no instruction caused (the final
 * write-back of dirty lines). */
const mem_counters *memsys_insn_counters(const memsys *ms);
const mem_counters *memsys_unattributed_counters(const memsys *ms);
/* Sums every instruction's counters and the unattributed ones into *out, and adds the L2's
 * current lines per eviction class and peak of evict-last lines. */
void memsys_total_counters(const memsys *ms, mem_counters *out);

/* Kernel boundary: L1 caches drop their global lines (an SM's L1 is not coherent, so the driver
 * invalidates it between kernels); L2 stays warm. */
void memsys_launch_begin(memsys *ms);
/* Treats every cache hint as the default (--strip-hints): allocation classes, L1 behaviours, write
 * modes, fill sizes, policy descriptors and windows; prefetches and priority changes do nothing.
 * Memory ordering (volatile and strong accesses, fences and their side effects) and the cache
 * control that changes data (write-back, invalidation, discard) stay. With `poison`, a line
 * discarded from the L2 by a line operation reads back as bytes 0xFF from then on
 * (--poison-discard); discarding a whole L2 does not poison. */
void memsys_set_hint_mode(memsys *ms, int strip_hints, int poison_discard);
/* Installs the access-policy window of the next launches (bytes 0: none); see mem_policy.h. */
void memsys_set_policy_window(memsys *ms, uint64_t base, uint64_t bytes, double hit_ratio,
                              uint8_t hit_prop, uint8_t miss_prop);
/* Demotes every persisting (evict-last) L2 line to normal. Returns how many lines. */
uint64_t memsys_reset_persisting(memsys *ms);
/* Sets the persisting L2 set-aside (bytes, capped at the preset's maximum). */
void memsys_set_persisting_bytes(memsys *ms, uint64_t bytes);
/* Instruction fetch of the line at instruction address `addr` by SM `sm`, charged to insn_id.
 * Returns 1 when it missed in the SM's instruction cache, 0 on a hit (for the timing model's
 * instruction-fetch stall). */
int memsys_ifetch(memsys *ms, uint32_t sm, uint64_t addr, uint32_t insn_id);
/* A view of the memory system for another host thread (SMs simulated in parallel;
 * docs/architecture.md, "SMs on several host threads"): memsys_tally_view is a memory system
 * that shares this one's caches, backing store, allocations and banks as they are when the tally
 * is created, but has its own access scratch and its own counters (one mem_counters per
 * instruction of the current selection, memsys_select_insns, plus the unattributed ones). While
 * other threads use other views, a view may only be used for work that stays inside one SM:
 * shared-memory and constant accesses, instruction fetches (the instruction cache keeps tags
 * only), memsys_load_if_local, memsys_store_deferred. */
/* Creates a tally with zeroed counters. Returns NULL when out of memory. */
memsys_tally *memsys_tally_create(const memsys *ms);
memsys *memsys_tally_view(memsys_tally *t);
/* Adds the tally's counters to ms's (the instructions selected now; the tally must have been
 * created from ms under the same selection) and zeroes them. No errors. */
void memsys_tally_merge(memsys *ms, memsys_tally *t);
void memsys_tally_destroy(memsys_tally *t);
/* memsys_access for a load that the SM of ctx can serve alone: when every lane is in the shared,
 * const or param space or in a global or local line whose requested sectors are all valid in the
 * SM's L1 (and the load may hit there), performs it as memsys_access would and returns 0, or -1
 * with *fault. Otherwise (it would reach the L2) returns 1 having changed nothing; the caller
 * makes it later with memsys_access. Faults as memsys_access. */
int memsys_load_if_local(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault);
/* memsys_load_if_local's first step, for a load whose lanes' addresses are not all computed
 * yet: whether it returns 1 because of its lowest active lane alone (acc->attrs->uniform, or a
 * global lane whose sector is not valid in the L1 of ctx's SM). Reads acc->op, space, active,
 * insn_id, attrs and the lowest active lane's addr only. Returns 1 (the load would park;
 * nothing changed) or 0. After 0 the caller makes the load next, with memsys_load_if_local on
 * the same acc (the lowest lane's address unchanged, the others filled in), and that call does
 * not look the lane up in the L1 again. No errors. */
int memsys_load_parks(memsys *ms, const mem_ctx *ctx, const mem_access *acc);
/* memsys_access for a store by the SM of ctx while other threads work on other SMs: what it does
 * to the SM's L1 and shared memory happens now; every write it makes to the L2 (a write-through,
 * a write that bypasses the L1, the write-back of a line it evicts) is appended to
 * ctx->store_log instead, with its counters and hints, for memsys_store_log_apply. Without a
 * log (or for another operation) it is memsys_access. Faults as memsys_access (before anything
 * is logged). A log that could not grow makes the apply fail. */
int memsys_store_deferred(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault);
/* An empty log (NULL when out of memory), its destruction, and its application: each logged
 * write goes to ms's L2 in order, counted where the store is counted, as if made then; the log
 * is emptied. Returns 0, or -1 when host memory ran out (the log or the backing store). An
 * `immediate` log keeps nothing: the stores write the L2 at once (for one host thread, which
 * runs the SMs in order, so that the order is the same), and only count their writes.
 * memsys_store_log_full: the stores have made MEMSYS_STORE_LOG_WRITES writes or more since the
 * last apply (logged or not, so that a caller parking stores on it decides the same way with or
 * without a real log); it bounds a log's memory. */
enum { MEMSYS_STORE_LOG_WRITES = 256 };
memsys_store_log *memsys_store_log_create(int immediate);
int memsys_store_log_full(const memsys_store_log *log);
void memsys_store_log_destroy(memsys_store_log *log);
int memsys_store_log_apply(memsys *ms, memsys_store_log *log);
/* End of a run: writes every dirty line back (L1 to L2 to DRAM), counted as unattributed.
 * Host reads after this see every write. Returns 0, or -1 when the backing store failed. */
int memsys_finish(memsys *ms);

/* Allocates `bytes` (> 0) of device memory aligned to `align` (a power of two, >= 256 is used
 * whatever is asked) and returns its global address in *addr. Consecutive allocations are
 * separated by an unmapped gap so that overruns fault. The memory reads as zero.
 * Returns 0, or -1 when the address space or host memory is exhausted. */
int memsys_alloc(memsys *ms, uint64_t bytes, uint64_t align, uint64_t *addr);

/* Host-side copies into and out of device memory (no statistics, no caches: like cudaMemcpy
 * after a device synchronise). [addr, addr+bytes) must lie inside one allocation. Returns 0 or -1
 * when the range is not allocated or host memory is exhausted. */
int memsys_host_write(memsys *ms, uint64_t addr, const void *src, uint64_t bytes);
int memsys_host_read(memsys *ms, uint64_t addr, void *dst, uint64_t bytes);
/* As memsys_host_write, into memory the caches may hold (cudaMemcpy between kernels): first
 * writes every dirty line back (as memsys_finish, counted as unattributed), then drops the now
 * clean copies of the written lines from every L1 and the L2, so that the next access fetches
 * the new bytes from DRAM. Returns 0 or -1 as memsys_host_write, or when a write-back failed. */
int memsys_host_write_synced(memsys *ms, uint64_t addr, const void *src, uint64_t bytes);

/* Installs the read-only constant bank (module .const data; copied) and the kernel parameter block
 * (borrowed until the next call). Returns 0 or -1 when out of memory. */
int memsys_set_const_bank(memsys *ms, const uint8_t *data, uint32_t bytes);
/* Installs constant bank `bank` (0..MEM_CONST_BANKS-1; memsys_set_const_bank is bank 0): `bytes`
 * bytes (at most MEM_WINDOW_BYTES, 0 empties the bank) copied from `data`, read at const-window
 * offsets (bank << MEM_CONST_BANK_SHIFT) + 0..bytes-1 (mem.h). Returns 0, or -1 when the bank
 * number or size is out of range or host memory ran out. */
int memsys_set_const_bank_at(memsys *ms, uint32_t bank, const uint8_t *data, uint32_t bytes);
void memsys_set_params(memsys *ms, const uint8_t *params, uint32_t bytes);

/* Performs one warp-level access (mem.h) by the SM of ctx, charging everything it makes any level
 * do to acc->insn_id (DESIGN.md, "The memory access contract"; docs/architecture.md).
 *   loads, stores, atomics  the lanes in acc->active. Loads and atomics fill acc->data for their
 *                  lanes; all three fill acc->levels and acc->served (which levels served the
 *                  access, and which level each 32-byte sector of global or local data),
 *                  except the global and local data's with acc->skip_served (mem.h).
 *   cache control  acc->attrs->cctl on the caches named by attrs->cctl_levels: on every line of
 *                  them (attrs->cctl_all), or on the line of each active lane's address; lanes
 *                  naming one line act on it once. A prefetch never faults (bad lanes do nothing).
 *   fence          the side effects attrs->fence at attrs->scope; no lanes. An Intel LSC fence
 *                  (attrs->sfid set) applies attrs->fence_op to the caches attrs->scope covers
 *                  (mem_lsc.c; docs/visa.md, "Fences and cache controls").
 * Returns 0, or -1 with *fault describing the first faulting lane; in that case no lane's store,
 * atomic or cache control has been performed. Faults: MEM_FAULT_OUT_OF_BOUNDS, _MISALIGNED,
 * _READ_ONLY (a store, atomic or discard of constant or parameter data), _UNSUPPORTED (an
 * unmodelled space or atomic, a cache the model does not have, e.g. the call-return stack's,
 * or an address outside the hierarchies the operation names), _NOMEM. */
int memsys_access(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault);

/* memsys_access for a load (acc->op MEM_OP_LOAD) from the const or param space (acc->space) by
 * exactly one lane (acc->active), the lowest active lane of a load whose lanes all read one
 * address: the same data, counters, results and faults, without the general path's work per
 * lane. Reads only acc->addr of that lane. Never needs more than the SM: a tally's view may
 * take it in a parallel phase (except a load with the uniform hint, which memsys_load_if_local
 * parks). Returns 0, or -1 with *fault as memsys_access. */
int memsys_load_lane(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault);

/* A load of `bytes` (a power of two up to MEM_MAX_LANE_BYTES) at const-window offset `offset`
 * (mem.h: bank << MEM_CONST_BANK_SHIFT plus the byte offset in the bank) that every lane of a
 * warp of ctx's SM makes at once, charged to instruction insn_id: what memsys_access does for
 * a const load whose lanes all name one address (one constant-cache request, one distinct
 * address, one line looked up; DESIGN.md, "The memory access contract"), without building a
 * mem_access. Copies the bytes to `out` and returns 0; returns -1, having counted and read
 * nothing, when the address is misaligned or outside its bank's data: the caller then makes
 * the access through memsys_access, which reports the fault. */
int memsys_const_load(memsys *ms, const mem_ctx *ctx, uint32_t insn_id, uint64_t offset,
                      uint32_t bytes, void *out);

/* memsys_load_lane for a load with neither the uniform hint nor a caller that reads the access's
 * results (no mem_access is built): `bytes` (a power of two up to MEM_MAX_LANE_BYTES) at
 * `offset` in `space` (IR_SPACE_PARAM: the launch's parameters; IR_SPACE_CONST: the const
 * window as memsys_const_load), which every active lane of a warp of ctx's SM reads, charged to
 * instruction insn_id. The same counters and constant-cache effects as memsys_load_lane (one
 * constant-cache request for one line; DESIGN.md, "The memory access contract"). Copies the
 * bytes to `out` and returns 0; returns -1, having counted and read nothing, for another space
 * or an address that is misaligned or outside the parameters or its bank's data: the caller
 * then makes the access through memsys_load_lane or memsys_access, which report the fault. Like
 * memsys_load_lane, a tally's view may take it in a parallel phase. */
int memsys_load_same(memsys *ms, const mem_ctx *ctx, uint32_t insn_id, ir_space space,
                     uint64_t offset, uint32_t bytes, void *out);

/* memsys_load_same(ms, ctx, insn_id, IR_SPACE_PARAM, offset, bytes, out) for a parameter of
 * 1, 2, 4 or 8 bytes read by the warps of SM `sm` (ctx->sm): the same checks, counters and
 * constant-cache effects, the bytes returned in *value (OUT: little-endian, the bytes above
 * `bytes` zero) instead of copied to a buffer. Returns 0, or -1 as memsys_load_same (also for
 * 16 bytes), having counted and read nothing (DESIGN.md, "The memory access contract"). A
 * tally's view may take it in a parallel phase, as memsys_load_same. */
int memsys_load_param(memsys *ms, uint32_t sm, uint32_t insn_id, uint64_t offset, uint32_t bytes,
                      uint64_t *value);

/* Reads `bytes` at a generic address as lane `lane` of the warp described by ctx sees it, without
 * statistics or cache effects (device printf and assertion messages). Returns 0, or -1 when
 * the range is not readable. */
int memsys_peek(memsys *ms, const mem_ctx *ctx, uint32_t lane, uint64_t generic, void *out,
                uint32_t bytes);

/* Resolves a generic address to (space, window offset); global addresses stay as they are. */
ir_space memsys_resolve_generic(uint64_t generic, uint64_t *offset);

/* The memory system's image table (mem_image.h; docs/images.md): created empty with the memory
 * system, filled by the caller (an image's memory comes from memsys_alloc), read by surface
 * instructions. Borrowed; lives as long as `ms`. */
mem_image_table *memsys_images(memsys *ms);

/* The memory system's sampler table (mem_texture.h): filled by the caller, read by texture
 * instructions through a texture handle's sampler index. Borrowed; lives as long as `ms`. */
mem_sampler_table *memsys_samplers(memsys *ms);

/* One warp's texture fetch: up to MEM_TEX_MAX_FETCH texels per lane, each `texel_bytes`
 * bytes at a global address inside an image (the caller computed them from the image's layout;
 * they are not checked against the allocations). */
typedef struct mem_tex_access {
    uint32_t insn_id;      /* the instruction charged */
    uint32_t texel_bytes;  /* 1 to 16 */
    uint16_t slots[MEM_LANES]; /* per lane: bit i set when addr[lane][i] is to be read (a lane
                                 with no bits takes no part) */
    uint64_t addr[MEM_LANES][MEM_TEX_MAX_FETCH];
    uint8_t data[MEM_LANES][MEM_TEX_MAX_FETCH][16]; /* OUT: the texels read */
} mem_tex_access;

/* Performs a texture fetch as one warp-level access by the SM of ctx (docs/images.md, "The
 * texture path"): the texels' bytes are coalesced into lines and read through the SM's L1 as
 * read-only-path lines (the kind IR_FENCE_INVALIDATE_TEX drops), allocating there; a surface
 * write, which goes around the L1, leaves such a line stale. Counts one L1 request and one
 * texture request, and the sectors each level served. Returns 0, or -1 with *fault
 * (MEM_FAULT_NOMEM) when the backing store could not grow. A fetch of no texel does nothing. */
int memsys_texture_read(memsys *ms, const mem_ctx *ctx, mem_tex_access *ta, mem_fault *fault);

/* Bytes of backing store currently allocated (grows with memory touched). */
uint64_t memsys_backing_bytes(const memsys *ms);

#endif
