/* hints_check: the driver of the cache-hint demonstrations (tests/hints/, docs/cache-hints.md).
 *
 * It reads one check file, runs gpumemsim on the launch files the file names, each with --json,
 * and evaluates the file's assertions against the JSON statistics (docs/statistics.md). It is a
 * test tool, not part of the simulator: it prints what it does and exits 0 when every assertion
 * holds, 1 when one fails and 2 when the check file or a run is broken.
 *
 * Usage: hints_check GPUMEMSIM CHECK_FILE OUT_DIR      (run in the folder of the launch files)
 * Each run's output goes to OUT_DIR/STEM.NAME.log and is then copied to standard output.
 *
 * Check-file lines (# starts a comment; tokens are separated by blanks):
 *   run NAME LAUNCH.json [OPTION...]   run `gpumemsim run LAUNCH.json --no-timing --quiet --json F
 *                                      OPTION...`,
 *                                      which must exit 0 (so the launch file's expectations on
 *                                      output values hold); its report is known as NAME
 *   run-status N NAME LAUNCH.json [OPTION...]
 *                                      the same, but the run must exit with status N (a run that
 *                                      reports an error after the kernel still writes its report;
 *                                      a faulted one writes none: only its output can be checked)
 *   output NAME REGEX                  the run's standard output and error (together) match the
 *                                      extended regular expression REGEX (the rest of the line)
 *   no-output NAME REGEX               ... do not match it
 *   require-dialect DIALECT            when the simulator has no kernel dialect DIALECT
 *                                      (`gpumemsim check --dialect DIALECT --list-ops` fails),
 *                                      stop here and exit 77, which ctest counts as skipped
 *   require-op DIALECT OP              the same when DIALECT's `--list-ops` does not list OP (its
 *                                      first word) as accepted, e.g. an instruction still rejected
 *   build PROGRAM SOURCE.cu [NVCC-OPTION...]
 *                                      compile a CUDA program with `nvcc -cudart shared -arch=sm_80
 *                                      -lineinfo` into OUT_DIR (tests/runtime/); without nvcc
 *                                      ($NVCC, /usr/local/cuda/bin/nvcc or nvcc on $PATH) stop
 *                                      here and exit 77
 *   exec NAME [OPTION...] -- PROGRAM [ARG...]
 *                                      run `gpumemsim exec --json F OPTION... -- PROGRAM ARG...`
 *                                      with PROGRAM from a build line; it must exit 0 (the
 *                                      program checked its own results) and its report is NAME
 *   exec-status N NAME [OPTION...] -- PROGRAM [ARG...]
 *                                      the same, but the program must exit with status N
 *                                      ($GMS_RUNTIME_PRELOAD, when set, is the program's LD_PRELOAD)
 *   check EXPR OP EXPR                 OP is one of == != < <= > >=
 *   same NAME:PATH NAME:PATH           the two JSON values are equal (objects key by key); PATH
 *                                      may start with insn[TEXT] or insn[TEXT@K]
 * EXPR is a sum of products of terms: an integer, or NAME:PATH, where PATH is a dotted key path
 * into the report (`totals.l2.sector_hits`, `launches[1].dram.read_bytes`) that may start with
 * `insn[TEXT]` (the one instruction whose text contains TEXT), `insn[TEXT@K]` (the K-th such
 * instruction in module order) or `insns[TEXT]` (the sum over every instruction whose text contains
 * TEXT), e.g. `a:insn[ld.global.cg@2].l1.sector_hits * 2`. Instructions that never executed are
 * not in the report, so they are not counted. A PATH ending in `.length` is the number of
 * elements of the array before it (`a:launches.length`). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_RUNS = 16, MAX_TOKENS = 64, LINE_BYTES = 1024 };

typedef struct run_report {
    char name[32];
    json_t *root;
    char *output; /* the run's stdout and stderr */
} run_report;

typedef struct checker {
    const char *simulator, *check_file, *out_dir, *stem;
    run_report runs[MAX_RUNS];
    int nruns;
    unsigned line;
    int failures;
} checker;

static int broken(const checker *c, const char *what, const char *detail)
{
    fprintf(stderr, "%s:%u: %s%s%s\n", c->check_file, c->line, what, detail ? ": " : "",
            detail ? detail : "");
    return -1;
}

/* ---- running the simulator ---- */

