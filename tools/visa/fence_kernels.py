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

and expected.json says, per kernel, what the fence must leave on a one-tile Xe preset (a work-group
of 16 work-items is one thread on Xe-core 0): whether buf's and l2buf's increments survive, the
bytes the fence writes back from L1 and to memory, and whether the reload of buf hits the L1. The
rules are those of src/mem/mem_lsc.c: group covers no cache, local the own L1, tile and wider
the L1s and the L2 (one tile: all of it). Run it from the repository root; it rewrites the folder's
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


def expected(sfid, op, scope):
    """What the fence leaves on a one-tile preset (src/mem/mem_lsc.c)."""
    l1 = scope != "group" and sfid != "slm"
    l2 = scope not in ("group", "local") and sfid != "slm"
    at_l1 = l1 and op not in ("none", "flushl3")
    at_l2 = l2 and op != "none"
    writes_back = op in ("evict", "clean", "flushl3")
    return {
        "buf_kept": not (at_l1 and op == "discard"),
        "l2buf_kept": not (at_l2 and op == "discard"),
        "fence_l1_writeback_bytes": LINE if at_l1 and op in ("evict", "clean") else 0,
        # the L2 writes back l2buf's line, and buf's once the L1 sent it there
        "fence_dram_write_bytes": (LINE * (1 + (at_l1 and op in ("evict", "clean")))
                                   if at_l2 and writes_back else 0),
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
    table = {}
    for sfid, op, scope in cases:
        name, text = kernel(template, sfid, op, scope)
        with open(os.path.join(HERE, name + ".visaasm"), "w") as f:
            f.write(text)
        table[name] = expected(sfid, op, scope)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%d kernels" % len(cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
