// The empty kernel of 'make bench': clmeter's per-launch overhead against rawlaunch.c.
__kernel void empty(void) {}
