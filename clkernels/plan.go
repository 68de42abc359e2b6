package clkernels

import (
	"context"
	"fmt"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/sizing"
)

// plan declares one suite's steps on a device: the suite's makers add them
// (measured, derived, self-timed) and the harness.Sequence runs or lists
// them.
type plan struct {
	ctx   context.Context
	dev   *runtime.Device
	o     Options
	suite string
	state *suiteState
	// listing is set when the steps are only listed: nothing is measured,
	// and sizes that a measurement decides (the working set) are named, not
	// probed.
	listing bool
	steps   []harness.Step
	// cleanups run once the steps ran (the firsttouch buffers).
	cleanups []func()
	// err stopped the sizing (a cancellation while probing).
	err error
}

// param is one benchmark parameter.
type param struct{ name, value string }

// base is the record a step of name starts from, with identity id (nil for
// the experiments, which have none; its Suite is set to the suite's) and
// params.
func (p *plan) base(name string, id *results.Identity, params []param) results.Benchmark {
	b := results.Benchmark{Name: name, Kind: "suite:" + p.suite, Device: p.dev.Describe(), Figures: []results.Figure{}}
	if id != nil {
		c := *id
		c.Suite = p.suite
		b.Identity = &c
	}
	for _, ps := range params {
		b.SetParam(ps.name, ps.value)
	}
	return b
}

// add declares st and returns its name.
func (p *plan) add(st harness.Step) string {
	p.steps = append(p.steps, st)
	return st.Base.Name
}

// kernel declares a KernelBenchmark made by mk, without the copy-in, compute
// and copy-out phases: the suites' tables show the kernel's own figures.
func (p *plan) kernel(name string, id *results.Identity, params []param, mk func() (*runtime.KernelBenchmark, error)) string {
	return p.kernelPhases(name, id, params, false, mk)
}

// kernelPhases declares a KernelBenchmark made by mk, with its phases when
// phases is set (the coldstart experiment's in-process totals).
func (p *plan) kernelPhases(name string, id *results.Identity, params []param, phases bool, mk func() (*runtime.KernelBenchmark, error)) string {
	return p.add(harness.Step{Base: p.base(name, id, params), Modes: harness.Modes{NoPhases: !phases}, Make: func() (harness.Bench, error) {
		kb, err := mk()
		if err != nil {
			return nil, err
		}
		return harness.Kernel(kb), nil
	}})
}

// plain declares a benchmark that is not a kernel's (launch, transfers,
// reduction), measured with timer when set.
func (p *plan) plain(name string, id *results.Identity, params []param, timer measure.Timer, mk func() (measure.Benchmark, func() *results.ProgramInfo, error)) string {
	return p.add(harness.Step{Base: p.base(name, id, params), Timer: timer, Make: func() (harness.Bench, error) {
		b, prog, err := mk()
		if err != nil {
			return nil, err
		}
		return harness.Plain(b, prog), nil
	}})
}

// derived declares a record derived from the steps named from (see
// harness.Step.Derive).
func (p *plan) derived(name string, id *results.Identity, params []param, from []string, derive func(ran map[string]results.Benchmark) ([]results.Figure, map[string]any, bool)) {
	p.add(harness.Step{Base: p.base(name, id, params), From: from, Derive: derive})
}

// timed declares a step that times itself (see harness.Step.Figures).
func (p *plan) timed(name string, params []param, fn func(ctx context.Context) ([]results.Figure, map[string]any, error)) {
	p.add(harness.Step{Base: p.base(name, nil, params), Figures: fn})
}

// record declares a record made while sizing (the working-set row).
func (p *plan) record(b results.Benchmark) {
	p.add(harness.Step{Base: b, Record: true})
}

// ProbedSize is the size parameter of a listed benchmark whose working set
// the working-set probe decides when the suite runs (Suite.List).
const ProbedSize = "probed"

// sized declares a kernel benchmark over a working set of bytes that is
// measured again over a smaller one when its launches are too slow for the
// minimum samples inside the time budget (see shrinkStep). def gives its
// identity and params at a working set; while listing with the working set
// unprobed (bytes 0), the size is named ProbedSize.
func (p *plan) sized(name string, bytes int64, def func(bytes int64) (results.Identity, []param), mk func(bytes int64) (*runtime.KernelBenchmark, error)) string {
	st := p.sizedStep(name, bytes, def, mk)
	if bytes > 0 {
		st.Retry = func(first results.Benchmark) *harness.Step { return p.shrinkStep(first, name, bytes, def, mk) }
	}
	return p.add(st)
}

