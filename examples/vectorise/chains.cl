// Eight independent FMA chains a work-item, in a loop: the work-items are
// independent, yet PoCL (3.1, 5.0) leaves this kernel scalar. LLVM's loop
// vectorizer takes only innermost loops, and the kernel's own loop leaves
// PoCL's loop over the work-items outside it. 'clmeter run' says so on a CPU
// (docs/WHY-SLOW.md); flat.cl is the same arithmetic without the loop, vectors.cl
// with float16 chains.
__kernel void chains(__global float *out, float a, float b) {
    size_t i = get_global_id(0);
    float x0 = i, x1 = i + 1, x2 = i + 2, x3 = i + 3, x4 = i + 4, x5 = i + 5, x6 = i + 6, x7 = i + 7;
    for (int k = 0; k < 1024; k++) {
        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
        x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
    }
    out[i] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
