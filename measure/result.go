package measure

import "time"

// StopReason says which rule ended the sampling.
type StopReason string

const (
	// StopNoiseTarget: at least MinSamples, and the noise target was met.
	StopNoiseTarget StopReason = "noise-target"
	// StopMaxTime: the time budget (Settings.MaxTime) ran out.
	StopMaxTime StopReason = "max-time"
	// StopSampleCount: exactly Settings.Samples samples were taken.
	StopSampleCount StopReason = "sample-count"
	// StopCanceled: the context was canceled; the Result holds what finished.
	StopCanceled StopReason = "canceled"
	// StopError: a launch failed; the Result holds what finished before it.
	StopError StopReason = "error"
)

// A Sample is one timed batch of back-to-back launches. All its durations are
// per launch (batch time / Launches, truncated to whole nanoseconds) and encode
// in JSON as integer nanoseconds.
type Sample struct {
	// PerLaunch is the per-launch time by the timer the figures use
	// (Result.Timer).
	PerLaunch time.Duration `json:"per_launch_ns"`
	// Launches is k, the launches in the batch.
	Launches int `json:"launches"`
	// Host, Device and DeviceBusy are Batch.Host, Batch.Device and
	// Batch.DeviceBusy divided by Launches (zero when the benchmark gave none).
	Host       time.Duration `json:"host_ns"`
	Device     time.Duration `json:"device_ns"`
	DeviceBusy time.Duration `json:"device_busy_ns"`
}

// WarmupInfo says what ran before the first sample.
type WarmupInfo struct {
	// Launches and Batches ran during the warm-up, which took Duration (by
	// Settings.Clock, flushes included in cold-cache mode).
	Launches int           `json:"launches"`
	Batches  int           `json:"batches"`
	Duration time.Duration `json:"duration_ns"`
	// CalibrationLaunches and CalibrationBatches ran after the warm-up while the
	// batch size still grew toward MinSampleTime (a count or short-duration
	// warm-up leaves it uncalibrated). They are not samples.
	CalibrationLaunches int `json:"calibration_launches"`
	CalibrationBatches  int `json:"calibration_batches"`
}

// PhaseSummaries summarises the phases of a Phased benchmark, one Summary
// (of single sequences, not batches) per phase.
type PhaseSummaries struct {
	CopyIn  Summary `json:"copy_in"`
	Compute Summary `json:"compute"`
	CopyOut Summary `json:"copy_out"`
	Total   Summary `json:"total"`
	// Runs holds the raw sequences in the order they ran.
	Runs []Phases `json:"runs"`
}

// A Result is everything Run measured of one Benchmark. Durations encode in JSON
// as integer nanoseconds (fields ending in _ns).
type Result struct {
	// Window is when the samples were taken, by the wall clock: from the
	// start of the first to the end of the last (nil before the first). It
	// tells which benchmarks of devices measured at once overlapped.
	Window *Window `json:"window,omitempty"`
	// Cold is the first launch after setup, timed on its own and never part of
	// the statistics (it carries JIT compilation and first-use costs).
	Cold Batch `json:"cold"`
	// FirstTouch is SetupInfo.FirstTouch.
	FirstTouch time.Duration `json:"first_touch_ns"`
	// HostPrep and Upload are SetupInfo's.
	HostPrep time.Duration `json:"host_prep_ns,omitempty"`
	Upload   time.Duration `json:"upload_ns,omitempty"`
	// Warmup says what ran before the samples.
	Warmup WarmupInfo `json:"warmup"`
	// Timer is the timer the figures come from: TimerDevice or TimerHost (after a
	// fallback, or when asked for). With TimerBoth asked for and device times
	// present it is TimerDevice and HostSummary is set.
	Timer Timer `json:"timer"`
	// TimerNote says why the figures use the host timer although the device
	// timer was asked for ("" when they do not): the device timer gave no
	// times, or failed its check against the host clock (TimerCheck).
	TimerNote string `json:"timer_note,omitempty"`
	// TimerCheck is the batch on which the device timer was checked against the
	// host clock (nil when it was not: the host timer was asked for, or no batch
	// was timed both ways).
	TimerCheck *TimerCheck `json:"timer_check,omitempty"`
	// TimerResolution is SetupInfo.TimerResolution (zero when unknown).
	TimerResolution time.Duration `json:"timer_resolution_ns"`
	// Samples in the order they were taken.
	Samples []Sample `json:"samples"`
	// Summary of Samples' PerLaunch.
	Summary Summary `json:"summary"`
	// HostSummary of Samples' Host, when Settings.Timer is TimerBoth.
	HostSummary *Summary `json:"host_summary,omitempty"`
	// Phases, for a Phased benchmark.
	Phases *PhaseSummaries `json:"phases,omitempty"`
	// Throughput from SetupInfo's bytes and operations per launch (nil when the
	// benchmark knows neither).
	Throughput *Throughput `json:"throughput,omitempty"`
	// StopReason says which rule ended the sampling.
	StopReason StopReason `json:"stop_reason"`
	// Abandoned is true when the engine stopped waiting for a call that the
	// device had not finished (after the kernel timeout, or the grace period
	// after a cancellation); the device may still be busy with it.
	Abandoned bool `json:"abandoned,omitempty"`
	// Elapsed is the time from the end of the cold run to the end of sampling,
	// by Settings.Clock.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Valid is nil when the benchmark has no Validator (or validation did not
	// run), else whether its output matched the reference; ValidationError says
	// how it did not.
	Valid           *bool  `json:"valid,omitempty"`
	ValidationError string `json:"validation_error,omitempty"`
	// Warnings about the run as a whole (timer fallback, capped batches, failed
	// validation). The statistics' own warnings are in Summary.Warnings; see
	// AllWarnings.
	Warnings []string `json:"warnings"`
	// Settings used, defaults filled in.
	Settings Settings `json:"settings"`
}

// AllWarnings returns the run's warnings followed by those of its summaries.
func (r *Result) AllWarnings() []string {
	w := append([]string{}, r.Warnings...)
	w = append(w, r.Summary.Warnings...)
	if r.HostSummary != nil {
		for _, s := range r.HostSummary.Warnings {
			w = append(w, "host timer: "+s)
		}
	}
	return w
}

// PerLaunch returns the samples' per-launch times in order.
func (r *Result) PerLaunch() []time.Duration {
	d := make([]time.Duration, len(r.Samples))
	for i, s := range r.Samples {
		d[i] = s.PerLaunch
	}
	return d
}

// Short reports whether the run stopped on its time budget with fewer samples
// than its settings' minimum: what Settings.ShortUnvalidated leaves
// unvalidated.
func (r *Result) Short() bool {
	return r != nil && r.StopReason == StopMaxTime && len(r.Samples) < r.Settings.MinSamples
}

// A Window is a stretch of wall-clock time.
type Window struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// widen returns w (made when nil) widened to hold from..to.
func (w *Window) widen(from, to time.Time) *Window {
	from, to = from.UTC().Round(0), to.UTC().Round(0) // as JSON keeps them
	if w == nil {
		return &Window{From: from, To: to}
	}
	if from.Before(w.From) {
		w.From = from
	}
	if to.After(w.To) {
		w.To = to
	}
	return w
}

// Overlaps reports whether w and o share a moment (false when either is nil).
func (w *Window) Overlaps(o *Window) bool {
	return w != nil && o != nil && w.From.Before(o.To) && o.From.Before(w.To)
}
