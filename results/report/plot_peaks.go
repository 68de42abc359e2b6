package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/svgchart"
	"github.com/clmeter/clmeter/units"
)

// A PeakChart is one device's peaks suite drawn as grouped bars: bandwidth by
// access pattern (one colour each) and vector width (one group each), or
// compute by type and width, with the device's peak figures as lines.
type PeakChart struct {
	// Device names the device (its short label in a report); Source is the
	// result file the suite's run is in (one chart per run).
	Device, Source string
	// What is "bandwidth" or "compute"; Unit the rate's unit without "G" and
	// "/s" ("B", "FLOP", "IOP").
	What, Unit string
	// Widths are the groups, narrowest first; Series the bars of each group.
	Widths []string
	Series []PeakSeries
	// Ceilings are the suite's peak figures in the same unit.
	Ceilings []PeakCeiling
}

// A PeakSeries is one pattern's (or type's) rates, one per width (0: not
// measured), in G<unit>/s (medians).
type PeakSeries struct {
	Name  string
	Rates []float64
}

// A PeakCeiling is one peak figure drawn across a PeakChart.
type PeakCeiling struct {
	Name string
	Rate float64
	// Series is the index of the series it belongs to, or -1.
	Series int
}

// peakColours are the series' colours (Tableau 10); LegendColour hands them to
// the page's legend.
var peakColours = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xd6, 0x27, 0x28, 0xff},
	{0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0xbc, 0xbd, 0x22, 0xff},
	{0x17, 0xbe, 0xcf, 0xff},
}

var ceilingGrey = color.RGBA{0x44, 0x44, 0x44, 0xff}

// PeakCharts finds the peaks suite's sampled benchmarks among rows
// (peaks/bandwidth/PATTERN/..., peaks/local-bandwidth/..., and
// peaks/compute/TYPE/WIDTH) and groups them per device: one bandwidth chart
// and one compute chart per operation unit. label names each row's device.
func PeakCharts(rows []Row, figs []FigureRow, label func(device, where string) string) []PeakChart {
	order, points := peakPoints(rows, label)
	var out []PeakChart
	for _, k := range order {
		c := &PeakChart{Device: k.dev, Source: k.src, What: k.what, Unit: k.unit}
		c.fill(points[k])
		c.addCeilings(k, figs, label)
		// One bar is no chart, nor is one series of two: the figures are
		// in the table, which says them better.
		if b := c.bars(); b >= 3 || b == 2 && c.seriesWithBars() >= 2 {
			out = append(out, *c)
		}
	}
	// A device with runs in several files names the file in each title.
	files := map[string]map[string]bool{}
	for _, c := range out {
		if files[c.Device] == nil {
			files[c.Device] = map[string]bool{}
		}
		files[c.Device][c.Source] = true
	}
	for i := range out {
		if len(files[out[i].Device]) < 2 {
			out[i].Source = ""
		}
	}
	return out
}

// A peakKey is one chart: a device in a file, bandwidth or compute, a unit.
type peakKey struct{ dev, src, what, unit string }

// A peakPoint is one bar: a series (pattern or type) at a width.
type peakPoint struct {
	series, width string
	rate          float64
}

// peakPoints returns the bars of the peaks suite's rows per chart, and the
// charts in the order first seen.
func peakPoints(rows []Row, label func(device, where string) string) ([]peakKey, map[peakKey][]peakPoint) {
	var order []peakKey
	points := map[peakKey][]peakPoint{}
	add := func(k peakKey, pt peakPoint) {
		if _, ok := points[k]; !ok {
			order = append(order, k)
		}
		points[k] = append(points[k], pt)
	}
	for _, row := range rows {
		t := row.M().Throughput
		if t == nil {
			continue
		}
		dev := label(row.Key.Device, row.Where)
		id := row.Bench.Identity
		if id == nil || id.Best || id.Width == 0 {
			continue
		}
		width := strconv.Itoa(id.Width)
		switch {
		case id.Kind == results.KindBandwidth && id.Pattern != "" && t.GBPerSecond > 0:
			add(peakKey{dev, row.Source, "bandwidth", "B"}, peakPoint{id.Pattern, width, t.GBPerSecond})
		case id.Kind == results.KindLocalBandwidth && t.GBPerSecond > 0:
			add(peakKey{dev, row.Source, "bandwidth", "B"}, peakPoint{"local", width, t.GBPerSecond})
		case id.Kind == results.KindCompute && id.Type != "" && t.GOpsPerSecond > 0:
			add(peakKey{dev, row.Source, "compute", cmp.Or(t.OpsUnit, "op")}, peakPoint{id.Type, width, t.GOpsPerSecond})
		}
	}
	return order, points
}

