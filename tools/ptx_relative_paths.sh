#!/bin/sh
# Rewrites the `.file` directives that nvcc writes with absolute paths into paths relative to
# this repository's root, for files inside it (paths elsewhere, such as CUDA's own headers, are
# left alone). Committed PTX then carries no directory of the machine that generated it, and the
# per-line reports, which print these paths, name the source as it lies in the repository.
# Usage: tools/ptx_relative_paths.sh FILE.ptx ...   (the generators under tests/ call it)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd -P)
escaped=$(printf '%s' "$root" | sed 's/[][\.*^$|]/\\&/g')
for f in "$@"; do
    sed -i "s|^\([[:space:]]*\.file[[:space:]]\{1,\}[0-9]\{1,\}[[:space:]]\{1,\}\"\)$escaped/|\1|" "$f"
done
