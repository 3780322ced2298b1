/* Launch files: the JSON description of buffers, kernel launches, outputs and expectations that
 * `gpumemsim run LAUNCH.json` executes (the format is docs/launch-files.md).
 *
 * This module parses and validates a launch file into a launch_desc, creates the initial contents
 * of each buffer, writes output files and compares buffer contents against expectations. It does
 * not run kernels, does not know a kernel's parameter list (the sim layer matches arguments to
 * parameters) and does not check names against GPU presets (the sim validates "gpu", the dynamic
 * shared-memory size and the access policy window against the preset).
 *
 * Ownership: a launch_desc owns one arena holding every string and array reachable from it;
 * launch_destroy frees all of it. Every diagnostic goes to a caller-owned diag_list with a rule id
 * "LAUNCH-<GROUP>-<NNN>" (docs/launch-files.md, "Diagnostics"), the launch file path, the line and
 * column of the offending JSON value where known, and a message that starts with the field path,
 * for example `launches[0].grid[1]` or `buffers.x.init.random.seed`. */
#ifndef GMS_LAUNCH_LAUNCH_H
#define GMS_LAUNCH_LAUNCH_H

/* The largest "heap_bytes" a launch file may give (1 GiB). */
#define LAUNCH_MAX_HEAP_BYTES (1ull << 30)

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/file.h"

/* ---- element types (docs/launch-files.md, "Element types") ---- */
typedef enum launch_elem {
    LAUNCH_I8,   /* signed 8-bit integer */
    LAUNCH_U8,   /* unsigned 8-bit integer */
    LAUNCH_I16,  /* signed 16-bit integer */
    LAUNCH_U16,  /* unsigned 16-bit integer */
    LAUNCH_I32,  /* signed 32-bit integer */
    LAUNCH_U32,  /* unsigned 32-bit integer */
    LAUNCH_I64,  /* signed 64-bit integer */
    LAUNCH_U64,  /* unsigned 64-bit integer */
    LAUNCH_F16,  /* IEEE 754 binary16 */
    LAUNCH_BF16, /* bfloat16: the upper half of a binary32 */
    LAUNCH_F32,  /* IEEE 754 binary32 */
    LAUNCH_F64,  /* IEEE 754 binary64 */
    LAUNCH_ELEM_COUNT
} launch_elem;

/* Bytes per element: 1, 2, 4 or 8; 0 for an out-of-range value. */
size_t launch_elem_bytes(launch_elem e);
/* The type's name as written in launch files ("i8" ... "f64"); "?" for an out-of-range value. */
const char *launch_elem_name(launch_elem e);
/* Looks up a type name (borrowed, NUL-terminated). Returns 0 and sets *out, or -1 if unknown. */
int launch_elem_from_name(const char *name, launch_elem *out);
/* 1 for f16, bf16, f32, f64; 0 otherwise. */
int launch_elem_is_float(launch_elem e);
/* 1 for i8, i16, i32, i64; 0 otherwise. */
int launch_elem_is_signed(launch_elem e);

/* Formats one element read from `src` (launch_elem_bytes(e) bytes, little-endian) as text into
 * buf (NUL-terminated, truncated to `size`): integers in decimal, floats with enough significant
 * digits to round-trip ("nan", "inf", "-inf" for the specials). Returns the characters needed. */
int launch_format_element(launch_elem e, const uint8_t *src, char *buf, size_t size);

/* A number given in a launch file for a field of some element type. Integer types use `integer`
 * (the two's-complement value sign-extended to 64 bits for signed types); float types use `real`
 * (the value as written, before rounding to the element type). */
typedef struct launch_number {
    uint64_t integer;
    double real;
} launch_number;

/* ---- buffers (docs/launch-files.md, "Buffers" and "Initial contents") ---- */
typedef enum launch_init_kind {
    LAUNCH_INIT_ZERO,   /* no "init": all bytes zero */
    LAUNCH_INIT_FILL,   /* every element = fill_bits */
    LAUNCH_INIT_IOTA,   /* element i = iota_start + i * iota_step */
    LAUNCH_INIT_RANDOM, /* the SplitMix64 sequence of docs/launch-files.md, "Random" */
    LAUNCH_INIT_FILE    /* raw little-endian bytes of a file */
} launch_init_kind;

