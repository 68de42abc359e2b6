// Streams (BabelStream-style) and the run built-ins. T is the element type
// (-DT=float or -DT=double); fp64 is enabled when T is double.
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef T
#define T float
#endif

// saxpy: y = a*x + y.
__kernel void saxpy(const T a, __global const T *restrict x, __global T *restrict y) {
	const size_t i = get_global_id(0);
	y[i] = a * x[i] + y[i];
}

// copy: b = a (the run built-in and the stream Copy).
__kernel void copy(__global const T *restrict a, __global T *restrict b) {
	const size_t i = get_global_id(0);
	b[i] = a[i];
}

// scale (BabelStream Mul): b = s*c.
__kernel void scale(const T s, __global const T *restrict c, __global T *restrict b) {
	const size_t i = get_global_id(0);
	b[i] = s * c[i];
}

// add: c = a + b.
__kernel void add(__global const T *restrict a, __global const T *restrict b, __global T *restrict c) {
	const size_t i = get_global_id(0);
	c[i] = a[i] + b[i];
}

// triad: a = b + s*c.
__kernel void triad(const T s, __global const T *restrict b, __global const T *restrict c, __global T *restrict a) {
	const size_t i = get_global_id(0);
	a[i] = b[i] + s * c[i];
}

// dot: each work-group writes the partial sum of a[i]*b[i] over a grid-stride
// loop; the host (the check) sums the partials. WG is the work-group size.
#ifndef WG
#define WG 256
#endif
__kernel void stream_dot(__global const T *restrict a, __global const T *restrict b, __global T *restrict sums, const ulong n) {
	__local T tile[WG];
	const size_t lid = get_local_id(0);
	T acc = 0;
	for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
		acc += a[i] * b[i];
	tile[lid] = acc;
	for (size_t s = WG / 2; s > 0; s >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < s)
			tile[lid] += tile[lid + s];
	}
	if (lid == 0)
		sums[get_group_id(0)] = tile[0];
}
