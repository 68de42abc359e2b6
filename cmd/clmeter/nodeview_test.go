package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/peers"
	"github.com/clmeter/clmeter/results"
)

// TestNodeViewTwoPoCL runs a suite on two PoCL devices of one name
// (POCL_DEVICES="pthread pthread") with --fail-on-outlier: the node view
// follows the report at 80 columns with both devices in its key, and the
// exit status agrees with its summary (6 with a device named slow, else
// 0). Which device a loaded machine makes slower is not asserted.
func TestNodeViewTwoPoCL(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "two.json")
	cmd, stdout, stderr := clmChild(t, []string{"POCL_DEVICES=pthread pthread", "COLUMNS=80"},
		"suite", "launch", "--small", "--device", "all", "--no-profile", "-o", out, "--fail-on-outlier",
		"--samples", "8", "--min-sample-time", "1ms", "--warmup", "1x")
	cmd.Wait()
	code, text, errs := cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
	f, err := results.Read(out)
	if err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, errs)
	}
	if peers.Keys(f.Benchmarks) != 2 {
		t.Skipf("PoCL gave not two devices (%d keys): %s", peers.Keys(f.Benchmarks), errs)
	}
	i := strings.Index(text, "== node view: launch on 2 devices\n")
	if i < 0 {
		t.Fatalf("no node view (exit %d):\n%s\n%s", code, text, errs)
	}
	view := text[i:]
	for _, want := range []string{"BENCHMARK", "launch (µs)", "d0 = ", "index 0:0", "d1 = ", "index 0:1", "no UUID or PCI address recorded"} {
		if !strings.Contains(view, want) {
			t.Errorf("node view lacks %q:\n%s", want, view)
		}
	}
	for _, l := range strings.Split(view, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("line over 80 columns: %q", l)
		}
	}
	slow := strings.Contains(view, "\nslow: d")
	switch {
	case code == exitOutlier && slow && strings.Contains(errs, "slow: d"):
	case code == 0 && strings.Contains(view, "\nno outlier"):
	default:
		t.Errorf("exit %d, slow in the view %v, stderr %q:\n%s", code, slow, errs, view)
	}
}

// nodeFile writes a result file of one benchmark on three GPUs of one name
// told apart by UUID, the third slow taking 20% longer when slow is set.
func nodeFile(t *testing.T, slow bool) string {
	t.Helper()
	f := &results.File{Schema: results.SchemaName, Version: results.SchemaVersion, Host: results.HostInfo{Hostname: "n1"}}
	for d := range 3 {
		m := 100 * time.Microsecond
		if slow && d == 2 {
			m = 120 * time.Microsecond
		}
		per := make([]time.Duration, 12)
		samples := make([]measure.Sample, len(per))
		for i := range per {
			per[i] = m + time.Duration(i%4)*100*time.Nanosecond
			samples[i] = measure.Sample{PerLaunch: per[i], Launches: 1}
		}
		s := measure.Summarize(per, measure.StatsSettings{})
		dev := results.DeviceInfo{Name: "GPU X", Index: fmt.Sprintf("0:%d", d), UUID: fmt.Sprintf("%08x-0000-0000-0000-000000000000", d+1), Host: "n1"}
		dev.Key, dev.KeyFallback = results.DeviceKey(dev)
		f.Benchmarks = append(f.Benchmarks, results.Benchmark{Name: "streams/copy/float", Device: dev,
			Measurement: &measure.Result{Samples: samples, Summary: s, Throughput: measure.ComputeThroughput(measure.SetupInfo{BytesPerLaunch: 1 << 24}, s)}})
	}
	path := filepath.Join(t.TempDir(), "node.json")
	if err := results.WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportFailOnOutlier: 'report --fail-on-outlier' over a file of
// three GPUs, one 20% slow, exits with status 6 after printing the report
// and its node view; without the slow one it exits 0; a tolerance of 0 is
// a usage error.
func TestReportFailOnOutlier(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	slow, even := nodeFile(t, true), nodeFile(t, false)
	code, out, errs := clm(t, "report", "--fail-on-outlier", slow)
	if code != exitOutlier || !strings.Contains(out, "== node view: ") || !strings.Contains(out, "00000003]") || !strings.Contains(errs, "d2") {
		t.Errorf("slow: exit %d, want %d\n%s\n%s", code, exitOutlier, out, errs)
	}
	if code, out, errs = clm(t, "report", "--fail-on-outlier", "--outlier-tolerance", "25%", slow); code != 0 || !strings.Contains(out, "no outlier") {
		t.Errorf("tolerance 25%%: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs = clm(t, "report", "--fail-on-outlier", "--format", "csv", even); code != 0 || !strings.Contains(errs, "node view: no outlier") {
		t.Errorf("even: exit %d\n%s", code, errs)
	}
	if code, _, errs = clm(t, "report", "--outlier-tolerance", "0", slow); code != exitUsage || !strings.Contains(errs, "--outlier-tolerance") {
		t.Errorf("tolerance 0: exit %d\n%s", code, errs)
	}
}
