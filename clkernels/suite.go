package clkernels

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/sizing"
)

// Options control a suite run.
type Options struct {
	// Settings are the measure settings of each benchmark (a suite may set the
	// Timer of a benchmark whose figure needs one).
	Settings measure.Settings
	// Small uses the smallest sizes (tests, smoke runs).
	Small bool
	// MaxSize caps the transfers' sizes in bytes (zero: 256 MiB).
	MaxSize int64
	// MaxMemory, when positive, lowers the memory budget of one benchmark's
	// buffers (Budget) to this many bytes.
	MaxMemory int64
	// Filter, when set, runs only the benchmarks whose names it matches (a
	// peak is then the best of those that ran).
	Filter *regexp.Regexp
	// Emit receives each finished benchmark in order (write it, print it). An
	// error from Emit stops the suite.
	Emit func(results.Benchmark) error
	// Progress, when set, is told the name of each benchmark before it runs.
	Progress func(name string)
	// Skip, when set, is told the name of each benchmark Filter leaves out.
	Skip func(name string)
	// Executable is the clmeter binary the coldstart suite re-executes (its
	// hidden "suite-child" command); empty skips the fresh-process part.
	Executable string
}

// A Suite is a named set of benchmarks that 'clmeter suite NAME' runs on a
// device: it declares them as steps (harness.Step: name, identity, params,
// sizes decided from the device and the budget, how to make each), which one
// harness.Sequence runs, or lists (List) without measuring.
type Suite struct {
	Name string
	// Description says in two or three lines what the suite shows.
	Description string
	// MaxTime is each benchmark's time budget when Options.Settings has none:
	// what keeps the whole suite inside its time budget (quick: 30 s, peaks:
	// 3 minutes of measuring on a CPU or a GPU; docs/OWNCOST.md has the
	// figures behind the choice).
	MaxTime time.Duration
	// ReuseBuffers lets a benchmark take the buffers of the last ones of the
	// same sizes (runtime.Device.ReuseBuffers, within the memory budget of one
	// benchmark) instead of making and backing new ones. The experiments that
	// time fresh memory (coldstart, firsttouch) leave it off.
	ReuseBuffers bool
	// Profile is set when the suite's figures feed the device profile;
	// FillProfile when, after it, the parts the profile still lacks are
	// measured (profile.MissingSteps), as steps of their own.
	Profile, FillProfile bool
	// steps declares the suite's steps on p.
	steps func(p *plan)
	// parts, when set, are the suites it runs in turn ('all').
	parts []string
}

// Run runs the suite on dev, handing each benchmark to o.Emit as it finishes.
// It returns ctx.Err() when canceled (what finished was emitted) and the error
// of Emit; a benchmark that fails is emitted with its Error set instead.
func (s Suite) Run(ctx context.Context, dev *runtime.Device, o Options) error {
	state := &suiteState{}
	for _, part := range s.each() {
		if err := part.runOne(ctx, dev, o, state); err != nil {
			return err
		}
	}
	return nil
}

// List returns the steps the suite would run, in order, with Filter
// applied, without measuring: sizes decided from the device and the budget;
// a memory working set that only a probe finds is named, not probed (its
// step, peaks/working-set, says up to what size it would probe).
func (s Suite) List(dev *runtime.Device, o Options) []harness.Listed {
	state := &suiteState{}
	var out []harness.Listed
	for _, part := range s.each() {
		p := part.plan(context.Background(), dev, o, state)
		p.listing = true
		part.steps(p)
		q := harness.Sequence{Filter: o.Filter}
		out = append(out, q.List(p.steps)...)
	}
	return out
}

// each are the suites Run runs: the suite, or its parts.
func (s Suite) each() []Suite {
	if s.parts == nil {
		return []Suite{s}
	}
	var out []Suite
	for _, n := range s.parts {
		out = append(out, suites[n])
	}
	return out
}

// plan is a plan of the suite's steps on dev, its benchmarks given the
// suite's MaxTime (3 s when it has none) unless o sets one.
func (s Suite) plan(ctx context.Context, dev *runtime.Device, o Options, state *suiteState) *plan {
	if o.Settings.MaxTime <= 0 {
		o.Settings.MaxTime = s.MaxTime
		if o.Settings.MaxTime <= 0 {
			o.Settings.MaxTime = 3 * time.Second
		}
	}
	return &plan{ctx: ctx, dev: dev, o: o, suite: s.Name, state: state}
}

