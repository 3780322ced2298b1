/* GPU configuration: the geometry, policies and latencies of one modelled GPU.
 *
 * A gpu_config is plain data. The executor (exec/) reads the SM limits from it and the memory
 * system (mem/) reads cache geometry, write and replacement policies, L2 slicing and residency
 * limits, and the latencies of every level. Eight built-in presets exist (presets.c); a user
 * override file (JSON) starts from one of them and replaces individual keys. This module does not
 * model anything itself: it only describes, checks, reads and writes configurations.
 *
 * Units are in the field names: *_bytes are bytes, *_cycles are SM clock cycles. All sizes in
 * KiB/MiB in the comments are binary (1 KiB = 1024 B).
 *
 * The JSON key of every field is "<section>.<field>" with the section and field names exactly as
 * in the structs below (for example "l2.size_bytes"); "name", "description" and "sm_version" are
 * top-level keys. docs/presets.md documents every key and lists the value per preset. */
#ifndef GMS_CONFIG_GPU_CONFIG_H
#define GMS_CONFIG_GPU_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

#define GPU_CONFIG_NAME_BYTES 32         /* name buffer, including the NUL */
#define GPU_CONFIG_DESCRIPTION_BYTES 160 /* description buffer, including the NUL */
#define GPU_MAX_SHARED_CARVEOUTS 16      /* longest list of allowed shared carve-outs */

/* How a cache treats a store. Write-through sends every store to the next level at once;
 * write-back keeps dirty sectors until eviction or an explicit write-back. */
typedef enum gpu_write_policy {
    GPU_WRITE_THROUGH, /* JSON "write_through" */
    GPU_WRITE_BACK     /* JSON "write_back" */
} gpu_write_policy;

/* Victim choice inside one set. Eviction-priority classes (evict_first, normal, evict_last /
 * persisting) are always applied first; the policy named here orders lines within a class. */
typedef enum gpu_replacement {
    GPU_REPLACEMENT_LRU /* JSON "lru": least recently used within the lowest-priority class */
} gpu_replacement;

/* How an L2 line address picks its slice. */
typedef enum gpu_slice_hash {
    GPU_SLICE_HASH_MODULO,  /* JSON "modulo": line index modulo the slice count */
    GPU_SLICE_HASH_XOR_FOLD /* JSON "xor_fold": higher line-index bits XOR-folded into the
                               slice index, so power-of-two strides spread over slices */
} gpu_slice_hash;

/* Streaming multiprocessor limits (JSON section "sm"). */
typedef struct gpu_sm_config {
    uint32_t count;               /* SMs on the device */
    uint32_t warp_size;           /* lanes per warp; the executor supports 32 only */
    uint32_t max_threads_per_sm;  /* resident threads per SM */
    uint32_t max_ctas_per_sm;     /* resident CTAs per SM */
    uint32_t max_warps_per_sm;    /* resident warps per SM */
    uint32_t registers_per_sm;    /* 32-bit registers per SM */
    uint32_t max_threads_per_cta; /* threads in one CTA */
    uint32_t tiles;               /* tiles (Intel stacks) the SMs and the L2 slices are split
                                     over, evenly and in order; 1 for a one-die GPU. Intel LSC
                                     tile-scope fences reach one tile's L1s and L2 slices */
    uint32_t schedulers;          /* warp schedulers (sub-partitions) per SM, each issuing at
                                     most one warp instruction per cycle (timing model) */
    uint32_t clock_mhz;           /* SM clock in MHz: converts cycles to seconds and bytes per
                                     cycle to GB/s (timing model) */
} gpu_sm_config;

/* Per-SM L1 data cache and the shared memory carved out of the same storage (JSON "l1").
 * The L1 data capacity for a launch is unified_bytes minus the chosen shared carve-out. */
