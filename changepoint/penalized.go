package changepoint

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// slopeShare is the cost of a drift's slope as a share of a change's.
const slopeShare = 0.75

// longRunRatio is how much larger than the lag-1 σ the long-run σ must be
// to be used: below it, the difference is what estimating σ from a few
// dozen points leaves, not correlation.
const longRunRatio = 1.5

// maxLongRunLag is the longest lag whose differences measure the long-run
// noise; the lag is also at most a tenth of the series.
const maxLongRunLag = 20

// penalized is the default method; see the package comment. se holds the
// runs' own standard errors (nil or 0 where unknown).
func penalized(x, se []float64, s Settings) Analysis {
	a := Analysis{Changes: []Change{}, Drifts: []Drift{}, Outliers: []Outlier{}}
	n := len(x)
	if n < 3 {
		return a
	}
	sigma1, exact, ok := lag1Sigma(x)
	if !ok {
		return a
	}
	y := x
	if w := s.MinSize - 1; w >= 1 && n >= 2*w+1 && !exact {
		y, a.Outliers = clean(x, sigma1, w)
	}
	sg := segmenter{y: y, s: s}
	segs, sigma := sg.runLongRun(sigma1)
	a.Noise = sigma
	steps, versus := recoverSteps(y, se, &segs, sigma1, s)
	b := segs.bounds(n)
	fits := make([]line, len(b)-1)
	for i := range fits {
		fits[i] = segs.fit(b[i], b[i+1])
	}
	stats := make([]Segment, len(b)-1)
	for i := range stats {
		stats[i] = segment(y, b[i], b[i+1])
		if fits[i].drift {
			stats[i].Slope = theilSen(y[b[i]:b[i+1]])
		}
	}
	a.Changes = changes(y, se, segs, b, fits, stats, steps)
	for i := range fits {
		if fits[i].drift {
			if d, ok := drift(y, b[i], b[i+1], stats[i].Slope, s.MaxPValue); ok {
				d.Versus = versus[b[i]]
				a.Drifts = append(a.Drifts, d)
			}
		}
	}
	return a
}

// lag1Sigma is the noise σ of x from its neighbours' differences. When they
// are all equal (exact: a straight line or a quantised series, where any
// departure is real) it is a tiny share of x's scale; ok is false for a
// constant series, which has nothing to find.
func lag1Sigma(x []float64) (sigma float64, exact, ok bool) {
	sigma = diffSigma(x, 1)
	if sigma != 0 {
		return sigma, false, true
	}
	scale := 0.0
	for _, v := range x {
		scale = max(scale, math.Abs(v))
	}
	if scale == 0 || isConstant(x) {
		return 0, true, false
	}
	return scale * 1e-12, true, true
}

// runLongRun segments y at the lag-1 σ, then again (at most twice) at the
// long-run σ while that is clearly larger (correlated neighbours), and
// returns the segmentation and the σ it used.
func (sg segmenter) runLongRun(sigma1 float64) (segmentation, float64) {
	n := len(sg.y)
	sigma := sigma1
	segs := sg.run(sigma)
	if k := min(maxLongRunLag, n/10); k > 1 {
		for range 2 {
			lr := longRunSigma(sg.y, segs, k)
			if lr <= sigma || lr < longRunRatio*sigma1 {
				break
			}
			sigma = lr
			next := sg.run(sigma)
			if slices.Equal(next.cps, segs.cps) {
				segs = next
				break
			}
			segs = next
		}
	}
	return segs, sigma
}

// drift is the drift of the drifting segment y[lo:hi] of Theil-Sen slope
// slope, when its Mann-Kendall p-value is at most maxP.
func drift(y []float64, lo, hi int, slope, maxP float64) (Drift, bool) {
	p := mannKendallP(y[lo:hi])
	if p > maxP {
		return Drift{}, false
	}
	level := theilSenLevel(y[lo:hi], slope)
	d := Drift{Start: lo, N: hi - lo, Slope: slope, Level: level, PValue: p, Confidence: 1 - p}
	if level != 0 {
		d.Size = slope * float64(hi-lo-1) / math.Abs(level)
	}
	return d, true
}