// runOne declares the suite's steps and runs them through one
// harness.Sequence, with the device reusing buffers as the suite says
// (ReuseBuffers) until it ends.
func (s Suite) runOne(ctx context.Context, dev *runtime.Device, o Options, state *suiteState) error {
	defer dev.ReuseBuffers(s.ReuseBuffers, Budget(dev, o.MaxMemory).Total)()
	p := s.plan(ctx, dev, o, state)
	defer func() {
		for _, c := range p.cleanups {
			c()
		}
	}()
	if err := p.sizeErr(s.steps); err != nil {
		return err
	}
	q := &harness.Sequence{Ctx: ctx, Device: dev, Settings: p.o.Settings, Filter: o.Filter, Progress: o.Progress, Skip: o.Skip, Emit: o.Emit}
	return q.Run(p.steps)
}

var suites = map[string]Suite{}

func registerSuite(s Suite) { suites[s.Name] = s }

// SuiteOrder is the order 'clmeter suite all' runs the suites in (peaks first:
// the others are shown as a percentage of its figures).
// The experiments (coldstart, firsttouch, matmul, reduction) come last.
var SuiteOrder = []string{"peaks", "streams", "launch", "transfers", "coldstart", "firsttouch", "matmul", "reduction"}

// LookupSuite returns the suite of that name: one of SuiteOrder, "quick" or "all".
func LookupSuite(name string) (Suite, bool) {
	s, ok := suites[name]
	return s, ok
}

