/* Lowering of PTX's memory modifiers to the neutral memory contract (ir/ir.h ir_mem_attrs;
 * DESIGN.md, "The memory access contract"). Each cache modifier's meaning is a column of its row
 * in ptx_ops.def (PTX_CMOD); this file merges the rows an instruction carries and applies the PTX
 * rules that depend on more than one modifier, on the state space or on the instruction. Every
 * rule here is listed in docs/cache-hints.md ("From PTX to the memory contract"). The memory
 * system knows none of PTX's names. */
#include "ptx/ptx_internal.h"

/* Adds a modifier's mapping: the scalar fields it sets replace earlier ones, bit fields add. */
static void merge_map(ir_mem_attrs *m, const ir_mem_attrs *map)
{
    if (!map)
        return;
    if (map->l1_alloc)
        m->l1_alloc = map->l1_alloc;
    if (map->l2_evict)
        m->l2_evict = map->l2_evict;
    if (map->write_mode)
        m->write_mode = map->write_mode;
    if (map->fill_bytes)
        m->fill_bytes = map->fill_bytes;
    if (map->has_policy)
        m->has_policy = 1;
    m->l1 |= map->l1;
    m->cctl_levels |= map->cctl_levels;
    m->cctl_lines |= map->cctl_lines;
    m->fence |= map->fence;
}

/* What ordering at `scope` must do to the caches: beyond the CTA, the SM's L1 (not coherent with
 * other SMs) drops its global lines, as the compiler's CCTL.IVALL does after an acquire or in a
 * fence at GPU or system scope. */
static uint8_t ordering_effects(uint8_t scope)
{
    return scope == IR_SCOPE_CTA ? 0 : IR_FENCE_INVALIDATE_L1;
}

void ptx_lower_mem(ptx_insn_ctx *c)
{
    /* Later groups override earlier ones: an explicit eviction priority wins over a cache
     * operator's class. */
    static const uint8_t groups[] = {PTX_G_COP, PTX_G_NC, PTX_G_L1EV, PTX_G_L2EVM, PTX_G_L2EV,
                                     PTX_G_PFSIZE, PTX_G_HINT, PTX_G_LEVEL, PTX_G_TENSORMAP};
    ir_mem_attrs *m = &c->insn->mem;
    m->l2_evict = IR_EVICT_NONE;
    for (size_t i = 0; i < sizeof groups; i++) {
        if (!c->has_group[groups[i]])
            continue;
        uint32_t value = c->group_value[groups[i]];
        /* .lu on .global addresses behaves as .cs (PTX ISA 9.1 §9.7.9.1). On generic addresses
         * the memory system's last-use rule gives global lines the same L2 class. */
        if (groups[i] == PTX_G_COP && value == PTX_COP_LU && m->space == IR_SPACE_GLOBAL)
            value = PTX_COP_CS;
        merge_map(m, ptx_mod_map((ptx_group)groups[i], value));
    }
    switch (c->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        m->write_mode = IR_WRITE_DEFAULT; /* a load has read behaviour only */
        if (m->sem == IR_SEM_ACQUIRE || m->sem == IR_SEM_SC)
            m->fence = ordering_effects(m->scope);
        break;
    case PTX_OP_ST: case PTX_OP_SUST_B: case PTX_OP_SUST_P:
        m->l1 = 0; /* a store has a write mode only */
        break;
    case PTX_OP_SULD:
        m->write_mode = IR_WRITE_DEFAULT;
        break;
    case PTX_OP_ATOM:
        if (m->sem == IR_SEM_ACQUIRE || m->sem == IR_SEM_ACQ_REL)
            m->fence = ordering_effects(m->scope);
        break;
    case PTX_OP_PREFETCH:
        m->cctl = IR_CCTL_PREFETCH;
        if (c->has_group[PTX_G_L2EV]) /* prefetch.L2::evict_*: into L2 with that class */
            m->cctl_levels |= IR_LEVEL_L2;
        if (!c->has_group[PTX_G_TENSORMAP])
            m->cctl_lines = IR_LINES_GLOBAL | IR_LINES_LOCAL;
        break;
    case PTX_OP_PREFETCHU: /* the uniform path serves global data only */
        m->cctl = IR_CCTL_PREFETCH;
        m->cctl_lines = IR_LINES_GLOBAL;
        break;
    case PTX_OP_APPLYPRIORITY:
        m->cctl = IR_CCTL_PRIORITY;
        m->cctl_levels = IR_LEVEL_L2;
        m->cctl_lines = IR_LINES_GLOBAL | IR_LINES_LOCAL;
        break;
    case PTX_OP_DISCARD: /* discard.L2 also drops the issuing SM's L1 copy */
        m->cctl = IR_CCTL_DISCARD;
        m->cctl_levels |= IR_LEVEL_L1;
        m->cctl_lines = IR_LINES_GLOBAL | IR_LINES_LOCAL;
        break;
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        m->fence = IR_FENCE_WAIT_WRITES | ordering_effects(m->scope);
        break;
    default:
        break;
    }
}
