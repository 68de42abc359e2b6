package report

import (
	"fmt"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/clmeter/clmeter/results"
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

var rooflineColours = []color.Color{
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
}

// RooflinePlot draws a RooflineChart log-log: arithmetic intensity across,
// G operations/s up; the bandwidth roof (bandwidth x intensity) up to each
// compute roof, the compute roofs flat from their ridge points, and each
// benchmark a labelled point.
func RooflinePlot(c RooflineChart) ([]byte, error) {
	if c.Bandwidth <= 0 && len(c.Computes) == 0 {
		return nil, fmt.Errorf("%s: no ceiling to draw", c.Device)
	}
	xlo, xhi, ylo, yhi := rooflineRange(c)
	p := plot.New()
	p.Title.Text = c.Device + ": roofline"
	p.X.Label.Text = fmt.Sprintf("arithmetic intensity (%s/byte, log)", c.OpsUnit)
	p.Y.Label.Text = fmt.Sprintf("%s/s (log)", c.OpsUnit)
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, rateTicks{plot.LogTicks{Prec: -1}, c.OpsUnit}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xlo, xhi, ylo, yhi
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(9)

	if err := addRoofs(p, c, xlo, xhi); err != nil {
		return nil, err
	}
	if len(c.Points) > 0 {
		if err := addRooflinePoints(p, c); err != nil {
			return nil, err
		}
		if err := addPointNumbers(p, c); err != nil {
			return nil, err
		}
	}
	svg, err := svgOf(p, plotWidth*1.2, plotHeight*1.2)
	return pointLabelClass.ReplaceAll(svg, []byte(`<text class="point-label" $1`)), err
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

// addRoofs draws the bandwidth roof up to the highest compute roof and each
// compute roof flat from its ridge point.
func addRoofs(p *plot.Plot, c RooflineChart, xlo, xhi float64) error {
	top := 0.0
	for _, k := range c.Computes {
		top = math.Max(top, k.Rate)
	}
	if c.Bandwidth > 0 {
		end := xhi
		if top > 0 {
			end = math.Min(xhi, top/c.Bandwidth)
		}
		l, err := plotter.NewLine(plotter.XYs{{X: xlo, Y: c.Bandwidth * xlo}, {X: end, Y: c.Bandwidth * end}})
		if err != nil {
			return err
		}
		l.Color, l.Width = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, vg.Points(2)
		p.Add(l)
		name := "bandwidth " + units.Rate(c.Bandwidth, "B")
		if c.Pattern != "" {
			name += " (" + c.Pattern + ")"
		}
		p.Legend.Add(name, l)
	}
	for i, k := range c.Computes {
		start := xlo
		if c.Bandwidth > 0 {
			start = k.Rate / c.Bandwidth
		}
		l, err := plotter.NewLine(plotter.XYs{{X: start, Y: k.Rate}, {X: xhi, Y: k.Rate}})
		if err != nil {
			return err
		}
		l.Color, l.Width = color.RGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xff}, vg.Points(2)
		if i > 0 {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s compute %s", k.Precision, units.Rate(k.Rate, c.OpsUnit)), l)
	}
	return nil
}

// addRooflinePoints draws the benchmarks as points, one colour a verdict.
func addRooflinePoints(p *plot.Plot, c RooflineChart) error {
	verdicts := []string{}
	for _, pt := range c.Points {
		if !slices.Contains(verdicts, pt.Verdict) {
			verdicts = append(verdicts, pt.Verdict)
		}
	}
	for vi, v := range verdicts {
		var xys plotter.XYs
		for _, pt := range c.Points {
			if pt.Verdict == v {
				xys = append(xys, plotter.XY{X: pt.Intensity, Y: pt.Rate})
			}
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(3.5)
		s.GlyphStyle.Color = rooflineColours[vi%len(rooflineColours)]
		p.Add(s)
		p.Legend.Add(v, s)
	}
	return nil
}

// pointLabelClass finds the point numbers in the SVG (the only serif text
// of a roofline) to class them point-label for the geometry check.
var pointLabelClass = regexp.MustCompile(`<text (x="[-\d.e]+" y="[-\d.e]+" transform="scale\(1, -1\)"\s+style="font-family:Liberation Serif;)`)

// addPointNumbers numbers each point (the caption's key names it) with a
// number placed next to it where it covers no other number and no other
// point: right, left, above, below, then the corners.
func addPointNumbers(p *plot.Plot, c RooflineChart) error {
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: make(plotter.XYs, len(c.Points)), Labels: make([]string, len(c.Points))})
	if err != nil {
		return err
	}
	n := pointNumbers{style: lb.TextStyle[0]}
	n.style.Font.Size = vg.Points(9)
	n.style.XAlign, n.style.YAlign = draw.XLeft, draw.YBottom
	for i, pt := range c.Points {
		n.xys = append(n.xys, plotter.XY{X: pt.Intensity, Y: pt.Rate})
		n.labels = append(n.labels, strconv.Itoa(i+1))
	}
	p.Add(n)
	return nil
}

// pointNumbers is the plotter of addPointNumbers: it places each number in
// the canvas' own coordinates, so a number stays by its point whatever the
// size of the axes.
type pointNumbers struct {
	xys    plotter.XYs
	labels []string
	style  draw.TextStyle
}

// Plot draws the numbers (plot.Plotter).
func (n pointNumbers) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	const r = 4.5 // the glyph's radius and a gap, in points
	pts := make([]vg.Point, len(n.xys))
	var taken []vg.Rectangle
	for i, xy := range n.xys {
		pts[i] = vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
		taken = append(taken, vg.Rectangle{Min: pts[i].Sub(vg.Point{X: r - 1, Y: r - 1}), Max: pts[i].Add(vg.Point{X: r - 1, Y: r - 1})})
	}
	for i, l := range n.labels {
		w, h := n.style.Width(l), n.style.Height(l)
		pt := pts[i]
		var box vg.Rectangle
		for k, off := range []vg.Point{{X: r, Y: -h / 2}, {X: -r - w, Y: -h / 2}, {X: -w / 2, Y: r}, {X: -w / 2, Y: -r - h},
			{X: r, Y: r / 2}, {X: r, Y: -r/2 - h}, {X: -r - w, Y: r / 2}, {X: -r - w, Y: -r/2 - h}} {
			b := vg.Rectangle{Min: pt.Add(off), Max: pt.Add(off).Add(vg.Point{X: w, Y: h})}
			if k == 0 {
				box = b
			}
			if c.Contains(b.Min) && c.Contains(b.Max) && !overlapsAny(b, taken) {
				box = b
				break
			}
		}
		taken = append(taken, box)
		c.FillText(n.style, box.Min, l)
	}
}

func overlapsAny(b vg.Rectangle, rs []vg.Rectangle) bool {
	for _, o := range rs {
		if b.Min.X < o.Max.X && o.Min.X < b.Max.X && b.Min.Y < o.Max.Y && o.Min.Y < b.Max.Y {
			return true
		}
	}
	return false
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
