/* Files (file.h). The input side refuses anything but a regular file before reading a byte; the
 * output side never writes a target in place. */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(file_error *e, file_status status, int err_no)
{
    memset(e, 0, sizeof *e);
    e->status = status;
    e->err_no = err_no;
    return -1;
}

static const char *type_name(unsigned mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a plain file";
}

const char *file_error_text(const file_error *e, char *buf, size_t size)
{
    switch (e->status) {
    case FILE_OK: snprintf(buf, size, "no error"); break;
    case FILE_ERR_OPEN:
    case FILE_ERR_READ:
    case FILE_ERR_WRITE: snprintf(buf, size, "%s", strerror(e->err_no)); break;
    case FILE_ERR_NOT_REGULAR:
        snprintf(buf, size, "not a regular file (%s)", type_name(e->mode));
        break;
    case FILE_ERR_TOO_LARGE:
        snprintf(buf, size, "larger than the limit of %llu bytes",
                 (unsigned long long)e->limit);
        break;
    case FILE_ERR_NOMEM: snprintf(buf, size, "out of memory"); break;
    }
    return buf;
}

FILE *file_open_input(const char *path, uint64_t max_bytes, uint64_t *size_bytes, file_error *e)
{
    /* stat first, so that a device is never even opened (opening some has side effects); the
     * fstat after the open decides, since the path may have changed in between. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fail(e, FILE_ERR_NOT_REGULAR, 0);
        e->mode = (unsigned)st.st_mode;
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        fail(e, FILE_ERR_OPEN, errno);
        return NULL;
    }
    if (fstat(fd, &st) != 0) {
        fail(e, FILE_ERR_OPEN, errno);
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max_bytes) {
        fail(e, S_ISREG(st.st_mode) ? FILE_ERR_TOO_LARGE : FILE_ERR_NOT_REGULAR, 0);
        e->mode = (unsigned)st.st_mode;
        e->size = (uint64_t)st.st_size;
        e->limit = max_bytes;
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        fail(e, FILE_ERR_NOMEM, 0);
        close(fd);
        return NULL;
    }
    if (size_bytes)
        *size_bytes = (uint64_t)st.st_size;
    return f;
}

char *file_read_all(const char *path, uint64_t max_bytes, size_t *len, file_error *e)
{
    uint64_t size;
    FILE *f = file_open_input(path, max_bytes, &size, e);
    if (!f)
        return NULL;
    /* Room for the size fstat gave plus one byte, which shows whether the file grew since. */
    size_t cap = (size_t)size + 1, n = 0;
    char *buf = malloc(cap + 1);
    int failed = 0;
    while (buf && !failed) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0 || ferror(f))
            break;
        if (n == cap) {
            if (n > max_bytes)
                break;
            size_t more = cap > SIZE_MAX / 4 ? 0 : cap * 2;
            char *bigger = more ? realloc(buf, more + 1) : NULL;
            if (!bigger) {
                failed = 1;
                break;
            }
            buf = bigger;
            cap = more;
        }
    }
    int read_error = ferror(f) ? errno : 0;
    fclose(f);
    if (buf && !failed && !read_error && n > max_bytes) { /* it grew while being read */
        fail(e, FILE_ERR_TOO_LARGE, 0);
        e->size = n;
        e->limit = max_bytes;
        free(buf);
        return NULL;
    }
    if (!buf || failed || read_error) {
        fail(e, read_error ? FILE_ERR_READ : FILE_ERR_NOMEM, read_error);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* A mkstemp template in the folder of `path`: a short hidden name, so that the temporary name
 * fits wherever the target's name does. Returns malloc'd text or NULL. */
static char *temp_template(const char *path)
{
    static const char name[] = ".gpumemsim-XXXXXX";
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    char *t = malloc(dir + sizeof name);
    if (t) {
        memcpy(t, path, dir);
        memcpy(t + dir, name, sizeof name);
    }
    return t;
}

int file_probe_output(const char *path, file_error *e)
{
    char *temp = temp_template(path);
    if (!temp)
        return fail(e, FILE_ERR_NOMEM, 0);
    int fd = mkstemp(temp);
    if (fd < 0) {
        int err = errno;
        free(temp);
        return fail(e, FILE_ERR_OPEN, err);
    }
    close(fd);
    unlink(temp);
    free(temp);
    return 0;
}

/* ---- groups ---- */

void file_group_init(file_group *g)
{
    memset(g, 0, sizeof *g);
}

/* Where a temporary file's bytes come from: `data`, or `source` a chunk at a time. */
typedef struct temp_contents {
    const void *data;
    file_source_fn source;
    void *ctx;
    uint64_t bytes;
} temp_contents;

/* Writes all of p to fd. Returns 0 or an errno value. */
static int write_all(int fd, const char *p, size_t bytes)
{
    while (bytes) {
        ssize_t n = write(fd, p, bytes);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        p += n;
        bytes -= (size_t)n;
    }
    return 0;
}

enum { SOURCE_CHUNK_BYTES = 1 << 20 };

/* Writes the contents to fd, gives it mode 0644 and syncs it. Returns 0 or an errno value. */
static int write_temp(int fd, const temp_contents *c)
{
    int err = 0;
    if (!c->source) {
        err = write_all(fd, c->data, (size_t)c->bytes);
    } else {
        size_t size = c->bytes < SOURCE_CHUNK_BYTES ? (size_t)c->bytes : SOURCE_CHUNK_BYTES;
        char *chunk = malloc(size ? size : 1);
        if (!chunk)
            return ENOMEM;
        for (uint64_t off = 0; !err && off < c->bytes; off += size) {
            size_t n = c->bytes - off < size ? (size_t)(c->bytes - off) : size;
            err = c->source(c->ctx, off, n, chunk);
            if (!err)
                err = write_all(fd, chunk, n);
        }
        free(chunk);
    }
    if (err)
        return err;
    /* mkstemp creates 0600; outputs are ordinary data files. */
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0)
        return errno;
    return 0;
}

