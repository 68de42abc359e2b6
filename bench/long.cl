// A long kernel for 'make bench': ITERS dependent multiply-adds per work-item, so
// one launch lasts well over 100 ms and the device and host timers can be compared.
__kernel void spin(__global float *out, int iters) {
	size_t i = get_global_id(0);
	float x = (float)i * 1e-6f, a = 0.999999f, b = 1e-7f;
	for (int k = 0; k < iters; k++) {
		x = mad(x, a, b);
	}
	out[i] = x;
}
