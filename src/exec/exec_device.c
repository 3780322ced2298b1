/* The device: binding a program's module variables to a memory system, CTA creation and
 * retirement, occupancy, and the deterministic round-robin schedule of resident warps. */
#define _DEFAULT_SOURCE 1 /* mmap flags (MAP_ANONYMOUS), madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/pages.h"
#include "exec/exec_internal.h"
#include "exec/exec_mbarrier.h"

static uint64_t reloc_value(const exec_program *p, const ir_reloc *r)
{
    const ir_module *m = p->module;
    uint64_t base = 0, window = 0; /* generic(var): the variable's window address */
    if (r->is_func) {
        base = FUNC_ADDRESS_BASE + (uint64_t)r->sym * 16;
    } else if (r->sym < m->nvars) {
        const ir_var *v = &m->vars[r->sym];
        base = p->module_var_addr[r->sym];
        if (r->generic)
            window = mem_window_base((ir_space)v->space);
    }
    return base + window + (uint64_t)r->addend;
}

static void apply_relocs(const exec_program *p, const ir_var *v, uint8_t *image)
{
    for (uint32_t k = 0; k < v->nrelocs; k++) {
        const ir_reloc *r = &v->relocs[k];
        uint64_t val = reloc_value(p, r);
        unsigned bytes = ir_type_bits((ir_type)v->type) / 8;
        if (bytes == 0 || bytes > 8)
            bytes = 8;
        if (r->offset + bytes <= v->size_bytes)
            memcpy(image + r->offset, &val, bytes);
    }
}

/* Installs the program's constant banks in `ms`, empty ones included: a bank another module left
 * must not show. 0, or -1 with *fault (EXEC-NOMEM-004). */
static int install_banks(exec_program *p, memsys *ms, exec_fault *fault)
{
    if (memsys_set_const_bank(ms, p->const_bank, p->const_bytes)) {
        exec_oom(NULL, fault, "EXEC-NOMEM-004", "out of host memory installing the module's "
                 "constant bank (%u bytes)", p->const_bytes);
        return -1;
    }
    for (uint32_t b = 1; b < MEM_CONST_BANKS; b++) {
        if (memsys_set_const_bank_at(ms, b, p->bank_data[b], p->bank_bytes[b])) {
            exec_oom(NULL, fault, "EXEC-NOMEM-004", "out of host memory installing the module's "
                     "constant bank %u (%u bytes)", b, p->bank_bytes[b]);
            return -1;
        }
    }
    memsys_set_const_owner(ms, p);
    return 0;
}

/* Allocates and initialises module .global variables in `ms` and installs the .const banks; on
 * later calls only the banks, when another module's were installed since (a device holding
 * several modules). */
static int bind_module(exec_program *p, memsys *ms, exec_fault *fault)
{
    const ir_module *m = p->module;
    if (p->globals_ready && p->globals_ms == ms)
        return memsys_const_owner(ms) == p ? 0 : install_banks(p, ms, fault);
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ir_var *v = &m->vars[i];
        if (v->space != IR_SPACE_GLOBAL)
            continue;
        uint64_t addr;
        if (memsys_alloc(ms, v->size_bytes ? v->size_bytes : 1, v->align, &addr)) {
            snprintf(fault->message, sizeof fault->message,
                     "cannot allocate module variable %s (%llu bytes)", v->name,
                     (unsigned long long)v->size_bytes);
            fault->faulted = 1;
            fault->rule = "EXEC-NOMEM-002";
            return -1;
        }
        p->module_var_addr[i] = addr;
    }
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ir_var *v = &m->vars[i];
        if (v->space == IR_SPACE_GLOBAL && (v->init || v->nrelocs) && v->size_bytes) {
            uint8_t *image = calloc(v->size_bytes, 1);
            if (image) {
                if (v->init)
                    memcpy(image, v->init, v->size_bytes);
                apply_relocs(p, v, image);
            }
            if (!image || memsys_host_write(ms, p->module_var_addr[i], image, v->size_bytes)) {
                free(image);
                exec_oom(NULL, fault, "EXEC-NOMEM-004", "out of host memory initialising module "
                         "variable %s (%llu bytes)", v->name, (unsigned long long)v->size_bytes);
                return -1;
            }
            free(image);
        } else if (v->space == IR_SPACE_CONST && v->nrelocs) {
            apply_relocs(p, v, exec_const_byte(p, p->module_var_addr[i]));
        }
    }
    if (install_banks(p, ms, fault))
        return -1;
    p->globals_ready = 1;
    p->globals_ms = ms;
    return 0;
}

/* The launch's constant banks on a machine that reads kernel parameters from a bank
 * (ir_machine.params_in_bank; docs/architecture.md, "Launch constants"): bank 0 holds the
 * launch constants at the EXEC_LC_* offsets, and bank params_bank holds the parameter block
 * (launch->params) from params_offset; the two are one image when params_bank is 0. Installed
 * for every launch, since they change with it; the module has no variables there
 * (check_const_vars). Returns 0, or -1 with EXEC-NOMEM-004 when out of host memory. */
