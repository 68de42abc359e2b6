package changepoint

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// A Run is one point of a series with what its own samples say about it: a
// benchmark run's median and the standard error of that median.
type Run struct {
	// Value is the run's value (its median).
	Value float64
	// SE is the standard error of Value from the run's own samples (a 95%
	// CI's half-width / 1.96); 0 when unknown. A run with few samples has a
	// large SE and counts for less in the step scan.
	SE float64
}

// The noises a test can be decided by (Change.Noise).
const (
	// NoiseBetween is the scatter of the runs' values from run to run.
	NoiseBetween = "between runs"
	// NoiseWithin is each run's own samples' noise (their CIs).
	NoiseWithin = "within runs"
)

// The tests a change can be found by (Change.Test).
const (
	// TestT is Student's t-test of two levels.
	TestT = "t-test"
	// TestChow is the Chow F-test of two lines against one.
	TestChow = "Chow F-test"
	// TestScan is the step scan: a weighted t-test of two levels at the best
	// split of a stretch the segmentation left whole, corrected for the
	// splits it tried.
	TestScan = "step scan"
)

// scanShare is the step scan's default level (Settings.ScanPValue) as a
// multiple of MaxPValue: 0.03 at the default 0.001, family-wise over the
// splits it tries (corrected by effectiveSplits, calibrated on quiet
// histories; what it costs on quiet series: docs/CHANGEPOINTS.md).
const scanShare = 30

// AnalyzeRuns is Analyze for runs that carry their own samples' noise: the
// step scan weighs each run by 1/(τ²+SE²), τ the noise between runs beyond
// the runs' own, and a step must pass against both noises.
func AnalyzeRuns(runs []Run, s Settings) Analysis {
	x := make([]float64, len(runs))
	se := make([]float64, len(runs))
	for i, r := range runs {
		x[i], se[i] = r.Value, r.SE
	}
	s = s.withDefaults()
	if s.Method == EDivisive {
		return Analysis{Changes: eDivisive(x, s), Drifts: []Drift{}, Outliers: []Outlier{}}
	}
	return penalized(x, se, s)
}

// A scan is the best split of a stretch [lo, hi) the step scan found.
type scan struct {
	at int
	// p is family-wise; pBetween and pWithin the split's own p-values
	// against each noise (pWithin 1 when the runs' SEs are unknown).
	p, pBetween, pWithin float64
	// diff is the weighted level after minus before, se its standard error
	// (series units), df the degrees of freedom of the between-run test.
	diff, se, df float64
	// noise names the noise that decided it, sigma its σ per run; note says
	// why the runs' own noise took no part (Change.NoiseNote).
	noise string
	sigma float64
	note  string
}

// weightedSums holds prefix sums of w, w·y and w·y² over a stretch.
type weightedSums struct{ w, wy, wyy []float64 }

func newWeightedSums(y, w []float64) weightedSums {
	n := len(y)
	s := weightedSums{make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)}
	for i := range y {
		s.w[i+1] = s.w[i] + w[i]
		s.wy[i+1] = s.wy[i] + w[i]*y[i]
		s.wyy[i+1] = s.wyy[i] + w[i]*y[i]*y[i]
	}
	return s
}

// side returns the weighted mean of [a, b), its total weight and its
// weighted residual sum of squares.
func (s weightedSums) side(a, b int) (m, w, rss float64) {
	w = s.w[b] - s.w[a]
	wy := s.wy[b] - s.wy[a]
	m = wy / w
	return m, w, math.Max(0, s.wyy[b]-s.wyy[a]-wy*wy/w)
}

// knownSE says whether every run of [lo, hi) has its own SE.
func knownSE(se []float64, lo, hi int) bool {
	if se == nil {
		return false
	}
	for _, v := range se[lo:hi] {
		if !(v > 0) {
			return false
		}
	}
	return true
}

