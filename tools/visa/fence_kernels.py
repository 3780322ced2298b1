#!/usr/bin/env python3
"""Writes the hand-written LSC fence kernels of tests/visa/fence/ (docs/visa.md, "Fences and cache
controls"): one .visaasm per shared function x fence operation x scope of Intel's LSC_FENCE page
(seed page 001) that Intel's assembler accepts: ugm, ugml and tgm with every operation and scope,
slm with none.group only (every other slm fence is a verifier error, tests/visa/lsc_bad/).

Each kernel is IGC's SIMD16 code for fence_probe.cl (fence_probe.pvc.visaasm, dumped with ocloc)
with cache controls on its accesses and one fence between the stores and the reloads:

    buf[i] += 100      load .ca.ca, store .wb.wb: the line of buf is dirty in the L1 only
    l2buf[i] += 1000   load .uc.ca, store .uc.wb: the line of l2buf is dirty in the L2 only
    lsc_fence.SFID.OP.SCOPE
    out[i] = buf[i]    load .ca.ca: hits the L1 when the line stayed there
    out[16+i] = l2buf[i]   load .uc.ca
    (both stores to out .uc.uc)

and expected.json says, per kernel, what the fence must leave (a work-group of 16 work-items is one
thread on Xe-core 0, in tile 0): whether buf's and l2buf's increments survive, the bytes the fence
writes back from L1 and to memory, and whether the reload of buf hits the L1. "near": every line
in the thread's tile (pvc; pvc-2t with l2buf at its start); "far": l2buf's line in the other
tile's L2 slices (pvc-2t, l2buf passed 4096 bytes on). The rules are those of src/mem/mem_lsc.c:
group covers no cache, local the own L1, tile the tile's L1s and L2 slices, gpu and wider every
L1 and the whole L2. Run it from the repository root; it rewrites the folder's
kernels and expected.json, nothing else.
"""
import json
import os
import re
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "visa",
                    "fence")
SFIDS = ["ugm", "ugml", "tgm"]
OPS = ["none", "evict", "invalidate", "discard", "clean", "flushl3"]
SCOPES = ["group", "local", "tile", "gpu", "gpus", "sysrel", "sysacq"]
LINE = 64

# the skeleton's accesses (by IGC's instruction number) and the cache controls they get
CONTROLS = {6: ("lsc_load.ugm", ".ca.ca"), 9: ("lsc_store.ugm", ".wb.wb"),
            10: ("lsc_load.ugm", ".uc.ca"), 12: ("lsc_store.ugm", ".uc.wb"),
            13: ("lsc_load.ugm", ".ca.ca"), 15: ("lsc_store.ugm", ".uc.uc"),
            16: ("lsc_load.ugm", ".uc.ca"), 21: ("lsc_store.ugm", ".uc.uc")}
FENCE_AFTER = 12


def expected(sfid, op, scope, far):
    """What the fence leaves (src/mem/mem_lsc.c). far: l2buf's line lies in the L2 slices of
    the other tile than the thread's (pvc-2t with l2buf 4096 bytes on), so tile scope misses it;
    otherwise every line is in the thread's tile (pvc, and pvc-2t with l2buf at its start)."""
    wide = ("gpu", "gpus", "sysrel", "sysacq")
    l1 = scope != "group" and sfid != "slm"
    l2_near = scope not in ("group", "local") and sfid != "slm"
    l2_far = l2_near and (scope in wide or not far)
    at_l1 = l1 and op not in ("none", "flushl3")
    writes_back = op in ("evict", "clean", "flushl3")
    l1_sends = at_l1 and op in ("evict", "clean")  # buf's line reaches the (near) L2
    dram = 0
    if op != "none" and writes_back:
        dram = LINE * ((l2_near and l1_sends) + l2_far)
    return {
        "buf_kept": not (at_l1 and op == "discard"),
        "l2buf_kept": not (l2_far and op == "discard"),
        "fence_l1_writeback_bytes": LINE if l1_sends else 0,
        "fence_dram_write_bytes": dram,
        "reload_hits_l1": not (at_l1 and op in ("evict", "discard")),
    }


def kernel(template, sfid, op, scope):
    name = "fence_%s_%s_%s" % (sfid, op, scope)
    out = []
    for line in template.splitlines():
        if line.startswith("// .decl") or line.startswith("/// VISA Predefined"):
            continue  # IGC's list of predefined variables: comments
        if line.startswith(".kernel "):
            line = '.kernel "%s"' % name
        m = re.search(r"/// \$(\d+)\s*$", line)
        n = int(m.group(1)) if m else None
        if n in CONTROLS:
            mnemonic, cc = CONTROLS[n]
            assert mnemonic + " " in line, (n, line)
            line = line.replace(mnemonic + " ", mnemonic + cc + " ", 1)
        out.append(line)
        if n == FENCE_AFTER:
            out.append("    lsc_fence.%s.%s.%s" % (sfid, op, scope))
    return name, "\n".join(out).rstrip("\n") + "\n"


def main():
    with open(os.path.join(HERE, "fence_probe.pvc.visaasm")) as f:
        template = f.read()
    cases = [(s, o, c) for s in SFIDS for o in OPS for c in SCOPES] + [("slm", "none", "group")]
    table = {"near": {}, "far": {}}
    for sfid, op, scope in cases:
        name, text = kernel(template, sfid, op, scope)
        with open(os.path.join(HERE, name + ".visaasm"), "w") as f:
            f.write(text)
        table["near"][name] = expected(sfid, op, scope, False)
        table["far"][name] = expected(sfid, op, scope, True)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%d kernels" % len(cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