static int install_launch_banks(exec_run_state *rs, uint32_t shared_bytes)
{
    const ir_machine *k = &rs->prog->module->machine;
    const exec_launch *L = rs->launch;
    uint32_t params_end = k->params_offset + L->params_bytes;
    uint32_t bytes0 = EXEC_LC_BYTES, bytesp = params_end;
    if (k->params_bank == 0)
        bytes0 = bytesp = params_end > EXEC_LC_BYTES ? params_end : EXEC_LC_BYTES;
    uint8_t *bank0 = calloc(bytes0, 1), *bankp = k->params_bank ? calloc(bytesp, 1) : bank0;
    int rc = -1;
    if (bank0 && bankp) {
        const uint32_t words[] = {
            [EXEC_LC_NTID_X / 4] = L->block[0], [EXEC_LC_NTID_Y / 4] = L->block[1],
            [EXEC_LC_NTID_Z / 4] = L->block[2], [EXEC_LC_NCTAID_X / 4] = L->grid[0],
            [EXEC_LC_NCTAID_Y / 4] = L->grid[1], [EXEC_LC_NCTAID_Z / 4] = L->grid[2],
            [EXEC_LC_LOCAL_BYTES / 4] = rs->entry->local_frame_bytes,
            [EXEC_LC_SHARED_BYTES / 4] = shared_bytes,
        };
        memcpy(bank0, words, sizeof words);
        if (L->params_bytes)
            memcpy(bankp + k->params_offset, L->params, L->params_bytes);
        rc = memsys_set_const_bank_at(rs->ms, 0, bank0, bytes0);
        if (!rc && k->params_bank)
            rc = memsys_set_const_bank_at(rs->ms, k->params_bank, bankp, bytesp);
    }
    if (rc)
        exec_oom(rs, rs->fault, "EXEC-NOMEM-004", "out of host memory installing the launch's "
                 "constant banks (%u and %u bytes)", bytes0, k->params_bank ? bytesp : 0);
    if (bankp != bank0)
        free(bankp);
    free(bank0);
    return rc;
}

/* The launch's image header pool (exec_launch.image_pool) over the module's data of constant bank
 * image_bank. The bank must not be one the launch constants or parameters use (the SASS machine
 * keeps them apart). Returns 0, or -1 with EXEC-NOMEM-004 or EXEC-IMAGE-005. */
static int install_image_pool(exec_run_state *rs)
{
    const ir_machine *k = &rs->prog->module->machine;
    const exec_launch *L = rs->launch;
    uint32_t bank = k->image_bank;
    if (bank == 0 || bank >= MEM_CONST_BANKS || (k->params_in_bank && bank == k->params_bank)) {
        rs->fault->faulted = 1;
        rs->fault->rule = "EXEC-IMAGE-005";
        snprintf(rs->fault->message, sizeof rs->fault->message, "the image header pool cannot "
                 "go into constant bank %u, which holds launch constants or parameters", bank);
        return -1;
    }
    uint32_t module_bytes = rs->prog->bank_bytes[bank], pool_bytes = 4 * L->image_pool_words;
    uint32_t bytes = module_bytes > pool_bytes ? module_bytes : pool_bytes;
    uint8_t *data = calloc(bytes, 1);
    int rc = -1;
    if (data) {
        if (module_bytes)
            memcpy(data, rs->prog->bank_data[bank], module_bytes);
        memcpy(data, L->image_pool, pool_bytes);
        rc = memsys_set_const_bank_at(rs->ms, bank, data, bytes);
    }
    if (rc)
        exec_oom(rs, rs->fault, "EXEC-NOMEM-004", "out of host memory installing the image "
                 "header pool (%u bytes)", bytes);
    free(data);
    return rc;
}

/* Frees a CTA slot's storage. session_free calls it for every slot, one after another: the
 * tests before the calls keep a warp that allocated nothing (most warps) to a few loads. */
static void cta_destroy(exec_cta *cta)
{
    if (!cta)
        return;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        exec_warp *w = &cta->warps[i];
        for (uint32_t f = 0; f < w->frames_cap; f++) {
            exec_frame *fr = &w->frames[f];
            if (!fr->borrowed) {
                free(fr->regs);
                free(fr->preds);
            }
            if (!fr->params_lent)
                free(fr->params);
            if (fr->waiting)
                free(fr->waiting);
        }
        if (!w->frames_lent)
            free(w->frames);
        if (w->mbar)
            free(w->mbar);
        if (w->crs)
            exec_crs_free(w);
        if (w->hazards)
            exec_hazard_free(w);
        if (w->async)
            exec_async_free(w);
    }
    if (cta->shared_own)
        free(cta->shared);
    if (!cta->block_lent)
        free(cta); /* the slot's block: the warps and entry frames with it */
}

/* "30.0 KiB", "4.1 GiB": a byte count for a message. */
static const char *human_bytes(char buf[32], double bytes)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    unsigned u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof *units) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

/* The register-file part of an EXEC-NOMEM-003 message: what one warp and all resident warps
 * need. */
static void register_oom(exec_run_state *rs, uint32_t nwarps, uint32_t ctas, const char *why)
{
    char one[32], all[32];
    size_t per_warp = rs->warp_regs_bytes + rs->warp_preds_bytes;
    uint64_t warps = (uint64_t)ctas * nwarps;
    exec_oom(rs, rs->fault, "EXEC-NOMEM-003",
             "cannot allocate the register files of kernel %s: %s per warp (%u registers in %u "
             "64-bit slots x 32 lanes, %u predicates), %s in total for %llu resident warps "
             "(%u CTAs of %u warps)%s", rs->entry->ir->name, human_bytes(one, (double)per_warp),
             rs->entry->ir->nregs, rs->entry->reg_slots, rs->entry->ir->npreds,
             human_bytes(all, (double)per_warp * (double)warps),
             (unsigned long long)warps, ctas, nwarps, why);
}

