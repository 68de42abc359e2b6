package measure

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clmeter/clmeter/internal/drvthread"
)

// maxAdaptiveSamples stops adaptive sampling if the Clock never advances (a
// broken fake, or a benchmark that reports times but takes none); a real run
// hits MaxTime long before.
const maxAdaptiveSamples = 1_000_000

type engine struct {
	b       Benchmark
	s       Settings
	flusher Flusher
	r       *Result
	start   time.Time
	// useHost is true when figures come from the host timer.
	useHost     bool
	warnedNoDev bool
	warnedCap   bool
	info        SetupInfo
	summarized  bool
	// timer is the verdict on the device timer; disagreements counts the
	// failed checks while it is undecided (see judge).
	timer         timerState
	disagreements int
	// abandoned is true once a call was abandoned (see call).
	abandoned bool
	// worker makes every call into the benchmark (see onWorker); nil until
	// the first call.
	worker *drvthread.Worker
	// loop is the state of the timed loop while it runs on the worker (see
	// runLoop); its device calls go straight to the benchmark.
	loop loopState
}

// Run measures b: Setup; a cold run (the first launch, reported as Result.Cold
// and never in the statistics); warm-up; samples until a stopping rule; phases
// (when b is Phased); validation (when b is a Validator); Teardown, always.
//
// Each sample is a batch of k back-to-back launches lasting at least
// s.MinSampleTime (one launch in cold-cache mode); its per-launch time is the
// batch time / k. Sampling stops after exactly s.Samples samples when that is
// set; otherwise when at least s.MinSamples samples give a 95% CI of the median
// within ±s.MaxNoise, or when s.MaxTime has passed (after at least one sample).
//
// When ctx is canceled Run returns what finished, StopReason StopCanceled and
// ctx.Err(). When a launch fails it returns what finished, StopReason StopError
// and the error. A failed validation is recorded in the Result, not returned.
// The Result is nil only when the settings are invalid or Setup failed.
func Run(ctx context.Context, b Benchmark, s Settings) (res *Result, err error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	s = s.withDefaults()
	e := &engine{b: b, s: s}
	r := &Result{Samples: []Sample{}, Warnings: []string{}, Settings: s}
	r.Settings.Clock, r.Settings.Progress, r.Settings.Thread = nil, nil, nil
	e.r = r
	defer e.stopWorker()
	defer func() {
		if e.abandoned {
			return // Teardown would wait for the device too
		}
		if terr := b.Teardown(); terr != nil {
			err = errors.Join(err, fmt.Errorf("teardown: %w", terr))
		}
		// What Teardown let go of (host copies of the buffers, read-backs)
		// is collected before the next benchmark, so that its host data
		// reuses the pages instead of adding to the peak (docs/OWNCOST.md):
		// now, or once no other device is in its timed loop (gcCoord).
		gc.request()
	}()
	if s.Cold {
		f, ok := b.(Flusher)
		if !ok {
			return nil, errors.New("cold-cache mode: this benchmark cannot flush the device caches")
		}
		e.flusher = f
	}

	if err := e.setup(ctx); err != nil {
		return nil, err
	}

	// Cold run.
	cold, err := e.launch(ctx, 1)
	if err != nil {
		return e.fail(ctx, fmt.Errorf("cold run: %w", err))
	}
	r.Cold = cold
	e.pickTimer(cold)
	e.start = s.Clock.Now()

	if err := e.timed(ctx); err != nil {
		return e.fail(ctx, err)
	}
	r.Elapsed = e.elapsed()
	e.summarize()

	if v, ok := b.(Validator); ok && !(s.ShortUnvalidated && r.Short()) {
		verr, err := call(e, ctx, s.KernelTimeout, func() (error, error) { return v.Validate(ctx), nil })
		if err != nil {
			return e.fail(ctx, fmt.Errorf("validation: %w", err))
		}
		if ctx.Err() != nil {
			return e.fail(ctx, ctx.Err())
		}
		valid := verr == nil
		r.Valid = &valid
		if verr != nil {
			r.ValidationError = verr.Error()
			r.Warnings = append(r.Warnings, "validation failed: "+verr.Error())
		}
	}
	if p, ok := b.(Phased); ok {
		if err := e.phases(ctx, p); err != nil {
			return e.fail(ctx, fmt.Errorf("phases: %w", err))
		}
		if r.FirstTouch == 0 && r.Upload > 0 && r.Phases != nil {
			r.FirstTouch = max(r.Upload-r.Phases.CopyIn.Median, 0)
		}
	}
	return r, nil
}

