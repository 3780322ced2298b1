/* Element types and values of launch files: the type table, reading a JSON value for a given
 * element type, rounding to f16/bf16/f32, little-endian storage, and the fill, iota and random
 * generators (docs/launch-files.md, "Element types", "Values" and "Initial contents").
 *
 * The f16 and bf16 conversions are written here rather than taken from src/exec: the launch layer
 * sits beside the executor, not above it, and the random-init definition fixes its own rounding
 * (double -> f32 -> f16/bf16, each step to nearest even). */
#include "launch/launch_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned char bytes, is_float, is_signed;
} elem_table[LAUNCH_ELEM_COUNT] = {
    [LAUNCH_I8] = {"i8", 1, 0, 1},     [LAUNCH_U8] = {"u8", 1, 0, 0},
    [LAUNCH_I16] = {"i16", 2, 0, 1},   [LAUNCH_U16] = {"u16", 2, 0, 0},
    [LAUNCH_I32] = {"i32", 4, 0, 1},   [LAUNCH_U32] = {"u32", 4, 0, 0},
    [LAUNCH_I64] = {"i64", 8, 0, 1},   [LAUNCH_U64] = {"u64", 8, 0, 0},
    [LAUNCH_F16] = {"f16", 2, 1, 0},   [LAUNCH_BF16] = {"bf16", 2, 1, 0},
    [LAUNCH_F32] = {"f32", 4, 1, 0},   [LAUNCH_F64] = {"f64", 8, 1, 0},
};

static int elem_valid(launch_elem e) { return (unsigned)e < LAUNCH_ELEM_COUNT; }

size_t launch_elem_bytes(launch_elem e) { return elem_valid(e) ? elem_table[e].bytes : 0; }

const char *launch_elem_name(launch_elem e) { return elem_valid(e) ? elem_table[e].name : "?"; }

int launch_elem_is_float(launch_elem e) { return elem_valid(e) && elem_table[e].is_float; }

int launch_elem_is_signed(launch_elem e) { return elem_valid(e) && elem_table[e].is_signed; }

int launch_elem_from_name(const char *name, launch_elem *out)
{
    for (int i = 0; i < LAUNCH_ELEM_COUNT; i++) {
        if (strcmp(name, elem_table[i].name) == 0) {
            *out = (launch_elem)i;
            return 0;
        }
    }
    return -1;
}

/* ---- storage ---- */

void launch_store_bits(uint8_t *dst, size_t bytes, uint64_t bits)
{
    for (size_t i = 0; i < bytes; i++)
        dst[i] = (uint8_t)(bits >> (8 * i));
}

uint64_t launch_load_bits(const uint8_t *src, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; i++)
        v |= (uint64_t)src[i] << (8 * i);
    return v;
}

static uint64_t width_mask(size_t bytes)
{
    return bytes >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * bytes)) - 1;
}

uint64_t launch_int_value(launch_elem t, uint64_t bits)
{
    size_t bytes = launch_elem_bytes(t);
    uint64_t v = bits & width_mask(bytes);
    if (launch_elem_is_signed(t) && bytes < 8 && (v >> (8 * bytes - 1)) & 1)
        v |= ~width_mask(bytes);
    return v;
}

void launch_int_range(launch_elem t, uint64_t *lo, uint64_t *span)
{
    size_t bytes = launch_elem_bytes(t);
    *span = width_mask(bytes);
    *lo = launch_elem_is_signed(t) ? ~(width_mask(bytes) >> 1) : 0;
}

int launch_int_compare(launch_elem t, uint64_t a, uint64_t b)
{
    if (launch_elem_is_signed(t)) {
        /* Flipping the sign bit maps two's-complement order onto unsigned order. */
        a ^= (uint64_t)1 << 63;
        b ^= (uint64_t)1 << 63;
    }
    return a < b ? -1 : a > b;
}

/* ---- floating-point conversions, round to nearest even ---- */

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Rounds the low `shift` bits away from `man`, to nearest with ties to even. */
static uint32_t round_shift(uint32_t man, unsigned shift)
{
    uint32_t kept = man >> shift, rest = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (kept & 1)))
        kept++;
    return kept;
}

