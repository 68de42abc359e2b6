package clkernels

import (
	"context"
	"fmt"
	"math"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// Stream kernels (BabelStream's five, plus saxpy for 'clmeter run').
const (
	StreamCopy  = "copy"
	StreamScale = "scale"
	StreamAdd   = "add"
	StreamTriad = "triad"
	StreamDot   = "dot"
	StreamSaxpy = "saxpy"
)

// StreamKernels are the BabelStream kernels in the order the streams suite runs.
var StreamKernels = []string{StreamCopy, StreamScale, StreamAdd, StreamTriad, StreamDot}

// streamScalar is the scalar of scale, triad and saxpy (BabelStream's 0.4).
const streamScalar = 0.4

func init() {
	for _, k := range []struct{ name, desc string }{
		{StreamSaxpy, "y = a*x + y over float arrays (3 accesses, 2 FLOP an element)"},
		{StreamCopy, "b = a over float arrays (BabelStream Copy; 2 accesses an element)"},
		{StreamScale, "b = s*c over float arrays (BabelStream Mul)"},
		{StreamAdd, "c = a + b over float arrays (BabelStream Add)"},
		{StreamTriad, "a = b + s*c over float arrays (BabelStream Triad)"},
		{StreamDot, "sum of a[i]*b[i] over float arrays (BabelStream Dot), by work-group partial sums"},
	} {
		kernel := k.name
		registerBuiltin(Builtin{
			Name: kernel, Description: k.desc, Type: "float",
			make: func(dev *runtime.Device, n int64) (*runtime.KernelBenchmark, error) {
				return StreamBenchmark(dev, kernel, "float", n)
			},
			defaultN: func(ctx context.Context, dev *runtime.Device) (int64, error) {
				return StreamElems(ctx, dev, tFloat.Size)
			},
		})
		registerBuiltin(Builtin{
			Name: kernel + "-double", Description: k.desc + " (double)", Type: "double",
			make: func(dev *runtime.Device, n int64) (*runtime.KernelBenchmark, error) {
				return StreamBenchmark(dev, kernel, "double", n)
			},
			defaultN: func(ctx context.Context, dev *runtime.Device) (int64, error) {
				return StreamElems(ctx, dev, tDouble.Size)
			},
		})
	}
}

// typeByName returns the element type of a type name.
func typeByName(name string) (elemType, error) {
	switch name {
	case "float", "fp32":
		return tFloat, nil
	case "double", "fp64":
		return tDouble, nil
	case "int", "int32":
		return tInt, nil
	}
	return elemType{}, fmt.Errorf("unknown element type %q: want float or double", name)
}

// needFP64 fails when t is double and the device has no fp64.
func needFP64(dev *runtime.Device, t elemType) error {
	if t.Name == "double" && !dev.Info.FP64 {
		return fmt.Errorf("device %s has no fp64 (cl_khr_fp64): double kernels cannot run", dev.Info.Name)
	}
	return nil
}

// fits fails when arrays buffers of bytes each exceed the device's allocation or
// memory limits (half of global memory at most, leaving room for the driver).
func fits(dev *runtime.Device, bytes int64, arrays int) error {
	in := dev.Info
	if bytes > math.MaxInt64/int64(max(arrays, 1)) {
		return fmt.Errorf("%d buffers of %d bytes overflow a 64-bit byte count: use a smaller size", arrays, bytes)
	}
	if in.MaxAllocBytes > 0 && bytes > in.MaxAllocBytes {
		return fmt.Errorf("a buffer of %d bytes is over the device's largest allocation of %d bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE): use a smaller size", bytes, in.MaxAllocBytes)
	}
	if in.GlobalMemBytes > 0 && bytes*int64(arrays) > in.GlobalMemBytes*3/4 {
		return fmt.Errorf("%d buffers of %d bytes are over three quarters of the device's %d bytes of global memory: use a smaller size", arrays, bytes, in.GlobalMemBytes)
	}
	return nil
}

// isCPU reports whether the device is a CPU (PoCL and the like).
func isCPU(dev *runtime.Device) bool { return dev.Info.TypeName == "CPU" || dev.Info.Type&2 != 0 }

// StreamElems is the default stream array size in elements of elemBytes on
// dev: each array half the working set at which memory bandwidth plateaus
// (WorkingSet), three of them inside the memory budget.
func StreamElems(ctx context.Context, dev *runtime.Device, elemBytes int64) (int64, error) {
	b := Budget(dev, 0)
	ws, err := WorkingSet(ctx, dev, b)
	if err != nil {
		return 0, err
	}
	n := min(ws.Memory.Bytes/2, b.Buffer(3)) / elemBytes
	return max(n&^1023, 1024), nil
}

// capElems halves n until arrays buffers of n elements fit the device.
func capElems(dev *runtime.Device, n, elemBytes int64, arrays int) int64 {
	in := dev.Info
	for n > 1024 {
		b := n * elemBytes
		if (in.MaxAllocBytes <= 0 || b <= in.MaxAllocBytes) && (in.GlobalMemBytes <= 0 || b*int64(arrays) <= in.GlobalMemBytes/2) {
			break
		}
		n /= 2
	}
	return n
}

// localFor picks the work-group size of an element-wise kernel over n items:
// 256 when it divides n and the device allows it, else the driver's choice.
func localFor(dev *runtime.Device, n int64) []int {
	wg := 256
	if dev.Info.MaxWorkGroupSize > 0 && dev.Info.MaxWorkGroupSize < wg {
		return nil
	}
	if n%int64(wg) != 0 {
		return nil
	}
	return []int{wg}
}

// StreamBenchmark makes one stream kernel (copy, scale, add, triad, dot or
// saxpy) over n elements of typ ("float" or "double"), validated against a CPU
// reference. Bytes per launch count every array element read or written once.
func StreamBenchmark(dev *runtime.Device, kernel, typ string, n int64) (*runtime.KernelBenchmark, error) {
	return streamBenchmark(dev, kernel, typ, n, false)
}

// StreamBenchmarkFilled is StreamBenchmark with its input arrays filled on the
// device with a repeating pattern, as BabelStream fills its arrays: no host
// copy of an input is made or kept (the suites' large arrays), and the check
// still knows every element.
func StreamBenchmarkFilled(dev *runtime.Device, kernel, typ string, n int64) (*runtime.KernelBenchmark, error) {
	return streamBenchmark(dev, kernel, typ, n, true)
}

func streamBenchmark(dev *runtime.Device, kernel, typ string, n int64, filled bool) (*runtime.KernelBenchmark, error) {
	t, err := typeByName(typ)
	if err != nil {
		return nil, err
	}
	if t.Name == "int" {
		return nil, fmt.Errorf("stream kernels take float or double, not %s", typ)
	}
	if err := needFP64(dev, t); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, fmt.Errorf("%s: size must be positive, got %d", kernel, n)
	}
	if n > math.MaxInt64/t.Size {
		return nil, fmt.Errorf("%s: size %d of %s elements overflows a 64-bit byte count (%d bytes each): use a smaller size", kernel, n, t.Name, t.Size)
	}
	bytes := n * t.Size
	arrays := map[string]int{StreamCopy: 2, StreamScale: 2, StreamAdd: 3, StreamTriad: 3, StreamDot: 2, StreamSaxpy: 2}[kernel]
	if arrays == 0 {
		return nil, fmt.Errorf("no stream kernel %q: want one of copy, scale, add, triad, dot, saxpy", kernel)
	}
	if err := fits(dev, bytes, arrays); err != nil {
		return nil, fmt.Errorf("%s over %d %s elements: %w", kernel, n, t.Name, err)
	}
	items := n
	opts := t.options()
	if sw := streamWidth(dev, t, n); sw > 1 && kernel != StreamDot {
		items = n / int64(sw)
		opts += fmt.Sprintf(" -DSW=%d", sw)
	}
	kb := &runtime.KernelBenchmark{
		Device: dev, Source: source("stream.cl"), Options: opts, Kernel: kernel,
		Global: []int{int(items)}, Local: localFor(dev, items), OpsUnit: "FLOP", Traffic: StreamTraffic(kernel),
	}
	a := &streamArgs{t: t, n: n, bytes: bytes, filled: filled, s: t.round(streamScalar), what: fmt.Sprintf("%s (%s)", kernel, t.Name),
		vals: map[int]inputVals{}}
	if kernel == StreamDot {
		a.dot(dev, kb)
	} else {
		a.elementWise(kb, kernel)
	}
	return kb, nil
}

