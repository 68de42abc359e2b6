package measure

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// fakeClock is a Clock that moves only when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fakeBench is a Benchmark whose launches advance a fake clock by a scripted
// per-launch time. It records what the engine asked of it.
type fakeBench struct {
	clock *fakeClock
	// perLaunch returns the per-launch time of the batch-th Launch call
	// (0-based, the cold run included).
	perLaunch func(batch int) time.Duration
	// coldExtra is added to the first launch (JIT compilation).
	coldExtra time.Duration
	// overhead is the host-only time of every batch (enqueue and finish).
	overhead time.Duration
	// flushTime is what a Flush costs on the clock.
	flushTime time.Duration
	noDevice  bool
	info      SetupInfo
	// onLaunch, when set, is called at the start of every Launch with its index.
	onLaunch func(batch int)
	// failAt makes the Launch with that index fail (when > 0).
	failAt int
	// lie, when set, turns the true device time of the batch-th Launch into
	// what the device timer reports (a lying device clock).
	lie func(batch int, dev time.Duration) time.Duration
	// hostExtra, when set, adds host-only time to the batch-th Launch (a
	// hiccup on the host).
	hostExtra func(batch int) time.Duration
	// block, when set, makes Launch wait until it is closed (a stuck device);
	// abandoned counts Abandon calls.
	block     chan struct{}
	abandoned int
	// blockFrom is the first Launch index that block holds (0: from the
	// first after the cold run).
	blockFrom int
	// resume makes a blocked Launch go on normally once block is closed
	// (else it fails).
	resume bool

	calls      []int    // k of every Launch call
	events     []string // "setup", "flush", "launch", "teardown"
	torndown   bool
	flushCount int
}

func constant(d time.Duration) func(int) time.Duration {
	return func(int) time.Duration { return d }
}

// jitter returns per-launch times uniformly within base*(1±rel), seeded.
func jitter(base time.Duration, rel float64, seed uint64) func(int) time.Duration {
	r := rand.New(rand.NewPCG(seed, seed+1))
	return func(int) time.Duration {
		return time.Duration(float64(base) * (1 + rel*(2*r.Float64()-1)))
	}
}

func (f *fakeBench) Setup(ctx context.Context) (SetupInfo, error) {
	f.events = append(f.events, "setup")
	return f.info, nil
}

func (f *fakeBench) Launch(ctx context.Context, k int) (Batch, error) {
	i := len(f.calls)
	f.calls = append(f.calls, k)
	f.events = append(f.events, "launch")
	if f.onLaunch != nil {
		f.onLaunch(i)
	}
	if f.failAt > 0 && i == f.failAt {
		return Batch{}, fmt.Errorf("CL_OUT_OF_RESOURCES")
	}
	if f.block != nil && i > 0 && i >= f.blockFrom {
		<-f.block
		if !f.resume {
			return Batch{}, fmt.Errorf("CL_OUT_OF_RESOURCES after the device came back")
		}
	}
	dev := time.Duration(k) * f.perLaunch(i)
	if i == 0 {
		dev += f.coldExtra
	}
	host := dev + f.overhead
	if f.hostExtra != nil {
		host += f.hostExtra(i)
	}
	f.clock.Advance(host)
	b := Batch{Host: host, Device: dev, DeviceBusy: dev}
	if f.lie != nil {
		b.Device = f.lie(i, dev)
		b.DeviceBusy = b.Device
	}
	if f.noDevice {
		b.Device, b.DeviceBusy = 0, 0
	}
	return b, nil
}

func (f *fakeBench) Abandon() { f.abandoned++ }

func (f *fakeBench) Teardown() error {
	f.events = append(f.events, "teardown")
	f.torndown = true
	return nil
}

func (f *fakeBench) Flush(ctx context.Context) error {
	f.events = append(f.events, "flush")
	f.flushCount++
	f.clock.Advance(f.flushTime)
	return nil
}

// phasedBench adds RunPhases; validBench adds Validate; noFlush hides Flush.
type phasedBench struct{ *fakeBench }

func (p phasedBench) RunPhases(ctx context.Context) (Phases, error) {
	ph := Phases{CopyIn: 3 * time.Millisecond, Compute: 2 * time.Millisecond, CopyOut: time.Millisecond}
	ph.Total = ph.CopyIn + ph.Compute + ph.CopyOut
	p.clock.Advance(ph.Total)
	p.events = append(p.events, "phases")
	return ph, nil
}

type validBench struct {
	*fakeBench
	err error
}

func (v validBench) Validate(ctx context.Context) error {
	v.events = append(v.events, "validate")
	return v.err
}

type noFlush struct{ b *fakeBench }

func (n noFlush) Setup(ctx context.Context) (SetupInfo, error)     { return n.b.Setup(ctx) }
func (n noFlush) Launch(ctx context.Context, k int) (Batch, error) { return n.b.Launch(ctx, k) }
func (n noFlush) Teardown() error                                  { return n.b.Teardown() }

func newFake(per func(int) time.Duration) (*fakeBench, Settings) {
	c := newFakeClock()
	s := DefaultSettings()
	s.Clock = c
	return &fakeBench{clock: c, perLaunch: per}, s
}
