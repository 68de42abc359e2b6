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
	// Vector, on a CPU, says whether the driver vectorised the kernel
	// across work-items (PoCLVectorisation); nil when not asked. A
	// compute-bound kernel far under its roof names it as the cause.
	Vector *Vectorisation
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
	ro := bandwidthRoof(p, k, r)
	bw := ro.c
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
	if ro.region == RegionMemory && len(p.Patterns) > 1 && r.GBPerSecond > 0 && region == MemoryBound {
		var parts []string
		for _, pat := range []string{results.TrafficReadOnly, results.TrafficCopy, results.TrafficReadModifyWrite} {
			if c := p.Patterns[pat]; c != nil {
				parts = append(parts, fmt.Sprintf("%s %s (%s)", pat, rate(c.Value, "GB/s"), percentText(100*r.GBPerSecond/c.Value)))
			}
		}
		r.Evidence = append(r.Evidence, "its bandwidth against each pattern's best in memory: "+strings.Join(parts, ", ")+
			" (on CPUs a write also reads its line first, so copy kernels count less traffic than they move)")
	}
	capAtRoof(r, region, ro, comp, prec, s)
	judge(r, p, k, s, region)
	return r
}

// A roof is the bandwidth ceiling a kernel is placed under, where it came
// from, and what to say when the kernel runs faster than it.
type roof struct {
	c *Ceiling
	// region is the ceiling's (RegionCache or RegionMemory), inCache
	// whether the kernel's working set fits in the caches (SlotOf).
	region  string
	inCache bool
	// above says why this roof does not hold the kernel, for a kernel
	// beyond it.
	above string
}

// bandwidthRoof is the bandwidth ceiling a kernel is placed under: the
// profile's figure of the kernel's own traffic pattern (Traffic) in the
// kernel's own region (SlotOf by its bytes a launch: the caches or memory)
// where it has one; else the highest figure that may hold it (in memory:
// the best of the other patterns; in the caches: the best within them, or
// memory's own pattern or best). Each step down is said in r's evidence, and the roof's above names why a kernel passing it is not too
// fast (its working set in the caches, another pattern's figure, or a
// ceiling too low). It returns nil when the profile has no bandwidth.
func bandwidthRoof(p *Profile, k Kernel, r *results.Roofline) roof {
	slot, _ := SlotOf(&results.Identity{Kind: results.KindBandwidth, Traffic: k.Traffic}, k.BytesPerLaunch, p.Device.GlobalCacheBytes)
	inCache := slot.Region == RegionCache
	type step struct {
		c      *Ceiling
		region string
	}
	// The kernel's own pattern and region first; failing that, the
	// highest of the others it may be held by (each is a rate the device
	// reached, so the highest is the tightest honest roof).
	own := step{p.Patterns[k.Traffic], RegionMemory}
	others := []step{{p.Bandwidth, RegionMemory}}
	if inCache {
		own = step{p.CachePatterns[k.Traffic], RegionCache}
		others = []step{{p.CacheBandwidth, RegionCache}, {p.Patterns[k.Traffic], RegionMemory}, {p.Bandwidth, RegionMemory}}
	}
	pick := own
	if pick.c == nil {
		for _, st := range others {
			if st.c != nil && (pick.c == nil || st.c.Value > pick.c.Value) {
				pick = st
			}
		}
	}
	if pick.c == nil {
		return roof{inCache: inCache}
	}
	ro := roof{c: pick.c, region: pick.region, inCache: inCache}
	ro.above = roofEvidence(p, k, r, ro)
	return ro
}

