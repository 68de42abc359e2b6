package clkernels

import (
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

// workingSet is the working set of the suite's memory bandwidth figures,
// probed (WorkingSet), declaring the WorkingSetName row the first time in a
// run. Zero means none could be measured (the row says why); an error is a
// cancellation, kept in p.err: it stops the suite before anything else runs.
func (p *plan) workingSet() (sizing.Plateau, error) {
	if p.err != nil {
		return sizing.Plateau{}, p.err
	}
	if p.o.Progress != nil && !p.state.workingSetEmitted {
		p.o.Progress(WorkingSetName)
	}
	ws, err := WorkingSet(p.ctx, p.dev, Budget(p.dev, p.o.MaxMemory))
	if err != nil {
		if cerr := p.ctx.Err(); cerr != nil {
			p.err = cerr
			return ws, cerr
		}
		b := p.base(WorkingSetName, &results.Identity{Kind: results.KindWorkingSet}, nil)
		b.Error = err.Error()
		p.record(b)
		return sizing.Plateau{}, nil
	}
	if p.state.workingSetEmitted {
		return ws, nil
	}
	p.state.workingSetEmitted = true
	var figs []results.Figure
	for _, st := range ws.Steps {
		note := "outside the reported cache"
		if st.Bytes <= ws.CacheBytes {
			note = "inside the reported cache"
		}
		if st == ws.Memory {
			note = "the memory figures' working set (" + ws.Region + ")"
		}
		figs = append(figs, results.Figure{Name: "probe at " + units.Bytes(st.Bytes), Value: st.GBps, Unit: "GB/s", Note: note})
	}
	id := results.Identity{Kind: results.KindWorkingSet, WorkingSetBytes: ws.Memory.Bytes, Region: ws.Region}
	b := p.base(WorkingSetName, &id, []param{{"size", sizeLabel(ws.Memory.Bytes)}, {"region", ws.Region}})
	b.Figures = append(b.Figures, figs...)
	b.Extra = map[string]any{"plateau": ws, "note": ws.Note()}
	p.record(b)
	return ws, nil
}

// sizeErr declares the suite's steps on p (steps) and returns what stopped
// their sizing: a cancellation while probing the working set.
func (p *plan) sizeErr(steps func(*plan)) error {
	steps(p)
	return p.err
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

// BandwidthIdentity is the identity of the global bandwidth of pattern at
// width over a working set of bytes on dev, as the peaks suite gives it: its
// region and plateau are those of that working set (Region, OnPlateau).
func BandwidthIdentity(dev *runtime.Device, pattern string, width int, bytes int64) results.Identity {
	id, _ := regionDef(dev, bytes, bandwidthID(pattern, width))
	return id
}
