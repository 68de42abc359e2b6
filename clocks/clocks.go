// Package clocks watches an NVIDIA GPU's SM and memory clocks, temperature and
// power around a benchmark through NVML (package clocks/nvml, which loads
// libnvidia-ml.so.1 on the first Watch), so that a result says whether the
// device ran below the clock it started at. Where NVML is absent (PoCL, other vendors, machines
// without the driver) it says that clocks were not observable; it builds and
// runs everywhere.
package clocks

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/clmeter/clmeter/clocks/nvml"
	"github.com/clmeter/clmeter/results"
)

// DefaultInterval is how often a Watch reads the clocks.
const DefaultInterval = 20 * time.Millisecond

// DropTolerance is the fraction below the starting SM clock that a reading
// must fall to count as "below start" (clocks step in units of about 15 MHz).
const DropTolerance = 0.02

// A DeviceID says which GPU to watch: its OpenCL name and, where the driver
// tells it (cl_nv_device_attribute_query), its PCI bus (-1 when unknown).
type DeviceID struct {
	Name   string
	PCIBus int
}

// A Monitor loads NVML on first use and finds devices in it; the loaded
// library is the Monitor's own, unloaded by Close. The zero value is not
// usable: call Open. Its methods are safe from many goroutines.
type Monitor struct {
	path   string // the NVML library Open loads: nvml.DefaultPath but in tests
	once   sync.Once
	err    error         // why NVML is not usable, nil when it is
	lib    *nvml.Library // NVML loaded and started (and to be closed), nil until then
	mu     sync.Mutex
	closed bool
}

// Open returns a Monitor. NVML is not loaded until the first Watch.
func Open() *Monitor { return &Monitor{path: nvml.DefaultPath} }

func (m *Monitor) init() error {
	m.once.Do(func() {
		lib, err := nvml.Open(m.path)
		switch {
		case errors.Is(err, nvml.ErrLibraryNotFound):
			m.err = fmt.Errorf("NVML (libnvidia-ml.so.1) is not installed")
		case err != nil:
			m.err = err
		default:
			m.lib = lib
		}
	})
	return m.err
}

// Close shuts NVML down and unloads it when it was loaded. Watches still
// running read nothing more.
func (m *Monitor) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.closed = true
	m.once.Do(func() { m.err = fmt.Errorf("NVML closed") }) // never start after Close
	if m.lib != nil {
		m.lib.Close()
	}
}

// find returns the NVML device of id.
func (m *Monitor) find(id DeviceID) (nvml.Device, error) {
	if err := m.init(); err != nil {
		return nvml.Device{}, err
	}
	if !isNVIDIA(id.Name) {
		return nvml.Device{}, fmt.Errorf("%s is not an NVIDIA GPU", id.Name)
	}
	n, ret := m.lib.DeviceCount()
	if ret != nvml.Success {
		return nvml.Device{}, fmt.Errorf("NVML: counting devices: %s", m.lib.ErrorString(ret))
	}
	var byName []nvml.Device
	for i := 0; i < n; i++ {
		d, ret := m.lib.DeviceByIndex(i)
		if ret != nvml.Success {
			continue
		}
		if id.PCIBus >= 0 {
			if pci, ret := d.PciInfo(); ret == nvml.Success && int(pci.Bus) == id.PCIBus {
				return d, nil
			}
		}
		if name, ret := d.Name(); ret == nvml.Success && name == id.Name {
			byName = append(byName, d)
		}
	}
	switch len(byName) {
	case 0:
		return nvml.Device{}, fmt.Errorf("NVML has no device named %q", id.Name)
	case 1:
		return byName[0], nil
	}
	return nvml.Device{}, fmt.Errorf("NVML has %d devices named %q and the OpenCL driver gave no PCI bus to tell them apart", len(byName), id.Name)
}

func isNVIDIA(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"nvidia", "tesla", "geforce", "quadro", "rtx", "h100", "h200", "a100", "l40", "v100"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// A Watch reads a device's clocks every interval until Stop.
type Watch struct {
	dev      nvml.Device
	reason   string // why the device is not watched; "" when it is
	stop     chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	readings []results.ClockReading
}

// Watch starts reading the clocks of id every DefaultInterval; Stop ends it and
// returns the summary. Where the device cannot be watched, the Watch returns
// Clocks that say why.
func (m *Monitor) Watch(id DeviceID) *Watch {
	return m.WatchEvery(id, DefaultInterval)
}

// WatchEvery is Watch with another interval.
func (m *Monitor) WatchEvery(id DeviceID, interval time.Duration) *Watch {
	w := &Watch{}
	d, err := m.find(id)
	if err != nil {
		w.reason = err.Error()
		return w
	}
	w.dev = d
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	w.read()
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
				w.read()
			}
		}
	}()
	return w
}

func (w *Watch) read() {
	r, ok := read(w.dev)
	if !ok {
		return
	}
	w.mu.Lock()
	w.readings = append(w.readings, r)
	w.mu.Unlock()
}

// read takes one reading; false when the clocks cannot be read.
func read(d nvml.Device) (results.ClockReading, bool) {
	var r results.ClockReading
	sm, ret := d.ClockInfo(nvml.ClockSM)
	if ret != nvml.Success {
		return r, false
	}
	r.SMClockMHz = int(sm)
	if mem, ret := d.ClockInfo(nvml.ClockMem); ret == nvml.Success {
		r.MemoryClockMHz = int(mem)
	}
	if t, ret := d.Temperature(nvml.TemperatureGPU); ret == nvml.Success {
		r.TemperatureC = int(t)
	}
	if p, ret := d.PowerUsage(); ret == nvml.Success {
		r.PowerWatts = float64(p) / 1000
	}
	if reasons, ret := d.ClocksEventReasons(); ret == nvml.Success {
		r.Throttle = ThrottleReasons(reasons)
	}
	return r, true
}

