package svgchart

import (
	"fmt"
	"math"
)

// A Glyph is the shape of a point.
type Glyph int

// The glyphs: filled Circle; hollow Ring, Square and Triangle; Cross and
// Plus strokes.
const (
	Circle Glyph = iota
	Ring
	Square
	Triangle
	Cross
	Plus
)

// SeriesGlyphs are the glyphs of a chart's series in turn.
var SeriesGlyphs = []Glyph{Ring, Square, Triangle, Cross, Plus, Circle}

// Glyph draws g of radius r at (x, y) in colour, one element of class
// class ("" for none).
func (c *Canvas) Glyph(g Glyph, x, y, r float64, colour, class string) {
	line := Style{Stroke: colour, Width: 1, Class: class}
	switch g {
	case Ring:
		c.Circle(x, y, r, line, "")
	case Square:
		c.Rect(Rect{x - r, y - r, x + r, y + r}, line)
	case Triangle:
		h := r * math.Sqrt(3) / 2
		c.Polyline([]Point{{x, y - r}, {x + h, y + r/2}, {x - h, y + r/2}}, true, line)
	case Cross:
		d := r / math.Sqrt2
		c.path(fmt.Sprintf("M%s %sL%s %sM%s %sL%s %s", Num(x-d), Num(y-d), Num(x+d), Num(y+d), Num(x-d), Num(y+d), Num(x+d), Num(y-d)), line)
	case Plus:
		c.path(fmt.Sprintf("M%s %sL%s %sM%s %sL%s %s", Num(x-r), Num(y), Num(x+r), Num(y), Num(x), Num(y-r), Num(x), Num(y+r)), line)
	default:
		c.Circle(x, y, r, Style{Fill: colour, Class: class}, "")
	}
}
