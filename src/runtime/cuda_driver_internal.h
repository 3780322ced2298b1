/* What the files of gpumemsim's libcuda.so.1 (cuda_driver*.c) share: the checks every entry
 * point makes first, the process's sticky error, and the translation of the public API's
 * statuses into CUresult codes (docs/cuda-runtime.md, "Driver API"). The device, its module and
 * the allocation table are rt_state's, shared with libcudart. */
#ifndef GMS_RUNTIME_CUDA_DRIVER_INTERNAL_H
#define GMS_RUNTIME_CUDA_DRIVER_INTERNAL_H

#include "gpumemsim/gpumemsim.h"
#include "runtime/cuda_driver_abi.h"
#include "runtime/rt_state.h"

/* CUDA_SUCCESS when cuInit ran and no kernel fault left the context unusable; otherwise
 * CUDA_ERROR_NOT_INITIALIZED or the sticky error (CUDA_ERROR_ILLEGAL_ADDRESS, ...). Every entry
 * that touches the device starts with it. */
CUresult drv_ready(void);
/* The sticky error a kernel fault leaves: every later call that touches the device returns it,
 * as CUDA's context does after a fault. */
void drv_set_sticky(CUresult e);
/* The process's device; NULL when it could not be made (the reason was printed). */
gms_device *drv_device(void);
/* CUDA's code for a status of the public API. */
CUresult drv_from_status(gms_status st);
/* Prints the diagnostics of a failed call, frees `dl` and returns the status's CUDA code. */
CUresult drv_failed(const char *call, gms_status st, gms_diag_list *dl);

#endif