// scanSteps finds the best single step in y[lo:hi]: for every split with at
// least minSize runs a side, a weighted t-test of the two levels against
// the between-run noise (weights 1/(τ²+SE²), dispersion from the residuals)
// and, where the runs' SEs fit the scatter between them
// (consistentSE), a z-test against the runs' own noise (weights 1/SE²); a
// split's p-value is the larger of the two, and the family-wise p-value is
// corrected for the splits tried (effectiveSplits). Every run must carry
// its SE.
func scanSteps(y, se []float64, lo, hi, minSize int, sigma float64) (scan, bool) {
	m := hi - lo
	k := m - 2*minSize + 1
	if k < 1 || sigma <= 0 || !knownSE(se, lo, hi) {
		return scan{}, false
	}
	wb := make([]float64, m) // between-run weights
	wu := make([]float64, m) // within-run weights
	ms := meanSquare(se[lo:hi])
	tau2 := math.Max(sigma*sigma-ms, 0.1*sigma*sigma)
	// The runs' own noise can veto a step only where it fits the scatter
	// between them (the scatter of medians includes their sampling noise).
	within := consistentSE(se[lo:hi], sigma)
	// The weights rest on the runs' SEs only where those fit the scatter
	// (else every run weighs the same: a plain t-test). The dispersion's
	// floor, the runs' noise at least what the weights say, holds where the
	// SEs, each estimated from one run's samples, make most of the weights:
	// weights that are partly noise would otherwise make the levels look
	// surer than they are.
	floor := 0.0
	if within && ms > tau2 {
		floor = 1
	}
	for i := range wb {
		wb[i] = 1 / (sigma * sigma)
		if within {
			wb[i] = 1 / (tau2 + se[lo+i]*se[lo+i])
		}
		wu[i] = 1 / (se[lo+i] * se[lo+i])
	}
	seg := make([]float64, m) // centred: the sums of squares keep their digits
	c0 := median(y[lo:hi])
	for i := range seg {
		seg[i] = y[lo+i] - c0
	}
	sb, su := newWeightedSums(seg, wb), newWeightedSums(seg, wu)
	df := float64(m - 2)
	tdist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	best := scan{p: 2}
	for t := minSize; t <= m-minSize; t++ {
		m1, w1, r1 := sb.side(0, t)
		m2, w2, r2 := sb.side(t, m)
		phi := math.Max(floor, (r1+r2)/df)
		sd := math.Sqrt(phi * (1/w1 + 1/w2))
		c := scan{at: lo + t, diff: m2 - m1, se: sd, df: df, pWithin: 1, noise: NoiseBetween, sigma: math.Sqrt(phi / (w1 + w2) * float64(m))}
		c.pBetween = math.Min(1, 2*tdist.Survival(math.Abs(c.diff)/sd))
		c.p = c.pBetween
		if within {
			u1, v1, _ := su.side(0, t)
			u2, v2, _ := su.side(t, m)
			zs := math.Sqrt(1/v1 + 1/v2)
			c.pWithin = math.Min(1, 2*distuv.UnitNormal.Survival(math.Abs(u2-u1)/zs))
			if c.pWithin > c.pBetween {
				c.p, c.noise, c.sigma = c.pWithin, NoiseWithin, math.Sqrt(1/(v1+v2)*float64(m))
			}
		}
		if c.p < best.p {
			best = c
		}
	}
	best.p = math.Min(1, serial(best, seg, lo)*effectiveSplits(k))
	if !within {
		best.note = seNote(se[lo:hi], y[lo:hi])
	}
	return best, true
}

// serial is the split's p-value with the between-run test widened for
// runs that follow one another (a machine that warms, a neighbour's job):
// when the residuals' lag-1 autocorrelation ρ is clearly positive (beyond
// 1/√m, one standard error of ρ under independence), the difference's
// variance grows by (1+ρ)/(1-ρ). (In the power study, quiet AR(1)
// histories with a finding: 15% at 2/√m, 11% at 1/√m, 9% at 0, where the
// recall at 1.5σ fell by 0.02.)
func serial(c scan, seg []float64, lo int) float64 {
	at := c.at - lo
	m := len(seg)
	r := make([]float64, m)
	m1, m2 := mean(seg[:at]), mean(seg[at:])
	for i, v := range seg {
		r[i] = v - m1
		if i >= at {
			r[i] = v - m2
		}
	}
	num, den := 0.0, 0.0
	for i := range r {
		den += r[i] * r[i]
		if i > 0 {
			num += r[i] * r[i-1]
		}
	}
	rho := 0.0
	if den > 0 {
		rho = num / den
	}
	if rho <= 1/math.Sqrt(float64(m)) {
		return c.p
	}
	rho = math.Min(rho, 0.9)
	t := math.Abs(c.diff) / (c.se * math.Sqrt((1+rho)/(1-rho)))
	pb := math.Min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: c.df}.Survival(t))
	return math.Max(c.p, pb)
}

