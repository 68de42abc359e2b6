package clkernels

import (
	"context"
	"testing"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
)

func TestFitBytes(t *testing.T) {
	s := measure.Settings{MinSamples: 5, MaxTime: 2 * time.Second}
	res := func(n int, stop measure.StopReason, median time.Duration) *measure.Result {
		return &measure.Result{StopReason: stop, Summary: measure.Summary{N: n, Median: median}}
	}
	const gib = int64(1) << 30
	for _, c := range []struct {
		name string
		s    measure.Settings
		res  *measure.Result
		want int64
	}{
		{"enough samples", s, res(5, measure.StopMaxTime, 300*time.Millisecond), gib},
		{"noise target met", s, res(3, measure.StopNoiseTarget, time.Second), gib},
		{"exact sample count asked", measure.Settings{Samples: 3, MaxTime: time.Second}, res(3, measure.StopSampleCount, time.Second), gib},
		// 958 ms a launch (the 16-core host's stride/float1 over 2.4 GB): 2 s
		// over 7 is 286 ms, so 0.298 GiB: 256 MiB.
		{"too slow", s, res(2, measure.StopMaxTime, 958*time.Millisecond), 256 << 20},
		{"never below 1 MiB", s, res(1, measure.StopMaxTime, time.Hour), 1 << 20},
		{"defaults", measure.Settings{}, res(1, measure.StopMaxTime, 10*time.Second), 64 << 20}, // 10 s over 12: 89 MiB
		{"no result", s, nil, gib},
	} {
		if got := fitBytes(c.s, gib, c.res); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestKernelSizedShrinks measures a strided read of 32 MiB whose launches are
// too slow for five samples in 10 ms: it is measured again over a smaller
// working set, which alone is emitted and validated; the first, short
// measurement is not validated (its Check never sees 32 MiB).
func TestKernelSizedShrinks(t *testing.T) {
	dev := device(t)
	var emitted []results.Benchmark
	o := Options{Settings: measure.Settings{MinSamples: 5, MaxTime: 10 * time.Millisecond, MinSampleTime: time.Millisecond},
		Emit: func(b results.Benchmark) error { emitted = append(emitted, b); return nil }}
	p := &plan{ctx: context.Background(), dev: dev, suite: "peaks", state: &suiteState{}, o: o}
	const full = 32 << 20
	var checked []int64
	p.sized("peaks/bandwidth/stride/float1", full,
		func(n int64) (results.Identity, []param) { return regionDef(dev, n, bandwidthID(PatternStride, 1)) },
		func(n int64) (*runtime.KernelBenchmark, error) {
			kb, err := bandwidthReadOnly(dev, PatternStride, 1, n)
			if err == nil {
				check := kb.Check
				kb.Check = func(in, out map[int][]byte) error { checked = append(checked, n); return check(in, out) }
			}
			return kb, err
		})
	q := &harness.Sequence{Ctx: context.Background(), Device: dev, Settings: o.Settings, Emit: o.Emit}
	if err := q.Run(p.steps); err != nil {
		t.Fatal(err)
	}
	if len(emitted) != 1 {
		t.Fatalf("%d benchmarks emitted, want 1", len(emitted))
	}
	b := emitted[0]
	res := b.Measurement
	from, _ := b.Extra["shrunk_from_bytes"].(int64)
	if from != full || b.Identity == nil || b.Identity.WorkingSetBytes >= full {
		t.Skipf("not shrunk (a launch of 32 MiB took %v here): nothing to check", res.Summary.Median)
	}
	if res.Valid == nil || !*res.Valid {
		t.Errorf("the shrunk measurement is not validated: %v %s", res.Valid, res.ValidationError)
	}
	for _, n := range checked {
		if n == full {
			t.Errorf("the first measurement, thrown away, was validated (checks at %v)", checked)
		}
	}
}