/* Reads the whole file at `path` (NUL-terminated, caller frees), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0, n;
    char buf[4096];
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *grown = realloc(text, cap);
            if (!grown)
                break;
            text = grown;
        }
        memcpy(text + len, buf, n);
        len += n;
    }
    fclose(f);
    if (!text)
        text = calloc(1, 1);
    else
        text[len] = '\0';
    return text;
}

/* Runs argv with stdout and stderr sent to `log` (or /dev/null when NULL); returns the exit
 * status, or -1 when it could not run or did not exit. */
static int spawn(char **argv, const char *log)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* Runs argv (the simulator's command line for run NAME), which must exit with `want`, and
 * keeps its output and the JSON report at `json_path` as run NAME. */
static int keep_run(checker *c, char **argv, const char *name, const char *json_path,
                    const char *log_path, int want)
{
    printf("run %s:", name);
    for (int i = 0; argv[i]; i++) printf(" %s", argv[i]);
    printf("\n");
    int status = spawn(argv, log_path);
    char *output = slurp(log_path);
    if (output)
        fputs(output, stdout);
    if (status != want) {
        fprintf(stderr, "%s:%u: gpumemsim did not exit with %d (status %d)\n", c->check_file,
                c->line, want, status);
        free(output);
        return -1;
    }
    json_error_t err;
    json_t *root = json_load_file(json_path, 0, &err);
    if (!root && want == 0) {
        free(output);
        return broken(c, "cannot read the JSON report", err.text);
    }
    run_report *r = &c->runs[c->nruns++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->root = root;
    r->output = output;
    return 0;
}

/* run NAME LAUNCH [OPTION...] (want == 0) and run-status N NAME LAUNCH [OPTION...]. */
static int run_simulator(checker *c, char **tok, int ntok, int want)
{
    if (ntok < 3 || c->nruns == MAX_RUNS || strlen(tok[1]) >= sizeof c->runs[0].name)
        return broken(c, "run needs a short NAME and a launch file (at most 16 runs)", NULL);
    char json_path[4096], log_path[4096];
    snprintf(json_path, sizeof json_path, "%s/%s.%s.json", c->out_dir, c->stem, tok[1]);
    snprintf(log_path, sizeof log_path, "%s/%s.%s.log", c->out_dir, c->stem, tok[1]);
    remove(json_path);
    char *argv[MAX_TOKENS + 8];
    int n = 0;
    argv[n++] = (char *)c->simulator;
    argv[n++] = "run";
    argv[n++] = tok[2];
    argv[n++] = "--no-timing"; /* the checks pin the functional scheduler's counters */
    argv[n++] = "--quiet";
    argv[n++] = "--json";
    argv[n++] = json_path;
    for (int i = 3; i < ntok; i++) argv[n++] = tok[i];
    argv[n] = NULL;
    return keep_run(c, argv, tok[1], json_path, log_path, want);
}

/* ---- CUDA programs (tests/runtime/) ---- */

/* The nvcc to use, in `out` (PATH_MAX bytes): $NVCC, /usr/local/cuda/bin/nvcc, or the first nvcc
 * on $PATH. Returns 0, or -1 when there is none. */
static int find_nvcc(char *out, size_t len)
{
    const char *env = getenv("NVCC"), *path = getenv("PATH");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return access(out, X_OK);
    }
    snprintf(out, len, "/usr/local/cuda/bin/nvcc");
    if (access(out, X_OK) == 0)
        return 0;
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(out, len, "%.*s/nvcc", (int)n, path);
        if (n && access(out, X_OK) == 0)
            return 0;
        path += n + (path[n] == ':');
    }
    return -1;
}

