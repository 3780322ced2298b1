/* gpumemsim: the public C API (docs/api.md).
 *
 * A program creates a simulated GPU (gms_device) from a preset or a configuration, loads one
 * module of kernel text onto it (gms_module), allocates device memory and copies data in and
 * out, sets the module's variables, launches kernels, and reads statistics, faults and device
 * printf output. The command line (tools/gpumemsim/) and the launch-file runner
 * (gpumemsim/run.h) are built on these calls only.
 *
 * Conventions (docs/api.md, "Conventions"):
 *   - Every call that can fail returns a gms_status; GMS_OK is 0. What went wrong is added to a
 *     caller-owned diagnostics list (gms_diag_list) with a severity, a stable rule id, a file,
 *     line and column, and a message. A list argument may be NULL: the diagnostics are dropped.
 *   - Pointer parameters are marked: "borrowed" (read during the call, never kept unless said),
 *     "OUT" (written by the call), "owned" (the callee takes or gives ownership).
 *   - Handles made by gms_<noun>_create are freed by gms_<noun>_destroy; text returned through a
 *     `char **` is malloc'd and freed by gms_free.
 *   - The library never prints and never exits; it keeps no global state, so separate devices
 *     may be used from separate threads. One device is not thread-safe.
 *   - Sizes are bytes, addresses are device (global) addresses, counts are warp-level unless a
 *     name says otherwise. */
#ifndef GPUMEMSIM_GPUMEMSIM_H
#define GPUMEMSIM_GPUMEMSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- statuses (docs/api.md, "Statuses") ---- */
typedef enum gms_status {
    GMS_OK = 0,
    GMS_ERR_ARGUMENT,  /* a NULL handle or pointer, or a value out of its range (API-ARG-001) */
    GMS_ERR_NOMEM,     /* host memory or the device's address space ran out (SIM-NOMEM-001) */
    GMS_ERR_IO,        /* a file could not be read or written (SIM-IO-*, SIM-OUT-004) */
    GMS_ERR_CONFIG,    /* unknown preset or bad configuration (SIM-GPU-001, CONFIG-*, MEM-*) */
    GMS_ERR_MODULE,    /* the module text has errors or uses what cannot run (PTX-*, EXEC-*,
                          SIM-DIALECT-001) */
    GMS_ERR_NOT_FOUND, /* no kernel or variable of that name (SIM-KERNEL-001, API-VAR-001) */
    GMS_ERR_ARGS,      /* kernel arguments that do not fit its parameters (SIM-ARGS-*) */
    GMS_ERR_LAUNCH,    /* a launch the GPU could not start (SIM-LAUNCH-*, SIM-WINDOW-001,
                          SIM-SHARED-001) */
    GMS_ERR_RANGE,     /* bytes outside an allocation or a variable (API-MEM-001, API-VAR-002) */
    GMS_ERR_STATE,     /* not possible in the handle's present state (API-STATE-*) */
    GMS_ERR_FAULT,     /* the kernel faulted; gms_device_fault says how and where */
    GMS_ERR_INPUT,     /* run.h: the launch file is invalid (LAUNCH-*, SIM-OUT-001..003) */
    GMS_ERR_EXPECT,    /* run.h: an expectation of the launch file failed */
    GMS_ERR_KERNEL,    /* the kernel ran to its end but reported errors (EXEC-WINDOW-*: local or
                          shared accesses outside their window), each a diagnostic at its
                          instruction (docs/faults.md, "Window errors") */
    GMS_STATUS_COUNT
} gms_status;

/* The status's name, "GMS_OK" ... "GMS_ERR_EXPECT"; "GMS_ERR_?" for a value outside the enum.
 * The string is static. */
const char *gms_status_name(gms_status s);

/* Frees text or arrays the API returned through a `char **` (owned by the caller). NULL is
 * allowed. */
void gms_free(void *p);

/* ---- diagnostics (docs/api.md, "Diagnostics") ---- */
typedef struct gms_diag_list gms_diag_list;

typedef enum gms_severity { GMS_NOTE, GMS_WARNING, GMS_ERROR } gms_severity;

/* One diagnostic. Every string is borrowed from its list and lives until the list is cleared
 * or destroyed. */
typedef struct gms_diag {
    gms_severity severity;
    const char *rule;    /* stable id, e.g. "PTX-PARSE-001"; ids are never reused */
    const char *file;    /* "" when no file applies */
    unsigned line, col;  /* 1-based; 0 when unknown */
    const char *message;
    const char *note;    /* a note at a second location, or NULL */
    const char *note_file;
    unsigned note_line, note_col;
} gms_diag;

/* Creates an empty list (owned by the caller; free with gms_diag_list_destroy). Returns NULL
 * when out of memory. */
gms_diag_list *gms_diag_list_create(void);
void gms_diag_list_destroy(gms_diag_list *dl);
/* Drops every diagnostic; the list can be used again. */
void gms_diag_list_clear(gms_diag_list *dl);
/* After `max_errors` errors further errors are counted but not kept (0: keep all). */
void gms_diag_list_set_max_errors(gms_diag_list *dl, size_t max_errors);
/* Diagnostics kept, and errors counted (kept or not). 0 for NULL. */
size_t gms_diag_list_count(const gms_diag_list *dl);
size_t gms_diag_list_errors(const gms_diag_list *dl);
/* Diagnostic i (0-based, in the order they were added) into *out (OUT). Returns GMS_OK, or
 * GMS_ERR_ARGUMENT when dl or out is NULL or i >= gms_diag_list_count(dl). */
gms_status gms_diag_list_get(const gms_diag_list *dl, size_t i, gms_diag *out);
/* The index of the first diagnostic with rule id `rule` (borrowed), or -1 when there is none. */
long gms_diag_list_find(const gms_diag_list *dl, const char *rule);
/* Writes every diagnostic to `out` (borrowed) in the one compiler form, notes on their own line:
 *     k.ptx:12:7: error: message [RULE-ID]
 * followed by a line saying how many errors were not kept, if any. Returns GMS_OK, or
 * GMS_ERR_ARGUMENT when a pointer is NULL. */
gms_status gms_diag_list_print(const gms_diag_list *dl, FILE *out);

/* ---- presets (docs/api.md, "Devices"; docs/presets.md) ---- */
typedef struct gms_preset_info {
    const char *name;        /* static, e.g. "h100" */
    const char *description; /* static, one line */
    int is_default;          /* 1 for the preset used when none is named */
} gms_preset_info;

/* Number of built-in presets; preset i (0-based, listing order) into *out (OUT). Returns GMS_OK
 * or GMS_ERR_ARGUMENT (i out of range, out NULL). */
