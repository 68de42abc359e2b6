// An empty kernel, for launch overhead.
__kernel void empty(void) {}