static uint16_t f32_to_f16(float f)
{
    uint32_t x = f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t exp = (x >> 23) & 0xFF, man = x & 0x7FFFFF;
    if (exp == 0xFF) /* NaN stays NaN (quiet, top payload bits kept); inf stays inf */
        return (uint16_t)(sign | 0x7C00 | (man ? 0x200 | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return sign | 0x7C00;
    if (e <= 0) {
        if (e < -10) /* below half the smallest subnormal: rounds to zero */
            return sign;
        /* A carry out of the subnormal range correctly yields the smallest normal. */
        return (uint16_t)(sign | round_shift(man | 0x800000, (unsigned)(14 - e)));
    }
    /* A carry out of the mantissa increments the exponent; out of the top it yields inf. */
    return (uint16_t)(sign | round_shift(((uint32_t)e << 23) | man, 13));
}

static uint16_t f32_to_bf16(float f)
{
    uint32_t x = f32_bits(f);
    if ((x & 0x7FFFFFFF) > 0x7F800000)
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7FFF + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
    if (exp == 0x1F)
        return f32_from_bits(sign | 0x7F800000 | (man << 13));
    if (exp == 0) {
        float v = (float)man * 0x1.0p-24f; /* exact: man < 2^10 */
        return sign ? -v : v;
    }
    return f32_from_bits(sign | ((exp + 112) << 23) | (man << 13));
}

uint64_t launch_encode(launch_elem t, launch_number n)
{
    uint64_t bits = 0;
    switch (t) {
    case LAUNCH_F64:
        memcpy(&bits, &n.real, sizeof bits);
        return bits;
    case LAUNCH_F32:
        return f32_bits((float)n.real);
    case LAUNCH_F16:
        return f32_to_f16((float)n.real);
    case LAUNCH_BF16:
        return f32_to_bf16((float)n.real);
    default:
        return n.integer & width_mask(launch_elem_bytes(t));
    }
}

double launch_float_value(launch_elem t, uint64_t bits)
{
    double d;
    switch (t) {
    case LAUNCH_F64:
        memcpy(&d, &bits, sizeof d);
        return d;
    case LAUNCH_F32:
        return f32_from_bits((uint32_t)bits);
    case LAUNCH_F16:
        return f16_to_f32((uint16_t)bits);
    case LAUNCH_BF16:
        return f32_from_bits((uint32_t)(bits & 0xFFFF) << 16);
    default:
        if (launch_elem_is_signed(t))
            return (double)(int64_t)launch_int_value(t, bits);
        return (double)launch_int_value(t, bits);
    }
}

int launch_float_overflows(launch_elem t, double real)
{
    if (!isfinite(real))
        return 0;
    launch_number n = {0, real};
    return isinf(launch_float_value(t, launch_encode(t, n)));
}

int launch_format_element(launch_elem e, const uint8_t *src, char *buf, size_t size)
{
    uint64_t bits = launch_load_bits(src, launch_elem_bytes(e));
    if (!launch_elem_is_float(e)) {
        uint64_t v = launch_int_value(e, bits);
        if (launch_elem_is_signed(e))
            return snprintf(buf, size, "%" PRId64, (int64_t)v);
        return snprintf(buf, size, "%" PRIu64, v);
    }
    /* Digits enough to round-trip: 5 for f16, 4 for bf16, 9 for f32, 17 for f64. */
    int digits = e == LAUNCH_F16 ? 5 : e == LAUNCH_BF16 ? 4 : e == LAUNCH_F32 ? 9 : 17;
    return snprintf(buf, size, "%.*g", digits, launch_float_value(e, bits));
}

/* ---- reading values from JSON ---- */

static int parse_hex(const char *s, uint64_t *out)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
        return -1;
    uint64_t v = 0;
    size_t digits = 0;
    for (const char *p = s + 2; *p; p++) {
        unsigned d = *p >= '0' && *p <= '9'   ? (unsigned)(*p - '0')
                     : *p >= 'a' && *p <= 'f' ? (unsigned)(*p - 'a' + 10)
                     : *p >= 'A' && *p <= 'F' ? (unsigned)(*p - 'A' + 10)
                                              : 16;
        if (d > 15)
            return -1;
        if (v || d)
            digits++;
        if (digits > 16)
            return -2;
        v = v * 16 + d;
    }
    *out = v;
    return 0;
}

static int parse_integer(launch_ctx *c, const launch_path *p, json_t *v, launch_elem t,
                         launch_number *out)
{
    const char *name = launch_elem_name(t);
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (t != LAUNCH_U64 && t != LAUNCH_I64) {
            launch_error(c, "LAUNCH-VALUE-003", p, 0,
                         "string \"%.40s\" is not a %s value (hex strings are accepted for u64 and "
                         "i64 only; write other integers as JSON integers)", s, name);
            return -1;
        }
        int rc = parse_hex(s, &out->integer);
        if (rc != 0) {
            launch_error(c, "LAUNCH-VALUE-003", p, 0,
                         rc == -2 ? "hex string \"%.40s\" has more than 16 digits"
                                  : "string \"%.40s\" is not a hex integer \"0x...\"", s);
            return -1;
        }
        return 0;
    }
    if (json_is_real(v)) {
        launch_error(c, "LAUNCH-VALUE-002", p, 0,
                     "%s needs a JSON integer, not the real number %.17g", name,
                     json_real_value(v));
        return -1;
    }
    if (!json_is_integer(v)) {
        launch_error(c, "LAUNCH-TYPE-001", p, 0, "expected a %s value (JSON integer)", name);
        return -1;
    }
    json_int_t i = json_integer_value(v);
    uint64_t lo, span;
    launch_int_range(t, &lo, &span);
    uint64_t hi = lo + span, u = (uint64_t)i;
    int below = launch_elem_is_signed(t) ? launch_int_compare(LAUNCH_I64, u, lo) < 0 : i < 0;
    int above = launch_elem_is_signed(t) ? launch_int_compare(LAUNCH_I64, u, hi) > 0
                                         : i >= 0 && u > hi;
    if (below || above) {
        launch_error(c, "LAUNCH-VALUE-001", p, 0, "%" PRId64 " does not fit in %s", (int64_t)i,
                     name);
        return -1;
    }
    out->integer = u;
    return 0;
}

