package report

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/results"
	"golang.org/x/perf/benchfmt"
)

// TestBenchfmtParses reads the benchfmt rendering back with golang.org/x/perf's
// reader: every sample is one result with the right name, config and units.
func TestBenchfmtParses(t *testing.T) {
	r := New(readFixtures(t))
	var buf bytes.Buffer
	if err := r.WriteBenchfmt(&buf); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, row := range r.Rows {
		want += len(row.M().Samples)
	}
	rd := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "report.bench")
	got, units := 0, map[string]bool{}
	devices := map[string]int{}
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		case *benchfmt.UnitMetadata:
			units[rec.Unit+" "+rec.Key+"="+rec.Value] = true
		case *benchfmt.Result:
			got++
			name := string(rec.Name)
			if !strings.HasPrefix(name, "triad/size=") && !strings.HasPrefix(name, "fma/size=") {
				t.Errorf("name %q", name)
			}
			devices[rec.GetConfig("device")]++
			if rec.GetConfig("goos") != "linux" || rec.GetConfig("device") == "" {
				t.Errorf("config of %s: %v", name, rec.Config)
			}
			v, ok := rec.Value("sec/op")
			if !ok || v <= 0 || v > 1 {
				t.Errorf("%s: sec/op %v %v", name, v, ok)
			}
			if strings.HasPrefix(name, "triad") {
				if bw, ok := rec.Value("B/s"); !ok || bw < 1e9 {
					t.Errorf("%s: B/s %v %v", name, bw, ok)
				}
			}
			if rec.Iters < 1 {
				t.Errorf("%s: iterations %d", name, rec.Iters)
			}
		}
	}
	if err := rd.Err(); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("%d results, want one per sample: %d", got, want)
	}
	if devices["NVIDIA H200"] != 30 || devices["cpu-haswell-AMD EPYC 7B13"] != 46 {
		t.Errorf("results per device %v", devices)
	}
	if !units["B/s better=higher"] || !units["FLOP/s better=higher"] {
		t.Errorf("unit metadata %v", units)
	}
}

// TestBenchstatCompares renders two result files (the PoCL fixture, and the
// same run 25% slower) with --format benchfmt and runs x/perf's benchstat
// command, built from the module's own x/perf, as 'benchstat old.txt
// new.txt': one table per device that compares them (old and new columns and
// a vs base change), not two tables side by side.
func TestBenchstatCompares(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build benchstat with")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "benchstat")
	if out, err := exec.Command(goTool, "build", "-o", bin, "golang.org/x/perf/cmd/benchstat").CombinedOutput(); err != nil {
		t.Fatalf("building benchstat: %v\n%s", err, out)
	}
	old, err := results.Read(filepath.Join("..", "testdata", "pocl.json"))
	if err != nil {
		t.Fatal(err)
	}
	newer, err := results.Read(filepath.Join("..", "testdata", "pocl.json"))
	if err != nil {
		t.Fatal(err)
	}
	newer.Created = newer.Created.Add(time.Hour)
	for i := range newer.Benchmarks {
		if m := newer.Benchmarks[i].Measurement; m != nil {
			for j := range m.Samples {
				m.Samples[j].PerLaunch = m.Samples[j].PerLaunch * 5 / 4
			}
		}
	}
	write := func(name string, f *results.File) string {
		var buf bytes.Buffer
		if err := New([]results.Source{{Path: name + ".json", File: f}}).WriteBenchfmt(&buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return filepath.Base(p) // as a user types it, in the folder
	}
	cmd := exec.Command(bin, write("old", old), write("new", newer))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat old.txt new.txt: %v\n%s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "old.txt") || !strings.Contains(text, "new.txt") || !strings.Contains(text, "vs base") {
		t.Fatalf("benchstat did not compare the two files in one table:\n%s", text)
	}
	if !strings.Contains(text, "+25") {
		t.Errorf("benchstat does not show the 25%% slowdown:\n%s", text)
	}
	t.Logf("benchstat old.txt new.txt:\n%s", text)
}
