package measure

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/clmeter/clmeter/units"
)

// StatsSettings holds the thresholds of Summarize. The zero value of a field
// means its default (DefaultStatsSettings).
type StatsSettings struct {
	// Confidence is the confidence level of the interval of the median
	// (default 0.95).
	Confidence float64 `json:"confidence"`
	// MaxNoise is the noise target: a Summary whose Noise is above it carries a
	// "noisy" warning (default 0.01).
	MaxNoise float64 `json:"max_noise"`
	// MinSamples: fewer samples (or fewer than 5) carry a "few samples" warning
	// (default 10).
	MinSamples int `json:"min_samples"`
	// OutlierZ is the modified z-score above which a sample is an outlier
	// (Iglewicz and Hoaglin): |x - median| > OutlierZ * 1.4826 * MAD. Default 3.5.
	OutlierZ float64 `json:"outlier_z"`
	// TrendAlpha is the significance level of the trend test (Spearman rank
	// correlation of sample value against sample index). Default 0.01.
	TrendAlpha float64 `json:"trend_alpha"`
	// TrendMinChange is the smallest relative change over the run worth a warning
	// (median of the last third against median of the first third, relative to
	// the median). Default 0.02.
	TrendMinChange float64 `json:"trend_min_change"`
}

// DefaultStatsSettings returns the default thresholds.
func DefaultStatsSettings() StatsSettings {
	return StatsSettings{
		Confidence:     0.95,
		MaxNoise:       DefaultMaxNoise,
		MinSamples:     DefaultMinSamples,
		OutlierZ:       3.5,
		TrendAlpha:     0.01,
		TrendMinChange: 0.02,
	}
}

func (c StatsSettings) withDefaults() StatsSettings {
	d := DefaultStatsSettings()
	if c.Confidence <= 0 || c.Confidence >= 1 {
		c.Confidence = d.Confidence
	}
	if c.MaxNoise <= 0 {
		c.MaxNoise = d.MaxNoise
	}
	if c.MinSamples <= 0 {
		c.MinSamples = d.MinSamples
	}
	if c.OutlierZ <= 0 {
		c.OutlierZ = d.OutlierZ
	}
	if c.TrendAlpha <= 0 {
		c.TrendAlpha = d.TrendAlpha
	}
	if c.TrendMinChange <= 0 {
		c.TrendMinChange = d.TrendMinChange
	}
	return c
}

// madScale turns a median absolute deviation into an estimate of the standard
// deviation of normal data (1 / Φ⁻¹(3/4)).
const madScale = 1.4826

// minTrendSamples: below this the rank test has too little power to mean much.
const minTrendSamples = 8