// roofEvidence adds to r's evidence which roof ro is and why, and returns
// what to say when the kernel runs faster than it.
func roofEvidence(p *Profile, k Kernel, r *results.Roofline, ro roof) string {
	c := ro.c
	where := "memory"
	if ro.region == RegionCache {
		where = "cache"
	}
	what := fmt.Sprintf("the measured %s ceiling %s (%s pattern, %s)", where, rate(c.Value, "GB/s"), orStr(c.Pattern, "unknown"), c.From)
	fits := fmt.Sprintf("its %s a launch is under 4x the device's last-level cache (%s)", units.Bytes(k.BytesPerLaunch), units.Bytes(p.Device.GlobalCacheBytes))
	if p.Device.GlobalCacheBytes <= 0 {
		fits = fmt.Sprintf("its %s a launch was measured as a cache working set (the device reports no cache size)", units.Bytes(k.BytesPerLaunch))
	}
	same := k.Traffic != "" && c.Pattern == k.Traffic
	lacks := fmt.Sprintf("the profile has no %s figure of the %s traffic this kernel makes ('clmeter suite peaks' measures every pattern)", where, k.Traffic)
	other := fmt.Sprintf("above %s: that figure is of the %s pattern, not the %s traffic this kernel makes; 'clmeter suite peaks' measures it",
		what, orStr(c.Pattern, "unknown"), k.Traffic)
	switch {
	case ro.inCache && ro.region == RegionMemory:
		why := "the profile has no cache bandwidth"
		if cb := p.CacheBandwidth; cb != nil {
			why = fmt.Sprintf("the profile's cache figures, %s at best (%s), are below it", rate(cb.Value, "GB/s"), cb.From)
		}
		e := fits + ": it may run from the caches, above the memory ceiling (" + why + "); the bandwidth roof is " + what
		if k.Traffic != "" && !same {
			e += "; the profile has no figure of the " + k.Traffic + " traffic this kernel makes ('clmeter suite peaks' measures every pattern)"
		}
		r.Evidence = append(r.Evidence, e)
		return fmt.Sprintf("above %s: its working set (%s a launch) fits in the caches (%s last-level), which are faster than memory",
			what, units.Bytes(k.BytesPerLaunch), cacheSizeText(p.Device.GlobalCacheBytes))
	case ro.inCache && same:
		r.Evidence = append(r.Evidence, fmt.Sprintf("%s: the bandwidth roof is the cache bandwidth %s of the %s pattern (%s), not the memory's", fits, rate(c.Value, "GB/s"), c.Pattern, c.From))
	case ro.inCache:
		e := fmt.Sprintf("%s: the bandwidth roof is the cache bandwidth %s (%s), not the memory's", fits, rate(c.Value, "GB/s"), c.From)
		if k.Traffic != "" {
			e += "; " + lacks
		}
		r.Evidence = append(r.Evidence, e)
		if k.Traffic != "" {
			return other
		}
	case same:
		e := fmt.Sprintf("the bandwidth roof is the %s pattern's ceiling %s (%s), the traffic this kernel makes", k.Traffic, rate(c.Value, "GB/s"), c.From)
		if b := p.Bandwidth; b != nil && b != c {
			e += fmt.Sprintf("; the device's best is %s (%s pattern)", rate(b.Value, "GB/s"), b.Pattern)
		}
		r.Evidence = append(r.Evidence, e)
	case k.Traffic != "":
		r.Evidence = append(r.Evidence, fmt.Sprintf("%s: the bandwidth roof is the best measured, %s (%s pattern, %s)", lacks, rate(c.Value, "GB/s"), orStr(c.Pattern, "unknown"), c.From))
		return other
	}
	return "above " + what + ": " + tooLow(c, k)
}

// tooLow says why a ceiling of the kernel's own pattern and region is below
// it: the ceiling is too low, not the kernel too fast.
func tooLow(c *Ceiling, k Kernel) string {
	var why []string
	if c.Source == ShortSource {
		why = append(why, "it came from the short profile")
	}
	if c.OffPlateau {
		why = append(why, "it was measured short of the memory plateau")
	}
	if c.WorkingSet > 0 && k.BytesPerLaunch > 0 && k.BytesPerLaunch < c.WorkingSet/2 {
		why = append(why, fmt.Sprintf("this kernel's %s a launch is under half its %s working set, so more of it stays in the caches", units.Bytes(k.BytesPerLaunch), units.Bytes(c.WorkingSet)))
	}
	s := "the ceiling is too low, not the kernel too fast"
	if len(why) > 0 {
		s += " (" + strings.Join(why, "; ") + ")"
	}
	return s + ": measure it again with 'clmeter suite peaks'"
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
		r.Evidence = append(r.Evidence, fmt.Sprintf("operations per launch unknown (give --flops): placed against the bandwidth ceiling only; achieved %s, %s the %s ceiling (set by the %s pattern)", rate(r.GBPerSecond, "GB/s"), percentOf(r.PercentOfRoof), rate(bw.Value, "GB/s"), bw.Pattern))
		return MemoryBound
	case r.GOpsPerSecond > 0:
		r.Roof, r.RoofUnit = comp.Value, opsUnit
		r.PercentOfRoof = 100 * r.GOpsPerSecond / comp.Value
		r.Evidence = append(r.Evidence, fmt.Sprintf("bytes per launch unknown (give --bytes): placed against the %s compute ceiling only; achieved %s, %s %s", prec, rate(r.GOpsPerSecond, opsUnit), percentOf(r.PercentOfRoof), rate(comp.Value, opsUnit)))
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
	r.Evidence = append(r.Evidence, fmt.Sprintf("achieved %s and %s: %s the roof at this intensity", rate(r.GOpsPerSecond, opsUnit), rate(r.GBPerSecond, "GB/s"), percentOf(r.PercentOfRoof)))
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
	if r.Above != "" {
		r.Evidence = append(r.Evidence, r.Above)
	}
	r.Verdict = region
	under := ""
	cu := int64(p.Device.ComputeUnits)
	switch {
	case cu > 0 && k.WorkGroups > 0 && k.WorkGroups < cu:
		under = fmt.Sprintf("%s for %s: %s idle; more, smaller work-groups or a larger problem fill the device", units.Count(int(k.WorkGroups), "work-group"), units.Count(int(cu), "compute unit"), units.Count(int(cu-k.WorkGroups), "unit"))
	case cu > 0 && k.WorkGroups == 0 && k.WorkItems > 0 && k.WorkItems < cu:
		under = fmt.Sprintf("%s for %s: the device cannot be filled", units.Count(int(k.WorkItems), "work-item"), units.Count(int(cu), "compute unit"))
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
	case r.Above == "" && r.Roof > 0 && r.PercentOfRoof < 100*s.FarBelow:
		why := "the access pattern (strided, uncoalesced), caches or memory latency hold it back more than the bandwidth roof"
		if region == ComputeBound {
			why = computeWhy(k.Vector)
		}
		r.Evidence = append(r.Evidence, fmt.Sprintf("at %.0f%% of the roof it is far below it: %s", r.PercentOfRoof, why))
	}
	if floor == 0 {
		r.Evidence = append(r.Evidence, "no launch latency in the profile: launch-bound not checked")
	}
}

