#!/usr/bin/env python3
"""Turns the patch tokens of an IGC binary (the PTM.txt that `ocloc disasm` writes) into the
payload items of a gpumemsim ND-range launch (docs/launch-files.md, "ND-range launches").

Usage: payload.py PTM.txt KERNEL.visaasm GRF_BYTES [LAUNCH.json]
Prints {"bytes": N, "items": [...]} as JSON; with LAUNCH.json, writes it as the "payload" of
every ND-range launch of that launch file instead. N is the end of the kernel's last cross-thread
.input (the size of its one parameter); items outside it (unused arguments) are left out.

Patch tokens used (IGC's patch_list.h): 17 DATA_PARAMETER {type, argument, offset, size,
source offset, ...} with types 1 KERNEL_ARGUMENT, 2 LOCAL_WORK_SIZE, 3 GLOBAL_WORK_SIZE,
4 NUM_WORK_GROUPS, 5 WORK_DIMENSIONS, 16 GLOBAL_WORK_OFFSET, 28 ENQUEUED_LOCAL_WORK_SIZE (one
token per dimension, source offsets 0, 4, 8); 30 STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT
{argument, surface-state offset, offset, size, ...} for pointer arguments; 15
ALLOCATE_LOCAL_SURFACE {offset, bytes}: the SLM the kernel's __local arrays take, which becomes
the launch's "shared_bytes"; 17 DATA_PARAMETER type 8 SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES
for a __local pointer argument {8, argument, offset, size, alignment, ...}: its SLM offset, written
as the argument's value (the launch file's {"local": BYTES, "align": A} gives A from this token)."""
import json
import re
import sys

IMPLICIT = {2: "local_size", 3: "global_size", 4: "num_groups", 5: "work_dim",
            16: "global_offset", 28: "enqueued_local_size"}


def tokens(ptm):
    cur = None
    for line in open(ptm):
        m = re.match(r"\s*4 Token (\d+)", line)
        if m:
            cur = int(m.group(1))
            continue
        m = re.match(r"\s*Hex (.*)", line)
        if m and cur is not None:
            b = bytes(int(x, 16) for x in m.group(1).split())
            words = [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b) - 3, 4)]
            yield cur, words
            cur = None


def cross_thread(visaasm, grf):
    ptis = 0
    inputs = []
    for line in open(visaasm):
        m = re.match(r"\.kernel_attr PerThreadInputSize=(\d+)", line)
        if m:
            ptis = int(m.group(1))
        m = re.match(r"\.input \S+ offset=(\d+) size=(\d+)", line)
        if m:
            inputs.append((int(m.group(1)), int(m.group(2))))
    start = grf + ptis
    return max((o + s - start for o, s in inputs if o >= start), default=0)


def main():
    ptm, visaasm, grf = sys.argv[1], sys.argv[2], int(sys.argv[3])
    end = cross_thread(visaasm, grf)
    items = []
    slm = 0
    for tok, w in tokens(ptm):
        if tok == 15 and len(w) >= 2:
            slm = w[1]
        if tok == 17 and len(w) >= 5:
            kind, arg, off, size, src = w[:5]
            if kind in (1, 8) and off + 4 <= end:
                items.append({"offset": off, "arg": arg})
            elif kind in IMPLICIT and src == 0 and off + (4 if kind == 5 else 12) <= end:
                items.append({"offset": off, "value": IMPLICIT[kind]})
        elif tok == 30 and len(w) >= 4:
            arg, _ssh, off, size = w[:4]
            if off + size <= end:
                items.append({"offset": off, "arg": arg})
    items.sort(key=lambda i: i["offset"])
    payload = {"bytes": end, "items": items}
    if len(sys.argv) > 4:
        launch = json.load(open(sys.argv[4]))
        for k in launch["launches"]:
            if "global_size" in k:
                k["payload"] = payload
                if slm:
                    k["shared_bytes"] = slm
        with open(sys.argv[4], "w") as f:
            json.dump(launch, f, indent=2)
            f.write("\n")
    else:
        print(json.dumps(dict(payload, shared_bytes=slm)))


main()