// SuiteNames returns every suite name, sorted.
func SuiteNames() []string {
	n := make([]string, 0, len(suites))
	for k := range suites {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// suiteState is shared by the suites of one run ('all' runs several).
type suiteState struct {
	// workingSetEmitted is set once the working-set row is declared.
	workingSetEmitted bool
}

// throughput returns the median rate of a result: GB/s when it moves bytes,
// else G operations/s; zero when there is none.
func throughput(res *measure.Result, ops bool) float64 {
	if res == nil || res.Throughput == nil {
		return 0
	}
	if ops {
		return res.Throughput.GOpsPerSecond
	}
	return res.Throughput.GBPerSecond
}

// SizeLabel is a byte size as the suites' size parameters write it: "256MiB",
// "4KiB", "1GiB".
func SizeLabel(n int64) string { return sizeLabel(n) }

func sizeLabel(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
func us(d time.Duration) float64 { return float64(d) / 1e3 }

func init() {
	registerSuite(Suite{Name: "peaks", ReuseBuffers: true, Description: "Device peaks: global memory bandwidth (read-dominated kernel, vector widths 1-16, strided and chunked indexing), local memory and image bandwidth, and compute (dependent multiply-add chains, fp32/fp64/fp16/int32/int24 (mad24)/int16/int8, widths 1-16): clpeak's categories. The best of each is the device's peak that other figures are a percentage of.", MaxTime: 1500 * time.Millisecond, Profile: true, FillProfile: true, steps: peaksSteps})
	registerSuite(Suite{Name: "streams", ReuseBuffers: true, Description: "BabelStream's copy, scale, add, triad and dot in float and double (fp64), validated against the CPU.", MaxTime: 3 * time.Second, Profile: true, steps: streamsSteps})
	registerSuite(Suite{Name: "launch", ReuseBuffers: true, Description: "Launch overhead of an empty kernel: dispatch (QUEUED to START, device timer), enqueue + finish round trip (host timer), back-to-back launches per second.", MaxTime: 3 * time.Second, Profile: true, steps: launchSteps})
	registerSuite(Suite{Name: "transfers", ReuseBuffers: true, Description: "Host<->device transfers from pageable memory, pinned (ALLOC_HOST_PTR) memory and by map/unmap, 4 KiB to 256 MiB, both directions. Zero-copy devices are labelled: their figures are host memory copies.", MaxTime: 3 * time.Second, Profile: true, steps: transfersSteps})
	registerSuite(Suite{Name: "quick", ReuseBuffers: true, Description: "A representative subset of peaks, streams, launch and transfers with a short summary, 0.6 s a benchmark.", MaxTime: 600 * time.Millisecond, Profile: true, steps: quickSteps})
	registerSuite(Suite{Name: "all", Description: "Every suite in turn.", Profile: true, FillProfile: true, parts: SuiteOrder})
}

// Peak markers in Extra: the report takes a device's peaks from them.
const (
	// ExtraPeak marks a benchmark whose throughput is a peak candidate:
	// "bandwidth" or "compute".
	ExtraPeak = "peak"
)

func streamsSteps(p *plan) {
	p.streams(StreamKernels, []string{"float", "double"}, 0)
}

// streams declares the stream kernels in each type over arrays of n
// elements, or, when n is zero, over arrays of half the working set each (the
// two arrays of a copy move the working set; three fit the budget).
func (p *plan) streams(kernels, types []string, n int64) {
	var arrayBytes int64
	if n == 0 && !p.o.Small {
		ws, ok := p.memoryBytes()
		if !ok {
			return
		}
		if ws.Memory.Bytes > 0 {
			arrayBytes = p.bufferBytes(ws.Memory.Bytes, 2)
			arrayBytes = min(arrayBytes, p.bufferBytes(3*arrayBytes, 3))
		}
	}
	for _, typ := range types {
		t, _ := typeByName(typ)
		if t.Name == "double" && !p.dev.Info.FP64 {
			continue
		}
		size := n
		if size == 0 {
			size = arrayBytes / t.Size
		}
		if p.o.Small {
			size = 1 << 16
		}
		for _, k := range kernels {
			p.sized(fmt.Sprintf("streams/%s/%s", k, typ), size*t.Size, func(b int64) (results.Identity, []param) {
				return streamDef(p.dev, k, typ, b/t.Size*t.Size)
			}, func(b int64) (*runtime.KernelBenchmark, error) {
				return StreamBenchmarkFilled(p.dev, k, typ, b/t.Size)
			})
		}
	}
}

// streamDef is the identity and params of stream kernel k over arrays of
// arrayBytes of typ each on dev: its working set is what the kernel touches
// (streamWorkingSet), its region and plateau those of that working set.
func streamDef(dev *runtime.Device, k, typ string, arrayBytes int64) (results.Identity, []param) {
	t, _ := typeByName(typ)
	ws := streamWorkingSet(k, arrayBytes)
	id := results.Identity{Kind: results.KindBandwidth, Kernel: k, Traffic: StreamTraffic(k), Type: typ, WorkingSetBytes: ws, Region: Region(dev, ws)}
	ps := []param{{"type", typ}, {"elements", fmt.Sprint(arrayBytes / t.Size)}, {"array", sizeLabel(arrayBytes)}, {"region", id.Region}}
	if id.Region == sizing.RegionMemory {
		plateau := OnPlateau(dev, ws)
		id.OffPlateau = plateau == "no"
		ps = append(ps, param{"plateau", plateau})
	}
	return id, ps
}

// streamWorkingSet is the bytes a stream kernel touches over arrays of
// arrayBytes each.
func streamWorkingSet(kernel string, arrayBytes int64) int64 {
	switch kernel {
	case StreamAdd, StreamTriad:
		return 3 * arrayBytes
	}
	return 2 * arrayBytes
}

func launchSteps(p *plan) {
	for _, mode := range LaunchModes {
		p.launch(mode)
	}
}

// launch declares the launch benchmark of mode and returns its name.
func (p *plan) launch(mode string) string {
	var timer measure.Timer
	if lb, err := NewLaunchBenchmark(p.dev, mode); err == nil {
		timer = lb.Timer() // else the step fails to make it, saying why
	}
	return p.plain("launch/"+mode, &results.Identity{Kind: results.KindLaunch, Mode: mode}, []param{{"mode", mode}}, timer, func() (measure.Benchmark, func() *results.ProgramInfo, error) {
		lb, err := NewLaunchBenchmark(p.dev, mode)
		if err != nil {
			return nil, nil, err
		}
		return lb, func() *results.ProgramInfo { return lb.Build.ProgramInfo("builtin:empty.cl") }, nil
	})
}

func transfersSteps(p *plan) {
	sizes := TransferSizes(p.dev, p.o.MaxSize)
	if p.o.Small {
		sizes = TransferSizes(p.dev, 64<<10)
	}
	p.transfers(TransferKinds, sizes)
}

func (p *plan) transfers(kinds []string, sizes []int64) {
	memory := "discrete"
	if ZeroCopy(p.dev) {
		memory = "zero-copy"
	}
	for _, kind := range kinds {
		for _, dir := range TransferDirections {
			for _, size := range sizes {
				name := fmt.Sprintf("transfers/%s/%s/%s", kind, dir, sizeLabel(size))
				id := &results.Identity{Kind: results.KindTransfer, Memory: kind, Direction: dir, WorkingSetBytes: size}
				p.plain(name, id, []param{{"memory", kind}, {"direction", dir}, {"size", sizeLabel(size)}, {"device memory", memory}}, measure.TimerHost, func() (measure.Benchmark, func() *results.ProgramInfo, error) {
					tb, err := NewTransferBenchmark(p.dev, kind, dir, size)
					return tb, nil, err
				})
			}
		}
	}
}

// IsPeakBenchmark reports whether a benchmark carries a peak figure, and which
// ("bandwidth", "compute:float" ...).
func IsPeakBenchmark(b results.Benchmark) (string, bool) {
	p, ok := b.Extra[ExtraPeak].(string)
	if !ok {
		return "", false
	}
	if p == "compute" {
		t, _ := b.Extra["type"].(string)
		return "compute:" + t, true
	}
	return p, true
}