// seriesIndex returns the index of the series named name, adding it.
func (c *PeakChart) seriesIndex(name string) int {
	for i, s := range c.Series {
		if s.Name == name {
			return i
		}
	}
	c.Series = append(c.Series, PeakSeries{Name: name})
	return len(c.Series) - 1
}

// fill sets the chart's widths (by value), series and rates from its bars.
func (c *PeakChart) fill(pts []peakPoint) {
	for _, pt := range pts {
		if !slices.Contains(c.Widths, pt.width) {
			c.Widths = append(c.Widths, pt.width)
		}
		c.seriesIndex(pt.series)
	}
	slices.SortFunc(c.Widths, func(a, b string) int {
		x, _ := ParseQuantity(a)
		y, _ := ParseQuantity(b)
		return cmp.Compare(x, y)
	})
	for i := range c.Series {
		c.Series[i].Rates = make([]float64, len(c.Widths))
	}
	for _, pt := range pts {
		c.Series[c.seriesIndex(pt.series)].Rates[slices.Index(c.Widths, pt.width)] = pt.rate
	}
}

// addCeilings adds the suite's peak figures of the chart's device and file
// as its dashed lines.
func (c *PeakChart) addCeilings(k peakKey, figs []FigureRow, label func(device, where string) string) {
	for _, f := range figs {
		if label(f.Key.Device, f.Where) != k.dev || f.Source != k.src || f.Figure.Value <= 0 {
			continue
		}
		unit, ok := strings.CutSuffix(f.Figure.Unit, "/s")
		if !ok || !strings.HasPrefix(unit, "G") || unit[1:] != k.unit {
			continue
		}
		id := f.Identity
		if id == nil || !id.Best {
			continue
		}
		switch {
		case k.what == "bandwidth" && id.Kind == results.KindBandwidth:
			c.Ceilings = append(c.Ceilings, PeakCeiling{Name: "peak global " + units.Rate(f.Figure.Value, k.unit), Rate: f.Figure.Value, Series: -1})
		case k.what == "bandwidth" && id.Kind == results.KindLocalBandwidth:
			c.Ceilings = append(c.Ceilings, PeakCeiling{Name: "peak local " + units.Rate(f.Figure.Value, k.unit), Rate: f.Figure.Value, Series: slices.IndexFunc(c.Series, func(s PeakSeries) bool { return s.Name == "local" })})
		case k.what == "compute" && id.Kind == results.KindCompute:
			typ := id.Type
			si := slices.IndexFunc(c.Series, func(s PeakSeries) bool { return s.Name == typ })
			if si >= 0 {
				c.Ceilings = append(c.Ceilings, PeakCeiling{Name: "peak " + typ + " " + units.Rate(f.Figure.Value, k.unit), Rate: f.Figure.Value, Series: si})
			}
		}
	}
}

// bars counts the chart's bars with a rate.
func (c *PeakChart) bars() int {
	n := 0
	for _, s := range c.Series {
		for _, r := range s.Rates {
			if r > 0 {
				n++
			}
		}
	}
	return n
}

// seriesWithBars counts the chart's series that have a bar with a rate.
func (c *PeakChart) seriesWithBars() int {
	n := 0
	for _, s := range c.Series {
		if slices.ContainsFunc(s.Rates, func(r float64) bool { return r > 0 }) {
			n++
		}
	}
	return n
}

