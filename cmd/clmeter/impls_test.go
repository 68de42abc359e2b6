package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/impls"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// TestEveryImplementation runs the commands a new user tries, the documented
// examples and the interrupt test on every installed OpenCL implementation
// (PoCL, Rusticl on llvmpipe, Oclgrind), each in a child process named after it.
// Oclgrind is a simulator: it gets the smallest sizes.
func TestEveryImplementation(t *testing.T) {
	impls.Each(t, 25*time.Minute, func(t *testing.T, im impls.Impl) {
		platform := map[string]string{"pocl": "Portable Computing Language", "rusticl": "rusticl", "oclgrind": "Oclgrind"}[im.Name]
		t.Run("devices", func(t *testing.T) {
			code, out, errs := clm(t, "devices")
			if code != 0 || !strings.Contains(out, platform) || regexp.MustCompile(`\s0s\s`).MatchString(out) {
				t.Errorf("exit %d: %s %s", code, out, errs)
			}
		})
		t.Run("doctor", func(t *testing.T) {
			code, out, errs := clm(t, "doctor")
			want := "timer: device (event profiling); checked against the host clock"
			if im.Name == "rusticl" {
				want = "timer: host (device timer not used: the device timer reads"
			}
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("exit %d, want %q in:\n%s %s", code, want, out, errs)
			}
		})
		t.Run("run saxpy", func(t *testing.T) { runSaxpyOn(t, im) })
		t.Run("suite quick --small", func(t *testing.T) { suiteQuickOn(t, im) })
		t.Run("README examples", func(t *testing.T) { readmeExamplesOn(t, im) })
		t.Run("SIGINT 10s into suite quick", func(t *testing.T) { interruptSuiteOn(t, im) })
	})
}

// runSaxpyOn: `clmeter run saxpy --size 1Mi` gives sane figures; on Rusticl
// they come from the host timer, with a note.
func runSaxpyOn(t *testing.T, im impls.Impl) {
	size := "1Mi"
	if im.Slow {
		size = "16Ki"
	}
	out := filepath.Join(t.TempDir(), "saxpy.json")
	code, stdout, errs := clm(t, "run", "saxpy", "--size", size, "--max-time", "3s", "-o", out)
	t.Logf("run saxpy --size %s:\n%s", size, stdout)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := results.Read(out)
	if err != nil || len(f.Benchmarks) != 1 {
		t.Fatalf("result file: %v", err)
	}
	m := f.Benchmarks[0].Measurement
	if m.Summary.Min <= 0 || m.Summary.Median <= 0 || len(m.Samples) == 0 || m.Throughput == nil || m.Throughput.GBPerSecond <= 0 {
		t.Errorf("figures not sane: %+v", m.Summary)
	}
	// Batches are sized by the host clock's prediction (at most 4 x 20 ms);
	// on a busy machine a batch may run slower than predicted, but never for
	// seconds as when a timer that reads zero sized them.
	for i, s := range m.Samples {
		if s.PerLaunch <= 0 || time.Duration(s.Launches)*s.PerLaunch > 100*m.Settings.MinSampleTime+s.PerLaunch {
			t.Errorf("sample %d: %d launches of %v: a zero time, or a batch far past the host bound", i, s.Launches, s.PerLaunch)
		}
	}
	if m.Valid == nil || !*m.Valid {
		t.Errorf("validation: %v %s", m.Valid, m.ValidationError)
	}
	if im.Name == "rusticl" {
		if m.Timer != measure.TimerHost || m.TimerNote == "" || !strings.Contains(strings.Join(strings.Fields(stdout), " "), "timer host (device timer not used") {
			t.Errorf("timer %s, note %q: want the host timer with a note in the table", m.Timer, m.TimerNote)
		}
	} else if m.Timer != measure.TimerDevice || m.TimerCheck == nil || !m.TimerCheck.OK {
		t.Errorf("timer %s, check %+v: want the device timer, checked", m.Timer, m.TimerCheck)
	}
}

// suiteQuickOn: `clmeter suite quick --small` finishes with a valid result file,
// every benchmark measured, none invalid.
func suiteQuickOn(t *testing.T, im impls.Impl) {
	out := filepath.Join(t.TempDir(), "quick.json")
	start := time.Now()
	code, stdout, errs := clm(t, "suite", "quick", "--small", "-o", out)
	t.Logf("suite quick --small on %s (%s):\n%s", im.Label, time.Since(start).Round(time.Second), stdout)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := results.Read(out)
	if err != nil || len(f.Benchmarks) < 10 {
		t.Fatalf("result file: %d benchmarks, %v", len(f.Benchmarks), err)
	}
	for _, b := range f.Benchmarks {
		if b.Error != "" {
			t.Errorf("%s: %s", b.Name, b.Error)
		}
		if m := b.Measurement; m != nil && (m.Summary.Median <= 0 || (m.Timer == measure.TimerHost && m.TimerNote == "" && m.Settings.Timer != measure.TimerHost)) {
			t.Errorf("%s: median %v timer %s note %q", b.Name, m.Summary.Median, m.Timer, m.TimerNote)
		}
	}
	if !strings.Contains(stdout, "Summary:") {
		t.Error("no summary")
	}
	if im.Name == "rusticl" && !strings.Contains(strings.Join(strings.Fields(stdout), " "), "use the host timer: device timer not used") {
		t.Error("Rusticl: the table does not say that the host timer is used")
	}
}

