package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/compare"
)

func TestCompareCommand(t *testing.T) {
	pocl, h200 := "../../results/testdata/pocl.json", "../../results/testdata/h200.json"
	code, out, _ := clm(t, "compare", pocl, pocl, "--fail-on-regression", "5%")
	if code != 0 || !strings.Contains(out, "geomean") || !strings.Contains(out, "1.000") {
		t.Errorf("same files: %d\n%s", code, out)
	}
	// Different devices match nothing, unless the device is ignored; the
	// H200 is much faster, so nothing regresses.
	code, _, errs := clm(t, "compare", pocl, h200)
	if code != exitError || !strings.Contains(errs, "no benchmark is in both") {
		t.Errorf("no match: %d %s", code, errs)
	}
	code, out, _ = clm(t, "compare", "--ignore-device", "--fail-on-regression", "1%", pocl, h200)
	if code != 0 || strings.Count(out, " faster\n") != 3 {
		t.Errorf("ignore device: %d\n%s", code, out)
	}
	// The other way round everything is slower: exit status 5.
	code, out, errs = clm(t, "compare", "--ignore-device", "--format", "json", "--fail-on-regression", "5%", h200, pocl)
	var js compare.ComparisonJSON
	if code != exitRegression || json.Unmarshal([]byte(out), &js) != nil || len(js.Pairs) != 3 || !strings.Contains(errs, "3 regressions over 5%") {
		t.Errorf("regression: %d %s\n%s", code, errs, out)
	}
	code, _, _ = clm(t, "compare", "--fail-on-regression", "lots", pocl, pocl)
	if code != exitUsage {
		t.Errorf("bad threshold: %d", code)
	}
	code, _, _ = clm(t, "compare", pocl)
	if code != exitUsage {
		t.Errorf("one file: %d", code)
	}
}

func TestParsePercent(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "12.5%": 0.125, "0": 0} {
		if got, err := parsePercent(in); err != nil || got != want {
			t.Errorf("parsePercent(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "x%", "-1%"} {
		if _, err := parsePercent(in); err == nil {
			t.Errorf("parsePercent(%q) accepted", in)
		}
	}
}

func TestCompareInterleaved(t *testing.T) {
	needDevice(t)
	out := filepath.Join(t.TempDir(), "pair.json")
	code, stdout, errs := clm(t, append([]string{"compare", "--interleave", "copy", "triad", "--size", "64Ki", "-o", out, "--format", "json"}, fast...)...)
	var js compare.ComparisonJSON
	if code != 0 || json.Unmarshal([]byte(stdout), &js) != nil || len(js.Pairs) != 1 || js.Pairs[0].OldN != 3 || js.Pairs[0].NewN != 3 {
		t.Fatalf("interleave: %d %s\n%s", code, errs, stdout)
	}
	if !strings.Contains(js.Pairs[0].Name, "copy") || !strings.Contains(js.Pairs[0].Name, "-> triad") {
		t.Errorf("pair name %q", js.Pairs[0].Name)
	}
	f, err := results.Read(out)
	if err != nil || len(f.Benchmarks) != 2 || f.Benchmarks[0].Kind != "compare:interleaved" {
		t.Errorf("result file: %v", err)
	}
	code, _, errs = clm(t, "compare", "--interleave", "copy", "nosuchkernel")
	if code != exitUsage || !strings.Contains(errs, "nosuchkernel") {
		t.Errorf("unknown kernel: %d %s", code, errs)
	}
}
