// Helpers for blur.cl: clamp a coordinate into [0, n).
#ifndef BLUR_H
#define BLUR_H
inline int clamp_to(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }
#endif
