package nvml

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clmeter/clmeter/clocks/nvml/nvmltest"
)

// TestOpenWithoutLibrary: a machine without the driver gets
// ErrLibraryNotFound, never a panic.
func TestOpenWithoutLibrary(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "libnvidia-ml.so.1"))
	if !errors.Is(err, ErrLibraryNotFound) {
		t.Errorf("a missing file: %v, want ErrLibraryNotFound", err)
	}
	notLib := filepath.Join(t.TempDir(), "libnvidia-ml.so.1")
	os.WriteFile(notLib, []byte("not a shared object"), 0o644)
	if _, err := Open(notLib); !errors.Is(err, ErrLibraryNotFound) {
		t.Errorf("a file that is no library: %v, want ErrLibraryNotFound", err)
	}
	if l, err := Open(DefaultPath); err == nil {
		l.Close()
		t.Logf("this machine has NVML (%s)", DefaultPath)
	} else if !errors.Is(err, ErrLibraryNotFound) {
		t.Logf("NVML is installed but did not start: %v", err)
	}
}

// TestFakeDevices reads every value of the fake library's devices through
// the binding: real dlopen, real calls, NVML's structs and strings.
func TestFakeDevices(t *testing.T) {
	path := nvmltest.Build(t)
	inits := nvmltest.Inits(t, path)
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if inits() != 1 {
		t.Errorf("after Open, %d NVML starts, want 1", inits())
	}
	n, ret := l.DeviceCount()
	if ret != Success || n != len(nvmltest.Devices) {
		t.Fatalf("DeviceCount = %d, %s", n, l.ErrorString(ret))
	}
	for i, want := range nvmltest.Devices {
		checkDevice(t, l, i, want)
	}
	if _, ret := l.DeviceByIndex(n); ret == Success {
		t.Errorf("device %d of %d", n, n)
	}
	if s := l.ErrorString(ErrorNotSupported); s != "Not Supported" {
		t.Errorf("ErrorString(ErrorNotSupported) = %q", s)
	}
	d, _ := l.DeviceByIndex(0)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if inits() != 0 {
		t.Errorf("after Close, %d NVML starts not shut down", inits())
	}
	if _, ret := d.ClockInfo(ClockSM); ret != ErrorUninitialized {
		t.Errorf("a call after Close returned %d, want ErrorUninitialized", ret)
	}
	if err := l.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// checkDevice compares what the binding reads of device i with want, the
// fake's values (each reading is the device's first or a later one).
func checkDevice(t *testing.T, l *Library, i int, want nvmltest.Device) {
	t.Helper()
	d, ret := l.DeviceByIndex(i)
	if ret != Success {
		t.Fatalf("device %d: %s", i, l.ErrorString(ret))
	}
	if name, ret := d.Name(); ret != Success || name != want.Name {
		t.Errorf("device %d: Name = %q, %d; want %q", i, name, ret, want.Name)
	}
	p, ret := d.PciInfo()
	wantID := fmt.Sprintf("%08X:%02X:00.0", 0, want.Bus)
	if ret != Success || p.Bus != want.Bus || p.Domain != 0 || cString(&p.BusID[0], len(p.BusID)) != wantID ||
		cString(&p.BusIDLegacy[0], len(p.BusIDLegacy)) != wantID[4:] || p.PciSubSystemID != 0x18FF10DE {
		t.Errorf("device %d: PciInfo = %+v, %d; want bus %#x, %s", i, p, ret, want.Bus, wantID)
	}
	for _, c := range []struct {
		what string
		get  func() (uint32, Return)
		want []uint32
	}{
		{"SM clock", func() (uint32, Return) { return d.ClockInfo(ClockSM) }, []uint32{want.SMClock, want.SMLater, want.SMLater}},
		{"memory clock", func() (uint32, Return) { return d.ClockInfo(ClockMem) }, []uint32{want.MemClock}},
		{"highest memory clock", func() (uint32, Return) { return d.MaxClockInfo(ClockMem) }, []uint32{want.MemClock}},
		{"temperature", func() (uint32, Return) { return d.Temperature(TemperatureGPU) }, []uint32{want.TempC, want.TempLater}},
		{"memory bus width", d.MemoryBusWidth, []uint32{want.BusWidth}},
	} {
		for k, w := range c.want {
			if v, ret := c.get(); ret != Success || v != w {
				t.Errorf("device %d: %s reading %d = %d, %s; want %d", i, c.what, k, v, l.ErrorString(ret), w)
			}
		}
	}
	if mw, ret := d.PowerUsage(); want.PowerMW == 0 && ret != ErrorNotSupported || want.PowerMW != 0 && (ret != Success || mw != want.PowerMW) {
		t.Errorf("device %d: PowerUsage = %d, %s; want %d mW", i, mw, l.ErrorString(ret), want.PowerMW)
	}
	for k, w := range []uint64{want.Reasons, want.Later} {
		if m, ret := d.ClocksEventReasons(); ret != Success || m != w {
			t.Errorf("device %d: reasons reading %d = %#x, %s; want %#x", i, k, m, l.ErrorString(ret), w)
		}
	}
}

// TestOldDriverReasons: a driver before the clocks event reasons has only
// the call's old name, and the binding uses it.
func TestOldDriverReasons(t *testing.T) {
	l, err := Open(nvmltest.Build(t, nvmltest.OldReasons))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	d, _ := l.DeviceByIndex(0)
	if m, ret := d.ClocksEventReasons(); ret != Success || m != nvmltest.Devices[0].Reasons {
		t.Errorf("reasons = %#x, %d", m, ret)
	}
}

// TestMissingFunctions: a library without functions the binding calls is
// one error naming each, and the library is not kept open.
func TestMissingFunctions(t *testing.T) {
	path := nvmltest.Build(t, nvmltest.Missing)
	inits := nvmltest.Inits(t, path)
	_, err := Open(path)
	if err == nil {
		t.Fatal("Open succeeded without nvmlDeviceGetPciInfo_v3")
	}
	for _, want := range []string{"nvmlDeviceGetCount_v2", "nvmlDeviceGetPciInfo_v3", "older", "update the driver"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if errors.Is(err, ErrLibraryNotFound) || inits() != 0 {
		t.Errorf("error %v, %d NVML starts", err, inits())
	}
}

// TestInitFails: NVML present but not starting says NVML's reason.
func TestInitFails(t *testing.T) {
	_, err := Open(nvmltest.Build(t, nvmltest.InitFails))
	if err == nil || err.Error() != "NVML did not start: Driver Not Loaded" {
		t.Errorf("err = %v", err)
	}
}

// TestCloseWhileReading: Close waits for calls in flight, and calls after it
// never reach the unloaded library (run with -race).
func TestCloseWhileReading(t *testing.T) {
	l, err := Open(nvmltest.Build(t))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := l.DeviceByIndex(2)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 2000; k++ {
				v, ret := d.ClockInfo(ClockSM)
				if ret == ErrorUninitialized {
					return
				}
				if ret != Success || v != nvmltest.Devices[2].SMClock {
					t.Errorf("SM clock %d, %d", v, ret)
					return
				}
			}
		}()
	}
	if err := l.Close(); err != nil {
		t.Error(err)
	}
	wg.Wait()
}

