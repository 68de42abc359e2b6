// Package timeline records the timeline of 'clmeter trace': every host call and
// every device command of each queue, mapped onto the host clock by a
// calibrated device-to-host clock offset, as a trace.Trace (results/trace).
package timeline

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/clmeter/clmeter/results/trace"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// calibrationTries is how many clock readings a calibration takes; the one with
// the narrowest host bracket wins.
const calibrationTries = 8

// Clock mapping methods.
const (
	// MethodDeviceAndHostTimer reads the device timer with
	// clGetDeviceAndHostTimer (OpenCL 2.1+) between two host clock readings.
	MethodDeviceAndHostTimer = "clGetDeviceAndHostTimer"
	// MethodMarker enqueues a marker between two host clock readings and takes
	// its QUEUED timestamp (or its END, bracketed by the enqueue and a finish,
	// when QUEUED does not fit).
	MethodMarker = "marker"
)

// A ClockSample is one reading of the offset between a device's profiling timer
// and the host clock: device time = host time (since the Recorder's origin) +
// Offset, known to within ±Uncertainty.
type ClockSample struct {
	Method string
	// At is the host time of the reading, since the origin.
	At          time.Duration
	Offset      time.Duration
	Uncertainty time.Duration
}

// A Recorder records a timeline for clmeter trace: every host call on one host
// lane, and every device command of each queue on that queue's lane, mapped
// onto the host clock. Get a Tracer per queue from Queue; Trace returns the
// timeline. It is safe for use from several goroutines.
type Recorder struct {
	mu     sync.Mutex
	origin time.Time
	host   []trace.Slice
	queues []*QueueTracer
}

// NewRecorder returns a Recorder whose origin (time zero) is now.
func NewRecorder() *Recorder { return &Recorder{origin: time.Now()} }

// Origin is the host time that is zero on the timeline.
func (r *Recorder) Origin() time.Time { return r.origin }

// HostLane is the lane id of the host thread.
const HostLane = 1

// A QueueTracer is the Tracer of one device queue: set it as a
// KernelBenchmark's Tracer.
type QueueTracer struct {
	r      *Recorder
	lane   int
	label  string
	dev    *runtime.Device
	clocks []ClockSample
	cmds   []deviceCmd
	// fallback is why clGetDeviceAndHostTimer could not be used ("" when it was).
	fallback string
}

type deviceCmd struct {
	name, category string
	p              cl.Profile
}

// Queue calibrates the clock mapping of dev's queue and returns its Tracer.
func (r *Recorder) Queue(dev *runtime.Device) (*QueueTracer, error) {
	q := &QueueTracer{r: r, dev: dev, label: "queue: " + dev.Label()}
	r.mu.Lock()
	q.lane = HostLane + 1 + len(r.queues)
	r.queues = append(r.queues, q)
	r.mu.Unlock()
	if err := q.Calibrate(); err != nil {
		return nil, err
	}
	return q, nil
}

// Host records a host call (Tracer).
func (q *QueueTracer) Host(name string, start, end time.Time) {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	q.r.host = append(q.r.host, trace.Slice{Lane: HostLane, Name: name, Category: "host",
		Start: start.Sub(q.r.origin), End: end.Sub(q.r.origin)})
}

// Device records a device command (Tracer).
func (q *QueueTracer) Device(name, category string, p cl.Profile) {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	q.cmds = append(q.cmds, deviceCmd{name, category, p})
}

// Clocks returns the calibrations taken so far.
func (q *QueueTracer) Clocks() []ClockSample {
	q.r.mu.Lock()
	defer q.r.mu.Unlock()
	return append([]ClockSample(nil), q.clocks...)
}

// Calibrate reads the clock offset once more (call it after the run too, so
// the mapping follows a drift between the clocks). It uses
// clGetDeviceAndHostTimer where the device has it, else a marker.
func (q *QueueTracer) Calibrate() error {
	cs, err := q.calibrateTimer()
	if err != nil {
		q.r.mu.Lock()
		q.fallback = err.Error()
		q.r.mu.Unlock()
		var merr error
		cs, merr = q.calibrateMarker()
		if merr != nil {
			return fmt.Errorf("clock mapping of %s: %w", q.dev.Label(), errors.Join(err, merr))
		}
	}
	q.r.mu.Lock()
	q.clocks = append(q.clocks, cs)
	q.r.mu.Unlock()
	return nil
}

// calibrateTimer maps the clocks with clGetDeviceAndHostTimer: host readings
// bracket the device's, the tightest of calibrationTries kept (a clock
// mapping, no figure: internal/archcheck lists it).
func (q *QueueTracer) calibrateTimer() (ClockSample, error) {
	best := ClockSample{Method: MethodDeviceAndHostTimer, Uncertainty: -1}
	for range calibrationTries {
		t0 := time.Now()
		dv, _, err := q.dev.CL.DeviceAndHostTimer()
		t1 := time.Now()
		if err != nil {
			return best, err
		}
		if cs := bracket(MethodDeviceAndHostTimer, q.r.origin, t0, t1, dv); best.Uncertainty < 0 || cs.Uncertainty < best.Uncertainty {
			best = cs
		}
	}
	return best, nil
}

