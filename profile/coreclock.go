package profile

import (
	"bufio"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A MeasuredClock is the core clock counted in cycles of dependent chains
// (coreclock_amd64.go says which and why).
type MeasuredClock struct {
	// MHz is the multiply chain's clock, the one this measurement gives.
	MHz float64
	// AddMHz is the add chain's clock, a check of MHz.
	AddMHz float64
	// Uncertainty is MHz's relative uncertainty (0.01: ±1%): how far each
	// chain's third-fastest run is from its fastest and how far the two
	// chains are apart, at least minClockUncertainty.
	Uncertainty float64
	// Err says why nothing was measured; empty when measured.
	Err string
}

// String is the measurement as a person reads it.
func (m MeasuredClock) String() string {
	if m.Err != "" {
		return "not measured (" + m.Err + ")"
	}
	return fmt.Sprintf("%.0f MHz ±%.1f%% (multiply chain; the add chain gives %.0f MHz)", m.MHz, 100*m.Uncertainty, m.AddMHz)
}

const (
	// minClockUncertainty is the least uncertainty claimed: the clock may
	// step within a 20 ms run and the monotonic clock has its own error.
	minClockUncertainty = 0.005
	// chainTolerance is how far apart the two chains may be before one of
	// them is taken not to run at the latency assumed.
	chainTolerance = 0.05
	// maxClockUncertainty is the most uncertainty a clock may have and be
	// used: runs further apart say the machine was too busy to count on.
	maxClockUncertainty = 0.2
)

const (
	// minChainRuns is the fewest runs of each chain; maxChainTime is the
	// longest the chains are run for while their fastest runs have not
	// settled (the third-fastest within settleSpread of the fastest).
	minChainRuns = 15
	maxChainTime = time.Second
	settleSpread = 0.01
)

// settled reports whether the runs d have settled: their third-fastest is
// within settleSpread of their fastest.
func settled(d []time.Duration) bool {
	if len(d) <= spreadRank {
		return false
	}
	d = slices.Sorted(slices.Values(d))
	return float64(d[spreadRank]-d[0]) <= settleSpread*float64(d[0])
}

// spreadRank is the run (in order of speed, 0 the fastest) whose distance
// from the fastest is a chain's spread: the third, so that one lucky or one
// unlucky run does not decide it.
const spreadRank = 2

// clockFromRuns turns the run times of the two chains (mulCycles and
// addCycles core cycles a run) into a clock: each chain's fastest run, the
// multiply chain's clock as the figure, and an uncertainty from how far each
// chain's third-fastest run and the other chain are from it.
func clockFromRuns(mulCycles int64, mul []time.Duration, addCycles int64, add []time.Duration) MeasuredClock {
	if len(mul) <= spreadRank || len(add) <= spreadRank {
		return MeasuredClock{Err: fmt.Sprintf("fewer than %d runs of each chain", spreadRank+1)}
	}
	mul, add = slices.Sorted(slices.Values(mul)), slices.Sorted(slices.Values(add))
	if mul[0] <= 0 || add[0] <= 0 {
		return MeasuredClock{Err: "a run took no time on the monotonic clock"}
	}
	m := MeasuredClock{
		MHz:    float64(mulCycles) / mul[0].Seconds() / 1e6,
		AddMHz: float64(addCycles) / add[0].Seconds() / 1e6,
	}
	m.Uncertainty = max(minClockUncertainty,
		float64(mul[spreadRank]-mul[0])/float64(mul[0]),
		float64(add[spreadRank]-add[0])/float64(add[0]),
		math.Abs(m.AddMHz-m.MHz)/m.MHz)
	return m
}

// powMod64 is x^n modulo 2^64: what mulChain returns.
func powMod64(x uint64, n int64) uint64 {
	r := uint64(1)
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			r *= x
		}
		x *= x
	}
	return r
}

