/* The fat binary reader (fatbin.h): walks the one container a registration names, entry by
 * entry, and copies out the PTX texts, decompressing them with libzstd or liblz4. Cubins and
 * entries of kinds it does not know are stepped over by their declared sizes, never opened.
 * Every field is read with memcpy from a checked offset (the container is not aligned for us)
 * and every size is checked against what is left before it is used. The layout it reads is
 * docs/cuda-runtime.md, "Fat binaries". */
#include "runtime/fatbin.h"

#include <lz4.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum {
    WRAPPER_MAGIC = 0x466243B1u, /* __fatBinC_Wrapper_t.magic */
    FATBIN_MAGIC = 0xBA55ED50u,  /* the container header's magic */
    FATBIN_VERSION = 1,
    FATBIN_HEADER_BYTES = 16,    /* magic u32, version u16, header size u16, body size u64 */
    ENTRY_MIN_BYTES = 64,        /* the fields below; nvcc 13 writes 64 or 80 (or more) */
    ENTRY_KIND_PTX = 1,
    /* entry header offsets */
    ENTRY_KIND = 0,              /* u16 */
    ENTRY_HEADER_SIZE = 4,       /* u32: bytes from the entry's start to its payload */
    ENTRY_PAYLOAD_SIZE = 8,      /* u64: payload bytes, padded, to the next entry */
    ENTRY_COMPRESSED_SIZE = 16,  /* u32: bytes of the compressed stream (compressed entries) */
    ENTRY_ARCH = 28,             /* u32: the architecture number, 80 for sm_80/compute_80 */
    ENTRY_FLAGS = 40,            /* u64 */
    ENTRY_UNCOMPRESSED_SIZE = 56 /* u64: bytes after decompression (compressed entries) */
};

/* Entry flags that name the codec of a compressed payload. */
#define FLAG_LZ4 UINT64_C(0x2000)
#define FLAG_ZSTD UINT64_C(0x8000)

/* The wrapper nvcc emits in .nvFatBinSegment (CUDA's fatbinary_section.h spells it out). */
typedef struct {
    int magic;
    int version;
    const void *data;
    const void *filename_or_fatbins;
} fatbin_wrapper;

static int fail(char *err, size_t errlen, const char *rule, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Writes "message [rule]" into err and returns -1. */
static int fail(char *err, size_t errlen, const char *rule, const char *format, ...)
{
    if (err && errlen > 0) {
        va_list args;
        va_start(args, format);
        int n = vsnprintf(err, errlen, format, args);
        va_end(args);
        if (n >= 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, " [%s]", rule);
    }
    return -1;
}

static uint16_t read_u16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t read_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t read_u64(const unsigned char *p)
{
    return (uint64_t)read_u32(p) | (uint64_t)read_u32(p + 4) << 32;
}

void rt_ptx_list_free(rt_ptx_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i].text);
    free(l->items);
    l->items = NULL;
    l->count = 0;
}

/* Appends a copy of the text before the first NUL of bytes[0, size) to the list. */
static int add_text(rt_ptx_list *list, const unsigned char *bytes, size_t size, unsigned sm,
                    size_t offset, char *err, size_t errlen)
{
    const unsigned char *nul = memchr(bytes, '\0', size);
    if (!nul || nul == bytes)
        return fail(err, errlen, "RT-FATBIN-008",
                    "fat binary entry at offset %zu (sm_%u): the PTX text is %s", offset, sm,
                    nul ? "empty" : "not NUL-terminated");
    size_t len = (size_t)(nul - bytes);
    rt_ptx_module *items = realloc(list->items, (list->count + 1) * sizeof *items);
    char *text = malloc(len + 1);
    if (items)
        list->items = items;
    if (!items || !text) {
        free(text);
        return fail(err, errlen, "RT-FATBIN-010", "out of memory reading the fat binary");
    }
    memcpy(text, bytes, len + 1);
    list->items[list->count++] = (rt_ptx_module){.text = text, .len = len, .sm = sm};
    return 0;
}

/* Decompresses a PTX payload into a malloc'd buffer of exactly *size bytes (the entry's declared
 * uncompressed size); NULL with err filled when the codec is unknown or the stream is bad. */
