/* The verifier rules of the LSC instructions (../reference/visa-lsc.md sections 4-6; IGC's
 * IsaVerification.cpp verifyCachingOpts, verifyFence and the LSC operand checks), applied to a
 * parsed visa_lsc_msg for one platform. Each rule is a small function that reports at the
 * part of the instruction it is about; the instruction is checked as a whole, so one
 * instruction may earn several diagnostics (as GenX_IR lists several complaints). */
#include "ir/ir.h"
#include "visa/visa_lsc.h"
#include "visa/visa_lsc_internal.h"

typedef struct checker {
    const visa_lsc_msg *in;
    visa_platform platform;
    visa_lsc_report_fn report;
    void *user;
    int errors;
} checker;

#define FAIL(ck, rule, at, ...) \
    do { \
        visa_lsc_reportf((ck)->report, (ck)->user, rule, at, 0, __VA_ARGS__); \
        (ck)->errors++; \
    } while (0)

static const char *kind_word(unsigned kind)
{
    return kind == VISA_LSC_LOAD ? "load" : kind == VISA_LSC_STORE ? "store" : "atomic";
}

/* Reference section 4: the legal .L1.L3 pairs per operation; ugml (and tgm) only .df.df before
 * Xe2; the Xe2 pairs refused on DG2 and PVC. The SLM .df rule of the documentation is not
 * enforced by IGC and not here. */
static void check_cache(checker *ck)
{
    const visa_lsc_msg *in = ck->in;
    if (in->ncache != 2)
        return;
    unsigned l1 = in->cache[0], l3 = in->cache[1];
    unsigned kind = in->op->kind;
    const char *rule = kind == VISA_LSC_LOAD ? "VISA-LSC-020"
                       : kind == VISA_LSC_STORE ? "VISA-LSC-021" : "VISA-LSC-022";
    unsigned need = kind == VISA_LSC_LOAD ? VISA_LSC_PAIR_LOAD
                    : kind == VISA_LSC_STORE ? VISA_LSC_PAIR_STORE : VISA_LSC_PAIR_ATOMIC;
    const visa_lsc_pair *pair = visa_lsc_find_pair(l1, l3);
    if (!pair || !(pair->kinds & need)) {
        FAIL(ck, rule, in->at_cache, "invalid cache controls .%s.%s for an %s%s",
             visa_lsc_cache_name(l1), visa_lsc_cache_name(l3), kind_word(kind),
             kind == VISA_LSC_ATOMIC ? " (allowed: .df.df, .uc.uc, .uc.wb)" : "");
        return;
    }
    if (pair->xe2) {
        FAIL(ck, "VISA-LSC-023", in->at_cache,
             "cache controls .%s.%s need Xe2 or later (the target is %s)",
             visa_lsc_cache_name(l1), visa_lsc_cache_name(l3),
             ck->platform == VISA_PLATFORM_PVC ? "PVC" : "DG2");
        return;
    }
    if (in->sfid == VISA_LSC_SFID_UGML && !(l1 == VISA_LSC_CACHE_DF && l3 == VISA_LSC_CACHE_DF))
        FAIL(ck, "VISA-LSC-024", in->at_cache,
             "messages to ugml must use default cache controls (.df.df or none)");
}

/* Reference section 5 (address sizes): a16 only on SLM. gpumemsim runs flat (stateless)
 * addresses only: the surface models need binding tables and surface states it does not model. */
static void check_address(checker *ck)
{
    const visa_lsc_msg *in = ck->in;
    if (in->model > VISA_LSC_MODEL_FLAT)
        FAIL(ck, "VISA-LSC-039", in->at_addr,
             "gpumemsim does not model %s[...] surface addresses; only flat (stateless) "
             "addresses run (IGC emits them with -cl-intel-greater-than-4GB-buffer-required)",
             visa_lsc_model_name(in->model));
    else if (in->has_surface)
        FAIL(ck, "VISA-LSC-039", in->at_addr, "gpumemsim does not model flat(BASE) addresses");
    if (in->scale > 1)
        FAIL(ck, "VISA-LSC-039", in->at_addr,
             "gpumemsim does not model scaled addresses (%u*VAR)", in->scale);
    if (in->addr_size == VISA_LSC_A16 && in->sfid != VISA_LSC_SFID_SLM)
        FAIL(ck, "VISA-LSC-025", in->at_addr, ":a16 addresses are allowed only on .slm");
    if (in->addr_size == VISA_LSC_A64 && in->sfid == VISA_LSC_SFID_SLM)
        FAIL(ck, "VISA-LSC-041", in->at_addr, "slm offsets are :a16 or :a32, not :a64");
}

