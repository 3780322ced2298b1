#!/usr/bin/env python3
"""Runs the launches of a gpumemsim launch file on a real GPU with CuPy, so that Nsight Compute
can measure the same kernels with the same buffers, arguments and grids (bench/hw/README.md).

    python3 launch_cupy.py LAUNCH.json

It loads the launch file's PTX module with the driver (which compiles the PTX for the GPU at
hand), allocates every buffer, fills the ones with an initial value (random, iota or zero; the
random values are not gpumemsim's but have its range, which is all an address-independent
kernel's counters depend on), and runs each launch once. Launch files using a feature this
launcher does not know exit with status 3 and a message naming it."""
import json
import os
import sys

import cupy
import numpy

DTYPES = {
    "u8": numpy.uint8, "s8": numpy.int8, "u16": numpy.uint16, "s16": numpy.int16,
    "u32": numpy.uint32, "s32": numpy.int32, "u64": numpy.uint64, "s64": numpy.int64,
    "f16": numpy.float16, "f32": numpy.float32, "f64": numpy.float64,
    "b8": numpy.uint8, "b16": numpy.uint16, "b32": numpy.uint32, "b64": numpy.uint64,
    "i8": numpy.int8, "i16": numpy.int16, "i32": numpy.int32, "i64": numpy.int64,
}


def unsupported(what):
    print(f"launch_cupy: not supported: {what}", file=sys.stderr)
    sys.exit(3)


def make_buffer(name, spec):
    dtype = DTYPES.get(spec.get("type"))
    if dtype is None or "count" not in spec:
        unsupported(f"buffer {name}: type {spec.get('type')!r} or no count")
    count = int(spec["count"])
    init = spec.get("init")
    if init is None or init == "zero" or init == {"zero": {}}:
        return cupy.zeros(count, dtype=dtype)
    if "random" in init:
        r = init["random"]
        rng = numpy.random.default_rng(int(r.get("seed", 0)))
        lo, hi = r.get("min", 0), r.get("max", 1)
        if numpy.issubdtype(dtype, numpy.floating):
            host = rng.uniform(lo, hi, count).astype(dtype)
        else:
            host = rng.integers(int(lo), int(hi), count, endpoint=True).astype(dtype)
        return cupy.asarray(host)
    if "fill" in init:
        return cupy.full(count, init["fill"], dtype=dtype)
    if "iota" in init:
        r = init["iota"]
        host = (numpy.arange(count) * r.get("step", 1) + r.get("start", 0)).astype(dtype)
        return cupy.asarray(host)
    unsupported(f"buffer {name}: init {list(init)}")


def make_arg(arg, buffers):
    if "buffer" in arg:
        return buffers[arg["buffer"]]
    if len(arg) != 1:
        unsupported(f"argument {arg}")
    (kind, value), = arg.items()
    if kind not in DTYPES:
        unsupported(f"argument kind {kind}")
    return DTYPES[kind](value)


def triple(v):
    v = list(v) + [1] * (3 - len(v))
    return tuple(int(x) for x in v[:3])


def main():
    path = sys.argv[1]
    with open(path) as f:
        launch = json.load(f)
    here = os.path.dirname(os.path.abspath(path))
    if "module" not in launch or not launch["module"].endswith(".ptx"):
        unsupported("a module that is not one PTX file")
    module = cupy.RawModule(path=os.path.join(here, launch["module"]))
    buffers = {n: make_buffer(n, s) for n, s in launch.get("buffers", {}).items()}
    for one in launch["launches"]:
        if set(one) - {"kernel", "grid", "block", "args"}:
            unsupported(f"launch keys {sorted(set(one) - {'kernel', 'grid', 'block', 'args'})}")
        kernel = module.get_function(one["kernel"])
        args = tuple(make_arg(a, buffers) for a in one.get("args", []))
        kernel(triple(one["grid"]), triple(one["block"]), args)
    cupy.cuda.runtime.deviceSynchronize()


if __name__ == "__main__":
    main()
