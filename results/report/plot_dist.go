package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/clmeter/clmeter/svgchart"
	"github.com/clmeter/clmeter/units"
)

// Plot sizes, in the SVG's user units; the page scales a plot to its
// figure's width.
const (
	plotWidth  = 360.0
	plotHeight = 230.4
)

// newCanvas starts a plot's SVG: class "plot", for the page's style.
func newCanvas(w, h float64) *svgchart.Canvas { return svgchart.New(w, h, "plot") }

// timeUnit picks a unit for per-launch times whose largest is max nanoseconds.
func timeUnit(max float64) (div float64, name string) {
	switch {
	case max >= 1e9:
		return 1e9, "s"
	case max >= 1e6:
		return 1e6, "ms"
	case max >= 1e3:
		return 1e3, "µs"
	}
	return 1, "ns"
}

// inUnit writes a time in the unit of its axis (timeUnit's div and name), to
// four significant digits: the legend reads in the axis's unit.
func inUnit(d time.Duration, div float64, unit string) string {
	return strconv.FormatFloat(float64(d)/div, 'g', 4, 64) + " " + unit
}

// distLine is one of the distribution plot's horizontal lines.
type distLine struct {
	name, colour string
	v            float64
	dash         []float64
}

// DistributionPlot draws a sampled benchmark's per-launch times: a box plot
// (quartiles, whiskers at 1.5 IQR, points beyond), every sample as a dot in
// sample order across the box, and lines at the minimum, median and mean.
func DistributionPlot(row Row) ([]byte, error) {
	m := row.M()
	if m == nil || len(m.Samples) == 0 {
		return nil, fmt.Errorf("%s: no samples to plot", row.Key)
	}
	ns := m.PerLaunch()
	maxv := 0.0
	for _, d := range ns {
		maxv = math.Max(maxv, float64(d))
	}
	div, unit := timeUnit(maxv)
	vals := make([]float64, len(ns))
	for i, d := range ns {
		vals[i] = float64(d) / div
	}
	s := m.Summary
	lines := []distLine{
		{"min " + inUnit(s.Min, div, unit), "#2ca02c", float64(s.Min) / div, []float64{2, 2}},
		{"median " + inUnit(s.Median, div, unit), "#d62728", float64(s.Median) / div, nil},
		{"mean " + inUnit(s.Mean, div, unit), "#ff7f0e", float64(s.Mean) / div, []float64{6, 3}},
	}
	lo, hi := slices.Min(vals), slices.Max(vals)
	for _, l := range lines {
		lo, hi = math.Min(lo, l.v), math.Max(hi, l.v)
	}
	pad := (hi - lo) * 0.04
	if pad == 0 {
		pad = math.Max(math.Abs(hi)*0.01, 1e-9)
	}
	y := svgchart.Axis{Label: fmt.Sprintf("per-launch time (%s)", unit), Min: lo - pad, Max: hi + pad}
	y.Ticks = preciseTicks(svgchart.LinearTicks(y.Min, y.Max, 4), y.Min, y.Max)
	x := svgchart.Axis{Label: fmt.Sprintf("%s in order, %s timer", units.Count(len(ns), "sample"), m.Timer), Min: -0.5, Max: 1.1}
	p := svgchart.NewPlot(plotWidth, plotHeight, x, y)
	var leg svgchart.Legend
	leg.Size = 10
	for _, l := range lines {
		leg.Entries = append(leg.Entries, svgchart.LegendEntry{Label: l.name, Colour: l.colour, Dash: l.dash})
	}
	// Room on the right of the lines (to 0.45) for the legend.
	lw, _ := leg.Dims()
	if f := (lw + 12) / (p.Area.X1 - p.Area.X0); f < 0.9 {
		p.X.Max = math.Max(1.1, (0.45+0.5*f)/(1-f))
	}
	c := newCanvas(plotWidth, plotHeight)
	p.DrawAxes(c)
	drawBox(c, p, vals)
	for i, v := range vals {
		// Spread the dots across the box in sample order, so a drift shows as a slope.
		x := -0.3
		if len(vals) > 1 {
			x += 0.6 * float64(i) / float64(len(vals)-1)
		}
		c.Circle(p.PX(x), p.PY(v), 2, svgchart.Style{Fill: "#1f4e8c", Class: "sample"}, "")
	}
	for _, l := range lines {
		c.Line(p.PX(-0.45), p.PY(l.v), p.PX(0.45), p.PY(l.v), svgchart.Style{Stroke: l.colour, Width: 1.5, Dash: l.dash})
	}
	leg.Draw(c, p.Area.X1-lw-4, p.Area.Y0+2)
	return c.Bytes(), nil
}

// drawBox draws the box plot of vals at x = 0: the box from the first to
// the third quartile (the medians of the lower and upper halves) with the
// median across, dashed whiskers to the furthest values within 1.5 IQR of
// the box, and rings at the values beyond.
func drawBox(c *svgchart.Canvas, p *svgchart.Plot, vals []float64) {
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	med, q1, q3 := sorted[0], sorted[0], sorted[0]
	if len(sorted) > 1 {
		med, q1, q3 = medianOf(sorted), medianOf(sorted[:len(sorted)/2]), medianOf(sorted[len(sorted)/2:])
	}
	low, high := q1-1.5*(q3-q1), q3+1.5*(q3-q1)
	adjLo, adjHi := math.Inf(1), math.Inf(-1)
	var outside []float64
	for _, v := range sorted {
		if v < low || v > high {
			outside = append(outside, v)
			continue
		}
		adjLo, adjHi = math.Min(adjLo, v), math.Max(adjHi, v)
	}
	x0 := p.PX(0)
	edge := svgchart.Style{Stroke: "#000", Width: 1}
	whisker := svgchart.Style{Stroke: "#000", Width: 0.5, Dash: []float64{4, 2}}
	if !math.IsInf(adjLo, 0) {
		c.Line(x0, p.PY(q1), x0, p.PY(adjLo), whisker)
		c.Line(x0, p.PY(q3), x0, p.PY(adjHi), whisker)
		c.Line(x0-22.5, p.PY(adjLo), x0+22.5, p.PY(adjLo), whisker)
		c.Line(x0-22.5, p.PY(adjHi), x0+22.5, p.PY(adjHi), whisker)
	}
	c.Rect(svgchart.Rect{X0: x0 - 30, Y0: p.PY(q3), X1: x0 + 30, Y1: p.PY(q1)}, svgchart.Style{Fill: "#dde8f5", Stroke: "#000", Width: 1})
	c.Line(x0-30, p.PY(med), x0+30, p.PY(med), edge)
	for _, v := range outside {
		c.Glyph(svgchart.Ring, x0, p.PY(v), 2.5, "#000", "outside")
	}
}

// medianOf is the median of sorted values.
func medianOf(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