typedef struct gpu_l1_config {
    uint32_t unified_bytes;                                    /* L1 + shared storage per SM */
    uint32_t shared_carveouts_bytes[GPU_MAX_SHARED_CARVEOUTS]; /* allowed carve-outs, ascending */
    uint32_t shared_carveout_count;        /* valid entries above; JSON: the array length */
    uint32_t default_shared_carveout_bytes;  /* carve-out when a launch names none */
    uint32_t max_shared_per_cta_bytes;       /* largest dynamic + static shared of one CTA */
    uint32_t shared_reserved_per_cta_bytes;  /* shared memory the system reserves per CTA */
    uint32_t line_bytes;                     /* tag granularity */
    uint32_t sector_bytes;                   /* fill and valid/dirty granularity */
    uint32_t ways;                           /* associativity */
    gpu_replacement replacement;
    bool cache_global_loads;           /* plain global loads allocate in L1; when false only loads
                                          that ask for L1 (explicit .ca, the non-coherent
                                          read-only path) allocate there */
    gpu_write_policy global_store_policy; /* global stores */
    bool global_store_allocate;           /* a global store miss allocates a line */
    gpu_write_policy local_store_policy;  /* local-memory stores (register spills, stack) */
    /* The L1/shared pipeline of the timing model (docs/timing.md, "Memory"). */
    uint32_t tags_per_cycle;    /* 128-byte lines whose tags the L1 looks up per SM cycle */
    uint32_t sectors_per_cycle; /* sectors the tag stage passes per SM cycle */
    uint32_t mshrs;             /* lines an SM's L1 may have in flight to the L2 (misses to
                                   a line already in flight merge into its entry) */
} gpu_l1_config;

/* Shared-memory banks (JSON "shared"). */
typedef struct gpu_shared_config {
    uint32_t banks;            /* banks serving one wavefront */
    uint32_t bank_width_bytes; /* bytes each bank delivers per wavefront */
} gpu_shared_config;

/* The device-wide L2 (JSON "l2"). */
typedef struct gpu_l2_config {
    uint64_t size_bytes;
    uint32_t line_bytes;
    uint32_t sector_bytes;
    uint32_t ways;
    uint32_t slices;          /* independent banks of sets; must divide the set count */
    gpu_slice_hash slice_hash;
    uint32_t partitions;      /* near/far partitions (2 on A100/H100); must divide slices */
    uint32_t dram_fill_bytes; /* bytes one L2 miss fetches from DRAM by default */
    gpu_replacement replacement;
    gpu_write_policy write_policy;
    uint64_t persisting_max_bytes;           /* largest persisting set-aside; 0: unsupported */
    uint64_t access_policy_max_window_bytes; /* largest access-policy window; 0: unsupported */
    uint32_t slice_bytes_per_cycle; /* bytes one slice reads or writes per SM cycle (timing) */
} gpu_l2_config;

/* Constant caches: a small per-SM L1 and a larger L1.5 behind it (JSON "constant"). */
typedef struct gpu_constant_config {
    uint32_t l1_bytes;
    uint32_t l1_line_bytes;
    uint32_t l1_ways;
    uint32_t l15_bytes;
    uint32_t l15_line_bytes; /* also the fetch granularity from L2 */
    uint32_t l15_ways;
} gpu_constant_config;

/* Instruction caches: L0 per SM sub-partition and L1 per SM (JSON "instruction"). */
typedef struct gpu_instruction_config {
    uint32_t l0_bytes;
    uint32_t l0_line_bytes;
    uint32_t l0_ways;
    uint32_t l1_bytes;
    uint32_t l1_line_bytes;
    uint32_t l1_ways;
} gpu_instruction_config;

/* Call-return-stack cache: the on-SM top of each warp's call-return stack; deeper entries spill
 * to local memory through L1 (JSON "crs"). */
typedef struct gpu_crs_config {
    uint32_t entries_per_warp; /* stack entries kept on the SM per warp */
    uint32_t entry_bytes;      /* bytes one entry occupies when spilled */
} gpu_crs_config;

/* Device memory as the simulator stores it (JSON "dram"). */
typedef struct gpu_dram_config {
    uint32_t page_bytes; /* allocation unit of the sparse backing store (not a DRAM row) */
    /* DRAM as the timing model sees it (docs/timing.md, "Memory"): independent channels that
     * share the device bandwidth evenly, each with banks holding one open row. */
    uint32_t channels;          /* independent channels (memory controllers) */
    uint32_t bytes_per_cycle;   /* bandwidth of all channels together, bytes per SM cycle */
    uint32_t banks_per_channel; /* banks per channel, one open row each */
    uint32_t row_bytes;         /* bytes of one row (page) of a bank */
} gpu_dram_config;

