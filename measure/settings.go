package measure

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clmeter/clmeter/internal/drvthread"
)

// Defaults of Settings; DefaultSettings returns them.
const (
	// DefaultMinSampleTime: a sample shorter than this is swamped by timer
	// resolution (1 us on some drivers) and launch overhead (~10 us a launch).
	DefaultMinSampleTime = 20 * time.Millisecond
	// DefaultMinSamples is the fewest samples a statistic is computed from.
	DefaultMinSamples = 10
	// DefaultMaxNoise is the noise target: the relative half-width of the 95%
	// confidence interval of the median (0.01 = ±1%).
	DefaultMaxNoise = 0.01
	// DefaultMaxTime is the time budget of one benchmark (warm-up and samples).
	DefaultMaxTime = 10 * time.Second
	// DefaultMaxLaunches caps the launches of one batch: a million launches last
	// 20 ms even at 20 ns a launch, below any real launch overhead; the cap only
	// stops a timer that reports zero from asking for billions of launches.
	DefaultMaxLaunches = 1_000_000
)

// Timer says which timer the figures of a Result come from.
type Timer string

const (
	// TimerDevice uses Batch.Device (event profiling). When the benchmark reports
	// no device time, the engine falls back to the host timer with a warning.
	TimerDevice Timer = "device"
	// TimerHost uses Batch.Host (enqueue to finish, on the host's monotonic clock).
	TimerHost Timer = "host"
	// TimerBoth uses the device timer for the figures and summarises the host
	// timer beside it (Result.HostSummary).
	TimerBoth Timer = "both"
)

// ParseTimer parses "device", "host" or "both" (case-insensitive).
func ParseTimer(s string) (Timer, error) {
	switch t := Timer(strings.ToLower(strings.TrimSpace(s))); t {
	case TimerDevice, TimerHost, TimerBoth:
		return t, nil
	}
	return "", fmt.Errorf("--timer: want device, host or both, got %q", s)
}

// Warmup is how much to launch before the first sample: a duration or a count
// of launches. The zero Warmup is the default: launches in growing batches until
// one batch lasts at least Settings.MinSampleTime (which also calibrates the
// batch size). Count 0 with Set true means no warm-up.
type Warmup struct {
	// Duration, when positive, warms up for at least that long (by Settings.Clock).
	Duration time.Duration
	// Count, when Set and Duration is zero, warms up with exactly Count launches.
	Count int
	// Set is false for the default warm-up.
	Set bool
}

// WarmupFor returns a warm-up of at least d; WarmupCount one of exactly n launches.
func WarmupFor(d time.Duration) Warmup { return Warmup{Duration: d, Set: true} }

// WarmupCount returns a warm-up of exactly n launches.
func WarmupCount(n int) Warmup { return Warmup{Count: n, Set: true} }

// IsDefault reports whether w is the default warm-up.
func (w Warmup) IsDefault() bool { return !w.Set }

// String renders w the way ParseWarmup reads it: "200ms", "3x" or "auto".
func (w Warmup) String() string {
	switch {
	case !w.Set:
		return "auto"
	case w.Duration > 0:
		return w.Duration.String()
	default:
		return strconv.Itoa(w.Count) + "x"
	}
}

// MarshalText encodes w as its String.
func (w Warmup) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// UnmarshalText decodes what MarshalText wrote.
func (w *Warmup) UnmarshalText(b []byte) error {
	v, err := ParseWarmup(string(b))
	if err != nil {
		return err
	}
	*w = v
	return nil
}

// The bounds of a warm-up (Settings.Validate): a warm-up brings clocks,
// caches and the driver to a steady state, which takes seconds, not hours.
// More is a typo (an extra few digits), not a plan.
const (
	// MaxWarmupLaunches is the most launches of a warm-up given as a count.
	MaxWarmupLaunches = 1_000_000
	// MaxWarmupTime is the longest warm-up given as a duration.
	MaxWarmupTime = time.Hour
)

