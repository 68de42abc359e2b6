package runner

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/harness/harnesstest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// fakePlan is a run plan of fake kernels (one a per-launch time) on a fake
// device: what planRun makes, without OpenCL.
func fakePlan(t *testing.T, per ...time.Duration) (*runPlan, []*harnesstest.Bench) {
	t.Helper()
	clock := harnesstest.NewClock()
	dev := &harnesstest.Device{Name: "fake device"}
	plan := &runPlan{settings: harnesstest.Settings(clock), format: "table", noProfile: true,
		output: filepath.Join(t.TempDir(), "run.json")}
	var benches []*harnesstest.Bench
	for i, d := range per {
		b := &harnesstest.Bench{Clock: clock, PerLaunch: d, Overhead: time.Microsecond, RoundTrip: 50 * time.Microsecond}
		benches = append(benches, b)
		plan.items = append(plan.items, runItem{name: "fake", kind: "run", device: dev,
			params: []results.Param{{Name: "n", Value: string(rune('1' + i))}},
			bench:  func() (harness.Bench, error) { return b, nil }})
	}
	return plan, benches
}

func TestExecuteRunRecords(t *testing.T) {
	plan, _ := fakePlan(t, 10*time.Microsecond, 20*time.Microsecond)
	var out, errb bytes.Buffer
	if err := executeRun(context.Background(), plan, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	f, err := results.Read(plan.output)
	if err != nil || len(f.Benchmarks) != 2 {
		t.Fatalf("result file: %v, %d benchmarks", err, len(f.Benchmarks))
	}
	for i, want := range []time.Duration{10 * time.Microsecond, 20 * time.Microsecond} {
		b := f.Benchmarks[i]
		if b.Measurement.Summary.Median != want || b.Params["global"] != "1024" || b.Device.Name != "fake device" {
			t.Errorf("benchmark %d: median %v params %v device %q", i, b.Measurement.Summary.Median, b.Params, b.Device.Name)
		}
	}
	if s := out.String(); !strings.Contains(s, "fake") || !strings.Contains(s, "10") || strings.Contains(s, "launch modes") {
		t.Errorf("table:\n%s", s)
	}
}

func TestExecuteRunModes(t *testing.T) {
	plan, benches := fakePlan(t, 10*time.Microsecond)
	plan.syncEach, plan.noDataWarmup = true, true
	plan.settings.Timer = measure.TimerHost
	var out, errb bytes.Buffer
	if err := executeRun(context.Background(), plan, &out, &errb); err != nil {
		t.Fatal(err)
	}
	b := benches[0]
	if !b.Modes.SyncEach || !b.Modes.NoDataWarmup || b.Timer != measure.TimerHost {
		t.Errorf("modes %+v timer %q", b.Modes, b.Timer)
	}
	if s := out.String(); !strings.Contains(s, "launch modes: sync-each, no-data-warmup") || !strings.Contains(s, "timer host") {
		t.Errorf("table does not say how it measured:\n%s", s)
	}
}

func TestExecuteRunInvalid(t *testing.T) {
	plan, benches := fakePlan(t, 10*time.Microsecond, 10*time.Microsecond)
	benches[0].Invalid = "element 0 is 2, want 1"
	var out, errb bytes.Buffer
	err := executeRun(context.Background(), plan, &out, &errb)
	if fail.KindOf(err) != fail.Invalid || !strings.Contains(out.String(), "INVALID: element 0") {
		t.Errorf("err %v\n%s", err, out.String())
	}
	if f, _ := results.Read(plan.output); f == nil || len(f.Benchmarks) != 2 {
		t.Errorf("both benchmarks are kept")
	}
}

func TestExecuteRunInterrupted(t *testing.T) {
	plan, benches := fakePlan(t, 10*time.Microsecond, 10*time.Microsecond, 10*time.Microsecond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benches[1].OnLaunch = func(i int) {
		if i == 2 {
			cancel() // before its minimum of samples: the second is dropped
		}
	}
	var out, errb bytes.Buffer
	err := executeRun(ctx, plan, &out, &errb)
	if fail.KindOf(err) != fail.Interrupted || !strings.Contains(err.Error(), "interrupted after 1 of 3 benchmarks") {
		t.Fatalf("err %v", err)
	}
	f, rerr := results.Read(plan.output)
	if rerr != nil || len(f.Benchmarks) != 1 || benches[2].Launches != 0 {
		t.Errorf("kept %v, third launched %d times", rerr, benches[2].Launches)
	}
}

func TestExecuteRunMakeError(t *testing.T) {
	plan, _ := fakePlan(t, 10*time.Microsecond)
	plan.items[0].bench = func() (harness.Bench, error) { return nil, errors.New("kernel k takes 2 arguments") }
	var out, errb bytes.Buffer
	err := executeRun(context.Background(), plan, &out, &errb)
	if fail.KindOf(err) != fail.Usage || !strings.Contains(err.Error(), "takes 2 arguments") {
		t.Errorf("err %v", err)
	}
}

func TestComparePlans(t *testing.T) {
	pa, ba := fakePlan(t, 10*time.Microsecond)
	pb, bb := fakePlan(t, 30*time.Microsecond)
	bb[0].Clock = ba[0].Clock
	pa.syncEach, pb.syncEach = true, true
	var out, errb bytes.Buffer
	err := comparePlans(context.Background(), pa, pb, CompareOptions{Format: "table", Alpha: 0.05, Threshold: 0.05}, &out, &errb)
	if fail.KindOf(err) != fail.Regression {
		t.Errorf("B three times slower: err %v, want a regression\n%s", err, out.String())
	}
	if !ba[0].Modes.SyncEach || !bb[0].Modes.SyncEach {
		t.Errorf("--sync-each not passed on: A %+v B %+v", ba[0].Modes, bb[0].Modes)
	}
	f, rerr := results.Read(pa.output)
	if rerr != nil || len(f.Benchmarks) != 2 || f.Benchmarks[0].Kind != "compare:interleaved" || f.Benchmarks[1].Extra[harness.ExtraModes] != "sync-each" {
		t.Fatalf("result file: %v %+v", rerr, f)
	}
	if !strings.Contains(out.String(), "slower") {
		t.Errorf("table:\n%s", out.String())
	}
}
