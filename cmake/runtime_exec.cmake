# `gpumemsim exec` (docs/cuda-runtime.md, "gpumemsim exec"): the checks it makes before it becomes
# the program — its ELF file's needed libraries, the folder of the runtime libraries — live
# beside the command line in tools/gpumemsim/exec.c.
target_sources(gpumemsim PRIVATE ${CMAKE_SOURCE_DIR}/tools/gpumemsim/exec.c)
