#!/usr/bin/env python3
"""Writes carry64's inputs (carry64.a.bin, carry64.b.bin: 128 u64 pairs with the edge cases of
a 64-bit subtraction and comparison done in 32-bit halves) and the CPU reference of every row of
carry64.sass (carry64.out.expected.bin). Run in tests/sass; the outputs are committed."""
import random
import struct

M32, M64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF
N = 128


def pairs():
    edges = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]
    words = [h << 32 | l for h in edges for l in edges]  # 25 values, every half at an edge
    out = []
    rng = random.Random(9)
    for a in words:  # blo == 0, equal halves, sign boundaries of both halves
        b = rng.choice(words)
        out.append((a, b))
        out.append((a, a))
        out.append((a, (a & ~M32) | rng.choice(edges)))  # equal high words
        out.append((a, (rng.choice(edges) << 32) | (a & M32)))  # equal low words
    while len(out) < N:
        a, b = rng.getrandbits(64), rng.getrandbits(64)
        if rng.random() < 0.3:
            b = (b & ~M32) | (a & M32)
        out.append((a, b))
    return out[:N]


def signed(x):
    return x - (1 << 64) if x >> 63 else x


def main():
    ps = pairs()
    rows = [[] for _ in range(10)]
    for a, b in ps:
        d = (a - b) & M64
        rows[0].append(d & M32)
        rows[1].append(d >> 32)
        rows[2].append(d & M32)
        rows[3].append(d >> 32)
        rows[4].append(int(signed(a) < signed(b)))
        rows[5].append(int(signed(a) >= signed(b)))
        rows[6].append(int(a < b))
        rows[7].append(int(a >= b))
        e = (a + b) & M64
        rows[8].append(e & M32)
        rows[9].append(e >> 32)
    with open("carry64.a.bin", "wb") as f:
        f.write(struct.pack("<%dQ" % N, *[a for a, _ in ps]))
    with open("carry64.b.bin", "wb") as f:
        f.write(struct.pack("<%dQ" % N, *[b for _, b in ps]))
    with open("carry64.out.expected.bin", "wb") as f:
        f.write(struct.pack("<%dI" % (10 * N), *[v for r in rows for v in r]))


main()
