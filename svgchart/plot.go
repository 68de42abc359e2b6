package svgchart

import (
	"math"
	"strings"
)

// An Axis is one axis of a Plot: its title, its range, whether its scale is
// logarithmic (Min must then be positive), and its ticks.
type Axis struct {
	Label    string
	Min, Max float64
	Log      bool
	Ticks    []Tick
}

// frac is where v lies on the axis, 0 at Min and 1 at Max.
func (a Axis) frac(v float64) float64 {
	if !(a.Max > a.Min) || a.Log && !(a.Min > 0) {
		return 0.5 // an empty or bad range: the middle, not NaN
	}
	if a.Log {
		return (math.Log10(v) - math.Log10(a.Min)) / (math.Log10(a.Max) - math.Log10(a.Min))
	}
	return (v - a.Min) / (a.Max - a.Min)
}

// Nominal returns ticks labelled names at 0, 1, ...; the axis that shows
// them runs from -0.5 to len(names)-0.5.
func Nominal(names ...string) []Tick {
	out := make([]Tick, len(names))
	for i, n := range names {
		out[i] = Tick{Value: float64(i), Label: n}
	}
	return out
}

// The plot's margins and tick sizes, in user units.
const (
	// Pad is the margin kept free at the SVG's edges.
	Pad      = 6.0
	tickLen  = 6.0
	minorLen = 3.0
	gap      = 3.0
)

// A Plot is a chart with two axes: Layout places its data area (Area) in
// the W by H canvas so that the tick labels and the axes' titles, set at
// FontSize, fit around it.
type Plot struct {
	W, H     float64
	X, Y     Axis
	FontSize float64
	Area     Rect
}

// NewPlot returns a w by h plot of axes x and y, its area laid out, with
// text at 10 units.
func NewPlot(w, h float64, x, y Axis) *Plot {
	p := &Plot{W: w, H: h, X: x, Y: y, FontSize: 10}
	p.Layout()
	return p
}

// Layout sets Area from the canvas size, the tick labels and the titles.
func (p *Plot) Layout() {
	fs, th := p.FontSize, TextHeight(p.FontSize)
	yw := 0.0
	for _, t := range p.Y.Ticks {
		yw = math.Max(yw, TextWidth(t.Label, fs))
	}
	left := Pad + yw + gap + tickLen
	if p.Y.Label != "" {
		left += th + gap
	}
	bottom := Pad + tickLen
	if p.X.Label != "" {
		bottom += th + gap
	}
	if labelled(p.X.Ticks) {
		bottom += th + gap
	}
	top, right := Pad, Pad
	if labelled(p.Y.Ticks) {
		top += th / 2
	}
	// An x tick label centred at an end of the axis may need more room.
	for range 3 {
		for _, t := range p.X.Ticks {
			if t.Label == "" || !p.inX(t.Value) {
				continue
			}
			x := left + p.X.frac(t.Value)*(p.W-left-right)
			hw := TextWidth(t.Label, fs) / 2
			if over := x + hw - (p.W - Pad); over > 0 {
				right += over
			}
			if over := Pad - (x - hw); over > 0 {
				left += over
			}
		}
	}
	p.Area = Rect{X0: left, Y0: top, X1: p.W - right, Y1: p.H - bottom}
	if labelled(p.X.Ticks) {
		// Room for a second row or lines of x tick labels.
		p.Area.Y1 -= math.Max(0, p.xLabels().height()-th)
	}
}

func labelled(ts []Tick) bool {
	for _, t := range ts {
		if t.Label != "" {
			return true
		}
	}
	return false
}

func (p *Plot) inX(v float64) bool { return within(p.X, v) }
func (p *Plot) inY(v float64) bool { return within(p.Y, v) }

func within(a Axis, v float64) bool {
	lo, hi := math.Min(a.Min, a.Max), math.Max(a.Min, a.Max)
	eps := (hi - lo) * 1e-9
	return v >= lo-eps && v <= hi+eps && (!a.Log || v > 0)
}

// PX is where x value v lies across the canvas.
func (p *Plot) PX(v float64) float64 { return p.Area.X0 + p.X.frac(v)*(p.Area.X1-p.Area.X0) }

// PY is where y value v lies down the canvas.
func (p *Plot) PY(v float64) float64 { return p.Area.Y1 - p.Y.frac(v)*(p.Area.Y1-p.Area.Y0) }

// P is the canvas point of values (x, y).
func (p *Plot) P(x, y float64) Point { return Point{p.PX(x), p.PY(y)} }

// axisStyle is the axes' and ticks' stroke.
var axisStyle = Style{Stroke: "#333", Width: 0.8}

// DrawAxes draws the axes along the area's left and bottom edges, their
// ticks, tick labels and titles. X tick labels too close for their size
// are set smaller (down to 70%), then on two staggered rows, then wrapped
// (xLabels); a tick label that would still overlap the one before it is
// left out.
func (p *Plot) DrawAxes(c *Canvas) {
	a, fs := p.Area, p.FontSize
	c.Line(a.X0, a.Y1, a.X1, a.Y1, axisStyle)
	c.Line(a.X0, a.Y0, a.X0, a.Y1, axisStyle)
	p.drawXTicks(c)
	p.drawYTicks(c)
	if p.X.Label != "" {
		c.Text((a.X0+a.X1)/2, p.H-Pad-Descent*fs, p.X.Label, Font{Size: fs, Anchor: Middle})
	}
	if p.Y.Label != "" {
		c.Text(Pad+Ascent*fs, (a.Y0+a.Y1)/2, p.Y.Label, Font{Size: fs, Anchor: Middle, Up: true})
	}
}

