#!/bin/sh
# Builds the release preset with profile-guided optimisation (`make build-release` calls it).
#
# Usage: tools/pgo-build.sh JOBS
#
# Three steps in build/release: an instrumented build of gpumemsim (GMS_PGO=generate), the
# training runs, and the build of every target from the profiles (GMS_PGO=use). The training set
# is bench/kernels/small/*.json, each run functional on one thread, with the timing model, and
# functional on two threads, so that every executor, cache and timing path the benchmarks use is
# profiled; the benchmark files themselves (bench/kernels/*.json) are not among them.
#
# The profiles are kept: when no file under src/, bench/kernels/small/ or CMakeLists.txt is newer
# than the last training (build/release/pgo-trained), only the usual incremental build runs.
# Where the compiler is not GCC, the release preset is built without profiles, with a message.
# Exit status: 0 built; non-zero when a build or a training run fails (its output is shown).
set -eu
cd "$(dirname "$0")/.."
jobs=${1:-2}
dir=build/release
stamp=$dir/pgo-trained

compiler_is_gcc() {
    cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt" 2>/dev/null)
    "${cc:-cc}" -v 2>&1 | grep -q '^gcc version'
}

plain_build() {
    cmake --preset release -DGMS_PGO= -DGMS_LTO=OFF >/dev/null
    cmake --build "$dir" -j"$jobs"
}

cmake --preset release >/dev/null
if ! compiler_is_gcc; then
    echo "== release build without profile-guided optimisation: the compiler is not GCC =="
    plain_build
    exit 0
fi

if [ -f "$stamp" ] && [ -z "$(find src bench/kernels/small CMakeLists.txt -newer "$stamp" | head -1)" ]; then
    cmake --preset release -DGMS_PGO=use -DGMS_LTO=ON >/dev/null
    cmake --build "$dir" -j"$jobs"
    exit 0
fi

echo "== release build, profile-guided: instrumented build, training, final build =="
rm -f "$stamp"
find "$dir" -name '*.gcda' -delete 2>/dev/null || true
cmake --preset release -DGMS_PGO=generate -DGMS_LTO=OFF >/dev/null
cmake --build "$dir" -j"$jobs" --target gpumemsim

log=$dir/pgo-training.log
: >"$log"
for f in bench/kernels/small/*.json; do
    for flags in "--no-timing --threads 1" "--threads 1" "--no-timing --threads 2"; do
        # shellcheck disable=SC2086
        if ! "$dir/gpumemsim" run "$f" $flags >>"$log" 2>&1; then
            echo "pgo-build: training run failed: gpumemsim run $f $flags (output in $log)" >&2
            tail -20 "$log" >&2
            exit 1
        fi
    done
done

cmake --preset release -DGMS_PGO=use -DGMS_LTO=ON >/dev/null
cmake --build "$dir" -j"$jobs"
touch "$stamp"
