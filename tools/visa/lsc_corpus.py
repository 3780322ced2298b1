#!/usr/bin/env python3
"""Writes the GenX_IR differential corpus of the vISA LSC instructions (docs/visa.md,
"Differences from GenX_IR"; tests/visa/lsc_diff.sh runs it).

Each case is a one-instruction module: a fixed frame of declarations around the instruction
under test. The data variables hold 512 bytes, the most an accepted message moves (8 GRFs of
PVC): bigger ones make GenX_IR spill on DG2's 4 KiB register file and give up.
Every case is written once per platform (PVC: Xe-HPC, 64-byte GRFs; DG2: Xe-HPG, 32-byte
GRFs), because the payload limit of 8 GRFs differs between them.

usage: lsc_corpus.py OUTDIR
Writes OUTDIR/NNNNN.visaasm and OUTDIR/cases.tsv (id <TAB> platform <TAB> instruction), in a
fixed order so that ids are stable between runs. Prints "N modules". Exit status 0, or 2 on a
usage error."""
import os
import sys

PLATFORMS = ("PVC", "DG2")

FRAME = """.version 4.1
.kernel "k{id}"
.decl VA v_type=G type=uq num_elts=32 align={grf}
.decl VA32 v_type=G type=ud num_elts=64 align={grf}
.decl VA16 v_type=G type=uw num_elts=64 align={grf}
.decl VD v_type=G type=d num_elts=128 align={grf}
.decl VS v_type=G type=d num_elts=128 align={grf}
.decl VS2 v_type=G type=d num_elts=128 align={grf}
.decl VQ v_type=G type=q num_elts=64 align={grf}
.decl VQS v_type=G type=q num_elts=64 align={grf}
.decl VQS2 v_type=G type=q num_elts=64 align={grf}
.decl VUB v_type=G type=ub num_elts=256 align={grf}
.decl VUW v_type=G type=uw num_elts=128 align={grf}
.decl VSMALL v_type=G type=d num_elts=8 align={grf}
.decl VB v_type=G type=uq num_elts=1 align=qword
.decl VX v_type=G type=ud num_elts=1 align=dword
.decl P1 v_type=P num_elts=32
.kernel_attr Target="3d"
.kernel_attr SimdSize=32
.function "_main_0"

_main_0:
    {insn}
    ret (M1, 1)
"""
# The GRF alignment of the frame's variables: gpumemsim tells the platform of a module without
# .input from its widest alignment (64-byte GRFs: PVC), as IGC aligns variables to the GRF.
GRF_ALIGN = {"PVC": "wordx32", "DG2": "hword"}

CACHE = ("df", "uc", "ca", "wb", "wt", "st", "ri", "cc")
SFIDS = ("ugm", "ugml", "slm", "tgm")
FENCE_OPS = ("none", "evict", "invalidate", "discard", "clean", "flushl3", "type6", "flush")
SCOPES = ("group", "local", "tile", "gpu", "gpus", "sysrel", "sysacq", "system")
ATOMICS_UNARY = ("iinc", "idec", "load")
ATOMICS_BINARY = ("store", "iadd", "isub", "smin", "smax", "umin", "umax", "fadd", "fsub",
                  "fmin", "fmax", "and", "or", "xor")
ATOMICS_TERNARY = ("icas", "fcas")
ATOMICS_OTHER = ("bfadd", "bfsub", "bfmin", "bfmax", "bfcas", "apndctr_atomic_add",
                 "apndctr_atomic_sub", "apndctr_atomic_store", "inc", "cmpxchg")
DATA_SIZES = ("d8", "d16", "d32", "d64", "d8u32", "d16u32", "d16u32h", "d8c32", "d16c32",
              "d16c32h", "u8", "u16", "u32", "u64", "u8c32", "u16c32", "d128")
VECTORS = ("", "x1", "x2", "x3", "x4", "x8", "x16", "x32", "x64", "x5")