func isConstant(x []float64) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}

// diffSigma is the noise σ from the differences of points lag apart:
// 1.4826·MAD/√2 (the MAD about their median, so that a steady drift drops
// out), or the mean absolute deviation's estimate when more than half the
// differences are equal.
func diffSigma(x []float64, lag int) float64 {
	if len(x) <= lag {
		return 0
	}
	d := make([]float64, len(x)-lag)
	for i := range d {
		d[i] = x[i+lag] - x[i]
	}
	return robustSigma(d) / math.Sqrt2
}

// robustSigma is 1.4826·MAD of v, or 1.2533 times the mean absolute
// deviation from the median when the MAD is 0.
func robustSigma(v []float64) float64 {
	m := median(v)
	dev := make([]float64, len(v))
	for i := range v {
		dev[i] = math.Abs(v[i] - m)
	}
	if mad := median(dev); mad > 0 {
		return 1.4826 * mad
	}
	return 1.2533 * mean(dev)
}

// clean returns x with its outliers replaced by the level they departed
// from, and the outliers. Inside the series, a run of up to w points that
// all lie OutlierSigmas·σ beyond, on the same side, both the median of the w
// points before them and the median of the w points after them is an
// excursion that came back (a Hampel filter that looks at either side
// apart, so that the points next to a step, which sit at one of the two
// levels, are not outliers), when the points either side of the run are
// within OutlierSigmas·σ of the other side's median: it came back. At either
// end, the newest (or oldest) e <= w points are outliers
// when each lies OutlierSigmas·σ beyond the median of the 2w+1 points before
// them, on the same side, and the point just before them does not: a level
// that has not lasted MinSize runs yet. A steady drift is allowed for at
// the ends: the median step per point over those points, times the
// distance.
func clean(x []float64, sigma float64, w int) ([]float64, []Outlier) {
	y := slices.Clone(x)
	flag := make([]bool, len(x))
	cleanInside(x, y, flag, OutlierSigmas*sigma, w)
	// The tail, and the head by the same rule on the reversed series.
	cleanEnd(x, y, flag, sigma, w, false)
	cleanEnd(x, y, flag, sigma, w, true)
	return y, outlierRuns(x, y, flag, w)
}

// cleanInside flags (and levels in y) the excursions inside x that came back.
func cleanInside(x, y []float64, flag []bool, limit float64, w int) {
	n := len(x)
	for i := w; i < n-w-1; i++ {
		for e := w; e >= 1; e-- {
			if i+e+w > n {
				continue
			}
			before, after := median(x[i-w:i]), median(x[i+e:i+e+w])
			if !beyond(x[i:i+e], before, limit) || !beyond(x[i:i+e], after, limit) || math.Signbit(x[i]-before) != math.Signbit(x[i]-after) ||
				math.Abs(x[i+e]-before) > limit || math.Abs(x[i-1]-after) > limit {
				continue
			}
			level := median(append(slices.Clone(x[i-w:i]), x[i+e:i+e+w]...))
			for k := i; k < i+e; k++ {
				flag[k], y[k] = true, level
			}
			i += e
			break
		}
	}
}

// cleanEnd flags (and levels in y) the newest points of x that left its
// level, or with rev the oldest.
func cleanEnd(x, y []float64, flag []bool, sigma float64, w int, rev bool) {
	n := len(x)
	at := func(i int) int { // index from the end
		if rev {
			return i
		}
		return n - 1 - i
	}
	for e := w; e >= 1; e-- {
		if e+2*w+2 > n {
			continue
		}
		ref := make([]float64, 2*w+1)
		for k := range ref {
			ref[k] = x[at(e+k)]
		}
		m := median(ref)
		// The local drift per point: the median step over these points
		// (one jump into an excursion does not move it).
		steps := make([]float64, e+2*w)
		for k := range steps {
			steps[k] = x[at(k)] - x[at(k+1)]
		}
		g := math.Abs(median(steps))
		sign := 0.0
		ok := true
		for k := range e {
			dev := x[at(k)] - m
			if math.Abs(dev) <= OutlierSigmas*sigma+g*float64(w+e-k) || sign != 0 && math.Signbit(dev) != math.Signbit(sign) {
				ok = false
				break
			}
			sign = dev
		}
		if !ok || math.Abs(x[at(e)]-m) > OutlierSigmas*sigma+g*float64(w) {
			continue
		}
		for k := range e {
			flag[at(k)], y[at(k)] = true, m
		}
		return
	}
}

