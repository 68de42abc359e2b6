package clkernels

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/spec"
)

// Bandwidth indexing patterns.
const (
	// PatternStride: a grid-stride loop, consecutive work-items read
	// consecutive vectors (coalesced on GPUs).
	PatternStride = "stride"
	// PatternChunk: each work-item reads one contiguous chunk.
	PatternChunk = "chunk"
	// PatternCopy: a grid-stride copy from one buffer to another.
	PatternCopy = "copy"
	// PatternRMW: a grid-stride read-modify-write of one buffer in place.
	PatternRMW = "rmw"
)

// BandwidthPatterns are the global-memory patterns of the peaks suite: two
// read-only ones, a copy and a read-modify-write. Each can be the fastest on
// some device (on a CPU a write also reads the line first), so the bandwidth
// peak is the best of them.
var BandwidthPatterns = []string{PatternStride, PatternChunk, PatternCopy, PatternRMW}

// PatternTraffic names the kind of memory traffic of a bandwidth pattern:
// "read-only", "copy" or "read-modify-write".
func PatternTraffic(pattern string) string {
	switch pattern {
	case PatternCopy:
		return "copy"
	case PatternRMW:
		return "read-modify-write"
	}
	return "read-only"
}

// VectorWidths are the vector widths the peaks suite sweeps.
var VectorWidths = []int{1, 2, 4, 8, 16}

// workItems is the global size of the bandwidth and compute kernels: 2048
// work-items per compute unit (as clpeak on a GPU), a multiple of the
// work-group size. CPUs take the same: on PoCL a work-group runs on one core
// as a loop, and eight work-groups of 256 a core keep every core busy to the
// end of a launch (a 16-core Xeon under PoCL 5: fp32 261 -> 700 GFLOP/s,
// fp64 158 -> 354, going from 256 to 2048 a core; 4096 gave no more).
func workItems(dev *runtime.Device) (global, local int) {
	cu := max(dev.Info.ComputeUnits, 1)
	local = 256
	if m := dev.Info.MaxWorkGroupSize; m > 0 && m < local {
		local = 1 << (bits.Len(uint(m)) - 1)
	}
	global = cu * 2048
	global -= global % local
	return max(global, local), local
}

// BandwidthBenchmark moves a buffer of bytes of random floats in vectors of
// width lanes (float, float2 ... float16) with the given pattern. The read-only
// patterns (stride, chunk) have each work-item write one float (its sum), and
// both the reads and those writes count as bytes moved; the check compares a
// spread of work-items' sums with the CPU's. Copy reads the buffer and writes
// another as large; read-modify-write rewrites it in place; both count 2*bytes
// and check a spread of elements.
func BandwidthBenchmark(dev *runtime.Device, pattern string, width int, bytes int64) (*runtime.KernelBenchmark, error) {
	switch pattern {
	case PatternStride, PatternChunk:
		return bandwidthReadOnly(dev, pattern, width, bytes)
	case PatternCopy, PatternRMW:
		return streamingBenchmark(dev, pattern, width, bytes)
	}
	return nil, fmt.Errorf("bandwidth pattern %q: want stride, chunk, copy or rmw", pattern)
}

// bandwidthReadOnly is a read-only bandwidth benchmark (stride or chunk).
func bandwidthReadOnly(dev *runtime.Device, pattern string, width int, bytes int64) (*runtime.KernelBenchmark, error) {
	if width < 1 || width > 16 || width&(width-1) != 0 {
		return nil, fmt.Errorf("vector width %d: want 1, 2, 4, 8 or 16", width)
	}
	vb := int64(4 * width)
	bytes -= bytes % vb
	if bytes <= 0 {
		return nil, fmt.Errorf("bandwidth buffer of %d bytes is smaller than one float%d", bytes, width)
	}
	if err := fits(dev, bytes, 1); err != nil {
		return nil, err
	}
	global, local := workItems(dev)
	nvec := bytes / vb
	if int64(global) > nvec {
		global = int(nvec) - int(nvec)%local
		if global <= 0 {
			global, local = int(nvec), 1
		}
	}
	t := tFloat
	fill := newPattern(t, 7)
	kb := &runtime.KernelBenchmark{
		Device: dev, Source: source("peaks.cl"), Options: fmt.Sprintf("-DT=float -DW=%d", width),
		Kernel: "bandwidth_" + pattern, Global: []int{global}, Local: []int{local},
		Args: []runtime.Arg{
			{Kind: runtime.ArgBuffer, Name: "in", Bytes: bytes, Fill: fill.fill},
			{Kind: runtime.ArgBuffer, Name: "out", Bytes: int64(global) * 4, Output: true},
			{Kind: runtime.ArgScalar, Name: "nvec", Value: uint64(nvec)},
		},
		BytesPerLaunch: bytes + int64(global)*4,
	}
	w := int64(width)
	g := int64(global)
	kb.Check = func(in, out map[int][]byte) error {
		// The work-item's vector indexes; every lane of them is summed.
		sumOf := func(item int64) float64 {
			var s float64
			add := func(v int64) {
				for l := int64(0); l < w; l++ {
					s += fill.at(v*w + l)
				}
			}
			if pattern == PatternStride {
				for v := item; v < nvec; v += g {
					add(v)
				}
			} else {
				per := (nvec + g - 1) / g
				for v := item * per; v < min(nvec, (item+1)*per); v++ {
					add(v)
				}
			}
			return s
		}
		for _, item := range spread(g, 33) {
			want := sumOf(item)
			got := t.get(out[1], item)
			if !(spec.Tolerance{Abs: 1e-3, Rel: 1e-4}).Within(got, want) {
				return fmt.Errorf("bandwidth %s float%d: work-item %d summed %g, CPU %g", pattern, width, item, got, want)
			}
		}
		return nil
	}
	return kb, nil
}