/* Load-to-use latencies for the timing model, SM clock cycles (JSON "latency"). */
typedef struct gpu_latency_config {
    uint32_t l1_hit_cycles;
    uint32_t shared_load_cycles;          /* conflict-free shared load */
    uint32_t shared_conflict_step_cycles; /* added per extra wavefront of a bank conflict */
    uint32_t l2_near_hit_cycles;          /* hit in the SM's own L2 partition */
    uint32_t l2_far_hit_cycles;           /* hit in the other partition; = near when one */
    uint32_t dram_cycles;                 /* a DRAM access that opens a new row (the pointer
                                             chase's random accesses) */
    uint32_t dram_row_hit_cycles;         /* a DRAM access to its bank's open row */
    uint32_t constant_l1_hit_cycles;
    uint32_t constant_l15_hit_cycles;
} gpu_latency_config;

/* Execution pipes of one SM sub-partition (warp scheduler) for the timing model (JSON "pipe";
 * docs/timing.md, "Pipes"; src/timing/timing_class.c says which instructions use which pipe).
 * *_latency_cycles: from the issue of an instruction until a dependent one may issue (for mem:
 * until the instruction has read its source registers and handed the access to the memory
 * pipeline, the read scoreboard's clear; mem_shared for shared-memory accesses).
 * *_interval_cycles: cycles the pipe is busy with one warp instruction, 32 lanes over the
 * lanes it takes per cycle (a 16-lane pipe: 2). */
typedef struct gpu_pipe_config {
    uint32_t int_latency_cycles;    /* integer and logic ALU, moves, predicates */
    uint32_t int_interval_cycles;
    uint32_t fp32_latency_cycles;   /* single and half precision */
    uint32_t fp32_interval_cycles;
    uint32_t fp64_latency_cycles;   /* double precision */
    uint32_t fp64_interval_cycles;
    uint32_t sfu_latency_cycles;    /* MUFU, conversions, divisions, warp shuffles */
    uint32_t sfu_interval_cycles;
    uint32_t tensor_latency_cycles; /* one m16n8k16 f16 MMA; other shapes scale with m*n*k */
    uint32_t tensor_interval_cycles;
    uint32_t branch_latency_cycles; /* branches, calls, barriers, fences */
    uint32_t branch_interval_cycles;
    uint32_t mem_latency_cycles;    /* global, local, constant, texture, surface accesses */
    uint32_t mem_shared_latency_cycles;
    uint32_t mem_interval_cycles;
} gpu_pipe_config;

typedef struct gpu_config {
    char name[GPU_CONFIG_NAME_BYTES];               /* [a-z0-9_.-]+, e.g. "h100" */
    char description[GPU_CONFIG_DESCRIPTION_BYTES]; /* one line for `gpumemsim presets` */
    uint32_t sm_version;                            /* compute capability x 10, e.g. 90 */
    gpu_sm_config sm;
    gpu_l1_config l1;
    gpu_shared_config shared;
    gpu_l2_config l2;
    gpu_constant_config constant;
    gpu_instruction_config instruction;
    gpu_crs_config crs;
    gpu_dram_config dram;
    gpu_latency_config latency;
    gpu_pipe_config pipe;
} gpu_config;

/* What the simulator does with a key today (docs/presets.md, "Which keys are modelled"). A key
 * that is not modelled yet may only hold its base preset's value: the override loader rejects
 * any other value (CONFIG-123) instead of accepting a setting that changes nothing. */
typedef enum gpu_key_model {
    GPU_KEY_MODELLED,     /* changing it changes what a kernel run counts, computes or accepts */
    GPU_KEY_DESCRIPTIVE,  /* names the GPU or sizes the simulator's own storage; changes no
                             statistic or value by design (name, description, sm_version,
                             dram.page_bytes) */
    GPU_KEY_FIXED,        /* modelled, but only one value exists and a rule rejects the others
                             (sm.warp_size: CONFIG-109; l1/l2.replacement: CONFIG-009) */
    GPU_KEY_NOT_MODELLED  /* not modelled yet: a value other than the base's is CONFIG-123
                             (CONFIG-124, the timing model's not-yet group, is retired) */
} gpu_key_model;

