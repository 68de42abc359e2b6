package results

import (
	"fmt"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/units"
)

// NeededSamples is the fewest samples m must hold for its figures to stand:
// its settings' MinSamples (the fewest a statistic is computed from), or
// Samples when fewer were asked for; measure's default when m records
// neither.
func NeededSamples(m *measure.Result) int {
	n := m.Settings.MinSamples
	if n <= 0 {
		n = measure.DefaultMinSamples
	}
	if s := m.Settings.Samples; s > 0 && s < n {
		n = s
	}
	return n
}

// Conclude records how b's measurement ended, err being what measure.Run
// returned with it (nil: it finished). One rule for every command that
// measures: a benchmark interrupted (Ctrl-C, a deadline) after it reached its
// NeededSamples keeps its figures, with a warning that says so; any other
// error, an interruption before that minimum included, sets b.Error and
// drops the figures (DropFigures), so that no table, result file, report or
// store shows a figure of an unfinished measurement. It returns whether b
// still carries figures.
func (b *Benchmark) Conclude(err error) bool {
	m := b.Measurement
	if err == nil {
		return m != nil && len(m.Samples) > 0
	}
	if m != nil && m.StopReason == measure.StopCanceled {
		need := NeededSamples(m)
		if n := len(m.Samples); n >= need {
			m.Warnings = append(m.Warnings, fmt.Sprintf("interrupted after %s (%d needed): the figures stand on them", units.Count(n, "sample"), need))
			return true
		} else if n > 0 {
			err = fmt.Errorf("interrupted after %d of the %d samples a figure needs: no figure (%v)", n, need, err)
		} else {
			err = fmt.Errorf("interrupted before its first sample: no figure (%v)", err)
		}
	}
	b.Error = err.Error()
	b.DropFigures()
	return false
}

// DropFigures removes the figures of b's measurement (samples, summaries,
// throughput, phases), keeping what says how it ran and ended (cold run,
// warm-up, timer, stop reason, warnings, settings).
func (b *Benchmark) DropFigures() {
	m := b.Measurement
	if m == nil {
		return
	}
	c := *m
	c.Samples = []measure.Sample{}
	c.Summary = measure.Summary{}
	c.HostSummary, c.Throughput, c.Phases, c.TimerCheck = nil, nil, nil, nil
	b.Measurement = &c
}

// HasFigure reports whether b's measurement is a figure to show: it has
// samples and b carries no error (a failed, invalid or interrupted benchmark
// read from an older file may still hold samples; they are not shown).
func (b *Benchmark) HasFigure() bool {
	return b.Error == "" && b.Measurement != nil && len(b.Measurement.Samples) > 0
}

// FailValidation records that b's output failed validation against its
// reference, why saying how: b.Error says so ("validation failed: why"), and
// Invalid reports it to the process that measured b.
func (b *Benchmark) FailValidation(why string) {
	b.Error = "validation failed: " + why
	b.invalid = true
}

// Invalid reports whether FailValidation marked b: how a command counts its
// invalid benchmarks for its exit status, never from b.Error's text. A
// benchmark read from a file is never marked (its Error says it failed).
func (b *Benchmark) Invalid() bool { return b.invalid }
