/* The launch-file runner (gpumemsim/run.h): `gpumemsim run LAUNCH.json` as a client of the public
 * API. It reads the launch file (src/launch/) and the module file itself, so that problems with
 * them are reported at the launch file's fields, and does everything else through gpumemsim.h:
 * the device, the module, the checks of every launch before the first runs, buffers, launches,
 * statistics and the JSON report. Its own checks are the outputs' (sim_outputs.c) and the
 * expectations' (src/launch/). */
#include <stdlib.h>
#include <string.h>

#include "gpumemsim/run.h"
#include "launch/launch.h"
#include "sim/gms_diag.h"
#include "sim/sim.h"
#include "sim/sim_internal.h"

/* Launch files and the API name the element types alike and in the same order. */
_Static_assert((int)GMS_I8 == (int)LAUNCH_I8 && (int)GMS_F64 == (int)LAUNCH_F64 &&
                   (int)GMS_BF16 == (int)LAUNCH_BF16,
               "gms_type and launch_elem must list the element types in the same order");

struct gms_run {
    launch_desc *launch;           /* owned */
    gms_device *dev;               /* owned */
    gms_module *module;            /* the device's */
    uint64_t *addr;                /* owned: each buffer's device address, each image's handle */
    uint64_t *textures;            /* owned: each texture's handle */
    launch_expect_result *expects; /* owned: launch->nexpects results once checked */
    size_t nexpects;
};

/* The device of the launch file's "gpu" or "config", or of the options that override them. */
static gms_status make_device(gms_run *r, const gms_run_options *opt, gms_diag_list *g,
                              diag_list *dl)
{
    const launch_desc *L = r->launch;
    const char *config = opt->config_path ? opt->config_path : L->config_path;
    if (config && opt->preset) {
        /* --gpu would be ignored: the configuration's "base" names the preset. */
        diag_add(dl, DIAG_ERROR, "SIM-GPU-002", "gpumemsim", 0, 0,
                 "--gpu %s: the GPU configuration %s chooses the GPU (its \"base\" names the "
                 "preset); give --gpu or the configuration, not both", opt->preset, config);
        return GMS_ERR_CONFIG;
    }
    if (config)
        return gms_device_create_from_config(config, NULL, 0, &r->dev, g);
    const char *name = opt->preset ? opt->preset : L->gpu;
    if (gms_preset_find(name, NULL) == GMS_OK)
        return gms_device_create(name, &r->dev, g);
    if (opt->preset) /* blame the flag, not the launch file */
        diag_add(dl, DIAG_ERROR, "SIM-GPU-001", "gpumemsim", 0, 0,
                 "--gpu %s: unknown GPU preset; `gpumemsim presets` lists them", name);
    else
        diag_add(dl, DIAG_ERROR, "SIM-GPU-001", L->path, L->gpu_line, L->gpu_col,
                 "gpu: unknown GPU preset '%s'; `gpumemsim presets` lists them", name);
    return GMS_ERR_CONFIG;
}

/* Reads the module named by "module" (problems reported at that field) and loads it. */
static gms_status load_module(gms_run *r, gms_diag_list *g, diag_list *dl)
{
    const launch_desc *L = r->launch;
    sim_origin o = {L->path, L->module_line, L->module_col, "module"};
    /* The launch file's "dialect" names the module's dialect; without it the suffix decides. */
    const char *dialect = L->dialect;
    if (dialect) {
        int known = 0;
        for (size_t i = 0; gms_dialect_at(i) && !known; i++)
            known = strcmp(gms_dialect_at(i), dialect) == 0;
        if (!known) {
            sim_origin d = {L->path, L->dialect_line, L->dialect_col, "dialect"};
            sim_dialect_name_error(NULL, dialect, &d, L->module_path, dl);
            return GMS_ERR_MODULE;
        }
    } else if (!(dialect = gms_dialect_for_path(L->module_path))) {
        sim_dialect_error(L->module_path, &o, dl);
        return GMS_ERR_MODULE;
    }
    size_t len;
    char *text = sim_read_module(L->module_path, &o, &len, dl);
    if (!text)
        return GMS_ERR_IO;
    gms_status st = gms_module_load(r->dev, L->module_path, text, len, dialect, &r->module, g);
    free(text);
    return st;
}

