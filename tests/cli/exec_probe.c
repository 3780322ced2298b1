/* The program of the tests of `gpumemsim exec` (tests/cli.cmake): linked against the stand-in
 * libcudart.so.13 (fake_cudart.c) and built without a run path, so it starts only where
 * LD_LIBRARY_PATH names that library's folder. It prints which library it loaded, its arguments
 * and the environment that `exec` passes to the runtime (docs/cuda-runtime.md, "Environment"),
 * then exits with the status given as its first argument. */
#include <stdio.h>
#include <stdlib.h>

const char *gms_test_fake_cudart(void);

int main(int argc, char **argv)
{
    static const char *names[] = {"GPUMEMSIM_GPU", "GPUMEMSIM_CONFIG", "GPUMEMSIM_JSON",
                                  "GPUMEMSIM_STRIP_HINTS", "GPUMEMSIM_TOP", "GPUMEMSIM_QUIET",
                                  "GPUMEMSIM_REPORT", "LD_LIBRARY_PATH"};
    printf("%s\n", gms_test_fake_cudart());
    for (int i = 1; i < argc; i++)
        printf("argv[%d]=%s\n", i, argv[i]);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        printf("%s%s%s\n", names[i], v ? "=" : " unset", v ? v : "");
    }
    return argc > 1 ? atoi(argv[1]) : 0;
}
