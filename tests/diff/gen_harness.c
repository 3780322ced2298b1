/* The harness of the ptxas differential generators (gen_harness.h). */
#include "gen_harness.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>

void gen_write_module(gen *g, const gen_module *m, const char *insn)
{
    char path[4096];
    unsigned id = g->count++;
    snprintf(path, sizeof path, "%s/%05u.ptx", g->dir, id);
    FILE *f = fopen(path, "w");
    if (!f) {
        g->failed = 1;
        return;
    }
    fprintf(f, ".version %s\n.target sm_%u\n.address_size 64\n\n%s", m->version, m->sm,
            m->globals);
    fprintf(f, ".visible .entry k%05u(%s)\n{\n", id, m->param);
    fputs("\t.reg .pred %p<4>;\n\t.reg .b16 %rs<16>;\n\t.reg .b32 %r<16>;\n"
          "\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<16>;\n", f);
    fputs(m->extra_regs, f);
    fprintf(f, "\tld.param.u64 %%rd1, [k_p];\n\t%s\n\tret;\n}\n", insn);
    if (fclose(f) != 0)
        g->failed = 1;
    fprintf(g->manifest, "%05u\tsm_%u\tsm_%u\t%s\t%s\n", id, m->arch, m->sm, m->version, insn);
}

void gen_emit(gen *g, const char *fmt, ...)
{
    char insn[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(insn, sizeof insn, fmt, ap);
    va_end(ap);
    gen_write_module(g, g->module, insn);
}

void gen_data_operand(char *out, size_t size, const char *reg, unsigned first, unsigned n)
{
    if (n <= 1) {
        snprintf(out, size, "%s%u", reg, first);
        return;
    }
    size_t at = (size_t)snprintf(out, size, "{");
    for (unsigned i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%s%s%u", i ? ", " : "", reg, first + i);
    if (at < size)
        snprintf(out + at, size - at, "}");
}

int gen_main(int argc, char **argv, const gen_module *module, const char *name,
             void (*groups)(gen *g))
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", name);
        return 2;
    }
    gen g = {argv[1], NULL, module, 0, 0};
    if (mkdir(g.dir, 0777) != 0 && errno != EEXIST) {
        perror(g.dir);
        return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/cases.tsv", g.dir);
    g.manifest = fopen(path, "w");
    if (!g.manifest) {
        perror(path);
        return 1;
    }
    groups(&g);
    if (fclose(g.manifest) != 0 || g.failed) {
        fprintf(stderr, "%s: cannot write the cases into %s\n", name, g.dir);
        return 1;
    }
    printf("%u modules\n", g.count);
    return 0;
}
