/* Stand-in for the config.h that SHOC's configure script generates on Linux: the corpus compiles
 * only to PTX, so these merely let the host headers pick their Linux paths. */
#define HAVE_GETTIMEOFDAY 1
#define HAVE_STDINT_H 1
#define restrict __restrict__
