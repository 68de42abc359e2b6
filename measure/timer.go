package measure

import (
	"fmt"
	"time"
)

// Limits of CheckTimer: how much of a batch's host time launch overhead may
// explain before the device timer is said to disagree with the host clock.
const (
	// TimerCheckBatchOverhead is what one batch's host span may hold beyond the
	// device span without the device doing anything: the first enqueue, the
	// submission, the finish and the wake-up of the waiting thread (tens of µs
	// on an idle machine; far more on a loaded one).
	TimerCheckBatchOverhead = time.Millisecond
	// TimerCheckLaunchOverhead is what each launch may add on the host beyond
	// the device span, for drivers that start the work only once it is all
	// enqueued (the enqueues then lie outside the device span).
	TimerCheckLaunchOverhead = 20 * time.Microsecond
)

// A TimerCheck is the device timer compared with the host clock on one batch
// that both timed. Durations encode in JSON as integer nanoseconds.
type TimerCheck struct {
	// Launches is the batch's size; Host and Device its times by each clock.
	Launches int           `json:"launches"`
	Host     time.Duration `json:"host_ns"`
	Device   time.Duration `json:"device_ns"`
	// OK is true when the device timer agreed with the host clock.
	OK bool `json:"ok"`
	// Problem says how the device timer disagreed ("" when OK).
	Problem string `json:"problem,omitempty"`
}

// CheckTimer compares batch b of k launches by the device timer with the same
// batch by the host clock. The device span (first START to last END) lies inside
// the host span (before the first enqueue to after the finish), so a device
// timer is not to be trusted when it:
//   - reads zero, or nearly (under a thousandth of the host span);
//   - runs backwards (b.Device or b.DeviceBusy negative: an END before a START);
//   - reads longer than the host span, beyond 10% and twice the resolution;
//   - reads under half the host span, when the difference is more than launch
//     overhead can explain: TimerCheckBatchOverhead plus the larger of the
//     batch's enqueue time (b.Enqueue) and k × TimerCheckLaunchOverhead.
//
// resolution is the device timer's resolution (zero when unknown).
func CheckTimer(b Batch, k int, resolution time.Duration) TimerCheck {
	c := TimerCheck{Launches: k, Host: b.Host, Device: b.Device}
	explained := TimerCheckBatchOverhead + max(b.Enqueue, time.Duration(k)*TimerCheckLaunchOverhead)
	switch {
	case b.Device < 0 || b.DeviceBusy < 0:
		c.Problem = fmt.Sprintf("the device timer runs backwards (a launch ended before it started) on a batch of %d launches the host timed at %s", k, fmtCheck(b.Host))
	case b.Device == 0:
		c.Problem = fmt.Sprintf("the device timer reads zero for a batch of %d launches the host timed at %s", k, fmtCheck(b.Host))
	case b.Device*1000 < b.Host:
		c.Problem = fmt.Sprintf("the device timer reads %s for a batch of %d launches the host timed at %s: it reads nearly zero", fmtCheck(b.Device), k, fmtCheck(b.Host))
	case b.Device > b.Host+b.Host/10+2*resolution:
		c.Problem = fmt.Sprintf("the device timer reads %s for a batch of %d launches the host timed at %s: longer than the batch can have lasted", fmtCheck(b.Device), k, fmtCheck(b.Host))
	case b.Device < b.Host/2 && b.Host-b.Device > explained:
		c.Problem = fmt.Sprintf("the device timer reads %s for a batch of %d launches the host timed at %s: more than launch overhead (%s) can explain", fmtCheck(b.Device), k, fmtCheck(b.Host), fmtCheck(explained))
	default:
		c.OK = true
	}
	return c
}

// fmtCheck writes a duration for a timer-check message; a zero is "0 ns" here,
// since saying that the timer read zero is the point.
func fmtCheck(d time.Duration) string {
	switch a := max(d, -d); {
	case a < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case a < time.Millisecond:
		return fmt.Sprintf("%.4g µs", float64(d)/1e3)
	case a < time.Second:
		return fmt.Sprintf("%.4g ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.4g s", d.Seconds())
}

// timerState is where the engine stands with the device timer.
type timerState int

const (
	timerUndecided timerState = iota
	timerTrusted
	timerFallback
)

// judge takes a non-cold batch of k launches into the verdict on the device
// timer while it is undecided, and returns the batch's time by the timer the
// figures use. A batch that reads zero or backwards decides at once; one that
// lasts at least half of MinSampleTime on the host is checked, and two failed
// checks (so that one hiccup on the host cannot) decide for the host timer;
// when a batch is about to become a sample (final) the first check decides.
func (e *engine) judge(b Batch, k int, final bool) time.Duration {
	if e.timer == timerUndecided {
		c := CheckTimer(b, k, e.info.TimerResolution)
		if tc, ok := e.b.(TimerChecker); ok {
			c = tc.CheckTimer(b, k)
		}
		hard := b.Device <= 0 || b.DeviceBusy < 0
		switch {
		case c.OK && (final || b.Host >= e.s.MinSampleTime/2):
			e.timer = timerTrusted
			e.r.TimerCheck = &c
		case !c.OK && (hard || final || e.disagreements >= 1):
			e.fallBack(c)
		case !c.OK && b.Host >= e.s.MinSampleTime/2:
			e.disagreements++
		}
	}
	return e.batchTime(b)
}

// fallBack switches the figures to the host timer after a failed check.
func (e *engine) fallBack(c TimerCheck) {
	e.timer, e.useHost, e.warnedNoDev = timerFallback, true, true
	e.r.Timer = TimerHost
	e.r.TimerCheck = &c
	e.r.TimerNote = "device timer not used: " + c.Problem
	e.r.Warnings = append(e.r.Warnings, "host timer: "+e.r.TimerNote)
}

// pickTimer sets the timer after the cold run: the host timer when asked for,
// or at once when the cold run has no usable device time; otherwise the device
// timer stays on trial until judge decides.
func (e *engine) pickTimer(cold Batch) {
	e.r.Timer = TimerDevice
	switch {
	case e.s.Timer == TimerHost:
		e.r.Timer, e.useHost, e.timer = TimerHost, true, timerTrusted
	case cold.Device == 0 && cold.DeviceBusy == 0:
		e.r.Timer, e.useHost, e.warnedNoDev, e.timer = TimerHost, true, true, timerFallback
		e.r.TimerNote = "device timer not used: it gave no times (profiling off?)"
		e.r.Warnings = append(e.r.Warnings, "the device timer gave no times (profiling off?): figures use the host timer")
	case cold.Device < 0 || cold.DeviceBusy < 0:
		e.fallBack(CheckTimer(cold, 1, e.info.TimerResolution))
	}
}

// hostCap is the most launches a batch may have so that, by the host clock's
// per-launch time in a batch of k launches that lasted host, it lasts no more
// than maxBatchFactor × MinSampleTime (see maxBatchFactor).
func (e *engine) hostCap(host time.Duration, k int) int {
	if host <= 0 || k <= 0 {
		return e.s.MaxLaunches
	}
	n := float64(maxBatchFactor*e.s.MinSampleTime) * float64(k) / float64(host)
	return int(max(1, min(n, float64(e.s.MaxLaunches))))
}

// maxBatchFactor bounds every batch by the host clock: no batch is made longer
// than this many times MinSampleTime by the host's prediction, so that neither a
// device timer that reads too little nor a slow device can ask for a batch that
// runs for minutes.
const maxBatchFactor = 4
