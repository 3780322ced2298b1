/* Reference for video_simd: the CUDA SIMD intrinsics as the CUDA Math API describes them, and
 * the inline-assembly video instructions as PTX ISA 9.1's pseudo-code defines them, each written
 * out element by element for its one form. */
#include "ref_common.h"

#include <stdlib.h>

enum { OUTS = 26 };

static uint32_t byte_of(uint32_t v, unsigned i) { return (v >> (8 * i)) & 0xFFu; }
static uint32_t half_of(uint32_t v, unsigned i) { return (v >> (16 * i)) & 0xFFFFu; }
static int32_t sbyte(uint32_t v, unsigned i) { return (int32_t)(int8_t)byte_of(v, i); }
static int32_t shalf(uint32_t v, unsigned i) { return (int32_t)(int16_t)half_of(v, i); }
static int64_t clampll(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static uint32_t absdiffu4(uint32_t a, uint32_t b)
{
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t x = byte_of(a, i), y = byte_of(b, i);
        d |= (x > y ? x - y : y - x) << (8 * i);
    }
    return d;
}

static uint32_t sadu4(uint32_t a, uint32_t b)
{
    uint32_t s = 0;
    for (unsigned i = 0; i < 4; i++) s += byte_of(absdiffu4(a, b), i);
    return s;
}

/* The intrinsics (outputs 0..8). */
static void intrinsics(uint32_t a, uint32_t b, uint32_t c, uint32_t *o)
{
    o[0] = absdiffu4(a, b);
    o[1] = sadu4(a, b);
    o[2] = ((half_of(a, 0) + half_of(b, 0)) & 0xFFFFu) |
           (((half_of(a, 1) + half_of(b, 1)) & 0xFFFFu) << 16);
    o[3] = o[5] = o[7] = o[8] = 0;
    for (unsigned i = 0; i < 4; i++) {
        o[3] |= ((byte_of(a, i) - byte_of(b, i)) & 0xFFu) << (8 * i);
        o[5] |= (byte_of(a, i) >= byte_of(b, i) ? 0xFFu : 0u) << (8 * i);
        o[7] |= ((byte_of(a, i) + byte_of(b, i) + 1) >> 1) << (8 * i);
    }
    o[4] = 0;
    for (unsigned i = 0; i < 2; i++) {
        int32_t x = shalf(a, i), y = shalf(b, i);
        o[4] |= ((uint32_t)(x > y ? x : y) & 0xFFFFu) << (16 * i);
        o[8] |= ((uint32_t)(x > y ? x - y : y - x) & 0xFFFFu) << (16 * i);
    }
    int64_t sx = (int32_t)a, sy = (int32_t)b;
    o[6] = (uint32_t)(sx > sy ? sx - sy : sy - sx) + c;
}

/* vadd4.s32.s32.s32.sat, vavrg2 into h1, vset4.gt.add under .b210 with a's bytes reversed,
 * vsub2.u32.s32.s32.sat with swapped sources (outputs 9..12). */
static void simd_asm(uint32_t a, uint32_t b, uint32_t c, uint32_t *o)
{
    o[9] = 0;
    for (unsigned i = 0; i < 4; i++)
        o[9] |= ((uint32_t)clampll(sbyte(a, i) + sbyte(b, i), -128, 127) & 0xFFu) << (8 * i);
    int32_t s = shalf(a, 1) + shalf(b, 1);
    int32_t avg = s >= 0 ? (s + 1) >> 1 : s >> 1;
    o[10] = half_of(c, 0) | (((uint32_t)avg & 0xFFFFu) << 16);
    uint32_t count = 0;
    for (unsigned i = 0; i < 3; i++) count += byte_of(a, 3 - i) > byte_of(b, i);
    o[11] = c + count;
    uint64_t pair = ((uint64_t)b << 32) | a;
    o[12] = 0;
    for (unsigned i = 0; i < 2; i++) {
        int32_t x = (int16_t)(uint16_t)(pair >> (16 * (2 + i)));
        int32_t y = (int16_t)(uint16_t)(pair >> (16 * i));
        o[12] |= ((uint32_t)clampll(x - y, 0, 65535)) << (16 * i);
    }
}

