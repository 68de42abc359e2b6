package clkernels

import (
	"context"
	"fmt"
	"github.com/clmeter/clmeter/harness"
	"math"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// Reduction variants: the kernels of reduction.cl.
const (
	ReductionDivergent    = "divergent"
	ReductionNonDivergent = "nondivergent"
	// ReductionSequential is sequential addressing: the stride halves and the
	// active items are contiguous and read consecutive words.
	ReductionSequential = "sequential"
)

// ReductionVariants are the reduction experiment's kernels in order: the
// article's two, then sequential addressing.
var ReductionVariants = []string{ReductionDivergent, ReductionNonDivergent, ReductionSequential}

// ReductionTile is the article's tile (work-group) size.
const ReductionTile = 512

// ReductionElems is the reduction experiment's size in floats: 16 Mi (the
// article's), 128 Ki when small, halved until input and partial sums fit.
func ReductionElems(dev *runtime.Device, small bool) int64 {
	n := int64(16 << 20)
	if small {
		n = 128 << 10
	}
	return capElems(dev, n, 4, 2)
}

// A ReductionBenchmark sums N floats by tiled tree reduction: each pass
// reduces every tile of Tile elements to one value written densely to an
// output array (the compaction), and passes repeat until one value is left.
// One "launch" is every pass; its device time is the sum of the passes'
// END - START (event profiling), so gaps between kernels are left out. It is a
// measure.Benchmark and measure.Validator (against a double-precision CPU sum,
// relative tolerance 1e-4).
type ReductionBenchmark struct {
	Device  *runtime.Device
	Variant string
	N       int64
	// Tile is the asked tile; Setup lowers it to a power of two the device and
	// the kernel allow, and sets TileUsed.
	Tile     int
	TileUsed int
	Build    runtime.BuildInfo

	q      *cl.Queue
	prog   *cl.Program
	bufs   []*cl.Buffer // input, then the two partial-sum arrays
	passes []reductionPass
	want   float64
	input  []byte
}

type reductionPass struct {
	kernel *cl.Kernel
	global int
	out    *cl.Buffer
}

// NewReductionBenchmark returns the reduction of n floats with a variant.
func NewReductionBenchmark(dev *runtime.Device, variant string, n int64, tile int) (*ReductionBenchmark, error) {
	if variant != ReductionDivergent && variant != ReductionNonDivergent && variant != ReductionSequential {
		return nil, fmt.Errorf("reduction variant %q: want %s, %s or %s", variant, ReductionDivergent, ReductionNonDivergent, ReductionSequential)
	}
	if n <= 0 || n > math.MaxUint32 {
		return nil, fmt.Errorf("reduction of %d elements: want 1 to 2^32-1", n)
	}
	if err := fits(dev, n*4, 2); err != nil {
		return nil, err
	}
	if tile <= 0 {
		tile = ReductionTile
	}
	return &ReductionBenchmark{Device: dev, Variant: variant, N: n, Tile: tile}, nil
}

// pow2Floor returns the largest power of two <= n (1 for n < 1).
func pow2Floor(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	return p
}

// ReductionPasses returns the element counts the passes read, for n elements and a tile.
func ReductionPasses(n int64, tile int) []int64 {
	var counts []int64
	for {
		counts = append(counts, n)
		groups := (n + int64(tile) - 1) / int64(tile)
		if groups <= 1 {
			return counts
		}
		n = groups
	}
}

func (b *ReductionBenchmark) kernelName() string { return "reduce_" + b.Variant }

// Setup builds the kernel for the largest tile the device and the kernel
// allow, makes the buffers and writes the input (warming it).
func (b *ReductionBenchmark) Setup(ctx context.Context) (measure.SetupInfo, error) {
	info := measure.SetupInfo{TimerResolution: b.Device.Info.TimerResolution, OpsUnit: "FLOP"}
	c, q, err := b.Device.Context()
	if err != nil {
		return info, err
	}
	b.q = q
	in := b.Device.Info
	tile := b.Tile
	if in.MaxWorkGroupSize > 0 {
		tile = min(tile, in.MaxWorkGroupSize)
	}
	if len(in.MaxWorkItemSizes) > 0 && in.MaxWorkItemSizes[0] > 0 {
		tile = min(tile, in.MaxWorkItemSizes[0])
	}
	if in.LocalMemBytes > 0 {
		tile = min(tile, int(in.LocalMemBytes/4))
	}
	tile = pow2Floor(tile)
	for {
		p, binfo, err := b.Device.BuildProgram(source("reduction.cl"), fmt.Sprintf("-DTILE=%d", tile))
		if err != nil {
			return info, err
		}
		k, err := p.CreateKernel(b.kernelName())
		if err != nil {
			p.Release()
			return info, err
		}
		wg, err := k.WorkGroupInfo(b.Device.CL)
		k.Release()
		if err == nil && wg.MaxSize > 0 && wg.MaxSize < tile && tile > 1 {
			p.Release()
			tile = pow2Floor(wg.MaxSize)
			continue
		}
		b.prog, b.Build = p, binfo
		break
	}
	b.TileUsed = tile
	counts := ReductionPasses(b.N, tile)
	partial := (b.N + int64(tile) - 1) / int64(tile)
	for _, size := range []int64{b.N, partial, max(1, (partial+int64(tile)-1)/int64(tile))} {
		buf, err := c.CreateBuffer(cl.MemReadWrite, size*4, nil)
		if err != nil {
			return info, fmt.Errorf("reduction buffer of %s: %w", sizeLabel(size*4), err)
		}
		b.bufs = append(b.bufs, buf)
	}
	src := b.bufs[0]
	for i, n := range counts {
		out := b.bufs[1+i%2]
		k, err := b.prog.CreateKernel(b.kernelName())
		if err != nil {
			return info, err
		}
		b.passes = append(b.passes, reductionPass{kernel: k, global: int(roundUp64(n, int64(tile))), out: out})
		if err := k.SetArgs(src, out, uint32(n)); err != nil {
			return info, err
		}
		src = out
		info.BytesPerLaunch += 4*n + 4*((n+int64(tile)-1)/int64(tile))
	}
	info.OpsPerLaunch = b.N - 1
	b.input = make([]byte, b.N*4)
	fillUniform(tFloat, 0x5EED, 0, 1)(b.input)
	b.want = 0
	for i := int64(0); i < b.N; i++ {
		b.want += tFloat.get(b.input, i)
	}
	start := time.Now()
	ev, err := b.q.EnqueueWriteBuffer(b.bufs[0], true, 0, b.input)
	if err != nil {
		return info, err
	}
	ev.Release()
	info.FirstTouch = time.Since(start)
	return info, nil
}

func roundUp64(n, m int64) int64 { return (n + m - 1) / m * m }

// Launch runs every pass k times, each with an event; the device time is the
// sum of the kernels' END - START.
func (b *ReductionBenchmark) Launch(ctx context.Context, k int) (measure.Batch, error) {
	var batch measure.Batch
	events := make([]*cl.Event, 0, k*len(b.passes))
	defer func() { cl.ReleaseAll(events) }()
	local := []int{b.TileUsed}
	start := time.Now()
	for i := 0; i < k; i++ {
		for _, p := range b.passes {
			ev, err := b.q.EnqueueNDRange(p.kernel, []int{p.global}, local, nil)
			if err != nil {
				b.q.Finish()
				return batch, fmt.Errorf("kernel %s: %w", b.kernelName(), err)
			}
			events = append(events, ev)
		}
	}
	if err := b.q.Finish(); err != nil {
		return batch, err
	}
	batch.Host = time.Since(start)
	for _, ev := range events {
		p, err := ev.Profile()
		if err != nil {
			return measure.Batch{Host: batch.Host}, nil // no device timer: the engine falls back to the host's
		}
		batch.DeviceBusy += time.Duration(p.End - p.Start)
	}
	batch.Device = batch.DeviceBusy
	return batch, nil
}

// Validate runs the passes once and compares the one value left with the CPU sum.
func (b *ReductionBenchmark) Validate(ctx context.Context) error {
	if _, err := b.Launch(ctx, 1); err != nil {
		return err
	}
	got := make([]byte, 4)
	ev, err := b.q.EnqueueReadBuffer(b.passes[len(b.passes)-1].out, true, 0, got)
	if err != nil {
		return err
	}
	ev.Release()
	return checkSum(fmt.Sprintf("reduction (%s) of %d floats", b.Variant, b.N), tFloat.get(got, 0), b.want, 1e-4)
}

// Teardown releases the kernels, buffers and program.
func (b *ReductionBenchmark) Teardown() error {
	if b.q != nil {
		b.q.Finish()
	}
	for _, p := range b.passes {
		p.kernel.Release()
	}
	releaseBuffers(b.bufs)
	b.prog.Release()
	b.passes, b.bufs, b.prog, b.input = nil, nil, nil, nil
	return nil
}

// ReductionSpeedup names the reduction suite's last benchmark.
const ReductionSpeedup = "reduction/speedup"

func reductionSteps(p *plan) {
	n := ReductionElems(p.dev, p.o.Small)
	var names []string
	rbs := map[string]*ReductionBenchmark{}
	for _, v := range ReductionVariants {
		names = append(names, p.plain("reduction/"+v, nil, []param{{"variant", v}, {"elements", fmt.Sprint(n)}, {"array", sizeLabel(n * 4)}}, measure.TimerDevice,
			func() (measure.Benchmark, func() *results.ProgramInfo, error) {
				rb, err := NewReductionBenchmark(p.dev, v, n, ReductionTile)
				if err != nil {
					return nil, nil, err
				}
				rbs[v] = rb
				return rb, func() *results.ProgramInfo { return rb.Build.ProgramInfo("builtin:reduction.cl") }, nil
			}))
	}
	var tile, passes int
	p.add(harness.Step{Base: p.base(ReductionSpeedup, nil, nil), From: names, Derive: func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool) {
		medians := map[string]time.Duration{}
		timer := "device"
		for i, v := range ReductionVariants {
			if res := ran[names[i]].Measurement; validOK(res) {
				medians[v], timer = res.Summary.Median, string(res.Timer)
				tile, passes = rbs[v].TileUsed, len(ReductionPasses(n, rbs[v].TileUsed))
			}
		}
		return reductionFigures(p.dev, medians, timer, passes, tile)
	}, Finish: func(b *results.Benchmark) {
		for _, ps := range []param{{"elements", fmt.Sprint(n)}, {"tile", fmt.Sprint(tile)}, {"passes", fmt.Sprint(passes)}} {
			b.SetParam(ps.name, ps.value)
		}
	}})
}

