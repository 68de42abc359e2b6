// Tiled tree reduction (sum of floats), the reduction experiment. Each
// work-group of TILE items (-DTILE=512, a power of two) sums its tile in local
// memory and writes one value to out[group]: that write is the compaction step,
// so the next pass reduces a dense array TILE times shorter. Items past n read 0.
#ifndef TILE
#define TILE 512
#endif

// reduce_divergent: the active items at step s are those with tid % (2*s) == 0,
// scattered over every wavefront / warp, so most of them diverge.
__kernel void reduce_divergent(__global const float *restrict in, __global float *restrict out, const uint n) {
	__local float tile[TILE];
	const uint tid = get_local_id(0);
	const size_t gid = get_global_id(0);
	tile[tid] = gid < n ? in[gid] : 0.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = 1; s < TILE; s *= 2) {
		if (tid % (2 * s) == 0)
			tile[tid] += tile[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		out[get_group_id(0)] = tile[0];
}

// reduce_nondivergent: the same sums, but item tid works on index = 2*s*tid,
// so the active items are the first TILE/(2s), contiguous: whole wavefronts
// idle instead of diverging.
__kernel void reduce_nondivergent(__global const float *restrict in, __global float *restrict out, const uint n) {
	__local float tile[TILE];
	const uint tid = get_local_id(0);
	const size_t gid = get_global_id(0);
	tile[tid] = gid < n ? in[gid] : 0.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = 1; s < TILE; s *= 2) {
		const uint index = 2 * s * tid;
		if (index < TILE)
			tile[index] += tile[index + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		out[get_group_id(0)] = tile[0];
}

// reduce_sequential: sequential addressing. The stride halves from TILE/2 and
// the active items tid < s add tile[tid + s]: they are contiguous (no
// divergence inside a busy warp) and read consecutive words (consecutive
// local-memory banks, no bank conflicts).
__kernel void reduce_sequential(__global const float *restrict in, __global float *restrict out, const uint n) {
	__local float tile[TILE];
	const uint tid = get_local_id(0);
	const size_t gid = get_global_id(0);
	tile[tid] = gid < n ? in[gid] : 0.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = TILE / 2; s > 0; s >>= 1) {
		if (tid < s)
			tile[tid] += tile[tid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (tid == 0)
		out[get_group_id(0)] = tile[0];
}
