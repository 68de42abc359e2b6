// Package nvml reads an NVIDIA GPU's clocks, temperature, power and clocks
// event (throttle) reasons through NVML, the driver's management library
// (libnvidia-ml.so.1). The library is opened at run time with dlopen through
// github.com/ebitengine/purego, without cgo, so clmeter builds and runs the
// same on machines without the driver; Open says when it is absent. Only the
// calls package clocks makes are bound, under the versioned names nvml.h maps
// them to (nvmlInit_v2, nvmlDeviceGetCount_v2, nvmlDeviceGetHandleByIndex_v2,
// nvmlDeviceGetPciInfo_v3). The types and constants are nvml.h's (NVML API
// 13); testdata of package nvmltest keeps the excerpt the tests check them
// against.
package nvml

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// DefaultPath is the file Open loads when the driver is installed: the
// dynamic loader finds it on its usual search path.
const DefaultPath = "libnvidia-ml.so.1"

// ErrLibraryNotFound is wrapped by Open's error when the library cannot be
// loaded (no NVIDIA driver on the machine).
var ErrLibraryNotFound = errors.New("NVML library not found")

// A Return is an NVML status code (nvmlReturn_t).
type Return int32

// The NVML status codes clmeter tells apart (nvmlReturn_t); Library.ErrorString
// names the others.
const (
	Success            Return = 0 // NVML_SUCCESS
	ErrorUninitialized Return = 1 // NVML_ERROR_UNINITIALIZED: NVML not started, or the Library closed
	ErrorNotSupported  Return = 3 // NVML_ERROR_NOT_SUPPORTED: the device cannot tell
)

// A ClockType is a clock domain (nvmlClockType_t).
type ClockType uint32

// The clock domains clmeter reads (nvmlClockType_t).
const (
	ClockSM  ClockType = 1 // NVML_CLOCK_SM
	ClockMem ClockType = 2 // NVML_CLOCK_MEM
)

// A TemperatureSensor is a temperature sensor (nvmlTemperatureSensors_t).
type TemperatureSensor uint32

// TemperatureGPU is the GPU die's sensor (NVML_TEMPERATURE_GPU).
const TemperatureGPU TemperatureSensor = 0

// The bits of a clocks event reasons mask (nvml.h's nvmlClocksEventReason*
// and, for the hardware ones, nvmlClocksThrottleReason* macros).
const (
	ClocksEventReasonGpuIdle              uint64 = 0x01 // nothing runs: the clocks drop to idle
	ClocksEventReasonSwPowerCap           uint64 = 0x04 // clocks lowered to stay within the power limit
	ClocksEventReasonHwSlowdown           uint64 = 0x08 // hardware slowdown (clock halved or more)
	ClocksEventReasonSyncBoost            uint64 = 0x10 // held to the slowest GPU of a sync boost group
	ClocksEventReasonSwThermalSlowdown    uint64 = 0x20 // clocks lowered to stay within the temperature limits
	ClocksEventReasonHwThermalSlowdown    uint64 = 0x40 // hardware thermal slowdown: too hot
	ClocksEventReasonHwPowerBrakeSlowdown uint64 = 0x80 // external power brake (the system's power supply)
)

// PciInfo is a device's PCI address (nvmlPciInfo_t, filled by
// nvmlDeviceGetPciInfo_v3): the same layout as the C struct.
type PciInfo struct {
	BusIDLegacy    [16]byte // "domain:bus:device.function", 4-digit domain, NUL-terminated
	Domain         uint32   // the PCI domain of the device's bus
	Bus            uint32   // the bus the device is on, 0 to 0xff
	Device         uint32   // the device's id on the bus, 0 to 31
	PciDeviceID    uint32   // the 16-bit device id and 16-bit vendor id
	PciSubSystemID uint32   // the 32-bit subsystem device id
	BusID          [32]byte // "domain:bus:device.function", 8-digit domain, NUL-terminated
}

// nameSize is NVML_DEVICE_NAME_V2_BUFFER_SIZE: room for any device name.
const nameSize = 96

// A Library is libnvidia-ml loaded and NVML started: Open it, Close it when
// done. Its methods, and its Devices', are safe from many goroutines; after
// Close they return ErrorUninitialized and never call into the unloaded
// library.
type Library struct {
	path string
	fn   symbols      // the addresses of the bound functions; set by Open
	mu   sync.RWMutex // held for reading by every call, for writing by Close
	h    uintptr      // the dlopen handle; 0 once closed
}