// ThrottleReasons names the bits of an NVML clocks event (throttle) reasons
// mask that slow a busy device (idle and application-clock settings are left
// out).
func ThrottleReasons(mask uint64) []string {
	var out []string
	for _, r := range []struct {
		bit  uint64
		name string
	}{
		{nvml.ClocksEventReasonSwPowerCap, "power cap"},
		{nvml.ClocksEventReasonHwSlowdown, "hardware slowdown"},
		{nvml.ClocksEventReasonSyncBoost, "sync boost"},
		{nvml.ClocksEventReasonSwThermalSlowdown, "software thermal slowdown"},
		{nvml.ClocksEventReasonHwThermalSlowdown, "hardware thermal slowdown"},
		{nvml.ClocksEventReasonHwPowerBrakeSlowdown, "power brake"},
	} {
		if mask&r.bit != 0 {
			out = append(out, r.name)
		}
	}
	return out
}

// Stop ends the watch and summarizes its readings (see Summarize).
func (w *Watch) Stop() *results.Clocks {
	if w.stop == nil {
		return NotObservable(w.reason)
	}
	close(w.stop)
	<-w.done
	w.read()
	w.mu.Lock()
	defer w.mu.Unlock()
	return Summarize(w.readings)
}

// NotObservable is the Clocks of a device whose clocks cannot be read.
func NotObservable(reason string) *results.Clocks {
	return &results.Clocks{Observable: false, Note: "clocks not observable: " + reason}
}

// Summarize turns readings (in time order, the first taken before sampling and
// the last after) into Clocks: start, end, the lowest clocks, the highest
// temperature and power, and a warning when the SM clock fell more than
// DropTolerance below its starting value or the driver reported throttling.
// clmeter keeps every sample (nvbench drops samples taken while throttled):
// the warning says how many readings were low so the user can judge, lock the
// clocks (nvidia-smi -lgc) and measure again.
func Summarize(readings []results.ClockReading) *results.Clocks {
	if len(readings) == 0 {
		return NotObservable("no reading could be taken")
	}
	start, end := readings[0], readings[len(readings)-1]
	lo, hi := start, start
	lo.Throttle, hi.Throttle = nil, nil
	throttled := map[string]int{}
	below := 0
	limit := float64(start.SMClockMHz) * (1 - DropTolerance)
	for _, r := range readings {
		lo.SMClockMHz = min(lo.SMClockMHz, r.SMClockMHz)
		lo.MemoryClockMHz = min(lo.MemoryClockMHz, r.MemoryClockMHz)
		lo.TemperatureC = min(lo.TemperatureC, r.TemperatureC)
		lo.PowerWatts = min(lo.PowerWatts, r.PowerWatts)
		hi.SMClockMHz = max(hi.SMClockMHz, r.SMClockMHz)
		hi.MemoryClockMHz = max(hi.MemoryClockMHz, r.MemoryClockMHz)
		hi.TemperatureC = max(hi.TemperatureC, r.TemperatureC)
		hi.PowerWatts = max(hi.PowerWatts, r.PowerWatts)
		if float64(r.SMClockMHz) < limit {
			below++
		}
		for _, t := range r.Throttle {
			throttled[t]++
		}
	}
	c := &results.Clocks{Observable: true, Start: &start, End: &end, Min: &lo, Max: &hi, Readings: len(readings), BelowStart: below}
	if below > 0 {
		c.Warning = fmt.Sprintf("the SM clock fell below the %d MHz it started at in %d of %d readings (lowest %d MHz)",
			start.SMClockMHz, below, len(readings), lo.SMClockMHz)
	}
	if len(throttled) > 0 {
		var names []string
		for _, n := range []string{"power cap", "hardware slowdown", "sync boost", "software thermal slowdown", "hardware thermal slowdown", "power brake"} {
			if k := throttled[n]; k > 0 {
				names = append(names, fmt.Sprintf("%s in %d", n, k))
			}
		}
		if c.Warning != "" {
			c.Warning += "; "
		}
		c.Warning += "the driver reported throttling (" + strings.Join(names, ", ") + " of " + fmt.Sprint(len(readings)) + " readings)"
	}
	if c.Warning != "" {
		c.Warning += ": clmeter keeps every sample (nvbench drops throttled ones), so the figures may be slower than the device at full clock; lock the clocks (nvidia-smi -lgc) or let the device cool and measure again"
	}
	return c
}

// MemoryBandwidth is the device's theoretical memory bandwidth in GB/s from
// NVML: bus width (bits) / 8 x the memory clock's maximum x 2 (double data
// rate). ok is false where NVML cannot tell.
func (m *Monitor) MemoryBandwidth(id DeviceID) (gbps float64, note string, ok bool) {
	d, err := m.find(id)
	if err != nil {
		return 0, err.Error(), false
	}
	bus, ret := d.MemoryBusWidth()
	if ret != nvml.Success || bus == 0 {
		return 0, "NVML gave no memory bus width", false
	}
	mhz, ret := d.MaxClockInfo(nvml.ClockMem)
	if ret != nvml.Success || mhz == 0 {
		return 0, "NVML gave no memory clock", false
	}
	gbps = float64(bus) / 8 * float64(mhz) * 1e6 * 2 / 1e9
	return gbps, fmt.Sprintf("%d-bit bus x %d MHz x 2 (NVML)", bus, mhz), true
}