// A Summary describes a set of per-launch times. Durations encode in JSON as
// integer nanoseconds (fields ending in _ns); ratios are plain fractions
// (0.01 = 1%).
type Summary struct {
	// N is the number of samples.
	N int `json:"n"`
	// Min, Max, Mean, Geomean, Median and Stddev (sample standard deviation,
	// n-1) of the per-launch times.
	Min     time.Duration `json:"min_ns"`
	Max     time.Duration `json:"max_ns"`
	Mean    time.Duration `json:"mean_ns"`
	Geomean time.Duration `json:"geomean_ns"`
	Median  time.Duration `json:"median_ns"`
	Stddev  time.Duration `json:"stddev_ns"`
	// CV is the coefficient of variation, Stddev / Mean.
	CV float64 `json:"cv"`
	// CI95Low and CI95High bound the median at the confidence level CILevel
	// (the level asked for, 95% by default; the Go names are historical, the
	// JSON names say no level): the distribution-free order-statistic
	// interval [x(l), x(n+1-l)] of the sorted samples, with l the largest rank
	// whose binomial tail P(B(n, 1/2) <= l-1) is at most (1-CILevel)/2. It
	// assumes only independent samples. With fewer samples than the level
	// needs (CISamples: 6 at 95%) there is no interval: both are zero, CILevel
	// and CIConfidence too, and the JSON leaves them out.
	CI95Low  time.Duration `json:"ci_low_ns,omitempty"`
	CI95High time.Duration `json:"ci_high_ns,omitempty"`
	// CILevel is the confidence level asked for (0.95).
	CILevel float64 `json:"ci_level,omitempty"`
	// CIConfidence is the exact coverage of [CI95Low, CI95High], at least
	// CILevel: 1 - 2 P(B <= l-1).
	CIConfidence float64 `json:"ci_confidence,omitempty"`
	// Noise is the relative half-width of the interval of the median:
	// (CI95High - CI95Low) / 2 / Median; zero without an interval.
	Noise float64 `json:"noise"`
	// Outliers counts the samples whose modified z-score is above
	// StatsSettings.OutlierZ: |x - Median| > OutlierZ * 1.4826 * MAD, with MAD
	// the median absolute deviation (when MAD is zero, 1.2533 times the mean
	// absolute deviation stands in for 1.4826 MAD; when both are zero there are
	// no outliers). OutlierIndexes are their indexes in sample order.
	Outliers       int   `json:"outliers"`
	OutlierIndexes []int `json:"outlier_indexes"`
	// Trend is the relative change over the run: (median of the last third of
	// the samples - median of the first third) / Median. TrendSlope is the
	// drift a sample, relative to the median: the Theil-Sen slope of value
	// against index (the median of the pairwise slopes) / Median. The warning
	// quotes the change over the whole run, TrendSlope x (N-1), with Sen's
	// distribution-free interval of the slope at CILevel scaled alike. TrendP is the two-sided p-value of Spearman's rank
	// correlation of value against index (normal approximation); 1 when there
	// are too few samples to test.
	Trend      float64 `json:"trend"`
	TrendSlope float64 `json:"trend_slope"`
	TrendP     float64 `json:"trend_p"`
	// Warnings say what makes these figures less trustworthy than they look.
	Warnings []string `json:"warnings"`
}

// Summarize computes the Summary of per-launch times given in sample order.
// It never fails: what is wrong with the data becomes a warning.
func Summarize(perLaunch []time.Duration, cfg StatsSettings) Summary {
	cfg = cfg.withDefaults()
	s := Summary{OutlierIndexes: []int{}, Warnings: []string{}, TrendP: 1}
	n := len(perLaunch)
	s.N = n
	if n == 0 {
		s.Warnings = append(s.Warnings, "no samples")
		return s
	}
	x := durationsToFloat(perLaunch)
	sorted := slices.Clone(x)
	slices.Sort(sorted)

	s.Min = time.Duration(sorted[0])
	s.Max = time.Duration(sorted[n-1])
	med := MedianSorted(sorted)
	s.Median = roundDuration(med)
	mean := stat.Mean(x, nil)
	s.Mean = roundDuration(mean)
	if sorted[0] > 0 {
		s.Geomean = roundDuration(stat.GeometricMean(x, nil))
	}
	if n > 1 {
		sd := stat.StdDev(x, nil)
		s.Stddev = roundDuration(sd)
		if mean > 0 {
			s.CV = sd / mean
		}
	}

	need := CISamples(cfg.Confidence)
	if n >= need {
		lo, hi, conf := MedianCI(sorted, cfg.Confidence)
		s.CI95Low, s.CI95High, s.CIConfidence, s.CILevel = time.Duration(lo), time.Duration(hi), conf, cfg.Confidence
		if med > 0 {
			s.Noise = (hi - lo) / 2 / med
		}
	}

	s.OutlierIndexes = outliers(x, med, cfg.OutlierZ)
	s.Outliers = len(s.OutlierIndexes)

	if n >= minTrendSamples && med > 0 {
		third := n / 3
		first := slices.Clone(x[:third])
		last := slices.Clone(x[n-third:])
		slices.Sort(first)
		slices.Sort(last)
		s.Trend = (MedianSorted(last) - MedianSorted(first)) / med
		s.TrendP = spearmanP(x)
		slope, _, _ := theilSen(x, cfg.Confidence)
		s.TrendSlope = slope / med
	}

	// Warnings, most important first.
	if n < cfg.MinSamples || n < 5 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("few samples: %d (want at least %d)", n, max(cfg.MinSamples, 5)))
	}
	if n < need {
		s.Warnings = append(s.Warnings, CINeedsText(cfg.Confidence, n)+fmt.Sprintf(" (--samples %d takes them)", need))
	} else if s.Noise > cfg.MaxNoise {
		s.Warnings = append(s.Warnings, fmt.Sprintf("noisy: the %s CI of the median is ±%s (target ±%s)",
			LevelText(cfg.Confidence), units.Percent(s.Noise), units.Percent(cfg.MaxNoise)))
	}
	if s.TrendP < cfg.TrendAlpha && math.Abs(s.Trend) >= cfg.TrendMinChange && s.TrendSlope != 0 {
		s.Warnings = append(s.Warnings, trendWarning(x, med, cfg.Confidence, s.TrendP))
	}
	if s.Outliers > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s of %s (modified z-score > %g)", units.Count(s.Outliers, "outlier"), units.Count(n, "sample"), cfg.OutlierZ))
	}
	return s
}

