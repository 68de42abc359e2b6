package harness

import (
	"context"
	"regexp"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// A Sequence runs steps (Step: declared benchmarks, and records derived from
// them) one after another and hands each record on as it finishes: the one
// loop of the suites, the short profile, tune and run. A benchmark that fails
// is kept with its error, one whose output fails validation too ("validation
// failed: ...") unless Strict; an interruption or abandoned work stops the
// sequence (Stops), and the interrupted record is handed on only while it
// carries figures.
type Sequence struct {
	Ctx context.Context
	// Device runs the steps (a step's Device overrides it).
	Device Device
	// Settings measure each benchmark (a step's Timer overrides theirs).
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
	// Strict is the rule of a command whose benchmarks the user gave (run):
	// a benchmark that fails stops the sequence with its error (handed on
	// only while it carries figures), and output that fails validation is
	// kept in Measurement.Valid, not as the record's Error.
	Strict bool
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

// Finish hands on b, a step's record, and returns what stops the sequence:
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