// outlierRuns returns the runs of flagged points of at most w points as
// outliers; a longer run is a level, not an outlier, and gets x's values
// back in y.
func outlierRuns(x, y []float64, flag []bool, w int) []Outlier {
	n := len(x)
	out := []Outlier{}
	for i := 0; i < n; {
		if !flag[i] {
			i++
			continue
		}
		j := i
		for j < n && flag[j] {
			j++
		}
		if j-i <= w {
			level := median(y[i:j])
			o := Outlier{Index: i, N: j - i, Level: level}
			if level != 0 {
				o.Size = (mean(x[i:j]) - level) / math.Abs(level)
			}
			out = append(out, o)
		} else {
			copy(y[i:j], x[i:j])
		}
		i = j
	}
	return out
}

// beyond says whether every point of v lies further than limit from m, all
// on the same side.
func beyond(v []float64, m, limit float64) bool {
	for _, x := range v {
		if math.Abs(x-m) <= limit || math.Signbit(x-m) != math.Signbit(v[0]-m) {
			return false
		}
	}
	return true
}

// longRunSigma is the largest noise σ measured from differences over lags 2
// to k between points of the same segment: above the lag-1 σ when
// neighbouring points are correlated.
func longRunSigma(y []float64, segs segmentation, k int) float64 {
	b := segs.bounds(len(y))
	best := 0.0
	for lag := 2; lag <= k; lag++ {
		var d []float64
		for j := 0; j+1 < len(b); j++ {
			for i := b[j]; i+lag < b[j+1]; i++ {
				d = append(d, y[i+lag]-y[i])
			}
		}
		if len(d) >= 10 {
			best = max(best, robustSigma(d)/math.Sqrt2)
		}
	}
	return best
}

// A segmenter cuts y into flat and drifting segments.
type segmenter struct {
	y []float64
	s Settings
}

// A segmentation is the changes found at one σ, with what testing and
// fitting them needs.
type segmentation struct {
	cps []int
	p   prefix
	s   Settings
	// beta and gamma are the costs of a change and of a slope, in σ².
	beta, gamma float64
	// sigma and center map the series to the z units the sums hold:
	// z = (y - center) / sigma.
	sigma, center float64
}

// run segments y at noise sigma: optimal partitioning, then the
// significance pruning.
func (sg segmenter) run(sigma float64) segmentation {
	n := len(sg.y)
	z := make([]float64, n)
	m := median(sg.y)
	for i, v := range sg.y {
		z[i] = (v - m) / sigma
	}
	logn := math.Log(float64(n))
	seg := segmentation{p: newPrefix(z), s: sg.s, beta: sg.s.Penalty * logn, gamma: slopeShare * sg.s.Penalty * logn, sigma: sigma, center: m}
	L := sg.s.MinSize
	if n < 2*L {
		return seg
	}
	// F[e] is the least cost of y[:e]; last[e] where its last segment starts.
	// PELT's pruning (R. Killick et al., JASA 2012): a start t with
	// F[t] + cost(t, e) - K > F[e] can never start the last segment later,
	// where cost(t, s) + cost(s, e) <= cost(t, e) + K: K is the slope's cost
	// (two lines cost at most one line plus one slope). With MinSize 2 a
	// two-point level can exceed that bound, so nothing is pruned then.
	F := make([]float64, n+1)
	last := make([]int, n+1)
	F[0] = -seg.beta
	K := seg.gamma
	prune := L >= 3
	// A start found prunable at e still serves ends before e+L, which the
	// path through e cannot reach (its last segment would be too short).
	type cand struct{ t, until int }
	cands := []cand{{0, n + 1}}
	for e := 1; e <= n; e++ {
		F[e] = math.Inf(1)
		if t := e - L; t >= L {
			cands = append(cands, cand{t, n + 1})
		}
		if e < L {
			continue
		}
		kept := cands[:0]
		for _, c := range cands {
			if e >= c.until {
				continue
			}
			kept = append(kept, c)
			if v := F[c.t] + seg.cost(c.t, e) + seg.beta; v < F[e] {
				F[e], last[e] = v, c.t
			}
		}
		cands = kept
		if prune {
			for i, c := range cands {
				if c.until > n && F[c.t]+seg.cost(c.t, e)-K > F[e] {
					cands[i].until = e + L
				}
			}
		}
	}
	for e := n; e > 0; e = last[e] {
		if last[e] > 0 {
			seg.cps = append(seg.cps, last[e])
		}
	}
	slices.Reverse(seg.cps)
	seg.preferSteps(n)
	// Drop the weakest change that fails the test, until all pass.
	for {
		b := seg.bounds(n)
		worst, worstP := -1, sg.s.MaxPValue
		for i := 1; i+1 < len(b); i++ {
			if p := seg.test(b[i-1], b[i], b[i+1]); p > worstP {
				worst, worstP = i-1, p
			}
		}
		if worst < 0 {
			return seg
		}
		seg.cps = slices.Delete(seg.cps, worst, worst+1)
	}
}

