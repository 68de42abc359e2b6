// pixel.h: image layout shared by the imaging kernels. Images are IMG_W pixels
// wide, stored row by row as float4 RGBA in [0, 1]; a kernel gets the pixel
// count n and derives the height.
#ifndef IMAGING_PIXEL_H
#define IMAGING_PIXEL_H
#ifndef IMG_W
#define IMG_W 256
#endif

inline int img_h(int n) { return n / IMG_W; }
inline int clamp_i(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// at reads pixel (x, y), clamping to the image's edge.
inline float4 at(__global const float4 *img, int x, int y, int n) {
	int h = img_h(n);
	return img[clamp_i(y, 0, h - 1) * IMG_W + clamp_i(x, 0, IMG_W - 1)];
}
#endif
