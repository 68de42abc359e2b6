// shim.h: clmeter's OpenCL entry points, resolved with dlopen/dlsym at run time so
// that the clmeter binary starts on machines without an OpenCL ICD loader.
#ifndef CLMETER_SHIM_H
#define CLMETER_SHIM_H
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stddef.h>
#include <stdlib.h>

// CLM_REQUIRED lists the entry points every OpenCL 1.2 ICD loader exports:
// X(return type, name, parameter list, argument list).
#define CLM_REQUIRED(X) \
X(cl_int, clGetPlatformIDs, (cl_uint a, cl_platform_id *b, cl_uint *c), (a, b, c)) \
X(cl_int, clGetPlatformInfo, (cl_platform_id a, cl_platform_info b, size_t c, void *d, size_t *e), (a, b, c, d, e)) \
X(cl_int, clGetDeviceIDs, (cl_platform_id a, cl_device_type b, cl_uint c, cl_device_id *d, cl_uint *e), (a, b, c, d, e)) \
X(cl_int, clGetDeviceInfo, (cl_device_id a, cl_device_info b, size_t c, void *d, size_t *e), (a, b, c, d, e)) \
X(cl_context, clCreateContext, (const cl_context_properties *a, cl_uint b, const cl_device_id *c, void *d, void *e, cl_int *f), (a, b, c, d, e, f)) \
X(cl_int, clReleaseContext, (cl_context a), (a)) \
X(cl_command_queue, clCreateCommandQueue, (cl_context a, cl_device_id b, cl_command_queue_properties c, cl_int *d), (a, b, c, d)) \
X(cl_int, clReleaseCommandQueue, (cl_command_queue a), (a)) \
X(cl_mem, clCreateBuffer, (cl_context a, cl_mem_flags b, size_t c, void *d, cl_int *e), (a, b, c, d, e)) \
X(cl_int, clReleaseMemObject, (cl_mem a), (a)) \
X(cl_mem, clCreateImage, (cl_context a, cl_mem_flags b, const cl_image_format *c, const cl_image_desc *d, void *e, cl_int *f), (a, b, c, d, e, f)) \
X(cl_int, clEnqueueReadBuffer, (cl_command_queue a, cl_mem b, cl_bool c, size_t d, size_t e, void *f, cl_uint g, const cl_event *h, cl_event *i), (a, b, c, d, e, f, g, h, i)) \
X(cl_int, clEnqueueWriteBuffer, (cl_command_queue a, cl_mem b, cl_bool c, size_t d, size_t e, const void *f, cl_uint g, const cl_event *h, cl_event *i), (a, b, c, d, e, f, g, h, i)) \
X(cl_int, clEnqueueWriteImage, (cl_command_queue a, cl_mem b, cl_bool c, const size_t *d, const size_t *e, size_t f, size_t g, const void *h, cl_uint i, const cl_event *j, cl_event *k), (a, b, c, d, e, f, g, h, i, j, k)) \
X(cl_int, clEnqueueCopyBuffer, (cl_command_queue a, cl_mem b, cl_mem c, size_t d, size_t e, size_t f, cl_uint g, const cl_event *h, cl_event *i), (a, b, c, d, e, f, g, h, i)) \
X(cl_int, clEnqueueFillBuffer, (cl_command_queue a, cl_mem b, const void *c, size_t d, size_t e, size_t f, cl_uint g, const cl_event *h, cl_event *i), (a, b, c, d, e, f, g, h, i)) \
X(void *, clEnqueueMapBuffer, (cl_command_queue a, cl_mem b, cl_bool c, cl_map_flags d, size_t e, size_t f, cl_uint g, const cl_event *h, cl_event *i, cl_int *j), (a, b, c, d, e, f, g, h, i, j)) \
X(cl_int, clEnqueueUnmapMemObject, (cl_command_queue a, cl_mem b, void *c, cl_uint d, const cl_event *e, cl_event *f), (a, b, c, d, e, f)) \
X(cl_program, clCreateProgramWithSource, (cl_context a, cl_uint b, const char **c, const size_t *d, cl_int *e), (a, b, c, d, e)) \
X(cl_program, clCreateProgramWithBinary, (cl_context a, cl_uint b, const cl_device_id *c, const size_t *d, const unsigned char **e, cl_int *f, cl_int *g), (a, b, c, d, e, f, g)) \
X(cl_int, clBuildProgram, (cl_program a, cl_uint b, const cl_device_id *c, const char *d, void *e, void *f), (a, b, c, d, e, f)) \
X(cl_int, clGetProgramInfo, (cl_program a, cl_program_info b, size_t c, void *d, size_t *e), (a, b, c, d, e)) \
X(cl_int, clGetProgramBuildInfo, (cl_program a, cl_device_id b, cl_program_build_info c, size_t d, void *e, size_t *f), (a, b, c, d, e, f)) \
X(cl_int, clReleaseProgram, (cl_program a), (a)) \
X(cl_int, clRetainProgram, (cl_program a), (a)) \
X(cl_kernel, clCreateKernel, (cl_program a, const char *b, cl_int *c), (a, b, c)) \
X(cl_int, clReleaseKernel, (cl_kernel a), (a)) \
X(cl_int, clSetKernelArg, (cl_kernel a, cl_uint b, size_t c, const void *d), (a, b, c, d)) \
X(cl_int, clGetKernelInfo, (cl_kernel a, cl_kernel_info b, size_t c, void *d, size_t *e), (a, b, c, d, e)) \
X(cl_int, clGetKernelArgInfo, (cl_kernel a, cl_uint b, cl_kernel_arg_info c, size_t d, void *e, size_t *f), (a, b, c, d, e, f)) \
X(cl_int, clGetKernelWorkGroupInfo, (cl_kernel a, cl_device_id b, cl_kernel_work_group_info c, size_t d, void *e, size_t *f), (a, b, c, d, e, f)) \
X(cl_int, clEnqueueNDRangeKernel, (cl_command_queue a, cl_kernel b, cl_uint c, const size_t *d, const size_t *e, const size_t *f, cl_uint g, const cl_event *h, cl_event *i), (a, b, c, d, e, f, g, h, i)) \
X(cl_int, clEnqueueMarkerWithWaitList, (cl_command_queue a, cl_uint b, const cl_event *c, cl_event *d), (a, b, c, d)) \
X(cl_int, clFlush, (cl_command_queue a), (a)) \
X(cl_int, clFinish, (cl_command_queue a), (a)) \
X(cl_int, clWaitForEvents, (cl_uint a, const cl_event *b), (a, b)) \
X(cl_int, clGetEventInfo, (cl_event a, cl_event_info b, size_t c, void *d, size_t *e), (a, b, c, d, e)) \
X(cl_int, clGetEventProfilingInfo, (cl_event a, cl_profiling_info b, size_t c, void *d, size_t *e), (a, b, c, d, e)) \
X(cl_int, clReleaseEvent, (cl_event a), (a)) \
X(cl_event, clCreateUserEvent, (cl_context a, cl_int *b), (a, b)) \
X(cl_int, clSetUserEventStatus, (cl_event a, cl_int b), (a, b))

