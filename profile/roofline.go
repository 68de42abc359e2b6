package profile

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

// Verdicts of Place.
const (
	MemoryBound  = "memory-bound"
	ComputeBound = "compute-bound"
	LaunchBound  = "launch-bound"
	UnderFilled  = "under-filled"
	Unknown      = "unknown"
	// NoComputeCeiling and NoBandwidthCeiling: the kernel's operations (or
	// bytes) are known but the profile lacks the ceiling to judge them
	// against; never a percentage of a roof that is not there.
	NoComputeCeiling   = "no compute ceiling"
	NoBandwidthCeiling = "no bandwidth ceiling"
)

// A Kernel is what Place needs of one measured kernel.
type Kernel struct {
	// BytesPerLaunch and OpsPerLaunch are the bytes moved and operations done
	// by one launch (zero when unknown); OpsUnit names the operations.
	BytesPerLaunch, OpsPerLaunch int64
	OpsUnit                      string
	// Precision is the arithmetic's type: "float" (the default), "double",
	// "half" or "int".
	Precision string
	// Median is the median time per launch.
	Median time.Duration
	// Traffic is the kernel's memory traffic ("read-only", "copy",
	// "read-modify-write"; empty when unknown): where the profile has that
	// pattern's ceiling, it is the bandwidth roof, else the best pattern's.
	Traffic string
	// WorkGroups is the number of work-groups a launch runs (zero when the
	// driver picks the local size); WorkItems the global size's product.
	WorkGroups, WorkItems int64
}

// Settings are Place's thresholds. The zero value means the defaults.
type Settings struct {
	// LaunchFactor: a kernel whose median is within this many launch latencies
	// is launch-bound (default 3).
	LaunchFactor float64
	// Slack: a rate more than this fraction above its ceiling is reported as a
	// ceiling that is too low (default 0.05).
	Slack float64
	// FarBelow: a kernel under this fraction of its roof gets a note that
	// something other than the roof holds it back (default 0.5).
	FarBelow float64
}

func (s Settings) withDefaults() Settings {
	if s.LaunchFactor <= 0 {
		s.LaunchFactor = 3
	}
	if s.Slack <= 0 {
		s.Slack = 0.05
	}
	if s.FarBelow <= 0 {
		s.FarBelow = 0.5
	}
	return s
}

// Place puts a kernel on the device's roofline: the arithmetic intensity
// (operations per byte), the achieved rates, the attainable rate at that
// intensity (min(compute ceiling, intensity x bandwidth ceiling), or one of
// them when only bytes or only operations are known), the percentage of it
// reached, and a verdict with its evidence, checked in this order:
// launch-bound (the median is within LaunchFactor launch latencies),
// under-filled (fewer work-groups, or work-items when the driver picks the
// local size, than the device has compute units), then memory-bound or
// compute-bound by which side of the ridge point the intensity falls on, or,
// when the profile lacks the ceiling that judgement needs, NoComputeCeiling
// or NoBandwidthCeiling (never a percentage of a missing roof).
// It returns nil when p is nil or the kernel has no median.
func Place(p *Profile, k Kernel, s Settings) *results.Roofline {
	if p == nil || k.Median <= 0 {
		return nil
	}
	s = s.withDefaults()
	r := &results.Roofline{OpsUnit: k.OpsUnit, Profile: p.Describe(), LaunchLatency: p.LaunchLatency(), Evidence: []string{}}
	sec := k.Median.Seconds()
	if k.BytesPerLaunch > 0 {
		r.GBPerSecond = float64(k.BytesPerLaunch) / sec / 1e9
	}
	if k.OpsPerLaunch > 0 {
		r.GOpsPerSecond = float64(k.OpsPerLaunch) / sec / 1e9
		if k.BytesPerLaunch > 0 {
			r.IntensityFLOPPerByte = float64(k.OpsPerLaunch) / float64(k.BytesPerLaunch)
		}
	}
	bw, inCache := bandwidthRoof(p, k, r)
	comp, prec := computeRoof(p, k, r)
	if bw != nil {
		r.BandwidthGBPerSecond, r.BandwidthPattern = bw.Value, bw.Pattern
	}
	if comp != nil {
		r.ComputeGOpsPerSecond = comp.Value
		r.Precision = prec
	}
	if bw != nil && comp != nil {
		r.RidgeOpsPerByte = comp.Value / bw.Value
	}
	region := placeUnderRoof(r, p, k, bw, comp, prec)
	if !inCache && bw != nil && len(p.Patterns) > 1 && r.GBPerSecond > 0 && region == MemoryBound {
		var parts []string
		for _, pat := range []string{results.TrafficReadOnly, results.TrafficCopy, results.TrafficReadModifyWrite} {
			if c := p.Patterns[pat]; c != nil {
				parts = append(parts, fmt.Sprintf("%s %s (%.0f%%)", pat, rate(c.Value, "GB/s"), 100*r.GBPerSecond/c.Value))
			}
		}
		r.Evidence = append(r.Evidence, "its bandwidth against each pattern's best: "+strings.Join(parts, ", ")+
			" (on CPUs a write also reads its line first, so copy kernels count less traffic than they move)")
	}
	if r.Roof > 0 && r.PercentOfRoof > 100*(1+s.Slack) && !(inCache && bw != p.CacheBandwidth) {
		r.Evidence = append(r.Evidence, fmt.Sprintf("%.0f%% is above the measured ceiling: the ceiling is too low, not the kernel too fast (measure it again with 'clmeter suite peaks')", r.PercentOfRoof))
	}
	judge(r, p, k, s, region)
	return r
}

