package measure

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func ns(v ...float64) []time.Duration {
	d := make([]time.Duration, len(v))
	for i, x := range v {
		d[i] = time.Duration(x)
	}
	return d
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func checkDur(t *testing.T, name string, got, want time.Duration) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

func checkFloat(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !near(got, want, tol) {
		t.Errorf("%s = %.6g, want %.6g", name, got, want)
	}
}

func TestSummarizeHandComputed(t *testing.T) {
	type want struct {
		min, max, mean, geomean, median, stddev time.Duration
		cv                                      float64
		lo, hi                                  time.Duration
		conf, noise                             float64
		outliers                                []int
	}
	tests := []struct {
		name string
		in   []time.Duration
		want want
	}{
		{
			// 10..100: sd = sqrt(8250/9) = 30.28; geomean = 10 * 10!^(1/10) = 45.29;
			// n=10: P(B<=1) = 11/1024 <= 0.025 < P(B<=2), so l=2: [x(2), x(9)],
			// coverage 1 - 22/1024; MAD = 25, no outliers.
			"ten", ns(10, 20, 30, 40, 50, 60, 70, 80, 90, 100),
			want{10, 100, 55, 45, 55, 30, 30.276503540974915 / 55, 20, 90, 1 - 22.0/1024, 35.0 / 55, []int{}},
		},
		{
			// Median 100, MAD 1 -> threshold 3.5 * 1.4826 = 5.19: only 500 is out.
			"outlier", ns(100, 101, 99, 100, 102, 98, 100, 101, 99, 500),
			want{98, 500, 140, 0, 100, 0, 0, 99, 102, 1 - 22.0/1024, 1.5 / 100, []int{9}},
		},
		{
			// MAD 0: mean absolute deviation 3 * 1.2533 = 3.76 stands in; 30 > 13.2.
			"mad zero", ns(100, 100, 100, 130, 100, 100, 100, 100, 100, 100),
			want{100, 130, 103, 0, 100, 0, 0, 100, 100, 1 - 22.0/1024, 0, []int{3}},
		},
		{
			// n=5 cannot reach 95% ([min, max] covers 1 - 2/32): no interval.
			"five", ns(5, 1, 4, 2, 3),
			want{1, 5, 3, 0, 3, 0, 0, 0, 0, 0, 0, []int{}},
		},
		{
			// n=6: P(B<=0) = 1/64 <= 0.025: [min, max] covering 1 - 2/64.
			"six even", ns(1, 2, 3, 4, 5, 6),
			want{1, 6, 4, 0, 4, 0, 0, 1, 6, 1 - 2.0/64, 2.5 / 3.5, []int{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(tt.in, StatsSettings{})
			w := tt.want
			checkDur(t, "min", s.Min, w.min)
			checkDur(t, "max", s.Max, w.max)
			if tt.name != "six even" { // mean 3.5 rounds to 4
				checkDur(t, "mean", s.Mean, w.mean)
			}
			if w.geomean != 0 {
				checkDur(t, "geomean", s.Geomean, w.geomean)
			}
			if tt.name == "six even" {
				checkDur(t, "median", s.Median, 4) // 3.5 rounds to 4
			} else {
				checkDur(t, "median", s.Median, w.median)
			}
			if w.stddev != 0 {
				checkDur(t, "stddev", s.Stddev, w.stddev)
				checkFloat(t, "cv", s.CV, w.cv, 1e-9)
			}
			checkDur(t, "ci low", s.CI95Low, w.lo)
			checkDur(t, "ci high", s.CI95High, w.hi)
			checkFloat(t, "ci confidence", s.CIConfidence, w.conf, 1e-12)
			checkFloat(t, "noise", s.Noise, w.noise, 1e-9)
			if !slices.Equal(s.OutlierIndexes, w.outliers) || s.Outliers != len(w.outliers) {
				t.Errorf("outliers %d %v, want %v", s.Outliers, s.OutlierIndexes, w.outliers)
			}
			if s.N != len(tt.in) {
				t.Errorf("n = %d", s.N)
			}
		})
	}
}

func TestMedianCITwenty(t *testing.T) {
	// n=20: P(B<=5) = 21700/2^20 = 0.0207 <= 0.025 < P(B<=6): [x(6), x(15)].
	x := make([]float64, 20)
	for i := range x {
		x[i] = float64(i + 1)
	}
	lo, hi, conf := MedianCI(x, 0.95)
	if lo != 6 || hi != 15 || !near(conf, 1-2*21700.0/1048576, 1e-12) {
		t.Errorf("medianCI = %v, %v, %v", lo, hi, conf)
	}
}

func TestSummarizeWarnings(t *testing.T) {
	ramp := make([]time.Duration, 30)
	fall := make([]time.Duration, 30)
	flat := make([]time.Duration, 30)
	for i := range ramp {
		ramp[i] = time.Duration(1000 + 10*i)
		fall[i] = time.Duration(1300 - 10*i)
		flat[i] = time.Duration(1000 + (i*7)%5)
	}
	tests := []struct {
		name    string
		in      []time.Duration
		want    []string
		notWant []string
	}{
		{"empty", nil, []string{"no samples"}, nil},
		{"few", ns(1, 2, 3), []string{"few samples: 3", "95% CI needs n >= 6 samples; got 3 (--samples 6 takes them)"}, []string{"noisy"}},
		// slope 10 ns a sample over 29 steps, median 1145: 25% in all; a
		// perfect line has every pairwise slope equal, so the interval is too.
		{"ramp", ramp, []string{"times rose 25% of the median from the first sample to the last (95% CI 25% to 25%, p < 0.001, 30 samples)"}, []string{"few", "outlier"}},
		{"fall", fall, []string{"times fell 25% of the median from the first sample to the last (95% CI 25% to 25%"}, nil},
		{"flat", flat, nil, []string{"times", "noisy", "few", "outlier"}},
		{"outlier", ns(100, 101, 99, 100, 102, 98, 100, 101, 99, 500), []string{"1 outlier of 10 samples"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(tt.in, StatsSettings{})
			for _, w := range tt.want {
				if !hasWarning(s.Warnings, w) {
					t.Errorf("no %q warning in %q", w, s.Warnings)
				}
			}
			for _, w := range tt.notWant {
				if hasWarning(s.Warnings, w) {
					t.Errorf("unexpected %q warning in %q", w, s.Warnings)
				}
			}
			if s.Warnings == nil || s.OutlierIndexes == nil {
				t.Error("nil slices would encode as null")
			}
		})
	}
	s := Summarize(ramp, StatsSettings{})
	checkFloat(t, "trend", s.Trend, 200.0/1145, 1e-9)
	if s.TrendP > 1e-6 {
		t.Errorf("trend p = %g on a perfect ramp", s.TrendP)
	}
}

func TestRanks(t *testing.T) {
	got := ranks([]float64{10, 30, 20, 20, 5})
	if want := []float64{2, 5, 3.5, 3.5, 1}; !slices.Equal(got, want) {
		t.Errorf("ranks = %v, want %v", got, want)
	}
}

func TestComputeThroughput(t *testing.T) {
	s := Summary{Median: 2 * time.Millisecond, Min: time.Millisecond}
	tp := ComputeThroughput(SetupInfo{BytesPerLaunch: 4_000_000, OpsPerLaunch: 1_000_000, OpsUnit: "item"}, s)
	checkFloat(t, "GB/s", tp.GBPerSecond, 2, 1e-9)
	checkFloat(t, "best GB/s", tp.BestGBPerSecond, 4, 1e-9)
	checkFloat(t, "G/s", tp.GOpsPerSecond, 0.5, 1e-9)
	checkFloat(t, "best G/s", tp.BestGOpsPerSecond, 1, 1e-9)
	if ComputeThroughput(SetupInfo{}, s) != nil {
		t.Error("throughput without bytes or ops")
	}
}

func TestOutlierThreshold(t *testing.T) {
	// Median 100 and MAD 1 in both: the threshold is 3.5 * 1.4826 = 5.19 away.
	base := []float64{100, 101, 99, 100, 102, 98, 100, 101, 99}
	for _, tt := range []struct {
		last float64
		want []int
	}{{106, []int{9}}, {105, []int{}}, {94, []int{9}}, {95, []int{}}} {
		s := Summarize(ns(append(slices.Clone(base), tt.last)...), StatsSettings{})
		if !slices.Equal(s.OutlierIndexes, tt.want) {
			t.Errorf("last sample %v: outliers %v, want %v", tt.last, s.OutlierIndexes, tt.want)
		}
	}
}

// A file written before the interval's fields were renamed is read: its 95%
// interval kept, a narrower-coverage one (n < 6) dropped.
func TestSummaryReadsOldFields(t *testing.T) {
	var s Summary
	if err := json.Unmarshal([]byte(`{"n":10,"median_ns":100,"ci95_low_ns":90,"ci95_high_ns":110,"ci_confidence":0.978,"noise":0.1}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.CI95Low != 90 || s.CI95High != 110 || s.CILevel != 0.95 || !s.HasCI() {
		t.Errorf("old 95%% interval not read: %+v", s)
	}
	s = Summary{}
	if err := json.Unmarshal([]byte(`{"n":2,"median_ns":100,"ci95_low_ns":90,"ci95_high_ns":110,"ci_confidence":0.5,"noise":0.1}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.HasCI() || s.Noise != 0 || s.CIConfidence != 0 {
		t.Errorf("a 50%% interval read as a CI: %+v", s)
	}
	b, _ := json.Marshal(Summarize(ns(1, 2), StatsSettings{}))
	if strings.Contains(string(b), "ci") && strings.Contains(string(b), "_low") {
		t.Errorf("n=2 writes an interval: %s", b)
	}
	b, _ = json.Marshal(Summarize(ns(1, 2, 3, 4, 5, 6, 7, 8), StatsSettings{Confidence: 0.9}))
	if !strings.Contains(string(b), `"ci_level":0.9`) || strings.Contains(string(b), "ci95") {
		t.Errorf("a 90%% interval is not labelled so: %s", b)
	}
}

// TestTrendWarningTotal: a noisy fall of 3 ns a sample over 27 samples around
// 100 ns is a fall of about 78% of the median over the run, and the interval
// brackets it; the words quote the total, never the per-sample drift.
func TestTrendWarningTotal(t *testing.T) {
	x := make([]time.Duration, 27)
	for i := range x {
		x[i] = time.Duration(140 - 3*i + []int{0, 2, -2, 1, -1}[i%5])
	}
	s := Summarize(x, StatsSettings{})
	var w string
	for _, v := range s.Warnings {
		if strings.HasPrefix(v, "times fell") {
			w = v
		}
	}
	if w == "" {
		t.Fatalf("no trend warning in %q", s.Warnings)
	}
	var total, lo, hi float64
	if _, err := fmt.Sscanf(w, "times fell %g%% of the median from the first sample to the last (95%% CI %g%% to %g%%", &total, &lo, &hi); err != nil {
		t.Fatalf("%q: %v", w, err)
	}
	want := -100 * s.TrendSlope * float64(s.N-1)
	if math.Abs(total-want) > 0.6 || lo > total || hi < total || lo <= 0 {
		t.Errorf("%q: total %g%% (want %.3g%%), CI %g%% to %g%%", w, total, want, lo, hi)
	}
	if slope, _, _ := theilSen(durationsToFloat(x), 0.95); math.Abs(slope+3) > 0.5 {
		t.Errorf("Theil-Sen slope %g, want about -3", slope)
	}
}

// TestCVAndCIUndefinedBelowTheirN: one sample has no CV and five no 95% CI;
// their texts say so instead of "0%".
func TestCVAndCIUndefinedBelowTheirN(t *testing.T) {
	one := Summarize(ns(100), StatsSettings{})
	if got := one.CVText(); got != "-" {
		t.Errorf("CV text at n=1: %q", got)
	}
	if one.HasCI() {
		t.Errorf("a CI at n=1: %+v", one)
	}
	five := Summarize(ns(100, 110, 90, 105, 95), StatsSettings{})
	if five.HasCI() || five.CVText() == "-" || five.CVText() == "0%" {
		t.Errorf("n=5: CI %v, CV %q", five.HasCI(), five.CVText())
	}
	if six := Summarize(ns(100, 110, 90, 105, 95, 101), StatsSettings{}); !six.HasCI() {
		t.Error("no CI at n=6")
	}
}