// check refuses a negative warm-up and one beyond MaxWarmupLaunches or
// MaxWarmupTime.
func (w Warmup) check() error {
	switch {
	case w.Count < 0 || w.Duration < 0:
		return fmt.Errorf("--warmup: want a duration >= 0 or a count >= 0, got %s", w)
	case w.Count > MaxWarmupLaunches:
		return fmt.Errorf("--warmup %s is more than %d launches: a warm-up needs a few (3x) or a time (200ms)", w, MaxWarmupLaunches)
	case w.Duration > MaxWarmupTime:
		return fmt.Errorf("--warmup %s is longer than %s: a warm-up needs seconds at most (200ms, 2s)", w, MaxWarmupTime)
	}
	return nil
}

// ParseWarmup parses a warm-up flag: a duration like "200ms", a count like "3x",
// or "auto" / "" for the default.
func ParseWarmup(s string) (Warmup, error) {
	t := strings.TrimSpace(s)
	if t == "" || t == "auto" {
		return Warmup{}, nil
	}
	if strings.HasSuffix(t, "x") {
		n, err := ParseCount(t)
		if err != nil {
			return Warmup{}, fmt.Errorf("--warmup: want a duration like 200ms or a count like 3x, got %q", s)
		}
		return WarmupCount(n), nil
	}
	d, err := time.ParseDuration(t)
	if err != nil || d < 0 {
		return Warmup{}, fmt.Errorf("--warmup: want a duration like 200ms or a count like 3x, got %q", s)
	}
	if d == 0 {
		return WarmupCount(0), nil
	}
	return WarmupFor(d), nil
}

// ParseCount parses a count with an optional "x" suffix ("3x" or "3") into a
// non-negative int.
func ParseCount(s string) (int, error) {
	t := strings.TrimSuffix(strings.TrimSpace(s), "x")
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a count like 3x, got %q", s)
	}
	return n, nil
}

// Progress is what the engine reports after each sample, for a progress line.
type Progress struct {
	// Stage is "warmup", "samples" or "phases".
	Stage string
	// Samples is how many samples are finished.
	Samples int
	// Noise is the current relative half-width of the 95% CI of the median, zero
	// while it cannot be computed; Target is Settings.MaxNoise.
	Noise, Target float64
	// Elapsed is the time spent since the budget started (after the cold run).
	Elapsed time.Duration
}

// Settings control Run. The zero value of a field means its default, so
// Settings{} behaves like DefaultSettings().
type Settings struct {
	// Warmup is the warm-up before the samples (default: one batch of at least
	// MinSampleTime).
	Warmup Warmup `json:"warmup"`
	// MinSampleTime is the shortest batch that counts as a sample (default 20ms).
	// Ignored in Cold mode, where a sample is one launch.
	MinSampleTime time.Duration `json:"min_sample_time_ns"`
	// MinSamples is the fewest samples before the noise rule may stop (default 10).
	MinSamples int `json:"min_samples"`
	// MaxNoise is the noise target: the relative half-width of the 95% CI of the
	// median (default 0.01).
	MaxNoise float64 `json:"max_noise"`
	// MaxTime is the time budget, by Clock, for warm-up and samples (default 10s).
	// It starts after the cold run and overrides MinSamples (a run that stops on
	// it with fewer samples carries a warning). It does not limit Samples, nor
	// cut short a Warmup given as a duration.
	MaxTime time.Duration `json:"max_time_ns"`
	// Samples, when positive, takes exactly that many samples; the noise target
	// and MaxTime do not stop it.
	Samples int `json:"samples"`
	// Timer picks the timer (default TimerDevice).
	Timer Timer `json:"timer"`
	// Cold selects cold-cache mode: Flusher.Flush before every launch (never
	// inside a timed span), and each sample is exactly one launch.
	Cold bool `json:"cold"`
	// MaxLaunches caps the launches of one batch (default DefaultMaxLaunches).
	MaxLaunches int `json:"max_launches"`
	// KernelTimeout bounds every call that waits for the device (Launch, Flush,
	// RunPhases, Validate): one still running after it is abandoned and Run
	// returns an error wrapping ErrKernelTimeout and ErrAbandoned. Zero: no bound.
	KernelTimeout time.Duration `json:"kernel_timeout_ns,omitempty"`
	// Grace is how long a call (Setup included) may go on after the context was
	// canceled before it is abandoned (default DefaultGrace).
	Grace time.Duration `json:"grace_ns,omitempty"`
	// Stats holds the thresholds of the statistics (default DefaultStatsSettings;
	// its MaxNoise and MinSamples are taken from the fields above).
	Stats StatsSettings `json:"stats"`
	// Clock measures the time budget; nil means the real clock.
	Clock Clock `json:"-"`
	// Progress, when not nil, is called after each warm-up batch and sample.
	Progress func(Progress) `json:"-"`
	// ShortUnvalidated leaves a run that stops on MaxTime with fewer than
	// MinSamples samples unvalidated (Valid nil, no validation launch): for
	// a caller that measures such a run again over less work and throws it
	// away (a suite's shrunk working set), where its launches are the longest.
	// Such a run also stops with no sample at all when its warm-up alone used
	// up MaxTime: its launch time is then Warmup.Duration / Warmup.Launches.
	ShortUnvalidated bool `json:"-"`
	// Thread is the driver thread of the device measured (its Home: every
	// call of the Run comes from it); nil runs the calls on a thread of the
	// Run's own.
	Thread *drvthread.Home `json:"-"`
}