/* The API's description of launch k (arguments and window not filled in). */
static gms_launch_config launch_config(const launch_desc *L, const launch_kernel *k)
{
    gms_launch_config c;
    memset(&c, 0, sizeof c);
    memcpy(c.grid, k->grid, sizeof c.grid);
    memcpy(c.block, k->block, sizeof c.block);
    c.shared_bytes = k->shared_bytes;
    c.origin = (gms_origin){L->path, k->line, k->col, k->field};
    c.block_line = k->block_line;
    c.block_col = k->block_col;
    c.shared_line = k->shared_line;
    c.shared_col = k->shared_col;
    c.helper_lanes = k->helper_lanes;
    c.cooperative = k->cooperative;
    return c;
}

/* Every launch against its kernel and the GPU before anything runs; the carve-out for the
 * largest shared memory of one CTA. Launches of kernels the module lacks are reported when
 * they come to run. */
static gms_status check_launches(gms_run *r, gms_diag_list *g)
{
    const launch_desc *L = r->launch;
    gms_status st = GMS_OK;
    uint64_t most = 0;
    for (size_t i = 0; i < L->nkernels; i++) {
        const launch_kernel *k = &L->kernels[i];
        gms_kernel_info info;
        if (gms_module_kernel_find(r->module, k->kernel, &info) != GMS_OK)
            continue;
        gms_launch_config c = launch_config(L, k);
        gms_status s = gms_module_check_launch(r->module, k->kernel, &c, g);
        uint64_t shared = (uint64_t)info.static_shared_bytes + k->shared_bytes;
        if (s != GMS_OK)
            st = s;
        else if (shared > most)
            most = shared;
    }
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_SHARED_PER_CTA, most, g);
    return st;
}

/* The run's settings, made before the device's memory exists. */
static gms_status configure(gms_run *r, const gms_run_options *opt, gms_diag_list *g)
{
    const launch_desc *L = r->launch;
    uint64_t limit = opt->max_instructions ? opt->max_instructions
                     : L->max_instructions ? L->max_instructions
                                           : SIM_DEFAULT_MAX_INSTRUCTIONS;
    gms_status st = gms_device_set(r->dev, GMS_SET_MAX_INSTRUCTIONS, limit, g);
    if (st == GMS_OK && opt->quantum)
        st = gms_device_set(r->dev, GMS_SET_QUANTUM, opt->quantum, g);
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_STRIP_HINTS, opt->strip_hints != 0, g);
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_POISON_DISCARD, opt->poison_discard != 0, g);
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_MISALIGNED_ERRORS, opt->misaligned_errors != 0, g);
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_STRICT_HAZARDS, opt->strict_hazards != 0, g);
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_TIMING, !opt->no_timing, g);
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_SCHEDULER, opt->scheduler == 1, g);
    if (st == GMS_OK)
        st = gms_device_set(r->dev, GMS_SET_THREADS, opt->threads, g);
    if (st == GMS_OK && L->has_image_pool_max)
        st = gms_device_set(r->dev, GMS_SET_IMAGE_POOL_MAX, L->image_pool_max, g);
    if (st == GMS_OK && L->has_heap_bytes)
        st = gms_device_set(r->dev, GMS_SET_HEAP_BYTES, L->heap_bytes, g);
    if (st == GMS_OK && L->has_l2_persisting_bytes)
        st = gms_device_set_l2_persisting(r->dev, L->l2_persisting_bytes, g);
    return st;
}

/* Creates image b (its handle in r->addr[b]) and binds its header-pool slot. */
static gms_status create_image(gms_run *r, size_t b, gms_diag_list *g)
{
    const launch_image *m = r->launch->buffers[b].image;
    gms_image_desc d = {(gms_image_dim)m->dim, m->channels, m->bits, (gms_image_kind)m->kind,
                        m->width, m->height, m->depth, m->layers, m->block_linear,
                        m->pitch_bytes, m->block_height, m->block_depth, m->disabled,
                        m->levels};
    gms_status st = gms_image_create(r->dev, &d, &r->addr[b], g);
    if (st == GMS_OK && m->has_slot)
        st = gms_image_set_slot(r->dev, r->addr[b], m->slot, g);
    return st;
}

