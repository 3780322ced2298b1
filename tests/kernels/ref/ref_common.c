/* Launch-file reader and numeric helpers for the CPU reference programs (see ref_common.h). */
#include "ref_common.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *launch_file;

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "reference: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

void ref_require(int condition, const char *message)
{
    if (!condition)
        fail("self-check failed", message);
}

void ref_open(const char *path)
{
    json_error_t error;
    launch_file = json_load_file(path, 0, &error);
    if (!launch_file) {
        fprintf(stderr, "reference: %s:%d:%d: %s\n", path, error.line, error.column, error.text);
        exit(1);
    }
}

static size_t type_bytes(const char *type)
{
    static const struct { const char *name; size_t bytes; } types[] = {
        {"i8", 1}, {"u8", 1}, {"i16", 2}, {"u16", 2}, {"f16", 2}, {"bf16", 2},
        {"i32", 4}, {"u32", 4}, {"f32", 4}, {"i64", 8}, {"u64", 8}, {"f64", 8},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(types[i].name, type) == 0)
            return types[i].bytes;
    fail("unknown element type", type);
    return 0;
}

static int is_float_type(const char *type)
{
    return type[0] == 'f' || strcmp(type, "bf16") == 0;
}

/* Stores a double into element `index` of an array of `type` (floats rounded as the random init
 * defines: via f32). */
static void store_float(void *array, const char *type, size_t index, double value)
{
    if (strcmp(type, "f64") == 0) {
        ((double *)array)[index] = value;
    } else if (strcmp(type, "f32") == 0) {
        ((float *)array)[index] = (float)value;
    } else if (strcmp(type, "f16") == 0) {
        ((uint16_t *)array)[index] = ref_f16_from_f32((float)value);
    } else {
        ((uint16_t *)array)[index] = ref_bf16_from_f32((float)value);
    }
}

/* Stores the low bytes of a 64-bit integer, little-endian (the host is little-endian). */
static void store_int(void *array, size_t bytes, size_t index, uint64_t value)
{
    memcpy((unsigned char *)array + index * bytes, &value, bytes);
}

static void init_random(void *array, const char *type, size_t count, json_t *spec)
{
    uint64_t state = (uint64_t)json_integer_value(json_object_get(spec, "seed"));
    json_t *min = json_object_get(spec, "min");
    json_t *max = json_object_get(spec, "max");
    ref_require(json_is_integer(json_object_get(spec, "seed")) && json_is_number(min) &&
                    json_is_number(max), "random init needs integer seed, min and max");
    for (size_t i = 0; i < count; ++i) {
        if (is_float_type(type)) {
            uint64_t x = ref_random_next(&state);
            double u = (double)(x >> 11) * 0x1.0p-53;
            double lo = json_number_value(min), hi = json_number_value(max);
            store_float(array, type, i, lo + u * (hi - lo));
        } else {
            ref_require(json_is_integer(min) && json_is_integer(max), "integer random bounds");
            int64_t v = ref_random_int(&state, json_integer_value(min), json_integer_value(max));
            store_int(array, type_bytes(type), i, (uint64_t)v);
        }
    }
}

static void init_iota(void *array, const char *type, size_t count, json_t *spec)
{
    json_t *start = json_object_get(spec, "start");
    json_t *step = json_object_get(spec, "step");
    ref_require(json_is_number(start) && json_is_number(step), "iota needs start and step");
    for (size_t i = 0; i < count; ++i) {
        if (is_float_type(type)) {
            store_float(array, type, i,
                        json_number_value(start) + (double)i * json_number_value(step));
        } else {
            ref_require(json_is_integer(start) && json_is_integer(step), "integer iota");
            uint64_t v = (uint64_t)json_integer_value(start) +
                         (uint64_t)i * (uint64_t)json_integer_value(step);
            store_int(array, type_bytes(type), i, v);
        }
    }
}

static void init_fill(void *array, const char *type, size_t count, json_t *value)
{
    ref_require(json_is_number(value), "fill needs a number");
    for (size_t i = 0; i < count; ++i) {
        if (is_float_type(type))
            store_float(array, type, i, json_number_value(value));
        else
            store_int(array, type_bytes(type), i, (uint64_t)json_integer_value(value));
    }
}

static void init_file(void *array, size_t bytes, json_t *path)
{
    ref_require(json_is_string(path), "file init needs a path");
    FILE *file = fopen(json_string_value(path), "rb");
    if (!file)
        fail("cannot open input file", json_string_value(path));
    size_t got = fread(array, 1, bytes, file);
    int extra = fgetc(file);
    fclose(file);
    if (got != bytes || extra != EOF)
        fail("input file has the wrong size", json_string_value(path));
}