// noiseOf is the Noise of Summarize without the rest, for the stopping rule. It
// returns ok false when the interval does not reach the confidence level.
func noiseOf(perLaunch []time.Duration, confidence float64) (noise float64, ok bool) {
	sorted := durationsToFloat(perLaunch)
	if len(sorted) == 0 {
		return 0, false
	}
	slices.Sort(sorted)
	lo, hi, conf := MedianCI(sorted, confidence)
	med := MedianSorted(sorted)
	if med <= 0 {
		return 0, conf >= confidence
	}
	return (hi - lo) / 2 / med, conf >= confidence
}

// MedianCI returns the order-statistic confidence interval of the median of
// sorted data and its exact coverage (see Summary.CI95Low).
func MedianCI(sorted []float64, confidence float64) (lo, hi, coverage float64) {
	n := len(sorted)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	alpha := (1 - confidence) / 2
	l := 1 // 1-based rank of the lower bound; 1 gives [min, max]
	for r := 2; r <= (n+1)/2; r++ {
		if b.CDF(float64(r-1)) > alpha+1e-12 {
			break
		}
		l = r
	}
	coverage = 1 - 2*b.CDF(float64(l-1))
	return sorted[l-1], sorted[n-l], coverage
}

// outliers returns the indexes of x whose modified z-score exceeds z.
func outliers(x []float64, med, z float64) []int {
	dev := make([]float64, len(x))
	sum := 0.0
	for i, v := range x {
		dev[i] = math.Abs(v - med)
		sum += dev[i]
	}
	d := slices.Clone(dev)
	slices.Sort(d)
	scale := madScale * MedianSorted(d)
	if scale == 0 {
		// More than half the samples equal the median: fall back to the mean
		// absolute deviation (1.2533 = sqrt(pi/2) makes it a normal sigma).
		scale = 1.2533 * sum / float64(len(x))
	}
	idx := []int{}
	if scale == 0 {
		return idx
	}
	for i, v := range dev {
		if v > z*scale {
			idx = append(idx, i)
		}
	}
	return idx
}

// spearmanP is the two-sided p-value of Spearman's rank correlation between x
// and its index, by the normal approximation z = rho * sqrt(n-1).
func spearmanP(x []float64) float64 {
	n := len(x)
	r := ranks(x)
	idx := make([]float64, n)
	for i := range idx {
		idx[i] = float64(i + 1)
	}
	rho := stat.Correlation(idx, r, nil)
	if math.IsNaN(rho) { // all values equal: no trend
		return 1
	}
	z := math.Abs(rho) * math.Sqrt(float64(n-1))
	return 2 * (1 - distuv.UnitNormal.CDF(z))
}

// ranks returns the 1-based ranks of x, ties getting their average rank.
func ranks(x []float64) []float64 {
	n := len(x)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, n)
	for i := 0; i < n; {
		j := i
		for j+1 < n && x[order[j+1]] == x[order[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[order[k]] = avg
		}
		i = j + 1
	}
	return r
}