static int parse_float(launch_ctx *c, const launch_path *p, json_t *v, launch_elem t,
                       launch_number *out)
{
    const char *name = launch_elem_name(t);
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strcmp(s, "nan") == 0)
            out->real = NAN;
        else if (strcmp(s, "inf") == 0 || strcmp(s, "+inf") == 0)
            out->real = INFINITY;
        else if (strcmp(s, "-inf") == 0)
            out->real = -INFINITY;
        else {
            launch_error(c, "LAUNCH-VALUE-003", p, 0,
                         "string \"%.40s\" is not a %s value (use a number, \"nan\", \"inf\" or "
                         "\"-inf\")", s, name);
            return -1;
        }
        return 0;
    }
    if (!json_is_number(v)) {
        launch_error(c, "LAUNCH-TYPE-001", p, 0, "expected a %s value (number)", name);
        return -1;
    }
    out->real = json_number_value(v);
    if (launch_float_overflows(t, out->real)) {
        launch_error(c, "LAUNCH-VALUE-004", p, 0, "%g overflows %s", out->real, name);
        return -1;
    }
    return 0;
}

int launch_parse_number(launch_ctx *c, const launch_path *p, json_t *v, launch_elem t,
                        launch_number *out)
{
    out->integer = 0;
    out->real = 0;
    if (launch_elem_is_float(t))
        return parse_float(c, p, v, t, out);
    return parse_integer(c, p, v, t, out);
}

/* ---- generators ---- */

