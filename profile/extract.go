package profile

import (
	"strings"
	"time"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

// FromBenchmarks builds a profile of device dev from the benchmarks of the
// built-in suites that ran on it (peaks, streams, launch, transfers, quick, or
// the short profile): the bandwidth ceiling is the best median of every
// bandwidth pattern and every stream measured beyond the device's caches
// (BandwidthRegion; one within them is the cache bandwidth), the compute
// ceiling of each precision the best of its widths, the launch latency the
// back-to-back empty kernel, the pinned rates the best pinned transfer of each
// direction. Each figure's Origin names its benchmark, source (what measured
// them) and measured. Benchmarks of other devices, failed, invalid or
// unfinished ones are left out. It returns nil when nothing in bs gives a
// figure.
func FromBenchmarks(dev results.DeviceInfo, bs []results.Benchmark, source string, measured time.Time) *Profile {
	p := &Profile{Format: FormatVersion, Key: KeyOf(dev), Device: dev, Updated: measured, Compute: map[string]*Ceiling{}, Patterns: map[string]*Ceiling{}}
	found := false
	origin := func(b *results.Benchmark) Origin { return Origin{From: b.Name, Source: source, Measured: measured} }
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
	latency := func(l **Latency, b *results.Benchmark) {
		n := &Latency{Value: b.Measurement.Summary.Median, Origin: origin(b)}
		if n.Beats(*l) {
			*l = n
			found = true
		}
	}
	for i := range bs {
		b := &bs[i]
		if !usable(b, dev) {
			continue
		}
		parts := strings.Split(b.Name, "/")
		switch {
		case isGlobalBandwidth(b):
			pattern := clkernels.StreamTraffic(parts[1])
			if parts[0] == "peaks" {
				pattern = clkernels.PatternTraffic(parts[2])
			}
			n := Ceiling{Value: gbps(b), Unit: "GB/s", Origin: origin(b), Pattern: pattern, BytesPerLaunch: b.Measurement.Throughput.BytesPerLaunch}
			if ws, err := units.ParseByteSize(b.Params["size"]); err == nil && ws > 0 {
				n.WorkingSet = ws
			}
			n.OffPlateau = b.Params["plateau"] == "no"
			if BandwidthRegion(*b) == RegionCache {
				better(&p.CacheBandwidth, n)
				continue
			}
			better(&p.Bandwidth, n)
			c := p.Patterns[pattern]
			better(&c, n)
			if c != nil {
				p.Patterns[pattern] = c
			}
		case len(parts) == 3 && parts[0] == "peaks" && parts[1] == "local-bandwidth":
			better(&p.LocalBandwidth, Ceiling{Value: gbps(b), Unit: "GB/s", Origin: origin(b), Pattern: "read-only"})
		case len(parts) == 4 && parts[0] == "peaks" && parts[1] == "compute":
			typ := parts[2]
			unit := "GFLOP/s"
			if typ != "float" && typ != "double" && typ != "half" { // int, int24, short, char
				unit = "GIOP/s"
			}
			c := p.Compute[typ]
			better(&c, Ceiling{Value: gops(b), Unit: unit, Origin: origin(b)})
			if c != nil {
				p.Compute[typ] = c
			}
		case b.Name == "launch/"+clkernels.LaunchThroughput:
			latency(&p.Launch, b)
		case b.Name == "launch/"+clkernels.LaunchRoundTrip:
			latency(&p.LaunchRoundTrip, b)
		case len(parts) == 4 && parts[0] == "transfers" && parts[1] == clkernels.TransferPinned:
			if parts[2] == clkernels.ToDevice {
				better(&p.PinnedToDevice, Ceiling{Value: gbps(b), Unit: "GB/s", Origin: origin(b)})
			} else {
				better(&p.PinnedToHost, Ceiling{Value: gbps(b), Unit: "GB/s", Origin: origin(b)})
			}
		}
	}
	if !found {
		return nil
	}
	return p
}

// Regions of a global bandwidth benchmark (BandwidthRegion).
const (
	// RegionMemory: measured beyond the device's caches; its figure is a
	// memory bandwidth.
	RegionMemory = "memory"
	// RegionCache: the working set fits in a cache level; its figure is
	// partly or wholly the cache's.
	RegionCache = "cache"
)

// BandwidthRegion is the one rule for where a global bandwidth benchmark's
// figure comes from, used by the device profile's ceilings and the suite
// table's % PEAK alike: the benchmark's own "region" parameter when it has one
// (the built-in suites set "memory" or "cache"; any other value counts as
// "cache"), else, for older result files and other kernels, RegionCache when
// one launch moved less than four times the device's global (last-level)
// cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) and RegionMemory otherwise (also
// when either is unknown). Seen on PoCL: the quick suite's triad over 32 MiB
// arrays read 76 GB/s where 64 MiB arrays read 49, with a 32 MiB L3.
func BandwidthRegion(b results.Benchmark) string {
	if r, ok := b.Params["region"]; ok {
		if r == RegionMemory {
			return RegionMemory
		}
		return RegionCache
	}
	var bytes int64
	if m := b.Measurement; m != nil && m.Throughput != nil {
		bytes = m.Throughput.BytesPerLaunch
	}
	if cacheSized(bytes, b.Device.GlobalCacheBytes) {
		return RegionCache
	}
	return RegionMemory
}

// cacheSized is BandwidthRegion's rule without a region parameter: a launch
// moving less than four times the device's last-level cache may run from
// it (false when either is unknown).
func cacheSized(bytes, cache int64) bool {
	return cache > 0 && bytes > 0 && bytes < 4*cache
}

// isGlobalBandwidth reports whether b is one of the built-in global memory
// bandwidth benchmarks (peaks/bandwidth/PATTERN/WIDTH, streams/KERNEL/TYPE)
// with a bandwidth figure.
func isGlobalBandwidth(b *results.Benchmark) bool {
	parts := strings.Split(b.Name, "/")
	named := len(parts) == 4 && parts[0] == "peaks" && parts[1] == "bandwidth" || len(parts) == 3 && parts[0] == "streams"
	return named && b.Measurement != nil && b.Measurement.Throughput != nil
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
