package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportCommand(t *testing.T) {
	code, out, errs := clm(t, "report", "../../results/testdata/pocl.json", "../../results/testdata/h200.json")
	if code != 0 || !strings.Contains(out, "geomean") || !strings.Contains(out, "NVIDIA H200") || !strings.Contains(out, "@gpu-7") || errs != "" {
		t.Errorf("report: %d\n%s\n%s", code, out, errs)
	}
	for _, f := range []string{"markdown", "csv", "json", "benchfmt"} {
		code, out, _ = clm(t, "report", "--format", f, "../../results/testdata/pocl.json")
		if code != 0 || len(out) == 0 {
			t.Errorf("--format %s: %d", f, code)
		}
	}
	html := filepath.Join(t.TempDir(), "r.html")
	code, _, errs = clm(t, "report", "--format", "html", "-o", html, "../../results/testdata/pocl.json")
	if b, err := os.ReadFile(html); code != 0 || err != nil || !strings.Contains(string(b), "<svg") || !strings.Contains(errs, "wrote") {
		t.Errorf("html: %d %v %s", code, err, errs)
	}

	// A bad file among good ones: the good ones are reported, one line per bad
	// file on stderr, exit status 1.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"schema":"clmeter-result","version":9}`), 0o644)
	code, out, errs = clm(t, "report", "--format", "json", "../../results/testdata/pocl.json", bad, "missing.json")
	var r struct {
		Benchmarks []any `json:"benchmarks"`
	}
	if code != exitError || json.Unmarshal([]byte(out), &r) != nil || len(r.Benchmarks) != 4 {
		t.Errorf("bad file: %d\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "bad.json: unsupported result schema version 9") ||
		!strings.Contains(lines[1], "missing.json") || !strings.Contains(lines[2], "2 of 3 result files") {
		t.Errorf("stderr:\n%s", errs)
	}
	code, _, errs = clm(t, "report", bad)
	if code != exitUsage || !strings.Contains(errs, "bad.json: unsupported result schema version 9") || strings.Count(errs, "\n") != 1 {
		t.Errorf("only bad: %d %s", code, errs)
	}
	code, _, _ = clm(t, "report")
	if code != exitUsage {
		t.Errorf("no files: %d", code)
	}
	code, _, _ = clm(t, "report", "--format", "pdf", "x.json")
	if code != exitUsage {
		t.Errorf("bad format: %d", code)
	}
}
