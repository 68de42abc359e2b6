package changepoint

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// maxTrendPoints bounds the O(n²) trend statistics: a longer segment is
// thinned to about this many evenly spaced points.
const maxTrendPoints = 1000

// thin returns every k-th point of x, and k, so that at most maxTrendPoints
// remain.
func thin(x []float64) ([]float64, int) {
	k := (len(x) + maxTrendPoints - 1) / maxTrendPoints
	if k <= 1 {
		return x, 1
	}
	out := make([]float64, 0, len(x)/k+1)
	for i := 0; i < len(x); i += k {
		out = append(out, x[i])
	}
	return out, k
}

// theilSen is the Theil-Sen slope of x against its index: the median of
// the slopes between all pairs of points.
func theilSen(x []float64) float64 {
	v, k := thin(x)
	n := len(v)
	if n < 2 {
		return 0
	}
	slopes := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			slopes = append(slopes, (v[j]-v[i])/float64(j-i))
		}
	}
	return median(slopes) / float64(k)
}

// theilSenLevel is the intercept at the first point for a given slope: the
// median of x[i] - slope·i.
func theilSenLevel(x []float64, slope float64) float64 {
	r := make([]float64, len(x))
	for i, v := range x {
		r[i] = v - slope*float64(i)
	}
	return median(r)
}

// mannKendallP is the two-sided p-value of the Mann-Kendall test for a
// monotone trend in x: S = Σ sign(x_j - x_i) over i < j, its variance
// corrected for ties, the normal approximation with continuity correction.
func mannKendallP(x []float64) float64 {
	v, _ := thin(x)
	n := len(v)
	if n < 3 {
		return 1
	}
	s := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			switch {
			case v[j] > v[i]:
				s++
			case v[j] < v[i]:
				s--
			}
		}
	}
	fn := float64(n)
	variance := fn * (fn - 1) * (2*fn + 5)
	sorted := slices.Clone(v)
	slices.Sort(sorted)
	for i := 0; i < n; {
		j := i
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		if t := float64(j - i); t > 1 {
			variance -= t * (t - 1) * (2*t + 5)
		}
		i = j
	}
	variance /= 18
	if variance <= 0 || s == 0 {
		return 1
	}
	z := (math.Abs(s) - 1) / math.Sqrt(variance)
	return math.Min(1, 2*distuv.UnitNormal.Survival(z))
}