/* build PROGRAM SOURCE [NVCC-OPTION...]: 0, 77 (no nvcc) or -1. */
static int build_program(checker *c, char **tok, int ntok)
{
    char nvcc[4096], out[4096], log[4096];
    if (ntok < 3)
        return broken(c, "build needs a PROGRAM name and a .cu file", NULL);
    if (find_nvcc(nvcc, sizeof nvcc)) {
        printf("SKIP: no nvcc ($NVCC, /usr/local/cuda/bin/nvcc, $PATH) to build %s; %s:%u and the "
               "rest of the file are skipped\n", tok[2], c->check_file, c->line);
        return 77;
    }
    snprintf(out, sizeof out, "%s/%s.%s", c->out_dir, c->stem, tok[1]);
    snprintf(log, sizeof log, "%s/%s.%s.build.log", c->out_dir, c->stem, tok[1]);
    char *argv[MAX_TOKENS + 12];
    int n = 0;
    argv[n++] = nvcc;
    argv[n++] = "-cudart";
    argv[n++] = "shared";
    argv[n++] = "-arch=sm_80";
    argv[n++] = "-lineinfo";
    argv[n++] = "-o";
    argv[n++] = out;
    for (int i = 2; i < ntok; i++) argv[n++] = tok[i];
    argv[n] = NULL;
    printf("build %s:", tok[1]);
    for (int i = 0; i < n; i++) printf(" %s", argv[i]);
    printf("\n");
    int status = spawn(argv, log);
    if (status != 0) {
        char *text = slurp(log);
        fprintf(stderr, "%s%s:%u: nvcc failed (status %d)\n", text ? text : "", c->check_file,
                c->line, status);
        free(text);
        return -1;
    }
    return 0;
}

/* exec NAME [OPTION...] -- PROGRAM [ARG...] (want == 0) and exec-status N NAME .... */
static int exec_program(checker *c, char **tok, int ntok, int want)
{
    int dashes = 2;
    while (dashes < ntok && strcmp(tok[dashes], "--"))
        dashes++;
    if (dashes + 1 >= ntok || c->nruns == MAX_RUNS || strlen(tok[1]) >= sizeof c->runs[0].name)
        return broken(c, "exec needs a short NAME, then -- and a PROGRAM (at most 16 runs)", NULL);
    char json_path[4096], log_path[4096], program[4096];
    snprintf(json_path, sizeof json_path, "%s/%s.%s.json", c->out_dir, c->stem, tok[1]);
    snprintf(log_path, sizeof log_path, "%s/%s.%s.log", c->out_dir, c->stem, tok[1]);
    snprintf(program, sizeof program, "%s/%s.%s", c->out_dir, c->stem, tok[dashes + 1]);
    remove(json_path);
    char *argv[MAX_TOKENS + 8];
    int n = 0;
    argv[n++] = (char *)c->simulator;
    argv[n++] = "exec";
    argv[n++] = "--json";
    argv[n++] = json_path;
    for (int i = 2; i < ntok; i++) argv[n++] = i == dashes + 1 ? program : tok[i];
    argv[n] = NULL;
    /* $GMS_RUNTIME_PRELOAD (a sanitizer's runtime, tests/runtime.cmake) is preloaded into the
     * program, which the runtime libraries built with the sanitizer need, but not into nvcc. */
    const char *preload = getenv("GMS_RUNTIME_PRELOAD");
    if (preload && *preload)
        setenv("LD_PRELOAD", preload, 1);
    int rc = keep_run(c, argv, tok[1], json_path, log_path, want);
    if (preload && *preload)
        unsetenv("LD_PRELOAD");
    return rc;
}

/* output NAME REGEX / no-output NAME REGEX: `text` is the line after the command word. */
static int match_output(checker *c, const char *text, int want_match)
{
    text += strspn(text, " \t");
    size_t len = strcspn(text, " \t");
    const char *re_text = text + len + strspn(text + len, " \t");
    const run_report *r = NULL;
    for (int i = 0; i < c->nruns; i++)
        if (strlen(c->runs[i].name) == len && strncmp(c->runs[i].name, text, len) == 0)
            r = &c->runs[i];
    if (!r || !*re_text)
        return broken(c, "output needs a run's NAME and a regular expression", text);
    regex_t re;
    if (regcomp(&re, re_text, REG_EXTENDED | REG_NOSUB | REG_NEWLINE) != 0)
        return broken(c, "bad regular expression", re_text);
    int matched = regexec(&re, r->output ? r->output : "", 0, NULL, 0) == 0;
    regfree(&re);
    int ok = matched == want_match;
    printf("%s: %soutput %.*s %s\n", ok ? "ok  " : "FAIL", want_match ? "" : "no-", (int)len,
           text, re_text);
    c->failures += !ok;
    return 0;
}

/* require-dialect DIALECT: 1 when the simulator knows it, 0 when not, -1 when broken. */
static int has_dialect(checker *c, char **tok, int ntok)
{
    if (ntok != 2)
        return broken(c, "require-dialect needs one dialect name", NULL);
    char *argv[] = {(char *)c->simulator, "check", "--dialect", tok[1], "--list-ops", NULL};
    return spawn(argv, NULL) == 0;
}

