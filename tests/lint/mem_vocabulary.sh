#!/bin/sh
# Fails when a source file under DIR (default src/mem) speaks a dialect: the memory system
# implements the neutral memory contract (DESIGN.md, "The memory access contract") and must not
# know PTX's names. Each pattern below is a PTX word: its cache operators written as modifiers
# (.ca .cg .cs .lu .cv .wb .wt), the old IR cache-operator enum and field (IR_COP_, cop), the
# PTX-only instructions and their modifiers (prefetchu, applypriority, createpolicy, membar,
# .L1::/.L2:: qualifiers, .L2::cache_hint), the old names of them in the contract
# (prefetch_uniform, MEM_OP_APPLYPRIORITY, MEM_OP_DISCARD), and the name PTX itself (any case,
# so ptxas too). Prints every offending line as FILE:LINE:TEXT and exits 1; exits 0 when clean.
# Usage: sh mem_vocabulary.sh [DIR]
set -u
dir=${1:-src/mem}
if [ ! -d "$dir" ]; then
    echo "mem_vocabulary: no directory $dir" >&2
    exit 2
fi
status=0
check() {
    # $1: what the pattern catches, $2: grep -E pattern, $3: extra grep option (-i) or empty
    found=$(grep -rnE $3 -e "$2" "$dir" --include='*.c' --include='*.h' --include='*.def')
    if [ -n "$found" ]; then
        echo "$found" | sed "s/^/PTX vocabulary ($1): /"
        status=1
    fi
}
check "the name PTX" 'ptx' -i
check "cache operator" '\.(ca|cg|cs|lu|cv|wb|wt)([^A-Za-z0-9_]|$)' ''
check "IR cache operator" 'IR_COP_|(^|[^A-Za-z0-9_])cop([^A-Za-z0-9_]|$)' ''
check "PTX instruction" 'prefetchu|prefetch_uniform|applypriority|createpolicy|membar' -i
check "old contract operation" 'MEM_OP_(APPLYPRIORITY|DISCARD|PREFETCH)' ''
check "PTX qualifier" 'L[12]::|cache_hint([^s]|$)' ''
exit $status
