/* The fat binary reader of the CUDA runtime replacement: given what nvcc's registration code
 * passes to __cudaRegisterFatBinary, it returns the PTX text of every PTX entry, decompressed
 * (zstd, as nvcc 13 writes by default, or LZ4, as `-compress-mode=speed` and CUDA 12 write).
 * It does not read cubins (the simulator runs PTX) and does not load anything: the caller hands
 * the texts to the public API. Every length and offset is checked against the container, so a
 * corrupt fat binary is an error, never a read outside it. The format and its public sources:
 * docs/cuda-runtime.md, "Fat binaries". */
#ifndef GMS_RUNTIME_FATBIN_H
#define GMS_RUNTIME_FATBIN_H

#include <stddef.h>

/* One PTX entry: `text` is its PTX, NUL-terminated, `len` bytes long without the NUL (owned by
 * the list); `sm` is the entry's architecture number (80 for compute_80; the arch-specific
 * compute_90a is 90). */
typedef struct {
    char *text;
    size_t len;
    unsigned sm;
} rt_ptx_module;

/* The PTX entries of one fat binary in file order; free with rt_ptx_list_free. */
typedef struct {
    rt_ptx_module *items;
    size_t count;
} rt_ptx_list;

/* The largest container (header included) and the largest decompressed entry accepted, in bytes:
 * a declared size above it is RT-FATBIN-003 / RT-FATBIN-007 rather than a huge allocation. */
#define RT_FATBIN_MAX_BYTES ((size_t)1 << 30)
#define RT_FATBIN_MAX_ENTRY_BYTES ((size_t)256 << 20)

/* Reads every PTX entry of the fat binary that `fatbin` (borrowed) points at: either nvcc's
 * wrapper (__fatBinC_Wrapper_t, magic 0x466243B1, whose `data` points at the fat binary) or the
 * fat binary itself (magic 0xBA55ED50). The container's own header gives its length; the caller
 * promises that many bytes are readable. On success fills *out (OUT, owned by the caller, free
 * with rt_ptx_list_free) with at least one entry and returns 0. On failure returns -1, leaves
 * *out empty and writes a one-line message ending in its rule id into err (errlen bytes, always
 * NUL-terminated when errlen > 0; err may be NULL when errlen is 0):
 *   RT-FATBIN-001  NULL, or neither magic, or a wrapper whose data is NULL
 *   RT-FATBIN-002  a fat binary header of an unknown version or header size
 *   RT-FATBIN-003  a container longer than RT_FATBIN_MAX_BYTES
 *   RT-FATBIN-004  an entry header that is short, or runs past the container
 *   RT-FATBIN-005  an entry payload (or its compressed part) that runs past the container
 *   RT-FATBIN-006  a PTX entry compressed with an unknown codec (flags name none, or both)
 *   RT-FATBIN-007  a compressed PTX entry that does not decompress to its declared size
 *   RT-FATBIN-008  a PTX entry with no text (empty, or not ending in its NUL)
 *   RT-FATBIN-009  no PTX entry at all (the message names the nvcc flag that adds one)
 *   RT-FATBIN-010  out of memory
 * Implements docs/cuda-runtime.md, "Fat binaries". */
int rt_fatbin_ptx(const void *fatbin, rt_ptx_list *out, char *err, size_t errlen);

/* As rt_fatbin_ptx, for a fat binary (not a wrapper) in a buffer of `size` bytes (borrowed):
 * the container must fit in it (RT-FATBIN-003 otherwise); bytes after the container are
 * ignored. For tests and the fuzz target, which know the buffer's length. */
int rt_fatbin_ptx_bytes(const void *bytes, size_t size, rt_ptx_list *out, char *err,
                        size_t errlen);

/* Frees every text of *l (NULL or empty is fine) and leaves it empty. */
void rt_ptx_list_free(rt_ptx_list *l);

#endif
