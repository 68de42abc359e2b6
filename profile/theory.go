package profile

import (
	"fmt"
	"strings"
)

// A Theory is a vendor's theoretical figure and how it was computed.
type Theory struct {
	Value float64
	Note  string
}

// DeviceFacts are what the theoretical figures are computed from (as the
// OpenCL driver reports them).
type DeviceFacts struct {
	Name, Vendor string
	// CPU is true for a CPU device.
	CPU          bool
	ComputeUnits int
	ClockMHz     int
	// CoreClock is the clock a CPU core was measured running at, checked
	// against the OS (CoreClock); nil when not measured. Cores boost above
	// ClockMHz.
	CoreClock *ClockCheck
	// NativeWidthFloat and NativeWidthDouble are CL_DEVICE_NATIVE_VECTOR_WIDTH_*.
	NativeWidthFloat, NativeWidthDouble int
	// NVComputeCapability is "9.0" on NVIDIA devices, empty elsewhere.
	NVComputeCapability string
}

// nvLanes are the FP32 and FP64 lanes per SM of NVIDIA GPUs by compute
// capability (CUDA C Programming Guide, "Arithmetic Instructions").
var nvLanes = map[string][2]int{
	"6.0": {64, 32}, "6.1": {128, 4}, "7.0": {64, 32}, "7.2": {64, 32}, "7.5": {64, 2},
	"8.0": {64, 32}, "8.6": {128, 2}, "8.7": {128, 2}, "8.9": {128, 2},
	"9.0": {128, 64}, "10.0": {128, 64}, "12.0": {128, 2},
}

// ComputeTheory returns the theoretical peak in GFLOP/s of "float" and
// "double" where the device's make-up is known: compute units x lanes x clock x
// 2 (a fused multiply-add is two operations). NVIDIA GPUs take their lanes per
// SM from the compute capability. CPUs take the native vector width as the
// lanes of an FMA unit and two FMA units a core (the most any x86-64 core has:
// Skylake-SP Gold and Platinum, Zen 2, 3 and 5 have two; Zen 4's AVX-512 and
// smaller Xeons have one, so the figure is a ceiling those cores stay below),
// at the measured core clock where the OS's figures accepted it and it is
// above the driver's (the driver reports the base clock; cores boost); the
// note says which clock it used, and why a measured one was refused. Other
// devices get no figure.
func ComputeTheory(f DeviceFacts) map[string]Theory {
	out := map[string]Theory{}
	if f.ComputeUnits <= 0 || f.ClockMHz <= 0 {
		return out
	}
	ghz := float64(f.ClockMHz) / 1000
	switch {
	case f.NVComputeCapability != "":
		lanes, ok := nvLanes[f.NVComputeCapability]
		if !ok {
			return out
		}
		for i, typ := range []string{"float", "double"} {
			out[typ] = Theory{
				Value: float64(f.ComputeUnits*lanes[i]) * ghz * 2,
				Note:  fmt.Sprintf("%d SMs x %d %s lanes (compute capability %s) x %d MHz x 2 (FMA)", f.ComputeUnits, lanes[i], typ, f.NVComputeCapability, f.ClockMHz),
			}
		}
	case f.CPU:
		clock := fmt.Sprintf("%d MHz (the driver's clock)", f.ClockMHz)
		switch c := f.CoreClock; {
		case c == nil || c.Measured.Err != "":
		case c.Accepted && c.MHz > f.ClockMHz:
			ghz = float64(c.MHz) / 1000
			clock = fmt.Sprintf("%d MHz (measured ±%.1f%%, %s; the driver reports %d MHz)", c.MHz, 100*c.Measured.Uncertainty, c.Reason, f.ClockMHz)
		case c.Accepted:
			clock = fmt.Sprintf("%d MHz (the driver's clock; the core was measured at %d MHz)", f.ClockMHz, c.MHz)
		default:
			clock = fmt.Sprintf("%d MHz (the driver's clock; the measured core clock was refused: %s)", f.ClockMHz, c.Reason)
		}
		for typ, w := range map[string]int{"float": f.NativeWidthFloat, "double": f.NativeWidthDouble} {
			if w <= 0 {
				continue
			}
			out[typ] = Theory{
				Value: float64(f.ComputeUnits*w) * 2 * ghz * 2,
				Note:  fmt.Sprintf("%d cores x %d %s lanes (native vector width) x 2 FMA units x %s x 2 (FMA); cores with one FMA unit reach half", f.ComputeUnits, w, typ, clock),
			}
		}
	}
	return out
}

// datasheetBandwidth are vendors' memory bandwidths in GB/s by device name,
// for when NVML cannot tell the bus width and memory clock.
var datasheetBandwidth = []struct {
	name string
	gbps float64
}{
	{"H100 NVL", 3938}, {"H100 PCIe", 2039}, {"H100 80GB HBM3", 3352}, {"H200", 4800},
	{"A100 80GB PCIe", 1935}, {"A100-SXM4-80GB", 2039}, {"A100-SXM4-40GB", 1555}, {"A100-PCIE-40GB", 1555},
	{"V100-SXM2", 900}, {"V100-PCIE", 900}, {"L40S", 864}, {"L4", 300},
}

// DatasheetBandwidth returns the vendor's memory bandwidth of a device known by
// name.
func DatasheetBandwidth(name string) (Theory, bool) {
	for _, d := range datasheetBandwidth {
		if strings.Contains(name, d.name) {
			return Theory{Value: d.gbps, Note: "vendor datasheet for " + d.name}, true
		}
	}
	return Theory{}, false
}

// ApplyTheory sets the theoretical figures beside p's measured ones.
func ApplyTheory(p *Profile, compute map[string]Theory, memory *Theory) {
	for typ, th := range compute {
		if c := p.Compute[typ]; c != nil {
			c.Theoretical, c.TheoryNote = th.Value, th.Note
		}
	}
	if memory != nil && p.Bandwidth != nil {
		p.Bandwidth.Theoretical, p.Bandwidth.TheoryNote = memory.Value, memory.Note
	}
}