/* Copies host data of buffer or image b (its texels in x-fastest order) to the device. */
static gms_status upload(gms_run *r, size_t b, const uint8_t *data, gms_diag_list *g)
{
    const launch_buffer *buf = &r->launch->buffers[b];
    return buf->image ? gms_image_write(r->dev, r->addr[b], data, buf->bytes, g)
                      : gms_device_write(r->dev, r->addr[b], data, buf->bytes, g);
}

/* A multiple of every element size. Small enough to stay in the host's L2 cache between its
 * generation and the copy into device memory, and below glibc's mmap threshold (a 1 MiB chunk
 * was a fresh mapping, 256 page faults, for a buffer's upload). */
enum { UPLOAD_CHUNK_BYTES = 64 << 10 };

/* Writes buffer b's initial contents to device memory a chunk at a time: a large buffer is
 * never held twice (generated on the host, then in device memory). Images are written whole
 * (their texels are reordered on the way in). */
static gms_status upload_buffer(gms_run *r, size_t b, gms_diag_list *g, diag_list *dl)
{
    const launch_desc *L = r->launch;
    const launch_buffer *buf = &L->buffers[b];
    size_t chunk = buf->image || buf->bytes < UPLOAD_CHUNK_BYTES ? (size_t)buf->bytes
                                                                  : UPLOAD_CHUNK_BYTES;
    uint8_t *data = malloc(chunk ? chunk : 1);
    if (!data) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", L->path, 0, 0,
                 "cannot allocate buffer %s (%llu bytes)", buf->name,
                 (unsigned long long)buf->bytes);
        return GMS_ERR_NOMEM;
    }
    gms_status st = GMS_OK;
    if (buf->image) {
        st = launch_init_buffer(L, b, data, dl) ? GMS_ERR_INPUT : upload(r, b, data, g);
    } else {
        launch_init_stream s;
        if (launch_init_begin(L, b, &s, dl))
            st = GMS_ERR_INPUT;
        for (uint64_t off = 0; st == GMS_OK && off < buf->bytes; off += chunk) {
            uint64_t n = buf->bytes - off < chunk ? buf->bytes - off : chunk;
            st = launch_init_next(&s, data, n, dl)
                     ? GMS_ERR_INPUT
                     : gms_device_write(r->dev, r->addr[b] + off, data, n, g);
        }
        if (s.desc && launch_init_end(&s, dl) && st == GMS_OK)
            st = GMS_ERR_INPUT;
    }
    free(data);
    return st;
}

/* Allocates every buffer and image and writes its initial contents. */
static gms_status setup_buffers(gms_run *r, gms_diag_list *g, diag_list *dl)
{
    const launch_desc *L = r->launch;
    r->addr = calloc(L->nbuffers + 1, sizeof *r->addr);
    if (!r->addr)
        return GMS_ERR_NOMEM;
    for (size_t b = 0; b < L->nbuffers; b++) {
        const launch_buffer *buf = &L->buffers[b];
        gms_status st = buf->image ? create_image(r, b, g)
                                   : gms_device_alloc(r->dev, buf->bytes, &r->addr[b], g);
        /* Device memory never written reads as zero: nothing to copy, nothing to page in. */
        if (st == GMS_OK && buf->init.kind != LAUNCH_INIT_ZERO)
            st = upload_buffer(r, b, g, dl);
        if (st != GMS_OK)
            return st;
    }
    return GMS_OK;
}

/* Creates each texture of the launch file on its image (after the images) and binds its slot. */
static gms_status create_textures(gms_run *r, gms_diag_list *g)
{
    const launch_desc *L = r->launch;
    r->textures = calloc(L->ntextures + 1, sizeof *r->textures);
    if (!r->textures)
        return GMS_ERR_NOMEM;
    for (size_t i = 0; i < L->ntextures; i++) {
        const launch_texture *t = &L->textures[i];
        gms_texture_desc d = {r->addr[t->image],
                              {(gms_tex_address)t->address[0], (gms_tex_address)t->address[1],
                               (gms_tex_address)t->address[2]},
                              (gms_tex_filter)t->filter, t->normalized, (gms_tex_read)t->read,
                              {t->border[0], t->border[1], t->border[2], t->border[3]},
                              (gms_tex_filter)t->mipmap_filter, t->lod_bias, t->min_lod,
                              t->max_lod};
        gms_status st = gms_texture_create(r->dev, &d, &r->textures[i], g);
        if (st == GMS_OK && t->has_slot)
            st = gms_texture_set_slot(r->dev, r->textures[i], t->slot, g);
        if (st != GMS_OK)
            return st;
    }
    return GMS_OK;
}

