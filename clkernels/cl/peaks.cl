// Device peaks: global memory bandwidth and compute.
// Build options: -DT=<scalar type> -DW=<vector width 1,2,4,8,16>, and for the
// compute kernels -DITERS=<loop trips> (each trip is 16 dependent mads per chain).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef USE_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifndef T
#define T float
#endif
#ifndef W
#define W 1
#endif
#ifndef ITERS
#define ITERS 1
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if W == 1
#define VT T
#define LOAD(i, p) ((p)[i])
#define STORE(v, i, p) ((p)[i] = (v))
#define HSUM(v) (v)
#else
#define VT CAT(T, W)
#define LOAD(i, p) CAT(vload, W)(i, p)
#define STORE(v, i, p) CAT(vstore, W)(v, i, p)
#endif
#if W == 2
#define HSUM(v) ((v).s0 + (v).s1)
#elif W == 4
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#elif W == 8
#define HSUM(v) (HSUM4((v).lo) + HSUM4((v).hi))
#elif W == 16
#define HSUM(v) (HSUM8((v).lo) + HSUM8((v).hi))
#endif
#define HSUM4(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#define HSUM8(v) (HSUM4((v).lo) + HSUM4((v).hi))

// bandwidth_stride: a grid-stride loop; in each trip consecutive work-items
// read consecutive vectors (coalesced on a GPU). nvec is the number of VT
// vectors in in. Each work-item writes the sum of what it read.
__kernel void bandwidth_stride(__global const VT *restrict in, __global T *restrict out, const ulong nvec) {
	const size_t gid = get_global_id(0), gsize = get_global_size(0);
	VT acc = (VT)(0);
	for (size_t i = gid; i < nvec; i += gsize)
		acc += in[i];
	out[gid] = HSUM(acc);
}

// bandwidth_chunk: each work-item reads its own contiguous chunk of
// ceil(nvec/gsize) vectors (good for CPU caches and prefetchers, uncoalesced
// on a GPU).
__kernel void bandwidth_chunk(__global const VT *restrict in, __global T *restrict out, const ulong nvec) {
	const size_t gid = get_global_id(0), gsize = get_global_size(0);
	const size_t per = (nvec + gsize - 1) / gsize;
	const size_t begin = gid * per;
	const size_t end = min((size_t)nvec, begin + per);
	VT acc = (VT)(0);
	for (size_t i = begin; i < end; i++)
		acc += in[i];
	out[gid] = HSUM(acc);
}

// bandwidth_block: each work-group reads its own block of 16 x its size
// vectors, its work-items side by side in 16 unrolled reads (clpeak's local
// offset): on a CPU whose compiler vectorizes across work-items (PoCL) each
// read is one contiguous vector load of the group; coalesced on a GPU. The
// grid covers 16 vectors a work-item (the host sizes it).
__kernel void bandwidth_block(__global const VT *restrict in, __global T *restrict out, const ulong nvec) {
	const size_t lsize = get_local_size(0);
	const size_t base = get_group_id(0) * lsize * 16 + get_local_id(0);
	VT acc = (VT)(0);
#pragma unroll
	for (int k = 0; k < 16; k++)
		acc += in[base + k * lsize];
	out[get_global_id(0)] = HSUM(acc);
}

// bandwidth_copy: out = in, one vector a work-item (BabelStream's shape: the
// fastest on GPUs and the one CPU compilers vectorize across work-items).
__kernel void bandwidth_copy(__global const VT *restrict in, __global VT *restrict out) {
	const size_t i = get_global_id(0);
	out[i] = in[i];
}

// bandwidth_rmw: data = data*a + b in place, one vector a work-item.
__kernel void bandwidth_rmw(__global VT *data, const T a, const T b) {
	const size_t i = get_global_id(0);
	data[i] = data[i] * a + b;
}

// Compute: CHAINS independent dependent chains per lane (2 on a GPU, where
// registers are scarce and other warps hide latency; on a CPU enough to fill
// the vector registers' FMA pipes, clkernels.ComputeChains), x = x*a + b, in
// vectors of W lanes whose starting values come from data (so no lane is a
// constant the compiler could fold). Chain c starts at x0 + c. With |a| < 1
// the chains converge (to b/(1-a)), so the result is bounded and checkable on
// the CPU. The chains' sum is stored back.
// -DCONTRACT (CPUs) writes the multiply-add as a contracted expression: the
// compiler fuses it into one FMA where the core has one and keeps a multiply
// and an add where it has not. PoCL 3.1 makes mad() a multiply and an add
// even on FMA cores (Zen 3: vmulpd + vaddpd, a 6-cycle step instead of 4; an
// Intel core issues both on its FMA ports, half the FMA rate). GPUs keep
// mad(), which their compilers already make one FMA.
#ifndef CHAINS
#define CHAINS 2
#endif
#if defined(MAD24)
#define MAD(x) x = mad24(x, av, bv)
#elif defined(INTEGER)
#define MAD(x) x = (x) * av + bv
#elif defined(CONTRACT)
#pragma OPENCL FP_CONTRACT ON
#define MAD(x) x = (x) * av + bv
#else
#define MAD(x) x = mad(x, av, bv)
#endif