// bandwidthRoof is the bandwidth ceiling a kernel is placed under, by the
// one ceiling rule (SlotOf) for its bytes a launch, and whether that rule
// puts it in the caches: a kernel whose working set fits in the caches is
// placed under the cache bandwidth where the profile has one (under the
// memory ceiling it may pass it, and that is the caches, not a ceiling too
// low); one in memory under its traffic pattern's ceiling when that is
// lower than the device's best. It adds its reasons to r's evidence.
func bandwidthRoof(p *Profile, k Kernel, r *results.Roofline) (*Ceiling, bool) {
	slot, _ := SlotOf(&results.Identity{Kind: results.KindBandwidth, Traffic: k.Traffic}, k.BytesPerLaunch, p.Device.GlobalCacheBytes)
	inCache := slot.Region == RegionCache
	bw := p.Bandwidth
	switch c := p.Ceiling(slot); {
	case inCache && c != nil:
		r.Evidence = append(r.Evidence, fmt.Sprintf("its %s a launch is under 4x the device's last-level cache (%s): the bandwidth roof is the cache bandwidth %s (%s), not the memory's",
			units.Bytes(k.BytesPerLaunch), units.Bytes(p.Device.GlobalCacheBytes), rate(c.Value, "GB/s"), c.From))
		bw = c
	case inCache && bw != nil:
		r.Evidence = append(r.Evidence, fmt.Sprintf("its %s a launch is under 4x the device's last-level cache (%s): it may run from the caches, above the memory ceiling (the profile has no cache bandwidth)",
			units.Bytes(k.BytesPerLaunch), units.Bytes(p.Device.GlobalCacheBytes)))
	}
	if c := p.Patterns[k.Traffic]; bw == p.Bandwidth && k.Traffic != "" && c != nil && bw != nil && c != bw && c.Value < bw.Value {
		r.Evidence = append(r.Evidence, fmt.Sprintf("the bandwidth roof is the %s pattern's ceiling %s (%s), the traffic this kernel makes; the device's best is %s (%s pattern)",
			k.Traffic, rate(c.Value, "GB/s"), c.From, rate(bw.Value, "GB/s"), bw.Pattern))
		bw = c
	}
	return bw, inCache
}

// computeRoof is the compute ceiling a kernel is placed under and its
// precision: the kernel's own (float by default, int for IOP), else, when
// the profile lacks it, the float one (said in r's evidence).
func computeRoof(p *Profile, k Kernel, r *results.Roofline) (*Ceiling, string) {
	prec := k.Precision
	if prec == "" {
		prec = "float"
		if k.OpsUnit == "IOP" {
			prec = "int"
		}
	}
	comp := p.Compute[prec]
	if comp == nil && k.OpsPerLaunch > 0 && p.Compute["float"] != nil {
		comp = p.Compute["float"]
		r.Evidence = append(r.Evidence, fmt.Sprintf("no %s compute ceiling in the profile: the float one stands in", prec))
		prec = "float"
	}
	return comp, prec
}

