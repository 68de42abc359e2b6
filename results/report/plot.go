package report

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/clmeter/clmeter/units"
)

// Plot sizes.
const (
	plotWidth  = 5 * vg.Inch
	plotHeight = 3.2 * vg.Inch
)

// plotPad is the margin kept inside every plot's SVG: gonum measures text with
// its own font metrics, a browser draws each text box a little taller (the
// font's whole ascent and descent), so text set flush with the edge would
// leave the SVG.
const plotPad = 6

func init() {
	// The page is set in a sans-serif face; the plots match it.
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}

// svgOf draws p and returns the SVG element alone (no XML prolog), ready to
// inline in HTML. The plot's title is left out: the figure's caption carries
// it, and a long title would be clipped at the SVG's edges. Legend entries get
// room between them for the browser's taller text boxes.
func svgOf(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	p.Title.Text = ""
	// Axis titles a little larger than the ticks, not a headline.
	p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = vg.Points(10), vg.Points(10)
	if p.Legend.Padding == 0 {
		p.Legend.Padding = vg.Points(3)
	}
	c := vgsvg.New(w, h)
	p.Draw(draw.Crop(draw.New(c), plotPad, -plotPad, plotPad, -plotPad))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i > 0 {
		out = out[i:]
	}
	// Scale with the page rather than keeping a fixed size in points.
	out = bytes.Replace(out, []byte("<svg "), []byte(`<svg class="plot" preserveAspectRatio="xMinYMin meet" `), 1)
	return out, nil
}

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

// hline is a horizontal line across [x0, x1] at y.
func hline(x0, x1, y float64, c color.Color, dashes []vg.Length) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return nil, err
	}
	l.Color, l.Width, l.Dashes = c, vg.Points(1.5), dashes
	return l, nil
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
	vals := make(plotter.Values, len(ns))
	pts := make(plotter.XYs, len(ns))
	for i, d := range ns {
		vals[i] = float64(d) / div
		// Spread the dots across the box in sample order, so a drift shows as a slope.
		x := -0.3
		if len(ns) > 1 {
			x += 0.6 * float64(i) / float64(len(ns)-1)
		}
		pts[i] = plotter.XY{X: x, Y: vals[i]}
	}
	p := plot.New()
	p.Title.Text = BenchLabel(row.Key)
	p.Y.Label.Text = fmt.Sprintf("per-launch time (%s)", unit)
	p.X.Label.Text = fmt.Sprintf("%s in order, %s timer", units.Count(len(ns), "sample"), m.Timer)
	p.X.Tick.Marker = plot.ConstantTicks(nil)
	p.Y.Tick.Marker = preciseTicks{}
	box, err := plotter.NewBoxPlot(vg.Points(60), 0, vals)
	if err != nil {
		return nil, err
	}
	box.FillColor = color.RGBA{R: 0xdd, G: 0xe8, B: 0xf5, A: 0xff}
	dots, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	dots.GlyphStyle.Color = color.RGBA{R: 0x1f, G: 0x4e, B: 0x8c, A: 0xff}
	dots.GlyphStyle.Radius = vg.Points(2)
	dots.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(box, dots)
	s := m.Summary
	lines := []struct {
		name   string
		v      float64
		c      color.Color
		dashes []vg.Length
	}{
		{"min " + inUnit(s.Min, div, unit), float64(s.Min), color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, []vg.Length{vg.Points(2), vg.Points(2)}},
		{"median " + inUnit(s.Median, div, unit), float64(s.Median), color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, nil},
		{"mean " + inUnit(s.Mean, div, unit), float64(s.Mean), color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, []vg.Length{vg.Points(6), vg.Points(3)}},
	}
	for _, l := range lines {
		ln, err := hline(-0.45, 0.45, l.v/div, l.c, l.dashes)
		if err != nil {
			return nil, err
		}
		p.Add(ln)
		p.Legend.Add(l.name, ln)
	}
	p.Legend.Top = true
	p.X.Min, p.X.Max = -0.5, 1.1 // room on the right for the legend
	p.Legend.XOffs = 0
	return svgOf(p, plotWidth, plotHeight)
}