/* Binds each image to the module's .surfref variable of the same name, and each texture to its
 * .texref, if there is one (docs/launch-files.md, "Images", "Textures"). After every buffer is
 * allocated, so that looking the variable up (which places the module's variables) keeps the
 * buffers' addresses. */
static gms_status bind_references(gms_run *r, gms_diag_list *g)
{
    const launch_desc *L = r->launch;
    gms_var_info v;
    for (size_t b = 0; b < L->nbuffers; b++) {
        if (!L->buffers[b].image ||
            gms_module_var_info(r->module, L->buffers[b].name, &v, NULL) != GMS_OK ||
            !v.surface_ref)
            continue;
        gms_status st = gms_module_bind_surface(r->module, L->buffers[b].name, r->addr[b], g);
        if (st != GMS_OK)
            return st;
    }
    for (size_t t = 0; t < L->ntextures; t++) {
        if (gms_module_var_info(r->module, L->textures[t].name, &v, NULL) != GMS_OK ||
            !v.texture_ref)
            continue;
        gms_status st = gms_module_bind_texture(r->module, L->textures[t].name, r->textures[t], g);
        if (st != GMS_OK)
            return st;
    }
    return GMS_OK;
}

/* What the progress hook of the options needs: the launch-file view of the counts. */
typedef struct progress_ctx {
    const gms_run_options *opt;
    size_t launch, nlaunches;
} progress_ctx;

static void forward_progress(const gms_progress *p, void *user)
{
    const progress_ctx *c = user;
    gms_progress q = *p;
    q.launch = c->launch;
    q.nlaunches = c->nlaunches;
    c->opt->progress(&q, c->opt->progress_user);
}

/* The 128 bytes of a tensor map argument (gms_tensor_map_encode) over its buffer's device
 * address; API-TMAP-001 at the argument's position when a field is refused. */
static gms_status tensor_map_bytes(const gms_run *r, const launch_arg *a, uint8_t *out,
                                   gms_diag_list *g)
{
    const launch_tensor_map *t = a->tensor_map;
    gms_tensor_map_desc d;
    memset(&d, 0, sizeof d);
    d.data_type = t->data_type;
    d.rank = t->rank;
    d.global_address = r->addr[t->buffer] + t->offset;
    for (unsigned i = 0; i < t->rank; i++) {
        d.dims[i] = t->dims[i];
        d.box[i] = t->box[i];
        d.element_strides[i] = t->elem_strides[i];
        if (i)
            d.strides[i - 1] = t->strides[i - 1];
    }
    d.swizzle = t->swizzle;
    d.l2_promotion = t->l2_promotion;
    d.oob_fill = t->oob_fill;
    gms_diag_list scratch;
    diag_list_init(&scratch.dl);
    gms_status st = gms_tensor_map_encode(&d, out, &scratch);
    if (st != GMS_OK && scratch.dl.count) {
        const char *msg = scratch.dl.items[0].message, *colon = strstr(msg, ": ");
        diag_add(&g->dl, DIAG_ERROR, "API-TMAP-001", r->launch->path, a->line, a->col,
                 "%s.tensor_map: %s", a->field, colon ? colon + 2 : msg);
    }
    diag_list_fini(&scratch.dl);
    return st == GMS_OK ? GMS_OK : GMS_ERR_INPUT;
}

/* The cross-thread data of an ND-range launch (docs/launch-files.md, "ND-range launches"):
 * payload_bytes bytes, each item written little-endian at its offset; the buffers' addresses
 * and the scalars' bits from the launch's arguments, the implicit arguments from its sizes. */