// timed runs the warm-up and the samples with the garbage collector paused
// (the loop allocates little: a sample, a sorted copy for the noise), up to a
// cap, and no collection started by another device's benchmark (gcCoord).
//
// The warm-up and the samples run as one job on the worker (runLoop), as a
// C program's loop does: a call a batch handed over between goroutines woke
// another of the Go scheduler's threads at every batch, and on a machine
// with few cores the driver's threads paid for it (docs/OWNCOST.md).
func (e *engine) timed(ctx context.Context) error {
	leave, err := gc.enter(ctx)
	if err != nil {
		return err
	}
	defer leave()
	return e.runLoop(ctx, func() error {
		k, calibrated, err := e.warmup(ctx)
		if err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
		return e.sample(ctx, k, calibrated)
	})
}

// setup runs the benchmark's Setup (abandoned Settings.Grace after a
// cancellation) and records what it reports.
func (e *engine) setup(ctx context.Context) error {
	info, err := call(e, ctx, 0, func() (SetupInfo, error) { return e.b.Setup(ctx) })
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	e.info = info
	e.r.FirstTouch = info.FirstTouch
	e.r.HostPrep, e.r.Upload = info.HostPrep, info.Upload
	e.r.TimerResolution = info.TimerResolution
	return nil
}

// fail summarises what finished and returns it with err; a canceled context
// makes the StopReason StopCanceled and the error ctx.Err() (or, when a call
// was abandoned, err, which wraps it and says so).
func (e *engine) fail(ctx context.Context, err error) (*Result, error) {
	r := e.r
	if ctx.Err() != nil {
		r.StopReason = StopCanceled
		if !errors.Is(err, ErrAbandoned) {
			err = ctx.Err()
		}
	} else {
		r.StopReason = StopError
	}
	if !e.start.IsZero() && !e.summarized {
		r.Elapsed = e.elapsed()
	}
	if !e.summarized {
		e.summarize()
	}
	return r, err
}

func (e *engine) elapsed() time.Duration { return e.s.Clock.Now().Sub(e.start) }

// launch runs one batch of k launches, flushing the caches first in cold-cache
// mode; the flush is outside the batch the benchmark times.
func (e *engine) launch(ctx context.Context, k int) (Batch, error) {
	if err := ctx.Err(); err != nil {
		return Batch{}, err
	}
	if e.flusher != nil {
		if _, err := deviceCall(e, ctx, func() (struct{}, error) { return struct{}{}, e.flusher.Flush(ctx) }); err != nil {
			return Batch{}, fmt.Errorf("flush: %w", err)
		}
	}
	return deviceCall(e, ctx, func() (Batch, error) { return e.b.Launch(ctx, k) })
}

// batchTime is the batch's duration by the timer the figures use.
func (e *engine) batchTime(b Batch) time.Duration {
	if e.useHost {
		return b.Host
	}
	if b.Device <= 0 {
		if !e.warnedNoDev {
			e.warnedNoDev = true
			e.r.Warnings = append(e.r.Warnings, "the device timer gave no time for some batches: those use the host timer")
		}
		return b.Host
	}
	return b.Device
}

func (e *engine) progress(stage string, noise float64) {
	if e.s.Progress == nil {
		return
	}
	e.s.Progress(Progress{Stage: stage, Samples: len(e.r.Samples), Noise: noise, Target: e.s.MaxNoise, Elapsed: e.elapsed()})
}

