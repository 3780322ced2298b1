/* Shared support for the CPU reference programs of the end-to-end test kernels.
 *
 * A reference program reads its kernel's launch file, rebuilds every buffer's initial contents
 * exactly as the launch file defines them (fill, iota, the bit-exact random generator, or a raw
 * file), computes what the kernel must produce, and writes the expected-output files named in the
 * launch file's "expect" section. This is test tooling, not part of the gms library: it prints and
 * exits on any inconsistency, since a wrong reference must never be written silently. */
#ifndef REF_COMMON_H
#define REF_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Parses the launch file at `path` (JSON); later calls read from it. Exits on error. */
void ref_open(const char *path);

/* Returns a freshly allocated array (caller frees) holding buffer `name`'s initial contents.
 * `type` ("f32", "u8", ...) and `count` (elements) must match the launch file's declaration.
 * `name` may also be an image of the "images" section: its elements are the channels of its
 * texels in x-fastest order (x, y, z, layer), typed by the format ("u32" for 32-bit unsigned,
 * "f16" for 16-bit float, ...), width x height x depth x layers x channels of them. */
void *ref_input(const char *name, const char *type, size_t count);

/* Returns scalar argument `arg` (0-based) of launch `launch` (0-based) as a double or an integer.
 * Exits if that argument is a buffer. */
double ref_arg_float(size_t launch, size_t arg);
int64_t ref_arg_int(size_t launch, size_t arg);

/* Total threads of launch `launch`: product of its grid and block dimensions. */
size_t ref_launch_threads(size_t launch);

/* Number of launches in the file. */
size_t ref_launch_count(void);

/* Writes `bytes` bytes to the expected-data file that the "expect" entry of buffer (or image,
 * texels in x-fastest order) `name` names; checks `bytes` against its declared size. */
void ref_write_expected(const char *name, const void *data, size_t bytes);

/* Writes a raw file (an input the launch file reads, or expected_stdout.txt). */
void ref_write_file(const char *path, const void *data, size_t bytes);

/* Exits with a message unless `condition` holds: used for self-checks and coverage checks. */
void ref_require(int condition, const char *message);

/* The launch file's random generator (splitmix64): advances *state and returns the next value. */
uint64_t ref_random_next(uint64_t *state);

/* Uniform integer in [min, max] from the generator, as the launch file's integer random init. */
int64_t ref_random_int(uint64_t *state, int64_t min, int64_t max);

/* IEEE binary16 and bfloat16: round-to-nearest-even from a double (one rounding, subnormals
 * kept, overflow to infinity), and exact widening back to double. */
uint16_t ref_f16_from_double(double value);
uint16_t ref_bf16_from_double(double value);
double ref_f16_to_double(uint16_t bits);
double ref_bf16_to_double(uint16_t bits);

/* The float rounding of a double as the random init defines it (double -> f32 -> f16/bf16). */
uint16_t ref_f16_from_f32(float value);
uint16_t ref_bf16_from_f32(float value);

#endif