/* An anonymous mapping of `bytes` (rounded up to whole 4 KiB pages: *mapped, the length to
 * munmap) for an arena whose first `huge` bytes (0, or a multiple of 2 MiB) are advised to use
 * 2 MiB pages and the rest 4 KiB ones; NULL when it fails. It starts at a 2 MiB boundary
 * (base/pages.h): from an arbitrary address, up to 2 MiB before the first boundary could only
 * take 4 KiB pages, 512 faults more for memory the launch touches anyway. */
static void *arena_map(size_t bytes, size_t huge, size_t *mapped)
{
    size_t n = pages_round_up(bytes);
    uint8_t *m = pages_map_aligned(n);
    if (m == NULL)
        return NULL;
    if (huge)
        pages_advise(m, huge, 1);
    if (n > huge)
        pages_advise(m + huge, n - huge, 0);
    *mapped = n;
    return m;
}

/* Register files of the entry frames of every resident warp come from one mapping (kept by the
 * program for its later launches), laid out slot-major (cta_init): CTA slot k of every SM, then
 * slot k + 1, the order in which the slots take the grid's CTAs, so a grid that fills few slots
 * touches a dense prefix of the arena however many SMs there are. That prefix, rounded up to
 * 2 MiB, is advised to use huge pages (one fault per 2 MiB instead of one per 4 KiB page is most
 * of the cost of starting thousands of warps) when it is at least 2 MiB; the rest, and an arena
 * whose resident warps need less (a few CTAs: a 2 MiB page would commit far more than they
 * touch), take 4 KiB pages. `nslots` CTA slots of `nwarps` warps exist, of which `resident` are
 * used (fewer when the grid is small). Returns 0, or -1 with EXEC-NOMEM-003 when the mapping
 * fails or the resident warps' register files alone would not fit in the host's physical memory
 * (the mapping may succeed, but touching it would then end the process without a word). */
static int register_arena_create(exec_run_state *rs, uint32_t nslots, uint32_t nwarps,
                                 uint32_t resident)
{
    const exec_func *fn = rs->entry;
    rs->warp_regs_bytes = ((size_t)fn->reg_slots * LANES * sizeof(uint64_t) + 64) & ~(size_t)63;
    rs->warp_preds_bytes = ((size_t)fn->ir->npreds * sizeof(uint32_t) + 64) & ~(size_t)63;
    size_t per_warp = rs->warp_regs_bytes + rs->warp_preds_bytes;
    rs->reg_arena_bytes = per_warp * nwarps * nslots;
    if (!rs->reg_arena_bytes)
        return 0;
    long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_bytes > 0 &&
        (double)per_warp * nwarps * resident > (double)pages * (double)page_bytes) {
        char phys[32], why[80];
        snprintf(why, sizeof why, ", more than the host's %s of memory",
                 human_bytes(phys, (double)pages * (double)page_bytes));
        register_oom(rs, nwarps, resident, why);
        return -1;
    }
    exec_program *p = rs->prog;
    if (p->reg_arena_bytes < rs->reg_arena_bytes) {
        /* Later launches of the program reuse the mapping: its pages are already in memory. */
        if (p->reg_arena)
            munmap(p->reg_arena, p->reg_arena_bytes);
        p->reg_arena = NULL;
        p->reg_arena_bytes = 0;
        const size_t huge_bytes = (size_t)2 << 20;
        size_t used = per_warp * nwarps * resident;
        size_t huge = used < huge_bytes ? 0 : (used + huge_bytes - 1) & ~(huge_bytes - 1);
        /* An arena used to its end is mapped in whole 2 MiB pages: a last part shorter than
         * one would take 4 KiB pages (430 faults for a 1 Mi-element saxpy). */
        size_t map_bytes = huge > rs->reg_arena_bytes ? huge : rs->reg_arena_bytes;
        size_t mapped = 0;
        void *m = arena_map(map_bytes, huge < map_bytes ? huge : map_bytes, &mapped);
        if (m == NULL) {
            register_oom(rs, nwarps, nslots, "");
            return -1;
        }
        p->reg_arena = m;
        p->reg_arena_bytes = mapped;
        rs->reg_arena_fresh = 1;
    }
    rs->reg_arena = p->reg_arena;
    return 0;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* Where a slot block's parts start for CTAs of `nwarps` warps (slot_alloc): the warps, their
 * entry frames, those frames' parameter storage (*params_each bytes a warp), and the end, where
 * a CTA without shared memory keeps a zero byte. */
typedef struct slot_layout {
    size_t warps_at, frames_at, params_at, params_each, end;
} slot_layout;

static slot_layout slot_layout_of(const exec_run_state *rs, uint32_t nwarps)
{
    slot_layout l;
    l.params_each = (size_t)rs->entry->param_area_bytes * LANES;
    if (!l.params_each)
        l.params_each = 8; /* what warp_frame_push gives an empty area */
    l.warps_at = align16(sizeof(exec_cta));
    l.frames_at = align16(l.warps_at + nwarps * sizeof(exec_warp));
    l.params_at = align16(l.frames_at + nwarps * sizeof(exec_frame));
    l.end = l.params_at + nwarps * align16(l.params_each);
    return l;
}