// grow returns the next batch size while calibrating, bounded by what the host
// clock predicts (hostCap), and warns once when the cap stops a batch from
// reaching MinSampleTime.
func (e *engine) grow(took, host time.Duration, k int) int {
	if k >= e.s.MaxLaunches {
		if !e.warnedCap {
			e.warnedCap = true
			e.r.Warnings = append(e.r.Warnings, fmt.Sprintf(
				"batches capped at %d launches still lasted under %v (%v): is the kernel doing any work?",
				e.s.MaxLaunches, e.s.MinSampleTime, took))
		}
		return k
	}
	return min(predictN(e.s.MinSampleTime, took, k, e.s.MaxLaunches), e.hostCap(host, k))
}

// steady returns the batch size that lasts MinSampleTime at took for k
// launches, bounded by what the host clock predicts.
func (e *engine) steady(took, host time.Duration, k int) int {
	return min(sizeFor(e.s.MinSampleTime, took/time.Duration(k), e.s.MaxLaunches), e.hostCap(host, k))
}

// hostLong reports whether a batch of k launches that lasted host already
// reaches the host clock's bound: growing it further is not allowed.
func (e *engine) hostLong(host time.Duration, k int) bool {
	return e.hostCap(host, k) <= k
}

// warmup runs the warm-up and returns the batch size for the samples and whether
// it is calibrated (a batch of that size lasted at least MinSampleTime).
func (e *engine) warmup(ctx context.Context) (k int, calibrated bool, err error) {
	s, w := e.s, &e.r.Warmup
	defer func() {
		if !e.loop.gaveUp { // an abandoned loop's Result is the caller's now
			w.Duration = e.elapsed()
		}
	}()
	k = 1
	var host time.Duration // the last batch's host time
	run := func(n int) (time.Duration, error) {
		b, err := e.launch(ctx, n)
		if err != nil {
			return 0, err
		}
		w.Launches += n
		w.Batches++
		e.progress("warmup", 0)
		host = b.Host
		return e.judge(b, n, false), nil
	}
	switch {
	case s.Cold && !s.Warmup.Set:
		// Cold mode: a sample is one launch, so there is nothing to calibrate;
		// one flushed launch warms the code path.
		_, err = run(1)
		return 1, true, err
	case s.Warmup.Set && s.Warmup.Duration == 0:
		for i := range s.Warmup.Count {
			took, err := run(1)
			if err != nil {
				return 1, false, err
			}
			if i == s.Warmup.Count-1 && !s.Cold {
				// Start calibrating from what the last launch took.
				k = e.grow(took, host, 1)
			}
		}
		return k, s.Cold, nil
	}
	// A duration, or the default: grow batches toward MinSampleTime; the default
	// stops at the first batch that reaches it, a duration when it has passed.
	for {
		if s.Warmup.Set && e.elapsed() >= s.Warmup.Duration {
			return k, calibrated, nil
		}
		took, err := run(k)
		if err != nil {
			return k, calibrated, err
		}
		switch {
		case s.Cold:
			calibrated = true
		case took >= s.MinSampleTime || k >= s.MaxLaunches || e.hostLong(host, k):
			if took < s.MinSampleTime && k >= s.MaxLaunches {
				e.grow(took, host, k) // at the cap: warns
			}
			if !calibrated {
				k = e.steady(took, host, k)
				calibrated = true
			}
		default:
			k = e.grow(took, host, k)
		}
		if !s.Warmup.Set && calibrated {
			return k, true, nil
		}
		if !s.Warmup.Set && e.elapsed() >= s.MaxTime {
			return k, calibrated, nil
		}
	}
}

