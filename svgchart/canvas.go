// Package svgchart draws charts as inline SVG, by hand: a canvas of paths,
// circles and text, axes with linear or logarithmic scales and their ticks,
// legends, and a conservative estimate of a text's width so that labels are
// placed without overlapping. The HTML report's charts (results/report) and
// the dashboard's (dashboard) draw with it.
package svgchart

import (
	"fmt"
	"html"
	"strconv"
	"strings"
)

// FontFamily is the CSS font family of every chart's text: Liberation Sans
// and Arial share Helvetica's metrics, which TextWidth estimates.
const FontFamily = `"Liberation Sans", Arial, Helvetica, sans-serif`

// A Canvas is one SVG element being drawn, W by H user units, y down.
type Canvas struct {
	W, H float64
	b    strings.Builder
}

// New starts an SVG of w by h units with the given class attribute, its
// viewBox the same size, so that CSS may scale it.
func New(w, h float64, class string) *Canvas {
	c := &Canvas{W: w, H: h}
	fmt.Fprintf(&c.b, `<svg class="%s" preserveAspectRatio="xMinYMin meet" width="%s" height="%s" viewBox="0 0 %s %s" xmlns="http://www.w3.org/2000/svg" font-family="%s" role="img">`,
		Escape(class), Num(w), Num(h), Num(w), Num(h), Escape(FontFamily))
	return c
}

// Bytes closes the SVG and returns it.
func (c *Canvas) Bytes() []byte {
	c.b.WriteString("</svg>")
	return []byte(c.b.String())
}

// Raw writes s, SVG markup the caller built, into the canvas.
func (c *Canvas) Raw(s string) { c.b.WriteString(s) }

// Num writes a coordinate with at most two decimals.
func Num(v float64) string {
	return strconv.FormatFloat(float64(int64(v*100+copysign(0.5, v)))/100, 'f', -1, 64)
}

func copysign(a, b float64) float64 {
	if b < 0 {
		return -a
	}
	return a
}

// Escape escapes s for SVG text or an attribute value.
func Escape(s string) string { return html.EscapeString(s) }

// A Style is how a shape is painted: CSS colours ("" for none), the stroke's
// width and dash pattern, and a class.
type Style struct {
	Fill, Stroke string
	Width        float64
	Dash         []float64
	Class        string
}

// attrs writes s as attributes.
func (s Style) attrs() string {
	var b strings.Builder
	if s.Class != "" {
		fmt.Fprintf(&b, ` class="%s"`, Escape(s.Class))
	}
	fill := s.Fill
	if fill == "" {
		fill = "none"
	}
	fmt.Fprintf(&b, ` fill="%s"`, Escape(fill))
	if s.Stroke != "" {
		w := s.Width
		if w == 0 {
			w = 1
		}
		fmt.Fprintf(&b, ` stroke="%s" stroke-width="%s"`, Escape(s.Stroke), Num(w))
	}
	if len(s.Dash) > 0 {
		parts := make([]string, len(s.Dash))
		for i, d := range s.Dash {
			parts[i] = Num(d)
		}
		fmt.Fprintf(&b, ` stroke-dasharray="%s"`, strings.Join(parts, ","))
	}
	return b.String()
}

// A Point is a position on the canvas.
type Point struct{ X, Y float64 }

// Polyline draws the path through pts (closed when close is set).
func (c *Canvas) Polyline(pts []Point, close bool, s Style) {
	if len(pts) == 0 {
		return
	}
	var d strings.Builder
	for i, p := range pts {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&d, "%s%s %s", cmd, Num(p.X), Num(p.Y))
	}
	if close {
		d.WriteString("Z")
	}
	c.path(d.String(), s)
}

// path writes a path of data d.
func (c *Canvas) path(d string, s Style) { fmt.Fprintf(&c.b, `<path d="%s"%s/>`, d, s.attrs()) }

// Line draws a line from (x1, y1) to (x2, y2) as a path.
func (c *Canvas) Line(x1, y1, x2, y2 float64, s Style) {
	c.Polyline([]Point{{x1, y1}, {x2, y2}}, false, s)
}

// Rect draws the rectangle r as a closed path.
func (c *Canvas) Rect(r Rect, s Style) {
	c.Polyline([]Point{{r.X0, r.Y0}, {r.X1, r.Y0}, {r.X1, r.Y1}, {r.X0, r.Y1}}, true, s)
}

// Circle draws a circle of radius r at (x, y); title, when set, is its
// tooltip.
func (c *Canvas) Circle(x, y, r float64, s Style, title string) {
	fmt.Fprintf(&c.b, `<circle cx="%s" cy="%s" r="%s"%s>`, Num(x), Num(y), Num(r), s.attrs())
	if title != "" {
		fmt.Fprintf(&c.b, `<title>%s</title>`, Escape(title))
	}
	c.b.WriteString(`</circle>`)
}

// A Rect is an axis-aligned box on the canvas, X0 <= X1 and Y0 <= Y1.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Overlaps reports whether r and o share more than an edge.
func (r Rect) Overlaps(o Rect) bool {
	return r.X0 < o.X1 && o.X0 < r.X1 && r.Y0 < o.Y1 && o.Y0 < r.Y1
}

// Inside reports whether r lies within o.
func (r Rect) Inside(o Rect) bool {
	return r.X0 >= o.X0 && r.X1 <= o.X1 && r.Y0 >= o.Y0 && r.Y1 <= o.Y1
}

// Anchors of text: where its x is.
const (
	Start  = "start"
	Middle = "middle"
	End    = "end"
)

// A Font is how a text is set: its size, anchor (Start when empty), colour
// (black when empty), class, and whether it reads upwards (rotated -90°
// about its position).
type Font struct {
	Size          float64
	Anchor, Class string
	Colour        string
	Up            bool
}

// Text writes s with its baseline at y; see TextBox for the room it takes.
func (c *Canvas) Text(x, y float64, s string, f Font) {
	fmt.Fprintf(&c.b, `<text x="%s" y="%s" font-size="%s"`, Num(x), Num(y), Num(f.Size))
	if f.Anchor != "" && f.Anchor != Start {
		fmt.Fprintf(&c.b, ` text-anchor="%s"`, f.Anchor)
	}
	if f.Class != "" {
		fmt.Fprintf(&c.b, ` class="%s"`, Escape(f.Class))
	}
	if f.Colour != "" {
		fmt.Fprintf(&c.b, ` fill="%s"`, Escape(f.Colour))
	}
	if f.Up {
		fmt.Fprintf(&c.b, ` transform="rotate(-90 %s %s)"`, Num(x), Num(y))
	}
	fmt.Fprintf(&c.b, `>%s</text>`, Escape(s))
}