/* The slots' blocks of a launch come from one mapping, kept by the program for its later
 * launches like the register arena and laid out the same way (slot k of every SM, then slot
 * k + 1), its used prefix on 2 MiB pages: 1,056 blocks of 9 KiB, each a malloc, were 950 faults
 * of 4 KiB heap pages in a 1 Mi-element saxpy, and the warps they hold are what every turn reads
 * first. When the mapping fails, rs->slot_arena stays NULL and each block is a malloc. */
static void slot_arena_create(exec_run_state *rs, uint32_t nslots, uint32_t nwarps,
                              uint32_t resident)
{
    rs->slot_block_bytes = (slot_layout_of(rs, nwarps).end + 1 + 63) & ~(size_t)63;
#ifdef __SANITIZE_ADDRESS__
    /* Under AddressSanitizer each block stays a malloc, whose redzones catch a write past a
     * slot's warps or parameters that the arena's neighbouring blocks would hide. */
    rs->slot_arena = NULL;
    (void)nslots;
    (void)resident;
    return;
#endif
    size_t bytes = rs->slot_block_bytes * nslots;
    exec_program *p = rs->prog;
    if (p->slot_arena_bytes < bytes) {
        if (p->slot_arena)
            munmap(p->slot_arena, p->slot_arena_bytes);
        p->slot_arena = NULL;
        p->slot_arena_bytes = 0;
        const size_t huge_bytes = (size_t)2 << 20;
        size_t used = rs->slot_block_bytes * resident;
        size_t huge = used < huge_bytes ? 0 : (used + huge_bytes - 1) & ~(huge_bytes - 1);
        size_t map_bytes = huge > bytes ? huge : bytes, mapped = 0;
        p->slot_arena = arena_map(map_bytes, huge < map_bytes ? huge : map_bytes, &mapped);
        p->slot_arena_bytes = mapped;
    }
    rs->slot_arena = p->slot_arena;
}

/* A fresh slot's storage: one block (from the launch's slot arena, or one malloc, where there
 * were three mallocs and two more a warp) for the CTA, its `nwarps` warps, each warp's entry
 * frame (lent: a call moves the call stack to an array of its own, warp_frame_push) and that
 * frame's parameter storage, each part but the parameter storage (warp_frame_push clears it)
 * cleared on its own (a memset of the whole, or calloc's, is a `rep stosb` of several KiB); the
 * entry frames' register files come from the launch's register arena (cta_init). Shared memory
 * is a calloc of its own, so that a large one stays untouched pages until the kernel uses it;
 * none (0 bytes) is a zero byte at the block's end. `sm`, `slot`: the slot's place. NULL when
 * out of memory, with the EXEC-NOMEM-004 report of a CTA. */
static exec_cta *slot_alloc(exec_run_state *rs, exec_run_state *err, uint32_t nwarps,
                            uint32_t shared_bytes, uint32_t sm, uint32_t slot)
{
    slot_layout l = slot_layout_of(rs, nwarps);
    uint8_t *block =
        rs->slot_arena
            ? rs->slot_arena + ((size_t)slot * rs->machine->sm_count + sm) * rs->slot_block_bytes
            : malloc(l.end + 1);
    uint8_t *shared = shared_bytes ? calloc(shared_bytes, 1) : block ? block + l.end : NULL;
    if (!block || !shared) {
        if (!rs->slot_arena)
            free(block);
        if (shared_bytes)
            free(shared);
        exec_oom(err, err->fault, "EXEC-NOMEM-004",
                 "out of host memory for a CTA: %u bytes of shared memory and %u warps "
                 "(%zu bytes)", shared_bytes, nwarps, nwarps * sizeof(exec_warp));
        return NULL;
    }
    exec_cta *cta = (exec_cta *)block;
    memset(cta, 0, sizeof *cta);
    cta->block_lent = rs->slot_arena != NULL;
    cta->shared = shared;
    *shared = 0;
    cta->shared_own = shared_bytes != 0;
    cta->warps = (exec_warp *)(block + l.warps_at);
    cta->nwarps = nwarps;
    for (uint32_t i = 0; i < nwarps; i++) {
        exec_warp *w = &cta->warps[i];
        exec_frame *f = (exec_frame *)(block + l.frames_at) + i;
        memset(w, 0, sizeof *w);
        memset(f, 0, sizeof *f);
        w->frames = f;
        w->frames_cap = 1;
        w->frames_lent = 1;
        /* Not cleared here: warp_frame_push, which cta_init calls next, clears the entry
         * function's area (the 8 bytes of an empty one are never read). */
        f->params = block + l.params_at + i * align16(l.params_each);
        f->params_cap = (uint32_t)l.params_each;
        f->params_lent = 1;
    }
    return cta;
}

/* (Re)initialises the CTA in a resident slot. The slot's storage (shared memory, warps, their
 * frames and register files) is kept from the previous CTA of the same launch, so a grid of many
 * CTAs allocates it only once per slot; registers are not cleared between CTAs (PTX leaves them
 * undefined; runs stay deterministic). rs is only read, and only the slot's CTA, its register
 * block's part of the register arena and that block's reg_block_used entry are written, so SMs
 * may be initialised on different threads; a failure goes to `err` (its oom flag and fault
 * record). Returns NULL when out of memory. */
