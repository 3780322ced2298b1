/* Private interface between the files of src/launch/: the field path used in diagnostics, the
 * parse context, the source locator, and the element-value helpers. Nothing outside src/launch/
 * includes this header; the public interface is launch.h. */
#ifndef GMS_LAUNCH_LAUNCH_INTERNAL_H
#define GMS_LAUNCH_LAUNCH_INTERNAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "launch/launch.h"

/* ---- field paths (launch_json.c) ---- */
enum { LAUNCH_PATH_DEPTH = 8 };

/* A path from the root of the launch file to one JSON value: a key or an array index per level. */
typedef struct launch_path {
    struct {
        const char *key; /* borrowed; NULL for an array index */
        size_t index;
    } seg[LAUNCH_PATH_DEPTH];
    int depth; /* may exceed LAUNCH_PATH_DEPTH; the extra levels are not recorded */
} launch_path;

/* Returns `p` extended by one object key (borrowed) or one array index. */
launch_path launch_path_key(const launch_path *p, const char *key);
launch_path launch_path_index(const launch_path *p, size_t index);
/* Formats `p` as `launches[0].grid[1]` into buf (NUL-terminated, truncated to size). */
void launch_path_format(const launch_path *p, char *buf, size_t size);

/* Finds the value at `p` in the JSON `text` (`len` bytes, already accepted by jansson). On success
 * sets *value_offset to the byte offset of the value and *key_offset to that of its key (the value's
 * offset for array elements and the root) and returns 0; returns -1 when it is not found. */
int launch_locate(const char *text, size_t len, const launch_path *p, size_t *value_offset,
                  size_t *key_offset);
/* Converts a byte offset into 1-based line and column (bytes). */
void launch_line_col(const char *text, size_t len, size_t offset, unsigned *line, unsigned *col);

/* ---- parse context (launch_parse.c and launch_values.c) ---- */
typedef struct launch_ctx {
    const char *file;  /* the launch file, for diagnostics */
    const char *text;  /* the launch file's bytes; NULL when unavailable */
    size_t len;
    diag_list *dl;
    launch_desc *desc;
    launch_limits limits;
    size_t errors;     /* errors reported by this load */
} launch_ctx;

/* Reports an error at the value (at_key = 0) or at the key (at_key = 1) of `p`, with the message
 * "<path>: <formatted text>". */
void launch_error(launch_ctx *c, const char *rule, const launch_path *p, int at_key,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Reads a value of element type `t` from `v` (launch-file rules: JSON integers for integer types,
 * "0x..." strings for u64/i64, numbers or "nan"/"inf"/"-inf" for float types). Returns 0, or -1
 * after reporting LAUNCH-TYPE-001 or LAUNCH-VALUE-001..004. */
int launch_parse_number(launch_ctx *c, const launch_path *p, json_t *v, launch_elem t,
                        launch_number *out);

/* ---- shared parsing helpers (launch_parse.c, for launch_image.c) ---- */
/* Reports every key of `obj` not in the NULL-terminated `allowed` (LAUNCH-KEY-001); returns how
 * many. */
int launch_check_keys(launch_ctx *c, const launch_path *p, json_t *obj, const char *const *allowed);
/* 0 when v is an object, else -1 after LAUNCH-TYPE-001. */
int launch_want_object(launch_ctx *c, const launch_path *p, json_t *v);
/* obj.key as a non-empty string, or as a JSON integer in [lo, hi]: 1 when present and valid, 0
 * when absent (LAUNCH-KEY-002 when required), -1 after an error. */
int launch_get_string(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                      int required, const char **out);
int launch_get_uint(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                    int required, uint64_t lo, uint64_t hi, uint64_t *out);
/* A copy of s in the description's arena; NULL after LAUNCH-IO-001. */
char *launch_copy_string(launch_ctx *c, const char *s);
/* 1 when s is a valid buffer or image name. */
int launch_valid_name(const char *s);
/* Counts `count` elements of `elem` bytes against the size limit: 0, or -1 after
 * LAUNCH-SIZE-001 at `p` (once per file). */
int launch_reserve_bytes(launch_ctx *c, const launch_path *p, uint64_t count, size_t elem);
/* obj.key (required) naming a declared buffer or image: its index, or -1 after LAUNCH-KEY-002,
 * LAUNCH-TYPE-001 or LAUNCH-REF-001. */
long launch_buffer_ref(launch_ctx *c, const launch_path *p, json_t *obj, const char *key);
/* Parses the "init" object `v` of buffer b (type, count and bytes set). Returns 0 or -1. */
int launch_parse_init(launch_ctx *c, const launch_path *p, json_t *v, launch_buffer *b);

/* ---- access-policy windows (launch_window.c) ---- */
/* A launch's "access_policy_window" object `v` at `p` into k (LAUNCH-APW-001..004). */
void launch_parse_window(launch_ctx *c, const launch_path *p, json_t *v, launch_kernel *k);
/* The ND-range form of launch `v` at `p` (launch_ndrange.c): "global_size", "local_size" and
 * "payload" instead of "grid" and "block"; fills k's grid, block and payload
 * (LAUNCH-NDR-001..007). */
void launch_parse_ndrange(launch_ctx *c, const launch_path *p, json_t *v, launch_kernel *k);
/* Checks an ND-range launch's payload items against its arguments, once they are parsed: each
 * names an argument that exists and is a buffer or scalar (LAUNCH-NDR-004) and fits in the
 * payload's bytes (LAUNCH-NDR-005). */
/* Parses {"local": BYTES, "align": A} at `p` (launch_ndrange.c): an OpenCL __local argument
 * (clSetKernelArg with a size and no value). BYTES is 1..65536 and A a power of two 1..4096
 * (default 1); anything else is LAUNCH-NDR-007. Fills a's local_bytes and local_align and makes
 * it a u32 scalar; its value is set by launch_layout_local. */
void launch_parse_local_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a);
/* Places k's __local arguments in SLM as Intel's runtime does (docs/visa.md, "Local-memory
 * arguments"): in argument order after k->shared_bytes (the kernel's static SLM), each at the
 * next multiple of its alignment counted from the static SLM's end; each argument's value
 * becomes that relative offset (IGC's code adds the static size), and k->shared_bytes grows by
 * the end of the last one. LAUNCH-NDR-008 when k is not an ND-range launch;
 * LAUNCH-NDR-007 when the total passes 4 GiB. */
