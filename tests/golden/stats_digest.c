/* stats_digest: turns a `gpumemsim run --json` statistics file into a short, diffable digest for
 * the golden-statistics tests (tests/golden/stats/, registered by tests/golden.cmake).
 *
 * The digest lists every scalar of "launches" and "totals" as one `path = value` line, so a
 * changed counter shows up by name in a diff, and reduces the per-instruction records (tens of
 * kilobytes per kernel) to their count and a 64-bit FNV-1a hash of their canonical form (sorted
 * keys, compact). Any change of any counter of any instruction changes the hash.
 *
 * Usage: stats_digest STATS.json            print the digest on stdout
 * Exit status: 0 success, 2 unreadable or malformed input. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* Prints `prefix = value` for every scalar under `v`, recursing through objects (sorted keys)
 * and arrays ([i]). */
static void print_flat(const char *prefix, json_t *v)
{
    char path[512];
    if (json_is_object(v)) {
        const char **keys = malloc(json_object_size(v) * sizeof *keys + 1);
        size_t n = 0;
        const char *key;
        json_t *child;
        json_object_foreach(v, key, child) keys[n++] = key;
        /* jansson iterates in insertion order; sort for a stable digest. */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
                const char *t = keys[j];
                keys[j] = keys[j - 1];
                keys[j - 1] = t;
            }
        for (size_t i = 0; i < n; i++) {
            snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", keys[i]);
            print_flat(path, json_object_get(v, keys[i]));
        }
        free(keys);
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(path, sizeof path, "%s[%zu]", prefix, i);
            print_flat(path, json_array_get(v, i));
        }
    } else {
        char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
        printf("%s = %s\n", prefix, text ? text : "?");
        free(text);
    }
}

static uint64_t fnv1a64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: stats_digest STATS.json\n");
        return 2;
    }
    json_error_t err;
    json_t *root = json_load_file(argv[1], 0, &err);
    if (!root || !json_is_object(root)) {
        fprintf(stderr, "%s:%d:%d: %s\n", argv[1], err.line, err.column, err.text);
        return 2;
    }
    printf("gpu = %s\n", json_string_value(json_object_get(root, "gpu")));
    /* The module's folder depends on where the test runs; its name does not. */
    const char *module = json_string_value(json_object_get(root, "module"));
    const char *slash = module ? strrchr(module, '/') : NULL;
    printf("module = %s\n", slash ? slash + 1 : module ? module : "?");
    print_flat("launches", json_object_get(root, "launches"));
    print_flat("totals", json_object_get(root, "totals"));
    json_t *insns = json_object_get(root, "instructions");
    char *canonical = json_dumps(insns, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (!canonical) {
        fprintf(stderr, "%s: no instructions array\n", argv[1]);
        json_decref(root);
        return 2;
    }
    printf("instructions = %zu records, fnv1a64 %016" PRIx64 "\n", json_array_size(insns),
           fnv1a64(canonical));
    free(canonical);
    json_decref(root);
    return 0;
}
