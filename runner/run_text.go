package runner

import (
	"fmt"
	"strings"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/units"
)

func fromCache(p *results.ProgramInfo) string {
	if p != nil && p.FromCache {
		return " (from clmeter's binary cache)"
	}
	return ""
}

func firstLaunch(m *measure.Result) time.Duration {
	if m.Cold.Device > 0 && m.Timer == measure.TimerDevice {
		return m.Cold.Device
	}
	return m.Cold.Host
}

func launchesRange(m *measure.Result) string {
	if len(m.Samples) == 0 {
		return "-"
	}
	lo, hi := m.Samples[0].Launches, m.Samples[0].Launches
	for _, s := range m.Samples {
		lo, hi = min(lo, s.Launches), max(hi, s.Launches)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// launchesText is launchesRange with its noun: "1 launch", "64 launches",
// "7192-20972 launches".
func launchesText(m *measure.Result) string {
	r := launchesRange(m)
	if r == "1" {
		return "1 launch"
	}
	return r + " launches"
}

func throughput(m *measure.Result) string {
	if t := ThroughputText(m.Throughput); t != "" {
		return t
	}
	return "-"
}

// ThroughputText writes t's figures with scaled units: bandwidth ("845 MB/s",
// "3.06 TB/s"), then operations ("65.3 TFLOP/s", "142k launches/s"); "" when
// there are none.
func ThroughputText(t *measure.Throughput) string {
	if t == nil {
		return ""
	}
	var parts []string
	if r := units.Rate(t.GBPerSecond, "B"); r != "" {
		parts = append(parts, r)
	}
	if t.GOpsPerSecond > 0 {
		unit := t.OpsUnit
		if unit == "" {
			unit = "op"
		}
		parts = append(parts, units.Rate(t.GOpsPerSecond, unit))
	}
	return strings.Join(parts, ", ")
}

// fmtDur writes a duration with four significant digits in a fitting unit; a
// zero is "-", since a figure of 0 is never printed as a time.
func fmtDur(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return units.Duration(d)
}