static int group_add(file_group *g, const char *path, const temp_contents *contents,
                     file_error *e)
{
    if (g->count == g->capacity) {
        size_t cap = g->capacity ? g->capacity * 2 : 8;
        file_group_item *items = realloc(g->items, cap * sizeof *items);
        if (!items)
            return fail(e, FILE_ERR_NOMEM, 0);
        g->items = items;
        g->capacity = cap;
    }
    /* A rename would replace a device or FIFO, and fails over a folder only after other targets
     * were replaced: refuse every target that exists and is not a regular file, up front. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fail(e, FILE_ERR_NOT_REGULAR, 0);
        e->mode = (unsigned)st.st_mode;
        return -1;
    }
    char *target = strdup(path), *temp = temp_template(path);
    if (!target || !temp) {
        free(target);
        free(temp);
        return fail(e, FILE_ERR_NOMEM, 0);
    }
    int fd = mkstemp(temp);
    if (fd < 0) {
        int err = errno;
        free(target);
        free(temp);
        return fail(e, FILE_ERR_OPEN, err);
    }
    int err = write_temp(fd, contents);
    if (close(fd) != 0 && !err)
        err = errno;
    if (err) {
        unlink(temp);
        free(target);
        free(temp);
        return fail(e, FILE_ERR_WRITE, err);
    }
    g->items[g->count++] = (file_group_item){target, temp};
    return 0;
}

int file_group_add(file_group *g, const char *path, const void *data, size_t bytes,
                   file_error *e)
{
    temp_contents c = {data, NULL, NULL, bytes};
    return group_add(g, path, &c, e);
}

int file_group_add_from(file_group *g, const char *path, uint64_t bytes, file_source_fn source,
                        void *ctx, file_error *e)
{
    temp_contents c = {NULL, source, ctx, bytes};
    return group_add(g, path, &c, e);
}

int file_group_commit(file_group *g, size_t *failed, file_error *e)
{
    for (size_t i = 0; i < g->count; i++) {
        file_group_item *it = &g->items[i];
        if (rename(it->temp, it->path) != 0) {
            if (failed)
                *failed = i;
            return fail(e, FILE_ERR_WRITE, errno);
        }
        free(it->temp);
        it->temp = NULL;
    }
    return 0;
}

void file_group_fini(file_group *g)
{
    for (size_t i = 0; i < g->count; i++) {
        if (g->items[i].temp)
            unlink(g->items[i].temp);
        free(g->items[i].temp);
        free(g->items[i].path);
    }
    free(g->items);
    memset(g, 0, sizeof *g);
}
