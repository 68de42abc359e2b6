// imaging.cl: a small image-processing library of the kind an application
// ships as one OpenCL program: colour conversions, point operations,
// convolutions, order statistics, morphology, resampling and a histogram, with
// its helpers in include/. Every kernel takes (in, out, n): float4 RGBA images
// of n pixels, IMG_W wide (include/pixel.h). clmeter cache bench builds all of
// it and launches the first kernel by name.
#include "include/pixel.h"
#include "include/color.h"
#include "include/filters.h"

#define PIXEL(i, n) int i = get_global_id(0); if (i >= n) return; int x = i % IMG_W, y = i / IMG_W;

__kernel void adjust_brightness_contrast(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 p = in[i];
	p.xyz = clamp((p.xyz - 0.5f) * 1.2f + 0.5f + 0.05f, 0.0f, 1.0f);
	out[i] = p;
}

__kernel void bilateral3(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 c = in[i], sum = (float4)(0.0f);
	float wsum = 0.0f;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			float4 q = at(in, x + dx, y + dy, n);
			float d = luma(q) - luma(c);
			float w = native_exp(-(dx * dx + dy * dy) * 0.5f - d * d * 50.0f);
			sum += w * q;
			wsum += w;
		}
	out[i] = sum / wsum;
}

__kernel void dilate3(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 m = (float4)(0.0f);
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) m = fmax(m, at(in, x + dx, y + dy, n));
	out[i] = m;
}

__kernel void downsample2(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	int sx = (x * 2) % IMG_W, sy = y * 2 + (x * 2) / IMG_W;
	out[i] = 0.25f * (at(in, sx, sy, n) + at(in, sx + 1, sy, n) + at(in, sx, sy + 1, n) + at(in, sx + 1, sy + 1, n));
}

__kernel void erode3(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 m = (float4)(1.0f);
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) m = fmin(m, at(in, x + dx, y + dy, n));
	out[i] = m;
}

__kernel void gamma_correct(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 p = in[i];
	out[i] = (float4)(linear_to_srgb(srgb_to_linear(p.x) * 1.1f), linear_to_srgb(srgb_to_linear(p.y) * 1.1f),
	                  linear_to_srgb(srgb_to_linear(p.z) * 1.1f), p.w);
}

__kernel void gaussian5_h(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 s = (float4)(0.0f);
	for (int k = -2; k <= 2; k++) s += GAUSS5[k + 2] * at(in, x + k, y, n);
	out[i] = s;
}

__kernel void gaussian5_v(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 s = (float4)(0.0f);
	for (int k = -2; k <= 2; k++) s += GAUSS5[k + 2] * at(in, x, y + k, n);
	out[i] = s;
}

__kernel void grayscale(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float l = luma(in[i]);
	out[i] = (float4)(l, l, l, in[i].w);
}

__kernel void histogram_luma(__global const float4 *in, __global float4 *out, int n) {
	__local int bins[64];
	int l = get_local_id(0);
	for (int b = l; b < 64; b += get_local_size(0)) bins[b] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	int i = get_global_id(0);
	if (i < n) atomic_inc(&bins[clamp((int)(luma(in[i]) * 64.0f), 0, 63)]);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int b = l; b < 64; b += get_local_size(0))
		if (get_group_id(0) * 64 + b < n) out[get_group_id(0) * 64 + b] = (float4)((float)bins[b], 0.0f, 0.0f, 0.0f);
}

__kernel void hue_rotate(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 c = rgb_to_hsv(in[i]);
	c.x = fmod(c.x + 0.125f, 1.0f);
	c.y = clamp(c.y * 1.1f, 0.0f, 1.0f);
	out[i] = hsv_to_rgb(c);
}

__kernel void invert(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	out[i] = (float4)(1.0f - in[i].xyz, in[i].w);
}

__kernel void median3(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 v[9];
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) v[(dy + 1) * 3 + dx + 1] = at(in, x + dx, y + dy, n);
	out[i] = median9(v);
}

__kernel void sharpen(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	const float k[9] = {0.0f, -1.0f, 0.0f, -1.0f, 5.0f, -1.0f, 0.0f, -1.0f, 0.0f};
	out[i] = clamp(conv3(in, x, y, n, k), 0.0f, 1.0f);
}

__kernel void sobel(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	const float kx[9] = {-1.0f, 0.0f, 1.0f, -2.0f, 0.0f, 2.0f, -1.0f, 0.0f, 1.0f};
	const float ky[9] = {-1.0f, -2.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 2.0f, 1.0f};
	float gx = luma(conv3(in, x, y, n, kx)), gy = luma(conv3(in, x, y, n, ky));
	float g = hypot(gx, gy);
	out[i] = (float4)(g, atan2(gy, gx), 0.0f, 1.0f);
}

__kernel void threshold_otsu_like(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float local_mean = 0.0f;
	for (int dy = -2; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++) local_mean += luma(at(in, x + dx, y + dy, n));
	local_mean /= 25.0f;
	float l = luma(in[i]);
	out[i] = l > local_mean - 0.02f ? (float4)(1.0f) : (float4)(0.0f, 0.0f, 0.0f, 1.0f);
}

__kernel void unsharp_mask(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float4 blur = (float4)(0.0f);
	for (int dy = -2; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++) blur += GAUSS5[dy + 2] * GAUSS5[dx + 2] * at(in, x + dx, y + dy, n);
	float4 p = in[i];
	out[i] = clamp(p + 0.8f * (p - blur), 0.0f, 1.0f);
}

__kernel void upsample2_bilinear(__global const float4 *in, __global float4 *out, int n) {
	PIXEL(i, n);
	float fx = x * 0.5f, fy = y * 0.5f;
	int x0 = (int)fx, y0 = (int)fy;
	float ax = fx - x0, ay = fy - y0;
	float4 top = mix(at(in, x0, y0, n), at(in, x0 + 1, y0, n), ax);
	float4 bot = mix(at(in, x0, y0 + 1, n), at(in, x0 + 1, y0 + 1, n), ax);
	out[i] = mix(top, bot, ay);
}