/* require-op DIALECT OP: 1 when the dialect's op list has a line for OP that is not rejected,
 * 0 when not, -1 when broken. */
static int has_op(checker *c, char **tok, int ntok)
{
    if (ntok != 3)
        return broken(c, "require-op needs a dialect and an op", NULL);
    char log[4096], line[LINE_BYTES];
    snprintf(log, sizeof log, "%s/%s.ops.log", c->out_dir, c->stem);
    char *argv[] = {(char *)c->simulator, "check", "--dialect", tok[1], "--list-ops", NULL};
    if (spawn(argv, log) != 0)
        return 0;
    FILE *f = fopen(log, "r");
    if (!f)
        return broken(c, "cannot read the op list", log);
    int found = 0;
    size_t n = strlen(tok[2]);
    while (!found && fgets(line, sizeof line, f))
        found = strncmp(line, tok[2], n) == 0 && (line[n] == ' ' || line[n] == '\t') &&
                !strstr(line, "rejected");
    fclose(f);
    return found;
}

/* ---- paths into a report ---- */

static json_t *find_report(const checker *c, const char *name, size_t len)
{
    for (int i = 0; i < c->nruns; i++)
        if (strlen(c->runs[i].name) == len && strncmp(c->runs[i].name, name, len) == 0)
            return c->runs[i].root;
    return NULL;
}

/* Follows a dotted path (`a.b[2].c`) from `v`. Returns NULL when a step is missing. */
static json_t *follow(json_t *v, const char *path)
{
    char key[128];
    while (v && *path) {
        size_t n = strcspn(path, ".[");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        path += n;
        if (n)
            v = json_object_get(v, key);
        if (v && *path == '[') {
            char *end;
            long index = strtol(path + 1, &end, 10);
            if (*end != ']' || index < 0)
                return NULL;
            v = json_array_get(v, (size_t)index);
            path = end + 1;
        }
        if (*path == '.')
            path++;
    }
    return v;
}

/* Resolves NAME:PATH. `insn[TEXT]` selects one instruction; `insns[TEXT]` adds the value over
 * every matching instruction (*sum set). Returns 0, or -1 with a message. */
static int term_value(checker *c, const char *term, double *out)
{
    const char *colon = strchr(term, ':');
    json_t *root = colon ? find_report(c, term, (size_t)(colon - term)) : NULL;
    if (!root)
        return broken(c, "unknown report in", term);
    const char *path = colon + 1;
    int many = strncmp(path, "insns[", 6) == 0;
    if (many || strncmp(path, "insn[", 5) == 0) {
        const char *text = path + (many ? 6 : 5), *close = strchr(text, ']');
        if (!close || close[1] != '.')
            return broken(c, "insn[TEXT] must be followed by .PATH", term);
        char want[256];
        size_t tlen = (size_t)(close - text), i, matches = 0, nth = 0;
        if (tlen >= sizeof want)
            return broken(c, "instruction text too long", term);
        memcpy(want, text, tlen);
        want[tlen] = '\0';
        char *hash = strchr(want, '@');
        if (hash) { /* TEXT@K: the K-th match in module order */
            nth = (size_t)strtoul(hash + 1, NULL, 10);
            *hash = '\0';
            if (nth == 0 || many)
                return broken(c, "@K needs insn[] and K >= 1", term);
        }
        json_t *insns = json_object_get(root, "instructions"), *in;
        size_t seen = 0;
        double sum = 0;
        json_array_foreach(insns, i, in) {
            const char *t = json_string_value(json_object_get(in, "text"));
            if (!t || !strstr(t, want) || (nth && ++seen != nth))
                continue;
            json_t *v = follow(in, close + 2);
            if (!json_is_number(v))
                return broken(c, "not a number", term);
            sum += json_number_value(v);
            matches++;
        }
        if (matches == 0 || (!many && matches != 1))
            return broken(c, matches ? "several instructions match" : "no instruction matches",
                          term);
        *out = sum;
        return 0;
    }
    size_t plen = strlen(path);
    if (plen > 7 && strcmp(path + plen - 7, ".length") == 0) { /* an array's size */
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%.*s", (int)(plen - 7), path);
        json_t *array = follow(root, prefix);
        if (!json_is_array(array))
            return broken(c, "not an array", term);
        *out = (double)json_array_size(array);
        return 0;
    }
    json_t *v = follow(root, path);
    if (json_is_boolean(v)) { /* true counts as 1, false as 0 */
        *out = json_is_true(v);
        return 0;
    }
    if (!json_is_number(v))
        return broken(c, "missing or not a number", term);
    *out = json_number_value(v);
    return 0;
}

