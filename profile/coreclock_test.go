package profile

import (
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestCoreClockMHz measures this machine's core clock and checks what the
// code decided from what it measured, not that the machine was quiet: the
// check recorded is CheckCoreClock's verdict on the recorded measurement and
// OS clock, a refusal says why, and an accepted clock carries an uncertainty
// no smaller than the least claimed. A busy or throttled machine (or one whose
// chains disagree, as on some Intel cores) is refused, and that is correct.
func TestCoreClockMHz(t *testing.T) {
	c := CoreClock()
	t.Logf("core clock: %s", c)
	if runtime.GOARCH != "amd64" {
		if c.Accepted || c.Measured.Err == "" {
			t.Fatalf("a clock where it cannot measure: %s", c)
		}
		return
	}
	if again := CheckCoreClock(c.Measured, c.OS); again != c {
		t.Fatalf("the verdict recorded is not the one its inputs give:\n recorded %s\n from its inputs %s", c, again)
	}
	if c.Reason == "" {
		t.Fatalf("a verdict without its reason: %s", c)
	}
	if !c.Accepted {
		t.Logf("refused (correct when the machine is busy or the chains disagree): %s", c.Reason)
		return
	}
	if c.Measured.Err != "" || c.MHz < minCoreMHz || c.MHz > maxCoreMHz {
		t.Fatalf("accepted a clock outside what any core runs at: %s", c)
	}
	if u := c.Measured.Uncertainty; u < minClockUncertainty {
		t.Errorf("uncertainty ±%.2f%%, less than the least claimed, ±%.1f%%", 100*u, 100*minClockUncertainty)
	}
}

// TestPowMod64 checks the multiply chain's expected result against repeated
// multiplication.
func TestPowMod64(t *testing.T) {
	x, want := uint64(0x9e3779b97f4a7c15), uint64(1)
	for n := int64(0); n < 300; n++ {
		if got := powMod64(x, n); got != want {
			t.Fatalf("x^%d = %#x, want %#x", n, got, want)
		}
		want *= x
	}
}

// TestClockFromRuns checks the clock and its uncertainty from run times: the
// fastest run counts, and the third-fastest's distance from it and the
// chains' disagreement make the uncertainty.
func TestClockFromRuns(t *testing.T) {
	ms := func(v ...float64) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x*float64(time.Millisecond)))
		}
		return d
	}
	// 84 M cycles in 21 ms and 80 M in 20 ms: 4 GHz both; the third-fastest
	// multiply run is 2% slower.
	m := clockFromRuns(84e6, ms(30, 21, 21.42, 21.01, 25), 80e6, ms(20, 20.02, 40, 20.01))
	if m.Err != "" || m.MHz < 3999 || m.MHz > 4001 || m.AddMHz < 3999 || m.AddMHz > 4001 {
		t.Fatalf("clock %+v, want 4000 MHz from both chains", m)
	}
	if m.Uncertainty < 0.0199 || m.Uncertainty > 0.0201 {
		t.Errorf("uncertainty %.4f, want 0.02 (the third-fastest run's distance)", m.Uncertainty)
	}
	// Runs that agree to the nanosecond still claim the least uncertainty.
	if m := clockFromRuns(84e6, ms(21, 21, 21), 80e6, ms(20, 20, 20)); m.Uncertainty != minClockUncertainty {
		t.Errorf("uncertainty %.4f, want the least, %.4f", m.Uncertainty, minClockUncertainty)
	}
	// An add chain 3% faster than the multiply chain: 3% uncertainty.
	if m := clockFromRuns(84e6, ms(21, 21, 21), 80e6, ms(19.4, 19.4, 19.4)); m.Uncertainty < 0.03 || m.Uncertainty > 0.032 {
		t.Errorf("uncertainty %.4f, want about 0.031 (the chains' disagreement)", m.Uncertainty)
	}
	if m := clockFromRuns(84e6, ms(21, 22), 80e6, ms(20, 20, 20)); m.Err == "" {
		t.Errorf("a clock from two runs: %+v", m)
	}
}

