// Corpus self-test: a source nvcc cannot compile on its own (its header is not in the suite).
#include "not_in_this_suite.h"
__global__ void k(int *p) { *p = NOT_DEFINED_ANYWHERE; }
