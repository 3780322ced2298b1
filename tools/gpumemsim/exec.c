/* The checks of `gpumemsim exec` (exec.h; docs/cuda-runtime.md, "gpumemsim exec", "Static
 * linking"). The ELF reading is the least that answers one question — which shared libraries
 * does the program ask the dynamic loader for — from the program headers (PT_DYNAMIC, PT_LOAD)
 * rather than the section headers, which strip(1) may remove. It is not a general ELF reader. */
#define _GNU_SOURCE /* pread, realpath, readlink */
#include "exec.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Limits on what is read from a program, far above what linkers write. */
enum { MAX_PROGRAM_HEADERS = 4096, MAX_DYNAMIC_BYTES = 1 << 20, MAX_STRTAB_BYTES = 16 << 20 };

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#elif defined(__powerpc64__)
#define HOST_MACHINE EM_PPC64
#else
#define HOST_MACHINE EM_NONE /* unknown host: any machine is accepted */
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif

const char *exec_check_rule(exec_check check)
{
    static const char *rules[] = {"", "RT-EXEC-001", "RT-EXEC-002", "RT-EXEC-003", "RT-EXEC-004",
                                  "RT-EXEC-005"};
    return (size_t)check < sizeof rules / sizeof rules[0] ? rules[check] : "";
}

static exec_check say(exec_check check, char *why, size_t why_len, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, why_len, format, ap);
    va_end(ap);
    return check;
}

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

exec_check exec_find_program(const char *name, char *path, size_t len, char *why,
                             size_t why_len)
{
    if (!*name)
        return say(EXEC_NOT_FOUND, why, why_len, "an empty program name");
    if (strchr(name, '/')) {
        if ((size_t)snprintf(path, len, "%s", name) >= len)
            return say(EXEC_NOT_FOUND, why, why_len, "the path is too long");
        if (access(path, F_OK) != 0)
            return say(EXEC_NOT_FOUND, why, why_len, "no such file");
        if (!is_executable_file(path))
            return say(EXEC_NOT_RUNNABLE, why, why_len, "not an executable file");
        return EXEC_OK;
    }
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/usr/local/bin:/usr/bin:/bin";
    for (;;) {
        size_t n = strcspn(dirs, ":");
        /* An empty entry of $PATH means the current folder, as for execvp. */
        if ((size_t)snprintf(path, len, "%.*s%s%s", (int)n, dirs, n ? "/" : "", name) < len &&
            is_executable_file(path))
            return EXEC_OK;
        if (!dirs[n])
            break;
        dirs += n + 1;
    }
    return say(EXEC_NOT_FOUND, why, why_len, "not found in any folder of $PATH");
}

