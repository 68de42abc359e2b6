// Package harnesstest is the harness's seam for tests: a fake device and a
// fake kernel benchmark on a fake clock, so that the logic of the harness and
// of its callers (planning, launch modes, cancellation, records) is tested
// without OpenCL, in milliseconds. The real-device tests stay beside them.
package harnesstest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A Device is a fake harness.Device.
type Device struct {
	Name string
	busy atomic.Bool
}

// Describe names the device "FAKE".
func (d *Device) Describe() results.DeviceInfo {
	return results.DeviceInfo{Name: d.Name, Platform: "fake", Type: "FAKE"}
}

// MarkBusy records that abandoned work may still run on it.
func (d *Device) MarkBusy() { d.busy.Store(true) }

// Busy reports whether MarkBusy was called.
func (d *Device) Busy() bool { return d.busy.Load() }

// A Clock is a measure.Clock that moves only when a fake launch runs.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock at a fixed time.
func NewClock() *Clock { return &Clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Settings are measure settings on clock c: 5 samples at least, the rest
// measure's defaults.
func Settings(c *Clock) measure.Settings {
	s := measure.DefaultSettings()
	s.Clock = c
	s.MinSamples = 5
	return s
}

// A Bench is a fake kernel benchmark (a harness.Bench). A launch takes
// PerLaunch on the device; a batch costs the host Overhead more, and every
// launch RoundTrip more when launched sync-each (and then no enqueue time is
// reported). With the host timer it reports no device times. It records the
// modes and timer Measurable was given.
type Bench struct {
	Clock                          *Clock
	PerLaunch, Overhead, RoundTrip time.Duration
	// Invalid, when set, is its validation error.
	Invalid string
	// Block, when set, makes every launch after the cold one wait for it to
	// close (a stuck device).
	Block chan struct{}
	// OnLaunch, when set, is called with the index of every Launch call.
	OnLaunch func(i int)
	// SetupDelay, when set, makes Setup sleep that long (real time) before
	// it builds its program: a build still running in the driver when the
	// measurement is abandoned.
	SetupDelay time.Duration

	// Set by Measurable and the launches.
	Modes     harness.Modes
	Timer     measure.Timer
	Launches  int
	Abandoned bool
	calls     int
	built     bool // written by Setup, read by Program, unsynchronised like a real benchmark's build record
}

// Measurable records m and t and returns the fake as measure.Run takes it:
// with validation, and phases unless m.NoPhases.
func (b *Bench) Measurable(m harness.Modes, t measure.Timer) measure.Benchmark {
	b.Modes, b.Timer = m, t
	if m.NoPhases {
		return run{b}
	}
	return phased{run{b}}
}

// Program is a fake program record, once Setup has built it (nil before).
func (b *Bench) Program() *results.ProgramInfo {
	if !b.built {
		return nil
	}
	return &results.ProgramInfo{Source: "fake.cl"}
}

// Sizes are a global size of 1024 in groups of 64.
func (b *Bench) Sizes() (global, local []int) { return []int{1024}, []int{64} }

type run struct{ b *Bench }

func (r run) Setup(ctx context.Context) (measure.SetupInfo, error) {
	time.Sleep(r.b.SetupDelay)
	r.b.built = true
	info := measure.SetupInfo{BytesPerLaunch: 4096}
	if !r.b.Modes.NoDataWarmup {
		info.Upload = time.Microsecond
	}
	return info, nil
}

func (r run) Launch(ctx context.Context, k int) (measure.Batch, error) {
	b := r.b
	i := b.calls
	b.calls++
	if b.OnLaunch != nil {
		b.OnLaunch(i)
	}
	if b.Block != nil && i > 0 {
		<-b.Block
		return measure.Batch{}, errors.New("the fake device came back")
	}
	b.Launches += k
	dev := time.Duration(k) * b.PerLaunch
	host := dev + b.Overhead
	batch := measure.Batch{Enqueue: b.Overhead / 2}
	if b.Modes.SyncEach {
		host += time.Duration(k) * b.RoundTrip
		batch.Enqueue = 0
	}
	b.Clock.Advance(host)
	batch.Host = host
	if b.Timer != measure.TimerHost {
		batch.Device, batch.DeviceBusy = dev, dev
	}
	return batch, nil
}

func (r run) Teardown() error { return nil }

func (r run) Abandon() { r.b.Abandoned = true }

func (r run) Validate(ctx context.Context) error {
	if r.b.Invalid != "" {
		return errors.New(r.b.Invalid)
	}
	return nil
}

type phased struct{ run }

func (p phased) RunPhases(ctx context.Context) (measure.Phases, error) {
	ph := measure.Phases{CopyIn: time.Microsecond, Compute: p.b.PerLaunch, CopyOut: time.Microsecond}
	ph.Total = ph.CopyIn + ph.Compute + ph.CopyOut
	p.b.Clock.Advance(ph.Total)
	return ph, nil
}
