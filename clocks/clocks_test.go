package clocks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/clocks/nvml/nvmltest"
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

// fakeMonitor is a Monitor of the fake NVML library built with defines
// (nvmltest), and a function that counts its NVML starts not shut down.
func fakeMonitor(t *testing.T, defines ...string) (*Monitor, func() int) {
	path := nvmltest.Build(t, defines...)
	return &Monitor{path: path}, nvmltest.Inits(t, path)
}

// TestWatchFakeNVML reads the fake library's devices through a Monitor:
// loading on first use, matching by PCI bus and by name, every reading, the
// summary's warning, the theoretical bandwidth, and unloading on Close.
func TestWatchFakeNVML(t *testing.T) {
	m, inits := fakeMonitor(t)
	if inits() != 0 {
		t.Fatalf("NVML started before the first Watch")
	}
	slow := nvmltest.Devices[1]
	c := m.WatchEvery(DeviceID{Name: slow.Name, PCIBus: int(slow.Bus)}, time.Millisecond).Stop()
	if inits() != 1 {
		t.Errorf("%d NVML starts after a Watch, want 1", inits())
	}
	if !c.Observable || c.Readings < 2 {
		t.Fatalf("device by PCI bus: %+v", c)
	}
	later := c.Readings - 1
	if c.Start.SMClockMHz != int(slow.SMClock) || c.End.SMClockMHz != int(slow.SMLater) || c.BelowStart != later ||
		c.Start.MemoryClockMHz != int(slow.MemClock) || c.Start.TemperatureC != int(slow.TempC) || c.Max.TemperatureC != int(slow.TempLater) ||
		c.Max.PowerWatts != float64(slow.PowerMW)/1000 || len(c.Start.Throttle) != 0 || strings.Join(c.End.Throttle, ",") != "power cap,hardware thermal slowdown" {
		t.Errorf("device by PCI bus: start %+v end %+v max %+v below %d of %d", *c.Start, *c.End, *c.Max, c.BelowStart, c.Readings)
	}
	for _, want := range []string{fmt.Sprintf("%d of %d readings", later, c.Readings), fmt.Sprintf("power cap in %d, hardware thermal slowdown in %d", later, later)} {
		if !strings.Contains(c.Warning, want) {
			t.Errorf("warning %q lacks %q", c.Warning, want)
		}
	}
	steady := nvmltest.Devices[0]
	if c := m.Watch(DeviceID{Name: steady.Name, PCIBus: int(steady.Bus)}).Stop(); !c.Observable || c.Warning != "" ||
		c.Min.SMClockMHz != int(steady.SMClock) || c.Max.PowerWatts != 123.456 {
		t.Errorf("steady device: %+v", c)
	}
	l40 := nvmltest.Devices[2]
	if c := m.Watch(DeviceID{Name: l40.Name, PCIBus: -1}).Stop(); !c.Observable || c.Start.SMClockMHz != int(l40.SMClock) || c.Max.PowerWatts != 0 {
		t.Errorf("device by name, power not supported: %+v", c)
	}
	for id, want := range map[DeviceID]string{
		{Name: slow.Name, PCIBus: -1}:     `NVML has 2 devices named "NVIDIA H200" and the OpenCL driver gave no PCI bus`,
		{Name: "NVIDIA A100", PCIBus: -1}: `NVML has no device named "NVIDIA A100"`,
		{Name: "gfx1100", PCIBus: 0x19}:   "gfx1100 is not an NVIDIA GPU",
	} {
		if c := m.Watch(id).Stop(); c.Observable || !strings.HasPrefix(c.Note, "clocks not observable: "+want) {
			t.Errorf("%+v: %+v, want %q", id, c, want)
		}
	}
	gbps, note, ok := m.MemoryBandwidth(DeviceID{Name: steady.Name, PCIBus: int(steady.Bus)})
	if want := float64(steady.BusWidth) / 8 * float64(steady.MemClock) * 2e6 / 1e9; !ok || gbps != want || note != "5120-bit bus x 2619 MHz x 2 (NVML)" {
		t.Errorf("MemoryBandwidth = %v, %q, %v; want %v", gbps, note, ok, want)
	}
	w := m.WatchEvery(DeviceID{Name: l40.Name, PCIBus: -1}, time.Millisecond)
	m.Close()
	if inits() != 0 {
		t.Errorf("%d NVML starts after Close, want 0", inits())
	}
	if c := w.Stop(); !c.Observable || c.Readings < 1 {
		t.Errorf("a watch stopped after Close: %+v", c)
	}
	if c := m.Watch(DeviceID{Name: l40.Name, PCIBus: -1}).Stop(); c.Observable {
		t.Errorf("a watch after Close: %+v", c)
	}
}

// TestWatchNVMLMissing: no library, or one lacking functions, is clocks not
// observable with the reason, as on every machine without the driver.
func TestWatchNVMLMissing(t *testing.T) {
	id := DeviceID{Name: "NVIDIA H200", PCIBus: 0x19}
	m := &Monitor{path: filepath.Join(t.TempDir(), "libnvidia-ml.so.1")}
	if c := m.Watch(id).Stop(); c.Observable || c.Note != "clocks not observable: NVML (libnvidia-ml.so.1) is not installed" {
		t.Errorf("no library: %+v", c)
	}
	m.Close()
	old, _ := fakeMonitor(t, nvmltest.Missing)
	defer old.Close()
	if c := old.Watch(id).Stop(); c.Observable || !strings.Contains(c.Note, "lacks nvmlDeviceGetCount_v2, nvmlDeviceGetPciInfo_v3") {
		t.Errorf("an old driver: %+v", c)
	}
	broken, _ := fakeMonitor(t, nvmltest.InitFails)
	defer broken.Close()
	if c := broken.Watch(id).Stop(); c.Observable || c.Note != "clocks not observable: NVML did not start: Driver Not Loaded" {
		t.Errorf("NVML not starting: %+v", c)
	}
}