// reductionFigures are the speedups of the reduction variants' medians;
// ok false when divergent or non-divergent has none.
func reductionFigures(dev *runtime.Device, medians map[string]time.Duration, timer string, passes, tile int) ([]results.Figure, map[string]any, bool) {
	d, nd, sq := medians[ReductionDivergent], medians[ReductionNonDivergent], medians[ReductionSequential]
	if d == 0 || nd == 0 {
		return nil, nil, false
	}
	note := func(a, b string, x, y time.Duration) string {
		return fmt.Sprintf("%s median %.4g ms / %s median %.4g ms, kernel times summed over %d passes (%s timer)", a, ms(x), b, ms(y), passes, timer)
	}
	figs := []results.Figure{{Name: "non-divergent speedup", Value: float64(d) / float64(nd), Unit: "x", Note: note("divergent", "non-divergent", d, nd)}}
	extra := map[string]any{"divergent_ns": int64(d), "nondivergent_ns": int64(nd), "tile": tile}
	if sq > 0 {
		figs = append(figs,
			results.Figure{Name: "sequential speedup over divergent", Value: float64(d) / float64(sq), Unit: "x", Note: note("divergent", "sequential", d, sq)},
			results.Figure{Name: "sequential speedup over non-divergent", Value: float64(nd) / float64(sq), Unit: "x", Note: note("non-divergent", "sequential", nd, sq)})
		extra["sequential_ns"] = int64(sq)
	}
	extra[ExtraExplanation] = ReductionExplanation(isCPU(dev), d, nd, sq)
	return figs, extra, true
}