// An xPlan is how the x tick labels are set: their size, on one row or
// two staggered rows, each label on one line or wrapped at its spaces
// (lines, one entry a labelled tick).
type xPlan struct {
	size  float64
	rows  int
	lines [][]string
}

// height is the room the labels take below the ticks.
func (x xPlan) height() float64 {
	n := x.rows
	for _, l := range x.lines {
		n = max(n, len(l))
	}
	return float64(n) * TextHeight(x.size)
}

// xLabels plans the x tick labels: the largest size from FontSize down to
// 70% of it at which no two labels come closer than 4 units on one row,
// else the same on two staggered rows, else at the smallest size each
// wrapped at its spaces to the room between ticks; failing all, one row
// at the smallest size, from which drawXTicks leaves out labels that would
// overlap.
func (p *Plot) xLabels() xPlan {
	var labels []Tick
	for _, t := range p.X.Ticks {
		if t.Label != "" && p.inX(t.Value) {
			labels = append(labels, t)
		}
	}
	one := func(size float64, rows int) xPlan {
		x := xPlan{size: size, rows: rows}
		for _, t := range labels {
			x.lines = append(x.lines, []string{t.Label})
		}
		return x
	}
	for rows := 1; rows <= 2; rows++ {
		for size := p.FontSize; size >= 0.7*p.FontSize; size -= 0.5 {
			if x := one(size, rows); p.xFits(labels, x) {
				return x
			}
		}
	}
	x := xPlan{size: 0.7 * p.FontSize, rows: 1}
	room := math.Inf(1)
	for i := 1; i < len(labels); i++ {
		room = math.Min(room, p.PX(labels[i].Value)-p.PX(labels[i-1].Value)-4)
	}
	for _, t := range labels {
		x.lines = append(x.lines, wrap(t.Label, x.size, room))
	}
	if p.xFits(labels, x) {
		return x
	}
	return one(0.7*p.FontSize, 1)
}

// wrap splits s at its spaces into lines that fit width set at size (a
// word wider than width is a line of its own).
func wrap(s string, size, width float64) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if n := len(out); n > 0 && TextWidth(out[n-1]+" "+w, size) <= width {
			out[n-1] += " " + w
			continue
		}
		out = append(out, w)
	}
	return out
}

// xFits reports whether labels set as x keep 4 units apart on each row.
func (p *Plot) xFits(labels []Tick, x xPlan) bool {
	prev := []float64{math.Inf(-1), math.Inf(-1)}
	for i, t := range labels {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, l := range x.lines[i] {
			b := TextBox(p.PX(t.Value), 0, l, Font{Size: x.size, Anchor: Middle})
			lo, hi = math.Min(lo, b.X0), math.Max(hi, b.X1)
		}
		if lo < prev[i%x.rows]+4 {
			return false
		}
		prev[i%x.rows] = hi
	}
	return true
}

func (p *Plot) drawXTicks(c *Canvas) {
	a := p.Area
	x := p.xLabels()
	f := Font{Size: x.size, Anchor: Middle}
	th := TextHeight(x.size)
	prev := []float64{math.Inf(-1), math.Inf(-1)}
	i := 0
	for _, t := range p.X.Ticks {
		if !p.inX(t.Value) {
			continue
		}
		px, l := p.PX(t.Value), minorLen
		if t.Label != "" {
			l = tickLen
		}
		c.Line(px, a.Y1, px, a.Y1+l, axisStyle)
		if t.Label == "" {
			continue
		}
		row, lines := i%x.rows, x.lines[i]
		i++
		y := a.Y1 + tickLen + gap + Ascent*x.size + float64(row)*th
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, l := range lines {
			b := TextBox(px, y, l, f)
			lo, hi = math.Min(lo, b.X0), math.Max(hi, b.X1)
		}
		if lo < prev[row]+4 {
			continue
		}
		prev[row] = hi
		for k, l := range lines {
			c.Text(px, y+float64(k)*th, l, f)
		}
	}
}

func (p *Plot) drawYTicks(c *Canvas) {
	a, fs := p.Area, p.FontSize
	f := Font{Size: fs, Anchor: End}
	prev := math.Inf(1)
	for _, t := range p.Y.Ticks {
		if !p.inY(t.Value) {
			continue
		}
		y, l := p.PY(t.Value), minorLen
		if t.Label != "" {
			l = tickLen
		}
		c.Line(a.X0-l, y, a.X0, y, axisStyle)
		x, by := a.X0-tickLen-gap, y+(Ascent-Descent)/2*fs
		if b := TextBox(x, by, t.Label, f); t.Label != "" && b.Y1 <= prev-1 {
			c.Text(x, by, t.Label, f)
			prev = b.Y0
		}
	}
}
