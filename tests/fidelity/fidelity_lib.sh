# Launch-file writers of the timing-validation kernels (tests/fidelity/README.md), sourced by
# tests/fidelity/gen_cases.sh (the small cases `make test` runs) and bench/fidelity/*.sh (the full
# sweeps). POSIX sh; 64-bit shell arithmetic. Each writer prints a launch file on stdout; MODULE
# is the path of the PTX as the launch file should name it (relative to the launch file's folder).

# The chain order of chase.cu, bit for bit: fid_perm K N sets fid_line to the K-th line of the
# visiting order of an N-line chain (cycle-walking a multiply/xor-shift mix of [0, 2^bits)).
# No subshells: the staircase sweeps call it thousands of times.
fid_perm() {
    _n=$2 _bits=0 _v=$(($2 - 1))
    while [ "$_v" -gt 0 ]; do _bits=$((_bits + 1)) _v=$((_v >> 1)); done
    [ "$_bits" -eq 0 ] && _bits=1
    _mask=$(((1 << _bits) - 1))
    fid_line=$1
    fid_mix
    while [ "$fid_line" -ge "$_n" ]; do fid_mix; done
}
# One round of the mix on fid_line; uses _mask and _bits of fid_perm. The multiplications keep
# only the low `bits` bits, as the kernel's 32-bit product masked to them does.
fid_mix() {
    _y=$(( ((fid_line & _mask) * (0x9E3779B1 & _mask)) & _mask ))
    _y=$(( _y ^ (_y >> ((_bits + 1) / 2)) ))
    _y=$(( ((_y & _mask) * (0x85EBCA6B & _mask)) & _mask ))
    fid_line=$(( _y ^ (_y >> ((_bits + 2) / 3)) ))
}

# fid_chase_expect STEPS: sets fid_end and fid_sum to the line a chase of STEPS steps over the
# chain of _n lines ends on and the sum of the line indices it visits (full passes contribute
# n(n-1)/2 each; the rest is summed line by line).
fid_chase_expect() {
    fid_sum=$(( ($1 / _n) * (_n * (_n - 1) / 2) ))
    _k=$(( ($1 / _n) * _n ))
    while [ "$_k" -lt "$1" ]; do
        fid_perm $((_k % _n)) "$_n"; fid_sum=$((fid_sum + fid_line)); _k=$((_k + 1))
    done
    fid_perm $(($1 % _n)) "$_n"; fid_end=$fid_line
}

# fid_chase MODULE GPU LINES WARMUP WARM MEASURE: the latency staircase at a footprint of LINES
# 64-byte lines. Launch 0 builds the chain; launch 1 chases WARMUP steps (at least 16), so that
# the chase kernel's code is in the instruction caches and the L2 holds what a pass leaves there
# (its near-partition copies) before either measured launch; launch 2 chases WARM steps and
# launch 3 WARM + MEASURE steps (all multiples of 16), each from the chain's start with an empty
# L1. Cycles per step: (cycles[3] - cycles[2]) / MEASURE. Expectations: the line each chase ended
# on and the sum of the line indices it visited, computed here from the same order.
fid_chase() {
    _mod=$1 _gpu=$2 _n=$3 _warmup=$4 _warm=$5 _meas=$6
    fid_chase_expect "$_warmup"; _end_w=$fid_end _sum_w=$fid_sum
    fid_chase_expect "$_warm"; _end_a=$fid_end _sum_a=$fid_sum
    fid_chase_expect $((_warm + _meas)); _end_b=$fid_end _sum_b=$fid_sum
    cat <<JSON
{
  "module": "$_mod",
  "gpu": "$_gpu",
  "buffers": {
    "chain": {"type": "u64", "count": $((_n * 8))},
    "end_w": {"type": "u64", "count": 1},
    "sum_w": {"type": "u64", "count": 1},
    "end_a": {"type": "u64", "count": 1},
    "sum_a": {"type": "u64", "count": 1},
    "end_b": {"type": "u64", "count": 1},
    "sum_b": {"type": "u64", "count": 1}
  },
  "launches": [
    {"kernel": "chase_build", "grid": [$(((_n + 255) / 256))], "block": [256],
     "args": [{"buffer": "chain"}, {"u32": $_n}]},
    {"kernel": "chase", "grid": [1], "block": [32],
     "args": [{"buffer": "chain"}, {"u64": $_warmup}, {"buffer": "end_w"}, {"buffer": "sum_w"}]},
    {"kernel": "chase", "grid": [1], "block": [32],
     "args": [{"buffer": "chain"}, {"u64": $_warm}, {"buffer": "end_a"}, {"buffer": "sum_a"}]},
    {"kernel": "chase", "grid": [1], "block": [32],
     "args": [{"buffer": "chain"}, {"u64": $((_warm + _meas))}, {"buffer": "end_b"}, {"buffer": "sum_b"}]}
  ],
  "expect": {
    "end_w": {"fill": $_end_w},
    "sum_w": {"fill": $_sum_w},
    "end_a": {"fill": $_end_a},
    "sum_a": {"fill": $_sum_a},
    "end_b": {"fill": $_end_b},
    "sum_b": {"fill": $_sum_b}
  }
}
JSON
}

