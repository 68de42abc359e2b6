package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/results"
)

// writeViewFile writes viewFile(n, slow) to a file of dir.
func writeViewFile(t *testing.T, dir, name string, n, slow int) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f := viewFile(n, slow)
	f.Schema, f.Version = results.SchemaName, results.SchemaVersion
	if err := results.WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportNodeView: 'report' over a file of several devices prints the
// node view after the report, in the report's format; over one device it
// prints none. --fail-on-outlier makes a flagged device an error of kind
// fail.Outlier once the report is written, and only then.
func TestReportNodeView(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	dir := t.TempDir()
	three, one := writeViewFile(t, dir, "three.json", 3, 1), writeViewFile(t, dir, "one.json", 1, 0)
	report := func(o ReportOptions) (string, string, error) {
		var out, errs bytes.Buffer
		err := Report(context.Background(), o, &out, &errs)
		return out.String(), errs.String(), err
	}
	out, errs, err := report(ReportOptions{Files: []string{three}, Format: "table"})
	if err != nil || !strings.Contains(out, "== node view: "+three+" on 3 devices") || !strings.Contains(out, "slow: d1") ||
		strings.Index(out, "geomean") > strings.Index(out, "node view") {
		t.Errorf("three devices: %v\n%s\n%s", err, out, errs)
	}
	out, errs, err = report(ReportOptions{Files: []string{three}, Format: "table", NodeViewOptions: NodeViewOptions{FailOnOutlier: true}})
	if fail.KindOf(err) != fail.Outlier || !strings.Contains(err.Error(), "d1") || !strings.Contains(out, "geomean") {
		t.Errorf("--fail-on-outlier: %v\n%s\n%s", err, out, errs)
	}
	// A looser tolerance than the 20% gap flags nothing.
	if _, _, err = report(ReportOptions{Files: []string{three}, Format: "table", NodeViewOptions: NodeViewOptions{OutlierTolerance: 0.3, FailOnOutlier: true}}); err != nil {
		t.Errorf("tolerance 30%%: %v", err)
	}
	out, errs, err = report(ReportOptions{Files: []string{one}, Format: "table", NodeViewOptions: NodeViewOptions{FailOnOutlier: true}})
	if err != nil || strings.Contains(out, "node view") || !strings.Contains(errs, "one device, so no peer") {
		t.Errorf("one device: %v\n%s\n%s", err, out, errs)
	}
	out, errs, err = report(ReportOptions{Files: []string{three}, Format: "json"})
	var doc map[string]any
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil || !strings.Contains(errs, "clmeter: node view: slow: d1") {
		t.Errorf("json: stdout is not one JSON document, or no summary on stderr: %v\n%s\n%s", err, out, errs)
	}
	for format, want := range map[string]string{"markdown": "## Devices side by side", "html": "<h2>Devices side by side</h2>"} {
		path := filepath.Join(dir, "r."+format)
		_, errs, err = report(ReportOptions{Files: []string{three}, Format: format, Output: path})
		b, _ := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s to a file: %v, the file lacks %q\n%s", format, err, want, errs)
		}
	}
	html := filepath.Join(dir, "one.html")
	_, errs, err = report(ReportOptions{Files: []string{one}, Format: "html", Output: html})
	if b, _ := os.ReadFile(html); err != nil || !strings.Contains(string(b), "<h2>Results</h2>") || strings.Contains(string(b), "Devices side by side") || strings.Contains(errs, "node view") {
		t.Errorf("html of one device: %v, want no node view section\n%s", err, errs)
	}
	if _, _, err = report(ReportOptions{Files: []string{three}, Format: "table", NodeViewOptions: NodeViewOptions{OutlierTolerance: -1}}); fail.KindOf(err) != fail.Usage {
		t.Errorf("negative tolerance: %v, want a usage error", err)
	}
	// A file left out still leaves the flagged device's exit, and says so.
	_, errs, err = report(ReportOptions{Files: []string{three, filepath.Join(dir, "missing.json")}, Format: "table", NodeViewOptions: NodeViewOptions{FailOnOutlier: true}})
	if fail.KindOf(err) != fail.Outlier || !strings.Contains(errs, "1 of 2 result files could not be read") {
		t.Errorf("outlier and a missing file: %v\n%s", err, errs)
	}
}