typedef struct launch_init {
    launch_init_kind kind;
    uint64_t fill_bits;         /* FILL: the element's bit pattern in the low bits */
    launch_number iota_start;   /* IOTA */
    launch_number iota_step;    /* IOTA: integer types use .integer as a signed int64 step */
    uint64_t random_seed;       /* RANDOM */
    launch_number random_min;   /* RANDOM, inclusive */
    launch_number random_max;   /* RANDOM, inclusive for integer types */
    const char *path;           /* FILE: resolved against the launch file's folder */
} launch_init;

/* ---- images (docs/launch-files.md, "Images") ---- */
/* An image's descriptor as the launch file gives it. The sim checks it again when it creates the
 * image (mem/mem_image.h); the launch layer applies the same rules with its own rule ids. */
typedef struct launch_image {
    uint8_t dim;             /* ir_image_dim numbering: 1 1d, 2 1d_buffer, 3 1d_array, 4 2d,
                                5 2d_array, 6 3d, 7 cube, 8 cube_array */
    uint8_t channels;        /* 1, 2 or 4 */
    uint8_t bits;            /* per channel: 8, 16 or 32 */
    uint8_t kind;            /* cudaChannelFormatKind: 0 signed, 1 unsigned, 2 float */
    uint32_t width, height, depth, layers; /* texels and layers, >= 1 each */
    uint8_t block_linear;    /* 0: pitch-linear with pitch_bytes; 1: block-linear */
    uint32_t pitch_bytes;    /* pitch-linear: bytes from one row to the next */
    uint8_t block_height, block_depth; /* block-linear: GOBs per block, powers of two <= 32 */
    int has_slot;            /* a SASS header-pool entry names it: word `slot` of the image bank */
    uint32_t slot;
    int disabled;
    uint32_t levels;         /* mipmap levels, >= 1 */
} launch_image;

typedef struct launch_buffer {
    const char *name; /* the key under "buffers" or "images" */
    const launch_image *image; /* NULL for a buffer. An image is held on the host as a buffer of
                                  its texels in x-fastest order (then y, z, layer), channels
                                  interleaved: type is the channel's element type and count is
                                  texels x channels; the sim converts to and from the layout */
    launch_elem type;
    uint64_t count; /* elements, >= 1 */
    uint64_t bytes; /* count * launch_elem_bytes(type) */
    launch_init init;
} launch_buffer;

/* ---- textures (docs/launch-files.md, "Textures") ---- */
/* A texture: an image read through a sampler (cudaTextureDesc's fields, numbered as CUDA
 * numbers them). The sim checks it again when it creates the texture (mem/mem_texture.h). */
typedef struct launch_texture {
    const char *name;     /* the key under "textures" */
    size_t image;         /* index into launch_desc.buffers: an image */
    uint8_t address[3];   /* per dimension x, y, z: 0 wrap, 1 clamp, 2 mirror, 3 border
                             (cudaTextureAddressMode); dimensions the image lacks are 0 */
    uint8_t filter;       /* 0 point, 1 linear (cudaTextureFilterMode) */
    uint8_t normalized;   /* 1: coordinates in [0, 1) span the image */
    uint8_t read;         /* 0 element, 1 normalized_float (cudaTextureReadMode) */
    float border[4];      /* the border colour per channel */
    int has_slot;         /* a SASS header-pool entry names it: word `slot` of the image bank */
    uint32_t slot;
    uint8_t mipmap_filter; /* 0 point, 1 linear: between mipmap levels */
    float lod_bias;       /* mipmapLevelBias */
    float min_lod, max_lod; /* min/maxMipmapLevelClamp */
} launch_texture;

/* ---- launches (docs/launch-files.md, "Launches") ---- */
typedef enum launch_arg_kind {
    LAUNCH_ARG_BUFFER, /* a buffer's device address plus a byte offset (a .u64 parameter) */
    LAUNCH_ARG_SCALAR, /* a value of one element type */
    LAUNCH_ARG_SURFACE, /* an image's 64-bit handle (a .u64 surface object parameter) */
    LAUNCH_ARG_TEXTURE, /* a texture's 64-bit handle (a .u64 texture object parameter) */
    LAUNCH_ARG_TENSOR_MAP /* a tensor map over a buffer (a .b8 [128] CUtensorMap parameter) */
} launch_arg_kind;

