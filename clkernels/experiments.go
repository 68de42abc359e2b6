package clkernels

// The experiments: coldstart, firsttouch, matmul and reduction reproduce the
// articles behind clmeter's design (see DESIGN.md): lazy runtime start-up and
// JIT, first-touch costs, a tiled matrix multiplication and a divergent versus
// non-divergent reduction. Each is a suite of 'clmeter suite NAME'.

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

// Experiment suite names.
const (
	SuiteColdStart  = "coldstart"
	SuiteFirstTouch = "firsttouch"
	SuiteMatmul     = "matmul"
	SuiteReduction  = "reduction"
)

// ExperimentSuites are the experiments, in the order 'clmeter suite all' runs them.
var ExperimentSuites = []string{SuiteColdStart, SuiteFirstTouch, SuiteMatmul, SuiteReduction}

func init() {
	registerSuite(Suite{Name: SuiteColdStart, steps: coldStartSteps, Description: "Matrix multiplication at ten growing sizes, timed holistically in a fresh clmeter process " +
		"(runtime start-up, JIT and first touch inflate the first size), then in-process after warm-up with a copy-in / " +
		"compute / copy-out / total breakdown, and the time of each start-up step."})
	registerSuite(Suite{Name: SuiteFirstTouch, steps: firstTouchSteps, Description: "A copy of 32 Mi ints on the device (kernel) and on the host (memory from the OS), " +
		"with neither buffer warmed, only the source warmed and both warmed, five runs over the same fresh buffers: " +
		"first-touch (page-in, zeroing) cost shows in run 1 and vanishes when both are warmed."})
	registerSuite(Suite{Name: SuiteMatmul, steps: matmulSteps, Description: "Naive versus tiled (local memory) matrix multiplication on a square size that fits the device, " +
		"both validated against the CPU; the speedup compares compute only (device-timed medians)."})
	registerSuite(Suite{Name: SuiteReduction, steps: reductionSteps, Description: "Sum of 16 Mi floats by tiled tree reduction (tile 512, passes until one value), " +
		"divergent (tid % (2*s) == 0) versus non-divergent (index = 2*s*tid) indexing, as the article wrote them, and sequential addressing (stride halving, tid < s); per-kernel device times summed " +
		"over the passes, validated against a double-precision CPU sum."})
}

// MatmulKernels are the kernels of matmul.cl.
const (
	MatmulNaive = "matmul_naive"
	MatmulTiled = "matmul_tiled"
)

// MatmulSize is one C[M x N] = A[M x W] . B[W x N] problem.
type MatmulSize struct{ M, N, W int }

func (s MatmulSize) String() string { return fmt.Sprintf("%dx%dx%d", s.M, s.N, s.W) }

// FLOP is the multiply-adds of one product, two operations each.
func (s MatmulSize) FLOP() int64 { return 2 * int64(s.M) * int64(s.N) * int64(s.W) }

// Bytes are the float elements of A, B and C.
func (s MatmulSize) Bytes() int64 {
	return 4 * (int64(s.M)*int64(s.W) + int64(s.W)*int64(s.N) + int64(s.M)*int64(s.N))
}

// ColdStartSizes are the coldstart experiment's ten sizes, from the article's
// listing: M=300+100i, N=500+100i, W=400+100i; small divides them by ten.
func ColdStartSizes(small bool) []MatmulSize {
	s := make([]MatmulSize, 10)
	for i := range s {
		s[i] = MatmulSize{300 + 100*i, 500 + 100*i, 400 + 100*i}
		if small {
			s[i] = MatmulSize{s[i].M / 10, s[i].N / 10, s[i].W / 10}
		}
	}
	return s
}