// bracket is the offset of a device reading dv taken between host readings t0
// and t1: the device time against the midpoint, ± half the bracket.
func bracket(method string, origin, t0, t1 time.Time, dv uint64) ClockSample {
	mid := t0.Sub(origin) + t1.Sub(t0)/2
	return ClockSample{Method: method, At: mid, Offset: time.Duration(int64(dv) - int64(mid)), Uncertainty: (t1.Sub(t0) + 1) / 2}
}

// calibrateMarker maps the clocks with a marker's profiling times bracketed
// by host readings, the tightest of calibrationTries kept (a clock mapping,
// no figure: internal/archcheck lists it).
func (q *QueueTracer) calibrateMarker() (ClockSample, error) {
	_, queue, err := q.dev.Context()
	if err != nil {
		return ClockSample{}, err
	}
	best := ClockSample{Method: MethodMarker, Uncertainty: -1}
	for range calibrationTries {
		if err := queue.Finish(); err != nil {
			return best, err
		}
		t0 := time.Now()
		ev, err := queue.EnqueueMarker()
		t1 := time.Now()
		if err != nil {
			return best, err
		}
		ferr := queue.Finish()
		t2 := time.Now()
		p, perr := ev.Profile()
		ev.Release()
		if ferr != nil {
			return best, ferr
		}
		if perr != nil {
			return best, perr
		}
		// QUEUED is stamped inside the enqueue call: the narrow bracket. Where a
		// driver stamps it later, END (before the finish returned) still fits.
		cs := bracket(MethodMarker, q.r.origin, t0, t1, p.Queued)
		endHost := time.Duration(int64(p.End)) - cs.Offset
		if p.Queued == 0 || endHost < t0.Sub(q.r.origin)-cs.Uncertainty || endHost > t2.Sub(q.r.origin)+cs.Uncertainty {
			cs = bracket(MethodMarker, q.r.origin, t0, t2, p.End)
		}
		if best.Uncertainty < 0 || cs.Uncertainty < best.Uncertainty {
			best = cs
		}
	}
	return best, nil
}

// toHost maps a device timestamp onto the host timeline: with one calibration
// by its offset, with several by the offset interpolated (and extrapolated)
// linearly between the first and the last, which follows a steady drift.
func toHost(clocks []ClockSample, dv uint64) time.Duration {
	d := time.Duration(int64(dv))
	first := clocks[0]
	if len(clocks) == 1 {
		return d - first.Offset
	}
	last := clocks[len(clocks)-1]
	span := float64(last.At - first.At)
	if span <= 0 {
		return d - first.Offset
	}
	// host = d - (o0 + (host - a0) * slope), solved for host.
	slope := float64(last.Offset-first.Offset) / span
	host := (float64(d) - float64(first.Offset) + float64(first.At)*slope) / (1 + slope)
	return time.Duration(host)
}

// Trace returns the timeline: the host lane, a lane per queue, every host call
// and every device command on the host clock; its metadata holds each queue's
// clock mapping (method, offset, uncertainty, drift).
func (r *Recorder) Trace(process string) *trace.Trace {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := &trace.Trace{Process: process, Lanes: []trace.Lane{{ID: HostLane, Name: "host thread"}},
		Slices: append([]trace.Slice{}, r.host...), Commands: []trace.Command{},
		Metadata: map[string]any{"origin": r.origin.UTC().Format(time.RFC3339Nano), "time_unit": "timestamps are host-clock microseconds since origin"}}
	var maps []map[string]any
	for _, q := range r.queues {
		t.Lanes = append(t.Lanes, trace.Lane{ID: q.lane, Name: q.label})
		if len(q.clocks) == 0 {
			continue
		}
		unc := time.Duration(0)
		for _, c := range q.clocks {
			unc = max(unc, c.Uncertainty)
		}
		first, last := q.clocks[0], q.clocks[len(q.clocks)-1]
		m := map[string]any{
			"queue": q.label, "lane": q.lane, "method": first.Method,
			"offset_ns":      int64(first.Offset),
			"uncertainty_ns": int64(unc),
			"drift_ns":       int64(last.Offset - first.Offset),
			"calibrations":   len(q.clocks),
			"note": "device time = host time + offset; each calibration reads the device timer between two host clock " +
				"readings (offset against their midpoint, uncertainty half their distance); offsets between calibrations are interpolated linearly",
		}
		if q.fallback != "" {
			m["fallback_reason"] = q.fallback
		}
		maps = append(maps, m)
		for i, c := range q.cmds {
			t.Commands = append(t.Commands, trace.Command{Lane: q.lane, Name: c.name, Category: c.category,
				Queued: toHost(q.clocks, c.p.Queued), Submit: toHost(q.clocks, c.p.Submit),
				Start: toHost(q.clocks, c.p.Start), End: toHost(q.clocks, c.p.End),
				Args: map[string]any{"index": i}})
		}
	}
	if maps == nil {
		maps = []map[string]any{}
	}
	t.Metadata["clock_mappings"] = maps
	return t
}