// jumpP is the p-value of a jump at t in the line fitted to y[lo:hi]: the
// F-test of a line with a jump at t against the line alone, Bonferroni
// corrected for the k splits the jump could have taken.
func jumpP(y []float64, lo, hi, t, k int) float64 {
	if hi-lo < 5 {
		return 1
	}
	r1, tss := lineRSS(y, lo, hi, -1)
	r2, _ := lineRSS(y, lo, hi, t)
	if r1 <= 1e-12*tss {
		return 1 // an exact line
	}
	return fTest(r1, r2, float64(hi-lo-3), float64(max(1, k)))
}

// fTest is the p-value of one more parameter taking the residual sum of
// squares from r1 to r2 with df degrees of freedom left, times k.
func fTest(r1, r2, df, k float64) float64 {
	if r2 <= 1e-12*r1 {
		return 0
	}
	f := (r1 - r2) / (r2 / df)
	if f <= 0 {
		return 1
	}
	return math.Min(1, distuv.F{D1: 1, D2: df}.Survival(f)*k)
}

// slopeP is the p-value of a slope in y[lo:hi] beside a step at t: the
// F-test of a line with a jump at t against the two levels alone.
func slopeP(y []float64, lo, hi, t int) float64 {
	m := hi - lo
	if m < 5 {
		return 1
	}
	r1 := math.Max(0, variance(y[lo:t])*float64(t-lo)) + math.Max(0, variance(y[t:hi])*float64(hi-t))
	r2, _ := lineRSS(y, lo, hi, t)
	return fTest(r1, r2, float64(m-3), 1)
}

// variance is the mean squared deviation of v about its mean.
func variance(v []float64) float64 {
	m := mean(v)
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return s / float64(len(v))
}

// lineRSS is the residual sum of squares of y[lo:hi] about its least-squares
// line, with a jump at t when t >= 0 (the regressors 1, i and [i >= t]),
// and the total sum of squares about the mean.
func lineRSS(y []float64, lo, hi, t int) (rss, tss float64) {
	var a [3][3]float64
	var b [3]float64
	yy := 0.0
	c, c0 := (float64(lo+hi)-1)/2, mean(y[lo:hi])
	for i := lo; i < hi; i++ {
		x := [3]float64{1, float64(i) - c, 0}
		if t >= 0 && i >= t {
			x[2] = 1
		}
		v := y[i] - c0
		for r := range 3 {
			for q := range 3 {
				a[r][q] += x[r] * x[q]
			}
			b[r] += x[r] * v
		}
		yy += v * v
	}
	n := 2
	if t >= 0 {
		n = 3
	}
	beta, ok := solve(a, b, n)
	if !ok {
		return 0, yy
	}
	fit := 0.0
	for r := range n {
		fit += beta[r] * b[r]
	}
	return math.Max(0, yy-fit), yy
}

