/* GPU configuration: the field table, validation, JSON override loading and JSON printing.
 *
 * One table (config_fields) lists every key of the JSON form with its C field, its kind, its
 * checks and what the simulator does with it (modelled, or on the not-yet list); loading,
 * printing, comparison and the generic validation rules are all driven from it, so a new field is
 * added in one place. The geometry rules that relate several fields are written out below the
 * table. This module never prints: everything goes to the caller's diag_list. It holds no preset
 * values (presets.c), models nothing, and finds keys' positions in the text with key_index.c. */
#include "config/gpu_config.h"
#include "base/file.h"
#include "config/key_index.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the field table ---- */

typedef enum field_kind {
    KIND_U32,          /* uint32_t, JSON integer 0..2^32-1 */
    KIND_U64,          /* uint64_t, JSON integer 0..2^63-1 */
    KIND_BOOL,         /* bool, JSON true/false */
    KIND_STRING,       /* char[size], JSON string shorter than size */
    KIND_WRITE_POLICY, /* gpu_write_policy, JSON string */
    KIND_REPLACEMENT,  /* gpu_replacement, JSON string */
    KIND_SLICE_HASH,   /* gpu_slice_hash, JSON string */
    KIND_CARVEOUTS     /* l1.shared_carveouts_bytes + count, JSON array of integers */
} field_kind;

enum {
    FIELD_MAY_BE_ZERO = 1,  /* 0 is meaningful (otherwise CONFIG-101) */
    FIELD_POWER_OF_TWO = 2, /* must be a power of two (CONFIG-102) */
};

typedef struct config_field {
    const char *section; /* NULL for a top-level key */
    const char *key;
    field_kind kind;
    unsigned flags;
    size_t offset;     /* into gpu_config */
    size_t size;       /* bytes of the C field (the buffer size for strings) */
    uint64_t max;      /* largest supported value (CONFIG-121); 0: bounded by other rules */
    gpu_key_model model;
    const char *missing; /* GPU_KEY_NOT_MODELLED: what is not modelled yet, for CONFIG-123 */
} config_field;

