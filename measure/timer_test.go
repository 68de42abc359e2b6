package measure

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCheckTimer(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name    string
		b       Batch
		k       int
		ok      bool
		problem string
	}{
		{"honest", Batch{Host: 21 * ms, Device: 20 * ms}, 1000, true, ""},
		{"honest single launch with overhead", Batch{Host: 90 * us, Device: 5 * us}, 1, true, ""},
		{"lazy driver: enqueues outside the device span", Batch{Host: 30 * ms, Device: 10 * ms, Enqueue: 19 * ms}, 1000, true, ""},
		{"zero", Batch{Host: 13 * ms}, 1, false, "reads zero"},
		{"nearly zero (Rusticl llvmpipe)", Batch{Host: 64 * ms, Device: 1, DeviceBusy: 1}, 1, false, "nearly zero"},
		{"backwards span", Batch{Host: 20 * ms, Device: -3 * ms}, 10, false, "backwards"},
		{"backwards launch", Batch{Host: 20 * ms, Device: 19 * ms, DeviceBusy: -1}, 10, false, "backwards"},
		{"too long", Batch{Host: 20 * ms, Device: 60 * ms}, 10, false, "longer than the batch"},
		{"too short", Batch{Host: 40 * ms, Device: 5 * ms}, 10, false, "more than launch overhead"},
	} {
		got := CheckTimer(c.b, c.k, time.Microsecond)
		if got.OK != c.ok || !strings.Contains(got.Problem, c.problem) || got.Launches != c.k || got.Host != c.b.Host {
			t.Errorf("%s: %+v, want ok=%v problem containing %q", c.name, got, c.ok, c.problem)
		}
	}
}

// checkHostBound fails when a batch after the cold run lasted over
// maxBatchFactor × MinSampleTime by the host clock (beyond one launch).
func checkHostBound(t *testing.T, f *fakeBench, s Settings, hostPerLaunch time.Duration) {
	t.Helper()
	for i, k := range f.calls[1:] {
		if host := time.Duration(k) * hostPerLaunch; host > maxBatchFactor*s.MinSampleTime+hostPerLaunch {
			t.Errorf("batch %d: %d launches last %v by the host clock, over %d x %v", i+1, k, host, maxBatchFactor, s.MinSampleTime)
		}
	}
}

// A device clock that reads 1 ns for a 13 ms launch (Rusticl on llvmpipe):
// the figures fall back to the host timer, and no batch is sized by the lie.
func TestLyingDeviceClockNearlyZero(t *testing.T) {
	f, s := newFake(constant(13 * time.Millisecond))
	f.lie = func(int, time.Duration) time.Duration { return 1 }
	r := mustRun(t, f, s)
	if r.Timer != TimerHost || !strings.Contains(r.TimerNote, "nearly zero") || r.TimerCheck == nil || r.TimerCheck.OK {
		t.Fatalf("timer %s, note %q, check %+v: want the host timer with a note", r.Timer, r.TimerNote, r.TimerCheck)
	}
	if !hasWarning(r.AllWarnings(), "device timer not used") {
		t.Errorf("warnings %v: want the fallback said", r.AllWarnings())
	}
	if r.Summary.Median != 13*time.Millisecond || r.Summary.Min <= 0 {
		t.Errorf("median %v min %v, want the host's 13ms", r.Summary.Median, r.Summary.Min)
	}
	checkHostBound(t, f, s, 13*time.Millisecond)
	if r.StopReason != StopNoiseTarget {
		t.Errorf("stop %s, want noise-target", r.StopReason)
	}
}