def data_var(shape, role="d"):
    """The variable whose type fits the register elements of `shape`: 8-byte for d64, the
    element's own size in a transposed block of d8/d16, else 4-byte. role: d (destination or
    stored data), s / s2 (atomic sources)."""
    base = shape.split("x")[0].rstrip("t") if "x" in shape else shape.rstrip("t")
    t = shape.endswith("t")
    if base in ("d64", "u64"):
        return {"d": "VQ", "s": "VQS", "s2": "VQS2"}[role]
    if t and base in ("d8", "u8"):
        return "VUB"
    if t and base in ("d16", "u16"):
        return "VUW"
    return {"d": "VD", "s": "VS", "s2": "VS2"}[role]


def wide_srcs(srcs, shape):
    """Atomic sources of 8-byte variables for d64 data."""
    if data_var(shape) != "VQ":
        return srcs
    return srcs.replace("VS2", "VQS2").replace("VS ", "VQS ")


def addr(sfid, bits=64):
    """A flat address operand that fits the SFID (SLM offsets are 32-bit)."""
    if sfid == "slm" or bits == 32:
        return "flat[VA32]:a32"
    return "flat[VA]:a64"


def cache_cases():
    """Every .L1.L3 pair on each operation kind and SFID, and the malformed cache suffixes."""
    out = []
    for sfid in SFIDS[:3]:
        a = addr(sfid)
        for l1 in CACHE:
            for l3 in CACHE:
                cc = f".{l1}.{l3}"
                out.append(f"lsc_load.{sfid}{cc} (M1, 16) VD:d32 {a}")
                out.append(f"lsc_store.{sfid}{cc} (M1, 16) {a} VS:d32")
                out.append(f"lsc_atomic_iadd.{sfid}{cc} (M1, 16) VD:d32 {a} VS %null")
        for l1 in CACHE:
            out.append(f"lsc_load.{sfid}.{l1} (M1, 16) VD:d32 {a}")
            out.append(f"lsc_store.{sfid}.{l1} (M1, 16) {a} VS:d32")
        for cc in (".uc.uc.uc", ".ca.ca.ca", ".df.df.df", ".uc.ca.wb"):
            out.append(f"lsc_load.{sfid}{cc} (M1, 16) VD:d32 {a}")
            out.append(f"lsc_store.{sfid}{cc} (M1, 16) {a} VS:d32")
    for l1 in CACHE:  # prefetch and the other atomic arities
        for l3 in CACHE:
            out.append(f"lsc_load.ugm.{l1}.{l3} (M1, 16) %null:d32 flat[VA]:a64")
            out.append(f"lsc_atomic_iinc.ugm.{l1}.{l3} (M1, 16) VD:d32 flat[VA]:a64 %null %null")
            out.append(f"lsc_atomic_icas.ugm.{l1}.{l3} (M1, 16) VD:d32 flat[VA]:a64 VS VS2")
    for bad in (".UC.UC", ".uc.", ".none.none", ".uc..uc", ".wb.ca.", ".xx.uc"):
        out.append(f"lsc_load.ugm{bad} (M1, 16) VD:d32 flat[VA]:a64")
    return out


def fence_cases():
    """Every SFID x fence op x scope, and the forms a fence may not take."""
    out = []
    for sfid in SFIDS + ("urb", "UGM"):
        for op in FENCE_OPS:
            for scope in SCOPES:
                out.append(f"lsc_fence.{sfid}.{op}.{scope}")
    for f in ("(P1) lsc_fence.ugm.none.gpu", "(!P1) lsc_fence.ugm.evict.gpu",
              "lsc_fence.ugm.none.gpu (M1, 1)", "lsc_fence (M1_NM, 1) .ugm.none.gpu",
              "LSC_FENCE.ugm.clean.sysrel", "lsc_fence.ugm.clean", "lsc_fence.ugm",
              "lsc_fence", "lsc_fence.ugm.clean.sysrel.gpu", "lsc_fence.ugm.CLEAN.sysrel",
              "lsc_fence.ugm.clean.SYSREL", "lsc_fence.ugm.none.gpu VD",
              "lsc_fence.ugm.gpu.none", "lsc_fence.none.ugm.gpu", "lsc_fence.slm.none.group",
              "lsc_fence.ugm.clean.sysrel // comment"):
        out.append(f)
    return out