// An OSClock is what the operating system reports of the cores' clocks; a
// zero figure was not reported.
type OSClock struct {
	// MaxMHz, ScalingMaxMHz and MinMHz are the cpufreq limits: the highest
	// cpuinfo_max_freq and scaling_max_freq and the lowest cpuinfo_min_freq
	// of the cores (/sys/devices/system/cpu/cpu*/cpufreq).
	MaxMHz, ScalingMaxMHz, MinMHz float64
	// Driver is cpufreq's scaling_driver (intel_pstate, amd-pstate,
	// acpi-cpufreq ...) and Boost the content of cpufreq/boost ("1", "0";
	// empty when absent).
	Driver, Boost string
	// CPUInfoMHz is the highest "cpu MHz" of /proc/cpuinfo: the core's
	// current clock where the kernel samples it, else its nominal clock (a
	// virtual machine's is its host's nominal clock).
	CPUInfoMHz float64
}

// ReadOSClock reads what the OS reports of the cores' clocks from fsys, a
// file system rooted where / is (os.DirFS("/") on a real machine); what is
// missing or unreadable stays zero.
func ReadOSClock(fsys fs.FS) OSClock {
	var o OSClock
	dirs, _ := fs.Glob(fsys, "sys/devices/system/cpu/cpu[0-9]*/cpufreq")
	for _, dir := range dirs {
		kHz := func(name string) float64 {
			b, err := fs.ReadFile(fsys, path.Join(dir, name))
			if err != nil {
				return 0
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
			if err != nil || v <= 0 {
				return 0
			}
			return v / 1000
		}
		o.MaxMHz = max(o.MaxMHz, kHz("cpuinfo_max_freq"))
		o.ScalingMaxMHz = max(o.ScalingMaxMHz, kHz("scaling_max_freq"))
		if v := kHz("cpuinfo_min_freq"); v > 0 && (o.MinMHz == 0 || v < o.MinMHz) {
			o.MinMHz = v
		}
		if o.Driver == "" {
			b, _ := fs.ReadFile(fsys, path.Join(dir, "scaling_driver"))
			o.Driver = strings.TrimSpace(string(b))
		}
	}
	if b, err := fs.ReadFile(fsys, "sys/devices/system/cpu/cpufreq/boost"); err == nil {
		o.Boost = strings.TrimSpace(string(b))
	}
	if f, err := fsys.Open("proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok || strings.TrimSpace(k) != "cpu MHz" {
				continue
			}
			if mhz, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && mhz > 0 {
				o.CPUInfoMHz = max(o.CPUInfoMHz, mhz)
			}
		}
	}
	return o
}

// cpufreq reports whether the OS reports cpufreq limits.
func (o OSClock) cpufreq() bool { return o.MaxMHz > 0 || o.ScalingMaxMHz > 0 || o.MinMHz > 0 }

// String is what the OS reports, as a person reads it.
func (o OSClock) String() string {
	var parts []string
	if o.cpufreq() {
		s := "cpufreq"
		if o.Driver != "" {
			s += " (" + o.Driver + ")"
		}
		var lim []string
		for _, l := range []struct {
			name string
			mhz  float64
		}{{"cpuinfo_max_freq", o.MaxMHz}, {"scaling_max_freq", o.ScalingMaxMHz}, {"cpuinfo_min_freq", o.MinMHz}} {
			if l.mhz > 0 {
				lim = append(lim, fmt.Sprintf("%s %.0f MHz", l.name, l.mhz))
			}
		}
		if o.Boost != "" {
			lim = append(lim, "boost "+o.Boost)
		}
		parts = append(parts, s+": "+strings.Join(lim, ", "))
	} else {
		parts = append(parts, "no cpufreq limits")
	}
	if o.CPUInfoMHz > 0 {
		parts = append(parts, fmt.Sprintf("/proc/cpuinfo cpu MHz %.0f", o.CPUInfoMHz))
	} else {
		parts = append(parts, "no cpu MHz in /proc/cpuinfo")
	}
	return strings.Join(parts, "; ")
}