/* What a reference needs of a buffer or an image of the launch file: its element type, its
 * element count and its init (NULL without one). An image's elements are its texels' channels in
 * x-fastest order (x, then y, z, layer and mipmap level): the format's kind and bits name the
 * element type, width x height x depth x layers x channels summed over the levels the count. */
struct decl {
    const char *type;
    size_t count;
    json_t *init;
};

static const char *image_element_type(json_t *format, const char *name)
{
    static const char *const names[3][3] = {
        {"i8", "i16", "i32"}, {"u8", "u16", "u32"}, {"", "f16", "f32"}};
    const char *kind = json_string_value(json_object_get(format, "kind"));
    json_int_t bits = json_integer_value(json_object_get(format, "bits"));
    int k = !kind ? -1 : strcmp(kind, "signed") == 0 ? 0 : strcmp(kind, "unsigned") == 0 ? 1
                   : strcmp(kind, "float") == 0 ? 2 : -1;
    int b = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : -1;
    if (k < 0 || b < 0 || names[k][b][0] == '\0')
        fail("unsupported image format", name);
    return names[k][b];
}

static size_t image_key(json_t *image, const char *key)
{
    json_t *value = json_object_get(image, key);
    return value ? (size_t)json_integer_value(value) : 1;
}

static struct decl lookup_decl(const char *name)
{
    json_t *buffer = json_object_get(json_object_get(launch_file, "buffers"), name);
    if (json_is_object(buffer))
        return (struct decl){json_string_value(json_object_get(buffer, "type")),
                             (size_t)json_integer_value(json_object_get(buffer, "count")),
                             json_object_get(buffer, "init")};
    json_t *image = json_object_get(json_object_get(launch_file, "images"), name);
    if (!json_is_object(image))
        fail("no such buffer or image in the launch file", name);
    json_t *format = json_object_get(image, "format");
    /* Every mipmap level's texels, level 0 first; a cube has 6 layers unless told. */
    const char *dim = json_string_value(json_object_get(image, "dim"));
    size_t layers = image_key(image, "layers");
    if (dim && strncmp(dim, "cube", 4) == 0 && !json_object_get(image, "layers"))
        layers = 6;
    size_t w = image_key(image, "width"), h = image_key(image, "height"),
           d = image_key(image, "depth"), count = 0;
    for (size_t k = 0; k < image_key(image, "levels"); k++)
        count += (w >> k ? w >> k : 1) * (h >> k ? h >> k : 1) * (d >> k ? d >> k : 1) * layers;
    count *= image_key(format, "channels");
    return (struct decl){image_element_type(format, name), count, json_object_get(image, "init")};
}

void *ref_input(const char *name, const char *type, size_t count)
{
    struct decl decl = lookup_decl(name);
    if (!decl.type || strcmp(decl.type, type) != 0)
        fail("element type differs from the launch file", name);
    if (decl.count != count)
        fail("element count differs from the launch file", name);
    size_t bytes = count * type_bytes(type);
    void *array = calloc(bytes ? bytes : 1, 1);
    if (!array)
        fail("out of memory", name);
    json_t *init = decl.init;
    if (!init)
        return array;
    if (json_object_size(init) != 1)
        fail("init must have exactly one form", name);
    if (json_object_get(init, "random"))
        init_random(array, type, count, json_object_get(init, "random"));
    else if (json_object_get(init, "iota"))
        init_iota(array, type, count, json_object_get(init, "iota"));
    else if (json_object_get(init, "fill"))
        init_fill(array, type, count, json_object_get(init, "fill"));
    else if (json_object_get(init, "file"))
        init_file(array, bytes, json_object_get(init, "file"));
    else
        fail("unknown init form", name);
    return array;
}

static json_t *launch_at(size_t launch)
{
    json_t *entry = json_array_get(json_object_get(launch_file, "launches"), launch);
    if (!json_is_object(entry))
        fail("no such launch", NULL);
    return entry;
}

static json_t *scalar_arg(size_t launch, size_t arg)
{
    json_t *entry = json_array_get(json_object_get(launch_at(launch), "args"), arg);
    if (!json_is_object(entry) || json_object_size(entry) != 1 || json_object_get(entry, "buffer"))
        fail("argument is not a scalar", NULL);
    return json_object_iter_value(json_object_iter(entry));
}

double ref_arg_float(size_t launch, size_t arg)
{
    return json_number_value(scalar_arg(launch, arg));
}

int64_t ref_arg_int(size_t launch, size_t arg)
{
    json_t *value = scalar_arg(launch, arg);
    ref_require(json_is_integer(value), "integer argument expected");
    return json_integer_value(value);
}

size_t ref_launch_count(void)
{
    return json_array_size(json_object_get(launch_file, "launches"));
}