// sizedStep is the step of sized at a working set of bytes.
func (p *plan) sizedStep(name string, bytes int64, def func(bytes int64) (results.Identity, []param), mk func(bytes int64) (*runtime.KernelBenchmark, error)) harness.Step {
	var base results.Benchmark
	if bytes > 0 {
		id, params := def(bytes)
		base = p.base(name, &id, params)
	} else {
		id, params := def(1 << 20)
		id.WorkingSetBytes, id.Region, id.OffPlateau = 0, "", false
		base = p.base(name, &id, nil)
		for _, ps := range params {
			switch ps.name {
			case "region", "plateau", "elements":
				continue
			case "size", "array":
				ps.value = ProbedSize
			}
			base.SetParam(ps.name, ps.value)
		}
	}
	return harness.Step{Base: base, Modes: harness.Modes{NoPhases: true}, Make: func() (harness.Bench, error) {
		kb, err := mk(bytes)
		if err != nil {
			return nil, err
		}
		return harness.Kernel(kb), nil
	}}
}

// shrinkStep is what a sized benchmark over bytes measures after its first
// measurement (first): nil to keep it; the same working set, validated, when
// it was short but cannot shrink (1 MiB floor); else a smaller working set
// its launches allow (fitBytes), the record saying what it shrank from. The
// first measurement skips its validation when short of its samples, and stops
// after its warm-up when that used up the time budget: it is thrown away
// then, and its launches are the longest (1 s each for a strided read of 1 GiB
// on a 2-core CPU).
func (p *plan) shrinkStep(first results.Benchmark, name string, bytes int64, def func(bytes int64) (results.Identity, []param), mk func(bytes int64) (*runtime.KernelBenchmark, error)) *harness.Step {
	res := first.Measurement
	n := fitBytes(p.o.Settings, bytes, res)
	switch {
	case n == bytes && res != nil && res.Short():
		st := p.sizedStep(name, bytes, def, mk)
		return &st
	case n < bytes:
		st := p.sizedStep(name, n, def, mk)
		st.Finish = func(b *results.Benchmark) {
			if b.Extra == nil {
				b.Extra = map[string]any{}
			}
			b.Extra["shrunk_from_bytes"] = bytes
			if b.Measurement != nil {
				b.Measurement.Warnings = append(b.Measurement.Warnings, describeShrink(bytes, n))
			}
		}
		return &st
	}
	return nil
}

// memoryBytes is the working set of the suite's memory figures: 1 MiB with
// Small; the probed one (declaring its row once a run); zero while listing,
// where it is not probed. ok is false when none was found (the row says why).
func (p *plan) memoryBytes() (sizing.Plateau, bool) {
	if p.o.Small {
		return sizing.Plateau{Memory: sizing.Step{Bytes: 1 << 20}, Region: Region(p.dev, 1<<20)}, true
	}
	if p.listing {
		if !p.state.workingSetEmitted {
			p.state.workingSetEmitted = true
			b := p.base(WorkingSetName, &results.Identity{Kind: results.KindWorkingSet}, []param{{"probe", "up to " + sizeLabel(Budget(p.dev, p.o.MaxMemory).Buffer(1))}})
			p.record(b)
		}
		return sizing.Plateau{}, true
	}
	ws, err := p.workingSet()
	return ws, err == nil && ws.Memory.Bytes > 0
}

// bufferBytes is the size of each of buffers buffers sharing a working set
// of bytes, inside the budget.
func (p *plan) bufferBytes(bytes int64, buffers int) int64 {
	n := bytes / int64(buffers)
	if !p.o.Small {
		n = min(n, Budget(p.dev, p.o.MaxMemory).Buffer(buffers))
	}
	return n &^ 4095
}

// iters is the loop count of the compute and local kernels: 4 with Small
// (the kernel's default otherwise).
func (p *plan) iters() int {
	if p.o.Small {
		return 4
	}
	return 0
}

func describeShrink(from, to int64) string {
	return fmt.Sprintf("working set shrunk from %s to %s to reach the minimum samples in the time budget", sizeLabel(from), sizeLabel(to))
}

// bestOf is the best valid median throughput (GB/s; G operations/s with ops)
// among the records of names that ran, and the name that gave it.
func bestOf(ran map[string]results.Benchmark, names []string, ops bool) (float64, string) {
	best, bestName := 0.0, ""
	for _, n := range names {
		b, ok := ran[n]
		if !ok {
			continue
		}
		if v := throughput(b.Measurement, ops); v > best && validOK(b.Measurement) {
			best, bestName = v, n
		}
	}
	return best, bestName
}
