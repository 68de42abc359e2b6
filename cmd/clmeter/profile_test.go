package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
)

// run places each kernel on the device's roofline (a short profile is measured
// once into the tests' private profile folder): a stream is memory-bound, the
// empty kernel launch-bound; the result file carries the verdict and -v the
// kernel's resources and clocks.
func TestRunRoofline(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, errs := clm(t, append([]string{"run", "triad", "--size", "4Mi", "-v", "-o", out}, fast...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	for _, want := range []string{"BOUND", "memory-bound", "roofline: memory-bound: ", "intensity 0.167 FLOP/byte is below the ridge point", "resources: work-group limit", "clocks not observable"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run -v lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(errs, "device profile") {
		t.Errorf("stderr does not say which profile: %s", errs)
	}
	f, err := results.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	b := f.Benchmarks[0]
	if b.Roofline == nil || b.Roofline.Verdict != "memory-bound" || b.Roofline.BandwidthGBPerSecond <= 0 || b.Resources == nil || b.Clocks == nil {
		t.Fatalf("result: roofline %+v resources %+v clocks %+v", b.Roofline, b.Resources, b.Clocks)
	}
	// More samples than fast's 3: the verdict compares the median with the
	// profile's launch time, and a loaded machine (make test runs packages in
	// parallel) scatters three samples of a few µs.
	code, stdout, errs = clm(t, "run", "../../bench/empty.cl", "--kernel", "empty", "--global", "1", "--samples", "15", "--min-sample-time", "5ms", "--warmup", "3x")
	if code != 0 || !strings.Contains(stdout, "launch-bound") {
		t.Errorf("empty kernel: exit %d\n%s%s", code, stdout, errs)
	}
	// --no-profile with no stored profile: no roofline, and it says so.
	t.Setenv("CLMETER_PROFILE_DIR", t.TempDir())
	code, stdout, errs = clm(t, append([]string{"run", "copy", "--size", "64Ki", "--no-profile"}, fast...)...)
	if code != 0 || strings.Contains(stdout, "roofline:") || !strings.Contains(errs, "--no-profile") {
		t.Errorf("--no-profile: exit %d\n%s%s", code, stdout, errs)
	}
}

// suite peaks writes the device profile (measuring what it lacks) and prints
// it beside the theoretical figures.
func TestSuitePeaksWritesProfile(t *testing.T) {
	needDevice(t)
	t.Setenv("CLMETER_PROFILE_DIR", t.TempDir())
	code, stdout, errs := clm(t, "suite", "peaks", "--small", "--samples", "3", "--min-sample-time", "1ms", "--warmup", "1x")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	for _, want := range []string{"device profile of", "saved in", "global memory bandwidth", "pattern)", "float compute", "launch ", "an empty kernel, back to back", "pinned transfers"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("suite peaks lacks %q:\n%s", want, stdout)
		}
	}
}
