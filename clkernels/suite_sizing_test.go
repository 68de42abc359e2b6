package clkernels

import (
	"testing"
	"time"

	"github.com/clmeter/clmeter/measure"
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
