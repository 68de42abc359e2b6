package results

// An Identity is what a benchmark of the built-in suites measures, in typed
// fields: the suites set it where each benchmark is defined, and the device
// profile, the suite table's % PEAK and the reports read it (nothing parses
// a benchmark's name). Benchmark.Params stay what a table shows. A
// benchmark of a user's kernel has none.
type Identity struct {
	// Suite is the suite that ran it ("peaks", "streams", "quick" ...;
	// "profile" for the short profile).
	Suite string `json:"suite"`
	// Kind is what it measures: one of the Kind constants.
	Kind string `json:"kind"`
	// Best marks the figure row that gives the best of a race of Kind
	// ("peaks/bandwidth-best"), not a measurement of its own.
	Best bool `json:"best,omitempty"`
	// Pattern is the access pattern of a peaks bandwidth (stride, chunk,
	// copy, rmw) or the walk of an image bandwidth; Kernel the kernel of a
	// stream (copy, scale, add, triad, dot).
	Pattern string `json:"pattern,omitempty"`
	Kernel  string `json:"kernel,omitempty"`
	// Traffic is the memory traffic a global bandwidth makes: one of the
	// Traffic constants.
	Traffic string `json:"traffic,omitempty"`
	// Width is the vector width; Type the element type ("float", "int" ...).
	Width int    `json:"width,omitempty"`
	Type  string `json:"type,omitempty"`
	// Memory is a transfer's host memory ("pageable", "pinned", "map") and
	// Direction its direction ("write": to the device, "read": to the host).
	Memory    string `json:"memory,omitempty"`
	Direction string `json:"direction,omitempty"`
	// Mode is a launch benchmark's mode ("dispatch", "round-trip",
	// "throughput").
	Mode string `json:"mode,omitempty"`
	// WorkingSetBytes is the bytes a bandwidth benchmark works over, or a
	// transfer moves.
	WorkingSetBytes int64 `json:"working_set_bytes,omitempty"`
	// Region is where a bandwidth's working set lives: RegionMemory or
	// RegionCache (empty when the suite did not say: older files).
	Region string `json:"region,omitempty"`
	// OffPlateau is set on a memory bandwidth whose working set is short of
	// the plateau the working-set search found (or the search found none).
	OffPlateau bool `json:"off_plateau,omitempty"`
}

// Kinds of Identity.
const (
	// KindBandwidth is a global memory bandwidth (a peaks pattern or a
	// stream kernel).
	KindBandwidth = "bandwidth"
	// KindCacheBandwidth is a global memory bandwidth over a working set
	// chosen inside the caches (the peaks suite's in-cache race): a figure
	// of the caches, whatever its Region says.
	KindCacheBandwidth = "cache-bandwidth"
	// KindLocalBandwidth is a local memory bandwidth.
	KindLocalBandwidth = "local-bandwidth"
	// KindImageBandwidth is an image read bandwidth.
	KindImageBandwidth = "image-bandwidth"
	// KindCompute is an arithmetic peak of Type.
	KindCompute = "compute"
	// KindLaunch is a launch overhead of Mode.
	KindLaunch = "launch"
	// KindTransfer is a host<->device transfer.
	KindTransfer = "transfer"
	// KindWorkingSet is the working-set search's row.
	KindWorkingSet = "working-set"
	// KindSummary is the quick suite's closing summary.
	KindSummary = "summary"
)

// Regions of Identity.Region.
const (
	// RegionMemory: the working set lies beyond the device's caches.
	RegionMemory = "memory"
	// RegionCache: the working set fits a cache level.
	RegionCache = "cache"
)

// Traffic of a global bandwidth (Identity.Traffic).
const (
	TrafficReadOnly        = "read-only"
	TrafficCopy            = "copy"
	TrafficReadModifyWrite = "read-modify-write"
)
