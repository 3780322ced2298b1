/* Not compiled: a file the vocabulary check of tests/lint/mem_vocabulary.sh must reject. */
static int streaming(const struct attrs *a) { return a->cop == IR_COP_CS; } /* ld.global.cs */
static int uniform(const struct access *acc) { return acc->prefetch_uniform; } /* prefetchu */