__kernel void compute(__global T *data, const T a, const T b) {
	const size_t gid = get_global_id(0);
	const VT av = (VT)(a), bv = (VT)(b);
	const VT x = LOAD(gid, data);
	VT v[CHAINS];
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		v[c] = x + (VT)((T)c);
	for (int i = 0; i < ITERS; i++) {
#pragma unroll
		for (int s = 0; s < 16; s++) {
#pragma unroll
			for (int c = 0; c < CHAINS; c++)
				MAD(v[c]);
		}
	}
	VT sum = v[0];
#pragma unroll
	for (int c = 1; c < CHAINS; c++)
		sum += v[c];
	STORE(sum, gid, data);
}

// local_bandwidth: each work-item writes its slot of a tile of LWG vectors
// (LWG is the work-group size, a power of two), then reads 8 slots a trip for
// ITERS trips, consecutive items on consecutive slots (no bank conflicts).
// Slot values are multiples of 1/16 below 1, so every sum is exact.
#ifndef LWG
#define LWG 256
#endif
__kernel void local_bandwidth(__global T *restrict out) {
	__local VT tile[LWG];
	const uint lid = get_local_id(0);
	tile[lid] = (VT)((T)(lid % 16) * (T)0.0625);
	barrier(CLK_LOCAL_MEM_FENCE);
	VT acc = (VT)(0);
	for (uint i = 0; i < ITERS; i++) {
		const uint o = lid + i * 8;
		acc += tile[o % LWG] + tile[(o + 1) % LWG] + tile[(o + 2) % LWG] + tile[(o + 3) % LWG];
		acc += tile[(o + 4) % LWG] + tile[(o + 5) % LWG] + tile[(o + 6) % LWG] + tile[(o + 7) % LWG];
	}
	out[get_global_id(0)] = HSUM(acc);
}

// Image bandwidth: every texel of a 2D RGBA float image (a power-of-two width
// of 1 << wshift texels a row, texels in all) read once with read_imagef, in
// one of two walks (clkernels.ImageWalks; the suite races them, as drivers lay
// images out differently: row-major, or in 2D blocks on NVIDIA). Each
// work-item writes the sum of what it read. Coordinates are shifts and masks
// (a division per texel costs GPUs several percent of the bandwidth).
__constant sampler_t image_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

// image_bandwidth: a grid-stride walk over the row-major texel index,
// consecutive work-items on consecutive texels of a row.
__kernel void image_bandwidth(__read_only image2d_t img, __global float *restrict out, const uint wshift, const uint texels) {
	const uint gid = (uint)get_global_id(0), g = (uint)get_global_size(0);
	const uint mask = (1u << wshift) - 1u;
	float4 acc = (float4)(0);
	for (uint t = gid; t < texels; t += g)
		acc += read_imagef(img, image_sampler, (int2)((int)(t & mask), (int)(t >> wshift)));
	out[gid] = acc.x + acc.y + acc.z + acc.w;
}

// image_bandwidth_chunk: each work-item reads its own run of per texels in
// row-major order (a CPU's prefetchers follow one stream a work-item, where a
// grid stride jumps a whole grid between reads).
__kernel void image_bandwidth_chunk(__read_only image2d_t img, __global float *restrict out, const uint wshift, const uint texels, const uint per) {
	const uint gid = (uint)get_global_id(0);
	const uint mask = (1u << wshift) - 1u;
	const uint lo = gid * per, hi = min(lo + per, texels);
	float4 acc = (float4)(0);
	for (uint t = lo; t < hi; t++)
		acc += read_imagef(img, image_sampler, (int2)((int)(t & mask), (int)(t >> wshift)));
	out[gid] = acc.x + acc.y + acc.z + acc.w;
}

// image_bandwidth_tile: a 2D NDRange as wide as the image and rows rows tall
// (work-groups of 2D tiles), each work-item reading its column every rows
// rows: a work-group reads a 2D block of texels at a time.
__kernel void image_bandwidth_tile(__read_only image2d_t img, __global float *restrict out, const uint height) {
	const uint x = (uint)get_global_id(0), y0 = (uint)get_global_id(1), rows = (uint)get_global_size(1);
	float4 a0 = (float4)(0), a1 = a0;
	uint y = y0;
	for (; y + rows < height; y += 2u * rows) {
		a0 += read_imagef(img, image_sampler, (int2)((int)x, (int)y));
		a1 += read_imagef(img, image_sampler, (int2)((int)x, (int)(y + rows)));
	}
	if (y < height)
		a0 += read_imagef(img, image_sampler, (int2)((int)x, (int)y));
	const float4 acc = a0 + a1;
	out[y0 * get_global_size(0) + x] = acc.x + acc.y + acc.z + acc.w;
}