def shape_cases():
    """Data sizes x vector sizes x transposition on loads, stores and prefetches."""
    out = []
    for ds in DATA_SIZES:
        for vec in VECTORS:
            shape = ds + vec
            for t, es in (("t", "(M1_NM, 1)"), ("", "(M1, 16)"), ("", "(M1, 32)")):
                out.append(f"lsc_load.ugm {es} {data_var(shape + t)}:{shape}{t} flat[VA]:a64")
            out.append(f"lsc_store.ugm (M1, 16) flat[VA]:a64 {data_var(shape)}:{shape}")
            out.append(f"lsc_store.ugm (M1_NM, 1) flat[VA]:a64 {data_var(shape + 't')}:{shape}t")
            if ds in ("d8", "d32", "d64", "d16u32"):
                out.append(f"lsc_load.ugm (M1, 16) {data_var(shape + 't')}:{shape}t flat[VA]:a64")
                out.append(f"lsc_load.slm (M1, 16) {data_var(shape)}:{shape} flat[VA32]:a32")
                out.append(f"lsc_load.ugml (M1, 16) {data_var(shape)}:{shape} flat[VA]:a64")
                out.append(f"lsc_load.slm (M1_NM, 1) {data_var(shape + 't')}:{shape}t flat[VA32]:a32")
                out.append(f"lsc_load.ugm (M1, 8) %null:{shape} flat[VA]:a64")
    for es in (1, 2, 4, 8, 16, 32):  # the payload limit at each SIMD width
        for shape in ("d64x3", "d64x4", "d64x8", "d32x8", "d16x2", "d8u32", "d64x16t",
                      "d64x32t", "d64x64t", "d32x64t"):
            mask = "M1_NM" if es == 1 else "M1"
            out.append(f"lsc_load.ugm ({mask}, {es}) {data_var(shape)}:{shape} flat[VA]:a64")
            out.append(f"lsc_store.ugm ({mask}, {es}) flat[VA]:a64 {data_var(shape)}:{shape}")
    for bad in ("VD:d32t4", "VD:d32x4T", "VD:x4", "VD:d32 x4", "VD", "VD:", "VD:d33",
                "VD:d32x4tt", "VD:d32.x", "VSMALL:d32", "VSMALL:d32x4"):
        out.append(f"lsc_load.ugm (M1, 16) {bad} flat[VA]:a64")
    return out


def atomic_cases():
    """Each atomic op with each source pattern, data size and SFID."""
    out = []
    srcs = {"none": "%null %null", "one": "VS %null", "two": "VS VS2", "second": "%null VS2"}
    ops = ATOMICS_UNARY + ATOMICS_BINARY + ATOMICS_TERNARY + ATOMICS_OTHER
    for op in ops:
        for sfid in ("ugm", "slm", "ugml"):
            a = addr(sfid)
            for sname, s in srcs.items():
                out.append(f"lsc_atomic_{op}.{sfid} (M1, 16) VD:d32 {a} {s}")
            right = ("%null %null" if op in ATOMICS_UNARY else
                     "VS VS2" if op in ATOMICS_TERNARY or op.endswith("cas") else "VS %null")
            sizes = ("d8", "d16", "d64", "d16u32", "d8u32", "d16c32", "d32x2", "d32t",
                     "d64x1", "d16u32h", "u32")
            if op not in ("iinc", "iadd", "icas", "fadd", "fcas", "store", "load", "bfadd"):
                sizes = ("d64", "d16c32")
            for ds in sizes:
                out.append(f"lsc_atomic_{op}.{sfid} (M1, 16) {data_var(ds)}:{ds} {a} {wide_srcs(right, ds)}")
            out.append(f"lsc_atomic_{op}.{sfid} (M1, 16) %null:d32 {a} {right}")
            out.append(f"lsc_atomic_{op}.{sfid} (M1_NM, 1) VD:d32 {a} {right}")
            out.append(f"(P1) lsc_atomic_{op}.{sfid} (M1, 32) VD:d32 {a} {right}")
    out.append("lsc_atomic_iadd.ugm (M1, 16) VD:d32 flat[VA]:a64 VS")
    out.append("lsc_atomic_iadd.ugm (M1, 16) VD:d32 flat[VA]:a64")
    out.append("lsc_atomic_iadd.ugm (M1, 16) VD:d32 flat[VA]:a64 0x1 %null")
    out.append("lsc_atomic.ugm (M1, 16) VD:d32 flat[VA]:a64 VS %null")
    return out


