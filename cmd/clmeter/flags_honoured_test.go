package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// modeFlags are the launch-mode flags every kernel-measuring command takes.
var modeFlags = []string{"--sync-each", "--timer", "host", "--no-data-warmup"}

// checkHonoured fails unless every benchmark of the result file at path
// (those of kind, when set) was measured as modeFlags ask: host timer, no
// device times (launched without events), the modes named in the record.
func checkHonoured(t *testing.T, path, kind string) {
	t.Helper()
	f, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range f.Benchmarks {
		m := b.Measurement
		if kind != "" && b.Kind != kind || m == nil || len(m.Samples) == 0 {
			continue
		}
		n++
		if m.Settings.Timer != measure.TimerHost || m.Timer != measure.TimerHost {
			t.Errorf("%s: timer asked %q, used %q: want host", b.Name, m.Settings.Timer, m.Timer)
		}
		if got := b.Extra[harness.ExtraModes]; got != "sync-each, no-data-warmup" {
			t.Errorf("%s: modes %q, want sync-each, no-data-warmup", b.Name, got)
		}
		if m.Upload != 0 {
			t.Errorf("%s: upload %v with --no-data-warmup", b.Name, m.Upload)
		}
		for _, s := range m.Samples {
			if s.Device != 0 {
				t.Errorf("%s: a sample has device time %v with --timer host", b.Name, s.Device)
				break
			}
		}
	}
	if n == 0 {
		t.Errorf("%s: no measured benchmark", path)
	}
}

func TestRunHonoursModes(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "run.json")
	args := append([]string{"run", "saxpy", "--size", "64Ki", "--no-profile", "-o", out}, append(fast, modeFlags...)...)
	code, stdout, errs := clm(t, args...)
	if code != 0 {
		t.Fatalf("run: %d %s\n%s", code, errs, stdout)
	}
	checkHonoured(t, out, "run")
	if !strings.Contains(stdout, "launch modes: sync-each, no-data-warmup") || !strings.Contains(stdout, "timer host") {
		t.Errorf("the run table does not say how it measured:\n%s", stdout)
	}
}

func TestCompareInterleavedHonoursModes(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "pair.json")
	args := append([]string{"compare", "--interleave", "copy", "triad", "--size", "64Ki", "-o", out}, append(fast, modeFlags...)...)
	code, stdout, errs := clm(t, args...)
	if code != 0 {
		t.Fatalf("compare --interleave: %d %s\n%s", code, errs, stdout)
	}
	checkHonoured(t, out, "compare:interleaved")
}

func TestCompareFilesRefusesMeasuringFlags(t *testing.T) {
	for _, flag := range [][]string{{"--sync-each"}, {"--timer", "host"}, {"--size", "1Mi"}, {"--samples", "3"}} {
		code, _, errs := clm(t, append([]string{"compare", "old.json", "new.json"}, flag...)...)
		if code != exitUsage || !strings.Contains(errs, flag[0]+" is for 'compare --interleave A B'") {
			t.Errorf("compare files %v: %d %s", flag, code, errs)
		}
	}
}

func TestTraceHonoursModes(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "trace.json")
	args := append([]string{"trace", "saxpy", "--size", "64Ki", "--samples", "2", "--min-sample-time", "2ms", "--warmup", "1x", "-o", out}, modeFlags...)
	code, stdout, errs := clm(t, args...)
	if code != 0 || !strings.Contains(stdout, "(timer host, sync-each, no-data-warmup)") {
		t.Fatalf("trace: %d %s\n%s", code, errs, stdout)
	}
	code, stdout, _ = clm(t, "trace", "saxpy", "--size", "64Ki", "--samples", "2", "--min-sample-time", "2ms", "--warmup", "1x", "-o", out)
	if code != 0 || strings.Contains(stdout, "timer host") || strings.Contains(stdout, "sync-each") {
		t.Errorf("trace without the flags: %d\n%s", code, stdout)
	}
	code, stdout, errs = clm(t, "trace", "saxpy", "--size", "64Ki", "--samples", "2", "--cold", "-o", out)
	if code != 0 || !strings.Contains(stdout, " launches traced") {
		t.Errorf("trace --cold: %d %s\n%s", code, errs, stdout)
	}
}

func TestTraceRefusesRunOnlyFlags(t *testing.T) {
	for _, flag := range []string{"--check", "--verbose", "--no-profile"} {
		code, _, errs := clm(t, "trace", "saxpy", "-o", filepath.Join(t.TempDir(), "t.json"), flag)
		if code != exitUsage || !strings.Contains(errs, flag+" is run's") {
			t.Errorf("trace %s: %d %s", flag, code, errs)
		}
	}
}

func TestTuneHonoursModes(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "tune.json")
	args := append([]string{"tune", "../../examples/matmul/tune.yaml", "--set", "N=32", "--set", "TILE=4,8", "--budget", "30s", "-o", out}, append(fast, modeFlags...)...)
	code, stdout, errs := clm(t, args...)
	if code != 0 {
		t.Fatalf("tune: %d %s\n%s", code, errs, stdout)
	}
	checkHonoured(t, out, "tune")
}

func TestSuiteHonoursSettings(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "suite.json")
	code, stdout, errs := clm(t, "suite", "launch", "--small", "--no-profile", "--samples", "4", "--min-sample-time", "3ms", "--warmup", "2x",
		"--kernel-timeout", "30s", "-o", out)
	if code != 0 {
		t.Fatalf("suite: %d %s\n%s", code, errs, stdout)
	}
	f, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range f.Benchmarks {
		m := b.Measurement
		if m == nil {
			continue
		}
		n++
		s := m.Settings
		if len(m.Samples) != 4 || s.Samples != 4 || s.MinSampleTime != 3*time.Millisecond || s.KernelTimeout != 30*time.Second || s.Warmup.Count != 2 {
			t.Errorf("%s: %d samples, settings %+v", b.Name, len(m.Samples), s)
		}
	}
	if n == 0 {
		t.Error("no measured benchmark")
	}
}