static void ndrange_payload(const gms_run *r, const launch_kernel *k, uint8_t *out)
{
    for (size_t i = 0; i < k->npayload; i++) {
        const launch_payload_item *it = &k->payload[i];
        uint32_t v[3] = {0, 0, 0};
        switch (it->implicit) {
        case LAUNCH_IMPLICIT_NONE: {
            const launch_arg *a = &k->args[it->arg];
            uint64_t bits = a->kind == LAUNCH_ARG_BUFFER ? r->addr[a->buffer] + a->offset : a->bits;
            size_t n = a->kind == LAUNCH_ARG_BUFFER ? 8 : launch_elem_bytes(a->type);
            for (size_t b = 0; b < n; b++)
                out[it->offset + b] = (uint8_t)(bits >> (8 * b));
            continue;
        }
        case LAUNCH_IMPLICIT_GLOBAL_OFFSET: break;
        case LAUNCH_IMPLICIT_LOCAL_SIZE:
        case LAUNCH_IMPLICIT_ENQUEUED_LOCAL_SIZE: memcpy(v, k->block, sizeof v); break;
        case LAUNCH_IMPLICIT_GLOBAL_SIZE: memcpy(v, k->global_size, sizeof v); break;
        case LAUNCH_IMPLICIT_NUM_GROUPS: memcpy(v, k->grid, sizeof v); break;
        case LAUNCH_IMPLICIT_WORK_DIM: v[0] = k->work_dim; break;
        }
        unsigned words = it->implicit == LAUNCH_IMPLICIT_WORK_DIM ? 1 : 3;
        for (unsigned w = 0; w < words; w++)
            for (unsigned b = 0; b < 4; b++)
                out[it->offset + 4 * w + b] = (uint8_t)(v[w] >> (8 * b));
    }
}

/* Runs launch k: its arguments and window in the API's terms, at the launch file's fields. */
static gms_status run_launch(gms_run *r, const launch_kernel *k, gms_diag_list *g)
{
    const launch_desc *L = r->launch;
    gms_launch_config c = launch_config(L, k);
    gms_arg *args = calloc(k->nargs + 1, sizeof *args);
    uint8_t(*maps)[GMS_TENSOR_MAP_BYTES] = calloc(k->nargs + 1, sizeof *maps);
    if (!args || !maps) {
        free(args);
        free(maps);
        return GMS_ERR_NOMEM;
    }
    gms_status st = GMS_OK;
    for (size_t i = 0; i < k->nargs; i++) {
        const launch_arg *a = &k->args[i];
        args[i].origin = (gms_origin){L->path, a->line, a->col, a->field};
        if (a->kind == LAUNCH_ARG_BUFFER) {
            args[i].type = GMS_ADDRESS;
            args[i].bits = r->addr[a->buffer] + a->offset;
        } else if (a->kind == LAUNCH_ARG_SURFACE) {
            args[i].type = GMS_U64; /* a surface object: the image's handle */
            args[i].bits = r->addr[a->buffer];
        } else if (a->kind == LAUNCH_ARG_TEXTURE) {
            args[i].type = GMS_U64; /* a texture object: the texture's handle */
            args[i].bits = r->textures[a->texture];
        } else if (a->kind == LAUNCH_ARG_TENSOR_MAP) {
            args[i].type = GMS_BYTES; /* a __grid_constant__ CUtensorMap */
            args[i].bytes = maps[i];
            args[i].nbytes = GMS_TENSOR_MAP_BYTES;
            if (st == GMS_OK)
                st = tensor_map_bytes(r, a, maps[i], g);
        } else {
            args[i].type = (gms_type)a->type;
            args[i].bits = a->bits;
        }
    }
    gms_policy_window window;
    if (k->has_policy_window) {
        const launch_policy_window *pw = &k->policy_window;
        window = (gms_policy_window){r->addr[pw->buffer] + pw->offset, pw->bytes, pw->hit_ratio,
                                     (gms_access_prop)pw->hit_prop,
                                     (gms_access_prop)pw->miss_prop};
        c.window = &window;
    }
    c.args = args;
    c.nargs = k->nargs;
    uint8_t *payload = NULL;
    if (k->ndrange) {
        /* the kernel's one parameter is its cross-thread data */
        payload = calloc(k->payload_bytes ? k->payload_bytes : 1, 1);
        if (!payload) {
            free(args);
            free(maps);
            return GMS_ERR_NOMEM;
        }
        ndrange_payload(r, k, payload);
        memset(args, 0, sizeof *args);
        args[0].origin = (gms_origin){L->path, k->line, k->col, k->field};
        args[0].type = GMS_BYTES;
        args[0].bytes = payload;
        args[0].nbytes = k->payload_bytes;
        c.nargs = 1;
    }
    if (st == GMS_OK && k->reset_persisting)
        st = gms_device_reset_persisting(r->dev, g);
    if (st == GMS_OK)
        st = gms_module_launch(r->module, k->kernel, &c, g);
    free(payload);
    free(args);
    free(maps);
    return st;
}

