package measure

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/clmeter/clmeter/units"
)

// trendWarning words a significant trend as its total over the run: the
// Theil-Sen slope times (n-1) samples, relative to the median med, with Sen's
// interval of the slope at the confidence level scaled alike.
func trendWarning(x []float64, med, confidence, p float64) string {
	n := len(x)
	slope, lo, hi := theilSen(x, confidence)
	span := float64(n-1) / med
	verb, cause := "rose", "clock ramp or throttling?"
	if slope < 0 {
		verb, cause = "fell", "warm-up too short or clock boost?"
		slope, lo, hi = -slope, -hi, -lo
	}
	return fmt.Sprintf("times %s %s of the median from the first sample to the last (%s CI %s to %s, %s, %s): %s",
		verb, units.Percent(slope*span), LevelText(confidence), units.Percent(lo*span), units.Percent(hi*span),
		units.PValue(p), units.Count(n, "sample"), cause)
}

// theilSen is the Theil-Sen slope of x against its index, the median of the
// pairwise slopes (x[j]-x[i])/(j-i), with Sen's distribution-free interval at
// the given confidence: the order statistics of the slopes at ranks
// (N ∓ z sqrt(Var S))/2, S being Kendall's statistic of m points, Var S =
// m(m-1)(2m+5)/18 and N the number of pairs (Sen 1968; Hollander and Wolfe).
// Long runs use points a stride apart, at most about 200,000 pairs.
func theilSen(x []float64, confidence float64) (slope, lo, hi float64) {
	n := len(x)
	stride := 1
	for (n/stride)*(n/stride)/2 > 200000 {
		stride++
	}
	var slopes []float64
	m := 0
	for i := 0; i < n; i += stride {
		m++
		for j := i + stride; j < n; j += stride {
			slopes = append(slopes, (x[j]-x[i])/float64(j-i))
		}
	}
	if len(slopes) == 0 {
		return 0, 0, 0
	}
	slices.Sort(slopes)
	pairs := float64(len(slopes))
	mf := float64(m)
	z := distuv.UnitNormal.Quantile(1 - (1-confidence)/2)
	c := z * math.Sqrt(mf*(mf-1)*(2*mf+5)/18)
	l := max(int(math.Floor((pairs-c)/2)), 1)            // 1-based rank of the lower bound
	u := min(int(math.Ceil((pairs+c)/2))+1, len(slopes)) // and of the upper bound
	return MedianSorted(slopes), slopes[l-1], slopes[u-1]
}