// A Sweep is a set of rows that share a name and every parameter but one
// numeric one, Param: one series per device (and host).
type Sweep struct {
	Name, Param string
	// Fixed are the parameters the rows share ("type=float").
	Fixed  string
	Series []SweepSeries
}

// A SweepSeries is one device's points of a Sweep, sorted by X.
type SweepSeries struct {
	Label string
	Rows  []Row
	X     []float64
}

// Sweeps finds the sweeps among rows: for each benchmark name and each
// parameter whose values are all quantities (see ParseQuantity), the rows that
// agree on every other parameter, when they hold at least two values of it.
func Sweeps(rows []Row, multiHost bool) []Sweep {
	byName := map[string][]Row{}
	var names []string
	for _, r := range rows {
		if _, ok := byName[r.Key.Name]; !ok {
			names = append(names, r.Key.Name)
		}
		byName[r.Key.Name] = append(byName[r.Key.Name], r)
	}
	var out []Sweep
	for _, name := range names {
		out = append(out, sweepsOf(name, byName[name])...)
	}
	return out
}

// sweepsOf returns the sweeps of the rows rs of benchmark name.
func sweepsOf(name string, rs []Row) []Sweep {
	var pnames []string
	for _, p := range rs[0].Bench.OrderedParams() {
		pnames = append(pnames, p.Name)
	}
	// determines(x, y): every value of x goes with one value of y.
	determines := func(x, y string) bool {
		m := map[string]string{}
		for _, r := range rs {
			xv, yv := r.Bench.Params[x], r.Bench.Params[y]
			if prev, ok := m[xv]; ok && prev != yv {
				return false
			}
			m[xv] = yv
		}
		return true
	}
	var out []Sweep
	for pi, pn := range pnames {
		// A parameter that moves in lockstep with an earlier one (global
		// with n) is the same sweep: skip it.
		dup := false
		for _, earlier := range pnames[:pi] {
			if determines(earlier, pn) && determines(pn, earlier) {
				dup = true
			}
		}
		if dup {
			continue
		}
		// Parameters that follow pn (global with n) do not split the rows.
		follows := map[string]bool{}
		for _, q := range pnames {
			if q != pn && determines(pn, q) && !determines("\x00none", q) {
				follows[q] = true // varies, but with pn
			}
		}
		groups, gorder, numeric := sweepGroups(rs, pn, follows)
		if !numeric {
			continue
		}
		for _, f := range gorder {
			if sw, ok := sweepOf(name, pn, f, groups[f]); ok {
				out = append(out, sw)
			}
		}
	}
	return out
}

// sweepGroups splits rs by the values of their parameters other than pn and
// those that follow it, in the order first seen; numeric is false when a row
// has no quantity for pn.
func sweepGroups(rs []Row, pn string, follows map[string]bool) (groups map[string][]Row, order []string, numeric bool) {
	groups = map[string][]Row{}
	for _, r := range rs {
		v, ok := r.Bench.Params[pn]
		if _, isNum := ParseQuantity(v); !ok || !isNum {
			return nil, nil, false
		}
		var fixed []string
		for _, p := range r.Bench.OrderedParams() {
			if p.Name != pn && !follows[p.Name] {
				fixed = append(fixed, p.Name+"="+p.Value)
			}
		}
		f := strings.Join(fixed, " ")
		if _, ok := groups[f]; !ok {
			order = append(order, f)
		}
		groups[f] = append(groups[f], r)
	}
	return groups, order, true
}

// sweepOf makes the sweep of benchmark name over pn of rows (which agree on
// the fixed parameters): one series per device, sorted by pn. It is no
// sweep (false) with fewer than two values of pn.
func sweepOf(name, pn, fixed string, rows []Row) (Sweep, bool) {
	sw := Sweep{Name: name, Param: pn, Fixed: fixed}
	xs := map[float64]bool{}
	series := map[string]*SweepSeries{}
	var sorder []string
	for _, r := range rows {
		x, _ := ParseQuantity(r.Bench.Params[pn])
		xs[x] = true
		label := r.Key.Device
		if r.Where != "" {
			label += " @" + r.Where
		}
		s := series[label]
		if s == nil {
			s = &SweepSeries{Label: label}
			series[label] = s
			sorder = append(sorder, label)
		}
		s.Rows = append(s.Rows, r)
		s.X = append(s.X, x)
	}
	if len(xs) < 2 {
		return Sweep{}, false
	}
	for _, l := range sorder {
		s := series[l]
		idx := make([]int, len(s.X))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.X[a], s.X[b]) })
		ss := SweepSeries{Label: s.Label}
		for _, i := range idx {
			ss.Rows = append(ss.Rows, s.Rows[i])
			ss.X = append(ss.X, s.X[i])
		}
		sw.Series = append(sw.Series, ss)
	}
	return sw, true
}