// streamArgs makes the arguments and the check of a stream kernel over n
// elements of t (bytes each array), its inputs filled with a pattern on the
// device (filled) or from a seed.
type streamArgs struct {
	t        elemType
	n, bytes int64
	filled   bool
	// s is the kernels' scalar; what names the kernel in a check's error.
	s    float64
	what string
	// vals[i] gives input argument i's elements (regenerated from its seed
	// or its pattern): the checks read no host copy of an input.
	vals map[int]inputVals
	// next is the index of the next argument in.
	next int
}

// in is the next argument, an input array named name filled from seed.
func (a *streamArgs) in(name string, seed uint64) runtime.Arg {
	i, t := a.next, a.t
	a.next++
	if a.filled {
		p := newPattern(t, seed)
		a.vals[i] = inputVals{t: t, pat: &p}
		return runtime.Arg{Kind: runtime.ArgBuffer, Name: name, Bytes: a.bytes, Fill: p.fill}
	}
	a.vals[i] = inputVals{t: t, seed: seed}
	return runtime.Arg{Kind: runtime.ArgBuffer, Name: name, Bytes: a.bytes, Init: fillUniform(t, seed, 0, 1), Regen: true}
}

// out is an output array named name.
func (a *streamArgs) out(name string) runtime.Arg {
	return runtime.Arg{Kind: runtime.ArgBuffer, Name: name, Bytes: a.bytes, Output: true}
}

