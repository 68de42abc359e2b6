package measure

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

const us = time.Microsecond

func mustRun(t *testing.T, b Benchmark, s Settings) *Result {
	t.Helper()
	r, err := Run(context.Background(), b, s)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

func hasWarning(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func checkSamplesLastAtLeast(t *testing.T, r *Result, min time.Duration) {
	t.Helper()
	for i, s := range r.Samples {
		if got := s.PerLaunch * time.Duration(s.Launches); got < min {
			t.Errorf("sample %d lasted %v (%d launches), want >= %v", i, got, s.Launches, min)
		}
	}
}

func TestBatchingShortKernel(t *testing.T) {
	f, s := newFake(constant(5 * us))
	r := mustRun(t, f, s)
	if len(r.Samples) == 0 {
		t.Fatal("no samples")
	}
	checkSamplesLastAtLeast(t, r, 20*time.Millisecond)
	for i, smp := range r.Samples {
		if smp.Launches < 4000 || smp.Launches > 10000 {
			t.Errorf("sample %d: k = %d, want about 4000-4800 for a 5us kernel", i, smp.Launches)
		}
		if smp.PerLaunch != 5*us {
			t.Errorf("sample %d: per launch %v, want 5us", i, smp.PerLaunch)
		}
	}
	// Cold run 1, then calibration grows 1 -> 100 (100x cap) -> 4800 (20% headroom).
	if want := []int{1, 1, 100, 4800}; !slices.Equal(f.calls[:4], want) {
		t.Errorf("first batch sizes %v, want %v", f.calls[:4], want)
	}
	if r.Warmup.Launches != 4901 || r.Warmup.Batches != 3 {
		t.Errorf("warm-up %+v, want 4901 launches in 3 batches", r.Warmup)
	}
	if r.StopReason != StopNoiseTarget || len(r.Samples) != s.MinSamples {
		t.Errorf("stop %q after %d samples, want noise-target after %d", r.StopReason, len(r.Samples), s.MinSamples)
	}
	if !f.torndown || f.events[0] != "setup" || f.events[len(f.events)-1] != "teardown" {
		t.Errorf("events %v: want setup first and teardown last", f.events)
	}
}

func TestColdRunExcluded(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.coldExtra = 300 * time.Millisecond
	r := mustRun(t, f, s)
	if r.Cold.Device != 300*time.Millisecond+5*us {
		t.Errorf("cold = %v, want 300.005ms", r.Cold.Device)
	}
	if r.Summary.Max != 5*us || r.Summary.Min != 5*us {
		t.Errorf("summary min %v max %v: the cold run leaked into the statistics", r.Summary.Min, r.Summary.Max)
	}
	if r.Warmup.Launches < 1 {
		t.Errorf("warm-up ran no launches after the cold run")
	}
}

func TestWarmupCount(t *testing.T) {
	f, s := newFake(constant(5 * us))
	s.Warmup = WarmupCount(3)
	r := mustRun(t, f, s)
	if r.Warmup.Launches != 3 || r.Warmup.Batches != 3 {
		t.Errorf("warm-up %+v, want exactly 3 launches", r.Warmup)
	}
	if want := []int{1, 1, 1, 1, 100, 4800}; !slices.Equal(f.calls[:6], want) {
		t.Errorf("batch sizes %v, want %v (cold, 3 warm-up, calibration)", f.calls[:6], want)
	}
	if r.Warmup.CalibrationBatches != 1 || r.Warmup.CalibrationLaunches != 100 {
		t.Errorf("calibration %+v, want 1 batch of 100 launches", r.Warmup)
	}
	checkSamplesLastAtLeast(t, r, s.MinSampleTime)

	f, s = newFake(constant(5 * us))
	s.Warmup = WarmupCount(0)
	r = mustRun(t, f, s)
	if r.Warmup.Launches != 0 {
		t.Errorf("0x warm-up ran %d launches", r.Warmup.Launches)
	}
}

func TestWarmupDuration(t *testing.T) {
	f, s := newFake(constant(5 * us))
	s.Warmup = WarmupFor(200 * time.Millisecond)
	r := mustRun(t, f, s)
	if r.Warmup.Duration < 200*time.Millisecond {
		t.Errorf("warm-up took %v, want >= 200ms", r.Warmup.Duration)
	}
	if r.Warmup.Duration > 300*time.Millisecond {
		t.Errorf("warm-up took %v, want about 200ms", r.Warmup.Duration)
	}
	if r.Warmup.CalibrationBatches != 0 {
		t.Errorf("a 200ms warm-up should leave the batch size calibrated: %+v", r.Warmup)
	}
	checkSamplesLastAtLeast(t, r, s.MinSampleTime)
}

func TestNoiseTargetStopsEarly(t *testing.T) {
	f, s := newFake(jitter(50*us, 0.001, 1))
	r := mustRun(t, f, s)
	if r.StopReason != StopNoiseTarget {
		t.Fatalf("stop %q, want noise-target", r.StopReason)
	}
	if len(r.Samples) > 2*s.MinSamples {
		t.Errorf("%d samples for quiet data, want about %d", len(r.Samples), s.MinSamples)
	}
	if r.Elapsed > time.Second {
		t.Errorf("quiet data took %v of the budget", r.Elapsed)
	}
	if r.Summary.Noise > s.MaxNoise || hasWarning(r.Summary.Warnings, "noisy") {
		t.Errorf("noise %v warnings %q", r.Summary.Noise, r.Summary.Warnings)
	}
}

func TestNoisyHitsMaxTime(t *testing.T) {
	f, s := newFake(jitter(50*us, 0.5, 2))
	s.MaxTime = 2 * time.Second
	r := mustRun(t, f, s)
	if r.StopReason != StopMaxTime {
		t.Fatalf("stop %q, want max-time", r.StopReason)
	}
	if r.Elapsed < s.MaxTime || r.Elapsed > s.MaxTime+100*time.Millisecond {
		t.Errorf("elapsed %v, want just over %v", r.Elapsed, s.MaxTime)
	}
	if !hasWarning(r.Summary.Warnings, "noisy") {
		t.Errorf("no noisy warning in %q (noise %.3f)", r.Summary.Warnings, r.Summary.Noise)
	}
}

func TestSampleCount(t *testing.T) {
	for _, n := range []int{1, 7, 25} {
		for _, rel := range []float64{0, 0.5} {
			f, s := newFake(jitter(10*us, rel, 3))
			s.Samples = n
			s.MaxTime = time.Millisecond // must not stop it
			r := mustRun(t, f, s)
			if len(r.Samples) != n || r.StopReason != StopSampleCount {
				t.Errorf("samples=%d jitter=%v: got %d samples, stop %q", n, rel, len(r.Samples), r.StopReason)
			}
		}
	}
}

func TestTrendWarning(t *testing.T) {
	ramp := func(i int) time.Duration { return 100*us + time.Duration(i)*100*time.Nanosecond }
	f, s := newFake(ramp)
	s.Samples = 60
	r := mustRun(t, f, s)
	if !hasWarning(r.Summary.Warnings, "times rose") {
		t.Errorf("no trend warning on a ramp: trend %.3f p %.3g warnings %q", r.Summary.Trend, r.Summary.TrendP, r.Summary.Warnings)
	}
	f, s = newFake(jitter(100*us, 0.05, 4))
	s.Samples = 60
	r = mustRun(t, f, s)
	if hasWarning(r.Summary.Warnings, "times rose") || hasWarning(r.Summary.Warnings, "times fell") {
		t.Errorf("trend warning on flat data: %q", r.Summary.Warnings)
	}
}

func TestOutliersInRun(t *testing.T) {
	per := func(i int) time.Duration {
		if i == 10 {
			return 200 * us
		}
		return 100*us + time.Duration(i%3)*100*time.Nanosecond
	}
	f, s := newFake(per)
	s.Samples = 20
	r := mustRun(t, f, s)
	if r.Summary.Outliers != 1 {
		t.Fatalf("outliers %d %v, want 1", r.Summary.Outliers, r.Summary.OutlierIndexes)
	}
	idx := r.Summary.OutlierIndexes[0]
	if r.Samples[idx].PerLaunch != 200*us {
		t.Errorf("outlier index %d has %v", idx, r.Samples[idx].PerLaunch)
	}
	if !hasWarning(r.Summary.Warnings, "outlier") {
		t.Errorf("no outlier warning: %q", r.Summary.Warnings)
	}
}

func TestCancellationKeepsPartialResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	jit := jitter(5*us, 0.5, 5)
	f, s := newFake(func(i int) time.Duration {
		if i < 4 {
			return 5 * us
		}
		return jit(i)
	})
	// Launch 4 is the first sample (cold 1, warm-up 1, 100, 4800); cancel
	// during the 6th sample, which still finishes.
	f.onLaunch = func(i int) {
		if i == 4+5 {
			cancel()
		}
	}
	r, err := Run(ctx, f, s)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if r == nil {
		t.Fatal("no partial result")
	}
	if r.StopReason != StopCanceled {
		t.Errorf("stop %q, want canceled", r.StopReason)
	}
	if len(r.Samples) != 6 || r.Summary.N != 6 {
		t.Errorf("%d samples (summary n %d), want the 6 that finished", len(r.Samples), r.Summary.N)
	}
	if !f.torndown {
		t.Error("no teardown after cancel")
	}
}

func TestLaunchErrorKeepsPartialResult(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.failAt = 6
	r, err := Run(context.Background(), f, s)
	if err == nil || !strings.Contains(err.Error(), "CL_OUT_OF_RESOURCES") {
		t.Fatalf("err = %v", err)
	}
	// Launches 0-3 are the cold run and the warm-up, 4 and 5 samples.
	if r == nil || r.StopReason != StopError || len(r.Samples) != 2 {
		t.Fatalf("result %+v", r)
	}
	if !f.torndown {
		t.Error("no teardown after a failed launch")
	}
}

func TestColdCacheMode(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.flushTime = 50 * time.Millisecond
	s.Cold = true
	s.Samples = 12
	r := mustRun(t, f, s)
	for i, e := range f.events {
		if e == "launch" && (i == 0 || f.events[i-1] != "flush") {
			t.Fatalf("launch at event %d not preceded by a flush: %v", i, f.events)
		}
	}
	if f.flushCount != len(f.calls) {
		t.Errorf("%d flushes for %d launches", f.flushCount, len(f.calls))
	}
	for i, smp := range r.Samples {
		if smp.Launches != 1 || smp.PerLaunch != 5*us {
			t.Errorf("sample %d: %d launches of %v, want 1 of 5us (no flush inside)", i, smp.Launches, smp.PerLaunch)
		}
	}
	if len(r.Samples) != 12 {
		t.Errorf("%d samples", len(r.Samples))
	}
	if _, err := Run(context.Background(), noFlush{f}, s); err == nil || !strings.Contains(err.Error(), "flush") {
		t.Errorf("cold mode without a Flusher: err = %v", err)
	}
}

func TestTimerFallbackAndBoth(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.noDevice = true
	f.overhead = 10 * us
	r := mustRun(t, f, s)
	if r.Timer != TimerHost || !hasWarning(r.Warnings, "host timer") {
		t.Errorf("timer %q warnings %q, want a fallback to host", r.Timer, r.Warnings)
	}
	if r.Summary.Median <= 5*us {
		t.Errorf("host median %v should include the batch overhead", r.Summary.Median)
	}

	f, s = newFake(constant(5 * us))
	f.overhead = 10 * us
	s.Timer = TimerBoth
	r = mustRun(t, f, s)
	if r.Timer != TimerDevice || r.HostSummary == nil {
		t.Fatalf("timer %q host summary %v", r.Timer, r.HostSummary)
	}
	if r.Summary.Median != 5*us || r.HostSummary.Median <= 5*us {
		t.Errorf("device median %v host median %v", r.Summary.Median, r.HostSummary.Median)
	}
}

func TestPhasesValidationThroughput(t *testing.T) {
	f, s := newFake(constant(1 * time.Millisecond))
	f.info = SetupInfo{BytesPerLaunch: 1_000_000, OpsPerLaunch: 2_000_000, OpsUnit: "FLOP", FirstTouch: 7 * time.Millisecond}
	r := mustRun(t, both{phasedBench{f}, validBench{f, errors.New("out[3] = 2, want 3")}}, s)
	if r.Phases == nil || r.Phases.Compute.N != s.MinSamples || r.Phases.Compute.Median != 2*time.Millisecond ||
		r.Phases.Total.Median != 6*time.Millisecond || len(r.Phases.Runs) != s.MinSamples {
		t.Errorf("phases %+v", r.Phases)
	}
	if r.Valid == nil || *r.Valid || r.ValidationError != "out[3] = 2, want 3" {
		t.Errorf("valid %v error %q", r.Valid, r.ValidationError)
	}
	if r.FirstTouch != 7*time.Millisecond {
		t.Errorf("first touch %v", r.FirstTouch)
	}
	tp := r.Throughput
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if tp == nil || !near(tp.GBPerSecond, 1) || !near(tp.BestGBPerSecond, 1) || !near(tp.GOpsPerSecond, 2) || tp.OpsUnit != "FLOP" {
		t.Errorf("throughput %+v, want 1 GB/s and 2 GFLOP/s", tp)
	}
	i := slices.Index(f.events, "validate")
	if i < 0 || slices.Index(f.events, "phases") < i {
		t.Errorf("validate should run after sampling, before phases: %v", f.events)
	}
}

type both struct {
	phasedBench
	validBench
}

func (b both) Setup(ctx context.Context) (SetupInfo, error) { return b.phasedBench.Setup(ctx) }
func (b both) Launch(ctx context.Context, k int) (Batch, error) {
	return b.phasedBench.Launch(ctx, k)
}
func (b both) Teardown() error                               { return b.phasedBench.Teardown() }
func (b both) Flush(ctx context.Context) error               { return b.phasedBench.Flush(ctx) }
func (b both) Validate(ctx context.Context) error            { return b.validBench.Validate(ctx) }
func (b both) RunPhases(ctx context.Context) (Phases, error) { return b.phasedBench.RunPhases(ctx) }

func TestZeroTimeKernelHitsCap(t *testing.T) {
	f, s := newFake(constant(0))
	s.MaxLaunches = 1000
	r := mustRun(t, f, s)
	if slices.Max(f.calls) != 1000 {
		t.Errorf("batch sizes %v, want capped at 1000", f.calls)
	}
	if !hasWarning(r.Warnings, "capped at 1000") {
		t.Errorf("no cap warning: %q", r.Warnings)
	}
}

func TestTimerResolutionWarning(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.info.TimerResolution = time.Millisecond // 100x = 100ms > 24ms batches
	r := mustRun(t, f, s)
	if !hasWarning(r.Summary.Warnings, "timer resolution") {
		t.Errorf("no timer-resolution warning: %q", r.Summary.Warnings)
	}
	f, s = newFake(constant(5 * us))
	f.info.TimerResolution = time.Microsecond
	r = mustRun(t, f, s)
	if hasWarning(r.Summary.Warnings, "timer resolution") {
		t.Errorf("timer-resolution warning at 1us: %q", r.Summary.Warnings)
	}
}

func TestProgress(t *testing.T) {
	f, s := newFake(constant(5 * us))
	var got []Progress
	s.Progress = func(p Progress) { got = append(got, p) }
	mustRun(t, f, s)
	last := got[len(got)-1]
	if last.Stage != "samples" || last.Samples != s.MinSamples || last.Target != s.MaxNoise {
		t.Errorf("last progress %+v", last)
	}
}

func TestResultJSONRoundTrip(t *testing.T) {
	f, s := newFake(jitter(5*us, 0.2, 6))
	s.Warmup = WarmupFor(100 * time.Millisecond)
	s.Timer = TimerBoth
	r := mustRun(t, phasedBench{f}, s)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*r, back) {
		t.Errorf("round trip differs:\n%+v\n%+v", *r, back)
	}
	if !strings.Contains(string(b), `"warmup":"100ms"`) || !strings.Contains(string(b), `"median_ns":`) {
		t.Errorf("unexpected encoding: %.300s", b)
	}
}