static exec_cta *cta_init(exec_run_state *rs, exec_run_state *err, exec_cta *cta,
                          uint32_t linear, uint32_t sm, uint32_t slot, uint32_t shared_bytes)
{
    const exec_launch *L = rs->launch;
    uint32_t nwarps = (rs->threads_per_cta + rs->warp_lanes - 1) / rs->warp_lanes;
    int fresh = !cta;
    if (!cta) {
        cta = slot_alloc(rs, err, nwarps, shared_bytes, sm, slot);
        if (!cta)
            return NULL;
    } else {
        memset(cta->shared, 0, shared_bytes);
    }
    cta->linear = linear;
    cta->ctaid[0] = linear % L->grid[0];
    cta->ctaid[1] = (linear / L->grid[0]) % L->grid[1];
    cta->ctaid[2] = linear / (L->grid[0] * L->grid[1]);
    cta->sm = sm;
    cta->slot = slot;
    cta->shared_bytes = shared_bytes;
    cta->warps_done = 0;
    memset(cta->barriers, 0, sizeof cta->barriers);
    /* The slot's register block, and whether an earlier CTA used it: only this slot's CTA
     * writes its entry while the slot is busy (the window lends blocks between rounds). */
    uint32_t block = rs->reg_block[sm * rs->ctas_per_sm + slot];
    uint8_t block_used = rs->reg_block_used[block];
    rs->reg_block_used[block] = 1;
    cta->bars_arrived = 0;
    for (uint32_t i = 0; i < nwarps; i++) {
        exec_warp *w = &cta->warps[i];
        uint32_t threads = rs->threads_per_cta - i * rs->warp_lanes;
        if (threads > rs->warp_lanes)
            threads = rs->warp_lanes;
        w->live = threads >= LANES ? FULL_MASK : (1u << threads) - 1;
        w->active = w->live;
        memset(w->flags, 0, sizeof w->flags);
        w->bar_mask = 0;
        w->bar_red_mode = 0;
        w->bar_dst = NULL;
        w->printf_seq = 0;
        w->fetch_line = UINT64_MAX;
        exec_crs_reset(w);
        exec_hazard_reset(w);
        exec_async_reset(w);
        w->depth = 0;
        w->local_sp = 0;
        w->warp_in_cta = i;
        w->cta = cta;
        w->run = rs;
        w->local_slot = sm * rs->warps_per_sm_slots + slot * nwarps + i;
        w->mctx.sm = sm;
        w->mctx.shared = cta->shared;
        w->mctx.shared_bytes = shared_bytes;
        w->mctx.local_bytes = rs->local_bytes;
        w->mctx.local_backing =
            MEM_LOCAL_BACKING_BASE + (uint64_t)w->local_slot * rs->local_bytes * LANES;
        size_t per_warp = rs->warp_regs_bytes + rs->warp_preds_bytes;
        uint8_t *base = rs->reg_arena ? rs->reg_arena + ((size_t)block * nwarps + i) * per_warp
                                      : NULL;
        if (base && (fresh || w->frames[0].regs != (uint64_t *)base)) {
            /* First use of this warp, or its CTA has another register block than the slot's
             * last (reg_block): lend its entry frame (in the slot's block) that block's file.
             * The call stack holds the entry frame alone until a call grows it
             * (warp_frame_push): most kernels make no call, and three more frames a warp were
             * 2.2 MB, never used, for the h100's 1,056 slots of 8 warps. */
            w->frames[0].regs = (uint64_t *)base;
            w->frames[0].preds = (uint32_t *)(base + rs->warp_regs_bytes);
            w->frames[0].regs_cap = (uint32_t)rs->warp_regs_bytes;
            w->frames[0].preds_cap = (uint32_t)rs->warp_preds_bytes;
            w->frames[0].borrowed = 1;
            /* A setp updates its predicate word in place (read, then write), so a warp whose
             * predicates share no page with registers written before would read that page
             * first: the kernel maps its zero page, and the write faults again. Zeros written
             * where the fresh mapping holds zeros make the first touch a write (one fault);
             * a mapping kept from an earlier launch keeps its values (PTX leaves them
             * undefined, and runs stay as they were). */
            if (rs->reg_arena_fresh && !block_used)
                memset(w->frames[0].preds, 0, rs->warp_preds_bytes);
        }
        w->run = err; /* warp_frame_push reports a failure to w->run */
        int failed = warp_frame_push(w, rs->entry);
        w->run = rs;
        if (failed)
            break;
        w->state = WARP_READY;
        w->pc = 0;
    }
    if (err->oom) {
        if (fresh) /* a slot's CTA from earlier is still in the slot table, which frees it */
            cta_destroy(cta);
        return NULL;
    }
    return cta;
}

static int printf_cmp(const void *a, const void *b)
{
    const printf_record *x = a, *y = b;
    if (x->cta_linear != y->cta_linear)
        return x->cta_linear < y->cta_linear ? -1 : 1;
    if (x->warp != y->warp)
        return x->warp < y->warp ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return x->lane < y->lane ? -1 : x->lane > y->lane;
}

