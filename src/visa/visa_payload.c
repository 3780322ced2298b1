/* The kernel function's life: `.function` opens it once the declarations are complete; the
 * end of the module closes it. Opening settles the GRF size, each root variable's slot size and
 * the thread payload prologue (docs/visa.md, "Thread payload"):
 *   - bytes [0, grf) are r0: element 1 holds the work-group id x, elements 6 and 7 ids y and z
 *     (the Xe thread payload header; the other elements read 0 here);
 *   - bytes [grf, grf + PerThreadInputSize) hold the local ids: three components x, y, z, each
 *     SimdSize 16-bit lanes padded to whole GRFs (IGC's per-thread payload); an .input there gets
 *     the local ids of the lanes it covers;
 *   - from grf + PerThreadInputSize on, the cross-thread data: the kernel's one parameter,
 *     `cross_thread_data`, up to the end of its last .input; each .input there is loaded from
 *     its offset, and the launch fills the bytes as IGC's runtime would (docs/launch-files.md,
 *     "ND-range launches"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "visa/visa_internal.h"
#include "visa/visa_lower.h"
#include "visa/visa_lower_internal.h"

static ir_insn *pro(visa_parser *p, uint16_t op, uint8_t type)
{
    ir_insn *in = dynarray_push(&p->prologue);
    if (!in) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return NULL;
    }
    in->op = op;
    in->type = type;
    in->glue = 1;
    in->line = p->func_line;
    in->col = p->func_col;
    return in;
}

static void settle_storage(visa_parser *p)
{
    visa_var *vs = p->vars.data;
    uint32_t align = 0;
    for (size_t i = 0; i < p->vars.count; i++) {
        if (vs[i].predef == VISA_PRE_NONE && vs[i].align_bytes > align)
            align = vs[i].align_bytes;
        if (vs[i].kind != VISA_V_GENERAL)
            continue;
        visa_var *root = &vs[vs[i].root];
        uint8_t b = visa_types[vs[i].type].bytes;
        if (b > root->slot_bytes)
            root->slot_bytes = b;
    }
    /* r0 is the first GRF of the payload, so an .input below 64 means a 32-byte GRF; otherwise
     * a GRF-sized alignment of 64 bytes means Xe-HPC's 64-byte GRF. */
    uint32_t min_input = UINT32_MAX;
    for (size_t i = 0; i < p->vars.count; i++)
        if (vs[i].is_input && vs[i].input_offset < min_input)
            min_input = vs[i].input_offset;
    p->grf_bytes = min_input < 64 ? 32 : align >= 64 ? 64 : 32;
    if (!p->simd_size)
        p->simd_size = 32; /* vISA's default dispatch width when no SimdSize is given */
}

/* r0.1, r0.6, r0.7 <- the work-group id; only when some variable aliases %r0. */
static void r0_prologue(visa_parser *p)
{
    static const struct { uint32_t elem; uint32_t sreg; } ids[] = {
        {1, IR_SREG_CTAID_X}, {6, IR_SREG_CTAID_Y}, {7, IR_SREG_CTAID_Z}};
    visa_var *vs = p->vars.data;
    int32_t r0 = -1;
    for (size_t i = 0; i < p->vars.count; i++)
        if (vs[i].predef == VISA_PRE_R0)
            r0 = (int32_t)i;
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        visa_access a = {.var = r0, .type = VISA_T_UD, .elem = ids[k].elem, .line = p->func_line,
                         .col = p->func_col};
        visa_place pl;
        if (!visa_locate(p, &a, &pl))
            return;
        if (pl.bits != pl.slot_bits || pl.shift)
            return; /* r0 read as 64-bit pieces: left to the accesses' own checks */
        ir_insn *in = pro(p, IR_MOV, IR_T_U32);
        if (!in)
            return;
        in->ndst = in->nsrc = 1;
        in->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = pl.reg};
        in->src[0] = (ir_operand){.kind = IR_OPND_SREG, .reg = ids[k].sreg};
    }
}

/* A per-thread .input: the local ids of the lanes it covers. */
static void local_id_input(visa_parser *p, int32_t vi)
{
    visa_var *v = visa_var_at(p, vi);
    uint32_t comp_bytes = p->per_thread_input_bytes / 3;
    uint32_t rel = v->input_offset - p->grf_bytes;
    uint32_t comp = comp_bytes ? rel / comp_bytes : 3;
    uint32_t lane0 = comp_bytes ? (rel % comp_bytes) / 2 : 0;
    uint32_t lanes = v->input_size / 2;
    if (comp > 2 || visa_types[v->type].bytes != 2 || lane0 + lanes > 32 || (lanes & (lanes - 1))) {
        visa_error(p, v->line, v->col, "VISA-SEM-006",
                   ".input '%.*s' at %u is not a component of the local-id payload", (int)v->len,
                   v->name, v->input_offset);
        return;
    }
    visa_exec ex = {.present = 1, .size = (uint8_t)lanes, .lane_offset = (uint8_t)lane0};
    visa_insn_head h = {.exec = ex, .line = p->func_line, .col = p->func_col};
    ir_operand dst;
    if (!visa_lane_reg(p, vi, 0, &ex, v->line, v->col, &dst))
        return;
    /* range guard from the prologue itself: emitted into the body then moved is not needed,
     * because the lanes outside this input write other registers' anchors; run unguarded. */
    (void)h;
    ir_insn *in = pro(p, IR_MOV, IR_T_U16);
    if (!in)
        return;
    in->ndst = in->nsrc = 1;
    in->dst[0] = dst;
    in->src[0] = (ir_operand){.kind = IR_OPND_SREG, .reg = IR_SREG_TID_X + comp};
}