/* Runs the launches in order until one fails; window errors (GMS_ERR_KERNEL) are reported and
 * the launches go on, and *kernel_errors says there were some. */
static gms_status run_launches(gms_run *r, const gms_run_options *opt, gms_diag_list *g,
                               int *kernel_errors)
{
    const launch_desc *L = r->launch;
    progress_ctx pc = {opt, 0, L->nkernels};
    if (opt->progress)
        gms_device_set_progress(r->dev, forward_progress, &pc);
    gms_status st = GMS_OK;
    for (size_t i = 0; i < L->nkernels && st == GMS_OK; i++) {
        pc.launch = i;
        st = run_launch(r, &L->kernels[i], g);
        if (st == GMS_ERR_KERNEL) {
            *kernel_errors = 1;
            st = GMS_OK;
        }
    }
    gms_device_set_progress(r->dev, NULL, NULL);
    return st;
}

/* True when buffer b is written to an output file or compared with an expectation: only those
 * are read back from device memory (bench/README.md, "Memory"). */
static int buffer_is_read_back(const launch_desc *L, size_t b)
{
    for (size_t i = 0; i < L->noutputs; i++)
        if (L->outputs[i].buffer == b)
            return 1;
    for (size_t e = 0; e < L->nexpects; e++)
        if (L->expects[e].buffer == b)
            return 1;
    return 0;
}

/* The buffers as outputs and expectations read them: a linear buffer straight from device memory
 * a chunk at a time (never a whole second copy), an image from its texels read back whole. */
typedef struct read_back_ctx {
    gms_run *r;
    uint8_t **images; /* images[b]: the texels of image b, or NULL */
    gms_diag_list *g;
} read_back_ctx;

static int read_back(void *ctx, size_t b, uint64_t offset, uint64_t bytes, uint8_t *out)
{
    read_back_ctx *c = ctx;
    if (c->images[b]) {
        memcpy(out, c->images[b] + offset, (size_t)bytes);
        return 0;
    }
    return gms_device_read(c->r->dev, c->r->addr[b] + offset, out, bytes, c->g) == GMS_OK ? 0 : -1;
}

/* Reads back every image an output or an expectation needs into images[] (calloc'd by the
 * caller, one entry per buffer). */
static gms_status read_back_images(gms_run *r, uint8_t **images, gms_diag_list *g)
{
    const launch_desc *L = r->launch;
    gms_status st = GMS_OK;
    for (size_t b = 0; st == GMS_OK && b < L->nbuffers; b++) {
        const launch_buffer *buf = &L->buffers[b];
        if (!buf->image || !buffer_is_read_back(L, b))
            continue;
        images[b] = malloc(buf->bytes);
        st = images[b] ? gms_image_read(r->dev, r->addr[b], images[b], buf->bytes, g)
                       : GMS_ERR_NOMEM;
    }
    return st;
}

/* After the last launch: final write-back, expectations, then every output (the launch file's
 * and the JSON report at json_path, NULL: none) all-or-nothing. */
static gms_status finish(gms_run *r, const char *json_path, gms_diag_list *g, diag_list *dl)
{
    const launch_desc *L = r->launch;
    gms_status st = gms_device_flush(r->dev, g);
    uint8_t **images = calloc(L->nbuffers + 1, sizeof *images);
    if (!images && st == GMS_OK)
        st = GMS_ERR_NOMEM;
    if (st == GMS_OK)
        st = read_back_images(r, images, g);
    read_back_ctx ctx = {r, images, g};
    launch_buffer_reader reader = {read_back, &ctx};
    int failed = 0;
    if (st == GMS_OK && L->nexpects) {
        r->expects = calloc(L->nexpects, sizeof *r->expects);
        failed = r->expects ? launch_check_expectations_from(L, &reader, r->expects, dl) : -1;
        if (failed < 0)
            st = r->expects ? GMS_ERR_IO : GMS_ERR_NOMEM;
        else
            r->nexpects = L->nexpects;
    }
    char *json = NULL;
    if (st == GMS_OK && json_path)
        st = gms_device_report(r->dev, GMS_REPORT_JSON, 0, L->path, &json, g);
    if (st == GMS_OK && sim_outputs_write(L, &reader, json_path, json, dl))
        st = GMS_ERR_IO;
    gms_free(json);
    for (size_t b = 0; images && b < L->nbuffers; b++) free(images[b]);
    free(images);
    if (st == GMS_ERR_NOMEM)
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", L->path, 0, 0,
                 "out of memory reading back the buffers");
    return st == GMS_OK && failed > 0 ? GMS_ERR_EXPECT : st;
}