// DefaultSettings returns the default Settings.
func DefaultSettings() Settings {
	return Settings{
		MinSampleTime: DefaultMinSampleTime,
		MinSamples:    DefaultMinSamples,
		MaxNoise:      DefaultMaxNoise,
		MaxTime:       DefaultMaxTime,
		Timer:         TimerDevice,
		MaxLaunches:   DefaultMaxLaunches,
		Stats:         DefaultStatsSettings(),
	}
}

// withDefaults fills zero fields with their defaults.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	if s.MinSampleTime <= 0 {
		s.MinSampleTime = d.MinSampleTime
	}
	if s.MinSamples <= 0 {
		s.MinSamples = d.MinSamples
	}
	if s.MaxNoise <= 0 {
		s.MaxNoise = d.MaxNoise
	}
	if s.MaxTime <= 0 {
		s.MaxTime = d.MaxTime
	}
	if s.Timer == "" {
		s.Timer = d.Timer
	}
	if s.MaxLaunches <= 0 {
		s.MaxLaunches = d.MaxLaunches
	}
	if s.Grace <= 0 {
		s.Grace = DefaultGrace
	}
	s.Stats = s.Stats.withDefaults()
	s.Stats.MaxNoise = s.MaxNoise
	s.Stats.MinSamples = s.MinSamples
	if s.Clock == nil {
		s.Clock = realClock{}
	}
	return s
}

// MaxSamplingTime bounds the least time that Samples fixed samples take
// (Samples x MinSampleTime): a day a benchmark. More is a typo (an extra few
// zeros), not a plan, and would run for days without a word.
const MaxSamplingTime = 24 * time.Hour

// SamplingTime is the least time Samples fixed samples take, Samples x
// MinSampleTime (default applied), saturating; zero without Samples or in Cold
// mode, where a sample is one launch of unknown length.
func (s Settings) SamplingTime() time.Duration {
	if s.Samples <= 0 || s.Cold {
		return 0
	}
	t := s.MinSampleTime
	if t <= 0 {
		t = DefaultMinSampleTime
	}
	if time.Duration(s.Samples) > math.MaxInt64/t {
		return math.MaxInt64
	}
	return time.Duration(s.Samples) * t
}

