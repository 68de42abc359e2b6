package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/svgchart"
	"github.com/clmeter/clmeter/units"
)

// A RooflinePoint is one benchmark on a roofline chart.
type RooflinePoint struct {
	// Label names the benchmark; Verdict is its roofline verdict.
	Label, Verdict string
	// Intensity is operations per byte; Rate the achieved G operations/s.
	Intensity, Rate float64
}

// A RooflineCeiling is one compute roof of a chart.
type RooflineCeiling struct {
	Precision string
	Rate      float64
}

// A RooflineChart is one device's roofline: its bandwidth and compute
// ceilings and the benchmarks placed under them.
type RooflineChart struct {
	Device string
	// Bandwidth is the bandwidth ceiling in GB/s and Pattern what set it.
	Bandwidth float64
	Pattern   string
	Computes  []RooflineCeiling
	// OpsUnit names the y axis's operations ("FLOP").
	OpsUnit string
	Points  []RooflinePoint
	// Unplaced counts the device's benchmarks with a roofline verdict but
	// without both bytes and operations: they have no intensity to draw at.
	Unplaced int
}

// RooflineCharts groups the rows that carry a Roofline by device: one chart
// each, with every compute ceiling the rows name.
func RooflineCharts(rows []Row, multiHost bool) []RooflineChart {
	var out []RooflineChart
	idx := map[string]int{}
	for _, row := range rows {
		rl := row.Bench.Roofline
		if rl == nil || rl.BandwidthGBPerSecond <= 0 && rl.ComputeGOpsPerSecond <= 0 {
			continue
		}
		dev := row.Key.Device
		if multiHost && row.Where != "" {
			dev += " @" + row.Where
		}
		i, ok := idx[dev]
		if !ok {
			i = len(out)
			idx[dev] = i
			out = append(out, RooflineChart{Device: dev, OpsUnit: "FLOP"})
		}
		c := &out[i]
		if rl.BandwidthGBPerSecond > c.Bandwidth {
			c.Bandwidth, c.Pattern = rl.BandwidthGBPerSecond, rl.BandwidthPattern
		}
		if rl.ComputeGOpsPerSecond > 0 && !slices.ContainsFunc(c.Computes, func(x RooflineCeiling) bool { return x.Precision == rl.Precision }) {
			c.Computes = append(c.Computes, RooflineCeiling{Precision: rl.Precision, Rate: rl.ComputeGOpsPerSecond})
		}
		if rl.OpsUnit != "" {
			c.OpsUnit = rl.OpsUnit
		}
		if rl.IntensityFLOPPerByte > 0 && rl.GOpsPerSecond > 0 {
			c.Points = append(c.Points, RooflinePoint{Label: BenchLabel(row.Key), Verdict: rl.Verdict, Intensity: rl.IntensityFLOPPerByte, Rate: rl.GOpsPerSecond})
		} else {
			c.Unplaced++
		}
	}
	return out
}

var rooflineColours = []string{"#d62728", "#2ca02c", "#9467bd", "#ff7f0e"}

