#define _GNU_SOURCE
#include "shim.h"
#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *clm_lib;

#define CLM_POINTER(ret, name, params, args) \
	typedef ret(*clm_##name##_fn) params;      \
	static clm_##name##_fn p_##name;
CLM_REQUIRED(CLM_POINTER)
CLM_OPTIONAL(CLM_POINTER)

#define CLM_WRAP(ret, name, params, args) \
	ret clm_##name params { return p_##name args; }
CLM_REQUIRED(CLM_WRAP)

cl_int clm_clGetDeviceAndHostTimer(cl_device_id a, cl_ulong *b, cl_ulong *c) {
	if (!p_clGetDeviceAndHostTimer) return CL_INVALID_OPERATION;
	return p_clGetDeviceAndHostTimer(a, b, c);
}

cl_int clm_clGetHostTimer(cl_device_id a, cl_ulong *b) {
	if (!p_clGetHostTimer) return CL_INVALID_OPERATION;
	return p_clGetHostTimer(a, b);
}

cl_command_queue clm_clCreateCommandQueueWithProperties(cl_context a, cl_device_id b, const cl_queue_properties *c, cl_int *d) {
	if (!p_clCreateCommandQueueWithProperties) {
		if (d) *d = CL_INVALID_OPERATION;
		return NULL;
	}
	return p_clCreateCommandQueueWithProperties(a, b, c, d);
}

int clm_has(const char *name) {
#define CLM_HAS(ret, n, params, args) \
	if (strcmp(name, #n) == 0) return p_##n != NULL;
	CLM_OPTIONAL(CLM_HAS)
#undef CLM_HAS
	return 0;
}

int clm_load(const char *path, char *err, size_t errlen) {
	void *h = NULL;
	if (path && path[0]) {
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	} else {
		h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
		if (!h) h = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
	}
	if (!h) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen failed");
		return 1;
	}
#define CLM_SYM(ret, name, params, args)                                       \
	p_##name = (clm_##name##_fn)dlsym(h, #name);                             \
	if (!p_##name) {                                                         \
		snprintf(err, errlen, "the OpenCL library lacks %s", #name);     \
		dlclose(h);                                                      \
		return 2;                                                        \
	}
	CLM_REQUIRED(CLM_SYM)
#define CLM_SYM_OPT(ret, name, params, args) p_##name = (clm_##name##_fn)dlsym(h, #name);
	CLM_OPTIONAL(CLM_SYM_OPT)
	clm_lib = h;
	return 0;
}

void clm_loaded_path(char *out, size_t outlen) {
	Dl_info info;
	out[0] = 0;
	if (p_clGetPlatformIDs && dladdr((void *)p_clGetPlatformIDs, &info) && info.dli_fname)
		snprintf(out, outlen, "%s", info.dli_fname);
}

void clm_platform_library(cl_platform_id p, char *out, size_t outlen) {
	Dl_info info;
	out[0] = 0;
	// An ICD platform object starts with a pointer to its vendor's dispatch
	// table, a static of the vendor library (the ICD loader's contract).
	if (!p) return;
	void **dispatch = *(void ***)p;
	if (!dispatch) return;
	if (dladdr(dispatch, &info) && info.dli_fname) {
		snprintf(out, outlen, "%s", info.dli_fname);
		return;
	}
	// Some vendors (NVIDIA) build the table at run time, on the heap: its
	// second entry, clGetPlatformInfo, is code of the vendor library. The
	// table is read through a pipe first, so that a platform object that is
	// no ICD object (a vendor library loaded without a loader) cannot make
	// the read fault: write(2) from a bad address fails with EFAULT.
	void *entry[2];
	int fds[2];
	if (pipe(fds) != 0) return;
	int ok = write(fds[1], dispatch, sizeof entry) == (ssize_t)sizeof entry &&
		read(fds[0], entry, sizeof entry) == (ssize_t)sizeof entry;
	close(fds[0]);
	close(fds[1]);
	if (ok && entry[1] && dladdr(entry[1], &info) && info.dli_fname)
		snprintf(out, outlen, "%s", info.dli_fname);
}

int clm_probe_icd(const char *path, int *nplatforms, char *err, size_t errlen) {
	*nplatforms = -1;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen failed");
		return 2;
	}
	// A loader asks the vendor library's clGetExtensionFunctionAddress for
	// clIcdGetPlatformIDsKHR; some libraries also export it directly.
	typedef void *(*gefa_fn)(const char *);
	typedef cl_int (*icdgp_fn)(cl_uint, cl_platform_id *, cl_uint *);
	icdgp_fn f = NULL;
	gefa_fn gefa = (gefa_fn)dlsym(h, "clGetExtensionFunctionAddress");
	if (gefa) f = (icdgp_fn)gefa("clIcdGetPlatformIDsKHR");
	if (!f) f = (icdgp_fn)dlsym(h, "clIcdGetPlatformIDsKHR");
	if (!f) {
		snprintf(err, errlen, "%s loads but offers no clIcdGetPlatformIDsKHR: it is not an OpenCL ICD", path);
		return 1;
	}
	cl_uint n = 0;
	cl_int st = f(0, NULL, &n);
	if (st != CL_SUCCESS && st != -1001) {
		snprintf(err, errlen, "%s: clIcdGetPlatformIDsKHR failed with status %d", path, st);
		return 3;
	}
	*nplatforms = st == CL_SUCCESS ? (int)n : 0;
	// The vendor library stays open: unloading some drivers is unsafe.
	return 0;
}

// A driver may compile inside these calls, and a compiler may start a child
// (PoCL runs the linker, ld, for each work-group function). Ctrl-C reaches the
// whole process group: a linker killed by it makes PoCL abort the process
// (SIGABRT, with the Go runtime's stack dump). Blocking SIGINT, SIGTERM and
// SIGHUP on the calling thread for the call makes its children inherit them
// blocked (fork and exec keep the mask), so the linker finishes; the signal
// itself goes to another thread of the process, where Go handles it.
static void clm_quiet_begin(sigset_t *old) {
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &s, old);
}

static void clm_quiet_end(const sigset_t *old) { pthread_sigmask(SIG_SETMASK, old, NULL); }

cl_int clm_q_clBuildProgram(cl_program a, cl_uint b, const cl_device_id *c, const char *d, void *e, void *f) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = p_clBuildProgram(a, b, c, d, e, f);
	clm_quiet_end(&old);
	return st;
}