// Title names the chart, and the file when its device has runs in several
// (Source is then kept).
func (c PeakChart) Title() string {
	dev := c.Device
	if c.Source != "" {
		dev += " (" + filepath.Base(c.Source) + ")"
	}
	if c.What == "bandwidth" {
		return dev + ": memory bandwidth by access pattern and vector width"
	}
	return dev + ": compute (" + c.Unit + ") by type and vector width"
}

// rateScale picks a prefix for rates in G<unit>/s whose largest is max:
// values are divided by div and the axis reads name.
func rateScale(max float64, unit string) (div float64, name string) {
	switch {
	case max >= 1e3:
		return 1e3, "T" + unit + "/s"
	case max < 1:
		return 1e-3, "M" + unit + "/s"
	}
	return 1, "G" + unit + "/s"
}

// A LegendEntry is one swatch of a chart's legend, drawn by the page beside
// the chart: a bar or point colour, or a (dashed) line.
type LegendEntry struct {
	Label  string
	Colour string
	Line   bool
	Dashed bool
}

func cssColour(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func (c PeakChart) ceilingColour(k PeakCeiling) color.RGBA {
	if k.Series >= 0 {
		return peakColours[k.Series%len(peakColours)]
	}
	return ceilingGrey
}

// Legend is the chart's key: each series' colour, then each peak line.
func (c PeakChart) Legend() []LegendEntry {
	var out []LegendEntry
	for i, s := range c.Series {
		out = append(out, LegendEntry{Label: s.Name, Colour: cssColour(peakColours[i%len(peakColours)])})
	}
	for _, k := range c.Ceilings {
		out = append(out, LegendEntry{Label: k.Name, Colour: cssColour(c.ceilingColour(k)), Line: true, Dashed: true})
	}
	return out
}

// PeakPlot draws a PeakChart: a group of bars per vector width, a bar per
// series, the peak figures as dashed lines; the legend is the page's
// (PeakChart.Legend).
func PeakPlot(c PeakChart) ([]byte, error) {
	top := 0.0
	for _, s := range c.Series {
		for _, r := range s.Rates {
			top = math.Max(top, r)
		}
	}
	for _, k := range c.Ceilings {
		top = math.Max(top, k.Rate)
	}
	if top <= 0 {
		return nil, fmt.Errorf("%s: nothing to draw", c.Title())
	}
	div, uname := rateScale(top, c.Unit)
	nw := float64(len(c.Widths))
	y := svgchart.Axis{Label: uname + " (median)", Min: 0, Max: top / div * 1.12}
	y.Ticks = preciseTicks(svgchart.LinearTicks(y.Min, y.Max, 4), y.Min, y.Max)
	x := svgchart.Axis{Label: "vector width", Min: -0.5, Max: nw - 0.5, Ticks: svgchart.Nominal(c.Widths...)}
	p := svgchart.NewPlot(plotWidth, plotHeight, x, y)
	cv := newCanvas(plotWidth, plotHeight)
	p.DrawAxes(cv)
	n := float64(len(c.Series))
	groupW := math.Min(math.Min(60, 300/math.Max(1, nw)), 0.9*(p.Area.X1-p.Area.X0)/math.Max(1, nw))
	barW := groupW / n
	for i, s := range c.Series {
		colour := cssColour(peakColours[i%len(peakColours)])
		for j, r := range s.Rates {
			if r <= 0 {
				continue
			}
			x0 := p.PX(float64(j)) + barW*(float64(i)-(n-1)/2) - barW/2
			cv.Rect(svgchart.Rect{X0: x0, Y0: p.PY(r / div), X1: x0 + barW, Y1: p.PY(0)}, svgchart.Style{Fill: colour, Class: "bar"})
		}
	}
	for _, k := range c.Ceilings {
		yy := p.PY(k.Rate / div)
		cv.Line(p.Area.X0, yy, p.Area.X1, yy, svgchart.Style{Stroke: cssColour(c.ceilingColour(k)), Width: 1.2, Dash: []float64{5, 3}})
	}
	return cv.Bytes(), nil
}
