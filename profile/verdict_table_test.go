package profile

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
)

// cpuVM is a 2-core CPU with a 32 MiB last-level cache, as PoCL shows the
// project's VMs.
var cpuVM = results.DeviceInfo{Index: "0:0", Platform: "Portable Computing Language", PlatformVersion: "OpenCL 3.0 PoCL 3.1",
	Name: "pthread-znver5", DriverVersion: "3.1", ComputeUnits: 2, Type: "CPU", GlobalCacheBytes: 32 << 20}

// quickBenchmarks are what 'clmeter suite quick' files on cpuVM: read-only
// patterns beyond the caches, its streams (copy, triad, dot) within them
// (the plateau search settled their arrays there), float compute, launch.
func quickBenchmarks() []results.Benchmark {
	ms := time.Millisecond
	return []results.Benchmark{
		bench("peaks/bandwidth/stride/float4", withWS(globalID(results.TrafficReadOnly, RegionMemory), 512<<20), cpuVM, ms, 9, 0),
		bench("peaks/bandwidth/chunk/float16", withWS(globalID(results.TrafficReadOnly, RegionMemory), 512<<20), cpuVM, ms, 11, 0),
		bench("streams/copy/float", withWS(globalID(results.TrafficCopy, "L3"), 16<<20), cpuVM, ms, 41, 0),
		bench("streams/triad/float", withWS(globalID(results.TrafficCopy, "L3"), 24<<20), cpuVM, ms, 55, 0),
		bench("streams/dot/float", withWS(globalID(results.TrafficReadOnly, "L3"), 16<<20), cpuVM, ms, 35, 0),
		bench("peaks/compute/float/16", computeID("float"), cpuVM, ms, 0, 120),
		bench("launch/throughput", launchID("throughput"), cpuVM, 6*time.Microsecond, 0, 0),
	}
}

// peaksBenchmarks are what 'clmeter suite peaks' files on cpuVM: every
// pattern beyond the caches and within them, compute, launch.
func peaksBenchmarks() []results.Benchmark {
	ms := time.Millisecond
	return []results.Benchmark{
		bench("peaks/bandwidth/chunk/float16", withWS(globalID(results.TrafficReadOnly, RegionMemory), 1<<30), cpuVM, ms, 12, 0),
		bench("peaks/bandwidth/copy/float16", withWS(globalID(results.TrafficCopy, RegionMemory), 1<<30), cpuVM, ms, 10, 0),
		bench("peaks/bandwidth/rmw/float16", withWS(globalID(results.TrafficReadModifyWrite, RegionMemory), 1<<30), cpuVM, ms, 19, 0),
		bench("peaks/cache-bandwidth/chunk/float16", withWS(globalID(results.TrafficReadOnly, "L2"), 1<<20), cpuVM, ms, 60, 0),
		bench("peaks/cache-bandwidth/copy/float16", withWS(globalID(results.TrafficCopy, "L2"), 1<<20), cpuVM, ms, 45, 0),
		bench("peaks/cache-bandwidth/rmw/float16", withWS(globalID(results.TrafficReadModifyWrite, "L2"), 1<<20), cpuVM, ms, 70, 0),
		bench("peaks/compute/float/16", computeID("float"), cpuVM, ms, 0, 130),
		bench("launch/throughput", launchID("throughput"), cpuVM, 6*time.Microsecond, 0, 0),
	}
}

func withWS(id results.Identity, ws int64) results.Identity {
	id.WorkingSetBytes = ws
	return id
}

// verdictProfiles are cpuVM's profile in each state a user meets: empty,
// after the quick suite only, after the peaks suite only, and after both.
func verdictProfiles(t *testing.T) map[string]*Profile {
	at := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	quick := FromBenchmarks(cpuVM, quickBenchmarks(), "clmeter suite quick", at)
	peaks := FromBenchmarks(cpuVM, peaksBenchmarks(), "clmeter suite peaks", at)
	if quick == nil || peaks == nil {
		t.Fatal("no profile from the suites' benchmarks")
	}
	both, _ := Merge(quick, peaks)
	empty := &Profile{Format: FormatVersion, Key: KeyOf(cpuVM), Device: cpuVM, Compute: map[string]*Ceiling{}}
	return map[string]*Profile{"empty": empty, "quick only": quick, "peaks only": peaks, "both": both}
}