// CLM_OPTIONAL lists entry points of OpenCL 2.0+ that older loaders lack; their
// wrappers return CL_INVALID_OPERATION when the loader has none (clm_has says).
#define CLM_OPTIONAL(X) \
X(cl_command_queue, clCreateCommandQueueWithProperties, (cl_context a, cl_device_id b, const cl_queue_properties *c, cl_int *d), (a, b, c, d)) \
X(cl_int, clGetDeviceAndHostTimer, (cl_device_id a, cl_ulong *b, cl_ulong *c), (a, b, c)) \
X(cl_int, clGetHostTimer, (cl_device_id a, cl_ulong *b), (a, b))

#define CLM_DECLARE(ret, name, params, args) ret clm_##name params;
CLM_REQUIRED(CLM_DECLARE)
CLM_OPTIONAL(CLM_DECLARE)
#undef CLM_DECLARE

// clm_has returns 1 when the loader exports the optional entry point name.
int clm_has(const char *name);
// clm_load opens the ICD loader: path when non-empty, else libOpenCL.so.1 then
// libOpenCL.so. It returns 0 on success, else writes a reason into err.
int clm_load(const char *path, char *err, size_t errlen);
// clm_loaded_path writes the file the loader was loaded from.
void clm_loaded_path(char *out, size_t outlen);

