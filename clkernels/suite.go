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

// A Suite is a named set of benchmarks that 'clmeter suite NAME' runs on a device.
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
	run          func(r *runner) error
}

// Run runs the suite on dev, handing each benchmark to o.Emit as it finishes.
// It returns ctx.Err() when canceled (what finished was emitted) and the error
// of Emit; a benchmark that fails is emitted with its Error set instead.
func (s Suite) Run(ctx context.Context, dev *runtime.Device, o Options) error {
	r := &runner{ctx: ctx, dev: dev, o: o, suite: s.Name, state: &suiteState{}}
	return s.runWith(r)
}

// runWith runs the suite with r, giving its benchmarks the suite's MaxTime
// (3 s when it has none) unless the options set one, with the device reusing
// buffers as the suite says (ReuseBuffers) until it ends.
func (s Suite) runWith(r *runner) error {
	defer r.dev.ReuseBuffers(s.ReuseBuffers, Budget(r.dev, r.o.MaxMemory).Total)()
	if r.o.Settings.MaxTime <= 0 {
		sub := *r
		sub.o.Settings.MaxTime = s.MaxTime
		if sub.o.Settings.MaxTime <= 0 {
			sub.o.Settings.MaxTime = 3 * time.Second
		}
		r = &sub
	}
	return s.run(r)
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

// runner carries one suite run's state.
type runner struct {
	ctx   context.Context
	dev   *runtime.Device
	o     Options
	suite string
	state *suiteState
	// id is the identity of the benchmarks r makes (with); nil for those
	// that have none (the experiments).
	id *results.Identity
}

// with returns r making benchmarks of identity id: the typed parameters
// that the profile and the % PEAK read (its Suite is set to the suite's).
func (r *runner) with(id results.Identity) *runner {
	sub := *r
	id.Suite = r.suite
	sub.id = &id
	return &sub
}

// suiteState is shared by the suites of one run ('all' runs several).
type suiteState struct {
	// workingSetEmitted is set once the working-set row is emitted.
	workingSetEmitted bool
}

// param is one benchmark parameter.
type param struct{ name, value string }

func (r *runner) newBenchmark(name string, params []param) results.Benchmark {
	b := results.Benchmark{Name: name, Kind: "suite:" + r.suite, Device: r.dev.Describe(), Figures: []results.Figure{}}
	if r.id != nil {
		id := *r.id
		b.Identity = &id
	}
	for _, p := range params {
		b.SetParam(p.name, p.value)
	}
	return b
}

// seq is the harness's loop for this suite run.
func (r *runner) seq() *harness.Sequence {
	return &harness.Sequence{Ctx: r.ctx, Device: r.dev, Settings: r.o.Settings, Filter: r.o.Filter, Progress: r.o.Progress, Skip: r.o.Skip, Emit: r.o.Emit}
}

// emit hands b on; it stops on cancellation.
func (r *runner) emit(b results.Benchmark) error { return r.seq().Hand(b) }

// measure runs bench (made by mk) with the suite's settings (timer, when not
// empty, overrides theirs) and emits the result. It returns only errors that
// must stop the suite.
func (r *runner) measure(name string, params []param, timer measure.Timer, mk func() (measure.Benchmark, func() *results.ProgramInfo, error)) (*measure.Result, error) {
	b, res, stop := r.measureOnly(name, params, timer, mk)
	return res, r.finish(b, res, stop)
}

// finish emits b as measureOnly left it and returns what must stop the suite
// (harness.Sequence.Finish).
func (r *runner) finish(b results.Benchmark, _ *measure.Result, stop error) error {
	return r.seq().Finish(b, stop)
}

// measureOnly is measure without the emit: the benchmark as it would be
// emitted, its result, and the error that must stop the suite (cancellation,
// abandonment). A benchmark that Options.Filter leaves out comes back unnamed
// and unmeasured.
func (r *runner) measureOnly(name string, params []param, timer measure.Timer, mk func() (measure.Benchmark, func() *results.ProgramInfo, error)) (results.Benchmark, *measure.Result, error) {
	return r.measureBench(name, params, timer, harness.Modes{}, func() (harness.Bench, error) {
		bench, prog, err := mk()
		if err != nil {
			return nil, err
		}
		return harness.Plain(bench, prog), nil
	})
}

// measureBench measures what mk makes in modes through the suite run's
// harness.Sequence.
func (r *runner) measureBench(name string, params []param, timer measure.Timer, modes harness.Modes, mk func() (harness.Bench, error)) (results.Benchmark, *measure.Result, error) {
	b, stop := r.seq().Measure(r.newBenchmark(name, params), timer, modes, mk)
	return b, b.Measurement, stop
}

// kernel measures a KernelBenchmark made by mk, without the copy-in, compute
// and copy-out phases: the suites' tables show the kernel's own figures.
func (r *runner) kernel(name string, params []param, mk func() (*runtime.KernelBenchmark, error)) (*measure.Result, error) {
	return r.kernelPhases(name, params, false, mk)
}

// kernelPhases measures a KernelBenchmark made by mk, with its phases when
// phases is set (the coldstart experiment's in-process totals).
func (r *runner) kernelPhases(name string, params []param, phases bool, mk func() (*runtime.KernelBenchmark, error)) (*measure.Result, error) {
	b, res, stop := r.kernelOnly(name, params, phases, mk)
	return res, r.finish(b, res, stop)
}

// kernelOnly is kernelPhases without the emit (see measureOnly).
func (r *runner) kernelOnly(name string, params []param, phases bool, mk func() (*runtime.KernelBenchmark, error)) (results.Benchmark, *measure.Result, error) {
	return r.measureBench(name, params, "", harness.Modes{NoPhases: !phases}, func() (harness.Bench, error) {
		kb, err := mk()
		if err != nil {
			return nil, err
		}
		return harness.Kernel(kb), nil
	})
}

// figures emits a benchmark of single figures.
func (r *runner) figures(name string, params []param, figs []results.Figure, extra map[string]any) error {
	b := r.newBenchmark(name, params)
	b.Figures = append(b.Figures, figs...)
	b.Extra = extra
	return r.emit(b)
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
	registerSuite(Suite{Name: "peaks", ReuseBuffers: true, Description: "Device peaks: global memory bandwidth (read-dominated kernel, vector widths 1-16, strided and chunked indexing), local memory and image bandwidth, and compute (dependent multiply-add chains, fp32/fp64/fp16/int32/int24 (mad24)/int16/int8, widths 1-16): clpeak's categories. The best of each is the device's peak that other figures are a percentage of.", MaxTime: 1500 * time.Millisecond, run: runPeaks})
	registerSuite(Suite{Name: "streams", ReuseBuffers: true, Description: "BabelStream's copy, scale, add, triad and dot in float and double (fp64), validated against the CPU.", MaxTime: 3 * time.Second, run: runStreams})
	registerSuite(Suite{Name: "launch", ReuseBuffers: true, Description: "Launch overhead of an empty kernel: dispatch (QUEUED to START, device timer), enqueue + finish round trip (host timer), back-to-back launches per second.", MaxTime: 3 * time.Second, run: runLaunch})
	registerSuite(Suite{Name: "transfers", ReuseBuffers: true, Description: "Host<->device transfers from pageable memory, pinned (ALLOC_HOST_PTR) memory and by map/unmap, 4 KiB to 256 MiB, both directions. Zero-copy devices are labelled: their figures are host memory copies.", MaxTime: 3 * time.Second, run: runTransfers})
	registerSuite(Suite{Name: "quick", ReuseBuffers: true, Description: "A representative subset of peaks, streams, launch and transfers in half a minute or less, with a short summary.", MaxTime: 800 * time.Millisecond, run: runQuick})
	registerSuite(Suite{Name: "all", Description: "Every suite in turn.", run: func(r *runner) error {
		for _, name := range SuiteOrder {
			s := suites[name]
			sub := *r
			sub.suite = name
			if err := s.runWith(&sub); err != nil {
				return err
			}
		}
		return nil
	}})
}

// Peak markers in Extra: the report takes a device's peaks from them.
const (
	// ExtraPeak marks a benchmark whose throughput is a peak candidate:
	// "bandwidth" or "compute".
	ExtraPeak = "peak"
)

func runStreams(r *runner) error {
	return r.streams(StreamKernels, []string{"float", "double"}, 0)
}

// streams measures the stream kernels in each type over arrays of n
// elements, or, when n is zero, over arrays of half the working set each (the
// two arrays of a copy move the working set; three fit the budget).
func (r *runner) streams(kernels, types []string, n int64) error {
	var arrayBytes int64
	if n == 0 && !r.o.Small {
		ws, err := r.workingSet()
		if err != nil {
			return err
		}
		if ws.Memory.Bytes == 0 {
			return nil
		}
		arrayBytes = r.bufferBytes(ws.Memory.Bytes, 2)
		arrayBytes = min(arrayBytes, r.bufferBytes(3*arrayBytes, 3))
	}
	for _, typ := range types {
		t, _ := typeByName(typ)
		if t.Name == "double" && !r.dev.Info.FP64 {
			continue
		}
		size := n
		if size == 0 {
			size = arrayBytes / t.Size
		}
		if r.o.Small {
			size = 1 << 16
		}
		for _, k := range kernels {
			_, err := r.kernelSized(fmt.Sprintf("streams/%s/%s", k, typ), size*t.Size, func(b int64) (results.Identity, []param) {
				e := b / t.Size
				return streamDef(r.dev, k, typ, e*t.Size)
			}, func(b int64) (*runtime.KernelBenchmark, error) {
				return StreamBenchmarkFilled(r.dev, k, typ, b/t.Size)
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
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

func runLaunch(r *runner) error {
	for _, mode := range LaunchModes {
		if _, err := r.launch(mode); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) launch(mode string) (*measure.Result, error) {
	lb, err := NewLaunchBenchmark(r.dev, mode)
	if err != nil {
		return nil, err
	}
	return r.with(results.Identity{Kind: results.KindLaunch, Mode: mode}).measure("launch/"+mode, []param{{"mode", mode}}, lb.Timer(), func() (measure.Benchmark, func() *results.ProgramInfo, error) {
		return lb, func() *results.ProgramInfo { return lb.Build.ProgramInfo("builtin:empty.cl") }, nil
	})
}

func runTransfers(r *runner) error {
	sizes := TransferSizes(r.dev, r.o.MaxSize)
	if r.o.Small {
		sizes = TransferSizes(r.dev, 64<<10)
	}
	return r.transfers(TransferKinds, sizes)
}

func (r *runner) transfers(kinds []string, sizes []int64) error {
	memory := "discrete"
	if ZeroCopy(r.dev) {
		memory = "zero-copy"
	}
	for _, kind := range kinds {
		for _, dir := range TransferDirections {
			for _, size := range sizes {
				name := fmt.Sprintf("transfers/%s/%s/%s", kind, dir, sizeLabel(size))
				id := results.Identity{Kind: results.KindTransfer, Memory: kind, Direction: dir, WorkingSetBytes: size}
				_, err := r.with(id).measure(name, []param{{"memory", kind}, {"direction", dir}, {"size", sizeLabel(size)}, {"device memory", memory}}, measure.TimerHost, func() (measure.Benchmark, func() *results.ProgramInfo, error) {
					tb, err := NewTransferBenchmark(r.dev, kind, dir, size)
					return tb, nil, err
				})
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
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