static unsigned char *decompress(const unsigned char *entry, const unsigned char *payload,
                                 size_t payload_size, size_t offset, size_t *size, char *err,
                                 size_t errlen)
{
    uint64_t flags = read_u64(entry + ENTRY_FLAGS);
    unsigned sm = read_u32(entry + ENTRY_ARCH);
    uint32_t packed = read_u32(entry + ENTRY_COMPRESSED_SIZE);
    uint64_t declared = read_u64(entry + ENTRY_UNCOMPRESSED_SIZE);
    if ((flags & FLAG_LZ4) && (flags & FLAG_ZSTD)) {
        fail(err, errlen, "RT-FATBIN-006",
             "fat binary entry at offset %zu (sm_%u) is marked compressed with both LZ4 and zstd",
             offset, sm);
        return NULL;
    }
    if (packed > payload_size) {
        fail(err, errlen, "RT-FATBIN-005",
             "fat binary entry at offset %zu (sm_%u): its compressed size %u is more than its "
             "payload of %zu bytes", offset, sm, (unsigned)packed, payload_size);
        return NULL;
    }
    if (declared == 0 || declared > RT_FATBIN_MAX_ENTRY_BYTES ||
        ((flags & FLAG_LZ4) && declared > (uint64_t)LZ4_MAX_INPUT_SIZE)) {
        fail(err, errlen, "RT-FATBIN-007",
             "fat binary entry at offset %zu (sm_%u) declares %llu decompressed bytes (1 to %zu "
             "accepted)", offset, sm, (unsigned long long)declared, RT_FATBIN_MAX_ENTRY_BYTES);
        return NULL;
    }
    unsigned char *out = malloc((size_t)declared);
    if (!out) {
        fail(err, errlen, "RT-FATBIN-010", "out of memory reading the fat binary");
        return NULL;
    }
    size_t produced = 0;
    int ok;
    if (flags & FLAG_ZSTD) {
        size_t r = ZSTD_decompress(out, (size_t)declared, payload, packed);
        ok = !ZSTD_isError(r);
        produced = ok ? r : 0;
    } else {
        int r = LZ4_decompress_safe((const char *)payload, (char *)out, (int)packed,
                                    (int)declared);
        ok = r >= 0;
        produced = ok ? (size_t)r : 0;
    }
    if (!ok || produced != declared) {
        free(out);
        fail(err, errlen, "RT-FATBIN-007",
             "fat binary entry at offset %zu (sm_%u): the %s stream does not decompress to its "
             "declared %llu bytes", offset, sm, (flags & FLAG_ZSTD) ? "zstd" : "LZ4",
             (unsigned long long)declared);
        return NULL;
    }
    *size = produced;
    return out;
}

/* Reads the PTX entry at `entry` whose payload is payload[0, payload_size). */
static int read_ptx_entry(const unsigned char *entry, const unsigned char *payload,
                          size_t payload_size, size_t offset, rt_ptx_list *list, char *err,
                          size_t errlen)
{
    uint64_t flags = read_u64(entry + ENTRY_FLAGS);
    unsigned sm = read_u32(entry + ENTRY_ARCH);
    if (!(flags & (FLAG_LZ4 | FLAG_ZSTD)))
        return add_text(list, payload, payload_size, sm, offset, err, errlen);
    size_t size = 0;
    unsigned char *plain = decompress(entry, payload, payload_size, offset, &size, err, errlen);
    if (!plain)
        return -1;
    int status = add_text(list, plain, size, sm, offset, err, errlen);
    free(plain);
    return status;
}

/* Walks the entries in body[0, body_size); `base` is the body's offset in the container, for the
 * messages. */
static int read_entries(const unsigned char *body, size_t body_size, size_t base,
                        rt_ptx_list *list, char *err, size_t errlen)
{
    size_t at = 0;
    while (at < body_size) {
        const unsigned char *entry = body + at;
        size_t left = body_size - at, offset = base + at;
        if (left < ENTRY_MIN_BYTES)
            return fail(err, errlen, "RT-FATBIN-004",
                        "fat binary entry at offset %zu: %zu bytes left, an entry header needs %d",
                        offset, left, ENTRY_MIN_BYTES);
        uint32_t header = read_u32(entry + ENTRY_HEADER_SIZE);
        uint64_t payload = read_u64(entry + ENTRY_PAYLOAD_SIZE);
        if (header < ENTRY_MIN_BYTES || header > left)
            return fail(err, errlen, "RT-FATBIN-004",
                        "fat binary entry at offset %zu: header size %u is outside [%d, %zu]",
                        offset, (unsigned)header, ENTRY_MIN_BYTES, left);
        if (payload > left - header)
            return fail(err, errlen, "RT-FATBIN-005",
                        "fat binary entry at offset %zu: payload of %llu bytes runs past the "
                        "container (%zu bytes left)", offset, (unsigned long long)payload,
                        left - header);
        if (read_u16(entry + ENTRY_KIND) == ENTRY_KIND_PTX &&
            read_ptx_entry(entry, entry + header, (size_t)payload, offset, list, err, errlen))
            return -1;
        at += header + (size_t)payload;
    }
    return 0;
}

