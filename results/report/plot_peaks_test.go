package report

import (
	"github.com/clmeter/clmeter/results"
	"slices"
	"strings"
	"testing"
)

// TestPeakCharts groups a real peaks run (PoCL, 'suite peaks --small'):
// bandwidth by pattern and width, compute split by unit, each with its peak
// figures as lines.
func TestPeakCharts(t *testing.T) {
	srcs, errs := results.ReadFiles([]string{"../testdata/pocl-peaks.json"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := New(srcs)
	charts := PeakCharts(r.Rows, r.Figures, func(d, w string) string { return ShortDeviceName(d) })
	got := map[string]PeakChart{}
	for _, c := range charts {
		got[c.What+" "+c.Unit] = c
	}
	bw, ok := got["bandwidth B"]
	if !ok || len(charts) != 3 {
		t.Fatalf("charts %v, want bandwidth B, compute FLOP and compute IOP", slices.Collect(func(yield func(string) bool) {
			for k := range got {
				yield(k)
			}
		}))
	}
	if !slices.Equal(bw.Widths, []string{"1", "2", "4", "8", "16"}) {
		t.Errorf("bandwidth widths %v", bw.Widths)
	}
	var names []string
	for _, s := range bw.Series {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"chunk", "copy", "rmw", "stride", "local"}) {
		t.Errorf("bandwidth series %v", names)
	}
	if len(bw.Ceilings) != 2 || !strings.HasPrefix(bw.Ceilings[0].Name, "peak global ") {
		t.Errorf("bandwidth ceilings %+v", bw.Ceilings)
	}
	fl := got["compute FLOP"]
	if len(fl.Series) != 2 || len(fl.Ceilings) != 2 {
		t.Errorf("FLOP chart %+v", fl)
	}
	if _, ok := got["compute IOP"]; !ok {
		t.Error("no integer compute chart")
	}
	for _, c := range charts {
		svg, err := PeakPlot(c)
		if err != nil || !strings.Contains(string(svg), "vector width") {
			t.Errorf("%s: %v", c.Title(), err)
		}
	}
}

func TestShortDeviceName(t *testing.T) {
	for in, want := range map[string]string{
		"pthread-haswell-AMD EPYC":              "AMD EPYC",
		"cpu-skylake-avx512-AMD EPYC 7B13":      "AMD EPYC 7B13",
		"NVIDIA H100 80GB HBM3":                 "NVIDIA H100 80GB HBM3",
		"Oclgrind Simulator":                    "Oclgrind Simulator",
		"":                                      "unknown device",
		"Intel(R) Data Center GPU Max 1550 (x)": "Intel(R) Data Center…",
	} {
		if got := ShortDeviceName(in); got != want {
			t.Errorf("ShortDeviceName(%q) = %q, want %q", in, got, want)
		}
	}
}