// MatmulTile is the tiled kernel's tile side for a device: 16, halved until a
// tile x tile work-group fits the device.
func MatmulTile(dev *runtime.Device) int {
	t := 16
	in := dev.Info
	for t > 1 {
		ok := in.MaxWorkGroupSize <= 0 || t*t <= in.MaxWorkGroupSize
		for d := 0; d < 2 && d < len(in.MaxWorkItemSizes); d++ {
			ok = ok && t <= in.MaxWorkItemSizes[d]
		}
		if in.LocalMemBytes > 0 && int64(2*t*t*4) > in.LocalMemBytes {
			ok = false
		}
		if ok {
			break
		}
		t /= 2
	}
	return t
}

// matmulSeedA and matmulSeedB fill the inputs, uniform in [-1, 1).
const (
	matmulSeedA = 0xA11CE
	matmulSeedB = 0xB0B
)

// matmulInputs returns A and B of a size, filled from the fixed seeds.
func matmulInputs(s MatmulSize) (a, b []byte) {
	a = make([]byte, 4*s.M*s.W)
	b = make([]byte, 4*s.W*s.N)
	fillUniform(tFloat, matmulSeedA, -1, 1)(a)
	fillUniform(tFloat, matmulSeedB, -1, 1)(b)
	return a, b
}