/* The message for a fat binary without PTX: it names the flag, and the cubin architectures that
 * are there, so the user can see which compute_XX to add. */
static int fail_no_ptx(const unsigned char *body, size_t body_size, char *err, size_t errlen)
{
    unsigned sm = 0;
    if (body_size >= ENTRY_MIN_BYTES)
        sm = read_u32(body + ENTRY_ARCH);
    if (sm == 0 || sm > 999)
        sm = 80;
    return fail(err, errlen, "RT-FATBIN-009",
                "the fat binary holds no PTX, only machine code for real GPUs, and the simulator "
                "runs PTX: compile with nvcc -gencode arch=compute_%u,code=compute_%u added (or "
                "-arch=sm_%u, which embeds both)", sm, sm, sm);
}

int rt_fatbin_ptx_bytes(const void *bytes, size_t size, rt_ptx_list *out, char *err,
                        size_t errlen)
{
    const unsigned char *p = bytes;
    if (err && errlen > 0)
        err[0] = '\0';
    out->items = NULL;
    out->count = 0;
    if (!p || size < FATBIN_HEADER_BYTES || read_u32(p) != FATBIN_MAGIC)
        return fail(err, errlen, "RT-FATBIN-001",
                    "not a fat binary: %s", !p ? "NULL pointer"
                    : size < FATBIN_HEADER_BYTES ? "shorter than its 16-byte header"
                    : "no magic 0xBA55ED50 (or wrapper magic 0x466243B1)");
    unsigned version = read_u16(p + 4), header = read_u16(p + 6);
    uint64_t body = read_u64(p + 8);
    if (version != FATBIN_VERSION || header < FATBIN_HEADER_BYTES)
        return fail(err, errlen, "RT-FATBIN-002",
                    "fat binary header of version %u and size %u (known: version %d, size >= %d)",
                    version, header, FATBIN_VERSION, FATBIN_HEADER_BYTES);
    if (body > RT_FATBIN_MAX_BYTES)
        return fail(err, errlen, "RT-FATBIN-003",
                    "fat binary declares %llu bytes after its header (at most %zu accepted)",
                    (unsigned long long)body, RT_FATBIN_MAX_BYTES);
    if (header > size || body > size - header)
        return fail(err, errlen, "RT-FATBIN-003",
                    "fat binary declares %u + %llu bytes but only %zu are there", header,
                    (unsigned long long)body, size);
    if (read_entries(p + header, (size_t)body, header, out, err, errlen)) {
        rt_ptx_list_free(out);
        return -1;
    }
    if (out->count == 0)
        return fail_no_ptx(p + header, (size_t)body, err, errlen);
    return 0;
}

int rt_fatbin_ptx(const void *fatbin, rt_ptx_list *out, char *err, size_t errlen)
{
    const unsigned char *p = fatbin;
    out->items = NULL;
    out->count = 0;
    if (p && read_u32(p) == WRAPPER_MAGIC) {
        fatbin_wrapper wrapper;
        memcpy(&wrapper, p, sizeof wrapper);
        if (!wrapper.data)
            return fail(err, errlen, "RT-FATBIN-001",
                        "fat binary wrapper (version %d) with no data pointer", wrapper.version);
        p = wrapper.data;
    }
    if (!p || read_u32(p) != FATBIN_MAGIC)
        return rt_fatbin_ptx_bytes(p, p ? FATBIN_HEADER_BYTES : 0, out, err, errlen);
    /* The header is there; its sizes say how much follows, and the caller vouches for that. */
    size_t header = read_u16(p + 6);
    uint64_t body = read_u64(p + 8);
    size_t size = body > RT_FATBIN_MAX_BYTES ? RT_FATBIN_MAX_BYTES : header + (size_t)body;
    return rt_fatbin_ptx_bytes(p, size, out, err, errlen);
}