// preferSteps splits a drifting segment at its best single step when that
// step fits it at least as well as the line: a level that moved once (a
// commit) is the simpler story than a drift, and for a real drift of more
// than a few runs no single step comes close to the line.
func (seg *segmentation) preferSteps(n int) {
	L := seg.s.MinSize
	b := seg.bounds(n)
	var add []int
	for i := 0; i+1 < len(b); i++ {
		lo, hi := b[i], b[i+1]
		if hi-lo < 2*L || !seg.drifts(lo, hi) {
			continue
		}
		best, bestT := seg.p.rssLine(lo, hi), -1
		for t := lo + L; t <= hi-L; t++ {
			if r := seg.p.rssConst(lo, t) + seg.p.rssConst(t, hi); r <= best {
				best, bestT = r, t
			}
		}
		if bestT > 0 {
			add = append(add, bestT)
		}
	}
	if len(add) > 0 {
		seg.cps = append(seg.cps, add...)
		slices.Sort(seg.cps)
	}
}

// bounds returns 0, the changes and n.
func (seg segmentation) bounds(n int) []int {
	return append(append([]int{0}, seg.cps...), n)
}

// cost of y[a:b] as one segment, in σ²: the residual sum of squares of a
// level, or of a line plus the slope's cost when that is less.
func (seg segmentation) cost(a, b int) float64 {
	r := seg.p.rssConst(a, b)
	if b-a >= 3 {
		r = math.Min(r, seg.p.rssLine(a, b)+seg.gamma)
	}
	return r
}

// drifts says whether y[a:b] is better fitted by a line than a level.
func (seg segmentation) drifts(a, b int) bool {
	return b-a >= 3 && seg.p.rssLine(a, b)+seg.gamma < seg.p.rssConst(a, b)
}

// test is the p-value of "no change at b" between the segments [a, b) and
// [b, c): Student's t-test of the two means when both are flat (pooled
// variance), else the Chow test of two lines against one; Bonferroni
// corrected for the c-a-2·MinSize+1 positions the change could have taken.
func (seg segmentation) test(a, b, c int) float64 {
	k := 1.0
	r1 := seg.p.rssConst(a, c)
	r2 := seg.p.rssConst(a, b) + seg.p.rssConst(b, c)
	if seg.drifts(a, b) || seg.drifts(b, c) {
		k = 2
		r1 = seg.p.rssLine(a, c)
		r2 = seg.p.rssLine(a, b) + seg.p.rssLine(b, c)
	}
	df := float64(c-a) - 2*k
	if df < 1 || r2 <= 1e-12*r1 {
		if r1 > r2 {
			return 0
		}
		return 1
	}
	f := (r1 - r2) / k / (r2 / df)
	if f <= 0 {
		return 1
	}
	p := distuv.F{D1: k, D2: df}.Survival(f)
	return math.Min(1, p*float64(max(1, c-a-2*seg.s.MinSize+1)))
}