const (
	// maxBoost is how far above a nominal clock (a base clock; the cpu MHz
	// of a virtual machine) a core is taken to boost. Desktop and server
	// cores boost to under 2x their base, the smallest mobile parts to
	// about 3.2x (Core i5-1030NG7: 1.1 to 3.5 GHz); a chain the core
	// shortcuts reads 4x and more.
	maxBoost = 4.0
	// minCoreMHz and maxCoreMHz bound what any x86-64 core runs at: none
	// sold runs above 6.2 GHz (Core i9-14900KS), and a clock under 400 MHz
	// means runs slowed by a loaded or throttled machine.
	minCoreMHz, maxCoreMHz = 400, 7000
)

// A ClockCheck is a measured core clock checked against what the OS reports.
type ClockCheck struct {
	Measured MeasuredClock
	OS       OSClock
	// Accepted is true when the measured clock agrees with the OS; MHz is
	// then the clock to use (the measured one, or the OS's hard ceiling when
	// the measurement is above it by less than its uncertainty).
	Accepted bool
	MHz      int
	// Reason says why the clock was accepted or refused.
	Reason string
}

// String is the check as a person reads it: measured, OS, verdict.
func (c ClockCheck) String() string {
	verdict := "refused"
	if c.Accepted {
		verdict = fmt.Sprintf("accepted at %d MHz", c.MHz)
	}
	return fmt.Sprintf("measured %s; OS: %s; %s: %s", c.Measured, c.OS, verdict, c.Reason)
}

// CheckCoreClock accepts a measured clock that agrees with what the OS
// reports within the measurement's uncertainty, and refuses it, saying why,
// when it does not:
//   - the two chains must agree within chainTolerance, and the clock be
//     known within maxClockUncertainty;
//   - cpufreq's cpuinfo_max_freq (or a lower scaling_max_freq) is a ceiling,
//     and cpuinfo_min_freq a floor; with acpi-cpufreq and boost on, the
//     maximum is the base clock, and maxBoost times it is the ceiling;
//   - without cpufreq, /proc/cpuinfo's cpu MHz is a nominal clock: the
//     measured clock may be up to maxBoost times above it or below it;
//   - whatever the OS says, the clock is within minCoreMHz and maxCoreMHz.
//
// Where the OS reports nothing, the measurement's own consistency decides.
func CheckCoreClock(m MeasuredClock, o OSClock) ClockCheck {
	c := ClockCheck{Measured: m, OS: o}
	refuse := func(format string, a ...any) ClockCheck {
		c.Reason = fmt.Sprintf(format, a...)
		return c
	}
	if m.Err != "" {
		return refuse("not measured: %s", m.Err)
	}
	if m.MHz <= 0 || m.AddMHz <= 0 {
		return refuse("not measured: no clock from the chains")
	}
	if d := math.Abs(m.AddMHz-m.MHz) / m.MHz; d > chainTolerance {
		return refuse("the multiply chain gives %.0f MHz and the add chain %.0f MHz, %.0f%% apart (more than %.0f%%): one of them does not take the cycles assumed on this core",
			m.MHz, m.AddMHz, 100*d, 100*chainTolerance)
	}
	u := m.Uncertainty
	if u > maxClockUncertainty {
		return refuse("the fastest runs give %.0f MHz but are ±%.0f%% apart (more than %.0f%%): the machine was too busy to count cycles on",
			m.MHz, 100*u, 100*maxClockUncertainty)
	}
	lo, hi := m.MHz*(1-u), m.MHz*(1+u)
	got := fmt.Sprintf("%.0f MHz ±%.1f%%", m.MHz, 100*u)

	l := osLimits(o, m.MHz, lo, hi)
	if l.ceiling > 0 && lo > l.ceiling {
		return refuse("%s is above %s", got, l.ceilName)
	}
	if l.floor > 0 && hi < l.floor {
		return refuse("%s is below %s: the runs were slowed (a loaded or throttled machine)", got, l.floorName)
	}
	if lo > maxCoreMHz {
		return refuse("%s is above %d MHz, faster than any x86-64 core runs", got, maxCoreMHz)
	}
	if hi < minCoreMHz {
		return refuse("%s is below %d MHz: the runs were slowed (a loaded or throttled machine)", got, minCoreMHz)
	}
	c.Accepted, c.MHz, c.Reason = true, int(math.Round(m.MHz)), l.within
	if l.hard && m.MHz > l.ceiling {
		c.MHz = int(math.Round(l.ceiling))
		c.Reason = fmt.Sprintf("%s, above %s by less than its uncertainty, taken as that ceiling", got, l.ceilName)
	}
	return c
}

