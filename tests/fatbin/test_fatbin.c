/* Unit tests for the fat binary reader (src/runtime/fatbin.c) on the committed fat binaries that
 * tests/fatbin/gen_fatbins.sh made with nvcc 13 from scale.cu: zstd (nvcc's default), LZ4 and
 * uncompressed PTX, several architectures, cubins only; nvcc's wrapper and a bare pointer; and
 * corrupted copies, each refused with its exact message. Every input sits in a malloc'd buffer
 * of its exact size, so a read past it is an ASan report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fatbin.h"

/* The sm_75 blobs: the cubin entry's header (64) and payload (3112) come first, then the PTX
 * entry (header 80); the PTX text is 716 bytes plus its NUL. */
enum {
    PTX_ENTRY = 16 + 64 + 3112,
    PTX_PAYLOAD = PTX_ENTRY + 80,
    PTX_LEN = 716
};

typedef struct {
    unsigned char *bytes;
    size_t size;
} blob;

static blob load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/fatbin/%s", GMS_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    blob b = {malloc(16384), 0};
    assert_non_null(b.bytes);
    b.size = fread(b.bytes, 1, 16384, f);
    fclose(f);
    assert_true(b.size > 16 && b.size < 16384);
    b.bytes = realloc(b.bytes, b.size); /* exact size: ASan sees any read past the end */
    return b;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static void put_u64(unsigned char *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

/* Reads b and expects failure with exactly `message`. */
static void expect_error(blob b, const char *message)
{
    rt_ptx_list list = {(rt_ptx_module *)&list, 7};
    char err[512];
    assert_int_equal(rt_fatbin_ptx_bytes(b.bytes, b.size, &list, err, sizeof err), -1);
    assert_string_equal(err, message);
    assert_null(list.items);
    assert_int_equal(list.count, 0);
}

static rt_ptx_list read_ok(blob b)
{
    rt_ptx_list list;
    char err[512] = "";
    if (rt_fatbin_ptx_bytes(b.bytes, b.size, &list, err, sizeof err))
        fail_msg("unexpected error: %s", err);
    assert_string_equal(err, "");
    return list;
}

/* nvcc's default: one zstd-compressed PTX entry for sm_75 beside the cubin, which is skipped. */
static void test_zstd_default(void **state)
{
    (void)state;
    blob b = load("zstd_sm75.fatbin");
    rt_ptx_list list = read_ok(b);
    assert_int_equal(list.count, 1);
    assert_int_equal(list.items[0].sm, 75);
    assert_int_equal(list.items[0].len, PTX_LEN);
    assert_int_equal(strlen(list.items[0].text), PTX_LEN);
    assert_non_null(strstr(list.items[0].text, "\n.version 9.0\n.target sm_75\n"));
    assert_non_null(strstr(list.items[0].text, ".visible .entry _Z5scalePffi("));
    assert_string_equal(list.items[0].text + PTX_LEN - 9, "ret;\n\n}\n\n");
    rt_ptx_list_free(&list);
    assert_null(list.items);
    assert_int_equal(list.count, 0);
    free(b.bytes);
}

/* The three codecs give the same text, byte for byte. */
static void test_codecs_agree(void **state)
{
    (void)state;
    const char *names[] = {"plain_sm75.fatbin", "lz4_sm75.fatbin", "zstd_sm75.fatbin"};
    blob plain = load(names[0]);
    rt_ptx_list reference = read_ok(plain);
    assert_int_equal(reference.count, 1);
    assert_int_equal(reference.items[0].len, PTX_LEN);
    assert_memory_equal(reference.items[0].text, plain.bytes + PTX_PAYLOAD, PTX_LEN + 1);
    for (int i = 1; i < 3; i++) {
        blob b = load(names[i]);
        rt_ptx_list list = read_ok(b);
        assert_int_equal(list.count, 1);
        assert_int_equal(list.items[0].sm, 75);
        assert_int_equal(list.items[0].len, PTX_LEN);
        assert_string_equal(list.items[0].text, reference.items[0].text);
        rt_ptx_list_free(&list);
        free(b.bytes);
    }
    rt_ptx_list_free(&reference);
    free(plain.bytes);
}

/* Three PTX entries in file order with their architectures; compute_90a reads as 90. */
static void test_several_archs(void **state)
{
    (void)state;
    blob b = load("multi.fatbin");
    rt_ptx_list list = read_ok(b);
    static const unsigned sms[] = {80, 90, 100};
    static const char *targets[] = {".target sm_80\n", ".target sm_90a\n", ".target sm_100\n"};
    static const size_t lens[] = {716, 717, 727};
    assert_int_equal(list.count, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(list.items[i].sm, sms[i]);
        assert_int_equal(list.items[i].len, lens[i]);
        assert_non_null(strstr(list.items[i].text, targets[i]));
        assert_non_null(strstr(list.items[i].text, ".visible .entry _Z5scalePffi("));
    }
    rt_ptx_list_free(&list);
    free(b.bytes);
}

static void test_no_ptx(void **state)
{
    (void)state;
    blob b = load("noptx.fatbin");
    expect_error(b, "the fat binary holds no PTX, only machine code for real GPUs, and the "
                    "simulator runs PTX: compile with nvcc -gencode "
                    "arch=compute_80,code=compute_80 added (or -arch=sm_80, which embeds both) "
                    "[RT-FATBIN-009]");
    free(b.bytes);
}

/* What __cudaRegisterFatBinary receives: nvcc's wrapper, or a pointer at the fat binary. */
static void test_wrapper_and_bare_pointer(void **state)
{
    (void)state;
    blob b = load("lz4_sm75.fatbin");
    struct {
        int magic, version;
        const void *data, *filename_or_fatbins;
    } wrapper = {0x466243B1, 1, b.bytes, NULL};
    char err[256] = "";
    rt_ptx_list list;
    assert_int_equal(rt_fatbin_ptx(&wrapper, &list, err, sizeof err), 0);
    assert_int_equal(list.count, 1);
    assert_int_equal(list.items[0].len, PTX_LEN);
    rt_ptx_list_free(&list);
    assert_int_equal(rt_fatbin_ptx(b.bytes, &list, err, sizeof err), 0);
    assert_int_equal(list.count, 1);
    assert_int_equal(list.items[0].sm, 75);
    rt_ptx_list_free(&list);

    wrapper.data = NULL;
    assert_int_equal(rt_fatbin_ptx(&wrapper, &list, err, sizeof err), -1);
    assert_string_equal(err, "fat binary wrapper (version 1) with no data pointer [RT-FATBIN-001]");
    assert_int_equal(list.count, 0);
    assert_int_equal(rt_fatbin_ptx(NULL, &list, err, sizeof err), -1);
    assert_string_equal(err, "not a fat binary: NULL pointer [RT-FATBIN-001]");
    static const unsigned char elf[16] = {0x7f, 'E', 'L', 'F'};
    assert_int_equal(rt_fatbin_ptx(elf, &list, err, sizeof err), -1);
    assert_string_equal(err, "not a fat binary: no magic 0xBA55ED50 (or wrapper magic "
                             "0x466243B1) [RT-FATBIN-001]");
    /* a message longer than the caller's buffer is cut, still terminated; none at all is fine */
    assert_int_equal(rt_fatbin_ptx(NULL, &list, err, 10), -1);
    assert_string_equal(err, "not a fat");
    assert_int_equal(rt_fatbin_ptx(NULL, &list, NULL, 0), -1);
    rt_ptx_list_free(NULL);
    free(b.bytes);
}

/* Each corruption of the zstd blob is refused with its own rule and message. */
static void test_corrupt_headers(void **state)
{
    (void)state;
    blob b = load("zstd_sm75.fatbin");
    unsigned char *saved = malloc(b.size);
    memcpy(saved, b.bytes, b.size);
#define RESTORE() memcpy(b.bytes, saved, b.size)
    b.size--;
    expect_error(b, "fat binary declares 16 + 3624 bytes but only 3639 are there [RT-FATBIN-003]");
    b.size++;
    b.bytes[4] = 2;
    expect_error(b, "fat binary header of version 2 and size 16 (known: version 1, size >= 16) "
                    "[RT-FATBIN-002]");
    RESTORE();
    put_u64(b.bytes + 8, (uint64_t)1 << 40);
    expect_error(b, "fat binary declares 1099511627776 bytes after its header (at most "
                    "1073741824 accepted) [RT-FATBIN-003]");
    RESTORE();
    put_u32(b.bytes + PTX_ENTRY + 4, 8);
    expect_error(b, "fat binary entry at offset 3192: header size 8 is outside [64, 448] "
                    "[RT-FATBIN-004]");
    put_u32(b.bytes + PTX_ENTRY + 4, 449);
    expect_error(b, "fat binary entry at offset 3192: header size 449 is outside [64, 448] "
                    "[RT-FATBIN-004]");
    RESTORE();
    put_u64(b.bytes + PTX_ENTRY + 8, UINT64_MAX);
    expect_error(b, "fat binary entry at offset 3192: payload of 18446744073709551615 bytes runs "
                    "past the container (368 bytes left) [RT-FATBIN-005]");
    RESTORE();
    put_u32(b.bytes + PTX_ENTRY + 16, 369);
    expect_error(b, "fat binary entry at offset 3192 (sm_75): its compressed size 369 is more "
                    "than its payload of 368 bytes [RT-FATBIN-005]");
    RESTORE();
    b.bytes[PTX_ENTRY + 41] |= 0x20; /* the LZ4 flag beside zstd's */
    expect_error(b, "fat binary entry at offset 3192 (sm_75) is marked compressed with both LZ4 "
                    "and zstd [RT-FATBIN-006]");
    RESTORE();
    b.bytes[PTX_ENTRY + 41] ^= 0xa0; /* LZ4 instead of zstd: the zstd stream is not LZ4 */
    expect_error(b, "fat binary entry at offset 3192 (sm_75): the LZ4 stream does not decompress "
                    "to its declared 717 bytes [RT-FATBIN-007]");
    RESTORE();
    put_u64(b.bytes + PTX_ENTRY + 56, 718);
    expect_error(b, "fat binary entry at offset 3192 (sm_75): the zstd stream does not decompress "
                    "to its declared 718 bytes [RT-FATBIN-007]");
    put_u64(b.bytes + PTX_ENTRY + 56, 0);
    expect_error(b, "fat binary entry at offset 3192 (sm_75) declares 0 decompressed bytes (1 to "
                    "268435456 accepted) [RT-FATBIN-007]");
    RESTORE();
    b.bytes[PTX_PAYLOAD + 4] ^= 0xff; /* the zstd frame header */
    expect_error(b, "fat binary entry at offset 3192 (sm_75): the zstd stream does not decompress "
                    "to its declared 717 bytes [RT-FATBIN-007]");
    RESTORE();
    put_u64(b.bytes + 8, 64 + 3112 + 40);
    expect_error(b, "fat binary entry at offset 3192: 40 bytes left, an entry header needs 64 "
                    "[RT-FATBIN-004]");
#undef RESTORE
    free(saved);
    free(b.bytes);
}

/* Uncompressed PTX must be a non-empty NUL-terminated text inside its payload. */
static void test_bad_plain_text(void **state)
{
    (void)state;
    blob b = load("plain_sm75.fatbin");
    b.bytes[PTX_PAYLOAD] = '\0';
    expect_error(b, "fat binary entry at offset 3192 (sm_75): the PTX text is empty "
                    "[RT-FATBIN-008]");
    memset(b.bytes + PTX_PAYLOAD, 'x', b.size - PTX_PAYLOAD);
    expect_error(b, "fat binary entry at offset 3192 (sm_75): the PTX text is not "
                    "NUL-terminated [RT-FATBIN-008]");
    free(b.bytes);
}

/* Every shorter container (the header's size and the buffer cut together) and every byte of the
 * headers flipped: a result or an error with a rule id, never a read outside the buffer. */
static void test_truncations_and_flips(void **state)
{
    (void)state;
    const char *names[] = {"zstd_sm75.fatbin", "lz4_sm75.fatbin", "multi.fatbin"};
    for (int n = 0; n < 3; n++) {
        blob full = load(names[n]);
        int valid_cuts = 0;
        for (size_t body = 0; body + 16 < full.size; body++) {
            blob cut = {malloc(16 + body), 16 + body};
            memcpy(cut.bytes, full.bytes, cut.size);
            put_u64(cut.bytes + 8, body);
            rt_ptx_list list;
            char err[512] = "";
            if (rt_fatbin_ptx_bytes(cut.bytes, cut.size, &list, err, sizeof err) == 0) {
                /* a cut just after a PTX entry is a shorter, valid fat binary */
                assert_string_equal(err, "");
                assert_true(list.count > 0);
                valid_cuts++;
            } else {
                assert_non_null(strstr(err, "[RT-FATBIN-00"));
            }
            rt_ptx_list_free(&list);
            free(cut.bytes);
        }
        assert_int_equal(valid_cuts, n < 2 ? 0 : 2); /* after compute_80, after compute_90a */
        /* the container's header and the first entry's; in the sm_75 blobs, the PTX entry's */
        size_t ranges[2][2] = {{0, 16 + 64}, {PTX_ENTRY, n < 2 ? PTX_ENTRY + 80 : PTX_ENTRY}};
        for (int r = 0; r < 2; r++)
        for (size_t at = ranges[r][0]; at < ranges[r][1]; at++) {
            for (unsigned bit = 0; bit < 8; bit++) {
                full.bytes[at] ^= (unsigned char)(1u << bit);
                rt_ptx_list list;
                char err[512] = "";
                int status = rt_fatbin_ptx_bytes(full.bytes, full.size, &list, err, sizeof err);
                assert_true(status == 0 ? list.count > 0 && !err[0] : strstr(err, "[RT-") != NULL);
                rt_ptx_list_free(&list);
                full.bytes[at] ^= (unsigned char)(1u << bit);
            }
        }
        free(full.bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zstd_default),
        cmocka_unit_test(test_codecs_agree),
        cmocka_unit_test(test_several_archs),
        cmocka_unit_test(test_no_ptx),
        cmocka_unit_test(test_wrapper_and_bare_pointer),
        cmocka_unit_test(test_corrupt_headers),
        cmocka_unit_test(test_bad_plain_text),
        cmocka_unit_test(test_truncations_and_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