/* Reads exactly `len` bytes at `offset`; 0, or -1 when the file is shorter or unreadable. */
static int read_at(int fd, void *buf, size_t len, uint64_t offset)
{
    if (offset > (uint64_t)INT64_MAX - len)
        return -1;
    size_t done = 0;
    while (done < len) {
        ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(offset + done));
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

/* The file offset of virtual address `vaddr`, through the PT_LOAD segment that holds
 * `len` bytes there; -1 when none does. */
static int64_t file_offset(const Elf64_Phdr *ph, size_t nph, uint64_t vaddr, uint64_t len)
{
    for (size_t i = 0; i < nph; i++)
        if (ph[i].p_type == PT_LOAD && vaddr >= ph[i].p_vaddr &&
            vaddr - ph[i].p_vaddr <= ph[i].p_filesz &&
            len <= ph[i].p_filesz - (vaddr - ph[i].p_vaddr))
            return (int64_t)(ph[i].p_offset + (vaddr - ph[i].p_vaddr));
    return -1;
}

/* Whether a needed library's name is the CUDA runtime's or the driver's ("libcudart.so.13",
 * "libcuda.so.1", "libcudart.so"). */
static int is_cuda_library(const char *name)
{
    return strncmp(name, "libcudart.so", 12) == 0 || strncmp(name, "libcuda.so", 10) == 0;
}

/* Scans the dynamic section `dyn` (n entries) of a program for a CUDA library among its
 * DT_NEEDED names. Returns 1 found, 0 not found (*needed = how many names), -1 corrupt. */
static int needs_cuda(int fd, const Elf64_Phdr *ph, size_t nph, const Elf64_Dyn *dyn, size_t n,
                      size_t *needed)
{
    uint64_t strtab = 0, strsz = 0;
    *needed = 0;
    for (size_t i = 0; i < n && dyn[i].d_tag != DT_NULL; i++) {
        if (dyn[i].d_tag == DT_STRTAB)
            strtab = dyn[i].d_un.d_ptr;
        else if (dyn[i].d_tag == DT_STRSZ)
            strsz = dyn[i].d_un.d_val;
        else if (dyn[i].d_tag == DT_NEEDED)
            (*needed)++;
    }
    if (!*needed)
        return 0;
    int64_t at = file_offset(ph, nph, strtab, strsz);
    if (!strsz || strsz > MAX_STRTAB_BYTES || at < 0)
        return -1;
    char *names = malloc(strsz + 1);
    if (!names || read_at(fd, names, strsz, (uint64_t)at) != 0) {
        free(names);
        return -1;
    }
    names[strsz] = '\0';
    int found = 0;
    for (size_t i = 0; i < n && dyn[i].d_tag != DT_NULL; i++)
        if (dyn[i].d_tag == DT_NEEDED && dyn[i].d_un.d_val < strsz &&
            is_cuda_library(names + dyn[i].d_un.d_val))
            found = 1;
    free(names);
    return found;
}

/* The checks of exec_check_program on an open ELF file whose header is `eh`. */
static exec_check check_elf(int fd, const Elf64_Ehdr *eh, char *why, size_t why_len)
{
    if (eh->e_ident[EI_CLASS] != ELFCLASS64)
        return say(EXEC_NOT_RUNNABLE, why, why_len,
                   "a 32-bit program; the CUDA runtime exists for 64-bit programs only");
    if ((HOST_MACHINE != EM_NONE && eh->e_machine != HOST_MACHINE) ||
        eh->e_ident[EI_DATA] != HOST_DATA)
        return say(EXEC_NOT_RUNNABLE, why, why_len, "a program for another kind of machine");
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
        return say(EXEC_NOT_RUNNABLE, why, why_len, "an ELF file that is not a program");
    if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum > MAX_PROGRAM_HEADERS)
        return say(EXEC_NOT_RUNNABLE, why, why_len, "a corrupt ELF file (program headers)");
    size_t nph = eh->e_phnum;
    Elf64_Phdr *ph = calloc(nph ? nph : 1, sizeof *ph);
    if (!ph || read_at(fd, ph, nph * sizeof *ph, eh->e_phoff) != 0) {
        free(ph);
        return say(EXEC_NOT_RUNNABLE, why, why_len, "a corrupt ELF file (program headers)");
    }
    const Elf64_Phdr *dynamic = NULL;
    for (size_t i = 0; i < nph; i++)
        if (ph[i].p_type == PT_DYNAMIC)
            dynamic = &ph[i];
    exec_check result = EXEC_OK;
    size_t ndyn = dynamic ? dynamic->p_filesz / sizeof(Elf64_Dyn) : 0, needed = 0;
    Elf64_Dyn *dyn = ndyn && ndyn * sizeof(Elf64_Dyn) <= MAX_DYNAMIC_BYTES
                         ? malloc(ndyn * sizeof *dyn) : NULL;
    int cuda = -1;
    if (dyn && read_at(fd, dyn, ndyn * sizeof *dyn, dynamic->p_offset) == 0)
        cuda = needs_cuda(fd, ph, nph, dyn, ndyn, &needed);
    if (!dynamic || (cuda == 0 && needed == 0))
        result = say(EXEC_STATIC, why, why_len,
                     "a statically linked program: it loads no shared library, so the simulated "
                     "GPU's CUDA runtime cannot take the place of the one linked into it; link it "
                     "dynamically, with `nvcc -cudart shared`");
    else if (cuda < 0)
        result = say(EXEC_NOT_RUNNABLE, why, why_len, "a corrupt ELF file (dynamic section)");
    else if (cuda == 0)
        result = say(EXEC_NO_CUDART, why, why_len,
                     "loads neither libcudart.so nor libcuda.so, so the simulated GPU's runtime "
                     "cannot take the place of its own: nvcc links a copy of the CUDA runtime "
                     "into each program by default (-cudart static); rebuild it with "
                     "`nvcc -cudart shared`");
    free(dyn);
    free(ph);
    return result;
}

exec_check exec_check_program(const char *path, char *why, size_t why_len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return say(EXEC_NOT_RUNNABLE, why, why_len, "cannot read it: %s", strerror(errno));
    Elf64_Ehdr eh;
    memset(&eh, 0, sizeof eh);
    ssize_t got = pread(fd, &eh, sizeof eh, 0);
    exec_check result;
    if (got >= 2 && memcmp(&eh, "#!", 2) == 0)
        result = EXEC_OK; /* a script: its interpreter inherits the environment */
    else if (got < (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
        result = say(EXEC_NOT_RUNNABLE, why, why_len, "neither an ELF program nor a script");
    else
        result = check_elf(fd, &eh, why, why_len);
    close(fd);
    return result;
}

/* Whether `dir` holds the replacement runtime. */
static int has_runtime(const char *dir)
{
    char lib[PATH_MAX + 32];
    snprintf(lib, sizeof lib, "%s/libcudart.so.13", dir);
    return access(lib, R_OK) == 0;
}

exec_check exec_runtime_dir(char *dir, size_t len, char *why, size_t why_len)
{
    char where[PATH_MAX + 16], resolved[PATH_MAX];
    const char *env = getenv("GPUMEMSIM_RUNTIME_DIR");
    if (env && *env) {
        snprintf(where, sizeof where, "%s", env);
    } else {
        ssize_t n = readlink("/proc/self/exe", resolved, sizeof resolved - 1);
        if (n <= 0)
            return say(EXEC_NO_RUNTIME_DIR, why, why_len,
                       "cannot find the gpumemsim executable (/proc/self/exe); set "
                       "GPUMEMSIM_RUNTIME_DIR to the folder of its libcudart.so.13");
        resolved[n] = '\0';
        char *slash = strrchr(resolved, '/');
        if (slash) /* always: the kernel gives an absolute path */
            *slash = '\0';
        snprintf(where, sizeof where, "%s/runtime", resolved);
    }
    if (!realpath(where, resolved) || !has_runtime(resolved) || strlen(resolved) >= len)
        return say(EXEC_NO_RUNTIME_DIR, why, why_len,
                   "no libcudart.so.13 in %s%s; build the runtime libraries (cmake --build) or "
                   "set GPUMEMSIM_RUNTIME_DIR to the folder that holds them", where,
                   env && *env ? " (GPUMEMSIM_RUNTIME_DIR)" : "");
    snprintf(dir, len, "%s", resolved);
    return EXEC_OK;
}
