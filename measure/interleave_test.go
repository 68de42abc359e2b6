package measure

import (
	"context"
	"strings"
	"testing"
	"time"
)

// pair returns two fake benchmarks on one clock, with a log of which one
// launched, in order.
func pair(perA, perB func(int) time.Duration) (*fakeBench, *fakeBench, Settings, *[]string) {
	c := newFakeClock()
	s := DefaultSettings()
	s.Clock = c
	log := &[]string{}
	a := &fakeBench{clock: c, perLaunch: perA, onLaunch: func(int) { *log = append(*log, "A") }}
	b := &fakeBench{clock: c, perLaunch: perB, onLaunch: func(int) { *log = append(*log, "B") }}
	return a, b, s, log
}

func TestInterleavedOrder(t *testing.T) {
	a, b, s, log := pair(constant(5*us), constant(50*us))
	s.Samples = 6
	ra, rb, err := RunInterleaved(context.Background(), a, b, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(ra.Samples) != 6 || len(rb.Samples) != 6 || ra.StopReason != StopSampleCount || rb.StopReason != StopSampleCount {
		t.Fatalf("samples %d+%d, stop %q %q", len(ra.Samples), len(rb.Samples), ra.StopReason, rb.StopReason)
	}
	// Launches before the samples: A cold, B cold, A warm-up, B warm-up.
	pre := 1 + 1 + ra.Warmup.Batches + rb.Warmup.Batches
	got := strings.Join((*log)[pre:], "")
	if got != "ABBAABBAABBA" {
		t.Errorf("sample order %s, want ABBAABBAABBA", got)
	}
	if !strings.HasPrefix(strings.Join((*log)[:pre], ""), "AB") {
		t.Errorf("cold runs %v, want A then B", (*log)[:2])
	}
	if ra.Summary.Median != 5*us || rb.Summary.Median != 50*us {
		t.Errorf("medians %v %v", ra.Summary.Median, rb.Summary.Median)
	}
	checkSamplesLastAtLeast(t, ra, 20*time.Millisecond)
	checkSamplesLastAtLeast(t, rb, 20*time.Millisecond)
	if !a.torndown || !b.torndown {
		t.Error("not torn down")
	}
}

// TestInterleavedCancelsDrift: two identical kernels on a device that slows
// down over time look different run one after the other, and alike interleaved.
func TestInterleavedCancelsDrift(t *testing.T) {
	drifting := func(c *fakeClock) func(int) time.Duration {
		t0 := c.Now()
		return func(int) time.Duration {
			return time.Duration(float64(10*us) * (1 + 0.5*c.Now().Sub(t0).Seconds()))
		}
	}
	a, b, s, _ := pair(nil, nil)
	a.perLaunch, b.perLaunch = drifting(a.clock), drifting(a.clock)
	s.Samples = 20
	ra, rb, err := RunInterleaved(context.Background(), a, b, s)
	if err != nil {
		t.Fatal(err)
	}
	inter := float64(rb.Summary.Median) / float64(ra.Summary.Median)
	if inter < 0.98 || inter > 1.02 {
		t.Errorf("interleaved: B/A = %.3f, want within 2%% of 1", inter)
	}

	// The same, one after the other.
	a2, b2, s2, _ := pair(nil, nil)
	a2.perLaunch, b2.perLaunch = drifting(a2.clock), drifting(a2.clock)
	s2.Samples = 20
	r1, err := Run(context.Background(), a2, s2)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Run(context.Background(), b2, s2)
	if err != nil {
		t.Fatal(err)
	}
	seq := float64(r2.Summary.Median) / float64(r1.Summary.Median)
	if seq < 1.1 {
		t.Errorf("sequential: B/A = %.3f; the drift should show (test is too weak)", seq)
	}
	t.Logf("B/A interleaved %.3f, sequential %.3f", inter, seq)
}

func TestInterleavedNoiseTarget(t *testing.T) {
	a, b, s, _ := pair(jitter(5*us, 0.001, 1), jitter(7*us, 0.001, 2))
	ra, rb, err := RunInterleaved(context.Background(), a, b, s)
	if err != nil {
		t.Fatal(err)
	}
	if ra.StopReason != StopNoiseTarget || len(ra.Samples) != s.MinSamples || len(rb.Samples) != s.MinSamples {
		t.Errorf("stop %q after %d+%d samples, want noise-target after %d each", ra.StopReason, len(ra.Samples), len(rb.Samples), s.MinSamples)
	}

	// One noisy benchmark keeps both sampling until the budget runs out.
	a, b, s, _ = pair(jitter(5*us, 0.001, 1), jitter(7*us, 0.5, 2))
	s.MaxTime = time.Second
	ra, rb, err = RunInterleaved(context.Background(), a, b, s)
	if err != nil {
		t.Fatal(err)
	}
	if ra.StopReason != StopMaxTime || rb.StopReason != StopMaxTime || len(ra.Samples) < s.MinSamples {
		t.Errorf("stop %q %q after %d+%d samples, want max-time", ra.StopReason, rb.StopReason, len(ra.Samples), len(rb.Samples))
	}
	if d := len(ra.Samples) - len(rb.Samples); d < -1 || d > 1 {
		t.Errorf("unbalanced: %d and %d samples", len(ra.Samples), len(rb.Samples))
	}
	if ra.Elapsed < 2*time.Second || ra.Elapsed > 2*time.Second+200*time.Millisecond {
		t.Errorf("elapsed %v, want just over 2s (two benchmarks' budgets)", ra.Elapsed)
	}
}

func TestInterleavedFailure(t *testing.T) {
	a, b, s, _ := pair(constant(5*us), constant(5*us))
	b.failAt = 5
	s.Samples = 10
	ra, rb, err := RunInterleaved(context.Background(), a, b, s)
	if err == nil || !strings.HasPrefix(err.Error(), "B: ") || !strings.Contains(err.Error(), "CL_OUT_OF_RESOURCES") {
		t.Fatalf("err = %v", err)
	}
	if ra == nil || rb == nil || ra.StopReason != StopError || rb.StopReason != StopError {
		t.Fatalf("results %v %v", ra, rb)
	}
	if !a.torndown || !b.torndown {
		t.Error("not torn down after a failure")
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, b, s, _ = pair(constant(5*us), constant(5*us))
	a.onLaunch = func(i int) {
		if i == 6 {
			cancel()
		}
	}
	ra, _, err = RunInterleaved(ctx, a, b, s)
	if err != context.Canceled || ra.StopReason != StopCanceled {
		t.Errorf("canceled: err %v stop %q", err, ra.StopReason)
	}
	if _, _, err := RunInterleaved(context.Background(), a, b, Settings{Cold: true}); err == nil {
		t.Error("cold-cache mode accepted")
	}
}
