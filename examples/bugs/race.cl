// Planted bug: a write race between work-items. Pairs of work-items write
// different values to the same element of out.
__kernel void race(__global const float *in, __global float *out, int n)
{
    int i = get_global_id(0);
    out[i / 2] = in[i];
}