static int token_value(checker *c, const char *tok, double *out)
{
    char *end;
    long long v = strtoll(tok, &end, 0);
    if (*tok && !*end) {
        *out = (double)v;
        return 0;
    }
    return term_value(c, tok, out);
}

/* Evaluates tok[0..n) as products joined by + and -. */
static int eval(checker *c, char **tok, int n, double *out)
{
    double total = 0, product;
    int sign = 1, i = 0;
    while (i < n) {
        if (token_value(c, tok[i++], &product))
            return -1;
        while (i + 1 < n && strcmp(tok[i], "*") == 0) {
            double f;
            if (token_value(c, tok[i + 1], &f))
                return -1;
            product *= f;
            i += 2;
        }
        total += sign * product;
        if (i < n) {
            if (strcmp(tok[i], "+") && strcmp(tok[i], "-"))
                return broken(c, "expected + - or * between terms, got", tok[i]);
            sign = tok[i][0] == '+' ? 1 : -1;
            if (++i == n)
                return broken(c, "expression ends with an operator", NULL);
        }
    }
    if (n == 0)
        return broken(c, "empty expression", NULL);
    *out = total;
    return 0;
}

static int compare(checker *c, char **tok, int ntok, const char *text)
{
    static const char *ops[] = {"==", "!=", "<", "<=", ">", ">="};
    for (int i = 1; i < ntok; i++) {
        for (int o = 0; o < 6; o++) {
            if (strcmp(tok[i], ops[o]))
                continue;
            double a, b;
            if (eval(c, tok + 1, i - 1, &a) || eval(c, tok + i + 1, ntok - i - 1, &b))
                return -1;
            int ok = o == 0 ? a == b : o == 1 ? a != b : o == 2 ? a < b
                   : o == 3 ? a <= b : o == 4 ? a > b : a >= b;
            printf("%s: %s  (%.17g %s %.17g)\n", ok ? "ok  " : "FAIL", text, a, ops[o], b);
            c->failures += !ok;
            return 0;
        }
    }
    return broken(c, "check needs a comparison operator", text);
}

/* The value at PATH of a report, where PATH may start with `insn[TEXT]` or `insn[TEXT@K]` (the
 * one instruction whose text contains TEXT, or the K-th such, as in term_value). NULL when
 * missing or when the instruction is not exactly one. */
static json_t *path_value(json_t *root, const char *path)
{
    if (strncmp(path, "insn[", 5) != 0)
        return follow(root, path);
    const char *text = path + 5, *close = strchr(text, ']');
    char want[256];
    size_t tlen = close ? (size_t)(close - text) : sizeof want, i, nth = 0, seen = 0;
    if (tlen >= sizeof want || close[1] != '.')
        return NULL;
    memcpy(want, text, tlen);
    want[tlen] = '\0';
    char *hash = strchr(want, '@');
    if (hash) {
        nth = (size_t)strtoul(hash + 1, NULL, 10);
        *hash = '\0';
    }
    json_t *insns = json_object_get(root, "instructions"), *in, *found = NULL;
    size_t matches = 0;
    json_array_foreach(insns, i, in) {
        const char *t = json_string_value(json_object_get(in, "text"));
        if (!t || !strstr(t, want) || (nth && ++seen != nth))
            continue;
        found = in;
        matches++;
    }
    return matches == 1 ? follow(found, close + 2) : NULL;
}

static int same(checker *c, char **tok, int ntok, const char *text)
{
    if (ntok != 3)
        return broken(c, "same needs two NAME:PATH values", NULL);
    json_t *v[2];
    for (int i = 0; i < 2; i++) {
        const char *colon = strchr(tok[i + 1], ':');
        json_t *root = colon ? find_report(c, tok[i + 1], (size_t)(colon - tok[i + 1])) : NULL;
        v[i] = root ? path_value(root, colon + 1) : NULL;
        if (!v[i])
            return broken(c, "missing value", tok[i + 1]);
    }
    int ok = json_equal(v[0], v[1]);
    printf("%s: %s\n", ok ? "ok  " : "FAIL", text);
    if (!ok) {
        char *a = json_dumps(v[0], JSON_SORT_KEYS | JSON_COMPACT);
        char *b = json_dumps(v[1], JSON_SORT_KEYS | JSON_COMPACT);
        printf("  %s\n  %s\n", a ? a : "?", b ? b : "?");
        free(a);
        free(b);
    }
    c->failures += !ok;
    return 0;
}

