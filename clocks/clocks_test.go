package clocks

import (
	"os"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
)

func TestSummarizeSteady(t *testing.T) {
	rs := []results.ClockReading{{SMClockMHz: 1980, MemoryClockMHz: 2619, TemperatureC: 40, PowerWatts: 100},
		{SMClockMHz: 1980, MemoryClockMHz: 2619, TemperatureC: 45, PowerWatts: 400},
		{SMClockMHz: 1965, MemoryClockMHz: 2619, TemperatureC: 44, PowerWatts: 380}}
	c := Summarize(rs)
	if !c.Observable || c.Readings != 3 || c.BelowStart != 0 || c.Warning != "" {
		t.Errorf("steady clocks: %+v", c)
	}
	if c.Max.TemperatureC != 45 || c.Max.PowerWatts != 400 || c.Min.SMClockMHz != 1965 || c.End.SMClockMHz != 1965 {
		t.Errorf("extremes: min %+v max %+v end %+v", *c.Min, *c.Max, *c.End)
	}
}

func TestSummarizeThrottled(t *testing.T) {
	rs := []results.ClockReading{{SMClockMHz: 1980}, {SMClockMHz: 1755, Throttle: []string{"power cap"}}, {SMClockMHz: 1980}, {SMClockMHz: 1600, Throttle: []string{"power cap", "hardware thermal slowdown"}}}
	c := Summarize(rs)
	if c.BelowStart != 2 || c.Min.SMClockMHz != 1600 {
		t.Errorf("below %d min %d, want 2 and 1600", c.BelowStart, c.Min.SMClockMHz)
	}
	for _, want := range []string{"1980 MHz", "2 of 4 readings", "lowest 1600 MHz", "power cap in 2", "hardware thermal slowdown in 1", "keeps every sample", "nvbench drops"} {
		if !strings.Contains(c.Warning, want) {
			t.Errorf("warning %q lacks %q", c.Warning, want)
		}
	}
}

func TestSummarizeEmpty(t *testing.T) {
	if c := Summarize(nil); c.Observable || !strings.Contains(c.Note, "not observable") {
		t.Errorf("no readings: %+v", c)
	}
}

func TestThrottleReasons(t *testing.T) {
	if got := ThrottleReasons(1 | 4 | 64); strings.Join(got, ",") != "power cap,hardware thermal slowdown" {
		t.Errorf("ThrottleReasons = %v", got)
	}
	if got := ThrottleReasons(1); len(got) != 0 {
		t.Errorf("idle alone is not throttling: %v", got)
	}
}

// On a machine without NVML (CI, PoCL) a watch says why clocks are not
// observable; on an NVIDIA machine it must not claim a non-NVIDIA device.
func TestWatchWithoutNVIDIADevice(t *testing.T) {
	m := Open()
	defer m.Close()
	c := m.Watch(DeviceID{Name: "pthread-skylake-avx512", PCIBus: -1}).Stop()
	if c.Observable || !strings.HasPrefix(c.Note, "clocks not observable: ") {
		t.Fatalf("CPU device: %+v", c)
	}
	if _, err := os.Stat("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"); err != nil && !strings.Contains(c.Note, "NVML") {
		t.Errorf("without NVML the note should name it: %q", c.Note)
	}
	if _, _, ok := m.MemoryBandwidth(DeviceID{Name: "pthread", PCIBus: -1}); ok {
		t.Error("a theoretical bandwidth for a CPU device")
	}
}