/* A tensor map argument (docs/launch-files.md, "Tensor maps"): cuTensorMapEncodeTiled's fields
 * with CUDA's numbering, the global address being a buffer plus a byte offset. The launch layer
 * checks the shapes and ranges it can; the sim encodes the map and applies the rest. */
typedef struct launch_tensor_map {
    size_t buffer;          /* index into launch_desc.buffers */
    uint64_t offset;        /* bytes from the buffer's start */
    uint8_t data_type;      /* CUtensorMapDataType 0..12 */
    uint8_t rank;           /* 1..5: the length of "dims" */
    uint8_t swizzle;        /* 0 none, 1 32B, 2 64B, 3 128B */
    uint8_t l2_promotion;   /* 0 none, 1 64B, 2 128B, 3 256B */
    uint8_t oob_fill;       /* 0 zero, 1 nan */
    uint64_t dims[5];       /* elements per dimension, innermost first */
    uint64_t strides[4];    /* bytes between indices of dimensions 1..rank-1 */
    uint32_t box[5];        /* elements a copy moves per dimension */
    uint32_t elem_strides[5]; /* 1 where not given */
} launch_tensor_map;

typedef struct launch_arg {
    launch_arg_kind kind;
    size_t buffer;   /* BUFFER, SURFACE: index into launch_desc.buffers */
    size_t texture;  /* TEXTURE: index into launch_desc.textures */
    const launch_tensor_map *tensor_map; /* TENSOR_MAP: in the description's arena */
    uint64_t offset; /* BUFFER: bytes, < the buffer's bytes */
    launch_elem type; /* SCALAR */
    uint64_t bits;    /* SCALAR: the value's bit pattern in the low launch_elem_bytes(type) bytes,
                         upper bits zero */
    uint32_t local_bytes; /* nonzero: an OpenCL __local argument of that many SLM bytes per
                             work-group (ND-range launches); it is then a u32 SCALAR whose bits
                             are its region's offset after the static SLM (docs/visa.md, "Local-memory arguments") */
    uint32_t local_align; /* its region's alignment in bytes, a power of two */
    const char *field; /* e.g. "launches[0].args[2]", for the sim's diagnostics */
    unsigned line, col; /* position of the argument object in the launch file; 0 if unknown */
} launch_arg;

/* cudaAccessProperty, with the same numeric values. */
typedef enum launch_access_prop {
    LAUNCH_ACCESS_NORMAL = 0,
    LAUNCH_ACCESS_STREAMING = 1,
    LAUNCH_ACCESS_PERSISTING = 2
} launch_access_prop;

/* An L2 access policy window (cudaAccessPolicyWindow) over part of one buffer. The launch layer
 * checks only that it lies within the buffer; the memory model applies it. */
typedef struct launch_policy_window {
    size_t buffer;   /* index into launch_desc.buffers */
    uint64_t offset; /* bytes from the buffer's start */
    uint64_t bytes;  /* >= 1; offset + bytes <= the buffer's bytes */
    double hit_ratio; /* in [0, 1] */
    launch_access_prop hit_prop;
    launch_access_prop miss_prop; /* NORMAL or STREAMING */
} launch_policy_window;

/* One piece of an ND-range launch's cross-thread data (docs/launch-files.md, "ND-range
 * launches"): an argument's value or an implicit argument at a byte offset. */
typedef enum launch_implicit {
    LAUNCH_IMPLICIT_NONE = 0,         /* the item is args[arg] */
    LAUNCH_IMPLICIT_GLOBAL_OFFSET,    /* 3 x u32: the global id offset (0, 0, 0) */
    LAUNCH_IMPLICIT_LOCAL_SIZE,       /* 3 x u32: the work-group size */
    LAUNCH_IMPLICIT_ENQUEUED_LOCAL_SIZE, /* 3 x u32: the work-group size as enqueued */
    LAUNCH_IMPLICIT_GLOBAL_SIZE,      /* 3 x u32 */
    LAUNCH_IMPLICIT_NUM_GROUPS,       /* 3 x u32: work-groups per dimension */
    LAUNCH_IMPLICIT_WORK_DIM          /* u32: the dimensions of global_size */
} launch_implicit;

