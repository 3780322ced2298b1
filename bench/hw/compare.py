#!/usr/bin/env python3
"""Puts Nsight Compute's measurements (bench/hw/run_ncu.sh) next to gpumemsim's values of the same
metrics (each launch's `ncu` object in `gpumemsim run --json`), launch by launch.

    python3 bench/hw/compare.py [-g GPUMEMSIM] [--gpu PRESET] [--summary] [--no-timing]
                                [--check-exact METRIC,...] NCU_DIR LAUNCH.json ...

Prints one Markdown table per launch: metric, measured, modelled, and modelled / measured; with
--summary, one table with a row per launch and the main counters as "measured / modelled".
--check-exact prints nothing but the launches where one of the listed metrics differs, and exits
with status 1 if any does (tests/hw.cmake keeps the agreements of docs/hardware.md this way);
--no-timing runs gpumemsim in the functional mode (counts only, faster).
gpumemsim runs each file with the timing model on (cycles and occupancy need it) and, with
--gpu, on that preset instead of the file's."""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile


def measured(path):
    """[{metric: value}] per kernel launch, in launch order, from an ncu --csv file."""
    launches = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(line for line in f if line.startswith('"')):
            value = row["Metric Value"].replace(",", "")
            try:
                value = float(value)
            except ValueError:
                continue
            launches.setdefault(int(row["ID"]), {})[row["Metric Name"]] = value
    return [launches[k] for k in sorted(launches)]


def modelled(gpumemsim, launch_file, preset, timing=True):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [gpumemsim, "run", os.path.basename(launch_file), "--quiet", "--json", out]
        if preset:
            cmd += ["--gpu", preset]
        if not timing:
            cmd.append("--no-timing")
        subprocess.run(cmd, cwd=os.path.dirname(os.path.abspath(launch_file)),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        if not os.path.exists(out):
            return None
        with open(out) as f:
            return [launch["ncu"] for launch in json.load(f)["launches"]]


def number(v):
    if v is None:
        return "-"
    if abs(v) >= 1000 or float(v).is_integer():
        return f"{v:,.0f}"
    return f"{v:.3g}"


SUMMARY = [
    ("L1 global load sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("of them L1 hits", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"),
    ("L1 global store sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("shared bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
    ("DRAM bytes read", "dram__bytes_read.sum"),
    ("DRAM bytes written", "dram__bytes_write.sum"),
    ("cycles", "sm__cycles_elapsed.max"),
]


def summary_row(title, h, m):
    cells = []
    for _, metric in SUMMARY:
        hv, mv = h.get(metric), m.get(metric)
        cells.append(f"{number(hv)} / {number(mv)}")
    print(f"| `{title}` | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-g", default="build/release/gpumemsim")
    ap.add_argument("--gpu", default=None)
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--check-exact", default="")
    ap.add_argument("ncu_dir")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    gpumemsim = os.path.abspath(a.g)
    exact = [m for m in a.check_exact.split(",") if m]
    failed = False
    if a.summary and not exact:
        print("| launch | " + " | ".join(label for label, _ in SUMMARY) + " |")
        print("|---" * (len(SUMMARY) + 1) + "|")
    for f in a.files:
        name = os.path.basename(f)[:-len(".json")]
        csv_path = os.path.join(a.ncu_dir, name + ".csv")
        if not os.path.exists(csv_path):
            print(f"{name}: no measurement", file=sys.stderr)
            failed = True
            continue
        hw = measured(csv_path)
        model = modelled(gpumemsim, f, a.gpu, not a.no_timing)
        if model is None:
            print(f"{name}: gpumemsim wrote no report", file=sys.stderr)
            failed = True
            continue
        if exact:
            if len(hw) != len(model):
                print(f"{name}: {len(hw)} launches measured, {len(model)} modelled")
                failed = True
            for i, (h, m) in enumerate(zip(hw, model)):
                for metric in exact:
                    if h.get(metric) != m.get(metric):
                        print(f"{name} launch {i + 1}: {metric} measured {number(h.get(metric))}"
                              f" modelled {number(m.get(metric))}")
                        failed = True
            continue
        for i, (h, m) in enumerate(zip(hw, model)):
            if a.summary:
                summary_row(name if len(hw) == 1 else f"{name} #{i + 1}", h, m)
                continue
            title = name if len(hw) == 1 else f"{name}, launch {i + 1}"
            print(f"\n#### {title}\n")
            print("| metric | H100 (ncu) | gpumemsim | gpumemsim / H100 |")
            print("|---|---:|---:|---:|")
            for metric, value in h.items():
                mv = m.get(metric)
                ratio = "-" if mv is None or value == 0 else f"{mv / value:.2f}"
                print(f"| `{metric}` | {number(value)} | {number(mv)} | {ratio} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