// The same lie with the default TimerBoth and with a count warm-up.
func TestLyingDeviceClockOtherSettings(t *testing.T) {
	for _, mod := range []func(*Settings){
		func(s *Settings) { s.Timer = TimerBoth },
		func(s *Settings) { s.Warmup = WarmupCount(1) },
		func(s *Settings) { s.Warmup = WarmupCount(0); s.Samples = 2; s.MaxLaunches = 2 },
		func(s *Settings) { s.Warmup = WarmupFor(300 * time.Millisecond) },
	} {
		f, s := newFake(constant(13 * time.Millisecond))
		f.lie = func(int, time.Duration) time.Duration { return 1 }
		mod(&s)
		r := mustRun(t, f, s)
		if r.Timer != TimerHost || r.TimerNote == "" || r.HostSummary != nil {
			t.Errorf("settings %+v: timer %s note %q", s, r.Timer, r.TimerNote)
		}
		for _, smp := range r.Samples {
			if smp.PerLaunch != 13*time.Millisecond {
				t.Errorf("settings %+v: sample %+v, want 13ms a launch", s, smp)
			}
		}
		checkHostBound(t, f, s, 13*time.Millisecond)
	}
}

func TestLyingDeviceClockKinds(t *testing.T) {
	for _, c := range []struct {
		name    string
		lie     func(int, time.Duration) time.Duration
		problem string
	}{
		{"zero after the cold run", func(i int, d time.Duration) time.Duration {
			if i == 0 {
				return d
			}
			return 0
		}, "reads zero"},
		{"backwards", func(i int, d time.Duration) time.Duration { return -d }, "backwards"},
		{"backwards after the cold run", func(i int, d time.Duration) time.Duration {
			if i == 0 {
				return d
			}
			return -d
		}, "backwards"},
		{"runs three times fast", func(i int, d time.Duration) time.Duration { return 3 * d }, "longer than"},
		{"runs ten times slow", func(i int, d time.Duration) time.Duration { return d / 10 }, "more than launch overhead"},
	} {
		f, s := newFake(constant(50 * us))
		f.lie = c.lie
		r := mustRun(t, f, s)
		if r.Timer != TimerHost || !strings.Contains(r.TimerNote, c.problem) {
			t.Errorf("%s: timer %s, note %q; want the host timer, %q", c.name, r.Timer, r.TimerNote, c.problem)
			continue
		}
		if r.Summary.Median != 50*us {
			t.Errorf("%s: median %v, want 50us by the host", c.name, r.Summary.Median)
		}
		checkHostBound(t, f, s, 50*us)
	}
}

// An honest device timer with launch overhead on the host, and one with a
// single hiccup on the host during warm-up, are trusted.
func TestHonestDeviceClockTrusted(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.overhead = 300 * us
	r := mustRun(t, f, s)
	if r.Timer != TimerDevice || r.TimerNote != "" || r.TimerCheck == nil || !r.TimerCheck.OK {
		t.Fatalf("timer %s note %q check %+v: want the device timer, checked", r.Timer, r.TimerNote, r.TimerCheck)
	}
	if r.TimerCheck.Host < s.MinSampleTime/2 {
		t.Errorf("checked on a batch of %v, want one of at least %v", r.TimerCheck.Host, s.MinSampleTime/2)
	}

	f, s = newFake(constant(5 * us))
	f.hostExtra = func(i int) time.Duration {
		if i == 3 { // the first batch long enough to check
			return 40 * time.Millisecond
		}
		return 0
	}
	r = mustRun(t, f, s)
	if r.Timer != TimerDevice || r.TimerNote != "" {
		t.Errorf("one host hiccup: timer %s note %q, want the device timer", r.Timer, r.TimerNote)
	}
}

// A slow device (each launch 3 s) is never asked for more than one launch a
// batch, whatever its timer says.
func TestSlowDeviceSmallBatches(t *testing.T) {
	f, s := newFake(constant(3 * time.Second))
	f.lie = func(int, time.Duration) time.Duration { return time.Microsecond }
	s.MaxTime = 20 * time.Second
	mustRun(t, f, s)
	for i, k := range f.calls {
		if k != 1 {
			t.Fatalf("batch %d has %d launches of 3s, want 1: calls %v", i, k, f.calls)
		}
	}
}