func TestPredictN(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		goal, took time.Duration
		last, cap  int
		want       int
	}{
		{20 * ms, 5 * us, 1, 1e6, 100},            // 100x growth limit
		{20 * ms, 500 * us, 100, 1e6, 4800},       // goal with 20% headroom
		{20 * ms, 0, 1, 1e6, 100},                 // zero time: counts as 1 ns, limited by growth
		{20 * ms, 30 * ms, 10, 1e6, 11},           // at least one more
		{20 * ms, 1, 100_000, 1_000_000, 1e6},     // hard cap
		{20 * ms, 10 * ms, 1000, 1_000_000, 2400}, // 2x * 1.2
	}
	for _, tt := range tests {
		if got := predictN(tt.goal, tt.took, tt.last, tt.cap); got != tt.want {
			t.Errorf("predictN(%v, %v, %d, %d) = %d, want %d", tt.goal, tt.took, tt.last, tt.cap, got, tt.want)
		}
	}
}

func TestParseWarmup(t *testing.T) {
	tests := []struct {
		in   string
		want Warmup
		err  string
	}{
		{"", Warmup{}, ""},
		{"auto", Warmup{}, ""},
		{"200ms", WarmupFor(200 * time.Millisecond), ""},
		{"3x", WarmupCount(3), ""},
		{"0x", WarmupCount(0), ""},
		{"0", WarmupCount(0), ""},
		{"abc", Warmup{}, `--warmup: want a duration like 200ms or a count like 3x, got "abc"`},
		{"-3x", Warmup{}, "--warmup"},
		{"-1s", Warmup{}, "--warmup"},
	}
	for _, tt := range tests {
		got, err := ParseWarmup(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseWarmup(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseWarmup(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if back, _ := ParseWarmup(got.String()); back != got {
			t.Errorf("String round trip of %q: %v", tt.in, back)
		}
	}
	if _, err := ParseTimer("gpu"); err == nil {
		t.Error("ParseTimer accepted gpu")
	}
	if tm, err := ParseTimer("Both"); err != nil || tm != TimerBoth {
		t.Errorf("ParseTimer(Both) = %q, %v", tm, err)
	}
	if err := (Settings{Samples: -1}).Validate(); err == nil {
		t.Error("negative samples accepted")
	}
}

// TestShortUnvalidated: with ShortUnvalidated, a run that stops on MaxTime
// short of MinSamples skips its validation launch; one that reaches its
// samples, or a short one without the setting, is validated.
func TestShortUnvalidated(t *testing.T) {
	for _, c := range []struct {
		name      string
		perLaunch time.Duration
		skip      bool
		validated bool
	}{
		{"short, skipped", 400 * time.Millisecond, true, false},
		{"short, not asked", 400 * time.Millisecond, false, true},
		{"enough samples", time.Millisecond, true, true},
	} {
		f, s := newFake(constant(c.perLaunch))
		s.MaxTime, s.ShortUnvalidated = time.Second, c.skip
		r := mustRun(t, validBench{f, nil}, s)
		validated := slices.Contains(f.events, "validate")
		if validated != c.validated || (r.Valid != nil) != c.validated {
			t.Errorf("%s: %d samples, stop %s: validated %v (Valid %v), want %v", c.name, len(r.Samples), r.StopReason, validated, r.Valid, c.validated)
		}
	}
}

// TestShortStopsAfterWarmup: a run whose warm-up alone uses up MaxTime stops
// there with no sample when it may be short (ShortUnvalidated), its launch
// time in Warmup; without the setting it still takes one sample.
func TestShortStopsAfterWarmup(t *testing.T) {
	for _, c := range []struct {
		short   bool
		samples int
	}{{true, 0}, {false, 1}} {
		f, s := newFake(constant(2 * time.Second))
		s.MaxTime, s.ShortUnvalidated = time.Second, c.short
		r := mustRun(t, validBench{f, nil}, s)
		if len(r.Samples) != c.samples || r.StopReason != StopMaxTime {
			t.Errorf("ShortUnvalidated %v: %d samples, stop %s; want %d, max-time", c.short, len(r.Samples), r.StopReason, c.samples)
		}
		if r.Warmup.Launches != 1 || r.Warmup.Duration < 2*time.Second {
			t.Errorf("ShortUnvalidated %v: warm-up %d launches in %v, want 1 in 2s or more", c.short, r.Warmup.Launches, r.Warmup.Duration)
		}
	}
}
