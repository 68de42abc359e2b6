// No bug: a work-group sum in local memory, with a barrier between every step.
__kernel void groupsum(__global const float *in, __global float *out, __local float *tile)
{
    int i = get_global_id(0);
    int l = get_local_id(0);
    tile[l] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s)
            tile[l] += tile[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tile[0];
}