cl_int clm_q_clGetProgramInfo(cl_program a, cl_program_info b, size_t c, void *d, size_t *e) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = p_clGetProgramInfo(a, b, c, d, e);
	clm_quiet_end(&old);
	return st;
}

cl_int clm_q_clFinish(cl_command_queue a) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = p_clFinish(a);
	clm_quiet_end(&old);
	return st;
}

// Drivers start their worker threads when they are enumerated or make a
// context or queue (PoCL's pthread device compiles and links on them too):
// started under the blocked mask, they keep it.
cl_int clm_q_clGetPlatformIDs(cl_uint a, cl_platform_id *b, cl_uint *c) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = p_clGetPlatformIDs(a, b, c);
	clm_quiet_end(&old);
	return st;
}

cl_int clm_q_clGetDeviceIDs(cl_platform_id a, cl_device_type b, cl_uint c, cl_device_id *d, cl_uint *e) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = p_clGetDeviceIDs(a, b, c, d, e);
	clm_quiet_end(&old);
	return st;
}

cl_context clm_q_clCreateContext(const cl_context_properties *a, cl_uint b, const cl_device_id *c, void *d, void *e, cl_int *f) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_context h = p_clCreateContext(a, b, c, d, e, f);
	clm_quiet_end(&old);
	return h;
}

cl_command_queue clm_q_clCreateCommandQueue(cl_context a, cl_device_id b, cl_command_queue_properties c, cl_int *d) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_command_queue h = p_clCreateCommandQueue(a, b, c, d);
	clm_quiet_end(&old);
	return h;
}

cl_command_queue clm_q_clCreateCommandQueueWithProperties(cl_context a, cl_device_id b, const cl_queue_properties *c, cl_int *d) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_command_queue h = clm_clCreateCommandQueueWithProperties(a, b, c, d);
	clm_quiet_end(&old);
	return h;
}

cl_kernel clm_q_clCreateKernel(cl_program a, const char *b, cl_int *c) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_kernel h = p_clCreateKernel(a, b, c);
	clm_quiet_end(&old);
	return h;
}

static cl_int clm_enqueue_repeat_(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                  const size_t *global, const size_t *local, long n);
static cl_int clm_enqueue_finish_repeat_(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                         const size_t *global, const size_t *local, long n);
static cl_int clm_dispatch_repeat_(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                                   const size_t *local, long n, cl_ulong *queued_to_start, cl_ulong *start_to_end, long *counted);

cl_int clm_enqueue_repeat(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                          const size_t *global, const size_t *local, long n) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = clm_enqueue_repeat_(q, k, dims, offset, global, local, n);
	clm_quiet_end(&old);
	return st;
}

cl_int clm_enqueue_finish_repeat(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                 const size_t *global, const size_t *local, long n) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = clm_enqueue_finish_repeat_(q, k, dims, offset, global, local, n);
	clm_quiet_end(&old);
	return st;
}

cl_int clm_dispatch_repeat(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                           const size_t *local, long n, cl_ulong *queued_to_start, cl_ulong *start_to_end, long *counted) {
	sigset_t old;
	clm_quiet_begin(&old);
	cl_int st = clm_dispatch_repeat_(q, k, dims, global, local, n, queued_to_start, start_to_end, counted);
	clm_quiet_end(&old);
	return st;
}

