// The firsttouch experiment: a plain copy, and a fill that warms (first-touches)
// a buffer before it is timed.
__kernel void copy_int(__global const int *restrict src, __global int *restrict dst) {
	const size_t i = get_global_id(0);
	dst[i] = src[i];
}

__kernel void fill_int(__global int *dst, const int v) {
	dst[get_global_id(0)] = v;
}
