/* A stand-in libcudart.so.13 for the tests of `gpumemsim exec` (tests/cli.cmake) that must run
 * without nvcc and without the real runtime libraries: it only says which library was loaded. */
const char *gms_test_fake_cudart(void);

const char *gms_test_fake_cudart(void)
{
    return "fake libcudart.so.13 from " GMS_FAKE_CUDART_DIR;
}
