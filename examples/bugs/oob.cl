// Planted bug: an out-of-bounds read. Each work-item averages its element with
// the next one, but the last work-item reads one element past the end of in.
__kernel void oob(__global const float *in, __global float *out, int n)
{
    int i = get_global_id(0);
    out[i] = 0.5f * (in[i] + in[i + 1]);
}
