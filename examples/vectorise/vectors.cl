// chains.cl's loop with vector types: each chain is a float16, sixteen lanes
// written out by the kernel itself, so its arithmetic is packed whatever the
// driver's vectoriser does across work-items (PoCL 5.0 left flat.cl scalar).
__kernel void vectors(__global float *out, float a, float b) {
    size_t i = get_global_id(0);
    float16 lanes = (float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    float16 x0 = i + lanes, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;
    for (int k = 0; k < 1024; k++) {
        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
        x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
    }
    float16 s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
    out[i] = s.s0 + s.s1 + s.s2 + s.s3 + s.s4 + s.s5 + s.s6 + s.s7 + s.s8 + s.s9 + s.sa + s.sb + s.sc + s.sd + s.se + s.sf;
}
