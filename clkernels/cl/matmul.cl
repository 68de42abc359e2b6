// Matrix multiplication C[M x N] = A[M x W] . B[W x N], float, row-major
// (the coldstart and matmul experiments). TILE is the tiled kernel's square
// work-group side (-DTILE=16 by default).
#ifndef TILE
#define TILE 16
#endif

// matmul_naive: one work-item per element of C, reading a row of A and a
// column of B straight from global memory. Global size {N, M}.
__kernel void matmul_naive(__global const float *restrict A, __global const float *restrict B,
                           __global float *restrict C, const int M, const int N, const int W) {
	const int col = get_global_id(0);
	const int row = get_global_id(1);
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < W; k++)
		acc += A[row * W + k] * B[k * N + col];
	C[row * N + col] = acc;
}

// matmul_tiled: each TILE x TILE work-group stages a tile of A and of B in
// local memory, so each global element is read W/TILE times fewer. Global size
// {N, M} rounded up to multiples of TILE; local size {TILE, TILE}.
__kernel void matmul_tiled(__global const float *restrict A, __global const float *restrict B,
                           __global float *restrict C, const int M, const int N, const int W) {
	__local float As[TILE][TILE];
	__local float Bs[TILE][TILE];
	const int col = get_global_id(0);
	const int row = get_global_id(1);
	const int lc = get_local_id(0);
	const int lr = get_local_id(1);
	float acc = 0.0f;
	for (int t = 0; t < W; t += TILE) {
		const int ac = t + lc;
		const int br = t + lr;
		As[lr][lc] = (row < M && ac < W) ? A[row * W + ac] : 0.0f;
		Bs[lr][lc] = (br < W && col < N) ? B[br * N + col] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < TILE; k++)
			acc += As[lr][k] * Bs[k][lc];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (row < M && col < N)
		C[row * N + col] = acc;
}
