package profile

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/clocks"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/units"
)

// Parts of a profile that MeasureShort can measure.
const (
	PartBandwidth = "bandwidth"
	PartLocal     = "local"
	PartCompute   = "compute"
	PartLaunch    = "launch"
	PartPinned    = "pinned"
)

// AllParts are every part, in the order MeasureShort measures them.
var AllParts = []string{PartBandwidth, PartLocal, PartCompute, PartLaunch, PartPinned}

// ShortSettings are the measure settings of the short profile: at least 5
// samples of 20 ms, stopping at ±2% or 400 ms a benchmark (about 10 s for the
// whole profile on a GPU, where most of it is builds and warm-ups).
func ShortSettings() measure.Settings {
	s := measure.DefaultSettings()
	s.MinSamples = 5
	s.MaxNoise = 0.02
	s.MaxTime = 400 * time.Millisecond
	return s
}

// MeasureOptions control MeasureShort.
type MeasureOptions struct {
	// Settings of each benchmark (zero: ShortSettings).
	Settings measure.Settings
	// Parts to measure (nil: AllParts).
	Parts []string
	// Progress, when set, is told each benchmark's name before it runs.
	Progress func(name string)
	// Small uses tiny sizes (tests).
	Small bool
	// MaxMemory, when positive, lowers the memory budget of one benchmark's
	// buffers to this many bytes (clkernels.Budget).
	MaxMemory int64
}

// MeasureShort measures a short profile of dev: a few bandwidth patterns and
// widths, local memory, float (and double) compute, the launch latency and
// pinned transfers (ShortSteps), named as the suites name them so that
// FromBenchmarks reads them, through one harness.Sequence. It returns the
// profile (with the theoretical figures) and the benchmarks. A benchmark that
// fails is kept with its error and leaves its figure out; an interruption or
// abandoned work (harness.Stops) stops the profile.
func MeasureShort(ctx context.Context, dev *runtime.Device, o MeasureOptions) (*Profile, []results.Benchmark, error) {
	steps, err := ShortSteps(ctx, dev, o)
	if err != nil {
		return nil, nil, err
	}
	out, err := RunShort(ctx, dev, steps, o)
	if err != nil {
		return nil, out, err
	}
	p := FromBenchmarks(dev.Describe(), out, ShortSource, time.Now().UTC().Truncate(time.Second))
	if p == nil {
		return nil, out, fmt.Errorf("short profile of %s: no benchmark gave a figure", dev.Info.Name)
	}
	ApplyTheory(p, ComputeTheory(FactsOf(dev)), MemoryTheory(dev, nil))
	return p, out, nil
}

// RunShort runs the short profile's steps on dev through one
// harness.Sequence with the short settings (o.Settings, else
// ShortSettings) and returns their records; what stops it (an interruption,
// abandoned work) is returned with the records that finished.
func RunShort(ctx context.Context, dev *runtime.Device, steps []harness.Step, o MeasureOptions) ([]results.Benchmark, error) {
	s := o.Settings
	if s.MinSampleTime == 0 {
		s = ShortSettings()
	}
	var out []results.Benchmark
	q := &harness.Sequence{Ctx: ctx, Device: dev, Settings: s, Progress: o.Progress, Emit: func(b results.Benchmark) error {
		out = append(out, b)
		return nil
	}}
	return out, q.Run(steps)
}

// ShortSteps are the short profile's benchmarks on dev, of the parts
// o.Parts (nil: AllParts) in AllParts' order, as steps: a few bandwidth
// patterns over the peaks suite's working set (probed here, unless Small),
// local memory, float (and double) compute, the launch throughput and
// pinned transfers. It fails only when the working-set probe does.
func ShortSteps(ctx context.Context, dev *runtime.Device, o MeasureOptions) ([]harness.Step, error) {
	sh := &short{dev: dev, o: o}
	parts := o.Parts
	if parts == nil {
		parts = AllParts
	}
	steps := map[string]func() error{PartBandwidth: func() error { return sh.bandwidth(ctx) }, PartLocal: sh.local, PartCompute: sh.compute,
		PartLaunch: sh.launch, PartPinned: sh.pinned}
	for _, part := range AllParts { // in AllParts' order, whatever the order asked
		if slices.Contains(parts, part) {
			if err := steps[part](); err != nil {
				return nil, err
			}
		}
	}
	return sh.steps, nil
}

// short declares the steps of one short profile.
type short struct {
	dev   *runtime.Device
	o     MeasureOptions
	steps []harness.Step
}

