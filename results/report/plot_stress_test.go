package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/pagecheck"
	"github.com/clmeter/clmeter/results"
)

// crowdedFile is a result file whose charts crowd their labels: a triad
// swept over sixteen sizes written long ("1048576B") on four devices of
// long names, a sweep in time over a parameter of four-digit values, and
// cache-bench modes of long names.
func crowdedFile() *results.File {
	f := cacheBenchFile()
	for i, b := range f.Benchmarks {
		mode := b.Params["mode"] + " (with a long name)"
		f.Benchmarks[i].Name = b.Params["program"] + "/" + mode
	}
	f.Host = results.HostInfo{Hostname: "node-1", OS: "linux", Arch: "amd64"}
	for d := range 4 {
		dev := results.DeviceInfo{Name: fmt.Sprintf("Some Vendor Accelerator Model %d Extra Long", d), Platform: "P", Host: "node-1", Index: fmt.Sprintf("0:%d", d)}
		dev.Key, dev.KeyFallback = results.DeviceKey(dev)
		for k := range 16 {
			size := int64(1024) << k
			m := time.Duration(size/100+2000) * time.Duration(d+1)
			f.Benchmarks = append(f.Benchmarks, twinBench(dev, "triad", map[string]string{"size": fmt.Sprintf("%dB", size)}, []string{"size"}, m, 3*size))
			f.Benchmarks = append(f.Benchmarks, twinBench(dev, "wait", map[string]string{"us": fmt.Sprint(1000 + 250*k)}, []string{"us"}, time.Duration(1000+250*k)*time.Microsecond, 0))
		}
	}
	return &f
}

// TestCrowdedChartsGeometry loads the crowded charts' report in headless
// Chromium: no tick label overlaps another or leaves its chart, and every
// cache mode is named under its bar (its long name wrapped).
func TestCrowdedChartsGeometry(t *testing.T) {
	r := New([]results.Source{{Path: "crowded.json", File: crowdedFile()}})
	sweeps := Sweeps(r.Rows, r.MultiHost)
	if len(sweeps) != 2 {
		t.Fatalf("%d sweeps, want 2 (triad over size, wait over us)", len(sweeps))
	}
	// Every cache mode is named under its bar, however long its name.
	for _, c := range TTFRCharts(r.Figures, false) {
		svg, err := TTFRPlot(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range c.Modes {
			if w := strings.Fields(m)[0]; !bytes.Contains(svg, []byte(">"+w)) {
				t.Errorf("%s: no label for mode %q", c.Program, m)
			}
		}
	}
	browser := pagecheck.Browser()
	if browser == "" {
		t.Skip("no headless browser: /usr/bin/chromium is absent (Debian: apt-get install chromium)")
	}
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("CLMETER_REPORT_HTML"); dir != "" {
		os.WriteFile(filepath.Join(dir, "crowded.html"), buf.Bytes(), 0o644)
	}
	if strings.Contains(buf.String(), "Plot errors") {
		t.Fatal("plot errors")
	}
	srv := pagecheck.ServeHTML(buf.Bytes())
	defer srv.Close()
	v, err := pagecheck.Check(context.Background(), browser, srv.URL+"/", 1400, 2000, filepath.Join(t.TempDir(), "profile"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Charts < 2+2+128 {
		t.Errorf("the check saw %d charts, want 132 or more", v.Charts)
	}
	for _, p := range v.Problems {
		t.Error(p)
	}
}