size_t gms_preset_count(void);
gms_status gms_preset_at(size_t i, gms_preset_info *out);
/* Looks a preset up by name (borrowed). *out (OUT, may be NULL) receives it. Returns GMS_OK or
 * GMS_ERR_NOT_FOUND (no diagnostic: this is a query). */
gms_status gms_preset_find(const char *name, gms_preset_info *out);
/* The preset `name` as JSON text that gms_device_create_from_config loads back (*json_out,
 * OUT, free with gms_free). Returns GMS_OK, GMS_ERR_CONFIG with SIM-GPU-001 for an unknown
 * name, GMS_ERR_NOMEM. */
gms_status gms_preset_json(const char *name, char **json_out, gms_diag_list *dl);

/* ---- devices (docs/api.md, "Devices") ---- */
typedef struct gms_device gms_device;

/* Creates a device of preset `preset` (borrowed; NULL: the default preset, h100) with cold
 * caches and no memory allocated (*out, OUT, owned by the caller: gms_device_destroy).
 * Returns GMS_OK; GMS_ERR_CONFIG with SIM-GPU-001 for an unknown preset; GMS_ERR_ARGUMENT;
 * GMS_ERR_NOMEM. */
gms_status gms_device_create(const char *preset, gms_device **out, gms_diag_list *dl);
/* Creates a device from a configuration override (docs/presets.md, "Overrides"): `len` bytes
 * of JSON `text` (borrowed, need not be NUL-terminated), or, when text is NULL, the file at
 * `path`. `path` (borrowed) names the text in diagnostics; it may be NULL when text is given.
 * Returns as gms_device_create, with the CONFIG-* rules for a bad override (GMS_ERR_CONFIG). */
gms_status gms_device_create_from_config(const char *path, const char *text, size_t len,
                                         gms_device **out, gms_diag_list *dl);
/* Frees the device, its module and its memory. NULL is allowed. */
void gms_device_destroy(gms_device *dev);

typedef struct gms_device_info {
    const char *name;            /* preset or override name; borrowed from the device */
    uint32_t sm_version;         /* compute capability x10, e.g. 90 */
    uint32_t sm_count;
    uint32_t max_threads_per_cta;
    uint32_t max_shared_per_cta_bytes;
    uint64_t l2_bytes;
    uint64_t l2_persisting_max_bytes;
    uint64_t access_policy_max_window_bytes;
    uint32_t clock_mhz;          /* SM clock (timing model: cycles to seconds) */
} gms_device_info;
/* The device's configuration into *out (OUT). Returns GMS_OK or GMS_ERR_ARGUMENT. */
gms_status gms_device_info_get(const gms_device *dev, gms_device_info *out);

/* Settings (gms_device_set). "Before memory" settings are refused with GMS_ERR_STATE
 * (API-STATE-002) once the device's memory system exists (the first allocation, variable
 * access or launch creates it). */
typedef enum gms_setting {
    GMS_SET_MAX_INSTRUCTIONS, /* warp instructions a launch may issue before it faults with
                                 EXEC-LIMIT-001; >= 1; default 2000000000 */
    GMS_SET_QUANTUM,          /* warp instructions a warp runs per scheduling turn; 1 to
                                 2^32-1; default 256 */
    GMS_SET_STRIP_HINTS,      /* 0 or 1: treat every cache hint as the default; before memory */
    GMS_SET_POISON_DISCARD,   /* 0 or 1: discarded L2 lines read back as 0xFF; before memory */
    GMS_SET_SHARED_PER_CTA,   /* the most shared memory one CTA of the coming launches holds
                                 (static + dynamic), bytes: chooses the L1/shared carve-out
                                 (SIM-SHARED-001 when none holds it); before memory; default 0,
                                 the preset's default carve-out */
    GMS_SET_MISALIGNED_ERRORS, /* 0 or 1: in kernels whose window errors do not fault (SASS),
                                 a misaligned local or shared address, which is aligned down,
                                 is also reported (EXEC-WINDOW-002); default 0 */
    GMS_SET_STRICT_HAZARDS,   /* 0 or 1: in modules whose machine has scoreboards (SASS), a
                                 read of a register before its write scoreboard was waited on
                                 and a write while its read scoreboard is pending are kernel
                                 faults (EXEC-HAZARD-001/002); default 0 */
    GMS_SET_IMAGE_POOL_MAX,   /* the header pool's largest valid index, 0 to 1048575: images of
                                 higher header indices are invalid to the launches that follow
                                 (docs/images.md, "The image table and handles"); default: the
                                 highest index of an image created */
    GMS_SET_HEAP_BYTES,       /* the device heap's size in bytes, 0 to 2^30, for the launches
                                 that follow: each launch of a module that declares malloc or
                                 free gets an empty heap of this size in device memory
                                 (docs/semantics.md, "Device heap"); default 8 MiB */
    GMS_SET_SYNCED_WRITES,    /* 0 or 1: host writes (gms_device_write, gms_module_set_var,
                                 gms_image_write) may go to memory that a launch may have
                                 cached, as cudaMemcpy between kernels: every dirty line is
                                 written back first (counted as work no instruction caused) and
                                 the caches' copies of the written lines are dropped
                                 (docs/api.md, "Memory"); default 0: refused (API-MEM-002) */
    GMS_SET_TIMING,           /* 0 or 1: run the launches that follow under the timing model
                                 (cycles, stall reasons; docs/timing.md); 0 is the functional
                                 mode of --no-timing; default 1 */
    GMS_SET_SCHEDULER,        /* the timing model's warp scheduling policy: 0 greedy-then-oldest
                                 (GTO, the default), 1 loose round-robin (LRR) (docs/timing.md,
                                 "Scheduling") */
    GMS_SET_THREADS,          /* host threads that simulate the SMs of functional launches, 0 to
                                 1024; 0 (the default): as many as the host has CPUs online.
                                 Results do not depend on it (docs/architecture.md, "SMs on
                                 several host threads"). Timed launches run on one thread: one
                                 with more set explicitly is refused (SIM-THREADS-001) */
    GMS_SETTING_COUNT
} gms_setting;
/* Changes a setting for the launches that follow. Returns GMS_OK; GMS_ERR_ARGUMENT for an
 * unknown setting or a value out of range (API-ARG-001); GMS_ERR_STATE (API-STATE-002);
 * GMS_ERR_LAUNCH with SIM-SHARED-001. */
gms_status gms_device_set(gms_device *dev, gms_setting what, uint64_t value, gms_diag_list *dl);