// elementWise sets the arguments, traffic, operations and check of an
// element-wise stream kernel (copy, scale, add, triad, saxpy); the scalar,
// where a kernel takes one, is its first argument. The check regenerates
// the inputs chunk by chunk and compares typed slices (checkStream).
func (a *streamArgs) elementWise(kb *runtime.KernelBenchmark, kernel string) {
	t, n, s, bytes := a.t, a.n, a.s, a.bytes
	scalar := runtime.Arg{Kind: runtime.ArgScalar, Name: "s", Value: t.scalar(s)}
	var output int
	var ins []int
	var ref func(w []float64, in [3][]float64)
	switch kernel {
	case StreamSaxpy:
		a.next = 1
		x := a.in("x", 1)
		y := a.in("y", 2)
		y.Output = true
		kb.Args, output, ins = []runtime.Arg{scalar, x, y}, 2, []int{1, 2}
		kb.BytesPerLaunch, kb.OpsPerLaunch = 3*bytes, 2*n
		ref = func(w []float64, in [3][]float64) {
			for i, x := range in[0] {
				w[i] = s*x + in[1][i]
			}
		}
	case StreamCopy:
		kb.Args, output, ins = []runtime.Arg{a.in("a", 1), a.out("b")}, 1, []int{0}
		kb.BytesPerLaunch = 2 * bytes
		kb.OpsUnit = ""
		ref = func(w []float64, in [3][]float64) { copy(w, in[0]) }
	case StreamScale:
		a.next = 1
		kb.Args, output, ins = []runtime.Arg{scalar, a.in("c", 3), a.out("b")}, 2, []int{1}
		kb.BytesPerLaunch, kb.OpsPerLaunch = 2*bytes, n
		ref = func(w []float64, in [3][]float64) {
			for i, c := range in[0] {
				w[i] = s * c
			}
		}
	case StreamAdd:
		kb.Args, output, ins = []runtime.Arg{a.in("a", 1), a.in("b", 2), a.out("c")}, 2, []int{0, 1}
		kb.BytesPerLaunch, kb.OpsPerLaunch = 3*bytes, n
		ref = func(w []float64, in [3][]float64) {
			for i, x := range in[0] {
				w[i] = x + in[1][i]
			}
		}
	case StreamTriad:
		a.next = 1
		kb.Args, output, ins = []runtime.Arg{scalar, a.in("b", 2), a.in("c", 3), a.out("a")}, 3, []int{1, 2}
		kb.BytesPerLaunch, kb.OpsPerLaunch = 3*bytes, 2*n
		ref = func(w []float64, in [3][]float64) {
			for i, b := range in[0] {
				w[i] = b + s*in[1][i]
			}
		}
	}
	iv := make([]inputVals, len(ins))
	for k, i := range ins {
		iv[k] = a.vals[i]
	}
	what := a.what
	rounded := func(w []float64, in [3][]float64) {
		ref(w, in)
		roundAll(t, w)
	}
	kb.Check = func(_, o map[int][]byte) error { return checkStream(t, what, o[output], n, iv, rounded) }
}

