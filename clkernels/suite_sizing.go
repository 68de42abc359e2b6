package clkernels

import (
	"fmt"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/sizing"
	"github.com/clmeter/clmeter/units"
)

// WorkingSetName is the benchmark that records where the working set of the
// memory figures was found: one figure a size the search measured, and the
// plateau and budget in its note and Extra["plateau"].
const WorkingSetName = "peaks/working-set"

// workingSet is the working set of the suite's memory bandwidth figures in
// bytes (1 MiB with Small), emitting the WorkingSetName row the first time.
// Zero means none could be measured (the row says why).
func (r *runner) workingSet() (sizing.Plateau, error) {
	if r.o.Small {
		return sizing.Plateau{Memory: sizing.Step{Bytes: 1 << 20}, Region: Region(r.dev, 1<<20)}, nil
	}
	if r.o.Progress != nil && !r.state.workingSetEmitted {
		r.o.Progress(WorkingSetName)
	}
	p, err := WorkingSet(r.ctx, r.dev, Budget(r.dev, r.o.MaxMemory))
	if err != nil {
		if cerr := r.ctx.Err(); cerr != nil {
			return p, cerr
		}
		b := r.with(results.Identity{Kind: results.KindWorkingSet}).newBenchmark(WorkingSetName, nil)
		b.Error = err.Error()
		return sizing.Plateau{}, r.emit(b)
	}
	if r.state.workingSetEmitted {
		return p, nil
	}
	r.state.workingSetEmitted = true
	var figs []results.Figure
	for _, st := range p.Steps {
		note := "outside the reported cache"
		if st.Bytes <= p.CacheBytes {
			note = "inside the reported cache"
		}
		if st == p.Memory {
			note = "the memory figures' working set (" + p.Region + ")"
		}
		figs = append(figs, results.Figure{Name: "probe at " + units.Bytes(st.Bytes), Value: st.GBps, Unit: "GB/s", Note: note})
	}
	id := results.Identity{Kind: results.KindWorkingSet, WorkingSetBytes: p.Memory.Bytes, Region: p.Region}
	return p, r.with(id).figures(WorkingSetName, []param{{"size", sizeLabel(p.Memory.Bytes)}, {"region", p.Region}}, figs,
		map[string]any{"plateau": p, "note": p.Note()})
}

// kernelSized measures the benchmark mk makes over a working set of bytes and,
// when its launches are too slow for the minimum samples inside the time
// budget, measures it once more over a working set they allow: the work
// shrinks, never the samples. Only the second measurement is emitted then.
// def gives the benchmark's identity and params at a working set.
//
// The first measurement skips its validation when it is short of its samples
// (measure.Settings.ShortUnvalidated), and stops after its warm-up when that
// used up the time budget: it is thrown away then, and its launches are the
// longest (a second or more for a strided read of a large working set on a
// CPU). When it is
// short but cannot shrink (its working set is at the 1 MiB floor) it is
// measured again, validated.
func (r *runner) kernelSized(name string, bytes int64, def func(bytes int64) (results.Identity, []param), mk func(bytes int64) (*runtime.KernelBenchmark, error)) (*measure.Result, error) {
	first := *r
	first.o.Settings.ShortUnvalidated = true
	run := func(r *runner, n int64) (results.Benchmark, *measure.Result, error) {
		id, params := def(n)
		return r.with(id).measureOnly(name, params, "", func() (measure.Benchmark, func() *results.ProgramInfo, error) {
			kb, err := mk(n)
			if err != nil {
				return nil, nil, err
			}
			kb.NoPhases = true
			return kb.Measurable(), func() *results.ProgramInfo { return kb.Build.ProgramInfo(kb.Source.Name) }, nil
		})
	}
	b, res, stop := run(&first, bytes)
	if stop == nil && b.Error == "" && b.Name != "" {
		if n := fitBytes(r.o.Settings, bytes, res); n == bytes && res.Short() {
			b, res, stop = run(r, bytes)
		} else if n < bytes {
			b, res, stop = run(r, n)
			if b.Extra == nil {
				b.Extra = map[string]any{}
			}
			b.Extra["shrunk_from_bytes"] = bytes
			if b.Measurement != nil {
				b.Measurement.Warnings = append(b.Measurement.Warnings, describeShrink(bytes, n))
			}
		}
	}
	return res, r.finish(b, res, stop)
}

// fitBytes is the working set at which a benchmark that took res over bytes
// reaches its minimum samples inside its time budget: bytes when it did, else
// smaller in proportion to its launch time (a power of two, at least 1 MiB).
func fitBytes(s measure.Settings, bytes int64, res *measure.Result) int64 {
	minSamples, maxTime := s.MinSamples, s.MaxTime
	if minSamples <= 0 {
		minSamples = measure.DefaultMinSamples
	}
	if maxTime <= 0 {
		maxTime = measure.DefaultMaxTime
	}
	if s.Samples > 0 || res == nil || res.Summary.N >= minSamples || res.StopReason != measure.StopMaxTime {
		return bytes
	}
	per := res.Summary.Median
	if res.Summary.N == 0 && res.Warmup.Launches > 0 {
		// Stopped after the warm-up (ShortUnvalidated): its launches tell.
		per = res.Warmup.Duration / time.Duration(res.Warmup.Launches)
	}
	if per <= 0 {
		return bytes
	}
	// Room for the samples and a warm-up launch or two.
	fit := maxTime / time.Duration(minSamples+2)
	n := int64(float64(bytes) * float64(fit) / float64(per))
	p := int64(1 << 20)
	for p*2 <= n {
		p *= 2
	}
	return min(p, bytes)
}

// regionDef is the identity id and params ps of a bandwidth benchmark over
// a working set of bytes on dev, with what that working set gives: its size,
// region and, for memory, whether it is on the plateau the search found
// ("plateau": "yes" or "no").
func regionDef(dev *runtime.Device, bytes int64, id results.Identity, ps ...param) (results.Identity, []param) {
	id.WorkingSetBytes, id.Region = bytes, Region(dev, bytes)
	ps = append(ps, param{"size", sizeLabel(bytes)}, param{"region", id.Region})
	if id.Region == sizing.RegionMemory {
		plateau := OnPlateau(dev, bytes)
		id.OffPlateau = plateau == "no"
		ps = append(ps, param{"plateau", plateau})
	}
	return id, ps
}

// bufferBytes is the size of each of buffers buffers sharing a working set
// of bytes, inside the budget.
func (r *runner) bufferBytes(bytes int64, buffers int) int64 {
	n := bytes / int64(buffers)
	if !r.o.Small {
		n = min(n, Budget(r.dev, r.o.MaxMemory).Buffer(buffers))
	}
	return n &^ 4095
}

func describeShrink(from, to int64) string {
	return fmt.Sprintf("working set shrunk from %s to %s to reach the minimum samples in the time budget", sizeLabel(from), sizeLabel(to))
}

// BandwidthIdentity is the identity of the global bandwidth of pattern at
// width over a working set of bytes on dev, as the peaks suite gives it: its
// region and plateau are those of that working set (Region, OnPlateau).
func BandwidthIdentity(dev *runtime.Device, pattern string, width int, bytes int64) results.Identity {
	id, _ := regionDef(dev, bytes, bandwidthID(pattern, width))
	return id
}