// sample takes samples until a stopping rule, starting with batches of k.
func (e *engine) sample(ctx context.Context, k int, calibrated bool) error {
	s, r := e.s, e.r
	if s.Cold {
		k, calibrated = 1, true
	}
	perLaunch := []time.Duration{}
	noise := 0.0
	for {
		n := len(r.Samples)
		if s.Samples > 0 {
			if n >= s.Samples {
				r.StopReason = StopSampleCount
				return nil
			}
		} else {
			var ok bool
			noise, ok = noiseOf(perLaunch, s.Stats.Confidence)
			if n >= s.MinSamples && ok && noise <= s.MaxNoise {
				r.StopReason = StopNoiseTarget
				return nil
			}
			// A run that may be short (ShortUnvalidated) stops even before
			// its first sample once the warm-up alone used up MaxTime.
			if (n >= 1 || s.ShortUnvalidated) && e.elapsed() >= s.MaxTime || n >= maxAdaptiveSamples {
				r.StopReason = StopMaxTime
				return nil
			}
		}
		began := time.Now()
		b, err := e.launch(ctx, k)
		if err != nil {
			return fmt.Errorf("sample %d: %w", n+1, err)
		}
		took := e.judge(b, k, false)
		if !calibrated {
			if took < s.MinSampleTime && k < s.MaxLaunches && !e.hostLong(b.Host, k) {
				r.Warmup.CalibrationLaunches += k
				r.Warmup.CalibrationBatches++
				k = e.grow(took, b.Host, k)
				continue
			}
			calibrated = true
		}
		took = e.judge(b, k, true)
		kd := time.Duration(k)
		smp := Sample{PerLaunch: took / kd, Launches: k, Host: b.Host / kd, Device: b.Device / kd, DeviceBusy: b.DeviceBusy / kd}
		r.Samples = append(r.Samples, smp)
		r.Window = r.Window.widen(began, time.Now())
		perLaunch = append(perLaunch, smp.PerLaunch)
		if !s.Cold && took < s.MinSampleTime {
			// Keep the short sample (dropping fast ones would bias the figures)
			// but make the next batches longer.
			k = e.grow(took, b.Host, k)
		}
		if e.s.Progress != nil {
			noise, _ = noiseOf(perLaunch, s.Stats.Confidence)
			e.progress("samples", noise)
		}
	}
}

// summarize fills the Result's statistics from its samples.
func (e *engine) summarize() {
	r, s, info := e.r, e.s, e.info
	e.summarized = true
	r.Summary = Summarize(r.PerLaunch(), s.Stats)
	if s.Timer == TimerBoth && !e.useHost {
		host := make([]time.Duration, len(r.Samples))
		for i, smp := range r.Samples {
			host[i] = smp.Host
		}
		hs := Summarize(host, s.Stats)
		r.HostSummary = &hs
	}
	if res := info.TimerResolution; res > 0 && !e.useHost {
		short := 0
		for _, smp := range r.Samples {
			if smp.PerLaunch*time.Duration(smp.Launches) < 100*res {
				short++
			}
		}
		if short > 0 {
			r.Summary.Warnings = append(r.Summary.Warnings, fmt.Sprintf(
				"timer resolution: %d of %d samples lasted under 100x the timer resolution (%v): quantisation error above 1%%",
				short, len(r.Samples), res))
		}
	}
	r.Throughput = ComputeThroughput(info, r.Summary)
}

// phases runs p.RunPhases MinSamples times and summarises each phase.
func (e *engine) phases(ctx context.Context, p Phased) error {
	runs := []Phases{}
	defer func() {
		if len(runs) == 0 {
			return
		}
		var in, comp, out, tot []time.Duration
		for _, ph := range runs {
			in = append(in, ph.CopyIn)
			comp = append(comp, ph.Compute)
			out = append(out, ph.CopyOut)
			tot = append(tot, ph.Total)
		}
		cfg := e.s.Stats
		e.r.Phases = &PhaseSummaries{
			CopyIn: Summarize(in, cfg), Compute: Summarize(comp, cfg),
			CopyOut: Summarize(out, cfg), Total: Summarize(tot, cfg), Runs: runs,
		}
	}()
	// MinSamples runs, but no more than a tenth of MaxTime once three ran:
	// with large buffers every run moves them all both ways.
	start := e.s.Clock.Now()
	for i := range e.s.MinSamples {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i >= 3 && e.s.MaxTime > 0 && e.s.Clock.Now().Sub(start) > e.s.MaxTime/10 {
			break
		}
		if e.flusher != nil {
			if _, err := call(e, ctx, e.s.KernelTimeout, func() (struct{}, error) { return struct{}{}, e.flusher.Flush(ctx) }); err != nil {
				return fmt.Errorf("flush: %w", err)
			}
		}
		ph, err := call(e, ctx, e.s.KernelTimeout, func() (Phases, error) { return p.RunPhases(ctx) })
		if err != nil {
			return err
		}
		runs = append(runs, ph)
		e.progress("phases", 0)
	}
	return nil
}