// solve solves the n×n (n <= 3) symmetric system a·β = b by Gaussian
// elimination; ok is false when it is singular.
func solve(a [3][3]float64, b [3]float64, n int) ([3]float64, bool) {
	var x [3]float64
	for i := range n {
		p := i
		for r := i + 1; r < n; r++ {
			if math.Abs(a[r][i]) > math.Abs(a[p][i]) {
				p = r
			}
		}
		a[i], a[p] = a[p], a[i]
		b[i], b[p] = b[p], b[i]
		if math.Abs(a[i][i]) < 1e-12 {
			return x, false
		}
		for r := i + 1; r < n; r++ {
			f := a[r][i] / a[i][i]
			for q := i; q < n; q++ {
				a[r][q] -= f * a[i][q]
			}
			b[r] -= f * b[i]
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for q := i + 1; q < n; q++ {
			s -= a[i][q] * x[q]
		}
		x[i] = s / a[i][i]
	}
	return x, true
}

// SEFromCI is the standard error of a run's median from its n samples'
// order-statistic 95% CI [low, high] (measure.MedianCI's): the half-width
// over the normal quantile of the interval's exact coverage. It is 0 when
// n is below the 6 samples such an interval needs or the interval is empty.
func SEFromCI(low, high float64, n int) float64 {
	if n < 6 || !(high > low) {
		return 0
	}
	_, cov := medianCIRank(n)
	return (high - low) / 2 / distuv.UnitNormal.Quantile((1+cov)/2)
}

// medianCIRank is the 1-based rank l of the lower bound of the
// order-statistic 95% CI of the median of n samples, [x(l), x(n+1-l)], and
// its exact coverage (as measure.MedianCI): the binomial(n, 1/2) tail
// summed term by term.
func medianCIRank(n int) (l int, coverage float64) {
	pmf := math.Pow(0.5, float64(n)) // P(K = 0)
	cdf := pmf                       // P(K <= r-1) for r = 1
	l = 1
	for r := 2; r <= (n+1)/2; r++ {
		pmf *= float64(n-(r-2)) / float64(r-1) // P(K = r-1)
		if cdf+pmf > 0.025+1e-12 {
			break
		}
		cdf += pmf
		l = r
	}
	return l, 1 - 2*cdf
}

// pText writes a p-value for an evidence line.
func pText(p float64) string {
	if p < 1e-4 {
		return fmt.Sprintf("p=%.0e", p)
	}
	return fmt.Sprintf("p=%.4f", p)
}

// effectiveSplits is how many independent tests the k splits of a scan
// count for: neighbouring splits share all but one run, so the smallest of
// their p-values is far less extreme than k independent ones. On quiet
// histories of the power study (4,000 of each length, 3 runs a side) the
// smallest p-value's 2% quantile is about 0.02/(3.3·√k) at 30 to 60 runs,
// and larger (the correction conservative) below and above; Bonferroni's k
// is the bound.
func effectiveSplits(k int) float64 {
	return math.Min(float64(k), 3.3*math.Sqrt(float64(k)))
}

// seRatio is how much wider than the scatter between runs (the lag-1 σ)
// the runs' own noise may be, in the median squared SE over σ², and still
// veto a step. A run's median scatters by at least its sampling noise, so
// runs whose CIs are wider than their medians' scatter by more than an
// estimate of σ from a few dozen runs can miss did not draw their samples
// afresh around their level (the same pattern of samples run after run, as
// in issue 47's histories; samples that drift within a run): their CIs say
// nothing about a step between runs, and the noise between runs decides
// alone (docs/CHANGEPOINTS.md: the power study's same-samples rows).
const seRatio = 2

// consistentSE says whether runs of standard errors se may be tested
// against their own noise, the scatter between them being sigma: their
// median squared SE is at most seRatio·σ² (a few runs of few samples do
// not decide it).
func consistentSE(se []float64, sigma float64) bool {
	sq := make([]float64, len(se))
	for i, v := range se {
		sq[i] = v * v
	}
	ms := median(sq)
	return ms > 0 && ms <= seRatio*sigma*sigma
}

// seNote is Change.NoiseNote for runs of values y and standard errors se
// whose CIs are wider than the scatter between them.
func seNote(se, y []float64) string {
	sq := make([]float64, len(se))
	for i, v := range se {
		sq[i] = v * v
	}
	rel := math.Sqrt(median(sq)) / math.Abs(median(y))
	return fmt.Sprintf("the runs' own CIs (σ %.2g%% a run) are wider than the scatter between them, so they took no part", 100*rel)
}

// meanSquare is the mean of v².
func meanSquare(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s / float64(max(1, len(v)))
}
