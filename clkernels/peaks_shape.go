package clkernels

import "github.com/clmeter/clmeter/runtime"

// The compute kernel's shape on a device: loop trips and chains per lane.

// ComputeIters is the loop trips of the compute kernel on a device: each trip is
// 16 dependent multiply-adds in each of ComputeChains chains per lane. Wider
// vectors take fewer trips so that a launch does about the same work at every
// width.
func ComputeIters(dev *runtime.Device, width int) int {
	// A launch should last far longer than the gap between two back-to-back
	// launches (about 1-2 us on NVIDIA, tens of us on PoCL), which would
	// otherwise count as idle time: 2048 trips make a launch last about 0.5 ms
	// on an H100; 256 trips of 2-16 chains 0.1-1 ms on a CPU core.
	base := 2048
	if isCPU(dev) {
		base = 256
	}
	return max(base/width, 4)
}

// ComputeChains is the number of independent chains per lane for vectors of
// vectorBytes: 2 on a GPU (other warps hide the latency; registers are
// scarce). A CPU core has no other threads to switch to: its chains must cover
// two FMA pipes' latency (8 in flight) without spilling, so they take 16
// vector registers where it has 32 (AVX-512: a native float vector of 64
// bytes), else 8, a vector wider than a register taking several. Seen under
// PoCL: Zen 5 float16 293 GFLOP/s with 8 chains, 459 with 16; Zen 3 (AVX2)
// double4 x 8, double8 x 4 and double16 x 2 all 50 GFLOP/s, double8 x 8 and
// double16 x 8 spill (25 and 6).
func ComputeChains(dev *runtime.Device, vectorBytes int64) int {
	if !isCPU(dev) {
		return 2
	}
	reg, inFlight := int64(dev.Info.NativeVectorWidthFloat)*4, int64(8)
	if reg >= 64 {
		inFlight = 16
	} else if reg <= 0 {
		reg = 32
	}
	return int(max(inFlight/max((vectorBytes+reg-1)/reg, 1), 1))
}
