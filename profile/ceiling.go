package profile

import (
	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/results"
)

// Figures of a device that a benchmark measures (Slot.Figure).
const (
	// FigureBandwidth is a global memory bandwidth: the memory's beyond the
	// caches (Profile.Bandwidth, Patterns), the caches' within them
	// (Profile.CacheBandwidth).
	FigureBandwidth = "bandwidth"
	// FigureLocalBandwidth is Profile.LocalBandwidth.
	FigureLocalBandwidth = "local-bandwidth"
	// FigureImageBandwidth is an image bandwidth (the suite table's; not a
	// profile figure).
	FigureImageBandwidth = "image-bandwidth"
	// FigureCompute is Profile.Compute[Slot.Type].
	FigureCompute = "compute"
	// FigureLaunch is Profile.Launch, FigureLaunchRoundTrip
	// Profile.LaunchRoundTrip.
	FigureLaunch          = "launch"
	FigureLaunchRoundTrip = "launch-round-trip"
	// FigurePinned is Profile.PinnedToDevice or PinnedToHost
	// (Slot.Direction).
	FigurePinned = "pinned"
)

// Regions of a bandwidth (Slot.Region).
const (
	// RegionMemory: measured beyond the device's caches; its figure is a
	// memory bandwidth.
	RegionMemory = results.RegionMemory
	// RegionCache: the working set fits in a cache level; its figure is
	// partly or wholly the cache's.
	RegionCache = results.RegionCache
)

// A Slot is the figure of a device that a benchmark measures: the ceiling
// its figure may set, and the one the suite table's % PEAK is a percentage
// of (SlotOf).
type Slot struct {
	// Figure is one of the Figure constants.
	Figure string
	// Region is a bandwidth's (global or image): RegionMemory or
	// RegionCache. A figure of the caches is never a memory ceiling.
	Region string
	// Type is a compute figure's precision ("float", "int" ...).
	Type string
	// Traffic is a global bandwidth's memory traffic (results.Traffic...).
	Traffic string
	// Direction is a pinned transfer's (clkernels.ToDevice or ToHost).
	Direction string
}

// SlotOf is the one ceiling rule: the device figure a benchmark of identity
// id measures, or false when it measures none (no identity, a race's best
// figure, the working set, a pageable transfer ...). The device profile
// files each figure in its slot (FromBenchmarks), the suite table's % PEAK
// divides by its slot's ceiling, and the roofline takes a kernel's
// bandwidth roof from the slot of its bytes (Place). A global or image
// bandwidth's Region is id's own when the suite set one (any value but
// RegionMemory is the caches'), else, for older files and a user's kernel,
// RegionCache when one launch moved less than four times the device's
// last-level cache (cacheBytes, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) and
// RegionMemory otherwise (also when either is unknown). Seen on PoCL: the
// quick suite's triad over 32 MiB arrays read 76 GB/s where 64 MiB arrays
// read 49, with a 32 MiB L3.
func SlotOf(id *results.Identity, bytesPerLaunch, cacheBytes int64) (Slot, bool) {
	if id == nil || id.Best {
		return Slot{}, false
	}
	switch id.Kind {
	case results.KindBandwidth:
		return Slot{Figure: FigureBandwidth, Region: region(id.Region, bytesPerLaunch, cacheBytes), Traffic: id.Traffic}, true
	case results.KindCacheBandwidth:
		return Slot{Figure: FigureBandwidth, Region: RegionCache, Traffic: id.Traffic}, true
	case results.KindImageBandwidth:
		return Slot{Figure: FigureImageBandwidth, Region: region(id.Region, bytesPerLaunch, cacheBytes)}, true
	case results.KindLocalBandwidth:
		return Slot{Figure: FigureLocalBandwidth}, true
	case results.KindCompute:
		return Slot{Figure: FigureCompute, Type: id.Type}, true
	case results.KindLaunch:
		switch id.Mode {
		case clkernels.LaunchThroughput:
			return Slot{Figure: FigureLaunch}, true
		case clkernels.LaunchRoundTrip:
			return Slot{Figure: FigureLaunchRoundTrip}, true
		}
	case results.KindTransfer:
		if id.Memory == clkernels.TransferPinned {
			return Slot{Figure: FigurePinned, Direction: id.Direction}, true
		}
	}
	return Slot{}, false
}

// BenchmarkSlot is SlotOf a benchmark: its identity, the bytes one launch
// moved and its device's last-level cache.
func BenchmarkSlot(b results.Benchmark) (Slot, bool) {
	var bytes int64
	if m := b.Measurement; m != nil && m.Throughput != nil {
		bytes = m.Throughput.BytesPerLaunch
	}
	return SlotOf(b.Identity, bytes, b.Device.GlobalCacheBytes)
}

// region is SlotOf's rule for where a bandwidth's figure comes from.
func region(set string, bytes, cache int64) string {
	switch {
	case set == RegionMemory:
		return RegionMemory
	case set != "":
		return RegionCache
	case cache > 0 && bytes > 0 && bytes < 4*cache:
		return RegionCache
	}
	return RegionMemory
}

// Ceiling is the profile's ceiling of slot s, nil when it has none (an image
// bandwidth is never one): the memory bandwidth (the best of every pattern)
// or the cache bandwidth by s.Region, the local bandwidth, the compute
// ceiling of s.Type, the pinned rate of s.Direction.
func (p *Profile) Ceiling(s Slot) *Ceiling {
	if p == nil {
		return nil
	}
	switch s.Figure {
	case FigureBandwidth:
		if s.Region == RegionCache {
			return p.CacheBandwidth
		}
		return p.Bandwidth
	case FigureLocalBandwidth:
		return p.LocalBandwidth
	case FigureCompute:
		return p.Compute[s.Type]
	case FigurePinned:
		if s.Direction == clkernels.ToDevice {
			return p.PinnedToDevice
		}
		return p.PinnedToHost
	}
	return nil
}