// MatmulBenchmark multiplies A[M x W] by B[W x N] with kernel (MatmulNaive or
// MatmulTiled) in work-groups of tile x tile (tile 0: the naive kernel lets the
// driver pick and the tiled one uses MatmulTile), validated against the CPU.
func MatmulBenchmark(dev *runtime.Device, kernel string, s MatmulSize, tile int) (*runtime.KernelBenchmark, error) {
	if kernel != MatmulNaive && kernel != MatmulTiled {
		return nil, fmt.Errorf("matmul kernel %q: want %s or %s", kernel, MatmulNaive, MatmulTiled)
	}
	if s.M <= 0 || s.N <= 0 || s.W <= 0 {
		return nil, fmt.Errorf("matmul size %s: every side must be positive", s)
	}
	if tile == 0 && kernel == MatmulTiled {
		tile = MatmulTile(dev)
	}
	largest := max(int64(s.M)*int64(s.W), int64(s.W)*int64(s.N), int64(s.M)*int64(s.N)) * 4
	if err := fits(dev, largest, 3); err != nil {
		return nil, fmt.Errorf("matmul %s: %w", s, err)
	}
	kb := &runtime.KernelBenchmark{
		Device: dev, Source: source("matmul.cl"), Kernel: kernel,
		Args: []runtime.Arg{
			{Kind: runtime.ArgBuffer, Name: "A", Bytes: 4 * int64(s.M) * int64(s.W), Init: fillUniform(tFloat, matmulSeedA, -1, 1)},
			{Kind: runtime.ArgBuffer, Name: "B", Bytes: 4 * int64(s.W) * int64(s.N), Init: fillUniform(tFloat, matmulSeedB, -1, 1)},
			{Kind: runtime.ArgBuffer, Name: "C", Bytes: 4 * int64(s.M) * int64(s.N), Output: true},
			{Kind: runtime.ArgScalar, Name: "M", Value: int32(s.M)},
			{Kind: runtime.ArgScalar, Name: "N", Value: int32(s.N)},
			{Kind: runtime.ArgScalar, Name: "W", Value: int32(s.W)},
		},
		Global:         []int{s.N, s.M},
		BytesPerLaunch: s.Bytes(), OpsPerLaunch: s.FLOP(), OpsUnit: "FLOP",
		Check: func(in, out map[int][]byte) error {
			return checkMatmul(in[0], in[1], out[2], s)
		},
	}
	if tile > 0 {
		kb.Options = fmt.Sprintf("-DTILE=%d", tile)
		kb.Global = []int{roundUp(s.N, tile), roundUp(s.M, tile)}
		kb.Local = []int{tile, tile}
	}
	return kb, nil
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

func floats32(b []byte) []float32 {
	f := make([]float32, len(b)/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return f
}

// checkMatmul compares C with a double-precision CPU product: every element
// when the product is small (M*N*W <= 2^24), else the four corners and 4096
// elements picked from a fixed seed. An element passes within 1e-4 of the sum
// of |A[i,k]*B[k,j]| (the scale of float rounding in a W-term sum).
func checkMatmul(ab, bb, cb []byte, s MatmulSize) error {
	if int64(len(ab)) < 4*int64(s.M)*int64(s.W) || int64(len(bb)) < 4*int64(s.W)*int64(s.N) || int64(len(cb)) < 4*int64(s.M)*int64(s.N) {
		return fmt.Errorf("matmul %s: buffers too short", s)
	}
	a, b, c := floats32(ab), floats32(bb), floats32(cb)
	check := func(i, j int) (bool, float64, float64) {
		sum, mag := 0.0, 0.0
		for k := 0; k < s.W; k++ {
			p := float64(a[i*s.W+k]) * float64(b[k*s.N+j])
			sum += p
			mag += math.Abs(p)
		}
		got := float64(c[i*s.N+j])
		return math.Abs(got-sum) <= 1e-4*mag+1e-6, got, sum
	}
	bad, checked := 0, 0
	var first string
	try := func(i, j int) {
		checked++
		if ok, got, want := check(i, j); !ok {
			if bad == 0 {
				first = fmt.Sprintf("C[%d,%d] = %g, want %g", i, j, got, want)
			}
			bad++
		}
	}
	if int64(s.M)*int64(s.N)*int64(s.W) <= 1<<24 {
		for i := 0; i < s.M; i++ {
			for j := 0; j < s.N; j++ {
				try(i, j)
			}
		}
	} else {
		try(0, 0)
		try(0, s.N-1)
		try(s.M-1, 0)
		try(s.M-1, s.N-1)
		r := rand.New(rand.NewPCG(uint64(s.M), uint64(s.N)))
		for range 4096 {
			try(r.IntN(s.M), r.IntN(s.N))
		}
	}
	if bad > 0 {
		return fmt.Errorf("matmul %s: %d of %d checked elements differ from the CPU reference; first %s", s, bad, checked, first)
	}
	return nil
}

// MatmulSquare is the matmul experiment's size for a device: 1024 on a GPU,
// 512 on a CPU, 128 when small, halved until three matrices fit.
func MatmulSquare(dev *runtime.Device, small bool) int {
	n := 1024
	if isCPU(dev) {
		n = 512
	}
	if small {
		n = 128
	}
	for n > 16 && fits(dev, int64(n)*int64(n)*4, 3) != nil {
		n /= 2
	}
	return n
}

func matmulSteps(p *plan) {
	n := MatmulSquare(p.dev, p.o.Small)
	s := MatmulSize{n, n, n}
	tile := MatmulTile(p.dev)
	var names []string
	for _, k := range []string{MatmulNaive, MatmulTiled} {
		names = append(names, p.kernel("matmul/"+k[len("matmul_"):], nil, []param{{"kernel", k}, {"size", s.String()}, {"work-group", fmt.Sprintf("%dx%d", tile, tile)}}, func() (*runtime.KernelBenchmark, error) {
			return MatmulBenchmark(p.dev, k, s, tile)
		}))
	}
	p.derived("matmul/speedup", nil, []param{{"size", s.String()}}, names, func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool) {
		naive, tiled := ran[names[0]].Measurement, ran[names[1]].Measurement
		if !validOK(naive) || !validOK(tiled) || naive.Summary.Median <= 0 || tiled.Summary.Median <= 0 {
			return nil, nil, false
		}
		n, t := naive.Summary.Median, tiled.Summary.Median
		return []results.Figure{
			{Name: "tiled speedup", Value: float64(n) / float64(t), Unit: "x", Note: fmt.Sprintf("naive median %.4g ms / tiled median %.4g ms, compute only (%s timer)", ms(n), ms(t), tiled.Timer)},
		}, map[string]any{"naive_ns": int64(n), "tiled_ns": int64(t)}, true
	})
}

// medianDur returns the median of ds (zero when empty).
func medianDur(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