uint64_t launch_random_next(uint64_t *state)
{
    *state += LAUNCH_RANDOM_STEP;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* launch_store_bits for the generators' inner loops: one store of the element's width on a
 * little-endian host (the byte order launch_store_bits writes), byte by byte elsewhere. */
static inline void store_elem(uint8_t *dst, size_t bytes, uint64_t bits)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    switch (bytes) {
    case 1: *dst = (uint8_t)bits; return;
    case 2: { uint16_t v = (uint16_t)bits; memcpy(dst, &v, 2); return; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(dst, &v, 4); return; }
    case 8: memcpy(dst, &bits, 8); return;
    default: break;
    }
#endif
    launch_store_bits(dst, bytes, bits);
}

/* The real value of a float random draw: lo + u x width for u = the top 53 bits of the draw over
 * 2^53. Two statements, so that no compiler fuses them into one fused multiply-add: the
 * definition rounds the product and the sum separately. */
static inline double random_real(uint64_t *state, double lo, double width)
{
    double u = (double)(launch_random_next(state) >> 11) * 0x1.0p-53;
    double scaled = u * width;
    return lo + scaled;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define LAUNCH_AVX2_F32 1
#include <immintrin.h>

#include "base/cpu.h"

/* The low 64 bits of a x b in each lane, b given as its low and high 32-bit halves (AVX2 has
 * no 64-bit multiply): lo(a)lo(b) + (hi(a)lo(b) + lo(a)hi(b)) << 32. */
__attribute__((target("avx2"))) static inline __m256i mul64_lanes(__m256i a, __m256i b_lo,
                                                                 __m256i b_hi)
{
    __m256i low = _mm256_mul_epu32(a, b_lo);
    __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b_lo),
                                     _mm256_mul_epu32(a, b_hi));
    return _mm256_add_epi64(low, _mm256_slli_epi64(cross, 32));
}

/* generate_random's f32 loop four draws at a time on AVX2 hosts: the same SplitMix64 draws
 * (lane k of a step is draw i + k), the top 53 bits converted to double exactly (as two exact
 * halves, 2^84-biased high 21 bits and 2^52-biased low 32, summed exactly), then the scalar
 * loop's rounded product, rounded sum and rounding to float, so the same bits. Writes the first
 * count & ~3 elements; returns the state after them. No FMA: the product stays rounded. */
__attribute__((target("avx2"))) static uint64_t random_f32_avx2(uint64_t state, double lo,
                                                                double width, uint64_t count,
                                                                uint8_t *dst)
{
    const uint64_t c1 = UINT64_C(0xBF58476D1CE4E5B9), c2 = UINT64_C(0x94D049BB133111EB);
    const __m256i c1_lo = _mm256_set1_epi64x((long long)c1), c1_hi = _mm256_set1_epi64x((long long)(c1 >> 32));
    const __m256i c2_lo = _mm256_set1_epi64x((long long)c2), c2_hi = _mm256_set1_epi64x((long long)(c2 >> 32));
    const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFll);
    const __m256i bias_lo = _mm256_set1_epi64x(0x4330000000000000ll); /* 2^52 */
    const __m256i bias_hi = _mm256_set1_epi64x(0x4530000000000000ll); /* 2^84 */
    const __m256d two52 = _mm256_set1_pd(0x1.0p52), two84 = _mm256_set1_pd(0x1.0p84);
    const __m256d scale = _mm256_set1_pd(0x1.0p-53), vwidth = _mm256_set1_pd(width);
    const __m256d vlo = _mm256_set1_pd(lo);
    const uint64_t step = LAUNCH_RANDOM_STEP;
    __m256i z0 = _mm256_set_epi64x((long long)(state + 4 * step), (long long)(state + 3 * step),
                                   (long long)(state + 2 * step), (long long)(state + step));
    const __m256i step4 = _mm256_set1_epi64x((long long)(4 * step));
    uint64_t n = count & ~(uint64_t)3;
    for (uint64_t i = 0; i < n; i += 4) {
        __m256i z = _mm256_xor_si256(z0, _mm256_srli_epi64(z0, 30));
        z = mul64_lanes(z, c1_lo, c1_hi);
        z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 27));
        z = mul64_lanes(z, c2_lo, c2_hi);
        z = _mm256_srli_epi64(_mm256_xor_si256(z, _mm256_srli_epi64(z, 31)), 11);
        __m256d d_lo = _mm256_sub_pd(
            _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(z, low32), bias_lo)), two52);
        __m256d d_hi = _mm256_sub_pd(
            _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(z, 32), bias_hi)), two84);
        __m256d u = _mm256_mul_pd(_mm256_add_pd(d_hi, d_lo), scale);
        __m256d v = _mm256_add_pd(vlo, _mm256_mul_pd(u, vwidth));
        _mm_storeu_ps((float *)(void *)(dst + i * 4), _mm256_cvtpd_ps(v));
        z0 = _mm256_add_epi64(z0, step4);
    }
    return state + n * step;
}
#endif

