// chains.cl's eight FMA chains a work-item without a loop of its own (128
// steps written out): PoCL's loop over the work-items is then the innermost
// loop, and LLVM vectorises it (packed FMA across work-items).
#define STEP x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b); \
             x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
#define S8 STEP STEP STEP STEP STEP STEP STEP STEP
#define S64 S8 S8 S8 S8 S8 S8 S8 S8
__kernel void flat(__global float *out, float a, float b) {
    size_t i = get_global_id(0);
    float x0 = i, x1 = i + 1, x2 = i + 2, x3 = i + 3, x4 = i + 4, x5 = i + 5, x6 = i + 6, x7 = i + 7;
    S64 S64
    out[i] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
