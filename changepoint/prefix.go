package changepoint

import (
	"math"
)

// A line is a segment's fitted model, in the series' units: a level, or a
// least-squares line when the segment drifts.
type line struct {
	drift            bool
	intercept, slope float64 // the value at index 0, the change per index
}

// fit returns the model of [a, b).
func (seg segmentation) fit(a, b int) line {
	p := seg.p
	m := float64(b - a)
	sx := p.x[b] - p.x[a]
	l := line{drift: seg.drifts(a, b), intercept: sx / m}
	if l.drift {
		st := p.t[b] - p.t[a]
		stt := p.tt[b] - p.tt[a] - st*st/m
		stx := p.tx[b] - p.tx[a] - st*sx/m
		l.slope = stx / stt
		l.intercept = sx/m - l.slope*st/m
	}
	l.intercept = l.intercept*seg.sigma + seg.center
	l.slope *= seg.sigma
	return l
}

// at is the fitted value at index i.
func (l line) at(i int) float64 { return l.intercept + l.slope*float64(i) }

// prefix holds running sums over z_i at t = i, for O(1) segment fits.
type prefix struct{ t, tt, x, tx, xx []float64 }

func newPrefix(z []float64) prefix {
	n := len(z)
	p := prefix{make([]float64, n+1), make([]float64, n+1), make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)}
	for i, v := range z {
		t := float64(i)
		p.t[i+1] = p.t[i] + t
		p.tt[i+1] = p.tt[i] + t*t
		p.x[i+1] = p.x[i] + v
		p.tx[i+1] = p.tx[i] + t*v
		p.xx[i+1] = p.xx[i] + v*v
	}
	return p
}

// rssConst is the residual sum of squares of z[a:b] about its mean.
func (p prefix) rssConst(a, b int) float64 {
	m := float64(b - a)
	sx := p.x[b] - p.x[a]
	return math.Max(0, p.xx[b]-p.xx[a]-sx*sx/m)
}

// rssLine is the residual sum of squares of z[a:b] about its least-squares
// line.
func (p prefix) rssLine(a, b int) float64 {
	m := float64(b - a)
	st, sx := p.t[b]-p.t[a], p.x[b]-p.x[a]
	stt := p.tt[b] - p.tt[a] - st*st/m
	stx := p.tx[b] - p.tx[a] - st*sx/m
	sxx := p.xx[b] - p.xx[a] - sx*sx/m
	if stt <= 0 {
		return math.Max(0, sxx)
	}
	return math.Max(0, sxx-stx*stx/stt)
}
