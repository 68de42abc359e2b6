package profile

import (
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// FromBenchmarks builds a profile of device dev from the benchmarks of the
// built-in suites that ran on it (peaks, streams, launch, transfers, quick, or
// the short profile), each filed in its slot by the one ceiling rule (SlotOf,
// from the benchmark's typed identity): the bandwidth ceiling is the best
// median of every bandwidth pattern and every stream measured beyond the
// device's caches (one within them is the cache bandwidth), the compute
// ceiling of each precision the best of its widths, the launch latency the
// back-to-back empty kernel, the pinned rates the best pinned transfer of each
// direction. Each figure's Origin names its benchmark, source (what measured
// them) and measured. Benchmarks of other devices, failed, invalid or
// unfinished ones are left out. It returns nil when nothing in bs gives a
// figure.
func FromBenchmarks(dev results.DeviceInfo, bs []results.Benchmark, source string, measured time.Time) *Profile {
	p := &Profile{Format: FormatVersion, Key: KeyOf(dev), Device: dev, Updated: measured, Compute: map[string]*Ceiling{}, Patterns: map[string]*Ceiling{}}
	found := false
	for i := range bs {
		b := &bs[i]
		if !usable(b, dev) {
			continue
		}
		if s, ok := BenchmarkSlot(*b); ok && p.file(s, b, Origin{From: b.Name, Source: source, Measured: measured}) {
			found = true
		}
	}
	if !found {
		return nil
	}
	return p
}

// file sets b's figure in slot s of p when it beats the one there, and
// reports whether b gave a figure.
func (p *Profile) file(s Slot, b *results.Benchmark, o Origin) bool {
	t := b.Measurement.Throughput
	if t == nil {
		t = &measure.Throughput{}
	}
	// better makes n the ceiling *c when it beats it (Ceiling.Beats).
	better := func(c **Ceiling, n Ceiling) bool {
		if n.Value <= 0 {
			return false
		}
		if n.Beats(*c) {
			*c = &n
		}
		return true
	}
	latency := func(l **Latency) bool {
		n := &Latency{Value: b.Measurement.Summary.Median, Origin: o}
		if !n.Beats(*l) {
			return false
		}
		*l = n
		return true
	}
	switch s.Figure {
	case FigureBandwidth:
		n := Ceiling{Value: t.GBPerSecond, Unit: "GB/s", Origin: o, Pattern: s.Traffic, BytesPerLaunch: t.BytesPerLaunch,
			WorkingSet: b.Identity.WorkingSetBytes, OffPlateau: b.Identity.OffPlateau}
		total, byPattern := &p.Bandwidth, &p.Patterns
		if s.Region == RegionCache {
			total, byPattern = &p.CacheBandwidth, &p.CachePatterns
		}
		if s.Traffic != "" {
			if *byPattern == nil {
				*byPattern = map[string]*Ceiling{}
			}
			c := (*byPattern)[s.Traffic]
			better(&c, n)
			if c != nil {
				(*byPattern)[s.Traffic] = c
			}
		}
		return better(total, n)
	case FigureLocalBandwidth:
		return better(&p.LocalBandwidth, Ceiling{Value: t.GBPerSecond, Unit: "GB/s", Origin: o, Pattern: results.TrafficReadOnly})
	case FigureCompute:
		c := p.Compute[s.Type]
		ok := better(&c, Ceiling{Value: t.GOpsPerSecond, Unit: computeUnit(s.Type), Origin: o})
		if c != nil {
			p.Compute[s.Type] = c
		}
		return ok
	case FigureLaunch:
		return latency(&p.Launch)
	case FigureLaunchRoundTrip:
		return latency(&p.LaunchRoundTrip)
	case FigurePinned:
		c := p.Ceiling(s)
		ok := better(&c, Ceiling{Value: t.GBPerSecond, Unit: "GB/s", Origin: o})
		if s.Direction == clkernels.ToDevice {
			p.PinnedToDevice = c
		} else {
			p.PinnedToHost = c
		}
		return ok
	}
	return false
}

// computeUnit is the unit of a compute ceiling of typ: GFLOP/s for the
// floating-point types, GIOP/s for the integers (int, int24, short, char).
func computeUnit(typ string) string {
	if typ == "float" || typ == "double" || typ == "half" {
		return "GFLOP/s"
	}
	return "GIOP/s"
}

// usable reports whether b is a finished, valid measurement on dev.
func usable(b *results.Benchmark, dev results.DeviceInfo) bool {
	if !b.HasFigure() {
		return false
	}
	if v := b.Measurement.Valid; v != nil && !*v {
		return false
	}
	return b.Device.Index == dev.Index && KeyOf(b.Device) == KeyOf(dev)
}

// Rebuild builds the profiles of every device in srcs from their benchmarks
// alone (FromBenchmarks of each file and device, merged: each figure the best
// of all files, with the file as its source and the file's creation time as
// when it was measured). It is how a profile is made again from what was
// measured, without what a stored profile kept. Devices whose benchmarks give
// no figure are left out.
func Rebuild(srcs []results.Source) []*Profile {
	byKey := map[Key]*Profile{}
	var order []Key
	for _, s := range srcs {
		seen := map[results.DeviceInfo]bool{}
		for _, b := range s.File.Benchmarks {
			dev := b.Device
			if seen[dev] {
				continue
			}
			seen[dev] = true
			n := FromBenchmarks(dev, s.File.Benchmarks, "result file "+s.Path, s.File.Created)
			if n == nil {
				continue
			}
			if _, ok := byKey[n.Key]; !ok {
				order = append(order, n.Key)
			}
			byKey[n.Key], _ = Merge(byKey[n.Key], n)
		}
	}
	out := make([]*Profile, len(order))
	for i, k := range order {
		out[i] = byKey[k]
	}
	return out
}