static unsigned addr_bytes(unsigned size)
{
    return size == VISA_LSC_A16 ? 2 : size == VISA_LSC_A64 ? 8 : 4;
}

/* The bytes of registers a data payload takes on platform p: SIMT lanes hold 8- and 16-bit data
 * in a 32-bit container and a message narrower than the native SIMD width (16 lanes on PVC, 8
 * on DG2: one GRF of dwords) still takes the native width's registers per vector element (as
 * GenX_IR counts: d64x8 fails at any ExecSize); a transposed block is packed. */
static unsigned payload_bytes(const visa_lsc_msg *in, visa_platform p)
{
    if (in->transposed)
        return in->vec * visa_lsc_mem_bytes(in->data_size);
    unsigned lane = in->data_size == VISA_LSC_D64 ? 8 : 4;
    unsigned native = visa_platform_grf_bytes(p) / 4;
    unsigned lanes = in->exec_size > native ? in->exec_size : native;
    return lanes * lane * in->vec;
}

/* The bytes a message really moves to or from its data variable. */
static unsigned data_bytes(const visa_lsc_msg *in)
{
    if (in->transposed)
        return in->vec * visa_lsc_mem_bytes(in->data_size);
    return in->exec_size * visa_lsc_reg_bytes(in->data_size == VISA_LSC_D64 ? VISA_LSC_D64
                                                                             : VISA_LSC_D32) *
           in->vec;
}

static int widening(unsigned ds)
{
    return ds == VISA_LSC_D8U32 || ds == VISA_LSC_D16U32 || ds == VISA_LSC_D16U32H;
}

/* Reference section 5 (vectors, transposition, payload). */
static void check_shape(checker *ck)
{
    const visa_lsc_msg *in = ck->in;
    int wide = in->data_size == VISA_LSC_D32 || in->data_size == VISA_LSC_D64;
    if (in->vec > 1 && widening(in->data_size)) {
        FAIL(ck, "VISA-LSC-040", in->at_data, "the widening data size %s cannot be a vector",
             visa_lsc_data_size_name(in->data_size));
        return;
    }
    if (in->transposed) {
        if (in->op->kind == VISA_LSC_ATOMIC) {
            FAIL(ck, "VISA-LSC-030", in->at_data, "atomics cannot be transposed");
            return;
        }
        if (in->exec_size != 1)
            FAIL(ck, "VISA-LSC-029", in->at_data,
                 "a transposed access needs ExecSize 1 (it has %u)", in->exec_size);
    } else if (in->vec > 1) {
        if (in->op->kind == VISA_LSC_ATOMIC) {
            FAIL(ck, "VISA-LSC-031", in->at_data,
                 "atomics take one element per lane (x%u given)", in->vec);
            return;
        }
        if (!wide) {
            FAIL(ck, "VISA-LSC-026", in->at_data, "only d32 and d64 may be vectors (%s x%u)",
                 visa_lsc_data_size_name(in->data_size), in->vec);
            return;
        }
        int ugml = in->sfid == VISA_LSC_SFID_UGML;
        if (in->vec > 8 || (ugml && (in->vec == 3 || in->vec == 8)))
            FAIL(ck, "VISA-LSC-027", in->at_data,
                 "%s supports vector sizes %s, not x%u", visa_lsc_sfid_name(in->sfid),
                 ugml ? "1, 2 and 4" : "1, 2, 3, 4 and 8", in->vec);
    }
    unsigned grf = visa_platform_grf_bytes(ck->platform);
    unsigned bytes = payload_bytes(in, ck->platform);
    if (bytes > 8 * grf)
        FAIL(ck, "VISA-LSC-028", in->at_data,
             "this message's data takes %u registers of %u bytes; at most 8 are allowed",
             (bytes + grf - 1) / grf, grf);
    bytes = data_bytes(in);
    if (!in->data_null && in->data_var_bytes && in->data_var_bytes < bytes)
        FAIL(ck, "VISA-LSC-038", in->at_data,
             "the data variable holds %u bytes; the message moves %u", in->data_var_bytes,
             bytes);
    unsigned abytes = addr_bytes(in->addr_size) * (in->transposed ? 1 : in->exec_size);
    if (in->addr_var_bytes && in->addr_var_bytes < abytes)
        FAIL(ck, "VISA-LSC-037", in->at_addr,
             "the address variable holds %u bytes; %u lanes of :%s need %u", in->addr_var_bytes,
             in->transposed ? 1u : in->exec_size, visa_lsc_addr_size_name(in->addr_size),
             abytes);
}