// TestSettled checks when runs count as settled: three within 1% of the
// fastest.
func TestSettled(t *testing.T) {
	ms := func(v ...float64) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x*float64(time.Millisecond)))
		}
		return d
	}
	for _, tc := range []struct {
		runs []time.Duration
		want bool
	}{
		{ms(2, 2.01), false},
		{ms(2.5, 2, 2.01, 9, 2.019), true},
		{ms(2.5, 2, 2.01, 9, 2.03), false},
	} {
		if got := settled(tc.runs); got != tc.want {
			t.Errorf("settled(%v) = %v, want %v", tc.runs, got, tc.want)
		}
	}
}

// machine is a fake root file system: a machine's /proc/cpuinfo and cpufreq.
type machine map[string]string

func (m machine) fs() fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range m {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

// cpuinfo is a /proc/cpuinfo of cores at these clocks.
func cpuinfo(mhz ...string) string {
	var b strings.Builder
	for i, v := range mhz {
		b.WriteString("processor\t: " + string(rune('0'+i)) + "\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\n")
		if v != "" {
			b.WriteString("cpu MHz\t\t: " + v + "\n")
		}
		b.WriteString("flags\t\t: fpu avx512f\n\n")
	}
	return b.String()
}

// cpufreq is a core's cpufreq folder: its driver and limits in kHz.
func cpufreq(m machine, cpu, driver, maxKHz, scalingKHz, minKHz string) machine {
	dir := "sys/devices/system/cpu/" + cpu + "/cpufreq/"
	for name, v := range map[string]string{"scaling_driver": driver, "cpuinfo_max_freq": maxKHz, "scaling_max_freq": scalingKHz, "cpuinfo_min_freq": minKHz} {
		if v != "" {
			m[dir+name] = v + "\n"
		}
	}
	return m
}

// TestReadOSClock checks what is read from fake /proc and /sys trees.
func TestReadOSClock(t *testing.T) {
	hybrid := cpufreq(cpufreq(machine{"proc/cpuinfo": cpuinfo("4700.123", "800.000")}, "cpu0", "intel_pstate", "5400000", "5400000", "800000"),
		"cpu1", "intel_pstate", "4300000", "3000000", "400000")
	hybrid["sys/devices/system/cpu/cpufreq/boost"] = "1\n"
	hybrid["sys/devices/system/cpu/cpuidle/current_driver"] = "intel_idle\n"
	for _, tc := range []struct {
		name string
		m    machine
		want OSClock
	}{
		{"nothing", machine{}, OSClock{}},
		{"VM", machine{"proc/cpuinfo": cpuinfo("2600.000", "2600.000")}, OSClock{CPUInfoMHz: 2600}},
		{"hybrid host: the highest max, the lowest min", hybrid, OSClock{MaxMHz: 5400, ScalingMaxMHz: 5400, MinMHz: 400, Driver: "intel_pstate", Boost: "1", CPUInfoMHz: 4700.123}},
		{"junk and missing values", cpufreq(machine{"proc/cpuinfo": cpuinfo("", "x") + "cpu MHz : -5\n"}, "cpu0", "", "abc", "", ""), OSClock{}},
	} {
		if got := ReadOSClock(tc.m.fs()); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestCheckCoreClock drives the cross-check with machine shapes: fake OS
// trees read by ReadOSClock, and measured clocks.
func TestCheckCoreClock(t *testing.T) {
	clock := func(mhz, addMHz, u float64) MeasuredClock {
		return MeasuredClock{MHz: mhz, AddMHz: addMHz, Uncertainty: u}
	}
	vm2600 := machine{"proc/cpuinfo": cpuinfo("2600.000", "2600.000")}
	vm3000 := machine{"proc/cpuinfo": cpuinfo("2999.998", "3000.000")}
	bare := cpufreq(machine{"proc/cpuinfo": cpuinfo("3612.250", "1200.000")}, "cpu0", "intel_pstate", "3800000", "3800000", "800000")
	capped := cpufreq(machine{}, "cpu0", "amd-pstate-epp", "5100000", "2000000", "400000")
	acpiBoost := cpufreq(machine{"sys/devices/system/cpu/cpufreq/boost": "1\n"}, "cpu0", "acpi-cpufreq", "2601000", "2601000", "1000000")
	acpiNoBoost := cpufreq(machine{"sys/devices/system/cpu/cpufreq/boost": "0\n"}, "cpu0", "acpi-cpufreq", "2601000", "2601000", "1000000")
	for _, tc := range []struct {
		name     string
		m        machine
		measured MeasuredClock
		accepted bool
		mhz      int    // the clock to use when accepted
		reason   string // in the reason
	}{
		{"the issue's Xeon VM: 16 GHz from a shortcut chain", vm2600, clock(16242, 16300, 0.01), false, 0, "above 4x the 2600 MHz /proc/cpuinfo reports"},
		{"the same VM, the multiply chain's 4.17 GHz", vm2600, clock(4170, 4165, 0.008), true, 4170, "60% above the 2600 MHz /proc/cpuinfo reports"},
		{"the chains disagree (immediate adds folded)", vm2600, clock(4170, 16680, 0.01), false, 0, "one of them does not take the cycles assumed"},
		{"turbo 4.4 GHz above a 3.0 GHz base without cpufreq", vm3000, clock(4400, 4390, 0.01), true, 4400, "47% above the 3000 MHz /proc/cpuinfo reports, a nominal clock with no cpufreq limits (up to 4x is taken)"},
		{"a VM core at its nominal clock", vm2600, clock(2590, 2595, 0.01), true, 2590, "the 2600 MHz /proc/cpuinfo reports, within its uncertainty"},
		{"a VM core far below its nominal clock", vm2600, clock(500, 501, 0.01), false, 0, "below 1/4 of the 2600 MHz"},
		{"bare metal under cpuinfo_max_freq 3.8 GHz", bare, clock(3700, 3690, 0.01), true, 3700, "within cpufreq's limits, at most the cpuinfo_max_freq of 3800 MHz"},
		{"bare metal, 4.4 GHz above cpuinfo_max_freq 3.8 GHz", bare, clock(4400, 4400, 0.01), false, 0, "4400 MHz ±1.0% is above the cpuinfo_max_freq of 3800 MHz"},
		{"bare metal, above the ceiling within the uncertainty", bare, clock(3830, 3825, 0.01), true, 3800, "taken as that ceiling"},
		{"bare metal, below cpuinfo_min_freq", bare, clock(700, 702, 0.01), false, 0, "below the cpuinfo_min_freq of 800 MHz"},
		{"16 GHz on bare metal", bare, clock(16000, 16000, 0.01), false, 0, "above the cpuinfo_max_freq"},
		{"a scaling_max_freq cap below cpuinfo_max_freq", capped, clock(4800, 4810, 0.01), false, 0, "above the scaling_max_freq of 2000 MHz"},
		{"under the scaling_max_freq cap", capped, clock(1990, 1991, 0.01), true, 1990, "scaling_max_freq of 2000 MHz"},
		{"acpi-cpufreq with boost: the max is a base clock", acpiBoost, clock(3500, 3490, 0.01), true, 3500, "4x the cpuinfo_max_freq of 2601 MHz, a base clock under acpi-cpufreq with boost"},
		{"acpi-cpufreq without boost: the max is a ceiling", acpiNoBoost, clock(3500, 3490, 0.01), false, 0, "above the cpuinfo_max_freq of 2601 MHz"},
		{"the OS reports nothing: own consistency", machine{}, clock(4000, 3990, 0.01), true, 4000, "the OS reports no clock; the chains agree"},
		{"the OS reports nothing: 16 GHz", machine{}, clock(16000, 16010, 0.01), false, 0, "faster than any x86-64 core runs"},
		{"the OS reports nothing: the chains disagree", machine{}, clock(4000, 5000, 0.01), false, 0, "25% apart"},
		{"runs too far apart", vm2600, clock(3000, 3010, 0.3), false, 0, "the fastest runs give 3000 MHz but are ±30% apart (more than 20%): the machine was too busy"},
		{"not measured", vm2600, MeasuredClock{Err: "the cycle chains are amd64 only"}, false, 0, "not measured: the cycle chains are amd64 only"},
	} {
		c := CheckCoreClock(tc.measured, ReadOSClock(tc.m.fs()))
		if c.Accepted != tc.accepted || c.MHz != tc.mhz || !strings.Contains(c.Reason, tc.reason) {
			t.Errorf("%s: %s\n\twant accepted %v at %d MHz, reason with %q", tc.name, c, tc.accepted, tc.mhz, tc.reason)
		}
	}
}
