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
echo "gpumemsim benchmarks: $(git rev-parse --short HEAD 2>/dev/null || echo 'no git'), $(uname -m), $(nproc 2>/dev/null || echo '?') cores"
exec "$runner" "$@" bench/kernels/*.json
