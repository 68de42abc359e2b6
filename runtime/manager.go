// Package runtime is clmeter's device layer. A Manager enumerates platforms and
// devices lazily, once, and selects devices from a user's Selector; each Device
// gives a context and an in-order profiling queue, made once and reused, builds
// programs (through a ProgramCache, runtime/cache's) and runs a
// KernelBenchmark's launches. The binary cache (runtime/cache), the library
// finder (runtime/icd), the trace timeline (runtime/timeline) and the doctor
// (doctor) sit on top of it.
package runtime

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clmeter/clmeter/internal/drvthread"
	"github.com/clmeter/clmeter/runtime/cl"
)

// driverHeap is how much of the driver thread's C heap is made ready before
// its first build (cl.PrepareHeap). A warm PoCL build of bench/long.cl's
// binary (create + build) took 162 page faults with nothing made ready and 21
// with 4 MiB (2 MiB still left 134: the build's larger blocks did not fit); the
// pages cost 4 MiB of resident memory, backed in one system call.
const driverHeap = 4 << 20

func init() {
	drvthread.Prepare = func() { cl.PrepareHeap(driverHeap) }
}

// DeviceEnv names the environment variable that holds the default device
// selector; cmd/clmeter binds it to --device.
const DeviceEnv = "CLMETER_DEVICE"

// A Manager owns the OpenCL platforms and devices of one process. The zero value
// is not usable; call NewManager. Constructing one touches no driver.
type Manager struct {
	once         sync.Once
	enumerations atomic.Int32
	devices      []*Device
	platforms    []Platform
	enumTime     time.Duration
	err          error

	// Cache, when set, serves and stores program binaries for BuildProgram.
	// Set it before the first build; nil builds every program from source.
	Cache ProgramCache
}

// Platform is one enumerated platform with its info.
type Platform struct {
	Index int
	Info  cl.PlatformInfo
	// Library is the file of the vendor library that serves the platform,
	// as the process loaded it ("" when it cannot be told).
	Library string
	// Err is why the platform's devices could not be listed (nil when they could).
	Err error
}

// A Device is one enumerated device: its place, its info and, once asked for, its
// context and queue.
type Device struct {
	// Index is the flat index over every platform's devices; PlatformIndex and
	// DeviceIndex its place as platform:device.
	Index, PlatformIndex, DeviceIndex int
	Platform                          cl.PlatformInfo
	Info                              cl.DeviceInfo
	CL                                *cl.Device

	mgr         *Manager
	ctxOnce     sync.Once
	ctx         *cl.Context
	queue       *cl.Queue
	ctxErr      error
	contextTime time.Duration
	ctxMade     atomic.Bool // set once Context has made the context or failed to
	// busy is set when a wait for the device was abandoned: its queue may
	// never finish, so Close leaves its context and queue alone.
	busy atomic.Bool
	// pool keeps released buffers for the next benchmark (ReuseBuffers).
	pool bufPool
	// thread and session are the device's session (session.go): its driver
	// thread and what the packages above measured for it.
	thread  drvthread.Home
	session session
}

// NewManager returns a Manager that has touched nothing yet.
func NewManager() *Manager { return &Manager{} }

// enumerate lists every platform and device; it runs once per Manager.
func (m *Manager) enumerate() {
	// The first driver thread readies its heap while the platforms are
	// listed; the first device to measure takes it (drvthread.Home).
	drvthread.Start()
	m.enumerations.Add(1)
	start := time.Now()
	defer func() { m.enumTime = time.Since(start) }()
	ps, err := cl.Platforms()
	if err != nil {
		m.err = err
		return
	}
	m.devices = []*Device{}
	m.platforms = []Platform{}
	for pi, p := range ps {
		info, err := p.Info()
		plat := Platform{Index: pi, Info: info, Err: err, Library: p.Library()}
		if err == nil {
			var ds []*cl.Device
			ds, err = p.Devices()
			plat.Err = err
			for di, d := range ds {
				dinfo, derr := d.Info()
				if derr != nil {
					dinfo.Name = fmt.Sprintf("(unreadable: %v)", derr)
				}
				m.devices = append(m.devices, &Device{
					Index: len(m.devices), PlatformIndex: pi, DeviceIndex: di,
					Platform: info, Info: dinfo, CL: d, mgr: m,
				})
			}
		}
		m.platforms = append(m.platforms, plat)
	}
}