// symbols are the addresses of the NVML functions clmeter calls.
type symbols struct {
	init, shutdown, errorString, count, handleByIndex, name, pciInfo    uintptr
	clockInfo, maxClockInfo, temperature, powerUsage, reasons, busWidth uintptr
}

// names pairs each field of s with the names its function may have, the
// current one first: nvmlDeviceGetCurrentClocksThrottleReasons is the name
// drivers before the clocks event reasons (r535) export.
func (s *symbols) names() []struct {
	addr  *uintptr
	names []string
} {
	return []struct {
		addr  *uintptr
		names []string
	}{
		{&s.init, []string{"nvmlInit_v2"}},
		{&s.shutdown, []string{"nvmlShutdown"}},
		{&s.errorString, []string{"nvmlErrorString"}},
		{&s.count, []string{"nvmlDeviceGetCount_v2"}},
		{&s.handleByIndex, []string{"nvmlDeviceGetHandleByIndex_v2"}},
		{&s.name, []string{"nvmlDeviceGetName"}},
		{&s.pciInfo, []string{"nvmlDeviceGetPciInfo_v3"}},
		{&s.clockInfo, []string{"nvmlDeviceGetClockInfo"}},
		{&s.maxClockInfo, []string{"nvmlDeviceGetMaxClockInfo"}},
		{&s.temperature, []string{"nvmlDeviceGetTemperature"}},
		{&s.powerUsage, []string{"nvmlDeviceGetPowerUsage"}},
		{&s.reasons, []string{"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"}},
		{&s.busWidth, []string{"nvmlDeviceGetMemoryBusWidth"}},
	}
}

// Open loads the NVML library at path (DefaultPath, or a file) and starts
// NVML (nvmlInit_v2). Its error wraps ErrLibraryNotFound when the library
// cannot be loaded; it names the functions a library lacks (a driver older
// than clmeter's calls) and NVML's reason when it does not start.
func Open(path string) (*Library, error) {
	h, err := purego.Dlopen(path, purego.RTLD_LAZY|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrLibraryNotFound, path, err)
	}
	l := &Library{path: path, h: h}
	var missing []string
	for _, s := range l.fn.names() {
		for _, name := range s.names {
			if a, err := purego.Dlsym(h, name); err == nil && a != 0 {
				*s.addr = a
				break
			}
		}
		if *s.addr == 0 {
			missing = append(missing, strings.Join(s.names, " or "))
		}
	}
	if len(missing) > 0 {
		purego.Dlclose(h)
		return nil, fmt.Errorf("%s lacks %s: its NVIDIA driver is older than clmeter's NVML calls; update the driver", path, strings.Join(missing, ", "))
	}
	if ret := l.call(l.fn.init); ret != Success {
		reason := l.ErrorString(ret)
		purego.Dlclose(h)
		return nil, fmt.Errorf("NVML did not start: %s", reason)
	}
	return l, nil
}

// Close shuts NVML down (nvmlShutdown) and unloads the library. It waits for
// calls in flight; later calls return ErrorUninitialized.
func (l *Library) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h == 0 {
		return nil
	}
	r, _, _ := purego.SyscallN(l.fn.shutdown)
	h := l.h
	var err error
	if ret := Return(int32(r)); ret != Success {
		err = fmt.Errorf("NVML did not shut down: %s", l.errorString(ret))
	}
	l.h = 0
	if e := purego.Dlclose(h); err == nil && e != nil {
		err = fmt.Errorf("unloading %s: %v", l.path, e)
	}
	return err
}

// call calls the NVML function at fn with args (pointers converted to uintptr
// in the call itself, which keeps what they point at alive and in place) and
// returns its status; ErrorUninitialized once the library is closed.
//
//go:uintptrescapes
func (l *Library) call(fn uintptr, args ...uintptr) Return {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.h == 0 {
		return ErrorUninitialized
	}
	r, _, _ := purego.SyscallN(fn, args...)
	return Return(int32(r)) // nvmlReturn_t is a C enum: the low 32 bits
}

// ErrorString is NVML's description of ret (nvmlErrorString).
func (l *Library) ErrorString(ret Return) string {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.errorString(ret)
}