// streamingBenchmark is the copy or read-modify-write bandwidth benchmark: one
// vector a work-item.
func streamingBenchmark(dev *runtime.Device, pattern string, width int, bytes int64) (*runtime.KernelBenchmark, error) {
	if width < 1 || width > 16 || width&(width-1) != 0 {
		return nil, fmt.Errorf("vector width %d: want 1, 2, 4, 8 or 16", width)
	}
	vb := int64(4 * width)
	bytes -= bytes % vb
	if bytes <= 0 {
		return nil, fmt.Errorf("bandwidth buffer of %d bytes is smaller than one float%d", bytes, width)
	}
	buffers := 1
	if pattern == PatternCopy {
		buffers = 2
	}
	if err := fits(dev, bytes, buffers); err != nil {
		return nil, err
	}
	// One vector a work-item: the buffer is cut to a whole number of
	// work-groups of 256 (or the device's largest) vectors.
	_, local := workItems(dev)
	nvec := bytes / vb
	nvec -= nvec % int64(local)
	if nvec <= 0 {
		return nil, fmt.Errorf("bandwidth buffer of %d bytes is smaller than one work-group of float%d", bytes, width)
	}
	bytes = nvec * vb
	t := tFloat
	kb := &runtime.KernelBenchmark{
		Device: dev, Source: source("peaks.cl"), Options: fmt.Sprintf("-DT=float -DW=%d", width),
		Kernel: "bandwidth_" + pattern, Global: []int{int(nvec)}, Local: []int{local},
		BytesPerLaunch: 2 * bytes,
	}
	elems := bytes / 4
	if pattern == PatternCopy {
		fill := newPattern(t, 11)
		kb.Args = []runtime.Arg{
			{Kind: runtime.ArgBuffer, Name: "in", Bytes: bytes, Fill: fill.fill},
			{Kind: runtime.ArgBuffer, Name: "out", Bytes: bytes, Output: true},
		}
		kb.Check = func(in, out map[int][]byte) error {
			for _, i := range spread(elems, 65) {
				if got, want := t.get(out[1], i), fill.at(i); got != want {
					return fmt.Errorf("bandwidth copy float%d: element %d is %g, the input %g", width, i, got, want)
				}
			}
			return nil
		}
		return kb, nil
	}
	fill := newPattern(t, 13)
	kb.Args = []runtime.Arg{
		{Kind: runtime.ArgBuffer, Name: "data", Bytes: bytes, Output: true, Fill: fill.fill},
		{Kind: runtime.ArgScalar, Name: "a", Value: float32(computeA)},
		{Kind: runtime.ArgScalar, Name: "b", Value: float32(computeB)},
	}
	kb.Check = func(in, out map[int][]byte) error {
		for _, i := range spread(elems, 65) {
			want := fill.at(i)*computeA + computeB
			if got := t.get(out[0], i); !(spec.Tolerance{Abs: 1e-6, Rel: 1e-6}).Within(got, want) {
				return fmt.Errorf("bandwidth rmw float%d: element %d is %g, CPU %g", width, i, got, want)
			}
		}
		return nil
	}
	return kb, nil
}

