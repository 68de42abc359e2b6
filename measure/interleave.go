package measure

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// RunInterleaved measures a and b in one process, alternating their samples so
// that drift (clock ramps, thermal throttling, another process) hits both alike;
// the two Results are then fit for a comparison.
//
// Each benchmark gets what Run gives it: Setup, a cold run, its own warm-up and
// calibrated batch size (a then b). Then samples alternate in ABBA order (a b,
// b a, a b, ...), which also cancels a linear drift within every four samples.
// Sampling stops for both together: after exactly s.Samples samples each when
// that is set; otherwise when both have at least s.MinSamples samples and both
// meet the noise target, or when 2*s.MaxTime (the budget of two benchmarks) has
// passed since the first warm-up began and each has at least one sample. Phases
// and validation are not run. Teardown runs for both, always. Both Results'
// Elapsed count from the first warm-up, since their samples share that time.
//
// Errors are as Run's: when one benchmark fails, both Results hold what finished
// (StopError, or StopCanceled with ctx.Err()) and the error names which one
// failed. The Results are nil only when the settings are invalid or a Setup
// failed.
func RunInterleaved(ctx context.Context, a, b Benchmark, s Settings) (ra, rb *Result, err error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	s = s.withDefaults()
	if s.Cold {
		return nil, nil, errors.New("cold-cache mode is not supported when interleaving")
	}
	ea, eb := newEngine(a, s), newEngine(b, s)
	defer func() {
		if terr := teardownPair(ea, eb); terr != nil {
			err = errors.Join(err, terr)
		}
	}()
	if err := ea.begin(ctx); err != nil {
		return ea.partial(), nil, fmt.Errorf("A: %w", err)
	}
	if err := eb.begin(ctx); err != nil {
		err = fmt.Errorf("B: %w", err)
		ea.start = s.Clock.Now()
		ra, _ := ea.fail(ctx, err)
		return ra, eb.partial(), err
	}
	// The warm-ups and samples are a timed loop: the collector waits (gcCoord).
	leave, err := gc.enter(ctx)
	if err != nil {
		return ea.fail2(ctx, eb, err)
	}
	defer leave()
	start := s.Clock.Now()
	ea.start = start
	ka, calA, err := ea.warmup(ctx)
	if err != nil {
		return ea.fail2(ctx, eb, fmt.Errorf("A: warm-up: %w", err))
	}
	eb.start = s.Clock.Now()
	kb, calB, err := eb.warmup(ctx)
	if err != nil {
		return ea.fail2(ctx, eb, fmt.Errorf("B: warm-up: %w", err))
	}
	// From here both budgets are the pair's: they run from the first warm-up.
	eb.start = start
	steps := [2]*pairStep{{ea, ka, calA, "A"}, {eb, kb, calB, "B"}}
	for round := 0; !pairDone(ea, eb, s, start); round++ {
		if err := pairRound(ctx, steps, round, s); err != nil {
			return ea.fail2(ctx, eb, err)
		}
	}
	for _, e := range []*engine{ea, eb} {
		e.r.Elapsed = e.elapsed()
		e.summarize()
	}
	return ea.r, eb.r, nil
}

// teardownPair tears both benchmarks down, or, when either call was
// abandoned, neither (both share the device as a rule: a Teardown would wait
// for it).
func teardownPair(ea, eb *engine) error {
	if ea.abandoned || eb.abandoned {
		ea.abandon()
		eb.abandon()
		return nil
	}
	var err error
	for _, x := range []struct {
		name string
		e    *engine
	}{{"A", ea}, {"B", eb}} {
		if terr := x.e.b.Teardown(); terr != nil {
			err = errors.Join(err, fmt.Errorf("%s: teardown: %w", x.name, terr))
		}
	}
	return err
}

// A pairStep is one benchmark's state in RunInterleaved's rounds: its engine,
// batch size, whether the batch size is calibrated, and its name.
type pairStep struct {
	e          *engine
	k          int
	calibrated bool
	name       string
}

