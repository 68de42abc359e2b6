// Planted bug: a missing barrier. Each work-item stores its element in local
// memory and reads its neighbour's, with no barrier in between.
__kernel void shift(__global const float *in, __global float *out, __local float *tile)
{
    int i = get_global_id(0);
    int l = get_local_id(0);
    int size = get_local_size(0);
    tile[l] = in[i];
    out[i] = tile[(l + 1) % size];
}
