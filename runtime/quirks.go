package runtime

import (
	"fmt"
	"os"
	"strings"

	"github.com/clmeter/clmeter/runtime/cl"
)

// Quirks lists, one line each for people, what this device lacks or does
// differently from a full OpenCL 2.1+ device, as read from the device itself
// (never from its name): an old OpenCL version and the 1.2 entry points used
// for it, no host/device timer correlation, no fp64, a timer resolution of 0,
// no event profiling.
func (d *Device) Quirks() []string {
	var q []string
	in := d.Info
	v := cl.ParseVersion(in.Version)
	queue, timer := d.CL.EntryPoints()
	if !v.AtLeast(2, 0) {
		q = append(q, fmt.Sprintf("OpenCL %s device: queues come from %s", v, queue))
	}
	if !strings.HasPrefix(timer, "clGet") {
		q = append(q, "no clGetDeviceAndHostTimer (OpenCL 2.1+ or the loader lacks it): traces align the clocks with markers")
	}
	if !in.FP64 {
		q = append(q, "no fp64 (cl_khr_fp64 absent): double-precision benchmarks are skipped")
	}
	if in.TimerResolution <= 0 {
		q = append(q, "the profiling timer reports no resolution (0)")
	}
	if !in.ProfilingQueue {
		q = append(q, "no event profiling: figures use the host timer")
	}
	return q
}

// PlatformHints explains platforms that show no device when the reason is
// known: Mesa's Rusticl lists its platform but enables no driver until
// RUSTICL_ENABLE names one.
func PlatformHints(plats []Platform, devs []*Device) []string {
	count := map[int]int{}
	for _, d := range devs {
		count[d.PlatformIndex]++
	}
	var hints []string
	for _, p := range plats {
		if count[p.Index] > 0 || !strings.EqualFold(p.Info.Name, "rusticl") {
			continue
		}
		env := os.Getenv("RUSTICL_ENABLE")
		if env == "" {
			hints = append(hints, fmt.Sprintf("platform %d (rusticl) shows no device because Mesa's Rusticl enables none by default: set RUSTICL_ENABLE to a Gallium driver, e.g. RUSTICL_ENABLE=llvmpipe (the CPU), radeonsi (AMD), iris (Intel)", p.Index))
		} else {
			hints = append(hints, fmt.Sprintf("platform %d (rusticl) shows no device with RUSTICL_ENABLE=%s: that Gallium driver is not on this machine (llvmpipe, the CPU, always is)", p.Index, env))
		}
	}
	return hints
}