char *exec_printf_collect(exec_run_state *rs)
{
    if (rs->nprintfs)
        qsort(rs->printfs, rs->nprintfs, sizeof *rs->printfs, printf_cmp);
    size_t total = 1;
    for (uint32_t i = 0; i < rs->nprintfs; i++) total += strlen(rs->printfs[i].text);
    char *out = malloc(total);
    if (out) {
        size_t pos = 0;
        for (uint32_t i = 0; i < rs->nprintfs; i++) {
            size_t n = strlen(rs->printfs[i].text);
            memcpy(out + pos, rs->printfs[i].text, n);
            pos += n;
        }
        out[pos] = '\0';
    } else {
        exec_oom(rs, rs->fault, "EXEC-NOMEM-004", "out of host memory collecting %zu bytes of "
                 "device printf output", total);
    }
    for (uint32_t i = 0; i < rs->nprintfs; i++) free(rs->printfs[i].text);
    free(rs->printfs);
    rs->printfs = NULL;
    rs->nprintfs = 0;
    return out;
}

static void append_printf(exec_run_state *rs, char **printf_out, char *text)
{
    if (!text)
        return;
    if (!*text) {
        free(text);
        return;
    }
    size_t old = *printf_out ? strlen(*printf_out) : 0, add = strlen(text);
    char *n = realloc(*printf_out, old + add + 1);
    if (n) {
        memcpy(n + old, text, add + 1);
        *printf_out = n;
    } else {
        exec_oom(rs, rs->fault, "EXEC-NOMEM-004", "out of host memory collecting %zu bytes of "
                 "device printf output", old + add + 1);
    }
    free(text);
}

static void report_deadlock(exec_run_state *rs, exec_cta **slots, uint32_t nslots)
{
    for (uint32_t s = 0; s < nslots; s++) {
        exec_cta *cta = slots[s];
        if (!cta || !rs->slot_busy[s])
            continue;
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            exec_warp *w = &cta->warps[i];
            if (w->state == WARP_MBARRIER || w->state == WARP_YIELD) {
                exec_mbarrier_report_deadlock(w);
                return;
            }
            if (w->state == WARP_BARRIER) {
                warp_fault(w, &w->code[w->bar_resume_pc - 1], (unsigned)__builtin_ctz(w->bar_mask | 0x80000000u),
                           "EXEC-BAR-004", "deadlock: barrier %u can never complete (%u of the CTA's warps "
                           "arrived)", w->bar_id, cta->barriers[w->bar_id].arrived);
                return;
            }
        }
    }
    rs->faulted = 1;
    snprintf(rs->fault->message, sizeof rs->fault->message, "deadlock: no warp can run");
    rs->fault->faulted = 1;
    rs->fault->rule = "EXEC-BAR-005";
}

/* Starts the grid's next CTA in slot index `idx` (sm * ctas_per_sm + k). Returns 0 or -1 when
 * out of memory (rs->oom set). */
int exec_start_cta(exec_run_state *rs, uint32_t sm, uint32_t k)
{
    uint32_t idx = sm * rs->ctas_per_sm + k;
    exec_cta *c = cta_init(rs, rs, rs->slots[idx], rs->next_cta++, sm, k, rs->shared_bytes);
    if (!c) {
        rs->oom = 1;
        return -1;
    }
    rs->slots[idx] = c;
    rs->slot_busy[idx] = 1;
    rs->resident++;
    return 0;
}

int exec_init_cta(exec_run_state *rs, exec_run_state *err, uint32_t linear, uint32_t sm,
                  uint32_t k)
{
    uint32_t idx = sm * rs->ctas_per_sm + k;
    exec_cta *c = cta_init(rs, err, rs->slots[idx], linear, sm, k, rs->shared_bytes);
    if (!c)
        return -1;
    rs->slots[idx] = c;
    return 0;
}

/* The CTA's shared bytes once the system's reserved region is added: it follows the kernel's
 * own `shared_bytes` at the next 128-byte boundary (docs/semantics.md, "Reserved shared
 * memory"). Only kernels that read its registers get it, so no other kernel's occupancy
 * changes. */
static uint32_t reserve_smem(exec_run_state *rs, uint32_t shared_bytes)
{
    if (!rs->prog->uses_reserved_smem)
        return shared_bytes;
    rs->reserved_smem_offset = (shared_bytes + 127u) & ~127u;
    rs->reserved_smem_bytes = rs->machine->shared_reserved_per_cta;
    return rs->reserved_smem_offset + rs->reserved_smem_bytes;
}

/* A cooperative launch whose CTAs cannot all be resident at once (`ctas_per_sm` per SM): a
 * grid-wide sync would wait for CTAs that never start, so CUDA refuses the launch. Returns 1
 * with the fault filled (EXEC-LAUNCH-002), else 0. */
static int cooperative_too_large(exec_run_state *rs, uint32_t ctas_per_sm)
{
    const exec_launch *launch = rs->launch;
    uint32_t nsm = rs->machine->sm_count;
    uint64_t grid_ctas = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];
    if (!launch->grid_sync_base || grid_ctas <= (uint64_t)ctas_per_sm * nsm)
        return 0;
    snprintf(rs->fault->message, sizeof rs->fault->message,
             "cooperative launch of %llu CTAs, more than the %u that can be resident at once "
             "(%u SMs x %u CTAs)", (unsigned long long)grid_ctas, ctas_per_sm * nsm, nsm,
             ctas_per_sm);
    rs->fault->faulted = 1;
    rs->fault->rule = "EXEC-LAUNCH-002";
    return 1;
}

