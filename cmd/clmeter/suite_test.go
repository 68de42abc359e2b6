package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
)

// suiteClm runs clmeter in-process and returns its exit status and output.
func suiteClm(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"clmeter"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

var suiteFast = []string{"--small", "--samples", "3", "--min-sample-time", "1ms", "--warmup", "1x", "--no-cache"}

func TestSuiteQuickWritesResults(t *testing.T) {
	needDevice(t)
	path := filepath.Join(t.TempDir(), "quick.json")
	code, out, errs := suiteClm(t, append([]string{"suite", "quick", "-o", path}, suiteFast...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	// The % PEAK column's header is shortened to %PK only where the table
	// would not fit otherwise, which depends on the figures' widths.
	if !strings.Contains(out, "% PEAK") && !strings.Contains(out, "%PK") {
		t.Errorf("report lacks the %% PEAK column:\n%s", out)
	}
	for _, want := range []string{"== quick on", "BENCHMARK", "peaks/bandwidth/stride/float4", "streams/triad/float", "launch/dispatch", "Summary:", "peak bandwidth", "peak fp32", "launch overhead", "program build"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	f, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benchmarks) < 10 {
		t.Fatalf("%d benchmarks in the file", len(f.Benchmarks))
	}
	for _, b := range f.Benchmarks {
		if b.Error != "" || b.Kind != "suite:quick" || b.Device.Name == "" {
			t.Errorf("%s: kind %q device %q error %q", b.Name, b.Kind, b.Device.Name, b.Error)
		}
	}
}

func TestSuiteLaunchJSON(t *testing.T) {
	needDevice(t)
	code, out, errs := suiteClm(t, append([]string{"suite", "launch", "--format", "json"}, suiteFast...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := results.Decode(strings.NewReader(out), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benchmarks) != 3 {
		t.Errorf("%d benchmarks, want 3", len(f.Benchmarks))
	}
}

func TestSuiteBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"suite", "nope"},
		{"suite", "quick", "--format", "xml"},
		{"suite", "quick", "--max-size", "lots"},
		{"suite", "quick", "peaks"},
	} {
		if code, _, _ := suiteClm(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
