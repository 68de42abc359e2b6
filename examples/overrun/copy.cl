// copy reads and writes one float per work-item with no bounds check: launched with a
// global size past the buffers' length it writes past their end (docs/COMMANDS.md).
__kernel void copy(__global const float *in, __global float *out) {
    size_t i = get_global_id(0);
    out[i] = in[i];
}