/* The launch's resident CTAs per SM from the machine's limits (threads, CTAs, shared memory),
 * 0 when one CTA does not fit; *shared_out gets the shared bytes per CTA. */
static uint32_t ctas_per_sm_of(exec_run_state *rs, uint32_t *shared_out, uint32_t *user_shared)
{
    const exec_machine *machine = rs->machine;
    uint32_t shared_bytes = rs->prog->dynamic_shared_offset + rs->launch->dynamic_shared_bytes;
    *user_shared = shared_bytes;
    shared_bytes = reserve_smem(rs, shared_bytes);
    *shared_out = shared_bytes;
    uint32_t nwarps = (rs->threads_per_cta + rs->warp_lanes - 1) / rs->warp_lanes;
    uint32_t ctas_per_sm = machine->max_ctas_per_sm;
    if (machine->max_threads_per_sm / (nwarps * rs->warp_lanes) < ctas_per_sm)
        ctas_per_sm = machine->max_threads_per_sm / (nwarps * rs->warp_lanes);
    if (shared_bytes && machine->shared_bytes_per_sm / shared_bytes < ctas_per_sm)
        ctas_per_sm = machine->shared_bytes_per_sm / shared_bytes;
    return ctas_per_sm;
}

/* Checks the launch's occupancy and sets up the resident slots and the machine state (what
 * exec_session_open does after binding the module). Returns 0, 1 (fault) or -1 (no memory). */
static int session_setup(exec_run_state *rs)
{
    exec_program *p = rs->prog;
    const exec_machine *machine = rs->machine;
    exec_fault *fault = rs->fault;
    uint32_t shared_bytes, user_shared_bytes;
    uint32_t ctas_per_sm = ctas_per_sm_of(rs, &shared_bytes, &user_shared_bytes);
    /* The sim layer rejects such a launch as bad input before it runs (SIM-LAUNCH-001/002);
     * this guards the executor's other callers. */
    if (ctas_per_sm == 0 || user_shared_bytes > machine->max_shared_per_cta) {
        snprintf(fault->message, sizeof fault->message,
                 "launch needs %u threads and %u bytes of shared memory per CTA, more than one "
                 "SM provides (%u threads, %u bytes per CTA)", rs->threads_per_cta, shared_bytes,
                 machine->max_threads_per_sm, machine->max_shared_per_cta);
        fault->faulted = 1;
        fault->rule = "EXEC-LAUNCH-001";
        return 1;
    }
    if (cooperative_too_large(rs, ctas_per_sm))
        return 1;
    uint32_t nwarps = (rs->threads_per_cta + rs->warp_lanes - 1) / rs->warp_lanes;
    rs->nwarps = nwarps;
    rs->ctas_per_sm = ctas_per_sm;
    rs->shared_bytes = shared_bytes;
    rs->warps_per_sm_slots = ctas_per_sm * nwarps;
    const ir_machine *mk = &p->module->machine;
    if (mk->call_conv == IR_CALL_RETURN_STACK) {
        /* cal keeps no frame in local memory: the stack's backing store (4-byte entries,
         * exec_crs.c) follows the kernel's own local bytes, which layout_func rounds to 16. */
        rs->crs_base = rs->entry->local_frame_bytes;
        rs->frames_local_end = rs->crs_base;
        rs->local_bytes = rs->crs_base + 4 * mk->crs_max;
    } else {
        rs->local_bytes = rs->entry->local_frame_bytes + LOCAL_CALL_RESERVE;
        rs->frames_local_end = rs->local_bytes;
    }
    rs->strict_hazards = rs->launch->strict_hazards && mk->scoreboards > 0;
    rs->step_layout = exec_step_layout_of(p, rs->strict_hazards);
    rs->step_ctrl = mk->scoreboards > 0;
    if ((mk->params_in_bank && install_launch_banks(rs, shared_bytes)) ||
        (mk->has_image_bank && rs->launch->image_pool_words && install_image_pool(rs)))
        return -1;
    const exec_launch *launch = rs->launch;
    rs->total_ctas = launch->grid[0] * launch->grid[1] * launch->grid[2];
    rs->nslots = machine->sm_count * ctas_per_sm;
    rs->slots = calloc(rs->nslots, sizeof *rs->slots);
    rs->slot_busy = calloc(rs->nslots, 1);
    rs->reg_block = malloc(rs->nslots * sizeof *rs->reg_block);
    rs->reg_block_used = calloc(rs->nslots, 1);
    if (!rs->slots || !rs->slot_busy || !rs->reg_block || !rs->reg_block_used)
        exec_oom(rs, fault, "EXEC-NOMEM-004", "out of host memory for the table of %u resident "
                 "CTA slots (%zu bytes)", rs->nslots,
                 rs->nslots * (sizeof *rs->slots + sizeof *rs->reg_block + 2));
    for (uint32_t k = 0; !rs->oom && k < ctas_per_sm; k++)
        for (uint32_t sm = 0; sm < machine->sm_count; sm++)
            rs->reg_block[sm * ctas_per_sm + k] = k * machine->sm_count + sm;
    uint32_t resident = rs->total_ctas < rs->nslots ? rs->total_ctas : rs->nslots;
    if (rs->oom || register_arena_create(rs, rs->nslots, nwarps, resident))
        return -1;
    slot_arena_create(rs, rs->nslots, nwarps, resident);
    return 0;
}

