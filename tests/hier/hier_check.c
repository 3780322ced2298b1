/* hier_check: asserts exact counters in a gpumemsim JSON report (docs/statistics.md, schema
 * gpumemsim-stats/2). Test tooling for tests/hier.cmake, not part of the gms library.
 *
 * Usage: hier_check REPORT.json ARG...
 * ARGs are processed in order:
 *   --select-ptx FILE TEXT N   select the report's instruction whose ptx_line is the line number
 *                              of the N-th (1-based) line of FILE that contains TEXT; it must
 *                              have executed. Later "insn." checks refer to it.
 *   PATH=VALUE                 the integer at PATH must equal VALUE (a decimal integer, or
 *                              "null"). PATH is dot-separated object keys and array indices from
 *                              the report's top level (totals.dram.read_bytes,
 *                              launches.0.l1.requests), or "insn." and a path inside the
 *                              selected instruction (insn.l2.sector_hits).
 * Every failed check is printed with the value found; the exit status is 0 when all held, 1 when
 * one failed, 2 for bad usage or an unreadable report. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The 1-based number of the n-th line of `path` containing `text`, or 0. */
static long nth_line_with(const char *path, const char *text, long n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    long number = 0, found = 0, result = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        size_t len = strlen(line);
        /* Lines longer than the buffer continue in the next read: count them once. */
        if (len == sizeof line - 1 && line[len - 1] != '\n')
            number--;
        if (strstr(line, text) && ++found == n) {
            result = number;
            break;
        }
    }
    fclose(f);
    return result;
}

static json_t *select_instruction(json_t *report, long ptx_line)
{
    json_t *insns = json_object_get(report, "instructions"), *insn;
    size_t i;
    json_array_foreach(insns, i, insn)
    {
        json_t *line = json_object_get(insn, "ptx_line");
        if (json_is_integer(line) && json_integer_value(line) == ptx_line)
            return insn;
    }
    return NULL;
}

/* Follows a dot-separated path of keys and array indices. */
static json_t *lookup(json_t *root, const char *path)
{
    char buf[256];
    if (strlen(path) >= sizeof buf)
        return NULL;
    strcpy(buf, path);
    json_t *node = root;
    for (char *save = NULL, *part = strtok_r(buf, ".", &save); part && node;
         part = strtok_r(NULL, ".", &save)) {
        if (json_is_array(node)) {
            char *end;
            errno = 0;
            unsigned long index = strtoul(part, &end, 10);
            node = *end || errno ? NULL : json_array_get(node, index);
        } else {
            node = json_object_get(node, part);
        }
    }
    return node;
}

/* Checks one PATH=VALUE; returns 0 when it held, 1 when not, 2 for a malformed check. */
static int check(json_t *report, json_t *insn, const char *insn_what, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(stderr, "hier_check: '%s' is not PATH=VALUE\n", arg);
        return 2;
    }
    char path[256];
    size_t len = (size_t)(eq - arg);
    if (len >= sizeof path) {
        fprintf(stderr, "hier_check: path too long in '%s'\n", arg);
        return 2;
    }
    memcpy(path, arg, len);
    path[len] = '\0';
    json_t *root = report;
    const char *rest = path;
    if (strncmp(path, "insn.", 5) == 0) {
        if (!insn) {
            fprintf(stderr, "hier_check: %s: no instruction selected\n", arg);
            return 2;
        }
        root = insn;
        rest = path + 5;
    }
    json_t *got = lookup(root, rest);
    const char *want = eq + 1;
    if (strcmp(want, "null") == 0) {
        if (json_is_null(got))
            return 0;
    } else {
        char *end;
        errno = 0;
        long long value = strtoll(want, &end, 10);
        if (*want == '\0' || *end || errno) {
            fprintf(stderr, "hier_check: '%s': value is not an integer\n", arg);
            return 2;
        }
        if (json_is_integer(got) && json_integer_value(got) == value)
            return 0;
    }
    char *text = got ? json_dumps(got, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    fprintf(stderr, "FAIL: %s%s: expected %s, got %s\n", path, root == insn ? insn_what : "",
            want, text ? text : "(missing)");
    free(text);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: hier_check REPORT.json [--select-ptx FILE TEXT N] PATH=VALUE...\n");
        return 2;
    }
    json_error_t error;
    json_t *report = json_load_file(argv[1], 0, &error);
    if (!report) {
        fprintf(stderr, "hier_check: %s:%d:%d: %s\n", argv[1], error.line, error.column,
                error.text);
        return 2;
    }
    json_t *insn = NULL;
    char insn_what[160] = "";
    int failed = 0, checks = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--select-ptx") == 0) {
            if (i + 3 >= argc) {
                fprintf(stderr, "hier_check: --select-ptx needs FILE TEXT N\n");
                json_decref(report);
                return 2;
            }
            long n = strtol(argv[i + 3], NULL, 10);
            long line = n > 0 ? nth_line_with(argv[i + 1], argv[i + 2], n) : 0;
            insn = line ? select_instruction(report, line) : NULL;
            if (!insn) {
                fprintf(stderr, "hier_check: no executed instruction at occurrence %ld of '%s' "
                        "in %s (line %ld)\n", n, argv[i + 2], argv[i + 1], line);
                json_decref(report);
                return 2;
            }
            const char *text = json_string_value(json_object_get(insn, "text"));
            snprintf(insn_what, sizeof insn_what, " (PTX line %ld: %s)", line,
                     text ? text : "?");
            i += 3;
            continue;
        }
        int rc = check(report, insn, insn_what, argv[i]);
        if (rc == 2) {
            json_decref(report);
            return 2;
        }
        failed += rc;
        checks++;
    }
    json_decref(report);
    if (failed) {
        fprintf(stderr, "hier_check: %d of %d checks failed\n", failed, checks);
        return 1;
    }
    printf("hier_check: %d checks passed\n", checks);
    return 0;
}
