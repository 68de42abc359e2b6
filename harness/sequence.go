package harness

import (
	"context"
	"regexp"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A Sequence measures benchmarks one after another on one device and hands
// each record on as it finishes: the loop of a suite. A benchmark that fails
// is kept with its error, one whose output fails validation too ("validation
// failed: ..."); an interruption or abandoned work stops the sequence (Stops),
// and the interrupted record is handed on only while it carries figures.
type Sequence struct {
	Ctx    context.Context
	Device Device
	// Settings measure each benchmark (a Timer given to Measure overrides
	// theirs).
	Settings measure.Settings
	// Filter, when set, leaves out the benchmarks whose names it does not
	// match.
	Filter *regexp.Regexp
	// Progress, when set, is told each benchmark's name before it runs.
	Progress func(name string)
	// Skip, when set, is told the name of each benchmark Filter leaves out.
	Skip func(name string)
	// Emit receives each finished record in order; its error stops the
	// sequence.
	Emit func(results.Benchmark) error
	// done are the records of the steps that ran, by name (see Step.From).
	done map[string]results.Benchmark
}

// Hand hands b on (Emit) and returns what stops the sequence: Emit's error
// or the context's.
func (q *Sequence) Hand(b results.Benchmark) error {
	if q.Emit != nil {
		if err := q.Emit(b); err != nil {
			return err
		}
	}
	return q.Ctx.Err()
}

// Measure measures what mk makes (in modes, with timer when set) into a
// record that starts from base (its name, parameters ...: see Item.Base),
// and returns the record and what stops the sequence, without handing it on
// (see Finish). A benchmark that Filter leaves out comes back unnamed and
// unmeasured.
func (q *Sequence) Measure(base results.Benchmark, timer measure.Timer, modes Modes, mk func() (Bench, error)) (results.Benchmark, error) {
	if err := q.Ctx.Err(); err != nil {
		return results.Benchmark{}, err
	}
	if q.Filter != nil && !q.Filter.MatchString(base.Name) {
		if q.Skip != nil {
			q.Skip(base.Name)
		}
		return results.Benchmark{}, nil
	}
	if q.Progress != nil {
		q.Progress(base.Name)
	}
	b, err := Measure(q.Ctx, Item{Base: &base, Device: q.Device, Make: mk, Settings: q.Settings, Timer: timer, Modes: modes, FailInvalid: true})
	if err != nil && Stops(err) {
		return b, err
	}
	return b, nil
}

// Finish hands on b as Measure left it and returns what stops the sequence:
// stop itself (b is handed on only while it carries figures), or Hand's.
func (q *Sequence) Finish(b results.Benchmark, stop error) error {
	if b.Name == "" && stop == nil {
		return nil // filtered out
	}
	if stop != nil {
		if b.HasFigure() {
			q.Hand(b)
		}
		return stop
	}
	return q.Hand(b)
}
