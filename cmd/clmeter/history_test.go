package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// TestStoreAddAndHistoryCI: 'store add' of 20 files whose newest four are 20%
// slower, then 'history --regressions --ci' exits 5; a bad file is refused
// with exit 1 and nothing added; adding again is a no-op.
func TestStoreAddAndHistoryCI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	var paths []string
	for i := range 20 {
		scale := 1.0
		if i >= 16 {
			scale = 1.2
		}
		p := filepath.Join(dir, fmt.Sprintf("run%02d.json", i))
		f := storetest.File(storetest.Suite(2), storetest.Options{Device: storetest.Devices[2], Created: time.Date(2025, 3, 1, i, 0, 0, 0, time.UTC),
			Scale: scale, Noise: 0.005, Seed: uint64(i)})
		if err := results.WriteFile(p, f); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	clm := func(args ...string) (int, string, string) {
		var out, errb strings.Builder
		code := run(context.Background(), append([]string{"clmeter"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "clmeter-result", "version": 1, "benchmarks": [`), 0o644)
	if code, _, errs := clm(append([]string{"store", "add", "--store", db, "--label", "ci=yes"}, append(paths[:2:2], bad)...)...); code != exitUsage || !strings.Contains(errs, "bad.json") || !strings.Contains(errs, "nothing was stored") {
		t.Fatalf("bad file: exit %d, %q", code, errs)
	}
	if code, out, errs := clm(append([]string{"store", "add", "--store", db, "--label", "ci=yes"}, paths...)...); code != 0 || strings.Count(out, "added 2 benchmarks") != 20 {
		t.Fatalf("store add: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := clm("store", "add", "--store", db, paths[0]); code != 0 || !strings.Contains(out, "already stored as upload 1") {
		t.Errorf("second add: exit %d %s", code, out)
	}
	code, out, errs := clm("history", "--store", db, "--regressions", "--ci", "--label", "ci=yes")
	if code != exitRegression || !strings.Contains(out, "regression (newest runs)") || !strings.Contains(errs, "regression beyond 5.0%") {
		t.Errorf("history --ci: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, _ := clm("history", "--store", db, "--regressions", "--ci", "--threshold", "30%"); code != 0 {
		t.Errorf("--threshold 30%%: exit %d, want 0", code)
	}
	if code, out, _ := clm("history", "copy", "--store", db, "--format", "csv"); code != 0 || strings.Count(out, "\n") != 21 {
		t.Errorf("csv: exit %d\n%s", code, out)
	}
	if code, _, errs := clm("history", "--store", filepath.Join(dir, "none.db")); code != 1 || !strings.Contains(errs, "no store") {
		t.Errorf("missing store: exit %d %s", code, errs)
	}
	if code, _, _ := clm("history", "--store", db, "--since", "someday"); code != exitUsage {
		t.Errorf("bad --since: exit %d", code)
	}
}

// TestHistoryDriftsAndOptions: a series flat for 20 runs and then slower by
// 1% a run for 10 is one drift, which fails --ci once it crosses the
// threshold within the newest runs; a one-run blip is an outlier; the
// options are checked.
func TestHistoryDriftsAndOptions(t *testing.T) {
	t.Setenv("COLUMNS", "240") // the steps table as a table, not as records
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	var paths []string
	for i := range 30 {
		scale := 1 + 0.01*float64(max(0, i-19))
		f := storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[0], Created: time.Date(2025, 3, 1, i, 0, 0, 0, time.UTC),
			Scale: scale, Noise: 0.005, Seed: uint64(i)})
		g := storetest.File([]storetest.Spec{{Name: "blip", Median: 20 * time.Microsecond}}, storetest.Options{Device: storetest.Devices[0],
			Created: time.Date(2025, 3, 1, i, 0, 0, 0, time.UTC), Scale: map[bool]float64{true: 1.5, false: 1}[i == 12], Noise: 0.005, Seed: uint64(100 + i)})
		f.Benchmarks = append(f.Benchmarks, g.Benchmarks...)
		p := filepath.Join(dir, fmt.Sprintf("run%02d.json", i))
		if err := results.WriteFile(p, f); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	clm := func(args ...string) (int, string, string) {
		var out, errb strings.Builder
		code := run(context.Background(), append([]string{"clmeter"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, out, errs := clm(append([]string{"store", "add", "--store", db}, paths...)...); code != 0 {
		t.Fatalf("store add: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs := clm("history", "--store", db, "--regressions")
	if code != 0 || strings.Count(out, " drift ") != 1 || !strings.Contains(out, "%/run") || !strings.Contains(out, " outlier ") ||
		!strings.Contains(out, "1 drift, 1 outlier") {
		t.Errorf("history --regressions: exit %d\n%s\n%s", code, out, errs)
	}
	t.Logf("history --regressions:\n%s", out)
	code, out, errs = clm("history", "--store", db, "--regressions", "--ci")
	if code != exitRegression || !strings.Contains(errs, "drifting +") || !strings.Contains(out, " outlier ") {
		t.Errorf("history --ci: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := clm("history", "--store", db, "--regressions", "--ci", "--threshold", "20%"); code != 0 || strings.Contains(out, " drift ") || !strings.Contains(out, " outlier ") {
		t.Errorf("--ci --threshold 20%%: exit %d, want 0, the drift not reported, the 50%% blip reported\n%s", code, out)
	}
	if code, out, _ := clm("history", "--store", db, "--regressions", "--format", "json", "--threshold", "0"); code != 0 || !strings.Contains(out, `"drifts": [`) ||
		!strings.Contains(out, `"slope_ns_per_run"`) || !strings.Contains(out, `"outliers": [`) {
		t.Errorf("--threshold 0 json: exit %d\n%s", code, out)
	}
	if code, out, _ := clm("history", "--store", db, "blip", "--regressions", "--format", "csv"); code != 0 || !strings.Contains(out, ",outlier,") {
		t.Errorf("csv: exit %d\n%s", code, out)
	}
	if code, out, _ := clm("history", "--store", db, "blip", "--regressions", "--min-runs", "20"); code != 0 || !strings.Contains(out, "at least 20 runs") {
		t.Errorf("--min-runs 20: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"--threshold", "-1%"}, {"--min-runs", "1"}, {"--significance", "0"}, {"--significance", "1.5"}} {
		if code, _, errs := clm(append([]string{"history", "--store", db, "--regressions"}, bad...)...); code != exitUsage || !strings.Contains(errs, bad[0]) {
			t.Errorf("%v: exit %d %q, want a usage error naming it", bad, code, errs)
		}
	}
}