// add declares the step that measures what mk makes.
func (sh *short) add(name string, id results.Identity, params [][2]string, timer measure.Timer, modes harness.Modes, mk func() (harness.Bench, error)) error {
	id.Suite = "profile"
	b := results.Benchmark{Name: name, Kind: "profile", Identity: &id, Device: sh.dev.Describe(), Figures: []results.Figure{}}
	for _, p := range params {
		b.SetParam(p[0], p[1])
	}
	sh.steps = append(sh.steps, harness.Step{Base: b, Timer: timer, Modes: modes, Make: mk})
	return nil
}

// kernel declares a kernel benchmark without its phases: a ceiling is the
// kernel's figure, not its copies'.
func (sh *short) kernel(name string, id results.Identity, params [][2]string, mk func() (*runtime.KernelBenchmark, error)) error {
	return sh.add(name, id, params, "", harness.Modes{NoPhases: true}, func() (harness.Bench, error) {
		kb, err := mk()
		if err != nil {
			return nil, err
		}
		return harness.Kernel(kb), nil
	})
}

// plain declares a benchmark that is not a kernel's (launch, transfers).
func (sh *short) plain(name string, id results.Identity, params [][2]string, timer measure.Timer, mk func() (measure.Benchmark, error)) error {
	return sh.add(name, id, params, timer, harness.Modes{}, func() (harness.Bench, error) {
		b, err := mk()
		if err != nil {
			return nil, err
		}
		return harness.Plain(b, nil), nil
	})
}

// bandwidth measures the bandwidth patterns over the peaks suite's working
// set (clkernels.WorkingSet; 1 MiB when Small).
func (sh *short) bandwidth(ctx context.Context) error {
	dev := sh.dev
	var bwSize int64 = 1 << 20
	if !sh.o.Small {
		ws, err := clkernels.WorkingSet(ctx, dev, clkernels.Budget(dev, sh.o.MaxMemory))
		if err != nil {
			return fmt.Errorf("short profile of %s: %w", dev.Info.Name, err)
		}
		bwSize = ws.Memory.Bytes
	}
	type pw struct {
		pattern string
		width   int
	}
	// What is fastest where, from the full peaks suite: grid-stride float4
	// on GPUs, chunks of float16 on CPUs (where a grid-stride loop does not
	// vectorize); copy and read-modify-write everywhere.
	list := []pw{{clkernels.PatternStride, 4}, {clkernels.PatternCopy, 4}, {clkernels.PatternRMW, 4}}
	if FactsOf(dev).CPU {
		list = []pw{{clkernels.PatternChunk, 16}, {clkernels.PatternCopy, 16}, {clkernels.PatternRMW, 16}}
	}
	for _, pw := range list {
		name := fmt.Sprintf("peaks/bandwidth/%s/float%d", pw.pattern, pw.width)
		// The working set of the peaks suite (clkernels.WorkingSet):
		// its region says whether it is memory's or a cache's.
		id := clkernels.BandwidthIdentity(dev, pw.pattern, pw.width, bwSize)
		params := [][2]string{{"pattern", pw.pattern}, {"width", fmt.Sprint(pw.width)}, {"size", clkernels.SizeLabel(bwSize)}, {"region", id.Region}}
		if id.Region == RegionMemory {
			plateau := "yes"
			if id.OffPlateau {
				plateau = "no"
			}
			params = append(params, [2]string{"plateau", plateau})
		}
		if err := sh.kernel(name, id, params, func() (*runtime.KernelBenchmark, error) {
			n := bwSize
			if pw.pattern == clkernels.PatternCopy {
				n /= 2 // two buffers share the working set
			}
			return clkernels.BandwidthBenchmark(dev, pw.pattern, pw.width, n)
		}); err != nil {
			return err
		}
	}
	return nil
}

// local measures the local memory bandwidth.
func (sh *short) local() error {
	iters := 0
	if sh.o.Small {
		iters = 64
	}
	return sh.kernel("peaks/local-bandwidth/float4", results.Identity{Kind: results.KindLocalBandwidth, Type: "float", Width: 4}, [][2]string{{"width", "4"}}, func() (*runtime.KernelBenchmark, error) {
		return clkernels.LocalBandwidthBenchmark(sh.dev, 4, iters)
	})
}

