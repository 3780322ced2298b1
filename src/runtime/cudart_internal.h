/* What the files of gpumemsim's libcudart (cudart_*.c) share: the per-thread last error, the
 * process's sticky error, and the translation of the public API's statuses into CUDA's codes
 * (docs/cuda-runtime.md, "Errors"). */
#ifndef GMS_RUNTIME_CUDART_INTERNAL_H
#define GMS_RUNTIME_CUDART_INTERNAL_H

#include "gpumemsim/gpumemsim.h"
#include "runtime/cudart_abi.h"
#include "runtime/rt_state.h"

/* Every exported entry point is declared here, from the one list, so that -Wmissing-prototypes
 * holds and the signatures the stubs take are uniform. Implemented entries are declared again,
 * with their real signatures, in the file that defines them. */
#define CUDART_EXPORT __attribute__((visibility("default")))

/* Records `e` as the calling thread's last error unless it is cudaSuccess, and returns it. */
cudaError_t cudart_set(cudaError_t e);
/* The sticky error a kernel fault left (cudaSuccess when none): every later call that touches
 * the device returns it, as CUDA's context does after a fault. */
cudaError_t cudart_sticky(void);
void cudart_set_sticky(cudaError_t e);
/* CUDA's code for a status of the public API. */
cudaError_t cudart_from_status(gms_status st);
/* The access-policy window of stream `s` into *out; 1, or 0 when it has none (cudart_stream.c). */
int cudart_stream_window(cudaStream_t s, gms_policy_window *out);
/* The process's device and its module, creating them; NULL when they cannot be made. */
gms_device *cudart_device(void);

#endif
