/* The built-in GPU presets, as data: five NVIDIA GPUs and three Intel Xe ones.
 *
 * Every number carries a comment naming the row of shared/reference/gpu-figures.md it comes from
 * (section number and row title), or "assumption:" with the reason when the figures do not give
 * it. Where the figures list several candidates, the comment says which one was taken and why.
 * Sizes written "KB" in the figures are binary (1 KB = 1024 B), as in the CUDA guide they quote.
 * This file holds no logic beyond lookup; the meaning of each field is in gpu_config.h and
 * docs/presets.md, the checks in gpu_config.c. */
#include "config/gpu_config.h"

#include <string.h>

#define KIB(n) ((uint32_t)(n) * 1024u)

/* Intel Xe presets (§7). An Xe-core is the model's SM: its L1 and its SLM (the model's shared
 * memory) share one block of storage; the GPU-wide L2 is what LSC cache controls call L3. A vISA
 * thread is the model's warp (32 lanes at most). §7 gives few numbers: every other one is an
 * assumption, listed with its reason in docs/presets.md, "Xe presets". Latencies are
 * placeholders until someone measures them (§7 "PVC and A770 latencies": not extracted). */
#define XE_SM(n_cores, n_tiles, hw_threads, grf_dwords, mhz)                                      \
    .count = n_cores, .warp_size = 32, /* assumption: the executor's warp, = SIMD32 */        \
    .max_threads_per_sm = (hw_threads) * 32, .max_ctas_per_sm = 64, /* assumption */            \
    /* assumption: 128 GRF registers per thread of grf_dwords 32-bit words each */              \
    .max_warps_per_sm = hw_threads, .registers_per_sm = (hw_threads) * 128 * (grf_dwords),      \
    .max_threads_per_cta = 1024, /* assumption: OpenCL's largest work-group on Xe */            \
    .tiles = n_tiles, .schedulers = (hw_threads) / 8, /* assumption: one per vector engine */     \
    .clock_mhz = mhz
/* Things the three share: 64 B lines without sectors, write-back L2 and placeholder latencies. */
#define XE_CONSTANT {.l1_bytes = KIB(4), .l1_line_bytes = 64, .l1_ways = 4, .l15_bytes = KIB(64), \
                     .l15_line_bytes = 64, .l15_ways = 8}
#define XE_INSTRUCTION {.l0_bytes = KIB(16), .l0_line_bytes = 64, .l0_ways = 4,                  \
                        .l1_bytes = KIB(64), .l1_line_bytes = 64, .l1_ways = 8}
#define XE_LATENCY {.l1_hit_cycles = 60, .shared_load_cycles = 40,                               \
                    .shared_conflict_step_cycles = 2, .l2_near_hit_cycles = 300,              \
                    .l2_far_hit_cycles = 300, .dram_cycles = 700, .dram_row_hit_cycles = 660,    \
                    .constant_l1_hit_cycles = 60, .constant_l15_hit_cycles = 300}
/* Timing-model rates: no Xe figure in §7; the h100 preset's per-SM values are reused as
 * placeholders (assumption), DRAM sized per preset below. */
#define XE_L1_TIMING .tags_per_cycle = 4, .sectors_per_cycle = 16, .mshrs = 256
#define XE_PIPE {.int_latency_cycles = 4, .int_interval_cycles = 2, .fp32_latency_cycles = 4,     \
                 .fp32_interval_cycles = 1, .fp64_latency_cycles = 8, .fp64_interval_cycles = 2, \
                 .sfu_latency_cycles = 20, .sfu_interval_cycles = 8, .tensor_latency_cycles = 32, \
                 .tensor_interval_cycles = 4, .branch_latency_cycles = 5,                        \
                 .branch_interval_cycles = 1, .mem_latency_cycles = 4,                          \
                 .mem_shared_latency_cycles = 2, .mem_interval_cycles = 4}
/* DRAM (assumption, §7 gives only PVC's 1.2 TB/s): channels, bytes per cycle, 16 banks of 2 KB */
#define XE_DRAM(n_channels, bytes_cycle)                                                          \
    {.page_bytes = 4096, .channels = n_channels, .bytes_per_cycle = bytes_cycle,                \
     .banks_per_channel = 16, .row_bytes = 2048}
#define XE_L1_POLICY                                                                              \
    .line_bytes = 64,   /* §7 "Cache line size": 64 B lines in L1 and L3 */                     \
    .sector_bytes = 64, /* assumption: Xe caches keep whole lines; no sectors */                \
    .ways = 8,          /* assumption: unpublished */                                            \
    .replacement = GPU_REPLACEMENT_LRU, /* assumption: unpublished */                           \
    .cache_global_loads = true, /* assumption: LSC's default caches loads in L1 */             \
    .global_store_policy = GPU_WRITE_THROUGH, /* assumption: default stores pass L1 (L1 .wb    \
                                                 keeps them: the cache controls) */           \
    .global_store_allocate = false, .local_store_policy = GPU_WRITE_BACK, /* assumption */      \
    XE_L1_TIMING
#define XE_L2_POLICY                                                                              \
    .line_bytes = 64,   /* §7 "Cache line size" */                                              \
    .sector_bytes = 64, /* assumption: as the L1 */                                             \
    .ways = 16,         /* assumption: unpublished */                                           \
    .slice_hash = GPU_SLICE_HASH_XOR_FOLD, .partitions = 1, /* assumption */                    \
    .dram_fill_bytes = 64, /* assumption: one line */                                           \
    .replacement = GPU_REPLACEMENT_LRU, .write_policy = GPU_WRITE_BACK, /* assumption */        \
    .persisting_max_bytes = 0, .access_policy_max_window_bytes = 0, /* CUDA-only controls */    \
    .slice_bytes_per_cycle = 64 /* assumption: one line per slice per cycle */
/* SLM carve-outs: §7 gives 0-128 KB per Xe-core; the steps between are an assumption. */
#define XE_CARVEOUTS {0, KIB(16), KIB(32), KIB(64), KIB(96), KIB(128)}, .shared_carveout_count = 6

/* Every NVIDIA preset spells out every field, even those equal on all five, so each reads as one
 * complete table (the Xe presets share their unknowns through the macros above). Static storage
 * also zeroes the padding, which keeps presets memcmp-comparable. */
