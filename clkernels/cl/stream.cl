// Streams (BabelStream-style) and the run built-ins. T is the element type
// (-DT=float or -DT=double); fp64 is enabled when T is double.
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef T
#define T float
#endif

// The element-wise kernels take SW elements a work-item (-DSW=2 for float on
// GPUs: 8 bytes a load, as a double, so that as many bytes are in flight; a
// GPU keeps a bounded number of loads in flight a thread). ST is the type of
// one work-item's elements; a scalar times ST is element-wise.
#ifndef SW
#define SW 1
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if SW == 1
#define ST T
#else
#define ST CAT(T, SW)
#endif

// saxpy: y = a*x + y.
__kernel void saxpy(const T a, __global const ST *restrict x, __global ST *restrict y) {
	const size_t i = get_global_id(0);
	y[i] = a * x[i] + y[i];
}

// copy: b = a (the run built-in and the stream Copy).
__kernel void copy(__global const ST *restrict a, __global ST *restrict b) {
	const size_t i = get_global_id(0);
	b[i] = a[i];
}

// scale (BabelStream Mul): b = s*c.
__kernel void scale(const T s, __global const ST *restrict c, __global ST *restrict b) {
	const size_t i = get_global_id(0);
	b[i] = s * c[i];
}

// add: c = a + b.
__kernel void add(__global const ST *restrict a, __global const ST *restrict b, __global ST *restrict c) {
	const size_t i = get_global_id(0);
	c[i] = a[i] + b[i];
}

// triad: a = b + s*c.
__kernel void triad(const T s, __global const ST *restrict b, __global const ST *restrict c, __global ST *restrict a) {
	const size_t i = get_global_id(0);
	a[i] = b[i] + s * c[i];
}

// Dot has two shapes, chosen from the device (clkernels.StreamBenchmark).
// WG is the work-group size of stream_dot, VW the vector width of
// stream_dot_chunk (a 64-byte vector: 16 floats, 8 doubles).
#ifndef WG
#define WG 256
#endif
#ifndef VW
#define VW 16
#endif

// stream_dot (GPUs): a grid-stride loop, consecutive work-items on consecutive
// elements (coalesced), four independent sums per work-item so that four loads
// are in flight; each work-group adds its items' sums in local memory and
// writes one partial sum. The host adds the partial sums.
__kernel void stream_dot(__global const T *restrict a, __global const T *restrict b, __global T *restrict sums, const ulong n) {
	__local T tile[WG];
	const size_t lid = get_local_id(0);
	const size_t g = get_global_size(0);
	T acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
	size_t i = get_global_id(0);
	for (; i + 3 * g < n; i += 4 * g) {
		acc0 += a[i] * b[i];
		acc1 += a[i + g] * b[i + g];
		acc2 += a[i + 2 * g] * b[i + 2 * g];
		acc3 += a[i + 3 * g] * b[i + 3 * g];
	}
	for (; i < n; i += g)
		acc0 += a[i] * b[i];
	tile[lid] = (acc0 + acc1) + (acc2 + acc3);
	for (size_t s = WG / 2; s > 0; s >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < s)
			tile[lid] += tile[lid + s];
	}
	if (lid == 0)
		sums[get_group_id(0)] = tile[0];
}

// stream_dot_chunk (CPUs): each work-item (work-groups of one) walks its own
// contiguous chunk in 64-byte vectors with four independent vector sums, the
// way a CPU core streams best; it writes one partial sum.
#define VT_(t, w) t##w
#define VT(t, w) VT_(t, w)
#define VLOAD_(w) vload##w
#define VLOAD(w) VLOAD_(w)
__kernel void stream_dot_chunk(__global const T *restrict a, __global const T *restrict b, __global T *restrict sums, const ulong n) {
	const size_t gid = get_global_id(0), g = get_global_size(0);
	const size_t step = 4 * VW;
	size_t per = (n + g - 1) / g;
	per = (per + step - 1) / step * step;
	const size_t begin = min((size_t)n, gid * per), end = min((size_t)n, begin + per);
	VT(T, VW) v0 = 0, v1 = 0, v2 = 0, v3 = 0;
	size_t i = begin;
	for (; i + step <= end; i += step) {
		v0 += VLOAD(VW)(0, a + i) * VLOAD(VW)(0, b + i);
		v1 += VLOAD(VW)(0, a + i + VW) * VLOAD(VW)(0, b + i + VW);
		v2 += VLOAD(VW)(0, a + i + 2 * VW) * VLOAD(VW)(0, b + i + 2 * VW);
		v3 += VLOAD(VW)(0, a + i + 3 * VW) * VLOAD(VW)(0, b + i + 3 * VW);
	}
	VT(T, VW) v = (v0 + v1) + (v2 + v3);
	T acc = 0;
	for (int l = 0; l < VW; l++)
		acc += ((T *)&v)[l];
	for (; i < end; i++)
		acc += a[i] * b[i];
	sums[gid] = acc;
}