// compute measures float4, float16 and double4 compute where supported.
func (sh *short) compute() error {
	iters := 0
	if sh.o.Small {
		iters = 4
	}
	for _, tw := range []struct {
		typ   string
		width int
	}{{"float", 4}, {"float", 16}, {"double", 4}} {
		if !clkernels.ComputeSupported(sh.dev, tw.typ) {
			continue
		}
		name := fmt.Sprintf("peaks/compute/%s/%d", tw.typ, tw.width)
		if err := sh.kernel(name, results.Identity{Kind: results.KindCompute, Type: tw.typ, Width: tw.width}, [][2]string{{"type", tw.typ}, {"width", fmt.Sprint(tw.width)}}, func() (*runtime.KernelBenchmark, error) {
			return clkernels.ComputeBenchmark(sh.dev, tw.typ, tw.width, iters)
		}); err != nil {
			return err
		}
	}
	return nil
}

// launch measures the launch throughput.
func (sh *short) launch() error {
	lb, _ := clkernels.NewLaunchBenchmark(sh.dev, clkernels.LaunchThroughput)
	return sh.plain("launch/"+clkernels.LaunchThroughput, results.Identity{Kind: results.KindLaunch, Mode: clkernels.LaunchThroughput}, [][2]string{{"mode", clkernels.LaunchThroughput}}, lb.Timer(), func() (measure.Benchmark, error) {
		return lb, nil
	})
}

// pinned measures pinned transfers both ways (64 MiB; 16 MiB on zero-copy
// devices, 1 MiB when Small; within the largest allocation).
func (sh *short) pinned() error {
	size := int64(64 << 20)
	if clkernels.ZeroCopy(sh.dev) || sh.o.Small {
		size = 16 << 20
	}
	if sh.o.Small {
		size = 1 << 20
	}
	if m := sh.dev.Info.MaxAllocBytes; m > 0 && size > m {
		size = m
	}
	for _, dir := range clkernels.TransferDirections {
		name := fmt.Sprintf("transfers/%s/%s/%dMiB", clkernels.TransferPinned, dir, size>>20)
		id := results.Identity{Kind: results.KindTransfer, Memory: clkernels.TransferPinned, Direction: dir, WorkingSetBytes: size}
		if err := sh.plain(name, id, [][2]string{{"memory", clkernels.TransferPinned}, {"direction", dir}}, measure.TimerHost, func() (measure.Benchmark, error) {
			return clkernels.NewTransferBenchmark(sh.dev, clkernels.TransferPinned, dir, size)
		}); err != nil {
			return err
		}
	}
	return nil
}

// FactsOf returns what the theoretical figures of dev are computed from.
func FactsOf(dev *runtime.Device) DeviceFacts {
	in := dev.Info
	f := DeviceFacts{
		Name: in.Name, Vendor: in.Vendor, CPU: in.Type&2 != 0 || in.TypeName == "CPU",
		ComputeUnits: in.ComputeUnits, ClockMHz: in.MaxClockMHz,
		NativeWidthFloat: in.NativeVectorWidthFloat, NativeWidthDouble: in.NativeVectorWidthDouble,
		NVComputeCapability: in.NVComputeCapability,
	}
	if f.CPU { // a CPU device's cores are this host's
		c := CoreClock()
		f.CoreClock = &c
	}
	return f
}

// MemoryTheory is dev's theoretical memory bandwidth: from NVML (bus width and
// memory clock) when mon can read it (mon nil: one is opened and closed), else
// from the vendor's datasheet for known devices; nil when unknown.
func MemoryTheory(dev *runtime.Device, mon *clocks.Monitor) *Theory {
	if dev.Info.NVComputeCapability != "" {
		if mon == nil {
			mon = clocks.Open()
			defer mon.Close()
		}
		if v, note, ok := mon.MemoryBandwidth(clocks.DeviceID{Name: dev.Info.Name, PCIBus: dev.Info.NVPCIBusID}); ok {
			return &Theory{Value: v, Note: note}
		}
	}
	if th, ok := DatasheetBandwidth(dev.Info.Name); ok {
		return &th
	}
	return nil
}

// Update folds the suite benchmarks bs of dev into its stored profile (Merge:
// each figure keeps the best of the stored one and bs's, with its origin),
// measuring nothing. It saves the profile and returns it with its path and
// Merge's notes (figures kept over lower ones of bs). It returns a nil
// profile, and no error, when bs give no figure of dev. What the profile
// still lacks is measured as steps of their own (MissingSteps, RunShort,
// Fill).
func Update(st Folder, dev *runtime.Device, bs []results.Benchmark, source string) (*Profile, string, []string, error) {
	n := FromBenchmarks(dev.Describe(), bs, source, time.Now().UTC().Truncate(time.Second))
	if n == nil {
		return nil, "", nil, nil
	}
	old, err := st.Load(n.Key)
	if err != nil && !errors.Is(err, ErrNoProfile) {
		return nil, "", nil, err
	}
	p, notes := Merge(old, n)
	ApplyTheory(p, ComputeTheory(FactsOf(dev)), MemoryTheory(dev, nil))
	path, err := st.Save(p)
	return p, path, notes, err
}

