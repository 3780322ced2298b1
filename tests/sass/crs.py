#!/usr/bin/env python3
"""Writes the launch files of crs.sass and the expected outputs of its value kernels (the CPU
reference). Run in tests/sass; the outputs are committed."""
import json
import struct


def launch(name, kernel, n=0, m=0, expect=None, rows=3):
    d = {"module": "crs.sass", "config": "gpu.json",
         "buffers": {"out": {"type": "u32", "count": 32 * rows}},
         "launches": [{"kernel": kernel, "grid": [1], "block": [32],
                       "args": [{"buffer": "out"}, {"u32": n},
                                {"u32": m}]}]}
    if expect is not None:
        d["expect"] = {"out": {"file": "crs_%s.out.expected.bin" % name}}
        with open("crs_%s.out.expected.bin" % name, "wb") as f:
            f.write(struct.pack("<%dI" % (32 * rows), *expect))
    with open("crs_%s.json" % name, "w") as f:
        json.dump(d, f, indent=2)
        f.write("\n")


lanes = range(32)
launch("ssy_sync", "ssy_sync", expect=[(l + 100 if l & 1 else 2 * l) + 0x1000 for l in lanes],
       rows=1)
launch("pbk_brk", "pbk_brk", expect=[(l & 7) << 16 | (l & 7) * ((l & 7) - 1) // 2 for l in lanes],
       rows=1)
for name, n, m in (("recurse19", 19, 0), ("recurse_lanes", 10, 1)):
    ks = [n + l * m for l in lanes]
    launch(name, "recurse", n, m, [k * (k + 1) // 2 for k in ks] + ks + [0] * 32)
launch("save_restore", "save_restore", 19, 0, [190 + 0x11000] * 32 + [2] * 32, rows=2)
for kernel, n in (("sync_empty", 0), ("brk_in_call", 0), ("too_deep", 300), ("set_too_deep", 0),
                  ("bad_entry", 0)):
    launch(kernel, kernel, n)
