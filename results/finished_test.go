package results

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
)

// measured is a benchmark of n samples that stopped for stop, with the
// settings asking for min samples (and exactly exact, when positive).
func measured(n, min, exact int, stop measure.StopReason) Benchmark {
	m := &measure.Result{Samples: []measure.Sample{}, Warnings: []string{}, StopReason: stop,
		Settings: measure.Settings{MinSamples: min, Samples: exact}}
	for range n {
		m.Samples = append(m.Samples, measure.Sample{PerLaunch: time.Millisecond, Launches: 1})
	}
	if n > 0 {
		m.Summary = measure.Summary{N: n, Median: time.Millisecond, Min: time.Millisecond}
		m.Throughput = &measure.Throughput{BytesPerLaunch: 1 << 20, GBPerSecond: 1.05, OpsPerLaunch: 1 << 26, OpsUnit: "IOP", GOpsPerSecond: 64.9}
	}
	return Benchmark{Name: "peaks/compute/int/4", Kind: "suite:peaks", Measurement: m, Figures: []Figure{}}
}

// TestConclude checks the one rule for an unfinished benchmark: interrupted
// after its minimum of samples it keeps its figures with a warning; before
// it, or failed, it carries no figure and says why.
func TestConclude(t *testing.T) {
	canceled := context.Canceled
	for _, tt := range []struct {
		name   string
		b      Benchmark
		err    error
		keep   bool
		errSay string // in b.Error ("" : none)
	}{
		{"finished", measured(10, 10, 0, measure.StopNoiseTarget), nil, true, ""},
		{"interrupted after its minimum", measured(12, 10, 0, measure.StopCanceled), canceled, true, ""},
		{"interrupted at exactly its minimum", measured(10, 10, 0, measure.StopCanceled), canceled, true, ""},
		{"interrupted before its minimum", measured(3, 10, 0, measure.StopCanceled), canceled, false, "interrupted after 3 of the 10 samples a figure needs: no figure (context canceled)"},
		{"an exact count below the minimum is the minimum", measured(3, 10, 3, measure.StopCanceled), canceled, true, ""},
		{"short of an exact count", measured(2, 10, 3, measure.StopCanceled), canceled, false, "interrupted after 2 of the 3 samples"},
		{"no minimum recorded: measure's default", measured(9, 0, 0, measure.StopCanceled), canceled, false, fmt.Sprintf("of the %d samples", measure.DefaultMinSamples)},
		{"interrupted before any sample", measured(0, 10, 0, measure.StopCanceled), canceled, false, "interrupted before its first sample"},
		{"a launch failed after samples", measured(12, 10, 0, measure.StopError), errors.New("clEnqueueNDRangeKernel: out of resources"), false, "out of resources"},
		{"setup failed", Benchmark{Name: "x"}, errors.New("build failed"), false, "build failed"},
	} {
		b := tt.b
		keep := b.Conclude(tt.err)
		if keep != tt.keep || keep != b.HasFigure() {
			t.Errorf("%s: Conclude %v, HasFigure %v, want %v", tt.name, keep, b.HasFigure(), tt.keep)
		}
		if tt.errSay == "" && b.Error != "" || tt.errSay != "" && !strings.Contains(b.Error, tt.errSay) {
			t.Errorf("%s: error %q, want %q", tt.name, b.Error, tt.errSay)
		}
		if keep && tt.err != nil && !strings.Contains(strings.Join(b.Measurement.Warnings, ";"), "interrupted after") {
			t.Errorf("%s: kept without a warning: %q", tt.name, b.Measurement.Warnings)
		}
		if !keep && b.Measurement != nil {
			m := b.Measurement
			if len(m.Samples) != 0 || m.Summary.N != 0 || m.Summary.Median != 0 || m.Throughput != nil {
				t.Errorf("%s: figures left: %+v", tt.name, m)
			}
			if m.StopReason != tt.b.Measurement.StopReason {
				t.Errorf("%s: stop reason %q lost", tt.name, m.StopReason)
			}
		}
	}
	// The input's measurement is not changed when the figures are dropped
	// (a caller may hold it).
	b := measured(3, 10, 0, measure.StopCanceled)
	m := b.Measurement
	b.Conclude(canceled)
	if len(m.Samples) != 3 {
		t.Error("DropFigures changed the measurement it was given")
	}
}

// TestInterruptedJSON checks that an interrupted benchmark's JSON carries no
// figure: no samples, no median, no rates.
func TestInterruptedJSON(t *testing.T) {
	b := measured(3, 10, 0, measure.StopCanceled)
	b.Conclude(context.Canceled)
	f := NewFile(ToolInfo{Name: "clmeter", Version: "test"}, nil)
	f.Benchmarks = []Benchmark{b}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	js := buf.String()
	for _, no := range []string{"gops_per_s", "gb_per_s", "per_launch_ns", `"median_ns": 1000000`} {
		if strings.Contains(js, no) {
			t.Errorf("interrupted benchmark's JSON holds %s:\n%s", no, js)
		}
	}
	if !strings.Contains(js, `"stop_reason": "canceled"`) || !strings.Contains(js, "no figure") {
		t.Errorf("JSON does not say it was interrupted:\n%s", js)
	}
	back, err := Decode(&buf, "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if back.Benchmarks[0].HasFigure() {
		t.Error("read back with a figure")
	}
}
