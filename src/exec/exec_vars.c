/* Module variables seen from outside a launch (exec.h): where each lives, and the constant bank
 * read and written by the host (cudaMemcpyToSymbol on __constant__ data). The bank is the
 * program's image; the memory system holds a copy, installed again after every change, so the
 * next launch reads the new values. */
#include <string.h>

#include "exec/exec_internal.h"

uint64_t exec_program_var_location(const exec_program *p, uint32_t var)
{
    return var < p->module->nvars ? p->module_var_addr[var] : 0;
}

int exec_program_write_const(exec_program *p, memsys *ms, uint64_t offset, const void *buf,
                             uint64_t bytes)
{
    if (offset > p->const_bytes || bytes > p->const_bytes - offset)
        return -1;
    memcpy(p->const_bank + offset, buf, bytes);
    if (ms && p->globals_ready && p->globals_ms == ms && memsys_const_owner(ms) == p)
        return memsys_set_const_bank(ms, p->const_bank, p->const_bytes);
    return 0;
}

int exec_program_read_const(const exec_program *p, uint64_t offset, void *buf, uint64_t bytes)
{
    if (offset > p->const_bytes || bytes > p->const_bytes - offset)
        return -1;
    memcpy(buf, p->const_bank + offset, bytes);
    return 0;
}
