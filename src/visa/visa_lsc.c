/* The LSC family (visa_lsc.h). Placeholder until the LSC front-end lands: every `lsc_*`
 * instruction is rejected by name, so that a kernel that uses one fails with a clear diagnostic
 * instead of running without its memory accesses. */
#include "visa/visa_lsc.h"

bool visa_lsc_insn(visa_parser *p, const visa_insn_head *h)
{
    visa_error(p, h->line, h->col, "VISA-UNSUP-001", "LSC instruction '%.*s' is not implemented yet",
               (int)h->mnemonic->len, h->mnemonic->text);
    return false;
}