# fid_strides MODULE GPU TRIPS_A TRIPS_B STRIDE...: one CTA of 32 warps per launch; launch 0 (the
# first stride, TRIPS_A trips) brings the kernel's code into the instruction caches; for the i-th
# STRIDE (from 0), launch 2i+1 runs TRIPS_A trips of 16 loads per warp and launch 2i+2 TRIPS_B.
# Cycles per warp load: (cycles[2i+2] - cycles[2i+1]) / ((TRIPS_B - TRIPS_A) * 16 * 32).
fid_strides() {
    _mod=$1 _gpu=$2 _ta=$3 _tb=$4
    shift 4
    _max=1
    for _s in "$@"; do [ "$_s" -gt "$_max" ] && _max=$_s; done
    printf '{\n  "module": "%s",\n  "gpu": "%s",\n  "buffers": {\n' "$_mod" "$_gpu"
    printf '    "data": {"type": "f32", "count": %d, "init": {"iota": {"start": 0, "step": 1}}},\n' \
        $((32 * _max))
    printf '    "out": {"type": "f32", "count": %d}\n  },\n  "launches": [\n' $((2048 * $# + 1024))
    printf '    {"kernel": "strided_loads", "grid": [1], "block": [1024], "args": [{"buffer": "data"}, {"u32": %d}, {"u32": %d}, {"buffer": "out", "offset": %d}]},\n' \
        "$1" "$_ta" $((8192 * $#))
    _i=0
    for _s in "$@"; do
        for _t in "$_ta" "$_tb"; do
            _off=$(( (2 * _i + (_t == _tb)) * 4096 ))
            _sep=,
            [ "$_i" -eq $(($# - 1)) ] && [ "$_t" = "$_tb" ] && _sep=
            printf '    {"kernel": "strided_loads", "grid": [1], "block": [1024], "args": [{"buffer": "data"}, {"u32": %d}, {"u32": %d}, {"buffer": "out", "offset": %d}]}%s\n' \
                "$_s" "$_t" "$_off" "$_sep"
        done
        _i=$((_i + 1))
    done
    printf '  ],\n  "expect": {"out": {"fill": 0}}\n}\n'
}

# fid_smem_conflicts MODULE GPU STEPS_A STEPS_B: launch 0 (n = 1, STEPS_A) brings the kernel's
# code into the instruction caches; for n = 1 .. 32, launches 2n-1 and 2n chase STEPS_A and
# STEPS_B steps with an n-way bank conflict. Cycles per shared load of n:
# (cycles[2n] - cycles[2n-1]) / (STEPS_B - STEPS_A).
fid_smem_conflicts() {
    _mod=$1 _gpu=$2 _sa=$3 _sb=$4
    printf '{\n  "module": "%s",\n  "gpu": "%s",\n' "$_mod" "$_gpu"
    printf '  "buffers": {"out": {"type": "u32", "count": 2080}},\n  "launches": [\n'
    printf '    {"kernel": "smem_conflict_chase", "grid": [1], "block": [32], "args": [{"u32": 1}, {"u32": %d}, {"buffer": "out", "offset": 8192}]},\n' "$_sa"
    _i=1
    while [ "$_i" -le 32 ]; do
        for _steps in "$_sa" "$_sb"; do
            _off=$(( ((_i - 1) * 2 + (_steps == _sb)) * 128 ))
            _sep=,
            [ "$_i" -eq 32 ] && [ "$_steps" = "$_sb" ] && _sep=
            printf '    {"kernel": "smem_conflict_chase", "grid": [1], "block": [32], "args": [{"u32": %d}, {"u32": %d}, {"buffer": "out", "offset": %d}]}%s\n' \
                "$_i" "$_steps" "$_off" "$_sep"
        done
        _i=$((_i + 1))
    done
    printf '  ],\n  "expect": {"out": {"fill": 1}}\n}\n'
}

# fid_smem_bandwidth MODULE GPU TRIPS_A TRIPS_B: one CTA of 32 warps reading conflict-free
# 128-byte wavefronts; launch 0 (TRIPS_A) brings the code into the instruction caches, launches 1
# and 2 run TRIPS_A and TRIPS_B trips. Bytes per cycle:
# (TRIPS_B - TRIPS_A) * 16 * 32 * 128 / (cycles[2] - cycles[1]).
fid_smem_bandwidth() {
    _mod=$1 _gpu=$2 _ta=$3 _tb=$4
    cat <<JSON
{
  "module": "$_mod",
  "gpu": "$_gpu",
  "buffers": {"out": {"type": "f32", "count": 3072}},
  "launches": [
    {"kernel": "smem_bandwidth", "grid": [1], "block": [1024], "args": [{"u32": $_ta}, {"buffer": "out", "offset": 8192}]},
    {"kernel": "smem_bandwidth", "grid": [1], "block": [1024], "args": [{"u32": $_ta}, {"buffer": "out"}]},
    {"kernel": "smem_bandwidth", "grid": [1], "block": [1024], "args": [{"u32": $_tb}, {"buffer": "out", "offset": 4096}]}
  ],
  "expect": {"out": {"fill": 0}}
}
JSON
}

# fid_triad MODULE GPU N RUNS: RUNS (1 or 2) triad launches over three N-float arrays (b = 1,
# c = 2, s = 3, so a = 7). The second of two streams from the L2 when 12 N bytes fit in it, and
# from DRAM, writing back the first run's dirty lines as it goes, when they are 4x the L2.
# GB/s of the last launch: 12 N / (cycles / clock).
fid_triad() {
    _mod=$1 _gpu=$2 _n=$3 _runs=$4
    _launch="{\"kernel\": \"triad\", \"grid\": [$(((_n + 255) / 256))], \"block\": [256], \"args\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"f32\": 3.0}, {\"u32\": $_n}]}"
    _launches=$_launch
    [ "$_runs" -eq 2 ] && _launches="$_launch,
    $_launch"
    cat <<JSON
{
  "module": "$_mod",
  "gpu": "$_gpu",
  "buffers": {
    "a": {"type": "f32", "count": $_n},
    "b": {"type": "f32", "count": $_n, "init": {"fill": 1.0}},
    "c": {"type": "f32", "count": $_n, "init": {"fill": 2.0}}
  },
  "launches": [
    $_launches
  ],
  "expect": {"a": {"fill": 7.0}}
}
JSON
}