// errorString is ErrorString with l.mu held.
func (l *Library) errorString(ret Return) string {
	if l.h == 0 {
		return fmt.Sprintf("NVML error %d", ret)
	}
	r, _, _ := purego.SyscallN(l.fn.errorString, uintptr(ret))
	if s := cString(*(**byte)(unsafe.Pointer(&r)), 256); s != "" {
		return s
	}
	return fmt.Sprintf("NVML error %d", ret)
}

// cString copies the NUL-terminated string at p, at most max bytes of it.
func cString(p *byte, max int) string {
	if p == nil {
		return ""
	}
	n := 0
	for n < max && *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// DeviceCount is the number of devices NVML sees (nvmlDeviceGetCount_v2).
func (l *Library) DeviceCount() (int, Return) {
	var n uint32
	ret := l.call(l.fn.count, uintptr(unsafe.Pointer(&n)))
	return int(n), ret
}

// DeviceByIndex is the device of index i, 0 to DeviceCount()-1
// (nvmlDeviceGetHandleByIndex_v2).
func (l *Library) DeviceByIndex(i int) (Device, Return) {
	var h uintptr // nvmlDevice_t: a struct of one pointer
	ret := l.call(l.fn.handleByIndex, uintptr(uint32(i)), uintptr(unsafe.Pointer(&h)))
	return Device{lib: l, h: h}, ret
}

// A Device is one GPU of a Library (an nvmlDevice_t handle), valid until the
// Library is closed.
type Device struct {
	lib *Library
	h   uintptr
}

// Name is the device's product name (nvmlDeviceGetName).
func (d Device) Name() (string, Return) {
	var buf [nameSize]byte
	ret := d.lib.call(d.lib.fn.name, d.h, uintptr(unsafe.Pointer(&buf[0])), nameSize)
	if ret != Success {
		return "", ret
	}
	return cString(&buf[0], nameSize), ret
}

// PciInfo is the device's PCI address (nvmlDeviceGetPciInfo_v3).
func (d Device) PciInfo() (PciInfo, Return) {
	var p PciInfo
	ret := d.lib.call(d.lib.fn.pciInfo, d.h, uintptr(unsafe.Pointer(&p)))
	return p, ret
}

// ClockInfo is the current clock of domain t in MHz (nvmlDeviceGetClockInfo).
func (d Device) ClockInfo(t ClockType) (uint32, Return) {
	return d.uint32(d.lib.fn.clockInfo, uintptr(t))
}

// MaxClockInfo is the highest clock of domain t in MHz
// (nvmlDeviceGetMaxClockInfo).
func (d Device) MaxClockInfo(t ClockType) (uint32, Return) {
	return d.uint32(d.lib.fn.maxClockInfo, uintptr(t))
}

// Temperature is sensor s's reading in degrees Celsius
// (nvmlDeviceGetTemperature).
func (d Device) Temperature(s TemperatureSensor) (uint32, Return) {
	return d.uint32(d.lib.fn.temperature, uintptr(s))
}

// PowerUsage is the board's power draw in milliwatts (nvmlDeviceGetPowerUsage).
func (d Device) PowerUsage() (uint32, Return) {
	var mw uint32
	ret := d.lib.call(d.lib.fn.powerUsage, d.h, uintptr(unsafe.Pointer(&mw)))
	return mw, ret
}

// MemoryBusWidth is the memory bus's width in bits
// (nvmlDeviceGetMemoryBusWidth).
func (d Device) MemoryBusWidth() (uint32, Return) {
	var bits uint32
	ret := d.lib.call(d.lib.fn.busWidth, d.h, uintptr(unsafe.Pointer(&bits)))
	return bits, ret
}

// ClocksEventReasons is the mask of why the clocks are below their highest
// now, ClocksEventReason* bits (nvmlDeviceGetCurrentClocksEventReasons, or
// nvmlDeviceGetCurrentClocksThrottleReasons in older drivers).
func (d Device) ClocksEventReasons() (uint64, Return) {
	var mask uint64
	ret := d.lib.call(d.lib.fn.reasons, d.h, uintptr(unsafe.Pointer(&mask)))
	return mask, ret
}

// uint32 calls fn(device, arg, &out) and returns out.
func (d Device) uint32(fn, arg uintptr) (uint32, Return) {
	var v uint32
	ret := d.lib.call(fn, d.h, arg, uintptr(unsafe.Pointer(&v)))
	return v, ret
}