/* The kernel's one parameter: the cross-thread data, `bytes` long (the end of its last .input),
 * which the launch builds as IGC's runtime lays it out (docs/launch-files.md, "ND-range
 * launches"). */
static bool cross_thread_param(visa_parser *p, uint32_t ct_start)
{
    uint32_t end = 0;
    for (size_t i = 0; i < p->vars.count; i++) {
        const visa_var *v = visa_var_at(p, (int32_t)i);
        if (v->is_input && v->input_offset >= ct_start && v->input_offset + v->input_size - ct_start > end)
            end = v->input_offset + v->input_size - ct_start;
    }
    if (!end)
        return true;
    ir_param *pa = dynarray_push(&p->params);
    if (!pa) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return false;
    }
    pa->name = "cross_thread_data";
    pa->type = IR_T_B8;
    pa->align = 1;
    pa->size_bytes = end;
    pa->line = p->func_line;
    pa->col = p->func_col;
    return true;
}

/* A cross-thread .input: its bytes of the parameter, loaded into its uniform slots. */
static void cross_thread_input(visa_parser *p, int32_t vi, uint32_t ct_start)
{
    const visa_var *v = visa_var_at(p, vi);
    unsigned S = visa_var_at(p, v->root)->slot_bytes;
    for (uint32_t off = 0; off < v->input_size; off += S) {
        visa_access a = {.var = vi, .type = v->type, .elem = off / visa_types[v->type].bytes,
                         .line = v->line, .col = v->col};
        visa_place pl;
        if (!visa_locate(p, &a, &pl))
            return;
        uint32_t bytes = v->input_size - off < S ? v->input_size - off : S;
        ir_insn *in = pro(p, IR_LD, bytes == 8 ? IR_T_B64 : bytes == 4 ? IR_T_B32
                                     : bytes == 2                      ? IR_T_B16
                                                                      : IR_T_B8);
        if (!in)
            return;
        in->ndst = in->nsrc = 1;
        in->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = pl.reg};
        in->src[0] = (ir_operand){.kind = IR_OPND_ADDR, .sym = IR_SYM_PARAM_BASE,
                                  .imm = v->input_offset - ct_start + off};
        in->mem.space = IR_SPACE_PARAM;
        in->mem.elem_bytes = (uint8_t)bytes;
        in->mem.vec = 1;
    }
}

void visa_begin_function(visa_parser *p, const fe_token *dir)
{
    p->in_function = true;
    p->func_line = dir->line;
    p->func_col = dir->col;
    p->laneid_reg = UINT32_MAX;
    settle_storage(p);
    r0_prologue(p);
    uint32_t ct_start = p->grf_bytes + p->per_thread_input_bytes;
    if (!cross_thread_param(p, ct_start))
        return;
    for (size_t i = 0; i < p->vars.count && !p->cur.oom; i++) {
        visa_var *v = visa_var_at(p, (int32_t)i);
        if (!v->is_input)
            continue;
        if (v->input_offset < p->grf_bytes)
            visa_error(p, v->line, v->col, "VISA-SEM-006",
                       ".input '%.*s' at %u overlaps the r0 header", (int)v->len, v->name,
                       v->input_offset);
        else if (v->input_offset < ct_start)
            local_id_input(p, (int32_t)i);
        else
            cross_thread_input(p, (int32_t)i, ct_start);
    }
}

/* Label references point into the body; the prologue goes first. */
typedef struct patch_ctx {
    ir_insn *insns;
    uint32_t shift;
} patch_ctx;

static void patch_label(void *user, const fe_label_ref *ref, uint32_t target)
{
    patch_ctx *c = user;
    c->insns[ref->insn + c->shift].src[ref->slot].imm = target + c->shift;
}

/* Static ids: one per vISA instruction. Glue takes the id of the instruction it serves: the
 * next non-glue one, or the one before for a finishing insert (post_glue) and for glue at the
 * end. */