static void session_free(exec_run_state *rs)
{
    if (rs->slots)
        for (uint32_t s = 0; s < rs->nslots; s++) cta_destroy(rs->slots[s]);
    free(rs->slots);
    free(rs->slot_busy);
    free(rs->reg_block);
    free(rs->reg_block_used);
    exec_heap_release(&rs->heap);
    free(rs);
}

int exec_session_open(exec_program *p, memsys *ms, const exec_machine *machine,
                      const exec_launch *launch, exec_stats *stats, exec_fault *fault,
                      exec_session **out)
{
    *out = NULL;
    memset(fault, 0, sizeof *fault);
    exec_run_state *rs = calloc(1, sizeof *rs);
    if (!rs) {
        exec_oom(NULL, fault, "EXEC-NOMEM-004", "out of host memory for the state of a launch "
                 "(%zu bytes)", sizeof *rs);
        return -1;
    }
    rs->prog = p;
    rs->ms = ms;
    rs->machine = machine;
    rs->launch = launch;
    /* The launch's memory accesses share this record (and the threads' copies of it): whether
     * anyone reads the served records is the launch's, settled once here, so a handler that
     * fills only part of the record (the uniform loads) never sees another launch's value. */
    rs->acc.skip_served = launch->on_access == NULL;
    rs->stats = stats;
    rs->fault = fault;
    rs->clock = launch->clock ? launch->clock : &stats->warp_instructions;
    rs->entry = &p->funcs[launch->entry];
    rs->threads_per_cta = launch->block[0] * launch->block[1] * launch->block[2];
    uint32_t lanes = p->module->machine.warp_lanes;
    rs->warp_lanes = lanes && lanes < LANES ? lanes : LANES;
    rs->budget = launch->max_warp_instructions ? launch->max_warp_instructions : UINT64_MAX;
    rs->reported = stats->warp_instructions;
    rs->insn_counts = p->insn_counts;
    stats->insn_executions = p->insn_counts;
    if (bind_module(p, ms, fault)) {
        free(rs);
        return fault->faulted ? 1 : -1;
    }
    memsys_set_params(ms, launch->params, launch->params_bytes);
    memsys_launch_begin(ms);
    int rc = session_setup(rs);
    if (rc) {
        session_free(rs);
        return rc;
    }
    *out = rs;
    return 0;
}

void exec_session_shape_of(const exec_session *s, exec_session_shape *out)
{
    out->ctas_per_sm = s->ctas_per_sm;
    out->warps_per_cta = s->nwarps;
    out->total_ctas = s->total_ctas;
    out->regs_per_thread = s->entry->reg_slots;
    out->shared_bytes = s->shared_bytes;
}

int exec_session_start_cta(exec_session *s, uint32_t sm, uint32_t slot)
{
    return exec_start_cta(s, sm, slot);
}

exec_warp *exec_session_warp(exec_session *s, uint32_t sm, uint32_t slot, uint32_t i)
{
    return &s->slots[sm * s->ctas_per_sm + slot]->warps[i];
}

void exec_session_retire_cta(exec_session *s, uint32_t sm, uint32_t slot)
{
    uint32_t idx = sm * s->ctas_per_sm + slot;
    if (s->slot_busy[idx]) {
        s->slot_busy[idx] = 0;
        s->resident--;
    }
}

int exec_session_stopped(const exec_session *s)
{
    return s->faulted || s->oom;
}

uint64_t exec_session_mbar_phases(const exec_session *s)
{
    return s->mbar_phases;
}

void exec_session_deadlock(exec_session *s)
{
    report_deadlock(s, s->slots, s->nslots);
}

void exec_report_deadlock(exec_run_state *rs)
{
    report_deadlock(rs, rs->slots, rs->nslots);
}

void exec_session_progress(exec_session *s)
{
    const exec_launch *launch = s->launch;
    exec_stats *stats = s->stats;
    if (!launch->progress || stats->warp_instructions - s->reported < EXEC_PROGRESS_INSTRUCTIONS)
        return;
    s->reported = stats->warp_instructions;
    exec_progress pr = {.warp_instructions = s->reported,
                        .ctas_done = s->next_cta - s->resident, .ctas_total = s->total_ctas};
    launch->progress(&pr, launch->progress_user);
}

int exec_session_close(exec_session *rs, char **printf_out)
{
    append_printf(rs, printf_out, exec_printf_collect(rs));
    exec_fault *fault = rs->fault;
    if (rs->oom) /* set where the failure did not say what it was */
        exec_oom(rs, fault, "EXEC-NOMEM-004", "out of host memory during the launch");
    int rc = rs->oom ? -1 : rs->faulted ? 1 : 0;
    session_free(rs);
    return rc;
}

int exec_run(exec_program *p, memsys *ms, const exec_machine *machine, const exec_launch *launch,
             exec_stats *stats, exec_fault *fault, char **printf_out)
{
    exec_run_state *rs;
    int rc = exec_session_open(p, ms, machine, launch, stats, fault, &rs);
    if (rc)
        return rc;
    exec_window_run(rs, machine->host_threads ? machine->host_threads : 1);
    return exec_session_close(rs, printf_out);
}

int exec_program_bind(exec_program *p, memsys *ms, exec_fault *fault)
{
    memset(fault, 0, sizeof *fault);
    if (bind_module(p, ms, fault) == 0)
        return 0;
    return fault->faulted ? 1 : -1;
}
