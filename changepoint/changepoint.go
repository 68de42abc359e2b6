// Package changepoint finds where a series of measurements changes: the runs
// where a benchmark got slower or faster and stayed so (changes), stretches
// where it drifts run after run (drifts), and single runs or short
// excursions that come back (outliers).
//
// The default method is penalised segmentation (docs/CHANGEPOINTS.md has the
// derivation and the scores on the Turing Change Point Dataset):
//
//  1. The noise σ is measured robustly from the differences of neighbouring
//     points (1.4826·MAD/√2), which steps and a steady drift hardly move.
//  2. Outliers: an excursion of fewer than MinSize points whose every point
//     lies OutlierSigmas·σ beyond both the median of the MinSize-1 points
//     before it and that of the MinSize-1 after it, and that comes back, is
//     an outlier (a Hampel filter looking at either side apart); so are the
//     newest (or oldest) points off the level for fewer than MinSize runs.
//     They are reported and replaced by the level they left before
//     segmenting.
//  3. Segmentation: the series is cut into segments of at least MinSize
//     points, each either flat (a level) or a straight line (a drift),
//     minimising the residual sum of squares in units of σ² plus a BIC-like
//     penalty of Penalty·ln n per change and 0.75·Penalty·ln n per slope
//     (optimal partitioning, exact, with PELT's pruning). A drift is one line, not
//     a staircase of steps.
//  4. Significance: every change is tested between its neighbouring segments
//     (Student's t-test of the two levels, or a Chow F-test of two lines
//     against one when a side drifts), Bonferroni-corrected for the
//     positions the change could have taken; the weakest change above
//     MaxPValue is dropped and the rest tested again, until all pass.
//  5. Real series are rarely independent from run to run (a machine warms,
//     a neighbour's job runs for an hour): σ is measured again from the
//     differences over lags of 2 to min(20, n/10) runs within the segments
//     found, and when that long-run σ is larger, steps 3 and 4 are repeated
//     with it (twice at most). For independent noise it changes nothing.
//  6. A segment fitted by a line whose Mann-Kendall trend test passes
//     MaxPValue is a Drift, with its Theil-Sen slope.
//
// Settings.Method = EDivisive selects the method clmeter used before,
// E-Divisive with a t-test as Apache Otava does (edivisive.go).
package changepoint

import (
	"math"
	"slices"
)

// Method is the change-point method.
type Method int

const (
	// Penalized is penalised segmentation into flat and drifting segments
	// with a significance test per change (the default).
	Penalized Method = iota
	// EDivisive is the energy-statistic binary segmentation of Matteson and
	// James as Apache Otava runs it (no drifts, no outliers).
	EDivisive
)

// String names the method.
func (m Method) String() string {
	if m == EDivisive {
		return "e-divisive"
	}
	return "penalized"
}

// Test is E-Divisive's significance test for a candidate split.
type Test int

const (
	// TTest is Student's two-sample t-test between the segments either side
	// of the split (Otava's test), corrected for picking the best split.
	TTest Test = iota
	// Permutation is Matteson and James's permutation test of the energy
	// statistic.
	Permutation
)

// DefaultMaxPValue is the default significance level a change must pass:
// 0.001, Otava's.
const DefaultMaxPValue = 0.001

// DefaultMinSize is the fewest points a segment may have by default: a change
// is found once this many runs follow it, and a shorter excursion that comes
// back is an outlier.
const DefaultMinSize = 3

// DefaultPenalty is the default cost of a change in units of σ²·ln n (BIC
// charges 2 per change for a known σ; real series need more, see
// docs/CHANGEPOINTS.md).
const DefaultPenalty = 8

// OutlierSigmas is how far from its neighbours' median, in noise σ, a point
// must lie to be an outlier.
const OutlierSigmas = 5

// DefaultPermutations is the default number of permutations of E-Divisive's
// permutation test: enough for p-values down to 1/(199+1) = 0.005; use at
// least 999 with MaxPValue 0.001.
const DefaultPermutations = 199

// Settings control Analyze and Detect. The zero value means the defaults.
type Settings struct {
	// Method is the change-point method (default Penalized).
	Method Method
	// MaxPValue is the significance level each change (and each drift's
	// trend test) must pass (default DefaultMaxPValue).
	MaxPValue float64
	// ScanPValue is the family-wise level of the step scan, which looks for
	// one step where the segmentation found no change or a drift (Penalized
	// only; default 30·MaxPValue, 0.03 at the default MaxPValue).
	ScanPValue float64
	// MinSize is the fewest points in a segment (default DefaultMinSize, at
	// least 2).
	MinSize int
	// Penalty is the cost of a change in units of σ²·ln n (Penalized only;
	// default DefaultPenalty). Larger finds fewer changes.
	Penalty float64
	// Test is E-Divisive's significance test (default TTest).
	Test Test
	// Permutations is the number of permutations for the Permutation test
	// (default DefaultPermutations).
	Permutations int
	// Seed seeds the permutations, so a result can be reproduced.
	Seed uint64
}

func (s Settings) withDefaults() Settings {
	if s.MaxPValue <= 0 {
		s.MaxPValue = DefaultMaxPValue
	}
	if s.ScanPValue <= 0 {
		s.ScanPValue = min(1, scanShare*s.MaxPValue)
	}
	if s.MinSize <= 0 {
		s.MinSize = DefaultMinSize
	}
	s.MinSize = max(s.MinSize, 2)
	if s.Penalty <= 0 {
		s.Penalty = DefaultPenalty
	}
	if s.Permutations <= 0 {
		s.Permutations = DefaultPermutations
	}
	return s
}