// TestRealNVML reads every device of the machine's own NVML, where the
// driver is installed (skipped elsewhere), and checks what can be checked
// without knowing the device: a name, the PCI bus both as a number and in the
// bus id string (the struct's layout), a running SM clock no higher than its
// maximum.
func TestRealNVML(t *testing.T) {
	l, err := Open(DefaultPath)
	if errors.Is(err, ErrLibraryNotFound) {
		t.Skip("no NVML on this machine")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	n, ret := l.DeviceCount()
	if ret != Success {
		t.Fatalf("DeviceCount: %s", l.ErrorString(ret))
	}
	for i := 0; i < n; i++ {
		d, ret := l.DeviceByIndex(i)
		if ret != Success {
			t.Errorf("device %d: %s", i, l.ErrorString(ret))
			continue
		}
		name, _ := d.Name()
		p, ret := d.PciInfo()
		busID := cString(&p.BusID[0], len(p.BusID))
		if name == "" || ret != Success || !strings.HasSuffix(strings.ToUpper(busID), fmt.Sprintf(":%02X:%02X.0", p.Bus, p.Device)) {
			t.Errorf("device %d: name %q, PCI %+v (%s), %s", i, name, p, busID, l.ErrorString(ret))
		}
		sm, ret := d.ClockInfo(ClockSM)
		max, ret2 := d.MaxClockInfo(ClockSM)
		if ret != Success || ret2 != Success || sm == 0 || sm > max {
			t.Errorf("device %d: SM clock %d (%s), max %d (%s)", i, sm, l.ErrorString(ret), max, l.ErrorString(ret2))
		}
		mem, _ := d.ClockInfo(ClockMem)
		temp, _ := d.Temperature(TemperatureGPU)
		mw, _ := d.PowerUsage()
		bus, _ := d.MemoryBusWidth()
		reasons, ret := d.ClocksEventReasons()
		t.Logf("device %d: %s at %s: SM %d of %d MHz, memory %d MHz, %d-bit bus, %d C, %d mW, reasons %#x (%s)",
			i, name, busID, sm, max, mem, bus, temp, mw, reasons, l.ErrorString(ret))
	}
}