// spread returns up to k indexes spread over [0, n), first and last included.
func spread(n int64, k int) []int64 {
	if n <= int64(k) {
		s := make([]int64, n)
		for i := range s {
			s[i] = int64(i)
		}
		return s
	}
	s := make([]int64, k)
	for i := range s {
		s[i] = int64(i) * (n - 1) / int64(k-1)
	}
	return s
}

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
	// otherwise count as idle time: 2048 trips make a launch last about 0.5 ms
	// on an H100; 256 trips of 8-16 chains 0.1-1 ms on a CPU core.
	base := 2048
	if isCPU(dev) {
		base = 256
	}
	return max(base/width, 4)
}

// ComputeChains is the number of independent chains per lane for vectors of
// vectorBytes: 2 on a GPU (other warps hide the latency; registers are
// scarce); on a CPU, which has no other threads to switch to, enough to cover
// the multiply-add latency of two FMA pipes: 16 where a vector fits one
// AVX-512 register (32 of them: 16 chains leave room for the coefficients),
// else 8 (seen on a Zen 5 core under PoCL: float16 reaches 293 GFLOP/s with 8
// chains, 459 with 16; double16, two registers a vector, is best at 8).
func ComputeChains(dev *runtime.Device, vectorBytes int64) int {
	if !isCPU(dev) {
		return 2
	}
	if reg := int64(dev.Info.NativeVectorWidthFloat) * 4; reg >= 64 && vectorBytes <= reg {
		return 16
	}
	return 8
}

// ComputeBenchmark runs two dependent multiply-add chains per lane in vectors
// of width lanes of typ (float, double, half with fp16, int). Operations count
// a multiply-add as two (FLOP, or IOP for int). The check recomputes a spread
// of lanes on the CPU. iters <= 0 takes ComputeIters.
func ComputeBenchmark(dev *runtime.Device, typ string, width, iters int) (*runtime.KernelBenchmark, error) {
	var t elemType
	switch typ {
	case "float", "fp32":
		t = tFloat
	case "double", "fp64":
		t = tDouble
	case "half", "fp16":
		t = tHalf
	case "int", "int32", "int24":
		t = tInt
	case "short", "int16":
		t = tShort
	case "char", "int8":
		t = tChar
	default:
		return nil, fmt.Errorf("compute type %q: want float, double, half, int, int24, short or char", typ)
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
	steps := 16 * iters
	kb.Check = func(in, out map[int][]byte) error {
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
	return kb, nil
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

// LocalBandwidthBenchmark reads local (work-group shared) memory: every
// work-item fills its slot of a tile of vectors of width floats, then reads
// 8 slots a trip for iters trips (iters <= 0: 256 on a CPU, 1024 on a GPU),
// consecutive items on consecutive slots. Bytes count the reads only. The
// check recomputes a spread of work-items' sums.
func LocalBandwidthBenchmark(dev *runtime.Device, width, iters int) (*runtime.KernelBenchmark, error) {
	if width < 1 || width > 16 || width&(width-1) != 0 {
		return nil, fmt.Errorf("vector width %d: want 1, 2, 4, 8 or 16", width)
	}
	if iters <= 0 {
		iters = 1024
		if isCPU(dev) {
			iters = 256
		}
	}
	global, local := workItems(dev)
	if lm := dev.Info.LocalMemBytes; lm > 0 {
		for local > 1 && int64(local*4*width) > lm {
			local /= 2
		}
	}
	global -= global % local
	vb := int64(4 * width)
	kb := &runtime.KernelBenchmark{
		Device: dev, Source: source("peaks.cl"), Options: fmt.Sprintf("-DT=float -DW=%d -DITERS=%d -DLWG=%d", width, iters, local),
		Kernel: "local_bandwidth", Global: []int{global}, Local: []int{local},
		Args: []runtime.Arg{
			{Kind: runtime.ArgBuffer, Name: "out", Bytes: int64(global) * 4, Output: true},
		},
		BytesPerLaunch: int64(global) * int64(iters) * 8 * vb,
	}
	w, l := float64(width), int64(local)
	kb.Check = func(in, out map[int][]byte) error {
		for _, item := range spread(int64(global), 33) {
			lid := item % l
			var want float64
			for i := int64(0); i < int64(iters); i++ {
				for j := int64(0); j < 8; j++ {
					want += float64((lid+i*8+j)%l%16) * 0.0625
				}
			}
			want *= w
			if got := tFloat.get(out[0], item); got != want {
				return fmt.Errorf("local bandwidth float%d: work-item %d summed %g, CPU %g", width, item, got, want)
			}
		}
		return nil
	}
	return kb, nil
}
