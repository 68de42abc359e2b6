// color.h: colour-space helpers (Rec. 709 luma, HSV, sRGB transfer).
#ifndef IMAGING_COLOR_H
#define IMAGING_COLOR_H

inline float luma(float4 p) { return dot(p.xyz, (float3)(0.2126f, 0.7152f, 0.0722f)); }

inline float srgb_to_linear(float c) {
	return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);
}

inline float linear_to_srgb(float c) {
	return c <= 0.0031308f ? 12.92f * c : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}

inline float4 rgb_to_hsv(float4 p) {
	float mx = fmax(p.x, fmax(p.y, p.z)), mn = fmin(p.x, fmin(p.y, p.z)), d = mx - mn;
	float h = 0.0f;
	if (d > 1e-6f) {
		if (mx == p.x) h = fmod((p.y - p.z) / d, 6.0f);
		else if (mx == p.y) h = (p.z - p.x) / d + 2.0f;
		else h = (p.x - p.y) / d + 4.0f;
		h /= 6.0f;
		if (h < 0.0f) h += 1.0f;
	}
	return (float4)(h, mx > 0.0f ? d / mx : 0.0f, mx, p.w);
}

inline float4 hsv_to_rgb(float4 c) {
	float h = c.x * 6.0f, s = c.y, v = c.z;
	int i = (int)floor(h) % 6;
	float f = h - floor(h), p = v * (1.0f - s), q = v * (1.0f - s * f), t = v * (1.0f - s * (1.0f - f));
	switch (i) {
	case 0: return (float4)(v, t, p, c.w);
	case 1: return (float4)(q, v, p, c.w);
	case 2: return (float4)(p, v, t, c.w);
	case 3: return (float4)(p, q, v, c.w);
	case 4: return (float4)(t, p, v, c.w);
	default: return (float4)(v, p, q, c.w);
	}
}
#endif
