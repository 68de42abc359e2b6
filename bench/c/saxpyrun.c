/* saxpyrun: the plain C peer of 'clmeter run saxpy --size N' (make bench).
 *
 * It does what that run does before and around its first result, the way a
 * careful hand-written program would, in one thread:
 *   enumerate, make a context and a profiling queue, build the saxpy kernel
 *   from source (y = a*x + y, the driver's own cache as it is), allocate x and
 *   y and fill them with uniform values in [0, 1) from SplitMix64, create the
 *   two buffers, write them (blocking), launch once and finish (the first
 *   result), launch twice more (clmeter's warm-up and one sample), read y back
 *   and check every element against a CPU reference, then one phase run
 *   (write x and y, launch, read y), as 'clmeter run --samples 1 --min-samples 1'
 *   does.
 *
 * usage: saxpyrun DEVICE_INDEX N   (flat device index, as 'clmeter devices'
 * numbers them; N elements of float)
 *        saxpyrun copy BYTES        the host's copy bandwidth: the median of 5
 *                                   memcpy of BYTES between buffers already
 *                                   touched, the rate of the first touch
 *                                   (memset) of fresh memory on one thread, and
 *                                   the first touch on every core (each
 *                                   thread backs its slice of fresh memory with
 *                                   MADV_POPULATE_WRITE, then sets it), printed as
 *                                   {"copy_bytes_per_s": ..., "first_touch_bytes_per_s": ...,
 *                                    "first_touch_all_bytes_per_s": ..., "threads": ...}
 * It prints JSON: build_ns (create + build the program), host_data_ns
 * (allocate + fill), upload_ns (the two writes), first_launch_ns (launch +
 * finish), first_result_ns (process start to the end of the first launch),
 * total_ns.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

static double now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *s) {
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(float *v, size_t n, uint64_t seed) {
	uint64_t s = seed * 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < n; i++) v[i] = (float)((double)(splitmix(&s) >> 11) * 0x1p-53);
}

#define CHECK(x)                                                              \
	do {                                                                  \
		cl_int e_ = (x);                                              \
		if (e_ != CL_SUCCESS) {                                       \
			fprintf(stderr, "saxpyrun: %s failed: %d\n", #x, e_); \
			return 1;                                             \
		}                                                             \
	} while (0)

static cl_device_id pick(int want) {
	cl_platform_id plats[16];
	cl_uint np = 0;
	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS) return NULL;
	int idx = 0;
	for (cl_uint p = 0; p < np; p++) {
		cl_device_id devs[16];
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) continue;
		for (cl_uint d = 0; d < nd; d++, idx++)
			if (idx == want) return devs[d];
	}
	return NULL;
}

static const char *src =
    "__kernel void saxpy(const float a, __global const float *restrict x, __global float *restrict y) {\n"
    "\tconst size_t i = get_global_id(0);\n\ty[i] = a * x[i] + y[i];\n}\n";

static int cmpd(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A thread's slice of the every-core first touch: page-aligned, backed in one
 * call where the kernel can (older kernels refuse: the memset then takes one
 * fault a page), then set. */
struct touch_slice {
	char *p;
	size_t n;
};

static void *touch_slice(void *arg) {
	struct touch_slice *s = arg;
	(void)madvise(s->p, s->n, MADV_POPULATE_WRITE);
	memset(s->p, 1, s->n);
	return NULL;
}

/* first_touch_all sets n bytes of fresh memory (the system's own pages, as a
 * driver's buffer gets them) on every online core, and returns the time in ns:
 * what a careful program pays for fresh memory on this machine. */
static double first_touch_all(size_t n, int *threads) {
	long page = sysconf(_SC_PAGESIZE), cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (cores < 1) cores = 1;
	if (cores > 256) cores = 256;
	size_t pages = (n + page - 1) / page;
	char *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) return -1;
	pthread_t th[256];
	struct touch_slice sl[256];
	int started[256];
	double s0 = now_ns();
	for (long i = 0; i < cores; i++) {
		size_t lo = pages * i / cores * page, hi = pages * (i + 1) / cores * page;
		sl[i] = (struct touch_slice){p + lo, hi - lo};
		started[i] = pthread_create(&th[i], NULL, touch_slice, &sl[i]) == 0;
		if (!started[i]) touch_slice(&sl[i]);
	}
	for (long i = 0; i < cores; i++)
		if (started[i]) pthread_join(th[i], NULL);
	double t = now_ns() - s0;
	munmap(p, pages * page);
	*threads = (int)cores;
	return t;
}