static const gpu_config presets[] = {
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "h100",
        .description = "NVIDIA H100 SXM 80 GB (Hopper, sm_90): 132 SMs, 50 MiB L2 in two "
                       "partitions",
        .sm_version = 90, /* §6 heading: Hopper H100 is sm_90 */
        .sm = {
            .count = 132,               /* §6 "Configurations": H100 SXM has 132 SMs */
            .warp_size = 32,            /* assumption: NVIDIA warps are 32 lanes; not a figures row */
            .max_threads_per_sm = 2048, /* assumption: CUDA guide cc9.0 limit, not in the figures */
            .max_ctas_per_sm = 32,      /* assumption: CUDA guide cc9.0 limit, not in the figures */
            .max_warps_per_sm = 64,     /* assumption: 2048 threads / 32 lanes */
            .registers_per_sm = 65536,  /* assumption: CUDA guide cc9.0 (64 Ki registers) */
            .max_threads_per_cta = 1024, /* assumption: CUDA guide limit for every cc >= 2.0 */
            .tiles = 1, /* assumption: one die (tiles matter to Intel LSC fences only) */
            .schedulers = 4,             /* assumption: four sub-partitions per SM since Volta */
            .clock_mhz = 1980,           /* §6 "L2 near hit": mt4g ran the H100 SXM at 1980 MHz */
        },
        .l1 = {
            .unified_bytes = KIB(256), /* §6 "Unified L1/tex/shared": 256 KB per SM */
            /* §6 "Unified L1/tex/shared": carve-outs 0..228 KB */
            .shared_carveouts_bytes = {0, KIB(8), KIB(16), KIB(32), KIB(64), KIB(100), KIB(132),
                                       KIB(164), KIB(196), KIB(228)},
            .shared_carveout_count = 10,
            /* assumption: 16 KB leaves a 240 KB L1, matching the L1 cliff at ~239 KB of §6
             * "L1 latency" (gpu-benches), i.e. what the driver picks for a kernel without shared */
            .default_shared_carveout_bytes = KIB(16),
            .max_shared_per_cta_bytes = KIB(227), /* §6 "Unified L1/tex/shared": 227 KB per block */
            /* §6 228 KB carve-out vs 227 KB per block: the 1 KB reservation of §5 */
            .shared_reserved_per_cta_bytes = KIB(1),
            .line_bytes = 128,  /* §1 "L1 line / sector" and §9 "L1" */
            .sector_bytes = 32, /* §1 "L1 line / sector" and §9 "L1" */
            /* measured (docs/hardware.md): with 16 ways an H100's L1 hit count on
             * matvec_cols_4k (lines 16 KiB apart) is matched to 2 sectors in 15.2 M and its
             * cycles to 2 %, where 4 or 8 ways thrash; 16 divides every carve-out's lines */
            .ways = 16,
            .replacement = GPU_REPLACEMENT_LRU, /* assumption: §3 says "not LRU", policy unknown */
            .cache_global_loads = true, /* assumption: L1 caches global loads since Volta; §2 names
                                           only the Maxwell exception */
            .global_store_policy = GPU_WRITE_THROUGH, /* assumption: NVIDIA L1 is write-through
                                                         for global data (docs/presets.md) */
            .global_store_allocate = false,          /* assumption: a store miss does not fill */
            .local_store_policy = GPU_WRITE_BACK,    /* assumption: spills stay in L1 */
            /* The L1/shared pipeline (timing): §3 "L1 line, sectors, tag rate" and §9 "L1" */
            .tags_per_cycle = 4,     /* §3 "L1 line, sectors, tag rate": 4 tags per cycle */
            .sectors_per_cycle = 16, /* §3 "L1 line, sectors, tag rate": at most 16 sectors */
            .mshrs = 256, /* assumption: unpublished; enough lines in flight for the DRAM and L2
                             bandwidths at their latencies (docs/presets.md) */
        },
        .shared = {
            .banks = 32,           /* §1 "Shared banks": 32 x 4 B */
            .bank_width_bytes = 4, /* §1 "Shared banks": 32 x 4 B */
        },
        .l2 = {
            .size_bytes = 52428800, /* §6 "L2 as reported by the device": H100 80GB HBM3 */
            .line_bytes = 128,      /* §8 item 2 and §9 "L2": 128 B lines */
            .sector_bytes = 32,     /* §8 item 2 and §9 "L2": 32 B sectors */
            .ways = 16, /* assumption: §5 "L2 associativity (indirect)" is for Ampere; kept */
            .slices = 80, /* assumption: unpublished; 40 per partition, 320 sets per slice */
            .slice_hash = GPU_SLICE_HASH_XOR_FOLD, /* assumption: spreads power-of-two strides */
            .partitions = 2,        /* §6 "L2 far" and §9 "L2 partitions": 2 x 25 MB */
            .dram_fill_bytes = 64,  /* §8 item 2 and §9 "L2": 64 B fill by default */
            .replacement = GPU_REPLACEMENT_LRU, /* §10 "Simulator model": LRU within a class */
            .write_policy = GPU_WRITE_BACK,     /* §10 "discard ... without write-back" */
            .persisting_max_bytes = 39321600, /* §6 "L2 as reported by the device": 37.5 MiB */
            /* assumption: the A100 limit of §5 "L2 persistence limits"; no Hopper figure */
            .access_policy_max_window_bytes = 134213632,
            /* assumption: §6 "L2 bandwidth" 6.9-7.3 TB/s (H100 PCIe) at the preset's 1980 MHz
             * is ~45 B/clk per slice achieved; the slices' peak is taken 4/3 of that, the A100's
             * ratio of whitepaper peak to measured (§5 "L2 bandwidth, other") */
            .slice_bytes_per_cycle = 60,
        },
        .constant = {
            .l1_bytes = 2112,     /* §6 "Constant caches": L1 constant 2,112 B */
            .l1_line_bytes = 64,  /* §3 and §5 "Constant caches": 64 B lines */
            .l1_ways = 33,        /* assumption: fully associative, so all 33 measured lines fit */
            .l15_bytes = KIB(64), /* assumption: §3 measured "at least 64 KiB" on V100 */
            .l15_line_bytes = 256, /* §6 "Constant caches": 256 B fetch */
            .l15_ways = 8,        /* assumption: unpublished */
        },
        .instruction = {
            .l0_bytes = KIB(12),   /* assumption: the V100 L0 of §3 "Instruction caches" */
            .l0_line_bytes = 128,  /* assumption: unpublished */
            .l0_ways = 4,          /* assumption: unpublished */
            .l1_bytes = KIB(128),  /* assumption: the V100 L1 of §3 "Instruction caches" */
            .l1_line_bytes = 128,  /* assumption: unpublished */
            .l1_ways = 8,          /* assumption: unpublished */
        },
        .crs = {
            .entries_per_warp = 16, /* assumption: no figure; small enough that recursion spills */
            .entry_bytes = 16,      /* assumption: return address + lane mask, padded */
        },
        .dram = {
            .page_bytes = 4096, /* assumption: simulator store granularity, not hardware */
            .channels = 10, /* §6 "Configurations": 10 HBM2e controllers (H100 PCIe) */
            /* §6 "DRAM bandwidth": 1.94 TB/s read (H100 PCIe) at the preset's 1980 MHz clock */
            .bytes_per_cycle = 980,
            .banks_per_channel = 16, /* assumption: 16 banks per HBM channel */
            .row_bytes = 2048,       /* assumption: a 2 KB DRAM page */
        },
        .latency = {
            .l1_hit_cycles = 34,   /* §6 "L1 latency": 34.0-34.8 (gpu-benches, H100 PCIe) */
            .shared_load_cycles = 30, /* §6 "Shared latency": 29.9 (mt4g) */
            .shared_conflict_step_cycles = 2, /* assumption: the Maxwell step of §2, per §9 */
            .l2_near_hit_cycles = 265, /* §6 "L2 near hit": 264-266 plateau (gpu-benches) */
            .l2_far_hit_cycles = 475,  /* §6 "L2 far": 461-478 plateau (gpu-benches) */
            .dram_cycles = 650,        /* §6 "DRAM latency": 626-658 (gpu-benches) */
            .dram_row_hit_cycles = 610, /* assumption: an open row saves ~40 cycles (~25 ns of
                                           precharge and activate) */
            .constant_l1_hit_cycles = 21,   /* §6 "Constant caches": 20.7 */
            .constant_l15_hit_cycles = 105, /* §6 "Constant caches": 104.9 */
        },
        .pipe = {
            .int_latency_cycles = 4,  /* assumption: 4-cycle ALU since Volta (Jia 2018; docs) */
            .int_interval_cycles = 2, /* assumption: 16 INT32 lanes per scheduler (64 per SM) */
            .fp32_latency_cycles = 4, /* assumption: as int */
            .fp32_interval_cycles = 1, /* assumption: 32 FP32 lanes per scheduler (128 per SM) */
            .fp64_latency_cycles = 8,  /* assumption: DFMA ~8 cycles since Volta (Jia 2018) */
            .fp64_interval_cycles = 2, /* assumption: 16 FP64 lanes per scheduler (64 per SM) */
            .sfu_latency_cycles = 20,  /* assumption: MUFU order of magnitude, no figure */
            .sfu_interval_cycles = 8,  /* assumption: 4 SFU lanes per scheduler (16 per SM) */
            .tensor_latency_cycles = 32, /* assumption: no figure */
            .tensor_interval_cycles = 4, /* assumption: 512 dense f16 FMA/clk per scheduler */
            .branch_latency_cycles = 5, /* ref sass-dialect.md 2.5: BRA, EXIT, BAR stall >= 5 */
            .branch_interval_cycles = 1, /* assumption: one branch per cycle per scheduler */
            .mem_latency_cycles = 4, /* ref sass-dialect.md 2.3: sources read ~4 cycles after
                                        issue for global memory (maxas; Maxwell) */
            .mem_shared_latency_cycles = 2, /* ref sass-dialect.md 2.3: ~2 for shared (maxas) */
            .mem_interval_cycles = 4, /* §1 "L1 bandwidth per SM": ~126 B/clk = one 32-lane
                                         4-byte access per cycle per SM, 4 schedulers */
        },
    },
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "a100",
        .description = "NVIDIA A100 40 GB (Ampere, sm_80): 108 SMs, 40 MiB L2 in two partitions",
        .sm_version = 80, /* §5 heading: Ampere A100 is sm_80 */
        .sm = {
            .count = 108,               /* assumption: the A100's SM count; not in the figures */
            .warp_size = 32,            /* assumption: NVIDIA warps are 32 lanes */
            .max_threads_per_sm = 2048, /* assumption: CUDA guide cc8.0 limit */
            .max_ctas_per_sm = 32,      /* assumption: CUDA guide cc8.0 limit */
            .max_warps_per_sm = 64,     /* assumption: 2048 threads / 32 lanes */
            .registers_per_sm = 65536,  /* assumption: CUDA guide cc8.0 */
            .max_threads_per_cta = 1024, /* assumption: CUDA guide limit */
            .tiles = 1, /* assumption: one die (tiles matter to Intel LSC fences only) */
            .schedulers = 4,             /* assumption: four sub-partitions per SM since Volta */
            .clock_mhz = 1410,           /* §5 "L1 latency, suites": A100 at 1410 MHz */
        },
        .l1 = {
            .unified_bytes = KIB(192), /* §5 "Unified L1/tex/shared": 192 KB on cc8.0 */
            /* §5 "Unified L1/tex/shared": carve-outs on cc8.0 */
            .shared_carveouts_bytes = {0, KIB(8), KIB(16), KIB(32), KIB(64), KIB(100), KIB(132),
                                       KIB(164)},
            .shared_carveout_count = 8,
            /* assumption: 32 KB leaves a 160 KB L1, the cliff of §5 "L1 latency, suites" */
            .default_shared_carveout_bytes = KIB(32),
            .max_shared_per_cta_bytes = KIB(163),    /* §5 "Unified L1/tex/shared": 163 KB */
            .shared_reserved_per_cta_bytes = KIB(1), /* §5 "Unified L1/tex/shared": 1 KB */
            .line_bytes = 128,  /* §5 "L1 line / sector" (mt4g) */
            .sector_bytes = 32, /* §5 "L1 line / sector" (mt4g) */
            .ways = 4,          /* assumption: unpublished; divides every carve-out's L1 */
            .replacement = GPU_REPLACEMENT_LRU,       /* assumption: policy unknown */
            .cache_global_loads = true,               /* assumption: as for h100 */
            .global_store_policy = GPU_WRITE_THROUGH, /* assumption: as for h100 */
            .global_store_allocate = false,           /* assumption: as for h100 */
            .local_store_policy = GPU_WRITE_BACK,     /* assumption: as for h100 */
            .tags_per_cycle = 4,     /* §3 "L1 line, sectors, tag rate"; §9 "Strided L1" */
            .sectors_per_cycle = 16, /* §3 "L1 line, sectors, tag rate": at most 16 sectors */
            .mshrs = 256,            /* assumption: as for h100 */
        },
        .shared = {
            .banks = 32,           /* §1 "Shared banks" */
            .bank_width_bytes = 4, /* §1 "Shared banks" */
        },
        .l2 = {
            .size_bytes = 41943040, /* §5 "L2 persistence limits": l2CacheSize 41,943,040 */
            .line_bytes = 128,      /* §8 item 2 and §9 "L2" */
            .sector_bytes = 32,     /* §8 item 2 and §9 "L2" */
            .ways = 16,             /* §5 "L2 associativity (indirect)": 16 (inference) */
            .slices = 80, /* assumption: unpublished; 40 per partition, 256 sets per slice */
            .slice_hash = GPU_SLICE_HASH_XOR_FOLD, /* assumption: as for h100 */
            .partitions = 2,       /* §5 "L2": two partitions; §5 "L2 segment" 20 MiB */
            .dram_fill_bytes = 64, /* §8 item 2 and §9 "L2" */
            .replacement = GPU_REPLACEMENT_LRU, /* §10 "Simulator model" */
            .write_policy = GPU_WRITE_BACK,     /* §10 "discard ... without write-back" */
            .persisting_max_bytes = 31457280,   /* §5 "L2 persistence limits"; §8 item 5 */
            .access_policy_max_window_bytes = 134213632, /* §5 "L2 persistence limits" */
            /* §5 "L2 bandwidth, other": whitepaper peak 5,120 B/clk over 80 slices (the
             * measured 5.3-5.45 TB/s of §5 "L2 bandwidth, suites" is ~3830 B/clk achieved) */
            .slice_bytes_per_cycle = 64,
        },
        .constant = {
            .l1_bytes = 2112,      /* §5 "Constant caches": 2,112 B */
            .l1_line_bytes = 64,   /* §5 "Constant caches": 64 B line */
            .l1_ways = 33,         /* assumption: fully associative (33 lines) */
            .l15_bytes = KIB(64),  /* assumption: §3 "at least 64 KiB" on V100 */
            .l15_line_bytes = 256, /* §5 "Constant caches": 256 B fetch */
            .l15_ways = 8,         /* assumption: unpublished */
        },
        .instruction = {
            .l0_bytes = KIB(12),  /* assumption: the V100 L0 of §3 "Instruction caches" */
            .l0_line_bytes = 128, /* assumption: unpublished */
            .l0_ways = 4,         /* assumption: unpublished */
            .l1_bytes = KIB(128), /* assumption: the V100 L1 of §3 "Instruction caches" */
            .l1_line_bytes = 128, /* assumption: unpublished */
            .l1_ways = 8,         /* assumption: unpublished */
        },
        .crs = {
            .entries_per_warp = 16, /* assumption: as for h100 */
            .entry_bytes = 16,      /* assumption: as for h100 */
        },
        .dram = {
            .page_bytes = 4096, /* assumption: simulator store granularity */
            .channels = 10, /* assumption: five HBM2 stacks, two controllers each */
            /* §5 "DRAM bandwidth": 1.49 TB/s read (A100-40) at 1410 MHz (§5 "L1 latency, suites") */
            .bytes_per_cycle = 1057,
            .banks_per_channel = 16, /* assumption: as for h100 */
            .row_bytes = 2048,       /* assumption: as for h100 */
        },
        .latency = {
            .l1_hit_cycles = 36, /* §5 "L1 latency, suites": 36.0-36.4 (gpu-benches) */
            .shared_load_cycles = 29, /* §5 "Shared latency": 29.0 (Luo 2024 and 2025) */
            .shared_conflict_step_cycles = 2, /* assumption: the Maxwell step of §2, per §9 */
            .l2_near_hit_cycles = 211, /* §5 "L2 near hit, suites": 210.6-213.3 */
            .l2_far_hit_cycles = 425,  /* §5 "L2 far hit, suites": ~424-426; §8 item 6 */
            .dram_cycles = 570,        /* §5 "DRAM latency, suites": 567-575 */
            .dram_row_hit_cycles = 530, /* assumption: 40 cycles saved, as for h100 */
            .constant_l1_hit_cycles = 42, /* assumption: no A100 figure; the V100 value of §3 */
            .constant_l15_hit_cycles = 121, /* §5 "Constant caches": 120.7 */
        },
        .pipe = {
            .int_latency_cycles = 4,  /* assumption: 4-cycle ALU since Volta (Jia 2018; docs) */
            .int_interval_cycles = 2, /* assumption: 16 INT32 lanes per scheduler (64 per SM) */
            .fp32_latency_cycles = 4, /* assumption: as int */
            .fp32_interval_cycles = 2, /* assumption: 16 FP32 lanes per scheduler (64 per SM) */
            .fp64_latency_cycles = 8,  /* assumption: DFMA ~8 cycles since Volta (Jia 2018) */
            .fp64_interval_cycles = 4, /* assumption: 8 FP64 lanes per scheduler (32 per SM) */
            .sfu_latency_cycles = 20,  /* assumption: MUFU order of magnitude, no figure */
            .sfu_interval_cycles = 8,  /* assumption: 4 SFU lanes per scheduler (16 per SM) */
            .tensor_latency_cycles = 32, /* assumption: no figure */
            .tensor_interval_cycles = 8, /* assumption: 256 dense f16 FMA/clk per scheduler */
            .branch_latency_cycles = 5, /* ref sass-dialect.md 2.5: BRA, EXIT, BAR stall >= 5 */
            .branch_interval_cycles = 1, /* assumption: one branch per cycle per scheduler */
            .mem_latency_cycles = 4, /* ref sass-dialect.md 2.3: sources read ~4 cycles after
                                        issue for global memory (maxas; Maxwell) */
            .mem_shared_latency_cycles = 2, /* ref sass-dialect.md 2.3: ~2 for shared (maxas) */
            .mem_interval_cycles = 4, /* §1 "L1 bandwidth per SM": ~126 B/clk = one 32-lane
                                         4-byte access per cycle per SM, 4 schedulers */
        },
    },
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "v100",
        .description = "NVIDIA Tesla V100 (Volta, sm_70): 80 SMs, 6 MiB L2",
        .sm_version = 70, /* §3 heading: Volta V100 is sm_70 */
        .sm = {
            .count = 80,                /* §3 "L1 bandwidth, suites": 80 SMs x 1380 MHz */
            .warp_size = 32,            /* assumption: NVIDIA warps are 32 lanes */
            .max_threads_per_sm = 2048, /* assumption: CUDA guide cc7.0 limit */
            .max_ctas_per_sm = 32,      /* assumption: CUDA guide cc7.0 limit */
            .max_warps_per_sm = 64,     /* assumption: 2048 threads / 32 lanes */
            .registers_per_sm = 65536,  /* assumption: CUDA guide cc7.0 */
            .max_threads_per_cta = 1024, /* assumption: CUDA guide limit */
            .tiles = 1, /* assumption: one die (tiles matter to Intel LSC fences only) */
            .schedulers = 4,             /* assumption: four sub-partitions per SM since Volta */
            .clock_mhz = 1380,           /* §3 "L1 latency, benchmark suites": 1380 MHz */
        },
        .l1 = {
            .unified_bytes = KIB(128), /* §3 "Unified L1/shared": 128 KB per SM */
            /* §3 "Unified L1/shared": carve-outs 0, 8, 16, 32, 64, 96 KB */
            .shared_carveouts_bytes = {0, KIB(8), KIB(16), KIB(32), KIB(64), KIB(96)},
            .shared_carveout_count = 6,
            /* assumption: 8 KB leaves a 120 KB L1, between the last plateau (118 KB) and the
             * cliff (~128 KB) of §3 "L1 latency, benchmark suites" */
            .default_shared_carveout_bytes = KIB(8),
            .max_shared_per_cta_bytes = KIB(96),  /* assumption: CUDA guide cc7.0 limit */
            .shared_reserved_per_cta_bytes = 0,   /* assumption: no reservation reported */
            .line_bytes = 128,  /* §3 "L1 line, sectors, tag rate": 128 B lines */
            .sector_bytes = 32, /* §3 "L1 line, sectors, tag rate": 4 x 32 B sectors */
            .ways = 4,          /* assumption: unpublished; divides every carve-out's L1 */
            .replacement = GPU_REPLACEMENT_LRU, /* assumption: §3 (Jia) "not LRU", unknown */
            .cache_global_loads = true,               /* assumption: as for h100 */
            .global_store_policy = GPU_WRITE_THROUGH, /* assumption: as for h100 */
            .global_store_allocate = false,           /* assumption: as for h100 */
            .local_store_policy = GPU_WRITE_BACK,     /* assumption: as for h100 */
            .tags_per_cycle = 4,     /* §3 "L1 line, sectors, tag rate": 4 tags per cycle */
            .sectors_per_cycle = 16, /* §3 "L1 line, sectors, tag rate": at most 16 sectors */
            .mshrs = 256,            /* assumption: as for h100 */
        },
        .shared = {
            .banks = 32,           /* §1 "Shared banks" */
            .bank_width_bytes = 4, /* §1 "Shared banks" */
        },
        .l2 = {
            .size_bytes = KIB(6144), /* §1 "L2 size": 6 MB; §3 "L2 per Jia 2018": 6,144 KiB */
            .line_bytes = 128,       /* §8 item 2 and §9 "L2" */
            .sector_bytes = 32,      /* §8 item 2 and §9 "L2" */
            .ways = 16,              /* assumption: the Ampere hint of §5, kept */
            .slices = 64,            /* assumption: unpublished; 48 sets per slice */
            .slice_hash = GPU_SLICE_HASH_XOR_FOLD, /* assumption: as for h100 */
            .partitions = 1,       /* §1 "L2 hit, far partition": n/a before Ampere */
            .dram_fill_bytes = 64, /* §8 item 2: Jia's 64 B "line" read as the fill size */
            .replacement = GPU_REPLACEMENT_LRU, /* §10 "Simulator model" */
            .write_policy = GPU_WRITE_BACK,     /* §10 "discard ... without write-back" */
            .persisting_max_bytes = 0,           /* §10 "Availability": cc8.0 or later */
            .access_policy_max_window_bytes = 0, /* §10 "Availability": cc8.0 or later */
            /* assumption: §3 "L2 bandwidth" ~2.4 TB/s at 1380 MHz is ~27 B/clk per slice
             * achieved; the peak is taken 4/3 of that, the A100's ratio of whitepaper peak to
             * measured (§5 "L2 bandwidth, other") */
            .slice_bytes_per_cycle = 36,
        },
        .constant = {
            .l1_bytes = 2112,      /* §3 "Constant caches": 2,112 B */
            .l1_line_bytes = 64,   /* §3 "Constant caches": 64 B lines */
            .l1_ways = 33,         /* assumption: fully associative (33 lines) */
            .l15_bytes = KIB(64),  /* §3 "Constant caches": at least 64 KiB */
            .l15_line_bytes = 256, /* §3 "Constant caches": 256 B fetch */
            .l15_ways = 8,         /* assumption: unpublished */
        },
        .instruction = {
            .l0_bytes = KIB(12),  /* §3 "Instruction caches": 12 KiB L0 (unverified) */
            .l0_line_bytes = 128, /* assumption: unpublished */
            .l0_ways = 4,         /* assumption: unpublished */
            .l1_bytes = KIB(128), /* §3 "Instruction caches": ~128 KiB (unverified) */
            .l1_line_bytes = 128, /* assumption: unpublished */
            .l1_ways = 8,         /* assumption: unpublished */
        },
        .crs = {
            .entries_per_warp = 16, /* assumption: as for h100 */
            .entry_bytes = 16,      /* assumption: as for h100 */
        },
        .dram = {
            .page_bytes = 4096, /* assumption: simulator store granularity */
            .channels = 8, /* assumption: four HBM2 stacks, two controllers each */
            /* §3 "DRAM bandwidth": 866 GB/s read at 1380 MHz (§3 "L1 latency, benchmark
             * suites") */
            .bytes_per_cycle = 628,
            .banks_per_channel = 16, /* assumption: as for h100 */
            .row_bytes = 2048,       /* assumption: as for h100 */
        },
        .latency = {
            .l1_hit_cycles = 30,      /* §3 "L1 latency, benchmark suites": 29.9-30.3 */
            .shared_load_cycles = 23, /* §3 "Shared latency, suites": 23 median (mt4g) */
            .shared_conflict_step_cycles = 2, /* assumption: the Maxwell step of §2, per §9 */
            .l2_near_hit_cycles = 215, /* §3 "L2 hit latency, suites": 213-215 plateau */
            .l2_far_hit_cycles = 215,  /* one partition: far equals near */
            .dram_cycles = 430,        /* §3 "DRAM latency": 424-437 (gpu-benches) */
            .dram_row_hit_cycles = 390, /* assumption: 40 cycles saved, as for h100 */
            .constant_l1_hit_cycles = 42,   /* §3 "Constant caches": 41.9 mean */
            .constant_l15_hit_cycles = 113, /* §3 "Constant caches": 112.8 */
        },
        .pipe = {
            .int_latency_cycles = 4,  /* assumption: 4-cycle ALU since Volta (Jia 2018; docs) */
            .int_interval_cycles = 2, /* assumption: 16 INT32 lanes per scheduler (64 per SM) */
            .fp32_latency_cycles = 4, /* assumption: as int */
            .fp32_interval_cycles = 2, /* assumption: 16 FP32 lanes per scheduler (64 per SM) */
            .fp64_latency_cycles = 8,  /* assumption: DFMA ~8 cycles (Jia 2018) */
            .fp64_interval_cycles = 4, /* assumption: 8 FP64 lanes per scheduler (32 per SM) */
            .sfu_latency_cycles = 20,  /* assumption: MUFU order of magnitude, no figure */
            .sfu_interval_cycles = 8,  /* assumption: 4 SFU lanes per scheduler (16 per SM) */
            .tensor_latency_cycles = 32, /* assumption: no figure */
            .tensor_interval_cycles = 16, /* assumption: 128 dense f16 FMA/clk per scheduler */
            .branch_latency_cycles = 5, /* ref sass-dialect.md 2.5: BRA, EXIT, BAR stall >= 5 */
            .branch_interval_cycles = 1, /* assumption: one branch per cycle per scheduler */
            .mem_latency_cycles = 4, /* ref sass-dialect.md 2.3: sources read ~4 cycles after
                                        issue for global memory (maxas; Maxwell) */
            .mem_shared_latency_cycles = 2, /* ref sass-dialect.md 2.3: ~2 for shared (maxas) */
            .mem_interval_cycles = 4, /* §1 "L1 bandwidth per SM": ~125 B/clk = one 32-lane
                                         4-byte access per cycle per SM, 4 schedulers */
        },
    },
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "t4",
        .description = "NVIDIA Tesla T4 (Turing TU104, sm_75): 40 SMs, 4 MiB L2",
        .sm_version = 75, /* §4 heading: Turing is sm_75 */
        .sm = {
            .count = 40,                /* assumption: the T4's SM count; not in the figures */
            .warp_size = 32,            /* assumption: NVIDIA warps are 32 lanes */
            .max_threads_per_sm = 1024, /* assumption: CUDA guide cc7.5 limit */
            .max_ctas_per_sm = 16,      /* assumption: CUDA guide cc7.5 limit */
            .max_warps_per_sm = 32,     /* assumption: 1024 threads / 32 lanes */
            .registers_per_sm = 65536,  /* assumption: CUDA guide cc7.5 */
            .max_threads_per_cta = 1024, /* assumption: CUDA guide limit */
            .tiles = 1, /* assumption: one die (tiles matter to Intel LSC fences only) */
            .schedulers = 4,             /* assumption: four sub-partitions per SM, as Volta */
            .clock_mhz = 1590,           /* assumption: the T4's boost clock; not in the figures */
        },
        .l1 = {
            .unified_bytes = KIB(96), /* §4 "Unified L1/shared": 96 KB per SM */
            .shared_carveouts_bytes = {KIB(32), KIB(64)}, /* §4 "Unified L1/shared": 32 or 64 */
            .shared_carveout_count = 2,
            /* assumption: 32 KB leaves a 64 KB L1, matching the ~61.5 and ~59 KiB L1 sizes that
             * mt4g reports for TU102 and TU117 (§4 rows "RTX 2080 Ti" and "T1000") */
            .default_shared_carveout_bytes = KIB(32),
            .max_shared_per_cta_bytes = KIB(64), /* assumption: CUDA guide cc7.5 limit */
            .shared_reserved_per_cta_bytes = 0,  /* assumption: no reservation reported */
            .line_bytes = 128,  /* §1 "L1 line / sector": 128 B / 32 B (mt4g, TU10x) */
            .sector_bytes = 32, /* §1 "L1 line / sector": 128 B / 32 B (mt4g, TU10x) */
            .ways = 4,          /* assumption: unpublished */
            .replacement = GPU_REPLACEMENT_LRU,       /* assumption: policy unknown */
            .cache_global_loads = true,               /* assumption: as for h100 */
            .global_store_policy = GPU_WRITE_THROUGH, /* assumption: as for h100 */
            .global_store_allocate = false,           /* assumption: as for h100 */
            .local_store_policy = GPU_WRITE_BACK,     /* assumption: as for h100 */
            .tags_per_cycle = 4,     /* assumption: the Volta rate of §3 "L1 line, sectors,
                                        tag rate" */
            .sectors_per_cycle = 16, /* assumption: the Volta limit of the same row */
            .mshrs = 256,            /* assumption: as for h100 */
        },
        .shared = {
            .banks = 32,           /* §1 "Shared banks" */
            .bank_width_bytes = 4, /* §1 "Shared banks" */
        },
        .l2 = {
            .size_bytes = KIB(4096), /* §4 "T4 per Jia et al. 2019": L2 4,096 KiB */
            .line_bytes = 128,       /* §8 item 2 and §9 "L2" */
            .sector_bytes = 32,      /* §8 item 2 and §9 "L2" */
            .ways = 16,              /* assumption: the Ampere hint of §5, kept */
            .slices = 32,            /* assumption: unpublished; 64 sets per slice */
            .slice_hash = GPU_SLICE_HASH_XOR_FOLD, /* assumption: as for h100 */
            .partitions = 1,       /* §1 "L2 hit, far partition": n/a before Ampere */
            .dram_fill_bytes = 64, /* §8 item 2: Jia's 64 B "line" read as the fill size */
            .replacement = GPU_REPLACEMENT_LRU, /* §10 "Simulator model" */
            .write_policy = GPU_WRITE_BACK,     /* §10 "discard ... without write-back" */
            .persisting_max_bytes = 0,           /* §10 "Availability": cc8.0 or later */
            .access_policy_max_window_bytes = 0, /* §10 "Availability": cc8.0 or later */
            .slice_bytes_per_cycle = 32, /* assumption: no T4 L2 bandwidth figure; one sector
                                            per slice per cycle */
        },
        .constant = {
            .l1_bytes = 2112,      /* §4 "RTX 2080 Ti": 2,112 B (Jia's T4 row: 2 KiB) */
            .l1_line_bytes = 64,   /* §4 "T4 per Jia et al. 2019": 64 B lines */
            .l1_ways = 33,         /* assumption: fully associative (33 lines) */
            .l15_bytes = KIB(46),  /* §4 "T4 per Jia et al. 2019": ~46 KiB */
            .l15_line_bytes = 256, /* §4 "T4 per Jia et al. 2019": 256 B lines */
            .l15_ways = 8,         /* assumption: unpublished (23 sets) */
        },
        .instruction = {
            .l0_bytes = KIB(16),  /* §4 "T4 per Jia et al. 2019": L0 instruction 16 KiB */
            .l0_line_bytes = 128, /* assumption: unpublished */
            .l0_ways = 4,         /* assumption: unpublished */
            /* §4 "T4 per Jia et al. 2019": ~46 KiB, shared there with the L1.5 constant cache;
             * assumption: modelled as a separate cache of the same size */
            .l1_bytes = KIB(46),
            .l1_line_bytes = 256, /* §4 "T4 per Jia et al. 2019": 256 B lines */
            .l1_ways = 8,         /* assumption: unpublished (23 sets) */
        },
        .crs = {
            .entries_per_warp = 16, /* assumption: as for h100 */
            .entry_bytes = 16,      /* assumption: as for h100 */
        },
        .dram = {
            .page_bytes = 4096, /* assumption: simulator store granularity */
            .channels = 8, /* assumption: a 256-bit GDDR6 bus, eight 32-bit channels */
            /* §4 "T4 per Jia et al. 2019": 220 GiB/s measured, at an assumed 1590 MHz boost
             * clock (no T4 clock in the figures) */
            .bytes_per_cycle = 149,
            .banks_per_channel = 16, /* assumption: as for h100 */
            .row_bytes = 2048,       /* assumption: as for h100 */
        },
        .latency = {
            .l1_hit_cycles = 32,      /* §4 "T4 per Jia et al. 2019": 32 */
            .shared_load_cycles = 19, /* §4 "T4 shared latency": 19 (unverified) */
            .shared_conflict_step_cycles = 2, /* assumption: the Maxwell step of §2, per §9 */
            .l2_near_hit_cycles = 188, /* §4 "T4 per Jia et al. 2019": 188 */
            .l2_far_hit_cycles = 188,  /* one partition: far equals near */
            .dram_cycles = 496,        /* §4 "RTX 2080 Ti" and "T1000": 496 (no T4 figure) */
            .dram_row_hit_cycles = 456, /* assumption: 40 cycles saved, as for h100 */
            .constant_l1_hit_cycles = 72,   /* §4 "RTX 2080 Ti": 71.9 */
            .constant_l15_hit_cycles = 124, /* §4 "RTX 2080 Ti": 124 */
        },
        .pipe = {
            .int_latency_cycles = 4,  /* assumption: 4-cycle ALU since Volta (Jia 2019; docs) */
            .int_interval_cycles = 2, /* assumption: 16 INT32 lanes per scheduler (64 per SM) */
            .fp32_latency_cycles = 4, /* assumption: as int */
            .fp32_interval_cycles = 2, /* assumption: 16 FP32 lanes per scheduler (64 per SM) */
            .fp64_latency_cycles = 72, /* assumption: the interval plus an 8-cycle pipeline */
            .fp64_interval_cycles = 64, /* assumption: FP64 at 1/32 of FP32 (2 lanes per SM) */
            .sfu_latency_cycles = 20,  /* assumption: MUFU order of magnitude, no figure */
            .sfu_interval_cycles = 8,  /* assumption: 4 SFU lanes per scheduler (16 per SM) */
            .tensor_latency_cycles = 32, /* assumption: no figure */
            .tensor_interval_cycles = 16, /* assumption: 128 dense f16 FMA/clk per scheduler */
            .branch_latency_cycles = 5, /* ref sass-dialect.md 2.5: BRA, EXIT, BAR stall >= 5 */
            .branch_interval_cycles = 1, /* assumption: one branch per cycle per scheduler */
            .mem_latency_cycles = 4, /* ref sass-dialect.md 2.3: sources read ~4 cycles after
                                        issue for global memory (maxas; Maxwell) */
            .mem_shared_latency_cycles = 2, /* ref sass-dialect.md 2.3: ~2 for shared (maxas) */
            .mem_interval_cycles = 8, /* §1 "L1 bandwidth per SM": 58.8 B/clk (Jia) = one 32-lane
                                         4-byte access per 2 cycles per SM, 4 schedulers */
        },
    },
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "gtx980",
        .description = "NVIDIA GeForce GTX 980 (Maxwell GM204, sm_52): 16 SMs, 2 MiB L2, "
                       "global loads bypass L1 by default",
        .sm_version = 52, /* §2 "SM resources": GTX 980 is cc5.2 */
        .sm = {
            .count = 16,                /* assumption: the GTX 980's SM count; not in figures */
            .warp_size = 32,            /* assumption: NVIDIA warps are 32 lanes */
            .max_threads_per_sm = 2048, /* assumption: CUDA guide cc5.2 limit */
            .max_ctas_per_sm = 32,      /* assumption: CUDA guide cc5.2 limit */
            .max_warps_per_sm = 64,     /* assumption: 2048 threads / 32 lanes */
            .registers_per_sm = 65536,  /* assumption: CUDA guide cc5.2 */
            .max_threads_per_cta = 1024, /* assumption: CUDA guide limit */
            .tiles = 1, /* assumption: one die (tiles matter to Intel LSC fences only) */
            .schedulers = 4,             /* §2 "SM resources": 4 schedulers per SM */
            .clock_mhz = 1216,           /* assumption: GTX 980 boost clock; not in the figures */
        },
        .l1 = {
            /* §2 "SM resources": 24 KB L1/tex + 96 KB shared, separate on Maxwell; modelled as
             * one 120 KB store whose only carve-out is the fixed 96 KB (docs/presets.md) */
            .unified_bytes = KIB(120),
            .shared_carveouts_bytes = {KIB(96)}, /* §1 "Shared carve-outs": fixed 96 (cc5.2) */
            .shared_carveout_count = 1,
            .default_shared_carveout_bytes = KIB(96), /* §1: the only choice */
            .max_shared_per_cta_bytes = KIB(48),      /* §2 "SM resources": 48 KB per block */
            .shared_reserved_per_cta_bytes = 0,       /* assumption: no reservation reported */
            .line_bytes = 128,  /* §1 "L1 line / sector" and §8 item 1 */
            .sector_bytes = 32, /* §1 "L1 line / sector" and §8 item 1 */
            .ways = 4,          /* assumption: unpublished (48 sets) */
            .replacement = GPU_REPLACEMENT_LRU, /* assumption: LRU as §2 reports for Kepler and
                                                   Pascal texture caches */
            .cache_global_loads = false, /* §2 "Global loads and L1": off by default on cc5.2 */
            .global_store_policy = GPU_WRITE_THROUGH, /* assumption: as for h100 */
            .global_store_allocate = false,           /* assumption: as for h100 */
            .local_store_policy = GPU_WRITE_BACK,     /* assumption: as for h100 */
            .tags_per_cycle = 4,     /* assumption: the Volta rate of §3 "L1 line, sectors,
                                        tag rate" */
            .sectors_per_cycle = 16, /* assumption: the Volta limit of the same row */
            .mshrs = 256,            /* assumption: as for h100 */
        },
        .shared = {
            .banks = 32,           /* §2 "Shared-memory banks": 32 banks of 32 bits */
            .bank_width_bytes = 4, /* §2 "Shared-memory banks": 32 banks of 32 bits */
        },
        .l2 = {
            .size_bytes = KIB(2048), /* §2 "L2 size, GTX 980": 2 MB */
            .line_bytes = 128,       /* §8 item 2 and §9 "L2" */
            .sector_bytes = 32,      /* §2 "L2 line": 32 B, read as the sector per §8 item 2 */
            .ways = 16,              /* assumption: the Ampere hint of §5, kept */
            .slices = 16,            /* assumption: unpublished; 64 sets per slice */
            .slice_hash = GPU_SLICE_HASH_XOR_FOLD, /* assumption: as for h100 */
            .partitions = 1,       /* §1 "L2 hit, far partition": n/a */
            .dram_fill_bytes = 64, /* assumption: the §9 "L2" default, no Maxwell figure */
            .replacement = GPU_REPLACEMENT_LRU, /* §10 "Simulator model" */
            .write_policy = GPU_WRITE_BACK,     /* §10 "discard ... without write-back" */
            .persisting_max_bytes = 0,           /* §10 "Availability": cc8.0 or later */
            .access_policy_max_window_bytes = 0, /* §10 "Availability": cc8.0 or later */
            .slice_bytes_per_cycle = 32, /* assumption: no Maxwell L2 bandwidth figure; one
                                            sector per slice per cycle */
        },
        .constant = {
            .l1_bytes = 2048,      /* §2 "Constant caches": 2 KB (M60, unverified) */
            .l1_line_bytes = 64,   /* §2 "Constant caches": 64 B lines */
            .l1_ways = 32,         /* assumption: fully associative (32 lines) */
            .l15_bytes = KIB(32),  /* §2 "Constant caches": L1.5 32 KB (M60, unverified) */
            .l15_line_bytes = 256, /* assumption: the 256 B fetch of §3-§6 */
            .l15_ways = 8,         /* assumption: unpublished */
        },
        .instruction = {
            .l0_bytes = KIB(8),   /* §2 "Instruction caches": 8 KB L1 (our first level) */
            .l0_line_bytes = 128, /* assumption: unpublished */
            .l0_ways = 4,         /* assumption: unpublished */
            .l1_bytes = KIB(32),  /* §2 "Instruction caches": 32 KB L1.5 (our second level) */
            .l1_line_bytes = 128, /* assumption: unpublished */
            .l1_ways = 8,         /* assumption: unpublished */
        },
        .crs = {
            .entries_per_warp = 16, /* assumption: as for h100 */
            .entry_bytes = 16,      /* assumption: as for h100 */
        },
        .dram = {
            .page_bytes = 4096, /* assumption: simulator store granularity */
            .channels = 4, /* assumption: a 256-bit bus, four 64-bit controllers */
            /* §2 "DRAM": 224 GB/s theoretical, at an assumed 1216 MHz boost clock (no GTX 980
             * clock in the figures) */
            .bytes_per_cycle = 184,
            .banks_per_channel = 16, /* assumption: as for h100 */
            .row_bytes = 2048,       /* assumption: as for h100 */
        },
        .latency = {
            .l1_hit_cycles = 82,      /* §2 "L1 hit latency": ~82 (M60, unverified) */
            .shared_load_cycles = 28, /* §2 "Shared latency, no conflict": 28.0 */
            .shared_conflict_step_cycles = 2, /* §2 "Shared bank-conflict cost": 28 + 2(n-1) */
            .l2_near_hit_cycles = 207, /* §2 "L2 hit latency": ~207 (M60, unverified) */
            .l2_far_hit_cycles = 207,  /* one partition: far equals near */
            .dram_cycles = 375,        /* §1 "DRAM latency": ~350-400, midpoint (unverified) */
            .dram_row_hit_cycles = 335, /* assumption: 40 cycles saved, as for h100 */
            .constant_l1_hit_cycles = 42,   /* assumption: no Maxwell figure; V100 value of §3 */
            .constant_l15_hit_cycles = 113, /* assumption: no Maxwell figure; V100 value of §3 */
        },
        .pipe = {
            .int_latency_cycles = 6,  /* ref sass-dialect.md 2.3: ~6 cycles for most ALU
                                         operations on Maxwell (maxas) */
            .int_interval_cycles = 1, /* §2 "SM resources": 128 cores, 4 schedulers: 32 lanes */
            .fp32_latency_cycles = 6, /* ref sass-dialect.md 2.3, as int */
            .fp32_interval_cycles = 1, /* §2 "SM resources": 128 cores, 4 schedulers */
            .fp64_latency_cycles = 40, /* assumption: the interval plus an 8-cycle pipeline */
            .fp64_interval_cycles = 32, /* assumption: FP64 at 1/32 of FP32 (4 lanes per SM) */
            .sfu_latency_cycles = 20,  /* assumption: MUFU order of magnitude, no figure */
            .sfu_interval_cycles = 4,  /* assumption: 8 SFU lanes per scheduler (32 per SM) */
            .tensor_latency_cycles = 32, /* assumption: no tensor cores; the t4 values */
            .tensor_interval_cycles = 16, /* assumption: no tensor cores; the t4 values */
            .branch_latency_cycles = 5, /* ref sass-dialect.md 2.5: BRA, EXIT, BAR stall >= 5 */
            .branch_interval_cycles = 1, /* assumption: one branch per cycle per scheduler */
            .mem_latency_cycles = 4, /* ref sass-dialect.md 2.3: sources read ~4 cycles after
                                        issue for global memory (maxas; Maxwell) */
            .mem_shared_latency_cycles = 2, /* ref sass-dialect.md 2.3: ~2 for shared (maxas) */
            .mem_interval_cycles = 4, /* §9 "Shared-memory conflicts": ~128 B/clk/SM shared
                                         bandwidth = one 32-lane 4-byte access per cycle */
        },
    },
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "pvc",
        .description = "Intel Data Center GPU Max 1100-like (Xe-HPC, Ponte Vecchio): 56 Xe-cores, "
                       "one tile, 108 MiB L2, 64 B lines",
        .sm_version = 90, /* assumption: no CUDA capability; lets sm_90 PTX load too */
        /* §7 "PVC Max 1100 configuration": 56 Xe-cores; assumption: 8 vector engines x 8
         * threads = 64 hardware threads per Xe-core */
        .sm = {XE_SM(56, 1, 64, 16, 1550)}, /* 64-byte GRF (assumption); §7: up to 1.55 GHz */
        .l1 = {
            .unified_bytes = KIB(512), /* §7 "PVC L1": 512 KB per Xe-core, shared with SLM */
            .shared_carveouts_bytes = XE_CARVEOUTS, /* §7 "PVC SLM": up to 128 KB */
            .default_shared_carveout_bytes = 0, /* assumption: all L1 when no SLM is used */
            .max_shared_per_cta_bytes = KIB(128), /* §7 "PVC SLM": 128 KB per work-group */
            .shared_reserved_per_cta_bytes = 0,   /* assumption: nothing reserved */
            XE_L1_POLICY,
        },
        .shared = {.banks = 16, .bank_width_bytes = 4}, /* assumption: 64 B per clock */
        .l2 = {
            .size_bytes = 113246208, /* §7 "PVC Max 1100 configuration": 108 MB enabled (MiB) */
            .slices = 64,            /* assumption: unpublished; 1728 sets per slice */
            XE_L2_POLICY,
        },
        .constant = XE_CONSTANT,       /* assumption: no Xe figure */
        .instruction = XE_INSTRUCTION, /* assumption: no Xe figure */
        .crs = {.entries_per_warp = 16, .entry_bytes = 16}, /* assumption: as for h100 */
        /* §7 "PVC Max 1100 configuration": 1.2 TB/s HBM2e; at an assumed 1.55 GHz (§7: "up to
         * 1.55 GHz") ~774 B/clk; 8 channels (assumption) */
        .dram = XE_DRAM(8, 774),
        .latency = XE_LATENCY,        /* assumption: placeholders, see the note above */
        .pipe = XE_PIPE,
    },
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "pvc-2t",
        .description = "Intel Data Center GPU Max 1550-like (Xe-HPC): two tiles of 64 Xe-cores, "
                       "each with half of a 288 MiB L2, 64 B lines",
        .sm_version = 90, /* assumption: as for pvc */
        /* §7 "PVC Max 1550": two stacks, 128 Xe-cores, each stack with its own L2 */
        .sm = {XE_SM(128, 2, 64, 16, 1550)}, /* clock: as pvc */
        .l1 = {
            .unified_bytes = KIB(512), /* §7 "PVC L1" */
            .shared_carveouts_bytes = XE_CARVEOUTS, /* §7 "PVC SLM" */
            .default_shared_carveout_bytes = 0,   /* assumption: as for pvc */
            .max_shared_per_cta_bytes = KIB(128), /* §7 "PVC SLM" */
            .shared_reserved_per_cta_bytes = 0,   /* assumption */
            XE_L1_POLICY,
        },
        .shared = {.banks = 16, .bank_width_bytes = 4}, /* assumption: as for pvc */
        .l2 = {
            /* §7 "PVC total L2, Max 1550": two base tiles x 144 MB physical (the 408 MB
             * marketing figure is the conflict of §8 item 9); MiB taken */
            .size_bytes = 301989888,
            .slices = 128, /* assumption: 64 per tile, 2304 sets per slice */
            XE_L2_POLICY,
        },
        .constant = XE_CONSTANT,
        .instruction = XE_INSTRUCTION,
        .crs = {.entries_per_warp = 16, .entry_bytes = 16},
        .dram = XE_DRAM(16, 1548), /* assumption: two stacks of the pvc preset's HBM */
        .latency = XE_LATENCY,
        .pipe = XE_PIPE,
    },
    /* ---------------------------------------------------------------------------------------- */
    {
        .name = "acm-g10",
        .description = "Intel Arc A770-like (Xe-HPG, ACM-G10): 32 Xe-cores, 192 KiB L1/SLM "
                       "each, 16 MiB L2, 64 B lines",
        .sm_version = 90, /* assumption: as for pvc */
        /* assumption: 32 Xe-cores (the A770's, not in §7); §7 "Xe-HPG SLM": 16 EUs per
         * Xe-core, x 8 threads each (assumption) = 128 hardware threads */
        .sm = {XE_SM(32, 1, 128, 8, 2400)}, /* 32-byte GRF, 2.4 GHz (assumptions) */
        .l1 = {
            .unified_bytes = KIB(192), /* §7 "Arc A770 L1 and L2": 192 KB L1/SLM per Xe-core */
            .shared_carveouts_bytes = XE_CARVEOUTS, /* §7 "Xe-HPG SLM": 128 KB per Xe-core */
            .default_shared_carveout_bytes = 0,   /* assumption: as for pvc */
            .max_shared_per_cta_bytes = KIB(64),  /* §7 "Xe-HPG SLM": 64 KB per work-group */
            .shared_reserved_per_cta_bytes = 0,   /* assumption */
            XE_L1_POLICY,
        },
        .shared = {.banks = 16, .bank_width_bytes = 4}, /* assumption: as for pvc */
        .l2 = {
            .size_bytes = 16777216, /* §7 "Arc A770 L1 and L2": 16 MB L2 (MiB) */
            .slices = 16,           /* assumption: unpublished; 1024 sets per slice */
            XE_L2_POLICY,
        },
        .constant = XE_CONSTANT,
        .instruction = XE_INSTRUCTION,
        .crs = {.entries_per_warp = 16, .entry_bytes = 16},
        .dram = XE_DRAM(8, 240), /* assumption: 560 GB/s GDDR6 at ~2.4 GHz, 8 channels */
        .latency = XE_LATENCY,
        .pipe = XE_PIPE,
    },
};

size_t gpu_preset_count(void) { return sizeof presets / sizeof presets[0]; }

const gpu_config *gpu_preset_at(size_t i)
{
    return i < gpu_preset_count() ? &presets[i] : NULL;
}

const gpu_config *gpu_preset_default(void) { return &presets[0]; }

const gpu_config *gpu_preset_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < gpu_preset_count(); i++)
        if (strcmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}
