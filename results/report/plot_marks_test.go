package report

import (
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
)

// count is how many elements of class class the SVG holds.
func count(svg []byte, class string) int { return strings.Count(string(svg), `class="`+class+`"`) }

// TestPlotsDrawEveryMark draws the charts of real runs (the fixtures and
// 'suite quick' and 'suite peaks' on PoCL) and counts their data marks:
// a dot per sample, a point per sweep row and roofline point with a
// number each, a bar per measured peak rate and time-to-first-result part.
func TestPlotsDrawEveryMark(t *testing.T) {
	srcs, errs := results.ReadFiles([]string{"../testdata/pocl.json", "../testdata/h200.json", "../testdata/pocl-quick.json", "../testdata/pocl-peaks.json"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := New(srcs)
	for _, row := range r.Rows {
		svg, err := DistributionPlot(row)
		if n, want := count(svg, "sample"), len(row.M().Samples); err != nil || n != want {
			t.Errorf("%s: %d sample dots, want %d (%v)", BenchLabel(row.Key), n, want, err)
		}
	}
	sweeps := Sweeps(r.Rows, r.MultiHost)
	if len(sweeps) == 0 {
		t.Fatal("no sweep in the runs")
	}
	for _, sw := range sweeps {
		svg, err := SweepPlot(sw)
		want := 0
		for _, s := range sw.Series {
			want += len(s.Rows)
		}
		if n := count(svg, "point"); err != nil || n != want {
			t.Errorf("sweep %s over %s: %d points, want %d (%v)", sw.Name, sw.Param, n, want, err)
		}
	}
	for _, c := range RooflineCharts(r.Rows, r.MultiHost) {
		svg, err := RooflinePlot(c)
		if n, l := count(svg, "point"), count(svg, "point-label"); err != nil || n != len(c.Points) || l != len(c.Points) {
			t.Errorf("roofline %s: %d points and %d numbers, want %d (%v)", c.Device, n, l, len(c.Points), err)
		}
	}
	peaks := PeakCharts(r.Rows, r.Figures, func(d, w string) string { return ShortDeviceName(d) })
	for _, c := range peaks {
		svg, err := PeakPlot(c)
		if n := count(svg, "bar"); err != nil || n != c.bars() {
			t.Errorf("%s: %d bars, want %d (%v)", c.Title(), n, c.bars(), err)
		}
	}
	f := cacheBenchFile()
	for _, c := range TTFRCharts(New([]results.Source{{Path: "cache.json", File: &f}}).Figures, false) {
		svg, err := TTFRPlot(c)
		if n := count(svg, "bar"); err != nil || n != len(c.Modes)*len(TTFRParts) {
			t.Errorf("%s: %d bar parts, want %d (%v)", c.Program, n, len(c.Modes)*len(TTFRParts), err)
		}
	}
}
