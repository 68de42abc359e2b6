// Package harness measures one thing and records it as a results.Benchmark:
// the one path of a measurement for every command (run, compare, trace, the
// suites, the short profile, tune). It makes the benchmark, sets its launch
// modes from the command's settings (timer, sync-each, data warm-up, phases,
// tracer), watches the clocks, runs measure.Run (or measure.RunInterleaved),
// and builds the record: program info, sizes, validation, abandonment and
// cancellation (results.Conclude). It takes a small Device interface, so its
// logic is tested without OpenCL.
package harness

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/internal/drvthread"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/units"
)

// A Device is what the harness needs of the device a benchmark runs on
// (*runtime.Device is one; tests use a fake).
type Device interface {
	// Describe is the device as the record names it.
	Describe() results.DeviceInfo
	// MarkBusy says that abandoned work may still run on the device: nothing
	// more may run on it in this process.
	MarkBusy()
}

// Modes are how a kernel benchmark launches, from a command's flags. The zero
// value is run's default: events on the launches, buffers written before
// timing, the copy-in, compute and copy-out phases measured.
type Modes struct {
	// SyncEach finishes after every launch (--sync-each): per-launch times
	// are enqueue + finish round trips.
	SyncEach bool
	// NoDataWarmup leaves the buffers unwritten before timing
	// (--no-data-warmup): first-touch costs fall into the cold run.
	NoDataWarmup bool
	// NoPhases leaves out the copy-in, compute and copy-out phases (the
	// suites' and the profile's figures are the kernel's own).
	NoPhases bool
	// Tracer, when set, receives every host call and device command (clmeter
	// trace). Only the launches are measured then: the phases and the
	// validation launch without events and would be missing from the
	// timeline.
	Tracer runtime.Tracer
}

// A Bench is what an Item makes: a kernel benchmark (Kernel) or any
// measure.Benchmark (Plain).
type Bench interface {
	// Measurable returns what measure.Run measures, launching in modes m with
	// timer t (TimerHost launches without events).
	Measurable(m Modes, t measure.Timer) measure.Benchmark
	// Program is the program built for it (nil when none), read after the
	// measurement.
	Program() *results.ProgramInfo
	// Sizes are its NDRange's global and local sizes (nil when it has none
	// or the driver picks the local size).
	Sizes() (global, local []int)
}

// A Watcher watches a device's clocks around a measurement (clocks.Watch is
// one).
type Watcher interface {
	Stop() *results.Clocks
}

// An Item is one thing to measure and how to record it.
type Item struct {
	// Name, Kind and Params identify the record (results.Benchmark).
	Name, Kind string
	Params     []results.Param
	// Base, when set, is the record to start from (its name, kind,
	// parameters, device and whatever else its maker set), in place of
	// Name, Kind, Params, Device's description and Figures.
	Base *results.Benchmark
	// Device runs it.
	Device Device
	// Make makes the benchmark; an error is a setup failure (MakeError).
	Make func() (Bench, error)
	// Settings measure it. Timer, when set, overrides Settings.Timer (a suite
	// benchmark whose figure needs one timer).
	Settings measure.Settings
	Timer    measure.Timer
	// Modes launch it.
	Modes Modes
	// RecordSizes adds the NDRange's sizes to the record's parameters
	// ("global", and "local" when set).
	RecordSizes bool
	// Figures start the record's figures (the suites, the profile and tune
	// write an empty list, run none).
	Figures []results.Figure
	// FailInvalid sets the record's Error when the output fails validation
	// (the suites); otherwise it shows only in Measurement.Valid.
	FailInvalid bool
	// Watch, when set, starts watching the device's clocks; the record keeps
	// what it saw.
	Watch func() Watcher
	// Wrap, when set, wraps what measure.Run measures (trace counts the
	// launches).
	Wrap func(measure.Benchmark) measure.Benchmark
}

// A MakeError is an Item's failure to make its benchmark (a bad build, bad
// arguments): nothing was measured.
type MakeError struct{ Err error }

// Error is the failure's own message.
func (e *MakeError) Error() string { return e.Err.Error() }

// Unwrap is the failure.
func (e *MakeError) Unwrap() error { return e.Err }

