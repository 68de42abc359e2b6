package clkernels

import (
	"fmt"
	"math/bits"

	"github.com/clmeter/clmeter/results"
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
	// PatternBlock: each work-group reads one contiguous block, its
	// work-items side by side (clpeak's local offset; the fastest read on
	// PoCL, which vectorizes across work-items).
	PatternBlock = "block"
	// PatternCopy: a grid-stride copy from one buffer to another.
	PatternCopy = "copy"
	// PatternRMW: a grid-stride read-modify-write of one buffer in place.
	PatternRMW = "rmw"
)

// BandwidthPatterns are the global-memory patterns of the peaks suite: two
// read-only ones, a copy and a read-modify-write. Each can be the fastest on
// some device (on a CPU a write also reads the line first), so the bandwidth
// peak is the best of them.
var BandwidthPatterns = []string{PatternStride, PatternChunk, PatternBlock, PatternCopy, PatternRMW}

// PatternTraffic names the kind of memory traffic of a bandwidth pattern:
// "read-only", "copy" or "read-modify-write".
func PatternTraffic(pattern string) string {
	switch pattern {
	case PatternCopy:
		return results.TrafficCopy
	case PatternRMW:
		return results.TrafficReadModifyWrite
	}
	return results.TrafficReadOnly
}

// VectorWidths are the vector widths the peaks suite sweeps.
var VectorWidths = []int{1, 2, 4, 8, 16}

// workItems is the global size of the bandwidth and compute kernels: 2048
// work-items per compute unit (as clpeak on a GPU), a multiple of the
// work-group size. CPUs take the same: on PoCL a work-group runs on one core
// as a loop, and eight work-groups of 256 a core keep every core busy to the
// end of a launch (docs/OWNCOST.md has the figures).
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
	case PatternStride, PatternChunk, PatternBlock:
		return bandwidthReadOnly(dev, pattern, width, bytes)
	case PatternCopy, PatternRMW:
		return streamingBenchmark(dev, pattern, width, bytes)
	}
	return nil, fmt.Errorf("bandwidth pattern %q: want stride, chunk, block, copy or rmw", pattern)
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
	if pattern == PatternBlock { // 16 vectors a work-item, whole work-groups
		global = int(nvec/16) - int(nvec/16)%local
		if global <= 0 {
			return nil, fmt.Errorf("bandwidth block float%d: %d bytes is less than 16 vectors a work-item of one work-group of %d", width, bytes, local)
		}
		nvec = int64(global) * 16
		bytes = nvec * vb
	}
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
			switch pattern {
			case PatternStride:
				for v := item; v < nvec; v += g {
					add(v)
				}
			case PatternBlock:
				l := int64(local)
				for k := int64(0); k < 16; k++ {
					add(item/l*l*16 + k*l + item%l)
				}
			default:
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
