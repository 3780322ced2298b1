// Corpus self-test: a module gpumemsim refuses (a cluster special register, PTX-UNSUP-002).
__global__ void cluster_id(unsigned *out)
{
    unsigned id;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(id));
    *out = id;
}
