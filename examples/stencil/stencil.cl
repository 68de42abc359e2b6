// A 5-point stencil on an N x N grid (interior points only).
__kernel void stencil(__global const float *in, __global float *out, int n) {
	int x = get_global_id(0), y = get_global_id(1);
	if (x == 0 || y == 0 || x >= n - 1 || y >= n - 1) { out[y * n + x] = in[y * n + x]; return; }
	out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}