/* ---- presets (presets.c; values and sources in docs/presets.md) ---- */

/* Returns the built-in preset called `name` (borrowed, exact lower-case match: "h100", "a100",
 * "v100", "t4", "gtx980", and the Intel Xe "pvc", "pvc-2t", "acm-g10"), or NULL when there is
 * none or name is NULL. The result is static. */
const gpu_config *gpu_preset_find(const char *name);
/* Number of built-in presets (8). */
size_t gpu_preset_count(void);
/* Preset number i in listing order (h100 first), or NULL when i >= gpu_preset_count(). */
const gpu_config *gpu_preset_at(size_t i);
/* The default preset, h100. Never NULL. */
const gpu_config *gpu_preset_default(void);

/* ---- checking, reading and writing ---- */

/* Checks that `c` (borrowed) describes a GPU the simulator can model. Every violation adds one
 * error to `dl` whose message starts with the JSON key (a rule broken by several carve-outs is
 * reported once, for the first), with `file` (borrowed, may be NULL) as its location and
 * line/column 0. Returns 0 when `c` is valid, -1 when at least one error was added.
 * Rules (docs/presets.md, "Validation rules"):
 *   CONFIG-101 a count, size or latency that must be positive is 0
 *   CONFIG-102 a line, sector, bank, fill, page or entry size is not a power of two
 *   CONFIG-103 a sector is larger than its line
 *   CONFIG-104 a cache capacity is not a multiple of line_bytes x ways (for the L1: for some
 *              allowed carve-out)
 *   CONFIG-105 a shared carve-out is not smaller than l1.unified_bytes
 *   CONFIG-106 l1.default_shared_carveout_bytes is not one of the allowed carve-outs
 *   CONFIG-107 the carve-out list is empty, too long, or not strictly ascending
 *   CONFIG-108 max_shared_per_cta_bytes + shared_reserved_per_cta_bytes exceeds the largest
 *              carve-out
 *   CONFIG-109 sm.warp_size is not 32 (the executor models 32-lane warps only)
 *   CONFIG-110 l2.persisting_max_bytes exceeds l2.size_bytes
 *   CONFIG-111 l2.slices does not divide the number of L2 sets
 *   CONFIG-112 l2.slices is not a multiple of l2.partitions
 *   CONFIG-113 l2.dram_fill_bytes is smaller than an L2 sector or larger than an L2 line
 *   CONFIG-114 sm.max_threads_per_sm differs from max_warps_per_sm x warp_size
 *   CONFIG-115 sm.max_threads_per_cta exceeds max_threads_per_sm or is not a multiple of
 *              warp_size
 *   CONFIG-116 latency.l2_far_hit_cycles is below latency.l2_near_hit_cycles
 *   CONFIG-117 a persisting set-aside or access-policy window on sm_version below 80
 *   CONFIG-118 dram.page_bytes is smaller than l2.line_bytes
 *   CONFIG-119 name is empty or has characters outside [a-z0-9_.-], the description holds a
 *              control character, or a string is not NUL-terminated within its buffer
 *   CONFIG-120 an enumeration field holds a value outside its enum
 *   CONFIG-121 a value above the largest the simulator supports (e.g. sm.count > 4096, a line
 *              above 4096 bytes, a cache above 16 MiB, l2.size_bytes above 16 GiB)
 *   CONFIG-122 more than 64 sectors per line (l1 or l2)
 *   CONFIG-125 latency.dram_row_hit_cycles is above latency.dram_cycles
 *   CONFIG-126 dram.row_bytes is smaller than the 256-byte channel interleave
 *   CONFIG-140 sm.tiles does not divide sm.count or l2.slices */
int gpu_config_validate(const gpu_config *c, const char *file, diag_list *dl);

