package changepoint

// E-Divisive (D. S. Matteson and N. A. James, "A Nonparametric Approach for
// Multiple Change Point Analysis of Multivariate Data", JASA 109(505), 2014)
// as Apache Otava (formerly DataStax Hunter; M. Fleming et al., ICPE 2023)
// uses it on benchmark results; Settings.Method = EDivisive selects it. It
// was clmeter's only method before the penalised one, and stays for
// comparison (docs/CHANGEPOINTS.md scores both):
//
//  1. In a segment of the series (at first, all of it), the candidate split
//     is the one that maximises the energy statistic
//     Q(τ) = m·n/(m+n) · (2/(m·n) Σ|xᵢ−yⱼ| − C(m,2)⁻¹ Σ|xᵢ−xₖ| − C(n,2)⁻¹ Σ|yⱼ−yₖ|)
//     (α = 1) between the m points before τ and the n points from τ on.
//  2. A candidate is kept only when a significance test rejects "no change"
//     at Settings.MaxPValue: a two-sample t-test between the segments either
//     side (TTest, as Otava; pooled variance and a Bonferroni correction for
//     having picked the best of the candidate splits) or the permutation
//     test of Matteson and James (Permutation).
//  3. Recurse into both sides of a kept split (binary segmentation), one
//     level deeper past a refused split; then test each change again between
//     its final neighbours and drop those that no longer pass.

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// eDivisive returns the changes E-Divisive finds in x.
func eDivisive(x []float64, s Settings) []Change {
	n := len(x)
	if n < 2*s.MinSize {
		return []Change{}
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x636c6d65746572))
	d := &detector{x: x, s: s, rng: rng}
	cps := append(append([]int{0}, d.split(0, n, 1)...), n)
	for {
		worst, worstP := -1, s.MaxPValue
		for i := 1; i+1 < len(cps); i++ {
			p := testSplit(x, cps[i-1], cps[i], cps[i+1], s, rng)
			if p > worstP {
				worst, worstP = i, p
			}
		}
		if worst < 0 {
			break
		}
		cps = slices.Delete(cps, worst, worst+1)
	}
	out := []Change{}
	for i := 1; i+1 < len(cps); i++ {
		lo, at, hi := cps[i-1], cps[i], cps[i+1]
		c := Change{Index: at, Before: segment(x, lo, at), After: segment(x, at, hi)}
		if c.Before.Mean != 0 {
			c.Size = (c.After.Mean - c.Before.Mean) / c.Before.Mean
		}
		c.PValue = testSplit(x, lo, at, hi, s, rng)
		c.Confidence = 1 - c.PValue
		c.Energy = energy(x[lo:hi], at-lo)
		out = append(out, c)
	}
	return out
}

// A detector holds what the recursive search needs.
type detector struct {
	x   []float64
	s   Settings
	rng *rand.Rand
}

// split returns the changes found in x[lo:hi], in order: the best split by
// the energy statistic, kept when the test passes, and the same within each
// side. When the test fails, the sides are still searched lookahead levels
// deep: a segment holding two changes (up, then back down) can hide the
// first from a test against all the rest, and a change found inside a side
// keeps the split as a candidate. Detect's final pass tests every change
// again between its neighbours and drops those that fail.
func (d *detector) split(lo, hi, lookahead int) []int {
	tau, _ := bestSplit(d.x[lo:hi], d.s.MinSize)
	if tau == 0 {
		return nil
	}
	at := lo + tau
	if testSplit(d.x, lo, at, hi, d.s, d.rng) <= d.s.MaxPValue {
		return append(append(d.split(lo, at, 1), at), d.split(at, hi, 1)...)
	}
	if lookahead > 0 {
		left, right := d.split(lo, at, lookahead-1), d.split(at, hi, lookahead-1)
		if len(left)+len(right) > 0 {
			return append(append(left, at), right...)
		}
	}
	return nil
}

// testSplit tests the split at `at` of x[lo:hi] with the configured test.
func testSplit(x []float64, lo, at, hi int, s Settings, rng *rand.Rand) float64 {
	if s.Test == Permutation {
		q := energy(x[lo:hi], at-lo)
		return permutationP(x, []int{lo, hi}, q, s, rng)
	}
	return splitP(x[lo:at], x[at:hi], s.MinSize)
}

