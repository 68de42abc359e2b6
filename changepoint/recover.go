package changepoint

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// slopeLevel is how clearly a significant drift's slope must fail beside
// the step the scan found for the step to take all of the drift's runs
// (p above it). In the power study, at 0.001 one drift in eight of 0.15σ a
// run became a step; at 0.005, 3 in 100; at 0.05 none, but issue 47's case
// (runs wandering upward before the step) was then found in 245 of 300
// seeds instead of 250.
const slopeLevel = 0.005

// A found step is one the step scan added to the segmentation, with its
// test and the evidence for the drift it competed with.
type found struct {
	scan   scan
	test   string
	versus string
}

// recoverSteps runs the step scan where the segmentation left a stretch
// whole: the whole series when it found no change, and every drifting
// segment. A flat stretch, or a drifting one whose Mann-Kendall test fails
// (no drift after all), gets a step where the scan passes ScanPValue; a
// drifting stretch whose trend passes is settled by compete. It returns the
// steps it added, by index, and the evidence lines for the drifts, by
// their first run.
func recoverSteps(y, se []float64, segs *segmentation, sigma float64, s Settings) (map[int]found, map[int]string) {
	steps, versus := map[int]found{}, map[int]string{}
	n, L := len(y), s.MinSize
	b := segs.bounds(n)
	for i := 0; i+1 < len(b); i++ {
		lo, hi := b[i], b[i+1]
		drifting := segs.drifts(lo, hi)
		if len(b) > 2 && !drifting {
			continue
		}
		sc, ok := scanSteps(y, se, lo, hi, L, sigma)
		if !ok {
			continue
		}
		if !drifting {
			if sc.p <= s.ScanPValue {
				steps[sc.at] = found{scan: sc, test: TestScan}
			}
			continue
		}
		mk := mannKendallP(y[lo:hi])
		driftLine := fmt.Sprintf("drift over runs %d-%d of %d: Mann-Kendall %s, Theil-Sen slope %+.3g%% a run", lo+1, hi, n, pText(mk), 100*theilSen(y[lo:hi])/math.Abs(median(y[lo:hi])))
		if mk > s.MaxPValue {
			if sc.p <= s.ScanPValue {
				steps[sc.at] = found{scan: sc, test: TestScan, versus: driftLine + " (fails)"}
			}
			continue
		}
		compete(y, lo, hi, sc, driftLine, s, steps, versus)
	}
	for at := range steps {
		segs.cps = append(segs.cps, at)
	}
	slices.Sort(segs.cps)
	segs.cps = slices.Compact(segs.cps)
	return steps, versus
}

// compete settles a significant drift over y[lo:hi] against the step sc
// the scan found in it. The step takes all the runs where, beside the step,
// the slope has p above slopeLevel (no sign of a drift once the step is
// there); the two share them (the step, and the sides fitted anew, each a
// level or a drift) where the jump in the line is the stronger evidence
// (its p below the slope's), or passes ScanPValue corrected for the splits;
// else the drift keeps them. Each carries the other's evidence.
func compete(y []float64, lo, hi int, sc scan, driftLine string, s Settings, steps map[int]found, versus map[int]string) {
	n := len(y)
	stepLine := fmt.Sprintf("step at run %d of %d: %s %s against the noise %s", sc.at+1, n, TestScan, pText(sc.p), sc.noise)
	if sc.p > s.ScanPValue {
		versus[lo] = stepLine + " (fails)"
		return
	}
	ps := slopeP(y, lo, hi, sc.at)
	pj, pjk := jumpP(y, lo, hi, sc.at, 1), jumpP(y, lo, hi, sc.at, hi-lo-2*s.MinSize+1)
	switch {
	case ps > slopeLevel:
		steps[sc.at] = found{scan: sc, test: TestScan, versus: driftLine + fmt.Sprintf(", but beside the step its slope has %s", pText(ps))}
	case pj < ps || pjk <= s.ScanPValue:
		steps[sc.at] = found{scan: sc, test: TestScan, versus: driftLine + fmt.Sprintf(", and beside the step its slope has %s: both kept", pText(ps))}
		both := fmt.Sprintf("step at run %d of %d: a jump in the line, F-test %s (the slope beside it %s): both kept", sc.at+1, n, pText(pj), pText(ps))
		versus[lo], versus[sc.at] = both, both
	default:
		versus[lo] = stepLine + fmt.Sprintf(", but the line explains it: a jump in the line has %s, the slope beside the step %s", pText(pj), pText(ps))
	}
}

