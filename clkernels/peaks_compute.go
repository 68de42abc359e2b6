package clkernels

import (
	"fmt"
	"math"

	"github.com/clmeter/clmeter/runtime"
)

// Compute types the peaks suite sweeps: clpeak's categories. "int24" is int
// arithmetic through mad24 (clpeak's "fast 24-bit" integer compute).
var ComputeTypes = []string{"float", "double", "half", "int", "int24", "short", "char"}

// integerType reports whether a compute type counts IOP rather than FLOP.
func integerType(typ string) bool {
	switch typ {
	case "int", "int24", "short", "char":
		return true
	}
	return false
}

// intCoeffs returns the integer chain's a and b in the width of t: the
// 32-bit constants truncated, so that every width wraps the same way.
func intCoeffs(t elemType) (int64, int64) {
	bits := uint(64 - 8*t.Size)
	ia, ib := int64(computeIA), int64(computeIB)
	return ia << bits >> bits, ib << bits >> bits
}

// computeCoeffs are the chains' a and b: |a| < 1, so x = a*x + b converges to
// b/(1-a) = 1 and stays bounded; both are exact in every type.
const computeA, computeB = 0.9375, 0.0625

// integer chains wrap: x = x*ia + ib in 32-bit two's complement.
const computeIA, computeIB = 1664525, 1013904223

// ComputeSupported reports whether the device can run the compute kernel of typ.
func ComputeSupported(dev *runtime.Device, typ string) bool {
	switch typ {
	case "double":
		return dev.Info.FP64
	case "half":
		return dev.Info.FP16
	}
	return true
}