/* Reads the JSON override file at `path` (borrowed) into `out` (OUT, caller storage). The file
 * is one object: an optional "base" naming a preset (default "h100"), then any of the keys that
 * gpu_config_to_json prints, nested by section, each replacing the base value. The result is
 * then checked with the rules of gpu_config_validate; their diagnostics point at the key's line
 * and column when the key appears in the file. Returns 0 on success, -1 on any error (then `out`
 * holds the base with the keys applied so far and must not be used). Errors added to `dl`:
 *   CONFIG-001 the file cannot be opened or read, or is larger than 1 MiB
 *   CONFIG-002 JSON syntax error (at the line:column jansson reports)
 *   CONFIG-003 a key is repeated in one object
 *   CONFIG-004 the top level is not an object
 *   CONFIG-005 "base" names no preset
 *   CONFIG-006 unknown key (the message gives its full path, e.g. "l2.sise_bytes")
 *   CONFIG-007 wrong JSON type for a key (e.g. a string where an integer is expected)
 *   CONFIG-008 integer out of range for the key (negative, or above 2^32-1 for 32-bit keys)
 *   CONFIG-009 unknown enumeration value (the message lists the allowed ones)
 *   CONFIG-010 string longer than its buffer (name 31, description 159 bytes)
 *   CONFIG-011 carve-out array longer than GPU_MAX_SHARED_CARVEOUTS
 *   CONFIG-012 out of memory while parsing
 *   CONFIG-013 more than 100 errors: the remaining keys were not checked
 *   CONFIG-123 a key that is not modelled yet (GPU_KEY_NOT_MODELLED) differs from the base
 *   and every CONFIG-1xx rule of gpu_config_validate (checked only when the rules above held).
 * CONFIG-123 compares with the base preset ("base", or the default preset without it). */
int gpu_config_load_override(const char *path, gpu_config *out, diag_list *dl);

/* The same as gpu_config_load_override for override text already in memory: `text` (borrowed,
 * `length` bytes, need not be NUL-terminated) is parsed as the file `file` (borrowed, used only
 * in diagnostics; NULL means ""). For callers that embed an override in another document and
 * for fuzzing. Returns 0 or -1 with the same rules except CONFIG-001 (no size limit here). */
int gpu_config_parse_override(const char *text, size_t length, const char *file,
                              gpu_config *out, diag_list *dl);

/* Prints `c` (borrowed) as pretty-printed JSON (two-space indent, keys sorted), with every key
 * the override file takes, so the text loads back into an identical struct. "base" names the
 * preset whose not-modelled keys (GPU_KEY_NOT_MODELLED) `c` shares: the
 * preset of c's name when it matches, else the one with the fewest differences; a `c` that
 * matches none (only possible for structs built in code) prints but does not load back.
 * Returns a malloc'd NUL-terminated string the caller frees, or NULL when out of memory or when
 * an enumeration field holds a value outside its enum. */
char *gpu_config_to_json(const gpu_config *c);

/* Field-by-field equality of two configurations (strings compared up to their NUL). */
bool gpu_config_equal(const gpu_config *a, const gpu_config *b);

/* L1 data capacity in bytes when `shared_carveout_bytes` of the unified storage is shared
 * memory: unified_bytes minus the carve-out, or 0 when the carve-out is larger. */
uint32_t gpu_config_l1_data_bytes(const gpu_config *c, uint32_t shared_carveout_bytes);

/* The smallest allowed carve-out that holds `shared_bytes` of shared memory per SM, written to
 * *carveout_bytes (OUT). Returns 0, or -1 when no allowed carve-out is large enough. */
int gpu_config_pick_carveout(const gpu_config *c, uint32_t shared_bytes,
                             uint32_t *carveout_bytes);

/* Number of L2 sets (size_bytes / (line_bytes x ways)); 0 when line_bytes or ways is 0. */
uint64_t gpu_config_l2_sets(const gpu_config *c);

/* What the simulator does with the key `path` (borrowed; "l2.slice_hash", "name": the JSON
 * path as gpu_config_to_json prints it, sections joined with a dot), written to *model (OUT).
 * Returns 0, or -1 when no key has that path. */
int gpu_config_key_model(const char *path, gpu_key_model *model);

/* JSON spelling of an enum value ("write_back", "lru", "xor_fold"), or NULL when out of range. */
const char *gpu_write_policy_name(gpu_write_policy p);
const char *gpu_replacement_name(gpu_replacement r);
const char *gpu_slice_hash_name(gpu_slice_hash h);

#endif