typedef struct launch_payload_item {
    uint32_t offset;          /* bytes from the start of the cross-thread data */
    uint32_t arg;             /* IMPLICIT_NONE: index into the launch's args */
    launch_implicit implicit;
} launch_payload_item;

typedef struct launch_kernel {
    const char *kernel;     /* the entry's name as in the module (for PTX, the mangled name) */
    uint32_t grid[3];       /* CTAs per dimension; unspecified dimensions are 1 */
    uint32_t block[3];      /* threads per dimension; unspecified dimensions are 1 */
    uint32_t shared_bytes;  /* dynamic shared memory, bytes */
    launch_arg *args;
    size_t nargs;
    int has_policy_window;
    launch_policy_window policy_window;
    int reset_persisting;   /* reset every persisting L2 line to normal before this launch */
    uint32_t helper_lanes;  /* "helper_lanes": lanes of every warp that stand for helper or
                               killed pixels (SUATOM skips them); 0 when absent */
    int cooperative;        /* "cooperative": a cooperative launch (grid-wide sync works) */
    const char *field;      /* "launches[i]" */
    unsigned line, col;     /* position of the launch object; 0 if unknown */
    unsigned block_line, block_col;   /* position of "block"'s value; 0 if unknown */
    unsigned shared_line, shared_col; /* position of "shared_bytes"'s value; 0 if absent */
    int ndrange;            /* given as "global_size"/"local_size" (grid and block derived) */
    uint32_t global_size[3], work_dim;
    launch_payload_item *payload; /* ndrange: the cross-thread data's layout */
    size_t npayload;
    uint32_t payload_bytes; /* ndrange: bytes of the cross-thread data (the kernel's parameter) */
} launch_kernel;

/* ---- outputs and expectations (docs/launch-files.md, "Outputs", "Expectations") ---- */
typedef struct launch_output {
    size_t buffer;      /* index into launch_desc.buffers */
    const char *path;   /* resolved */
    unsigned line, col; /* position of the path's value in the launch file; 0 if unknown */
} launch_output;

typedef struct launch_expect {
    size_t buffer;         /* index into launch_desc.buffers */
    int from_file;         /* 1: compare with `path`; 0: compare every element with fill_bits */
    const char *path;      /* resolved; NULL when !from_file */
    uint64_t fill_bits;    /* the element's bit pattern */
    int has_atol, has_rtol;
    double rtol, atol;     /* >= 0; 0 when not given */
} launch_expect;

typedef struct launch_desc {
    arena arena;               /* owns everything below */
    const char *path;          /* the launch file as given */
    const char *dir;           /* its folder: "." when the path has no '/' */
    const char *module_path;   /* resolved */
    unsigned module_line, module_col; /* position of the "module" value; 0 if unknown */
    const char *dialect;       /* the "dialect" value: the module's dialect by name (the sim looks
                                  it up); NULL when absent: chosen by the module's suffix */
    unsigned dialect_line, dialect_col; /* position of the "dialect" value; 0 when absent */
    const char *gpu;           /* default "h100"; the sim validates it */
    unsigned gpu_line, gpu_col; /* position of the "gpu" value; 0 when absent */
    const char *config_path;   /* resolved GPU config override file; NULL when absent */
    launch_buffer *buffers;    /* in the order of the launch file: "buffers", then "images" */
    size_t nbuffers;
    int has_image_pool_max;
    uint32_t image_pool_max;   /* the header pool's largest valid index ("image_pool_max") */
    launch_texture *textures;  /* in the order of the launch file */
    size_t ntextures;
    launch_kernel *kernels;    /* run in this order; at least one */
    size_t nkernels;
    launch_output *outputs;
    size_t noutputs;
    launch_expect *expects;
    size_t nexpects;
    uint64_t total_bytes;      /* sum of the buffers' bytes */
    uint64_t max_instructions; /* warp instructions; 0 when absent (no limit given) */
    int has_l2_persisting_bytes;
    uint64_t l2_persisting_bytes; /* the persisting L2 set-aside requested, bytes */
    int has_heap_bytes;
    uint64_t heap_bytes;       /* the device heap's size, bytes (docs/launch-files.md) */
} launch_desc;

