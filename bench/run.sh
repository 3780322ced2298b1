#!/bin/sh
# Runs the throughput benchmarks: build/release/bench_run over every bench/kernels/*.json, from
# the repository root (`make bench` builds the release preset first). Extra arguments go to
# bench_run before the launch files, e.g. `sh bench/run.sh -r 5` for five repetitions each.
# See bench/README.md for what each launch file measures and how to read the table.
set -eu
cd "$(dirname "$0")/.."
runner=build/release/bench_run
if [ ! -x "$runner" ]; then
    echo "bench: $runner is missing; run \`make bench\` (it builds the release preset)" >&2
    exit 2
fi
# Which build is measured: profile-guided (tools/pgo-build.sh) or plain -O3, with or without LTO.
pgo=$(sed -n 's/^GMS_PGO:[A-Z]*=//p' build/release/CMakeCache.txt 2>/dev/null)
lto=$(sed -n 's/^GMS_LTO:[A-Z]*=//p' build/release/CMakeCache.txt 2>/dev/null)
case "$pgo" in use) build="profile-guided release build" ;; *) build="release build without profiles" ;; esac
case "$lto" in ON) build="$build, link-time optimised" ;; esac
echo "gpumemsim benchmarks: $(git rev-parse --short HEAD 2>/dev/null || echo 'no git'), $(uname -m), $(nproc 2>/dev/null || echo '?') cores, $build"
exec "$runner" "$@" bench/kernels/*.json