def address_cases():
    """Address models x address sizes x SFIDs, offsets and scales."""
    out = []
    models = ("flat", "", "arg", "bss(VX)", "ss(VX)", "bti(0x4)", "bti(VX)", "bti(0x100)",
              "surf(VX)", "flat(VB)", "bss(VX,0x1)", "bti(0x4,0x2)", "FLAT", "slm", "stateless")
    sizes = ("a16", "a32", "a32u", "a32s", "a64", "a8", "A64")
    for sfid in ("ugm", "slm", "ugml"):
        for m in models:
            for s in sizes:
                v = "VA" if s in ("a64", "A64") else "VA16" if s == "a16" else "VA32"
                out.append(f"lsc_load.{sfid} (M1, 16) VD:d32 {m}[{v}]:{s}")
                out.append(f"lsc_store.{sfid} (M1, 16) {m}[{v}]:{s} VS:d32")
            out.append(f"lsc_atomic_iadd.{sfid} (M1, 16) VD:d32 {m}[VA32]:a32 VS %null")
    for off in ("+0x100", "-0x10", "+16", "-4", "+0x7fffffff", "+0x80000000", "-0x80000000",
                "+0xffffffffffff", "+0", "+VX", "*2", "+0x1+0x2"):
        out.append(f"lsc_load.ugm (M1, 16) VD:d32 flat[VA{off}]:a64")
        out.append(f"lsc_load.slm (M1, 16) VD:d32 flat[VA32{off}]:a32")
    for scaled in ("0x4*VA32", "0x4*VA32-0x10", "2*VA32+0x8", "0x1*VA32", "0x3*VA32"):
        out.append(f"lsc_load.ugm (M1, 16) VD:d32 flat[{scaled}]:a32")
    for bad in ("flat[VA]", "flat[]:a64", "flat[VA:a64", "flat VA:a64", "flat[VA]:a64:a64",
                "flat[0x100]:a64", "flat[%null]:a64", "VA:a64", "flat[VD]:a64",
                "flat[VA32]:a64", "flat[VA]:a32"):
        out.append(f"lsc_load.ugm (M1, 16) VD:d32 {bad}")
    return out


def exec_cases():
    """Execution sizes, masks and predicates on a load and a store."""
    out = []
    for es in ("(M1, 1)", "(M1_NM, 1)", "(M1, 2)", "(M1, 4)", "(M1, 8)", "(M1, 16)",
               "(M1, 32)", "(M5, 16)", "(M5_NM, 16)", "(M8, 4)", "(M9, 16)", "(M1, 64)",
               "(M1, 3)", "(M1, 0)", "(16)", "(1)", "(32)", "(M1,16)", "", "(M1 16)",
               "(M1_NM, 32)", "(M3, 8)", "(N1, 16)"):
        out.append(f"lsc_load.ugm {es} VD:d32 flat[VA]:a64")
        out.append(f"lsc_store.ugm {es} flat[VA]:a64 VS:d32")
        out.append(f"lsc_atomic_iinc.ugm {es} VD:d32 flat[VA]:a64 %null %null")
    for p in ("(P1)", "(!P1)", "(P1.any)", "(P1.all)", "(-P1)", "(P2)", "(VD)", "(P1.any16h)",
              "(P1.ANY)", "(!P1.all)"):
        out.append(f"{p} lsc_load.ugm (M1, 32) VD:d32 flat[VA]:a64")
        out.append(f"{p} lsc_store.ugm (M1, 16) flat[VA]:a64 VS:d32")
    return out


