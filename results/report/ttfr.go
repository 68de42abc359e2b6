package report

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// TTFRParts are the figures of a cache-bench benchmark that add up to its time
// to first result, in the order they happen.
var TTFRParts = []string{"enumeration", "context creation", "program build", "first launch"}

// cacheModeOrder is the order of 'cache bench' modes in a chart; other modes
// follow in the order met.
var cacheModeOrder = []string{"cold", "driver cache", "clmeter cache", "both caches", "miss"}

// A TTFRChart is one program's time to first result in each cache mode on one
// device, from 'cache bench' results (Kind "cache-bench", named program/mode).
type TTFRChart struct {
	Device, Program string
	// Modes are the cache modes, in cacheModeOrder.
	Modes []string
	// MS[i][j] is part TTFRParts[i] of mode j in milliseconds (each the
	// median over the trials).
	MS [][]float64
	// Total[j] is mode j's time to first result (the median of each trial's
	// sum, so not quite the sum of the parts' medians); 0 when not recorded.
	Total []float64
}

// TTFRCharts groups the cache-bench figures by device and program.
func TTFRCharts(figs []FigureRow, multiHost bool) []TTFRChart {
	type key struct{ dev, prog string }
	var order []key
	parts := map[key]map[string][]float64{} // mode -> part values, then the total
	for _, f := range figs {
		if f.Kind != "cache-bench" || f.Figure.Unit != "ms" {
			continue
		}
		pi := slices.Index(TTFRParts, f.Figure.Name)
		if f.Figure.Name == "time to first result" {
			pi = len(TTFRParts)
		}
		i := strings.LastIndex(f.Key.Name, "/")
		if pi < 0 || i < 0 {
			continue
		}
		dev := f.Key.Device
		if f.Where != "" && multiHost {
			dev += " @" + f.Where
		}
		k := key{dev, f.Key.Name[:i]}
		mode := f.Key.Name[i+1:]
		if parts[k] == nil {
			parts[k] = map[string][]float64{}
			order = append(order, k)
		}
		if parts[k][mode] == nil {
			parts[k][mode] = make([]float64, len(TTFRParts)+1)
		}
		parts[k][mode][pi] = f.Figure.Value
	}
	var out []TTFRChart
	for _, k := range order {
		c := TTFRChart{Device: k.dev, Program: k.prog, MS: make([][]float64, len(TTFRParts))}
		var modes []string
		for m := range parts[k] {
			modes = append(modes, m)
		}
		rank := func(m string) int {
			if i := slices.Index(cacheModeOrder, m); i >= 0 {
				return i
			}
			return len(cacheModeOrder)
		}
		slices.SortStableFunc(modes, func(a, b string) int {
			if ra, rb := rank(a), rank(b); ra != rb {
				return ra - rb
			}
			return strings.Compare(a, b)
		})
		c.Modes = modes
		for i := range TTFRParts {
			for _, m := range modes {
				c.MS[i] = append(c.MS[i], parts[k][m][i])
			}
		}
		for _, m := range modes {
			c.Total = append(c.Total, parts[k][m][len(TTFRParts)])
		}
		out = append(out, c)
	}
	return out
}

// ttfrColors are the parts' colours: enumeration, context, build, first launch.
var ttfrColors = []color.Color{
	color.RGBA{R: 0xbb, G: 0xbb, B: 0xbb, A: 0xff},
	color.RGBA{R: 0x9e, G: 0xc9, B: 0xe2, A: 0xff},
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
}

// TTFRPlot draws a TTFRChart: one stacked bar per mode, its parts from the
// bottom in the order they happen, the total above each bar.
func TTFRPlot(c TTFRChart) ([]byte, error) {
	if len(c.Modes) == 0 {
		return nil, fmt.Errorf("%s: no cache modes to plot", c.Program)
	}
	p := plot.New()
	p.Title.Text = c.Program + ": time to first result"
	p.Y.Label.Text = "ms"
	p.Y.Min = 0
	var prev *plotter.BarChart
	totals := make([]float64, len(c.Modes))
	for i, name := range TTFRParts {
		vals := make(plotter.Values, len(c.Modes))
		copy(vals, c.MS[i])
		for j, v := range vals {
			totals[j] += v
		}
		bars, err := plotter.NewBarChart(vals, vg.Points(36))
		if err != nil {
			return nil, err
		}
		bars.Color = ttfrColors[i%len(ttfrColors)]
		bars.LineStyle.Width = 0
		if prev != nil {
			bars.StackOn(prev)
		}
		p.Add(bars)
		p.Legend.Add(name, bars)
		prev = bars
	}
	labels := make([]string, len(totals))
	pts := make(plotter.XYs, len(totals))
	top := 0.0
	for j, t := range totals {
		if j < len(c.Total) && c.Total[j] > 0 {
			t = c.Total[j]
		}
		labels[j] = fmt.Sprintf("%.0f ms", t)
		if t < 100 {
			labels[j] = fmt.Sprintf("%.3g ms", t)
		}
		pts[j] = plotter.XY{X: float64(j), Y: t}
		top = max(top, t)
	}
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].XAlign = -0.5 // centred over the bar
	}
	lab.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(lab)
	p.Y.Max = top * 1.45
	p.NominalX(c.Modes...)
	p.Legend.Top = true
	p.Legend.Left = false
	return svgOf(p, plotWidth, plotHeight)
}

// CacheVerdicts are the verdict lines of the cache-bench benchmarks of srcs,
// once each, in the order met.
func CacheVerdicts(srcs []results.Source) []string {
	var out []string
	for _, s := range srcs {
		for _, b := range s.File.Benchmarks {
			if v, ok := b.Extra["verdict"].(string); ok && b.Kind == "cache-bench" && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}