// placeUnderRoof sets r's roof at the kernel's intensity and the percentage
// of it reached, and returns the region: memory- or compute-bound by the
// side of the ridge point, NoComputeCeiling or NoBandwidthCeiling when the
// profile lacks the ceiling the judgement needs, Unknown when the kernel's
// bytes and operations are both unknown.
func placeUnderRoof(r *results.Roofline, p *Profile, k Kernel, bw, comp *Ceiling, prec string) string {
	opsUnit := "G" + orStr(k.OpsUnit, "FLOP") + "/s"
	switch {
	case r.IntensityFLOPPerByte > 0 && bw != nil && comp != nil:
		return placeAtIntensity(r, k, bw, comp, prec, opsUnit)
	case r.IntensityFLOPPerByte > 0 || (r.GBPerSecond > 0 && bw == nil) || (r.GOpsPerSecond > 0 && comp == nil):
		return missingCeiling(r, p, k, bw, comp, prec, opsUnit)
	case r.GBPerSecond > 0:
		r.Roof, r.RoofUnit = bw.Value, "GB/s"
		r.PercentOfRoof = 100 * r.GBPerSecond / bw.Value
		r.Evidence = append(r.Evidence, fmt.Sprintf("operations per launch unknown (give --flops): placed against the bandwidth ceiling only; achieved %s, %.0f%% of the %s ceiling (set by the %s pattern)", rate(r.GBPerSecond, "GB/s"), r.PercentOfRoof, rate(bw.Value, "GB/s"), bw.Pattern))
		return MemoryBound
	case r.GOpsPerSecond > 0:
		r.Roof, r.RoofUnit = comp.Value, opsUnit
		r.PercentOfRoof = 100 * r.GOpsPerSecond / comp.Value
		r.Evidence = append(r.Evidence, fmt.Sprintf("bytes per launch unknown (give --bytes): placed against the %s compute ceiling only; achieved %s, %.0f%% of %s", prec, rate(r.GOpsPerSecond, opsUnit), r.PercentOfRoof, rate(comp.Value, opsUnit)))
		return ComputeBound
	}
	r.Evidence = append(r.Evidence, "bytes and operations per launch unknown (give --bytes and --flops, or bytes:/flops: in a spec): no roof to place it under")
	return Unknown
}

// placeAtIntensity is placeUnderRoof with both ceilings and the intensity
// known: the roof is the lower of the compute roof and intensity x
// bandwidth.
func placeAtIntensity(r *results.Roofline, k Kernel, bw, comp *Ceiling, prec, opsUnit string) string {
	memRoof := r.IntensityFLOPPerByte * bw.Value
	r.Roof, r.RoofUnit = math.Min(comp.Value, memRoof), opsUnit
	r.PercentOfRoof = 100 * r.GOpsPerSecond / r.Roof
	region := ComputeBound
	if r.IntensityFLOPPerByte < r.RidgeOpsPerByte {
		region = MemoryBound
		r.Evidence = append(r.Evidence, fmt.Sprintf("intensity %.3g %s/byte is below the ridge point %.3g (%s / %s): the bandwidth roof (%s x intensity = %s) is the lower one",
			r.IntensityFLOPPerByte, orStr(k.OpsUnit, "FLOP"), r.RidgeOpsPerByte, rate(comp.Value, opsUnit), rate(bw.Value, "GB/s"), rate(bw.Value, "GB/s"), rate(memRoof, opsUnit)))
	} else {
		r.Evidence = append(r.Evidence, fmt.Sprintf("intensity %.3g %s/byte is above the ridge point %.3g (%s / %s): the %s compute roof (%s) is the lower one",
			r.IntensityFLOPPerByte, orStr(k.OpsUnit, "FLOP"), r.RidgeOpsPerByte, rate(comp.Value, opsUnit), rate(bw.Value, "GB/s"), prec, rate(comp.Value, opsUnit)))
	}
	r.Evidence = append(r.Evidence, fmt.Sprintf("achieved %s and %s: %.0f%% of the roof at this intensity", rate(r.GOpsPerSecond, opsUnit), rate(r.GBPerSecond, "GB/s"), r.PercentOfRoof))
	return region
}