/* The scalar forms (outputs 13..20). */
static void scalar_asm(uint32_t a, uint32_t b, uint32_t c, uint32_t *o)
{
    o[13] = (uint32_t)clampll((int64_t)byte_of(a, 2) + shalf(b, 1), INT32_MIN, INT32_MAX);
    int64_t diff = clampll((int64_t)(int32_t)a - (int32_t)b, -128, 127);
    o[14] = (c & ~0xFF00u) | (((uint32_t)diff & 0xFFu) << 8);
    int64_t ad = shalf(a, 0) - shalf(b, 0);
    ad = ad < 0 ? -ad : ad;
    o[15] = (uint32_t)(ad < (int64_t)c ? ad : (int64_t)c);
    uint32_t mx = byte_of(a, 3) > byte_of(b, 0) ? byte_of(a, 3) : byte_of(b, 0);
    o[16] = mx + c;
    uint32_t sh = byte_of(b, 0) > 32 ? 32 : byte_of(b, 0);
    uint64_t shifted = (uint64_t)a << sh; /* a < 2^32, sh <= 32: exact */
    o[17] = shifted > UINT32_MAX ? UINT32_MAX : (uint32_t)shifted;
    int32_t shr = (int32_t)a >> (b & 31u);
    o[18] = (uint32_t)(shr > (int32_t)c ? shr : (int32_t)c);
    int64_t prod = (int64_t)shalf(a, 1) * (int64_t)byte_of(b, 1) + (int64_t)(int32_t)c;
    o[19] = (uint32_t)clampll(prod >> 7, INT32_MIN, INT32_MAX);
    int le = (int64_t)sbyte(a, 3) <= (int64_t)byte_of(b, 3);
    o[20] = (c & 0xFFFF0000u) | (uint32_t)le;
}

/* vmad with negations (outputs 24, 25): -(a.h0 * b.h1) + c, signed since negated, shifted
 * right by 15 toward -inf; a * b.b2 - c, unsigned product, signed result, saturated. */
static void vmad_asm(uint32_t a, uint32_t b, uint32_t c, uint32_t *o)
{
    int64_t p = -(int64_t)half_of(a, 0) * (int64_t)half_of(b, 1) + (int32_t)c;
    o[24] = (uint32_t)(p >= 0 ? p / 32768 : -((-p + 32767) / 32768));
    int64_t q = (int64_t)a * (int64_t)byte_of(b, 2) - (int64_t)c;
    o[25] = (uint32_t)clampll(q, INT32_MIN, INT32_MAX);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: video_simd LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 4);
    uint32_t *x = ref_input("x", "u32", n), *y = ref_input("y", "u32", n);
    uint32_t *z = ref_input("z", "u32", n), *out = ref_input("out", "u32", OUTS * n);
    int saturated = 0, merged_negative = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t *o = out + OUTS * i;
        intrinsics(x[i], y[i], z[i], o);
        simd_asm(x[i], y[i], z[i], o);
        scalar_asm(x[i], y[i], z[i], o);
        vmad_asm(x[i], y[i], z[i], o);
        uint32_t sad = 0;
        for (size_t k = 0; k < 4; k++) sad = absdiffu4(x[(i + k) % n], y[(i + 2 * k) % n]) + sad;
        o[21] = sad;
        o[22] = sadu4(x[i], z[i]) + sadu4(y[i], z[i]);
        o[23] = absdiffu4(x[i] ^ z[i], y[i]);
        saturated += o[17] == UINT32_MAX && x[i] != 0;
        merged_negative += (int16_t)(o[10] >> 16) < 0;
    }
    ref_require(saturated > 0 && merged_negative > 0, "inputs cover saturation and negatives");
    ref_write_expected("out", out, OUTS * n * sizeof *out);
    free(x), free(y), free(z), free(out);
    return 0;
}
