/* rawlaunch: the plain C baseline for clmeter's harness overhead (make bench).
 *
 * It launches an empty kernel the way a careful hand-written loop would, with no
 * measurement machinery, and prints JSON:
 *   back_to_back_ns  per-launch host time of N back-to-back launches + one clFinish
 *   round_trip_ns    host time of one launch + clFinish
 *   dispatch_ns      QUEUED -> START of a launch with an event (device timer)
 * (these two as clmeter takes them: the mean over a batch of launches lasting at
 * least MIN_BATCH_MS is a sample; *_single_median_ns is the median of single
 * launches instead)
 *   dispatch_wide_ns the same with clpeak's launch-latency shape: max work-group
 *                    size x compute units work-items in work-groups of the
 *                    largest size (clpeak times its bandwidth kernel so)
 * each the median over repeats.
 *
 * usage: rawlaunch DEVICE_INDEX [MIN_BATCH_MS]   (flat index over all platforms,
 * as 'clmeter devices' numbers them)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n) {
	qsort(v, n, sizeof v[0], cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define CHECK(x)                                                               \
	do {                                                                   \
		cl_int e_ = (x);                                               \
		if (e_ != CL_SUCCESS) {                                        \
			fprintf(stderr, "rawlaunch: %s failed: %d\n", #x, e_); \
			return 1;                                              \
		}                                                              \
	} while (0)

int main(int argc, char **argv) {
	int want = argc > 1 ? atoi(argv[1]) : 0;
	double min_batch_ns = (argc > 2 ? atof(argv[2]) : 20) * 1e6;
	cl_platform_id plats[16];
	cl_uint np = 0;
	CHECK(clGetPlatformIDs(16, plats, &np));
	cl_device_id dev = NULL;
	int idx = 0;
	for (cl_uint p = 0; p < np && !dev; p++) {
		cl_device_id devs[16];
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) continue;
		for (cl_uint d = 0; d < nd; d++, idx++)
			if (idx == want) { dev = devs[d]; break; }
	}
	if (!dev) {
		fprintf(stderr, "rawlaunch: no device %d\n", want);
		return 1;
	}
	char name[256] = "";
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
	cl_int err;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	const char *src = "__kernel void empty(void) {}";
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "empty", &err);
	CHECK(err);
	size_t global = 1;

	/* Warm up (the first launches may compile), then size the batch so that it
	 * lasts at least min_batch_ns. */
	for (int i = 0; i < 10; i++) {
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
		CHECK(clFinish(q));
	}
	int n = 1;
	for (;;) {
		double t = now_ns();
		for (int i = 0; i < n; i++) CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
		CHECK(clFinish(q));
		double took = now_ns() - t;
		if (took >= min_batch_ns || n >= 1 << 22) break;
		n = took > 0 ? (int)(n * 1.2 * min_batch_ns / took) + 1 : n * 100;
		if (n > 1 << 22) n = 1 << 22;
	}
	enum { R = 15 };
	double b2b[R], rt[R], disp[R];
	for (int r = 0; r < R; r++) {
		double t = now_ns();
		for (int i = 0; i < n; i++) CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
		CHECK(clFinish(q));
		b2b[r] = (now_ns() - t) / n;
	}
	/* Round trips and dispatch the way clmeter's samples take them: batches of
	 * single launches lasting at least min_batch_ns, the mean of a batch is one
	 * sample, the median of R samples the figure. The median of single launches
	 * is printed too (it drops the slow launches a mean keeps). */
	double rt1[R * 20], disp1[R * 20];
	for (int r = 0; r < R * 20; r++) {
		double t = now_ns();
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
		CHECK(clFinish(q));
		rt1[r] = now_ns() - t;
	}
	double mean1 = 0;
	for (int r = 0; r < R * 20; r++) mean1 += rt1[r] / (R * 20);
	int m = mean1 > 0 ? (int)(min_batch_ns / mean1) + 1 : 1000;
	for (int r = 0; r < R; r++) {
		double t = now_ns();
		for (int i = 0; i < m; i++) {
			CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
			CHECK(clFinish(q));
		}
		rt[r] = (now_ns() - t) / m;
	}
	size_t wg = 1;
	cl_uint cus = 1;
	clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
	clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
	size_t wide = wg * cus;
	double dispw[R];
	for (int shape = 0; shape < 2; shape++) {
		size_t *g = shape ? &wide : &global, *l = shape ? &wg : NULL;
		for (int i = 0; i < 10; i++) {
			CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, g, l, 0, NULL, NULL));
			CHECK(clFinish(q));
		}
		for (int r = 0; r < R; r++) {
			double sum = 0;
			for (int i = 0; i < m; i++) {
				cl_event ev;
				CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, g, l, 0, NULL, &ev));
				CHECK(clFinish(q));
				cl_ulong qd, st;
				CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL));
				CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof st, &st, NULL));
				if (!shape && i < 20 && r * 20 + i < R * 20) disp1[r * 20 + i] = (double)(st - qd);
				sum += (double)(st - qd);
				clReleaseEvent(ev);
			}
			(shape ? dispw : disp)[r] = sum / m;
		}
	}
	printf("{\"device\": \"%s\", \"batch_launches\": %d, \"sync_batch_launches\": %d, \"back_to_back_ns\": %.1f, \"round_trip_ns\": %.1f, \"dispatch_ns\": %.1f, \"dispatch_wide_ns\": %.1f, \"round_trip_single_median_ns\": %.1f, \"dispatch_single_median_ns\": %.1f}\n",
	       name, n, m, median(b2b, R), median(rt, R), median(disp, R), median(dispw, R), median(rt1, R * 20), median(disp1, R * 20));
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
