/* libFuzzer target for the fat binary reader (src/runtime/fatbin.c): one input is a fat binary,
 * read from a malloc'd copy of its exact size (so ASan catches a read one byte past it). The
 * reader must return 0 with at least one NUL-terminated text of the length it reports, or -1
 * with a message that ends in a rule id and an empty list; a broken promise aborts, so the
 * fuzzer reports it like a crash.
 * Seeds: tests/fuzz/corpus_fatbin/ (the fat binaries of tests/fatbin/); crashes found so far:
 * tests/fuzz/regressions_fatbin/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    rt_ptx_list list;
    char err[256];
    if (rt_fatbin_ptx_bytes(copy, size, &list, err, sizeof err) == 0) {
        if (list.count == 0)
            abort();
        for (size_t i = 0; i < list.count; i++)
            if (!list.items[i].text || strlen(list.items[i].text) != list.items[i].len ||
                list.items[i].len == 0)
                abort();
    } else if (list.count != 0 || list.items || !strstr(err, " [RT-FATBIN-0")) {
        abort();
    }
    rt_ptx_list_free(&list);
    free(copy);
    return 0;
}