/* The L2 set-aside for persisting accesses (cudaLimitPersistingL2CacheSize), bytes, capped at
 * the preset's l2.persisting_max_bytes. Returns GMS_OK, GMS_ERR_ARGUMENT, or what creating the
 * memory system returns (GMS_ERR_CONFIG, GMS_ERR_NOMEM). docs/cache-hints.md, "Persisting". */
gms_status gms_device_set_l2_persisting(gms_device *dev, uint64_t bytes, gms_diag_list *dl);
/* Demotes every persisting L2 line to normal (cudaCtxResetPersistingL2Cache). Returns as
 * gms_device_set_l2_persisting. */
gms_status gms_device_reset_persisting(gms_device *dev, gms_diag_list *dl);

/* ---- device memory (docs/api.md, "Memory") ---- */
/* Allocates `bytes` (>= 1) of device memory, 256-byte aligned, reading as zero; its address
 * goes to *addr (OUT). Allocations are separated by unmapped gaps, so an overrun faults
 * (EXEC-MEM-001). Returns GMS_OK; GMS_ERR_ARGUMENT; GMS_ERR_NOMEM (SIM-NOMEM-001);
 * GMS_ERR_CONFIG when the memory system cannot be built from the configuration (MEM-*). */
gms_status gms_device_alloc(gms_device *dev, uint64_t bytes, uint64_t *addr, gms_diag_list *dl);
/* Copies `bytes` from host memory `src` (borrowed) to device address `addr`, like cudaMemcpy
 * after a synchronise. [addr, addr + bytes) must lie in one allocation (API-MEM-001). Memory
 * that a launch may have brought into the caches cannot be written yet (API-MEM-002,
 * GMS_ERR_STATE): write it before the first launch that follows its allocation. Returns
 * GMS_OK, GMS_ERR_ARGUMENT, GMS_ERR_RANGE, GMS_ERR_STATE, GMS_ERR_NOMEM. */
gms_status gms_device_write(gms_device *dev, uint64_t addr, const void *src, uint64_t bytes,
                            gms_diag_list *dl);
/* Copies `bytes` at device address `addr` to host memory `dst` (OUT). When a launch ran since
 * the last flush, flushes first (gms_device_flush), so the bytes are those the kernels wrote.
 * Returns as gms_device_write, without GMS_ERR_STATE. */
gms_status gms_device_read(gms_device *dev, uint64_t addr, void *dst, uint64_t bytes,
                           gms_diag_list *dl);
/* Writes every dirty line of every cache back to DRAM (lines stay valid and clean), as at the
 * end of a run: the write-back is counted in the totals as work no instruction caused.
 * Returns GMS_OK, GMS_ERR_ARGUMENT, GMS_ERR_NOMEM. */
gms_status gms_device_flush(gms_device *dev, gms_diag_list *dl);

/* ---- images (docs/api.md, "Images"; docs/images.md) ---- */
/* The geometry of an image: which of width, height, depth and layers it uses. */
typedef enum gms_image_dim {
    GMS_IMAGE_1D = 1, GMS_IMAGE_1D_BUFFER, GMS_IMAGE_1D_ARRAY, GMS_IMAGE_2D, GMS_IMAGE_2D_ARRAY,
    GMS_IMAGE_3D,
    GMS_IMAGE_CUBE,      /* square, 6 layers: the faces +x, -x, +y, -y, +z, -z */
    GMS_IMAGE_CUBE_ARRAY /* square, 6 layers per cube */
} gms_image_dim;
/* cudaChannelFormatKind, with its values. */
typedef enum gms_image_kind {
    GMS_IMAGE_SIGNED = 0, GMS_IMAGE_UNSIGNED = 1, GMS_IMAGE_FLOAT = 2
} gms_image_kind;
/* An image's descriptor (docs/images.md, "The descriptor"). */
typedef struct gms_image_desc {
    gms_image_dim dim;
    uint32_t channels;      /* 1, 2 or 4 */
    uint32_t bits;          /* per channel: 8, 16 or 32 (float: 16 or 32) */
    gms_image_kind kind;
    uint32_t width, height, depth, layers; /* texels and layers, >= 1 each; height 1 for 1D,
                                              depth 1 unless 3D, layers 1 unless an array */
    int block_linear;       /* 0: pitch-linear; 1: block-linear */
    uint32_t pitch_bytes;   /* pitch-linear: bytes from one row to the next, >= a row of texels */
    uint32_t block_height, block_depth; /* block-linear: GOBs per block, powers of two <= 32 */
    int disabled;           /* 1: stores are dropped and loads read 0 (docs/images.md) */
    uint32_t levels;        /* mipmap levels (0 or 1: one), at most floor(log2(the largest
                               extent)) + 1 (docs/images.md, "Mipmap levels") */
} gms_image_desc;
typedef struct gms_image_info {
    uint64_t base;        /* device address of the image's memory (byte 0 of layer 0) */
    uint64_t bytes;       /* bytes of memory the layout occupies, every level */
    uint64_t texel_bytes; /* channels x bits / 8 */
    uint64_t texels;      /* width x height x depth x layers, summed over the levels */
} gms_image_info;
/* Creates an image on `dev`: device memory for its layout, reading as zero, and an entry of the
 * device's image table. *handle (OUT) receives its 64-bit handle, which is also its header index
 * (1, 2, ... in creation order): what a surface object kernel argument passes (gms_arg_u64).
 * `desc` is borrowed. Returns GMS_OK; GMS_ERR_ARGUMENT (NULL, or a descriptor that breaks the
 * rules above: API-IMAGE-001 with the reason); GMS_ERR_NOMEM (SIM-NOMEM-001, also when the
 * table holds 1048575 images); GMS_ERR_CONFIG as gms_device_alloc. */
gms_status gms_image_create(gms_device *dev, const gms_image_desc *desc, uint64_t *handle,
                            gms_diag_list *dl);
/* The image of `handle` into *out (OUT). Returns GMS_OK, GMS_ERR_ARGUMENT, or GMS_ERR_NOT_FOUND
 * when no live image has that handle (no diagnostic: a query). */
gms_status gms_image_info_get(const gms_device *dev, uint64_t handle, gms_image_info *out);
/* Copies all the image's texels from `src` (borrowed) into its memory, converting to the
 * layout: `bytes` must be texels x texel_bytes, texels in x-fastest order (then y, z, layer,
 * mipmap level), channels interleaved, little-endian. Written like gms_device_write: refused for an image that
 * existed when a kernel ran (API-MEM-002). Returns GMS_OK; GMS_ERR_ARGUMENT; GMS_ERR_NOT_FOUND
 * (API-IMAGE-002: no live image has that handle); GMS_ERR_RANGE (API-IMAGE-003: bytes is not the
 * image's size); GMS_ERR_STATE; GMS_ERR_NOMEM. */
