package results

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestBenchfmtParses reads the benchfmt rendering back with golang.org/x/perf's
// reader: every sample is one result with the right name, config and units.
func TestBenchfmtParses(t *testing.T) {
	r := NewReport(readFixtures(t))
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
			if rec.GetConfig("goos") != "linux" || rec.GetConfig("clmeter-file") == "" {
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
