// filters.h: convolution and order-statistic helpers over 3x3 and 5x5 windows.
#ifndef IMAGING_FILTERS_H
#define IMAGING_FILTERS_H
#include "pixel.h"

__constant float GAUSS5[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

inline float4 conv3(__global const float4 *img, int x, int y, int n, const float k[9]) {
	float4 s = (float4)(0.0f);
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			s += k[(dy + 1) * 3 + dx + 1] * at(img, x + dx, y + dy, n);
	return s;
}

// sort2 orders a pair, the step of the sorting network below.
#define sort2(a, b) { float4 lo = fmin(a, b), hi = fmax(a, b); a = lo; b = hi; }

// median9 is the per-channel median of nine values (a 19-step network).
inline float4 median9(float4 v[9]) {
	sort2(v[1], v[2]); sort2(v[4], v[5]); sort2(v[7], v[8]);
	sort2(v[0], v[1]); sort2(v[3], v[4]); sort2(v[6], v[7]);
	sort2(v[1], v[2]); sort2(v[4], v[5]); sort2(v[7], v[8]);
	sort2(v[0], v[3]); sort2(v[5], v[8]); sort2(v[4], v[7]);
	sort2(v[3], v[6]); sort2(v[1], v[4]); sort2(v[2], v[5]);
	sort2(v[4], v[7]); sort2(v[4], v[2]); sort2(v[6], v[4]);
	sort2(v[4], v[2]);
	return v[4];
}
#endif