gms_status gms_image_write(gms_device *dev, uint64_t handle, const void *src, uint64_t bytes,
                           gms_diag_list *dl);
/* Copies all the image's texels into `dst` (OUT) in the order gms_image_write takes, flushing
 * the caches first after a launch as gms_device_read does. Returns as gms_image_write, without
 * GMS_ERR_STATE. */
gms_status gms_image_read(gms_device *dev, uint64_t handle, void *dst, uint64_t bytes,
                          gms_diag_list *dl);
/* Makes word `slot` (0 to 8191) of the header pool name the image: on machines with a header
 * pool (SASS), every launch writes the image's header index there, in the constant bank the
 * machine names (docs/images.md, "The image table and handles"); modules without one ignore
 * it. A slot holds one image: setting it again replaces the earlier one. Returns GMS_OK;
 * GMS_ERR_ARGUMENT (slot out of range); GMS_ERR_NOT_FOUND (API-IMAGE-002); GMS_ERR_NOMEM. */
gms_status gms_image_set_slot(gms_device *dev, uint64_t handle, uint32_t slot,
                              gms_diag_list *dl);
/* Frees the image: its handle no longer names an image, in kernels (an invalid header) and in
 * this API, and its pool slots are cleared. Its memory is not reused. Returns GMS_OK,
 * GMS_ERR_ARGUMENT, GMS_ERR_NOT_FOUND (API-IMAGE-002). */
gms_status gms_image_free(gms_device *dev, uint64_t handle, gms_diag_list *dl);

/* ---- textures (docs/api.md, "Textures"; docs/images.md, "Textures") ---- */
/* cudaTextureAddressMode, cudaTextureFilterMode and cudaTextureReadMode, with their values. */
typedef enum gms_tex_address {
    GMS_TEX_WRAP = 0, GMS_TEX_CLAMP = 1, GMS_TEX_MIRROR = 2, GMS_TEX_BORDER = 3
} gms_tex_address;
typedef enum gms_tex_filter { GMS_TEX_POINT = 0, GMS_TEX_LINEAR = 1 } gms_tex_filter;
typedef enum gms_tex_read { GMS_TEX_ELEMENT = 0, GMS_TEX_NORMALIZED_FLOAT = 1 } gms_tex_read;
/* A texture: an image read through a sampler, as cudaTextureDesc describes it. */
typedef struct gms_texture_desc {
    uint64_t image;             /* the handle of a live image (gms_image_create) */
    gms_tex_address address[3]; /* per dimension x, y, z; wrap and mirror act as clamp without
                                   normalized coordinates */
    gms_tex_filter filter;
    int normalized;             /* 1: coordinates in [0, 1) span the image */
    gms_tex_read read;
    float border[4];            /* the value of a texel outside the image in border mode */
    gms_tex_filter mipmap_filter; /* between mipmap levels (cudaTextureDesc mipmapFilterMode) */
    float mipmap_level_bias;    /* added to every level of detail */
    float min_mipmap_level_clamp, max_mipmap_level_clamp; /* the level of detail's range; a
                                   zeroed desc reads level 0 only, as in CUDA */
} gms_texture_desc;
/* Creates a texture object on `dev` reading the image desc->image through a new sampler (desc is
 * borrowed). *handle (OUT) receives its 64-bit handle, `sampler index << 20 | image handle`
 * with sampler indices 1, 2, ... in creation order: what a texture object kernel argument
 * passes (gms_arg_u64). Returns GMS_OK; GMS_ERR_ARGUMENT (NULL, or API-TEX-001: a mode out of
 * range, linear filtering (or linear mipmap filtering) of integer texels read as elements, a
 * normalized_float read of 32-bit integer texels, a minimum level clamp above the maximum); GMS_ERR_NOT_FOUND (API-IMAGE-002: no live image has that handle);
 * GMS_ERR_NOMEM (SIM-NOMEM-001, also when 4095 textures were created on the device). */
gms_status gms_texture_create(gms_device *dev, const gms_texture_desc *desc, uint64_t *handle,
                              gms_diag_list *dl);
/* Makes word `slot` (0 to 8191) of the header pool hold the texture's handle (samplerPtr |
 * headerPtr), as gms_image_set_slot does for an image; a slot holds one image or texture.
 * Returns GMS_OK; GMS_ERR_ARGUMENT (slot out of range); GMS_ERR_NOT_FOUND (API-TEX-002);
 * GMS_ERR_NOMEM. */
gms_status gms_texture_set_slot(gms_device *dev, uint64_t handle, uint32_t slot,
                                gms_diag_list *dl);
/* Frees the texture: its handle no longer names a texture, in kernels (a fetch through it reads
 * zeros) and in this API, and its pool slots are cleared; its image stays. Freeing the image
 * first leaves the texture without an image (its fetches read zeros too) but still freeable.
 * Returns GMS_OK, GMS_ERR_ARGUMENT, GMS_ERR_NOT_FOUND (API-TEX-002: no live texture has that
 * handle). */
gms_status gms_texture_free(gms_device *dev, uint64_t handle, gms_diag_list *dl);

/* ---- dialects and modules (docs/api.md, "Modules") ---- */
/* The dialect gpumemsim reads a file of this name in, from its suffix ("ptx" for .ptx), or NULL
 * when none (static string). */
const char *gms_dialect_for_path(const char *path);
/* The name of the i-th dialect gpumemsim reads ("ptx"; a static string), or NULL past the last. */
const char *gms_dialect_at(size_t i);
/* What gms_dialect_list lists (bits). */
enum { GMS_LIST_OPS = 1, GMS_LIST_RULES = 2 };
/* The listing of a dialect (NULL: every dialect gpumemsim reads) into *text_out (OUT, gms_free):
 * per dialect a heading line "# dialect NAME: FILES, DOC-PAGE", then with GMS_LIST_OPS the
 * instructions it accepts with their modifiers and requirements, one per line (`gpumemsim check
 * --list-ops`), and with GMS_LIST_RULES its diagnostic rule ids and their meaning (`--list-rules`).
 * Returns GMS_OK, GMS_ERR_NOT_FOUND with SIM-DIALECT-002 (no dialect has that name; the message
 * names those there are), GMS_ERR_ARGUMENT, GMS_ERR_NOMEM. */
gms_status gms_dialect_list(const char *dialect, unsigned what, char **text_out,
                            gms_diag_list *dl);

typedef struct gms_module gms_module;

