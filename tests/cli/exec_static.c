/* A statically linked program for the test cli.exec_static (tests/cli.cmake): were `gpumemsim
 * exec` to run it rather than refuse it, the test would see its exit status 0. */
int main(void)
{
    return 0;
}