// sweepMetric picks what a sweep plots: bandwidth when every row has one, else
// the compute rate, else the median per-launch time.
func sweepMetric(sw Sweep) (label string, value func(Row) float64) {
	all := func(f func(Row) float64) bool {
		for _, s := range sw.Series {
			for _, r := range s.Rows {
				if f(r) <= 0 {
					return false
				}
			}
		}
		return true
	}
	bw := func(r Row) float64 {
		if t := r.M().Throughput; t != nil {
			return t.GBPerSecond
		}
		return 0
	}
	ops := func(r Row) float64 {
		if t := r.M().Throughput; t != nil {
			return t.GOpsPerSecond
		}
		return 0
	}
	if all(bw) {
		return "bandwidth (median)", bw
	}
	if all(ops) {
		u := sw.Series[0].Rows[0].M().Throughput.OpsUnit
		if u == "" {
			u = "op"
		}
		return fmt.Sprintf("%s/s (median)", u), ops
	}
	return "median time", func(r Row) float64 { return float64(r.M().Summary.Median) }
}

// SweepPlot draws a sweep: the metric against the swept parameter, one line per
// series, with logarithmic axes where the values span at least a factor of 10.
func SweepPlot(sw Sweep) ([]byte, error) {
	ylabel, value := sweepMetric(sw)
	p := plot.New()
	p.Title.Text = sw.Name
	if sw.Fixed != "" {
		p.Title.Text += " (" + sw.Fixed + ")"
	}
	p.X.Label.Text = sw.Param
	p.Y.Label.Text = ylabel
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	var args []any
	ticks := map[float64]string{}
	for _, s := range sw.Series {
		xys := make(plotter.XYs, len(s.Rows))
		for i, r := range s.Rows {
			xys[i] = plotter.XY{X: s.X[i], Y: value(r)}
			ticks[s.X[i]] = r.Bench.Params[sw.Param]
			xmin, xmax = math.Min(xmin, s.X[i]), math.Max(xmax, s.X[i])
			ymin, ymax = math.Min(ymin, xys[i].Y), math.Max(ymax, xys[i].Y)
		}
		args = append(args, s.Label, xys)
	}
	// Ticks at the swept values, labelled as the parameter was written.
	var tk []plot.Tick
	for x, l := range ticks {
		tk = append(tk, plot.Tick{Value: x, Label: l})
	}
	slices.SortFunc(tk, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	p.X.Tick.Marker = plot.ConstantTicks(tk)
	if xmin > 0 && xmax/xmin >= 10 {
		p.X.Scale = plot.LogScale{}
		p.X.Label.Text += " (log)"
		p.X.Min, p.X.Max = xmin/1.3, xmax*1.3
	}
	// Head room above the highest point for the legend.
	var yt plot.Ticker = plot.DefaultTicks{}
	if ymin > 0 && ymax/ymin >= 10 {
		yt = plot.LogTicks{Prec: -1}
	}
	p.Y.Tick.Marker = rateTicks{yt, sweepUnit(ylabel)}
	if ylabel == "median time" {
		p.Y.Tick.Marker = timeTicks{yt}
	}
	if ymin > 0 && ymax/ymin >= 10 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Label.Text += " (log)"
		p.Y.Min, p.Y.Max = ymin/2, ymax*20
	} else {
		p.Y.Min, p.Y.Max = 0, ymax*1.35
	}
	p.Legend.TextStyle.Font.Size = vg.Points(9) // before the entries: they take it when added
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return nil, err
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(8)
	return svgOf(p, plotWidth, plotHeight)
}

// A FigureChart is the figures of one device in one unit, from suites.
type FigureChart struct {
	Device, Unit string
	Figures      []FigureRow
}