// ComputeIters is the loop trips of the compute kernel on a device: each trip is
// 16 dependent multiply-adds in each of ComputeChains chains per lane. Wider
// vectors take fewer trips so that a launch does about the same work at every
// width.
func ComputeIters(dev *runtime.Device, width int) int {
	// A launch should last far longer than the gap between two back-to-back
	// launches (about 1-2 us on NVIDIA, tens of us on PoCL), which would
	// otherwise count as idle time: the trips make a launch last a fraction of a
	// millisecond or more (docs/OWNCOST.md has the figures).
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

// ComputeBenchmark runs ComputeChains dependent multiply-add chains per lane
// in vectors of width lanes of typ (float, double, half with fp16, int).
// Operations count a multiply-add as two (FLOP, or IOP for int). The check
// recomputes a spread of lanes on the CPU. iters <= 0 takes ComputeIters.
func ComputeBenchmark(dev *runtime.Device, typ string, width, iters int) (*runtime.KernelBenchmark, error) {
	t, err := computeType(typ)
	if err != nil {
		return nil, err
	}
	mad24 := typ == "int24"
	if !ComputeSupported(dev, t.Name) {
		return nil, fmt.Errorf("device %s does not support %s (no %s extension)", dev.Info.Name, t.Name, map[string]string{"double": "cl_khr_fp64", "half": "cl_khr_fp16"}[t.Name])
	}
	if width < 1 || width > 16 || width&(width-1) != 0 {
		return nil, fmt.Errorf("vector width %d: want 1, 2, 4, 8 or 16", width)
	}
	if iters <= 0 {
		iters = ComputeIters(dev, width)
	}
	global, local := workItems(dev)
	lanes := int64(global) * int64(width)
	chains := ComputeChains(dev, t.Size*int64(width))
	opts := fmt.Sprintf("%s -DW=%d -DITERS=%d -DCHAINS=%d", t.options(), width, iters, chains)
	if isCPU(dev) && !integerType(t.Name) {
		opts += " -DCONTRACT" // one FMA a step where the core has it (peaks.cl)
	}
	a, b := computeA, computeB
	unit := "FLOP"
	if integerType(t.Name) {
		opts += " -DINTEGER"
		ia, ib := intCoeffs(t)
		a, b = float64(ia), float64(ib)
		unit = "IOP"
		if mad24 {
			// mad24 multiplies the low 24 bits: a 24-bit a and x kept in 24
			// bits by the chain itself would change the reference, so the
			// reference below follows mad24's definition.
			opts += " -DMAD24"
		}
	}
	kb := &runtime.KernelBenchmark{
		Device: dev, Source: source("peaks.cl"), Options: opts, Kernel: "compute",
		Global: []int{global}, Local: []int{local},
		Args: []runtime.Arg{
			{Kind: runtime.ArgBuffer, Name: "data", Bytes: lanes * t.Size, Output: true, Init: computeInit(t)},
			{Kind: runtime.ArgScalar, Name: "a", Value: t.scalar(a)},
			{Kind: runtime.ArgScalar, Name: "b", Value: t.scalar(b)},
		},
		// chains x 16 mads x iters per lane, 2 operations a mad.
		OpsPerLaunch: lanes * int64(chains) * 16 * int64(iters) * 2,
		OpsUnit:      unit,
	}
	kb.Check = computeCheck(t, typ, width, lanes, 16*iters, chains, mad24)
	return kb, nil
}

// computeType is the element type of a compute peak's typ (its names and
// aliases: fp32, int32, int16 ...).
func computeType(typ string) (elemType, error) {
	switch typ {
	case "float", "fp32":
		return tFloat, nil
	case "double", "fp64":
		return tDouble, nil
	case "half", "fp16":
		return tHalf, nil
	case "int", "int32", "int24":
		return tInt, nil
	case "short", "int16":
		return tShort, nil
	case "char", "int8":
		return tChar, nil
	}
	return elemType{}, fmt.Errorf("compute type %q: want float, double, half, int, int24, short or char", typ)
}

// computeCheck recomputes a spread of the lanes of a compute peak of t
// (typ at width, steps multiply-adds a chain) on the CPU.
func computeCheck(t elemType, typ string, width int, lanes int64, steps, chains int, mad24 bool) func(in, out map[int][]byte) error {
	return func(in, out map[int][]byte) error {
		for _, i := range spread(lanes, 17) {
			want := computeRef(t, t.get(in[0], i), steps, chains, mad24)
			got := t.get(out[0], i)
			if mad24 && got != want {
				// mad24 of values past 24 bits is the implementation's choice:
				// GPUs without a 24-bit multiplier do the full 32-bit one.
				want = computeRef(t, t.get(in[0], i), steps, chains, false)
			}
			tol := elemType{RelTol: 1e-4, AbsTol: 1e-4}
			switch t.Name {
			case "half":
				tol = elemType{RelTol: 1e-2, AbsTol: 1e-2}
			case "int", "short", "char":
				tol = elemType{}
			}
			if !near(got, want, tol) {
				return fmt.Errorf("compute %s%d: lane %d is %g, CPU reference %g", typ, width, i, got, want)
			}
		}
		return nil
	}
}

// computeInit fills the compute kernel's starting values: small, distinct per
// lane (ints: a hash of the index).
func computeInit(t elemType) func([]byte) {
	return func(b []byte) {
		n := int64(len(b)) / t.Size
		for i := int64(0); i < n; i++ {
			if integerType(t.Name) {
				t.put(b, i, float64(int32(uint32(i)*2654435761)>>(32-8*t.Size)))
				continue
			}
			t.put(b, i, float64(i%97)/97)
		}
	}
}

// computeRef is the CPU reference of one lane: chains c = 0..chains-1 start at
// x0 + c and take steps multiply-adds each, then their sum, in t's arithmetic
// (fused, rounded to t; integers wrap in t's width; mad24 multiplies the
// sign-extended low 24 bits).
func computeRef(t elemType, x0 float64, steps, chains int, mad24 bool) float64 {
	if integerType(t.Name) {
		ia, ib := intCoeffs(t)
		bits := uint(8 * t.Size)
		wrap := func(v int64) int64 { return v << (64 - bits) >> (64 - bits) }
		low24 := func(v int64) int64 { return v << 40 >> 40 }
		var sum int64
		for c := 0; c < chains; c++ {
			x := wrap(int64(x0) + int64(c))
			for i := 0; i < steps; i++ {
				if mad24 {
					x = wrap(low24(x)*low24(ia) + ib)
				} else {
					x = wrap(x*ia + ib)
				}
			}
			sum = wrap(sum + x)
		}
		return float64(sum)
	}
	var sum float64
	for c := 0; c < chains; c++ {
		x := t.round(x0 + float64(c))
		for i := 0; i < steps; i++ {
			x = t.round(math.FMA(x, computeA, computeB))
		}
		if c == 0 {
			sum = x
		} else {
			sum = t.round(sum + x)
		}
	}
	return sum
}