static cl_int clm_enqueue_repeat_(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                          const size_t *global, const size_t *local, long n) {
	for (long i = 0; i < n; i++) {
		cl_int st = p_clEnqueueNDRangeKernel(q, k, dims, offset, global, local, 0, NULL, NULL);
		if (st != CL_SUCCESS) return st;
	}
	return CL_SUCCESS;
}

static cl_int clm_enqueue_finish_repeat_(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                         const size_t *global, const size_t *local, long n) {
	for (long i = 0; i < n; i++) {
		cl_int st = p_clEnqueueNDRangeKernel(q, k, dims, offset, global, local, 0, NULL, NULL);
		if (st != CL_SUCCESS) return st;
		st = p_clFinish(q);
		if (st != CL_SUCCESS) return st;
	}
	return CL_SUCCESS;
}

static cl_int clm_dispatch_repeat_(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                                   const size_t *local, long n, cl_ulong *queued_to_start, cl_ulong *start_to_end, long *counted) {
	*queued_to_start = 0;
	*start_to_end = 0;
	*counted = 0;
	for (long i = 0; i < n; i++) {
		cl_event ev;
		cl_int st = p_clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, &ev);
		if (st != CL_SUCCESS) return st;
		st = p_clFinish(q);
		cl_ulong qd = 0, s = 0, e = 0;
		if (st == CL_SUCCESS &&
		    p_clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL) == CL_SUCCESS &&
		    p_clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL) == CL_SUCCESS &&
		    p_clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL) == CL_SUCCESS && s >= qd && e >= s) {
			*queued_to_start += s - qd;
			*start_to_end += e - s;
			(*counted)++;
		}
		p_clReleaseEvent(ev);
		if (st != CL_SUCCESS) return st;
	}
	return CL_SUCCESS;
}

/* The block comes from the calling thread's arena: glibc's mmap threshold is
 * raised above n for the allocation (any program's first large free raises it
 * so, but only once in a process: a second preparation, on a thread that
 * replaced a stuck one, found it fixed at 128 KiB and got a mapping that its
 * free unmapped). It is backed at once (MADV_POPULATE_WRITE, Linux 5.14; else
 * touched a page at a time) and, freed, stays the arena's free top, under the
 * trim threshold of 2n. The mmap threshold then goes back to glibc's first
 * 128 KiB, fixed: left at n, every thread's arena kept its freed blocks of up
 * to n (PoCL's 16 worker threads held 65 MB more in 'suite peaks' on 16
 * cores), while a warm build's own blocks fit under 128 KiB (the same 21
 * faults). Without mallopt (not glibc) the first large free's raise is all
 * there is. The pointer is volatile so that the compiler keeps the pairs of
 * malloc and free. The thresholds are the process's: two devices' driver
 * threads preparing at once would lower the mmap threshold under each other's
 * allocation, so preparations run one at a time (prepare_lock). */
static pthread_mutex_t prepare_lock = PTHREAD_MUTEX_INITIALIZER;

static int prepare_heap(size_t n);

int clm_prepare_heap(size_t n) {
	pthread_mutex_lock(&prepare_lock);
	int r = prepare_heap(n);
	pthread_mutex_unlock(&prepare_lock);
	return r;
}

static int prepare_heap(size_t n) {
	char *volatile p;
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_TRIM_THRESHOLD, (int)(2 * n));
	mallopt(M_MMAP_THRESHOLD, (int)(n + 64 * 1024));
#else
	p = malloc(n);
	free(p);
#endif
	p = malloc(n);
	if (!p) return -1;
	uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095, hi = ((uintptr_t)p + n) & ~(uintptr_t)4095;
	int r = 0;
	if (hi > lo && madvise((void *)lo, hi - lo, 23 /* MADV_POPULATE_WRITE */) != 0) {
		for (uintptr_t a = lo; a < hi; a += 4096) ((volatile char *)a)[0] = 0;
		r = 1;
	}
	free(p);
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	return r;
}

/* clm_touch_heap allocates n bytes in blocks of chunk bytes, writes a byte of
 * every page and frees them: the shape of a driver's many small allocations,
 * for the test of clm_prepare_heap. */
void clm_touch_heap(size_t n, size_t chunk) {
	size_t k = n / chunk;
	char **blocks = calloc(k, sizeof *blocks);
	if (!blocks) return;
	for (size_t i = 0; i < k; i++) {
		blocks[i] = malloc(chunk);
		if (blocks[i])
			for (size_t j = 0; j < chunk; j += 4096) ((volatile char *)blocks[i])[j] = 1;
	}
	for (size_t i = 0; i < k; i++) free(blocks[i]);
	free(blocks);
}

/* Weak: a C library without malloc_trim (musl) leaves it NULL. */
extern int malloc_trim(size_t pad) __attribute__((weak));

int clm_trim_heap(void) {
	return malloc_trim ? malloc_trim(0) : 0;
}
