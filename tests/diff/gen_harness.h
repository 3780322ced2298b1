/* The harness the ptxas differential generators share (gen_cache_cases, gen_surface_cases,
 * gen_texture_cases; tests/diff.cmake): the output folder, the manifest run_cache_diff.sh reads,
 * one PTX module per case, and main's argument handling. The generators themselves only list
 * their cases. */
#ifndef GMS_TESTS_DIFF_GEN_HARNESS_H
#define GMS_TESTS_DIFF_GEN_HARNESS_H

#include <stddef.h>
#include <stdio.h>

/* The frame of a module around the instruction under test: ".version", ".target sm_<sm>",
 * module-scope declarations, and one kernel k<id> with one parameter k_p whose first 8 bytes
 * are loaded into %rd1. Registers %p<4>, %rs<16>, %r<16>, %rd<16> and %f<16> are always
 * declared. */
typedef struct gen_module {
    const char *version;    /* "9.0" */
    unsigned sm;            /* the .target */
    unsigned arch;          /* the -arch ptxas is asked with */
    const char *globals;    /* declarations after the header, each line ending in "\n"; or "" */
    const char *param;      /* the parameter: ".param .u64 k_p" */
    const char *extra_regs; /* further register declarations ("\t.reg .f64 %fd<16>;\n"); or "" */
} gen_module;

typedef struct gen {
    const char *dir;          /* the output folder */
    FILE *manifest;           /* dir/cases.tsv */
    const gen_module *module; /* the frame of gen_emit; NULL when only gen_write_module is used */
    unsigned count;           /* modules written so far; the next module's id */
    int failed;               /* a module could not be written */
} gen;

/* Writes module dir/<id>.ptx (id: five digits) holding `insn` in m's frame, and its manifest
 * line "id <TAB> sm_<arch> <TAB> sm_<sm> <TAB> version <TAB> insn". A file that cannot be
 * written sets g->failed. */
void gen_write_module(gen *g, const gen_module *m, const char *insn);
/* gen_write_module in g->module of the instruction printf(fmt, ...) (at most 511 bytes). */
void gen_emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The data operand of `n` registers `reg`<first>, `reg`<first + 1>, ... into out (size bytes,
 * truncated): "{%r7, %r8}" for reg "%r", first 7 and n 2; "%r7" for n 1. */
void gen_data_operand(char *out, size_t size, const char *reg, unsigned first, unsigned n);

/* main of a generator `name`: expects argv = {name, OUTDIR}, creates OUTDIR, opens the manifest,
 * calls groups(g) with g->module = module (or NULL) and closes. Returns the exit status: 0 (and prints "N modules"), 1 when
 * OUTDIR or a module cannot be written, 2 on a usage error (all reported on stderr). */
int gen_main(int argc, char **argv, const gen_module *module, const char *name,
             void (*groups)(gen *g));

#endif