// A device that never finishes: cancelling abandons the wait after the grace
// period; what finished is kept and Teardown (which would wait too) is skipped.
func TestStuckDeviceAbandonedOnCancel(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.block = make(chan struct{})
	defer close(f.block)
	s.Grace = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	f.onLaunch = func(i int) {
		if i == 1 {
			cancel()
		}
	}
	r, err := Run(ctx, f, s)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrAbandoned) || !strings.Contains(err.Error(), "still busy") {
		t.Fatalf("err %v: want canceled and abandoned", err)
	}
	if r == nil || r.StopReason != StopCanceled || !r.Abandoned {
		t.Fatalf("result %+v: want the partial result, canceled, abandoned", r)
	}
	if f.torndown || f.abandoned != 1 {
		t.Errorf("torn down %v, Abandon called %d times: want no teardown, one Abandon", f.torndown, f.abandoned)
	}
}

func TestStuckDeviceKernelTimeout(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.block = make(chan struct{})
	defer close(f.block)
	s.KernelTimeout = 30 * time.Millisecond
	r, err := Run(context.Background(), f, s)
	if !errors.Is(err, ErrKernelTimeout) || !errors.Is(err, ErrAbandoned) || !strings.Contains(err.Error(), "--kernel-timeout 30ms") {
		t.Fatalf("err %v: want a kernel timeout", err)
	}
	if r == nil || r.StopReason != StopError || f.torndown || f.abandoned != 1 {
		t.Errorf("result %+v torn down %v abandoned %d", r, f.torndown, f.abandoned)
	}
}

// Interleaved runs judge each benchmark's timer on its own.
func TestInterleavedLyingClock(t *testing.T) {
	c := newFakeClock()
	s := DefaultSettings()
	s.Clock = c
	a := &fakeBench{clock: c, perLaunch: constant(2 * time.Millisecond), lie: func(int, time.Duration) time.Duration { return 1 }}
	b := &fakeBench{clock: c, perLaunch: constant(2 * time.Millisecond)}
	ra, rb, err := RunInterleaved(context.Background(), a, b, s)
	if err != nil {
		t.Fatal(err)
	}
	if ra.Timer != TimerHost || ra.TimerNote == "" || rb.Timer != TimerDevice || rb.TimerNote != "" {
		t.Errorf("A: %s %q; B: %s %q", ra.Timer, ra.TimerNote, rb.Timer, rb.TimerNote)
	}
	checkHostBound(t, a, s, 2*time.Millisecond)
}

// The kernel time-out is a call's, not the timed loop's: a loop of short
// batches that lasts many time-outs in all runs to its end.
func TestKernelTimeoutIsPerCall(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.onLaunch = func(int) { time.Sleep(3 * time.Millisecond) }
	s.KernelTimeout = 25 * time.Millisecond
	s.Samples = 40
	start := time.Now()
	r, err := Run(context.Background(), f, s)
	if err != nil || r.Abandoned || len(r.Samples) != 40 {
		t.Fatalf("err %v, abandoned %v, %d samples: want 40 samples", err, r != nil && r.Abandoned, len(r.Samples))
	}
	if took := time.Since(start); took < 4*s.KernelTimeout {
		t.Fatalf("the loop took %v: the test needs it to outlast the time-out several times", took)
	}
}

// A device that hangs in the middle of the samples is abandoned after the
// time-out; when it comes back later, the loop leaves the Result it gave up
// alone (the race detector checks it too).
func TestStuckMidSamplesLeavesResult(t *testing.T) {
	f, s := newFake(constant(5 * us))
	f.block = make(chan struct{})
	f.blockFrom, f.resume = 8, true
	s.Samples = 30
	s.KernelTimeout = 30 * time.Millisecond
	r, err := Run(context.Background(), f, s)
	if !errors.Is(err, ErrKernelTimeout) || !errors.Is(err, ErrAbandoned) {
		t.Fatalf("err %v: want a kernel timeout", err)
	}
	n := len(r.Samples)
	if n == 0 || !r.Abandoned || r.StopReason != StopError {
		t.Fatalf("%d samples, abandoned %v, stop %s: want the samples before the hang", n, r.Abandoned, r.StopReason)
	}
	before := r.Summary
	close(f.block) // the device comes back
	time.Sleep(20 * time.Millisecond)
	if len(r.Samples) != n || r.Summary.Median != before.Median {
		t.Fatalf("the abandoned loop changed the Result: %d samples, was %d", len(r.Samples), n)
	}
}
