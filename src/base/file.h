/* Files: reading inputs safely and writing a group of outputs all-or-nothing.
 *
 * Inputs are regular files only, with a size cap: a path that names a FIFO, a device such as
 * /dev/zero, a directory or a socket is refused without blocking and without reading, so that no
 * input can hang a run or grow memory without bound. Outputs are written to temporary files in
 * their destination folders and renamed over their targets only when every one of them has been
 * written, so a failed run leaves every target as it was.
 *
 * This module knows no rule ids: it reports what went wrong in a file_error, and each caller turns
 * that into its own diagnostic (SIM-IO-*, LAUNCH-IO-*, CONFIG-001, SIM-OUT-*). Not thread-safe
 * for one file_group; separate groups are independent. */
#ifndef GMS_BASE_FILE_H
#define GMS_BASE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum file_status {
    FILE_OK = 0,
    FILE_ERR_OPEN,        /* the system refused to open or create it (err_no says why) */
    FILE_ERR_NOT_REGULAR, /* a directory, FIFO, device or socket (mode says which) */
    FILE_ERR_TOO_LARGE,   /* more bytes than the caller's cap (size holds the size seen) */
    FILE_ERR_READ,        /* a read failed (err_no) */
    FILE_ERR_WRITE,       /* a write, sync or rename failed (err_no) */
    FILE_ERR_NOMEM        /* out of memory */
} file_status;

typedef struct file_error {
    file_status status;
    int err_no;     /* errno for OPEN, READ and WRITE; 0 otherwise */
    unsigned mode;  /* st_mode for NOT_REGULAR */
    uint64_t size;  /* bytes seen for TOO_LARGE */
    uint64_t limit; /* the cap, bytes, for TOO_LARGE */
} file_error;

/* Describes `e` in a few words for a diagnostic ("No such file or directory", "not a regular file
 * (a FIFO)", "larger than the limit of 268435456 bytes"), into buf (NUL-terminated, truncated to
 * size). Returns buf. */
const char *file_error_text(const file_error *e, char *buf, size_t size);

/* Opens `path` (borrowed) for reading when it is a regular file of at most max_bytes bytes. The
 * open never blocks (O_NONBLOCK, cleared afterwards) and the type is checked on the opened file
 * (fstat), so a FIFO or device is refused whatever the path resolves to. Returns the stream (the
 * caller fcloses it) and its size in *size_bytes (may be NULL), or NULL with *e filled:
 * FILE_ERR_OPEN, FILE_ERR_NOT_REGULAR, FILE_ERR_TOO_LARGE, FILE_ERR_NOMEM. */
FILE *file_open_input(const char *path, uint64_t max_bytes, uint64_t *size_bytes, file_error *e);

/* Reads all of the regular file `path` into a malloc'd buffer with a NUL after the last byte
 * (the caller frees it); *len receives the bytes read. At most max_bytes are accepted, also when
 * the file grows while it is read. Returns NULL with *e filled: FILE_ERR_OPEN,
 * FILE_ERR_NOT_REGULAR, FILE_ERR_TOO_LARGE, FILE_ERR_READ, FILE_ERR_NOMEM. */
char *file_read_all(const char *path, uint64_t max_bytes, size_t *len, file_error *e);

/* Checks, before any work is done, that a file can be created in the folder of `path`: creates
 * a temporary file there and removes it again. Returns 0, or -1 with FILE_ERR_OPEN (err_no from
 * the system: ENOENT for a missing folder, EACCES, EROFS, ...) or FILE_ERR_NOMEM. */
int file_probe_output(const char *path, file_error *e);

/* ---- a group of outputs written all-or-nothing ---- */
typedef struct file_group_item {
    char *path; /* owned copy of the target */
    char *temp; /* owned: the temporary file beside it; NULL once renamed */
} file_group_item;

typedef struct file_group {
    file_group_item *items; /* owned */
    size_t count, capacity;
} file_group;

void file_group_init(file_group *g);
/* Writes `bytes` bytes of `data` (borrowed) to a new temporary file (mode 0644, synced) in the
 * folder of `path` and records it; the target is not touched yet. Returns 0, or -1 with *e
 * filled (FILE_ERR_NOT_REGULAR when `path` exists and is not a regular file, FILE_ERR_OPEN when
 * the temporary file cannot be created, FILE_ERR_WRITE, FILE_ERR_NOMEM) and nothing recorded. */
int file_group_add(file_group *g, const char *path, const void *data, size_t bytes,
                   file_error *e);
/* Produces bytes [offset, offset + bytes) of a file's contents into out (caller storage).
 * Returns 0, or an errno value (EIO when there is none better) that fails the write. */
typedef int (*file_source_fn)(void *ctx, uint64_t offset, size_t bytes, void *out);
/* As file_group_add, for contents of `bytes` bytes that `source` produces in consecutive chunks
 * of at most 1 MiB (so that a large output is never held whole). A source error is reported as
 * FILE_ERR_WRITE with its errno value (ENOMEM when the chunk cannot be allocated). */
int file_group_add_from(file_group *g, const char *path, uint64_t bytes, file_source_fn source,
                        void *ctx, file_error *e);
/* Renames every temporary file over its target, in the order added. Returns 0, or -1 with *e
 * (FILE_ERR_WRITE) and *failed (the index of the item whose rename failed; may be NULL); the
 * targets before it have then been replaced, the rest are left as they were and their temporary
 * files are removed by file_group_fini. A rename fails only when the folder changed during the
 * run, since file_group_add created the temporary file in the same folder. */
int file_group_commit(file_group *g, size_t *failed, file_error *e);
/* Removes every temporary file not renamed yet and frees the group. */
void file_group_fini(file_group *g);

#endif