/* The generators write elements [first, first + count) of the buffer to dst (element `first` at
 * dst[0]), so that a large buffer can be produced and uploaded a chunk at a time. Element i of
 * a random buffer is the i-th draw after the seed, so a range starts at state seed + first steps.
 * f32, the common case, has its own loop (the same values as launch_encode's). */
static void generate_random(const launch_buffer *b, uint64_t first, uint64_t count, uint8_t *dst)
{
    size_t bytes = launch_elem_bytes(b->type);
    uint64_t state = b->init.random_seed + first * LAUNCH_RANDOM_STEP;
    const launch_init *in = &b->init;
    if (b->type == LAUNCH_F32) {
        double lo = in->random_min.real, width = in->random_max.real - lo;
        uint64_t i = 0;
#ifdef LAUNCH_AVX2_F32
        if (cpu_has_avx2()) {
            state = random_f32_avx2(state, lo, width, count, dst);
            i = count & ~(uint64_t)3;
        }
#endif
        for (; i < count; i++)
            store_elem(dst + i * 4, 4, f32_bits((float)random_real(&state, lo, width)));
        return;
    }
    if (launch_elem_is_float(b->type)) {
        double lo = in->random_min.real, width = in->random_max.real - lo;
        for (uint64_t i = 0; i < count; i++) {
            launch_number n = {0, random_real(&state, lo, width)};
            store_elem(dst + i * bytes, bytes, launch_encode(b->type, n));
        }
        return;
    }
    uint64_t lo = in->random_min.integer, range = in->random_max.integer - lo + 1;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t x = launch_random_next(&state);
        store_elem(dst + i * bytes, bytes, lo + (range == 0 ? x : x % range));
    }
}

static void generate_iota(const launch_buffer *b, uint64_t first, uint64_t count, uint8_t *dst)
{
    size_t bytes = launch_elem_bytes(b->type);
    const launch_init *in = &b->init;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t i = first + k, bits;
        if (launch_elem_is_float(b->type)) {
            double offset = (double)i * in->iota_step.real; /* kept apart: no fused multiply-add */
            launch_number n = {0, in->iota_start.real + offset};
            bits = launch_encode(b->type, n);
        } else {
            /* Unsigned wrap-around is the two's-complement sum; validation kept it in range. */
            bits = in->iota_start.integer + i * in->iota_step.integer;
        }
        store_elem(dst + k * bytes, bytes, bits);
    }
}

void launch_generate_range(const launch_buffer *b, uint64_t first, uint64_t count, uint8_t *dst)
{
    size_t bytes = launch_elem_bytes(b->type);
    switch (b->init.kind) {
    case LAUNCH_INIT_FILL:
        for (uint64_t i = 0; i < count; i++)
            store_elem(dst + i * bytes, bytes, b->init.fill_bits);
        break;
    case LAUNCH_INIT_IOTA:
        generate_iota(b, first, count, dst);
        break;
    case LAUNCH_INIT_RANDOM:
        generate_random(b, first, count, dst);
        break;
    default:
        memset(dst, 0, count * bytes);
        break;
    }
}

void launch_generate(const launch_buffer *b, uint8_t *dst)
{
    if (b->init.kind == LAUNCH_INIT_ZERO)
        memset(dst, 0, b->bytes);
    else
        launch_generate_range(b, 0, b->count, dst);
}
