/* Unit tests for src/base: arena, diagnostics list, and files (bounded regular inputs, outputs
 * written all-or-nothing), the latter in a scratch folder under $TMPDIR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/dynarray.h"
#include "base/file.h"
#include "base/hash.h"

static char scratch[512];

static void scratch_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", scratch, name);
}

static void write_bytes(const char *name, const char *data, size_t n)
{
    char path[600];
    scratch_path(path, sizeof path, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* Entries of the scratch folder whose name starts with `prefix`. */
static int count_entries(const char *prefix)
{
    DIR *d = opendir(scratch);
    assert_non_null(d);
    int n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL)
        n += strncmp(ent->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

static void test_arena_alignment_and_zero(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    for (int i = 1; i < 1000; i += 37) {
        unsigned char *p = arena_alloc(&a, (size_t)i);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (int j = 0; j < i; j++)
            assert_int_equal(p[j], 0);
        memset(p, 0xab, (size_t)i);
    }
    char *big = arena_alloc(&a, 1 << 20); /* larger than one block */
    assert_non_null(big);
    assert_string_equal(arena_strndup(&a, "sector", 3), "sec");
    arena_fini(&a);
}

static void test_dynarray_grows_with_zeroed_elements(void **state)
{
    (void)state;
    dynarray v;
    dynarray_init(&v, sizeof(uint64_t) * 3);
    assert_null(v.data);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t *e = dynarray_push(&v);
        assert_non_null(e);
        assert_true(e[0] == 0 && e[1] == 0 && e[2] == 0);
        e[0] = i;
        e[2] = ~i;
    }
    assert_int_equal(v.count, 1000);
    assert_true(v.capacity >= 1000);
    const uint64_t *all = v.data;
    for (uint64_t i = 0; i < 1000; i++)
        assert_true(all[3 * i] == i && all[3 * i + 1] == 0 && all[3 * i + 2] == ~i);
    dynarray_free(&v);
    assert_null(v.data);
    assert_int_equal(v.count, 0);
    assert_int_equal(v.elem, sizeof(uint64_t) * 3);
    assert_non_null(dynarray_push(&v)); /* usable again */
    dynarray_free(&v);
}

static void test_hash_bytes_is_fnv1a(void **state)
{
    (void)state;
    assert_int_equal(hash_bytes("", 0), 2166136261u);
    assert_int_equal(hash_bytes("a", 1), 0xe40c292cu);
    assert_int_equal(hash_bytes("foobar", 6), 0xbf9cf968u);
    assert_int_equal(hash_bytes("foobarbaz", 6), hash_bytes("foobar", 6));
}

static void test_diag_format(void **state)
{
    (void)state;
    diag_list dl;
    diag_list_init(&dl);
    diag_add(&dl, DIAG_ERROR, "PTX-ARCH-011", "k.ptx", 12, 7, "%s requires sm_%d", ".L2::evict_last", 100);
    diag_add(&dl, DIAG_WARNING, "PTX-W-001", "k.ptx", 3, 0, "w");
    char buf[256];
    diag_format(&dl.items[0], buf, sizeof buf);
    assert_string_equal(buf, "k.ptx:12:7: error: .L2::evict_last requires sm_100 [PTX-ARCH-011]");
    diag_format(&dl.items[1], buf, sizeof buf);
    assert_string_equal(buf, "k.ptx:3: warning: w [PTX-W-001]");
    assert_int_equal(dl.errors, 1);
    assert_int_equal(dl.warnings, 1);
    assert_non_null(diag_find(&dl, "PTX-W-001"));
    assert_null(diag_find(&dl, "PTX-W-002"));
    diag_list_fini(&dl);
}

static void test_file_read_regular(void **state)
{
    (void)state;
    char path[600];
    write_bytes("in.txt", "sector\n", 7);
    scratch_path(path, sizeof path, "in.txt");
    file_error e;
    size_t len = 0;
    char *text = file_read_all(path, 7, &len, &e);
    assert_non_null(text);
    assert_int_equal(len, 7);
    assert_string_equal(text, "sector\n");
    free(text);
    /* One byte over the cap. */
    assert_null(file_read_all(path, 6, &len, &e));
    assert_int_equal(e.status, FILE_ERR_TOO_LARGE);
    char why[128];
    assert_string_equal(file_error_text(&e, why, sizeof why), "larger than the limit of 6 bytes");
    scratch_path(path, sizeof path, "missing.txt");
    assert_null(file_read_all(path, 100, &len, &e));
    assert_int_equal(e.status, FILE_ERR_OPEN);
    assert_int_equal(e.err_no, ENOENT);
    assert_null(file_read_all(scratch, 100, &len, &e));
    assert_int_equal(e.status, FILE_ERR_NOT_REGULAR);
    assert_string_equal(file_error_text(&e, why, sizeof why), "not a regular file (a directory)");
}