// missingCeiling says what the kernel does is known but the ceiling to
// judge it by is not: never a percentage of a missing roof.
func missingCeiling(r *results.Roofline, p *Profile, k Kernel, bw, comp *Ceiling, prec, opsUnit string) string {
	region := Unknown
	var lacks []string
	if r.GOpsPerSecond > 0 && comp == nil {
		region = NoComputeCeiling
		lacks = append(lacks, "no "+prec+" compute ceiling")
	}
	if r.GBPerSecond > 0 && bw == nil {
		if region == Unknown {
			region = NoBandwidthCeiling
		}
		l := "no global memory bandwidth ceiling"
		if c := p.CacheBandwidth; c != nil {
			l += fmt.Sprintf(" (only a cache bandwidth of %s, measured within the caches)", rate(c.Value, "GB/s"))
		}
		lacks = append(lacks, l)
	}
	var achieved []string
	if r.GBPerSecond > 0 {
		achieved = append(achieved, rate(r.GBPerSecond, "GB/s"))
	}
	if r.GOpsPerSecond > 0 {
		achieved = append(achieved, rate(r.GOpsPerSecond, opsUnit))
	}
	e := strings.Join(lacks, " and ") + " in the profile: run 'clmeter suite peaks'; achieved " + strings.Join(achieved, " and ")
	if r.IntensityFLOPPerByte > 0 {
		e += fmt.Sprintf(" at %.3g %s/byte", r.IntensityFLOPPerByte, orStr(k.OpsUnit, "FLOP"))
	}
	r.Evidence = append(r.Evidence, e)
	return region
}

// judge sets r's verdict from the region under its roof, checking first
// whether launches (LaunchBound) or too few work-groups (UnderFilled) set
// the pace, and notes a kernel far below its roof.
func judge(r *results.Roofline, p *Profile, k Kernel, s Settings, region string) {
	r.Verdict = region
	under := ""
	cu := int64(p.Device.ComputeUnits)
	switch {
	case cu > 0 && k.WorkGroups > 0 && k.WorkGroups < cu:
		under = fmt.Sprintf("%d work-group(s) for %d compute units: %d units idle; more, smaller work-groups or a larger problem fill the device", k.WorkGroups, cu, cu-k.WorkGroups)
	case cu > 0 && k.WorkGroups == 0 && k.WorkItems > 0 && k.WorkItems < cu:
		under = fmt.Sprintf("%d work-item(s) for %d compute units: the device cannot be filled", k.WorkItems, cu)
	}
	floor := p.LaunchLatency()
	launch := floor > 0 && float64(k.Median) <= s.LaunchFactor*float64(floor)
	switch {
	case launch:
		r.Verdict = LaunchBound
		r.Evidence = append([]string{fmt.Sprintf("median %s is %.1fx the device's launch time of %s (an empty kernel, back to back, at its cheapest local size; launch-bound within %gx): launches, not the work, set the pace; do more work per launch",
			units.Duration(k.Median), float64(k.Median)/float64(floor), units.Duration(floor), s.LaunchFactor)}, r.Evidence...)
		if under != "" {
			r.Evidence = append(r.Evidence, under)
		}
	case under != "":
		r.Verdict = UnderFilled
		r.Evidence = append([]string{under}, r.Evidence...)
	case r.Roof > 0 && r.PercentOfRoof < 100*s.FarBelow:
		why := "the access pattern (strided, uncoalesced), caches or memory latency hold it back more than the bandwidth roof"
		if region == ComputeBound {
			why = "dependent instructions, barriers, divergence or too few work-items in flight hold it back more than the compute roof"
		}
		r.Evidence = append(r.Evidence, fmt.Sprintf("at %.0f%% of the roof it is far below it: %s", r.PercentOfRoof, why))
	}
	if floor == 0 {
		r.Evidence = append(r.Evidence, "no launch latency in the profile: launch-bound not checked")
	}
}

func orStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// rate writes a rate in giga-units of unit ("GB/s", "GFLOP/s") with scaled
// units (units.Rate): "1.93 TB/s".
func rate(v float64, unit string) string {
	u := strings.TrimSuffix(strings.TrimPrefix(unit, "G"), "/s")
	if r := units.Rate(v, u); r != "" {
		return r
	}
	return "0 " + unit
}
