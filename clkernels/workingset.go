package clkernels

import (
	"context"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/sizing"
)

// Budget is the memory budget of one benchmark on dev; a positive limit
// (--max-memory) lowers its total and per-buffer sizes.
func Budget(dev *runtime.Device, limit int64) sizing.Budget {
	b := sizing.NewBudget(dev.SizingShape())
	if limit > 0 && limit < b.Total {
		b.Total = limit
		b.Reason += "; lowered to " + sizeLabel(limit) + " by --max-memory"
	}
	b.PerBuffer = min(b.PerBuffer, b.Total)
	return b
}

// probeSettings measure one size of the working-set search: a few short
// samples, enough to tell a cache from memory (a step of 1.5x or more).
var probeSettings = measure.Settings{MinSamples: 3, MaxNoise: 0.03, MaxTime: 300 * time.Millisecond, MinSampleTime: 10 * time.Millisecond}

// probePattern is the read-only pattern and width the search measures with:
// each work-item's own chunk on a CPU (the fastest read on PoCL), the
// coalesced grid stride on a GPU.
func probePattern(dev *runtime.Device) (string, int) {
	if isCPU(dev) {
		return PatternChunk, 16
	}
	return PatternStride, 4
}

// workingSets are the working sets measured on a device, by budget (its
// total and per-buffer sizes), on the device's session: one probe at a time a
// device, devices at once.
var workingSets = runtime.NewMemo[[2]int64, sizing.Plateau]("working set")

// WorkingSet is the working set memory bandwidth is measured at on dev: a
// read-only buffer grown from a fraction of the reported cache until its
// bandwidth plateaus beyond that cache, inside budget, or one read of it
// takes longer than a sample (sizing.SearchWithin, DefaultMinSampleTime). The
// buffers are filled in place (a pattern), so the search makes no host
// copies. It is measured once per device and budget in a process; devices
// measured at once probe at once.
func WorkingSet(ctx context.Context, dev *runtime.Device, budget sizing.Budget) (sizing.Plateau, error) {
	return workingSets.Do(dev, [2]int64{budget.Total, budget.PerBuffer}, func() (sizing.Plateau, error) {
		return probeWorkingSet(ctx, dev, budget)
	})
}

// probeWorkingSet is WorkingSet's search.
func probeWorkingSet(ctx context.Context, dev *runtime.Device, budget sizing.Budget) (sizing.Plateau, error) {
	pattern, width := probePattern(dev)
	return sizing.SearchWithin(ctx, dev.Info.GlobalCacheBytes, budget.Buffer(1), measure.DefaultMinSampleTime, budget, func(ctx context.Context, bytes int64) (float64, error) {
		b, err := harness.Measure(ctx, harness.Item{Name: "working-set probe", Device: dev, Settings: probeSettings,
			Modes: harness.Modes{NoPhases: true},
			Make: func() (harness.Bench, error) {
				kb, err := bandwidthReadOnly(dev, pattern, width, bytes)
				return harness.Kernel(kb), err
			}})
		if err != nil {
			return 0, err
		}
		res := b.Measurement
		if res.Throughput == nil {
			return 0, nil
		}
		// The best sample: another process on the machine only ever slows a
		// sample down, so the fastest is the steadiest figure of a short probe.
		return res.Throughput.BestGBPerSecond, nil
	})
}

// found returns the working sets measured on dev in this process.
func found(dev *runtime.Device) []sizing.Plateau { return workingSets.Values(dev) }

// Region is where a working set of bytes lives on dev: sizing.RegionCache
// when it fits the last-level cache the device reports, or a cache the
// working-set search found faster than memory (WorkingSet), else
// sizing.RegionMemory.
func Region(dev *runtime.Device, bytes int64) string {
	if c := dev.Info.GlobalCacheBytes; c > 0 && bytes <= c {
		return sizing.RegionCache
	}
	for _, p := range found(dev) {
		if bytes <= p.Cache.Bytes {
			return sizing.RegionCache
		}
	}
	return sizing.RegionMemory
}

// OnPlateau says whether a memory working set of bytes on dev is on the
// plateau the working-set search found: "yes" from the plateau's size up,
// "no" below it or when the search stopped before a plateau.
func OnPlateau(dev *runtime.Device, bytes int64) string {
	for _, p := range found(dev) {
		if p.Found && bytes >= p.Memory.Bytes {
			return "yes"
		}
	}
	return "no"
}