// pairDone reports whether the interleaved sampling stops, setting both stop
// reasons when it does: exactly s.Samples each; or both at s.MinSamples and
// the noise target; or twice the time budget since start (one sample each).
func pairDone(ea, eb *engine, s Settings, start time.Time) bool {
	na, nb := len(ea.r.Samples), len(eb.r.Samples)
	reason := StopReason("")
	if s.Samples > 0 {
		if na >= s.Samples && nb >= s.Samples {
			reason = StopSampleCount
		}
	} else {
		noiseA, okA := noiseOf(ea.r.PerLaunch(), s.Stats.Confidence)
		noiseB, okB := noiseOf(eb.r.PerLaunch(), s.Stats.Confidence)
		switch {
		case na >= s.MinSamples && nb >= s.MinSamples && okA && okB && noiseA <= s.MaxNoise && noiseB <= s.MaxNoise:
			reason = StopNoiseTarget
		case na >= 1 && nb >= 1 && s.Clock.Now().Sub(start) >= 2*s.MaxTime || na+nb >= maxAdaptiveSamples:
			reason = StopMaxTime
		}
	}
	if reason == "" {
		return false
	}
	ea.r.StopReason, eb.r.StopReason = reason, reason
	return true
}

// pairRound takes one sample of each benchmark, A then B in even rounds and B
// then A in odd ones (ABBA); calibration batches do not count.
func pairRound(ctx context.Context, steps [2]*pairStep, round int, s Settings) error {
	order := [2]int{0, 1}
	if round%2 == 1 {
		order = [2]int{1, 0}
	}
	for _, i := range order {
		st := steps[i]
		if s.Samples > 0 && len(st.e.r.Samples) >= s.Samples {
			continue
		}
		// Calibration batches do not count: retry until one sample is taken.
		for {
			took, err := st.e.sampleOnce(ctx, &st.k, &st.calibrated)
			if err != nil {
				return fmt.Errorf("%s: sample %d: %w", st.name, len(st.e.r.Samples)+1, err)
			}
			if took {
				break
			}
		}
	}
	return nil
}

func newEngine(b Benchmark, s Settings) *engine {
	r := &Result{Samples: []Sample{}, Warnings: []string{}, Settings: s}
	r.Settings.Clock, r.Settings.Progress, r.Settings.Thread = nil, nil, nil
	return &engine{b: b, s: s, r: r}
}

// begin runs Setup and the cold run and picks the timer, as Run does.
func (e *engine) begin(ctx context.Context) error {
	if err := e.setup(ctx); err != nil {
		if !e.abandoned {
			e.r = nil
		}
		return err
	}
	cold, err := e.launch(ctx, 1)
	if err != nil {
		e.start = e.s.Clock.Now()
		e.summarize()
		e.r.StopReason = StopError
		if ctx.Err() != nil {
			e.r.StopReason = StopCanceled
			if errors.Is(err, ErrAbandoned) {
				return err
			}
			return ctx.Err()
		}
		return fmt.Errorf("cold run: %w", err)
	}
	e.r.Cold = cold
	e.pickTimer(cold)
	return nil
}

// partial is the engine's Result, nil when Setup failed.
func (e *engine) partial() *Result { return e.r }

// fail2 summarises both engines after err (see engine.fail).
func (e *engine) fail2(ctx context.Context, other *engine, err error) (*Result, *Result, error) {
	ra, errA := e.fail(ctx, err)
	rb, _ := other.fail(ctx, err)
	return ra, rb, errA
}

// sampleOnce launches one batch of *k and records it as a sample unless it was
// a calibration batch (the batch size still growing toward MinSampleTime); it
// follows engine.sample's rules.
func (e *engine) sampleOnce(ctx context.Context, k *int, calibrated *bool) (took bool, err error) {
	s, r := e.s, e.r
	b, err := e.launch(ctx, *k)
	if err != nil {
		return false, err
	}
	t := e.judge(b, *k, false)
	if !*calibrated {
		if t < s.MinSampleTime && *k < s.MaxLaunches && !e.hostLong(b.Host, *k) {
			r.Warmup.CalibrationLaunches += *k
			r.Warmup.CalibrationBatches++
			*k = e.grow(t, b.Host, *k)
			return false, nil
		}
		*calibrated = true
	}
	t = e.judge(b, *k, true)
	kd := time.Duration(*k)
	r.Samples = append(r.Samples, Sample{PerLaunch: t / kd, Launches: *k, Host: b.Host / kd, Device: b.Device / kd, DeviceBusy: b.DeviceBusy / kd})
	if t < s.MinSampleTime {
		*k = e.grow(t, b.Host, *k)
	}
	if s.Progress != nil {
		noise, _ := noiseOf(r.PerLaunch(), s.Stats.Confidence)
		e.progress("samples", noise)
	}
	return true, nil
}