// percents finds every percentage a verdict writes.
var percents = regexp.MustCompile(`(\d+(?:\.\d+)?)%`)

// TestVerdictNeverAboveItsCeiling places each kernel shape (read-only,
// copy, read-modify-write at both sides of the caches, and a compute
// kernel) at rates from well under to three times each of the profile's
// figures, against each state of the profile, and checks that the verdict
// never writes a percentage over 100, that its roof is of the kernel's own
// traffic and region wherever the profile has that figure, and that a
// kernel beyond its roof is told so with the reason.
func TestVerdictNeverAboveItsCeiling(t *testing.T) {
	type shape struct {
		name    string
		traffic string
		bytes   int64 // a launch
		flopsPB float64
	}
	shapes := []shape{
		{"read-only in cache", results.TrafficReadOnly, 8 << 20, 0.25},
		{"read-only in memory", results.TrafficReadOnly, 512 << 20, 0.25},
		{"copy in cache", results.TrafficCopy, 8 << 20, 0},
		{"copy in memory", results.TrafficCopy, 512 << 20, 0},
		{"triad in cache", results.TrafficReadModifyWrite, 12 << 20, 1.0 / 6},
		{"saxpy 16Mi in memory", results.TrafficReadModifyWrite, 192 << 20, 1.0 / 6},
		{"compute", "", 1 << 20, 4096},
	}
	rates := []float64{1, 5, 9, 10.2, 12, 15, 19, 30, 41, 45, 55, 60, 70, 100, 200, 400}
	for state, p := range verdictProfiles(t) {
		for _, sh := range shapes {
			for _, gbps := range rates {
				k := Kernel{BytesPerLaunch: sh.bytes, Traffic: sh.traffic, OpsUnit: "FLOP", WorkGroups: 4096,
					Median: dur(float64(sh.bytes), gbps*1e9)}
				k.OpsPerLaunch = int64(sh.flopsPB * float64(sh.bytes))
				r := Place(p, k, Settings{})
				name := fmt.Sprintf("%s, %s at %g GB/s", state, sh.name, gbps)
				checkVerdict(t, name, p, k, r)
			}
		}
	}
}

// checkVerdict is TestVerdictNeverAboveItsCeiling's check of one placement.
func checkVerdict(t *testing.T, name string, p *Profile, k Kernel, r *results.Roofline) {
	t.Helper()
	text := r.Bound() + "\n" + strings.Join(r.Evidence, "\n")
	for _, m := range percents.FindAllStringSubmatch(text, -1) {
		if v, _ := strconv.ParseFloat(m[1], 64); v > 100 {
			t.Errorf("%s: %s over 100 in\n%s", name, m[0], text)
		}
	}
	if r.PercentOfRoof > 100 {
		t.Errorf("%s: PercentOfRoof %.0f", name, r.PercentOfRoof)
	}
	slot, _ := SlotOf(&results.Identity{Kind: results.KindBandwidth, Traffic: k.Traffic}, k.BytesPerLaunch, p.Device.GlobalCacheBytes)
	own := p.Patterns[k.Traffic]
	if slot.Region == RegionCache {
		own = p.CachePatterns[k.Traffic]
	}
	if own != nil && k.OpsPerLaunch < 1000*k.BytesPerLaunch && r.BandwidthGBPerSecond != own.Value {
		t.Errorf("%s: roof %.1f GB/s (%s), want its own pattern's in the %s: %.1f (%s)", name, r.BandwidthGBPerSecond, r.BandwidthPattern, slot.Region, own.Value, own.From)
	}
	if r.Roof > 0 && r.Verdict != LaunchBound {
		achieved := r.GOpsPerSecond
		if r.RoofUnit == "GB/s" {
			achieved = r.GBPerSecond
		}
		beyond := achieved > r.Roof*1.05
		if beyond != (r.Above != "") {
			t.Errorf("%s: achieved %.1f against a roof of %.1f %s, Above %q", name, achieved, r.Roof, r.RoofUnit, r.Above)
		}
		if beyond && (!strings.HasPrefix(r.Above, "above the measured ") || !strings.Contains(r.Bound(), "above its measured ceiling")) {
			t.Errorf("%s: beyond its roof, the verdict %q does not say so: %q", name, r.Bound(), r.Above)
		}
		if beyond && slot.Region == RegionCache && r.BandwidthGBPerSecond > 0 && r.Verdict == MemoryBound &&
			p.CacheBandwidth == nil && !strings.Contains(r.Above, "fits in the caches") {
			t.Errorf("%s: in the caches above the memory ceiling without saying why: %q", name, r.Above)
		}
	}
}