/* Reference section 5 (atomics) and section 1 (atomic sources). */
static void check_atomic(checker *ck)
{
    const visa_lsc_msg *in = ck->in;
    unsigned ds = in->data_size;
    if (ds != VISA_LSC_D16U32 && ds != VISA_LSC_D32 && ds != VISA_LSC_D64)
        FAIL(ck, "VISA-LSC-032", in->at_data,
             "atomic data size must be d16u32, d32 or d64 (%s given)",
             visa_lsc_data_size_name(ds));
    else if (in->sfid == VISA_LSC_SFID_SLM && ds == VISA_LSC_D64 &&
             (in->op->atom != IR_ATOM_CAS || in->op->is_float))
        FAIL(ck, "VISA-LSC-033", in->at_data, "slm d64 atomics support only icas");
    if (in->sfid == VISA_LSC_SFID_SLM && in->op->is_float && in->op->atom != IR_ATOM_CAS &&
        (in->op->atom == IR_ATOM_ADD || in->op->atom == 0))
        FAIL(ck, "VISA-LSC-042", in->at, "%s works on ugm and ugml only, not on slm",
             in->op->mnemonic);
    static const char *const want[] = {"%null %null", "a source and %null", "two sources"};
    unsigned arity = in->op->arity;
    int ok = arity == VISA_LSC_UNARY     ? in->src1_null && in->src2_null
             : arity == VISA_LSC_BINARY ? !in->src1_null && in->src2_null
                                        : !in->src1_null && !in->src2_null;
    if (!ok)
        FAIL(ck, "VISA-LSC-034", in->at_src[0], "%s takes %s", in->op->mnemonic, want[arity]);
}

/* Reference section 6: a fence has no predicate and no ExecSize; an SLM fence is
 * .none.group. */
static void check_fence(checker *ck)
{
    const visa_lsc_msg *in = ck->in;
    if (in->has_pred)
        FAIL(ck, "VISA-LSC-006", in->at_pred, "lsc_fence cannot be predicated");
    if (in->has_exec)
        FAIL(ck, "VISA-LSC-006", in->at_exec, "lsc_fence takes no ExecSize");
    if (in->sfid != VISA_LSC_SFID_SLM)
        return;
    if (in->fence_op != VISA_LSC_FENCE_NONE)
        FAIL(ck, "VISA-LSC-035", in->at, "lsc_fence.slm must use operation .none (not .%s)",
             visa_lsc_fence_op_name(in->fence_op));
    if (in->scope != VISA_LSC_SCOPE_GROUP)
        FAIL(ck, "VISA-LSC-036", in->at_scope, "lsc_fence.slm must use scope .group (not .%s)",
             visa_lsc_scope_name(in->scope));
}

int visa_lsc_check(const visa_lsc_msg *in, visa_platform p, visa_lsc_report_fn report,
                   void *user)
{
    checker ck = {in, p, report, user, 0};
    if (in->op->kind == VISA_LSC_FENCE) {
        check_fence(&ck);
        return ck.errors;
    }
    if (!in->has_exec) {
        FAIL(&ck, "VISA-LSC-005", in->at, "%s needs an ExecSize such as (M1, 16)",
             in->op->mnemonic);
        return ck.errors;
    }
    check_cache(&ck);
    check_address(&ck);
    check_shape(&ck);
    if (in->op->kind == VISA_LSC_ATOMIC)
        check_atomic(&ck);
    return ck.errors;
}
