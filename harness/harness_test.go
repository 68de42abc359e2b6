package harness_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/harness/harnesstest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// item is a fake kernel on a fake device.
func item(b *harnesstest.Bench, dev *harnesstest.Device) harness.Item {
	return harness.Item{
		Name: "fake", Kind: "run", Device: dev, Settings: harnesstest.Settings(b.Clock), RecordSizes: true,
		Params: []results.Param{{Name: "n", Value: "1024"}},
		Make:   func() (harness.Bench, error) { return b, nil },
	}
}

func newBench() *harnesstest.Bench {
	return &harnesstest.Bench{Clock: harnesstest.NewClock(), PerLaunch: 10 * time.Microsecond, Overhead: 5 * time.Microsecond, RoundTrip: 20 * time.Microsecond}
}

func TestMeasureRecords(t *testing.T) {
	b := newBench()
	rec, err := harness.Measure(context.Background(), item(b, &harnesstest.Device{Name: "d"}))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.HasFigure() || rec.Name != "fake" || rec.Kind != "run" || rec.Device.Name != "d" {
		t.Fatalf("record %+v", rec)
	}
	if got := rec.Measurement.Summary.Median; got != 10*time.Microsecond {
		t.Errorf("median %v, want the device's 10µs", got)
	}
	if rec.Params["global"] != "1024" || rec.Params["local"] != "64" || rec.Params["n"] != "1024" {
		t.Errorf("params %v", rec.Params)
	}
	if rec.Program == nil || rec.Program.Source != "fake.cl" {
		t.Errorf("program %+v", rec.Program)
	}
	if rec.Measurement.Phases == nil {
		t.Error("no phases by default")
	}
	if _, ok := rec.Extra[harness.ExtraModes]; ok {
		t.Errorf("default modes noted: %v", rec.Extra)
	}
}

func TestMeasureModes(t *testing.T) {
	b := newBench()
	it := item(b, &harnesstest.Device{})
	it.Modes = harness.Modes{SyncEach: true, NoDataWarmup: true, NoPhases: true}
	it.Settings.Timer = measure.TimerHost
	rec, err := harness.Measure(context.Background(), it)
	if err != nil {
		t.Fatal(err)
	}
	if b.Modes != it.Modes || b.Timer != measure.TimerHost {
		t.Fatalf("bench got modes %+v timer %q", b.Modes, b.Timer)
	}
	m := rec.Measurement
	if m.Timer != measure.TimerHost || m.Settings.Timer != measure.TimerHost {
		t.Errorf("timer %q, settings %q: want host", m.Timer, m.Settings.Timer)
	}
	// sync-each: every launch is a round trip on the host clock.
	if m.Summary.Median < 30*time.Microsecond {
		t.Errorf("median %v: want at least the 30µs round trip", m.Summary.Median)
	}
	if m.Phases != nil || m.Upload != 0 {
		t.Errorf("phases %v upload %v: want none", m.Phases, m.Upload)
	}
	if got := rec.Extra[harness.ExtraModes]; got != "sync-each, no-data-warmup" {
		t.Errorf("modes noted %q", got)
	}
}

func TestMeasureTimerOverride(t *testing.T) {
	b := newBench()
	it := item(b, &harnesstest.Device{})
	it.Timer = measure.TimerHost
	rec, _ := harness.Measure(context.Background(), it)
	if b.Timer != measure.TimerHost || rec.Measurement.Timer != measure.TimerHost {
		t.Errorf("item timer not used: bench %q record %q", b.Timer, rec.Measurement.Timer)
	}
}

func TestMeasureMakeError(t *testing.T) {
	it := item(newBench(), &harnesstest.Device{})
	it.Make = func() (harness.Bench, error) { return nil, errors.New("build failed") }
	rec, err := harness.Measure(context.Background(), it)
	var me *harness.MakeError
	if !errors.As(err, &me) || rec.Error != "build failed" || rec.Measurement != nil || rec.Name != "fake" {
		t.Fatalf("err %v record %+v", err, rec)
	}
}

func TestMeasureInvalid(t *testing.T) {
	b := newBench()
	b.Invalid = "element 3 is 2, want 1"
	it := item(b, &harnesstest.Device{})
	rec, err := harness.Measure(context.Background(), it)
	if err != nil || rec.Error != "" || rec.Measurement.Valid == nil || *rec.Measurement.Valid {
		t.Fatalf("err %v, error %q, valid %v", err, rec.Error, rec.Measurement.Valid)
	}
	it.FailInvalid = true
	rec, _ = harness.Measure(context.Background(), it)
	if !strings.HasPrefix(rec.Error, "validation failed: element 3") {
		t.Errorf("FailInvalid: error %q", rec.Error)
	}
}