// RooflinePlot draws a RooflineChart log-log: arithmetic intensity across,
// G operations/s up; the bandwidth roof (bandwidth x intensity) up to each
// compute roof, the compute roofs flat from their ridge points, and each
// benchmark a numbered point (the chart's Key names each number).
func RooflinePlot(c RooflineChart) ([]byte, error) {
	if c.Bandwidth <= 0 && len(c.Computes) == 0 {
		return nil, fmt.Errorf("%s: no ceiling to draw", c.Device)
	}
	xlo, xhi, ylo, yhi := rooflineRange(c)
	x := svgchart.Axis{Label: fmt.Sprintf("arithmetic intensity (%s/byte, log)", c.OpsUnit), Min: xlo, Max: xhi, Log: true, Ticks: svgchart.LogTicks(xlo, xhi)}
	y := svgchart.Axis{Label: fmt.Sprintf("%s/s (log)", c.OpsUnit), Min: ylo, Max: yhi, Log: true, Ticks: rateTicks(svgchart.LogTicks(ylo, yhi), c.OpsUnit)}
	const w, h = plotWidth * 1.2, plotHeight * 1.2
	p := svgchart.NewPlot(w, h, x, y)
	cv := newCanvas(w, h)
	p.DrawAxes(cv)
	leg := svgchart.Legend{Size: 9}
	drawRoofs(cv, p, c, &leg)
	verdicts := []string{}
	for _, pt := range c.Points {
		if !slices.Contains(verdicts, pt.Verdict) {
			verdicts = append(verdicts, pt.Verdict)
		}
	}
	for vi, v := range verdicts {
		leg.Entries = append(leg.Entries, svgchart.LegendEntry{Label: v, Colour: rooflineColours[vi%len(rooflineColours)], Swatch: svgchart.SwatchPoint, Radius: 3.5})
	}
	for _, pt := range c.Points {
		cv.Circle(p.PX(pt.Intensity), p.PY(pt.Rate), 3.5, svgchart.Style{Fill: rooflineColours[slices.Index(verdicts, pt.Verdict)%len(rooflineColours)], Class: "point"}, pt.Label)
	}
	box := leg.Draw(cv, p.Area.X0+4, p.Area.Y0+2)
	drawPointNumbers(cv, p, c, box)
	return cv.Bytes(), nil
}

// rooflineRange returns the axes' ranges of c: every point and every ridge,
// with a decade around.
func rooflineRange(c RooflineChart) (xlo, xhi, ylo, yhi float64) {
	xlo, xhi = math.Inf(1), math.Inf(-1)
	ylo, yhi = math.Inf(1), math.Inf(-1)
	grow := func(x, y float64) {
		if x > 0 {
			xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
		}
		if y > 0 {
			ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
		}
	}
	for _, p := range c.Points {
		grow(p.Intensity, p.Rate)
	}
	for _, k := range c.Computes {
		if c.Bandwidth > 0 {
			grow(k.Rate/c.Bandwidth, k.Rate)
		} else {
			grow(0, k.Rate)
		}
	}
	if math.IsInf(xlo, 1) {
		xlo, xhi = 0.01, 100
	}
	if math.IsInf(ylo, 1) {
		ylo, yhi = c.Bandwidth*xlo, c.Bandwidth*xhi
	}
	xlo, xhi = xlo/10, xhi*10
	ylo, yhi = ylo/10, yhi*3
	return xlo, xhi, ylo, yhi
}

// drawRoofs draws the bandwidth roof up to the highest compute roof and each
// compute roof flat from its ridge point, with their legend entries.
func drawRoofs(cv *svgchart.Canvas, p *svgchart.Plot, c RooflineChart, leg *svgchart.Legend) {
	xlo, xhi := p.X.Min, p.X.Max
	top := 0.0
	for _, k := range c.Computes {
		top = math.Max(top, k.Rate)
	}
	if c.Bandwidth > 0 {
		end := xhi
		if top > 0 {
			end = math.Min(xhi, top/c.Bandwidth)
		}
		// Clipped to the area: the roof enters it where it reaches the y axis's range.
		start := math.Max(xlo, p.Y.Min/c.Bandwidth)
		const blue = "#1f77b4"
		cv.Line(p.PX(start), p.PY(c.Bandwidth*start), p.PX(end), p.PY(c.Bandwidth*end), svgchart.Style{Stroke: blue, Width: 2})
		name := "bandwidth " + units.Rate(c.Bandwidth, "B")
		if c.Pattern != "" {
			name += " (" + c.Pattern + ")"
		}
		leg.Entries = append(leg.Entries, svgchart.LegendEntry{Label: name, Colour: blue, Width: 2})
	}
	for i, k := range c.Computes {
		start := xlo
		if c.Bandwidth > 0 {
			start = k.Rate / c.Bandwidth
		}
		var dash []float64
		if i > 0 {
			dash = []float64{5, 3}
		}
		const grey = "#333333"
		cv.Line(p.PX(start), p.PY(k.Rate), p.PX(xhi), p.PY(k.Rate), svgchart.Style{Stroke: grey, Width: 2, Dash: dash})
		leg.Entries = append(leg.Entries, svgchart.LegendEntry{Label: fmt.Sprintf("%s compute %s", k.Precision, units.Rate(k.Rate, c.OpsUnit)), Colour: grey, Width: 2, Dash: dash})
	}
}