// ExtraExplanation is the Extra key of an experiment's explanation: text,
// written from the figures, that the report prints under the table.
const ExtraExplanation = "explanation"

// ReductionExplanation says what the three medians show (sequential zero
// when it was not measured), for a GPU or a CPU device.
func ReductionExplanation(cpu bool, d, nd, sq time.Duration) string {
	ratio := func(a, b time.Duration) string { return fmt.Sprintf("%.2fx", float64(a)/float64(b)) }
	var s string
	if nd < d {
		s = fmt.Sprintf("Non-divergent indexing beats divergent (%s), as the article says: with tid %% (2*s) == 0 the active items are scattered over every warp, so every warp stays busy; with index = 2*s*tid they are the first items and whole warps idle.", ratio(d, nd))
	} else {
		s = fmt.Sprintf("Non-divergent indexing is not faster than divergent here (%s of its speed), against the article.", ratio(d, nd))
		if !cpu {
			s += " Its index = 2*s*tid makes the active items of a warp touch words 2*s apart in local memory: with 32 banks of 4 bytes that is a 2-way bank conflict at s = 1, growing to 32-way at s >= 16, which costs more than the divergence it removes."
		}
	}
	if sq > 0 {
		s += fmt.Sprintf(" Sequential addressing (stride halving from the tile's middle, active items tid < s) keeps the active items contiguous and on consecutive banks: %s the speed of divergent and %s of non-divergent.", ratio(d, sq), ratio(nd, sq))
		if sq < d && sq < nd && !cpu {
			s += " It is the fastest of the three, which the bank-conflict explanation predicts."
		} else if sq < d && sq < nd {
			s += " It is the fastest of the three."
		} else {
			s += " It is not the fastest of the three here."
		}
	}
	if cpu {
		s += " On a CPU device there are no warps and no local-memory banks: a work-group runs as loops over its items between barriers, so the differences come from how many loop trips do work and how well the compiler vectorizes them, not from divergence or bank conflicts."
	}
	return s
}