size_t ref_launch_threads(size_t launch)
{
    size_t threads = 1;
    const char *keys[] = {"grid", "block"};
    for (int k = 0; k < 2; ++k) {
        json_t *dims = json_object_get(launch_at(launch), keys[k]);
        for (size_t d = 0; d < json_array_size(dims); ++d)
            threads *= (size_t)json_integer_value(json_array_get(dims, d));
    }
    return threads;
}

void ref_write_file(const char *path, const void *data, size_t bytes)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, bytes, file) != bytes || fclose(file) != 0)
        fail("cannot write", path);
}

void ref_write_expected(const char *name, const void *data, size_t bytes)
{
    struct decl decl = lookup_decl(name);
    if (!decl.type || decl.count * type_bytes(decl.type) != bytes)
        fail("expected data size differs from the buffer or image size", name);
    json_t *expect = json_object_get(json_object_get(launch_file, "expect"), name);
    const char *path = json_string_value(json_object_get(expect, "file"));
    if (!path)
        fail("no expect file for buffer or image", name);
    ref_write_file(path, data, bytes);
}

uint64_t ref_random_next(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t ref_random_int(uint64_t *state, int64_t min, int64_t max)
{
    uint64_t x = ref_random_next(state);
    uint64_t range = (uint64_t)max - (uint64_t)min + 1;
    return (int64_t)((uint64_t)min + (range == 0 ? x : x % range));
}

/* Rounds a finite or infinite double to a binary format with `mantissa_bits` stored fraction
 * bits, exponent bias `bias` and `exponent_bits`, round-to-nearest-even, keeping subnormals. */
static uint16_t round_to_small_float(double value, int mantissa_bits, int exponent_bits)
{
    int bias = (1 << (exponent_bits - 1)) - 1;
    uint16_t sign = signbit(value) ? (uint16_t)(1u << (mantissa_bits + exponent_bits)) : 0;
    uint16_t exp_all_ones = (uint16_t)(((1u << exponent_bits) - 1) << mantissa_bits);
    if (isnan(value))
        return (uint16_t)(sign | exp_all_ones | (1u << (mantissa_bits - 1)));
    double magnitude = fabs(value);
    if (isinf(magnitude))
        return sign | exp_all_ones;
    if (magnitude == 0.0)
        return sign;
    int exponent;
    frexp(magnitude, &exponent); /* magnitude = m * 2^exponent, m in [0.5, 1) */
    int unbiased = exponent - 1;
    int min_normal = 1 - bias;
    int quantum_exp = (unbiased < min_normal ? min_normal : unbiased) - mantissa_bits;
    /* magnitude / 2^quantum_exp is exact in double; rint rounds half to even. */
    double units = rint(ldexp(magnitude, -quantum_exp));
    uint32_t bits;
    if (quantum_exp == min_normal - mantissa_bits && units < ldexp(1.0, mantissa_bits)) {
        bits = (uint32_t)units; /* subnormal (or rounded up into the smallest normal below) */
    } else {
        if (units >= ldexp(1.0, mantissa_bits + 1)) { /* carried into the next binade */
            units /= 2;
            quantum_exp += 1;
        }
        int biased = quantum_exp + mantissa_bits + bias;
        if (biased >= (1 << exponent_bits) - 1)
            return sign | exp_all_ones;
        bits = ((uint32_t)biased << mantissa_bits) | ((uint32_t)units - (1u << mantissa_bits));
    }
    return (uint16_t)(sign | bits);
}

static double widen_small_float(uint16_t bits, int mantissa_bits, int exponent_bits)
{
    int bias = (1 << (exponent_bits - 1)) - 1;
    int sign = (bits >> (mantissa_bits + exponent_bits)) & 1;
    int biased = (bits >> mantissa_bits) & ((1 << exponent_bits) - 1);
    uint32_t fraction = bits & ((1u << mantissa_bits) - 1);
    double magnitude;
    if (biased == (1 << exponent_bits) - 1)
        magnitude = fraction ? NAN : INFINITY;
    else if (biased == 0)
        magnitude = ldexp((double)fraction, 1 - bias - mantissa_bits);
    else
        magnitude = ldexp((double)(fraction | (1u << mantissa_bits)), biased - bias - mantissa_bits);
    return sign ? -magnitude : magnitude;
}

uint16_t ref_f16_from_double(double value) { return round_to_small_float(value, 10, 5); }
uint16_t ref_bf16_from_double(double value) { return round_to_small_float(value, 7, 8); }
double ref_f16_to_double(uint16_t bits) { return widen_small_float(bits, 10, 5); }
double ref_bf16_to_double(uint16_t bits) { return widen_small_float(bits, 7, 8); }
uint16_t ref_f16_from_f32(float value) { return ref_f16_from_double((double)value); }
uint16_t ref_bf16_from_f32(float value) { return ref_bf16_from_double((double)value); }
