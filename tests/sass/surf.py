#!/usr/bin/env python3
"""Writes the surface effect tests of seed page 004 (SUATOM) into tests/sass: for each row a
kernel (surf_ROW.sass), its launch files (surf_ROW*.json), the expected outputs computed here on
the CPU (surf_ROW*.out.expected.bin, surf_ROW*.img.expected.bin) and a check file (surf_ROW.check).
Run in tests/sass; the outputs are committed. The images follow docs/launch-files.md's images section
(docs/launch-files.md, "images"); the slot 256 puts an image's header-pool word at c[0x1][0x400].

Every kernel is one warp. Lane l works on texel (x, y) = (l, 1) of a 32 x 4 image of 32-bit texels,
whose texel i (x-fastest) starts as init(i); out[l] receives the old texel."""
import json
import struct

W, H = 32, 4
M32 = 0xFFFFFFFF

TARGET = ".target sm_52\n"
HEAD = """.kernel {name}
.param .u64 out                                     // c[0x0][0x140]
        S2R R0, SR_TID.X &wr=0x0 ?W2 ;
        SHL R1, R0, 0x2 &req={{0}} ?W6 ;             // lane * 4
        IADD.CC R8, R1, c[0x0][0x140] ?W6 ;        // R8:R9 = &out[lane]
        IADD.X R9, RZ, c[0x0][0x144] ?W6 ;
        MOV R2, R0 ?W6 ;                           // x = lane
        MOV32I R3, 0x1 ?W6 ;                       // y = 1
"""
TAIL = """        STG.E [R8], R6 &req={1} ?W1 ;
        EXIT ?WAIT5_END_GROUP ;
"""


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


# op rows: (name, SUATOM spelling, image kind, init start, step, operand code, b(l), c(l), M' )
def op_rows():
    lane_b = "        IADD32I R4, R0, 0x5 ?W6 ;                  // b = lane + 5\n"
    rows = [
        ("add", "ADD", "unsigned", 1000, 3, lane_b, lambda l: l + 5, None,
         lambda m, b, c: (m + b) & M32),
        ("min", "MIN.S32", "signed", -16, 1,
         "        IADD R4, -R0, 0xf ?W6 ;                    // b = 15 - lane\n",
         lambda l: 15 - l, None, lambda m, b, c: min(s32(m), s32(b)) & M32),
        ("max", "MAX.S32", "signed", -16, 1,
         "        IADD R4, -R0, 0xf ?W6 ;                    // b = 15 - lane\n",
         lambda l: 15 - l, None, lambda m, b, c: max(s32(m), s32(b)) & M32),
        ("inc", "INC", "unsigned", 0, 1,
         "        MOV32I R4, 0x28 ?W6 ;                      // bound 40: texels 40.. wrap to 0\n",
         lambda l: 40, None, lambda m, b, c: 0 if m >= b else m + 1),
        ("dec", "DEC", "unsigned", 0, 1,
         "        MOV32I R4, 0x28 ?W6 ;                      // bound 40: 0 and > 40 become 40\n",
         lambda l: 40, None, lambda m, b, c: b if m == 0 or m > b else m - 1),
        ("and", "AND", "unsigned", 0xF0F0, 0x111,
         "        LOP32I.XOR R4, R0, 0xff0f ?W6 ;            // b = lane ^ 0xff0f\n",
         lambda l: l ^ 0xFF0F, None, lambda m, b, c: m & b),
        ("or", "OR", "unsigned", 0xF0F0, 0x111,
         "        LOP32I.XOR R4, R0, 0xff0f ?W6 ;\n",
         lambda l: l ^ 0xFF0F, None, lambda m, b, c: m | b),
        ("xor", "XOR", "unsigned", 0xF0F0, 0x111,
         "        LOP32I.XOR R4, R0, 0xff0f ?W6 ;\n",
         lambda l: l ^ 0xFF0F, None, lambda m, b, c: m ^ b),
        ("exch", "EXCH", "unsigned", 7, 7, lane_b, lambda l: l + 5, None,
         lambda m, b, c: b),
        # CAS: compare R4, new value R5; even lanes compare with the texel's value and swap
        ("cas", "CAS", "unsigned", 32, 1,
         "        LOP32I.AND R5, R0, 0x1 ?W6 ;               // odd lanes: compare misses\n"
         "        IADD R4, R2, 0x20 ?W6 ;                    // texel (lane, 1) holds lane + 64\n"
         "        IADD R4, R4, 0x20 ?W6 ;\n"
         "        IADD R4, R4, R5 ?W6 ;                      // compare = lane + 64 (+1 if odd)\n"
         "        IADD32I R5, R0, 0x1000 ?W6 ;               // new value = 0x1000 + lane\n",
         lambda l: l + 64 + (l & 1), lambda l: 0x1000 + l,
         lambda m, b, c: c if m == b else m),
        # The float sizes (IR f32 and f16x2) on raw 32-bit texels. F32.FTZ.RN: even lanes add
        # 1.0 to 1.0 + (32 + lane) ulp, which rounds to nearest even in [2, 4); odd lanes add
        # the subnormal `lane`, which is flushed (the texel stays).
        ("fadd", "ADD.F32.FTZ.RN", "unsigned", 0x3F800000, 1,
         "        LOP32I.AND R5, R0, 0x1 ?W6 ;\n"
         "        IADD32I R5, R5, -0x1 ?W6 ;                  // even lanes: all ones\n"
         "        LOP32I.AND R5, R5, 0x3f800000 ?W6 ;\n"
         "        IADD R4, R5, R0 ?W6 ;                      // b = lane (+ 1.0 if even)\n",
         lambda l: l + (0 if l & 1 else 0x3F800000), None, f32_add_ftz),
        # F16x2.RN: each half separately; the sums of odd lanes are ties to even.
        ("hadd", "ADD.F16x2.RN", "unsigned", 0x3C004000, 0x00010001,
         "        MOV32I R4, 0x3c003c00 ?W6 ;\n"
         "        IADD R4, R4, R0 ?W6 ;                      // b = {1.0, 1.0 + lane ulp}\n",
         lambda l: 0x3C003C00 + l, None, lambda m, b, c: halves(m, b, lambda x, y: x + y)),
        # Min and max pick the low half from one operand and the high half from the other.
        ("hmin", "MIN.F16x2.RN", "unsigned", 0x3C004000, 0x00010001,
         "        MOV32I R4, 0xc0004030 ?W6 ;\n"
         "        IADD R4, R4, R0 ?W6 ;                      // b = {-2.0, 2.0 + (48 + lane) ulp}\n",
         lambda l: 0xC0004030 + l, None, lambda m, b, c: halves(m, b, min)),
        ("hmax", "MAX.F16x2.RN", "unsigned", 0x3C004000, 0x00010001,
         "        MOV32I R4, 0xc0004030 ?W6 ;\n"
         "        IADD R4, R4, R0 ?W6 ;\n",
         lambda l: 0xC0004030 + l, None, lambda m, b, c: halves(m, b, max)),
    ]
    return rows