// Devices enumerates on first use (once, however many goroutines ask) and returns
// every device of every platform, in platform order.
func (m *Manager) Devices() ([]*Device, error) {
	m.once.Do(m.enumerate)
	return m.devices, m.err
}

// Platforms returns the enumerated platforms (enumerating on first use).
func (m *Manager) Platforms() ([]Platform, error) {
	m.once.Do(m.enumerate)
	return m.platforms, m.err
}

// EnumerationTime is how long the one enumeration took: loading the ICD loader and
// the vendors' drivers, and listing platforms and devices. Zero before it ran.
func (m *Manager) EnumerationTime() time.Duration {
	if m.enumerations.Load() == 0 {
		return 0
	}
	m.once.Do(m.enumerate)
	return m.enumTime
}

// Enumerations counts the enumerations this Manager ran: 0 before first use,
// then 1 for ever.
func (m *Manager) Enumerations() int { return int(m.enumerations.Load()) }

// Select returns the devices a selector names (see ParseSelector); "" is the
// default: the first GPU, else the first device. (The command passes
// CLMETER_DEVICE as the --device it binds.)
func (m *Manager) Select(spec string) ([]*Device, error) {
	devs, err := m.Devices()
	if err != nil {
		return nil, err
	}
	s, err := ParseSelector(spec)
	if err != nil {
		return nil, err
	}
	return s.Match(devs)
}

// Close stores the binary cache's deferred entries and releases every context
// and queue made (CloseContext without a way to abandon the stores), except
// those of a device whose wait was abandoned (Busy): releasing them could wait
// for the device for ever. The Manager must not be used after.
func (m *Manager) Close() { m.CloseContext(context.Background()) }

// release releases every context and queue made, but a busy device's, and
// gives up the devices' idle driver threads (the first becomes the next
// Manager's, prepared).
func (m *Manager) release() {
	for _, d := range m.devices {
		d.thread.Close()
		if d.busy.Load() {
			continue
		}
		d.pool.drain()
		if d.queue != nil {
			d.queue.Release()
		}
		if d.ctx != nil {
			d.ctx.Release()
		}
	}
}

// Context returns the device's context and in-order profiling queue, creating them
// on first use and reusing them after.
func (d *Device) Context() (*cl.Context, *cl.Queue, error) {
	d.ctxOnce.Do(func() {
		defer d.ctxMade.Store(true)
		if p, ok := d.mgr.cache().(devicePreparer); ok {
			p.PrepareDevice(d)
		}
		prepareBuildOnce.Do(func() { go prepareBuild() })
		start := time.Now()
		ctx, err := cl.CreateContext(d.CL)
		if err != nil {
			d.ctxErr = fmt.Errorf("device %s: %w", d.Label(), err)
			return
		}
		q, err := ctx.CreateQueue(d.CL, true)
		if err != nil {
			ctx.Release()
			d.ctxErr = fmt.Errorf("device %s: %w", d.Label(), err)
			return
		}
		d.ctx, d.queue = ctx, q
		d.contextTime = time.Since(start)
	})
	return d.ctx, d.queue, d.ctxErr
}

// devicePreparer is a ProgramCache with work to start for a device before
// its first build (runtime/cache: finding the driver's identity, which a hit
// checks), started while the device's context is made.
type devicePreparer interface {
	PrepareDevice(d *Device)
}

// cache is the Manager's ProgramCache, nil for no Manager.
func (m *Manager) cache() ProgramCache {
	if m == nil {
		return nil
	}
	return m.Cache
}

// Busy reports whether a wait for the device was abandoned (see
// KernelBenchmark.Abandon): work may still be running on it, and it must not be
// used again in this process.
func (d *Device) Busy() bool { return d.busy.Load() }

// MarkBusy records that a wait for the device was abandoned (see Busy).
func (d *Device) MarkBusy() { d.busy.Store(true) }

// ContextTime is how long making the context and queue took (zero before).
func (d *Device) ContextTime() time.Duration { return d.contextTime }

// Label names the device for people: "0 (1:0) NVIDIA H200".
func (d *Device) Label() string {
	return fmt.Sprintf("%d (%d:%d) %s", d.Index, d.PlatformIndex, d.DeviceIndex, d.Info.Name)
}

// Ref is the device's platform:device index, as the spec syntax writes it.
func (d *Device) Ref() string { return fmt.Sprintf("%d:%d", d.PlatformIndex, d.DeviceIndex) }