#define MEMBER_SIZE(m) sizeof(((gpu_config *)0)->m)
#define TOP(m, kind, flags, max, ...)                                                            \
    {NULL, #m, kind, flags, offsetof(gpu_config, m), MEMBER_SIZE(m), max, __VA_ARGS__}
#define SUB(s, m, kind, flags, max, ...)                                                         \
    {#s, #m, kind, flags, offsetof(gpu_config, s.m), MEMBER_SIZE(s.m), max, __VA_ARGS__}

enum { Z = FIELD_MAY_BE_ZERO, P2 = FIELD_POWER_OF_TWO };

/* The last column: what the simulator does with the key (gpu_key_model). The keys marked LATER
 * are the not-yet list: they are validated and printed like every other key, but an override
 * may not change them (CONFIG-123) until the part that would use them exists. Moving a key to
 * USED needs its probe in tests/unit/test_config_keys.c. (CONFIG-124, the timing model's own
 * not-yet group, is retired: every key it held is modelled.) */
#define USED GPU_KEY_MODELLED, NULL
#define DESCRIBES GPU_KEY_DESCRIPTIVE, NULL
#define FIXED GPU_KEY_FIXED, NULL
#define LATER(what) GPU_KEY_NOT_MODELLED, what
#define RESERVATION LATER("a per-CTA shared-memory reservation")
#define LINE_128 LATER("a line size other than the preset's")
#define CONSTANT_L15 LATER("the L1.5 constant cache")
#define INSTRUCTION_L0 LATER("the L0 instruction cache")
#define CRS_CACHE LATER("the call-return-stack cache")

/* Upper limits keep every derived quantity (set counts, per-SM arrays, sector masks) small
 * enough for the memory system and the executor to allocate and index without overflow. They are
 * far above any real GPU. Fields with limit 0 are bounded by a rule relating them to another. */
#define MIB(n) ((uint64_t)(n) << 20)
#define GIB(n) ((uint64_t)(n) << 30)
#define LATENCY_MAX 1000000
#define MAX_SECTORS_PER_LINE 64 /* the memory system keeps one bit per sector in a 64-bit mask */

static const config_field config_fields[] = {
    TOP(name, KIND_STRING, 0, 0, DESCRIBES),
    TOP(description, KIND_STRING, 0, 0, DESCRIBES),
    TOP(sm_version, KIND_U32, 0, 1000, DESCRIBES),
    SUB(sm, count, KIND_U32, 0, 4096, USED),
    SUB(sm, warp_size, KIND_U32, 0, 0, FIXED),
    SUB(sm, max_threads_per_sm, KIND_U32, 0, 65536, USED),
    SUB(sm, max_ctas_per_sm, KIND_U32, 0, 1024, USED),
    SUB(sm, max_warps_per_sm, KIND_U32, 0, 2048, USED),
    SUB(sm, registers_per_sm, KIND_U32, 0, 16777216, USED), /* timing: occupancy */
    SUB(sm, max_threads_per_cta, KIND_U32, 0, 65536, USED),
    SUB(sm, tiles, KIND_U32, 0, 64, USED), /* Intel LSC tile-scope fences */
    /* The timing model's schedulers per SM and the clock its cycles are converted at. */
    SUB(sm, schedulers, KIND_U32, 0, 64, USED),
    SUB(sm, clock_mhz, KIND_U32, 0, 100000, USED),
    SUB(l1, unified_bytes, KIND_U32, 0, MIB(16), USED),
    SUB(l1, shared_carveouts_bytes, KIND_CARVEOUTS, 0, 0, USED),
    SUB(l1, default_shared_carveout_bytes, KIND_U32, Z, 0, USED),
    SUB(l1, max_shared_per_cta_bytes, KIND_U32, 0, 0, USED),
    SUB(l1, shared_reserved_per_cta_bytes, KIND_U32, Z, 0, RESERVATION),
    SUB(l1, line_bytes, KIND_U32, P2, 4096, LINE_128),
    SUB(l1, sector_bytes, KIND_U32, P2, 4096, USED),
    SUB(l1, ways, KIND_U32, 0, 65536, USED),
    SUB(l1, replacement, KIND_REPLACEMENT, 0, 0, FIXED),
    SUB(l1, cache_global_loads, KIND_BOOL, 0, 0, USED),
    SUB(l1, global_store_policy, KIND_WRITE_POLICY, 0, 0, USED),
    SUB(l1, global_store_allocate, KIND_BOOL, 0, 0, USED),
    SUB(l1, local_store_policy, KIND_WRITE_POLICY, 0, 0, USED),
    SUB(l1, tags_per_cycle, KIND_U32, 0, 64, USED),
    SUB(l1, sectors_per_cycle, KIND_U32, 0, 4096, USED),
    SUB(l1, mshrs, KIND_U32, 0, 65536, USED),
    SUB(shared, banks, KIND_U32, P2, 1024, USED),
    SUB(shared, bank_width_bytes, KIND_U32, P2, 64, USED),
    SUB(l2, size_bytes, KIND_U64, 0, GIB(16), USED),
    SUB(l2, line_bytes, KIND_U32, P2, 4096, LINE_128),
    SUB(l2, sector_bytes, KIND_U32, P2, 4096, USED),
    SUB(l2, ways, KIND_U32, 0, 65536, USED),
    SUB(l2, slices, KIND_U32, 0, 65536, USED),
    SUB(l2, slice_hash, KIND_SLICE_HASH, 0, 0, USED),
    SUB(l2, partitions, KIND_U32, 0, 64, USED),
    SUB(l2, dram_fill_bytes, KIND_U32, P2, 0, USED),
    SUB(l2, replacement, KIND_REPLACEMENT, 0, 0, FIXED),
    SUB(l2, write_policy, KIND_WRITE_POLICY, 0, 0, USED),
    SUB(l2, persisting_max_bytes, KIND_U64, Z, 0, USED),
    SUB(l2, access_policy_max_window_bytes, KIND_U64, Z, GIB(16), USED),
    SUB(l2, slice_bytes_per_cycle, KIND_U32, 0, 65536, USED),
    SUB(constant, l1_bytes, KIND_U32, 0, MIB(16), USED),
    SUB(constant, l1_line_bytes, KIND_U32, P2, 4096, USED),
    SUB(constant, l1_ways, KIND_U32, 0, 65536, USED),
    SUB(constant, l15_bytes, KIND_U32, 0, MIB(16), CONSTANT_L15),
    SUB(constant, l15_line_bytes, KIND_U32, P2, 4096, CONSTANT_L15),
    SUB(constant, l15_ways, KIND_U32, 0, 65536, CONSTANT_L15),
    SUB(instruction, l0_bytes, KIND_U32, 0, MIB(16), INSTRUCTION_L0),
    SUB(instruction, l0_line_bytes, KIND_U32, P2, 4096, INSTRUCTION_L0),
    SUB(instruction, l0_ways, KIND_U32, 0, 65536, INSTRUCTION_L0),
    SUB(instruction, l1_bytes, KIND_U32, 0, MIB(16), USED),
    SUB(instruction, l1_line_bytes, KIND_U32, P2, 4096, USED),
    SUB(instruction, l1_ways, KIND_U32, 0, 65536, USED),
    SUB(crs, entries_per_warp, KIND_U32, 0, 65536, CRS_CACHE),
    SUB(crs, entry_bytes, KIND_U32, P2, 256, CRS_CACHE),
    SUB(dram, page_bytes, KIND_U32, P2, GIB(1), DESCRIBES),
    SUB(dram, channels, KIND_U32, 0, 4096, USED),
    SUB(dram, bytes_per_cycle, KIND_U32, 0, 1048576, USED),
    SUB(dram, banks_per_channel, KIND_U32, 0, 1024, USED),
    SUB(dram, row_bytes, KIND_U32, P2, MIB(1), USED),
    SUB(latency, l1_hit_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(latency, shared_load_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(latency, shared_conflict_step_cycles, KIND_U32, Z, LATENCY_MAX, USED),
    SUB(latency, l2_near_hit_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(latency, l2_far_hit_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(latency, dram_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(latency, dram_row_hit_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(latency, constant_l1_hit_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(latency, constant_l15_hit_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, int_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, int_interval_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, fp32_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, fp32_interval_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, fp64_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, fp64_interval_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, sfu_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, sfu_interval_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, tensor_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, tensor_interval_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, branch_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, branch_interval_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, mem_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, mem_shared_latency_cycles, KIND_U32, 0, LATENCY_MAX, USED),
    SUB(pipe, mem_interval_cycles, KIND_U32, 0, LATENCY_MAX, USED),
};

#define FIELD_COUNT (sizeof config_fields / sizeof config_fields[0])

static const char *const write_policy_names[] = {"write_through", "write_back"};
static const char *const replacement_names[] = {"lru"};
static const char *const slice_hash_names[] = {"modulo", "xor_fold"};

/* The names of an enum kind; NULL and 0 for other kinds. */
static const char *const *enum_names(field_kind kind, size_t *count)
{
    switch (kind) {
    case KIND_WRITE_POLICY:
        *count = sizeof write_policy_names / sizeof write_policy_names[0];
        return write_policy_names;
    case KIND_REPLACEMENT:
        *count = sizeof replacement_names / sizeof replacement_names[0];
        return replacement_names;
    case KIND_SLICE_HASH:
        *count = sizeof slice_hash_names / sizeof slice_hash_names[0];
        return slice_hash_names;
    default:
        *count = 0;
        return NULL;
    }
}

const char *gpu_write_policy_name(gpu_write_policy p)
{
    return (unsigned)p < 2 ? write_policy_names[p] : NULL;
}

const char *gpu_replacement_name(gpu_replacement r)
{
    return (unsigned)r < 1 ? replacement_names[r] : NULL;
}

const char *gpu_slice_hash_name(gpu_slice_hash h)
{
    return (unsigned)h < 2 ? slice_hash_names[h] : NULL;
}

static const config_field *find_field(const char *section, const char *key)
{
    for (size_t i = 0; i < FIELD_COUNT; i++) {
        const config_field *f = &config_fields[i];
        bool same_section = section ? (f->section && strcmp(f->section, section) == 0)
                                    : f->section == NULL;
        if (same_section && strcmp(f->key, key) == 0)
            return f;
    }
    return NULL;
}

static bool is_section(const char *name)
{
    for (size_t i = 0; i < FIELD_COUNT; i++)
        if (config_fields[i].section && strcmp(config_fields[i].section, name) == 0)
            return true;
    return false;
}

/* Field access. Enums are read through their own type, never as a raw int. */
static uint64_t field_number(const gpu_config *c, const config_field *f)
{
    const char *p = (const char *)c + f->offset;
    switch (f->kind) {
    case KIND_U32: return *(const uint32_t *)(const void *)p;
    case KIND_U64: return *(const uint64_t *)(const void *)p;
    case KIND_BOOL: return *(const bool *)(const void *)p;
    case KIND_WRITE_POLICY: return (uint64_t)*(const gpu_write_policy *)(const void *)p;
    case KIND_REPLACEMENT: return (uint64_t)*(const gpu_replacement *)(const void *)p;
    case KIND_SLICE_HASH: return (uint64_t)*(const gpu_slice_hash *)(const void *)p;
    default: return 0;
    }
}

static void set_field_number(gpu_config *c, const config_field *f, uint64_t v)
{
    char *p = (char *)c + f->offset;
    switch (f->kind) {
    case KIND_U32: *(uint32_t *)(void *)p = (uint32_t)v; break;
    case KIND_U64: *(uint64_t *)(void *)p = v; break;
    case KIND_BOOL: *(bool *)(void *)p = v != 0; break;
    case KIND_WRITE_POLICY: *(gpu_write_policy *)(void *)p = (gpu_write_policy)v; break;
    case KIND_REPLACEMENT: *(gpu_replacement *)(void *)p = (gpu_replacement)v; break;
    case KIND_SLICE_HASH: *(gpu_slice_hash *)(void *)p = (gpu_slice_hash)v; break;
    default: break;
    }
}

/* ---- diagnostics ---- */

typedef struct check_context {
    const char *file;
    diag_list *dl;
    const key_index *index; /* NULL when checking a struct that came from no file */
    size_t errors;
} check_context;

#define MAX_LOAD_ERRORS 100 /* stop applying keys after this many errors */

static void config_error(check_context *cx, const char *rule, const char *section, const char *key,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Adds an error about key section.key; the message is prefixed with the key path. */
static void config_error(check_context *cx, const char *rule, const char *section, const char *key,
                         const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    unsigned line, col;
    key_index_find(cx->index, section, key, &line, &col);
    diag_add(cx->dl, DIAG_ERROR, rule, cx->file ? cx->file : "", line, col, "%s%s%.64s: %s",
             section ? section : "", section ? "." : "", key, message);
    cx->errors++;
}

/* ---- validation (CONFIG-1xx) ---- */

static bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* CONFIG-101, -102, -120, -121: the checks each field makes on its own. */
static void validate_fields(check_context *cx, const gpu_config *c)
{
    for (size_t i = 0; i < FIELD_COUNT; i++) {
        const config_field *f = &config_fields[i];
        size_t names_count;
        const char *const *names = enum_names(f->kind, &names_count);
        if (names && field_number(c, f) >= names_count)
            config_error(cx, "CONFIG-120", f->section, f->key,
                         "enumeration value %llu is out of range",
                         (unsigned long long)field_number(c, f));
        if (f->kind != KIND_U32 && f->kind != KIND_U64)
            continue;
        uint64_t v = field_number(c, f);
        if (v == 0 && !(f->flags & FIELD_MAY_BE_ZERO))
            config_error(cx, "CONFIG-101", f->section, f->key, "must be positive");
        else if (f->max && v > f->max)
            config_error(cx, "CONFIG-121", f->section, f->key,
                         "%llu is above the largest supported value (%llu)",
                         (unsigned long long)v, (unsigned long long)f->max);
        else if ((f->flags & FIELD_POWER_OF_TWO) && !is_power_of_two(v))
            config_error(cx, "CONFIG-102", f->section, f->key,
                         "%llu is not a power of two", (unsigned long long)v);
    }
}

/* CONFIG-119: name and description are terminated, the name is a CLI-friendly word and the
 * description is one line. */
static void validate_strings(check_context *cx, const gpu_config *c)
{
    size_t name_length = strnlen(c->name, sizeof c->name);
    if (name_length == sizeof c->name || name_length == 0) {
        config_error(cx, "CONFIG-119", NULL, "name", "must be 1 to %zu characters",
                     sizeof c->name - 1);
    } else {
        for (size_t i = 0; i < name_length; i++) {
            char ch = c->name[i];
            bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                      ch == '.' || ch == '-';
            if (!ok) {
                config_error(cx, "CONFIG-119", NULL, "name",
                             "character %zu is not one of [a-z0-9_.-]", i + 1);
                break;
            }
        }
    }
    size_t description_length = strnlen(c->description, sizeof c->description);
    if (description_length == sizeof c->description) {
        config_error(cx, "CONFIG-119", NULL, "description", "is not NUL-terminated");
        return;
    }
    for (size_t i = 0; i < description_length; i++) {
        if ((unsigned char)c->description[i] < 0x20) {
            config_error(cx, "CONFIG-119", NULL, "description",
                         "character %zu is a control character", i + 1);
            break;
        }
    }
}

/* CONFIG-103 and CONFIG-104 for one cache. sector_key NULL: the cache has no sectors. */
static void validate_cache(check_context *cx, const char *section, const char *size_key,
                           uint64_t size, const char *line_key, uint32_t line_bytes,
                           const char *ways_key, uint32_t ways, const char *sector_key,
                           uint32_t sector_bytes)
{
    if (sector_key && line_bytes && sector_bytes &&
        (sector_bytes > line_bytes || line_bytes % sector_bytes != 0))
        config_error(cx, "CONFIG-103", section, sector_key, "%u must divide %s.%s (%u)",
                     sector_bytes, section, line_key, line_bytes);
    else if (sector_key && sector_bytes && line_bytes / sector_bytes > MAX_SECTORS_PER_LINE)
        config_error(cx, "CONFIG-122", section, sector_key,
                     "%u gives %u sectors per %s.%s (%u); at most %d are supported",
                     sector_bytes, line_bytes / sector_bytes, section, line_key, line_bytes,
                     MAX_SECTORS_PER_LINE);
    uint64_t set_bytes = (uint64_t)line_bytes * ways;
    if (size && set_bytes && size % set_bytes != 0)
        config_error(cx, "CONFIG-104", section, size_key,
                     "%llu is not a multiple of %s.%s x %s.%s (%llu)", (unsigned long long)size,
                     section, line_key, section, ways_key, (unsigned long long)set_bytes);
}

/* CONFIG-105..108 and the L1 capacity of every carve-out (CONFIG-104). */
static void validate_carveouts(check_context *cx, const gpu_config *c)
{
    const gpu_l1_config *l1 = &c->l1;
    if (l1->shared_carveout_count == 0 || l1->shared_carveout_count > GPU_MAX_SHARED_CARVEOUTS) {
        config_error(cx, "CONFIG-107", "l1", "shared_carveouts_bytes",
                     "must list 1 to %d carve-outs (has %u)", GPU_MAX_SHARED_CARVEOUTS,
                     l1->shared_carveout_count);
        return;
    }
    /* Each rule is reported for the first offending carve-out only: one fix usually cures
     * the rest, and a list of near-identical errors helps nobody. */
    bool has_default = false, seen_order = false, seen_size = false, seen_capacity = false;
    uint64_t set_bytes = (uint64_t)l1->line_bytes * l1->ways;
    for (uint32_t i = 0; i < l1->shared_carveout_count; i++) {
        uint32_t carveout = l1->shared_carveouts_bytes[i];
        has_default |= carveout == l1->default_shared_carveout_bytes;
        if (i > 0 && carveout <= l1->shared_carveouts_bytes[i - 1] && !seen_order) {
            seen_order = true;
            config_error(cx, "CONFIG-107", "l1", "shared_carveouts_bytes",
                         "entry %u (%u) is not larger than the one before", i, carveout);
        }
        if (carveout >= l1->unified_bytes) {
            if (!seen_size)
                config_error(cx, "CONFIG-105", "l1", "shared_carveouts_bytes",
                             "entry %u (%u) leaves no L1 in l1.unified_bytes (%u)", i, carveout,
                             l1->unified_bytes);
            seen_size = true;
        } else if (set_bytes && (l1->unified_bytes - carveout) % set_bytes != 0 &&
                   !seen_capacity) {
            seen_capacity = true;
            config_error(cx, "CONFIG-104", "l1", "ways",
                         "the L1 left by carve-out %u (%u bytes) is not a multiple of "
                         "l1.line_bytes x l1.ways (%llu)",
                         carveout, l1->unified_bytes - carveout, (unsigned long long)set_bytes);
        }
    }
    if (!has_default)
        config_error(cx, "CONFIG-106", "l1", "default_shared_carveout_bytes",
                     "%u is not one of l1.shared_carveouts_bytes", l1->default_shared_carveout_bytes);
    uint64_t largest = l1->shared_carveouts_bytes[l1->shared_carveout_count - 1];
    uint64_t per_cta = (uint64_t)l1->max_shared_per_cta_bytes + l1->shared_reserved_per_cta_bytes;
    if (per_cta > largest)
        config_error(cx, "CONFIG-108", "l1", "max_shared_per_cta_bytes",
                     "%u plus the %u reserved bytes exceeds the largest carve-out (%llu)",
                     l1->max_shared_per_cta_bytes, l1->shared_reserved_per_cta_bytes,
                     (unsigned long long)largest);
}

/* CONFIG-109, -114, -115: SM limits consistent with 32-lane warps. */
static void validate_sm(check_context *cx, const gpu_config *c)
{
    const gpu_sm_config *sm = &c->sm;
    if (sm->warp_size != 32) {
        config_error(cx, "CONFIG-109", "sm", "warp_size",
                     "%u is not supported: the executor models 32-lane warps only",
                     sm->warp_size);
        return;
    }
    if ((uint64_t)sm->max_warps_per_sm * sm->warp_size != sm->max_threads_per_sm)
        config_error(cx, "CONFIG-114", "sm", "max_threads_per_sm",
                     "%u differs from sm.max_warps_per_sm x sm.warp_size (%llu)",
                     sm->max_threads_per_sm,
                     (unsigned long long)sm->max_warps_per_sm * sm->warp_size);
    if (sm->max_threads_per_cta > sm->max_threads_per_sm ||
        sm->max_threads_per_cta % sm->warp_size != 0)
        config_error(cx, "CONFIG-115", "sm", "max_threads_per_cta",
                     "%u must be a multiple of sm.warp_size no larger than "
                     "sm.max_threads_per_sm (%u)",
                     sm->max_threads_per_cta, sm->max_threads_per_sm);
    /* CONFIG-140: each tile gets the same number of SMs and L2 slices (tile scope, mem_lsc.c) */
    if (sm->tiles && (sm->count % sm->tiles || c->l2.slices % sm->tiles))
        config_error(cx, "CONFIG-140", "sm", "tiles",
                     "%u must divide sm.count (%u) and l2.slices (%u)", sm->tiles, sm->count,
                     c->l2.slices);
}

/* CONFIG-110..113, -116, -117: the L2 and its residency controls. */
static void validate_l2(check_context *cx, const gpu_config *c)
{
    const gpu_l2_config *l2 = &c->l2;
    validate_cache(cx, "l2", "size_bytes", l2->size_bytes, "line_bytes", l2->line_bytes, "ways",
                   l2->ways, "sector_bytes", l2->sector_bytes);
    if (l2->persisting_max_bytes > l2->size_bytes)
        config_error(cx, "CONFIG-110", "l2", "persisting_max_bytes",
                     "%llu exceeds l2.size_bytes (%llu)",
                     (unsigned long long)l2->persisting_max_bytes,
                     (unsigned long long)l2->size_bytes);
    uint64_t sets = gpu_config_l2_sets(c);
    if (l2->slices && sets && l2->size_bytes % ((uint64_t)l2->line_bytes * l2->ways) == 0 &&
        sets % l2->slices != 0)
        config_error(cx, "CONFIG-111", "l2", "slices", "%u does not divide the %llu L2 sets",
                     l2->slices, (unsigned long long)sets);
    /* Reported at slices, the key a file changes more often. */
    if (l2->partitions && l2->slices % l2->partitions != 0)
        config_error(cx, "CONFIG-112", "l2", "slices", "%u is not a multiple of l2.partitions (%u)",
                     l2->slices, l2->partitions);
    if (l2->dram_fill_bytes &&
        (l2->dram_fill_bytes < l2->sector_bytes || l2->dram_fill_bytes > l2->line_bytes))
        config_error(cx, "CONFIG-113", "l2", "dram_fill_bytes",
                     "%u must lie between l2.sector_bytes (%u) and l2.line_bytes (%u)",
                     l2->dram_fill_bytes, l2->sector_bytes, l2->line_bytes);
    if (c->latency.l2_far_hit_cycles < c->latency.l2_near_hit_cycles)
        config_error(cx, "CONFIG-116", "latency", "l2_far_hit_cycles",
                     "%u is below latency.l2_near_hit_cycles (%u)", c->latency.l2_far_hit_cycles,
                     c->latency.l2_near_hit_cycles);
    if (c->sm_version < 80 && l2->persisting_max_bytes)
        config_error(cx, "CONFIG-117", "l2", "persisting_max_bytes",
                     "a persisting set-aside needs sm_version 80 or later (is %u)",
                     c->sm_version);
    if (c->sm_version < 80 && l2->access_policy_max_window_bytes)
        config_error(cx, "CONFIG-117", "l2", "access_policy_max_window_bytes",
                     "access-policy windows need sm_version 80 or later (is %u)",
                     c->sm_version);
}

static int validate_with(check_context *cx, const gpu_config *c)
{
    size_t before = cx->errors;
    validate_strings(cx, c);
    validate_fields(cx, c);
    validate_sm(cx, c);
    validate_cache(cx, "l1", "unified_bytes", 0, "line_bytes", c->l1.line_bytes, "ways",
                   c->l1.ways, "sector_bytes", c->l1.sector_bytes);
    validate_carveouts(cx, c);
    validate_l2(cx, c);
    validate_cache(cx, "constant", "l1_bytes", c->constant.l1_bytes, "l1_line_bytes",
                   c->constant.l1_line_bytes, "l1_ways", c->constant.l1_ways, NULL, 0);
    validate_cache(cx, "constant", "l15_bytes", c->constant.l15_bytes, "l15_line_bytes",
                   c->constant.l15_line_bytes, "l15_ways", c->constant.l15_ways, NULL, 0);
    validate_cache(cx, "instruction", "l0_bytes", c->instruction.l0_bytes, "l0_line_bytes",
                   c->instruction.l0_line_bytes, "l0_ways", c->instruction.l0_ways, NULL, 0);
    validate_cache(cx, "instruction", "l1_bytes", c->instruction.l1_bytes, "l1_line_bytes",
                   c->instruction.l1_line_bytes, "l1_ways", c->instruction.l1_ways, NULL, 0);
    if (c->latency.dram_cycles && c->latency.dram_row_hit_cycles > c->latency.dram_cycles)
        config_error(cx, "CONFIG-125", "latency", "dram_row_hit_cycles",
                     "%u is above latency.dram_cycles (%u)", c->latency.dram_row_hit_cycles,
                     c->latency.dram_cycles);
    if (c->dram.row_bytes && c->dram.row_bytes < 256)
        config_error(cx, "CONFIG-126", "dram", "row_bytes",
                     "%u is smaller than the 256-byte channel interleave", c->dram.row_bytes);
    if (c->dram.page_bytes < c->l2.line_bytes)
        config_error(cx, "CONFIG-118", "dram", "page_bytes",
                     "%u is smaller than l2.line_bytes (%u)", c->dram.page_bytes,
                     c->l2.line_bytes);
    return cx->errors == before ? 0 : -1;
}

int gpu_config_validate(const gpu_config *c, const char *file, diag_list *dl)
{
    check_context cx = {file, dl, NULL, 0};
    return validate_with(&cx, c);
}

/* ---- keys that are not modelled yet (CONFIG-123) ---- */

static bool is_not_yet(const config_field *f)
{
    return f->model == GPU_KEY_NOT_MODELLED;
}

/* How many not-yet keys of `c` differ from `preset`. They are all numbers (the table has no
 * enum, string or array among them). */
static size_t not_yet_differences(const gpu_config *c, const gpu_config *preset)
{
    size_t n = 0;
    for (size_t i = 0; i < FIELD_COUNT; i++)
        n += is_not_yet(&config_fields[i]) &&
             field_number(c, &config_fields[i]) != field_number(preset, &config_fields[i]);
    return n;
}

/* The preset whose not-yet keys `c` shares: the preset of c's own name when it matches, else the
 * one with the fewest differences (the first of equals). Printed as "base", it makes the JSON
 * form of any accepted configuration load back. */
static const gpu_config *closest_preset(const gpu_config *c)
{
    const gpu_config *named =
        memchr(c->name, '\0', sizeof c->name) ? gpu_preset_find(c->name) : NULL;
    if (named && not_yet_differences(c, named) == 0)
        return named;
    const gpu_config *best = gpu_preset_at(0);
    size_t fewest = not_yet_differences(c, best);
    for (size_t i = 1; fewest && i < gpu_preset_count(); i++) {
        size_t n = not_yet_differences(c, gpu_preset_at(i));
        if (n < fewest) {
            fewest = n;
            best = gpu_preset_at(i);
        }
    }
    return best;
}

/* CONFIG-123: a key the simulator does not model yet must keep the value of the preset the
 * override starts from, so that no setting is accepted and then silently ignored. (CONFIG-124,
 * the same for keys only the timing model would read, is retired: the model reads them all.) */
static void check_not_yet_keys(check_context *cx, const gpu_config *c, const gpu_config *base)
{
    for (size_t i = 0; i < FIELD_COUNT; i++) {
        const config_field *f = &config_fields[i];
        uint64_t value = field_number(c, f), expected = field_number(base, f);
        if (!is_not_yet(f) || value == expected)
            continue;
        config_error(cx, "CONFIG-123", f->section, f->key,
                     "%llu differs from %s's value (%llu); %s is not modelled yet",
                     (unsigned long long)value, base->name, (unsigned long long)expected,
                     f->missing);
    }
}

int gpu_config_key_model(const char *path, gpu_key_model *model)
{
    for (size_t i = 0; path && i < FIELD_COUNT; i++) {
        const config_field *f = &config_fields[i];
        size_t section_length = f->section ? strlen(f->section) : 0;
        bool same = f->section ? strncmp(path, f->section, section_length) == 0 &&
                                     path[section_length] == '.' &&
                                     strcmp(path + section_length + 1, f->key) == 0
                               : strcmp(path, f->key) == 0;
        if (same) {
            *model = f->model;
            return 0;
        }
    }
    return -1;
}

/* ---- small queries ---- */

uint32_t gpu_config_l1_data_bytes(const gpu_config *c, uint32_t shared_carveout_bytes)
{
    return shared_carveout_bytes > c->l1.unified_bytes
               ? 0
               : c->l1.unified_bytes - shared_carveout_bytes;
}

int gpu_config_pick_carveout(const gpu_config *c, uint32_t shared_bytes, uint32_t *carveout_bytes)
{
    uint32_t count = c->l1.shared_carveout_count;
    if (count > GPU_MAX_SHARED_CARVEOUTS)
        count = GPU_MAX_SHARED_CARVEOUTS;
    for (uint32_t i = 0; i < count; i++) {
        if (c->l1.shared_carveouts_bytes[i] >= shared_bytes) {
            *carveout_bytes = c->l1.shared_carveouts_bytes[i];
            return 0;
        }
    }
    return -1;
}

uint64_t gpu_config_l2_sets(const gpu_config *c)
{
    uint64_t set_bytes = (uint64_t)c->l2.line_bytes * c->l2.ways;
    return set_bytes ? c->l2.size_bytes / set_bytes : 0;
}

bool gpu_config_equal(const gpu_config *a, const gpu_config *b)
{
    for (size_t i = 0; i < FIELD_COUNT; i++) {
        const config_field *f = &config_fields[i];
        const char *pa = (const char *)a + f->offset;
        const char *pb = (const char *)b + f->offset;
        if (f->kind == KIND_STRING) {
            if (strncmp(pa, pb, f->size) != 0)
                return false;
        } else if (f->kind == KIND_CARVEOUTS) {
            if (a->l1.shared_carveout_count != b->l1.shared_carveout_count)
                return false;
            uint32_t n = a->l1.shared_carveout_count;
            if (n > GPU_MAX_SHARED_CARVEOUTS)
                n = GPU_MAX_SHARED_CARVEOUTS;
            if (memcmp(pa, pb, n * sizeof(uint32_t)) != 0)
                return false;
        } else if (field_number(a, f) != field_number(b, f)) {
            return false;
        }
    }
    return true;
}

/* ---- printing ---- */

static json_t *field_to_json(const gpu_config *c, const config_field *f)
{
    const char *p = (const char *)c + f->offset;
    size_t names_count;
    const char *const *names = enum_names(f->kind, &names_count);
    if (names) {
        uint64_t v = field_number(c, f);
        return v < names_count ? json_string(names[v]) : NULL;
    }
    switch (f->kind) {
    case KIND_U32: return json_integer((json_int_t)field_number(c, f));
    case KIND_U64:
        return field_number(c, f) > (uint64_t)INT64_MAX
                   ? NULL
                   : json_integer((json_int_t)field_number(c, f));
    case KIND_BOOL: return json_boolean(field_number(c, f));
    case KIND_STRING: return json_stringn(p, strnlen(p, f->size));
    case KIND_CARVEOUTS: {
        json_t *array = json_array();
        uint32_t n = c->l1.shared_carveout_count;
        if (n > GPU_MAX_SHARED_CARVEOUTS)
            n = GPU_MAX_SHARED_CARVEOUTS;
        for (uint32_t i = 0; array && i < n; i++) {
            if (json_array_append_new(array, json_integer(c->l1.shared_carveouts_bytes[i]))) {
                json_decref(array);
                return NULL;
            }
        }
        return array;
    }
    default: return NULL;
    }
}

char *gpu_config_to_json(const gpu_config *c)
{
    json_t *root = json_object();
    if (!root || json_object_set_new(root, "base", json_string(closest_preset(c)->name)) != 0) {
        json_decref(root);
        return NULL;
    }
    for (size_t i = 0; i < FIELD_COUNT; i++) {
        const config_field *f = &config_fields[i];
        json_t *target = root;
        if (f->section) {
            target = json_object_get(root, f->section);
            if (!target) {
                target = json_object();
                if (json_object_set_new(root, f->section, target) != 0)
                    target = NULL;
            }
        }
        json_t *value = field_to_json(c, f);
        if (!target || !value || json_object_set_new(target, f->key, value) != 0) {
            json_decref(value);
            json_decref(root);
            return NULL;
        }
    }
    char *text = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2));
    json_decref(root);
    return text;
}

/* ---- loading (CONFIG-0xx) ---- */

#define MAX_OVERRIDE_BYTES (1024 * 1024)

/* Reads the whole file into a malloc'd buffer: a regular file of at most 1 MiB, so that a FIFO or
 * a device never blocks or floods the reader. Returns NULL after adding CONFIG-001. */
static char *read_file(const char *path, size_t *length, diag_list *dl)
{
    file_error e;
    char *text = file_read_all(path, MAX_OVERRIDE_BYTES, length, &e);
    if (text)
        return text;
    char why[160];
    file_error_text(&e, why, sizeof why);
    if (e.status == FILE_ERR_OPEN)
        diag_add(dl, DIAG_ERROR, "CONFIG-001", path, 0, 0, "cannot open the file: %s", why);
    else if (e.status == FILE_ERR_TOO_LARGE)
        diag_add(dl, DIAG_ERROR, "CONFIG-001", path, 0, 0, "the file is larger than 1 MiB");
    else if (e.status == FILE_ERR_NOT_REGULAR)
        diag_add(dl, DIAG_ERROR, "CONFIG-001", path, 0, 0, "the file is %s", why);
    else
        diag_add(dl, DIAG_ERROR, "CONFIG-001", path, 0, 0, "cannot read the file: %s", why);
    return NULL;
}

/* Reads a JSON integer into 0..max. Adds CONFIG-007 or -008 and returns false otherwise. */
static bool json_to_unsigned(check_context *cx, const char *section, const char *key,
                             const json_t *value, uint64_t max, uint64_t *out)
{
    if (!json_is_integer(value)) {
        config_error(cx, "CONFIG-007", section, key, "expected an integer");
        return false;
    }
    json_int_t v = json_integer_value(value);
    if (v < 0 || (uint64_t)v > max) {
        config_error(cx, "CONFIG-008", section, key, "%lld is out of range 0..%llu",
                     (long long)v, (unsigned long long)max);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

static void apply_carveouts(check_context *cx, gpu_config *out, const config_field *f,
                            const json_t *value)
{
    if (!json_is_array(value)) {
        config_error(cx, "CONFIG-007", f->section, f->key, "expected an array of integers");
        return;
    }
    size_t n = json_array_size(value);
    if (n > GPU_MAX_SHARED_CARVEOUTS) {
        config_error(cx, "CONFIG-011", f->section, f->key, "has %zu entries; at most %d allowed",
                     n, GPU_MAX_SHARED_CARVEOUTS);
        return;
    }
    uint32_t carveouts[GPU_MAX_SHARED_CARVEOUTS] = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        if (!json_to_unsigned(cx, f->section, f->key, json_array_get(value, i), UINT32_MAX, &v))
            return;
        carveouts[i] = (uint32_t)v;
    }
    memcpy(out->l1.shared_carveouts_bytes, carveouts, sizeof carveouts);
    out->l1.shared_carveout_count = (uint32_t)n;
}

static void apply_enum(check_context *cx, gpu_config *out, const config_field *f,
                       const json_t *value)
{
    size_t names_count;
    const char *const *names = enum_names(f->kind, &names_count);
    if (!json_is_string(value)) {
        config_error(cx, "CONFIG-007", f->section, f->key, "expected a string");
        return;
    }
    const char *s = json_string_value(value);
    char allowed[128] = "";
    for (size_t i = 0; i < names_count; i++) {
        if (strcmp(s, names[i]) == 0) {
            set_field_number(out, f, i);
            return;
        }
        size_t used = strlen(allowed);
        snprintf(allowed + used, sizeof allowed - used, "%s\"%s\"", i ? ", " : "", names[i]);
    }
    config_error(cx, "CONFIG-009", f->section, f->key, "unknown value \"%.64s\" (allowed: %s)", s,
                 allowed);
}

static void apply_field(check_context *cx, gpu_config *out, const config_field *f,
                        const json_t *value)
{
    uint64_t v;
    switch (f->kind) {
    case KIND_U32:
        if (json_to_unsigned(cx, f->section, f->key, value, UINT32_MAX, &v))
            set_field_number(out, f, v);
        break;
    case KIND_U64:
        if (json_to_unsigned(cx, f->section, f->key, value, (uint64_t)INT64_MAX, &v))
            set_field_number(out, f, v);
        break;
    case KIND_BOOL:
        if (!json_is_boolean(value))
            config_error(cx, "CONFIG-007", f->section, f->key, "expected true or false");
        else
            set_field_number(out, f, json_is_true(value));
        break;
    case KIND_STRING: {
        if (!json_is_string(value)) {
            config_error(cx, "CONFIG-007", f->section, f->key, "expected a string");
            break;
        }
        size_t n = json_string_length(value);
        if (n >= f->size) {
            config_error(cx, "CONFIG-010", f->section, f->key,
                         "is %zu bytes long; at most %zu allowed", n, f->size - 1);
            break;
        }
        char *p = (char *)out + f->offset;
        memset(p, 0, f->size);
        memcpy(p, json_string_value(value), n);
        break;
    }
    case KIND_CARVEOUTS: apply_carveouts(cx, out, f, value); break;
    default: apply_enum(cx, out, f, value); break;
    }
}

/* Applies every key of one section object. */
static void apply_section(check_context *cx, gpu_config *out, const char *section,
                          json_t *object)
{
    const char *key;
    json_t *value;
    json_object_foreach(object, key, value) {
        if (cx->errors >= MAX_LOAD_ERRORS)
            return;
        const config_field *f = find_field(section, key);
        if (f)
            apply_field(cx, out, f, value);
        else
            config_error(cx, "CONFIG-006", section, key, "unknown key");
    }
}

static void apply_root(check_context *cx, gpu_config *out, json_t *root)
{
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        if (cx->errors >= MAX_LOAD_ERRORS) {
            diag_add(cx->dl, DIAG_ERROR, "CONFIG-013", cx->file, 0, 0,
                     "too many errors; the remaining keys were not checked");
            return;
        }
        const config_field *f = find_field(NULL, key);
        if (strcmp(key, "base") == 0)
            continue;
        if (f)
            apply_field(cx, out, f, value);
        else if (!is_section(key))
            config_error(cx, "CONFIG-006", NULL, key, "unknown key");
        else if (!json_is_object(value))
            config_error(cx, "CONFIG-007", NULL, key, "expected an object");
        else
            apply_section(cx, out, key, value);
    }
}

/* Picks the base preset named by "base" (default: the default preset). */
static const gpu_config *choose_base(check_context *cx, json_t *root)
{
    json_t *base = json_object_get(root, "base");
    if (!base)
        return gpu_preset_default();
    if (!json_is_string(base)) {
        config_error(cx, "CONFIG-007", NULL, "base", "expected a preset name");
        return NULL;
    }
    const gpu_config *preset = gpu_preset_find(json_string_value(base));
    if (!preset) {
        char names[128] = "";
        for (size_t i = 0; i < gpu_preset_count(); i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                     gpu_preset_at(i)->name);
        }
        config_error(cx, "CONFIG-005", NULL, "base", "no preset \"%.64s\" (presets: %s)",
                     json_string_value(base), names);
    }
    return preset;
}

static void report_syntax_error(const char *path, const json_error_t *error, diag_list *dl)
{
    enum json_error_code code = json_error_code(error);
    const char *rule = code == json_error_duplicate_key ? "CONFIG-003"
                       : code == json_error_out_of_memory ? "CONFIG-012"
                                                          : "CONFIG-002";
    unsigned line = error->line > 0 ? (unsigned)error->line : 0;
    unsigned col = error->column > 0 ? (unsigned)error->column : 0;
    diag_add(dl, DIAG_ERROR, rule, path, line, col, "%s", error->text);
}

int gpu_config_parse_override(const char *text, size_t length, const char *file,
                              gpu_config *out, diag_list *dl)
{
    if (!file)
        file = "";
    json_error_t error;
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
    if (!root) {
        report_syntax_error(file, &error, dl);
        return -1;
    }
    key_index index = {NULL, 0, 0};
    check_context cx = {file, dl, &index, 0};
    if (!key_index_build(&index, text, length)) {
        diag_add(dl, DIAG_ERROR, "CONFIG-012", file, 0, 0, "out of memory");
        cx.errors++;
    } else if (!json_is_object(root)) {
        diag_add(dl, DIAG_ERROR, "CONFIG-004", file, 0, 0, "the top level must be an object");
        cx.errors++;
    } else {
        const gpu_config *base = choose_base(&cx, root);
        if (base) {
            memcpy(out, base, sizeof *out);
            apply_root(&cx, out, root);
            if (cx.errors == 0)
                check_not_yet_keys(&cx, out, base);
            if (cx.errors == 0)
                validate_with(&cx, out);
        }
    }
    key_index_fini(&index);
    json_decref(root);
    return cx.errors ? -1 : 0;
}

int gpu_config_load_override(const char *path, gpu_config *out, diag_list *dl)
{
    size_t length = 0;
    char *text = read_file(path, &length, dl);
    if (!text)
        return -1;
    int status = gpu_config_parse_override(text, length, path, out, dl);
    free(text);
    return status;
}