static void assign_ids(visa_parser *p, ir_insn *insns, uint32_t n, uint32_t npro)
{
    const uint32_t *post = p->post_glue.data;
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!insns[i].glue)
            insns[i].id = p->insn_ids++;
    uint32_t next = UINT32_MAX;
    for (uint32_t i = n; i-- > 0;) {
        if (!insns[i].glue)
            next = insns[i].id;
        else
            insns[i].id = next;
    }
    uint32_t prev = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        while (k < p->post_glue.count && post[k] + npro < i)
            k++;
        bool finishing = k < p->post_glue.count && post[k] + npro == i;
        if (!insns[i].glue)
            prev = insns[i].id;
        else if ((finishing || insns[i].id == UINT32_MAX) && prev != UINT32_MAX)
            insns[i].id = prev;
    }
}

static bool name_slots(visa_parser *p, ir_func *fn)
{
    arena *a = &p->m->arena;
    fn->nregs = p->nregs;
    fn->npreds = p->npreds;
    fn->reg_types = arena_alloc(a, fn->nregs ? fn->nregs : 1);
    fn->reg_names = arena_alloc(a, (fn->nregs ? fn->nregs : 1) * sizeof *fn->reg_names);
    fn->pred_names = arena_alloc(a, (fn->npreds ? fn->npreds : 1) * sizeof *fn->pred_names);
    if (!fn->reg_types || !fn->reg_names || !fn->pred_names)
        return false;
    if (fn->nregs)
        memcpy(fn->reg_types, p->reg_types.data, fn->nregs);
    char name[24];
    for (uint32_t r = 0; r < fn->nregs; r++) {
        snprintf(name, sizeof name, "%%v%u", r);
        if (!(fn->reg_names[r] = arena_strndup(a, name, strlen(name))))
            return false;
    }
    for (uint32_t q = 0; q < fn->npreds; q++) {
        snprintf(name, sizeof name, "%%p%u", q);
        if (!(fn->pred_names[q] = arena_strndup(a, name, strlen(name))))
            return false;
    }
    return true;
}

static bool build_function(visa_parser *p)
{
    arena *a = &p->m->arena;
    size_t npro = p->prologue.count, nbody = p->insns.count;
    ir_func *fn = dynarray_push(&p->funcs);
    if (!fn)
        return false;
    fn->name = arena_strndup(a, p->kernel_name ? p->kernel_name : "kernel",
                             p->kernel_name ? p->kernel_len : 6);
    fn->is_entry = fn->is_visible = 1;
    fn->line = p->kernel_line;
    fn->col = p->kernel_col;
    fn->ninsns = (uint32_t)(npro + nbody);
    fn->insns = arena_alloc(a, (fn->ninsns ? fn->ninsns : 1) * sizeof *fn->insns);
    if (!fn->name || !fn->insns)
        return false;
    if (npro)
        memcpy(fn->insns, p->prologue.data, npro * sizeof *fn->insns);
    if (nbody)
        memcpy(fn->insns + npro, p->insns.data, nbody * sizeof *fn->insns);
    patch_ctx c = {fn->insns, (uint32_t)npro};
    fe_label_resolver r = {patch_label, NULL, &c};
    fe_labels_resolve(&p->labels, &p->cur, "VISA-SEM-004", &r);
    assign_ids(p, fn->insns, fn->ninsns, (uint32_t)npro);
    if (p->params.count) {
        fn->params = arena_alloc(a, p->params.count * sizeof *fn->params);
        if (!fn->params)
            return false;
        memcpy(fn->params, p->params.data, p->params.count * sizeof *fn->params);
        fn->nparams = (uint32_t)p->params.count;
        for (uint32_t i = 0; i < fn->nparams; i++)
            if (fn->params[i].offset + fn->params[i].size_bytes > fn->params_bytes)
                fn->params_bytes = fn->params[i].offset + fn->params[i].size_bytes;
    }
    /* A kernel whose last instruction can fall off the end gets the end IGC's `ret` means. */
    return name_slots(p, fn);
}

void visa_end_function(visa_parser *p)
{
    if (!build_function(p))
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
    p->in_function = false;
}

bool visa_finish_module(visa_parser *p)
{
    ir_module *m = p->m;
    if (p->funcs.count) {
        m->funcs = arena_alloc(&m->arena, p->funcs.count * sizeof *m->funcs);
        if (!m->funcs)
            return false;
        memcpy(m->funcs, p->funcs.data, p->funcs.count * sizeof *m->funcs);
        m->nfuncs = (uint32_t)p->funcs.count;
    }
    m->ninsns_total = p->insn_ids;
    ir_machine *mc = &m->machine;
    mc->reg_count = 0; /* virtual registers: the storage map gives as many as the kernel needs */
    mc->reg_bits = 0;
    mc->flag_count = 1;
    mc->insn_bytes = 16; /* an Xe instruction is 16 bytes (8 when compacted; not modelled) */
    mc->call_conv = IR_CALL_PARAM_FRAME;
    mc->warp_lanes = (uint8_t)p->simd_size;
    return true;
}

void visa_lower_fini(visa_parser *p)
{
    dynarray_free(&p->slots);
    dynarray_free(&p->prologue);
    dynarray_free(&p->params);
    dynarray_free(&p->post_glue);
}