// MissingSteps are the short profile's steps of the parts p lacks
// (Missing), and those parts; none when it lacks none.
func MissingSteps(ctx context.Context, dev *runtime.Device, p *Profile, o MeasureOptions) ([]harness.Step, []string, error) {
	missing := p.Missing()
	if len(missing) == 0 {
		return nil, nil, nil
	}
	o.Parts = missing
	steps, err := ShortSteps(ctx, dev, o)
	return steps, missing, err
}

// Fill merges the short benchmarks bs (RunShort of MissingSteps) into p,
// saves it and returns it with its path.
func Fill(st Folder, dev *runtime.Device, p *Profile, bs []results.Benchmark) (*Profile, string, error) {
	if sp := FromBenchmarks(dev.Describe(), bs, ShortSource, time.Now().UTC().Truncate(time.Second)); sp != nil {
		p, _ = Merge(p, sp)
	}
	ApplyTheory(p, ComputeTheory(FactsOf(dev)), MemoryTheory(dev, nil))
	path, err := st.Save(p)
	return p, path, err
}

// Missing are the parts p lacks that a roofline needs (bandwidth, float
// compute, launch latency) and the pinned transfers.
func (p *Profile) Missing() []string {
	var missing []string
	if p.Bandwidth == nil {
		missing = append(missing, PartBandwidth)
	}
	if p.Compute["float"] == nil {
		missing = append(missing, PartCompute)
	}
	if p.LaunchLatency() == 0 {
		missing = append(missing, PartLaunch)
	}
	if p.PinnedToDevice == nil && p.PinnedToHost == nil {
		missing = append(missing, PartPinned)
	}
	return missing
}

// fillMissing measures short the parts p lacks (Missing), as steps of
// their own, and merges them in; it returns p unchanged when it lacks none,
// and the parts measured.
func fillMissing(ctx context.Context, dev *runtime.Device, p *Profile, o MeasureOptions) (*Profile, []string, error) {
	steps, missing, err := MissingSteps(ctx, dev, p, o)
	if err != nil || len(steps) == 0 {
		return p, nil, err
	}
	bs, err := RunShort(ctx, dev, steps, o)
	if err != nil {
		return nil, nil, err
	}
	if sp := FromBenchmarks(dev.Describe(), bs, ShortSource, time.Now().UTC().Truncate(time.Second)); sp != nil {
		p, _ = Merge(p, sp)
	}
	return p, missing, nil
}

// LoadOrMeasure returns dev's stored profile, or, when there is none and
// measure is true, measures a short one, stores it and returns it. With
// measure, a stored profile that lacks a part (Missing) has that part
// measured short, merged in and stored. note says which happened in one
// line.
func LoadOrMeasure(ctx context.Context, st Folder, dev *runtime.Device, measureIt bool, o MeasureOptions) (p *Profile, note string, err error) {
	key := KeyOf(dev.Describe())
	p, err = st.Load(key)
	if err == nil && (!measureIt || len(p.Missing()) == 0) {
		return p, "device profile: " + p.Describe() + " (" + st.Path(key) + ")", nil
	}
	if err == nil {
		// A stored profile that lacks a part (a suite measured only some, or
		// only within the caches): measure that part short, once.
		start := time.Now()
		q, parts, err := fillMissing(ctx, dev, p, o)
		if err != nil {
			return nil, "", err
		}
		ApplyTheory(q, ComputeTheory(FactsOf(dev)), MemoryTheory(dev, nil))
		path, err := st.Save(q)
		if err != nil {
			return nil, "", err
		}
		return q, fmt.Sprintf("device profile: %s (%s); it lacked %s: measured short in %s", q.Describe(), path,
			strings.Join(parts, ", "), units.Duration(time.Since(start).Round(time.Millisecond))), nil
	}
	if !errors.Is(err, ErrNoProfile) {
		return nil, "", err
	}
	if !measureIt {
		return nil, "no device profile of " + dev.Info.Name + " (--no-profile): no roofline; 'clmeter suite peaks' measures one", nil
	}
	start := time.Now()
	p, _, err = MeasureShort(ctx, dev, o)
	if err != nil {
		return nil, "", err
	}
	path, err := st.Save(p)
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("no device profile of %s: measured a short one in %s (%s); 'clmeter suite peaks' measures the full ceilings",
		dev.Info.Name, units.Duration(time.Since(start).Round(time.Millisecond)), path), nil
}