static int do_line(checker *c, char *line)
{
    char text[LINE_BYTES];
    line[strcspn(line, "#\r\n")] = '\0';
    snprintf(text, sizeof text, "%s", line);
    char *tok[MAX_TOKENS], *save = NULL;
    int ntok = 0;
    for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (ntok == MAX_TOKENS)
            return broken(c, "too many tokens", NULL);
        tok[ntok++] = t;
    }
    if (ntok == 0)
        return 0;
    if (strcmp(tok[0], "run") == 0)
        return run_simulator(c, tok, ntok, 0);
    if (strcmp(tok[0], "run-status") == 0) {
        char *end;
        long want = ntok > 1 ? strtol(tok[1], &end, 10) : -1;
        if (ntok < 2 || *end || want < 0 || want > 255)
            return broken(c, "run-status needs an exit status 0..255", NULL);
        return run_simulator(c, tok + 1, ntok - 1, (int)want);
    }
    if (strcmp(tok[0], "build") == 0)
        return build_program(c, tok, ntok);
    if (strcmp(tok[0], "exec") == 0)
        return exec_program(c, tok, ntok, 0);
    if (strcmp(tok[0], "exec-status") == 0) {
        char *end;
        long want = ntok > 1 ? strtol(tok[1], &end, 10) : -1;
        if (ntok < 2 || *end || want < 0 || want > 255)
            return broken(c, "exec-status needs an exit status 0..255", NULL);
        return exec_program(c, tok + 1, ntok - 1, (int)want);
    }
    if (strcmp(tok[0], "output") == 0 || strcmp(tok[0], "no-output") == 0) {
        const char *rest = text + strspn(text, " \t") + strlen(tok[0]);
        return match_output(c, rest, tok[0][0] == 'o');
    }
    if (strcmp(tok[0], "require-dialect") == 0) {
        int known = has_dialect(c, tok, ntok);
        if (known < 0)
            return -1;
        if (!known) {
            printf("SKIP: gpumemsim has no '%s' kernel dialect in this build; %s:%u and the rest of "
                   "the file are skipped\n", tok[1], c->check_file, c->line);
            return 77;
        }
        return 0;
    }
    if (strcmp(tok[0], "require-op") == 0) {
        int known = has_op(c, tok, ntok);
        if (known <= 0) {
            if (known == 0)
                printf("SKIP: gpumemsim's %s dialect does not accept '%s' yet; %s:%u and the rest "
                       "of the file are skipped\n", tok[1], tok[2], c->check_file, c->line);
            return known < 0 ? -1 : 77;
        }
        return 0;
    }
    if (strcmp(tok[0], "check") == 0)
        return compare(c, tok, ntok, text + strspn(text, " \t") + 6);
    if (strcmp(tok[0], "same") == 0)
        return same(c, tok, ntok, text + strspn(text, " \t") + 5);
    return broken(c, "unknown command", tok[0]);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: hints_check GPUMEMSIM CHECK_FILE OUT_DIR\n");
        return 2;
    }
    checker c = {.simulator = argv[1], .check_file = argv[2], .out_dir = argv[3]};
    static char stem[256];
    const char *base = strrchr(argv[2], '/');
    snprintf(stem, sizeof stem, "%s", base ? base + 1 : argv[2]);
    stem[strcspn(stem, ".")] = '\0';
    c.stem = stem;
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        fprintf(stderr, "hints_check: cannot open %s\n", argv[2]);
        return 2;
    }
    char line[LINE_BYTES];
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        c.line++;
        rc = do_line(&c, line);
    }
    fclose(f);
    for (int i = 0; i < c.nruns; i++) {
        json_decref(c.runs[i].root);
        free(c.runs[i].output);
    }
    if (rc == 77) {
        printf("%d assertion(s) failed before the skip\n", c.failures);
        return c.failures ? 1 : 77;
    }
    if (rc)
        return 2;
    printf("%d assertion(s) failed\n", c.failures);
    return c.failures ? 1 : 0;
}
