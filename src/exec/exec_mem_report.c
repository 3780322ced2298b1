/* The reports of memory accesses that failed: a warp's fault (EXEC-MEM-001) and the window
 * errors that let the kernel go on (EXEC-WINDOW-001, -002), with the names of spaces and
 * operations their messages use. Apart from exec_mem.c's handlers because they run only when an
 * access goes wrong; the handlers reach them through exec_mem_internal.h. */
#include <stdio.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "exec/exec_mem_internal.h"
#include "mem/memsys.h"

const char *exec_mem_space_name(uint8_t s)
{
    switch (s) {
    case IR_SPACE_GLOBAL: return "global";
    case IR_SPACE_SHARED: return "shared";
    case IR_SPACE_LOCAL: return "local";
    case IR_SPACE_CONST: return "const";
    case IR_SPACE_PARAM: return "param";
    case IR_SPACE_GENERIC: return "generic";
    case IR_SPACE_INSTRUCTION: return "instruction";
    case IR_SPACE_CRS: return "call-return stack";
    default: return "?";
    }
}

/* What an access does, for fault messages. */
static const char *access_name(const mem_access *acc)
{
    static const char *const ops[] = {"read", "write", "atomic", "cache control", "fence"};
    static const char *const cctl[] = {"cache control", "prefetch", "write-back", "invalidation",
                                       "discard", "clean-line invalidation", "priority change"};
    if (acc->op == MEM_OP_CACHE_CONTROL && acc->attrs->cctl <= IR_CCTL_PRIORITY)
        return cctl[acc->attrs->cctl];
    return acc->op <= MEM_OP_FENCE ? ops[acc->op] : "access";
}

/* Records a window error of the lanes `lanes` of access acc (exec.h exec_error): outside the
 * window (EXEC-WINDOW-001), or `misaligned` (EXEC-WINDOW-002). All lanes go into the count, the
 * access into the list while it has room. */
void exec_mem_window_error(exec_warp *w, const exec_xinsn *x, const mem_access *acc,
                           uint32_t lanes, int misaligned)
{
    exec_stats *st = w->run->stats;
    st->window_errors += (uint64_t)__builtin_popcount(lanes);
    if (st->nerrors == EXEC_ERRORS_KEPT)
        return;
    exec_error *e = &st->errors[st->nerrors++];
    uint32_t lane = (uint32_t)__builtin_ctz(lanes), bytes = (uint32_t)acc->elem_bytes * acc->vec;
    uint64_t offset = acc->addr[lane];
    ir_space sp = (ir_space)acc->space;
    if (sp == IR_SPACE_GENERIC)
        sp = memsys_resolve_generic(offset, &offset);
    uint32_t allocated = sp == IR_SPACE_SHARED ? w->mctx.shared_bytes : w->mctx.local_bytes;
    static const char *const what[] = {"load", "store", "atomic", "cache control", "fence"};
    static const char *const outcome[] = {"it read 0", "the store was dropped",
                                          "it did nothing and returned 0",
                                          "the line was left alone", ""};
    char where[96];
    snprintf(where, sizeof where, "%s %s of %u bytes at window offset 0x%llx%s",
             exec_mem_space_name((uint8_t)sp), what[acc->op <= MEM_OP_FENCE ? acc->op : 0], bytes,
             (unsigned long long)offset,
             lanes & (lanes - 1) ? " (and more lanes)" : "");
    if (misaligned)
        snprintf(e->message, sizeof e->message, "%s is not a multiple of %u: aligned down to 0x%llx",
                 where, bytes, (unsigned long long)(offset - offset % (bytes ? bytes : 1)));
    else if (offset >= MEM_WINDOW_BYTES)
        snprintf(e->message, sizeof e->message, "%s is outside the 16 MiB %s window: %s", where,
                 exec_mem_space_name((uint8_t)sp), outcome[acc->op <= MEM_OP_FENCE ? acc->op : 0]);
    else
        snprintf(e->message, sizeof e->message, "%s is outside the %u-byte %s allocation: %s",
                 where, allocated, exec_mem_space_name((uint8_t)sp),
                 outcome[acc->op <= MEM_OP_FENCE ? acc->op : 0]);
    e->rule = misaligned ? "EXEC-WINDOW-002" : "EXEC-WINDOW-001";
    e->insn_id = x->in->id;
    e->line = x->in->line;
    e->col = x->in->col;
    e->lanes = lanes;
    e->address = acc->addr[lane];
    memcpy(e->ctaid, w->cta->ctaid, sizeof e->ctaid);
    const uint32_t *b = w->run->launch->block;
    uint32_t t = w->warp_in_cta * w->run->warp_lanes + lane;
    e->tid[0] = t % b[0];
    e->tid[1] = (t / b[0]) % b[1];
    e->tid[2] = t / (b[0] * b[1]);
}

/* The warp's fault for a memory access that failed with *fault (EXEC-MEM-001). */
void exec_mem_fault(exec_warp *w, const exec_xinsn *x, const mem_access *acc,
                    const mem_fault *fault)
{
    warp_fault(w, x, fault->lane, "EXEC-MEM-001", "invalid %s %s of size %u at address 0x%llx: %s",
               exec_mem_space_name(fault->space), access_name(acc), fault->bytes,
               (unsigned long long)fault->address, fault->what);
}
