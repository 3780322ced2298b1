/* What the memory-system unit tests (test_hier.c, test_cctl.c, test_memsys.c) share: the small
 * GPU they run on and the way they describe one warp access. Include after cmocka.h. */
#ifndef GMS_TESTS_MEMSYS_TEST_H
#define GMS_TESTS_MEMSYS_TEST_H

#include <string.h>

#include "config/gpu_config.h"
#include "mem/memsys.h"
#include "sim/sim.h"

/* The h100 preset's policies on a small geometry, so that capacity and set conflicts take few
 * lines: 2 SMs, 4 KiB 4-way L1s, a 64 KiB 4-way L2 in 2 slices. */
static inline void memsys_test_small_h100(memsys_config *cfg)
{
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, cfg, "", NULL), 0);
    cfg->sm_count = 2;
    cfg->l1.bytes = 4096;
    cfg->l1.ways = 4;
    cfg->l2.bytes = 64 * 1024;
    cfg->l2.ways = 4;
    cfg->l2.slices = 2;
}

/* Clears *a and describes a warp access of instruction `insn_id`: `op` on `space`, `vec`
 * elements of `elem_bytes` per lane, lanes `active`, with attributes *attrs (borrowed; its space,
 * element size and vector width are set, its other fields are the caller's). Addresses are the
 * caller's to fill. Returns a. */
static inline mem_access *memsys_test_access(mem_access *a, ir_mem_attrs *attrs, mem_op op,
                                             ir_space space, uint32_t elem_bytes, uint32_t vec,
                                             uint32_t active, uint32_t insn_id)
{
    memset(a, 0, sizeof *a);
    a->op = (uint8_t)op;
    a->space = (uint8_t)space;
    a->elem_bytes = (uint8_t)elem_bytes;
    a->vec = (uint8_t)vec;
    a->active = active;
    a->insn_id = insn_id;
    attrs->space = (uint8_t)space;
    attrs->elem_bytes = (uint8_t)elem_bytes;
    attrs->vec = (uint8_t)vec;
    a->attrs = attrs;
    return a;
}

/* Lane l addresses base + l * stride_bytes. */
static inline void memsys_test_strided(mem_access *a, uint64_t base, uint64_t stride_bytes)
{
    for (uint32_t l = 0; l < MEM_LANES; l++) a->addr[l] = base + l * stride_bytes;
}

#endif
