package main

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

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
