// Package measure is clmeter's measurement engine: warm-up, adaptive batching to a
// minimum sample time, stopping rules and statistics. It knows nothing of OpenCL: a
// Benchmark is anything that can launch a batch of back-to-back launches and say how
// long the batch took, so the engine is tested with a fake clock.
package measure

import (
	"context"
	"time"
)

// A Benchmark is one measurable thing: a kernel with its arguments and sizes.
// The engine calls Setup once, then Launch many times, then Teardown once.
type Benchmark interface {
	// Setup allocates and fills (warms) what the launches need. It is never timed
	// as part of a sample.
	Setup(ctx context.Context) (SetupInfo, error)
	// Launch enqueues k back-to-back launches (k >= 1), waits for all of them to
	// finish and reports how long they took.
	Launch(ctx context.Context, k int) (Batch, error)
	// Teardown releases what Setup made. It is called even when Setup or a Launch
	// failed.
	Teardown() error
}

// SetupInfo is what a Benchmark reports about its setup.
type SetupInfo struct {
	// HostPrep is the time to allocate and generate the host's input data.
	HostPrep time.Duration
	// Upload is the time of the first write of every input buffer to the
	// device, first touch included.
	Upload time.Duration
	// FirstTouch is what the first write cost over a later write of the same
	// data: page-in and zeroing of fresh memory (zero when the benchmark moves no
	// data or did not measure it). When it is zero and Upload is not, Run takes
	// it as Upload minus the median copy-in of a Phased benchmark.
	FirstTouch time.Duration
	// BytesPerLaunch and OpsPerLaunch are the bytes moved and operations done by
	// one launch, zero when unknown. They turn per-launch times into throughput.
	BytesPerLaunch int64
	OpsPerLaunch   int64
	// OpsUnit names what OpsPerLaunch counts: "FLOP", "IOP" or "item".
	OpsUnit string
	// TimerResolution is the device timer's resolution (zero when unknown).
	TimerResolution time.Duration
}

// A Batch is the timing of k back-to-back launches. Durations encode in JSON as
// integer nanoseconds.
type Batch struct {
	// Host is the monotonic host time from before the first enqueue to after the
	// finish that waited for the last launch.
	Host time.Duration `json:"host_ns"`
	// Device spans the first launch's START to the last launch's END (event
	// profiling). Zero when the device timer was not used.
	Device time.Duration `json:"device_ns"`
	// DeviceBusy is the sum of END-START over the launches (zero when unknown).
	// Device or DeviceBusy is negative when the device timer ran backwards (a
	// launch's END before its START, or the last END before the first START).
	DeviceBusy time.Duration `json:"device_busy_ns"`
	// Enqueue is the host time spent enqueuing the launches, from before the
	// first enqueue to after the last returned (zero when unknown). CheckTimer
	// counts it as launch overhead.
	Enqueue time.Duration `json:"enqueue_ns,omitempty"`
}

// Phased is implemented by a Benchmark that moves data. RunPhases runs one
// copy-in, compute, copy-out sequence with a finish between each phase.
type Phased interface {
	RunPhases(ctx context.Context) (Phases, error)
}

// Phases holds the durations of one copy-in / compute / copy-out sequence.
type Phases struct {
	CopyIn  time.Duration `json:"copy_in_ns"`
	Compute time.Duration `json:"compute_ns"`
	CopyOut time.Duration `json:"copy_out_ns"`
	Total   time.Duration `json:"total_ns"`
}

// Flusher is implemented by a Benchmark that can evict the device's caches
// (cold-cache mode): Flush overwrites a buffer larger than the global memory cache
// and waits for it; it is never inside a timed span.
type Flusher interface {
	Flush(ctx context.Context) error
}

// Validator is implemented by a Benchmark whose output can be checked against a
// reference. Validate reads the device output after the last launch.
type Validator interface {
	Validate(ctx context.Context) error
}

// TimerChecker is implemented by a Benchmark whose Batch.Device is not the span
// of its launches (a sum of per-launch stages, say): it checks its batches
// against the host clock itself, with CheckTimer's verdicts, instead of
// CheckTimer.
type TimerChecker interface {
	CheckTimer(b Batch, k int) TimerCheck
}

// Abandoner is implemented by a Benchmark that must know when the engine gave up
// waiting for one of its calls (after Settings.KernelTimeout, or Settings.Grace
// after the context was canceled). The call may still be running on another
// goroutine: Abandon must not wait for it, and Teardown is not called after it.
type Abandoner interface {
	Abandon()
}

// Clock is the host clock the engine uses for its own time budget. The real one
// is time.Now; tests use a fake.
type Clock interface {
	Now() time.Time
}