// clockLimits are the clocks the OS allows a core: a ceiling and a floor
// (zero: none), named for a reason, with what an accepted clock is within;
// hard when the ceiling is the OS's own limit, not a nominal clock times
// maxBoost.
type clockLimits struct {
	ceiling, floor              float64
	ceilName, floorName, within string
	hard                        bool
}

// osLimits are CheckCoreClock's limits from what the OS reports, for a
// clock of mhz measured within lo to hi.
func osLimits(o OSClock, mhz, lo, hi float64) clockLimits {
	var l clockLimits
	switch {
	case o.cpufreq():
		top, name := o.MaxMHz, "cpuinfo_max_freq"
		if o.ScalingMaxMHz > 0 && (top == 0 || o.ScalingMaxMHz < top) {
			top, name = o.ScalingMaxMHz, "scaling_max_freq"
		}
		if top > 0 {
			if o.Driver == "acpi-cpufreq" && o.Boost != "0" {
				l.ceiling = maxBoost * top
				l.ceilName = fmt.Sprintf("%.0fx the %s of %.0f MHz, a base clock under acpi-cpufreq with boost", maxBoost, name, top)
			} else {
				l.ceiling, l.hard = top, true
				l.ceilName = fmt.Sprintf("the %s of %.0f MHz", name, top)
			}
		}
		if o.MinMHz > 0 {
			l.floor, l.floorName = o.MinMHz, fmt.Sprintf("the cpuinfo_min_freq of %.0f MHz", o.MinMHz)
		}
		l.within = "within cpufreq's limits"
		if l.ceiling > 0 {
			l.within += ", at most " + l.ceilName
		}
	case o.CPUInfoMHz > 0:
		n := o.CPUInfoMHz
		l.ceiling, l.ceilName = maxBoost*n, fmt.Sprintf("%.0fx the %.0f MHz /proc/cpuinfo reports, a nominal clock with no cpufreq limits", maxBoost, n)
		l.floor, l.floorName = n/maxBoost, fmt.Sprintf("1/%.0f of the %.0f MHz /proc/cpuinfo reports", maxBoost, n)
		switch {
		case lo > n:
			l.within = fmt.Sprintf("%.0f%% above the %.0f MHz /proc/cpuinfo reports, a nominal clock with no cpufreq limits (up to %.0fx is taken)", 100*(mhz/n-1), n, maxBoost)
		case hi < n:
			l.within = fmt.Sprintf("%.0f%% below the %.0f MHz /proc/cpuinfo reports (down to 1/%.0f is taken)", 100*(1-mhz/n), n, maxBoost)
		default:
			l.within = fmt.Sprintf("the %.0f MHz /proc/cpuinfo reports, within its uncertainty", n)
		}
	default:
		l.within = fmt.Sprintf("the OS reports no clock; the chains agree and the clock is one an x86-64 core runs at (%d to %d MHz)", minCoreMHz, maxCoreMHz)
	}
	return l
}

// CoreClock measures the clock this process's core runs at and checks it
// against what the OS reports (CheckCoreClock). It is what a CPU device's
// theoretical compute figure uses: CL_DEVICE_MAX_CLOCK_FREQUENCY is the base
// clock, and cores boost far above it. It is measured once a process (0.1 s,
// up to 1 s on a busy machine).
func CoreClock() ClockCheck { return coreClock() }

var coreClock = sync.OnceValue(func() ClockCheck {
	m := measureChains()
	// Read right after the chains: where the kernel samples the current
	// clock, the core that ran them reports it.
	return CheckCoreClock(m, ReadOSClock(os.DirFS("/")))
})