// SamplingNote says, when Samples fixed samples take longer than MaxTime (which
// does not stop them), how long they will take at least; "" otherwise.
func (s Settings) SamplingNote() string {
	max := s.MaxTime
	if max <= 0 {
		max = DefaultMaxTime
	}
	if t := s.SamplingTime(); t > max {
		return fmt.Sprintf("--samples %d takes at least %s a benchmark (%d x --min-sample-time %s), beyond --max-time %s, which does not stop it",
			s.Samples, longDuration(t), s.Samples, s.minSampleTime(), max)
	}
	return ""
}

func (s Settings) minSampleTime() time.Duration {
	if s.MinSampleTime <= 0 {
		return DefaultMinSampleTime
	}
	return s.MinSampleTime
}

// longDuration shortens d for a message: whole days and hours beyond a day,
// whole seconds beyond a minute.
func longDuration(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		days := d / (24 * time.Hour)
		return fmt.Sprintf("%dd%dh", days, (d-days*24*time.Hour)/time.Hour)
	case d >= time.Minute:
		return d.Round(time.Second).String()
	}
	return d.String()
}

// ValidateGiven is Validate for settings a user typed (flags, a file): a zero
// or negative duration or noise target is refused rather than taken as the
// default, and so is a count below one.
func (s Settings) ValidateGiven() error {
	var errs []error
	if s.MinSampleTime <= 0 {
		errs = append(errs, fmt.Errorf("--min-sample-time must be above zero, got %s (the default is %s)", s.MinSampleTime, DefaultMinSampleTime))
	}
	if s.MaxTime <= 0 {
		errs = append(errs, fmt.Errorf("--max-time must be above zero, got %s (the default is %s)", s.MaxTime, DefaultMaxTime))
	}
	if !(s.MaxNoise > 0) {
		errs = append(errs, fmt.Errorf("--max-noise must be above zero, got %g (0.01 is ±1%%, the default)", s.MaxNoise))
	}
	if s.MinSamples < 1 {
		errs = append(errs, fmt.Errorf("--min-samples must be at least 1, got %d", s.MinSamples))
	}
	if s.MaxLaunches < 1 {
		errs = append(errs, fmt.Errorf("--max-launches must be at least 1, got %d", s.MaxLaunches))
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return s.Validate()
}

// Validate reports settings that cannot work. It returns the first problem
// found, in one line.
func (s Settings) Validate() error {
	var errs []error
	if s.Samples < 0 {
		errs = append(errs, fmt.Errorf("--samples: want a count >= 0, got %d", s.Samples))
	}
	if s.MinSampleTime < 0 {
		errs = append(errs, fmt.Errorf("--min-sample-time must not be negative, got %s", s.MinSampleTime))
	}
	if s.MaxTime < 0 {
		errs = append(errs, fmt.Errorf("--max-time must not be negative, got %s", s.MaxTime))
	}
	if s.MaxNoise < 0 || math.IsNaN(s.MaxNoise) || math.IsInf(s.MaxNoise, 0) {
		errs = append(errs, fmt.Errorf("--max-noise must be a fraction above zero, got %g (0.01 is ±1%%)", s.MaxNoise))
	} else if s.MaxNoise >= 1 {
		errs = append(errs, fmt.Errorf("--max-noise %g is ±%.0f%% or more, no target at all: want a fraction below 1, such as 0.01 (±1%%)", s.MaxNoise, s.MaxNoise*100))
	}
	if s.MinSamples < 0 {
		errs = append(errs, fmt.Errorf("--min-samples must not be negative, got %d", s.MinSamples))
	}
	if t := s.SamplingTime(); t > MaxSamplingTime {
		errs = append(errs, fmt.Errorf("--samples %d of at least --min-sample-time %s each would take at least %s a benchmark, more than a day: lower --samples (or --min-sample-time)",
			s.Samples, s.minSampleTime(), longDuration(t)))
	}
	if err := s.Warmup.check(); err != nil {
		errs = append(errs, err)
	}
	if s.KernelTimeout < 0 {
		errs = append(errs, fmt.Errorf("--kernel-timeout: want a duration >= 0, got %s", s.KernelTimeout))
	}
	if s.Timer != "" {
		if _, err := ParseTimer(string(s.Timer)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
