package results

import (
	"fmt"
	"time"
)

// A Roofline places one benchmark against its device's measured ceilings (the
// device profile): arithmetic intensity, achieved rates, the roof at that
// intensity and a verdict with its evidence. Added in schema version 2.
type Roofline struct {
	// IntensityFLOPPerByte is operations per byte moved (zero when either is
	// unknown). OpsUnit names the operations ("FLOP", "IOP").
	IntensityFLOPPerByte float64 `json:"intensity_ops_per_byte,omitempty"`
	OpsUnit              string  `json:"ops_unit,omitempty"`
	// GBPerSecond and GOpsPerSecond are the achieved rates at the median
	// per-launch time (zero when unknown).
	GBPerSecond   float64 `json:"gb_per_s,omitempty"`
	GOpsPerSecond float64 `json:"gops_per_s,omitempty"`
	// BandwidthGBPerSecond is the device's measured global memory bandwidth
	// ceiling and BandwidthPattern the access pattern that set it ("read-only",
	// "copy", "read-modify-write").
	BandwidthGBPerSecond float64 `json:"bandwidth_ceiling_gb_per_s,omitempty"`
	BandwidthPattern     string  `json:"bandwidth_pattern,omitempty"`
	// ComputeGOpsPerSecond is the measured compute ceiling of Precision
	// ("float", "double", "half", "int").
	ComputeGOpsPerSecond float64 `json:"compute_ceiling_gops_per_s,omitempty"`
	Precision            string  `json:"precision,omitempty"`
	// RidgeOpsPerByte is the intensity where the two roofs meet.
	RidgeOpsPerByte float64 `json:"ridge_ops_per_byte,omitempty"`
	// Roof is the attainable rate at this intensity, in RoofUnit ("GFLOP/s"
	// when operations are known, else "GB/s"); PercentOfRoof is the achieved
	// rate as a percentage of it, never above 100: a kernel level with its
	// roof within noise reads 100, one beyond it 0 with Above saying why.
	Roof          float64 `json:"roof"`
	RoofUnit      string  `json:"roof_unit"`
	PercentOfRoof float64 `json:"percent_of_roof"`
	// Above, when set, says that the kernel ran faster than its roof and
	// why that roof does not hold it ("above the measured memory ceiling:
	// its working set (192 MiB) fits in the caches ...").
	Above string `json:"above_roof,omitempty"`
	// LaunchLatency is the device's per-launch time of an empty kernel, back
	// to back (zero when unknown).
	LaunchLatency time.Duration `json:"launch_latency_ns,omitempty"`
	// Verdict is one of "memory-bound", "compute-bound", "launch-bound",
	// "under-filled", "unknown", or "no compute ceiling" / "no bandwidth
	// ceiling" (the profile lacks the ceiling to judge the kernel by; Roof is
	// then zero); Evidence says, in sentences with figures, why.
	Verdict  string   `json:"verdict"`
	Evidence []string `json:"evidence"`
	// Profile says which device profile the ceilings came from.
	Profile string `json:"profile"`
}

// Bound is the verdict as the run's Bound line, its table and the report
// write it: the verdict and the percentage of the roof ("memory-bound 73%"),
// "memory-bound, above its measured ceiling" for a kernel beyond its roof,
// the verdict alone for a launch-bound kernel or one without a roof.
func (r *Roofline) Bound() string {
	switch {
	case r == nil:
		return ""
	case r.Above != "":
		return r.Verdict + ", above its measured ceiling"
	case r.Roof > 0 && r.Verdict != "launch-bound":
		return fmt.Sprintf("%s %.0f%%", r.Verdict, r.PercentOfRoof)
	}
	return r.Verdict
}

// Resources are what a kernel takes of the device, from
// clGetKernelWorkGroupInfo and, where the driver prints them, the build log.
// Added in schema version 2.
type Resources struct {
	// WorkGroupSizeLimit is CL_KERNEL_WORK_GROUP_SIZE; PreferredMultiple is
	// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE.
	WorkGroupSizeLimit int `json:"work_group_size_limit"`
	PreferredMultiple  int `json:"preferred_multiple"`
	// LocalMemBytes and PrivateMemBytes are CL_KERNEL_LOCAL_MEM_SIZE and
	// CL_KERNEL_PRIVATE_MEM_SIZE.
	LocalMemBytes   int64 `json:"local_mem_bytes"`
	PrivateMemBytes int64 `json:"private_mem_bytes"`
	// CompileWorkGroupSize is CL_KERNEL_COMPILE_WORK_GROUP_SIZE
	// (reqd_work_group_size); nil when the kernel does not set one.
	CompileWorkGroupSize []int `json:"compile_work_group_size,omitempty"`
	// Registers per work-item and spill bytes, from the build log; nil when
	// the driver did not print them.
	Registers        *int   `json:"registers,omitempty"`
	SpillStoresBytes *int64 `json:"spill_stores_bytes,omitempty"`
	SpillLoadsBytes  *int64 `json:"spill_loads_bytes,omitempty"`
	// Note says where the register figures came from or why there are none.
	Note string `json:"note,omitempty"`
}

// Clocks are the device's clocks, temperature and power around one benchmark
// (NVML on NVIDIA). Added in schema version 2.
type Clocks struct {
	// Observable is false where clocks could not be read (no NVML, not an
	// NVIDIA device); Note says why.
	Observable bool   `json:"observable"`
	Note       string `json:"note,omitempty"`
	// Start and End are the readings before and after sampling; Min holds the
	// lowest clocks and Max the highest temperature and power seen between.
	Start *ClockReading `json:"start,omitempty"`
	End   *ClockReading `json:"end,omitempty"`
	Min   *ClockReading `json:"min,omitempty"`
	Max   *ClockReading `json:"max,omitempty"`
	// Readings is how many readings were taken, BelowStart how many had an SM
	// clock below Start's.
	Readings   int `json:"readings,omitempty"`
	BelowStart int `json:"below_start,omitempty"`
	// Warning is set when the clocks dropped while samples were taken.
	Warning string `json:"warning,omitempty"`
}

// A ClockReading is one reading of a device's clocks and sensors.
type ClockReading struct {
	SMClockMHz     int     `json:"sm_clock_mhz"`
	MemoryClockMHz int     `json:"memory_clock_mhz"`
	TemperatureC   int     `json:"temperature_c"`
	PowerWatts     float64 `json:"power_w"`
	// Throttle names the clock-throttle reasons the driver reported ("power
	// cap", "thermal slowdown"), empty when none.
	Throttle []string `json:"throttle,omitempty"`
}
