/* The checks `gpumemsim exec` makes before it replaces itself with a CUDA program
 * (docs/cuda-runtime.md, "gpumemsim exec"): where the program is, whether its ELF file loads the
 * shared CUDA runtime (so that the replacement libraries can stand in for it), and where those
 * libraries are. Part of the command line: nothing here prints; each check fills a message. */
#ifndef GMS_TOOLS_EXEC_H
#define GMS_TOOLS_EXEC_H

#include <stddef.h>

/* Outcomes of the checks; each failure has its rule id (docs/cuda-runtime.md, "Rule ids"). */
typedef enum exec_check {
    EXEC_OK = 0,
    EXEC_NOT_FOUND,      /* RT-EXEC-001: no such program (exit status 127) */
    EXEC_NOT_RUNNABLE,   /* RT-EXEC-002: unreadable, not executable, or not an ELF program */
    EXEC_STATIC,         /* RT-EXEC-003: statically linked: loads no shared library at all */
    EXEC_NO_CUDART,      /* RT-EXEC-004: dynamic, but loads neither libcudart.so nor libcuda.so */
    EXEC_NO_RUNTIME_DIR, /* RT-EXEC-005: the replacement libraries were not found */
} exec_check;

/* The rule id of a failed check ("RT-EXEC-00N"), or "" for EXEC_OK. */
const char *exec_check_rule(exec_check check);

/* Finds `name` as execvp(3) would: a name with a slash is taken as it is, any other is looked up
 * in the directories of $PATH (default /usr/local/bin:/usr/bin:/bin), the first regular file
 * there that may be executed. Writes the path (at most `len` bytes with its NUL) to `path`.
 * Returns EXEC_OK, EXEC_NOT_FOUND, or EXEC_NOT_RUNNABLE (found but not a regular executable
 * file) with `why` (at most `why_len` bytes) saying so. */
exec_check exec_find_program(const char *name, char *path, size_t len, char *why,
                             size_t why_len);

/* Reads the ELF file at `path` (only its headers and dynamic section) and decides whether
 * `gpumemsim exec` can run it: EXEC_OK for a dynamically linked 64-bit program of this machine
 * whose DT_NEEDED entries name libcudart.so.* or libcuda.so.*, and for a script ("#!" first),
 * whose interpreter's children inherit the environment; otherwise EXEC_NOT_RUNNABLE (not ELF,
 * corrupt, 32-bit or another machine's), EXEC_STATIC (no dynamic section, or one without needed
 * libraries: a static or static-pie program) or EXEC_NO_CUDART, with `why` (at most `why_len`
 * bytes) explaining it. Every offset and size read from the file is bounds-checked. */
exec_check exec_check_program(const char *path, char *why, size_t why_len);

/* The folder of the replacement libraries: $GPUMEMSIM_RUNTIME_DIR when set, else `runtime/`
 * beside the gpumemsim executable (build/<preset>/runtime in a build tree). It must hold
 * libcudart.so.13. Writes its absolute path (at most `len` bytes) to `dir` and returns EXEC_OK,
 * or EXEC_NO_RUNTIME_DIR with `why` naming where it looked. */
exec_check exec_runtime_dir(char *dir, size_t len, char *why, size_t why_len);

#endif