// TestVerdictSaxpyAfterQuick is the case of issue 43: after the quick suite
// alone (no read-modify-write figure), saxpy over 16Mi floats beyond the
// measured read-only memory ceiling is told which ceiling it passed and
// why, never "memory-bound 146%".
func TestVerdictSaxpyAfterQuick(t *testing.T) {
	p := verdictProfiles(t)["quick only"]
	big := cpuVM
	big.GlobalCacheBytes = 16 << 20
	p.Device = big
	k := Kernel{BytesPerLaunch: 192 << 20, OpsPerLaunch: 32 << 20, OpsUnit: "FLOP", Traffic: results.TrafficReadModifyWrite, WorkGroups: 4096,
		Median: dur(192<<20, 16e9)}
	r := Place(p, k, Settings{})
	if got := r.Bound(); got != "memory-bound, above its measured ceiling" {
		t.Errorf("bound %q, want memory-bound, above its measured ceiling; evidence %q", got, r.Evidence)
	}
	want := "above the measured memory ceiling 11.0 GB/s (read-only pattern, peaks/bandwidth/chunk/float16): that figure is of the read-only pattern, not the read-modify-write traffic this kernel makes"
	if !strings.HasPrefix(r.Above, want) {
		t.Errorf("above %q, want %q", r.Above, want)
	}
}

// TestVerdictHighestFallback is the case seen on a loaded 2-core Xeon VM
// (300 MiB L3, 2026-11-28): after the quick suite, saxpy over 16Mi floats
// (in the caches by the 4x rule) had no read-modify-write cache figure, and
// the only cache figure (2.16 GB/s, read-only) was below the memory one
// (13.9 GB/s): the roof is the higher, and the evidence says why.
func TestVerdictHighestFallback(t *testing.T) {
	vm := cpuVM
	vm.GlobalCacheBytes = 300 << 20
	p := &Profile{Device: vm, Compute: map[string]*Ceiling{"float": {Value: 162, Unit: "GFLOP/s"}},
		Bandwidth:      &Ceiling{Value: 13.9, Unit: "GB/s", Pattern: results.TrafficReadOnly, Origin: Origin{From: "peaks/bandwidth/chunk/float16"}},
		CacheBandwidth: &Ceiling{Value: 2.16, Unit: "GB/s", Pattern: results.TrafficReadOnly, Origin: Origin{From: "peaks/bandwidth/stride/float4"}}}
	p.Patterns = map[string]*Ceiling{results.TrafficReadOnly: p.Bandwidth}
	p.CachePatterns = map[string]*Ceiling{results.TrafficReadOnly: p.CacheBandwidth}
	k := Kernel{BytesPerLaunch: 192 << 20, OpsPerLaunch: 32 << 20, OpsUnit: "FLOP", Traffic: results.TrafficReadModifyWrite, WorkGroups: 4096,
		Median: dur(192<<20, 7e9)}
	r := Place(p, k, Settings{})
	all := strings.Join(r.Evidence, "\n")
	if r.BandwidthGBPerSecond != 13.9 || r.Bound() != "memory-bound 50%" || !strings.Contains(all, "the profile's cache figures, 2.16 GB/s at best (peaks/bandwidth/stride/float4), are below it") {
		t.Errorf("%s under %.2f GB/s:\n%s", r.Bound(), r.BandwidthGBPerSecond, all)
	}
}