// smallSpec copies a README spec file with its axis N replaced by n and its
// source made absolute.
func smallSpec(t *testing.T, path, n string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Dir(path))
	s := regexp.MustCompile(`(?m)^source: (.*)$`).ReplaceAllString(string(b), "source: "+abs+"/$1")
	s = regexp.MustCompile(`(?m)^  N: \[.*\]$`).ReplaceAllString(s, "  N: ["+n+"]")
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// readmeExamplesOn runs the documented examples of README.md and docs/COMMANDS.md (user kernel with includes, a
// spec file, compare --interleave, trace) at sizes the implementation can take.
func readmeExamplesOn(t *testing.T, im impls.Impl) {
	blur, stencilN, reduceN := "256", "256", "64Ki"
	if im.Slow {
		blur, stencilN, reduceN = "64", "64", "8Ki"
	}
	dir := t.TempDir()
	quick := []string{"--max-time", "1s", "--min-samples", "3"}
	for _, c := range [][]string{
		{"run", "../../examples/blur/blur.cl", "--kernel", "blur", "--global", blur + "," + blur, "--local", "16,16",
			"--arg", "buf:float:" + blur + "*" + blur + ":rand", "--arg", "buf:float:" + blur + "*" + blur + ":zero:out", "--arg", "int:" + blur,
			"--arg", "local:float:256", "-D", "TILE=16", "-I", "../../examples/blur/include", "--bytes", "2*" + blur + "*" + blur + "*4"},
		{"run", smallSpec(t, "../../examples/stencil/stencil.yaml", stencilN), "-o", filepath.Join(dir, "stencil.json")},
		{"compare", "--interleave", smallSpec(t, "../../examples/reduction/divergent.yaml", reduceN), smallSpec(t, "../../examples/reduction/nondivergent.yaml", reduceN)},
		{"trace", smallSpec(t, "../../examples/reduction/nondivergent.yaml", reduceN), "-o", filepath.Join(dir, "trace.json")},
	} {
		args := append(c, quick...)
		if c[0] == "trace" {
			args = c
		}
		code, out, errs := clm(t, args...)
		if code != 0 {
			t.Errorf("%s: exit %d:\n%s\n%s", strings.Join(c, " "), code, out, errs)
		}
	}
	if code, out, errs := clm(t, "report", filepath.Join(dir, "stencil.json")); code != 0 {
		t.Errorf("report: exit %d: %s %s", code, out, errs)
	}
}

// interruptSuiteOn sends SIGINT 10 s into `clmeter suite quick`: the process
// ends within 3 s with exit 130 and a valid result file holding what finished,
// also when the device is busy with a long launch at that moment (Oclgrind).
func interruptSuiteOn(t *testing.T, im impls.Impl) {
	out := filepath.Join(t.TempDir(), "quick.json")
	cmd := child("suite", "quick", "--max-memory", "256MiB", "-o", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	sent := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 30s after SIGINT; stderr:\n%s", stderr.String())
	}
	took := time.Since(sent)
	code := cmd.ProcessState.ExitCode()
	f, err := results.Read(out)
	t.Logf("%s: exit %d %s after SIGINT, %d benchmarks kept; stderr tail: %s", im.Label, code, took.Round(time.Millisecond), len(f.Benchmarks), tail(stderr.String(), 300))
	if code != exitInterrupted {
		t.Errorf("exit %d, want 130", code)
	}
	// Whether the device is busy at that moment depends on the machine's load
	// (on the simulator a full-size launch lasts minutes, but setup may still be
	// running); measure's and runtime's tests abandon a surely stuck device.
	if strings.Contains(stderr.String(), "its work was abandoned") {
		t.Logf("the device was busy: its work was abandoned")
	}
	if took > 3*time.Second {
		t.Errorf("ended %s after SIGINT, want within 3s", took)
	}
	if err != nil {
		t.Errorf("result file after SIGINT: %v", err)
	}
	for _, b := range f.Benchmarks {
		if b.Measurement != nil && len(b.Measurement.Samples) == 0 {
			t.Errorf("%s kept without samples", b.Name)
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
