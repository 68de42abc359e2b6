package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/svgchart"
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
var ttfrColors = []string{"#bbbbbb", "#9ec9e2", "#1f77b4", "#ff7f0e"}

// TTFRPlot draws a TTFRChart: one stacked bar per mode, its parts from the
// bottom in the order they happen, the total above each bar.
func TTFRPlot(c TTFRChart) ([]byte, error) {
	if len(c.Modes) == 0 {
		return nil, fmt.Errorf("%s: no cache modes to plot", c.Program)
	}
	totals := make([]float64, len(c.Modes))
	labels := make([]string, len(c.Modes))
	top := 0.0
	for j := range c.Modes {
		for i := range TTFRParts {
			totals[j] += c.MS[i][j]
		}
		t := totals[j]
		if j < len(c.Total) && c.Total[j] > 0 {
			t = c.Total[j]
		}
		labels[j] = fmt.Sprintf("%.0f ms", t)
		if t < 100 {
			labels[j] = fmt.Sprintf("%.3g ms", t)
		}
		top = max(top, t, totals[j])
	}
	if top <= 0 {
		top = 1 // nothing recorded: an axis to 1 ms
	}
	leg := svgchart.Legend{Size: 10}
	for i, name := range TTFRParts {
		leg.Entries = append(leg.Entries, svgchart.LegendEntry{Label: name, Colour: ttfrColors[i%len(ttfrColors)], Swatch: svgchart.SwatchBox})
	}
	p := ttfrFrame(c.Modes, top, leg)
	cv := newCanvas(plotWidth, plotHeight)
	p.DrawAxes(cv)
	const barW = 36.0
	for j := range c.Modes {
		x0, base := p.PX(float64(j))-barW/2, 0.0
		for i := range TTFRParts {
			v := c.MS[i][j]
			if v > 0 {
				cv.Rect(svgchart.Rect{X0: x0, Y0: p.PY(base + v), X1: x0 + barW, Y1: p.PY(base)}, svgchart.Style{Fill: ttfrColors[i%len(ttfrColors)], Class: "bar"})
			}
			base += v
		}
		t := max(base, totals[j])
		if j < len(c.Total) && c.Total[j] > 0 {
			t = max(t, c.Total[j])
		}
		cv.Text(p.PX(float64(j)), p.PY(t)-3-svgchart.Descent*10, labels[j], svgchart.Font{Size: 10, Anchor: svgchart.Middle})
	}
	lw, _ := leg.Dims()
	leg.Draw(cv, p.Area.X1-lw-2, p.Area.Y0+2)
	return cv.Bytes(), nil
}

// ttfrFrame lays out a TTFR chart of modes whose highest bar or label is at
// top ms: its y axis reaches high enough that the totals' labels stay
// under the legend.
func ttfrFrame(modes []string, top float64, leg svgchart.Legend) *svgchart.Plot {
	x := svgchart.Axis{Min: -0.5, Max: float64(len(modes)) - 0.5, Ticks: svgchart.Nominal(modes...)}
	y := svgchart.Axis{Label: "ms", Min: 0, Max: top * 1.45}
	y.Ticks = svgchart.LinearTicks(y.Min, y.Max, 4)
	p := svgchart.NewPlot(plotWidth, plotHeight, x, y)
	_, lh := leg.Dims()
	room := lh + 8 + svgchart.TextHeight(10) + 3
	for range 2 {
		frac := math.Max(0.3, 1-room/(p.Area.Y1-p.Area.Y0))
		if top/frac <= p.Y.Max {
			break
		}
		p.Y.Max = top / frac
		p.Y.Ticks = svgchart.LinearTicks(p.Y.Min, p.Y.Max, 4)
		p.Layout()
	}
	return p
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