/* Limits applied while loading. */
typedef struct launch_limits {
    uint64_t max_total_bytes;  /* sum of all buffers' bytes; default 1 GiB */
    uint64_t max_file_bytes;   /* size of the launch file itself; default 16 MiB */
} launch_limits;

/* The defaults above. */
launch_limits launch_limits_default(void);

/* Reads and validates the launch file at `path` (borrowed). Returns the description (free it with
 * launch_destroy) or NULL when anything was wrong; every problem found is added to `dl`, several
 * per file where parsing could go on. File inits and expectation files are checked to exist with
 * exactly count * element-size bytes (LAUNCH-FILE-001/002) but are not read. Errors: LAUNCH-IO-001
 * (unreadable, not a regular file, or too large), LAUNCH-JSON-*, and every rule of
 * docs/launch-files.md. Out of memory returns NULL with dl->oom set or a LAUNCH-IO-001 "out of
 * memory" diagnostic. */
launch_desc *launch_load(const char *path, diag_list *dl);
/* As launch_load with explicit limits (borrowed; NULL means the defaults). */
launch_desc *launch_load_limits(const char *path, const launch_limits *limits, diag_list *dl);

/* Parses `len` bytes of `text` (borrowed; need not be NUL-terminated) as the launch file `path`:
 * relative paths inside are resolved against the folder of `path`, which also names the file in
 * diagnostics. Returns as launch_load. */
launch_desc *launch_load_text(const char *path, const char *text, size_t len, diag_list *dl);
launch_desc *launch_load_text_limits(const char *path, const char *text, size_t len,
                                     const launch_limits *limits, diag_list *dl);

/* Frees the description and everything it owns. NULL is allowed. */
void launch_destroy(launch_desc *d);

/* Returns the index of the buffer called `name`, or -1 when there is none. */
long launch_find_buffer(const launch_desc *d, const char *name);

/* Writes the initial contents of buffer `buffer_index` into dst (exactly buffers[i].bytes bytes,
 * little-endian elements; caller storage). Returns 0, or -1 with a diagnostic: LAUNCH-FILE-001 when
 * an init file cannot be opened or read, LAUNCH-FILE-002 when its size is no longer
 * count * element-size bytes, LAUNCH-IO-001 for a bad buffer index. */
int launch_init_buffer(const launch_desc *d, size_t buffer_index, uint8_t *dst, diag_list *dl);

/* The initial contents of one buffer, produced a chunk at a time (so that a run never holds a
 * second copy of a large buffer): launch_init_begin, then launch_init_next for consecutive chunks
 * that together cover buffers[i].bytes bytes, then launch_init_end. The bytes are those
 * launch_init_buffer writes. Caller storage; `file` is open between begin and end. */
typedef struct launch_init_stream {
    const launch_desc *desc; /* borrowed */
    size_t buffer;
    uint64_t done_bytes;     /* bytes produced so far */
    void *file;              /* FILE * of an init file, owned; NULL for generated contents */
    char field[128];         /* "buffers.x.init.file", for diagnostics */
} launch_init_stream;

/* Starts buffer `buffer_index`'s contents. Returns 0, or -1 with LAUNCH-IO-001 (bad index) or
 * LAUNCH-FILE-001 (its init file cannot be opened); nothing needs ending then. */
int launch_init_begin(const launch_desc *d, size_t buffer_index, launch_init_stream *s,
                      diag_list *dl);
/* Writes the next `bytes` bytes of the contents into dst (caller storage). `bytes` is a multiple
 * of the element size, and at most what remains. Returns 0, or -1 with LAUNCH-FILE-001 (read
 * error) or LAUNCH-FILE-002 (the init file is shorter than count x element size); the caller
 * still calls launch_init_end. */
