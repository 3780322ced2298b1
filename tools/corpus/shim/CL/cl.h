/* Stand-in for OpenCL's CL/cl.h, which the Parboil mirror's common parboil.h includes for the
 * timing helpers of its OpenCL versions: only the handle and integer types that header names, so
 * that the CUDA versions compile to PTX without an OpenCL SDK. Nothing here reaches device code. */
#ifndef CORPUS_CL_SHIM_H
#define CORPUS_CL_SHIM_H
typedef int cl_int;
typedef unsigned int cl_uint;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_context *cl_context;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_platform_id *cl_platform_id;
#endif
