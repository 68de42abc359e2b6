// Planted bug: uninitialized local memory. Only the first half of the
// work-group fills the tile, but every work-item reads its own slot.
__kernel void halftile(__global const float *in, __global float *out, __local float *tile)
{
    int i = get_global_id(0);
    int l = get_local_id(0);
    if (l < get_local_size(0) / 2)
        tile[l] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = 2.0f * tile[l];
}
