package profile

import (
	"strings"
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/results"
)

// FromBenchmarks builds a profile of device dev from the benchmarks of the
// built-in suites that ran on it (peaks, streams, launch, transfers, quick, or
// the short profile): the bandwidth ceiling is the best median of every
// bandwidth pattern and every stream, the compute ceiling of each precision the
// best of its widths, the launch latency the back-to-back empty kernel, the
// pinned rates the best pinned transfer of each direction. Benchmarks of other
// devices, failed or invalid ones are left out. It returns nil when nothing in
// bs gives a figure. source says what measured them.
func FromBenchmarks(dev results.DeviceInfo, bs []results.Benchmark, source string, updated time.Time) *Profile {
	p := &Profile{Format: FormatVersion, Key: KeyOf(dev), Device: dev, Updated: updated, Compute: map[string]*Ceiling{}, Patterns: map[string]*Ceiling{}}
	found := false
	// better makes n the ceiling *c when it beats it (Ceiling.Beats).
	better := func(c **Ceiling, n Ceiling) {
		if n.Value <= 0 {
			return
		}
		if n.Beats(*c) {
			*c = &n
		}
		found = true
	}
	for i := range bs {
		b := &bs[i]
		if !usable(b, dev) {
			continue
		}
		m := b.Measurement
		parts := strings.Split(b.Name, "/")
		switch {
		case len(parts) == 4 && parts[0] == "peaks" && parts[1] == "bandwidth",
			len(parts) == 3 && parts[0] == "streams":
			pattern := clkernels.StreamTraffic(parts[1])
			if parts[0] == "peaks" {
				pattern = clkernels.PatternTraffic(parts[2])
			}
			n := Ceiling{Value: gbps(b), Unit: "GB/s", From: b.Name, Pattern: pattern, CacheSized: cacheSized(b, dev)}
			better(&p.Bandwidth, n)
			c := p.Patterns[pattern]
			better(&c, n)
			if c != nil {
				p.Patterns[pattern] = c
			}
		case len(parts) == 3 && parts[0] == "peaks" && parts[1] == "local-bandwidth":
			better(&p.LocalBandwidth, Ceiling{Value: gbps(b), Unit: "GB/s", From: b.Name, Pattern: "read-only"})
		case len(parts) == 4 && parts[0] == "peaks" && parts[1] == "compute":
			typ := parts[2]
			unit := "GFLOP/s"
			if typ != "float" && typ != "double" && typ != "half" { // int, int24, short, char
				unit = "GIOP/s"
			}
			c := p.Compute[typ]
			better(&c, Ceiling{Value: gops(b), Unit: unit, From: b.Name})
			if c != nil {
				p.Compute[typ] = c
			}
		case b.Name == "launch/"+clkernels.LaunchThroughput && m.Summary.Median > 0:
			p.LaunchLatency, found = m.Summary.Median, true
		case b.Name == "launch/"+clkernels.LaunchRoundTrip && m.Summary.Median > 0:
			p.LaunchRoundTrip, found = m.Summary.Median, true
		case len(parts) == 4 && parts[0] == "transfers" && parts[1] == clkernels.TransferPinned:
			if parts[2] == clkernels.ToDevice {
				better(&p.PinnedToDevice, Ceiling{Value: gbps(b), Unit: "GB/s", From: b.Name})
			} else {
				better(&p.PinnedToHost, Ceiling{Value: gbps(b), Unit: "GB/s", From: b.Name})
			}
		}
	}
	if !found {
		return nil
	}
	p.Sources = []string{source}
	return p
}

// usable reports whether b is a finished, valid measurement on dev.
func usable(b *results.Benchmark, dev results.DeviceInfo) bool {
	if b.Error != "" || b.Measurement == nil || len(b.Measurement.Samples) == 0 {
		return false
	}
	if v := b.Measurement.Valid; v != nil && !*v {
		return false
	}
	return b.Device.Index == dev.Index && KeyOf(b.Device) == KeyOf(dev)
}

// cacheSized reports whether a bandwidth benchmark moved less than four times
// the device's global (last-level) cache a launch: its figure may come partly
// from the cache, so it sets no memory ceiling (seen on PoCL: the quick
// suite's triad over 32 MiB arrays read 76 GB/s where 64 MiB arrays read 49,
// with a 32 MiB L3).
func cacheSized(b *results.Benchmark, dev results.DeviceInfo) bool {
	t := b.Measurement.Throughput
	return dev.GlobalCacheBytes > 0 && t != nil && t.BytesPerLaunch > 0 && t.BytesPerLaunch < 4*dev.GlobalCacheBytes
}

func gbps(b *results.Benchmark) float64 {
	if t := b.Measurement.Throughput; t != nil {
		return t.GBPerSecond
	}
	return 0
}

func gops(b *results.Benchmark) float64 {
	if t := b.Measurement.Throughput; t != nil {
		return t.GOpsPerSecond
	}
	return 0
}