// Stops reports whether err must stop a command that measures several things:
// an interruption, or abandoned work (the device may still be busy).
func Stops(err error) bool {
	return errors.Is(err, measure.ErrAbandoned) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Record is the record of it before it is measured: its name, kind,
// parameters, device and figures.
func (it Item) Record() results.Benchmark {
	if it.Base != nil {
		b := *it.Base
		b.Params, b.ParamOrder, b.Extra = maps.Clone(b.Params), slices.Clone(b.ParamOrder), maps.Clone(b.Extra)
		return b
	}
	b := results.Benchmark{Name: it.Name, Kind: it.Kind, Device: it.Device.Describe(), Figures: it.Figures}
	for _, p := range it.Params {
		b.SetParam(p.Name, p.Value)
	}
	return b
}

// settings are the item's measure settings with its timer override and, when
// the device has one (threaded), its driver thread.
func (it Item) settings() measure.Settings {
	s := it.Settings
	if it.Timer != "" {
		s.Timer = it.Timer
	}
	if d, ok := it.Device.(threaded); ok && s.Thread == nil {
		s.Thread = d.DriverThread()
	}
	return s
}

// threaded is a Device with a driver thread of its own (*runtime.Device's
// session): its measurements' calls into the driver all come from it.
type threaded interface {
	DriverThread() *drvthread.Home
}

// Measure makes, measures and records it. It returns the record and the error
// that ended the measurement:
//   - ctx already done: an empty record and ctx.Err();
//   - a *MakeError: the record has Error set and no Measurement;
//   - measure.Run's error: the record is concluded (results.Conclude: an
//     unfinished measurement keeps its figures only when it reached its
//     minimum of samples); abandoned work marks the device busy.
//
// A failed validation is in Measurement.Valid (and, with FailInvalid, in the
// record's Error); it is not an error.
func Measure(ctx context.Context, it Item) (results.Benchmark, error) {
	if err := ctx.Err(); err != nil {
		return results.Benchmark{}, err
	}
	b := it.Record()
	bench, err := it.Make()
	if err != nil {
		b.Error = err.Error()
		return b, &MakeError{err}
	}
	s := it.settings()
	mb := bench.Measurable(it.Modes, s.Timer)
	if it.Wrap != nil {
		mb = it.Wrap(mb)
	}
	var watch Watcher
	if it.Watch != nil {
		watch = it.Watch()
	}
	res, err := measure.Run(ctx, mb, s)
	if watch != nil {
		b.Clocks = watch.Stop()
	}
	b.Measurement = res
	it.finish(&b, bench, mb, err)
	return b, err
}

// finish fills in what the measurement of bench left: program, sizes, extra,
// modes, and how it ended. An abandoned measurement's bench belongs to the
// call that was abandoned, which may still be running on the driver thread (a
// build that outlasted the grace period, writing its program record): finish
// then reads nothing of it, and the record has no program, sizes or extra.
func (it Item) finish(b *results.Benchmark, bench Bench, mb measure.Benchmark, err error) {
	if errors.Is(err, measure.ErrAbandoned) {
		it.Device.MarkBusy()
	} else {
		it.fromBench(b, bench, mb)
	}
	noteModes(b, it.Modes)
	if err != nil {
		if b.Measurement != nil {
			b.Conclude(err)
		} else {
			b.Error = err.Error()
		}
		return
	}
	if m := b.Measurement; it.FailInvalid && m != nil && m.Valid != nil && !*m.Valid {
		b.FailValidation(m.ValidationError)
	}
}

// fromBench records what the measured bench settled: its program, its sizes
// (with RecordSizes) and its extra.
func (it Item) fromBench(b *results.Benchmark, bench Bench, mb measure.Benchmark) {
	b.Program = bench.Program()
	if it.RecordSizes {
		global, local := bench.Sizes()
		if local != nil {
			b.SetParam("local", units.Dims(local))
		}
		b.SetParam("global", units.Dims(global))
	}
	if er, ok := mb.(ExtraReporter); ok {
		for k, v := range er.RunExtra() {
			if b.Extra == nil {
				b.Extra = map[string]any{}
			}
			b.Extra[k] = v
		}
	}
}

// An ExtraReporter is a benchmark that settles something of its own while it
// sets up (the launch benchmark's local size): the record keeps it in Extra.
type ExtraReporter interface {
	RunExtra() map[string]any
}

// noteModes records the launch modes that are not the default in the
// record's Extra ("modes": "sync-each, no-data-warmup"), so that a record
// says how it was measured (the timer is in Measurement.Settings).
func noteModes(b *results.Benchmark, m Modes) {
	var modes []string
	if m.SyncEach {
		modes = append(modes, ModeSyncEach)
	}
	if m.NoDataWarmup {
		modes = append(modes, ModeNoDataWarmup)
	}
	if len(modes) == 0 {
		return
	}
	if b.Extra == nil {
		b.Extra = map[string]any{}
	}
	b.Extra[ExtraModes] = strings.Join(modes, ", ")
}

// The launch modes as a record's Extra[ExtraModes] names them.
const (
	ExtraModes       = "modes"
	ModeSyncEach     = "sync-each"
	ModeNoDataWarmup = "no-data-warmup"
)
