package svgchart

// A Swatch is how a legend entry shows its series.
type Swatch int

// The swatches.
const (
	// SwatchLine is a line (dashed along Dash).
	SwatchLine Swatch = iota
	// SwatchBox is a filled square, for bars.
	SwatchBox
	// SwatchPoint is the entry's glyph.
	SwatchPoint
	// SwatchLinePoint is a line with the glyph on it.
	SwatchLinePoint
)

// A LegendEntry is one line of a legend.
type LegendEntry struct {
	Label  string
	Colour string
	Swatch Swatch
	// Dash is a line's dash pattern; Width its width (1.5 when 0).
	Dash  []float64
	Width float64
	// Glyph is a point's shape and Radius its size (3 when 0).
	Glyph  Glyph
	Radius float64
}

// A Legend is a key drawn inside a chart: a swatch and a label a line,
// set at Size.
type Legend struct {
	Entries []LegendEntry
	Size    float64
}

const swatchW = 18.0

// rowH is the height of a legend's line.
func (l Legend) rowH() float64 { return TextHeight(l.Size) + 1 }

// Dims returns the legend's width and height.
func (l Legend) Dims() (w, h float64) {
	for _, e := range l.Entries {
		w = max(w, swatchW+4+TextWidth(e.Label, l.Size))
	}
	return w, l.rowH() * float64(len(l.Entries))
}

// Draw draws the legend with its top left corner at (x, y) and returns the
// box it takes.
func (l Legend) Draw(c *Canvas, x, y float64) Rect {
	rh := l.rowH()
	for i, e := range l.Entries {
		top := y + rh*float64(i)
		mid := top + rh/2
		w := e.Width
		if w == 0 {
			w = 1.5
		}
		r := e.Radius
		if r == 0 {
			r = 3
		}
		switch e.Swatch {
		case SwatchBox:
			s := TextHeight(l.Size) * 0.7
			c.Rect(Rect{x + swatchW/2 - s/2, mid - s/2, x + swatchW/2 + s/2, mid + s/2}, Style{Fill: e.Colour})
		case SwatchPoint:
			c.Glyph(e.Glyph, x+swatchW/2, mid, r, e.Colour, "")
		default:
			c.Line(x, mid, x+swatchW, mid, Style{Stroke: e.Colour, Width: w, Dash: e.Dash})
			if e.Swatch == SwatchLinePoint {
				c.Glyph(e.Glyph, x+swatchW/2, mid, r, e.Colour, "")
			}
		}
		c.Text(x+swatchW+4, top+(rh-TextHeight(l.Size))/2+Ascent*l.Size, e.Label, Font{Size: l.Size})
	}
	w, h := l.Dims()
	return Rect{x, y, x + w, y + h}
}
