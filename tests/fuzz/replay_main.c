/* Replay driver for the fuzz targets, built in every build, including gcc-only ones without
 * libFuzzer: linked with one tests/fuzz/fuzz_<target>.c, it feeds every file named on
 * the command line, or found directly inside a directory named there, to LLVMFuzzerTestOneInput
 * once, in sorted order. It is how the corpus and every crash ever found
 * (tests/fuzz/regressions_<target>/) are re-run in each build; under ASan+UBSan a regression
 * that comes back aborts the run. It does not mutate inputs or search for new ones.
 *
 * usage: replay_<target> FILE|DIR...   exit 0 when every input ran, 2 when one could not be read */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* scandir, alphasort */
#endif
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads the whole file at `path` into a malloc'd buffer (*size bytes); NULL on failure. */
static uint8_t *read_whole_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t capacity = 4096, length = 0;
    uint8_t *buffer = malloc(capacity);
    while (buffer) {
        length += fread(buffer + length, 1, capacity - length, file);
        if (length < capacity)
            break;
        uint8_t *grown = realloc(buffer, capacity * 2);
        if (!grown) {
            free(buffer);
            buffer = NULL;
            break;
        }
        buffer = grown;
        capacity *= 2;
    }
    if (buffer && ferror(file)) {
        free(buffer);
        buffer = NULL;
    }
    fclose(file);
    *size = length;
    return buffer;
}

/* Runs one input file. Returns 0, or -1 (after a message) when it cannot be read. */
static int replay_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = read_whole_file(path, &size);
    if (!data) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return -1;
    }
    /* Exact-size copy so that ASan catches a read one byte past the input, as libFuzzer does. */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(data);
        fprintf(stderr, "replay: out of memory for %s\n", path);
        return -1;
    }
    memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

/* Hidden files (.gitkeep, editor droppings) are not inputs. */
static int is_input_name(const struct dirent *entry)
{
    return entry->d_name[0] != '.';
}

/* Runs every regular file directly inside `dir`; *count grows by the number run. */
static int replay_directory(const char *dir, size_t *count)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, is_input_name, alphasort);
    if (n < 0) {
        fprintf(stderr, "replay: cannot list %s\n", dir);
        return -1;
    }
    int status = 0;
    for (int i = 0; i < n; i++) {
        size_t length = strlen(dir) + strlen(entries[i]->d_name) + 2;
        char *path = malloc(length);
        struct stat info;
        if (!path)
            status = -1;
        else {
            snprintf(path, length, "%s/%s", dir, entries[i]->d_name);
            if (stat(path, &info) == 0 && S_ISREG(info.st_mode)) {
                if (replay_file(path) != 0)
                    status = -1;
                else
                    (*count)++;
            }
        }
        free(path);
        free(entries[i]);
    }
    free(entries);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    int status = 0;
    size_t count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            status = 2;
        } else if (S_ISDIR(info.st_mode)) {
            if (replay_directory(argv[i], &count) != 0)
                status = 2;
        } else if (replay_file(argv[i]) != 0) {
            status = 2;
        } else {
            count++;
        }
    }
    printf("replay: %zu inputs ran\n", count);
    return status;
}