/* Parses, checks and prepares a module and binds it to `dev` (*out, OUT, owned by the device
 * and freed with it). A device holds any number of modules, loaded at any time between
 * launches; each has its own kernels, variables and constant banks and shares the device's
 * memory, caches and statistics. The module's instructions get the device-wide ids that
 * follow those of the modules loaded before it (docs/api.md, "Modules"). The text is `len`
 * bytes at `text` (borrowed, copied; need not be NUL-terminated) or, when text is NULL, the
 * file at `path` (a regular file of at most 256 MiB). `path` (borrowed, copied) names the
 * module in diagnostics and reports and must not be NULL. `dialect` (borrowed) is "ptx", or
 * NULL to choose it from the path's suffix. A module whose .target the preset could not load
 * gets the warning SIM-TARGET-001 and loads. Returns GMS_OK; GMS_ERR_ARGUMENT; GMS_ERR_IO
 * (SIM-IO-001..003); GMS_ERR_MODULE with every error of the text (PTX-*, EXEC-UNSUP-001,
 * EXEC-EXTERN-001, SIM-DIALECT-001); GMS_ERR_NOMEM (SIM-NOMEM-001, also when the device's
 * instruction ids would pass 2^32 - 1). A failed load leaves the device as it was. */
gms_status gms_module_load(gms_device *dev, const char *path, const char *text, size_t len,
                           const char *dialect, gms_module **out, gms_diag_list *dl);
/* Parses, checks and prepares a module as gms_module_load does, without a device, and keeps
 * nothing (`gpumemsim check`). Returns GMS_OK when clean, or as gms_module_load. */
gms_status gms_module_check(const char *path, const char *text, size_t len, const char *dialect,
                            gms_diag_list *dl);
/* As gms_module_check, and for a clean module its IR listing (`gpumemsim check --dump-ir`; one
 * instruction per line, docs/architecture.md, "The IR printer") into *ir_out (OUT, gms_free;
 * NULL unless GMS_OK). Returns as gms_module_check, or GMS_ERR_ARGUMENT when ir_out is NULL. */
gms_status gms_module_dump_ir(const char *path, const char *text, size_t len, const char *dialect,
                              char **ir_out, gms_diag_list *dl);
/* The path the module was loaded as (borrowed from the module). */
const char *gms_module_path(const gms_module *m);
/* Line `line` (1-based) of the module text without surrounding blanks, into *text_out (OUT,
 * gms_free). Returns GMS_OK, GMS_ERR_RANGE when there is no such line, GMS_ERR_ARGUMENT,
 * GMS_ERR_NOMEM. */
gms_status gms_module_line(const gms_module *m, uint32_t line, char **text_out);

typedef struct gms_kernel_info {
    const char *name;             /* as in the module (mangled); borrowed from the module */
    uint32_t nparams;
    uint64_t params_bytes;        /* size of the parameter block */
    uint32_t static_shared_bytes; /* the module's .shared variables per CTA, rounded up to 16 */
    uint32_t reqntid[3], maxntid[3]; /* 0 when the kernel does not declare them */
    uint32_t line, col;           /* where the kernel is declared */
} gms_kernel_info;
/* Kernels (entries) of the module: their number, and kernel i (0-based, module order) or the
 * kernel called `name` (borrowed) into *out (OUT). Return GMS_OK, GMS_ERR_ARGUMENT, or
 * GMS_ERR_NOT_FOUND (no diagnostic: these are queries). */
size_t gms_module_kernel_count(const gms_module *m);
gms_status gms_module_kernel_at(const gms_module *m, size_t i, gms_kernel_info *out);
gms_status gms_module_kernel_find(const gms_module *m, const char *name, gms_kernel_info *out);
/* Parameter i (0-based) of kernel `name` (borrowed), as a host program passing arguments by
 * address (cudaLaunchKernel's `void **args`) needs it: its byte offset in the parameter block,
 * its size in bytes (a GMS_BYTES argument of that many bytes fits it) and its alignment, into
 * *out (OUT). Returns GMS_OK, GMS_ERR_ARGUMENT, or GMS_ERR_NOT_FOUND (no such kernel, or i >=
 * nparams; no diagnostic: a query). docs/api.md, "Modules". */
typedef struct gms_param_info {
    uint64_t offset, bytes;
    uint32_t align;
} gms_param_info;
gms_status gms_module_kernel_param(const gms_module *m, const char *name, uint32_t i,
                                   gms_param_info *out);

/* ---- module variables (docs/api.md, "Variables") ---- */
typedef enum gms_var_space { GMS_VAR_GLOBAL, GMS_VAR_CONST } gms_var_space;
typedef struct gms_var_info {
    gms_var_space space;
    uint64_t bytes;   /* the variable's size */
    uint64_t address; /* GLOBAL: its device address (usable as a kernel argument); CONST: 0 */
    int surface_ref;  /* 1: a PTX .surfref (8 bytes: the bound image's handle, 0 unbound) */
    int texture_ref;  /* 1: a PTX .texref (8 bytes: the bound texture's handle, 0 unbound) */
} gms_var_info;
/* The module-scope .global or .const variable `name` (borrowed) into *out (OUT). Looking up a
 * .global variable allocates the module's variables in device memory if no launch did yet.
 * Returns GMS_OK; GMS_ERR_NOT_FOUND with API-VAR-001; GMS_ERR_ARGUMENT; GMS_ERR_NOMEM. */
gms_status gms_module_var_info(gms_module *m, const char *name, gms_var_info *out,
                               gms_diag_list *dl);
/* Copies `bytes` of `src` (borrowed) into variable `name` at byte `offset`
 * (cudaMemcpyToSymbol). A .const variable can be set at any time; a .global one as device
 * memory (gms_device_write: API-MEM-002 after a launch). Returns GMS_OK; GMS_ERR_NOT_FOUND
 * (API-VAR-001); GMS_ERR_RANGE when [offset, offset + bytes) is not inside the variable
 * (API-VAR-002); GMS_ERR_STATE; GMS_ERR_ARGUMENT; GMS_ERR_NOMEM. */
gms_status gms_module_set_var(gms_module *m, const char *name, uint64_t offset, const void *src,
                              uint64_t bytes, gms_diag_list *dl);
/* Copies `bytes` of variable `name` from byte `offset` into `dst` (OUT)
 * (cudaMemcpyFromSymbol). Returns as gms_module_set_var, without GMS_ERR_STATE. */
gms_status gms_module_get_var(gms_module *m, const char *name, uint64_t offset, void *dst,
                              uint64_t bytes, gms_diag_list *dl);