// splitP is the t-test's p-value for a split chosen as the best of a segment's
// candidates, corrected for that choice (Bonferroni over the candidate
// positions): without it a flat series of 60 noisy runs shows a false change
// in about 5% of cases at p = 0.001.
func splitP(a, b []float64, minSize int) float64 {
	candidates := len(a) + len(b) - 2*minSize + 1
	return min(1, tTestP(a, b)*float64(max(candidates, 1)))
}

// bestSplit returns the split τ of x (MinSize <= τ <= len(x)-MinSize)
// maximising Q, and Q; τ = 0 when x is too short. It is O(len(x)²): moving
// τ by one moves one point from the right part to the left and updates the
// three sums of distances with one pass each.
func bestSplit(x []float64, minSize int) (int, float64) {
	n := len(x)
	if n < 2*minSize {
		return 0, 0
	}
	// Start with τ = 0: everything on the right.
	var within, left, between float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			within += math.Abs(x[i] - x[j])
		}
	}
	right := within
	bestT, bestQ := 0, math.Inf(-1)
	for t := 1; t <= n-minSize; t++ {
		p := t - 1 // moves from right to left
		var toLeft, toRight float64
		for i := 0; i < p; i++ {
			toLeft += math.Abs(x[i] - x[p])
		}
		for j := p + 1; j < n; j++ {
			toRight += math.Abs(x[p] - x[j])
		}
		left += toLeft
		right -= toRight
		between += toRight - toLeft
		if t < minSize {
			continue
		}
		if q := qStat(t, n-t, between, left, right); q > bestQ {
			bestT, bestQ = t, q
		}
	}
	return bestT, bestQ
}

// qStat is Q from the sums of distances between the parts (between), within
// the left part of m points and within the right part of k points.
func qStat(m, k int, between, left, right float64) float64 {
	fm, fk := float64(m), float64(k)
	e := 2 * between / (fm * fk)
	if m > 1 {
		e -= left / (fm * (fm - 1) / 2)
	}
	if k > 1 {
		e -= right / (fk * (fk - 1) / 2)
	}
	return fm * fk / (fm + fk) * e
}

// energy is Q of splitting x at t.
func energy(x []float64, t int) float64 {
	var between, left, right float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			d := math.Abs(x[i] - x[j])
			switch {
			case j < t:
				left += d
			case i >= t:
				right += d
			default:
				between += d
			}
		}
	}
	return qStat(t, len(x)-t, between, left, right)
}

// permutationP is the permutation p-value of an observed best statistic q over
// the segments bounded by cps: the share of permutations (each segment's
// points shuffled within it) whose best split is at least as strong.
func permutationP(x []float64, cps []int, q float64, s Settings, rng *rand.Rand) float64 {
	y := slices.Clone(x)
	ge := 0
	for r := 0; r < s.Permutations; r++ {
		best := math.Inf(-1)
		for i := 0; i+1 < len(cps); i++ {
			seg := y[cps[i]:cps[i+1]]
			rng.Shuffle(len(seg), func(a, b int) { seg[a], seg[b] = seg[b], seg[a] })
			if _, qq := bestSplit(seg, s.MinSize); qq > best {
				best = qq
			}
		}
		if best >= q {
			ge++
		}
	}
	return float64(ge+1) / float64(s.Permutations+1)
}

// tTestP is the two-sided p-value of Student's two-sample t-test (pooled
// variance) for equal means of a and b. The pooled variance matters here: a
// segment of three runs can have a tiny variance by chance, and Welch's test,
// which trusts it, then finds changes in flat series.
func tTestP(a, b []float64) float64 {
	if len(a) < 1 || len(b) < 1 || len(a)+len(b) < 3 {
		return 1
	}
	ma, mb := mean(a), mean(b)
	na, nb := float64(len(a)), float64(len(b))
	ss := sumSquares(a, ma) + sumSquares(b, mb)
	df := na + nb - 2
	se2 := ss / df * (1/na + 1/nb)
	if se2 == 0 {
		if ma == mb {
			return 1
		}
		return 0
	}
	t := math.Abs(ma-mb) / math.Sqrt(se2)
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t)
}

func sumSquares(v []float64, m float64) float64 {
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return s
}
