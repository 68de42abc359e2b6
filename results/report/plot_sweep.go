package report

import (
	"cmp"
	"math"
	"slices"

	"github.com/clmeter/clmeter/svgchart"
)

// seriesColours are a line chart's series' colours in turn.
var seriesColours = []string{"#f15a60", "#7ac36a", "#5a9bd4", "#faa75b", "#9e67ab", "#ce7058", "#d77fb4"}

// seriesDashes are a line chart's series' dash patterns in turn.
var seriesDashes = [][]float64{nil, {6, 2}, {2, 2}, {1, 1}, {5, 2, 1, 2}}

// SweepPlot draws a sweep: the metric against the swept parameter, one line per
// series, with logarithmic axes where the values span at least a factor of 10.
func SweepPlot(sw Sweep) ([]byte, error) {
	ylabel, value := sweepMetric(sw)
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	labels := map[float64]string{}
	var leg svgchart.Legend
	leg.Size = 9
	for i, s := range sw.Series {
		for j, r := range s.Rows {
			labels[s.X[j]] = r.Bench.Params[sw.Param]
			xmin, xmax = math.Min(xmin, s.X[j]), math.Max(xmax, s.X[j])
			ymin, ymax = math.Min(ymin, value(r)), math.Max(ymax, value(r))
		}
		leg.Entries = append(leg.Entries, svgchart.LegendEntry{Label: s.Label, Colour: seriesColours[i%len(seriesColours)],
			Swatch: svgchart.SwatchLinePoint, Dash: seriesDashes[i%len(seriesDashes)], Width: 1, Glyph: svgchart.SeriesGlyphs[i%len(svgchart.SeriesGlyphs)], Radius: 2.5})
	}
	// Ticks at the swept values, labelled as the parameter was written.
	x := svgchart.Axis{Label: sw.Param, Min: xmin, Max: xmax}
	for v, l := range labels {
		x.Ticks = append(x.Ticks, svgchart.Tick{Value: v, Label: l})
	}
	slices.SortFunc(x.Ticks, func(a, b svgchart.Tick) int { return cmp.Compare(a.Value, b.Value) })
	if xmin > 0 && xmax/xmin >= 10 {
		x.Log, x.Label = true, x.Label+" (log)"
		x.Min, x.Max = xmin/1.3, xmax*1.3
	} else {
		pad := (xmax - xmin) * 0.05
		x.Min, x.Max = xmin-pad, xmax+pad
	}
	if !(ymax > 0) {
		ymax = 1 // every value 0: an axis to 1
	}
	y := svgchart.Axis{Label: ylabel, Min: 0, Max: ymax * 1.35}
	if ymin > 0 && ymax/ymin >= 10 {
		y.Log, y.Label = true, y.Label+" (log)"
		y.Min, y.Max = ymin/2, ymax*20
	}
	// Head room above the highest point for the legend.
	_, lh := leg.Dims()
	p := sweepFrame(x, y, ylabel, ymax, lh+10)
	c := newCanvas(plotWidth, plotHeight)
	p.DrawAxes(c)
	for i, s := range sw.Series {
		e := leg.Entries[i]
		pts := make([]svgchart.Point, len(s.Rows))
		for j, r := range s.Rows {
			pts[j] = p.P(s.X[j], value(r))
		}
		c.Polyline(pts, false, svgchart.Style{Stroke: e.Colour, Width: 1, Dash: e.Dash})
		for _, pt := range pts {
			c.Glyph(e.Glyph, pt.X, pt.Y, 2.5, e.Colour, "point")
		}
	}
	leg.Draw(c, p.Area.X0+8, p.Area.Y0+2)
	return c.Bytes(), nil
}

// sweepFrame lays out a sweep's plot with y ticks for its metric, the y
// axis raised so that ymax lies room units below the area's top.
func sweepFrame(x, y svgchart.Axis, ylabel string, ymax, room float64) *svgchart.Plot {
	ticks := func(y svgchart.Axis) []svgchart.Tick {
		t := svgchart.LinearTicks(y.Min, y.Max, 4)
		if y.Log {
			t = svgchart.LogTicks(y.Min, y.Max)
		}
		if ylabel == "median time" {
			return timeTicks(t)
		}
		return rateTicks(t, sweepUnit(ylabel))
	}
	y.Ticks = ticks(y)
	p := svgchart.NewPlot(plotWidth, plotHeight, x, y)
	for range 2 {
		h := p.Area.Y1 - p.Area.Y0
		frac := 1 - room/h
		if frac < 0.3 {
			frac = 0.3
		}
		top := p.Y.Max
		if p.Y.Log {
			lmin := math.Log10(p.Y.Min)
			top = math.Pow(10, lmin+(math.Log10(ymax)-lmin)/frac)
		} else {
			top = ymax / frac
		}
		if top <= p.Y.Max {
			break
		}
		p.Y.Max = top
		p.Y.Ticks = ticks(p.Y)
		p.Layout()
	}
	return p
}