void launch_layout_local(launch_ctx *c, const launch_path *p, launch_kernel *k);
void launch_check_payload(launch_ctx *c, const launch_path *p, const launch_kernel *k);

/* ---- images (launch_image.c) ---- */
/* Parses the top-level "images" and "image_pool_max" into d->buffers (after the buffers). */
void launch_parse_images(launch_ctx *c, json_t *root);
/* A {"surface": NAME} argument `v` at `p` into *a (LAUNCH-REF-001, LAUNCH-ARG-003). */
void launch_parse_surface_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a);

/* ---- textures (launch_texture.c) ---- */
/* Parses the top-level "textures" into d->textures (after the images). */
void launch_parse_textures(launch_ctx *c, json_t *root);
/* A {"texture": NAME} argument `v` at `p` into *a (LAUNCH-REF-001). */
void launch_parse_texture_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a);

/* ---- tensor maps (launch_tensormap.c) ---- */
/* A {"tensor_map": {...}} argument `v` at `p` into *a (LAUNCH-TMAP-001, LAUNCH-KEY-*,
 * LAUNCH-REF-001, LAUNCH-TYPE-001). */
void launch_parse_tensor_map_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a);

/* ---- element values (launch_values.c) ---- */
/* The bit pattern of `n` stored as type `t` (floats rounded to nearest even through binary32 for
 * f16 and bf16). */
uint64_t launch_encode(launch_elem t, launch_number n);
/* 1 when a float value `real` becomes infinite as type `t` although it is finite. */
int launch_float_overflows(launch_elem t, double real);
/* The element with bit pattern `bits` as a double (exact for every type except 64-bit integers). */
double launch_float_value(launch_elem t, uint64_t bits);
/* Sign-extends the low launch_elem_bytes(t) bytes of `bits` for signed types; masks otherwise. */
uint64_t launch_int_value(launch_elem t, uint64_t bits);
/* Little-endian element access; `bytes` is 1, 2, 4 or 8. */
void launch_store_bits(uint8_t *dst, size_t bytes, uint64_t bits);
uint64_t launch_load_bits(const uint8_t *src, size_t bytes);
/* The smallest value and the distance to the largest value of an integer type, as 64-bit values
 * (lo sign-extended for signed types). */
void launch_int_range(launch_elem t, uint64_t *lo, uint64_t *span);
/* Compares two 64-bit values of integer type t: <0, 0, >0. */
int launch_int_compare(launch_elem t, uint64_t a, uint64_t b);
#define LAUNCH_RANDOM_STEP UINT64_C(0x9E3779B97F4A7C15) /* SplitMix64's increment per draw */
/* One step of the SplitMix64 generator of docs/launch-files.md, "Random". */
uint64_t launch_random_next(uint64_t *state);
/* Fills `count` elements of buffer `b` at dst for the fill, iota and random forms. */
void launch_generate(const launch_buffer *b, uint8_t *dst);
/* Elements [first, first + count) of a generated (fill, iota, random) buffer's contents into dst
 * (count x element-size bytes), the same bytes launch_generate writes there. */
void launch_generate_range(const launch_buffer *b, uint64_t first, uint64_t count, uint8_t *dst);

#endif