// drawPointNumbers numbers each point (the caption's key names it), class
// point-label, with a number placed next to it where it covers no other
// number, no other point and not the legend (box), inside the data area:
// right, left, above, below, then the corners.
func drawPointNumbers(cv *svgchart.Canvas, p *svgchart.Plot, c RooflineChart, legend svgchart.Rect) {
	const r = 4.5 // the point's radius and a gap
	f := svgchart.Font{Size: 9, Class: "point-label"}
	pts := make([]svgchart.Point, len(c.Points))
	taken := []svgchart.Rect{legend}
	for i, pt := range c.Points {
		pts[i] = p.P(pt.Intensity, pt.Rate)
		taken = append(taken, svgchart.Rect{X0: pts[i].X - r + 1, Y0: pts[i].Y - r + 1, X1: pts[i].X + r - 1, Y1: pts[i].Y + r - 1})
	}
	th := svgchart.TextHeight(f.Size)
	for i, pt := range pts {
		l := strconv.Itoa(i + 1)
		w := svgchart.TextWidth(l, f.Size)
		var box svgchart.Rect
		for k, off := range []svgchart.Point{{X: r, Y: -th / 2}, {X: -r - w, Y: -th / 2}, {X: -w / 2, Y: -r - th}, {X: -w / 2, Y: r},
			{X: r, Y: -r/2 - th}, {X: r, Y: r / 2}, {X: -r - w, Y: -r/2 - th}, {X: -r - w, Y: r / 2}} {
			b := svgchart.Rect{X0: pt.X + off.X, Y0: pt.Y + off.Y, X1: pt.X + off.X + w, Y1: pt.Y + off.Y + th}
			if k == 0 {
				box = b
			}
			if b.Inside(p.Area) && !slices.ContainsFunc(taken, b.Overlaps) {
				box = b
				break
			}
		}
		taken = append(taken, box)
		cv.Text(box.X0, box.Y0+svgchart.Ascent*f.Size, l, f)
	}
}

// Key names each numbered point of the chart: its benchmark, verdict and rate.
func (c RooflineChart) Key() []string {
	out := make([]string, len(c.Points))
	for i, p := range c.Points {
		out[i] = fmt.Sprintf("%s: %s, %s at %.3g %s/byte", p.Label, p.Verdict, units.Rate(p.Rate, c.OpsUnit), p.Intensity, c.OpsUnit)
	}
	return out
}

// rooflineNote says what a chart leaves out.
func rooflineNote(c RooflineChart) string {
	var parts []string
	for _, k := range c.Computes {
		if c.Bandwidth > 0 {
			parts = append(parts, fmt.Sprintf("%s ridge at %.3g %s/byte", k.Precision, k.Rate/c.Bandwidth, c.OpsUnit))
		}
	}
	if c.Unplaced > 0 {
		parts = append(parts, fmt.Sprintf("%s without both bytes and operations not drawn (their verdicts are in the table)", units.Count(c.Unplaced, "benchmark")))
	}
	return strings.Join(parts, "; ")
}

// boundText is the report's bound column: the verdict and the percentage of
// the roof ("" without a roofline).
func boundText(b *results.Benchmark) string {
	return b.Roofline.Bound()
}
