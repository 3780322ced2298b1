/* The entry-point table of gpumemsim's libcudart (src/runtime/cudart_entries.def; docs/
 * cuda-runtime.md, "Entry points"): the built library defines every row of the list at version
 * node libcudart.so.13, STUB rows answer cudaErrorNotSupported (801), and the error names and
 * codes programs print are CUDA's. Needs no nvcc: the library is opened with dlopen. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

typedef int (*no_args_fn)(void);
typedef const char *(*name_fn)(int);

static void *open_cudart(void)
{
    void *h = dlopen(GMS_CUDART_PATH, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(h);
    return h;
}

/* Every row of the list is defined, at the version node programs ask for. */
static void test_every_entry_defined(void **state)
{
    (void)state;
    void *h = open_cudart();
    size_t n = 0;
#define CUDART_ENTRY(name, how)                                                                 \
    assert_non_null(dlvsym(h, #name, "libcudart.so.13"));                                       \
    n++;
#include "runtime/cudart_entries.def"
#undef CUDART_ENTRY
    assert_int_equal(n, 422); /* the functions CUDA 13.0's libcudart.so.13 exports */
    dlclose(h);
    /* The CUDA 12 name of the same library, at its own node. */
    h = dlopen(GMS_CUDART12_PATH, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(h);
    assert_non_null(dlvsym(h, "cudaMalloc", "libcudart.so.12"));
    assert_null(dlvsym(h, "cudaMalloc", "libcudart.so.13"));
    dlclose(h);
}

/* A STUB row returns 801 whatever it is given; an IMPL row of the same shape does real work. */
static void test_stubs_answer_not_supported(void **state)
{
    (void)state;
    void *h = open_cudart();
    no_args_fn graph = (no_args_fn)(uintptr_t)dlsym(h, "cudaGraphCreate");
    assert_int_equal(graph(), 801);
    assert_int_equal(graph(), 801); /* printed once, answered every time */
    typedef int (*get_last_fn)(void);
    get_last_fn last = (get_last_fn)(uintptr_t)dlsym(h, "cudaGetLastError");
    assert_int_equal(last(), 801);
    assert_int_equal(last(), 0);
    dlclose(h);
}

/* docs/cuda-runtime.md, "Entry points", names every IMPL row in backticks and no STUB row. */
static void test_docs_list(void **state)
{
    (void)state;
    FILE *f = fopen(GMS_SOURCE_DIR "/docs/cuda-runtime.md", "rb");
    assert_non_null(f);
    static char doc[1 << 18];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    char *list = strstr(doc, "The implemented ones:");
    assert_non_null(list);
    char *end = strstr(list, "\n\nNot implemented");
    assert_non_null(end);
    *end = '\0';
    char quoted[128];
#define IMPL 1
#define STUB 0
#define CUDART_ENTRY(name, how)                                                                 \
    snprintf(quoted, sizeof quoted, "`%s`", #name);                                             \
    if ((strstr(list, quoted) != NULL) != how)                                                  \
        fail_msg("%s is %s but the docs %s it", #name, how ? "IMPL" : "STUB",                   \
                 how ? "do not list" : "list");
#include "runtime/cudart_entries.def"
#undef CUDART_ENTRY
#undef IMPL
#undef STUB
}

static void test_error_names(void **state)
{
    (void)state;
    void *h = open_cudart();
    name_fn name = (name_fn)(uintptr_t)dlsym(h, "cudaGetErrorName");
    name_fn text = (name_fn)(uintptr_t)dlsym(h, "cudaGetErrorString");
    assert_string_equal(name(700), "cudaErrorIllegalAddress");
    assert_string_equal(name(801), "cudaErrorNotSupported");
    assert_string_equal(name(0), "cudaSuccess");
    assert_string_equal(text(0), "no error");
    assert_string_equal(name(12345), "cudaErrorUnknown");
    dlclose(h);
}

/* Copies name managed memory with any kind; a host pointer with a device kind is refused
 * (cudaErrorInvalidMemcpyDirection, 21). */
static void test_managed_copies(void **state)
{
    (void)state;
    void *h = open_cudart();
    typedef int (*managed_fn)(void **, size_t, unsigned);
    typedef int (*copy_fn)(void *, const void *, size_t, int);
    managed_fn managed = (managed_fn)(uintptr_t)dlsym(h, "cudaMallocManaged");
    copy_fn copy = (copy_fn)(uintptr_t)dlsym(h, "cudaMemcpy");
    int *m = NULL, src[4] = {1, 2, 3, 4}, back[4] = {0};
    assert_int_equal(managed((void **)&m, sizeof src, 1), 0);
    assert_int_equal(copy(m, src, sizeof src, 1), 0);    /* HostToDevice into managed */
    assert_int_equal(copy(back, m, sizeof src, 2), 0);   /* DeviceToHost out of it */
    assert_int_equal(back[3], 4);
    assert_int_equal(copy(back, src, sizeof src, 2), 21); /* host to host as DeviceToHost */
    dlclose(h);
}

static void note_call(void *user)
{
    ++*(int *)user;
}

/* Host functions run at once; registered host memory is reported as pinned host memory. */
static void test_host_functions(void **state)
{
    (void)state;
    void *h = open_cudart();
    typedef int (*host_fn)(void *, void (*)(void *), void *);
    typedef int (*register_fn)(void *, size_t, unsigned);
    typedef int (*unregister_fn)(void *);
    typedef int (*attr_fn)(int *, const void *);
    host_fn launch_host = (host_fn)(uintptr_t)dlsym(h, "cudaLaunchHostFunc");
    register_fn reg = (register_fn)(uintptr_t)dlsym(h, "cudaHostRegister");
    unregister_fn unreg = (unregister_fn)(uintptr_t)dlsym(h, "cudaHostUnregister");
    attr_fn attrs = (attr_fn)(uintptr_t)dlsym(h, "cudaPointerGetAttributes");
    int calls = 0, buf[64], a[24] = {0}; /* cudaPointerAttributes (88 bytes) fits */
    assert_int_equal(launch_host(NULL, note_call, &calls), 0);
    assert_int_equal(calls, 1);
    assert_int_equal(reg(buf, sizeof buf, 0), 0);
    assert_int_equal(reg(buf, sizeof buf, 0), 712); /* cudaErrorHostMemoryAlreadyRegistered */
    assert_int_equal(attrs(a, buf + 3), 0);
    assert_int_equal(a[0], 1); /* cudaMemoryTypeHost */
    assert_int_equal(unreg(buf), 0);
    assert_int_equal(unreg(buf), 713); /* cudaErrorHostMemoryNotRegistered */
    dlclose(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_entry_defined),
        cmocka_unit_test(test_stubs_answer_not_supported),
        cmocka_unit_test(test_docs_list),
        cmocka_unit_test(test_error_names),
        cmocka_unit_test(test_managed_copies),
        cmocka_unit_test(test_host_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