// changes returns the changes at the inner bounds b of y, tested between
// their neighbouring segments (or by the step scan that found them).
func changes(y, se []float64, segs segmentation, b []int, fits []line, stats []Segment, steps map[int]found) []Change {
	out := []Change{}
	for i := 1; i+1 < len(b); i++ {
		lo, at, hi := b[i-1], b[i], b[i+1]
		c := Change{Index: at, Before: stats[i-1], After: stats[i]}
		before, after := fits[i-1].at(at), fits[i].at(at)
		if f, ok := steps[at]; ok {
			c.PValue, c.Test, c.Noise, c.NoiseSigma, c.Versus, c.NoiseNote = f.scan.p, f.test, f.scan.noise, f.scan.sigma, f.versus, f.scan.note
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.scan.df}.Quantile(0.975)
			c.SizeLow, c.SizeHigh = f.scan.diff-q*f.scan.se, f.scan.diff+q*f.scan.se
		} else {
			c.PValue = segs.test(lo, at, hi)
			c.Test, c.Noise = TestT, NoiseBetween
			if fits[i-1].drift || fits[i].drift {
				c.Test = TestChow
			}
			diff, sd, df := segs.jumpSE(lo, at, hi, fits[i-1].drift, fits[i].drift)
			c.NoiseSigma = sd
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975)
			c.SizeLow, c.SizeHigh = after-before-q*diff, after-before+q*diff
			if c.Test == TestT && knownSE(se, lo, hi) {
				c.withinNoise(y, se, lo, at, hi, segs)
			}
		}
		if before != 0 {
			c.Size = (after - before) / math.Abs(before)
			if steps[at].test == "" {
				c.SizeLow, c.SizeHigh = c.SizeLow/math.Abs(before), c.SizeHigh/math.Abs(before)
			} else {
				// The scan's interval is about the weighted levels' difference.
				c.SizeLow, c.SizeHigh = c.Size+(c.SizeLow-(after-before))/math.Abs(before), c.Size+(c.SizeHigh-(after-before))/math.Abs(before)
			}
		}
		c.Confidence = 1 - c.PValue
		c.Energy = energy(y[lo:hi], at-lo)
		out = append(out, c)
	}
	return out
}

// jumpSE is the standard error of the jump at b between the fits of [a, b)
// and [b, c), in the series' units, the residual σ per run and its degrees
// of freedom. A line's end has about 4/n of its residual variance.
func (seg segmentation) jumpSE(a, b, c int, d1, d2 bool) (se, sd, df float64) {
	r, k := 0.0, 0
	v := 0.0
	for _, s := range [][3]int{{a, b, 0}, {b, c, 1}} {
		n := float64(s[1] - s[0])
		if s[2] == 0 && d1 || s[2] == 1 && d2 {
			r += seg.p.rssLine(s[0], s[1])
			k += 2
			v += 4 / n
		} else {
			r += seg.p.rssConst(s[0], s[1])
			k++
			v += 1 / n
		}
	}
	df = math.Max(1, float64(c-a-k))
	sd = math.Sqrt(r/df) * seg.sigma
	return sd * math.Sqrt(v), sd, df
}

// withinP is the p-value of the step at b between the levels of [a, b) and
// [b, c) against the runs' own noise (weights 1/SE²), Bonferroni corrected
// as segmentation.test is, and that noise's σ per run.
func withinP(y, se []float64, a, b, c, minSize int) (float64, float64) {
	w := make([]float64, c-a)
	v := make([]float64, c-a)
	c0 := median(y[a:c])
	for i := range w {
		w[i] = 1 / (se[a+i] * se[a+i])
		v[i] = y[a+i] - c0
	}
	s := newWeightedSums(v, w)
	m1, w1, _ := s.side(0, b-a)
	m2, w2, _ := s.side(b-a, c-a)
	z := math.Abs(m2-m1) / math.Sqrt(1/w1+1/w2)
	p := 2 * distuv.UnitNormal.Survival(z)
	return math.Min(1, p*float64(max(1, c-a-2*minSize+1))), math.Sqrt(float64(c-a) / (w1 + w2))
}

// withinNoise tests the change c at b, found between the flat levels of
// [a, b) and [b, e), against the runs' own noise too, where their SEs fit
// the scatter between them: the larger p-value is kept, with its noise.
// Where they do not, c says so.
func (c *Change) withinNoise(y, se []float64, a, b, e int, segs segmentation) {
	if !consistentSE(se[a:e], segs.sigma) {
		c.NoiseNote = seNote(se[a:e], y[a:e])
		return
	}
	if pw, sw := withinP(y, se, a, b, e, segs.s.MinSize); pw > c.PValue {
		c.PValue, c.Noise, c.NoiseSigma = pw, NoiseWithin, sw
	}
}
