// A 3x3 box blur of an n x n image, the README's example of a user kernel: each
// TILE x TILE work-group stages its pixels in local memory (tile, TILE*TILE
// floats), and reads the halo from global memory.
#include "blur.h"
#ifndef TILE
#define TILE 16
#endif

__kernel void blur(__global const float *in, __global float *out, int n, __local float *tile) {
	int x = get_global_id(0), y = get_global_id(1);
	int lx = get_local_id(0), ly = get_local_id(1);
	tile[ly * TILE + lx] = in[y * n + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	float sum = 0.0f;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int tx = lx + dx, ty = ly + dy;
			if (tx >= 0 && tx < TILE && ty >= 0 && ty < TILE) {
				sum += tile[ty * TILE + tx];
			} else {
				sum += in[clamp_to(y + dy, n) * n + clamp_to(x + dx, n)];
			}
		}
	}
	out[y * n + x] = sum / 9.0f;
}