// clm_q_* call the driver with SIGINT, SIGTERM and SIGHUP blocked on the
// calling thread (see shim.c): for calls that may compile.
cl_int clm_q_clBuildProgram(cl_program a, cl_uint b, const cl_device_id *c, const char *d, void *e, void *f);
cl_int clm_q_clGetProgramInfo(cl_program a, cl_program_info b, size_t c, void *d, size_t *e);
cl_int clm_q_clFinish(cl_command_queue a);
cl_int clm_q_clGetPlatformIDs(cl_uint a, cl_platform_id *b, cl_uint *c);
cl_int clm_q_clGetDeviceIDs(cl_platform_id a, cl_device_type b, cl_uint c, cl_device_id *d, cl_uint *e);
cl_context clm_q_clCreateContext(const cl_context_properties *a, cl_uint b, const cl_device_id *c, void *d, void *e, cl_int *f);
cl_command_queue clm_q_clCreateCommandQueue(cl_context a, cl_device_id b, cl_command_queue_properties c, cl_int *d);
cl_command_queue clm_q_clCreateCommandQueueWithProperties(cl_context a, cl_device_id b, const cl_queue_properties *c, cl_int *d);
cl_kernel clm_q_clCreateKernel(cl_program a, const char *b, cl_int *c);

// clm_platform_library writes the file of the vendor library behind an ICD
// platform (found from the platform's dispatch table) or "".
void clm_platform_library(cl_platform_id p, char *out, size_t outlen);
// clm_probe_icd opens a vendor library (an .icd file's target) as an ICD loader
// does, finds clIcdGetPlatformIDsKHR and counts its platforms. It returns 0 on
// success, 1 when the library lacks the entry point, 2 when it did not open, 3 when
// the count failed (reason in err).
int clm_probe_icd(const char *path, int *nplatforms, char *err, size_t errlen);
// clm_enqueue_repeat enqueues kernel n times back to back with no events, as a
// plain C loop would, and stops at the first failure (its status is returned).
cl_int clm_enqueue_repeat(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                          const size_t *global, const size_t *local, long n);
// clm_enqueue_finish_repeat enqueues kernel and waits for it (clFinish), n times,
// as a plain C round-trip loop would: one call into C for the whole batch.
cl_int clm_enqueue_finish_repeat(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                 const size_t *global, const size_t *local, long n);
// clm_dispatch_repeat launches kernel with an event and waits for it, n times,
// summing each launch's QUEUED->START and START->END (device timer) over the
// launches whose timestamps it could read (counted): the dispatch loop a C
// program would write, in one call.
cl_int clm_dispatch_repeat(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                           const size_t *local, long n, cl_ulong *queued_to_start, cl_ulong *start_to_end, long *counted);
// clm_prepare_heap readies the calling thread's C heap for n bytes of a
// driver's allocations (see PrepareHeap); 0 when its pages were backed in one
// call, 1 when they were touched one by one, -1 when nothing was done.
int clm_prepare_heap(size_t n);

// clm_touch_heap allocates, touches and frees n bytes in blocks of chunk
// bytes (the test of clm_prepare_heap).
void clm_touch_heap(size_t n, size_t chunk);

// clm_trim_heap returns the C heap's free memory to the system (glibc's
// malloc_trim; nothing where the C library has none). It returns 1 when
// memory was released.
int clm_trim_heap(void);
#endif
