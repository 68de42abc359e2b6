/* progbin: the plain C floor of a warm program-cache build (make bench).
 *
 *   progbin save DEVICE_INDEX SOURCE.cl OPTIONS BINARY   build from source, write the binary
 *   progbin load DEVICE_INDEX BINARY OPTIONS             time reading BINARY +
 *                                                        clCreateProgramWithBinary +
 *                                                        clBuildProgram in this fresh process
 *
 * load prints JSON: {"build_ns": ...} and its parts (read_ns, create_ns,
 * build_only_ns). DEVICE_INDEX is the flat index over all
 * platforms, as 'clmeter devices' numbers them. The driver's own cache is left
 * as it is, so a run of clmeter and of this program see the same state.
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

static unsigned char *slurp(const char *path, size_t *n) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(len + 1);
	if (fread(b, 1, len, f) != (size_t)len) { fclose(f); free(b); return NULL; }
	fclose(f);
	b[len] = 0;
	*n = len;
	return b;
}

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

int main(int argc, char **argv) {
	if (argc < 5 || (strcmp(argv[1], "save") && strcmp(argv[1], "load")) || (!strcmp(argv[1], "save") && argc < 6)) {
		fprintf(stderr, "usage: progbin save DEVICE SOURCE.cl OPTIONS BINARY | progbin load DEVICE BINARY OPTIONS\n");
		return 2;
	}
	cl_device_id dev = pick(atoi(argv[2]));
	if (!dev) { fprintf(stderr, "progbin: no device %s\n", argv[2]); return 1; }
	cl_int err;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err != CL_SUCCESS) { fprintf(stderr, "progbin: clCreateContext: %d\n", err); return 1; }
	size_t n;
	/* load times the read too: a cache must read its file. */
	double t = now_ns();
	unsigned char *data = slurp(argv[3], &n);
	if (!data) { fprintf(stderr, "progbin: cannot read %s\n", argv[3]); return 1; }
	const char *opts = argv[4];
	if (!strcmp(argv[1], "save")) {
		const char *src = (const char *)data;
		cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
		if (err == CL_SUCCESS) err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
		if (err != CL_SUCCESS) { fprintf(stderr, "progbin: build from source: %d\n", err); return 1; }
		size_t bn = 0;
		clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bn, &bn, NULL);
		unsigned char *bin = malloc(bn);
		clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
		FILE *f = fopen(argv[5], "wb");
		if (!f || fwrite(bin, 1, bn, f) != bn || fclose(f)) { fprintf(stderr, "progbin: cannot write %s\n", argv[5]); return 1; }
		return 0;
	}
	/* load: what a warm cache must at least do (read the binary, create and
	 * build the program), timed in this fresh process. */
	const unsigned char *bins[1] = {data};
	cl_int st;
	double t1 = now_ns();
	cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &n, bins, &st, &err);
	double t2 = now_ns();
	if (err == CL_SUCCESS) err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
	double t3 = now_ns();
	if (err != CL_SUCCESS) { fprintf(stderr, "progbin: build from binary: %d\n", err); return 1; }
	/* build_ns is the whole; the parts: the read, clCreateProgramWithBinary, clBuildProgram. */
	printf("{\"build_ns\": %.0f, \"read_ns\": %.0f, \"create_ns\": %.0f, \"build_only_ns\": %.0f, \"binary_bytes\": %zu}\n", t3 - t, t1 - t, t2 - t1, t3 - t2, n);
	clReleaseProgram(p);
	clReleaseContext(ctx);
	return 0;
}