static int copy_bandwidth(size_t n) {
	/* First, while the process is as fresh as a benchmark's at its inputs. */
	int threads = 0;
	double all = first_touch_all(n, &threads);
	char *src = malloc(n), *dst = malloc(n);
	if (all <= 0 || !src || !dst) {
		fprintf(stderr, "saxpyrun: out of memory\n");
		return 1;
	}
	/* The first touch of fresh memory: the system backs it page by page. */
	double s0 = now_ns();
	memset(src, 1, n);
	double first = now_ns() - s0;
	memcpy(dst, src, n);
	double t[5];
	for (int r = 0; r < 5; r++) {
		double s = now_ns();
		memcpy(dst, src, n);
		t[r] = now_ns() - s;
	}
	qsort(t, 5, sizeof t[0], cmpd);
	printf("{\"copy_bytes_per_s\": %.0f, \"first_touch_bytes_per_s\": %.0f, \"first_touch_all_bytes_per_s\": %.0f, \"threads\": %d, \"check\": %d}\n",
	       n / (t[2] / 1e9), n / (first / 1e9), n / (all / 1e9), threads, dst[n / 2]);
	free(src);
	free(dst);
	return 0;
}

int main(int argc, char **argv) {
	double t0 = now_ns();
	if (argc == 3 && !strcmp(argv[1], "copy")) return copy_bandwidth((size_t)atoll(argv[2]));
	if (argc < 3) {
		fprintf(stderr, "usage: saxpyrun DEVICE_INDEX N\n");
		return 2;
	}
	size_t n = (size_t)atoll(argv[2]), bytes = n * sizeof(float);
	cl_device_id dev = pick(atoi(argv[1]));
	if (!dev || !n) {
		fprintf(stderr, "saxpyrun: no device %s or no size\n", argv[1]);
		return 1;
	}
	cl_int err;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	double tb = now_ns();
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "saxpy", &err);
	CHECK(err);
	double build = now_ns() - tb;

	double th = now_ns();
	float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
	if (!x || !y || !out) {
		fprintf(stderr, "saxpyrun: out of memory\n");
		return 1;
	}
	fill(x, n, 1);
	fill(y, n, 2);
	double host = now_ns() - th;

	cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	float a = 0.4f;
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof bx, &bx));
	CHECK(clSetKernelArg(k, 2, sizeof by, &by));
	double tu = now_ns();
	CHECK(clEnqueueWriteBuffer(q, bx, CL_TRUE, 0, bytes, x, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(q, by, CL_TRUE, 0, bytes, y, 0, NULL, NULL));
	double upload = now_ns() - tu;

	size_t global = n;
	double tl = now_ns();
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
	CHECK(clFinish(q));
	double first_launch = now_ns() - tl, first = now_ns() - t0;
	for (int i = 0; i < 2; i++) CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
	CHECK(clFinish(q));

	/* The check: one launch on fresh inputs, read back, every element. */
	CHECK(clEnqueueWriteBuffer(q, by, CL_TRUE, 0, bytes, y, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		float want = a * x[i] + y[i];
		if (fabsf(out[i] - want) > 1e-6f * (fabsf(want) + 1)) bad++;
	}
	if (bad) {
		fprintf(stderr, "saxpyrun: %zu of %zu elements wrong\n", bad, n);
		return 1;
	}
	/* One phase run: copy-in, compute, copy-out. */
	CHECK(clEnqueueWriteBuffer(q, bx, CL_TRUE, 0, bytes, x, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(q, by, CL_TRUE, 0, bytes, y, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
	printf("{\"build_ns\": %.0f, \"host_data_ns\": %.0f, \"upload_ns\": %.0f, \"first_launch_ns\": %.0f, \"first_result_ns\": %.0f, \"total_ns\": %.0f}\n",
	       build, host, upload, first_launch, first, now_ns() - t0);
	clReleaseMemObject(bx);
	clReleaseMemObject(by);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(x);
	free(y);
	free(out);
	return 0;
}