int launch_init_next(launch_init_stream *s, uint8_t *dst, uint64_t bytes, diag_list *dl);
/* Ends the contents and releases the stream. When every byte was produced, checks that an init
 * file has no more bytes: returns -1 with LAUNCH-FILE-002 if it has; otherwise 0. */
int launch_init_end(launch_init_stream *s, diag_list *dl);

/* A run's buffers, read back a chunk at a time (so that outputs and expectations never need a
 * second whole copy of a large buffer). `read` copies bytes [offset, offset + bytes) of buffer
 * `buffer` (an index into launch_desc.buffers) into out (caller storage) and returns 0, or -1
 * when it cannot (after reporting why through its own means). */
typedef struct launch_buffer_reader {
    int (*read)(void *ctx, size_t buffer, uint64_t offset, uint64_t bytes, uint8_t *out);
    void *ctx;
} launch_buffer_reader;

/* Writes every output all-or-nothing (docs/launch-files.md, "Outputs"): buffer_data[i] holds
 * buffers[i].bytes bytes for each buffer i (borrowed; entries of buffers without an output may be
 * NULL). Each file is written to a temporary file in its folder, and only when all of them were
 * written are they renamed over their targets, so a failed write leaves every target as it was.
 * Returns 0, or -1 after trying every output, with one LAUNCH-IO-002 diagnostic per failed file
 * (at the output's field). */
int launch_write_outputs(const launch_desc *d, const uint8_t *const *buffer_data, diag_list *dl);
/* The first half of launch_write_outputs: adds every output to the caller's group `g` as a
 * written temporary file, so that the caller can add files of its own (the JSON report) and
 * commit them together (file_group_commit). Returns as launch_write_outputs; failed files are not
 * added. */
int launch_stage_outputs(const launch_desc *d, const uint8_t *const *buffer_data, file_group *g,
                         diag_list *dl);
/* As launch_stage_outputs, with every buffer's contents from `reader` (borrowed), read in chunks
 * of at most 1 MiB while each temporary file is written; a failed read fails that output with
 * LAUNCH-IO-002 ("Input/output error"). */
int launch_stage_outputs_from(const launch_desc *d, const launch_buffer_reader *reader,
                              file_group *g, diag_list *dl);

/* ---- checking expectations ---- */
enum { LAUNCH_MISMATCHES_SHOWN = 10 };

typedef struct launch_mismatch {
    uint64_t index;     /* element index */
    char got[48];       /* launch_format_element of the buffer's element */
    char expected[48];  /* ... and of the expected element */
} launch_mismatch;

typedef struct launch_expect_result {
    const char *buffer_name; /* borrowed from the description */
    uint64_t elements;       /* elements compared (the buffer's count) */
    uint64_t mismatches;     /* elements outside tolerance */
    size_t shown;            /* entries used in first[] */
    launch_mismatch first[LAUNCH_MISMATCHES_SHOWN]; /* the first mismatches, by index */
} launch_expect_result;

/* Compares buffers with the expectations, element-wise (docs/launch-files.md, "Expectations"):
 * floats match when both are NaN, when equal, or when |got - exp| <= atol + rtol * |exp|;
 * integers match when equal, or when their exact difference is at most atol + rtol * |exp|
 * (the tolerance computed in double, as numpy's allclose does). buffer_data as for
 * launch_write_outputs; results (OUT, caller storage) holds d->nexpects entries, in the order of
 * d->expects. Returns the number of failed expectations (0: all passed), or -1 with a diagnostic
 * when an expectation file cannot be read (LAUNCH-FILE-001) or changed size (LAUNCH-FILE-002). */
int launch_check_expectations(const launch_desc *d, const uint8_t *const *buffer_data,
                              launch_expect_result *results, diag_list *dl);
/* As launch_check_expectations, with every buffer's contents from `reader` (borrowed), compared
 * 64 KiB at a time; also returns -1 with LAUNCH-IO-001 when the reader fails. */
int launch_check_expectations_from(const launch_desc *d, const launch_buffer_reader *reader,
                                   launch_expect_result *results, diag_list *dl);

#endif
