/* Joining the PTX of several translation units into the one module a simulated GPU holds
 * (docs/cuda-runtime.md, "Runtime API", Kernels). */
#ifndef GMS_RUNTIME_RT_PTXJOIN_H
#define GMS_RUNTIME_RT_PTXJOIN_H

#include <stddef.h>

/* The n texts (texts[i] of lens[i] bytes, borrowed) as one NUL-terminated module text
 * (malloc'd; its length without the NUL into *len), or NULL when out of memory:
 *   - the first text whole; the later ones without their .version, .target and .address_size
 *     lines;
 *   - in text i >= 1, each module-scope variable or function declared without .visible,
 *     .extern or .weak (internal to its translation unit, such as nvcc's printf strings $str)
 *     whose name an earlier text also declares is renamed NAME_tu<i> wherever it appears in
 *     that text, so that units do not collide (names that do not collide stay, so that the
 *     runtime finds registered variables by their names);
 *   - a .extern declaration in text i >= 1 of a name an earlier text declared .extern is
 *     dropped;
 *   - every `.attribute(.managed)` is removed (the runtime mirrors __managed__ variables
 *     itself). */
char *rt_ptx_join(const char *const *texts, const size_t *lens, size_t n, size_t *len);

#endif