// computeWhy names what holds a compute-bound kernel far under its roof,
// with whether a CPU driver vectorised it (v; nil on other devices).
func computeWhy(v *Vectorisation) string {
	const usual = "dependent instructions, barriers, divergence or too few work-items in flight hold it back more than the compute roof"
	switch {
	case v == nil:
		return usual
	case !v.Known:
		return "whether the driver vectorised it is not known (" + v.Why + "); code left scalar, " + usual
	case v.Vectorised:
		return fmt.Sprintf("the driver vectorised it across work-items (%d packed, %d scalar floating-point instructions, up to %d lanes, in its compiled code), so %s",
			v.Packed, v.Scalar, v.Width, usual)
	}
	return fmt.Sprintf("the driver did not vectorise it across work-items (%d scalar, %d packed floating-point instructions in its compiled code): each core runs one lane of its vector units, a fraction of the vector ceiling. "+
		"The usual cause is a loop in the kernel: LLVM's loop vectorizer takes only innermost loops, and the kernel's own loop leaves PoCL's loop over work-items outside it; "+
		"vector types (float8, float16) in the kernel are packed whatever the driver does (an unrolled body is vectorised by some PoCL versions, not all)", v.Scalar, v.Packed)
}

// NeedsVectorisation reports whether r, placed on a CPU's profile p, is a
// compute-bound kernel far under its roof, whose verdict names whether the
// driver vectorised it (Kernel.Vector).
func NeedsVectorisation(r *results.Roofline, p *Profile) bool {
	s := Settings{}.withDefaults()
	return r != nil && p != nil && p.Device.Type == "CPU" && r.Verdict == ComputeBound && r.Above == "" &&
		r.Roof > 0 && r.PercentOfRoof < 100*s.FarBelow
}

// capAtRoof keeps r's percentage of its roof at or under 100: a kernel
// level with its roof within s.Slack reads 100%; one beyond it reads none,
// and r.Above says which ceiling it passed and why that ceiling does not
// hold it (the bandwidth roof's reason, or a compute ceiling too low).
func capAtRoof(r *results.Roofline, region string, ro roof, comp *Ceiling, prec string, s Settings) {
	switch {
	case r.Roof <= 0 || r.PercentOfRoof <= 100:
		return
	case r.PercentOfRoof <= 100*(1+s.Slack):
		r.PercentOfRoof = 100
		r.Evidence = append(r.Evidence, fmt.Sprintf("level with its roof within the %.0f%% noise allowance", 100*s.Slack))
		return
	}
	r.PercentOfRoof = 0
	if region == MemoryBound && ro.c != nil {
		r.Above = ro.above
		return
	}
	if comp != nil {
		r.Above = fmt.Sprintf("above the measured %s compute ceiling %s (%s): the ceiling is too low, not the kernel too fast: measure it again with 'clmeter suite peaks'",
			prec, rate(comp.Value, comp.Unit), comp.From)
	}
}

// percentOf is "73% of", or "above" past 100: "achieved ..., 73% of the
// roof".
func percentOf(pct float64) string {
	if pct > 100 {
		return "above"
	}
	return fmt.Sprintf("%.0f%% of", pct)
}

// percentText is a percentage of a ceiling as the evidence writes it:
// "73%", or "above it" past 100 (no percentage over 100 is printed).
func percentText(pct float64) string {
	if pct > 100 {
		return "above it"
	}
	return fmt.Sprintf("%.0f%%", pct)
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

// cacheSizeText is a cache size, or "size not reported" where the driver
// reports none (never "0 B").
func cacheSizeText(b int64) string {
	if b <= 0 {
		return "size not reported"
	}
	return units.Bytes(b)
}