/* Binds the image of `handle` to the PTX .surfref variable `name` (borrowed), as
 * cudaBindSurfaceToArray did: kernels that name the reference reach that image
 * (docs/images.md, "Surface instructions"). The reference holds the handle in device memory,
 * so it follows gms_module_set_var's rule for .global variables: bind before the first launch.
 * Returns GMS_OK; GMS_ERR_ARGUMENT (NULL; API-VAR-003: the variable is not a .surfref);
 * GMS_ERR_NOT_FOUND (API-VAR-001: no such variable; API-IMAGE-002: no live image has that
 * handle); GMS_ERR_STATE (API-MEM-002); GMS_ERR_NOMEM. */
gms_status gms_module_bind_surface(gms_module *m, const char *name, uint64_t handle,
                                   gms_diag_list *dl);
/* Binds the texture of `handle` (gms_texture_create) to the PTX .texref variable `name`
 * (borrowed), as cudaBindTextureToArray did: tex, tld4 and txq that name the reference read
 * through that texture (docs/images.md, "Textures"). Before the first launch, as
 * gms_module_bind_surface. Returns GMS_OK; GMS_ERR_ARGUMENT (NULL; API-VAR-004: the variable is
 * not a .texref); GMS_ERR_NOT_FOUND (API-VAR-001: no such variable; API-TEX-002: no live texture
 * has that handle); GMS_ERR_STATE (API-MEM-002); GMS_ERR_NOMEM. */
gms_status gms_module_bind_texture(gms_module *m, const char *name, uint64_t handle,
                                   gms_diag_list *dl);

/* ---- launches (docs/api.md, "Launches") ---- */
/* Where a request came from in the caller's own input (a launch file, a host program), so that
 * diagnostics point there. file NULL: no origin; diagnostics about a launch then point at the
 * kernel's declaration in the module. */
typedef struct gms_origin {
    const char *file;  /* borrowed */
    unsigned line, col;
    const char *field; /* borrowed: the request's name in that input, prefixing messages
                          ("launches[0]", "launches[0].args[2]"); NULL: none */
} gms_origin;

/* Types of kernel arguments. The names are those of launch files (docs/launch-files.md). */
typedef enum gms_type {
    GMS_I8, GMS_U8, GMS_I16, GMS_U16, GMS_I32, GMS_U32, GMS_I64, GMS_U64,
    GMS_F16, GMS_BF16, GMS_F32, GMS_F64,
    GMS_ADDRESS, /* a device address: fits a 64-bit integer parameter (.u64, .s64, .b64) */
    GMS_BYTES,   /* an aggregate passed by value (gms_arg.bytes): fits a parameter of exactly
                    gms_arg.nbytes bytes, such as a tensor map's .b8 [128] */
    GMS_TYPE_COUNT
} gms_type;

/* "i8" ... "f64", "address"; "?" outside the enum (static). */
const char *gms_type_name(gms_type t);

/* One kernel argument: its type and value bits (little-endian, in the low bytes of `bits`).
 * A scalar fits a parameter of the same size whose type is a bit type (.b32) or of the same
 * kind: an integer of either signedness for integers, the same float type for floats. */
typedef struct gms_arg {
    gms_type type;
    uint64_t bits;
    gms_origin origin; /* optional; zero for none */
    const void *bytes; /* GMS_BYTES: borrowed, nbytes bytes copied at the launch; NULL otherwise */
    size_t nbytes;
} gms_arg;

static inline gms_arg gms_arg_u32(uint32_t v) { gms_arg a = {GMS_U32, v, {0, 0, 0, 0}, NULL, 0}; return a; }
static inline gms_arg gms_arg_i32(int32_t v)
{
    gms_arg a = {GMS_I32, (uint32_t)v, {0, 0, 0, 0}, NULL, 0};
    return a;
}
static inline gms_arg gms_arg_u64(uint64_t v) { gms_arg a = {GMS_U64, v, {0, 0, 0, 0}, NULL, 0}; return a; }
static inline gms_arg gms_arg_f32(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    gms_arg a = {GMS_F32, b, {0, 0, 0, 0}, NULL, 0};
    return a;
}
static inline gms_arg gms_arg_f64(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    gms_arg a = {GMS_F64, b, {0, 0, 0, 0}, NULL, 0};
    return a;
}
static inline gms_arg gms_arg_address(uint64_t addr)
{
    gms_arg a = {GMS_ADDRESS, addr, {0, 0, 0, 0}, NULL, 0};
    return a;
}

/* A tensor map (docs/launch-files.md, "Tensor maps"): cuTensorMapEncodeTiled's fields, with
 * CUDA's numbering of the enumerations. */
enum { GMS_TENSOR_MAP_BYTES = 128, GMS_TENSOR_MAP_MAX_RANK = 5 };
typedef struct gms_tensor_map_desc {
    unsigned data_type;       /* CUtensorMapDataType: 0 uint8 ... 12 tfloat32_ftz */
    unsigned rank;            /* 1..5 */
    uint64_t global_address;  /* device address of element (0, ...), a multiple of 16 */
    uint64_t dims[GMS_TENSOR_MAP_MAX_RANK];        /* elements per dimension, innermost first */
    uint64_t strides[GMS_TENSOR_MAP_MAX_RANK - 1]; /* bytes between indices of dimensions
                                                       1..rank-1: multiples of 16 below 2^40 */
    uint32_t box[GMS_TENSOR_MAP_MAX_RANK];         /* elements a copy moves, 1..256 each; the
                                                       inner one times the element size a
                                                       multiple of 16 bytes */
    uint32_t element_strides[GMS_TENSOR_MAP_MAX_RANK]; /* 1..8 */
    unsigned interleave;      /* CUtensorMapInterleave: 0 (none) only */
    unsigned swizzle;         /* 0 none, 1 32B, 2 64B, 3 128B: the inner box bytes equal the span */
    unsigned l2_promotion;    /* 0 none, 1 64B, 2 128B, 3 256B */
    unsigned oob_fill;        /* 0 zeros, 1 NaN (floating-point types) */
} gms_tensor_map_desc;

/* Encodes desc (borrowed) into the 128 bytes a CUtensorMap kernel parameter holds, in
 * gpumemsim's own layout (docs/semantics.md, "Bulk copies and tensor maps"); pass them as a
 * GMS_BYTES argument. out (OUT) must hold GMS_TENSOR_MAP_BYTES. Returns GMS_OK, or
 * GMS_ERR_ARGUMENT (NULL; API-TMAP-001: a field cuTensorMapEncodeTiled refuses, or one
 * gpumemsim does not model: interleave, a swizzle span other than the inner box bytes). */
gms_status gms_tensor_map_encode(const gms_tensor_map_desc *desc, uint8_t *out,
                                 gms_diag_list *dl);

/* cudaAccessProperty, with its values. */
typedef enum gms_access_prop {
    GMS_ACCESS_NORMAL = 0, GMS_ACCESS_STREAMING = 1, GMS_ACCESS_PERSISTING = 2
} gms_access_prop;

