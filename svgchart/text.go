package svgchart

// helvetica are the advances of ASCII ' ' to '~' in Helvetica (and so in
// Arial and Liberation Sans, metric-compatible with it), in thousandths of
// an em.
var helvetica = [95]uint16{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0 to 9
	278, 278, 584, 584, 584, 556, 1015, // : to @
	667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, // A to M
	722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N to Z
	278, 278, 278, 469, 556, 333, // [ to `
	556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, // a to m
	556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, // n to z
	334, 260, 334, 584, // { to ~
}

// wider is how much wider than Helvetica's the estimate is: it covers a
// browser that falls back to a wider sans-serif (DejaVu Sans is some 12%
// wider), so that text placed by the estimate never overlaps.
const wider = 1.15

// Ascent and Descent are the parts of a font size above and below the
// baseline that a browser gives a line of text (Liberation Sans': 0.905 and
// 0.212 em), a little rounded up.
const (
	Ascent  = 0.93
	Descent = 0.23
)

// TextWidth estimates the width of s set at size: Helvetica's advances,
// widened (see wider); a character outside ASCII counts as an em, but for
// the few a chart writes (µ, ·, ×, …).
func TextWidth(s string, size float64) float64 {
	em := 0.0
	for _, r := range s {
		switch {
		case r >= ' ' && r <= '~':
			em += float64(helvetica[r-' ']) / 1000
		case r == 'µ' || r == '×':
			em += 0.584
		case r == '·':
			em += 0.278
		default:
			em += 1
		}
	}
	return em * size * wider
}

// TextHeight is the height of a line of text set at size.
func TextHeight(size float64) float64 { return (Ascent + Descent) * size }

// TextBox is the box that s takes when written at (x, y) in f (not rotated).
func TextBox(x, y float64, s string, f Font) Rect {
	w := TextWidth(s, f.Size)
	switch f.Anchor {
	case Middle:
		x -= w / 2
	case End:
		x -= w
	}
	return Rect{X0: x, Y0: y - Ascent*f.Size, X1: x + w, Y1: y + Descent*f.Size}
}

// Clip shortens s with an ellipsis so that, set at size, it fits width by
// TextWidth's estimate; s fits as it is when it can.
func Clip(s string, size, width float64) string {
	if TextWidth(s, size) <= width {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		if c := string(r[:n]) + "…"; TextWidth(c, size) <= width {
			return c
		}
	}
	return "…"
}