// dot sets the arguments, traffic, operations and check of the dot kernel
// (its partial sums, one a work-group, added on the host).
func (a *streamArgs) dot(dev *runtime.Device, kb *runtime.KernelBenchmark) {
	t, n := a.t, a.n
	groups := dotShape(dev, kb, t, n)
	kb.Args = []runtime.Arg{a.in("a", 1), a.in("b", 2),
		{Kind: runtime.ArgBuffer, Name: "sums", Bytes: int64(groups) * t.Size, Output: true},
		{Kind: runtime.ArgScalar, Name: "n", Value: uint64(n)}}
	kb.BytesPerLaunch, kb.OpsPerLaunch = 2*a.bytes, 2*n
	// A float sum of n products drifts with n (each work-item adds its
	// share in order): 1e-7*sqrt(n), at least 1e-4; a missing work-group
	// (1/groups of the sum) still shows.
	rel := max(1e-4, 1e-7*math.Sqrt(float64(n)))
	if t.Name == "double" {
		rel = max(1e-10, 1e-15*math.Sqrt(float64(n)))
	}
	filled, x, y, what := a.filled, a.vals[0], a.vals[1], a.what
	kb.Check = func(_, o map[int][]byte) error {
		var got, want float64
		if filled {
			want = x.pat.sumProducts(*y.pat, n)
		} else {
			want = sumProductsOf(x, y, n)
		}
		for g := int64(0); g < int64(groups); g++ {
			got += t.get(o[2], g)
		}
		return checkSum(what, got, want, rel)
	}
}

// StreamTraffic names the kind of memory traffic of a stream kernel: dot reads
// only, saxpy rewrites y in place, the others write an array they do not read.
func StreamTraffic(kernel string) string {
	switch kernel {
	case StreamDot:
		return results.TrafficReadOnly
	case StreamSaxpy:
		return results.TrafficReadModifyWrite
	}
	return results.TrafficCopy
}

// streamWidth is the number of elements a work-item of the element-wise
// stream kernels takes: on a CPU a 64-byte vector (16 floats, 8 doubles), a
// cache line and an AVX-512 register, so that the kernel is vector loads and
// stores whatever the driver's own vectoriser does across work-items (with one
// element a work-item PoCL fell behind BabelStream: docs/BENCH.md); on a GPU 2 floats (8 bytes a load, as a double:
// a GPU keeps a bounded number of loads in flight a thread), else 1. It is 1
// when the width does not divide n.
func streamWidth(dev *runtime.Device, t elemType, n int64) int {
	w := int64(1)
	switch {
	case isCPU(dev):
		w = 64 / t.Size
	case t.Size == 4:
		w = 2
	}
	if w <= 1 || n%w != 0 {
		return 1
	}
	return int(w)
}

// dotShape sets dot's kernel, NDRange and build options for the device, as a
// tuned library would, and returns the number of partial sums. On a CPU each
// work-item walks one contiguous chunk (stream_dot_chunk): work-groups of one
// item, two per compute unit (a core), so a late core leaves less idle. On a
// GPU a grid-stride loop (stream_dot) with the largest work-group up to 1024
// and four work-groups per compute unit, enough loads in flight to saturate
// memory (BabelStream's shape).
func dotShape(dev *runtime.Device, kb *runtime.KernelBenchmark, t elemType, n int64) int {
	cu := max(dev.Info.ComputeUnits, 1)
	if isCPU(dev) {
		groups := int(min(int64(2*cu), max(n/4096, 1)))
		vw := 64 / int(t.Size)
		kb.Kernel = "stream_dot_chunk"
		kb.Options += fmt.Sprintf(" -DVW=%d", vw)
		kb.Global, kb.Local = []int{groups}, []int{1}
		return groups
	}
	wg := 1024
	if m := dev.Info.MaxWorkGroupSize; m > 0 && m < wg {
		wg = 1
		for wg*2 <= m {
			wg *= 2
		}
	}
	groups := cu * 4
	if int64(groups*wg) > n {
		groups = max(int((n+int64(wg)-1)/int64(wg)), 1)
	}
	kb.Kernel = "stream_dot" // dot is an OpenCL C built-in function
	kb.Options += fmt.Sprintf(" -DWG=%d", wg)
	kb.Global, kb.Local = []int{groups * wg}, []int{wg}
	return groups
}