/* An L2 access-policy window (cudaAccessPolicyWindow) over [base, base + bytes); docs/
 * cache-hints.md, "Access policy windows". */
typedef struct gms_policy_window {
    uint64_t base, bytes;      /* bytes >= 1 and at most the preset's
                                  l2.access_policy_max_window_bytes (SIM-WINDOW-001) */
    double hit_ratio;          /* in [0, 1] */
    gms_access_prop hit_prop;  /* any */
    gms_access_prop miss_prop; /* NORMAL or STREAMING */
} gms_policy_window;

typedef struct gms_launch_config {
    uint32_t grid[3];      /* CTAs per dimension, each >= 1 */
    uint32_t block[3];     /* threads per CTA per dimension, each >= 1 */
    uint32_t shared_bytes; /* dynamic shared memory per CTA */
    const gms_arg *args;   /* borrowed: nargs arguments, in parameter order */
    size_t nargs;
    const gms_policy_window *window; /* borrowed: this launch's window; NULL: none */
    gms_origin origin;     /* optional: the launch in the caller's input */
    unsigned block_line, block_col;   /* optional: the block's position in origin.file */
    unsigned shared_line, shared_col; /* optional: shared_bytes' position; 0: at the launch */
    uint32_t helper_lanes; /* bit l: lane l of every warp stands for a pixel-shader helper or
                              killed pixel, for which SUATOM is a no-op (docs/images.md,
                              "Helper and killed lanes"); 0: none */
    int cooperative;       /* 1: a cooperative launch (cudaLaunchCooperativeKernel): every CTA
                              is resident at once (EXEC-LAUNCH-002 otherwise) and
                              cooperative_groups::this_grid().sync() works (docs/semantics.md,
                              "Grid-wide sync"); 0: an ordinary launch */
} gms_launch_config;

/* Checks a launch of kernel `name` (borrowed) against the kernel and the GPU without running it
 * (docs/launch-files.md, "Checks against the kernel and the GPU"): threads per CTA, .reqntid,
 * .maxntid, shared memory per CTA. Arguments and window are not looked at. Returns GMS_OK;
 * GMS_ERR_NOT_FOUND (SIM-KERNEL-001); GMS_ERR_LAUNCH (SIM-LAUNCH-001..004, every problem found);
 * GMS_ERR_ARGUMENT (API-ARG-001: NULL, or a zero grid or block extent). */
gms_status gms_module_check_launch(const gms_module *m, const char *name,
                                   const gms_launch_config *cfg, gms_diag_list *dl);
/* Launches kernel `name` (borrowed) and runs it to its end (synchronously). Checks, in this
 * order: the kernel exists (SIM-KERNEL-001, GMS_ERR_NOT_FOUND); the arguments fit its
 * parameters in number and type (SIM-ARGS-001..003, GMS_ERR_ARGS); the launch fits the GPU
 * (as gms_module_check_launch, GMS_ERR_LAUNCH); the window (SIM-WINDOW-001, GMS_ERR_LAUNCH;
 * API-ARG-001). Then it runs: GMS_OK when the kernel completed; GMS_ERR_FAULT when it faulted
 * (gms_device_fault; memory may be partly updated, as on a GPU; the launch's statistics are
 * recorded); GMS_ERR_KERNEL when it completed but reported window errors (EXEC-WINDOW-001,
 * -002: one diagnostic per access kept, at the instruction's file:line:col, and a note with the
 * count; docs/faults.md, "Window errors"); GMS_ERR_NOMEM when host memory ran out. Statistics of every launch that ran are
 * kept (gms_device_launch_stats); device printf output is appended to gms_device_printf. */
gms_status gms_module_launch(gms_module *m, const char *name, const gms_launch_config *cfg,
                             gms_diag_list *dl);

/* ---- progress ---- */
typedef struct gms_progress {
    size_t launch;                  /* the running launch, 0-based among the device's launches */
    size_t nlaunches;               /* launches planned, when the caller knows (run.h); else 0 */
    const char *kernel;             /* borrowed for the call */
    uint32_t ctas_done, ctas_total; /* of this launch's grid */
    uint64_t warp_instructions;     /* issued by this launch so far */
    uint64_t max_instructions;      /* this launch's runaway limit */
    double seconds;                 /* host time since this launch started */
} gms_progress;
/* Called while a launch runs, about once per 2^18 warp instructions; `p` is borrowed for the
 * call. It must not call the API with the device that reports. */
typedef void (*gms_progress_fn)(const gms_progress *p, void *user);
/* Installs a progress hook (NULL: none); `user` is borrowed and passed to it. Returns GMS_OK or
 * GMS_ERR_ARGUMENT. */
gms_status gms_device_set_progress(gms_device *dev, gms_progress_fn fn, void *user);

/* ---- statistics (docs/api.md, "Statistics"; every counter: docs/statistics.md) ---- */
typedef struct gms_counters {
    struct {
        uint64_t requests, sector_accesses, sector_hits, sector_misses, evictions,
            writeback_bytes;
    } l1;
    struct {
        uint64_t sector_accesses, sector_hits, sector_misses, evictions, writeback_bytes;
        uint64_t lines_evict_first, lines_evict_normal, lines_evict_last; /* at the end */
        uint64_t peak_evict_last_lines;
    } l2;
    struct {
        uint64_t read_bytes, write_bytes;
    } dram;
    struct {
        uint64_t requests, wavefronts, bank_conflicts;
        uint64_t uniform_hinted, uniform_unmet; /* uniform-address hint (SASS LDS.U): accesses
                                                   that carried it, and those that missed it */
    } shared;
    struct {
        uint64_t requests, serialized, hits, misses;
    } constant;
    struct {
        uint64_t fetches, hits, misses;
    } icache;
    struct {
        uint64_t requests, sectors_l2, sectors_dram; /* surface (image) accesses, which go around
                                                        the L1: docs/images.md */
    } surface;
    struct {
        uint64_t requests, sectors_l1, sectors_l2, sectors_dram; /* texture fetches (tex, tld4),
                                            read through the L1's read-only path: docs/images.md */
    } texture;
    struct {
        /* Global and local loads and stores of the l1 counters, split by space and direction
         * (docs/statistics.md, "L1 by space and direction"); atomics are in neither. */
        uint64_t global_load_requests, global_load_sectors, global_load_sector_hits;
        uint64_t global_store_requests, global_store_sectors;
        uint64_t local_load_requests, local_load_sectors, local_load_sector_hits;
        uint64_t local_store_requests, local_store_sectors;
    } lsu;
} gms_counters;