def f32_add_ftz(m, b, c):
    """The f32 sum of two texel patterns, subnormal operands and result flushed, rounded to
    nearest even (the double sum of two floats of close exponents is exact)."""
    def val(bits):
        return 0.0 if not bits & 0x7F800000 else struct.unpack("<f", struct.pack("<I", bits))[0]
    r = struct.unpack("<I", struct.pack("<f", val(m) + val(b)))[0]
    return r & 0x80000000 if not r & 0x7F800000 else r


def halves(m, b, fn):
    """fn applied to each f16 half of two texel patterns, each result rounded to nearest even."""
    out = 0
    for shift in (0, 16):
        x, y = (struct.unpack("<e", struct.pack("<H", (v >> shift) & 0xFFFF))[0] for v in (m, b))
        out |= struct.unpack("<H", struct.pack("<e", fn(x, y)))[0] << shift
    return out


def image(kind, start, step, extra=None):
    img = {"dim": "2d", "format": {"channels": 1, "bits": 32, "kind": kind},
           "width": W, "height": H, "depth": 1, "layers": 1, "layout": {"pitch": 256},
           "init": {"iota": {"start": start, "step": step}}, "slot": 256}
    img.update(extra or {})
    return img


def launch(stem, kernel, images, expect, extra=None, module=None):
    doc = {"module": (module or stem) + ".sass", "config": "gpu.json",
           "buffers": {"out": {"type": "u32", "count": 32}},
           "images": images,
           "launches": [{"kernel": kernel, "grid": [1], "block": [32],
                         "args": [{"buffer": "out"}]}]}
    if expect:
        doc["expect"] = expect
    doc.update(extra or {})
    with open(stem + ".json", "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def write_bin(path, words):
    with open(path, "wb") as f:
        f.write(b"".join(struct.pack("<I", w & M32) for w in words))


def run_op(init, b, c, op, lanes=range(32), y=1):
    """Texels after one SUATOM per lane at (lane, y), and the old values."""
    img, old = list(init), []
    for l in range(32):
        if l not in lanes:
            old.append(0)
            continue
        i = y * W + l
        old.append(img[i])
        img[i] = op(img[i], b(l), c(l) if c else None) & M32
    return img, old


def texels(start, step):
    return [(start + step * i) & M32 for i in range(W * H)]


def write_op_rows():
    for name, spelling, kind, start, step, code, b, c, op in op_rows():
        stem = "surf_" + name
        with open(stem + ".sass", "w") as f:
            f.write(f"// Seed page 004, SUATOM.{spelling}: one atomic per lane on texel (lane, 1) "
                    "of a 32 x 4 image\n// through the slot 0x100; out[lane] = the old texel. "
                    "tests/sass/surf.py writes this file.\n")
            f.write(TARGET + HEAD.format(name=stem) + code)
            f.write(f"        SUATOM.D.2D.{spelling} R6, [R2], R4, 0x100 &wr=0x1 ?W2 ;\n" + TAIL)
        img, old = run_op(texels(start, step), b, c, op)
        write_bin(stem + ".out.expected.bin", old)
        write_bin(stem + ".img.expected.bin", img)
        launch(stem, stem, {"img": image(kind, start, step)},
               {"out": {"file": stem + ".out.expected.bin"},
                "img": {"file": stem + ".img.expected.bin"}})
        with open(stem + ".check", "w") as f:
            f.write("require-dialect sass\n")
            f.write(f"# SUATOM.D.2D.{spelling}: the launch file's expect holds the old texels "
                    "(out) and the image\n# afterwards (surf.py's reference); surface accesses "
                    "never touch L1, and the 32 texels of\n# row 1 are one 128-byte line of the "
                    "pitch layout; atomics are performed lane by lane at\n# the L2 (as global "
                    "atomics are), each lane reading and writing its texel's sector: 64 sector\n"
                    "# accesses.\n")
            f.write(f"run r {stem}.json\n"
                    "check r:insn[SUATOM].l1.sector_hits == 0\n"
                    "check r:insn[SUATOM].l1.sector_misses == 0\n"
                    "check r:insn[SUATOM].l2.sector_accesses == 64\n")


def write_special(stem, comment, body, launches, check):
    with open(stem + ".sass", "w") as f:
        f.write(comment + "// tests/sass/surf.py writes this file.\n" + TARGET)
        for kernel, code in body:
            f.write(HEAD.format(name=kernel) + code + TAIL)
    for lstem, kernel, images, expect, extra in launches:
        launch(lstem, kernel, images, expect, extra, stem)
    with open(stem + ".sass") as f:
        lines = f.read().split("\n")
    trap = 1 + next((i for i, t in enumerate(lines) if ".TRAP R6" in t), -1)
    with open(stem + ".check", "w") as f:
        f.write("require-dialect sass\n" + check.replace("@TRAPLINE@", str(trap)))


def write_ba():
    """.BA: x in bytes (lane * 4) names the same texel as the element index lane."""
    stem = "surf_ba"
    init = texels(500, 1)
    img, old = run_op(init, lambda l: 1, None, lambda m, b, c: m + b)
    img2, old2 = run_op(img, lambda l: 100, None, lambda m, b, c: m + b)
    write_bin(stem + ".out.expected.bin", [n - o for n, o in zip(old2, old)])
    write_bin(stem + ".img.expected.bin", img2)
    code = ("        MOV32I R4, 0x1 ?W6 ;\n"
            "        MOV R2, R1 ?W6 ;                           // x = lane * 4 bytes\n"
            "        SUATOM.D.BA.2D.ADD R10, [R2], R4, 0x100 &wr=0x1 ?W2 ;\n"
            "        MOV R2, R0 ?W6 ;                           // x = lane (an element)\n"
            "        MOV32I R4, 0x64 ?W6 ;\n"
            "        SUATOM.D.2D.ADD R6, [R2], R4, 0x100 &req={1} &wr=0x1 ?W2 ;\n"
            "        IADD R6, R6, -R10 &req={1} ?W6 ;           // 1: the second saw the first\n")
    write_special(stem, "// Seed page 004, .BA: a byte x and an element x name the same texel.\n",
                  [(stem, code)],
                  [(stem, stem, {"img": image("unsigned", 500, 1)},
                    {"out": {"file": stem + ".out.expected.bin"},
                     "img": {"file": stem + ".img.expected.bin"}}, None)],
                  "# out[lane] = 1: the element-x ADD read what the byte-x ADD wrote (the same "
                  "texel); the image\n# holds init + 101 on row 1.\nrun r surf_ba.json\n"
                  "check r:insns[SUATOM].l1.sector_hits == 0\n")


def write_clamp():
    """y = 5 on a 4-row image: .IGN does nothing and returns 0, .NEAR clamps to row 3, .TRAP
    faults."""
    stem = "surf_clamp"
    init = texels(0, 1)
    body, launches = [], []
    for mode in ("IGN", "NEAR", "TRAP"):
        kernel = f"{stem}_{mode.lower()}"
        body.append((kernel, "        MOV32I R3, 0x5 ?W6 ;                       // y = 5: out "
                     "of bounds\n        MOV32I R4, 0x1 ?W6 ;\n"
                     f"        SUATOM.D.2D.ADD.{mode} R6, [R2], R4, 0x100 &wr=0x1 ?W2 ;\n"))
        if mode == "IGN":
            img, old = init, [0] * 32
        elif mode == "NEAR":
            img, old = run_op(init, lambda l: 1, None, lambda m, b, c: m + b, y=3)
        else:
            launches.append((kernel, kernel, {"img": image("unsigned", 0, 1)}, {}, None))
            continue
        write_bin(kernel + ".out.expected.bin", old)
        write_bin(kernel + ".img.expected.bin", img)
        launches.append((kernel, kernel, {"img": image("unsigned", 0, 1)},
                         {"out": {"file": kernel + ".out.expected.bin"},
                          "img": {"file": kernel + ".img.expected.bin"}}, None))
    write_special(stem, "// Seed page 004, .clamp: y = 5 on a 4-row image under .IGN, .NEAR "
                  "(the default) and .TRAP.\n", body, launches,
                  "# .IGN: nothing written, every lane reads 0. .NEAR: row 3 is updated "
                  "instead. .TRAP: the\n# launch faults at the SUATOM, no outputs.\n"
                  "run i surf_clamp_ign.json\nrun n surf_clamp_near.json\n"
                  "run-status 1 t surf_clamp_trap.json\noutput t surf_clamp\\.sass:@TRAPLINE@\n"
                  "check i:insn[SUATOM].l2.sector_accesses == 0\n"
                  "check n:insn[SUATOM].l2.sector_accesses == 64\n")


def write_bindless():
    """The slot 0x100 and the bindless Rc holding the same pool word act alike; Ps stays false
    (nothing is sparse)."""
    stem = "surf_bindless"
    init = texels(10, 2)
    img, old = run_op(init, lambda l: l + 5, None, lambda m, b, c: m + b)
    for k in ("slot", "rc"):
        write_bin(f"{stem}_{k}.out.expected.bin", old)
        write_bin(f"{stem}_{k}.img.expected.bin", img)
    write_bin(f"{stem}_ps.out.expected.bin", [0] * 32)
    write_bin(f"{stem}_ps.img.expected.bin", img)
    b = "        IADD32I R4, R0, 0x5 ?W6 ;\n"
    body = [(f"{stem}_slot", b + "        SUATOM.D.2D.ADD R6, [R2], R4, 0x100 &wr=0x1 ?W2 ;\n"),
            (f"{stem}_rc", b + "        MOV R5, c[0x1][0x400] ?W6 ;                // the pool "
             "word of slot 0x100\n        SUATOM.D.2D.ADD R6, [R2], R4, R5 &wr=0x1 ?W2 ;\n"),
            (f"{stem}_ps", b + "        MOV R5, c[0x1][0x400] ?W6 ;\n"
             "        SUATOM.D.2D.ADD P0, R6, [R2], R4, R5 &wr=0x1 ?W2 ;\n"
             "        MOV R6, RZ &req={1} ?W6 ;                  // 0 unless P0 (sparse)\n"
             "        @P0 MOV32I R6, 0x1 ?W6 ;\n")]
    launches = [(f"{stem}_{k}", f"{stem}_{k}", {"img": image("unsigned", 10, 2)},
                 {"out": {"file": f"{stem}_{k}.out.expected.bin"},
                  "img": {"file": f"{stem}_{k}.img.expected.bin"}}, None)
                for k in ("slot", "rc", "ps")]
    write_special(stem, "// Seed page 004: #tsPtrIdxU13 against bindless Rc, and the sparse "
                  "status Ps.\n", body, launches,
                  "# The same values either way, and the same traffic.\n"
                  "run s surf_bindless_slot.json\nrun b surf_bindless_rc.json\n"
                  "run p surf_bindless_ps.json\n"
                  "same s:insn[SUATOM].l2 b:insn[SUATOM].l2\n"
                  "check s:insn[SUATOM].l1.sector_hits == 0\n")


def write_disabled_invalid():
    """A disabled surface drops the write; a header index above image_pool_max is invalid."""
    stem = "surf_dropped"
    init = texels(0, 1)
    b = "        MOV32I R4, 0x1 ?W6 ;\n"
    body = [(f"{stem}_disabled", b + "        SUATOM.D.2D.ADD R6, [R2], R4, 0x100 &wr=0x1 ?W2 ;\n"),
            (f"{stem}_invalid", b + "        SUATOM.D.2D.ADD R6, [R2], R4, 0x101 &wr=0x1 ?W2 ;\n")]
    for k in ("disabled", "invalid"):
        write_bin(f"{stem}_{k}.img.expected.bin", init)
    write_bin(f"{stem}_disabled.out.expected.bin", [0] * 32)
    spare = image("unsigned", 0, 1)
    bad = image("unsigned", 0, 1, {"slot": 257})
    launches = [(f"{stem}_disabled", f"{stem}_disabled",
                 {"img": image("unsigned", 0, 1, {"disabled": True})},
                 {"img": {"file": f"{stem}_disabled.img.expected.bin"},
                  "out": {"file": f"{stem}_disabled.out.expected.bin"}}, None),
                (f"{stem}_invalid", f"{stem}_invalid", {"ok": spare, "img": bad},
                 {"img": {"file": f"{stem}_invalid.img.expected.bin"}},
                 {"image_pool_max": 0})]
    write_special(stem, "// Seed page 004: a disabled surface drops the write; a header above "
                  "the pool's maximum index\n// is an invalid surface (img has header 2, "
                  "image_pool_max 0).\n", body, launches,
                  "# The image is unchanged in both runs (the expect), and the disabled "
                  "image's atomics return 0\n# (out). Header indices follow the order of the "
                  "images section (ok 1, img 2); an invalid\n# header drops the write as a "
                  "disabled surface does, and the run completes.\n"
                  "run d surf_dropped_disabled.json\nrun v surf_dropped_invalid.json\n"
                  "check d:insn[SUATOM].l1.sector_hits == 0\n")


def write_pool_max():
    """image_pool_max 1: header 1 (ok, slot 256) stays valid, header 2 (img, slot 257) is above
    the maximum, through the slot and through the bindless Rc alike; a disabled image's atomic
    returns 0."""
    stem = "surf_pool"
    ok, old = run_op(texels(0, 1), lambda l: 1, None, lambda m, b, c: m + b)
    big = texels(1000000, 1)
    write_bin(f"{stem}_max.out.expected.bin", old)
    write_bin(f"{stem}_max.ok.expected.bin", ok)
    write_bin(f"{stem}_max.img.expected.bin", big)
    code = ("        MOV32I R4, 0x1 ?W6 ;\n"
            "        SUATOM.D.2D.ADD R10, [R2], R4, 0x101 &wr=0x1 ?W2 ;  // img: invalid\n"
            "        MOV R5, c[0x1][0x404] ?W6 ;                // img's pool word, bindless\n"
            "        SUATOM.D.2D.ADD R11, [R2], R4, R5 &wr=0x2 ?W2 ;\n"
            "        SUATOM.D.2D.ADD R6, [R2], R4, 0x100 &wr=0x3 ?W2 ;  // ok: valid\n"
            "        IADD R6, R6, R10 &req={1,2,3} ?W6 ;        // + 0 + 0: invalid ones return 0\n"
            "        IADD R6, R6, R11 ?W6 ;\n")
    launches = [(f"{stem}_max", f"{stem}_max",
                 {"ok": image("unsigned", 0, 1),
                  "img": image("unsigned", 1000000, 1, {"slot": 257})},
                 {"out": {"file": f"{stem}_max.out.expected.bin"},
                  "ok": {"file": f"{stem}_max.ok.expected.bin"},
                  "img": {"file": f"{stem}_max.img.expected.bin"}},
                 {"image_pool_max": 1})]
    write_special(stem, "// Seed page 004: header pointers above the pool's maximum index are "
                  "invalid (image_pool_max 1:\n// ok, header 1, is valid; img, header 2, is "
                  "not).\n", [(f"{stem}_max", code)], launches,
                  "# out[lane] = ok's old texel: the two atomics on img returned 0, and img is "
                  "unchanged (the\n# expect); ok's row 1 gained 1. Only the valid SUATOM made "
                  "requests: 32 lanes x 2 L2 sector\n# accesses.\nrun m surf_pool_max.json\n"
                  "check m:insns[SUATOM].l2.sector_accesses == 64\n"
                  "check m:totals.surface.requests == 1\n")


def main():
    write_op_rows()
    write_ba()
    write_clamp()
    write_bindless()
    write_disabled_invalid()
    write_pool_max()


if __name__ == "__main__":
    main()