/* Every step of a run in order; the first that fails ends it. */
static gms_status run_steps(gms_run *r, const char *path, const gms_run_options *opt,
                            gms_diag_list *g, diag_list *dl)
{
    if (!(r->launch = launch_load(path, dl)))
        return GMS_ERR_INPUT;
    gms_status st = make_device(r, opt, g, dl);
    if (st != GMS_OK)
        return st;
    if (sim_outputs_check(r->launch, opt->config_path, opt->json_path, dl))
        return GMS_ERR_INPUT;
    int kernel_errors = 0;
    if ((st = load_module(r, g, dl)) != GMS_OK || (st = check_launches(r, g)) != GMS_OK ||
        (st = configure(r, opt, g)) != GMS_OK || (st = setup_buffers(r, g, dl)) != GMS_OK ||
        (st = create_textures(r, g)) != GMS_OK ||
        (st = bind_references(r, g)) != GMS_OK ||
        (st = run_launches(r, opt, g, &kernel_errors)) != GMS_OK)
        return st;
    /* Window errors do not stop the run: outputs and expectations as for a clean one. */
    st = finish(r, opt->json_path, g, dl);
    return st == GMS_OK && kernel_errors ? GMS_ERR_KERNEL : st;
}

gms_status gms_run_file(const char *path, const gms_run_options *opt, gms_run **out,
                        gms_diag_list *g)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, g);
    gms_status st;
    gms_run *r = NULL;
    if (!path || !out) {
        st = gms_bad_argument(dl, "gms_run_file", "path or out is NULL");
    } else if (!(r = calloc(1, sizeof *r))) {
        st = GMS_ERR_NOMEM;
    } else {
        gms_run_options none;
        memset(&none, 0, sizeof none);
        st = run_steps(r, path, opt ? opt : &none, g, dl);
    }
    if (out)
        *out = r;
    gms_sink_close(&s);
    return st;
}

void gms_run_destroy(gms_run *r)
{
    if (!r)
        return;
    gms_device_destroy(r->dev);
    launch_destroy(r->launch);
    free(r->addr);
    free(r->textures);
    free(r->expects);
    free(r);
}

gms_device *gms_run_device(const gms_run *r)
{
    return r ? r->dev : NULL;
}

gms_module *gms_run_module(const gms_run *r)
{
    return r ? r->module : NULL;
}

size_t gms_run_launch_count(const gms_run *r)
{
    return r && r->launch ? r->launch->nkernels : 0;
}

size_t gms_run_expect_count(const gms_run *r)
{
    return r ? r->nexpects : 0;
}

gms_status gms_run_expect(const gms_run *r, size_t i, gms_expect_result *out)
{
    if (!r || !out || i >= r->nexpects)
        return GMS_ERR_ARGUMENT;
    const launch_expect_result *e = &r->expects[i];
    out->buffer = e->buffer_name;
    out->elements = e->elements;
    out->mismatches = e->mismatches;
    out->shown = e->shown;
    for (size_t j = 0; j < e->shown && j < GMS_MISMATCHES_SHOWN; j++) {
        out->first[j].index = e->first[j].index;
        snprintf(out->first[j].got, sizeof out->first[j].got, "%s", e->first[j].got);
        snprintf(out->first[j].expected, sizeof out->first[j].expected, "%s",
                 e->first[j].expected);
    }
    return GMS_OK;
}

size_t gms_run_output_count(const gms_run *r)
{
    return r && r->launch ? r->launch->noutputs : 0;
}

const char *gms_run_output_path(const gms_run *r, size_t i)
{
    return r && r->launch && i < r->launch->noutputs ? r->launch->outputs[i].path : NULL;
}