// MedianSorted returns the median of sorted data (0 for none): the middle
// value, or the mean of the two middle values.
func MedianSorted(s []float64) float64 {
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func durationsToFloat(d []time.Duration) []float64 {
	x := make([]float64, len(d))
	for i, v := range d {
		x[i] = float64(v)
	}
	return x
}

func roundDuration(f float64) time.Duration {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return time.Duration(math.Round(f))
}

// Throughput is what a per-launch time means in bytes and operations per second.
// Rates are in decimal units: 1 GB/s = 1e9 bytes/s, 1 G/s = 1e9 operations/s.
type Throughput struct {
	// BytesPerLaunch and OpsPerLaunch are copied from SetupInfo; OpsUnit names
	// what the operations are ("FLOP", "IOP", "item").
	BytesPerLaunch int64  `json:"bytes_per_launch"`
	OpsPerLaunch   int64  `json:"ops_per_launch"`
	OpsUnit        string `json:"ops_unit,omitempty"`
	// GBPerSecond is from the median per-launch time, BestGBPerSecond from the
	// minimum. Zero when BytesPerLaunch is zero.
	GBPerSecond     float64 `json:"gb_per_s"`
	BestGBPerSecond float64 `json:"best_gb_per_s"`
	// GOpsPerSecond (GFLOP/s, G items/s ...) from the median, BestGOpsPerSecond
	// from the minimum. Zero when OpsPerLaunch is zero.
	GOpsPerSecond     float64 `json:"gops_per_s"`
	BestGOpsPerSecond float64 `json:"best_gops_per_s"`
}

// ComputeThroughput turns a Summary into throughput; nil when the setup knows
// neither bytes nor operations per launch.
func ComputeThroughput(info SetupInfo, s Summary) *Throughput {
	if info.BytesPerLaunch <= 0 && info.OpsPerLaunch <= 0 {
		return nil
	}
	t := &Throughput{BytesPerLaunch: info.BytesPerLaunch, OpsPerLaunch: info.OpsPerLaunch, OpsUnit: info.OpsUnit}
	rate := func(per int64, d time.Duration) float64 {
		if per <= 0 || d <= 0 {
			return 0
		}
		return float64(per) / d.Seconds() / 1e9
	}
	t.GBPerSecond = rate(info.BytesPerLaunch, s.Median)
	t.BestGBPerSecond = rate(info.BytesPerLaunch, s.Min)
	t.GOpsPerSecond = rate(info.OpsPerLaunch, s.Median)
	t.BestGOpsPerSecond = rate(info.OpsPerLaunch, s.Min)
	return t
}

// HasCI reports whether s carries an interval of the median.
func (s Summary) HasCI() bool { return s.CILevel > 0 && s.CI95High > 0 }

// CVText writes the coefficient of variation as a percentage, or "-" below
// two samples, where it is not defined (never "0%" for one sample).
func (s Summary) CVText() string {
	if s.N < 2 {
		return "-"
	}
	return units.Percent(s.CV)
}

// LevelText writes a confidence level as people write it: 0.95 is "95%",
// 0.999 is "99.9%".
func LevelText(level float64) string {
	return strconv.FormatFloat(100*level, 'f', -1, 64) + "%"
}

// CINeedsText says why there is no interval: "95% CI needs n >= 6 samples; got 2".
func CINeedsText(level float64, n int) string {
	return fmt.Sprintf("%s CI needs n >= %d samples; got %d", LevelText(level), CISamples(level), n)
}

// CISamples is the fewest samples whose extremes bound the median with at
// least the given confidence: 1 - 2^(1-n) >= confidence (6 at 95%).
func CISamples(confidence float64) int {
	n := 1
	for n < 64 && 1-math.Pow(2, float64(1-n)) < confidence {
		n++
	}
	return n
}

// UnmarshalJSON reads a Summary, including files written before the interval's
// fields were renamed: their ci95_low_ns and ci95_high_ns are kept only when
// their coverage (ci_confidence) reaches 95%, the level they were made at.
func (s *Summary) UnmarshalJSON(b []byte) error {
	type plain Summary
	var v struct {
		plain
		OldLow  *int64 `json:"ci95_low_ns"`
		OldHigh *int64 `json:"ci95_high_ns"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Summary(v.plain)
	if v.OldLow != nil && v.OldHigh != nil && s.CILevel == 0 {
		if s.CIConfidence >= 0.95-1e-9 {
			s.CI95Low, s.CI95High, s.CILevel = time.Duration(*v.OldLow), time.Duration(*v.OldHigh), 0.95
		} else {
			s.CIConfidence, s.Noise = 0, 0
		}
	}
	return nil
}