/* /dev/zero (also through a link) and a FIFO with no writer are refused at once, unread. */
static void test_file_read_special(void **state)
{
    (void)state;
    char path[600], why[128];
    file_error e;
    size_t len;
    assert_null(file_read_all("/dev/zero", UINT64_MAX, &len, &e));
    assert_int_equal(e.status, FILE_ERR_NOT_REGULAR);
    assert_string_equal(file_error_text(&e, why, sizeof why),
                        "not a regular file (a character device)");
    scratch_path(path, sizeof path, "zero.ptx");
    assert_int_equal(symlink("/dev/zero", path), 0);
    assert_null(file_read_all(path, UINT64_MAX, &len, &e));
    assert_int_equal(e.status, FILE_ERR_NOT_REGULAR);
    scratch_path(path, sizeof path, "fifo.ptx");
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_null(file_read_all(path, UINT64_MAX, &len, &e));
    assert_int_equal(e.status, FILE_ERR_NOT_REGULAR);
    assert_string_equal(file_error_text(&e, why, sizeof why), "not a regular file (a FIFO)");
    assert_null(file_open_input(path, UINT64_MAX, NULL, &e));
    assert_int_equal(e.status, FILE_ERR_NOT_REGULAR);
}

/* A sparse file one byte over the cap is refused from its size, without reading it. */
static void test_file_read_size_cap(void **state)
{
    (void)state;
    char path[600];
    scratch_path(path, sizeof path, "big.bin");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)(256u << 20) + 1), 0);
    close(fd);
    file_error e;
    uint64_t size = 0;
    assert_null(file_open_input(path, 256u << 20, &size, &e));
    assert_int_equal(e.status, FILE_ERR_TOO_LARGE);
    assert_int_equal(e.size, (256u << 20) + 1);
    FILE *f = file_open_input(path, (256u << 20) + 1, &size, &e);
    assert_non_null(f);
    assert_int_equal(size, (256u << 20) + 1);
    fclose(f);
    unlink(path);
}

static void read_back(const char *name, const char *want, size_t n)
{
    char path[600], buf[64];
    scratch_path(path, sizeof path, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof buf, f), n);
    fclose(f);
    assert_memory_equal(buf, want, n);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
}

static void test_file_group(void **state)
{
    (void)state;
    char a[600], b[600], bad[600];
    scratch_path(a, sizeof a, "a.out");
    scratch_path(b, sizeof b, "b.out");
    scratch_path(bad, sizeof bad, "no_such_dir/c.out");
    write_bytes("b.out", "old", 3);
    file_group g;
    file_error e;
    /* The third output fails: the group is dropped, a is not created and b keeps its bytes. */
    file_group_init(&g);
    assert_int_equal(file_group_add(&g, a, "AAAA", 4, &e), 0);
    assert_int_equal(file_group_add(&g, b, "BB", 2, &e), 0);
    assert_int_equal(file_group_add(&g, bad, "C", 1, &e), -1);
    assert_int_equal(e.status, FILE_ERR_OPEN);
    assert_int_equal(e.err_no, ENOENT);
    assert_int_equal(count_entries(".gpumemsim-"), 2);
    file_group_fini(&g);
    assert_int_equal(access(a, F_OK), -1);
    read_back("b.out", "old", 3);
    assert_int_equal(count_entries(".gpumemsim-"), 0);
    /* A target that is a folder is refused before anything is written. */
    file_group_init(&g);
    assert_int_equal(file_group_add(&g, scratch, "x", 1, &e), -1);
    assert_int_equal(e.status, FILE_ERR_NOT_REGULAR);
    /* Every add succeeds: commit replaces both. */
    assert_int_equal(file_group_add(&g, a, "AAAA", 4, &e), 0);
    assert_int_equal(file_group_add(&g, b, "BB", 2, &e), 0);
    size_t failed = 99;
    assert_int_equal(file_group_commit(&g, &failed, &e), 0);
    file_group_fini(&g);
    read_back("a.out", "AAAA", 4);
    read_back("b.out", "BB", 2);
    assert_int_equal(count_entries(".gpumemsim-"), 0);
}

static void test_file_probe_output(void **state)
{
    (void)state;
    char path[600];
    file_error e;
    scratch_path(path, sizeof path, "p.out");
    assert_int_equal(file_probe_output(path, &e), 0);
    assert_int_equal(access(path, F_OK), -1); /* the probe creates nothing that stays */
    assert_int_equal(count_entries(".gpumemsim-"), 0);
    scratch_path(path, sizeof path, "no_such_dir/p.out");
    assert_int_equal(file_probe_output(path, &e), -1);
    assert_int_equal(e.status, FILE_ERR_OPEN);
    assert_int_equal(e.err_no, ENOENT);
}

static void remove_scratch(void)
{
    DIR *d = opendir(scratch);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        char path[1024];
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%.255s", scratch, ent->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(scratch);
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/gms_base_XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(scratch))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_alignment_and_zero),
        cmocka_unit_test(test_dynarray_grows_with_zeroed_elements),
        cmocka_unit_test(test_hash_bytes_is_fnv1a),
        cmocka_unit_test(test_diag_format),
        cmocka_unit_test(test_file_read_regular),
        cmocka_unit_test(test_file_read_special),
        cmocka_unit_test(test_file_read_size_cap),
        cmocka_unit_test(test_file_group),
        cmocka_unit_test(test_file_probe_output),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove_scratch();
    return rc;
}