// A Segment summarises the points between two changes.
type Segment struct {
	// Start is the index of its first point; N the number of points.
	Start, N int
	// Mean and Median of its points (outliers replaced, see Analysis).
	Mean, Median float64
	// Slope is the change per point when the segment drifts (Theil-Sen),
	// else 0.
	Slope float64
}

// A Change is a point where the series moves to a new level or a new slope.
type Change struct {
	// Index is the first point of the new level: the change lies between
	// points Index-1 and Index.
	Index int
	// Before and After are the segments either side, bounded by the
	// neighbouring changes (or the ends of the series).
	Before, After Segment
	// Size is the relative jump at the change, (after - before) / before,
	// where before and after are the two segments' fitted levels at Index
	// (their means when both are flat): +0.05 is 5% higher.
	Size float64
	// PValue is the significance test's p-value for "no change here", between
	// Before and After; Confidence is 1 - PValue.
	PValue, Confidence float64
	// Energy is the E-Divisive statistic Q of the split.
	Energy float64
	// SizeLow and SizeHigh bound Size with 95% confidence.
	SizeLow, SizeHigh float64
	// Test names the test that PValue is from (TestT, TestChow or
	// TestScan); "" for E-Divisive's.
	Test string
	// Noise names the noise that decided the test, NoiseBetween or
	// NoiseWithin (the one that gave the larger p-value), and NoiseSigma is
	// that noise's σ per run, in the series' units.
	Noise      string
	NoiseSigma float64
	// Versus is one line of evidence for the reading that competed with this
	// step for the same runs (a drift), "" when none did.
	Versus string
	// NoiseNote says why the runs' own noise did not take part in the test
	// where every run carried it ("" when it did, or when they did not):
	// their CIs were wider than the scatter between them.
	NoiseNote string
}

// A Drift is a segment where the series moves steadily: a trend, reported
// once with its slope rather than as a staircase of changes.
type Drift struct {
	// Start is its first point, N its number of points; it is ongoing when
	// Start+N is the length of the series.
	Start, N int
	// Slope is the Theil-Sen slope: the median change per point.
	Slope float64
	// Level is the fitted value at Start.
	Level float64
	// Size is the relative change over the drift, Slope·(N-1)/Level.
	Size float64
	// PValue is the Mann-Kendall test's p-value for "no trend";
	// Confidence is 1 - PValue.
	PValue, Confidence float64
	// Versus is one line of evidence for the step that competed with this
	// drift for the same runs, "" when none did.
	Versus string
}

// An Outlier is a point, or a short excursion of fewer than MinSize points,
// that departs from its neighbours and comes back (or is among the newest
// points, where a change cannot be told yet).
type Outlier struct {
	// Index is its first point, N the number of points.
	Index, N int
	// Level is the median of the neighbours it departs from; Size the
	// relative departure of its mean from Level.
	Level, Size float64
}

// An Analysis is what Analyze finds in a series.
type Analysis struct {
	Changes  []Change
	Drifts   []Drift
	Outliers []Outlier
	// Noise is the noise σ the segmentation used (the long-run one when
	// larger), in the series' units.
	Noise float64
}

// Analyze returns the changes, drifts and outliers of x, each in index order.
// It never fails: a series too short to split (fewer than 2*MinSize points)
// has no changes. x must be finite.
func Analyze(x []float64, s Settings) Analysis {
	s = s.withDefaults()
	if s.Method == EDivisive {
		return Analysis{Changes: eDivisive(x, s), Drifts: []Drift{}, Outliers: []Outlier{}}
	}
	return penalized(x, nil, s)
}

// Detect returns the changes in x, in index order (Analyze's Changes).
func Detect(x []float64, s Settings) []Change {
	return Analyze(x, s).Changes
}

func segment(x []float64, lo, hi int) Segment {
	return Segment{Start: lo, N: hi - lo, Mean: mean(x[lo:hi]), Median: median(x[lo:hi])}
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// median of v (not modified); NaN when empty.
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	w := slices.Clone(v)
	if len(w) <= 32 {
		slices.Sort(w)
		if len(w)%2 == 1 {
			return w[len(w)/2]
		}
		return (w[len(w)/2-1] + w[len(w)/2]) / 2
	}
	k := len(w) / 2
	hi := selectKth(w, k)
	if len(w)%2 == 1 {
		return hi
	}
	// The largest of the lower half, which selectKth left below k.
	return (slices.Max(w[:k]) + hi) / 2
}

// selectKth reorders w so that w[k] is its k-th smallest element, with no
// larger one before it and no smaller one after (Hoare's quickselect,
// median-of-three pivots), and returns w[k].
func selectKth(w []float64, k int) float64 {
	lo, hi := 0, len(w)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if w[mid] < w[lo] {
			w[mid], w[lo] = w[lo], w[mid]
		}
		if w[hi] < w[lo] {
			w[hi], w[lo] = w[lo], w[hi]
		}
		if w[hi] < w[mid] {
			w[hi], w[mid] = w[mid], w[hi]
		}
		pivot := w[mid]
		i, j := lo, hi
		for i <= j {
			for w[i] < pivot {
				i++
			}
			for w[j] > pivot {
				j--
			}
			if i <= j {
				w[i], w[j] = w[j], w[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return w[k]
		}
	}
	return w[k]
}