def variant_cases():
    """The other untyped messages (quad, strided, block2d, status, uncompressed), typed
    messages and misspelt mnemonics."""
    out = []
    for m in ("xyzw", "x", "xy", "xz", "yzw", "zx", "xyzwx", "w", "xyz"):
        out.append(f"lsc_load_quad.ugm (M1, 16) VD:d32.{m} flat[VA]:a64")
        out.append(f"lsc_store_quad.ugm (M1, 16) flat[VA]:a64 VS:d32.{m}")
        out.append(f"lsc_load_quad.slm (M1, 16) VD:d32.{m} flat[VA32]:a32")
    for f in ("lsc_load_quad.ugm (M1, 16) VD:d32x4 flat[VA]:a64",
              "lsc_load_quad.ugm (M1_NM, 1) VD:d32.xyzwt flat[VA]:a64",
              "lsc_load_strided.ugm (M1_NM, 1) VD:d32x4 flat[VA, 0x10]:a64",
              "lsc_load_strided.ugm (M1, 16) VD:d32 flat[VA]:a64",
              "lsc_load_strided.ugm (M1_NM, 1) VD:d32x4t flat[VA+0x10, 0x10]:a64",
              "lsc_store_strided.ugm (M1_NM, 1) flat[VA, 0x10]:a64 VS:d32x4",
              "lsc_load_block2d.ugm (M1_NM, 1) VD:d8.2x16x32nn flat[VB,VX,VX,VX,VX,VX]",
              "lsc_load_block2d.ugm (M1_NM, 1) VD:d16.1x16x8tn flat[VB,VX,VX,VX,VX+1,VX-2]",
              "lsc_load_block2d.ugm (M1_NM, 1) VD:d32.8x8nt flat[VB,VX,VX,VX,VX,VX]",
              "lsc_load_block2d.ugm (M1, 16) VD:d8.2x16x32nn flat[VB,VX,VX,VX,VX,VX]",
              "lsc_store_block2d.ugm (M1_NM, 1) flat[VB,VX,VX,VX,VX,VX] VS:d8.16x32nn",
              "lsc_load_status.ugm (M1, 16) VD:d32 flat[VA]:a64",
              "lsc_store_uncompressed.ugm (M1, 16) flat[VA]:a64 VS:d32",
              "lsc_load.tgm (M1, 16) VD:d32 bti(0x1)[VA32]:a32",
              "lsc_load_quad.tgm (M1, 16) VD:d32.xyzw bti(0x1)[VA32,VA32,VA32,VA32]:a32",
              "lsc_store.tgm (M1, 16) bti(0x1)[VA32]:a32 VS:d32",
              "lsc_atomic_iadd.tgm (M1, 16) VD:d32 bti(0x1)[VA32]:a32 VS %null",
              "lsc_read_state_info.tgm (M1_NM, 1) VD bti(0x1)",
              "lsc_load.urb (M1, 16) VD:d32 flat[VA32]:a32",
              "lsc_load (M1, 16) VD:d32 flat[VA]:a64", "lsc_loads.ugm (M1, 16) VD:d32 flat[VA]:a64",
              "lsc_load.ugm.ugm (M1, 16) VD:d32 flat[VA]:a64",
              "lsc_store.ugm (M1, 16) VS:d32 flat[VA]:a64",
              "lsc_load.ugm (M1, 16) flat[VA]:a64 VD:d32",
              "lsc_store.ugm (M1, 16) flat[VA]:a64 %null:d32",
              "lsc_load.ugm (M1, 16) VD:d32 flat[VA]:a64 VS",
              "lsc_load.ugm (M1, 16) VD:d32",
              "lsc_load.ugm.ov (M1, 16) VD:d32 flat[VA]:a64",
              "lsc_load.ugm.uc.uc.ov (M1, 16) VD:d32 flat[VA]:a64",
              "lsc_store.ugm.ov (M1, 16) flat[VA]:a64 VS:d32"):
        out.append(f)
    return out


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: lsc_corpus.py OUTDIR\n")
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    insns = (cache_cases() + fence_cases() + shape_cases() + atomic_cases() + address_cases()
             + exec_cases() + variant_cases())
    n = 0
    with open(os.path.join(outdir, "cases.tsv"), "w") as manifest:
        for insn in insns:
            for plat in PLATFORMS:
                case = f"{n:05d}"
                with open(os.path.join(outdir, case + ".visaasm"), "w") as f:
                    f.write(FRAME.format(id=case, insn=insn, grf=GRF_ALIGN[plat]))
                manifest.write(f"{case}\t{plat}\t{insn}\n")
                n += 1
    print(f"{n} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
