/* A program on the public C API of gpumemsim (docs/api.md): saxpy, y = a*x + y, on a simulated
 * H100, with the kernel nvcc compiled in examples/saxpy/.
 *
 *   api_saxpy SAXPY.ptx [N]     (N elements, default 4096)
 *
 * It creates a device, loads the module, allocates and fills x and y, launches the kernel, reads
 * y back and checks every element, then prints what the L1 and L2 saw. Exit status 0 when every
 * element is right, 1 otherwise. Built with the project; tests/api.cmake runs it. */
#include <stdio.h>
#include <stdlib.h>

#include "gpumemsim/gpumemsim.h"

/* Prints the diagnostics and the failed call, and ends the program. */
static void check(gms_status st, const char *what, gms_diag_list *dl)
{
    if (st == GMS_OK)
        return;
    gms_diag_list_print(dl, stderr);
    fprintf(stderr, "api_saxpy: %s: %s\n", what, gms_status_name(st));
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: api_saxpy SAXPY.ptx [N]\n");
        return 2;
    }
    uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 4096;
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev;
    gms_module *m;
    check(gms_device_create("h100", &dev, dl), "creating the device", dl);
    check(gms_module_load(dev, argv[1], NULL, 0, NULL, &m, dl), "loading the module", dl);

    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    uint64_t dx, dy;
    check(gms_device_alloc(dev, n * sizeof *x, &dx, dl), "allocating x", dl);
    check(gms_device_alloc(dev, n * sizeof *y, &dy, dl), "allocating y", dl);
    check(gms_device_write(dev, dx, x, n * sizeof *x, dl), "copying x in", dl);
    check(gms_device_write(dev, dy, y, n * sizeof *y, dl), "copying y in", dl);

    gms_arg args[] = {gms_arg_u32(n), gms_arg_f32(2.0f), gms_arg_address(dx),
                      gms_arg_address(dy)};
    gms_launch_config launch = {.grid = {(n + 255) / 256, 1, 1}, .block = {256, 1, 1},
                                .args = args, .nargs = 4};
    check(gms_module_launch(m, "_Z5saxpyifPKfPf", &launch, dl), "launching saxpy", dl);
    check(gms_device_read(dev, dy, y, n * sizeof *y, dl), "copying y out", dl);

    uint32_t wrong = 0;
    for (uint32_t i = 0; i < n; i++)
        wrong += y[i] != 2.0f * (float)i + 1.0f;
    gms_launch_stats s;
    check(gms_device_launch_stats(dev, 0, &s), "reading the statistics", dl);
    printf("saxpy of %u elements on h100: %u wrong\n", n, wrong);
    printf("warp instructions %llu\n", (unsigned long long)s.warp_instructions);
    printf("L1 sectors %llu: %llu hits, %llu misses\n",
           (unsigned long long)s.counters.l1.sector_accesses,
           (unsigned long long)s.counters.l1.sector_hits,
           (unsigned long long)s.counters.l1.sector_misses);
    printf("L2 sectors %llu: %llu hits, %llu misses\n",
           (unsigned long long)s.counters.l2.sector_accesses,
           (unsigned long long)s.counters.l2.sector_hits,
           (unsigned long long)s.counters.l2.sector_misses);
    free(x);
    free(y);
    gms_device_destroy(dev);
    gms_diag_list_destroy(dl);
    return wrong ? 1 : 0;
}