func TestMeasureCanceled(t *testing.T) {
	for _, tc := range []struct {
		at      int
		figures bool
	}{{2, false}, {12, true}} {
		ctx, cancel := context.WithCancel(context.Background())
		b := newBench()
		b.OnLaunch = func(i int) {
			if i == tc.at {
				cancel()
			}
		}
		it := item(b, &harnesstest.Device{})
		it.Settings.Samples = 100 // only the cancel stops it
		rec, err := harness.Measure(ctx, it)
		if !errors.Is(err, context.Canceled) || !harness.Stops(err) {
			t.Fatalf("cancel at %d: err %v", tc.at, err)
		}
		if rec.HasFigure() != tc.figures {
			t.Errorf("cancel at %d: figures %v (samples %d, error %q), want %v", tc.at, rec.HasFigure(), len(rec.Measurement.Samples), rec.Error, tc.figures)
		}
		cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rec, err := harness.Measure(ctx, item(newBench(), &harnesstest.Device{})); !errors.Is(err, context.Canceled) || rec.Name != "" {
		t.Errorf("canceled before: %v %+v", err, rec)
	}
}

func TestMeasureAbandoned(t *testing.T) {
	b := newBench()
	b.Block = make(chan struct{})
	defer close(b.Block)
	dev := &harnesstest.Device{}
	it := item(b, dev)
	it.Settings.KernelTimeout = 20 * time.Millisecond
	rec, err := harness.Measure(context.Background(), it)
	if !errors.Is(err, measure.ErrAbandoned) || !harness.Stops(err) {
		t.Fatalf("err %v", err)
	}
	if !dev.Busy() || !b.Abandoned || rec.Error == "" || rec.HasFigure() {
		t.Errorf("busy %v abandoned %v error %q", dev.Busy(), b.Abandoned, rec.Error)
	}
}

// TestMeasureAbandonedInSetup: Ctrl-C while the benchmark is still being set
// up (a build in the driver) abandons it after the grace period, and the
// record is made without reading the benchmark, which the abandoned set-up
// still writes (under -race, a read here is a data race: TestSignalStorm
// found one in the program record).
func TestMeasureAbandonedInSetup(t *testing.T) {
	b := newBench()
	b.SetupDelay = 300 * time.Millisecond
	dev := &harnesstest.Device{}
	it := item(b, dev)
	it.Settings.Grace = 5 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(20*time.Millisecond, cancel)
	rec, err := harness.Measure(ctx, it)
	if !errors.Is(err, measure.ErrAbandoned) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the set-up abandoned after the cancel", err)
	}
	if !dev.Busy() || rec.Program != nil || rec.Error == "" || rec.HasFigure() {
		t.Errorf("busy %v program %v error %q figure %v", dev.Busy(), rec.Program, rec.Error, rec.HasFigure())
	}
	time.Sleep(2 * b.SetupDelay) // the abandoned set-up ends, writing its record
}

func TestMeasurePair(t *testing.T) {
	ba, bb := newBench(), newBench()
	bb.Clock = ba.Clock
	bb.PerLaunch = 20 * time.Microsecond
	dev := &harnesstest.Device{Name: "d"}
	a, b := item(ba, dev), item(bb, dev)
	b.Name = "fake2"
	b.Modes.SyncEach = true
	ra, rb, err := harness.MeasurePair(context.Background(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	if ra.Name != "fake" || rb.Name != "fake2" || !ra.HasFigure() || !rb.HasFigure() {
		t.Fatalf("records %+v %+v", ra, rb)
	}
	if ba.Modes.SyncEach || !bb.Modes.SyncEach || rb.Extra[harness.ExtraModes] != "sync-each" {
		t.Errorf("each item's own modes: A %+v B %+v", ba.Modes, bb.Modes)
	}
	if ra.Measurement.Summary.Median >= rb.Measurement.Summary.Median {
		t.Errorf("A %v not faster than B %v", ra.Measurement.Summary.Median, rb.Measurement.Summary.Median)
	}
	b.Make = func() (harness.Bench, error) { return nil, errors.New("no kernel k") }
	_, _, err = harness.MeasurePair(context.Background(), a, b)
	var me *harness.MakeError
	if !errors.As(err, &me) || err.Error() != "B: no kernel k" {
		t.Errorf("make error %v", err)
	}
}

func TestMeasureBase(t *testing.T) {
	base := results.Benchmark{Name: "suite/x", Kind: "suite:fake", Extra: map[string]any{"peak": "bandwidth"}}
	base.SetParam("type", "float")
	it := item(newBench(), &harnesstest.Device{})
	it.Base = &base
	rec, err := harness.Measure(context.Background(), it)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name != "suite/x" || rec.Kind != "suite:fake" || rec.Extra["peak"] != "bandwidth" || rec.Params["type"] != "float" || rec.Params["global"] != "1024" {
		t.Errorf("record %+v does not start from its base", rec)
	}
	rec.Extra["more"] = 1
	if _, ok := base.Params["global"]; ok || len(base.ParamOrder) != 1 || len(base.Extra) != 1 {
		t.Errorf("the base itself changed: %v %v", base.Params, base.ParamOrder)
	}
}