/* Stall reasons of the timing model (docs/timing.md, "Stall reasons"): every cycle a warp is
 * resident is charged to one of them, GMS_STALL_SELECTED when it issued. */
typedef enum gms_stall {
    GMS_STALL_SELECTED, GMS_STALL_NOT_SELECTED, GMS_STALL_LONG_SCOREBOARD,
    GMS_STALL_SHORT_SCOREBOARD, GMS_STALL_WAIT, GMS_STALL_BARRIER, GMS_STALL_MEMBAR,
    GMS_STALL_MEMORY_THROTTLE, GMS_STALL_MATH_PIPE_THROTTLE, GMS_STALL_NO_INSTRUCTION,
    GMS_STALL_DISPATCH,
    GMS_STALL_COUNT
} gms_stall;

/* What the timing model measured for one launch (docs/timing.md; all 0 with timing off). */
typedef struct gms_timing_stats {
    int enabled;                   /* 1: the launch ran under the timing model */
    uint64_t cycles;               /* SM clock cycles from launch to the last CTA's retirement */
    uint64_t sm_active_cycles;     /* summed over SMs: cycles with a resident warp */
    uint64_t warp_resident_cycles; /* summed over SMs and cycles: resident warps */
    uint32_t max_warps_per_sm;     /* achieved occupancy = warp_resident_cycles /
                                      sm_active_cycles / max_warps_per_sm */
    uint32_t sm_count;
    double clock_mhz;              /* the preset's SM clock */
    uint64_t stalls[GMS_STALL_COUNT]; /* warp-cycles per reason; they sum to
                                         warp_resident_cycles */
} gms_timing_stats;

typedef struct gms_launch_stats {
    const char *kernel;         /* borrowed from the module */
    uint32_t grid[3], block[3];
    uint64_t warp_instructions, thread_instructions;
    uint64_t thread_instructions_pred_on; /* of thread_instructions, the lanes whose guard
                                             predicate was true (ncu
                                             smsp__thread_inst_executed_pred_on.sum) */
    gms_timing_stats timing;
    uint64_t printf_bad_strings; /* device printf %s arguments that were not readable strings */
    gms_counters counters;      /* this launch only; l2.lines_* as the launch left them */
    double seconds;             /* host time; not part of any report */
    int faulted;
    uint64_t window_errors;     /* lanes with a window error (EXEC-WINDOW-*), 0 for PTX */
} gms_launch_stats;

typedef struct gms_totals {
    size_t launches;
    uint64_t warp_instructions, thread_instructions, printf_bad_strings;
    uint64_t thread_instructions_pred_on; /* over all launches (gms_launch_stats) */
    uint64_t cycles;              /* timing model: the launches' cycles, summed (0: timing off) */
    gms_counters counters;        /* every launch plus the work no instruction caused (flushes) */
    uint64_t l2_persisting_bytes; /* set-aside in effect */
    int hints_stripped;
    double seconds;               /* host time inside launches */
} gms_totals;

/* Launches that ran on the device (faulted ones included). */
size_t gms_device_launch_count(const gms_device *dev);
/* Statistics of launch i (0-based) into *out (OUT). Returns GMS_OK or GMS_ERR_ARGUMENT. */
gms_status gms_device_launch_stats(const gms_device *dev, size_t i, gms_launch_stats *out);
/* Totals so far into *out (OUT). Returns GMS_OK or GMS_ERR_ARGUMENT. */
gms_status gms_device_totals(const gms_device *dev, gms_totals *out);

typedef enum gms_report_format {
    GMS_REPORT_TEXT, /* docs/statistics.md, "Text report"; `top` hottest instructions */
    GMS_REPORT_JSON  /* docs/statistics.md, "JSON report" (schema gpumemsim-stats/2) */
} gms_report_format;
/* The report of every launch so far, as `gpumemsim run` prints or writes it, into *text_out
 * (OUT, gms_free). `launch_file` (borrowed, may be NULL) is the name the report gives the
 * input. Flush first (gms_device_flush) for the totals of a finished run. It covers every
 * module of the device: instructions by device-wide id, each naming its module when the device
 * holds several (docs/statistics.md). Returns GMS_OK,
 * GMS_ERR_ARGUMENT, GMS_ERR_STATE (API-STATE-003: no module loaded), GMS_ERR_NOMEM. */
gms_status gms_device_report(const gms_device *dev, gms_report_format format, size_t top,
                             const char *launch_file, char **text_out, gms_diag_list *dl);

/* ---- Nsight Compute metrics (docs/statistics.md, "Nsight Compute metrics") ---- */
/* One metric of the mapping that the JSON report's per-launch "ncu" objects follow. Every
 * string is static: valid for the life of the program. */
typedef struct gms_metric_info {
    const char *name;  /* the ncu metric name, e.g. "dram__bytes_read.sum" */
    const char *unit;  /* "bytes", "sectors", "%", "cycles", ... */
    const char *how;   /* how gpumemsim computes it from its counters, one line */
    int needs_timing;  /* 1: only for launches that ran under the timing model */
} gms_metric_info;
/* Number of metrics in the mapping. */
size_t gms_metric_count(void);
/* Metric i (0-based, in the mapping's order) into *out (OUT). Returns GMS_OK, or
 * GMS_ERR_ARGUMENT when out is NULL or i >= gms_metric_count(). */
gms_status gms_metric_get(size_t i, gms_metric_info *out);

/* ---- faults and printf (docs/api.md, "Faults"; docs/faults.md) ---- */
typedef struct gms_fault {
    const char *rule;        /* e.g. "EXEC-MEM-001" (docs/faults.md) */
    const char *message;     /* borrowed from the device, valid until its next launch */
    const char *kernel;
    size_t launch;           /* index among the device's launches */
    uint32_t ctaid[3], tid[3]; /* the first faulting thread */
    uint32_t line;           /* the instruction's line in the module; 0 when unknown */
    const char *source_file; /* from .loc; NULL when unknown */
    uint32_t source_line;
    uint32_t column;         /* the instruction's column on `line` (1-based, in bytes); 0 when
                                unknown */
} gms_fault;
/* The fault of the latest launch into *out (OUT). Returns GMS_OK when it faulted,
 * GMS_ERR_NOT_FOUND when it did not (or nothing ran), GMS_ERR_ARGUMENT. */
gms_status gms_device_fault(const gms_device *dev, gms_fault *out);
/* Device printf output of every launch so far, ordered by launch, CTA, warp, call, lane
 * (borrowed from the device until its next launch; "" when none). */
const char *gms_device_printf(const gms_device *dev);

#ifdef __cplusplus
}
#endif

#endif
